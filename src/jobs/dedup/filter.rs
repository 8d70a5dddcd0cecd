//! The keep-or-drop decision, one record at a time in input order, against
//! the records kept so far.
//!
//! The near-duplicate rule is the scan's (src/jobs/scan): two records with
//! the same features (the same feature digest; the same content for those
//! with fewer than `min_features` features) are near-duplicates without a
//! search. Two short texts (one line of at most 256 characters) are
//! compared by their character pairs, and every kept short text that may
//! reach the threshold is proposed by an exact join (src/verify/join/),
//! at no radius, as the scan does, until the join costs too much; then by
//! their MinHash bands (src/verify/bands.rs) while they cost little, then
//! by a join on their rarest pair beside their fingerprints within k, or
//! if told by fingerprint alone (src/jobs/dedup/short_join.rs). For any
//! other pair
//! SimHash proposes the kept records within k bits. Exact Jaccard decides.
//! Records without features are never anyone's near-duplicate: they are
//! kept, and nothing of them is held.
//!
//! A new record is dropped for the earliest kept record it is a
//! near-duplicate of; otherwise it is kept and joins the indexes.
//!
//! The feature sets of the kept records compared lately are held too, up
//! to [`SET_CACHE_MEMORY`] bytes in all (src/jobs/dedup/set_cache.rs).
//!
//! Held per kept record: its text in a spool (in memory up to
//! [`TEXT_MEMORY`] bytes in all, then in an anonymous temporary file, or,
//! for records of a regular file, where it starts in it: 8 bytes) with
//! 4 bytes of length; a digest table slot (12 bytes, at most 7/8 full); one
//! [`Index`](super::index::Index) entry by word fingerprint (12 bytes per table, k + 1 to
//! k + 4 tables: 84 to 120 bytes at k = 6); for a short text,
//! while the join lasts, 16 bytes per character pair of its join prefix
//! (about a fifth of them at 0.8, plus one; one on the rarest pair) and 56
//! more, and after the exact join a slot in each of 16 band tables (8
//! bytes, 10.8 to 16.3 with the tables' slack and counts: src/jobs/dedup/band_index.rs)
//! or, searched by fingerprint, one more
//! [`Index`](super::index::Index) entry by character-pair fingerprint; the sketch of
//! its character pairs (16 bytes, src/verify/sketch.rs), which turns
//! away most candidates that cannot reach the threshold before their
//! sets are fetched or measured again; and its name
//! (nothing for line numbers that follow each other, the id's bytes with
//! `--id-field`).

use std::borrow::Cow;
use std::io::{self, Read};

use crate::fingerprint::{Fingerprint, Fingerprinter};
use crate::input::{RecordSource, path_from_bytes};
use crate::report::Names;
use crate::verify::bands::{BandKeys, band_keys};
use crate::verify::sketch::Sketch;
use crate::verify::{Verdict, decide};

use super::super::scan::{Prefix, ShortTexts};
use super::digests::DigestMap;
use super::index::MixMap;
use super::indexes::{Indexes, Recent, SearchRadii, Space};
use super::kept_texts::KeptTexts;
use super::set_cache::{SET_CACHE_MEMORY, SetCache};
use super::short_join::{JoinBudget, Probe, ShortJoin};
use super::size_classes::Size;
use crate::verify::join::JoinScratch;

/// Bytes of kept texts held in memory before the rest goes to a file, or
/// is read from the records' own file again (tests hold a few, so the rest
/// of the way is taken too).
pub const TEXT_MEMORY: usize = if cfg!(test) { 256 } else { 32 << 20 };

/// Bytes of short texts' character pairs held, apart from the other sets
/// ([`SET_CACHE_MEMORY`]): near-copies of a line come near it, so little
/// is enough. On 7 million real lines 16, 32 or 64 MiB gave the same time,
/// where sharing the 256 MiB cost 10^7 generated addresses 260 MB more at
/// their peak for nothing.
pub const SHORT_SET_CACHE_MEMORY: usize = 32 << 20;

/// Most kept records (their numbers are `u32`).
pub const MAX_KEPT: u32 = u32::MAX - 1;

/// A record ready for the decision: its fingerprints, computed anywhere.
#[derive(Clone, Debug)]
pub struct Measured {
    /// The text the features come from (for files: the path, read again
    /// to verify).
    pub text: Vec<u8>,
    /// Its fingerprint by the features.
    pub words: Fingerprint,
    /// Its character pairs, when it is a short text and the short-text
    /// rule is on.
    pub short: Option<ShortText>,
    /// Where the record starts in its stream, when known (records of a
    /// regular file are read from it again, not spooled).
    pub place: Option<u64>,
    /// Its feature set, if measured with the fingerprint (files up to
    /// [`FILE_SET_FEATURES`] features: the worker that reads a file measures
    /// it, rather than the deciding thread reading the file again).
    pub words_set: Option<Vec<u64>>,
    /// Its distinct word features, when it is not a short text and the
    /// short-text rule is on (`Unknown` otherwise): searches between
    /// short texts and the others skip what their sizes rule out.
    pub distinct: Size,
}

impl Measured {
    /// A record's measure, its text kept with it.
    pub fn of_record(text: Vec<u8>, measures: TextMeasures) -> Measured {
        let TextMeasures {
            words,
            short,
            distinct,
            words_set,
        } = measures;
        Measured {
            text,
            words,
            short,
            place: None,
            words_set,
            distinct,
        }
    }

    /// What its size in features is known to be: a short text's feature
    /// count bounds its distinct features.
    pub fn words_size(&self) -> Size {
        match &self.short {
            Some(_) => Size::AtMost(self.words.features),
            None => self.distinct,
        }
    }
}

/// What a record's text measures ([`Measure::measure_text`]).
#[derive(Clone, Debug)]
pub struct TextMeasures {
    /// Its fingerprint by the features.
    pub words: Fingerprint,
    /// Its character pairs, when it is a short text and the short-text
    /// rule is on.
    pub short: Option<ShortText>,
    /// Its distinct features, when it is not a short text and the rule is
    /// on.
    pub distinct: Size,
    /// Its feature set, when measured to count them.
    pub words_set: Option<Vec<u64>>,
}

/// The most distinct features of a file whose feature set is measured
/// with its fingerprint (8 bytes each).
pub const FILE_SET_FEATURES: usize = 1 << 17;

/// A short text's character pairs: their fingerprint and their set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShortText {
    /// The character-pair fingerprint (searched once the join costs too
    /// much).
    pub simhash: u64,
    /// The sorted, distinct character-pair features, for the join. Empty
    /// until measured (a short text has some): a record's are measured
    /// from its text only while the join lasts, by the thread that needs
    /// them, so the blocks in flight do not hold them; a file's come with
    /// its fingerprint, as its text is not kept.
    pub set: Vec<u64>,
    /// The sketch of its character pairs: kept, it turns away most
    /// candidates that cannot reach the threshold without its set.
    pub sketch: Sketch,
    /// The MinHash band keys of its character pairs (searched once the
    /// exact join costs too much).
    pub bands: BandKeys,
}

/// What the search of a record ahead of its block found.
#[derive(Clone, Debug, Default)]
pub struct Ahead {
    /// Candidates among the records kept before the block, sorted.
    pub candidates: Vec<(u32, Space)>,
    /// Its character pairs, if they were measured for the search.
    pub set: Vec<u64>,
    /// Its feature set, if it was measured to compare candidates: the
    /// candidates kept in its block, if any, are compared with it too.
    pub words_set: Option<Vec<u64>>,
    /// Its feature set was needed (measured here, or the record's own).
    pub words_needed: bool,
    /// The candidates compared already (`None`: a kept text could not be
    /// read; the deciding thread compares them again and reports it).
    pub checked: Option<Checked>,
    /// How many times kept short texts shared a band with it.
    pub band_matches: u64,
}

