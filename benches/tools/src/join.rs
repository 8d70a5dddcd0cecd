//! Exact set-similarity join: every pair of sets whose Jaccard is >= a
//! floor, with no sampling and no hashing.
//!
//! The algorithm is PPJoin (Xiao, Wang, Lin and Yu, "Efficient similarity
//! joins for near duplicate detection", WWW 2008): tokens are renumbered by
//! increasing document frequency, so every set starts with its rarest
//! tokens; two sets with Jaccard >= t must share a token among the first
//! |x| - ceil(t |x|) + 1 of the larger one (prefix filter) and have sizes
//! within a factor t (size filter), and a candidate is dropped as soon as
//! the tokens left after a common one cannot reach the overlap needed
//! (positional filter). A candidate that survives is counted exactly
//! (stopping early when the overlap needed is out of reach), and one that
//! reaches it gets its Jaccard from [`crate::shingle::jaccard`], the same
//! function [`brute_force`] uses, so the two agree to the bit. Filters only ever err towards more candidates:
//! their bounds are computed with a margin of 1e-9.
//!
//! Sets are processed by increasing size; the index holds each set's
//! mid-prefix (|x| - ceil(2t/(1+t) |x|) + 1 tokens), built once, and every
//! set probes it in parallel for the sets before it, so the result does not
//! depend on the number of threads.

use rayon::prelude::*;

use crate::shingle::jaccard;

/// A pair of sets (by their index, `a < b`) and their Jaccard.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JoinPair {
    /// The smaller index.
    pub a: u32,
    /// The larger index.
    pub b: u32,
    /// |A ∩ B| / |A ∪ B|.
    pub jaccard: f64,
}

/// Counts of one join, for the summary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JoinStats {
    /// Distinct tokens over all sets.
    pub tokens: usize,
    /// Sets with no token (each pair of them has Jaccard 1).
    pub empty: usize,
    /// Candidate pairs whose Jaccard was computed.
    pub verified: u64,
}

const MARGIN: f64 = 1e-9;

/// ceil(x - MARGIN), as a count.
fn at_least(x: f64) -> usize {
    (x - MARGIN).ceil().max(0.0) as usize
}

/// Renumbers tokens by increasing document frequency (ties by key), and
/// returns each set as its sorted new numbers: rarest first.
pub fn rank_tokens(sets: Vec<Vec<u128>>) -> (Vec<Vec<u32>>, usize) {
    let mut all: Vec<u128> = sets.iter().flatten().copied().collect();
    all.par_sort_unstable();
    // Distinct keys and their document frequency (each set is distinct).
    let mut keys: Vec<u128> = Vec::new();
    let mut freq: Vec<u32> = Vec::new();
    for k in all {
        if keys.last() == Some(&k) {
            *freq.last_mut().expect("a key has a count") += 1;
        } else {
            keys.push(k);
            freq.push(1);
        }
    }
    let mut by_freq: Vec<u32> = (0..keys.len() as u32).collect();
    by_freq.par_sort_unstable_by_key(|&i| (freq[i as usize], i));
    let mut rank = vec![0u32; keys.len()];
    for (r, &i) in by_freq.iter().enumerate() {
        rank[i as usize] = r as u32;
    }
    let ranked = sets
        .into_par_iter()
        .map(|set| {
            let mut out: Vec<u32> = set
                .iter()
                .map(|k| rank[keys.binary_search(k).expect("every key is listed")])
                .collect();
            out.sort_unstable();
            out
        })
        .collect();
    (ranked, keys.len())
}

/// Whether two sorted sets have at least `need` items in common; stops as
/// soon as the items left cannot make up the difference.
fn overlap_reaches(x: &[u32], y: &[u32], need: usize) -> bool {
    let (mut i, mut j, mut common) = (0, 0, 0);
    while i < x.len() && j < y.len() {
        if common + (x.len() - i).min(y.len() - j) < need {
            return false;
        }
        match x[i].cmp(&y[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                common += 1;
                i += 1;
                j += 1;
            }
        }
    }
    common >= need
}

