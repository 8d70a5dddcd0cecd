//! Normalisation, all of it: streaming Unicode NFKC of decoded text,
//! lower-casing, and both applied to vocabulary and exclude entries
//! ([`normalize_term`]) so that they match document text.
//!
//! NFKC: text is cut into segments that normalise independently. A segment
//! ends before every *stable* character (canonical combining class 0 and
//! NFKC_Quick_Check = Yes, UAX #15 section 9): nothing before such a
//! character can reorder or compose with it. A stable character on its own
//! is already NFKC, so runs of stable characters (ASCII found 16 bytes at a
//! time, other characters checked one by one) pass through untouched, the
//! fast path; only the last is held back, because a combining mark in the
//! next chunk may compose with it. A segment that grows past
//! [`SEGMENT_LIMIT`] bytes without a stable character (only adversarial
//! runs of combining marks do that) is cut there, which bounds memory; the
//! cut depends only on the text, so chunking never changes the output.
//!
//! Lower-casing ([`Casing`]) is character by character, without context.
//! It is applied by the tokenizer as it writes token characters, because
//! classification looks at a character before it is lower-cased; the
//! mapping itself lives here.

use unicode_normalization::char::canonical_combining_class;
use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfkc_quick};

use super::options::{Case, FeatureOptions, UnicodeForm};

/// Lower-casing, or none: each character becomes its Unicode default
/// lower-case mapping (Rust's `char::to_lowercase`, possibly several
/// characters), without context.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Casing {
    lower: bool,
}

impl Casing {
    /// The casing of `case`.
    pub(crate) fn new(case: Case) -> Self {
        Casing {
            lower: case == Case::Lower,
        }
    }

    /// Calls `out` with each character that `c` becomes.
    #[inline]
    pub(crate) fn map(self, c: char, mut out: impl FnMut(char)) {
        if self.lower {
            for lower in c.to_lowercase() {
                out(lower);
            }
        } else {
            out(c);
        }
    }

    /// What an ASCII byte becomes (always one ASCII byte).
    #[inline]
    pub(crate) fn ascii(self, byte: u8) -> u8 {
        if self.lower {
            byte.to_ascii_lowercase()
        } else {
            byte
        }
    }

    /// Applies [`Self::ascii`] to every byte, in place (whole blocks at once).
    #[inline]
    pub(crate) fn ascii_in_place(self, bytes: &mut [u8]) {
        if self.lower {
            bytes.make_ascii_lowercase();
        }
    }
}

/// Normalises a vocabulary or exclude entry the way document text is
/// (NFKC, then lower-case, each as configured).
pub(crate) fn normalize_term(term: &str, options: &FeatureOptions) -> String {
    let text: String = match options.unicode {
        UnicodeForm::Nfkc => term.nfkc().collect(),
        UnicodeForm::AsIs => term.to_string(),
    };
    let casing = Casing::new(options.case);
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        casing.map(c, |c| out.push(c));
    }
    out
}

/// Longest segment normalised at once, in bytes of input.
pub(crate) const SEGMENT_LIMIT: usize = 4096;

/// Applies NFKC to a stream of text pieces.
#[derive(Debug)]
pub(crate) struct Normalizer {
    /// Text since the last segment boundary, not yet normalised.
    pending: String,
    /// Reused output buffer for a normalised segment.
    normalized: String,
    /// `pending` is one stable character, hence already NFKC.
    single_stable: bool,
    /// `is_stable` of recent characters, by their low bits: non-ASCII text
    /// repeats a handful (quotes, dashes, one script's letters). Each entry
    /// is the character shifted left by one, its answer in the low bit:
    /// plain integers, so a new pipeline fills the cache in a few stores
    /// (pairs of a char and a bool took 128, 2% of fingerprinting a short
    /// line).
    stable_cache: [u32; STABLE_CACHE],
}

/// Entries of the stability cache.
const STABLE_CACHE: usize = 64;

impl Default for Normalizer {
    fn default() -> Self {
        Normalizer {
            pending: String::new(),
            normalized: String::new(),
            single_stable: false,
            // NUL is stable: every entry starts as NUL, stable.
            stable_cache: [1; STABLE_CACHE],
        }
    }
}

/// Length of the ASCII prefix of `bytes`, found 16 bytes at a time (the
/// check of a whole chunk vectorises; ASCII text is the common case).
fn ascii_prefix(bytes: &[u8]) -> usize {
    let chunks = bytes.chunks_exact(16);
    let tail = chunks.remainder();
    for (k, chunk) in chunks.enumerate() {
        if !chunk.is_ascii() {
            return 16 * k + chunk.iter().take_while(|b| b.is_ascii()).count();
        }
    }
    bytes.len() - tail.len() + tail.iter().take_while(|b| b.is_ascii()).count()
}

/// True when a segment boundary may be placed before `c`.
fn is_stable(c: char) -> bool {
    canonical_combining_class(c) == 0 && is_nfkc_quick(std::iter::once(c)) == IsNormalized::Yes
}

