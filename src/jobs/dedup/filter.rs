//! The keep-or-drop decision, one record at a time in input order, against
//! the records kept so far.
//!
//! The near-duplicate rule is the scan's (src/jobs/scan): two records with
//! the same features (the same feature digest; the same content for those
//! with fewer than `min_features` features) are near-duplicates without a
//! search. Otherwise SimHash proposes the kept records within k bits and
//! exact Jaccard decides: two short texts (one line of at most 256
//! characters) by their character pairs, any other pair by the features.
//! Records without features are never anyone's near-duplicate: they are
//! kept, and nothing of them is held.
//!
//! A new record is dropped for the earliest kept record it is a
//! near-duplicate of; otherwise it is kept and joins the indexes.
//!
//! Held per kept record: its text in a spool (in memory up to
//! [`TEXT_MEMORY`] bytes in all, then in an anonymous temporary file) with
//! 4 bytes of length; a digest map entry (about 24 bytes); one
//! [`Index`] entry (12 bytes per table, k + 1 tables: 84 bytes at the
//! default k = 6); and its name (nothing for line numbers that follow each other,
//! the id's bytes with `--id-field`).

use std::borrow::Cow;
use std::io::{self, Read};
use std::path::PathBuf;

use crate::fingerprint::{Fingerprint, Fingerprinter};
use crate::report::Names;
use crate::verify::{Verdict, decide};

use super::super::scan::{Prefix, ShortTexts};
use super::index::MixMap;
use super::indexes::{Indexes, Recent, Space};

/// Bytes of kept texts held in memory before the rest goes to a file.
pub const TEXT_MEMORY: usize = 32 << 20;

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
    /// Its character-pair fingerprint, when it is a short text and the
    /// short-text rule is on.
    pub short: Option<Fingerprint>,
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

    /// Fingerprints one record's text.
    pub fn measure(&self, text: Vec<u8>) -> Measured {
        let words = self.fingerprinter.fingerprint_bytes(&text);
        let short = match &self.short {
            Some(short) if words.features >= self.min_features.max(1) => short.fingerprint(&text),
            _ => None,
        };
        Measured { text, words, short }
    }

    /// Fingerprints a document read from a stream (a file), which is read
    /// once: its first bytes are kept to tell whether it is a short text.
    pub fn measure_reader<R: Read>(
        &self,
        reader: R,
    ) -> io::Result<(Fingerprint, Option<Fingerprint>)> {
        let mut prefix = Prefix::new(reader);
        let words = self.fingerprinter.fingerprint_reader(&mut prefix)?;
        let short = match (&self.short, prefix.whole()) {
            (Some(short), Some(text)) if words.features >= self.min_features.max(1) => {
                short.fingerprint(text)
            }
            _ => None,
        };
        Ok((words, short))
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
    max_distance: u32,
    /// Feature digest (or content key) to the first kept record with it.
    by_digest: MixMap<u32>,
    /// The kept records before the current block.
    main: Indexes,
    /// The records kept in the current block (see [`Filter::begin_block`]).
    recent: Indexes,
    recent_kept: Vec<Recent>,
    in_block: bool,
    /// The text of each kept record (empty for those matched by content);
    /// its path when `by_path`.
    texts: Names,
    /// Texts are paths of files, read again to verify.
    by_path: bool,
    kept: u32,
    /// Candidates verified.
    pub candidates: u64,
    scratch: Vec<(u32, Space)>,
}

impl Filter {
    /// An empty filter: near-duplicates have Jaccard at least `threshold`
    /// and fingerprints within `max_distance` bits.
    pub fn new(measure: Measure, threshold: f64, max_distance: u32) -> Filter {
        Filter {
            measure,
            threshold,
            max_distance,
            by_digest: MixMap::default(),
            main: Indexes::new(max_distance),
            recent: Indexes::new(max_distance),
            recent_kept: Vec::new(),
            in_block: false,
            texts: Names::with_budget(TEXT_MEMORY),
            by_path: false,
            kept: 0,
            candidates: 0,
            scratch: Vec::new(),
        }
    }

    /// The texts of records are paths of files: verification reads them
    /// again, and a kept record's path is kept even when it is matched by
    /// content.
    pub fn reading_files(mut self) -> Filter {
        self.by_path = true;
        self
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
        for recent in self.recent_kept.drain(..) {
            recent.add_to(&mut self.main);
        }
        if self.in_block {
            self.recent = Indexes::new(self.max_distance);
            self.in_block = false;
        }
    }

    /// The candidates of `record` among the records kept before the
    /// current block, sorted, for [`Filter::decide_with`]; `None` when
    /// none are needed (no features, or the same features as a kept
    /// record). Read-only: many records at once, on any threads.
    pub fn candidates(&self, record: &Measured) -> Option<Vec<(u32, Space)>> {
        let words = &record.words;
        if words.features < self.measure.min_features.max(1)
            || self.by_digest.contains_key(&words.feature_digest)
        {
            return None;
        }
        let mut out = Vec::new();
        self.main.query(record, &mut out);
        out.sort_unstable();
        out.dedup();
        Some(out)
    }

    /// Decides one record, in input order; a kept record joins the filter.
    /// Fails when a kept text cannot be written or read back, or when
    /// more than [`MAX_KEPT`] records were kept.
    pub fn decide(&mut self, record: &Measured) -> io::Result<Decision> {
        self.decide_with(record, None)
    }

