//! `simdup dedup`: the records of a stream that are not near-duplicates of
//! a record kept before them, in input order, byte for byte.
//!
//! The stream is cut into blocks of whole records ([`RecordBlocks`]); the
//! workers parse and fingerprint the records of each block; this thread
//! takes the blocks in input order and decides each record in turn
//! ([`filter::Filter`]): so the answer is the same whatever the thread
//! count. A block ends when 1 MiB is read or when a read comes back short
//! (the stream has nothing more for now), and the output is flushed after
//! each block: a slow stream (`tail -f log | simdup dedup`) gets each line
//! out as soon as it is read and decided.
//!
//! The near-duplicate rule is the scan's (see [`filter`]): a record is
//! dropped when a record kept before it has the same features, or lies
//! within k bits and reaches the Jaccard threshold. Unless given, k is
//! the scan's cost model's, chosen again as the input grows ([`plan`]).
//! Short texts are joined exactly; once that costs too much, they are
//! found by their MinHash bands (src/verify/bands.rs), or, with
//! `--short-texts fingerprint`, by character-pair fingerprint within a
//! radius planned the same way on them (or the k given).

pub mod band_index;
mod digests;
mod files;
pub mod filter;
pub mod index;
pub mod indexes;
mod kept_texts;
pub mod plan;
mod set_cache;
pub mod short_join;
pub mod size_classes;
mod whole;

pub use files::{Files, dedup_files};

use std::io::Read;
use std::ops::ControlFlow;
use std::path::Path;
use std::time::Instant;

use super::scan::ShortTextSearch;
use crate::diag::Diagnostics;
use crate::fingerprint::{FeatureOptions, Fingerprinter};
use crate::input::{Outcome, RecordBlocks, RecordOptions, RecordSource, measure_once};
use crate::parallel::for_each_ordered;
use crate::report::Names;
use crate::verify::join::JoinScratch;

use filter::{Ahead, Decision, Filter, Measure, Measured};
use plan::Radii;
use short_join::JoinBudget;

/// Blocks with fewer records are searched ahead on this thread alone
/// (tests split even tiny blocks, to exercise the threads).
const SEARCH_AHEAD_MIN: usize = if cfg!(test) { 2 } else { 256 };

/// Which record of a set of near-copies survives.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Keep {
    /// The first in input order: decided as the records stream.
    #[default]
    First,
    /// The last: needs the whole input.
    Last,
    /// The one with the most bytes of text (the first of equals): needs
    /// the whole input.
    Longest,
    /// The one with the fewest bytes of text (the first of equals): needs
    /// the whole input.
    Shortest,
}

/// Every option of a dedup run, as plain data.
#[derive(Clone, Debug)]
pub struct DedupOptions {
    /// Feature options of the fingerprints.
    pub features: FeatureOptions,
    /// The least Jaccard of a near-duplicate, 0 to 1.
    pub threshold: f64,
    /// The search radius k (0 to 32) of every search; `None`: the cost
    /// model's ([`plan`]).
    pub max_distance: Option<u32>,
    /// Records with fewer features are matched by exact content only.
    pub min_features: u64,
    /// Compare two short texts by character pairs (the scan's rule; on
    /// when the shingles were not chosen).
    pub short_texts: bool,
    /// Stop at the first malformed record instead of going on.
    pub strict: bool,
    /// Which copy survives; any but `First` reads the whole input before
    /// writing anything (spooling records to disk).
    pub keep: Keep,
    /// Keep the names of kept records, for [`Output::dropped`] (line
    /// numbers cost nothing; ids cost their bytes).
    pub name_kept: bool,
    /// How much the exact join of short texts may read before they are
    /// found by their MinHash bands (or by fingerprint within k) instead.
    pub join_budget: JoinBudget,
    /// How many band matches short texts found by their bands may make
    /// before they are searched by fingerprint within k instead
    /// ([`filter::BANDS_BASE_MATCHES`]).
    pub bands_budget: JoinBudget,
    /// How kept short texts are found: `Join` ignores `join_budget`,
    /// `Fingerprint` never joins.
    pub short_text_search: ShortTextSearch,
}

impl Default for DedupOptions {
    fn default() -> Self {
        DedupOptions {
            features: FeatureOptions::default(),
            threshold: super::scan::DEFAULT_THRESHOLD,
            max_distance: None,
            min_features: 1,
            short_texts: true,
            strict: false,
            keep: Keep::First,
            name_kept: true,
            join_budget: JoinBudget::default(),
            bands_budget: filter::BANDS_BUDGET,
            short_text_search: ShortTextSearch::Auto,
        }
    }
}

