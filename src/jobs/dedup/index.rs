//! An incremental index of 64-bit fingerprints: insert one at a time, ask
//! at any time for every fingerprint inserted so far within Hamming
//! distance k of a query. Exact for every k.
//!
//! Multi-index hashing after Manku, Jain and Das Sarma (docs/SEARCH.md):
//! the 64 bits are cut into m > k blocks of contiguous bits; two
//! fingerprints within k differ in at most k blocks, so they agree on at
//! least m - k of them. There is one table for each choice of m - k *key*
//! blocks; a table maps the key bits of a fingerprint (the fingerprint
//! masked to its key blocks) to a chain of the fingerprints with those
//! bits. A query walks the chain of its key in every table and keeps the
//! fingerprints within k. No permutation is needed: a masked value is a
//! hash key.
//!
//! Memory: 8 bytes (fingerprint) + 4 (payload) + 4 per table (chain link)
//! per entry, plus one map entry per distinct key of each table. The
//! number of blocks trades tables (memory, lookups) against key width
//! (chain length): [`Layout::for_distance`] picks it for about a million
//! entries, with at most [`MAX_TABLES`] tables.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Tables at most: each costs 4 bytes per entry.
pub const MAX_TABLES: u64 = 48;

/// The entries the layout is planned for.
const PLANNED_ENTRIES: f64 = (1u64 << 20) as f64;

/// What one table lookup costs, in fingerprint comparisons.
const LOOKUP_COST: f64 = 16.0;

/// The blocks and tables of an index for one distance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The distance k.
    pub max_distance: u32,
    /// The number of blocks m (> k).
    pub blocks: u32,
    /// The mask of each table: the bits of its key blocks.
    pub masks: Vec<u64>,
}

impl Layout {
    /// The cheapest layout for distance `k` (at most 64: larger is taken
    /// as 63, which every pair of fingerprints but complements meets).
    pub fn for_distance(k: u32) -> Layout {
        let k = k.min(63);
        let mut best: Option<(f64, u32)> = None;
        for m in k + 1..=64 {
            let tables = binomial(m, m - k);
            // The first layout (m = k + 1) is always allowed, whatever its
            // number of tables: it is the fewest there can be.
            if tables > MAX_TABLES as f64 && m > k + 1 {
                break;
            }
            let key_bits = f64::from(m - k) * 64.0 / f64::from(m);
            let cost = tables * (LOOKUP_COST + PLANNED_ENTRIES / key_bits.exp2());
            if best.is_none_or(|(least, _)| cost < least) {
                best = Some((cost, m));
            }
        }
        let blocks = best.map_or(k + 1, |(_, m)| m);
        Layout::new(k, blocks)
    }

    /// The layout with `blocks` blocks (`k < blocks <= 64`).
    pub fn new(max_distance: u32, blocks: u32) -> Layout {
        let blocks = blocks.clamp(1, 64);
        let block_masks = block_masks(blocks);
        let chosen = blocks.saturating_sub(max_distance).max(1) as usize;
        let mut masks = Vec::new();
        let mut pick = Vec::with_capacity(chosen);
        choose(&block_masks, chosen, 0, &mut pick, &mut masks);
        Layout {
            max_distance,
            blocks,
            masks,
        }
    }
}

/// The masks of `m` contiguous blocks covering the 64 bits, the first
/// `64 mod m` one bit wider.
fn block_masks(m: u32) -> Vec<u64> {
    let (narrow, wide) = (64 / m, 64 % m);
    let mut masks = Vec::with_capacity(m as usize);
    let mut start = 0u32;
    for block in 0..m {
        let width = narrow + u32::from(block < wide);
        let mask = if width >= 64 {
            u64::MAX
        } else {
            ((1u64 << width) - 1) << start
        };
        masks.push(mask);
        start += width;
    }
    masks
}

/// Every union of `left` more blocks from `blocks[from..]`, added to the
/// ones in `pick`.
fn choose(blocks: &[u64], left: usize, from: usize, pick: &mut Vec<u64>, out: &mut Vec<u64>) {
    if left == 0 {
        out.push(pick.iter().fold(0, |mask, block| mask | block));
        return;
    }
    for at in from..blocks.len() {
        if blocks.len() - at < left {
            break;
        }
        pick.push(blocks[at]);
        choose(blocks, left - 1, at + 1, pick, out);
        pick.pop();
    }
}

/// C(n, k) as a float.
fn binomial(n: u32, k: u32) -> f64 {
    if k > n {
        return 0.0;
    }
    let k = k.min(n - k);
    (0..k).fold(1.0, |acc, i| acc * f64::from(n - i) / f64::from(i + 1))
}

/// A hasher for keys that are already well mixed (bits of a hash): one
/// multiplication instead of SipHash.
#[derive(Default)]
pub struct MixHasher(u64);

impl Hasher for MixHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(u64::from(byte));
        }
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = (self.0 ^ value)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(29);
    }

    fn write_u32(&mut self, value: u32) {
        self.write_u64(u64::from(value));
    }
}

/// A `HashMap` keyed by well-mixed `u64`s.
pub type MixMap<V> = HashMap<u64, V, BuildHasherDefault<MixHasher>>;

