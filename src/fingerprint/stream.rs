//! The streaming pipeline: chunks of bytes through decoding, NFKC,
//! tokenising and shingling into a feature sink, plus the sinks themselves
//! (SimHash with tf or binary weights, feature sets, the distinct features
//! an SDR hashes).
//!
//! Every stage keeps its state between chunks, so a chunk boundary, even
//! inside a UTF-8 sequence, an NFKC composition or a shingle, never changes
//! the features. Memory is bounded for tf SimHash; binary weighting,
//! feature sets and SDRs keep one entry per distinct feature.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::io::{self, Read};

use xxhash_rust::xxh3::{Xxh3Default, xxh3_64};

use super::Fingerprinter;
use super::decode::Decoder;
use super::distinct::{DistinctFeatures, Seen};
use super::normalize::Normalizer;
use super::options::{Shingle, UnicodeForm, Weighting};
use super::shingle::{FeatureSink, Shingler};
use super::simhash::{Accumulator, Outcome};
use super::tokenize::Tokenizer;

/// Size of the read buffer.
pub(crate) const CHUNK: usize = 64 * 1024;

/// Decoding to shingling for one document.
pub(crate) struct Pipeline<'a> {
    decoder: Decoder,
    normalizer: Option<Normalizer>,
    tokenizer: Tokenizer,
    shingler: Shingler<'a>,
    content: Xxh3Default,
    bytes: u64,
}

impl<'a> Pipeline<'a> {
    /// A pipeline with the options and rules of `fingerprinter`.
    pub(crate) fn new(fingerprinter: &'a Fingerprinter) -> Self {
        Pipeline::with_room(fingerprinter, usize::MAX)
    }

    /// [`Pipeline::new`] for a document of `bytes` bytes, its buffers no
    /// larger than it needs.
    pub(crate) fn with_room(fingerprinter: &'a Fingerprinter, bytes: usize) -> Self {
        let options = fingerprinter.options();
        Pipeline {
            decoder: Decoder::default(),
            normalizer: (options.unicode == UnicodeForm::Nfkc).then(Normalizer::default),
            tokenizer: fingerprinter.tokenizer().clone(),
            shingler: Shingler::with_room(
                options.shingle.size(),
                matches!(options.shingle, Shingle::Words(_)),
                fingerprinter.rules(),
                bytes,
                options.hash,
            ),
            content: Xxh3Default::new(),
            bytes: 0,
        }
    }

    /// Feeds the next chunk of the document.
    pub(crate) fn feed(&mut self, chunk: &[u8], sink: &mut impl FeatureSink) {
        self.content.update(chunk);
        self.bytes += chunk.len() as u64;
        self.feed_features(chunk, sink);
    }

    /// Runs a whole document held in memory; returns what
    /// [`Pipeline::finish`] does. Its content hash is `content_hash`
    /// when the caller knows it, else taken in one call: the streaming
    /// hasher copies what it is fed, which cost 1% of a JSON Lines scan.
    pub(crate) fn run_whole(
        mut self,
        bytes: &[u8],
        content_hash: Option<u64>,
        sink: &mut impl FeatureSink,
    ) -> (u64, u64) {
        self.feed_features(bytes, sink);
        self.finish_features(sink);
        let content_hash = content_hash.unwrap_or_else(|| xxh3_64(bytes));
        (bytes.len() as u64, content_hash)
    }

    /// Feeds a chunk to the stages that find features.
    fn feed_features(&mut self, chunk: &[u8], sink: &mut impl FeatureSink) {
        let Pipeline {
            decoder,
            normalizer,
            tokenizer,
            shingler,
            ..
        } = self;
        decoder.feed(chunk, &mut |text| match normalizer {
            Some(normalizer) => {
                normalizer.feed(text, &mut |text| tokenizer.feed(text, shingler, sink))
            }
            None => tokenizer.feed(text, shingler, sink),
        });
    }

    /// Ends the document; returns (bytes read, xxh3-64 of the bytes).
    pub(crate) fn finish(mut self, sink: &mut impl FeatureSink) -> (u64, u64) {
        self.finish_features(sink);
        (self.bytes, self.content.digest())
    }

    /// Ends the document in the stages that find features.
    fn finish_features(&mut self, sink: &mut impl FeatureSink) {
        let Pipeline {
            decoder,
            normalizer,
            tokenizer,
            shingler,
            ..
        } = self;
        decoder.finish(&mut |text| match normalizer {
            Some(normalizer) => {
                normalizer.feed(text, &mut |text| tokenizer.feed(text, shingler, sink))
            }
            None => tokenizer.feed(text, shingler, sink),
        });
        if let Some(normalizer) = normalizer {
            normalizer.finish(&mut |text| tokenizer.feed(text, shingler, sink));
        }
        tokenizer.finish(shingler, sink);
        shingler.finish(sink);
    }

