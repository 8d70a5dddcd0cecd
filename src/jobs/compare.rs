//! The `compare` job: two documents measured against each other, by
//! SimHash distance and by the exact Jaccard of their feature sets.
//!
//! Each document is opened through the input layer (binary sniff, size
//! limit, FIFOs that never wait for a writer) and copied once into an
//! anonymous temporary file, so a pipe or stdin can be read for both
//! measures and memory stays bounded whatever the size.

use std::io::{self, Seek};
use std::path::Path;

use crate::fingerprint::{Fingerprint, Fingerprinter, jaccard};
use crate::input::WalkOptions;
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
    /// Hamming distance of the fingerprints.
    pub distance: u32,
    /// Exact Jaccard of the feature sets.
    pub jaccard: f64,
}

/// Measures `a` and `b` (`-`: stdin, for at most one of them).
pub fn run(
    a: &Path,
    b: &Path,
    fingerprinter: &Fingerprinter,
    walk: &WalkOptions,
) -> Result<Comparison> {
    jobs::at_most_one_stdin(a, b)?;
    let a = measure(fingerprinter, a, walk)?;
    let b = measure(fingerprinter, b, walk)?;
    let distance = (a.fingerprint.simhash ^ b.fingerprint.simhash).count_ones();
    let jaccard = jaccard(&a.set, &b.set);
    Ok(Comparison {
        a,
        b,
        distance,
        jaccard,
    })
}

/// Reads a document once into a temporary file, then measures it twice.
fn measure(fingerprinter: &Fingerprinter, path: &Path, walk: &WalkOptions) -> Result<Measured> {
    let jobs::Named {
        name,
        error_name,
        reader,
    } = jobs::open_named(path, walk, &fingerprinter.options().view, "not compared")?;
    let io_error = |source| Error::io_named(&error_name, source);
    let mut spool = tempfile::tempfile().map_err(|e| Error::io_named("a temporary file", e))?;
    let mut reader = reader;
    io::copy(&mut reader, &mut spool).map_err(io_error)?;
    spool.rewind().map_err(io_error)?;
    let fingerprint = fingerprinter
        .fingerprint_reader(&mut spool)
        .map_err(io_error)?;
    spool.rewind().map_err(io_error)?;
    let set = fingerprinter
        .feature_set_reader(&mut spool)
        .map_err(io_error)?;
    Ok(Measured {
        name,
        fingerprint,
        set,
    })
}