/// What comparing a record with its candidates found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Checked {
    /// The earliest candidate that reaches the threshold, and their
    /// Jaccard.
    pub near: Option<(u32, f64)>,
    /// Candidates compared (up to that one).
    pub compared: u64,
}

/// How a record measures: computed on the workers.
#[derive(Clone, Debug)]
pub struct Measure {
    fingerprinter: Fingerprinter,
    short: Option<ShortTexts>,
    min_features: u64,
}

impl Measure {
    /// Measures by `fingerprinter`; `short_texts` turns on the short-text
    /// rule; records with fewer than `min_features` features are matched
    /// by content only.
    pub fn new(fingerprinter: Fingerprinter, short_texts: bool, min_features: u64) -> Measure {
        let short = short_texts.then(|| ShortTexts::new(fingerprinter.options()));
        Measure {
            fingerprinter,
            short,
            min_features,
        }
    }

    /// The fingerprinter it measures by.
    pub fn fingerprinter(&self) -> &Fingerprinter {
        &self.fingerprinter
    }

    /// Whether a record with these word features is searched by them:
    /// not empty, and not matched by content only.
    pub fn searched_by_words(&self, words: &Fingerprint) -> bool {
        words.features >= self.min_features.max(1)
    }

    /// Fingerprints one record's text.
    pub fn measure(&self, text: Vec<u8>) -> Measured {
        let measures = self.measure_text(&text, xxhash_rust::xxh3::xxh3_64(&text));
        Measured::of_record(text, measures)
    }

    /// What a record's text measures: the fingerprint of its features and,
    /// for a short text, its character pairs' fingerprint and sketch, or,
    /// while the short-text rule is on, the feature set of another and
    /// its size (measured in the same pass). `content_hash` is the text's
    /// xxh3-64.
    pub fn measure_text(&self, text: &[u8], content_hash: u64) -> TextMeasures {
        if let Some(measures) = self.measure_long(text) {
            return measures;
        }
        let words = self
            .fingerprinter
            .fingerprint_bytes_hashed(text, content_hash);
        let short = match &self.short {
            Some(short) if words.features >= self.min_features.max(1) => {
                short_text_in_flight(short, text)
            }
            _ => None,
        };
        TextMeasures {
            words,
            short,
            distinct: Size::Unknown,
            words_set: None,
        }
    }

    /// What a record gathered for a policy other than `first` needs while
    /// the input is read: its fingerprint alone. Its character pairs, or
    /// its set and size, are measured again when it is decided
    /// ([`Remeasure`]), so they are not measured now.
    pub fn measure_words(&self, text: &[u8], content_hash: u64) -> TextMeasures {
        TextMeasures {
            words: self
                .fingerprinter
                .fingerprint_bytes_hashed(text, content_hash),
            short: None,
            distinct: Size::Unknown,
            words_set: None,
        }
    }

    /// Whether a record with this text and fingerprint is measured as a
    /// short text by [`Measure::measure_text`], unless it has no character
    /// pairs: the rule is on, it has the features to be searched, and it
    /// is one short line.
    pub fn may_be_short(&self, text: &[u8], words: &Fingerprint) -> bool {
        self.short.is_some() && self.searched_by_words(words) && ShortTexts::is_short(text)
    }

    /// Fingerprints a document read from a stream (a file), which is read
    /// once: its first bytes are kept to tell whether it is a short text,
    /// and its feature set is measured on the way if it is small enough.
    /// `text` is the record's text: the file's path.
    pub fn measure_reader<R: Read>(&self, reader: R, text: Vec<u8>) -> io::Result<Measured> {
        let mut prefix = Prefix::new(reader);
        let (words, words_set) = self
            .fingerprinter
            .fingerprint_and_set_reader(&mut prefix, FILE_SET_FEATURES)?;
        let short = match (&self.short, prefix.whole()) {
            (Some(short), Some(text)) if words.features >= self.min_features.max(1) => {
                short_text(short, text)
            }
            _ => None,
        };
        let distinct = match (&self.short, &short) {
            (Some(_), None) => distinct_of(words_set.as_deref()),
            _ => Size::Unknown,
        };
        Ok(Measured {
            text,
            words,
            short,
            place: None,
            words_set,
            distinct,
        })
    }

    /// What the text of a record that is not a short text measures, while
    /// the short-text rule is on: its fingerprint, feature set and size,
    /// in one pass (`None` for a short text, or with the rule off).
    pub fn measure_long(&self, text: &[u8]) -> Option<TextMeasures> {
        if self.short.is_none() || ShortTexts::is_short(text) {
            return None;
        }
        let (words, set) = self
            .fingerprinter
            .fingerprint_and_set_reader(text, FILE_SET_FEATURES)
            .unwrap_or_else(|_| unreachable!("a buffer cannot fail to read"));
        Some(TextMeasures {
            words,
            short: None,
            distinct: distinct_of(set.as_deref()),
            words_set: set,
        })
    }
}

/// The size of a feature set measured up to [`FILE_SET_FEATURES`]
/// features (`None`: it had more).
fn distinct_of(set: Option<&[u64]>) -> Size {
    match set {
        Some(set) => Size::Exact(set.len() as u64),
        None => Size::AtLeast(FILE_SET_FEATURES as u64 + 1),
    }
}

/// The character pairs of `text`, if it is a short text with features:
/// fingerprint, set and sketch, measured in one pass.
fn short_text(short: &ShortTexts, text: &[u8]) -> Option<ShortText> {
    let (fingerprint, set) = short.fingerprint_and_set(text)?;
    Some(ShortText {
        simhash: fingerprint.simhash,
        sketch: Sketch::of(&set),
        bands: band_keys(&set),
        set,
    })
}

/// [`short_text`] without its set: blocks in flight hold only the
/// sketch, so the pairs' hashes are taken as they come, repeats and all,
/// never sorted (the sort took a tenth of measuring an address line).
fn short_text_in_flight(short: &ShortTexts, text: &[u8]) -> Option<ShortText> {
    let (fingerprint, hashes) = short.fingerprint_and_hashes(text)?;
    Some(ShortText {
        simhash: fingerprint.simhash,
        sketch: short.sketch(&fingerprint, &hashes),
        bands: band_keys(&hashes),
        set: Vec::new(),
    })
}

/// [`Filter::short_text`] by `measure`; `by_path`: texts are paths of
/// files, read again.
fn short_text_again(
    measure: &Measure,
    by_path: bool,
    text: &[u8],
) -> io::Result<Option<ShortText>> {
    let Some(short) = &measure.short else {
        return Ok(None);
    };
    if !by_path {
        return Ok(short_text(short, text));
    }
    let path = path_from_bytes(text);
    let named =
        |error: io::Error| io::Error::new(error.kind(), format!("{}: {error}", path.display()));
    let mut file = (measure.fingerprinter.options().view)
        .reopen(&path)
        .map_err(named)?;
    let mut prefix = Prefix::new(&mut file);
    io::copy(&mut prefix, &mut io::sink()).map_err(named)?;
    Ok(prefix.whole().and_then(|text| short_text(short, text)))
}

/// How a filter measures records gathered earlier ([`Filter::remeasure`]).
#[derive(Clone, Debug)]
pub struct Remeasure {
    measure: Measure,
    by_path: bool,
}

