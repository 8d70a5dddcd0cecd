//! Kept records by word fingerprint, in classes by their number of
//! features, so that a search skips the classes whose records cannot
//! reach the threshold with the record searched for.
//!
//! Jaccard is at most the ratio of the sets' sizes: |A ∩ B| / |A ∪ B| <=
//! min(|A|, |B|) / max(|A|, |B|). So a record with `d` distinct features
//! can reach Jaccard `t` only with a set of `t·d` to `d / t` of them.
//! Between short texts and other records (compared by words: the scan's
//! rule), that rules out nearly every pair on real text: a line of ten
//! words never reaches a paragraph, and a paragraph of 60 words never
//! reaches a title. Without the classes, each short text searched the
//! other records' fingerprints within the radius and each long one the
//! short texts', which made the cost model narrow the radius of long
//! records to nothing on real lines (k = 0: 1,060 of their near-copies
//! in the first 60 MB kept).

use std::ops::RangeInclusive;

use super::index::Index;

/// Classes of sized records: class `c` holds sizes up to `8 << c`, the
/// last every size beyond.
const SIZED: usize = 8;

/// A record's size as a search bound: its distinct features, or what
/// bounds them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Size {
    /// Exactly this many distinct features.
    Exact(u64),
    /// At most this many (the feature count of a fingerprint, which counts
    /// repeats: a short text's).
    AtMost(u64),
    /// At least this many (a set too large to measure whole).
    AtLeast(u64),
    /// Not measured.
    Unknown,
}

impl Size {
    /// The range of distinct features it stands for.
    fn range(self) -> RangeInclusive<u64> {
        match self {
            Size::Exact(size) => size..=size,
            Size::AtMost(size) => 0..=size,
            Size::AtLeast(size) => size..=u64::MAX,
            Size::Unknown => 0..=u64::MAX,
        }
    }

    /// The sizes of the sets that may reach Jaccard `threshold` with a
    /// set of this size, widened by one each way against rounding.
    pub fn reachable(self, threshold: f64) -> RangeInclusive<u64> {
        let range = self.range();
        // A threshold of 0 (or NaN) rules nothing out.
        if threshold.is_nan() || threshold <= 0.0 {
            return 0..=u64::MAX;
        }
        let low = (*range.start() as f64 * threshold).floor() as u64;
        let high = if *range.end() == u64::MAX {
            u64::MAX
        } else {
            (*range.end() as f64 / threshold).ceil() as u64
        };
        low.saturating_sub(1)..=high.saturating_add(1)
    }
}

/// The class of a record of `size`.
///
/// A record known by an upper bound is filed by it (see
/// [`SizedIndex::query`]); one known by a lower bound only in the last
/// class, which holds every size beyond its first, else with those of
/// unknown size.
fn class_of(size: Size) -> usize {
    let class = |size: u64| {
        let bits = 64 - size.saturating_sub(1).leading_zeros() as usize;
        bits.saturating_sub(3).min(SIZED - 1)
    };
    match size {
        Size::Exact(size) | Size::AtMost(size) => class(size),
        Size::AtLeast(size) if *class_sizes(SIZED - 1).start() <= size => SIZED - 1,
        Size::AtLeast(_) | Size::Unknown => SIZED,
    }
}

/// The sizes class `class` holds.
fn class_sizes(class: usize) -> RangeInclusive<u64> {
    match class {
        0 => 0..=8,
        class if class == SIZED - 1 => (4 << class) + 1..=u64::MAX,
        class if class < SIZED => (4 << class) + 1..=8 << class,
        _ => 0..=u64::MAX,
    }
}

/// Kept records by word fingerprint, in classes by size, plus one class
/// for records of unknown size. A class holds records by one kind of
/// size: the caller keeps exact and lower-bounded sizes (records that
/// are not short texts) apart from upper-bounded ones (short texts).
///
/// A class's index is made with its first entry: most runs fill a few
/// classes, and a run makes a new empty one for each block.
#[derive(Debug)]
pub struct SizedIndex {
    max_distance: u32,
    classes: Vec<Option<Index>>,
}

impl SizedIndex {
    /// Empty classes searched within `max_distance`.
    pub fn new(max_distance: u32) -> SizedIndex {
        SizedIndex {
            max_distance,
            classes: (0..=SIZED).map(|_| None).collect(),
        }
    }

    /// Adds `fingerprint` with `payload`, filed by `size`.
    pub fn insert(&mut self, fingerprint: u64, payload: u32, size: Size) {
        let max_distance = self.max_distance;
        self.classes[class_of(size)]
            .get_or_insert_with(|| Index::new(max_distance))
            .insert(fingerprint, payload);
    }