impl Normalizer {
    /// Normalises `text`, calling `out` with normalised pieces in order.
    pub(crate) fn feed(&mut self, text: &str, out: &mut impl FnMut(&str)) {
        let mut rest = text;
        while !rest.is_empty() {
            // A run of stable characters: each one is a segment of its own
            // and already NFKC, so the run passes through untouched, but for
            // its last character: a combining mark may follow in the next piece.
            let (run, last) = self.stable_prefix(rest);
            if run > 0 {
                self.flush(out);
                if last > 0 {
                    out(&rest[..last]);
                }
                self.pending.push_str(&rest[last..run]);
                self.single_stable = true;
                rest = &rest[run..];
                continue;
            }
            let Some(c) = rest.chars().next() else { break };
            rest = &rest[c.len_utf8()..];
            self.pending.push(c);
            self.single_stable = false;
            if self.pending.len() >= SEGMENT_LIMIT {
                self.flush(out);
            }
        }
    }

    /// The run of stable characters that starts `text`: its length in
    /// bytes and the offset of its last character (0 when the run is empty).
    fn stable_prefix(&mut self, text: &str) -> (usize, usize) {
        let (mut end, mut last) = (0, 0);
        loop {
            let ascii = ascii_prefix(&text.as_bytes()[end..]);
            if ascii > 0 {
                end += ascii;
                last = end - 1;
            }
            match text[end..].chars().next() {
                Some(c) if self.is_stable_cached(c) => {
                    last = end;
                    end += c.len_utf8();
                }
                _ => return (end, last),
            }
        }
    }

    /// [`is_stable`], remembered in a small direct-mapped cache.
    #[inline]
    fn is_stable_cached(&mut self, c: char) -> bool {
        let slot = &mut self.stable_cache[c as usize % STABLE_CACHE];
        if *slot >> 1 != u32::from(c) {
            *slot = u32::from(c) << 1 | u32::from(is_stable(c));
        }
        *slot & 1 == 1
    }

    /// Ends the stream, normalising what is still held back.
    pub(crate) fn finish(&mut self, out: &mut impl FnMut(&str)) {
        self.flush(out);
    }

    /// Normalises and emits the pending segment.
    fn flush(&mut self, out: &mut impl FnMut(&str)) {
        if self.pending.is_empty() {
            return;
        }
        if self.single_stable || is_nfkc_quick(self.pending.chars()) == IsNormalized::Yes {
            out(&self.pending);
        } else {
            self.normalized.clear();
            self.normalized.extend(self.pending.nfkc());
            out(&self.normalized);
        }
        self.pending.clear();
        self.single_stable = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn normalize_chunked(text: &str, chunk: usize) -> String {
        let mut normalizer = Normalizer::default();
        let mut result = String::new();
        let chars: Vec<char> = text.chars().collect();
        for piece in chars.chunks(chunk.max(1)) {
            let piece: String = piece.iter().collect();
            normalizer.feed(&piece, &mut |s| result.push_str(s));
        }
        normalizer.finish(&mut |s| result.push_str(s));
        result
    }

    #[test]
    fn composes_across_pieces_and_folds_compatibility_forms() {
        // e + combining acute, split between pieces; ligature fi; full-width A.
        assert_eq!(
            normalize_chunked("cafe\u{301} \u{FB01} \u{FF21}", 1),
            "caf\u{E9} fi A"
        );
    }

    #[test]
    fn combining_mark_floods_are_cut_and_bounded() {
        let text = format!("a{}", "\u{301}".repeat(SEGMENT_LIMIT));
        let whole = normalize_chunked(&text, usize::MAX);
        assert_eq!(whole, normalize_chunked(&text, 7));
        assert!(whole.starts_with('\u{E1}'));
    }

    #[test]
    fn terms_are_normalised_like_text() {
        assert_eq!(
            normalize_term("\u{FB01}ANCÉ", &FeatureOptions::default()),
            "fiancé"
        );
        let as_is = FeatureOptions {
            unicode: UnicodeForm::AsIs,
            case: Case::Sensitive,
            ..FeatureOptions::default()
        };
        assert_eq!(normalize_term("\u{FB01}ANCÉ", &as_is), "\u{FB01}ANCÉ");
    }

    #[test]
    fn lower_casing_is_per_character_and_may_lengthen() {
        let mut out = String::new();
        for c in "ΣİA".chars() {
            Casing::new(Case::Lower).map(c, |c| out.push(c));
        }
        assert_eq!(out, "σi\u{307}a");
        let mut bytes = *b"AbC-1";
        Casing::new(Case::Lower).ascii_in_place(&mut bytes);
        assert_eq!(&bytes, b"abc-1");
        Casing::new(Case::Sensitive).ascii_in_place(&mut bytes);
        assert_eq!(Casing::new(Case::Sensitive).ascii(b'Q'), b'Q');
        assert_eq!(Casing::new(Case::Lower).ascii(b'Q'), b'q');
    }

    proptest! {
        #[test]
        fn chunked_equals_whole_string_nfkc(
            text in "[a-e \u{300}-\u{303}\u{323}\u{1E0B}\u{E9}\u{2019}\u{1100}-\u{1103}\u{1161}\u{11A8}\u{AC00}\u{FB01}\u{FF21}\u{4E00}]{0,40}",
            chunk in 1usize..6,
        ) {
            let expected: String = text.nfkc().collect();
            prop_assert_eq!(normalize_chunked(&text, chunk), expected);
        }
    }
}