impl Remeasure {
    /// [`Filter::short_text`].
    pub fn short_text(&self, text: &[u8]) -> io::Result<Option<ShortText>> {
        short_text_again(&self.measure, self.by_path, text)
    }

    /// [`Filter::measure`].
    pub fn measure(&self) -> &Measure {
        &self.measure
    }

    /// Whether the texts are paths of files ([`Filter::reads_files`]).
    pub fn reads_files(&self) -> bool {
        self.by_path
    }

    /// The file at `path` (its bytes) measured again whole, as it was
    /// measured when read: its fingerprint, its character pairs or its
    /// set and size, from the file, never from its path.
    pub fn file(&self, path: Vec<u8>) -> io::Result<Measured> {
        let file = path_from_bytes(&path);
        let named =
            |error: io::Error| io::Error::new(error.kind(), format!("{}: {error}", file.display()));
        let reader = (self.measure.fingerprinter.options().view)
            .reopen(&file)
            .map_err(named)?;
        self.measure.measure_reader(reader, path).map_err(named)
    }
}

/// What the filter decided.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Decision {
    /// Kept, as kept record number `.0` (`None`: it has no features and is
    /// held nowhere).
    Kept(Option<u32>),
    /// A near-duplicate of kept record `kept`, with this exact Jaccard.
    Dropped {
        /// The kept record's number.
        kept: u32,
        /// Their Jaccard (1 for the same features).
        jaccard: f64,
    },
}

/// The records kept so far, indexed, and the rule.
#[derive(Debug)]
pub struct Filter {
    measure: Measure,
    threshold: f64,
    /// The radii of the searches by fingerprint.
    radii: SearchRadii,
    /// Feature digest (or content key) to the first kept record with it.
    by_digest: DigestMap,
    /// The kept records before the current block.
    main: Indexes,
    /// The records kept in the current block (see [`Filter::begin_block`]).
    recent: Indexes,
    recent_kept: Vec<Recent>,
    in_block: bool,
    /// The text of each kept record (empty for those matched by content);
    /// its path when `by_path`.
    texts: KeptTexts,
    /// The sketch of each kept record's character pairs
    /// ([`Sketch::NONE`] for the others).
    short_sketches: Vec<Sketch>,
    /// The sketch of the feature set of the kept records that are not
    /// short texts, where it was measured (records, while the short-text
    /// rule is on; files) and is small enough to have one.
    long_sketches: MixMap<Sketch>,
    /// Texts are paths of files, read again to verify.
    by_path: bool,
    kept: u32,
    /// Candidates verified.
    pub candidates: u64,
    /// The sets of kept records compared lately.
    kept_sets: SetCache,
    /// Short texts' character pairs, held apart in a smaller budget.
    kept_short_sets: SetCache,
    scratch: Vec<(u32, Space)>,
    /// The join of kept short texts.
    join: ShortJoin,
    /// The join was reindexed or given up during this block: the
    /// candidates found ahead of the block are not used.
    ahead_stale: bool,
    /// Past the exact join, short texts are found by their MinHash bands
    /// (`None`: by fingerprint, and the join on their rarest pairs).
    bands: Option<Bands>,
}

/// The search of short texts by their MinHash bands, and its budget.
#[derive(Debug)]
struct Bands {
    budget: JoinBudget,
    /// Band matches of the short texts searched by bands so far.
    matches: u64,
    /// Short texts searched by bands so far.
    searched: u64,
    /// Whether the exact join was given up for them.
    started: bool,
    /// Short texts searched (all of them) when the bands were given up
    /// for the join on the rarest pair and fingerprints.
    ended: Option<u64>,
}

/// The band matches the short texts searched by bands may make, plus
/// [`BANDS_MATCHES_PER_SHORT_TEXT`] each, before short texts are searched
/// by a join on their rarest pair and by fingerprint within k instead
/// (`Filter::bands_to_rarest`). Each match costs a look at a sketch
/// (a cache miss), and where lines crowd (one log format: pairs at
/// Jaccard 0.6 share a band with chance 0.24) matches grow with the
/// square of the stream: 3·10^5 generated log lines took 127 s and
/// 1.2 GB by bands, 19 s by fingerprint. 10^6 generated address lines
/// make about 20 a text. Counted in input order, over every kept text
/// before each one, so the switch does not depend on the blocks.
pub const BANDS_BASE_MATCHES: u64 = 1 << 24;

/// See [`BANDS_BASE_MATCHES`].
pub const BANDS_MATCHES_PER_SHORT_TEXT: u64 = 200;

/// The budget of the bands: [`BANDS_BASE_MATCHES`] and
/// [`BANDS_MATCHES_PER_SHORT_TEXT`].
pub const BANDS_BUDGET: JoinBudget = JoinBudget {
    base: BANDS_BASE_MATCHES,
    per_short_text: BANDS_MATCHES_PER_SHORT_TEXT,
};

impl Filter {
    /// An empty filter: near-duplicates have Jaccard at least `threshold`
    /// and fingerprints within `radii` (by words, between records that are
    /// not short texts and between a short text and another; by character
    /// pairs, between two short texts once their join is given up).
    pub fn new(measure: Measure, threshold: f64, radii: SearchRadii) -> Filter {
        Filter {
            measure,
            threshold,
            radii,
            by_digest: DigestMap::default(),
            main: Indexes::new(radii, threshold),
            recent: Indexes::new(radii, threshold),
            recent_kept: Vec::new(),
            in_block: false,
            texts: KeptTexts::Spooled(Names::with_budget(TEXT_MEMORY)),
            short_sketches: Vec::new(),
            long_sketches: MixMap::default(),
            by_path: false,
            kept: 0,
            candidates: 0,
            kept_sets: SetCache::new(SET_CACHE_MEMORY),
            kept_short_sets: SetCache::new(SHORT_SET_CACHE_MEMORY),
            scratch: Vec::new(),
            join: ShortJoin::new(threshold, JoinBudget::default()),
            ahead_stale: false,
            bands: None,
        }
    }

    /// Once the exact join costs too much, short texts are found by their
    /// MinHash bands (src/verify/bands.rs), not by fingerprint, until
    /// their matches pass `budget`.
    pub fn with_bands_past_join(mut self, budget: JoinBudget) -> Filter {
        self.bands = Some(Bands {
            budget,
            matches: 0,
            searched: 0,
            started: false,
            ended: None,
        });
        self
    }

    /// Finds short texts by their MinHash bands from the start, without
    /// the join (with [`Filter::with_bands_past_join`], before any record).
    pub fn find_short_texts_by_bands_at_once(&mut self) {
        debug_assert_eq!(self.kept, 0, "before any record");
        self.join.stop();
        if let Some(bands) = &mut self.bands {
            bands.started = true;
        }
        self.main.find_short_texts_by_bands([]);
        self.restart_recent();
    }

    /// Whether short texts are found by their MinHash bands now.
    pub fn finding_short_texts_by_bands(&self) -> bool {
        self.short_texts_past_join_by_bands() && self.short_texts_bands_ended().is_none()
    }

    /// Whether short texts were found by their MinHash bands once the
    /// exact join was given up (they may have been given up since).
    pub fn short_texts_past_join_by_bands(&self) -> bool {
        self.bands.as_ref().is_some_and(|bands| bands.started)
    }

    /// Short texts searched when their search by bands was given up for
    /// fingerprints, if it was.
    pub fn short_texts_bands_ended(&self) -> Option<u64> {
        self.bands.as_ref().and_then(|bands| bands.ended)
    }

