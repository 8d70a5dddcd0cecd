//! Word mode (`words:N`): a token is a maximal run of token characters, a
//! standalone character (CJK, kana, Thai, ...) is a token of its own, and a
//! token that reaches [`MAX_TOKEN_BYTES`] is split.
//!
//! ASCII text goes through [`AsciiBlock`] a block at a time, one loop turn
//! per token; any other character through [`Tokenizer::word_char`], the
//! general rule, which the fast path must agree with.

use super::Tokenizer;
use super::ascii::{AsciiBlock, BLOCK, COPY, append};
use super::is_standalone;
use crate::fingerprint::shingle::{FeatureSink, MAX_TOKEN_BYTES, Shingler};

impl Tokenizer {
    /// Tokenises a piece of normalised text into words.
    pub(super) fn feed_words(
        &mut self,
        text: &str,
        shingler: &mut Shingler<'_>,
        sink: &mut impl FeatureSink,
    ) {
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
    pub(super) fn word_char(
        &mut self,
        c: char,
        shingler: &mut Shingler<'_>,
        sink: &mut impl FeatureSink,
    ) {
        if !self.is_token(c) {
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

    /// Appends a (non-ASCII) character in its final case.
    fn push_char(&self, c: char, shingler: &mut Shingler<'_>) {
        let mut buffer = [0; 4];
        self.casing.map(c, |c| {
            shingler
                .buf
                .extend_from_slice(c.encode_utf8(&mut buffer).as_bytes());
        });
    }
}