/// A record as its input names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordName {
    /// Its 1-based line (record number for NUL-separated records).
    pub line: u64,
    /// Its id field (`--id-field`), if read.
    pub id: Option<String>,
}

/// Where the decisions go, in input order.
pub trait Output {
    /// A kept record, as it was read (without its delimiter).
    fn kept(&mut self, raw: &[u8]) -> crate::Result<()>;
    /// A dropped record as it was read, its name, the kept record it
    /// matched, their Jaccard.
    fn dropped(
        &mut self,
        raw: &[u8],
        record: &RecordName,
        kept: &RecordName,
        jaccard: f64,
    ) -> crate::Result<()>;
    /// The end of a block: write out what is buffered.
    fn flush(&mut self) -> crate::Result<()>;
}

/// What a run did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DedupStats {
    /// Records read (malformed ones included).
    pub read: u64,
    /// Records written out.
    pub kept: u64,
    /// Records removed as near-duplicates.
    pub dropped: u64,
    /// Records that could not be read as records (bad JSON, a missing
    /// field, too large): reported, neither kept nor dropped.
    pub malformed: u64,
    /// Kept records without features (never anyone's near-duplicate).
    pub empty: u64,
    /// Candidate pairs verified by exact Jaccard (those the sketches of
    /// character pairs turned away are not counted).
    pub candidates: u64,
    /// Bytes of record text.
    pub bytes: u64,
    /// The radius of the search by word fingerprint at the end.
    pub max_distance: u32,
    /// The expected recall at the threshold of that radius.
    pub expected_recall: f64,
    /// The radius of the first records, and the record (counting those
    /// searched by word fingerprint) from which the last one held, if the
    /// cost model narrowed it.
    pub narrowed: Option<(u32, u64)>,
    /// The radius of the search of short texts by fingerprint.
    pub chars_distance: u32,
    /// The radius of the search by word fingerprint between a short text
    /// and another record, at the end.
    pub mixed_distance: u32,
    /// Index bytes per kept record (texts and maps aside).
    pub index_bytes_per_record: usize,
    /// Short texts searched (compared with kept short texts by character
    /// pairs).
    pub short_texts: u64,
    /// Records searched by word fingerprint that are not short texts.
    pub long_texts: u64,
    /// How many short texts had been searched when each stage of their
    /// join ended: the exact join, then the join on their rarest character
    /// pair (`short_join::STAGE_CAPS`), after which they are searched by
    /// fingerprint within k. Empty: every short text was joined exactly,
    /// so none of their pairs was missed.
    pub join_stage_ends: Vec<u64>,
    /// Past the exact join, short texts were found by their MinHash bands
    /// (src/verify/bands.rs), not by fingerprint.
    pub short_texts_by_bands: bool,
    /// Short texts searched when the bands were given up (their matches
    /// passed their budget) for fingerprints within k, if they were.
    pub bands_ended: Option<u64>,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// One record of a block, read and measured on a worker.
type Prepared = Outcome<(RecordName, Measured)>;

/// Runs dedup over the records of `reader` (named `stdin` in messages),
/// writing decisions to `output`. Malformed records are reported through
/// `diag` and counted; with `strict` the first one ends the run with its
/// error. Output errors (a closed pipe) end the run.
pub fn dedup_records<R: Read + Send>(
    reader: R,
    source_name: &str,
    records: &RecordOptions,
    options: &DedupOptions,
    output: &mut dyn Output,
    diag: &mut Diagnostics,
) -> crate::Result<DedupStats> {
    let blocks = RecordBlocks::new(reader, source_name, records).eager();
    dedup_blocks(blocks, records, options, output, diag)
}

/// [`dedup_records`] over the records of the file at `path` (stdin when
/// `None`). When it is a regular file (named, or stdin redirected from
/// one) and the first copy is kept, kept records are read from it again
/// to verify rather than spooled: no copy of the input is written.
pub fn dedup_path(
    path: Option<&Path>,
    records: &RecordOptions,
    options: &DedupOptions,
    output: &mut dyn Output,
    diag: &mut Diagnostics,
) -> crate::Result<DedupStats> {
    let (reader, name) = super::open_records(path)?;
    // Before the stream is read: stdin's place is where it starts.
    let mut source = match options.keep {
        Keep::First => RecordSource::open(path, records, &name),
        _ => None,
    };
    let (reader, gzip) = super::records_text(reader, &name, options.features.view.decompress)?;
    if gzip {
        source = None;
    }
    let blocks = RecordBlocks::new(reader, &name, records).eager();
    let radii = Radii::for_options(options);
    dedup_blocks_with_radii(blocks, records, options, radii, source, output, diag)
}

