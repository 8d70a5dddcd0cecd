//! The search indexes of a set of kept records: which kept records a new
//! record is compared with, and in which space.

use super::band_index::BandIndex;
use super::short_join::Probe;
use crate::verify::bands::BandKeys;
use crate::verify::join::{JoinScratch, Postings, TokenOrder};

use super::filter::Measured;
use super::index::Index;
use super::size_classes::{Size, SizedIndex};

/// The radii of the searches by fingerprint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchRadii {
    /// By word fingerprint, between records that are not short texts.
    pub words: u32,
    /// By word fingerprint, between a short text and another record.
    pub mixed: u32,
    /// By character-pair fingerprint, between short texts (once their
    /// join is given up).
    pub chars: u32,
}

impl SearchRadii {
    /// `k` for every search.
    pub fn all(k: u32) -> SearchRadii {
        SearchRadii {
            words: k,
            mixed: k,
            chars: k,
        }
    }
}

/// The comparison a candidate pair is decided by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Space {
    /// The features (word shingles by default).
    Words,
    /// Character pairs: two short texts.
    Chars,
}

/// Short kept records by their word fingerprint: searched only for
/// records that are not short texts, so built only once one comes.
/// Until then, fingerprints, numbers and feature counts wait in three
/// lists (14 bytes a record, where a tuple would take 16).
#[derive(Debug)]
enum ShortWords {
    Waiting {
        simhashes: Vec<u64>,
        numbers: Vec<u32>,
        features: Vec<u16>,
    },
    Built(SizedIndex),
}

/// How kept short texts are found: by the join while it lasts; once the
/// exact join is given up, by their MinHash bands, or by fingerprint
/// (beside the join on their rarest pairs, then alone: see
/// src/jobs/dedup/short_join.rs).
#[derive(Debug)]
struct Chars {
    /// By a join on the prefixes of their character pairs (exact, or
    /// capped to the rarest).
    joined: Option<Postings>,
    /// By their character-pair fingerprints, within the distance.
    fingerprints: Option<Index>,
    /// By their MinHash band keys.
    bands: Option<BandIndex>,
}

/// Kept records in the two spaces of the scan's rule.
#[derive(Debug)]
pub struct Indexes {
    /// The distance of searches by word fingerprint between records that
    /// are not short texts.
    max_distance: u32,
    /// The distance of searches by word fingerprint between a short text
    /// and another record.
    mixed_distance: u32,
    /// The distance of searches by character-pair fingerprint (once the
    /// join of short texts is given up).
    chars_distance: u32,
    /// The Jaccard threshold: with it, records' sizes rule out classes
    /// of kept records ([`SizedIndex`]).
    threshold: f64,
    /// Kept records that are not short texts, by word fingerprint, laid
    /// out for `max_distance`.
    words: SizedIndex,
    /// The same, laid out for `mixed_distance`, for short texts to search,
    /// once the two radii differ: a layout for a wider radius searched
    /// within a narrower one costs far more than its own (see
    /// `Index::narrow`).
    mixed_words: Option<SizedIndex>,
    /// Kept short texts by their character pairs.
    chars: Chars,
    /// Kept short texts, by word fingerprint.
    short_words: ShortWords,
}

impl Indexes {
    /// Empty indexes for Jaccard `threshold`, searched within `radii`:
    /// by word fingerprint between records that are not short texts, by
    /// word fingerprint between a short text and another, and by
    /// character-pair fingerprint.
    pub fn new(radii: SearchRadii, threshold: f64) -> Indexes {
        let SearchRadii {
            words: max_distance,
            mixed: mixed_distance,
            chars: chars_distance,
        } = radii;
        Indexes {
            threshold,
            max_distance,
            mixed_distance,
            chars_distance,
            words: SizedIndex::new(max_distance),
            mixed_words: (mixed_distance != max_distance).then(|| SizedIndex::new(mixed_distance)),
            chars: Chars {
                joined: Some(Postings::new(threshold)),
                fingerprints: None,
                bands: None,
            },
            short_words: ShortWords::Waiting {
                simhashes: Vec::new(),
                numbers: Vec::new(),
                features: Vec::new(),
            },
        }
    }

    /// Bytes per entry of one index.
    pub fn bytes_per_entry(&self) -> usize {
        self.words.bytes_per_entry()
    }

    /// Makes the short texts searchable by word fingerprint (needed to
    /// query for a record that is not a short text).
    pub fn build_short_words(&mut self) {
        if let ShortWords::Waiting {
            simhashes,
            numbers,
            features,
        } = &mut self.short_words
        {
            let mut index = SizedIndex::new(self.mixed_distance);
            for ((&simhash, &kept), &features) in
                simhashes.iter().zip(numbers.iter()).zip(features.iter())
            {
                index.insert(simhash, kept, short_text_size(u64::from(features)));
            }
            self.short_words = ShortWords::Built(index);
        }
    }

