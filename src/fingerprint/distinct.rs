//! The distinct features of one document with the largest weight each was
//! seen with (binary weighting): an open-addressing table of feature
//! hashes, which are uniform already, so a hash's low bits are its slot.
//!
//! One table serves a thread's documents in turn, each using a part of
//! its slots sized for the document, so emptying it costs what the
//! document had, not what the table holds: a map grown from nothing for
//! each document rehashed at every doubling (an eighth of fingerprinting
//! the generated corpus), and one kept between documents cost its whole
//! capacity to clear and to walk.

use std::cell::RefCell;

/// The fewest slots a document's table has (a power of two).
const MIN_SLOTS: usize = 1 << 6;

/// The most slots a table starts with (3 MiB), however large the
/// document is expected to be: it grows past that only if its features
/// are there.
const MAX_FIRST_SLOTS: usize = 1 << 18;

/// The most distinct hashes a table holds (a table of twice as many slots,
/// 24 MiB): past them, memory stays bounded whatever the document, and a
/// hash not held counts at each occurrence, as with tf (a document of
/// some 10 MB of words before it matters).
const MAX_DISTINCT: usize = if cfg!(test) { 1 << 10 } else { 1 << 20 };

/// Tables of this many slots grow fourfold, not twofold: a large
/// document of unknown length (a stream) is placed again less often.
const MIN_SLOTS_TO_QUADRUPLE: usize = 1 << 14;

/// Slots a thread's table keeps between documents (3 MiB; a document
/// uses only a part of them, see [`DistinctFeatures`]): past that a large
/// document's table is freed. (Tables freed after each large document
/// were unmapped and mapped again, a tenth of the time of fingerprinting
/// them.)
const KEPT_SLOTS: usize = if cfg!(test) { 1 << 10 } else { 1 << 18 };

/// Distinct feature hashes and their largest weights.
///
/// A document uses a prefix of the table sized for the features it is
/// expected to have: every slot outside the prefix is empty, so any
/// prefix is an empty table. (Every document in a table sized for the
/// largest scattered the small ones' features over the whole of it, where
/// each missed the cache, and every one in a small table grew it again
/// and again: binary weighting fingerprinted 1.27 times slower than tf.)
#[derive(Debug)]
pub(crate) struct DistinctFeatures {
    /// Hashes, 0 where empty (the hash 0 is held apart).
    slots: Vec<u64>,
    weights: Vec<u32>,
    /// The slots in use, less one: a power of two less one.
    mask: usize,
    /// Hashes held in the slots.
    held_count: usize,
    /// The weight of the hash 0, if seen.
    zero: Option<u32>,
    /// Room for the entries while the table grows.
    regrow: Vec<(u64, u32)>,
    /// Occurrences of hashes a full table could not hold.
    beyond: usize,
}

/// What [`DistinctFeatures::insert`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Seen {
    /// A hash not seen before: held now.
    New,
    /// A hash held, with the largest weight it had before.
    Before(u32),
    /// A hash not held, in a table holding [`MAX_DISTINCT`] already: it
    /// counts at each occurrence, as with tf.
    Full,
}

thread_local! {
    /// The table [`DistinctFeatures::with`] lends, empty, to each document.
    static TABLE: RefCell<Option<DistinctFeatures>> = const { RefCell::new(None) };
}

impl DistinctFeatures {
    fn new(slots: usize) -> DistinctFeatures {
        DistinctFeatures {
            slots: vec![0; slots],
            weights: vec![0; slots],
            mask: slots - 1,
            held_count: 0,
            zero: None,
            regrow: Vec::new(),
            beyond: 0,
        }
    }

    /// Runs `work` with an empty table of room for about `expected`
    /// features: this thread's, kept from its last document unless that
    /// one grew it past [`KEPT_SLOTS`] or it is too small.
    pub(crate) fn with<T>(expected: usize, work: impl FnOnce(&mut DistinctFeatures) -> T) -> T {
        // At most half full, as in `insert`; a large document's table is
        // made at its size, not grown to it.
        let slots = expected
            .saturating_mul(2)
            .checked_next_power_of_two()
            .unwrap_or(MAX_FIRST_SLOTS)
            .clamp(MIN_SLOTS, MAX_FIRST_SLOTS);
        let lent = TABLE.with(|kept| kept.borrow_mut().take());
        let mut table = match lent {
            Some(table) if table.slots.len() >= slots => table,
            _ => DistinctFeatures::new(slots),
        };
        table.mask = slots - 1;
        let result = work(&mut table);
        if table.slots.len() <= KEPT_SLOTS {
            table.clear();
            TABLE.with(|kept| *kept.borrow_mut() = Some(table));
        }
        result
    }