/// Every pair of sets with Jaccard >= `floor` (0 < floor <= 1), sorted by
/// (a, b). Sets must be sorted and distinct, as [`rank_tokens`] makes them;
/// the filters are fastest when low numbers are rare tokens. Two empty sets
/// have Jaccard 1.
pub fn similarity_join(sets: &[Vec<u32>], floor: f64) -> (Vec<JoinPair>, JoinStats) {
    assert!(floor > 0.0 && floor <= 1.0, "floor in (0, 1]");
    let t = floor;
    let empty: Vec<u32> = (0..sets.len() as u32)
        .filter(|&i| sets[i as usize].is_empty())
        .collect();
    // Processing order: non-empty sets by size, then index.
    let mut order: Vec<u32> = (0..sets.len() as u32)
        .filter(|&i| !sets[i as usize].is_empty())
        .collect();
    order.sort_by_key(|&i| (sets[i as usize].len(), i));
    let len = |p: u32| sets[order[p as usize] as usize].len();

    // The index: token -> (position in order, position in the set), in
    // order of position, laid out as one array with offsets.
    let tokens = sets
        .iter()
        .flatten()
        .map(|&x| x as usize + 1)
        .max()
        .unwrap_or(0);
    let mid_prefix = |n: usize| (n - at_least(2.0 * t / (1.0 + t) * n as f64).min(n) + 1).min(n);
    let mut start = vec![0usize; tokens + 1];
    for &i in &order {
        let set = &sets[i as usize];
        for &tok in &set[..mid_prefix(set.len())] {
            start[tok as usize + 1] += 1;
        }
    }
    for k in 0..tokens {
        start[k + 1] += start[k];
    }
    let mut postings = vec![(0u32, 0u32); start[tokens]];
    let mut fill = start.clone();
    for (p, &i) in order.iter().enumerate() {
        let set = &sets[i as usize];
        for (j, &tok) in set[..mid_prefix(set.len())].iter().enumerate() {
            postings[fill[tok as usize]] = (p as u32, j as u32);
            fill[tok as usize] += 1;
        }
    }

    let probe =
        |p: u32, overlap: &mut Vec<i32>, touched: &mut Vec<u32>, out: &mut Vec<JoinPair>| {
            let xi = order[p as usize];
            let x = &sets[xi as usize];
            let nx = x.len();
            let min_len = at_least(t * nx as f64).max(1);
            let prefix = nx - min_len.min(nx) + 1;
            for (i, &tok) in x[..prefix.min(nx)].iter().enumerate() {
                let list = &postings[start[tok as usize]..start[tok as usize + 1]];
                // Lists are in order of position, so of size: skip the short.
                let from = list.partition_point(|&(q, _)| len(q) < min_len);
                for &(q, j) in &list[from..] {
                    if q >= p {
                        break;
                    }
                    let a = &mut overlap[q as usize];
                    if *a < 0 {
                        continue; // pruned
                    }
                    let ny = len(q);
                    let need = at_least(t / (1.0 + t) * (nx + ny) as f64);
                    let bound = *a as usize + 1 + (nx - i - 1).min(ny - j as usize - 1);
                    if *a == 0 {
                        touched.push(q);
                    }
                    if bound >= need {
                        *a += 1;
                    } else {
                        *a = -1;
                    }
                }
            }
            let mut verified = 0u64;
            for &q in touched.iter() {
                if overlap[q as usize] > 0 {
                    verified += 1;
                    let yi = order[q as usize];
                    let y = &sets[yi as usize];
                    let need = at_least(t / (1.0 + t) * (nx + y.len()) as f64);
                    let j = if overlap_reaches(x, y, need) {
                        jaccard(x, y)
                    } else {
                        0.0
                    };
                    if j >= floor {
                        out.push(JoinPair {
                            a: xi.min(yi),
                            b: xi.max(yi),
                            jaccard: j,
                        });
                    }
                }
                overlap[q as usize] = 0;
            }
            touched.clear();
            verified
        };

    let n = order.len();
    let (mut pairs, verified) = (0..n as u32)
        .into_par_iter()
        .with_min_len(64)
        .fold(
            || (vec![0i32; n], Vec::new(), Vec::new(), 0u64),
            |(mut overlap, mut touched, mut out, verified), p| {
                let v = probe(p, &mut overlap, &mut touched, &mut out);
                (overlap, touched, out, verified + v)
            },
        )
        .map(|(_, _, out, verified)| (out, verified))
        .reduce(
            || (Vec::new(), 0),
            |(mut a, va), (b, vb)| {
                a.extend(b);
                (a, va + vb)
            },
        );
    for (k, &a) in empty.iter().enumerate() {
        for &b in &empty[k + 1..] {
            pairs.push(JoinPair { a, b, jaccard: 1.0 });
        }
    }
    pairs.par_sort_unstable_by_key(|p| (p.a, p.b));
    let stats = JoinStats {
        tokens,
        empty: empty.len(),
        verified,
    };
    (pairs, stats)
}

