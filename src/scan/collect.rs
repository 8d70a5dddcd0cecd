//! Gathering documents: walk or read the inputs, fingerprint them in
//! parallel, and fill the [`Documents`] table in input order.

use std::io::BufRead;
use std::ops::ControlFlow;

use crate::diag::Diagnostics;
use crate::fingerprint::{Fingerprint, Fingerprinter};
use crate::input::{
    self, FileDocument, FingerprintSet, Record, RecordEntry, RecordOptions, RecordReader,
    WalkEntry, WalkOptions,
};
use crate::progress::Progress;

use super::documents::{DocumentRef, Documents, Outcome, Spool};
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
    let walking = Progress::spinner(wants_progress, "walking");
    // The walk streams, so the spinner moves while it runs.
    let walk = match input::Walk::new(paths, walk_options) {
        Ok(walk) => walk,
        Err(error) => {
            documents.failed(error, diag);
            return;
        }
    };
    for entry in walk {
        match entry {
            WalkEntry::Document(file) => {
                files.push(file);
                if files.len() % 4096 == 0 {
                    walking.stage(&format!("walking: {} files", files.len()));
                }
            }
            WalkEntry::Skipped { display, reason } => {
                documents.skipped(&display, reason.as_str(), diag)
            }
            WalkEntry::Error(error) => documents.failed(error, diag),
        }
    }
    walking.finish();
    let progress = Progress::new(wants_progress, Some(files.len() as u64));
    for_each_ordered(
        &files,
        |file| fingerprint_file(fingerprinter, file, walk_options),
        |_, file, outcome| {
            documents.record(outcome, || DocumentRef::File(file.clone()), diag);
            progress.document_done(diag.tally.bytes);
            ControlFlow::Continue(())
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

/// Records fingerprinted per parallel batch, and the bytes a batch may
/// hold: enough to keep both cores busy, small enough to bound memory.
const BATCH_RECORDS: usize = 4096;
const BATCH_BYTES: usize = 16 << 20;

/// One entry of a batch of records, kept in stream order.
enum BatchItem {
    Record(Record),
    Skipped(String, &'static str),
    Failed(crate::Error),
}

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
    let mut records = RecordReader::new(reader, "stdin", record_options);
    let mut finished = false;
    while !finished {
        let mut batch = Vec::new();
        let mut batch_bytes = 0;
        while batch.len() < BATCH_RECORDS && batch_bytes < BATCH_BYTES {
            let item = match records.next() {
                None => {
                    finished = true;
                    break;
                }
                Some(Ok(RecordEntry::Record(record))) => {
                    batch_bytes += record.text.len();
                    BatchItem::Record(record)
                }
                Some(Ok(RecordEntry::Skipped { id, reason, .. })) => {
                    BatchItem::Skipped(format!("stdin: record {id}"), reason.as_str())
                }
                Some(Err(error)) => BatchItem::Failed(error),
            };
            batch.push(item);
        }
        for_each_ordered(
            &batch,
            |item| match item {
                BatchItem::Record(record) => Some(fingerprinter.fingerprint_bytes(&record.text)),
                _ => None,
            },
            |_, item, fingerprint| {
                match (item, fingerprint) {
                    (BatchItem::Record(record), Some(fingerprint)) => {
                        let document = spooled(documents, record, diag);
                        documents.fingerprinted(document, fingerprint, diag);
                    }
                    (BatchItem::Skipped(name, reason), _) => documents.skipped(name, reason, diag),
                    (BatchItem::Failed(error), _) => documents.failed(error, diag),
                    (BatchItem::Record(_), None) => unreachable!("records are fingerprinted"),
                }
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
            // Saved fingerprint files carry no feature digest.
            feature_digest: 0,
        };
        documents.fingerprinted(DocumentRef::Named(record.name), fingerprint, diag);
    }
}