/// [`dedup_records`] over blocks cut already.
fn dedup_blocks<R: Read + Send>(
    blocks: RecordBlocks<R>,
    records: &RecordOptions,
    options: &DedupOptions,
    output: &mut dyn Output,
    diag: &mut Diagnostics,
) -> crate::Result<DedupStats> {
    let radii = Radii::for_options(options);
    dedup_blocks_with_radii(blocks, records, options, radii, None, output, diag)
}

/// [`dedup_blocks`] with the radii of `radii`; `source`: the file the
/// records come from, to read kept ones again.
fn dedup_blocks_with_radii<R: Read + Send>(
    blocks: RecordBlocks<R>,
    records: &RecordOptions,
    options: &DedupOptions,
    radii: Radii,
    source: Option<RecordSource>,
    output: &mut dyn Output,
    diag: &mut Diagnostics,
) -> crate::Result<DedupStats> {
    let started = Instant::now();
    let mut run = Run::new(options, radii, records.id_field.is_some(), false)?;
    if let Some(source) = source {
        run.filter.read_records_from(source);
    }
    let measure = run.filter.measure().clone();
    // A record gathered for the end is measured again there.
    let gathering = run.gathered.is_some();
    for_each_ordered(
        blocks,
        |block| {
            let offset = block.offset();
            let (bytes, items) = block.parse_raw();
            let prepared: Vec<(Prepared, std::ops::Range<usize>)> =
                measure_once(items, |text, hash| {
                    if gathering {
                        measure.measure_words(text, hash)
                    } else {
                        measure.measure_text(text, hash)
                    }
                })
                .into_iter()
                .map(|(outcome, range)| {
                    let prepared = outcome.map(|(record, measures)| {
                        let name = RecordName {
                            line: record.line,
                            id: record.id,
                        };
                        let mut measured = Measured::of_record(record.text, measures);
                        measured.place = Some(offset + range.start as u64);
                        (name, measured)
                    });
                    (prepared, range)
                })
                .collect();
            (bytes, prepared)
        },
        |_, (bytes, prepared)| {
            if let Err(error) = run.decide_block(&bytes, prepared, output, diag) {
                run.failure = Some(error);
                return ControlFlow::Break(());
            }
            match output.flush() {
                Ok(()) => ControlFlow::Continue(()),
                Err(error) => {
                    run.failure = Some(error);
                    ControlFlow::Break(())
                }
            }
        },
    );
    run.finish(options, output, started)
}

/// The state of a run on the deciding thread.
struct Run {
    filter: Filter,
    /// The radii of the searches, record by record.
    radii: Radii,
    /// The line of each kept record (by kept number).
    lines: Names,
    /// The id of each kept record, when ids are read and wanted.
    ids: Option<Names>,
    name_kept: bool,
    stats: DedupStats,
    strict: bool,
    failure: Option<crate::Error>,
    /// With a policy other than `first`: every record, decided at the end.
    gathered: Option<whole::Gathered>,
}

impl Run {
    /// A run with these options; `ids`: records have ids (or paths) to
    /// keep for `--dropped`; `files`: texts are paths of files.
    fn new(options: &DedupOptions, radii: Radii, ids: bool, files: bool) -> crate::Result<Run> {
        if options.max_distance > Some(crate::search::MAX_DISTANCE) {
            return Err(crate::Error::Usage(format!(
                "-k must be at most {}",
                crate::search::MAX_DISTANCE
            )));
        }
        if !(options.threshold > 0.0 && options.threshold <= 1.0) {
            // The join's size bounds divide by it.
            return Err(crate::Error::Usage(format!(
                "the threshold must be above 0 and at most 1, not {}",
                options.threshold
            )));
        }
        let measure = Measure::new(
            Fingerprinter::new(options.features.clone()),
            options.short_texts,
            options.min_features,
        );
        let budget = match options.short_text_search {
            ShortTextSearch::Join => JoinBudget::UNLIMITED,
            _ => options.join_budget,
        };
        let mut filter =
            Filter::new(measure, options.threshold, radii.current()).with_join_budget(budget);
        match options.short_text_search {
            ShortTextSearch::Fingerprint => filter.stop_joining(),
            ShortTextSearch::Auto => filter = filter.with_bands_past_join(options.bands_budget),
            ShortTextSearch::Bands => {
                filter = filter.with_bands_past_join(options.bands_budget);
                filter.find_short_texts_by_bands_at_once();
            }
            ShortTextSearch::Join => {}
        }
        if files {
            filter = filter.reading_files();
        }
        Ok(Run {
            filter,
            radii,
            lines: Names::default(),
            ids: (options.name_kept && ids).then(Names::default),
            name_kept: options.name_kept,
            stats: DedupStats::default(),
            strict: options.strict,
            failure: None,
            gathered: (options.keep != Keep::First).then(|| whole::Gathered::new(ids)),
        })
    }

