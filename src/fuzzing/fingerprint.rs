//! The fingerprint pipeline: no panic on any bytes, and a document read in
//! short chunks gives what it gives read whole.

use super::{Choices, ShortReads};
use crate::fingerprint::{
    Case, FeatureHash, FeatureOptions, Fingerprinter, Punctuation, Shingle, UnicodeForm, Weighting,
};

/// The options byte 0 and 1 choose: `words:1..3` or `chars:2..5`, tf or
/// binary weighting, and the normalisation switches.
fn feature_options(choices: &mut Choices<'_>) -> FeatureOptions {
    let shape = choices.byte();
    let shingle = match shape % 7 {
        n @ 0..=2 => Shingle::Words(usize::from(n) + 1),
        n => Shingle::Chars(usize::from(n) - 1),
    };
    let flags = choices.byte();
    let bit = |i: u8| flags & (1 << i) != 0;
    let frequency_floor = u32::from(shape >> 6);
    FeatureOptions {
        shingle,
        weighting: if bit(0) {
            Weighting::Binary
        } else {
            Weighting::Tf
        },
        hash: if bit(1) {
            FeatureHash::Sha3
        } else {
            FeatureHash::Xxh3
        },
        unicode: if bit(2) {
            UnicodeForm::AsIs
        } else {
            UnicodeForm::Nfkc
        },
        case: if bit(3) { Case::Sensitive } else { Case::Lower },
        punctuation: if bit(4) {
            Punctuation::Keep
        } else {
            Punctuation::Separate
        },
        token_similarity: bit(5) && matches!(shingle, Shingle::Words(_)),
        frequency_floor,
        frequency_ceiling: bit(6).then_some(frequency_floor + 1 + u32::from(shape >> 3 & 3)),
        ..FeatureOptions::default()
    }
}

/// Fingerprints the rest of `data` with the options its first bytes
/// choose, whole and in short reads, and checks that:
/// - streaming and the whole buffer agree on every field;
/// - `bytes` is the length read, and a document without features has
///   simhash 0;
/// - the feature set is the same streamed and whole, sorted and distinct,
///   as long as a binary fingerprint's `features` and never longer than a
///   tf fingerprint's.
pub fn fingerprint(data: &[u8]) {
    let mut choices = Choices::new(data);
    let options = feature_options(&mut choices);
    options
        .validate()
        .unwrap_or_else(|e| panic!("fuzzing chose invalid options {options:?}: {e}"));
    let seed = choices.byte();
    let longest = 1 + usize::from(choices.byte());
    let document = choices.rest();
    let fingerprinter = Fingerprinter::new(options.clone());

    let whole = fingerprinter.fingerprint_bytes(document);
    let streamed = fingerprinter
        .fingerprint_reader(ShortReads::new(document, seed, longest))
        .expect("short reads never fail");
    assert_eq!(
        streamed,
        whole,
        "streamed and whole fingerprints differ ({})",
        options.describe()
    );
    assert_eq!(whole.bytes, document.len() as u64);
    if whole.features == 0 {
        assert_eq!(whole.simhash, 0, "no features but a simhash");
    }

    let set = fingerprinter.feature_set_bytes(document);
    let streamed_set = fingerprinter
        .feature_set_reader(ShortReads::new(document, seed.wrapping_add(1), longest))
        .expect("short reads never fail");
    assert_eq!(streamed_set, set, "streamed and whole feature sets differ");
    assert!(
        set.windows(2).all(|pair| pair[0] < pair[1]),
        "feature set not sorted and distinct"
    );
    match options.weighting {
        Weighting::Binary => assert_eq!(set.len() as u64, whole.features),
        Weighting::Tf => {
            assert!(set.len() as u64 <= whole.features);
            assert_eq!(set.is_empty(), whole.features == 0);
        }
    }
}
