//! The `index` jobs: add documents to a stored corpus ([`add`] for files,
//! [`add_records`] for a stream of records), drop the files that are gone
//! ([`prune`]).
//!
//! `add` walks its paths with the scan's rules and fingerprints, in
//! parallel, every file whose size or modification time differs from its
//! stored row (or that has none); unchanged files are not opened. A file
//! whose size or time changed while it was read is reported and not
//! stored. `add_records` stores each record with its text (nothing else
//! could read it again), by its id or, without one, as `line N`; a record
//! whose stored row has the same content is left as it is. All rows of one
//! run are written in one transaction.

use std::collections::HashMap;
use std::io::Read;
use std::ops::ControlFlow;
use std::path::PathBuf;

use crate::diag::Diagnostics;
use crate::fingerprint::{FeatureOptions, Fingerprinter};
use crate::index::{Entry, Stamp, Store, name_of};
use crate::input::{
    FileDocument, Outcome, RecordBlocks, RecordOptions, SkipReason, Walk, WalkOptions,
    path_from_bytes,
};
use crate::jobs::scan::short::{Prefix, ShortTexts};
use crate::parallel::{Ahead, FILES_PER_TASK, for_each_ordered, for_each_ordered_chunked};

/// What `add` did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AddSummary {
    /// Documents stored for the first time.
    pub added: u64,
    /// Stored documents fingerprinted again because they changed.
    pub updated: u64,
    /// Stored documents left as they were (same size and time).
    pub unchanged: u64,
}

enum Added {
    New(Entry, bool),
    Unchanged,
}

/// Fingerprints the new and changed files of `paths` and stores them in
/// one transaction. A store made with other feature options is refused
/// before anything is read.
pub fn add(
    store: &mut Store,
    paths: &[PathBuf],
    walk: &WalkOptions,
    features: &FeatureOptions,
    diag: &mut Diagnostics,
) -> crate::Result<AddSummary> {
    store.check_options(features)?;
    if let (true, _) = store.kinds()? {
        return Err(crate::Error::Data {
            name: store.path().display().to_string(),
            message: "holds records; files go in an index of their own".to_string(),
        });
    }
    let stamps = store.stamps()?;
    let fingerprinter = Fingerprinter::new(features.clone());
    let short = ShortTexts::new(features);
    let mut entries = Vec::new();
    let mut summary = AddSummary::default();
    for_each_ordered_chunked(
        Walk::new(paths, walk),
        FILES_PER_TASK,
        Ahead::Few,
        FileDocument::walked_bytes,
        |found| found.and_then(|file| fingerprint(&file, walk, &fingerprinter, &short, &stamps)),
        |_, outcome| {
            match outcome {
                Outcome::Done(Added::Unchanged) => {
                    diag.tally.seen += 1;
                    summary.unchanged += 1;
                }
                Outcome::Done(Added::New(entry, known)) => {
                    diag.tally.seen += 1;
                    diag.tally.bytes += entry.size;
                    if entry.fingerprint.features == 0 {
                        diag.tally.empty += 1;
                        diag.note(format_args!(
                            "{}: no features (empty), not stored",
                            String::from_utf8_lossy(&entry.name)
                        ));
                    } else {
                        diag.tally.fingerprinted += 1;
                        if known {
                            summary.updated += 1;
                        } else {
                            summary.added += 1;
                        }
                        entries.push(entry);
                    }
                }
                Outcome::Skipped { name, reason } => {
                    diag.tally.seen += 1;
                    diag.tally.skip(reason);
                    diag.skip_note(&name, reason);
                }
                Outcome::Failed(error) => {
                    diag.tally.seen += 1;
                    diag.error(error);
                }
            }
            ControlFlow::Continue(())
        },
    );
    store.put(features, &entries)?;
    Ok(summary)
}

