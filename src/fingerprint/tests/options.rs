//! htm.core's options (vocabulary, orphans, excludes), binary weighting
//! and the sparse (SDR) output, through the public API.

use std::sync::Arc;

use proptest::prelude::*;

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
    let tf = Fingerprinter::new(FeatureOptions {
        weighting: Weighting::Tf,
        ..FeatureOptions::default()
    });
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

/// The SDR by its definition, for `words:1` on lower-case ASCII words:
/// every occurrence (tf) or every distinct word (binary) adds +1 or -1 to
/// each of SIZE sums by its SHAKE256 bits, most significant first; the
/// ACTIVE largest sums win, the lower index among equal ones.
fn naive_sdr(text: &str, binary: bool, size: usize, active: usize) -> Vec<usize> {
    let mut words: Vec<&str> = text.split_whitespace().collect();
    if binary {
        words.sort_unstable();
        words.dedup();
    }
    if words.is_empty() {
        return Vec::new();
    }
    let mut sums = vec![0i64; size];
    for word in words {
        let mut digest = vec![0u8; size.div_ceil(8)];
        hash::shake256(word.as_bytes(), &mut digest);
        for (j, sum) in sums.iter_mut().enumerate() {
            *sum += if (digest[j / 8] >> (7 - j % 8)) & 1 == 1 {
                1
            } else {
                -1
            };
        }
    }
    let mut order: Vec<usize> = (0..size).collect();
    order.sort_by_key(|&j| (-sums[j], j));
    order.truncate(active);
    order.sort_unstable();
    order
}

proptest! {
    // Few distinct words, so most occur many times.
    #[test]
    fn sdr_follows_its_definition(
        text in "[a-c]{1,2}( [a-c]{1,2}){0,80}|",
        binary in any::<bool>(),
        size in 2usize..300,
        active_part in 0.0f64..1.0,
    ) {
        let active = 1 + ((size - 1) as f64 * active_part) as usize % (size - 1);
        let fp = Fingerprinter::new(FeatureOptions {
            shingle: Shingle::Words(1),
            weighting: if binary { Weighting::Binary } else { Weighting::Tf },
            ..FeatureOptions::default()
        });
        let got = fp.sdr_reader(text.as_bytes(), size, active).unwrap();
        prop_assert_eq!(got, naive_sdr(&text, binary, size, active));
    }
}
