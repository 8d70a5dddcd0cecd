//! Shingles: the last N tokens, joined, handed to a feature sink as a slice
//! of one reused buffer (no allocation per feature).
//!
//! The tokenizer writes each token's bytes straight into the buffer; when a
//! token ends it is weighed (vocabulary rules, if any), joined to the window
//! and, once N tokens are in the window, the window's bytes are one feature.
//! Words are joined by one space (U+0020); characters are not joined. The
//! buffer is compacted now and then, so its size stays bounded. A document
//! with fewer than N tokens (but at least one) gives one feature: all of
//! its tokens. How tokens are found is the tokenizer's business.

use super::hash::feature_hash;
use super::options::FeatureHash;
use super::weights::{TokenRules, TokenWeigher};

/// Where features go: the SimHash accumulator, a feature set, SDR sums.
///
/// A sink is handed exactly the features that count: those left by the
/// token rules (excludes, vocabulary and orphans, frequency floor and
/// ceiling) with a weight above zero. Every sink sees the same ones, so
/// the SimHash, the feature set (exact Jaccard), the SDR and the feature
/// digest all agree on what a document's features are.
///
/// The shingler hashes each feature once and hands over the hash with
/// the bytes, so sinks fed together (the SimHash and a feature set) do not
/// each hash it again.
pub(crate) trait FeatureSink {
    /// Whether the sink reads `hash` (when no sink does, features are not
    /// hashed: the SDR hashes their bytes its own way).
    const WANTS_HASH: bool = true;

    /// One feature occurrence: its bytes, its hash (the options' feature
    /// hash; 0 when [`Self::WANTS_HASH`] is false) and its (positive)
    /// weight.
    fn feature(&mut self, bytes: &[u8], hash: u64, weight: u32);
}

/// Hands `bytes` to `sink`, hashed with `kind` if the sink wants it.
#[inline(always)]
fn hand<S: FeatureSink>(sink: &mut S, kind: FeatureHash, bytes: &[u8], weight: u32) {
    let hash = if S::WANTS_HASH {
        feature_hash(kind, bytes)
    } else {
        0
    };
    sink.feature(bytes, hash, weight);
}

/// Tokens longer than this many bytes are split (bounds memory on inputs
/// without separators); a split happens only at a character boundary.
pub(crate) const MAX_TOKEN_BYTES: usize = 1024;

/// Compact the buffer once this many bytes before the window are dead.
const COMPACT_AT: usize = 4096;

/// The sliding window of the last N tokens.
#[derive(Debug)]
pub(crate) struct Shingler<'a> {
    n: usize,
    /// Whether tokens are joined by a space (words) or not (characters).
    join: bool,
    /// Token bytes of the window (and of the token being built), joined.
    pub(crate) buf: Vec<u8>,
    /// Start offset in `buf` of each token since the last compaction; the
    /// window is the last N (plain vectors: pushing is all the hot path does).
    starts: Vec<usize>,
    /// Weight of each token in `starts` (only kept when there are rules).
    weights: Vec<u32>,
    /// Length of `buf` before the current token's joiner.
    token_mark: usize,
    /// Start offset of the current token.
    token_start: usize,
    /// Tokens kept so far (saturating).
    tokens: u64,
    /// Token weighing, absent on the fast path where every token weighs 1.
    weigher: Option<TokenWeigher<'a>>,
    /// How features are hashed.
    hash: FeatureHash,
}

impl<'a> Shingler<'a> {
    /// A window of `n` tokens (at least 1), joined with a space when `join`.
    #[cfg(test)]
    pub(crate) fn new(n: usize, join: bool, rules: &'a TokenRules) -> Self {
        Shingler::with_room(n, join, rules, usize::MAX, FeatureHash::Xxh3)
    }

    /// A window of `n` tokens (at least 1), joined with a space when
    /// `join`, for a text of `bytes` bytes (`usize::MAX`: a stream), its
    /// features hashed with `hash`: its buffers start no larger than the
    /// text needs, and grow if normalising lengthens it.
    pub(crate) fn with_room(
        n: usize,
        join: bool,
        rules: &'a TokenRules,
        bytes: usize,
        hash: FeatureHash,
    ) -> Self {
        let n = n.max(1);
        // A token's bytes, a joiner each and a fixed-size copy's overrun.
        let room = bytes.saturating_mul(2).saturating_add(32);
        Shingler {
            n,
            join,
            buf: Vec::with_capacity(room.min(COMPACT_AT * 2)),
            starts: Vec::with_capacity(bytes.saturating_add(1).min(COMPACT_AT)),
            weights: Vec::new(),
            token_mark: 0,
            token_start: 0,
            tokens: 0,
            weigher: (!rules.is_trivial()).then(|| TokenWeigher::new(rules)),
            hash,
        }
    }

    /// Starts a new token at the end of the buffer.
    #[inline]
    pub(crate) fn begin_token(&mut self) {
        self.token_mark = self.buf.len();
        if self.join && !self.starts.is_empty() {
            self.buf.push(b' ');
        }
        self.token_start = self.buf.len();
    }

    /// Bytes in the current token so far.
    #[inline]
    pub(crate) fn token_len(&self) -> usize {
        self.buf.len() - self.token_start
    }