/// One table: key bits to the last entry inserted with them; each entry
/// links to the one inserted before it with the same key (0: none; else
/// entry + 1).
#[derive(Debug)]
struct Table {
    mask: u64,
    heads: MixMap<u32>,
    next: Vec<u32>,
}

/// The incremental index; payloads are the caller's numbers.
#[derive(Debug)]
pub struct Index {
    max_distance: u32,
    tables: Vec<Table>,
    fingerprints: Vec<u64>,
    payloads: Vec<u32>,
}

impl Index {
    /// An empty index for distance `max_distance`.
    pub fn new(max_distance: u32) -> Index {
        Index::with_layout(Layout::for_distance(max_distance))
    }

    /// An empty index with a given layout.
    pub fn with_layout(layout: Layout) -> Index {
        Index {
            max_distance: layout.max_distance,
            tables: layout
                .masks
                .iter()
                .map(|&mask| Table {
                    mask,
                    heads: MixMap::default(),
                    next: Vec::new(),
                })
                .collect(),
            fingerprints: Vec::new(),
            payloads: Vec::new(),
        }
    }

    /// How many entries.
    pub fn len(&self) -> usize {
        self.fingerprints.len()
    }

    /// Whether it has none.
    pub fn is_empty(&self) -> bool {
        self.fingerprints.is_empty()
    }

    /// Adds `fingerprint` with `payload`. Past `u32::MAX - 1` entries,
    /// nothing more is added: `false`.
    pub fn insert(&mut self, fingerprint: u64, payload: u32) -> bool {
        let Ok(entry) = u32::try_from(self.fingerprints.len() + 1) else {
            return false;
        };
        if entry == u32::MAX {
            return false;
        }
        for table in &mut self.tables {
            let head = table.heads.entry(fingerprint & table.mask).or_insert(0);
            table.next.push(*head);
            *head = entry;
        }
        self.fingerprints.push(fingerprint);
        self.payloads.push(payload);
        true
    }

    /// Appends to `out` the payload of every entry within the distance of
    /// `fingerprint`, with the distance; an entry may come more than once
    /// (once per table it is met in).
    pub fn query(&self, fingerprint: u64, out: &mut Vec<(u32, u32)>) {
        for table in &self.tables {
            let mut at = table
                .heads
                .get(&(fingerprint & table.mask))
                .copied()
                .unwrap_or(0);
            while at != 0 {
                let entry = at as usize - 1;
                let distance = (self.fingerprints[entry] ^ fingerprint).count_ones();
                if distance <= self.max_distance {
                    out.push((self.payloads[entry], distance));
                }
                at = table.next[entry];
            }
        }
    }

    /// Bytes held per entry, maps aside.
    pub fn bytes_per_entry(&self) -> usize {
        8 + 4 + 4 * self.tables.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn blocks_cover_every_bit_once() {
        for m in 1..=64 {
            let masks = block_masks(m);
            assert_eq!(masks.len(), m as usize);
            assert_eq!(masks.iter().fold(0, |all, mask| all | mask), u64::MAX);
            assert_eq!(masks.iter().map(|mask| mask.count_ones()).sum::<u32>(), 64);
        }
    }

    #[test]
    fn layouts_have_one_table_per_choice_of_key_blocks() {
        let layout = Layout::new(3, 5);
        assert_eq!(layout.masks.len(), 10);
        assert!(layout.masks.iter().all(|mask| mask.count_ones() >= 25));
        assert_eq!(Layout::new(0, 1).masks, [u64::MAX]);
        for k in 0..=32 {
            let layout = Layout::for_distance(k);
            assert!(layout.blocks > k);
            assert!(layout.masks.len() as u64 <= MAX_TABLES.max(u64::from(k) + 1));
        }
        assert_eq!(Layout::for_distance(8).blocks, 10);
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

        #[test]
        fn queries_find_exactly_the_entries_within_k(
            seeds in proptest::collection::vec(any::<u64>(), 1..60),
            flips in proptest::collection::vec((0usize..60, any::<u64>(), 0u32..20), 0..60),
            k in 0u32..=32,
        ) {
            // Near fingerprints: seeds and copies with a few bits flipped.
            let mut fingerprints = seeds.clone();
            for (from, noise, bits) in flips {
                let mut value = seeds[from % seeds.len()];
                for bit in 0..bits {
                    value ^= 1 << (noise.rotate_left(bit * 7) % 64);
                }
                fingerprints.push(value);
            }
            let mut index = Index::new(k);
            for (at, &fingerprint) in fingerprints.iter().enumerate() {
                let mut found = Vec::new();
                index.query(fingerprint, &mut found);
                found.sort_unstable();
                found.dedup();
                let expected: Vec<(u32, u32)> = fingerprints[..at]
                    .iter()
                    .enumerate()
                    .map(|(i, &other)| (i as u32, (other ^ fingerprint).count_ones()))
                    .filter(|&(_, distance)| distance <= k)
                    .collect();
                prop_assert_eq!(found, expected);
                prop_assert!(index.insert(fingerprint, at as u32));
            }
            prop_assert_eq!(index.len(), fingerprints.len());
        }
    }
}