    /// Gives up the bands (their matches passed their budget): kept short
    /// texts are found by a join on their rarest character pair and by
    /// fingerprint from now on (the last stage of the join,
    /// src/jobs/dedup/short_join.rs), each measured again. Where lines
    /// crowd so that the bands pass their budget, near-copies still share
    /// their rarest pairs: on 3·10^5 generated log lines, fingerprints
    /// alone past the bands dropped 45,409, with the rarest pair too
    /// 48,902. The records kept in the block join the main indexes first.
    fn bands_to_rarest(&mut self) -> io::Result<()> {
        self.recent_to_main();
        self.join.resume_on_rarest();
        for number in 0..self.kept {
            if self.short_sketches[number as usize] == Sketch::NONE {
                continue;
            }
            let text = self.texts.get(number as usize)?;
            if let Some(short) = self.short_text(&text)? {
                self.join.learn(short.simhash, &short.set, number);
            }
        }
        if let Some(bands) = &mut self.bands {
            bands.ended = Some(self.join.searched().0);
        }
        let (texts, measure, by_path) = (&self.texts, &self.measure, self.by_path);
        let postings = self.join.reindex(|number| {
            let text = texts.get(number as usize)?;
            feature_set(measure, by_path, &text, Space::Chars)
        })?;
        self.main
            .join_short_texts_beside_fingerprints(postings, self.join.kept());
        self.restart_recent();
        Ok(())
    }

    /// The join of short texts may read this many postings.
    pub fn with_join_budget(mut self, budget: JoinBudget) -> Filter {
        self.join = ShortJoin::new(self.threshold, budget);
        self
    }

    /// Short texts searched, and how many had been when each stage of
    /// the join ended (src/jobs/dedup/short_join.rs, `STAGE_CAPS`).
    pub fn short_texts_searched(&self) -> (u64, &[u64]) {
        self.join.searched()
    }

    /// Whether kept short texts are still found by the exact join (not
    /// yet by fingerprint: see [`JOIN_BASE_POSTINGS`](super::short_join::JOIN_BASE_POSTINGS)).
    pub fn joining(&self) -> bool {
        self.join.joining()
    }

    /// Gives up the join: kept short texts are found by fingerprint from
    /// now on. The records kept in the block join the main indexes first.
    pub fn stop_joining(&mut self) {
        self.recent_to_main();
        let kept = self.join.stop();
        self.main.find_short_texts_by_fingerprint(&kept);
        self.restart_recent();
    }

    /// The records kept in the block join the main indexes (before the
    /// way short texts are found changes).
    fn recent_to_main(&mut self) {
        // How many records ahead are brought into cache: enough for their
        // misses to overlap, few enough to stay in it.
        const AHEAD: usize = 8;
        for (at, recent) in self.recent_kept.iter().enumerate() {
            if let Some(ahead) = self.recent_kept.get(at + AHEAD) {
                self.main.prefetch(ahead);
            }
            recent.add_to(&mut self.main, &self.join.order);
        }
        self.recent_kept.clear();
    }

    /// The block's own indexes start again, finding short texts as the
    /// filter now does; the candidates found ahead of the block are not
    /// used (they were found the old way).
    fn restart_recent(&mut self) {
        self.recent = self.empty_indexes();
        self.ahead_stale = self.in_block;
    }

    /// Ends the join's stage, its budget spent: on to shorter prefixes
    /// (every kept short text indexed again), or after the last to
    /// fingerprints.
    fn end_join_stage(&mut self) -> io::Result<()> {
        if self.bands.as_ref().is_some_and(|bands| !bands.started) {
            return self.join_to_bands();
        }
        if !self.join.next_stage() {
            self.stop_joining();
            return Ok(());
        }
        self.reorder_join()?;
        // The join on the rarest pairs misses some pairs the fingerprints
        // find (on 10^5 generated addresses it alone found fewer than
        // k = 8 did), so both propose candidates.
        self.main
            .find_short_texts_by_fingerprint_too(self.join.kept());
        Ok(())
    }

    /// Gives up the join for MinHash bands: every kept short text is
    /// measured again and indexed by its band keys. The records kept in
    /// the block join the main indexes first.
    fn join_to_bands(&mut self) -> io::Result<()> {
        self.recent_to_main();
        let kept = self.join.stop();
        if let Some(bands) = &mut self.bands {
            bands.started = true;
        }
        let (texts, measure, by_path) = (&self.texts, &self.measure, self.by_path);
        let mut bands = Vec::with_capacity(kept.len());
        for &(_, number) in &kept {
            let text = texts.get(number as usize)?;
            let set = feature_set(measure, by_path, &text, Space::Chars)?;
            bands.push((band_keys(&set), number));
        }
        self.main.find_short_texts_by_bands(bands);
        self.restart_recent();
        Ok(())
    }

    /// Rebuilds the join's order by rarity and indexes every kept short
    /// text again in it (measured again from its text). The records kept
    /// in the block join the main indexes first.
    fn reorder_join(&mut self) -> io::Result<()> {
        self.recent_to_main();
        self.restart_recent();
        let (texts, measure, by_path) = (&self.texts, &self.measure, self.by_path);
        let postings = self.join.reindex(|number| {
            let text = texts.get(number as usize)?;
            feature_set(measure, by_path, &text, Space::Chars)
        })?;
        self.main.join_short_texts(postings);
        Ok(())
    }

    /// Indexes with nothing kept, finding short texts as the filter does.
    fn empty_indexes(&self) -> Indexes {
        let mut indexes = Indexes::new(self.radii, self.threshold);
        if self.finding_short_texts_by_bands() {
            indexes.find_short_texts_by_bands([]);
        } else if !self.join.joining() {
            indexes.find_short_texts_by_fingerprint(&[]);
        } else if !self.join.exact() {
            indexes.find_short_texts_by_fingerprint_too(&[]);
        }
        indexes
    }

    /// The texts of records are paths of files: verification reads them
    /// again, and a kept record's path is kept even when it is matched by
    /// content.
    pub fn reading_files(mut self) -> Filter {
        self.by_path = true;
        self
    }

    /// Whether its texts are paths of files ([`Filter::reading_files`]).
    pub fn reads_files(&self) -> bool {
        self.by_path
    }

    /// The records come from `source`, a regular file: a kept record's
    /// text is read from it again (by its [`Measured::place`]), not
    /// spooled. Before any record is kept.
    pub(crate) fn read_records_from(&mut self, source: RecordSource) {
        debug_assert_eq!(self.kept, 0, "the texts kept so far would be lost");
        self.texts = KeptTexts::placed(source, TEXT_MEMORY);
    }

    /// The character-pair features of a record gathered earlier (its text,
    /// or the path of its file), if it is a short text and the rule is on.
    pub fn short_text(&self, text: &[u8]) -> io::Result<Option<ShortText>> {
        short_text_again(&self.measure, self.by_path, text)
    }

    /// How it measures records gathered earlier, to measure them apart
    /// from it (on other threads while it decides).
    pub fn remeasure(&self) -> Remeasure {
        Remeasure {
            measure: self.measure.clone(),
            by_path: self.by_path,
        }
    }

    /// Searches within `radii` from now on, each if narrower. Between
    /// blocks only: the candidates found ahead of a block were found
    /// within the radii of its start.
    pub fn narrow(&mut self, radii: SearchRadii) {
        debug_assert!(!self.in_block, "narrowed inside a block");
        self.radii = SearchRadii {
            words: self.radii.words.min(radii.words),
            mixed: self.radii.mixed.min(radii.mixed),
            chars: self.radii.chars.min(radii.chars),
        };
        self.main.narrow(radii);
        self.recent.narrow(radii);
    }

