//! Gathering documents: walk or read the inputs, fingerprint them in
//! parallel, and fill the [`Documents`] table in input order.

use crate::diag::Diagnostics;
use crate::fingerprint::Fingerprinter;
use crate::input::{self, FileDocument, WalkEntry, WalkOptions};
use crate::progress::Progress;

use super::documents::{DocumentRef, Documents, Outcome};
use super::ordered::for_each_ordered;

/// Walks `paths` and fingerprints every file found.
pub fn collect_paths(
    paths: &[std::path::PathBuf],
    walk_options: &WalkOptions,
    fingerprinter: &Fingerprinter,
    documents: &mut Documents,
    diag: &mut Diagnostics,
    wants_progress: bool,
) {
    let mut files = Vec::new();
    for entry in input::walk(paths, walk_options) {
        match entry {
            WalkEntry::Document(file) => files.push(file),
            WalkEntry::Skipped { display, reason } => {
                documents.skipped(&display, reason.as_str(), diag)
            }
            WalkEntry::Error(error) => documents.failed(error, diag),
        }
    }
    let progress = Progress::new(wants_progress, Some(files.len() as u64));
    for_each_ordered(
        &files,
        |file| fingerprint_file(fingerprinter, file, walk_options),
        |_, file, outcome| {
            documents.record(outcome, || DocumentRef::File(file.clone()), diag);
            progress.document_done(diag.tally.bytes);
        },
    );
    progress.finish();
}

/// Opens, sniffs and fingerprints one file.
pub fn fingerprint_file(
    fingerprinter: &Fingerprinter,
    file: &FileDocument,
    walk_options: &WalkOptions,
) -> Outcome {
    match input::open_document(file, walk_options) {
        Err(error) => Outcome::Failed(error),
        Ok(Err(reason)) => Outcome::Skipped(reason.as_str()),
        Ok(Ok(reader)) => match fingerprinter.fingerprint_reader(reader) {
            Ok(fingerprint) => Outcome::Done(fingerprint),
            Err(source) => Outcome::Failed(crate::Error::Io {
                path: file.path.clone(),
                source,
            }),
        },
    }
}