    /// [`Filter::decide`] with the candidates [`Filter::candidates`] found
    /// among the records kept before the block (`None`: search them now).
    pub fn decide_with(
        &mut self,
        record: &Measured,
        found: Option<Vec<(u32, Space)>>,
    ) -> io::Result<Decision> {
        let words = &record.words;
        if words.features == 0 {
            return Ok(Decision::Kept(None));
        }
        let exact_only = words.features < self.measure.min_features;
        let key = if exact_only {
            content_key(words.content_hash)
        } else {
            words.feature_digest
        };
        if let Some(&kept) = self.by_digest.get(&key) {
            return Ok(Decision::Dropped { kept, jaccard: 1.0 });
        }
        if !exact_only && let Some((kept, jaccard)) = self.search(record, found)? {
            return Ok(Decision::Dropped { kept, jaccard });
        }
        self.keep(record, key, exact_only).map(Decision::Kept)
    }

    /// The earliest kept record within k that reaches the threshold.
    fn search(
        &mut self,
        record: &Measured,
        found: Option<Vec<(u32, Space)>>,
    ) -> io::Result<Option<(u32, f64)>> {
        let mut candidates = std::mem::take(&mut self.scratch);
        candidates.clear();
        match found {
            Some(found) => candidates.extend(found),
            None => {
                if record.short.is_none() {
                    self.main.build_short_words();
                }
                self.main.query(record, &mut candidates);
            }
        }
        if self.in_block {
            if record.short.is_none() {
                self.recent.build_short_words();
            }
            self.recent.query(record, &mut candidates);
        }
        candidates.sort_unstable();
        candidates.dedup();
        let mut sets: [Option<Vec<u64>>; 2] = [None, None];
        let mut answer = Ok(None);
        for &(kept, space) in &candidates {
            self.candidates += 1;
            let slot = space as usize;
            if sets[slot].is_none() {
                match self.feature_set(&record.text, space) {
                    Ok(set) => sets[slot] = Some(set),
                    Err(error) => {
                        answer = Err(error);
                        break;
                    }
                }
            }
            let theirs = match self
                .texts
                .get(kept as usize)
                .and_then(|text| self.feature_set(&text, space))
            {
                Ok(set) => set,
                Err(error) => {
                    answer = Err(error);
                    break;
                }
            };
            let ours = sets[slot].as_deref().unwrap_or_default();
            if let Verdict::Near(jaccard) = decide(ours, &theirs, self.threshold) {
                answer = Ok(Some((kept, jaccard)));
                break;
            }
        }
        self.scratch = candidates;
        answer
    }

    /// The feature set of a text, or of the file it names.
    fn feature_set(&self, text: &[u8], space: Space) -> io::Result<Vec<u64>> {
        let measure = |reader: &mut dyn Read| match (space, &self.measure.short) {
            (Space::Chars, Some(short)) => short.feature_set_reader(reader),
            _ => self.measure.fingerprinter.feature_set_reader(reader),
        };
        if self.by_path {
            let path = path_from_bytes(text);
            // The same text the file was fingerprinted from.
            let view = &self.measure.fingerprinter.options().view;
            let mut file = view.reopen(&path).map_err(|error| {
                io::Error::new(error.kind(), format!("{}: {error}", path.display()))
            })?;
            measure(&mut file)
        } else {
            measure(&mut &text[..])
        }
    }

    /// Holds a kept record.
    fn keep(&mut self, record: &Measured, key: u64, exact_only: bool) -> io::Result<Option<u32>> {
        let number = self.kept;
        if number >= MAX_KEPT {
            return Err(io::Error::other(format!(
                "more than {MAX_KEPT} records kept: the rest cannot be decided"
            )));
        }
        self.texts.push(if exact_only {
            &[][..]
        } else {
            &record.text[..]
        })?;
        self.by_digest.insert(key, number);
        if !exact_only {
            if self.in_block {
                self.recent.insert(record, number);
                self.recent_kept.push(Recent::of(record, number));
            } else {
                self.main.insert(record, number);
            }
        }
        self.kept += 1;
        Ok(Some(number))
    }
}

/// A path from the bytes a `Names` holds.
#[cfg(unix)]
pub fn path_from_bytes(bytes: &[u8]) -> PathBuf {
    use std::os::unix::ffi::OsStrExt;
    std::ffi::OsStr::from_bytes(bytes).into()
}

/// A path from the bytes a `Names` holds.
#[cfg(not(unix))]
pub fn path_from_bytes(bytes: &[u8]) -> PathBuf {
    PathBuf::from(String::from_utf8_lossy(bytes).into_owned())
}

/// Keys of records matched by raw content never meet the feature digests
/// of the others (the scan's rule).
fn content_key(content_hash: u64) -> u64 {
    content_hash ^ 0x5407_7e4c_0a7e_17ed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fingerprint::FeatureOptions;

    fn filter(threshold: f64, k: u32) -> Filter {
        let measure = Measure::new(Fingerprinter::new(FeatureOptions::default()), true, 1);
        Filter::new(measure, threshold, k)
    }

    fn run(filter: &mut Filter, text: &str) -> Decision {
        let measured = filter.measure().measure(text.as_bytes().to_vec());
        filter.decide(&measured).unwrap()
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
    fn texts_without_features_are_kept_and_not_held() {
        let mut filter = filter(0.8, 8);
        assert_eq!(run(&mut filter, ""), Decision::Kept(None));
        assert_eq!(run(&mut filter, "  !! "), Decision::Kept(None));
        assert_eq!(run(&mut filter, ""), Decision::Kept(None));
        assert_eq!(filter.kept(), 0);
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
