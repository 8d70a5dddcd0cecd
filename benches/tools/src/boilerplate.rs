//! Corpus-aware down-weighting of boilerplate, measured: the document
//! frequency of every word 3-shingle (over a whole corpus or a sample of
//! it), 64-bit SimHash fingerprints under several weightings, and for each
//! weighting the candidate pairs within k and the recall of the relevant
//! pairs.
//!
//! Independent of simdup's code: the features are the word 3-shingles of
//! [`crate::shingle`], each hashed by a splitmix64 mix of its exact key.
//! Bit i of a fingerprint is 1 when the weights of the features with bit i
//! set outweigh the others (a tie gives 0), as in simdup. A weighting only
//! decides which pairs become candidates: relevance is the exact Jaccard of
//! all features, unweighted (the truth file's).

use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

use rayon::prelude::*;

use crate::shingle::{Interner, WORD_SHINGLE, word_shingle_counts, words};

/// The splitmix64 output function of `x`'s successor state.
pub fn mix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The 64-bit hash of an exact shingle key: both halves through splitmix64.
pub fn key_hash(key: u128) -> u64 {
    mix64((key as u64) ^ mix64((key >> 64) as u64))
}

/// Every document's word 3-shingles with their occurrences, as small
/// feature numbers, and each feature's hash.
#[derive(Debug, Default)]
pub struct Bags {
    /// Per document: `(feature, occurrences)`, sorted by feature.
    pub docs: Vec<Vec<(u32, u32)>>,
    /// Per feature: its hash ([`key_hash`] of its key).
    pub hashes: Vec<u64>,
}

impl Bags {
    /// The word 3-shingles of every text. Feature numbers are given in
    /// corpus order, so the result does not depend on the thread count.
    pub fn words3<S: AsRef<str> + Sync>(texts: &[S]) -> Bags {
        let mut interner = Interner::new();
        let mut numbers: HashMap<u128, u32> = HashMap::new();
        let mut bags = Bags::default();
        for chunk in texts.chunks(2048) {
            let words: Vec<Vec<String>> = chunk.par_iter().map(|t| words(t.as_ref())).collect();
            let ids: Vec<Vec<u32>> = words
                .iter()
                .map(|ws| ws.iter().map(|w| interner.id(w)).collect())
                .collect();
            let counts: Vec<Vec<(u128, u32)>> = ids
                .par_iter()
                .map(|ids| word_shingle_counts(ids, WORD_SHINGLE))
                .collect();
            for doc in counts {
                let mut bag: Vec<(u32, u32)> = doc
                    .into_iter()
                    .map(|(key, count)| {
                        let next = u32::try_from(numbers.len()).expect("fewer than 2^32 shingles");
                        let n = *numbers.entry(key).or_insert_with(|| {
                            bags.hashes.push(key_hash(key));
                            next
                        });
                        (n, count)
                    })
                    .collect();
                bag.sort_unstable();
                bags.docs.push(bag);
            }
        }
        bags
    }

    /// Number of documents.
    pub fn len(&self) -> usize {
        self.docs.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.docs.is_empty()
    }

    /// Number of distinct features.
    pub fn features(&self) -> usize {
        self.hashes.len()
    }

    /// The feature hashes under another seed: each hash mixed again with
    /// the seed (seed 0: [`Bags::hashes`] themselves). A bijection, so
    /// features collide no more than under seed 0.
    pub fn seeded_hashes(&self, seed: u64) -> Vec<u64> {
        if seed == 0 {
            return self.hashes.clone();
        }
        let s = mix64(seed);
        self.hashes.iter().map(|&h| mix64(h ^ s)).collect()
    }

    /// Number of (document, distinct feature) incidences.
    pub fn incidences(&self) -> usize {
        self.docs.iter().map(Vec::len).sum()
    }
}

/// The documents whose document frequencies are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sample {
    /// Every document.
    All,
    /// The first n documents in corpus order (all if there are fewer).
    First(usize),
    /// n documents spread evenly over the corpus: number i * len / n for
    /// i in 0..n (all if there are fewer).
    Spread(usize),
}