    /// Runs a whole reader through the pipeline in chunks.
    pub(crate) fn run<R: Read>(
        mut self,
        mut reader: R,
        sink: &mut impl FeatureSink,
    ) -> io::Result<(u64, u64)> {
        // One buffer per thread: zeroing a fresh 64 KiB for every small
        // file cost 2% of a scan's time.
        thread_local! {
            static BUFFER: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
        }
        let mut buffer = BUFFER.with_borrow_mut(std::mem::take);
        buffer.resize(CHUNK, 0);
        let read = loop {
            match reader.read(&mut buffer) {
                Ok(0) => break Ok(()),
                Ok(n) => self.feed(&buffer[..n], sink),
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(error) => break Err(error),
            }
        };
        BUFFER.with_borrow_mut(|kept| *kept = buffer);
        read?;
        Ok(self.finish(sink))
    }
}

/// A hasher for keys that already are hashes.
#[derive(Default)]
pub(crate) struct IdentityHasher(u64);

impl Hasher for IdentityHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        // Only u64 keys are used; fold anything else in anyway.
        for &byte in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(byte);
        }
    }
    fn write_u64(&mut self, value: u64) {
        self.0 = value;
    }
}

/// Hash map / set state for keys that already are hashes.
pub(crate) type Identity = BuildHasherDefault<IdentityHasher>;

/// Term-frequency SimHash: every occurrence is added as it comes.
pub(crate) struct TfSink {
    pub(crate) accumulator: Accumulator,
    pub(crate) features: u64,
}

impl FeatureSink for TfSink {
    #[inline(always)]
    fn feature(&mut self, _bytes: &[u8], hash: u64, weight: u32) {
        self.features += 1;
        if weight == 1 {
            self.accumulator.add_unit(hash);
        } else {
            self.accumulator.add(hash, weight);
        }
    }
}

/// Features [`DistinctSink`] holds before it looks them up in one tight
/// loop, away from the tokenizer's steps.
const DISTINCT_BATCH: usize = 32;

/// Distinct feature hashes with the largest weight each was seen with
/// (binary weighting), each counted as it first comes and again only when
/// its weight grows; memory grows with the number of distinct features.
/// `UNIT`: every feature weighs 1 (no token rules), so no weight is kept.
pub(crate) struct DistinctSink<'a, const UNIT: bool> {
    features: &'a mut DistinctFeatures,
    accumulator: Accumulator,
    batch: [(u64, u32); DISTINCT_BATCH],
    batch_len: usize,
}

impl<'a, const UNIT: bool> DistinctSink<'a, UNIT> {
    /// A sink that gathers into `features`, an empty table.
    pub(crate) fn new(features: &'a mut DistinctFeatures) -> Self {
        DistinctSink {
            features,
            accumulator: Accumulator::new(),
            batch: [(0, 0); DISTINCT_BATCH],
            batch_len: 0,
        }
    }

    /// What the distinct features come to.
    pub(crate) fn finish(mut self) -> Outcome {
        self.count_batch();
        let distinct = self.features.len() as u64;
        self.accumulator.outcome(distinct)
    }

    /// Looks up the held features in order, counting each new one.
    #[inline(never)]
    fn count_batch(&mut self) {
        for &(hash, weight) in &self.batch[..self.batch_len] {
            if UNIT {
                let new = self.features.insert_unit(hash);
                self.accumulator.add_unit_if(hash, new);
                continue;
            }
            match self.features.insert(hash, weight) {
                Seen::New | Seen::Full => self.accumulator.add(hash, weight),
                Seen::Before(before) if weight > before => {
                    self.accumulator.add_weight(hash, weight - before);
                }
                Seen::Before(_) => {}
            }
        }
        self.batch_len = 0;
    }
}

impl<const UNIT: bool> FeatureSink for DistinctSink<'_, UNIT> {
    #[inline(always)]
    fn feature(&mut self, _bytes: &[u8], hash: u64, weight: u32) {
        self.batch[self.batch_len] = (hash, weight);
        self.batch_len += 1;
        if self.batch_len == DISTINCT_BATCH {
            self.count_batch();
        }
    }
}

