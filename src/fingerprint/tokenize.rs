//! Tokens: which characters make words, which separate them, which stand
//! alone, and lower-casing; tokens are written straight into the shingler.
//!
//! Word mode: a token is a maximal run of token characters (letters, digits
//! and combining marks; with kept punctuation, anything but whitespace and
//! control characters). A character of a script written without spaces
//! (CJK ideographs, kana, Thai, Lao, Khmer, Myanmar) is a token of its own.
//! Character mode: every token character is a token, and each run of
//! separators between two of them is one space token. ASCII goes through a
//! 128-entry table (class and case at once); other characters use Unicode
//! properties. Decoding and NFKC happen before this module.

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

use super::options::{Case, FeatureOptions, Punctuation, Shingle, UnicodeForm};
use super::shingle::{FeatureSink, MAX_TOKEN_BYTES, Shingler};

/// True for characters of scripts written without spaces between words:
/// each is a token of its own, so such text needs no segmenter.
pub(crate) fn is_standalone(c: char) -> bool {
    matches!(c as u32,
        0x0E00..=0x0EFF      // Thai, Lao
        | 0x1000..=0x109F    // Myanmar
        | 0x1780..=0x17FF    // Khmer
        | 0x3005..=0x3007    // ideographic iteration mark, closing mark, zero
        | 0x3040..=0x30FF    // Hiragana, Katakana
        | 0x31F0..=0x31FF    // Katakana phonetic extensions
        | 0x3400..=0x4DBF    // CJK Unified Ideographs Extension A
        | 0x4E00..=0x9FFF    // CJK Unified Ideographs
        | 0xF900..=0xFAFF    // CJK Compatibility Ideographs
        | 0x20000..=0x3FFFF  // CJK Extensions B and later (planes 2 and 3)
    )
}

/// Normalises a vocabulary or exclude entry the way document text is
/// (NFKC, then lower-case, each as configured).
pub(crate) fn normalize_term(term: &str, options: &FeatureOptions) -> String {
    let text: String = match options.unicode {
        UnicodeForm::Nfkc => term.nfkc().collect(),
        UnicodeForm::AsIs => term.to_string(),
    };
    match options.case {
        Case::Lower => text.chars().flat_map(char::to_lowercase).collect(),
        Case::Sensitive => text,
    }
}

/// Splits normalised text into tokens, statefully across pieces.
#[derive(Debug)]
pub(crate) struct Tokenizer {
    /// For each ASCII byte: 0 if it separates, else the byte it becomes.
    ascii: [u8; 128],
    words: bool,
    lower: bool,
    keep_punctuation: bool,
    /// Word mode: a token is being built.
    in_token: bool,
    /// Character mode: separators were seen since the last token character.
    pending_space: bool,
    /// Character mode: a token character has been seen.
    seen_char: bool,
}

impl Tokenizer {
    /// A tokenizer for `options`.
    pub(crate) fn new(options: &FeatureOptions) -> Self {
        let lower = options.case == Case::Lower;
        let keep_punctuation = options.punctuation == Punctuation::Keep;
        let mut ascii = [0u8; 128];
        for (byte, slot) in (0u8..).zip(ascii.iter_mut()) {
            let token = if keep_punctuation {
                byte.is_ascii_graphic()
            } else {
                byte.is_ascii_alphanumeric()
            };
            if token {
                *slot = if lower {
                    byte.to_ascii_lowercase()
                } else {
                    byte
                };
            }
        }
        Tokenizer {
            ascii,
            words: matches!(options.shingle, Shingle::Words(_)),
            lower,
            keep_punctuation,
            in_token: false,
            pending_space: false,
            seen_char: false,
        }
    }

    /// True when a non-ASCII character is part of tokens.
    fn is_token_char(&self, c: char) -> bool {
        if self.keep_punctuation {
            !c.is_whitespace() && !c.is_control()
        } else {
            c.is_alphanumeric() || is_combining_mark(c)
        }
    }

    /// Tokenises a piece of normalised text.
    #[inline]
    pub(crate) fn feed(
        &mut self,
        text: &str,
        shingler: &mut Shingler<'_>,
        sink: &mut impl FeatureSink,
    ) {
        if self.words {
            self.feed_words(text, shingler, sink);
        } else {
            self.feed_chars(text, shingler, sink);
        }
    }

    /// Ends the text: a token still open is complete.
    pub(crate) fn finish(&mut self, shingler: &mut Shingler<'_>, sink: &mut impl FeatureSink) {
        if self.in_token {
            shingler.end_token(sink);
            self.in_token = false;
        }
    }

