//! Agreement with a naive reference implementation of the default word
//! pipeline, for SimHash (tf and binary weighting), feature sets and
//! Jaccard.

use proptest::prelude::*;
use xxhash_rust::xxh3::xxh3_64;

use super::*;

/// The naive reference for ASCII text: lower-case, split on anything not
/// alphanumeric, windows of N words joined by a space, xxh3 seed 0.
pub(super) fn naive_features(text: &str, n: usize) -> Vec<u64> {
    let lower = text.to_ascii_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    if words.is_empty() {
        return Vec::new();
    }
    if words.len() < n {
        return vec![xxh3_64(words.join(" ").as_bytes())];
    }
    words
        .windows(n)
        .map(|w| xxh3_64(w.join(" ").as_bytes()))
        .collect()
}

fn naive_simhash(features: &[u64]) -> u64 {
    (0..64)
        .filter(|&i| {
            features
                .iter()
                .map(|h| if (h >> i) & 1 == 1 { 1i64 } else { -1 })
                .sum::<i64>()
                > 0
        })
        .fold(0, |bits, i| bits | (1 << i))
}

fn sorted_distinct(mut v: Vec<u64>) -> Vec<u64> {
    v.sort_unstable();
    v.dedup();
    v
}

proptest! {
    #[test]
    fn agrees_with_the_naive_reference(
        a in "[a-d]{1,2}([ ,.!]{1,2}[A-Da-d]{1,2}){0,30}",
        b in "[a-d]{1,2}([ ,.!]{1,2}[A-Da-d]{1,2}){0,30}",
        n in 1usize..4,
    ) {
        // tf: every occurrence counts (binary: the test below).
        let fp = Fingerprinter::new(FeatureOptions {
            shingle: Shingle::Words(n),
            weighting: Weighting::Tf,
            ..FeatureOptions::default()
        });
        let (ra, rb) = (naive_features(&a, n), naive_features(&b, n));
        let got = fp.fingerprint_bytes(a.as_bytes());
        prop_assert_eq!(got.features, ra.len() as u64);
        prop_assert_eq!(got.simhash, naive_simhash(&ra));
        let (sa, sb) = (sorted_distinct(ra), sorted_distinct(rb));
        prop_assert_eq!(&fp.feature_set_bytes(a.as_bytes()), &sa);
        let expected = jaccard(&sa, &sb);
        let naive_jaccard = {
            let common = sa.iter().filter(|h| sb.contains(h)).count();
            common as f64 / (sa.len() + sb.len() - common) as f64
        };
        prop_assert!((expected - naive_jaccard).abs() < 1e-12);
        prop_assert_eq!(jaccard(&fp.feature_set_bytes(a.as_bytes()), &fp.feature_set_bytes(b.as_bytes())), naive_jaccard);
    }
}

proptest! {
    /// Binary weighting is the SimHash of the distinct features, read whole
    /// or in chunks, and whatever size the documents before it had.
    #[test]
    fn binary_weighting_agrees_with_the_naive_reference(
        texts in proptest::collection::vec("[a-d]{1,2}([ ,.!]{1,2}[A-Da-d]{1,2}){0,300}", 1..4),
        n in 1usize..4,
        chunk in 1usize..64,
    ) {
        let fp = Fingerprinter::new(FeatureOptions {
            shingle: Shingle::Words(n),
            weighting: Weighting::Binary,
            ..FeatureOptions::default()
        });
        for text in &texts {
            let distinct = sorted_distinct(naive_features(text, n));
            let got = fp.fingerprint_bytes(text.as_bytes());
            prop_assert_eq!(got.features, distinct.len() as u64);
            prop_assert_eq!(got.simhash, naive_simhash(&distinct));
            let chunked = Chunked { data: text.as_bytes(), size: chunk };
            prop_assert_eq!(fp.fingerprint_reader(chunked).unwrap(), got);
        }
    }
}

#[test]
fn a_single_feature_document_is_its_feature_hash() {
    // One feature of weight 1: every sum is +1 or -1, so the SimHash is the hash.
    for hash in [FeatureHash::Xxh3, FeatureHash::Sha3] {
        let fp = Fingerprinter::new(FeatureOptions {
            hash,
            ..FeatureOptions::default()
        });
        let got = fp.fingerprint_bytes("  HELLO, Wörld!".as_bytes());
        assert_eq!(got.simhash, feature_hash(hash, "hello wörld".as_bytes()));
    }
}