    /// Ends the current token: weighs it, slides the window, emits a shingle.
    #[inline]
    pub(crate) fn end_token(&mut self, sink: &mut impl FeatureSink) {
        if self.buf.len() == self.token_start {
            self.buf.truncate(self.token_mark);
            return;
        }
        let kind = self.hash;
        let weight = match &mut self.weigher {
            None => 1,
            Some(weigher) => {
                let token = &self.buf[self.token_start..];
                let mut char_feature = |bytes: &[u8], weight: u32| {
                    if weight > 0 {
                        hand(sink, kind, bytes, weight);
                    }
                };
                match weigher.weigh(token, &mut char_feature) {
                    Some(weight) => weight,
                    None => {
                        self.buf.truncate(self.token_mark);
                        return;
                    }
                }
            }
        };
        self.starts.push(self.token_start);
        if self.weigher.is_some() {
            self.weights.push(weight);
        }
        self.tokens = self.tokens.saturating_add(1);
        if self.starts.len() >= self.n {
            self.emit(sink);
            if self.starts[self.window()] >= COMPACT_AT {
                self.compact();
            }
        }
    }

    /// True when tokens are neither joined nor weighed (character mode
    /// without rules): the case [`Self::byte_tokens_appended`] serves.
    #[inline]
    pub(crate) fn takes_byte_runs(&self) -> bool {
        !self.join && self.weigher.is_none()
    }

    /// Makes each byte of `buf[first..]`, just appended (ASCII token
    /// characters), a token of its own: the same as `begin_token`, one byte,
    /// `end_token` per byte, when [`Self::takes_byte_runs`] (the caller's
    /// check). Each window is hashed straight from the buffer.
    #[inline]
    pub(crate) fn byte_tokens_appended(&mut self, first: usize, sink: &mut impl FeatureSink) {
        debug_assert!(self.takes_byte_runs());
        let Some(last) = self.buf.len().checked_sub(1).filter(|&last| last >= first) else {
            return;
        };
        for end in first..=last {
            self.starts.push(end);
            self.tokens = self.tokens.saturating_add(1);
            if let Some(window) = self.starts.len().checked_sub(self.n) {
                let start = self.starts[window];
                hand(sink, self.hash, &self.buf[start..=end], 1);
            }
        }
        // As `begin_token` left them for the last byte.
        (self.token_mark, self.token_start) = (last, last);
        if self.starts.len() >= self.n && self.starts[self.window()] >= COMPACT_AT {
            self.compact();
        }
    }

    /// Ends the document; a document shorter than N tokens gives one feature.
    pub(crate) fn finish(&mut self, sink: &mut impl FeatureSink) {
        if self.tokens > 0 && self.tokens < self.n as u64 {
            self.emit(sink);
        }
    }

    /// Index in `starts` of the oldest token in the window.
    #[inline]
    fn window(&self) -> usize {
        self.starts.len().saturating_sub(self.n)
    }

    /// Hands the window to the sink, weighted by its heaviest token.
    #[inline]
    fn emit(&mut self, sink: &mut impl FeatureSink) {
        let first = self.window();
        let weight = if self.weigher.is_none() {
            1
        } else {
            self.weights[first..].iter().copied().max().unwrap_or(0)
        };
        if weight > 0 {
            let start = self.starts.get(first).copied().unwrap_or(0);
            hand(sink, self.hash, &self.buf[start..], weight);
        }
    }

    /// Drops the bytes and tokens before the window once there are enough.
    #[cold]
    fn compact(&mut self) {
        let first = self.window();
        let front = self.starts.get(first).copied().unwrap_or(0);
        if front >= COMPACT_AT {
            self.buf.copy_within(front.., 0);
            self.buf.truncate(self.buf.len() - front);
            self.starts.drain(..first);
            for start in &mut self.starts {
                *start -= front;
            }
            if self.weigher.is_some() {
                self.weights.drain(..first);
            }
            self.token_start -= front;
            self.token_mark = self.token_mark.saturating_sub(front);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default)]
    struct Collect(Vec<(String, u32)>);

    impl FeatureSink for Collect {
        const WANTS_HASH: bool = false;

        fn feature(&mut self, bytes: &[u8], _: u64, weight: u32) {
            self.0
                .push((String::from_utf8_lossy(bytes).into_owned(), weight));
        }
    }

    fn shingles(n: usize, join: bool, tokens: &[&str]) -> Vec<String> {
        let rules = TokenRules::default();
        let mut shingler = Shingler::new(n, join, &rules);
        let mut sink = Collect::default();
        for token in tokens {
            shingler.begin_token();
            shingler.buf.extend_from_slice(token.as_bytes());
            shingler.end_token(&mut sink);
        }
        shingler.finish(&mut sink);
        sink.0.into_iter().map(|(s, _)| s).collect()
    }

    #[test]
    fn word_windows_are_joined_by_one_space() {
        assert_eq!(shingles(2, true, &["a", "bb", "c"]), vec!["a bb", "bb c"]);
    }

    #[test]
    fn short_documents_give_one_feature_and_empty_ones_none() {
        assert_eq!(shingles(3, true, &["a", "b"]), vec!["a b"]);
        assert!(shingles(3, true, &[]).is_empty());
        assert_eq!(shingles(2, false, &["x", "y", "z"]), vec!["xy", "yz"]);
    }

    #[test]
    fn compaction_keeps_windows_intact() {
        let tokens: Vec<String> = (0..5000).map(|i| format!("t{i}")).collect();
        let refs: Vec<&str> = tokens.iter().map(String::as_str).collect();
        let got = shingles(3, true, &refs);
        assert_eq!(got.len(), 4998);
        assert_eq!(got[4997], "t4997 t4998 t4999");
    }
}