    /// Ends a run: a failure met on the way, or the records gathered for
    /// a policy other than `first` decided and written.
    fn finish(
        mut self,
        options: &DedupOptions,
        output: &mut dyn Output,
        started: Instant,
    ) -> crate::Result<DedupStats> {
        if let Some(error) = self.failure {
            // What was decided before the failure is written out.
            let _ = output.flush();
            return Err(error);
        }
        if let Some(gathered) = self.gathered.take() {
            gathered.finish(
                options.keep,
                &mut self.filter,
                &mut self.radii,
                output,
                &mut self.stats,
            )?;
        }
        output.flush()?;
        let (words, chars) = (&self.radii.words, &self.radii.chars);
        self.stats.max_distance = words.radius();
        self.stats.expected_recall =
            super::scan::expected_recall(options.threshold, words.radius());
        self.stats.narrowed = words.narrowed_from().map(|from| (words.first(), from));
        self.stats.chars_distance = chars.radius();
        self.stats.mixed_distance = self.radii.mixed.radius();
        self.stats.candidates = self.filter.candidates;
        self.stats.index_bytes_per_record = self.filter.index_bytes_per_record();
        let (short_texts, stage_ends) = self.filter.short_texts_searched();
        self.stats.short_texts = short_texts;
        self.stats.join_stage_ends = stage_ends.to_vec();
        self.stats.short_texts_by_bands = self.filter.short_texts_past_join_by_bands();
        self.stats.bands_ended = self.filter.short_texts_bands_ended();
        self.stats.seconds = started.elapsed().as_secs_f64();
        Ok(self.stats)
    }

    /// Decides the records of a block in turn, cut where the radius may
    /// narrow: each part is searched ahead at its own radius.
    fn decide_block(
        &mut self,
        bytes: &[u8],
        prepared: Vec<(Prepared, std::ops::Range<usize>)>,
        output: &mut dyn Output,
        diag: &mut Diagnostics,
    ) -> crate::Result<()> {
        let mut records = prepared.into_iter().peekable();
        while records.peek().is_some() {
            let mut part = Vec::new();
            for record in records.by_ref() {
                let checkpoint = self.observe(&record.0);
                part.push(record);
                if checkpoint {
                    break;
                }
            }
            let found = self.search_ahead(&part);
            for ((outcome, range), found) in part.into_iter().zip(found) {
                let raw = bytes.get(range).unwrap_or_default();
                self.take(outcome, raw, found, output, diag)?;
            }
            self.filter.end_block();
            self.radii.apply(&mut self.filter);
        }
        Ok(())
    }

    /// Counts a record for the radius, in input order (all records are
    /// counted at the end when they are gathered); true when the radius
    /// may narrow before the next one.
    fn observe(&mut self, outcome: &Prepared) -> bool {
        match outcome {
            Outcome::Done((_, measured)) if self.gathered.is_none() => {
                self.radii.observe(self.filter.measure(), measured)
            }
            _ => false,
        }
    }

    /// Starts a block: the candidates of each of its records among the
    /// records kept before it, found on every core (`None` for records
    /// that need no search, and for all when the records are gathered).
    fn search_ahead(
        &mut self,
        prepared: &[(Prepared, std::ops::Range<usize>)],
    ) -> Vec<Option<Ahead>> {
        if self.gathered.is_some() {
            return vec![None; prepared.len()];
        }
        let records: Vec<Option<&Measured>> = prepared
            .iter()
            .map(|(outcome, _)| match outcome {
                Outcome::Done((_, measured)) => Some(measured),
                _ => None,
            })
            .collect();
        search_ahead(&mut self.filter, &records)
    }

