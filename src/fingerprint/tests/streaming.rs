//! Streaming equals whole-buffer: any chunking of any text gives the same
//! fingerprint and feature set, for random options.

use proptest::prelude::*;

use super::*;

/// Texts mixing ASCII, multi-byte letters, combining marks, CJK, symbols
/// and invalid bytes.
fn messy_text() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        "[a-zA-Z]{1,6}".prop_map(String::into_bytes),
        Just(b" ".to_vec()),
        Just(b", ".to_vec()),
        Just("e\u{301}".as_bytes().to_vec()),
        Just("\u{301}".as_bytes().to_vec()),
        Just("Ǆ".as_bytes().to_vec()),
        Just("ﬁ".as_bytes().to_vec()),
        Just("中文".as_bytes().to_vec()),
        Just("Ωμέγα".as_bytes().to_vec()),
        Just("\u{1100}\u{1161}\u{11A8}".as_bytes().to_vec()),
        Just(vec![0xE4, 0xB8]),
        Just(vec![0xFF]),
        Just(vec![0xF0, 0x9F, 0x98, 0x80]),
    ];
    proptest::collection::vec(piece, 0..40).prop_map(|pieces| pieces.concat())
}

fn options_strategy() -> impl Strategy<Value = FeatureOptions> {
    (
        prop_oneof![
            (1usize..4).prop_map(Shingle::Words),
            (1usize..5).prop_map(Shingle::Chars)
        ],
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(shingle, binary, nfkc, keep, similar)| FeatureOptions {
            shingle,
            weighting: if binary {
                Weighting::Binary
            } else {
                Weighting::Tf
            },
            unicode: if nfkc {
                UnicodeForm::Nfkc
            } else {
                UnicodeForm::AsIs
            },
            punctuation: if keep {
                Punctuation::Keep
            } else {
                Punctuation::Separate
            },
            token_similarity: similar && matches!(shingle, Shingle::Words(_)),
            frequency_ceiling: similar.then_some(2),
            ..FeatureOptions::default()
        })
}

proptest! {
    #[test]
    fn streamed_equals_whole_buffer(text in messy_text(), size in 1usize..9, options in options_strategy()) {
        let fp = Fingerprinter::new(options);
        let whole = fp.fingerprint_bytes(&text);
        let streamed = fp.fingerprint_reader(Chunked { data: &text, size }).unwrap();
        prop_assert_eq!(whole, streamed);
        prop_assert_eq!(
            fp.feature_set_bytes(&text),
            fp.feature_set_reader(Chunked { data: &text, size }).unwrap()
        );
    }

}
