//! The `explain` job: why two documents were (or would be) paired. Their
//! SimHash distance, the exact Jaccard and the containment each way of
//! their feature sets, and the passages they share, as line ranges
//! ([`crate::verify::passages`]).
//!
//! Two short texts (one line of at most 256 characters each) are measured
//! by their character pairs, as the scan compares them (unless the
//! shingles were chosen).
//!
//! Both documents are read whole into memory: explaining is for one pair
//! a person looks at, and the line ranges need the text.

use std::io::Read;
use std::path::Path;

use crate::fingerprint::{Fingerprint, Fingerprinter, intersection, jaccard};
use crate::input::{View, WalkOptions};
use crate::jobs::scan::ShortTexts;
use crate::verify::passages::{self, Passages};
use crate::{Error, Result, jobs};

/// One document, read and measured.
#[derive(Clone, Debug, PartialEq)]
pub struct Explained {
    /// Its name: the path as given, or `-` for stdin.
    pub name: String,
    /// Its bytes.
    pub text: Vec<u8>,
    /// Its fingerprint.
    pub fingerprint: Fingerprint,
    /// Its sorted, distinct feature hashes.
    pub set: Vec<u64>,
}

/// Two documents, and why they are near (or not).
#[derive(Clone, Debug, PartialEq)]
pub struct Explanation {
    /// The first document.
    pub a: Explained,
    /// The second document.
    pub b: Explained,
    /// Hamming distance of the fingerprints (a document without features
    /// has the fingerprint 0, which says nothing about it).
    pub distance: u32,
    /// Distinct features the two sets have in common.
    pub common: u64,
    /// Exact Jaccard of the feature sets. This and the containments are
    /// `None` when either document has no features: there is nothing to
    /// compare, and the scan never pairs such a document.
    pub jaccard: Option<f64>,
    /// |A ∩ B| / |A|: how much of `a` is in `b`.
    pub a_in_b: Option<f64>,
    /// |A ∩ B| / |B|: how much of `b` is in `a`.
    pub b_in_a: Option<f64>,
    /// The shared and unique line ranges.
    pub passages: Passages,
    /// The feature options the two were measured by, described.
    pub options: String,
    /// Their digest ([`crate::fingerprint::FeatureOptions::digest`]).
    pub digest: String,
    /// Measured as two short texts, by their character pairs.
    pub short_texts: bool,
}

/// Explains `a` and `b` (`-`: stdin, for at most one of them); with
/// `short_texts`, two short texts by their character pairs.
pub fn run(
    a: &Path,
    b: &Path,
    fingerprinter: &Fingerprinter,
    walk: &WalkOptions,
    short_texts: bool,
) -> Result<Explanation> {
    jobs::at_most_one_stdin(a, b)?;
    let a = read(fingerprinter, a, walk)?;
    let b = read(fingerprinter, b, walk)?;
    if let Some(short) =
        ShortTexts::for_pair(fingerprinter.options(), short_texts, &a.text, &b.text)
    {
        let chars = short.fingerprinter();
        let a = measure(chars, a.name, a.text);
        let b = measure(chars, b.name, b.text);
        return Ok(Explanation {
            short_texts: true,
            ..explain(chars, a, b)
        });
    }
    Ok(explain(fingerprinter, a, b))
}

/// The passages two files share, read again: the region code scanning
/// shows for a pair. `None` when either cannot be read.
pub fn passages_of_files(
    fingerprinter: &Fingerprinter,
    a: &Path,
    b: &Path,
    walk: &WalkOptions,
) -> Option<Passages> {
    let view = &fingerprinter.options().view;
    let a = read_bytes(a, walk, view).ok()?.1;
    let b = read_bytes(b, walk, view).ok()?.1;
    Some(passages::find(fingerprinter, &a, &b))
}

