//! The fingerprint stage: bytes in, a 64-bit SimHash out.
//!
//! A document is decoded (UTF-8, invalid bytes replaced), normalised (NFKC,
//! lower-case), cut into tokens and shingles, each shingle hashed to 64 bits
//! and weighted, and bit i of the fingerprint is 1 when the weighted sum of
//! +w (hash bit set) and -w (not set) is positive. docs/FINGERPRINT.md
//! specifies every step. Files: `options` (the choices), `decode` (UTF-8),
//! `normalize` (NFKC and lower-casing), `tokenize` (words, characters and
//! their ASCII fast path), `shingle`, `weights` (vocabulary rules), `hash`,
//! `simhash` (accumulator), `sdr` (htm.core's sparse output) and `stream`
//! (the chunked pipeline and its sinks). Reading files and walking
//! directories belong to the input stage.

mod decode;
mod distinct;
mod hash;
mod lines;
mod normalize;
mod options;
mod sdr;
mod shingle;
mod simhash;
mod stream;
mod tokenize;
mod weights;

use std::io::{self, Read};

pub use hash::feature_hash;
pub use lines::split_lines;
pub use options::{
    Case, FeatureHash, FeatureOptions, MAX_SHINGLE, Punctuation, Shingle, UnicodeForm, Weighting,
};
pub use sdr::{MAX_SDR_SIZE, SdrShape};
pub use simhash::Accumulator;
use simhash::Outcome;
pub use weights::{MAX_WEIGHT, TokenSet, Vocabulary};

pub(crate) use stream::Identity;
pub(crate) use tokenize::mask_of_flags;

use distinct::DistinctFeatures;
use sdr::{SdrSums, select_top};
use shingle::FeatureSink;
use stream::{Both, DistinctSink, FeatureBytesSink, NoSink, Pipeline, SetSink, TfSink};
use tokenize::Tokenizer;
use weights::TokenRules;

/// What fingerprinting one document produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fingerprint {
    /// The SimHash (0 when `features` is 0).
    pub simhash: u64,
    /// Number of features summed: occurrences with tf weighting, distinct
    /// features with binary weighting (zero-weight features not counted).
    pub features: u64,
    /// Bytes read.
    pub bytes: u64,
    /// xxh3-64 of the raw bytes, for exact-content matching of short documents.
    pub content_hash: u64,
    /// Order-independent digest of the summed features, for collapsing
    /// documents whose features are the same: the wrapping sum, over each
    /// feature counted in `features`, of a strong mix of its hash (0 when
    /// `features` is 0; docs/FINGERPRINT.md has the definition).
    pub feature_digest: u64,
}

/// Computes fingerprints and feature sets with fixed options.
///
/// Cheap to share: rayon workers use one through `&Fingerprinter`.
#[derive(Clone, Debug)]
pub struct Fingerprinter {
    options: FeatureOptions,
    rules: TokenRules,
    /// A new document's tokenizer, its tables made once (a copy costs
    /// less than making them: 4% of fingerprinting a short line).
    tokenizer: Tokenizer,
}

impl Fingerprinter {
    /// A fingerprinter for these options. Call [`FeatureOptions::validate`]
    /// first to report bad combinations; unvalidated options never panic
    /// (a shingle size of 0 acts as 1).
    pub fn new(options: FeatureOptions) -> Self {
        let rules = TokenRules::new(&options);
        let tokenizer = Tokenizer::new(&options);
        Fingerprinter {
            options,
            rules,
            tokenizer,
        }
    }

    /// The options it was made with.
    pub fn options(&self) -> &FeatureOptions {
        &self.options
    }

    /// The prepared token rules.
    pub(crate) fn rules(&self) -> &TokenRules {
        &self.rules
    }

    /// The tokenizer a new document starts with.
    pub(crate) fn tokenizer(&self) -> &Tokenizer {
        &self.tokenizer
    }

    /// Fingerprints a whole buffer.
    pub fn fingerprint_bytes(&self, bytes: &[u8]) -> Fingerprint {
        self.fingerprint_from(Buffer(bytes, None))
            .unwrap_or_else(|_| unreachable!("a buffer cannot fail to read"))
    }

