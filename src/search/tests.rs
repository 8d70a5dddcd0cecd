//! Tests of the whole search against a naive reference over raw input.

use std::collections::BTreeMap;

use proptest::prelude::*;

use super::*;

/// A small deterministic generator (splitmix64) so one proptest seed
/// describes a whole input of thousands of fingerprints.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// `n` random fingerprints (or, when `dense`, fingerprints confined to
/// 2k + 12 random bits, so that many share block keys and a few percent of
/// all pairs fall within k), then copies of
/// random ones with exactly d bits flipped for every d in 0..=k+2, and
/// unique ids in scrambled order.
fn planted(seed: u64, n: usize, k: u32, dense: bool) -> Vec<(DocId, u64)> {
    let mut rng = Rng(seed);
    let mut mask = u64::MAX;
    if dense {
        mask = 0;
        while mask.count_ones() < (2 * k + 12).min(64) {
            mask |= 1 << rng.below(64);
        }
    }
    let mut fps: Vec<u64> = (0..n).map(|_| rng.next() & mask).collect();
    if n > 0 {
        for d in 0..=k + 2 {
            for _ in 0..1 + n / 64 {
                let mut fp = fps[rng.below(fps.len() as u64) as usize];
                let mut flipped = 0u64;
                while flipped.count_ones() < d {
                    flipped |= 1 << rng.below(64);
                }
                fp ^= flipped;
                fps.push(fp);
            }
        }
    }
    let offset = rng.below(1000) as u32;
    fps.iter()
        .enumerate()
        .map(|(i, &fp)| {
            (
                (i as u32).wrapping_mul(2_654_435_761) % 1_000_003 + offset,
                fp,
            )
        })
        .collect()
}

/// Every pair within k over the raw input, and its components.
fn reference(input: &[(DocId, u64)], k: u32) -> (Vec<Pair>, Vec<Vec<DocId>>) {
    let mut entries = input.to_vec();
    entries.sort_unstable();
    entries.dedup();
    let mut pairs = Vec::new();
    for (i, &(a, x)) in entries.iter().enumerate() {
        for &(b, y) in &entries[i + 1..] {
            let distance = (x ^ y).count_ones();
            if distance <= k {
                pairs.push(Pair {
                    distance,
                    a: a.min(b),
                    b: a.max(b),
                });
            }
        }
    }
    pairs.sort_unstable();
    (pairs.clone(), components(&pairs))
}

/// Components of a pair list (a plain union-find over ids).
fn components(pairs: &[Pair]) -> Vec<Vec<DocId>> {
    let mut parent: BTreeMap<DocId, DocId> = BTreeMap::new();
    fn root(parent: &mut BTreeMap<DocId, DocId>, mut x: DocId) -> DocId {
        while let Some(&up) = parent.get(&x).filter(|&&up| up != x) {
            x = up;
        }
        x
    }
    for p in pairs {
        parent.entry(p.a).or_insert(p.a);
        parent.entry(p.b).or_insert(p.b);
        let (ra, rb) = (root(&mut parent, p.a), root(&mut parent, p.b));
        parent.insert(ra.max(rb), ra.min(rb));
    }
    let ids: Vec<DocId> = parent.keys().copied().collect();
    let mut groups: BTreeMap<DocId, Vec<DocId>> = BTreeMap::new();
    for id in ids {
        let r = root(&mut parent, id);
        groups.entry(r).or_default().push(id);
    }
    groups.into_values().collect()
}

fn options(method: Method, max_distance: u32) -> SearchOptions {
    SearchOptions {
        max_distance,
        method,
        window: DEFAULT_WINDOW,
        max_pairs: u64::MAX,
    }
}

/// Runs `blocks::search` with a forced number of blocks.
fn with_blocks(input: &[(DocId, u64)], k: u32, m: u32) -> Vec<Pair> {
    with_blocks_levels(input, k, m, false)
}

/// Runs the block search with a forced number of blocks, in one level or
/// two (tables sharing their first key block's partition).
fn with_blocks_levels(input: &[(DocId, u64)], k: u32, m: u32, two_level: bool) -> Vec<Pair> {
    let shared = Shared::new(collapse::Collapsed::new(input).unwrap(), u64::MAX);
    let mut found = shared.sink();
    found.emit_repeats(None);
    let (tables, _) = blocks::search_with(&shared, k, m, two_level);
    found.finish().merge(tables).pairs.into_sorted()
}

