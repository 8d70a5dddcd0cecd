//! The region of each listed pair for code scanning: the first passage
//! the two documents share ([`crate::verify::passages`]), found by reading
//! both files again. Only the listed pairs are read, each file once per
//! pair it is in, one pair per worker at a time.

use std::io::Read;

use rayon::prelude::*;

use crate::fingerprint::{FeatureOptions, Fingerprinter};
use crate::input::path_from_bytes;
use crate::report::Report;
pub use crate::report::sarif::Regions;
use crate::verify::passages;

/// The regions of the report's listed pairs; a pair whose files cannot be
/// read again, or that shares no passage line by line, has none (its
/// result then points at line 1).
pub fn regions(report: &Report, features: &FeatureOptions) -> Regions {
    let fingerprinter = Fingerprinter::new(features.clone());
    let read = |id: u32| -> Option<Vec<u8>> {
        let name = report.names.get(id as usize).ok()?;
        let path = path_from_bytes(&name);
        if !std::fs::metadata(&path).ok()?.is_file() {
            return None;
        }
        // The text the pair was found in, whose lines are the file's.
        let mut text = Vec::new();
        features
            .view
            .reopen(&path)
            .ok()?
            .read_to_end(&mut text)
            .ok()?;
        Some(text)
    };
    report
        .pairs
        .par_iter()
        .filter_map(|pair| {
            let (a, b) = (read(pair.a)?, read(pair.b)?);
            let region = passages::find(&fingerprinter, &a, &b).first_region()?;
            Some(((pair.a, pair.b), region))
        })
        .collect()
}
