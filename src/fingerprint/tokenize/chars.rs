//! Character mode (`chars:N`): every token character (after lower-casing,
//! each character it becomes) is a token, and a run of separators between
//! two token characters is one space token.
//!
//! ASCII text goes through [`AsciiBlock`] a block at a time, whole runs of
//! token bytes handed to the shingler at once; any other character through
//! [`Tokenizer::char_char`], the general rule, which the fast path must
//! agree with.

use super::Tokenizer;
use super::ascii::{AsciiBlock, append};
use crate::fingerprint::shingle::{FeatureSink, Shingler};

impl Tokenizer {
    /// Tokenises a piece of normalised text into characters.
    pub(super) fn feed_chars(
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
    pub(super) fn char_char(
        &mut self,
        c: char,
        shingler: &mut Shingler<'_>,
        sink: &mut impl FeatureSink,
    ) {
        if !self.is_token(c) {
            self.pending_space |= self.seen_char;
            return;
        }
        self.flush_space(shingler, sink);
        self.seen_char = true;
        self.casing.map(c, |c| Self::char_token(c, shingler, sink));
    }

    /// A separator run before this token character is one space token.
    #[inline]
    fn flush_space(&mut self, shingler: &mut Shingler<'_>, sink: &mut impl FeatureSink) {
        if self.pending_space {
            self.pending_space = false;
            shingler.begin_token();
            shingler.buf.push(b' ');
            shingler.end_token(sink);
        }
    }

    /// Character mode over up to 64 ASCII bytes (a block): each run of token
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
    fn char_token(c: char, shingler: &mut Shingler<'_>, sink: &mut impl FeatureSink) {
        let mut buffer = [0; 4];
        shingler.begin_token();
        shingler
            .buf
            .extend_from_slice(c.encode_utf8(&mut buffer).as_bytes());
        shingler.end_token(sink);
    }
}