/// The reference's pairs with a fingerprint held by a document of id
/// `fresh_from` or more.
fn touching(input: &[(DocId, u64)], pairs: &[Pair], fresh_from: DocId) -> Vec<Pair> {
    let fingerprint: BTreeMap<DocId, u64> = input.iter().copied().collect();
    let new: std::collections::BTreeSet<u64> = input
        .iter()
        .filter(|&&(id, _)| id >= fresh_from)
        .map(|&(_, fp)| fp)
        .collect();
    pairs
        .iter()
        .filter(|pair| new.contains(&fingerprint[&pair.a]) || new.contains(&fingerprint[&pair.b]))
        .copied()
        .collect()
}

/// The id from which a share `new_share` of the input's documents are new.
fn split(input: &[(DocId, u64)], new_share: f64) -> DocId {
    let mut ids: Vec<DocId> = input.iter().map(|&(id, _)| id).collect();
    ids.sort_unstable();
    ids.dedup();
    let old = (ids.len() as f64 * (1.0 - new_share)) as usize;
    ids.get(old).copied().unwrap_or(DocId::MAX)
}

/// Runs `against::probe` with a forced number of blocks.
fn with_probe(input: &[(DocId, u64)], k: u32, m: u32, fresh_from: DocId) -> Vec<Pair> {
    let shared = Shared::new(collapse::Collapsed::new(input).unwrap(), u64::MAX);
    let new: Vec<bool> = (0..shared.collapsed.len() as u32)
        .map(|i| shared.collapsed.ids(i).iter().any(|&id| id >= fresh_from))
        .collect();
    let mut found = shared.sink();
    found.emit_repeats(Some(&new));
    let (tables, _) = against::probe(&shared, k, m, &new);
    found.finish().merge(tables).pairs.into_sorted()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn against_equals_the_reference_pairs_with_a_new_document(
        seed in any::<u64>(),
        n in 0usize..2500,
        k in 0u32..=12,
        dense in any::<bool>(),
        new_share in 0.0f64..=1.0,
    ) {
        let input = planted(seed, n, k, dense);
        let fresh_from = split(&input, new_share);
        let (all, _) = reference(&input, k);
        let pairs = touching(&input, &all, fresh_from);
        for method in [Method::Exact, Method::Brute] {
            let outcome =
                search_against(&input, &options(method, k), |id| id >= fresh_from).unwrap();
            prop_assert_eq!(&outcome.pairs, &pairs, "{:?}", method);
            prop_assert_eq!(outcome.total_pairs, pairs.len() as u64);
            prop_assert_eq!(&outcome.groups, &components(&pairs));
        }
    }

    #[test]
    fn every_probe_block_count_is_exact(
        seed in any::<u64>(),
        n in 0usize..300,
        k in 1u32..=12,
        dense in any::<bool>(),
        extra in 1u32..=52,
        new_share in 0.0f64..=1.0,
    ) {
        let m = (k + 1..=(k + extra).min(64))
            .take_while(|&m| plan::binomial(m, k) <= 3000.0)
            .last()
            .unwrap_or(k + 1);
        let input = planted(seed, n, k, dense);
        let fresh_from = split(&input, new_share);
        let (all, _) = reference(&input, k);
        prop_assert_eq!(
            with_probe(&input, k, m, fresh_from),
            touching(&input, &all, fresh_from)
        );
    }

    #[test]
    fn exact_and_brute_equal_the_reference(
        seed in any::<u64>(),
        n in 0usize..2500,
        k in 0u32..=12,
        dense in any::<bool>(),
    ) {
        let input = planted(seed, n, k, dense);
        let (pairs, groups) = reference(&input, k);
        for method in [Method::Exact, Method::Brute] {
            let outcome = search(&input, &options(method, k)).unwrap();
            prop_assert_eq!(&outcome.pairs, &pairs, "{:?}", method);
            prop_assert_eq!(outcome.total_pairs, pairs.len() as u64);
            prop_assert_eq!(&outcome.groups, &groups);
        }
    }

    #[test]
    fn every_block_count_is_exact(
        seed in any::<u64>(),
        n in 0usize..300,
        k in 1u32..=12,
        dense in any::<bool>(),
        extra in 1u32..=52,
    ) {
        // Layouts of up to a few thousand tables (C(m, k) grows fast).
        let m = (k + 1..=(k + extra).min(64))
            .take_while(|&m| plan::binomial(m, k) <= 3000.0)
            .last()
            .unwrap_or(k + 1);
        let input = planted(seed, n, k, dense);
        let (pairs, _) = reference(&input, k);
        prop_assert_eq!(with_blocks(&input, k, m), pairs.clone());
        prop_assert_eq!(with_blocks_levels(&input, k, m, true), pairs);
    }

    #[test]
    fn rotate_finds_true_pairs_only(
        seed in any::<u64>(),
        n in 0usize..2000,
        k in 0u32..=12,
        dense in any::<bool>(),
        window in 1usize..20,
    ) {
        let input = planted(seed, n, k, dense);
        let (all, _) = reference(&input, k);
        let outcome = search(&input, &SearchOptions { window, ..options(Method::Rotate, k) }).unwrap();
        // Sorted, within k at the true distance, and a subset of all pairs.
        let mut it = all.iter();
        for pair in &outcome.pairs {
            prop_assert!(it.any(|p| p == pair), "{:?} is not a true pair", pair);
        }
        prop_assert_eq!(outcome.total_pairs, outcome.pairs.len() as u64);
        prop_assert_eq!(&outcome.groups, &components(&outcome.pairs));
        // Every pair at distance 0 (repeated fingerprints) is found.
        let exact_copies = all.iter().filter(|p| p.distance == 0).count();
        prop_assert_eq!(outcome.pairs.iter().filter(|p| p.distance == 0).count(), exact_copies);
    }

    #[test]
    fn max_pairs_keeps_the_first_and_counts_all(
        seed in any::<u64>(),
        n in 0usize..600,
        k in 0u32..=8,
        cap in 0u64..50,
        copies in 0usize..40,
    ) {
        let mut input = planted(seed, n, k, true);
        // Many documents sharing a few fingerprints make quadratic outputs.
        let base = input.len() as u32 + 2_000_000;
        for i in 0..copies {
            input.push((base + i as u32, (i % 3) as u64));
        }
        let (pairs, groups) = reference(&input, k);
        for method in [Method::Exact, Method::Brute] {
            let outcome = search(&input, &SearchOptions { max_pairs: cap, ..options(method, k) }).unwrap();
            prop_assert_eq!(&outcome.pairs[..], &pairs[..pairs.len().min(cap as usize)]);
            prop_assert_eq!(outcome.total_pairs, pairs.len() as u64);
            prop_assert_eq!(&outcome.groups, &groups);
        }
    }

    #[test]
    fn repeated_entries_count_once(
        seed in any::<u64>(),
        n in 1usize..300,
        k in 0u32..=6,
    ) {
        let input = planted(seed, n, k, false);
        let mut doubled = input.clone();
        doubled.extend(input.iter().rev().copied());
        let once = search(&input, &options(Method::Exact, k)).unwrap();
        let twice = search(&doubled, &options(Method::Exact, k)).unwrap();
        prop_assert_eq!(once.pairs, twice.pairs);
        prop_assert_eq!(once.groups, twice.groups);
    }
}

