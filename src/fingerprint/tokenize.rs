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

/// Bytes the ASCII fast path takes at a time (one bit each in a u64).
const BLOCK: usize = 64;

/// The General Punctuation block: never part of a token when punctuation
/// separates.
const GENERAL_PUNCTUATION: std::ops::RangeInclusive<char> = '\u{2000}'..='\u{206F}';

/// Size of the fixed copies that move token bytes (padding after a block).
const COPY: usize = 16;

/// True when an ASCII byte is part of tokens: alphanumerics, or with kept
/// punctuation every visible character.
fn is_ascii_token(byte: u8, keep_punctuation: bool) -> bool {
    if keep_punctuation {
        byte.is_ascii_graphic()
    } else {
        byte.is_ascii_alphanumeric()
    }
}

/// Up to [`BLOCK`] bytes of ASCII text, ready for the fast paths.
#[derive(Clone, Copy)]
struct AsciiBlock {
    /// The bytes in their final case; only the first `len` are meaningful.
    bytes: [u8; BLOCK + COPY],
    /// Bit k set when byte k is a token byte (k < `len`).
    tokens: u64,
    /// Number of ASCII bytes.
    len: usize,
}

/// The `n` lowest bits (`n` <= 64).
fn low_bits(n: usize) -> u64 {
    u64::MAX.checked_shr((BLOCK - n) as u32).unwrap_or(0)
}

/// Bit k set when `test` holds for byte k of the first [`BLOCK`] bytes:
/// arithmetic the compiler vectorises, rather than a table per byte.
#[inline(always)]
fn byte_mask(bytes: &[u8; BLOCK + COPY], test: impl Fn(u8) -> bool) -> u64 {
    let flags: [u8; BLOCK] = std::array::from_fn(|k| u8::from(test(bytes[k])));
    let mut mask = 0u64;
    for (k, eight) in flags.chunks_exact(8).enumerate() {
        let mut word = [0u8; 8];
        word.copy_from_slice(eight);
        mask |= pack_flags(u64::from_le_bytes(word)) << (8 * k);
    }
    mask
}

/// Appends `bytes[start..end]` to `buf` in [`COPY`]-byte pieces cut to
/// length: fixed-size copies are inlined, while a memcpy call costs more
/// than a short token.
#[inline(always)]
fn append(buf: &mut Vec<u8>, bytes: &[u8; BLOCK + COPY], start: usize, end: usize) {
    let len = buf.len() + (end - start);
    for at in (start..end).step_by(COPY) {
        buf.extend_from_slice(&bytes[at..at + COPY]);
    }
    buf.truncate(len);
}

