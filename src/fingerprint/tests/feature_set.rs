//! What the exact Jaccard is computed on: the feature set holds exactly
//! the features that count in the fingerprint (after excludes, the
//! vocabulary, the frequency floor and ceiling, and without zero-weight
//! features), each once, whatever its weight.

use std::sync::Arc;

use proptest::prelude::*;
use xxhash_rust::xxh3::xxh3_64;

use super::*;
use crate::fingerprint::hash::digest_term;

fn set_of(options: FeatureOptions, text: &str) -> Vec<u64> {
    Fingerprinter::new(options).feature_set_bytes(text.as_bytes())
}

fn hashes(features: &[&str]) -> Vec<u64> {
    let mut set: Vec<u64> = features.iter().map(|f| xxh3_64(f.as_bytes())).collect();
    set.sort_unstable();
    set.dedup();
    set
}

fn words(n: usize) -> FeatureOptions {
    FeatureOptions {
        shingle: Shingle::Words(n),
        ..FeatureOptions::default()
    }
}

fn vocabulary(pairs: &[(&str, u32)]) -> Option<Arc<Vocabulary>> {
    Some(Arc::new(Vocabulary::from_pairs(pairs.iter().copied())))
}

#[test]
fn orphans_and_zero_weights_are_not_in_the_set() {
    let vocab = vocabulary(&[("cat", 1), ("the", 0), ("dog", 2)]);
    let text = "the cat saw the dog";
    let whitelist = FeatureOptions {
        vocabulary: vocab.clone(),
        ..words(1)
    };
    assert_eq!(set_of(whitelist, text), hashes(&["cat", "dog"]));
    let orphans = FeatureOptions {
        vocabulary: vocab,
        encode_orphans: true,
        ..words(1)
    };
    assert_eq!(set_of(orphans, text), hashes(&["cat", "saw", "dog"]));
}

#[test]
fn a_shingle_with_a_zero_weight_token_counts_if_another_weighs() {
    // A shingle weighs as its heaviest token: "the cat" weighs 1.
    let options = FeatureOptions {
        vocabulary: vocabulary(&[("cat", 1), ("the", 0)]),
        ..words(2)
    };
    assert_eq!(
        set_of(options, "the cat the the"),
        hashes(&["the cat", "cat the"])
    );
}

#[test]
fn excluded_tokens_and_frequency_limits_are_applied_first() {
    let exclude = FeatureOptions {
        exclude: Some(Arc::new(TokenSet::from_tokens(["the"]))),
        ..words(2)
    };
    assert_eq!(
        set_of(exclude, "the cat saw the dog"),
        hashes(&["cat saw", "saw dog"])
    );
    let floor = FeatureOptions {
        frequency_floor: 1,
        ..words(1)
    };
    assert_eq!(set_of(floor, "a b a c a"), hashes(&["a"]));
    let ceiling = FeatureOptions {
        frequency_ceiling: Some(1),
        ..words(2)
    };
    assert_eq!(set_of(ceiling, "a b a b c"), hashes(&["a b", "b c"]));
}

fn rules_strategy() -> impl Strategy<Value = FeatureOptions> {
    let entry = (prop::sample::select(vec!["a", "b", "c", "d"]), 0u32..3);
    (
        prop_oneof![
            (1usize..4).prop_map(Shingle::Words),
            (1usize..4).prop_map(Shingle::Chars)
        ],
        proptest::option::of(proptest::collection::vec(entry, 0..4)),
        any::<bool>(),
        proptest::option::of(proptest::collection::vec(
            prop::sample::select(vec!["a", "b", "c", "d"]),
            0..3,
        )),
        0u32..3,
        proptest::option::of(1u32..3),
        any::<bool>(),
    )
        .prop_map(
            |(shingle, vocab, orphans, exclude, floor, ceiling, similar)| FeatureOptions {
                shingle,
                encode_orphans: orphans && vocab.is_some(),
                vocabulary: vocab.map(|pairs| Arc::new(Vocabulary::from_pairs(pairs))),
                exclude: exclude.map(|tokens| Arc::new(TokenSet::from_tokens(tokens))),
                frequency_floor: floor,
                frequency_ceiling: ceiling.map(|extra| floor + extra),
                token_similarity: similar && matches!(shingle, Shingle::Words(_)),
                ..FeatureOptions::default()
            },
        )
}

proptest! {
    // The set is what a binary fingerprint sums: as many features, and the
    // same digest; a tf fingerprint has features exactly when the set does.
    #[test]
    fn the_set_is_the_features_the_fingerprint_sums(
        text in "[a-dA-D]{1,2}([ ,.]{1,2}[a-d]{1,2}){0,25}",
        options in rules_strategy(),
    ) {
        let set = set_of(options.clone(), &text);
        let binary = Fingerprinter::new(FeatureOptions {
            weighting: Weighting::Binary,
            ..options.clone()
        })
        .fingerprint_bytes(text.as_bytes());
        prop_assert_eq!(set.len() as u64, binary.features);
        let digest = set.iter().fold(0u64, |sum, &h| sum.wrapping_add(digest_term(h)));
        prop_assert_eq!(digest, binary.feature_digest);
        let tf = Fingerprinter::new(options).fingerprint_bytes(text.as_bytes());
        prop_assert!(tf.features >= set.len() as u64);
        prop_assert_eq!(tf.features == 0, set.is_empty());
    }
}

proptest! {
    // One pass gives what two give: the fingerprint, and the set unless it
    // has more than `max` features. Small bounds make the sink compact and
    // give up mid-document.
    #[test]
    fn the_set_measured_with_the_fingerprint_is_the_feature_set(
        text in "[a-dA-D]{1,2}([ ,.]{1,2}[a-d]{1,2}){0,60}",
        options in rules_strategy(),
        binary: bool,
        max in 0usize..40,
    ) {
        let options = FeatureOptions {
            weighting: if binary { Weighting::Binary } else { Weighting::Tf },
            ..options
        };
        let fingerprinter = Fingerprinter::new(options);
        let (fingerprint, set) = fingerprinter
            .fingerprint_and_set_reader(text.as_bytes(), max)
            .unwrap();
        prop_assert_eq!(fingerprint, fingerprinter.fingerprint_bytes(text.as_bytes()));
        let whole = fingerprinter.feature_set_bytes(text.as_bytes());
        if whole.len() <= max {
            prop_assert_eq!(set, Some(whole));
        } else {
            prop_assert_eq!(set, None);
        }
    }
}