#[test]
fn two_levels_are_exact_on_partitions_grouped_unpermuted() {
    // Thousands of fingerprints put at least 64 in a partition of the
    // first key block, where the rest of the key groups them unpermuted.
    for (k, m) in [(9, 12), (12, 16), (6, 9)] {
        for dense in [false, true] {
            let input = planted(u64::from(k * m), 6000, k, dense);
            let (pairs, _) = reference(&input, k);
            assert!(!pairs.is_empty());
            assert_eq!(with_blocks_levels(&input, k, m, true), pairs, "k={k} m={m}");
        }
    }
}

#[test]
fn same_result_on_any_number_of_threads() {
    let input = planted(7, 20_000, 5, false);
    for method in [Method::Exact, Method::Rotate, Method::Brute] {
        let opts = SearchOptions {
            max_pairs: 100,
            ..options(method, 5)
        };
        let runs: Vec<SearchOutcome> = [1, 2, 3]
            .iter()
            .map(|&threads| {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                pool.install(|| search(&input, &opts).unwrap())
            })
            .collect();
        for run in &runs[1..] {
            assert_eq!(run.pairs, runs[0].pairs, "{method:?}");
            assert_eq!(run.total_pairs, runs[0].total_pairs);
            assert_eq!(run.groups, runs[0].groups);
            assert_eq!(run.stats.comparisons, runs[0].stats.comparisons);
            assert_eq!(run.stats.largest_bucket, runs[0].stats.largest_bucket);
        }
        assert!(runs[0].total_pairs > 100, "{method:?}: the cap must bite");
    }
}