    /// The text (or path) of kept record `kept`.
    pub fn kept_text(&self, kept: u32) -> io::Result<Cow<'_, [u8]>> {
        self.texts.get(kept as usize)
    }

    /// How records are measured.
    pub fn measure(&self) -> &Measure {
        &self.measure
    }

    /// Records kept and held (those without features aside).
    pub fn kept(&self) -> u32 {
        self.kept
    }

    /// Bytes held per kept record in the search index, maps aside.
    pub fn index_bytes_per_record(&self) -> usize {
        self.main.bytes_per_entry()
    }

    /// Starts a block of records to decide with candidates found ahead of
    /// time by [`Filter::candidates`], on any thread: the records kept
    /// from now on go to a small index of their own, searched besides the
    /// precomputed candidates, until [`Filter::end_block`]. `long`: some
    /// record of the block is not a short text.
    pub fn begin_block(&mut self, long: bool) {
        self.end_block();
        if long {
            self.main.build_short_words();
            self.recent.build_short_words();
        }
        self.in_block = true;
    }

    /// Ends a block: its kept records join the main indexes.
    pub fn end_block(&mut self) {
        self.recent_to_main();
        if self.in_block {
            self.recent = self.empty_indexes();
            self.in_block = false;
        }
        self.ahead_stale = false;
    }

    /// The candidates of `record` among the records kept before the
    /// current block, sorted, for [`Filter::decide_with`]; `None` when
    /// none are needed (no features, or the same features as a kept
    /// record). Read-only: many records at once, on any threads, each
    /// with its own `scratch`.
    pub fn candidates(&self, record: &Measured, scratch: &mut JoinScratch) -> Option<Ahead> {
        let words = &record.words;
        if !self.measure.searched_by_words(words) || self.by_digest.contains(digest_key(record)) {
            return None;
        }
        let set = self.join_set(record);
        let mut candidates = Vec::new();
        let probe = self.join.probe(&set);
        let band_matches = self.main.query(record, &probe, scratch, &mut candidates);
        self.turn_away_by_sketch(record, &mut candidates);
        candidates.sort_unstable();
        candidates.dedup();
        let mut words_set = None;
        let (near, compared) = self.first_near(record, &set, &mut words_set, &candidates);
        let words_needed = words_set.is_some();
        // One measured here goes on with the record; its own stays with it.
        let words_set = match words_set {
            Some(Cow::Owned(set)) => Some(set),
            _ => None,
        };
        let checked = near.ok().map(|near| Checked { near, compared });
        let set = match set {
            Cow::Owned(set) => set,
            Cow::Borrowed(_) => Vec::new(),
        };
        Some(Ahead {
            candidates,
            set,
            words_set,
            words_needed,
            checked,
            band_matches,
        })
    }

    /// The character pairs the join needs of `record`: none when it is
    /// not a short text or the join was given up.
    fn join_set<'a>(&self, record: &'a Measured) -> Cow<'a, [u64]> {
        match (&record.short, &self.measure.short) {
            (Some(short), _) if !short.set.is_empty() => Cow::Borrowed(&short.set),
            (Some(_), Some(measure)) if self.join.joining() => {
                Cow::Owned(measure.feature_set(&record.text))
            }
            _ => Cow::Borrowed(&[]),
        }
    }

    /// Decides one record, in input order; a kept record joins the filter.
    /// Fails when a kept text cannot be written or read back, or when
    /// more than [`MAX_KEPT`] records were kept.
    pub fn decide(&mut self, record: &Measured) -> io::Result<Decision> {
        self.decide_with(record, None)
    }

    /// [`Filter::decide`] with the candidates [`Filter::candidates`] found
    /// among the records kept before the block (`None`: search them now).
    pub fn decide_with(&mut self, record: &Measured, found: Option<Ahead>) -> io::Result<Decision> {
        let words = &record.words;
        if words.features == 0 {
            return Ok(Decision::Kept(None));
        }
        let exact_only = words.features < self.measure.min_features;
        let key = if exact_only {
            content_key(words.content_hash)
        } else {
            digest_key(record)
        };
        if let Some(kept) = self.by_digest.get(key) {
            return Ok(Decision::Dropped { kept, jaccard: 1.0 });
        }
        // The character pairs: measured ahead, with the record, or now.
        let (found, ahead_set) = match found {
            Some(mut ahead) => {
                let set = std::mem::take(&mut ahead.set);
                (Some(ahead), set)
            }
            None => (None, Vec::new()),
        };
        let mut set = if ahead_set.is_empty() {
            self.join_set(record)
        } else {
            Cow::Owned(ahead_set)
        };
        let mut probe = self.join.probe(&set);
        if !exact_only && record.short.is_some() && self.join.search(&probe) {
            self.end_join_stage()?;
            probe = self.join.probe(&set);
        }
        let by_bands = !exact_only && record.short.is_some() && self.finding_short_texts_by_bands();
        if by_bands
            && let Some(bands) = &self.bands
            && bands.budget.passed(bands.matches, bands.searched)
        {
            self.bands_to_rarest()?;
            // Measured while the join was given up, the set is empty: the
            // join needs it to probe and to learn the text if kept.
            if set.is_empty() {
                set = self.join_set(record);
            }
            probe = self.join.probe(&set);
        }
        let mut words_set = None;
        let (searched, band_matches) = if exact_only {
            (None, 0)
        } else {
            self.search(record, &probe, found, &mut words_set)?
        };
        if by_bands
            && self.finding_short_texts_by_bands()
            && let Some(bands) = &mut self.bands
        {
            bands.searched += 1;
            bands.matches = bands.matches.saturating_add(band_matches);
        }
        if let Some((kept, jaccard)) = searched {
            return Ok(Decision::Dropped { kept, jaccard });
        }
        let number = self.keep(record, &set, key, exact_only)?;
        // A record compared with candidates is likely in a cluster of
        // near-copies: its feature set, which comparing it needed, will be
        // needed again (a file is not read again). One that met none is
        // not held: most records of a large input meet none.
        if let (Some(number), Some(words_set)) = (number, words_set) {
            self.kept_sets.hold(
                u64::from(number) << 1 | Space::Words as u64,
                words_set.into_owned(),
            );
        }
        Ok(Decision::Kept(number))
    }

    /// The earliest kept record within k that reaches the threshold;
    /// `found`: the candidates among the records kept before the block,
    /// and what comparing them found, if they were searched ahead;
    /// `words_set`: the record's feature set, set if it was needed. With
    /// it, how many times kept short texts shared a band with the record
    /// (with every one, whichever was found first: the count of the
    /// bands' budget must not depend on the blocks).
    fn search<'r>(
        &mut self,
        record: &'r Measured,
        probe: &Probe<'_>,
        found: Option<Ahead>,
        words_set: &mut Option<Cow<'r, [u64]>>,
    ) -> io::Result<(Option<(u32, f64)>, u64)> {
        let mut candidates = std::mem::take(&mut self.scratch);
        candidates.clear();
        let band_matches = match found {
            Some(Ahead {
                checked: Some(checked),
                words_set: measured,
                words_needed,
                band_matches,
                ..
            }) if !self.ahead_stale => {
                *words_set = own_words_set(record, measured, words_needed);
                self.candidates += checked.compared;
                if checked.near.is_some() {
                    self.scratch = candidates;
                    let recent = if self.in_block {
                        self.recent.band_matches(record)
                    } else {
                        0
                    };
                    return Ok((checked.near, band_matches + recent));
                }
                // None before the block: those kept in it may be.
                band_matches
            }
            Some(ahead) if !self.ahead_stale => {
                candidates.extend(ahead.candidates);
                *words_set = own_words_set(record, ahead.words_set, ahead.words_needed);
                ahead.band_matches
            }
            _ => {
                if record.short.is_none() {
                    self.main.build_short_words();
                }
                let scratch = &mut self.join.scratch;
                self.main.query(record, probe, scratch, &mut candidates)
            }
        };
        let mut recent_matches = 0;
        if self.in_block {
            if record.short.is_none() {
                self.recent.build_short_words();
            }
            let scratch = &mut self.join.scratch;
            recent_matches = self.recent.query(record, probe, scratch, &mut candidates);
        }
        self.turn_away_by_sketch(record, &mut candidates);
        candidates.sort_unstable();
        candidates.dedup();
        let (answer, compared) = self.first_near(record, probe.set, words_set, &candidates);
        self.candidates += compared;
        self.scratch = candidates;
        Ok((answer?, band_matches + recent_matches))
    }

    /// Drops the candidates whose sketch shows they cannot reach the
    /// threshold, so they cost neither a set nor a merge: by character
    /// pairs, most of them where lines crowd (one log format); by words,
    /// between records that are not short texts, most of them where
    /// paragraphs of one kind crowd (on real lines, 1.9·10^6 candidates
    /// within k = 20 of 16,000 long lines).
    fn turn_away_by_sketch(&self, record: &Measured, candidates: &mut Vec<(u32, Space)>) {
        match (&record.short, &record.words_set) {
            (Some(short), _) => candidates.retain(|&(kept, space)| {
                space != Space::Chars
                    || short
                        .sketch
                        .may_reach(&self.short_sketches[kept as usize], self.threshold)
            }),
            (None, Some(set)) if !self.long_sketches.is_empty() => {
                let ours = Sketch::of(set);
                candidates.retain(|&(kept, space)| {
                    space != Space::Words
                        || self
                            .long_sketches
                            .get(&u64::from(kept))
                            .is_none_or(|theirs| ours.may_reach(theirs, self.threshold))
                });
            }
            _ => {}
        }
    }

    /// Compares `record` with `candidates` (kept records, sorted) in turn
    /// until one reaches the threshold; `chars`: its character pairs, if
    /// measured; `words`: its feature set, set when first needed (the
    /// record's own, or measured here) unless given. Read-only, so the
    /// candidates of a block are compared on every core; returns the
    /// candidates compared too.
    fn first_near<'r>(
        &self,
        record: &'r Measured,
        chars: &[u64],
        words: &mut Option<Cow<'r, [u64]>>,
        candidates: &[(u32, Space)],
    ) -> (io::Result<Option<(u32, f64)>>, u64) {
        let mut chars_measured: Option<Cow<'r, [u64]>> = None;
        let mut compared = 0;
        for &(kept, space) in candidates {
            compared += 1;
            let own = match space {
                Space::Chars if !chars.is_empty() => None,
                Space::Chars => Some(&mut chars_measured),
                Space::Words => Some(&mut *words),
            };
            if let Some(own @ None) = own {
                let measured = match (space, &record.words_set) {
                    (Space::Words, Some(set)) => Ok(Cow::Borrowed(&set[..])),
                    _ => feature_set(&self.measure, self.by_path, &record.text, space)
                        .map(Cow::Owned),
                };
                match measured {
                    Ok(set) => *own = Some(set),
                    Err(error) => return (Err(error), compared),
                }
            }
            let ours = match space {
                Space::Chars if !chars.is_empty() => chars,
                Space::Chars => chars_measured.as_deref().unwrap_or_default(),
                Space::Words => words.as_deref().unwrap_or_default(),
            };
            let (texts, measure, by_path) = (&self.texts, &self.measure, self.by_path);
            let measure_kept = || {
                texts
                    .get(kept as usize)
                    .and_then(|text| feature_set(measure, by_path, &text, space))
            };
            // A short text is measured again in a few microseconds, and is
            // often met once only (generated addresses), so it is held from
            // its second time; on real lines, met three times each, holding
            // them halves the time.
            let theirs = match space {
                Space::Chars if !by_path => self
                    .kept_short_sets
                    .get_or_make_once_met(u64::from(kept), measure_kept),
                _ => self
                    .kept_sets
                    .get_or_make(u64::from(kept) << 1 | space as u64, measure_kept),
            };
            let theirs = match theirs {
                Ok(set) => set,
                Err(error) => return (Err(error), compared),
            };
            if let Verdict::Near(jaccard) = decide(ours, &theirs, self.threshold) {
                return (Ok(Some((kept, jaccard))), compared);
            }
        }
        (Ok(None), compared)
    }

    /// Holds a kept record.
    fn keep(
        &mut self,
        record: &Measured,
        set: &[u64],
        key: u64,
        exact_only: bool,
    ) -> io::Result<Option<u32>> {
        let number = self.kept;
        if number >= MAX_KEPT {
            return Err(io::Error::other(format!(
                "more than {MAX_KEPT} records kept: the rest cannot be decided"
            )));
        }
        if exact_only {
            self.texts.push(&[], None)?;
        } else {
            self.texts.push(&record.text, record.place)?;
        }
        self.by_digest.insert(key, number);
        self.short_sketches.push(match &record.short {
            Some(short) if !exact_only => short.sketch,
            _ => Sketch::NONE,
        });
        if let (None, Some(set), false) = (&record.short, &record.words_set, exact_only) {
            let sketch = Sketch::of(set);
            if sketch != Sketch::NONE {
                self.long_sketches.insert(u64::from(number), sketch);
            }
        }
        if !exact_only {
            let reorder = match &record.short {
                Some(short) => self.join.keep(short.simhash, set, number),
                None => false,
            };
            if self.in_block {
                self.recent.insert(record, set, &self.join.order, number);
                self.recent_kept.push(Recent::of(record, set, number));
            } else {
                self.main.insert(record, set, &self.join.order, number);
            }
            if reorder {
                self.reorder_join()?;
            }
        }
        self.kept += 1;
        Ok(Some(number))
    }
}