/// Fingerprints the records of `reader` (named `source` in messages) and
/// stores the new and changed ones with their text, in one transaction.
/// A store made with other feature options, or holding files, is refused
/// before anything is read. An id met again updates the record before it,
/// as a later run would, and is counted so.
pub fn add_records<R: Read + Send>(
    store: &mut Store,
    reader: R,
    source: &str,
    records: &RecordOptions,
    features: &FeatureOptions,
    diag: &mut Diagnostics,
) -> crate::Result<AddSummary> {
    store.check_options(features)?;
    if let (_, true) = store.kinds()? {
        return Err(crate::Error::Data {
            name: store.path().display().to_string(),
            message: "holds files; records go in an index of their own".to_string(),
        });
    }
    // The content hash of every record by id, stored or taken in this run
    // (then with its line): an id seen again in the stream updates its
    // record, as it would in a later run.
    let mut known: HashMap<Vec<u8>, (u64, Option<u64>)> = store
        .record_hashes()?
        .into_iter()
        .map(|(name, hash)| (name, (hash, None)))
        .collect();
    let fingerprinter = Fingerprinter::new(features.clone());
    let short = ShortTexts::new(features);
    let mut entries = Vec::new();
    let mut summary = AddSummary::default();
    for_each_ordered(
        RecordBlocks::new(reader, source, records),
        |block| {
            block
                .parse()
                .into_iter()
                .map(|outcome| {
                    outcome.map(|record| {
                        let fingerprint = fingerprinter.fingerprint_bytes(&record.text);
                        let short_text = short.fingerprint(&record.text);
                        let name = match record.id {
                            Some(id) => id.into_bytes(),
                            None => format!("line {}", record.line).into_bytes(),
                        };
                        let entry = Entry {
                            name,
                            size: record.text.len() as u64,
                            mtime: 0,
                            fingerprint,
                            short_text,
                            text: Some(record.text),
                        };
                        (entry, record.line)
                    })
                })
                .collect::<Vec<_>>()
        },
        |_, outcomes| {
            for outcome in outcomes {
                diag.tally.seen += 1;
                let (entry, line) = match outcome {
                    Outcome::Done(taken) => taken,
                    Outcome::Skipped { name, reason } => {
                        diag.tally.skip(reason);
                        diag.note(format_args!("{name}: skipped ({reason})"));
                        continue;
                    }
                    Outcome::Failed(error) => {
                        diag.error(error);
                        continue;
                    }
                };
                diag.tally.bytes += entry.size;
                let before = known.get(&entry.name).copied();
                if entry.fingerprint.features == 0 {
                    diag.tally.empty += 1;
                    diag.note(format_args!(
                        "{}: no features (empty), not stored",
                        String::from_utf8_lossy(&entry.name)
                    ));
                    continue;
                }
                diag.tally.fingerprinted += 1;
                if let Some((_, Some(previous))) = before {
                    diag.note(format_args!(
                        "{source}:{line}: id {} again (before at line {previous}): \
                         the later record is kept",
                        String::from_utf8_lossy(&entry.name)
                    ));
                }
                let hash = entry.fingerprint.content_hash;
                known.insert(entry.name.clone(), (hash, Some(line)));
                match before {
                    Some((stored, _)) if stored == hash => {
                        summary.unchanged += 1;
                        continue;
                    }
                    Some(_) => summary.updated += 1,
                    None => summary.added += 1,
                }
                entries.push(entry);
            }
            ControlFlow::Continue(())
        },
    );
    store.put(features, &entries)?;
    Ok(summary)
}

/// Stats, reads and fingerprints one file, unless its stamp is the
/// stored one.
fn fingerprint(
    file: &FileDocument,
    walk: &WalkOptions,
    fingerprinter: &Fingerprinter,
    short: &ShortTexts,
    stamps: &HashMap<Vec<u8>, Stamp>,
) -> Outcome<Added> {
    let failed = |source| Outcome::Failed(crate::Error::io_named(&file.display, source));
    let before = match std::fs::metadata(&file.path) {
        Ok(metadata) if !metadata.is_file() => {
            return Outcome::Skipped {
                name: file.display.clone(),
                reason: SkipReason::NotRegular,
            };
        }
        Ok(metadata) => Stamp::of(&metadata),
        Err(source) => return failed(source),
    };
    let name = name_of(&file.path);
    let stored = stamps.get(&name);
    if stored == Some(&before) {
        return Outcome::Done(Added::Unchanged);
    }
    let view = &fingerprinter.options().view;
    crate::input::open_view(file, walk, view).and_then(|reader| {
        let mut prefix = Prefix::new(reader);
        let fingerprint = match fingerprinter.fingerprint_reader(&mut prefix) {
            Ok(fingerprint) => fingerprint,
            Err(source) => return failed(source),
        };
        let short_text = prefix.whole().and_then(|text| short.fingerprint(text));
        let after = match std::fs::metadata(&file.path) {
            Ok(metadata) => Stamp::of(&metadata),
            Err(source) => return failed(source),
        };
        // A converter's text has its own length; the markup view keeps it.
        let bytes_differ = !view.changes_length() && fingerprint.bytes != before.size;
        if after != before || bytes_differ {
            return Outcome::Failed(crate::Error::Data {
                name: file.display.clone(),
                message: "changed while it was read; not stored (add it again)".to_string(),
            });
        }
        Outcome::Done(Added::New(
            Entry {
                name,
                size: before.size,
                mtime: before.mtime,
                fingerprint,
                short_text,
                text: None,
            },
            stored.is_some(),
        ))
    })
}

/// Drops the stored documents whose file no longer exists, in one
/// transaction; returns their names. When none of the stored files exists,
/// nothing is dropped and it is an error: names are relative to where
/// `index add` ran, so that is a prune from another directory far more
/// often than a corpus deleted whole (whose index can be deleted too).
pub fn prune(store: &mut Store) -> crate::Result<Vec<Vec<u8>>> {
    let files = store.stamps()?;
    let stored = files.len();
    let mut gone: Vec<Vec<u8>> = files
        .into_keys()
        .filter(|name| {
            let path = path_from_bytes(name);
            matches!(std::fs::symlink_metadata(&path), Err(error)
                if error.kind() == std::io::ErrorKind::NotFound)
        })
        .collect();
    gone.sort();
    if stored > 0 && gone.len() == stored {
        return Err(crate::Error::Data {
            name: store.path().display().to_string(),
            message: format!(
                "none of the {stored} files it holds exists from here ({} is the first), so \
                 nothing was pruned: names are relative to the directory `index add` ran \
                 in; prune from there (to empty the index, delete it)",
                String::from_utf8_lossy(&gone[0])
            ),
        });
    }
    store.remove(&gone)?;
    Ok(gone)
}