/// The reference: every pair, Jaccard computed, kept when >= `floor`;
/// sorted by (a, b). Quadratic: for tests and checks on small corpora.
pub fn brute_force<T: Ord + Sync>(sets: &[Vec<T>], floor: f64) -> Vec<JoinPair> {
    let n = sets.len();
    (0..n)
        .into_par_iter()
        .flat_map_iter(|a| {
            (a + 1..n).filter_map(move |b| {
                let j = jaccard(&sets[a], &sets[b]);
                (j >= floor).then_some(JoinPair {
                    a: a as u32,
                    b: b as u32,
                    jaccard: j,
                })
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::Feature;
    use crate::rng::Rng;

    /// A random corpus with planted near-copies: words from a small
    /// vocabulary (so unrelated texts share some shingles), copies with a
    /// few edits, exact copies, very short and empty texts.
    fn corpus(rng: &mut Rng, docs: usize) -> Vec<String> {
        let vocab: Vec<String> = (0..40).map(|i| format!("w{i}")).collect();
        let mut texts: Vec<String> = Vec::new();
        for _ in 0..docs {
            let text = if !texts.is_empty() && rng.chance(0.5) {
                let base = texts[rng.below(texts.len())].clone();
                let mut words: Vec<&str> = base.split(' ').collect();
                for _ in 0..rng.below(4) {
                    let at = rng.below(words.len() + 1);
                    match rng.below(3) {
                        0 if at < words.len() => {
                            words.remove(at);
                        }
                        1 if at < words.len() => words[at] = &vocab[rng.below(vocab.len())],
                        _ => words.insert(at, &vocab[rng.below(vocab.len())]),
                    }
                }
                words.join(" ")
            } else {
                let n = match rng.below(4) {
                    0 => rng.below(3),
                    _ => rng.range(3, 40),
                };
                (0..n)
                    .map(|_| vocab[rng.below(vocab.len())].as_str())
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            texts.push(text);
        }
        texts
    }

    #[test]
    fn join_equals_brute_force_on_random_corpora() {
        let mut checked = 0;
        for seed in 0..12u64 {
            let mut rng = Rng::new(seed);
            let docs = 20 + rng.below(60);
            let texts = corpus(&mut rng, docs);
            for feature in [
                Feature::Words(1),
                Feature::Words(3),
                Feature::Chars(2),
                Feature::Chars(5),
            ] {
                let sets = feature.corpus(&texts);
                let (ranked, _) = rank_tokens(sets.clone());
                for floor in [0.3, 0.5, 0.8, 0.95, 1.0] {
                    let expected = brute_force(&sets, floor);
                    let (got, stats) = similarity_join(&ranked, floor);
                    assert_eq!(got, expected, "seed {seed}, {feature}, floor {floor}");
                    let empty_pairs = stats.empty * stats.empty.saturating_sub(1) / 2;
                    assert!(stats.verified as usize + empty_pairs >= got.len());
                    checked += got.len();
                }
            }
        }
        assert!(
            checked > 1000,
            "the corpora must have pairs to find: {checked}"
        );
    }

    #[test]
    fn ranks_put_rare_tokens_first_and_keep_jaccard() {
        let sets = vec![vec![10u128, 20, 30], vec![20, 30], vec![30]];
        let (ranked, tokens) = rank_tokens(sets.clone());
        assert_eq!(tokens, 3);
        // 10 is in one set, 20 in two, 30 in three.
        assert_eq!(ranked, [vec![0, 1, 2], vec![1, 2], vec![2]]);
        for a in 0..3 {
            for b in 0..3 {
                assert_eq!(jaccard(&ranked[a], &ranked[b]), jaccard(&sets[a], &sets[b]));
            }
        }
    }

    #[test]
    fn empty_sets_pair_with_each_other_only() {
        let sets = vec![vec![], vec![0u32], vec![], vec![0]];
        let (pairs, stats) = similarity_join(&sets, 0.5);
        assert_eq!(stats.empty, 2);
        let ab: Vec<(u32, u32)> = pairs.iter().map(|p| (p.a, p.b)).collect();
        assert_eq!(ab, [(0, 2), (1, 3)]);
        assert!(pairs.iter().all(|p| p.jaccard == 1.0));
    }

    #[test]
    fn boundary_jaccard_is_kept() {
        // 4 of 5 in common: Jaccard exactly 0.8 in exact arithmetic.
        let sets = vec![vec![0u32, 1, 2, 3], vec![0, 1, 2, 3, 4]];
        let (pairs, _) = similarity_join(&sets, 0.8);
        assert_eq!(pairs.len(), 1);
        assert_eq!(brute_force(&sets, 0.8), pairs);
    }
}
