//! Tokens: which characters make tokens, which separate them and which
//! stand alone; tokens are written straight into the shingler, in their
//! final case.
//!
//! This file owns the classification and the tokenizer's state; the modes
//! and the fast path each have a file:
//!
//! - `words`: word mode. A token is a maximal run of token characters
//!   (letters, digits and combining marks; with kept punctuation, anything
//!   but whitespace and control characters). A character of a script
//!   written without spaces (CJK ideographs, kana, Thai, Lao, Khmer,
//!   Myanmar) is a token of its own.
//! - `chars`: character mode. Every token character is a token, and each
//!   run of separators between two of them is one space token.
//! - `ascii`: the fast path of both modes, 64 ASCII bytes at a time
//!   (class and case at once); other characters use Unicode properties.
//!
//! Decoding and NFKC happen before this module; lower-casing is
//! `normalize::Casing`, applied here because classification looks at the
//! character before it is lower-cased.

mod ascii;
mod chars;
mod words;

pub(crate) use ascii::mask_of_flags;
use unicode_normalization::char::is_combining_mark;

use super::normalize::Casing;
use super::options::{FeatureOptions, Punctuation, Shingle};
use super::shingle::{FeatureSink, Shingler};
use ascii::{AsciiBlock, ascii_table};

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

/// The General Punctuation block: never part of a token when punctuation
/// separates.
const GENERAL_PUNCTUATION: std::ops::RangeInclusive<char> = '\u{2000}'..='\u{206F}';

/// Splits normalised text into tokens, statefully across pieces.
#[derive(Clone, Debug)]
pub(crate) struct Tokenizer {
    /// For each ASCII byte: 0 if it separates, else the byte it becomes.
    ascii: [u8; 128],
    words: bool,
    casing: Casing,
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
        let casing = Casing::new(options.case);
        let keep_punctuation = options.punctuation == Punctuation::Keep;
        Tokenizer {
            ascii: ascii_table(keep_punctuation, casing),
            words: matches!(options.shingle, Shingle::Words(_)),
            casing,
            keep_punctuation,
            in_token: false,
            pending_space: false,
            seen_char: false,
        }
    }

    /// True when a character is part of tokens.
    #[inline]
    fn is_token(&self, c: char) -> bool {
        if c.is_ascii() {
            self.ascii[c as usize] != 0
        } else {
            self.is_token_char(c)
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

    /// The next ASCII block of `text`, classified and in its final case.
    #[inline]
    fn ascii_block(&self, text: &[u8]) -> AsciiBlock {
        AsciiBlock::read(text, self.keep_punctuation, self.casing)
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
}

#[cfg(test)]
mod tests;
