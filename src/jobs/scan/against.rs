//! `scan --against`: new documents searched against a stored corpus.
//!
//! The stored rows enter the document table first, as saved fingerprints
//! (their names are paths, read again only when a pair needs verifying),
//! then the new documents are collected as in any scan. The search runs
//! over both; pairs of two stored classes are dropped before verification
//! (nothing of them is read), and the listing keeps only pairs and groups
//! with a new document. A stored document that cannot be read any more
//! leaves its pairs unverified, counted and reported as an error, like any
//! unreadable document of a scan.

use std::collections::HashSet;
use std::path::Path;

use crate::diag::Diagnostics;
use crate::index::Store;
use crate::search::DocId;

use super::documents::{DocumentName, Documents, Origin};
use super::listing::Listing;
use super::{Mode, ScanOptions};

/// Loads the stored fingerprints of `index` into `documents`, after
/// checking they were made with the scan's feature options. They are not
/// counted as inputs of this run.
pub fn collect_stored(
    index: &Path,
    options: &ScanOptions,
    documents: &mut Documents,
    diag: &mut Diagnostics,
) -> crate::Result<()> {
    let store = Store::open(index, false)?;
    store.check_options(&options.features)?;
    let entries = store.entries()?;
    drop(store);
    let tally = diag.tally.clone();
    let short_texts = options.short_texts && matches!(options.mode, Mode::Verified { .. });
    for entry in entries {
        let short_text = entry.short_text.filter(|_| short_texts);
        documents.fingerprinted(
            DocumentName::Bytes(entry.name),
            Origin::Saved,
            entry.fingerprint,
            short_text,
            diag,
        );
    }
    // Stored documents are not inputs of this run; errors still count.
    let errors = diag.tally.errors;
    diag.tally = tally;
    diag.tally.errors = errors;
    documents.fresh_from = DocId::try_from(documents.len()).unwrap_or(DocId::MAX);
    Ok(())
}

/// Keeps the pairs and groups with a document at or after `fresh_from`.
/// A stored row that has the name of a new document stands for an older
/// state of it: its pairs are dropped (the new document's are the ones
/// that count). The count of pairs loses those dropped.
pub fn keep_new(listing: &mut Listing, documents: &Documents) {
    let fresh_from = documents.fresh_from;
    if fresh_from == 0 {
        return;
    }
    let new: HashSet<String> = (fresh_from..documents.len() as DocId)
        .map(|id| documents.name(id))
        .collect();
    let before = listing.pairs.len();
    listing.pairs.retain(|pair| {
        let (stored, newer) = (pair.a.min(pair.b), pair.a.max(pair.b));
        newer >= fresh_from && (stored >= fresh_from || !new.contains(&documents.name(stored)))
    });
    listing.total -= (before - listing.pairs.len()) as u64;
    listing
        .groups
        .retain(|group| group.iter().any(|&id| id >= fresh_from));
}