#[test]
fn many_copies_make_one_group_without_expanding_pairs() {
    let copies = 100_000u32;
    let mut input: Vec<(DocId, u64)> = (0..copies).map(|id| (id, 0xdead_beef)).collect();
    input.push((copies, 0xdead_beef ^ 1));
    input.push((copies + 1, u64::MAX));
    let outcome = search(
        &input,
        &SearchOptions {
            max_pairs: 10,
            ..options(Method::Exact, 3)
        },
    )
    .unwrap();
    let c = u64::from(copies);
    assert_eq!(outcome.total_pairs, c * (c - 1) / 2 + c);
    assert_eq!(outcome.pairs.len(), 10);
    assert_eq!(
        outcome.pairs[0],
        Pair {
            distance: 0,
            a: 0,
            b: 1
        }
    );
    assert_eq!(
        outcome.pairs[9],
        Pair {
            distance: 0,
            a: 0,
            b: 10
        }
    );
    assert_eq!(outcome.groups.len(), 1);
    assert_eq!(outcome.groups[0], (0..=copies).collect::<Vec<_>>());
    assert_eq!(outcome.stats.unique_fingerprints, 3);
}

#[test]
fn tiny_inputs() {
    for method in [Method::Exact, Method::Rotate, Method::Brute] {
        let empty = search(&[], &options(method, 3)).unwrap();
        assert!(empty.pairs.is_empty() && empty.groups.is_empty() && empty.total_pairs == 0);
        let one = search(&[(4, 9)], &options(method, 3)).unwrap();
        assert!(one.pairs.is_empty() && one.groups.is_empty());
        let two = search(&[(4, 0b1011), (2, 0b0001)], &options(method, 3)).unwrap();
        assert_eq!(
            two.pairs,
            vec![Pair {
                distance: 2,
                a: 2,
                b: 4
            }]
        );
        assert_eq!(two.groups, vec![vec![2, 4]]);
        let far = search(&[(4, 0b1111), (2, 0)], &options(method, 3)).unwrap();
        assert!(far.pairs.is_empty() && far.groups.is_empty());
    }
}

#[test]
fn k_zero_finds_identical_fingerprints_only() {
    let input = [(0, 5), (1, 4), (2, 5), (3, 7)];
    let outcome = search(&input, &options(Method::Exact, 0)).unwrap();
    assert_eq!(
        outcome.pairs,
        vec![Pair {
            distance: 0,
            a: 0,
            b: 2
        }]
    );
    assert_eq!(outcome.groups, vec![vec![0, 2]]);
}

#[test]
fn largest_k_is_exact() {
    let input = planted(3, 400, MAX_DISTANCE, true);
    let (pairs, groups) = reference(&input, MAX_DISTANCE);
    let outcome = search(&input, &options(Method::Exact, MAX_DISTANCE)).unwrap();
    assert_eq!(outcome.pairs, pairs);
    assert_eq!(outcome.groups, groups);
    for m in [33, 34, 35] {
        assert_eq!(with_blocks(&input, MAX_DISTANCE, m), pairs, "m={m}");
    }
}

#[test]
fn bad_options_are_usage_errors() {
    let input = [(0, 1), (1, 2)];
    let too_far = search(&input, &options(Method::Exact, MAX_DISTANCE + 1));
    assert!(matches!(too_far, Err(crate::Error::Usage(m)) if m.contains("33")));
    let no_window = search(
        &input,
        &SearchOptions {
            window: 0,
            ..options(Method::Rotate, 3)
        },
    );
    assert!(matches!(no_window, Err(crate::Error::Usage(m)) if m.contains("window")));
    let huge_window = search(
        &input,
        &SearchOptions {
            window: usize::MAX,
            ..options(Method::Rotate, 3)
        },
    );
    assert_eq!(
        huge_window.unwrap().pairs,
        vec![Pair {
            distance: 2,
            a: 0,
            b: 1
        }]
    );
    let two_fingerprints = search(&[(1, 1), (1, 2)], &options(Method::Brute, 3));
    assert!(matches!(two_fingerprints, Err(crate::Error::Usage(_))));
}

#[test]
fn method_names_round_trip() {
    for method in [Method::Exact, Method::Rotate, Method::Brute] {
        assert_eq!(method.to_string().parse::<Method>().unwrap(), method);
    }
    assert!(matches!("fast".parse::<Method>(), Err(crate::Error::Usage(m)) if m.contains("fast")));
}

#[test]
fn stats_describe_the_plan() {
    let input = planted(11, 50_000, 3, false);
    let outcome = search(&input, &options(Method::Exact, 3)).unwrap();
    let stats = &outcome.stats;
    assert_eq!(
        stats.unique_fingerprints,
        input
            .iter()
            .map(|e| e.1)
            .collect::<std::collections::BTreeSet<_>>()
            .len() as u64
    );
    assert!(stats.blocks > 3);
    assert!(stats.tables >= 4);
    assert!(stats.comparisons < 50_000 * 100, "{stats:?}");
    let rotate = search(&input, &options(Method::Rotate, 3)).unwrap();
    assert_eq!(rotate.stats.tables, 64);
}