/// A record's feature set as its search ahead left it: measured there,
/// or its own if that was needed, or none.
fn own_words_set(
    record: &Measured,
    measured: Option<Vec<u64>>,
    needed: bool,
) -> Option<Cow<'_, [u64]>> {
    match measured {
        Some(set) => Some(Cow::Owned(set)),
        None if needed => record.words_set.as_deref().map(Cow::Borrowed),
        None => None,
    }
}

/// The feature set of a text, or of the file it names (`by_path`), as
/// `measure` measures it in `space`.
fn feature_set(
    measure: &Measure,
    by_path: bool,
    text: &[u8],
    space: Space,
) -> io::Result<Vec<u64>> {
    let read = |reader: &mut dyn Read| match (space, &measure.short) {
        (Space::Chars, Some(short)) => short.feature_set_reader(reader),
        _ => measure.fingerprinter.feature_set_reader(reader),
    };
    if by_path {
        let path = path_from_bytes(text);
        // The same text the file was fingerprinted from.
        let view = &measure.fingerprinter.options().view;
        let mut file = view.reopen(&path).map_err(|error| {
            io::Error::new(error.kind(), format!("{}: {error}", path.display()))
        })?;
        read(&mut file)
    } else {
        read(&mut &text[..])
    }
}

/// Keys of records matched by raw content never meet the feature digests
/// of the others (the scan's rule).
fn content_key(content_hash: u64) -> u64 {
    content_hash ^ 0x5407_7e4c_0a7e_17ed
}