impl Sample {
    /// The numbers of the sampled documents of a corpus of `len`.
    pub fn documents(&self, len: usize) -> Vec<usize> {
        match *self {
            Sample::First(n) if n < len => (0..n).collect(),
            Sample::Spread(n) if n < len => (0..n).map(|i| i * len / n).collect(),
            _ => (0..len).collect(),
        }
    }
}

impl fmt::Display for Sample {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sample::All => write!(f, "all"),
            Sample::First(n) => write!(f, "first{n}"),
            Sample::Spread(n) => write!(f, "spread{n}"),
        }
    }
}

impl FromStr for Sample {
    type Err = String;

    fn from_str(s: &str) -> Result<Sample, String> {
        let bad = || format!("{s:?}: expected all, firstN or spreadN (N > 0)");
        let size = |n: &str| n.parse::<usize>().ok().filter(|&n| n > 0).ok_or_else(bad);
        if s == "all" {
            Ok(Sample::All)
        } else if let Some(n) = s.strip_prefix("first") {
            Ok(Sample::First(size(n)?))
        } else if let Some(n) = s.strip_prefix("spread") {
            Ok(Sample::Spread(size(n)?))
        } else {
            Err(bad())
        }
    }
}

/// Document frequencies: in how many sampled documents each feature occurs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Df {
    /// Per feature.
    pub counts: Vec<u32>,
    /// Documents in the sample.
    pub documents: usize,
}

/// The document frequency of every feature over a sample of the documents.
pub fn document_frequencies(bags: &Bags, sample: Sample) -> Df {
    let chosen = sample.documents(bags.len());
    let mut counts = vec![0u32; bags.features()];
    for &d in &chosen {
        for &(f, _) in &bags.docs[d] {
            counts[f as usize] += 1;
        }
    }
    Df {
        counts,
        documents: chosen.len(),
    }
}

/// How much each feature of a document counts in its fingerprint.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Weighting {
    /// Occurrences in the document (simdup's `--weight tf`).
    Tf,
    /// Each distinct feature once (simdup's `--weight binary`).
    Binary,
    /// 1 + ln(occurrences).
    Sublinear,
    /// Each distinct feature ln((n + 1) / (df + 1)), df and n counted over
    /// the sample: 0 for a feature of every sampled document, ln(n + 1)
    /// for one the sample never saw.
    Idf(Sample),
    /// Each distinct feature once, except those in at least `percent`% of
    /// the sampled documents, left out.
    Cut {
        /// The share of documents, in percent, from which a feature is left
        /// out.
        percent: f64,
        /// Where document frequencies are counted.
        sample: Sample,
    },
}

impl Weighting {
    /// The sample this weighting counts document frequencies over.
    pub fn sample(&self) -> Option<Sample> {
        match *self {
            Weighting::Idf(s) | Weighting::Cut { sample: s, .. } => Some(s),
            _ => None,
        }
    }
}

impl fmt::Display for Weighting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = |s: Sample| match s {
            Sample::All => String::new(),
            s => format!("@{s}"),
        };
        match *self {
            Weighting::Tf => write!(f, "tf"),
            Weighting::Binary => write!(f, "binary"),
            Weighting::Sublinear => write!(f, "sublinear"),
            Weighting::Idf(s) => write!(f, "idf{}", at(s)),
            Weighting::Cut { percent, sample } => write!(f, "cut{percent}{}", at(sample)),
        }
    }
}

impl FromStr for Weighting {
    type Err = String;

    /// `tf`, `binary`, `sublinear`, `idf[@SAMPLE]`, `cutPERCENT[@SAMPLE]`
    /// (`cut2@first1000`: features in >= 2% of the first 1,000 documents
    /// left out).
    fn from_str(s: &str) -> Result<Weighting, String> {
        let (name, sample) = match s.split_once('@') {
            Some((name, sample)) => (name, sample.parse()?),
            None => (s, Sample::All),
        };
        let plain = |w: Weighting| {
            if s.contains('@') {
                Err(format!("{s:?}: {w} takes no sample"))
            } else {
                Ok(w)
            }
        };
        match name {
            "tf" => plain(Weighting::Tf),
            "binary" => plain(Weighting::Binary),
            "sublinear" => plain(Weighting::Sublinear),
            "idf" => Ok(Weighting::Idf(sample)),
            _ => {
                let percent = name
                    .strip_prefix("cut")
                    .and_then(|p| p.parse::<f64>().ok())
                    .filter(|p| *p > 0.0 && *p <= 100.0)
                    .ok_or_else(|| {
                        format!(
                            "{s:?}: expected tf, binary, sublinear, idf[@SAMPLE] or cutPERCENT[@SAMPLE]"
                        )
                    })?;
                Ok(Weighting::Cut { percent, sample })
            }
        }
    }
}