    /// Appends to `out` every entry within `distance` of `fingerprint`
    /// (at most the index's own) whose class may hold a size in `sizes`,
    /// with its distance; an entry may come more than once.
    ///
    /// Upper-bounded sizes are filed by their bound, so for those the
    /// caller asks for every size from the least it needs.
    pub fn query(
        &self,
        fingerprint: u64,
        sizes: &RangeInclusive<u64>,
        distance: u32,
        out: &mut Vec<(u32, u32)>,
    ) {
        for (class, index) in self.classes.iter().enumerate() {
            let held = class_sizes(class);
            let overlaps = held.start() <= sizes.end() && sizes.start() <= held.end();
            if let (true, Some(index)) = (overlaps, index) {
                index.query_within(fingerprint, distance, out);
            }
        }
    }

    /// The same entries, in classes laid out for `max_distance`.
    pub fn at_distance(&self, max_distance: u32) -> SizedIndex {
        SizedIndex {
            max_distance,
            classes: self
                .classes
                .iter()
                .map(|index| index.as_ref().map(|index| index.at_distance(max_distance)))
                .collect(),
        }
    }

    /// Searches within `max_distance` from now on, if that is narrower.
    pub fn narrow(&mut self, max_distance: u32) {
        self.max_distance = self.max_distance.min(max_distance);
        for index in self.classes.iter_mut().flatten() {
            index.narrow(max_distance);
        }
    }

    /// Entries held.
    pub fn len(&self) -> usize {
        self.classes.iter().flatten().map(Index::len).sum()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes held per entry, maps aside (of the largest class).
    pub fn bytes_per_entry(&self) -> usize {
        self.classes
            .iter()
            .flatten()
            .max_by_key(|index| index.len())
            .map_or(0, Index::bytes_per_entry)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn classes_hold_the_sizes_they_say() {
        for size in 0..5000u64 {
            for sized in [Size::Exact(size), Size::AtMost(size)] {
                let class = class_of(sized);
                assert!(class < SIZED);
                assert!(
                    class_sizes(class).contains(&size),
                    "{size} in class {class}"
                );
            }
            // Any size from the bound on lies in the class.
            let class = class_of(Size::AtLeast(size));
            assert!(class_sizes(class).contains(&size));
            assert_eq!(*class_sizes(class).end(), u64::MAX);
        }
        assert_eq!(class_of(Size::Exact(8)), 0);
        assert_eq!(class_of(Size::Exact(9)), 1);
        assert_eq!(class_of(Size::Exact(16)), 1);
        assert_eq!(class_of(Size::Exact(17)), 2);
        assert_eq!(class_of(Size::Exact(u64::MAX)), SIZED - 1);
        assert_eq!(class_of(Size::Unknown), SIZED);
    }

    #[test]
    fn reachable_sizes_follow_the_threshold() {
        assert_eq!(Size::Exact(100).reachable(0.8), 79..=126);
        assert_eq!(Size::AtMost(10).reachable(0.8), 0..=14);
        assert_eq!(Size::AtLeast(1000).reachable(0.5), 499..=u64::MAX);
        assert_eq!(Size::Unknown.reachable(0.8), 0..=u64::MAX);
        assert_eq!(Size::Exact(7).reachable(0.0), 0..=u64::MAX);
    }

    #[test]
    fn a_search_skips_the_classes_out_of_reach() {
        let mut index = SizedIndex::new(3);
        index.insert(0b1, 1, Size::Exact(10));
        index.insert(0b11, 2, Size::Exact(300));
        index.insert(0b111, 3, Size::Unknown);
        let found = |sizes: RangeInclusive<u64>| {
            let mut out = Vec::new();
            index.query(0, &sizes, 3, &mut out);
            let mut payloads: Vec<u32> = out.into_iter().map(|(payload, _)| payload).collect();
            payloads.sort_unstable();
            payloads.dedup();
            payloads
        };
        // A short text of at most 12 features reaches only the small one
        // (and those of unknown size).
        assert_eq!(found(Size::AtMost(12).reachable(0.8)), [1, 3]);
        assert_eq!(found(Size::Exact(280).reachable(0.8)), [2, 3]);
        assert_eq!(found(0..=u64::MAX), [1, 2, 3]);
        assert_eq!(index.len(), 3);
    }

    proptest! {
        /// Whatever the sizes, a search finds every entry within the
        /// distance whose size is in the range asked for: the classes
        /// only skip what cannot be.
        #[test]
        fn no_entry_in_range_is_skipped(
            entries in proptest::collection::vec((any::<u64>(), 0u64..2000), 1..60),
            low in 0u64..2000,
            span in 0u64..2000,
            query in any::<u64>(),
        ) {
            let mut index = SizedIndex::new(64);
            for (i, &(fingerprint, size)) in entries.iter().enumerate() {
                index.insert(fingerprint, i as u32, Size::Exact(size));
            }
            let sizes = low..=low + span;
            let mut out = Vec::new();
            index.query(query, &sizes, 64, &mut out);
            let found: std::collections::BTreeSet<u32> =
                out.into_iter().map(|(payload, _)| payload).collect();
            for (i, &(_, size)) in entries.iter().enumerate() {
                if sizes.contains(&size) {
                    prop_assert!(found.contains(&(i as u32)), "entry {} of size {}", i, size);
                }
            }
        }
    }
}
