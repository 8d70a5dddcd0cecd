//! `--keep last|longest|shortest`: which copy of a set of near-copies
//! survives needs the whole input, so these policies read it all first.
//!
//! Each record's bytes and text go to spools (in memory up to
//! [`SPOOL_MEMORY`] bytes each, then in anonymous temporary files), its
//! fingerprints and name (about 130 bytes in all) stay in memory. Then the
//! records are decided in the policy's order (last first; longest or
//! shortest text first, ties in input order) by the same filter as the
//! streaming `first`, in blocks as it decides a stream (measured again
//! and searched on every core, decided in turn), and written in input
//! order once all are decided.

use std::cmp::Reverse;
use std::io;

use rayon::prelude::*;

use crate::fingerprint::Fingerprint;
use crate::report::Names;

use super::filter::{Decision, Filter, Measured, Remeasure, TextMeasures};
use super::plan::Radii;
use super::size_classes::Size;
use super::{DedupStats, Keep, Output, RecordName};

/// Bytes of each spool held in memory before the rest goes to a file.
pub const SPOOL_MEMORY: usize = 32 << 20;

/// Records measured again at once, on every core, before they are
/// decided in turn: a block's worth (tests take few, so that a run
/// crosses several).
const MEASURED_AHEAD: usize = if cfg!(test) { 3 } else { 8192 };

/// [`MEASURED_AHEAD`] for files, each read whole to measure it again.
const FILES_MEASURED_AHEAD: usize = if cfg!(test) { 3 } else { 256 };

/// The most features of a file's set held while it waits to be decided
/// (8 bytes each: two blocks of files hold 32 MiB at most).
const HELD_SET_FEATURES: usize = 8192;

/// What became of one record.
#[derive(Clone, Copy, Debug)]
enum Fate {
    Kept,
    Dropped { record: u32, jaccard: f64 },
}

/// Every record read, spooled.
pub(super) struct Gathered {
    raw: Names,
    texts: Names,
    /// Each record's fingerprint, and whether it is a short text (its
    /// character pairs are measured again when it is decided).
    fingerprints: Vec<(Fingerprint, bool)>,
    lines: Vec<u64>,
    ids: Option<Names>,
}

impl Gathered {
    /// An empty gathering; `ids` keeps record ids.
    pub(super) fn new(ids: bool) -> Gathered {
        Gathered {
            raw: Names::with_budget(SPOOL_MEMORY),
            texts: Names::with_budget(SPOOL_MEMORY),
            fingerprints: Vec::new(),
            lines: Vec::new(),
            ids: ids.then(Names::default),
        }
    }

    /// Adds a record that was read; `is_short`: whether it is measured as
    /// a short text when it is decided.
    pub(super) fn add(
        &mut self,
        name: RecordName,
        measured: Measured,
        raw: &[u8],
        is_short: bool,
    ) -> crate::Result<()> {
        if self.lines.len() >= super::filter::MAX_KEPT as usize {
            return Err(crate::Error::Usage(format!(
                "more than {} records: --keep first has no such limit",
                super::filter::MAX_KEPT
            )));
        }
        let spool = |error| crate::Error::io_named("the records' spool", error);
        self.raw.push(raw).map_err(spool)?;
        self.texts.push(&measured.text).map_err(spool)?;
        if let Some(ids) = self.ids.as_mut() {
            ids.push(name.id.as_deref().unwrap_or_default().as_bytes())
                .map_err(spool)?;
        }
        self.fingerprints.push((measured.words, is_short));
        self.lines.push(name.line);
        Ok(())
    }

    /// Record `record` measured again as it was read, from its spooled
    /// text (or its file): a short text's character pairs, a long text's
    /// set and size.
    fn measure_again(&self, remeasure: &Remeasure, record: u32) -> io::Result<Measured> {
        let (words, is_short) = self.fingerprints[record as usize];
        let text = self.texts.get(record as usize)?.into_owned();
        // A file's text is its path: the file is read again. A large set
        // is not held while it waits (the Debian docs' sets took 120 MB
        // more in blocks of 8,192): verifying a candidate reads the file
        // once more.
        if remeasure.reads_files() {
            let mut measured = remeasure.file(text)?;
            if (measured.words_set.as_ref()).is_some_and(|set| set.len() > HELD_SET_FEATURES) {
                measured.words_set = None;
            }
            return Ok(measured);
        }
        let short = if is_short {
            remeasure.short_text(&text)?
        } else {
            None
        };
        let long = match short {
            Some(_) => None,
            None => remeasure.measure().measure_long(&text),
        };
        let (distinct, words_set) = long.map_or((Size::Unknown, None), |long| {
            (long.distinct, long.words_set)
        });
        let measures = TextMeasures {
            words,
            short,
            distinct,
            words_set,
        };
        Ok(Measured::of_record(text, measures))
    }