/// The key of a record searched by its features: its feature digest, set
/// apart for a short text. A short text and a longer one with the same
/// word features are at Jaccard 1 by words, but the short one may also be
/// near an earlier short text by character pairs, which the scan then
/// finds first: so it is searched, not dropped at once for the long one.
fn digest_key(record: &Measured) -> u64 {
    let digest = record.words.feature_digest;
    if record.short.is_some() {
        digest ^ 0x2b7e_1516_28ae_d2a6
    } else {
        digest
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fingerprint::FeatureOptions;
    use crate::jobs::dedup::short_join::{FIRST_REORDER, STAGE_CAPS};

    fn filter(threshold: f64, k: u32) -> Filter {
        let measure = Measure::new(Fingerprinter::new(FeatureOptions::default()), true, 1);
        Filter::new(measure, threshold, SearchRadii::all(k))
    }

    fn run(filter: &mut Filter, text: &str) -> Decision {
        let measured = filter.measure().measure(text.as_bytes().to_vec());
        filter.decide(&measured).unwrap()
    }

    proptest::proptest! {
        /// A record measured in flight has the character pairs' measures of
        /// the sorted set, from hashes taken in any order with repeats.
        #[test]
        fn short_texts_measured_in_flight_match_their_sorted_set(
            text in "([ab ]{0,6}|[a-z0-9 ,.]{0,40}|.{0,80})",
        ) {
            let short = ShortTexts::new(&FeatureOptions::default());
            let in_flight = short_text_in_flight(&short, text.as_bytes());
            let sorted = short_text(&short, text.as_bytes()).map(|short| ShortText {
                set: Vec::new(),
                ..short
            });
            proptest::prop_assert_eq!(in_flight, sorted);
        }
    }

    proptest::proptest! {
        /// A gathered record is taken for a short text exactly when
        /// measuring it would find one.
        #[test]
        fn what_may_be_short_is_measured_short(
            text in "([ab !]{0,6}|[a-z0-9 ,.!]{0,40}|.{0,80}|[a-z \n]{250,270})",
            min_features in 1u64..4,
        ) {
            let measure =
                Measure::new(Fingerprinter::new(FeatureOptions::default()), true, min_features);
            let bytes = text.as_bytes();
            let hash = xxhash_rust::xxh3::xxh3_64(bytes);
            let words = measure.measure_words(bytes, hash).words;
            let measured = measure.measure_text(bytes, hash);
            proptest::prop_assert_eq!(words, measured.words);
            proptest::prop_assert_eq!(
                measure.may_be_short(bytes, &words),
                measured.short.is_some()
            );
        }
    }

    #[test]
    fn long_records_that_cannot_reach_the_threshold_are_turned_away_by_sketch() {
        // Every pair is within 64 bits: a candidate.
        let mut filter = filter(0.8, 64);
        let words = |from: usize, to: usize| -> String {
            (from..to).map(|i| format!("word{i} ")).collect()
        };
        // Lines of 60 words (over 256 characters: no short texts).
        assert_eq!(run(&mut filter, &words(0, 60)), Decision::Kept(Some(0)));
        let measured = filter.measure().measure(words(100, 160).into_bytes());
        assert!(measured.short.is_none() && measured.words_set.is_some());
        assert_eq!(filter.decide(&measured).unwrap(), Decision::Kept(Some(1)));
        assert_eq!(filter.candidates, 0, "no feature in common: turned away");
        // A near-copy is still compared, and found.
        match run(&mut filter, &(words(0, 59) + "other")) {
            Decision::Dropped { kept: 0, jaccard } => assert!(jaccard >= 0.8),
            other => panic!("{other:?}"),
        }
        assert!(filter.candidates >= 1);
    }

    #[test]
    fn the_same_features_are_dropped_without_a_search() {
        let mut filter = filter(0.8, 0);
        assert_eq!(run(&mut filter, "One Stop Bakery"), Decision::Kept(Some(0)));
        assert_eq!(
            run(&mut filter, "one stop   BAKERY!"),
            Decision::Dropped {
                kept: 0,
                jaccard: 1.0
            }
        );
        assert_eq!(filter.candidates, 0);
        assert_eq!(filter.kept(), 1);
    }

    #[test]
    fn a_kept_files_set_is_held_and_the_file_not_read_again() {
        let words =
            |from: usize, to: usize| -> String { (from..to).map(|i| format!("w{i} ")).collect() };
        // The set measured by the worker with the fingerprint, or (a file
        // past FILE_SET_FEATURES) by the deciding thread.
        for with_fingerprint in [true, false] {
            let dir = tempfile::tempdir().unwrap();
            let measure = Measure::new(Fingerprinter::new(FeatureOptions::default()), false, 1);
            let mut filter = Filter::new(measure, 0.8, SearchRadii::all(32)).reading_files();
            let decide = |filter: &mut Filter, name: &str, text: String| {
                let path = dir.path().join(name);
                std::fs::write(&path, text).unwrap();
                let file = std::fs::File::open(&path).unwrap();
                let text = path.clone().into_os_string().into_encoded_bytes();
                let mut measured = filter.measure().measure_reader(file, text).unwrap();
                assert!(measured.words_set.is_some());
                if !with_fingerprint {
                    measured.words_set = None;
                }
                let decision = filter.decide(&measured);
                (path, decision.map_err(|error| error.to_string()))
            };
            // b is close to a, but not a near-copy (Jaccard 42 / 54: a
            // candidate their sketches do not turn away); c is a near
            // copy of b, whose file is gone by then.
            let a = decide(&mut filter, "a", words(0, 50)).1;
            assert_eq!(a, Ok(Decision::Kept(Some(0))));
            let (b, kept) = decide(&mut filter, "b", words(0, 44) + &words(100, 106));
            assert_eq!(kept, Ok(Decision::Kept(Some(1))));
            assert!(filter.candidates >= 1, "b was compared with a");
            std::fs::remove_file(b).unwrap();
            let (_, dropped) = decide(&mut filter, "c", words(0, 44) + &words(100, 106) + "other");
            match dropped {
                Ok(Decision::Dropped { kept: 1, jaccard }) => assert!(jaccard >= 0.8, "{jaccard}"),
                other => panic!("{with_fingerprint}: {other:?}"),
            }
        }
    }

    #[test]
    fn texts_without_features_are_kept_and_not_held() {
        let mut filter = filter(0.8, 8);
        assert_eq!(run(&mut filter, ""), Decision::Kept(None));
        assert_eq!(run(&mut filter, "  !! "), Decision::Kept(None));
        assert_eq!(run(&mut filter, ""), Decision::Kept(None));
        assert_eq!(filter.kept(), 0);
    }

    #[test]
    fn crowded_short_texts_that_fall_short_are_turned_away_by_their_sketch() {
        // Lines of one log format: every kept line is within k of the
        // next, and none reaches the threshold.
        let mut filter = filter(0.8, 64);
        filter.stop_joining();
        let lines: Vec<String> = (0..40u64)
            .map(|n| {
                let x = n.wrapping_mul(0x9e37_79b9_7f4a_7c15);
                format!(
                    "2026-11-{:02}T{:02}:{:02}:{:02}.{:03}Z INFO GET /items/{} {}ms user={}",
                    x % 28,
                    (x >> 8) % 24,
                    (x >> 16) % 60,
                    (x >> 24) % 60,
                    (x >> 32) % 1000,
                    (x >> 40) % 99991,
                    (x >> 20) % 5000,
                    (x >> 44) % 999_983,
                )
            })
            .collect();
        for (number, line) in (0..).zip(&lines) {
            assert_eq!(
                run(&mut filter, line),
                Decision::Kept(Some(number)),
                "{line}"
            );
        }
        // 780 pairs were candidates; few needed their sets compared.
        assert!(
            filter.candidates < 780 / 4,
            "{} compared",
            filter.candidates
        );
        // A near-copy is still found.
        let near = lines[7].replacen("INFO", "INFO ", 1);
        assert!(matches!(
            run(&mut filter, &near),
            Decision::Dropped { kept: 7, .. }
        ));
    }

    #[test]
    fn short_texts_are_compared_by_character_pairs() {
        let mut filter = filter(0.8, 32);
        let first = "One Stop Bakery, 1304 High St Rd, Wantirna, VIC, 3152";
        let near = "One Stop Bakery, 1304 High Street Rd, Wantirna South, VIC, 3152";
        let other = "Burra Hotel, 5 Market Sq, Burra, SA, 5417";
        assert_eq!(run(&mut filter, first), Decision::Kept(Some(0)));
        match run(&mut filter, near) {
            Decision::Dropped { kept: 0, jaccard } => assert!(jaccard >= 0.8, "{jaccard}"),
            other => panic!("{other:?}"),
        }
        assert_eq!(run(&mut filter, other), Decision::Kept(Some(1)));
    }

    #[test]
    fn short_texts_are_joined_at_any_distance_until_the_exact_join_costs_too_much() {
        let first = "One Stop Bakery, 1304 High St Rd, Wantirna, VIC, 3152";
        let near = "One Stop Bakery, 1304 High Street Rd, Wantirna South, VIC, 3152";
        // Joined: found at k = 0, though their fingerprints differ.
        let mut joined = filter(0.8, 0);
        assert_eq!(run(&mut joined, first), Decision::Kept(Some(0)));
        assert!(matches!(
            run(&mut joined, near),
            Decision::Dropped { kept: 0, .. }
        ));
        assert!(joined.joining());
        assert_eq!(joined.short_texts_searched(), (2, &[][..]));
        // With no postings to spare, the second probe ends the exact
        // stage: the kept texts are indexed again by their rarest pair,
        // which a copy with more pairs holds.
        let longer = "One Stop Bakery, 1304 High St Rd, Wantirna, VIC, 3152 AU";
        let none = JoinBudget {
            base: 0,
            per_short_text: 0,
        };
        let mut limited = filter(0.8, 0).with_join_budget(none);
        assert_eq!(run(&mut limited, first), Decision::Kept(Some(0)));
        assert!(matches!(
            run(&mut limited, longer),
            Decision::Dropped { kept: 0, .. }
        ));
        assert!(limited.joining());
        assert_eq!(limited.join.order.cap(), STAGE_CAPS[1]);
        assert_eq!(limited.short_texts_searched(), (2, &[2][..]));
    }

    #[test]
    fn each_stage_of_the_join_finds_near_copies_kept_before_it() {
        let first = "One Stop Bakery, 1304 High St Rd, Wantirna, VIC, 3152";
        let near = "One Stop Bakery, 1304 High Street Rd, Wantirna South, VIC, 3152";
        let longer = "One Stop Bakery, 1304 High St Rd, Wantirna, VIC, 3152 AU";
        let mut filter = filter(0.8, 0);
        assert_eq!(run(&mut filter, first), Decision::Kept(Some(0)));
        assert_eq!(filter.join.order.cap(), usize::MAX);
        // The rarest pair: a copy with more pairs holds it.
        filter.end_join_stage().unwrap();
        assert_eq!(filter.join.order.cap(), 1);
        assert!(matches!(
            run(&mut filter, longer),
            Decision::Dropped { kept: 0, .. }
        ));
        // Past the last stage, short texts are found within k = 0 only,
        // where the near-copy is not.
        filter.end_join_stage().unwrap();
        assert!(!filter.joining());
        assert_eq!(filter.short_texts_searched(), (2, &[1, 2][..]));
        assert_eq!(run(&mut filter, near), Decision::Kept(Some(1)));
        assert!(matches!(
            run(&mut filter, first),
            Decision::Dropped { kept: 0, .. }
        ));
    }

    #[test]
    fn past_the_exact_join_near_copies_without_the_rarest_pair_are_found_by_fingerprint() {
        let first = "One Stop Bakery, 1304 High St Rd, Wantirna, VIC, 3152";
        // Every copy with one character deleted: each reaches 0.8.
        let copies: Vec<String> = (0..first.len())
            .map(|at| format!("{}{}", &first[..at], &first[at + 1..]))
            .collect();
        let dropped = |k: u32| {
            let mut filter = filter(0.8, k);
            assert_eq!(run(&mut filter, first), Decision::Kept(Some(0)));
            filter.end_join_stage().unwrap();
            copies
                .iter()
                .filter(|copy| matches!(run(&mut filter, copy), Decision::Dropped { .. }))
                .count()
        };
        // The fingerprints (all within k = 64) find every one.
        assert_eq!(dropped(64), copies.len());
        // The join alone misses the copies without the kept text's rarest
        // pair, whose fingerprints differ.
        assert!(dropped(0) < copies.len());
    }

    #[test]
    fn near_copies_are_found_across_a_reorder_of_the_join() {
        let mut filter = filter(0.8, 0);
        // Random 40-letter lines: none near another.
        let mut state = 7u64;
        let lines: Vec<String> = (0..FIRST_REORDER + 100)
            .map(|_| {
                (0..40)
                    .map(|_| {
                        state = state.wrapping_mul(6364136223846793005).wrapping_add(1);
                        char::from(b'a' + (state >> 59) as u8 % 26)
                    })
                    .collect()
            })
            .collect();
        for (number, line) in lines.iter().enumerate() {
            assert_eq!(run(&mut filter, line), Decision::Kept(Some(number as u32)));
        }
        // The join was reordered at FIRST_REORDER kept texts.
        assert!(filter.joining());
        for kept in [3, FIRST_REORDER - 1, FIRST_REORDER + 50] {
            let mut copy = lines[kept].clone();
            copy.replace_range(20..21, "-");
            match run(&mut filter, &copy) {
                Decision::Dropped {
                    kept: found,
                    jaccard,
                } => {
                    assert_eq!(found as usize, kept);
                    assert!(jaccard >= 0.8, "{jaccard}");
                }
                other => panic!("{kept}: {other:?}"),
            }
        }
    }

    #[test]
    fn long_texts_are_compared_by_their_features() {
        let mut filter = filter(0.8, 32);
        let text: Vec<String> = (0..120)
            .map(|i| format!("word{}", i % 37 * 7 + i))
            .collect();
        let mut edited = text.clone();
        edited[60] = "changed".to_string();
        assert_eq!(run(&mut filter, &text.join(" ")), Decision::Kept(Some(0)));
        match run(&mut filter, &edited.join(" ")) {
            Decision::Dropped { kept: 0, jaccard } => assert!(jaccard > 0.9, "{jaccard}"),
            other => panic!("{other:?}"),
        }
        // A short text after a long one: the short-words index is searched.
        assert_eq!(run(&mut filter, "a short line"), Decision::Kept(Some(1)));
        assert_eq!(
            run(&mut filter, &text.join("  ")),
            Decision::Dropped {
                kept: 0,
                jaccard: 1.0
            }
        );
    }
}
