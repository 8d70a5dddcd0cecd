//! Streaming Unicode NFKC: decoded text in, normalised text out.
//!
//! Text is cut into segments that normalise independently. A segment ends
//! before every *stable* character (canonical combining class 0 and
//! NFKC_Quick_Check = Yes, UAX #15 section 9): nothing before such a
//! character can reorder or compose with it. ASCII characters are stable and
//! already NFKC, so ASCII runs pass through untouched (the fast path); only
//! the last ASCII character is held back, because a combining mark in the
//! next chunk may compose with it. A segment that grows past
//! [`SEGMENT_LIMIT`] bytes without a stable character (only adversarial
//! runs of combining marks do that) is cut there, which bounds memory; the
//! cut depends only on the text, so chunking never changes the output.
//! Lower-casing and token rules are not this module's business.

use unicode_normalization::char::canonical_combining_class;
use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfkc_quick};

/// Longest segment normalised at once, in bytes of input.
pub(crate) const SEGMENT_LIMIT: usize = 4096;

/// Applies NFKC to a stream of text pieces.
#[derive(Debug, Default)]
pub(crate) struct Normalizer {
    /// Text since the last segment boundary, not yet normalised.
    pending: String,
    /// Reused output buffer for a normalised segment.
    normalized: String,
}

/// Length of the ASCII prefix of `bytes`, found 16 bytes at a time (the
/// check of a whole chunk vectorises; ASCII text is the common case).
pub(crate) fn ascii_prefix(bytes: &[u8]) -> usize {
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
        while let Some(&first) = rest.as_bytes().first() {
            if first.is_ascii() {
                self.flush(out);
                let ascii = ascii_prefix(rest.as_bytes());
                if ascii > 1 {
                    out(&rest[..ascii - 1]);
                }
                self.pending.push_str(&rest[ascii - 1..ascii]);
                rest = &rest[ascii..];
                continue;
            }
            let Some(c) = rest.chars().next() else { break };
            rest = &rest[c.len_utf8()..];
            if is_stable(c) {
                self.flush(out);
            }
            self.pending.push(c);
            if self.pending.len() >= SEGMENT_LIMIT {
                self.flush(out);
            }
        }
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
        if self.pending.is_ascii() || is_nfkc_quick(self.pending.chars()) == IsNormalized::Yes {
            out(&self.pending);
        } else {
            self.normalized.clear();
            self.normalized.extend(self.pending.nfkc());
            out(&self.normalized);
        }
        self.pending.clear();
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

    proptest! {
        #[test]
        fn chunked_equals_whole_string_nfkc(
            text in "[a-e \u{300}-\u{303}\u{1100}-\u{1103}\u{1161}\u{11A8}\u{AC00}\u{FB01}\u{FF21}\u{4E00}]{0,40}",
            chunk in 1usize..6,
        ) {
            let expected: String = text.nfkc().collect();
            prop_assert_eq!(normalize_chunked(&text, chunk), expected);
        }
    }
}
