//! The feature digest: the wrapping sum of the mixed hashes of the counted
//! features, equal for equal features (counts with tf, the set with
//! binary), different otherwise.

use std::collections::HashSet;
use std::sync::Arc;

use proptest::prelude::*;
use xxhash_rust::xxh3::xxh3_64;

use super::reference::naive_features;
use super::*;
use crate::fingerprint::hash::digest_term;

fn words1(weighting: Weighting) -> Fingerprinter {
    Fingerprinter::new(FeatureOptions {
        shingle: Shingle::Words(1),
        weighting,
        ..FeatureOptions::default()
    })
}

fn digest(fp: &Fingerprinter, text: &str) -> u64 {
    fp.fingerprint_bytes(text.as_bytes()).feature_digest
}

fn sum_of_terms(hashes: &[u64]) -> u64 {
    hashes
        .iter()
        .fold(0u64, |sum, &hash| sum.wrapping_add(digest_term(hash)))
}

#[test]
fn tf_digests_counts_and_binary_the_set() {
    let tf = words1(Weighting::Tf);
    assert_eq!(digest(&tf, "a b a"), digest(&tf, "B, A a"));
    assert_ne!(digest(&tf, "a b a"), digest(&tf, "a b"));
    assert_eq!(
        digest(&tf, "a b a"),
        sum_of_terms(&[xxh3_64(b"a"), xxh3_64(b"b"), xxh3_64(b"a")])
    );
    let binary = words1(Weighting::Binary);
    assert_eq!(digest(&binary, "a b a"), digest(&binary, "b a"));
    assert_ne!(digest(&binary, "a b"), digest(&binary, "a b c"));
    assert_eq!(
        digest(&binary, "a b a"),
        sum_of_terms(&[xxh3_64(b"a"), xxh3_64(b"b")])
    );
}

#[test]
fn a_document_without_features_has_digest_zero() {
    let fp = Fingerprinter::new(FeatureOptions::default());
    assert_eq!(digest(&fp, ""), 0);
    assert_eq!(digest(&fp, " ,;- "), 0);
}

#[test]
fn zero_weight_features_are_not_in_the_digest_and_weights_do_not_enter_it() {
    let vocabulary = |the: u32| Some(Arc::new(Vocabulary::from_pairs([("the", the), ("cat", 5)])));
    let options = |the: u32| FeatureOptions {
        shingle: Shingle::Words(1),
        vocabulary: vocabulary(the),
        ..FeatureOptions::default()
    };
    let zero = Fingerprinter::new(options(0));
    assert_eq!(digest(&zero, "the cat"), sum_of_terms(&[xxh3_64(b"cat")]));
    let heavy = Fingerprinter::new(options(7));
    let light = Fingerprinter::new(options(1));
    // The weights change the SimHash, not the digest.
    assert_ne!(
        heavy.fingerprint_bytes(b"the cat").simhash,
        light.fingerprint_bytes(b"the cat").simhash
    );
    assert_eq!(digest(&heavy, "the cat"), digest(&light, "the cat"));
}

#[test]
fn different_feature_multisets_have_different_digests() {
    // 20,000 documents of one or two words from 200: many share features,
    // none shares its multiset of features with another.
    let fp = words1(Weighting::Tf);
    let words: Vec<String> = (0..200).map(|i| format!("w{i}")).collect();
    let mut seen = HashSet::new();
    for (i, a) in words.iter().enumerate() {
        assert!(seen.insert(digest(&fp, a)));
        for b in &words[i..] {
            assert!(seen.insert(digest(&fp, &format!("{a} {b}"))), "{a} {b}");
        }
    }
    assert_eq!(seen.len(), 200 + 200 * 201 / 2);
}

proptest! {
    #[test]
    fn digest_is_the_sum_of_the_terms_of_the_naive_features(
        text in "[a-d]{1,2}([ ,.!]{1,2}[A-Da-d]{1,2}){0,30}",
        n in 1usize..4,
    ) {
        let fp = Fingerprinter::new(FeatureOptions {
            shingle: Shingle::Words(n),
            weighting: Weighting::Tf,
            ..FeatureOptions::default()
        });
        let features = naive_features(&text, n);
        prop_assert_eq!(digest(&fp, &text), sum_of_terms(&features));
        let binary = Fingerprinter::new(FeatureOptions {
            shingle: Shingle::Words(n),
            weighting: Weighting::Binary,
            ..FeatureOptions::default()
        });
        let mut distinct = features;
        distinct.sort_unstable();
        distinct.dedup();
        prop_assert_eq!(digest(&binary, &text), sum_of_terms(&distinct));
    }
}