    /// Decides one record and hands it on; `found`: its candidates among
    /// the records kept before its block, if searched ahead.
    fn take(
        &mut self,
        outcome: Prepared,
        raw: &[u8],
        found: Option<Ahead>,
        output: &mut dyn Output,
        diag: &mut Diagnostics,
    ) -> crate::Result<()> {
        let (name, measured) = match outcome {
            Outcome::Done(done) => done,
            Outcome::Skipped { name, reason } => {
                self.stats.read += 1;
                self.stats.malformed += 1;
                let error = crate::Error::data(name, format!("not read ({reason})"));
                return self.malformed(error, diag);
            }
            Outcome::Failed(error) => {
                if matches!(error, crate::Error::Parse { .. }) {
                    self.stats.read += 1;
                    self.stats.malformed += 1;
                    return self.malformed(error, diag);
                }
                // The stream itself failed: nothing more comes.
                return Err(error);
            }
        };
        self.stats.read += 1;
        self.stats.bytes += measured.words.bytes;
        if let Some(gathered) = self.gathered.as_mut() {
            // A file comes measured; a record, by its fingerprint alone.
            let measure = self.filter.measure();
            let is_short = measured.short.is_some()
                || (!self.filter.reads_files()
                    && measure.may_be_short(&measured.text, &measured.words));
            return gathered.add(name, measured, raw, is_short);
        }
        if measured.short.is_none() && self.filter.measure().searched_by_words(&measured.words) {
            self.stats.long_texts += 1;
        }
        let decision = self
            .filter
            .decide_with(&measured, found)
            .map_err(|error| crate::Error::io_named("cannot keep or verify a record", error))?;
        match decision {
            Decision::Kept(number) => {
                self.stats.kept += 1;
                match number {
                    Some(_) if self.name_kept => {
                        self.lines.push_number(name.line).map_err(|error| {
                            crate::Error::io_named("the kept records' lines", error)
                        })?;
                        if let (Some(ids), Some(id)) = (self.ids.as_mut(), &name.id) {
                            ids.push(id.as_bytes()).map_err(|error| {
                                crate::Error::io_named("the kept records' ids", error)
                            })?;
                        }
                    }
                    Some(_) => {}
                    None => self.stats.empty += 1,
                }
                output.kept(raw)
            }
            Decision::Dropped { kept, jaccard } => {
                self.stats.dropped += 1;
                output.dropped(raw, &name, &self.kept_name(kept), jaccard)
            }
        }
    }

    /// Reports a malformed record; `strict` makes it the end of the run.
    fn malformed(&mut self, error: crate::Error, diag: &mut Diagnostics) -> crate::Result<()> {
        if self.strict {
            return Err(error);
        }
        diag.error(error);
        Ok(())
    }

    /// The name of kept record `kept` (line 0 when names are not kept).
    fn kept_name(&self, kept: u32) -> RecordName {
        if !self.name_kept {
            return RecordName { line: 0, id: None };
        }
        let line = self
            .lines
            .get(kept as usize)
            .ok()
            .and_then(|text| std::str::from_utf8(&text).ok()?.parse().ok())
            .unwrap_or(0);
        let id = self.ids.as_ref().map(|ids| ids.text(kept as usize));
        RecordName { line, id }
    }
}

/// Starts a block of `filter` for `records` (`None`: one that is not
/// searched) and finds the candidates of each among the records kept
/// before it, on every core: [`Filter::candidates`], for
/// [`Filter::decide_with`].
fn search_ahead(filter: &mut Filter, records: &[Option<&Measured>]) -> Vec<Option<Ahead>> {
    let long = records
        .iter()
        .flatten()
        .any(|measured| measured.short.is_none());
    filter.begin_block(long);
    let filter = &*filter;
    let search = |part: &[Option<&Measured>]| -> Vec<_> {
        let mut scratch = JoinScratch::default();
        part.iter()
            .map(|measured| measured.and_then(|measured| filter.candidates(measured, &mut scratch)))
            .collect()
    };
    // Plain threads, not the worker pool: its workers may be waiting for
    // this thread to take the next block.
    let threads = rayon::current_num_threads().max(1);
    if threads == 1 || records.len() < SEARCH_AHEAD_MIN {
        return search(records);
    }
    std::thread::scope(|scope| {
        let parts: Vec<_> = records
            .chunks(records.len().div_ceil(threads))
            .map(|part| (part.len(), scope.spawn(move || search(part))))
            .collect();
        parts
            .into_iter()
            .flat_map(|(len, part)| {
                // A part that failed is searched again while deciding.
                part.join().unwrap_or_else(|_| vec![None; len])
            })
            .collect()
    })
}

#[cfg(test)]
mod tests;
