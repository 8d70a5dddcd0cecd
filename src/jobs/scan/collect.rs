//! Gathering documents: walk or read the inputs, fingerprint them in
//! parallel, and fill the [`Documents`] table in input order.

use std::io::BufRead;
use std::ops::ControlFlow;
use std::path::PathBuf;

use crate::diag::Diagnostics;
use crate::fingerprint::{Fingerprint, Fingerprinter};
use crate::input::{
    FingerprintSet, Outcome, Record, RecordOptions, RecordReader, Walk, WalkOptions,
};
use crate::parallel::for_each_ordered;
use crate::progress::Progress;

use super::super::fingerprint_file;
use super::documents::{DocumentRef, Documents, Spool};

/// Walks `paths` and fingerprints every file found. Fingerprinting starts
/// with the first file: the walk streams to the workers.
pub fn collect_paths(
    paths: &[PathBuf],
    walk_options: &WalkOptions,
    fingerprinter: &Fingerprinter,
    documents: &mut Documents,
    diag: &mut Diagnostics,
    wants_progress: bool,
) {
    let progress = Progress::new(wants_progress, None);
    let walk = progress.counting(Walk::new(paths, walk_options));
    for_each_ordered(
        walk,
        |found| {
            found.and_then(|file| {
                fingerprint_file(fingerprinter, &file, walk_options)
                    .map(|fingerprint| (DocumentRef::File(file), fingerprint))
            })
        },
        |_, outcome| {
            documents.record(outcome, diag);
            progress.document_done(diag.tally.bytes);
            ControlFlow::Continue(())
        },
    );
    progress.finish();
}

/// Records fingerprinted per parallel batch, and the bytes a batch may
/// hold: enough to keep both cores busy, small enough to bound memory.
const BATCH_RECORDS: usize = 4096;
const BATCH_BYTES: usize = 16 << 20;

/// Reads records from a stream and fingerprints them in parallel batches.
/// With `keep_texts`, record texts are spooled so `--verify` can read them again.
pub fn collect_records<R: BufRead>(
    reader: R,
    record_options: &RecordOptions,
    fingerprinter: &Fingerprinter,
    documents: &mut Documents,
    diag: &mut Diagnostics,
    keep_texts: bool,
    wants_progress: bool,
) {
    if keep_texts {
        match Spool::new() {
            Ok(spool) => documents.spool = Some(spool),
            Err(error) => diag.error(format_args!(
                "cannot create a temporary file to keep records for --verify: {error}"
            )),
        }
    }
    let progress = Progress::new(wants_progress, None);
    let mut records = RecordReader::new(reader, crate::error::STDIN, record_options);
    let mut finished = false;
    while !finished {
        let mut batch: Vec<Outcome<Record>> = Vec::new();
        let mut batch_bytes = 0;
        while batch.len() < BATCH_RECORDS && batch_bytes < BATCH_BYTES {
            let Some(outcome) = records.next() else {
                finished = true;
                break;
            };
            if let Outcome::Done(record) = &outcome {
                batch_bytes += record.text.len();
            }
            batch.push(outcome);
        }
        for_each_ordered(
            batch.into_iter(),
            |outcome| {
                outcome.map(|record| {
                    let fingerprint = fingerprinter.fingerprint_bytes(&record.text);
                    (record, fingerprint)
                })
            },
            |_, outcome| {
                let outcome = outcome
                    .map(|(record, fingerprint)| (spooled(documents, &record, diag), fingerprint));
                documents.record(outcome, diag);
                progress.document_done(diag.tally.bytes);
                ControlFlow::Continue(())
            },
        );
    }
    progress.finish();
}

/// The record as a document, its text appended to the spool when there is one.
fn spooled(documents: &mut Documents, record: &Record, diag: &mut Diagnostics) -> DocumentRef {
    let mut offset = 0;
    if let Some(spool) = documents.spool.as_mut() {
        match spool.append(&record.text) {
            Ok(at) => offset = at,
            Err(error) => {
                diag.error(format_args!("cannot keep records for --verify: {error}"));
                documents.spool = None;
            }
        }
    }
    DocumentRef::Record {
        id: record.id.clone(),
        offset,
        len: record.text.len() as u64,
    }
}

/// Adds fingerprints read back from `simdup fingerprint` output.
pub fn collect_saved(saved: FingerprintSet, documents: &mut Documents, diag: &mut Diagnostics) {
    for record in saved.records {
        // A line without a feature count, or without the content hash that
        // exact matching of short documents needs, is searched by SimHash.
        let features = match (record.simhash, record.features, record.content_hash) {
            (None, _, _) => 0,
            (Some(_), Some(features), Some(_)) => features,
            (Some(_), _, _) => u64::MAX,
        };
        let fingerprint = Fingerprint {
            simhash: record.simhash.unwrap_or(0),
            features,
            bytes: record.bytes.unwrap_or(0),
            content_hash: record.content_hash.unwrap_or(0),
        };
        documents.fingerprinted(DocumentRef::Named(record.name), fingerprint, diag);
    }
}