    /// Brings into cache what adding `recent` will touch, where that is
    /// far (the tables of band keys), so that a batch of adds overlaps
    /// its cache misses.
    pub fn prefetch(&self, recent: &Recent) {
        if let (Some(index), Some((_, _, bands))) = (&self.chars.bands, &recent.short) {
            index.prefetch(bands);
        }
    }

    /// Finds kept short texts by their fingerprints from now on, and no
    /// longer by the join: its postings are dropped, and `kept` (every
    /// kept short text's character-pair fingerprint and number) are
    /// indexed, unless they are already.
    pub fn find_short_texts_by_fingerprint(&mut self, kept: &[(u64, u32)]) {
        self.find_short_texts_by_fingerprint_too(kept);
        self.chars.joined = None;
        self.chars.bands = None;
    }

    /// Finds kept short texts by their fingerprints too, beside the join:
    /// `kept` (every kept short text's character-pair fingerprint and
    /// number) are indexed, unless they are already.
    pub fn find_short_texts_by_fingerprint_too(&mut self, kept: &[(u64, u32)]) {
        if self.chars.fingerprints.is_none() {
            let mut index = Index::new(self.chars_distance);
            for &(simhash, number) in kept {
                index.insert(simhash, number);
            }
            self.chars.fingerprints = Some(index);
        }
    }

    /// Finds kept short texts by a join again (on `postings`) and by
    /// fingerprint, no longer by bands: `kept` (every kept short text's
    /// character-pair fingerprint and number) are indexed.
    pub fn join_short_texts_beside_fingerprints(
        &mut self,
        postings: Postings,
        kept: &[(u64, u32)],
    ) {
        self.chars.bands = None;
        self.find_short_texts_by_fingerprint_too(kept);
        self.chars.joined = Some(postings);
    }

    /// Finds kept short texts by their MinHash bands from now on, and no
    /// longer by the join nor by fingerprint: `kept` (every kept short
    /// text's band keys and number) are indexed.
    pub fn find_short_texts_by_bands(&mut self, kept: impl IntoIterator<Item = (BandKeys, u32)>) {
        let mut index = BandIndex::new();
        for (keys, number) in kept {
            index.insert(&keys, number);
        }
        self.chars = Chars {
            joined: None,
            fingerprints: None,
            bands: Some(index),
        };
    }

    /// How many times kept short texts share a band with `record` (0 when
    /// they are not found by bands, or it is not a short text): what its
    /// search by bands costs.
    pub fn band_matches(&self, record: &Measured) -> u64 {
        let (Some(index), Some(short)) = (&self.chars.bands, &record.short) else {
            return 0;
        };
        let mut matches = 0;
        index.query(&short.bands, |_| matches += 1);
        matches
    }

    /// Searches within `radii` from now on, each if narrower.
    pub fn narrow(&mut self, radii: SearchRadii) {
        let words = self.max_distance.min(radii.words);
        let mixed = self.mixed_distance.min(radii.mixed);
        if self.mixed_words.is_none() && words != mixed {
            // Until now one index served both radii, which were equal.
            self.mixed_words = Some(self.words.at_distance(mixed));
        }
        self.max_distance = words;
        self.mixed_distance = mixed;
        self.chars_distance = self.chars_distance.min(radii.chars);
        self.words.narrow(words);
        if let Some(index) = &mut self.mixed_words {
            index.narrow(mixed);
        }
        if let ShortWords::Built(index) = &mut self.short_words {
            index.narrow(self.mixed_distance);
        }
        if let Some(index) = &mut self.chars.fingerprints {
            index.narrow(self.chars_distance);
        }
    }

    /// Finds kept short texts by the join of `postings` from now on.
    pub fn join_short_texts(&mut self, postings: Postings) {
        self.chars.joined = Some(postings);
    }