    /// Counts `hash` seen with `weight`: whether it is new, was seen
    /// before (with the largest weight it was seen with), or is new to a
    /// full table, so a caller can count each distinct hash as it comes
    /// rather than walk the table at the end.
    #[inline(always)]
    pub(crate) fn insert(&mut self, hash: u64, weight: u32) -> Seen {
        if hash == 0 {
            let before = self.zero;
            self.zero = Some(before.map_or(weight, |seen| seen.max(weight)));
            return before.map_or(Seen::New, Seen::Before);
        }
        match self.probe(hash) {
            Ok(at) => {
                let before = self.weights[at];
                self.weights[at] = before.max(weight);
                Seen::Before(before)
            }
            Err(at) => {
                // Before `hold` may grow the table; a weight left in a
                // slot that stays empty is never read.
                self.weights[at] = weight;
                if self.hold(at, hash) {
                    Seen::New
                } else {
                    Seen::Full
                }
            }
        }
    }

    /// [`DistinctFeatures::insert`] for a document whose every feature
    /// weighs 1: no weight is written (a table used so holds none); true
    /// when `hash` counts (it is new, or new to a full table).
    #[inline(always)]
    pub(crate) fn insert_unit(&mut self, hash: u64) -> bool {
        if hash == 0 {
            return self.zero.replace(1).is_none();
        }
        match self.probe(hash) {
            Ok(_) => false,
            Err(at) => {
                self.hold(at, hash);
                true
            }
        }
    }

    /// The slot holding `hash` (not 0), or else the empty slot where it
    /// would go.
    #[inline(always)]
    fn probe(&self, hash: u64) -> Result<usize, usize> {
        let mut at = hash as usize & self.mask;
        loop {
            match self.slots[at] {
                slot if slot == hash => return Ok(at),
                0 => return Err(at),
                _ => at = (at + 1) & self.mask,
            }
        }
    }

    /// Puts `hash` in the empty slot `at`, unless the table holds
    /// [`MAX_DISTINCT`] already (then it counts it beyond): whether it did.
    #[inline(always)]
    fn hold(&mut self, at: usize, hash: u64) -> bool {
        if self.held_count == MAX_DISTINCT {
            self.beyond += 1;
            return false;
        }
        self.slots[at] = hash;
        self.held_count += 1;
        // At most half full: probes stay short.
        if self.held_count * 2 > self.mask + 1 {
            self.grow();
        }
        true
    }

    /// The features counted: the distinct hashes held, and each occurrence
    /// of those a full table could not hold.
    pub(crate) fn len(&self) -> usize {
        self.held_count + usize::from(self.zero.is_some()) + self.beyond
    }