/// The SimHash of weighted feature hashes: bit i is 1 when the features
/// with bit i set weigh more than those without.
pub fn simhash(features: impl IntoIterator<Item = (u64, f64)>) -> u64 {
    let mut sums = [0f64; 64];
    for (hash, weight) in features {
        for (bit, sum) in sums.iter_mut().enumerate() {
            *sum += if (hash >> bit) & 1 == 1 {
                weight
            } else {
                -weight
            };
        }
    }
    sums.iter().enumerate().fold(
        0,
        |fp, (bit, &sum)| if sum > 0.0 { fp | 1 << bit } else { fp },
    )
}

/// The fingerprints of a corpus under one weighting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fingerprints {
    /// Per document.
    pub fingerprints: Vec<u64>,
    /// Documents with features whose weights are all 0 (every feature cut,
    /// or in every sampled document): they fall back to binary weights, so
    /// copies of pure boilerplate still get equal fingerprints.
    pub fallbacks: usize,
    /// (document, feature) incidences with weight 0.
    pub zero_weighted: usize,
}

/// A weighting made concrete for one corpus: the weight of each feature
/// of each document.
#[derive(Clone, Debug)]
pub struct Weigher {
    weighting: Weighting,
    /// For the weightings with a sample: per feature.
    per_feature: Option<Vec<f64>>,
}

impl Weigher {
    /// `df` must be the document frequencies of the weighting's sample
    /// (ignored by the weightings without).
    pub fn new(weighting: Weighting, df: Option<&Df>) -> Weigher {
        let per_feature = weighting.sample().map(|_| {
            let df = df.expect("document frequencies for a weighting that uses them");
            let n = df.documents as f64;
            df.counts
                .iter()
                .map(|&c| match weighting {
                    Weighting::Idf(_) => ((n + 1.0) / (c as f64 + 1.0)).ln(),
                    Weighting::Cut { percent, .. } => {
                        if c as f64 >= percent / 100.0 * n {
                            0.0
                        } else {
                            1.0
                        }
                    }
                    _ => unreachable!("weightings with a sample"),
                })
                .collect()
        });
        Weigher {
            weighting,
            per_feature,
        }
    }

    /// The weight of a feature with `tf` occurrences, before any fallback.
    fn raw(&self, f: u32, tf: u32) -> f64 {
        match self.weighting {
            Weighting::Tf => tf as f64,
            Weighting::Binary => 1.0,
            Weighting::Sublinear => 1.0 + (tf as f64).ln(),
            _ => self.per_feature.as_ref().expect("per-feature weights")[f as usize],
        }
    }

    /// The weights of a document's features, in its order, and whether it
    /// fell back to binary weights (all its weights were 0).
    pub fn weights(&self, doc: &[(u32, u32)]) -> (Vec<f64>, bool) {
        let w: Vec<f64> = doc.iter().map(|&(f, tf)| self.raw(f, tf)).collect();
        if !w.is_empty() && w.iter().all(|&x| x <= 0.0) {
            (vec![1.0; w.len()], true)
        } else {
            (w, false)
        }
    }

    /// The weighted Jaccard sum(min) / sum(max) of two documents' weights
    /// (a feature one lacks weighs 0 there); 1 when both sums are 0. Under
    /// binary weights, the Jaccard of the sets.
    pub fn jaccard(&self, a: &[(u32, u32)], b: &[(u32, u32)]) -> f64 {
        let (wa, _) = self.weights(a);
        let (wb, _) = self.weights(b);
        let (mut i, mut j) = (0, 0);
        let (mut min, mut max) = (0.0, 0.0);
        while i < a.len() || j < b.len() {
            let fa = a.get(i).map_or(u32::MAX, |p| p.0);
            let fb = b.get(j).map_or(u32::MAX, |p| p.0);
            if i < a.len() && (j == b.len() || fa < fb) {
                max += wa[i];
                i += 1;
            } else if j < b.len() && (i == a.len() || fb < fa) {
                max += wb[j];
                j += 1;
            } else {
                min += wa[i].min(wb[j]);
                max += wa[i].max(wb[j]);
                i += 1;
                j += 1;
            }
        }
        if max > 0.0 { min / max } else { 1.0 }
    }
}