    /// Fingerprints a whole buffer whose content hash (xxh3-64 of
    /// `bytes`) the caller has taken already, to find copies: hashing a
    /// JSON Lines document twice cost 2% of its scan.
    pub fn fingerprint_bytes_hashed(&self, bytes: &[u8], content_hash: u64) -> Fingerprint {
        debug_assert_eq!(content_hash, xxhash_rust::xxh3::xxh3_64(bytes));
        self.fingerprint_from(Buffer(bytes, Some(content_hash)))
            .unwrap_or_else(|_| unreachable!("a buffer cannot fail to read"))
    }

    /// Fingerprints a stream, reading it in chunks (constant memory with
    /// tf weighting; binary weighting keeps one entry per distinct feature).
    pub fn fingerprint_reader<R: Read>(&self, reader: R) -> io::Result<Fingerprint> {
        self.fingerprint_from(Stream(reader))
    }

    /// Fingerprints a stream and, in the same pass, gives its feature set
    /// ([`Fingerprinter::feature_set_reader`]) if it has at most
    /// `max_features` distinct features (`None` past that: memory stays
    /// within about twice that many hashes).
    pub fn fingerprint_and_set_reader<R: Read>(
        &self,
        reader: R,
        max_features: usize,
    ) -> io::Result<(Fingerprint, Option<Vec<u64>>)> {
        let mut set = SetSink::bounded(max_features);
        let fingerprint = self.fingerprint_with(Stream(reader), &mut set)?;
        Ok((fingerprint, set.into_sorted()))
    }

    /// Fingerprints a whole buffer and, in the same pass, gives the hashes
    /// of its feature set ([`Fingerprinter::feature_set_reader`]) in no
    /// order, repeats included: for short texts, where sorting them out
    /// costs about what fingerprinting does, and a caller may not need to.
    pub fn fingerprint_and_hashes_bytes(&self, bytes: &[u8]) -> (Fingerprint, Vec<u64>) {
        // At most one feature a byte, and one more (a text's only token).
        let mut set = SetSink::with_capacity(bytes.len() + 1);
        let fingerprint = self
            .fingerprint_with(Buffer(bytes, None), &mut set)
            .unwrap_or_else(|_| unreachable!("a buffer cannot fail to read"));
        (fingerprint, set.into_hashes())
    }

    /// Runs a source through [`DistinctSink`] (binary weighting), every
    /// feature handed to `also` too: its bytes, content hash, and what its
    /// distinct features come to. `UNIT`: every feature weighs 1.
    fn distinct_features<const UNIT: bool>(
        &self,
        source: impl Source,
        also: &mut impl FeatureSink,
        expected: usize,
    ) -> io::Result<(u64, u64, Outcome)> {
        DistinctFeatures::with(expected, |features| {
            let mut sink = DistinctSink::<UNIT>::new(features);
            let (bytes, content) = source.drive(self, &mut Both(&mut sink, also))?;
            Ok((bytes, content, sink.finish()))
        })
    }

    /// About how many distinct features a document of `bytes` has, at
    /// most (a stream of unknown length: a few pages' worth).
    fn expected_features(&self, bytes: Option<usize>) -> usize {
        match (bytes, self.options.shingle) {
            (None, _) => 1 << 10,
            // A word and the space after it take a few bytes.
            (Some(bytes), Shingle::Words(_)) => bytes / 4 + 1,
            (Some(bytes), Shingle::Chars(_)) => bytes + 1,
        }
    }

    /// Fingerprints a source with the sink its weighting needs.
    fn fingerprint_from(&self, source: impl Source) -> io::Result<Fingerprint> {
        self.fingerprint_with(source, &mut NoSink)
    }

    /// [`Fingerprinter::fingerprint_from`], every feature handed to `also`
    /// too.
    fn fingerprint_with(
        &self,
        source: impl Source,
        also: &mut impl FeatureSink,
    ) -> io::Result<Fingerprint> {
        let expected = self.expected_features(source.len());
        let (bytes, content_hash, outcome) = match self.options.weighting {
            Weighting::Tf => {
                let mut sink = TfSink {
                    accumulator: Accumulator::new(),
                    features: 0,
                };
                let (bytes, content) = source.drive(self, &mut Both(&mut sink, also))?;
                (bytes, content, sink.accumulator.outcome(sink.features))
            }
            // Without token rules every feature weighs 1.
            Weighting::Binary if self.rules.is_trivial() => {
                self.distinct_features::<true>(source, also, expected)?
            }
            Weighting::Binary => self.distinct_features::<false>(source, also, expected)?,
        };
        Ok(Fingerprint {
            simhash: outcome.simhash,
            features: outcome.features,
            bytes,
            content_hash,
            feature_digest: outcome.digest,
        })
    }

