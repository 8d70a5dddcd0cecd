//! The fingerprint stage: bytes in, a 64-bit SimHash out.
//!
//! INTERFACE STUB: the fingerprint engine replaces the bodies; the types and
//! signatures below are the contract the rest of the crate codes against.

use std::io::Read;

/// How a document is cut into features.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shingle {
    /// N consecutive word tokens.
    Words(usize),
    /// N consecutive characters.
    Chars(usize),
}

/// Which 64-bit hash turns a feature into bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FeatureHash {
    /// xxh3-64, seed 0.
    Xxh3,
    /// SHAKE256, first 8 bytes little-endian.
    Sha3,
}

/// How much each feature counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Weighting {
    /// Term frequency in the document.
    Tf,
    /// Every distinct feature counts once.
    Binary,
}

/// Every option that changes a fingerprint.
#[derive(Clone, Debug)]
pub struct FeatureOptions {
    /// The shingle mode.
    pub shingle: Shingle,
    /// The feature hash.
    pub hash: FeatureHash,
    /// The weighting.
    pub weighting: Weighting,
}

impl Default for FeatureOptions {
    fn default() -> Self {
        FeatureOptions {
            shingle: Shingle::Words(3),
            hash: FeatureHash::Xxh3,
            weighting: Weighting::Tf,
        }
    }
}

impl FeatureOptions {
    /// A short, stable description, e.g. `words:3,xxh3,tf,nfkc,lower`.
    pub fn describe(&self) -> String {
        todo!()
    }
    /// A short hex digest of every option that changes a fingerprint.
    pub fn digest(&self) -> String {
        todo!()
    }
}

/// What fingerprinting one document produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fingerprint {
    /// The SimHash (0 when `features` is 0).
    pub simhash: u64,
    /// Number of features (shingle occurrences).
    pub features: u64,
    /// Bytes read.
    pub bytes: u64,
    /// xxh3-64 of the raw bytes, for exact-content matching of short documents.
    pub content_hash: u64,
}

/// Computes fingerprints and feature sets with fixed options.
#[derive(Clone, Debug)]
pub struct Fingerprinter {
    options: FeatureOptions,
}

impl Fingerprinter {
    /// A fingerprinter for these options.
    pub fn new(options: FeatureOptions) -> Self {
        Fingerprinter { options }
    }
    /// The options it was made with.
    pub fn options(&self) -> &FeatureOptions {
        &self.options
    }
    /// Fingerprints a whole buffer.
    pub fn fingerprint_bytes(&self, _bytes: &[u8]) -> Fingerprint {
        todo!()
    }
    /// Fingerprints a stream, reading it in chunks.
    pub fn fingerprint_reader<R: Read>(&self, _reader: R) -> std::io::Result<Fingerprint> {
        todo!()
    }
    /// The sorted, distinct feature hashes of a stream, for exact Jaccard.
    pub fn feature_set_reader<R: Read>(&self, _reader: R) -> std::io::Result<Vec<u64>> {
        todo!()
    }
}

/// Jaccard similarity of two sorted, distinct sets (1.0 when both are empty).
pub fn jaccard(_a: &[u64], _b: &[u64]) -> f64 {
    todo!()
}
#[allow(missing_docs)]
impl std::str::FromStr for Shingle {
    type Err = String;
    fn from_str(_s: &str) -> Result<Self, String> {
        todo!()
    }
}
#[allow(missing_docs)]
impl Fingerprinter {
    pub fn sdr_reader<R: Read>(&self, _r: R, _s: usize, _a: usize) -> std::io::Result<Vec<usize>> {
        todo!()
    }
}