/// The fingerprint of every document under `weighting`, with `hashes` as
/// the feature hashes ([`Bags::hashes`] or [`Bags::seeded_hashes`]); `df`
/// must be the document frequencies of its sample (ignored by the
/// weightings without).
pub fn fingerprints(
    bags: &Bags,
    hashes: &[u64],
    weighting: Weighting,
    df: Option<&Df>,
) -> Fingerprints {
    let weigher = Weigher::new(weighting, df);
    let done: Vec<(u64, bool, usize)> = bags
        .docs
        .par_iter()
        .map(|doc| {
            let zero = doc
                .iter()
                .filter(|&&(f, tf)| weigher.raw(f, tf) <= 0.0)
                .count();
            let (w, fallback) = weigher.weights(doc);
            let fp = simhash(
                doc.iter()
                    .zip(w)
                    .map(|(&(f, _), w)| (hashes[f as usize], w)),
            );
            (fp, fallback, zero)
        })
        .collect();
    Fingerprints {
        fingerprints: done.iter().map(|d| d.0).collect(),
        fallbacks: done.iter().filter(|d| d.1).count(),
        zero_weighted: done.iter().map(|d| d.2).sum(),
    }
}

/// How many pairs of fingerprints are at each Hamming distance 0..=64
/// (every pair, brute force).
pub fn distance_histogram(fingerprints: &[u64]) -> [u64; 65] {
    (0..fingerprints.len())
        .into_par_iter()
        .fold(
            || [0u64; 65],
            |mut hist, i| {
                let a = fingerprints[i];
                for &b in &fingerprints[i + 1..] {
                    hist[(a ^ b).count_ones() as usize] += 1;
                }
                hist
            },
        )
        .reduce(
            || [0u64; 65],
            |mut x, y| {
                for (x, y) in x.iter_mut().zip(y) {
                    *x += y;
                }
                x
            },
        )
}

/// Candidates and recall of one weighting at every k, over one or more
/// runs (hash seeds): counts are summed over the runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Score {
    /// Runs pooled.
    pub runs: u64,
    /// Pairs at distance <= k, by k.
    pub candidates: [u64; 65],
    /// Relevant pairs (Jaccard >= threshold).
    pub relevant: u64,
    /// Relevant pairs at distance <= k, by k.
    pub relevant_within: [u64; 65],
    /// Hard relevant pairs (threshold <= Jaccard < the hard bound).
    pub hard: u64,
    /// Hard pairs at distance <= k, by k.
    pub hard_within: [u64; 65],
}

/// Running sums: `out[k]` is the sum of `counts[..=k]`.
fn cumulative(counts: [u64; 65]) -> [u64; 65] {
    let mut out = counts;
    for k in 1..65 {
        out[k] += out[k - 1];
    }
    out
}

/// Scores fingerprints against truth pairs `(a, b, jaccard)`: relevant when
/// jaccard >= `threshold`, hard when also below `hard_below`.
pub fn score(
    fingerprints: &[u64],
    truth: &[(u32, u32, f64)],
    threshold: f64,
    hard_below: f64,
) -> Score {
    let mut relevant = [0u64; 65];
    let mut hard = [0u64; 65];
    for &(a, b, j) in truth.iter().filter(|p| p.2 >= threshold) {
        let d = (fingerprints[a as usize] ^ fingerprints[b as usize]).count_ones() as usize;
        relevant[d] += 1;
        if j < hard_below {
            hard[d] += 1;
        }
    }
    Score {
        runs: 1,
        candidates: cumulative(distance_histogram(fingerprints)),
        relevant: relevant.iter().sum(),
        relevant_within: cumulative(relevant),
        hard: hard.iter().sum(),
        hard_within: cumulative(hard),
    }
}

