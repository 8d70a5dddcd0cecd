//! Tokenizer behaviour: the fast path against the general rule, and the
//! tokens of each mode.

use super::*;
use crate::fingerprint::options::Case;
use crate::fingerprint::shingle::MAX_TOKEN_BYTES;
use crate::fingerprint::weights::TokenRules;
use proptest::prelude::*;

#[derive(Default)]
struct Collect(Vec<String>);

impl FeatureSink for Collect {
    const WANTS_HASH: bool = false;

    fn feature(&mut self, bytes: &[u8], _hash: u64, _weight: u32) {
        self.0.push(String::from_utf8_lossy(bytes).into_owned());
    }
}

fn features(options: FeatureOptions, pieces: &[&str]) -> Vec<String> {
    let rules = TokenRules::new(&options);
    let mut tokenizer = Tokenizer::new(&options);
    let join = matches!(options.shingle, Shingle::Words(_));
    let mut shingler = Shingler::new(options.shingle.size(), join, &rules);
    let mut sink = Collect::default();
    for piece in pieces {
        tokenizer.feed(piece, &mut shingler, &mut sink);
    }
    tokenizer.finish(&mut shingler, &mut sink);
    shingler.finish(&mut sink);
    sink.0
}

/// Tokens by the general rule alone, one character at a time.
fn features_general(options: FeatureOptions, text: &str) -> Vec<String> {
    let rules = TokenRules::new(&options);
    let mut tokenizer = Tokenizer::new(&options);
    let join = matches!(options.shingle, Shingle::Words(_));
    let mut shingler = Shingler::new(options.shingle.size(), join, &rules);
    let mut sink = Collect::default();
    for c in text.chars() {
        if join {
            tokenizer.word_char(c, &mut shingler, &mut sink);
        } else {
            tokenizer.char_char(c, &mut shingler, &mut sink);
        }
    }
    tokenizer.finish(&mut shingler, &mut sink);
    shingler.finish(&mut sink);
    sink.0
}

/// Mostly ASCII (letters, digits, punctuation, controls, long runs),
/// with some multi-byte letters, marks and ideographs mixed in.
fn ascii_heavy_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        8 => "[ -~]{1,80}",
        4 => "[a-zA-Z0-9]{1,70}",
        2 => "[\\x00-\\x1F\\x7F ,.]{1,3}",
        1 => Just("x".repeat(MAX_TOKEN_BYTES + 3)),
        1 => Just("\u{301}".to_string()),
        1 => Just("Ωμέγα".to_string()),
        1 => Just("中文".to_string()),
        1 => Just("\u{2019}".to_string()),
    ];
    proptest::collection::vec(piece, 0..30).prop_map(|pieces| pieces.concat())
}

proptest! {
    #[test]
    fn fast_path_equals_the_general_rule(
        text in ascii_heavy_text(),
        cuts in proptest::collection::vec(any::<prop::sample::Index>(), 0..4),
        n in 1usize..4,
        words in any::<bool>(),
        keep in any::<bool>(),
        sensitive in any::<bool>(),
    ) {
        let options = FeatureOptions {
            shingle: if words { Shingle::Words(n) } else { Shingle::Chars(n + 2) },
            punctuation: if keep { Punctuation::Keep } else { Punctuation::Separate },
            case: if sensitive { Case::Sensitive } else { Case::Lower },
            ..FeatureOptions::default()
        };
        // Cut into pieces at random character boundaries.
        let mut bounds: Vec<usize> = cuts.iter().map(|cut| cut.index(text.len() + 1)).collect();
        bounds.retain(|&b| text.is_char_boundary(b));
        bounds.extend([0, text.len()]);
        bounds.sort_unstable();
        let pieces: Vec<&str> = bounds.windows(2).map(|w| &text[w[0]..w[1]]).collect();
        prop_assert_eq!(features(options.clone(), &pieces), features_general(options, &text));
    }
}

#[test]
fn general_punctuation_has_no_token_characters() {
    for c in GENERAL_PUNCTUATION {
        assert!(!(c.is_alphanumeric() || is_combining_mark(c)), "{c:?}");
    }
}

fn words1() -> FeatureOptions {
    FeatureOptions {
        shingle: Shingle::Words(1),
        ..FeatureOptions::default()
    }
}

#[test]
fn words_split_on_punctuation_and_lower_case() {
    assert_eq!(
        features(words1(), &["Don't PANIC, café-Über!"]),
        ["don", "t", "panic", "café", "über"]
    );
}

#[test]
fn tokens_continue_across_pieces() {
    assert_eq!(
        features(words1(), &["hel", "lo wo", "rld"]),
        ["hello", "world"]
    );
}

#[test]
fn ideographs_and_kana_are_tokens_of_their_own() {
    assert_eq!(
        features(words1(), &["我爱北京。ひらがなABC"]),
        ["我", "爱", "北", "京", "ひ", "ら", "が", "な", "abc"]
    );
}

#[test]
fn kept_punctuation_and_case_sensitivity() {
    let options = FeatureOptions {
        punctuation: Punctuation::Keep,
        case: Case::Sensitive,
        ..words1()
    };
    assert_eq!(
        features(options, &["Don't\tpanic,\u{1}now"]),
        ["Don't", "panic,", "now"]
    );
}

#[test]
fn characters_collapse_separator_runs_to_one_space() {
    let options = FeatureOptions {
        shingle: Shingle::Chars(2),
        ..FeatureOptions::default()
    };
    assert_eq!(features(options, &["  Ab, ", "c!  "]), ["ab", "b ", " c"]);
}

#[test]
fn overlong_tokens_are_split() {
    let long = "x".repeat(MAX_TOKEN_BYTES + 5);
    let got = features(words1(), &[&long]);
    assert_eq!(
        got.iter().map(String::len).collect::<Vec<_>>(),
        [MAX_TOKEN_BYTES, 5]
    );
}