/// The distinct hashes of the features that count (for exact Jaccard):
/// each once, whatever its weight or number of occurrences; or, for a sink
/// with a bound, nothing once more than that many are distinct.
///
/// Hashes are gathered in a vector and sorted once, which is several times
/// faster than a hash set; the vector is sorted and deduplicated in place
/// whenever it doubles past the last distinct count, so memory stays within
/// about twice the distinct features (plus `SET_COMPACT_AT`, or twice the
/// bound if less).
pub(crate) struct SetSink {
    /// The hashes; `None` once more than `max` were distinct.
    set: Option<Vec<u64>>,
    max: usize,
    /// The length at which to compact next.
    compact_at: usize,
}

/// The smallest vector a set sink without a bound compacts.
pub(crate) const SET_COMPACT_AT: usize = 1 << 20;

impl SetSink {
    /// An empty sink.
    pub(crate) fn new() -> SetSink {
        SetSink::bounded(usize::MAX)
    }

    /// An empty sink that gives up past `max` distinct hashes.
    pub(crate) fn bounded(max: usize) -> SetSink {
        SetSink {
            set: Some(Vec::new()),
            max,
            compact_at: Self::least_compaction(max),
        }
    }

    /// An empty sink without a bound, with room for `capacity` hashes.
    pub(crate) fn with_capacity(capacity: usize) -> SetSink {
        let mut sink = SetSink::new();
        sink.set = Some(Vec::with_capacity(capacity));
        sink
    }

    /// The shortest vector compacted: checked in time for the bound.
    fn least_compaction(max: usize) -> usize {
        max.saturating_mul(2).clamp(16, SET_COMPACT_AT)
    }

    /// The sorted, distinct hashes, unless more than `max` (never for a
    /// sink without a bound).
    pub(crate) fn into_sorted(mut self) -> Option<Vec<u64>> {
        self.compact();
        self.set
    }

    /// Every hash gathered, in no order, repeats included (a sink
    /// without a bound never gives up).
    pub(crate) fn into_hashes(self) -> Vec<u64> {
        self.set.unwrap_or_default()
    }

    /// Sorts and deduplicates; gives up if more than `max` are left.
    fn compact(&mut self) {
        if let Some(set) = self.set.as_mut() {
            set.sort_unstable();
            set.dedup();
            if set.len() > self.max {
                self.set = None;
            } else {
                self.compact_at = (set.len() * 2).max(Self::least_compaction(self.max));
            }
        }
    }
}

impl FeatureSink for SetSink {
    fn feature(&mut self, _bytes: &[u8], hash: u64, weight: u32) {
        debug_assert!(weight > 0, "zero-weight features do not count");
        let Some(set) = self.set.as_mut() else {
            return;
        };
        set.push(hash);
        if set.len() >= self.compact_at {
            self.compact();
        }
    }
}

/// A sink that takes nothing.
pub(crate) struct NoSink;

impl FeatureSink for NoSink {
    const WANTS_HASH: bool = false;

    #[inline(always)]
    fn feature(&mut self, _: &[u8], _: u64, _: u32) {}
}

/// Two sinks fed the same features.
pub(crate) struct Both<'a, A, B>(pub(crate) &'a mut A, pub(crate) &'a mut B);

impl<A: FeatureSink, B: FeatureSink> FeatureSink for Both<'_, A, B> {
    const WANTS_HASH: bool = A::WANTS_HASH || B::WANTS_HASH;

    #[inline(always)]
    fn feature(&mut self, bytes: &[u8], hash: u64, weight: u32) {
        self.0.feature(bytes, hash, weight);
        self.1.feature(bytes, hash, weight);
    }
}

/// Distinct features by their bytes, with their total weight: the sum over
/// their occurrences (tf) or the largest (binary). The SDR hashes each
/// once; memory grows with the number of distinct features.
pub(crate) struct FeatureBytesSink {
    weighting: Weighting,
    pub(crate) weights: HashMap<Box<[u8]>, u64>,
}

impl FeatureBytesSink {
    /// An empty sink for `weighting`.
    pub(crate) fn new(weighting: Weighting) -> Self {
        FeatureBytesSink {
            weighting,
            weights: HashMap::new(),
        }
    }
}

impl FeatureSink for FeatureBytesSink {
    const WANTS_HASH: bool = false;

    fn feature(&mut self, bytes: &[u8], _: u64, weight: u32) {
        let weight = u64::from(weight);
        match self.weights.get_mut(bytes) {
            Some(slot) => match self.weighting {
                Weighting::Tf => *slot += weight,
                Weighting::Binary => *slot = (*slot).max(weight),
            },
            None => {
                self.weights.insert(bytes.into(), weight);
            }
        }
    }
}