impl Score {
    /// The runs of `scores` pooled: recalls become mean recalls.
    pub fn pool(scores: &[Score]) -> Score {
        let add = |a: [u64; 65], b: [u64; 65]| std::array::from_fn(|k| a[k] + b[k]);
        let mut out = scores[0].clone();
        for s in &scores[1..] {
            out.runs += s.runs;
            out.candidates = add(out.candidates, s.candidates);
            out.relevant += s.relevant;
            out.relevant_within = add(out.relevant_within, s.relevant_within);
            out.hard += s.hard;
            out.hard_within = add(out.hard_within, s.hard_within);
        }
        out
    }

    /// Candidates within k, the mean over runs.
    pub fn mean_candidates(&self, k: usize) -> f64 {
        self.candidates[k] as f64 / self.runs as f64
    }

    /// Recall at k: the share of relevant pairs within k (1 if none).
    pub fn recall(&self, k: usize) -> f64 {
        share(self.relevant_within[k], self.relevant)
    }

    /// Recall of the hard pairs at k (1 if none).
    pub fn hard_recall(&self, k: usize) -> f64 {
        share(self.hard_within[k], self.hard)
    }

    /// Candidates within k that are not relevant, the mean over runs.
    pub fn false_candidates(&self, k: usize) -> f64 {
        (self.candidates[k] - self.relevant_within[k]) as f64 / self.runs as f64
    }

    /// The least k whose recall is at least `recall`.
    pub fn k_for_recall(&self, recall: f64) -> usize {
        (0..65)
            .find(|&k| self.recall(k) >= recall)
            .expect("recall 1 at k = 64")
    }
}