    fn feed_words(&mut self, text: &str, shingler: &mut Shingler<'_>, sink: &mut impl FeatureSink) {
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            // Fast path: 64 ASCII bytes at a time, token boundaries from a bit mask.
            if let Some(block) = bytes.get(i..i + 64) {
                if let Some(mask) = self.ascii_mask(block) {
                    self.feed_block(block, mask, shingler, sink);
                    i += 64;
                    continue;
                }
            }
            let byte = bytes[i];
            if byte.is_ascii() {
                if self.ascii[byte as usize] == 0 {
                    if self.in_token {
                        shingler.end_token(sink);
                        self.in_token = false;
                    }
                    i += 1;
                    continue;
                }
                // A run of ASCII token bytes, copied through the table at once.
                let start = i;
                while i < bytes.len() && bytes[i].is_ascii() && self.ascii[bytes[i] as usize] != 0 {
                    i += 1;
                }
                self.push_ascii_run(&bytes[start..i], shingler, sink);
                continue;
            }
            let Some(c) = text[i..].chars().next() else {
                break;
            };
            i += c.len_utf8();
            if !self.is_token_char(c) {
                if self.in_token {
                    shingler.end_token(sink);
                    self.in_token = false;
                }
            } else if is_standalone(c) {
                if self.in_token {
                    shingler.end_token(sink);
                }
                shingler.begin_token();
                self.push_char(c, shingler);
                shingler.end_token(sink);
                self.in_token = false;
            } else {
                self.extend_token(shingler, sink);
                self.push_char(c, shingler);
            }
        }
    }

    /// Bit k set when byte k of an all-ASCII block is a token byte; `None`
    /// when the block has a non-ASCII byte.
    #[inline]
    fn ascii_mask(&self, block: &[u8]) -> Option<u64> {
        let (mut mask, mut high) = (0u64, 0u8);
        for (k, &byte) in block.iter().enumerate() {
            high |= byte;
            mask |= u64::from(self.ascii[usize::from(byte & 0x7F)] != 0) << k;
        }
        (high < 0x80).then_some(mask)
    }

    /// Tokenises a 64-byte ASCII block, one loop turn per token.
    #[inline]
    fn feed_block(
        &mut self,
        block: &[u8],
        mask: u64,
        shingler: &mut Shingler<'_>,
        sink: &mut impl FeatureSink,
    ) {
        let mut pos = 0usize;
        while pos < 64 {
            if !self.in_token {
                let rest = mask >> pos;
                if rest == 0 {
                    break;
                }
                pos += rest.trailing_zeros() as usize;
            }
            let run = (mask >> pos).trailing_ones() as usize;
            self.push_ascii_run(&block[pos..pos + run], shingler, sink);
            pos += run;
            if pos < 64 {
                shingler.end_token(sink);
                self.in_token = false;
            }
        }
    }

    /// Appends a run of ASCII token bytes through the table, splitting
    /// overlong tokens.
    #[inline]
    fn push_ascii_run(
        &mut self,
        mut run: &[u8],
        shingler: &mut Shingler<'_>,
        sink: &mut impl FeatureSink,
    ) {
        while !run.is_empty() {
            self.extend_token(shingler, sink);
            let room = MAX_TOKEN_BYTES
                .saturating_sub(shingler.token_len())
                .clamp(1, run.len());
            let ascii = &self.ascii;
            shingler
                .buf
                .extend(run[..room].iter().map(|&b| ascii[usize::from(b)]));
            run = &run[room..];
        }
    }

    /// Makes sure a token is open and has room for one more character.
    #[inline]
    fn extend_token(&mut self, shingler: &mut Shingler<'_>, sink: &mut impl FeatureSink) {
        if !self.in_token {
            shingler.begin_token();
            self.in_token = true;
        } else if shingler.token_len() >= MAX_TOKEN_BYTES {
            shingler.end_token(sink);
            shingler.begin_token();
        }
    }

    /// Appends a (non-ASCII) character, lower-cased if configured.
    fn push_char(&self, c: char, shingler: &mut Shingler<'_>) {
        let mut buffer = [0; 4];
        if self.lower {
            for lower in c.to_lowercase() {
                shingler
                    .buf
                    .extend_from_slice(lower.encode_utf8(&mut buffer).as_bytes());
            }
        } else {
            shingler
                .buf
                .extend_from_slice(c.encode_utf8(&mut buffer).as_bytes());
        }
    }

    fn feed_chars(&mut self, text: &str, shingler: &mut Shingler<'_>, sink: &mut impl FeatureSink) {
        for c in text.chars() {
            let token = if c.is_ascii() {
                self.ascii[c as usize] != 0
            } else {
                self.is_token_char(c)
            };
            if !token {
                self.pending_space |= self.seen_char;
                continue;
            }
            if self.pending_space {
                self.pending_space = false;
                shingler.begin_token();
                shingler.buf.push(b' ');
                shingler.end_token(sink);
            }
            self.seen_char = true;
            if self.lower {
                for lower in c.to_lowercase() {
                    self.char_token(lower, shingler, sink);
                }
            } else {
                self.char_token(c, shingler, sink);
            }
        }
    }

    /// One character as one token.
    #[inline]
    fn char_token(&self, c: char, shingler: &mut Shingler<'_>, sink: &mut impl FeatureSink) {
        let mut buffer = [0; 4];
        shingler.begin_token();
        shingler
            .buf
            .extend_from_slice(c.encode_utf8(&mut buffer).as_bytes());
        shingler.end_token(sink);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fingerprint::weights::TokenRules;

    #[derive(Default)]
    struct Collect(Vec<String>);

    impl FeatureSink for Collect {
        fn feature(&mut self, bytes: &[u8], _weight: u32) {
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

    #[test]
    fn terms_are_normalised_like_text() {
        assert_eq!(
            normalize_term("\u{FB01}ANCÉ", &FeatureOptions::default()),
            "fiancé"
        );
    }
}