    /// The sorted, distinct feature hashes of a stream, for exact Jaccard:
    /// exactly the features that count in the fingerprint (after excludes,
    /// the vocabulary, the frequency floor and ceiling, and without
    /// zero-weight features), each once, whatever its weight. Its length is
    /// the `features` of a binary-weighted fingerprint.
    pub fn feature_set_reader<R: Read>(&self, reader: R) -> io::Result<Vec<u64>> {
        let mut sink = SetSink::new();
        Pipeline::new(self).run(reader, &mut sink)?;
        Ok(sink.into_sorted().unwrap_or_default())
    }

    /// The sorted, distinct feature hashes of a buffer.
    pub fn feature_set_bytes(&self, bytes: &[u8]) -> Vec<u64> {
        self.feature_set_reader(bytes).unwrap_or_default()
    }

    /// htm.core's sparse output: the ascending indices of the `active`
    /// largest of `size` sums, each feature hashed to `size` bits with
    /// SHAKE256 (see docs/FINGERPRINT.md). Same features and weights as the
    /// SimHash; each distinct feature is hashed once, with its total weight,
    /// so memory grows with the number of distinct features. A document
    /// without features has no encoding: the result is empty. A bad shape
    /// is an `InvalidInput` error.
    pub fn sdr_reader<R: Read>(
        &self,
        reader: R,
        size: usize,
        active: usize,
    ) -> io::Result<Vec<usize>> {
        let shape = SdrShape { size, active };
        shape
            .validate()
            .map_err(|error| io::Error::new(io::ErrorKind::InvalidInput, error.to_string()))?;
        let mut sink = FeatureBytesSink::new(self.options.weighting);
        Pipeline::new(self).run(reader, &mut sink)?;
        let mut sums = SdrSums::new(size);
        for (bytes, &weight) in &sink.weights {
            sums.add_feature(bytes, weight);
        }
        if sums.features() == 0 {
            return Ok(Vec::new());
        }
        Ok(select_top(sums.sums(), active))
    }
}

/// Where a document's bytes come from: a buffer (fed whole, no copy) or
/// a reader (fed in chunks).
trait Source {
    /// Runs the document through a pipeline of `fingerprinter` into `sink`.
    fn drive(
        self,
        fingerprinter: &Fingerprinter,
        sink: &mut impl FeatureSink,
    ) -> io::Result<(u64, u64)>;

    /// Its length in bytes, if known before it is read.
    fn len(&self) -> Option<usize>;
}

/// A whole document in memory, and its content hash if known.
struct Buffer<'b>(&'b [u8], Option<u64>);

/// A document read in chunks.
struct Stream<R>(R);

impl Source for Buffer<'_> {
    fn drive(
        self,
        fingerprinter: &Fingerprinter,
        sink: &mut impl FeatureSink,
    ) -> io::Result<(u64, u64)> {
        // Buffers sized for the text: a short record's pipeline would
        // otherwise allocate (and free) 40 KB.
        Ok(Pipeline::with_room(fingerprinter, self.0.len()).run_whole(self.0, self.1, sink))
    }

    fn len(&self) -> Option<usize> {
        Some(self.0.len())
    }
}

impl<R: Read> Source for Stream<R> {
    fn drive(
        self,
        fingerprinter: &Fingerprinter,
        sink: &mut impl FeatureSink,
    ) -> io::Result<(u64, u64)> {
        Pipeline::new(fingerprinter).run(self.0, sink)
    }

    fn len(&self) -> Option<usize> {
        None
    }
}

/// Jaccard similarity of two sorted, distinct sets (1.0 when both are empty).
pub fn jaccard(a: &[u64], b: &[u64]) -> f64 {
    if a.is_empty() && b.is_empty() {
        return 1.0;
    }
    let common = intersection(a, b);
    common as f64 / (a.len() + b.len() - common) as f64
}

/// How many elements two sorted, distinct sets of feature hashes share.
pub fn intersection(a: &[u64], b: &[u64]) -> usize {
    let (mut i, mut j, mut common) = (0, 0, 0usize);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                common += 1;
                i += 1;
                j += 1;
            }
        }
    }
    common
}

#[cfg(test)]
mod tests;
