//! The distinct features of one document with the largest weight each was
//! seen with (binary weighting): an open-addressing table of feature
//! hashes, which are uniform already, so a hash's low bits are its slot.
//!
//! One table serves a thread's documents in turn. It remembers the slots
//! it filled, so emptying it and walking its features cost what the
//! document had, not what the table holds: a map grown from nothing for
//! each document rehashed at every doubling (an eighth of fingerprinting
//! the generated corpus), and one kept between documents cost its whole
//! capacity to clear and to walk.

use std::cell::RefCell;

/// Slots a table starts with (a power of two).
const FIRST_SLOTS: usize = 1 << 10;

/// Slots a thread's table keeps between documents (48 KiB): a table
/// grown by a large document and kept scattered the next small ones over
/// a megabyte, and each of their features missed the cache.
const KEPT_SLOTS: usize = 1 << 12;

/// Distinct feature hashes and their largest weights.
#[derive(Debug)]
pub(crate) struct DistinctFeatures {
    /// Hashes, 0 where empty (the hash 0 is held apart).
    slots: Vec<u64>,
    weights: Vec<u32>,
    /// The filled slots, in the order they were filled.
    filled: Vec<u32>,
    /// The weight of the hash 0, if seen.
    zero: Option<u32>,
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
            filled: Vec::new(),
            zero: None,
        }
    }

    /// Runs `work` with an empty table: this thread's, kept from its last
    /// document unless that one grew it past [`KEPT_SLOTS`].
    pub(crate) fn with<T>(work: impl FnOnce(&mut DistinctFeatures) -> T) -> T {
        let lent = TABLE.with(|kept| kept.borrow_mut().take());
        let mut table = lent.unwrap_or_else(|| DistinctFeatures::new(FIRST_SLOTS));
        let result = work(&mut table);
        if table.slots.len() <= KEPT_SLOTS {
            table.clear();
            TABLE.with(|kept| *kept.borrow_mut() = Some(table));
        }
        result
    }

    /// Counts `hash` seen with `weight`.
    #[inline]
    pub(crate) fn insert(&mut self, hash: u64, weight: u32) {
        if hash == 0 {
            self.zero = Some(self.zero.map_or(weight, |seen| seen.max(weight)));
            return;
        }
        let mask = self.slots.len() - 1;
        let mut at = hash as usize & mask;
        loop {
            let slot = self.slots[at];
            if slot == hash {
                self.weights[at] = self.weights[at].max(weight);
                return;
            }
            if slot == 0 {
                self.slots[at] = hash;
                self.weights[at] = weight;
                self.filled.push(at as u32);
                // At most half full: probes stay short.
                if self.filled.len() * 2 > self.slots.len() {
                    self.grow();
                }
                return;
            }
            at = (at + 1) & mask;
        }
    }

    /// How many distinct hashes were seen.
    pub(crate) fn len(&self) -> usize {
        self.filled.len() + usize::from(self.zero.is_some())
    }

    /// Each distinct hash with its largest weight, in the order first seen
    /// (the hash 0 last).
    pub(crate) fn iter(&self) -> impl Iterator<Item = (u64, u32)> + '_ {
        let filled = self.filled.iter().map(|&at| {
            let at = at as usize;
            (self.slots[at], self.weights[at])
        });
        filled.chain(self.zero.map(|weight| (0, weight)))
    }

    /// Twice the slots, every hash placed again.
    fn grow(&mut self) {
        let mut bigger = DistinctFeatures::new(self.slots.len() * 2);
        bigger.filled.reserve(self.filled.len());
        for (hash, weight) in self.iter().filter(|&(hash, _)| hash != 0) {
            bigger.insert(hash, weight);
        }
        bigger.zero = self.zero;
        *self = bigger;
    }

    /// Empties the table, keeping its slots.
    fn clear(&mut self) {
        for &at in &self.filled {
            self.slots[at as usize] = 0;
        }
        self.filled.clear();
        self.zero = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;

    proptest! {
        /// The same distinct hashes and largest weights as a map, however
        /// the table grows and whatever documents it served before.
        #[test]
        fn holds_what_a_map_holds(
            documents in proptest::collection::vec(
                proptest::collection::vec((0u64..3000, 0u32..4), 0..3000),
                1..4,
            ),
        ) {
            for features in documents {
                let mut expected: HashMap<u64, u32> = HashMap::new();
                for &(hash, weight) in &features {
                    // Spread over the whole range, the hash 0 included.
                    let hash = hash.wrapping_mul(0x9e37_79b9_7f4a_7c15);
                    let seen = expected.entry(hash).or_insert(weight);
                    *seen = (*seen).max(weight);
                }
                let got: HashMap<u64, u32> = DistinctFeatures::with(|table| {
                    for &(hash, weight) in &features {
                        table.insert(hash.wrapping_mul(0x9e37_79b9_7f4a_7c15), weight);
                    }
                    assert_eq!(table.len(), expected.len());
                    table.iter().collect()
                });
                prop_assert_eq!(got, expected);
            }
        }
    }

    #[test]
    fn the_hash_zero_is_counted_across_a_growth() {
        let seen: Vec<(u64, u32)> = DistinctFeatures::with(|table| {
            table.insert(0, 3);
            for hash in 1..=FIRST_SLOTS as u64 {
                table.insert(hash, 1);
            }
            table.insert(0, 2);
            assert_eq!(table.len(), FIRST_SLOTS + 1);
            table.iter().collect()
        });
        assert_eq!(seen.last(), Some(&(0, 3)));
    }

    #[test]
    fn a_huge_document_does_not_keep_its_table() {
        DistinctFeatures::with(|table| {
            for hash in 1..=KEPT_SLOTS as u64 {
                table.insert(hash, 1);
            }
        });
        let kept = TABLE.with(|kept| kept.borrow().as_ref().map(|table| table.slots.len()));
        assert_eq!(kept, None);
        DistinctFeatures::with(|table| {
            table.insert(7, 1);
            assert_eq!(table.len(), 1);
        });
        let kept = TABLE.with(|kept| kept.borrow().as_ref().map(|table| table.slots.len()));
        assert_eq!(kept, Some(FIRST_SLOTS));
    }
}