fn share(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        1.0
    } else {
        part as f64 / whole as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Four documents; shingles abc (docs 0, 1, 3), bcd (0, 3), bce (1),
    /// xyz (2). Doc 3 repeats abc.
    const TEXTS: [&str; 4] = ["a b c d", "a b c e", "x y z", "a b c d a b c"];

    fn df(bags: &Bags, sample: Sample) -> Vec<u32> {
        document_frequencies(bags, sample).counts
    }

    #[test]
    fn bags_count_occurrences_of_the_definitions_shingles() {
        let bags = Bags::words3(&TEXTS);
        // abc, bcd, bce, xyz, then doc 3's new shingles cda and dab.
        assert_eq!(bags.features(), 6);
        assert_eq!(bags.docs[0], [(0, 1), (1, 1)]);
        assert_eq!(bags.docs[1], [(0, 1), (2, 1)]);
        assert_eq!(bags.docs[2], [(3, 1)]);
        assert_eq!(bags.docs[3], [(0, 2), (1, 1), (4, 1), (5, 1)]);
        assert_eq!(bags.incidences(), 9);
        let mut distinct = bags.hashes.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), 6);
    }

    #[test]
    fn seeds_give_other_hashes() {
        let bags = Bags::words3(&TEXTS);
        assert_eq!(bags.seeded_hashes(0), bags.hashes);
        let one = bags.seeded_hashes(1);
        assert_eq!(one, bags.seeded_hashes(1));
        assert!(one.iter().zip(&bags.hashes).all(|(a, b)| a != b));
    }

    #[test]
    fn document_frequencies_by_hand() {
        let bags = Bags::words3(&TEXTS);
        assert_eq!(df(&bags, Sample::All), [3, 2, 1, 1, 1, 1]);
        assert_eq!(df(&bags, Sample::First(2)), [2, 1, 1, 0, 0, 0]);
        // Spread 2 of 4: documents 0 and 2.
        assert_eq!(Sample::Spread(2).documents(4), [0, 2]);
        assert_eq!(df(&bags, Sample::Spread(2)), [1, 1, 0, 1, 0, 0]);
        assert_eq!(document_frequencies(&bags, Sample::First(2)).documents, 2);
        // A sample larger than the corpus is the corpus.
        assert_eq!(df(&bags, Sample::First(9)), df(&bags, Sample::All));
        assert_eq!(Sample::Spread(9).documents(3), [0, 1, 2]);
    }

    #[test]
    fn names_round_trip() {
        for name in [
            "tf",
            "binary",
            "sublinear",
            "idf",
            "idf@first1000",
            "cut2",
            "cut0.5@spread1000",
        ] {
            assert_eq!(name.parse::<Weighting>().unwrap().to_string(), name);
        }
        assert_eq!(
            "cut1@first5".parse::<Weighting>(),
            Ok(Weighting::Cut {
                percent: 1.0,
                sample: Sample::First(5)
            })
        );
        for bad in [
            "tf@all",
            "idf@first0",
            "cut0",
            "cut101",
            "cutx",
            "tfidf",
            "idf@some",
        ] {
            assert!(bad.parse::<Weighting>().is_err(), "{bad}");
        }
    }

    #[test]
    fn simhash_is_a_weighted_majority() {
        let (a, b, c) = (0b1100u64, 0b1010u64, 0b0110u64);
        assert_eq!(simhash([(a, 1.0)]), a);
        // A tie is 0: bits set in both only.
        assert_eq!(simhash([(a, 1.0), (b, 1.0)]), a & b);
        assert_eq!(simhash([(a, 1.0), (b, 1.0), (c, 1.0)]), 0b1110);
        // A heavy feature decides alone.
        assert_eq!(simhash([(a, 3.0), (b, 1.0), (c, 1.0)]), a);
        assert_eq!(simhash([(a, 0.0)]), 0);
    }

    #[test]
    fn weightings_by_hand() {
        let bags = Bags::words3(&TEXTS);
        let h = |f: usize| bags.hashes[f];
        let all = document_frequencies(&bags, Sample::All);
        let fp = |w: &str| fingerprints(&bags, &bags.hashes, w.parse().unwrap(), Some(&all));

        // Doc 3: abc twice, bcd, cda, dab.
        let tf = fp("tf");
        assert_eq!(
            tf.fingerprints[3],
            simhash([(h(0), 2.0), (h(1), 1.0), (h(4), 1.0), (h(5), 1.0)])
        );
        let binary = fp("binary");
        assert_eq!(
            binary.fingerprints[3],
            simhash([(h(0), 1.0), (h(1), 1.0), (h(4), 1.0), (h(5), 1.0)])
        );
        assert_eq!(binary.fingerprints[2], h(3));
        let sub = fp("sublinear");
        assert_eq!(
            sub.fingerprints[3],
            simhash([
                (h(0), 1.0 + 2f64.ln()),
                (h(1), 1.0),
                (h(4), 1.0),
                (h(5), 1.0)
            ])
        );
        assert_eq!((tf.fallbacks, tf.zero_weighted), (0, 0));

        // Cut at 50% of 4 documents: abc (3) and bcd (2) out. Doc 0 has
        // nothing else and falls back to binary; doc 1 keeps bce alone.
        let cut = fp("cut50");
        assert_eq!(cut.fingerprints[0], binary.fingerprints[0]);
        assert_eq!(cut.fingerprints[1], h(2));
        assert_eq!(cut.fingerprints[3], simhash([(h(4), 1.0), (h(5), 1.0)]));
        assert_eq!((cut.fallbacks, cut.zero_weighted), (1, 5));
        // Cut at 75%: only abc (3 of 4) out.
        assert_eq!(fp("cut75").fingerprints[0], h(1));

        // idf = ln(5 / (df + 1)).
        let idf = fp("idf");
        let w = |df: f64| (5.0 / (df + 1.0)).ln();
        assert_eq!(
            idf.fingerprints[3],
            simhash([
                (h(0), w(3.0)),
                (h(1), w(2.0)),
                (h(4), w(1.0)),
                (h(5), w(1.0))
            ])
        );
        // Over the first 2 documents, abc is in every one: weight 0.
        let first2 = document_frequencies(&bags, Sample::First(2));
        let idf2 = fingerprints(
            &bags,
            &bags.hashes,
            "idf@first2".parse().unwrap(),
            Some(&first2),
        );
        assert_eq!(idf2.fingerprints[1], h(2));
        assert_eq!(idf2.zero_weighted, 3);
    }

    #[test]
    fn weighted_jaccard_by_hand() {
        let bags = Bags::words3(&TEXTS);
        let all = document_frequencies(&bags, Sample::All);
        let j = |w: &str, a: usize, b: usize| {
            Weigher::new(w.parse().unwrap(), Some(&all)).jaccard(&bags.docs[a], &bags.docs[b])
        };
        // Binary: the sets' Jaccard. Docs 0 {abc, bcd} and 3 {abc, bcd, cda, dab}.
        assert_eq!(j("binary", 0, 3), 0.5);
        assert_eq!(j("binary", 0, 1), 1.0 / 3.0);
        assert_eq!(j("binary", 0, 2), 0.0);
        // tf: doc 3 has abc twice, min 2, max 5.
        assert_eq!(j("tf", 0, 3), 2.0 / 5.0);
        // cut50 leaves out abc and bcd: doc 0 falls back to binary {abc,
        // bcd}, doc 3 keeps {cda, dab} weighted 1 and the rest 0.
        assert_eq!(j("cut50", 0, 3), 0.0);
        assert_eq!(j("cut50", 3, 3), 1.0);
        assert_eq!(j("cut50", 0, 0), 1.0);
        // idf: abc ln(5/4), bcd ln(5/3), cda = dab ln(5/2).
        let (abc, bcd, other) = ((1.25f64).ln(), (5.0f64 / 3.0).ln(), (2.5f64).ln());
        let expected = (abc + bcd) / (abc + bcd + 2.0 * other);
        assert!((j("idf", 0, 3) - expected).abs() < 1e-12);
        let empty: [(u32, u32); 0] = [];
        let binary = Weigher::new(Weighting::Binary, None);
        assert_eq!(binary.jaccard(&empty, &empty), 1.0);
        assert_eq!(binary.jaccard(&empty, &bags.docs[0]), 0.0);
    }

    #[test]
    fn histogram_and_score_by_hand() {
        // Distances: 0-1 1, 0-2 2, 0-3 8, 1-2 1, 1-3 7, 2-3 6.
        let fps = [0u64, 1, 3, 0xff];
        let hist = distance_histogram(&fps);
        let mut expected = [0u64; 65];
        expected[1] = 2;
        expected[2] = 1;
        expected[6] = 1;
        expected[7] = 1;
        expected[8] = 1;
        assert_eq!(hist, expected);

        // Relevant at 0.8: (0, 1) at distance 1, (0, 3) at 8, the hard one
        // (0.82 < 0.85). (1, 2) is below the threshold.
        let truth = [(0, 1, 0.9), (0, 3, 0.82), (1, 2, 0.6)];
        let s = score(&fps, &truth, 0.8, 0.85);
        assert_eq!((s.relevant, s.hard), (2, 1));
        assert_eq!(s.candidates[0], 0);
        assert_eq!(s.candidates[1], 2);
        assert_eq!(s.candidates[2], 3);
        assert_eq!(s.candidates[7], 5);
        assert_eq!(s.candidates[64], 6);
        assert_eq!((s.recall(0), s.recall(1), s.recall(7)), (0.0, 0.5, 0.5));
        assert_eq!((s.hard_recall(7), s.hard_recall(8)), (0.0, 1.0));
        assert_eq!(s.recall(8), 1.0);
        assert_eq!(s.false_candidates(2), 2.0);
        assert_eq!(s.false_candidates(8), 4.0);
        assert_eq!(s.k_for_recall(0.5), 1);
        assert_eq!(s.k_for_recall(1.0), 8);
        // Pooled with a run where (0, 3) is at distance 0 too.
        let other = score(&[0, 1, 3, 0], &truth, 0.8, 0.85);
        let pooled = Score::pool(&[s.clone(), other]);
        assert_eq!(pooled.runs, 2);
        assert_eq!(pooled.mean_candidates(0), 0.5);
        assert_eq!(pooled.recall(1), 0.75);
        assert_eq!(pooled.hard_recall(1), 0.5);
        assert_eq!(pooled.false_candidates(1), 1.5);
        assert_eq!(pooled.k_for_recall(1.0), 8);
        // No relevant pair: recall 1.
        let none = score(&fps, &[], 0.8, 0.85);
        assert_eq!((none.recall(0), none.hard_recall(0)), (1.0, 1.0));
    }
}
