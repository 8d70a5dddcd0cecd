//! htm.core's options (vocabulary, orphans, excludes), binary weighting
//! and the sparse (SDR) output, through the public API.

use std::sync::Arc;

use super::*;

#[test]
fn htm_core_vocabulary_whitelist_and_orphans() {
    // htm.core's testTokenVocabulary, as fingerprints of single words.
    let pairs = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"]
        .into_iter()
        .zip([1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6]);
    let vocabulary = Some(Arc::new(Vocabulary::from_pairs(pairs)));
    let options = FeatureOptions {
        shingle: Shingle::Words(1),
        vocabulary,
        ..FeatureOptions::default()
    };
    let (short, long) = (
        b"a b c d e f".as_slice(),
        b"a b c d e f t u w x y z".as_slice(),
    );
    let whitelist = Fingerprinter::new(options.clone());
    assert_eq!(
        whitelist.fingerprint_bytes(short).simhash,
        whitelist.fingerprint_bytes(long).simhash
    );
    let orphans = Fingerprinter::new(FeatureOptions {
        encode_orphans: true,
        ..options
    });
    assert_ne!(
        orphans.fingerprint_bytes(short).simhash,
        orphans.fingerprint_bytes(long).simhash
    );
}

#[test]
fn excluded_tokens_are_removed_before_shingling() {
    let exclude = Some(Arc::new(TokenSet::from_tokens(["the"])));
    let fp = Fingerprinter::new(FeatureOptions {
        exclude,
        ..FeatureOptions::default()
    });
    assert_eq!(
        fp.feature_set_bytes(b"The cat saw the dog"),
        fp.feature_set_bytes(b"cat saw dog")
    );
}

#[test]
fn binary_weighting_counts_distinct_features() {
    let fp = Fingerprinter::new(FeatureOptions {
        weighting: Weighting::Binary,
        ..FeatureOptions::default()
    });
    let once = fp.fingerprint_bytes(b"a b c d");
    let twice = fp.fingerprint_bytes(b"a b c d a b c d");
    assert_eq!(once.features, 2);
    assert_eq!(twice.features, 4); // abc bcd cda dab, then abc bcd again
    let tf = Fingerprinter::new(FeatureOptions::default());
    assert_eq!(tf.fingerprint_bytes(b"a b c d a b c d").features, 6);
}

#[test]
fn sdr_has_active_sorted_bits_and_rejects_bad_shapes() {
    let fp = Fingerprinter::new(FeatureOptions {
        shingle: Shingle::Words(1),
        ..FeatureOptions::default()
    });
    let bits = fp.sdr_reader(&b"hello there world"[..], 400, 21).unwrap();
    assert_eq!(bits.len(), 21);
    assert!(bits.windows(2).all(|w| w[0] < w[1]) && bits[20] < 400);
    assert_eq!(
        bits,
        fp.sdr_reader(
            Chunked {
                data: b"hello there world",
                size: 3
            },
            400,
            21
        )
        .unwrap()
    );
    let err = fp.sdr_reader(&b"x"[..], 10, 10).unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
}
