//! The first kept record with each feature digest (or content key), so a
//! record with the same features is dropped without a search.
//!
//! One entry per kept record, so its size is per-record memory: an
//! open-addressing table with the keys and the record numbers in two
//! arrays takes 12 bytes a slot, where a `HashMap<u64, u32>` takes 16 and a
//! control byte (at 10^7 kept addresses that map was 285 MB, a quarter of
//! the run's peak).

use std::hash::Hasher;

use super::index::MixHasher;

/// A slot without an entry (record numbers stay below it: `MAX_KEPT`).
const EMPTY: u32 = u32::MAX;

/// Slots at first (a power of two).
const FIRST_SLOTS: usize = 16;

/// Kept record numbers by key.
#[derive(Debug)]
pub struct DigestMap {
    keys: Vec<u64>,
    numbers: Vec<u32>,
    len: usize,
}

impl Default for DigestMap {
    fn default() -> Self {
        DigestMap {
            keys: vec![0; FIRST_SLOTS],
            numbers: vec![EMPTY; FIRST_SLOTS],
            len: 0,
        }
    }
}

impl DigestMap {
    /// The record number of `key`, if any.
    pub fn get(&self, key: u64) -> Option<u32> {
        match self.find(key) {
            Ok(slot) => Some(self.numbers[slot]),
            Err(_) => None,
        }
    }

    /// Whether `key` has a record.
    pub fn contains(&self, key: u64) -> bool {
        self.find(key).is_ok()
    }

    /// Gives `key` the record `number` (below `u32::MAX`), replacing any.
    pub fn insert(&mut self, key: u64, number: u32) {
        debug_assert!(number != EMPTY, "record numbers stay below u32::MAX");
        // At most seven eighths full: probes stay short.
        if (self.len + 1) * 8 > self.keys.len() * 7 {
            self.grow();
        }
        match self.find(key) {
            Ok(slot) => self.numbers[slot] = number,
            Err(slot) => {
                self.keys[slot] = key;
                self.numbers[slot] = number;
                self.len += 1;
            }
        }
    }

    /// The slot of `key` (`Ok`), or the empty slot where it would go.
    fn find(&self, key: u64) -> Result<usize, usize> {
        let mask = self.keys.len() - 1;
        let mut slot = home(key) & mask;
        loop {
            if self.numbers[slot] == EMPTY {
                return Err(slot);
            }
            if self.keys[slot] == key {
                return Ok(slot);
            }
            slot = (slot + 1) & mask;
        }
    }

    /// Twice the slots, every entry placed again.
    fn grow(&mut self) {
        let slots = self.keys.len() * 2;
        let keys = std::mem::replace(&mut self.keys, vec![0; slots]);
        let numbers = std::mem::replace(&mut self.numbers, vec![EMPTY; slots]);
        for (key, number) in keys.into_iter().zip(numbers) {
            if number != EMPTY
                && let Err(slot) = self.find(key)
            {
                self.keys[slot] = key;
                self.numbers[slot] = number;
            }
        }
    }
}

/// Where `key` is looked for first.
fn home(key: u64) -> usize {
    let mut hasher = MixHasher::default();
    hasher.write_u64(key);
    hasher.finish() as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;

    proptest! {
        // Whatever is inserted, in any order and with repeats, the map
        // answers as a HashMap does; keys from a small range collide.
        #[test]
        fn it_answers_as_a_hash_map(
            steps in proptest::collection::vec((0u64..300, 0u32..1000, any::<bool>()), 0..2000),
        ) {
            let mut map = DigestMap::default();
            let mut expected = HashMap::new();
            for (key, number, wide) in steps {
                let key = if wide { key.wrapping_mul(0x9E37_79B9_7F4A_7C15) } else { key };
                map.insert(key, number);
                expected.insert(key, number);
            }
            for key in 0u64..300 {
                for key in [key, key.wrapping_mul(0x9E37_79B9_7F4A_7C15)] {
                    prop_assert_eq!(map.get(key), expected.get(&key).copied());
                    prop_assert_eq!(map.contains(key), expected.contains_key(&key));
                }
            }
            prop_assert_eq!(map.len, expected.len());
        }
    }

    #[test]
    fn the_table_stays_at_most_seven_eighths_full() {
        let mut map = DigestMap::default();
        for key in 0..100_000u64 {
            map.insert(key, key as u32);
        }
        assert!(map.len * 8 <= map.keys.len() * 7);
        assert_eq!(map.keys.len(), map.numbers.len());
        // And no more than twice what that needs.
        assert!(
            map.len * 16 > map.keys.len() * 7 / 2,
            "{} slots",
            map.keys.len()
        );
        assert_eq!(map.get(99_999), Some(99_999));
    }
}
