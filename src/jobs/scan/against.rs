//! `scan --against`: new documents searched against a stored corpus.
//!
//! The stored rows enter the document table first, as saved fingerprints
//! (their names are paths, read again only when a pair needs verifying;
//! stored records go with their text to the run's spool on disk, as new
//! records do), then the new documents are collected as in any scan. The search runs
//! over both; pairs of two stored classes are dropped before verification
//! (nothing of them is read), and the listing keeps only pairs and groups
//! with a new document. A stored row with the name of a new document is
//! taken out of the run before the search: the new document replaces it. A stored document that cannot be read any more
//! leaves its pairs unverified, counted and reported as an error, like any
//! unreadable document of a scan.

use std::collections::HashSet;
use std::path::Path;

use crate::diag::Diagnostics;
use crate::index::Store;
use crate::search::DocId;

use super::documents::{DocumentName, Documents, Origin};
use super::listing::Listing;
use super::short::ShortMeasure;
use super::{Mode, ScanOptions};

/// Loads the stored fingerprints of `index` into `documents`, after
/// checking they were made with the scan's feature options and hold the
/// kind of document searched (`records`, or files). They are not counted
/// as inputs of this run.
pub fn collect_stored(
    index: &Path,
    records: bool,
    options: &ScanOptions,
    documents: &mut Documents,
    diag: &mut Diagnostics,
) -> crate::Result<()> {
    let store = Store::open_to_read(index)?;
    store.check_options(&options.features)?;
    let (holds_records, holds_files) = store.kinds()?;
    let mismatch = match records {
        true if holds_files => Some("files; search files against it, not records"),
        false if holds_records => Some("records; search records against it (`-`), not files"),
        _ => None,
    };
    if let Some(mismatch) = mismatch {
        return Err(crate::Error::Data {
            name: index.display().to_string(),
            message: format!("holds {mismatch}"),
        });
    }
    let verifying = matches!(options.mode, Mode::Verified { .. });
    if records && verifying {
        documents.keep_texts().map_err(|error| crate::Error::Data {
            name: index.display().to_string(),
            message: format!("cannot create a temporary file to keep records: {error}"),
        })?;
    }
    let tally = diag.tally.clone();
    let short_texts = options.short_texts && verifying;
    // Stored records' texts are read for verification, and for the report.
    let texts = records && (verifying || options.record_texts.is_some());
    store.for_each_entry(texts, |entry| {
        // A stored corpus keeps no sketches: its pairs are all read.
        let short_text = entry
            .short_text
            .filter(|_| short_texts)
            .map(ShortMeasure::unsketched);
        let origin = match entry.text {
            Some(text) => Origin::Record(text, None),
            None if records => Origin::Record(Vec::new(), None),
            None => Origin::Saved,
        };
        documents.fingerprinted(
            DocumentName::Bytes(entry.name),
            origin,
            entry.fingerprint,
            short_text,
            diag,
        );
    })?;
    drop(store);
    // Stored documents are not inputs of this run; errors still count.
    let errors = diag.tally.errors;
    diag.tally = tally;
    diag.tally.errors = errors;
    documents.fresh_from = DocId::try_from(documents.len()).unwrap_or(DocId::MAX);
    Ok(())
}

/// Takes out of the run every stored row that has the name of a new
/// document: it stands for an older state of that document, which the
/// new one replaces, so a document is never paired or grouped with its
/// own stored copy (and its pairs with stored documents are the new
/// state's).
pub fn supersede_stored(documents: &mut Documents, diag: &mut Diagnostics) {
    let (fresh_from, end) = (documents.fresh_from, documents.len() as DocId);
    if fresh_from == 0 || fresh_from >= end {
        return;
    }
    let mut name = |documents: &Documents, id: DocId| match documents.name_bytes(id) {
        Ok(name) => Some(name),
        Err(error) => {
            diag.error(format_args!(
                "cannot read back the name of a document: {error}"
            ));
            None
        }
    };
    let new: HashSet<Vec<u8>> = (fresh_from..end)
        .filter_map(|id| name(documents, id))
        .collect();
    let superseded: Vec<DocId> = (0..fresh_from)
        .filter(|&id| name(documents, id).is_some_and(|name| new.contains(&name)))
        .collect();
    documents.supersede(superseded);
}

/// Keeps the pairs and groups with a document at or after `fresh_from`.
pub fn keep_new(listing: &mut Listing, documents: &Documents) {
    let fresh_from = documents.fresh_from;
    if fresh_from == 0 {
        return;
    }
    let before = listing.pairs.len();
    listing
        .pairs
        .retain(|pair| pair.a.max(pair.b) >= fresh_from);
    listing.total -= (before - listing.pairs.len()) as u64;
    // A group and its mark go together.
    let groups = std::mem::take(&mut listing.groups);
    let chained = std::mem::take(&mut listing.chained);
    (listing.groups, listing.chained) = groups
        .into_iter()
        .zip(chained)
        .filter(|(group, _)| group.iter().any(|&id| id >= fresh_from))
        .unzip();
}
