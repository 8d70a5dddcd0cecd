//! Gathering documents: walk or read the inputs, fingerprint them in
//! parallel, and fill the [`Documents`] table in input order.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::io::Read;
use std::ops::ControlFlow;
use std::path::PathBuf;

use xxhash_rust::xxh3::xxh3_128;

use crate::diag::Diagnostics;
use crate::fingerprint::Fingerprint;
use crate::index::Stamp;
use crate::input::{
    Declarations, FileDocument, FingerprintBlock, FingerprintBlocks, FingerprintRecord, Outcome,
    RecordBlocks, RecordOptions, SkipReason, Walk, WalkOptions, measure_once,
};
use crate::parallel::{Ahead, FILES_PER_TASK, for_each_ordered, for_each_ordered_chunked};
use crate::progress::Progress;

use super::cache::Cache;
use super::documents::{DocumentName, Documents, Origin};
use super::short::{Measures, Prefix, ShortMeasure};

/// Walks `paths` and fingerprints every file found. Fingerprinting starts
/// with the first file: the walk streams to the workers.
pub fn collect_paths(
    paths: &[PathBuf],
    walk_options: &WalkOptions,
    measures: &Measures,
    documents: &mut Documents,
    diag: &mut Diagnostics,
    wants_progress: bool,
    cache: Option<&Cache>,
) {
    let progress = Progress::new(wants_progress, None);
    let walk = progress.counting(Walk::new(paths, walk_options));
    for_each_ordered_chunked(
        walk,
        FILES_PER_TASK,
        if cache.is_some() {
            Ahead::Far
        } else {
            Ahead::Few
        },
        FileDocument::walked_bytes,
        |found| {
            found.and_then(|file| {
                if file.explicit && crate::input::is_fifo(&file.path) {
                    return fingerprint_piped(measures, file, walk_options);
                }
                let cached = cache.map(|cache| (cache, cache.lookup(&file.path, file.stamp)));
                let fingerprinted = match cached {
                    Some((_, Ok((fingerprint, short_text))))
                        if walk_options
                            .max_filesize
                            .is_none_or(|max| fingerprint.bytes <= max) =>
                    {
                        Outcome::Done((
                            fingerprint,
                            short_text
                                .filter(|_| measures.short.is_some())
                                .map(ShortMeasure::unsketched),
                        ))
                    }
                    Some((cache, Err(stamp))) => {
                        fingerprint_file(measures, &file, walk_options, Some((cache, stamp)))
                    }
                    _ => fingerprint_file(measures, &file, walk_options, None),
                };
                fingerprinted.map(|(fingerprint, short_text)| {
                    let name = file.path.into_os_string().into_encoded_bytes();
                    let name = DocumentName::Bytes(name);
                    (name, Origin::File, fingerprint, short_text)
                })
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

/// Opens, sniffs and fingerprints one file; with `short`, a file that is a
/// short text also gets its character-pair fingerprint (its first bytes
/// are kept as it is read, so it is read once). With a cache, the
/// fingerprint is remembered for it under the stamp taken before reading.
fn fingerprint_file(
    measures: &Measures,
    file: &FileDocument,
    walk_options: &WalkOptions,
    cache: Option<(&Cache, Stamp)>,
) -> Outcome<(Fingerprint, Option<ShortMeasure>)> {
    let view = &measures.fingerprinter.options().view;
    crate::input::open_view(file, walk_options, view).and_then(|reader| {
        let mut prefix = Prefix::new(reader);
        match measures.fingerprinter.fingerprint_reader(&mut prefix) {
            Ok(fingerprint) => {
                let short_text = measures.short_text(prefix.whole());
                if let Some((cache, stamp)) = cache {
                    let stored = match measures.short {
                        Some(_) => short_text.map(|short| short.fingerprint),
                        None => prefix
                            .whole()
                            .and_then(|text| cache.short.fingerprint(text)),
                    };
                    cache.remember(&file.path, stamp, fingerprint, stored);
                }
                Outcome::Done((fingerprint, short_text))
            }
            Err(source) => Outcome::Failed(crate::Error::io_named(&file.display, source)),
        }
    })
}

/// Fingerprints a FIFO named on the command line while copying its bytes
/// to an anonymous temporary file, since verification must read it again
/// and a pipe can be read only once.
fn fingerprint_piped(
    measures: &Measures,
    file: FileDocument,
    walk_options: &WalkOptions,
) -> Outcome<(DocumentName, Origin, Fingerprint, Option<ShortMeasure>)> {
    let error = |source| crate::Error::io_named(&file.display, source);
    let copy = match tempfile::tempfile() {
        Ok(copy) => copy,
        Err(source) => return Outcome::Failed(error(source)),
    };
    let view = &measures.fingerprinter.options().view;
    let fingerprinted = crate::input::open_view(&file, walk_options, view).and_then(|reader| {
        let mut tee = Prefix::new(Tee {
            reader,
            copy: &copy,
        });
        match measures.fingerprinter.fingerprint_reader(&mut tee) {
            Ok(fingerprint) => {
                let short_text = measures.short_text(tee.whole());
                Outcome::Done((fingerprint, short_text))
            }
            Err(source) => Outcome::Failed(error(source)),
        }
    });
    fingerprinted.map(|(fingerprint, short_text)| {
        let name = DocumentName::Bytes(file.display.into_bytes());
        (name, Origin::Piped(copy), fingerprint, short_text)
    })
}

/// A reader that writes a copy of everything it reads.
struct Tee<'a, R> {
    reader: R,
    copy: &'a std::fs::File,
}

impl<R: std::io::Read> std::io::Read for Tee<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.reader.read(buf)?;
        std::io::Write::write_all(&mut self.copy, &buf[..n])?;
        Ok(n)
    }
}

/// Reads records from a stream (`source_name` names it in messages) and
/// fingerprints them in parallel: the
/// reading thread only cuts the stream into blocks of whole records; the
/// workers parse (JSON included), decode and fingerprint them. With
/// `keep_texts`, the text of the first record of each class is spooled so
/// verification can read it again.
#[allow(clippy::too_many_arguments)]
pub fn collect_records<R: Read + Send>(
    reader: R,
    source_name: &str,
    record_options: &RecordOptions,
    measures: &Measures,
    documents: &mut Documents,
    diag: &mut Diagnostics,
    keep_texts: bool,
    wants_progress: bool,
) {
    if keep_texts
        && !documents.reads_texts_from_source()
        && let Err(error) = documents.keep_texts()
    {
        diag.error(format_args!(
            "cannot create a temporary file to keep records for verification: {error}"
        ));
    }
    let progress = Progress::new(wants_progress, None);
    let blocks = RecordBlocks::new(reader, source_name, record_options);
    for_each_ordered(
        blocks,
        |block| {
            let measure = |text: &[u8], content_hash| {
                let fingerprint = measures
                    .fingerprinter
                    .fingerprint_bytes_hashed(text, content_hash);
                (fingerprint, measures.short_text(Some(text)))
            };
            measure_once(block.parse_located(), measure)
        },
        |_, outcomes| {
            for (outcome, at) in outcomes {
                let outcome = outcome.map(|(record, (fingerprint, short_text))| {
                    (
                        match record.id {
                            Some(id) => DocumentName::Bytes(id.into_bytes()),
                            None => DocumentName::Line(record.line),
                        },
                        Origin::Record(record.text, Some(at)),
                        fingerprint,
                        short_text,
                    )
                });
                documents.record(outcome, diag);
                progress.document_done(diag.tally.bytes);
            }
            ControlFlow::Continue(())
        },
    );
    progress.finish();
}

/// Adds fingerprints read back from `simdup fingerprint` output: each
/// file is cut into blocks of lines on the reading thread and parsed on the
/// workers; declarations are checked in file order. A short text's saved
/// character-pair fingerprint is taken when `measures` compares them so.
/// A malformed line is reported and counted as an error, and the rest is
/// read. Returns what the files declared; an unreadable file or a second
/// set of options ends the run.
pub fn collect_saved(
    files: &[PathBuf],
    measures: &Measures,
    documents: &mut Documents,
    diag: &mut Diagnostics,
) -> crate::Result<Declarations> {
    let mut declarations = Declarations::default();
    let mut seen = SeenNames::default();
    for path in files {
        let (reader, source_name) = crate::input::open_fingerprint_file(path)?;
        let mut declared = false;
        let mut failure = None;
        for_each_ordered(
            FingerprintBlocks::new(reader, &source_name),
            FingerprintBlock::parse,
            |_, lines| {
                for line in lines {
                    let taken = line.and_then(|(number, line)| {
                        let record = declarations.take(line, &source_name, number, &mut declared);
                        record.map(|record| record.map(|record| (number, record)))
                    });
                    match taken {
                        Ok(Some((number, record))) => {
                            if seen.first(&record, &source_name, number, diag) {
                                add_saved(record, measures, documents, diag)
                            } else {
                                documents.skipped(
                                    &String::from_utf8_lossy(&record.name),
                                    SkipReason::Duplicate,
                                    diag,
                                )
                            }
                        }
                        Ok(None) => {}
                        // One bad line is one input that failed, as a
                        // malformed record is.
                        Err(error @ crate::Error::Parse { .. }) => documents.failed(error, diag),
                        Err(error) => {
                            failure = Some(error);
                            return ControlFlow::Break(());
                        }
                    }
                }
                ControlFlow::Continue(())
            },
        );
        if let Some(error) = failure {
            return Err(error);
        }
        declarations.file_done(&source_name, declared);
        if !declared {
            diag.warn(format_args!(
                "{source_name}: names no options digest; assuming its fingerprints are comparable"
            ));
        }
    }
    Ok(declarations)
}

/// The names of the saved fingerprints taken so far, so that a document
/// listed twice (shards that overlap, a file given twice) is one document:
/// its first line is kept. Names are held as 128-bit hashes with the
/// fingerprint first seen, about 30 bytes a document while collecting.
#[derive(Default)]
struct SeenNames {
    simhashes: HashMap<u128, Option<u64>>,
}

impl SeenNames {
    /// Whether `record` is the first line with its name; a later one with
    /// another fingerprint is worth a warning (which fingerprint is
    /// right cannot be known here).
    fn first(
        &mut self,
        record: &FingerprintRecord,
        source_name: &str,
        line: u64,
        diag: &Diagnostics,
    ) -> bool {
        match self.simhashes.entry(xxh3_128(&record.name)) {
            Entry::Vacant(entry) => {
                entry.insert(record.simhash);
                true
            }
            Entry::Occupied(entry) => {
                if *entry.get() != record.simhash {
                    diag.warn(format_args!(
                        "{}: listed again with another fingerprint ({source_name}:{line}); \
                         the first is kept",
                        String::from_utf8_lossy(&record.name)
                    ));
                }
                false
            }
        }
    }
}

fn add_saved(
    record: FingerprintRecord,
    measures: &Measures,
    documents: &mut Documents,
    diag: &mut Diagnostics,
) {
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
        // Saved files carry no feature digest: each is a class of its own.
        feature_digest: 0,
    };
    // A short text's character pairs, when saved and compared so.
    let short_text = record
        .short_text
        .filter(|_| measures.short.is_some())
        .map(|short| {
            ShortMeasure::unsketched(Fingerprint {
                simhash: short.simhash,
                features: short.features,
                bytes: fingerprint.bytes,
                content_hash: 0,
                feature_digest: 0,
            })
        });
    let name = DocumentName::Bytes(record.name);
    documents.fingerprinted(name, Origin::Saved, fingerprint, short_text, diag);
}