/// Packs eight 0/1 bytes (little-endian in `flags`) into eight bits, byte k
/// to bit k: the multiplication moves each byte's bit into the top byte
/// without carries.
#[inline]
fn pack_flags(flags: u64) -> u64 {
    flags.wrapping_mul(0x0102_0408_1020_4080) >> 56
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
            if is_ascii_token(byte, keep_punctuation) {
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
            // General Punctuation (curly quotes, dashes, ...) has no letters,
            // digits or marks: skip the property tables (a test checks it).
            !GENERAL_PUNCTUATION.contains(&c) && (c.is_alphanumeric() || is_combining_mark(c))
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
        let mut rest = text;
        while !rest.is_empty() {
            // Fast path: the ASCII prefix of the next block, as a whole.
            if rest.as_bytes()[0].is_ascii() {
                let block = self.ascii_block(rest.as_bytes());
                self.feed_ascii_words(&block, shingler, sink);
                rest = &rest[block.len..];
                continue;
            }
            let Some(c) = rest.chars().next() else { break };
            rest = &rest[c.len_utf8()..];
            self.word_char(c, shingler, sink);
        }
    }

    /// The general word rule, one character at a time (any character; the
    /// fast path [`Self::feed_ascii_words`] must give the same tokens).
    fn word_char(&mut self, c: char, shingler: &mut Shingler<'_>, sink: &mut impl FeatureSink) {
        let token = if c.is_ascii() {
            self.ascii[c as usize] != 0
        } else {
            self.is_token_char(c)
        };
        if !token {
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

    /// Tokenises up to [`BLOCK`] ASCII bytes, one loop turn per token: the
    /// block is lower-cased at once and token bytes found as a bit mask.
    #[inline]
    fn feed_ascii_words(
        &mut self,
        block: &AsciiBlock,
        shingler: &mut Shingler<'_>,
        sink: &mut impl FeatureSink,
    ) {
        let AsciiBlock {
            bytes,
            tokens: mask,
            len,
        } = *block;
        let mut pos = 0usize;
        while pos < len {
            if !self.in_token {
                let rest = mask >> pos;
                if rest == 0 {
                    break;
                }
                pos += rest.trailing_zeros() as usize;
            }
            let run = (mask >> pos).trailing_ones() as usize;
            self.push_ascii_run(&bytes, pos, pos + run, shingler, sink);
            pos += run;
            if pos < len {
                shingler.end_token(sink);
                self.in_token = false;
            }
        }
    }

    /// The next block of `text` (its first [`BLOCK`] bytes, padded for
    /// fixed-size copies) in its final case, with the mask of its token
    /// bytes and the length of its ASCII prefix, found in the same pass.
    #[inline]
    fn ascii_block(&self, text: &[u8]) -> AsciiBlock {
        let mut bytes = [0u8; BLOCK + COPY];
        match text.first_chunk::<BLOCK>() {
            Some(full) => bytes[..BLOCK].copy_from_slice(full),
            // Padding is NUL, a separator in every mode.
            None => bytes[..text.len()].copy_from_slice(text),
        }
        let keep = self.keep_punctuation;
        let non_ascii = byte_mask(&bytes, |byte| !byte.is_ascii());
        let len = (non_ascii.trailing_zeros() as usize).min(text.len());
        let tokens = byte_mask(&bytes, |byte| is_ascii_token(byte, keep)) & low_bits(len);
        if self.lower {
            bytes.make_ascii_lowercase();
        }
        AsciiBlock { bytes, tokens, len }
    }

    /// Appends `bytes[start..end]`, ASCII token bytes in their final case,
    /// splitting overlong tokens.
    #[inline]
    fn push_ascii_run(
        &mut self,
        bytes: &[u8; BLOCK + COPY],
        mut start: usize,
        end: usize,
        shingler: &mut Shingler<'_>,
        sink: &mut impl FeatureSink,
    ) {
        while start < end {
            self.extend_token(shingler, sink);
            let room = MAX_TOKEN_BYTES
                .saturating_sub(shingler.token_len())
                .clamp(1, end - start);
            let stop = start + room;
            append(&mut shingler.buf, bytes, start, stop);
            start = stop;
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
        let mut rest = text;
        while !rest.is_empty() {
            // Fast path: the ASCII prefix of the next block, as a whole.
            if rest.as_bytes()[0].is_ascii() {
                let block = self.ascii_block(rest.as_bytes());
                self.feed_ascii_chars(&block, shingler, sink);
                rest = &rest[block.len..];
                continue;
            }
            let Some(c) = rest.chars().next() else { break };
            rest = &rest[c.len_utf8()..];
            self.char_char(c, shingler, sink);
        }
    }

    /// The general character rule, one character at a time (any character;
    /// the fast path [`Self::feed_ascii_chars`] must give the same tokens).
    fn char_char(&mut self, c: char, shingler: &mut Shingler<'_>, sink: &mut impl FeatureSink) {
        let token = if c.is_ascii() {
            self.ascii[c as usize] != 0
        } else {
            self.is_token_char(c)
        };
        if !token {
            self.pending_space |= self.seen_char;
            return;
        }
        self.flush_space(shingler, sink);
        self.seen_char = true;
        if self.lower {
            for lower in c.to_lowercase() {
                self.char_token(lower, shingler, sink);
            }
        } else {
            self.char_token(c, shingler, sink);
        }
    }

    /// Character mode: a separator run before this token character is one
    /// space token.
    #[inline]
    fn flush_space(&mut self, shingler: &mut Shingler<'_>, sink: &mut impl FeatureSink) {
        if self.pending_space {
            self.pending_space = false;
            shingler.begin_token();
            shingler.buf.push(b' ');
            shingler.end_token(sink);
        }
    }

    /// Character mode over up to [`BLOCK`] ASCII bytes: each run of token
    /// bytes goes to the shingler at once, one token per byte (one by one
    /// when token rules apply).
    #[inline]
    fn feed_ascii_chars(
        &mut self,
        block: &AsciiBlock,
        shingler: &mut Shingler<'_>,
        sink: &mut impl FeatureSink,
    ) {
        let AsciiBlock {
            bytes,
            tokens: mask,
            len,
        } = *block;
        let mut pos = 0usize;
        while pos < len {
            let rest = mask >> pos;
            if rest & 1 == 0 {
                self.pending_space |= self.seen_char;
                if rest == 0 {
                    break;
                }
                pos += rest.trailing_zeros() as usize;
            }
            let run = (mask >> pos).trailing_ones() as usize;
            self.flush_space(shingler, sink);
            self.seen_char = true;
            if shingler.takes_byte_runs() {
                let first = shingler.buf.len();
                append(&mut shingler.buf, &bytes, pos, pos + run);
                shingler.byte_tokens_appended(first, sink);
            } else {
                for &byte in &bytes[pos..pos + run] {
                    shingler.begin_token();
                    shingler.buf.push(byte);
                    shingler.end_token(sink);
                }
            }
            pos += run;
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
    use proptest::prelude::*;

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

    #[test]
    fn pack_flags_moves_byte_k_to_bit_k() {
        for bits in 0u64..256 {
            let flags = (0..8).fold(0u64, |acc, k| acc | (((bits >> k) & 1) << (8 * k)));
            assert_eq!(pack_flags(flags), bits);
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

    #[test]
    fn terms_are_normalised_like_text() {
        assert_eq!(
            normalize_term("\u{FB01}ANCÉ", &FeatureOptions::default()),
            "fiancé"
        );
    }
}
