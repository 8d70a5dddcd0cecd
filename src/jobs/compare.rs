//! The `compare` job: two documents measured against each other, by
//! SimHash distance and by the exact Jaccard of their feature sets.
//!
//! Each document is opened through the input layer (binary sniff, size
//! limit, FIFOs that never wait for a writer) and copied once into an
//! anonymous temporary file, so a pipe or stdin can be read for both
//! measures and memory stays bounded whatever the size.
//!
//! Two short texts (one line of at most 256 characters each) are measured
//! by their character pairs, as the scan and `explain` compare them
//! (unless the shingles were chosen).

use std::fs::File;
use std::io::{self, Seek};
use std::path::Path;

use crate::fingerprint::{Fingerprint, Fingerprinter, jaccard};
use crate::input::{View, WalkOptions};
use crate::jobs::scan::{Prefix, ShortTexts};
use crate::{Error, Result, jobs};

/// One document, measured.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    /// Its name: the path as given, or `-` for stdin.
    pub name: String,
    /// Its fingerprint.
    pub fingerprint: Fingerprint,
    /// Its sorted, distinct feature hashes.
    pub set: Vec<u64>,
}

/// Two documents and how near they are.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// The first document.
    pub a: Measured,
    /// The second document.
    pub b: Measured,
    /// Hamming distance of the fingerprints (a document without features
    /// has the fingerprint 0, which says nothing about it).
    pub distance: u32,
    /// Exact Jaccard of the feature sets; `None` when either document has
    /// no features: there is nothing to compare, and the scan never pairs
    /// such a document.
    pub jaccard: Option<f64>,
    /// The feature options the two were measured by, described.
    pub options: String,
    /// Their digest ([`crate::fingerprint::FeatureOptions::digest`]).
    pub digest: String,
    /// Measured as two short texts, by their character pairs.
    pub short_texts: bool,
}

/// Measures `a` and `b` (`-`: stdin, for at most one of them); with
/// `short_texts`, two short texts by their character pairs, as the scan
/// compares them.
pub fn run(
    a: &Path,
    b: &Path,
    fingerprinter: &Fingerprinter,
    walk: &WalkOptions,
    short_texts: bool,
) -> Result<Comparison> {
    jobs::at_most_one_stdin(a, b)?;
    let view = &fingerprinter.options().view;
    let a = Spooled::read(a, walk, view)?;
    let b = Spooled::read(b, walk, view)?;
    let short = match (&a.whole, &b.whole) {
        (Some(a), Some(b)) => ShortTexts::for_pair(fingerprinter.options(), short_texts, a, b),
        _ => None,
    };
    let by = short
        .as_ref()
        .map_or(fingerprinter, ShortTexts::fingerprinter);
    let a = a.measure(by)?;
    let b = b.measure(by)?;
    let distance = (a.fingerprint.simhash ^ b.fingerprint.simhash).count_ones();
    let jaccard = (a.has_features() && b.has_features()).then(|| jaccard(&a.set, &b.set));
    Ok(Comparison {
        a,
        b,
        distance,
        jaccard,
        options: by.options().describe(),
        digest: by.options().digest(),
        short_texts: short.is_some(),
    })
}

impl Measured {
    /// Whether it has features: one without is empty to the scan, which
    /// never pairs it.
    pub fn has_features(&self) -> bool {
        self.fingerprint.features > 0
    }
}

impl Comparison {
    /// The names of the documents without features (none, one or both):
    /// when there is one, there is nothing to compare.
    pub fn without_features(&self) -> Vec<&str> {
        without_features([
            (&self.a.name, self.a.has_features()),
            (&self.b.name, self.b.has_features()),
        ])
    }
}

/// The names of the documents, among two named with whether they have
/// features, that have none.
pub(crate) fn without_features(documents: [(&str, bool); 2]) -> Vec<&str> {
    documents
        .into_iter()
        .filter(|&(_, has_features)| !has_features)
        .map(|(name, _)| name)
        .collect()
}

/// A document copied once into a temporary file, to be measured twice.
struct Spooled {
    name: String,
    error_name: String,
    spool: File,
    /// Its text, when small enough to be a short text.
    whole: Option<Vec<u8>>,
}

impl Spooled {
    /// Copies a document, through the input layer's checks and `view`.
    fn read(path: &Path, walk: &WalkOptions, view: &View) -> Result<Spooled> {
        let jobs::Named {
            name,
            error_name,
            reader,
        } = jobs::open_named(path, walk, view, "not compared")?;
        let io_error = |source| Error::io_named(&error_name, source);
        let mut spool = tempfile::tempfile().map_err(|e| Error::io_named("a temporary file", e))?;
        let mut reader = Prefix::new(reader);
        io::copy(&mut reader, &mut spool).map_err(io_error)?;
        let whole = reader.whole().map(<[u8]>::to_vec);
        Ok(Spooled {
            name,
            error_name,
            spool,
            whole,
        })
    }

    /// Its fingerprint and feature set by `fingerprinter`.
    fn measure(mut self, fingerprinter: &Fingerprinter) -> Result<Measured> {
        let io_error = |source| Error::io_named(&self.error_name, source);
        self.spool.rewind().map_err(io_error)?;
        let fingerprint = fingerprinter
            .fingerprint_reader(&mut self.spool)
            .map_err(io_error)?;
        self.spool.rewind().map_err(io_error)?;
        let set = fingerprinter
            .feature_set_reader(&mut self.spool)
            .map_err(io_error)?;
        Ok(Measured {
            name: self.name,
            fingerprint,
            set,
        })
    }
}