/// Measures two documents already read.
pub fn explain(fingerprinter: &Fingerprinter, a: Explained, b: Explained) -> Explanation {
    let distance = (a.fingerprint.simhash ^ b.fingerprint.simhash).count_ones();
    let common = intersection(&a.set, &b.set) as u64;
    let measured = a.has_features() && b.has_features();
    let share = |of: &[u64]| measured.then(|| common as f64 / of.len() as f64);
    Explanation {
        distance,
        common,
        jaccard: measured.then(|| jaccard(&a.set, &b.set)),
        a_in_b: share(&a.set),
        b_in_a: share(&b.set),
        passages: passages::find(fingerprinter, &a.text, &b.text),
        a,
        b,
        options: fingerprinter.options().describe(),
        digest: fingerprinter.options().digest(),
        short_texts: false,
    }
}

impl Explained {
    /// Whether it has features: one without is empty to the scan, which
    /// never pairs it.
    pub fn has_features(&self) -> bool {
        self.fingerprint.features > 0
    }
}

impl Explanation {
    /// The names of the documents without features (none, one or both):
    /// when there is one, there is nothing to compare.
    pub fn without_features(&self) -> Vec<&str> {
        super::compare::without_features([
            (&self.a.name, self.a.has_features()),
            (&self.b.name, self.b.has_features()),
        ])
    }
}

/// A document measured from its bytes.
pub fn measure(fingerprinter: &Fingerprinter, name: String, text: Vec<u8>) -> Explained {
    Explained {
        fingerprint: fingerprinter.fingerprint_bytes(&text),
        set: fingerprinter.feature_set_bytes(&text),
        name,
        text,
    }
}

fn read(fingerprinter: &Fingerprinter, path: &Path, walk: &WalkOptions) -> Result<Explained> {
    let (name, text) = read_bytes(path, walk, &fingerprinter.options().view)?;
    Ok(measure(fingerprinter, name, text))
}

/// Reads a document whole, through the input layer's checks and `view`.
fn read_bytes(path: &Path, walk: &WalkOptions, view: &View) -> Result<(String, Vec<u8>)> {
    let mut named = jobs::open_named(path, walk, view, "not explained")?;
    let mut text = Vec::new();
    named
        .reader
        .read_to_end(&mut text)
        .map_err(|error| Error::io_named(&named.error_name, error))?;
    Ok((named.name, text))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fingerprint::FeatureOptions;

    #[test]
    fn containment_each_way_and_jaccard() {
        let fingerprinter = Fingerprinter::new(FeatureOptions::default());
        let small = "one two three four five\n".to_string();
        let large = format!("{small}six seven eight nine ten\n");
        let a = measure(&fingerprinter, "a".into(), small.into_bytes());
        let b = measure(&fingerprinter, "b".into(), large.into_bytes());
        let explained = explain(&fingerprinter, a, b);
        // a: 3 shingles, all in b; b: 8 shingles.
        assert_eq!(explained.common, 3);
        assert_eq!(explained.a_in_b, Some(1.0));
        assert_eq!(explained.b_in_a, Some(3.0 / 8.0));
        assert_eq!(explained.jaccard, Some(3.0 / 8.0));
        assert_eq!(explained.passages.unique_b.len(), 1);
    }

    #[test]
    fn a_document_without_features_is_compared_with_nothing() {
        let fingerprinter = Fingerprinter::new(FeatureOptions::default());
        let full = || {
            measure(
                &fingerprinter,
                "full".into(),
                b"one two three four".to_vec(),
            )
        };
        let empty = || measure(&fingerprinter, "empty".into(), Vec::new());
        let blank = || measure(&fingerprinter, "blank".into(), b" ... \n".to_vec());
        let both = explain(&fingerprinter, empty(), blank());
        assert_eq!((both.jaccard, both.a_in_b, both.b_in_a), (None, None, None));
        assert_eq!(both.without_features(), ["empty", "blank"]);
        let one = explain(&fingerprinter, full(), empty());
        assert_eq!((one.jaccard, one.a_in_b, one.b_in_a), (None, None, None));
        assert_eq!(one.without_features(), ["empty"]);
        assert!(
            explain(&fingerprinter, full(), full())
                .without_features()
                .is_empty()
        );
    }
}
