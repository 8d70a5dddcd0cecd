//! Kept short texts by their MinHash band keys (src/verify/bands.rs): one
//! table a band, each a multimap from a 32-bit key to the kept numbers
//! with it. A query proposes every kept text that shares a band key with
//! it; exact Jaccard decides.
//!
//! A table is an array of buckets of 8 entries, one cache line each. An
//! entry is a key and a kept number in 8 bytes, in the key's home bucket
//! or, once that is full, the first bucket after it with room. So a query
//! reads one line, rarely two, and compares all 8 entries without a
//! branch on their contents; the 16 tables' lines are read together and
//! their misses overlap. (Slots probed one by one, each the condition of
//! the next, took 1.5 times as long a query, 1.5 times as long an
//! insert.) A count of each bucket's entries, a byte apart from the
//! buckets, says where the next one goes without reading the bucket.
//! A table grows by half before it is three quarters full, so it holds
//! 10.8 to 16.3 bytes a kept text, counts included.

use crate::verify::bands::{BANDS, BandKeys};

/// An empty slot: no entry is ever this (see [`entry`]).
const EMPTY: u64 = u64::MAX;

/// Entries a bucket holds: a cache line.
const WIDTH: usize = 8;

/// Buckets of a table before its first entry.
const FIRST_BUCKETS: usize = 2;

/// One cache line of entries.
#[derive(Debug, Clone, Copy)]
#[repr(align(64))]
struct Bucket([u64; WIDTH]);

/// A bucket with no entry.
const EMPTY_BUCKET: Bucket = Bucket([EMPTY; WIDTH]);

/// One band's table.
#[derive(Debug, Clone)]
struct Table {
    /// Entries, `key << 32 | kept`, each bucket filled from its start;
    /// the rest [`EMPTY`].
    buckets: Vec<Bucket>,
    /// Entries in each bucket.
    used: Vec<u8>,
    len: usize,
}

/// The slot value of `kept` under `key`. Key `u32::MAX` is held as the
/// key below it, so no entry is [`EMPTY`]: a key shared by mistake only
/// proposes a candidate more.
#[inline]
fn entry(key: u32, kept: u32) -> u64 {
    (u64::from(stored_key(key)) << 32) | u64::from(kept)
}

#[inline]
fn stored_key(key: u32) -> u32 {
    key.min(u32::MAX - 1)
}

impl Table {
    fn new() -> Table {
        Table {
            buckets: vec![EMPTY_BUCKET; FIRST_BUCKETS],
            used: vec![0; FIRST_BUCKETS],
            len: 0,
        }
    }

    /// The bucket a key's entries start from: the key scaled to the
    /// table (its top bits, for a power of two), so any length will do,
    /// and buckets read in order give keys in about increasing order,
    /// which makes growing a sequential pass.
    #[inline]
    fn home(&self, key: u32) -> usize {
        ((u64::from(key) * self.buckets.len() as u64) >> 32) as usize
    }

    fn insert(&mut self, key: u32, kept: u32) {
        if (self.len + 1) * 4 > self.buckets.len() * WIDTH * 3 {
            self.grow();
        }
        self.place(entry(key, kept));
        self.len += 1;
    }

    /// The bucket after `at`, the first after the last.
    #[inline]
    fn next(&self, at: usize) -> usize {
        if at + 1 == self.buckets.len() {
            0
        } else {
            at + 1
        }
    }

    /// Writes `value` in the first bucket of its run with room.
    #[inline]
    fn place(&mut self, value: u64) {
        let mut at = self.home((value >> 32) as u32);
        loop {
            let used = usize::from(self.used[at]);
            if used < WIDTH {
                self.buckets[at].0[used] = value;
                self.used[at] += 1;
                return;
            }
            at = self.next(at);
        }
    }

    /// Half as many buckets again, every entry placed again.
    fn grow(&mut self) {
        let buckets = self.buckets.len() + self.buckets.len().div_ceil(2);
        let old = std::mem::replace(&mut self.buckets, vec![EMPTY_BUCKET; buckets]);
        let old_used = std::mem::replace(&mut self.used, vec![0; buckets]);
        for (bucket, &used) in old.iter().zip(&old_used) {
            for &value in &bucket.0[..usize::from(used)] {
                self.place(value);
            }
        }
    }

    /// Calls `found` with each kept number under `key`.
    #[inline]
    fn query(&self, key: u32, found: &mut impl FnMut(u32)) {
        let mut at = self.home(key);
        let wanted = u64::from(stored_key(key));
        loop {
            let bucket = &self.buckets[at].0;
            for &value in bucket {
                if value >> 32 == wanted {
                    found(value as u32);
                }
            }
            // A bucket with room ends the run: an entry goes past its
            // home only when every bucket from there was full.
            if bucket[WIDTH - 1] == EMPTY {
                return;
            }
            at = self.next(at);
        }
    }