    /// Appends the kept records that may be near-duplicates of `record`,
    /// each with the space their pair is decided in (possibly more than
    /// once): within the distance by word fingerprint, or, for two short
    /// texts, every one the join proposes (`probe` ranks its tokens),
    /// those within the distance by character-pair fingerprint and those
    /// that share a MinHash band. A
    /// record that is not a short text needs [`Indexes::build_short_words`]
    /// first; without it, short texts are not searched.
    ///
    /// Returns how many times kept short texts shared a band with it
    /// ([`Indexes::band_matches`]).
    pub fn query(
        &self,
        record: &Measured,
        probe: &Probe<'_>,
        scratch: &mut JoinScratch,
        out: &mut Vec<(u32, Space)>,
    ) -> u64 {
        let mut band_matches = 0;
        let mut found = Vec::new();
        let size = record.words_size();
        let reachable = size.reachable(self.threshold);
        let (index, distance) = match record.short {
            Some(_) => (
                self.mixed_words.as_ref().unwrap_or(&self.words),
                self.mixed_distance,
            ),
            None => (&self.words, self.max_distance),
        };
        index.query(record.words.simhash, &reachable, distance, &mut found);
        out.extend(found.iter().map(|&(kept, _)| (kept, Space::Words)));
        found.clear();
        match &record.short {
            Some(short) => {
                if let Some(postings) = &self.chars.joined {
                    let proposed = postings.candidates(probe.set, &probe.ranked, scratch);
                    out.extend(proposed.into_iter().map(|kept| (kept, Space::Chars)));
                }
                if let Some(index) = &self.chars.fingerprints {
                    index.query(short.simhash, &mut found);
                    out.extend(found.iter().map(|&(kept, _)| (kept, Space::Chars)));
                }
                if let Some(index) = &self.chars.bands {
                    index.query(&short.bands, |kept| {
                        band_matches += 1;
                        out.push((kept, Space::Chars));
                    });
                }
            }
            None => {
                if let ShortWords::Built(index) = &self.short_words {
                    // Short texts are filed by an upper bound of their
                    // size: those that may reach it are from the least on.
                    let sizes = *reachable.start()..=u64::MAX;
                    index.query(
                        record.words.simhash,
                        &sizes,
                        self.mixed_distance,
                        &mut found,
                    );
                    out.extend(found.iter().map(|&(kept, _)| (kept, Space::Words)));
                }
            }
        }
        band_matches
    }

    /// Adds kept record `number`; `set`: its character pairs, when it is
    /// a short text and the join lasts (`order` has learnt them).
    pub fn insert(&mut self, record: &Measured, set: &[u64], order: &TokenOrder, number: u32) {
        let short = record
            .short
            .as_ref()
            .map(|short| (short.simhash, set, &short.bands));
        let words = (record.words.simhash, record.words_size());
        self.insert_measures(words, short, order, number);
    }

    /// Adds kept record `number`: `words`, its word fingerprint and size;
    /// `short`, a short text's character-pair fingerprint, set and band
    /// keys.
    fn insert_measures(
        &mut self,
        (words, size): (u64, Size),
        short: Option<(u64, &[u64], &BandKeys)>,
        order: &TokenOrder,
        number: u32,
    ) {
        match short {
            Some((simhash, set, bands)) => {
                if let Some(postings) = &mut self.chars.joined {
                    postings.add(set, order, number);
                }
                if let Some(index) = &mut self.chars.fingerprints {
                    index.insert(simhash, number);
                }
                if let Some(index) = &mut self.chars.bands {
                    index.insert(bands, number);
                }
                let features = match size {
                    Size::AtMost(features) => features,
                    _ => u64::MAX,
                };
                match &mut self.short_words {
                    ShortWords::Waiting {
                        simhashes,
                        numbers,
                        features: counts,
                    } => {
                        simhashes.push(words);
                        numbers.push(number);
                        counts.push(u16::try_from(features).unwrap_or(u16::MAX));
                    }
                    ShortWords::Built(index) => {
                        index.insert(words, number, short_text_size(features))
                    }
                }
            }
            None => {
                self.words.insert(words, number, size);
                if let Some(index) = &mut self.mixed_words {
                    index.insert(words, number, size);
                }
            }
        }
    }
}

/// How a short text is filed among the short texts by word fingerprint:
/// by its feature count, which bounds its distinct features (a count
/// past `u16::MAX` is not held: unknown).
fn short_text_size(features: u64) -> Size {
    if features >= u64::from(u16::MAX) {
        Size::Unknown
    } else {
        Size::AtMost(features)
    }
}

/// The measures of a record kept lately, to add to the main indexes at
/// the end of its block.
#[derive(Clone, Debug)]
pub struct Recent {
    words: u64,
    size: Size,
    /// Character-pair fingerprint, set and band keys, for a short text.
    short: Option<(u64, Vec<u64>, BandKeys)>,
    number: u32,
}

impl Recent {
    /// Kept record `number`'s measures.
    pub fn of(record: &Measured, set: &[u64], number: u32) -> Recent {
        Recent {
            words: record.words.simhash,
            size: record.words_size(),
            short: record
                .short
                .as_ref()
                .map(|short| (short.simhash, set.to_vec(), short.bands)),
            number,
        }
    }

    /// Adds it to `indexes`.
    pub fn add_to(&self, indexes: &mut Indexes, order: &TokenOrder) {
        let short = self
            .short
            .as_ref()
            .map(|(simhash, set, bands)| (*simhash, &set[..], bands));
        indexes.insert_measures((self.words, self.size), short, order, self.number);
    }
}
