//! The search indexes of a set of kept records: which kept records a new
//! record is compared with, and in which space.

use super::filter::Measured;
use super::index::Index;

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
#[derive(Debug)]
enum ShortWords {
    Waiting(Vec<(u64, u32)>),
    Built(Index),
}

/// Kept records by fingerprint, in the two spaces of the scan's rule.
#[derive(Debug)]
pub struct Indexes {
    max_distance: u32,
    /// Kept records that are not short texts, by word fingerprint.
    words: Index,
    /// Kept short texts, by character-pair fingerprint.
    chars: Index,
    /// Kept short texts, by word fingerprint.
    short_words: ShortWords,
}

impl Indexes {
    /// Empty indexes for distance `max_distance`.
    pub fn new(max_distance: u32) -> Indexes {
        Indexes {
            max_distance,
            words: Index::new(max_distance),
            chars: Index::new(max_distance),
            short_words: ShortWords::Waiting(Vec::new()),
        }
    }

    /// Bytes per entry of one index.
    pub fn bytes_per_entry(&self) -> usize {
        self.words.bytes_per_entry()
    }

    /// Makes the short texts searchable by word fingerprint (needed to
    /// query for a record that is not a short text).
    pub fn build_short_words(&mut self) {
        if let ShortWords::Waiting(waiting) = &mut self.short_words {
            let mut index = Index::new(self.max_distance);
            for &(simhash, kept) in waiting.iter() {
                index.insert(simhash, kept);
            }
            self.short_words = ShortWords::Built(index);
        }
    }

    /// Appends the kept records within the distance of `record`, each
    /// with the space their pair is decided in (possibly more than once).
    /// A record that is not a short text needs [`Indexes::build_short_words`]
    /// first; without it, short texts are not searched.
    pub fn query(&self, record: &Measured, out: &mut Vec<(u32, Space)>) {
        let mut found = Vec::new();
        self.words.query(record.words.simhash, &mut found);
        out.extend(found.iter().map(|&(kept, _)| (kept, Space::Words)));
        found.clear();
        match &record.short {
            Some(short) => {
                self.chars.query(short.simhash, &mut found);
                out.extend(found.iter().map(|&(kept, _)| (kept, Space::Chars)));
            }
            None => {
                if let ShortWords::Built(index) = &self.short_words {
                    index.query(record.words.simhash, &mut found);
                    out.extend(found.iter().map(|&(kept, _)| (kept, Space::Words)));
                }
            }
        }
    }

    /// Adds kept record `number`.
    pub fn insert(&mut self, record: &Measured, number: u32) {
        self.insert_fingerprints(
            record.words.simhash,
            record.short.map(|short| short.simhash),
            number,
        );
    }

    fn insert_fingerprints(&mut self, words: u64, short: Option<u64>, number: u32) {
        match short {
            Some(short) => {
                self.chars.insert(short, number);
                match &mut self.short_words {
                    ShortWords::Waiting(waiting) => waiting.push((words, number)),
                    ShortWords::Built(index) => index.insert(words, number),
                }
            }
            None => self.words.insert(words, number),
        }
    }
}

/// The fingerprints of a record kept lately, to add to the main indexes
/// at the end of its block.
#[derive(Clone, Copy, Debug)]
pub struct Recent {
    words: u64,
    short: Option<u64>,
    number: u32,
}

impl Recent {
    /// Kept record `number`'s fingerprints.
    pub fn of(record: &Measured, number: u32) -> Recent {
        Recent {
            words: record.words.simhash,
            short: record.short.map(|short| short.simhash),
            number,
        }
    }

    /// Adds it to `indexes`.
    pub fn add_to(self, indexes: &mut Indexes) {
        indexes.insert_fingerprints(self.words, self.short, self.number);
    }
}