    fn name(&self, record: u32) -> RecordName {
        RecordName {
            line: self.lines[record as usize],
            id: self.ids.as_ref().map(|ids| ids.text(record as usize)),
        }
    }

    /// Decides every record in the order `keep` gives, with `filter`, and
    /// writes them in input order.
    pub(super) fn finish(
        self,
        keep: Keep,
        filter: &mut Filter,
        radii: &mut Radii,
        output: &mut dyn Output,
        stats: &mut DedupStats,
    ) -> crate::Result<()> {
        let count = self.lines.len() as u32;
        let mut order: Vec<u32> = (0..count).collect();
        let length = |record: u32| self.fingerprints[record as usize].0.bytes;
        match keep {
            Keep::First => {}
            Keep::Last => order.reverse(),
            Keep::Longest => order.sort_by_key(|&record| (Reverse(length(record)), record)),
            Keep::Shortest => order.sort_by_key(|&record| (length(record), record)),
        }
        let spool = |error| crate::Error::io_named("the records' spool", error);
        let mut fates = vec![Fate::Kept; count as usize];
        // The record each kept number stands for.
        let mut kept_records: Vec<u32> = Vec::new();
        let remeasure = filter.remeasure();
        let measure_chunk = |chunk: &[u32]| -> Vec<io::Result<Measured>> {
            chunk
                .par_iter()
                .map(|&record| self.measure_again(&remeasure, record))
                .collect()
        };
        let ahead = if remeasure.reads_files() {
            FILES_MEASURED_AHEAD
        } else {
            MEASURED_AHEAD
        };
        let chunks: Vec<&[u32]> = order.chunks(ahead).collect();
        std::thread::scope(|scope| -> crate::Result<()> {
            // The next chunk is measured on the worker pool while this
            // thread decides the current one.
            let mut next = chunks
                .first()
                .map(|&chunk| scope.spawn(move || measure_chunk(chunk)));
            for (at, &chunk) in chunks.iter().enumerate() {
                let measured = match next.take().map(|measuring| measuring.join()) {
                    Some(Ok(measured)) => measured,
                    Some(Err(panic)) => std::panic::resume_unwind(panic),
                    None => break,
                };
                next = chunks
                    .get(at + 1)
                    .map(|&chunk| scope.spawn(move || measure_chunk(chunk)));
                let mut records = chunk.iter().zip(measured).peekable();
                // Parts end where the radius may narrow, as a stream's
                // blocks do: each is searched ahead at its own radius.
                while records.peek().is_some() {
                    let mut part = Vec::new();
                    for (&record, measured) in records.by_ref() {
                        let measured = measured.map_err(spool)?;
                        if measured.short.is_none()
                            && filter.measure().searched_by_words(&measured.words)
                        {
                            stats.long_texts += 1;
                        }
                        let checkpoint = radii.observe(filter.measure(), &measured);
                        part.push((record, measured));
                        if checkpoint {
                            break;
                        }
                    }
                    let searched: Vec<Option<&Measured>> =
                        part.iter().map(|(_, measured)| Some(measured)).collect();
                    let found = super::search_ahead(filter, &searched);
                    for ((record, measured), found) in part.iter().zip(found) {
                        match filter.decide_with(measured, found).map_err(spool)? {
                            Decision::Kept(Some(number)) => {
                                debug_assert_eq!(number as usize, kept_records.len());
                                kept_records.push(*record);
                            }
                            Decision::Kept(None) => stats.empty += 1,
                            Decision::Dropped { kept, jaccard } => {
                                fates[*record as usize] = Fate::Dropped {
                                    record: kept_records[kept as usize],
                                    jaccard,
                                };
                            }
                        }
                    }
                    filter.end_block();
                    radii.apply(filter);
                }
            }
            Ok(())
        })?;
        for (record, fate) in fates.into_iter().enumerate() {
            match fate {
                Fate::Kept => {
                    stats.kept += 1;
                    output.kept(&self.raw.get(record).map_err(spool)?)?;
                }
                Fate::Dropped {
                    record: kept,
                    jaccard,
                } => {
                    stats.dropped += 1;
                    let raw = self.raw.get(record).map_err(spool)?;
                    output.dropped(&raw, &self.name(record as u32), &self.name(kept), jaccard)?;
                }
            }
        }
        Ok(())
    }
}