    /// The held hashes with their largest weights, in slot order.
    fn held_entries(&self) -> impl Iterator<Item = (u64, u32)> + '_ {
        let used = self.mask + 1;
        self.slots[..used]
            .iter()
            .zip(&self.weights[..used])
            .filter(|&(&hash, _)| hash != 0)
            .map(|(&hash, &weight)| (hash, weight))
    }

    /// Each distinct hash with its largest weight (the hash 0 last).
    #[cfg(test)]
    pub(crate) fn iter(&self) -> impl Iterator<Item = (u64, u32)> + '_ {
        self.held_entries()
            .chain(self.zero.map(|weight| (0, weight)))
    }

    /// Twice the slots in use (four times past [`MIN_SLOTS_TO_QUADRUPLE`]),
    /// every hash placed again.
    #[cold]
    #[inline(never)]
    fn grow(&mut self) {
        let mut regrow = std::mem::take(&mut self.regrow);
        regrow.clear();
        regrow.extend(self.held_entries());
        let zero = self.zero;
        self.clear();
        let slots = self.mask + 1;
        let factor = if slots >= MIN_SLOTS_TO_QUADRUPLE {
            4
        } else {
            2
        };
        let slots = (slots * factor).min(2 * MAX_DISTINCT);
        if slots > self.slots.len() {
            *self = DistinctFeatures::new(slots);
        }
        self.mask = slots - 1;
        for &(hash, weight) in &regrow {
            self.insert(hash, weight);
        }
        self.zero = zero;
        self.regrow = regrow;
    }

    /// Empties the table, keeping its slots: the slots in use are zeroed
    /// in one sequential pass (the others are empty already), cheaper than
    /// finding the filled ones, since the part in use is sized for the
    /// document.
    fn clear(&mut self) {
        self.slots[..=self.mask].fill(0);
        self.held_count = 0;
        self.zero = None;
        self.beyond = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;

    /// Spreads a small number over the whole range, 0 to 0.
    fn spread(hash: u64) -> u64 {
        hash.wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }

    proptest! {
        /// The same distinct hashes and largest weights as a map, and each
        /// insert gives the weight a map held before it, however the table
        /// grows, whatever documents it served before and whatever size
        /// they were expected to have; past [`MAX_DISTINCT`] (1,024 in
        /// tests) a new hash is not held and counts each time.
        #[test]
        fn holds_what_a_map_holds(
            documents in proptest::collection::vec(
                (proptest::collection::vec((0u64..3000, 0u32..4), 0..3000), 0usize..5000),
                1..4,
            ),
        ) {
            for (features, expected_size) in documents {
                let mut expected: HashMap<u64, u32> = HashMap::new();
                let mut beyond = 0;
                let got: HashMap<u64, u32> = DistinctFeatures::with(expected_size, |table| {
                    for &(hash, weight) in &features {
                        let hash = spread(hash);
                        // The hash 0 is held apart, whatever the count.
                        let in_table = expected.len() - usize::from(expected.contains_key(&0));
                        let seen = match expected.get(&hash) {
                            Some(&before) => Seen::Before(before),
                            None if hash != 0 && in_table == MAX_DISTINCT => Seen::Full,
                            None => Seen::New,
                        };
                        assert_eq!(table.insert(hash, weight), seen);
                        if seen == Seen::Full {
                            beyond += 1;
                            continue;
                        }
                        let held = expected.entry(hash).or_insert(weight);
                        *held = (*held).max(weight);
                    }
                    assert_eq!(table.len(), expected.len() + beyond);
                    table.iter().collect()
                });
                prop_assert_eq!(got, expected);
            }
        }

        /// Unit inserts count a hash at its first occurrence, and past
        /// [`MAX_DISTINCT`] a new one at each.
        #[test]
        fn a_unit_insert_counts_once_until_the_table_is_full(
            documents in proptest::collection::vec(
                (proptest::collection::vec(0u64..3000, 0..3000), 0usize..5000),
                1..4,
            ),
        ) {
            for (features, expected_size) in documents {
                let mut held = std::collections::HashSet::new();
                let mut counted = 0;
                DistinctFeatures::with(expected_size, |table| {
                    for &hash in &features {
                        let hash = spread(hash);
                        // The hash 0 is held apart, whatever the count.
                        let in_table = held.len() - usize::from(held.contains(&0));
                        let counts = if hash != 0 && in_table == MAX_DISTINCT {
                            !held.contains(&hash)
                        } else {
                            held.insert(hash)
                        };
                        assert_eq!(table.insert_unit(hash), counts);
                        counted += usize::from(counts);
                    }
                    assert_eq!(table.len(), counted);
                });
            }
        }
    }

    #[test]
    fn the_hash_zero_is_counted_across_a_growth() {
        let seen: Vec<(u64, u32)> = DistinctFeatures::with(0, |table| {
            assert_eq!(table.insert(0, 3), Seen::New);
            for hash in 1..=MIN_SLOTS as u64 {
                table.insert(hash, 1);
            }
            assert_eq!(table.insert(0, 2), Seen::Before(3));
            assert_eq!(table.len(), MIN_SLOTS + 1);
            table.iter().collect()
        });
        assert_eq!(seen.last(), Some(&(0, 3)));
    }

    #[test]
    fn a_small_document_after_a_large_one_uses_a_small_part_of_its_table() {
        DistinctFeatures::with(KEPT_SLOTS / 2, |table| {
            for hash in 1..=100 {
                table.insert_unit(spread(hash));
            }
        });
        DistinctFeatures::with(10, |table| {
            assert_eq!(table.slots.len(), KEPT_SLOTS);
            assert_eq!(table.mask + 1, MIN_SLOTS);
            // None of the large document's hashes is left.
            assert!((1..=100).all(|hash| table.insert_unit(spread(hash))));
        });
    }

    #[test]
    fn the_next_document_finds_the_table_empty() {
        for _ in 0..2 {
            DistinctFeatures::with(300, |table| {
                assert!((1..=300).all(|hash| table.insert_unit(spread(hash))));
                assert!((1..=300).all(|hash| !table.insert_unit(spread(hash))));
                assert_eq!(table.len(), 300);
            });
        }
    }

    #[test]
    fn a_huge_document_does_not_keep_its_table() {
        DistinctFeatures::with(0, |table| {
            for hash in 1..=KEPT_SLOTS as u64 {
                table.insert(hash, 1);
            }
        });
        let kept = TABLE.with(|kept| kept.borrow().as_ref().map(|table| table.slots.len()));
        assert_eq!(kept, None);
        DistinctFeatures::with(0, |table| {
            table.insert(7, 1);
            assert_eq!(table.len(), 1);
        });
        let kept = TABLE.with(|kept| kept.borrow().as_ref().map(|table| table.slots.len()));
        assert_eq!(kept, Some(MIN_SLOTS));
    }
}