    /// The first line a query of `key` reads.
    #[inline]
    fn first_read(&self, key: u32) -> u64 {
        self.buckets[self.home(key)].0[0]
    }

    #[cfg(test)]
    fn bytes(&self) -> usize {
        self.buckets.len() * (std::mem::size_of::<Bucket>() + 1)
    }
}

/// Kept short texts by band key.
#[derive(Debug, Clone)]
pub struct BandIndex {
    tables: Vec<Table>,
}

impl Default for BandIndex {
    fn default() -> Self {
        BandIndex::new()
    }
}

impl BandIndex {
    /// An empty index.
    pub fn new() -> BandIndex {
        BandIndex {
            tables: (0..BANDS).map(|_| Table::new()).collect(),
        }
    }

    /// Adds kept text `kept` with these band keys.
    pub fn insert(&mut self, keys: &BandKeys, kept: u32) {
        for (table, &key) in self.tables.iter_mut().zip(keys) {
            table.insert(key, kept);
        }
    }

    /// Calls `found` with every kept text that shares a band key with
    /// `keys`, once for each band it shares, in no particular order.
    pub fn query(&self, keys: &BandKeys, mut found: impl FnMut(u32)) {
        self.prefetch(keys);
        for (table, &key) in self.tables.iter().zip(keys) {
            table.query(key, &mut found);
        }
    }

    /// Reads the slot where each of `keys` starts, so that an insert or a
    /// query of them soon after finds it in cache. The tables are far
    /// larger than the cache, so each key costs a miss: read one after
    /// another, every miss waits for the one before (inserting the kept
    /// texts of 10^6 address lines one by one took half the deciding
    /// thread's time), read together they overlap.
    pub fn prefetch(&self, keys: &BandKeys) {
        let mut touched = 0;
        for (table, &key) in self.tables.iter().zip(keys) {
            touched ^= table.first_read(key);
        }
        std::hint::black_box(touched);
    }

    /// Kept texts held.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.tables.first().map_or(0, |table| table.len)
    }

    /// Bytes of its tables.
    #[cfg(test)]
    fn bytes(&self) -> usize {
        self.tables.iter().map(Table::bytes).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// A query returns exactly the kept texts that share a band key,
        /// as many times as they share one, whatever the growth did.
        #[test]
        fn query_finds_exactly_the_texts_that_share_a_band(
            kept in proptest::collection::vec(proptest::collection::vec(0u32..6, BANDS), 0..200),
            query in proptest::collection::vec(0u32..6, BANDS),
            high in any::<bool>(),
        ) {
            // Few distinct keys, so runs are long and keys collide; and
            // keys at the top of the range, where the empty slot lies.
            let key = |k: u32| if high { u32::MAX - k } else { k };
            let as_keys = |keys: &[u32]| -> BandKeys {
                let mut out = [0; BANDS];
                for (slot, &k) in out.iter_mut().zip(keys) {
                    *slot = key(k);
                }
                out
            };
            let mut index = BandIndex::new();
            for (number, keys) in kept.iter().enumerate() {
                index.insert(&as_keys(keys), number as u32);
            }
            let query = as_keys(&query);
            let mut found = Vec::new();
            index.query(&query, |kept| found.push(kept));
            found.sort_unstable();
            let mut expected = Vec::new();
            let held = |k: u32| k.min(u32::MAX - 1);
            for (number, keys) in kept.iter().enumerate() {
                for (band, &k) in keys.iter().enumerate() {
                    if held(key(k)) == held(query[band]) {
                        expected.push(number as u32);
                    }
                }
            }
            expected.sort_unstable();
            prop_assert_eq!(found, expected);
            prop_assert_eq!(index.len(), kept.len());
        }
    }

    #[test]
    fn the_entry_that_would_be_empty_is_still_found() {
        let mut index = BandIndex::new();
        index.insert(&[u32::MAX; BANDS], u32::MAX);
        let mut found = Vec::new();
        index.query(&[u32::MAX; BANDS], |kept| found.push(kept));
        assert_eq!(found, vec![u32::MAX; BANDS]);
    }

    #[test]
    fn tables_stay_under_three_quarters_full() {
        let mut index = BandIndex::new();
        for number in 0..1000u32 {
            let keys: BandKeys =
                std::array::from_fn(|band| number.wrapping_mul(2_654_435_761) ^ band as u32);
            index.insert(&keys, number);
        }
        assert_eq!(index.len(), 1000);
        // 2 buckets of 8, grown by half (rounded up): 3, 5, 8, 12, 18,
        // 27, 41, 62, 93, 140, 210; 1000 / (210 * 8) is under 3/4,
        // 1000 / (140 * 8) is not. Each bucket is 64 bytes and its count.
        assert_eq!(index.bytes(), BANDS * 210 * 65);
    }
}
