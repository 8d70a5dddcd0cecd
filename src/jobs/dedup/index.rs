//! An incremental index of 64-bit fingerprints: insert one at a time, ask
//! at any time for every fingerprint inserted so far within Hamming
//! distance k of a query. Exact for every k.
//!
//! Multi-index hashing after Manku, Jain and Das Sarma (docs/SEARCH.md):
//! the 64 bits are cut into m > k blocks of contiguous bits; two
//! fingerprints within k differ in at most k blocks, so they agree on at
//! least m - k of them. There is one table for each choice of m - k *key*
//! blocks; a table maps the key bits of a fingerprint (the fingerprint
//! masked to its key blocks) to a bucket of the fingerprints with those
//! bits, held inline so a query scans each bucket in one sequential pass
//! (a chain through a shared array cost a cache miss a step: 50 times
//! slower on 10^5 kept addresses). No permutation is needed: a masked
//! value is a hash key.
//!
//! A table whose key is one run of bits, once it holds twice as many
//! entries as there are keys, indexes an array of buckets by the key's
//! bits instead of hashing it: a lookup is a cache miss fewer. dedup of
//! 10^6 address lines (4 tables of 16-bit keys, each looked up at 17 keys)
//! spent 16% of its time on lookups, 9% since: wall 0.94 of before.
//!
//! Memory: 12 bytes (fingerprint and payload) per entry per table, plus one
//! map entry and bucket per distinct key of each table (a bucket per key
//! of a table held direct). The number of
//! blocks trades tables (memory, lookups) against key width (bucket
//! length); [`Layout::for_distance`] takes k + 1 blocks, a table each, so
//! a query scans about k + 1 buckets of n / 2^(64 / (k + 1)) entries:
//! fine for a few thousand entries, quadratic past that. So an index made
//! by [`Index::new`] grows: each time its size doubles it takes the layout
//! of k + 1 to k + 4 blocks (and from 65,536 entries, of fewer
//! blocks looked up within a radius: [`Layout::new`]) that its cost model
//! says decides the next records cheapest (table visits against bucket
//! lengths measured on a sample of its own entries, and the rebuild),
//! among those whose tables fit [`GROWTH_BUDGET`] at twice the size, and
//! rebuilds its tables if that is another one.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::hash::{BuildHasherDefault, Hasher};

use crate::search::within::for_each_within;

/// The blocks and tables of an index for one distance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The distance k.
    pub max_distance: u32,
    /// The number of blocks m.
    pub blocks: u32,
    /// The mask of each table: the bits of its key blocks.
    pub masks: Vec<u64>,
    /// How many key bits a query may differ in and still be looked up:
    /// 0 with more blocks than k, else floor(k / m).
    pub radius: u32,
}

impl Layout {
    /// The layout for distance `k`: k + 1 blocks, one table each (at
    /// most 64 blocks: a larger k is taken as 63), each looked up once.
    /// More blocks would shorten the buckets but cost C(m, k) tables, each
    /// 12 bytes per entry; fewer cost lookups within a radius.
    pub fn for_distance(k: u32) -> Layout {
        let k = k.min(63);
        Layout::new(k, k + 1)
    }

    /// The layout with `blocks` blocks (1 to 64). With more blocks than
    /// k, two fingerprints within k agree on m - k of them: one table for
    /// each choice of m - k blocks, looked up by the query's own key.
    /// With at most k, they differ in at most floor(k / m) bits in one of
    /// them (multi-index hashing, Norouzi, Punjani and Fleet, CVPR 2012):
    /// one table a block, looked up at every key within that radius of the
    /// query's. Fewer tables (less memory) for more lookups.
    ///
    /// No blocks: one table whose key is empty, so that a query compares
    /// every entry. Where the radius is wide and the index small, that is
    /// cheaper than k + 1 tables that each propose a share of it (at k =
    /// 20, 21 tables of 3-bit keys propose an eighth each).
    pub fn new(max_distance: u32, blocks: u32) -> Layout {
        if blocks == 0 {
            return Layout {
                max_distance,
                blocks: 0,
                masks: vec![0],
                radius: 0,
            };
        }
        let blocks = blocks.clamp(1, 64);
        let block_masks = block_masks(blocks);
        if blocks <= max_distance {
            return Layout {
                max_distance,
                blocks,
                masks: block_masks,
                radius: max_distance / blocks,
            };
        }
        let chosen = (blocks - max_distance) as usize;
        let mut masks = Vec::new();
        let mut pick = Vec::with_capacity(chosen);
        choose(&block_masks, chosen, 0, &mut pick, &mut masks);
        Layout {
            max_distance,
            blocks,
            masks,
            radius: 0,
        }
    }

    /// Lookups a query makes in a table of `mask`: the keys within the
    /// radius of its own.
    fn probes(&self, mask: u64) -> usize {
        (0..=self.radius)
            .map(|flipped| binomial(mask.count_ones(), flipped))
            .sum()
    }
}

/// C(n, r), saturating (0 when r > n).
fn binomial(n: u32, r: u32) -> usize {
    if r > n {
        return 0;
    }
    (0..r).fold(1usize, |c, i| {
        c.saturating_mul((n - i) as usize) / (i + 1) as usize
    })
}

/// Every set of at most `radius` bits of `mask`, the empty one first.
fn flips_within(mask: u64, radius: u32) -> Vec<u64> {
    let bits: Vec<u64> = (0..64)
        .map(|bit| 1u64 << bit)
        .filter(|b| mask & b != 0)
        .collect();
    let mut flips = vec![0u64];
    let mut frontier = vec![(0u64, 0usize)];
    for _ in 0..radius {
        let mut next = Vec::new();
        for &(flip, from) in &frontier {
            for (at, &bit) in bits.iter().enumerate().skip(from) {
                next.push((flip | bit, at + 1));
            }
        }
        flips.extend(next.iter().map(|&(flip, _)| flip));
        frontier = next;
    }
    flips
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

/// A hasher for keys made of some bits of a hash (a fingerprint masked to
/// its key blocks): MurmurHash3's 64-bit finaliser (two multiplications,
/// each after folding the high bits down) instead of SipHash. The folds
/// matter: a key whose set bits are all high (the top block) times a
/// constant keeps its low bits zero, and the hash map picks its slot from
/// the low bits, so the plain product this used before put every such key
/// in one of a few slots (a table of 65,536 keys probed thousands of slots
/// a lookup: dedup of 10^6 address lines took 13 s at `-k 3`, 3.3 s now).
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
        let mut x = self.0 ^ value;
        x = (x ^ (x >> 33)).wrapping_mul(0xff51_afd7_ed55_8ccd);
        x = (x ^ (x >> 33)).wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        self.0 = x ^ (x >> 33);
    }

    fn write_u32(&mut self, value: u32) {
        self.write_u64(u64::from(value));
    }
}

/// A `HashMap` keyed by well-mixed `u64`s.
pub type MixMap<V> = HashMap<u64, V, BuildHasherDefault<MixHasher>>;

/// The entries of one key. Most keys of a wide key hold one entry, held
/// in place: with a run of its own each (two allocations) such a table
/// took about 130 bytes an entry, and dedup of 10^6 address lines at
/// `-k 0` peaked at 493 MB (381 MB held in place).
#[derive(Debug, Default)]
enum Bucket {
    /// No entry: only in a table of [`Buckets::Direct`].
    #[default]
    Empty,
    One(u64, u32),
    Many(Run),
}

/// The fingerprints of a key with more than one entry, and their payloads,
/// read straight from the map slot: boxing the run cost a cache miss a
/// bucket (2% slower at the default radius), boxing the payloads alone
/// one a hit (4% on log lines, which meet many within k).
#[derive(Debug, Default)]
struct Run {
    fingerprints: Vec<u64>,
    payloads: Vec<u32>,
}

/// Buckets past this many entries grow by an eighth at a time, not by
/// doubling: the slack of doubling (a quarter of the entries on average)
/// was most of what a kept record cost beyond its 12 bytes a table.
const GROW_BY_EIGHTHS_FROM: usize = 64;

impl Run {
    fn push(&mut self, fingerprint: u64, payload: u32) {
        let len = self.fingerprints.len();
        if len >= GROW_BY_EIGHTHS_FROM && len == self.fingerprints.capacity() {
            self.fingerprints.reserve_exact(len / 8);
            self.payloads.reserve_exact(len / 8);
        }
        self.fingerprints.push(fingerprint);
        self.payloads.push(payload);
    }
}

impl Bucket {
    fn push(&mut self, fingerprint: u64, payload: u32) {
        match self {
            Bucket::Empty => *self = Bucket::One(fingerprint, payload),
            Bucket::One(first, first_payload) => {
                *self = Bucket::Many(Run {
                    fingerprints: vec![*first, fingerprint],
                    payloads: vec![*first_payload, payload],
                });
            }
            Bucket::Many(run) => run.push(fingerprint, payload),
        }
    }

    /// Its entries, in the order they came.
    fn entries(&self) -> impl Iterator<Item = (u64, u32)> + '_ {
        let (one, fingerprints, payloads) = match self {
            Bucket::Empty => (None, &[][..], &[][..]),
            Bucket::One(fingerprint, payload) => (Some((*fingerprint, *payload)), &[][..], &[][..]),
            Bucket::Many(run) => (None, &run.fingerprints[..], &run.payloads[..]),
        };
        one.into_iter()
            .chain(fingerprints.iter().copied().zip(payloads.iter().copied()))
    }

    /// Reads the first few cache lines of its fingerprints (their
    /// wrapping sum: a value the caller must use, so that they are read).
    #[inline]
    fn touch(&self) -> u64 {
        match self {
            Bucket::Empty => 0,
            Bucket::One(fingerprint, _) => *fingerprint,
            Bucket::Many(run) => run
                .fingerprints
                .iter()
                .step_by(8)
                .take(TOUCHED_LINES)
                .fold(0u64, |sum, &fingerprint| sum.wrapping_add(fingerprint)),
        }
    }

    /// Calls `hit(payload, distance)` for each entry within `max_distance`
    /// of `target`, in order.
    fn for_each_within(&self, target: u64, max_distance: u32, mut hit: impl FnMut(u32, u32)) {
        match self {
            Bucket::Empty => {}
            Bucket::One(fingerprint, payload) => {
                let distance = (fingerprint ^ target).count_ones();
                if distance <= max_distance {
                    hit(*payload, distance);
                }
            }
            Bucket::Many(run) => {
                for_each_within(&run.fingerprints, target, max_distance, |at, distance| {
                    hit(run.payloads[at], distance)
                });
            }
        }
    }
}

/// Buckets a query looks up before it scans them, and the cache lines
/// of each it reads first: a bucket's first lines are a cache miss each,
/// and a query of a large index visits dozens of buckets. Read one
/// bucket at a time, the misses came one after another: dedup of 10^6
/// address lines took 0.905 of the time once they overlapped, 3*10^5 log
/// lines 0.949. Eight lines a bucket measured no better than four.
const LOOKUPS_AT_ONCE: usize = 32;
const TOUCHED_LINES: usize = 4;

/// One table: key bits to the bucket of entries with them.
#[derive(Debug)]
struct Table {
    mask: u64,
    /// The key bits a query flips for each lookup (just 0 at radius 0).
    flips: Vec<u64>,
    buckets: Buckets,
}

/// A table's buckets by key.
#[derive(Debug)]
enum Buckets {
    /// Keys hashed: any mask, any size.
    Map(MixMap<Bucket>),
    /// Keys of one contiguous run of bits, from bit `shift`, as indices
    /// into an array of every key's bucket: a lookup is one cache miss
    /// fewer than a hash map's (its control bytes, then its slot). For a
    /// table with at least twice as many entries as keys
    /// ([`Buckets::direct_pays`]).
    Direct { shift: u32, buckets: Vec<Bucket> },
}

/// Widest key held as [`Buckets::Direct`] (2^20 buckets of 56 bytes).
const DIRECT_MAX_BITS: u32 = 20;

impl Buckets {
    /// Whether a table of `mask` with `entries` entries is better held
    /// direct: a contiguous key, and at least two entries a key. Then
    /// nearly every key has entries, and the array (56 bytes a key, 28 at
    /// most an entry) takes about what the map does (a slot a key met, at
    /// most 7/8 full).
    fn direct_pays(mask: u64, entries: usize) -> bool {
        let width = mask.count_ones();
        if mask == 0 || width > DIRECT_MAX_BITS {
            return false;
        }
        let contiguous = mask >> mask.trailing_zeros() == (1u64 << width) - 1;
        contiguous && (1usize << width).saturating_mul(2) <= entries
    }

    /// The bucket of `key` (the fingerprint masked), if it has entries.
    #[inline]
    fn get(&self, key: u64) -> Option<&Bucket> {
        match self {
            Buckets::Map(map) => map.get(&key),
            Buckets::Direct { shift, buckets } => buckets.get((key >> shift) as usize),
        }
    }

    /// Adds an entry under `key`.
    fn push(&mut self, key: u64, fingerprint: u64, payload: u32) {
        match self {
            Buckets::Map(map) => match map.entry(key) {
                Entry::Occupied(mut bucket) => bucket.get_mut().push(fingerprint, payload),
                Entry::Vacant(vacant) => {
                    vacant.insert(Bucket::One(fingerprint, payload));
                }
            },
            Buckets::Direct { shift, buckets } => {
                // Always there: the key is masked to its width.
                if let Some(bucket) = buckets.get_mut((key >> *shift) as usize) {
                    bucket.push(fingerprint, payload);
                }
            }
        }
    }

    /// Every bucket.
    fn values(&self) -> Box<dyn Iterator<Item = &Bucket> + '_> {
        match self {
            Buckets::Map(map) => Box::new(map.values()),
            Buckets::Direct { buckets, .. } => Box::new(buckets.iter()),
        }
    }

    /// The buckets of `map` held direct, for a table of `mask`
    /// (contiguous).
    fn direct_from(map: MixMap<Bucket>, mask: u64) -> Buckets {
        let shift = mask.trailing_zeros();
        let mut buckets: Vec<Bucket> = Vec::new();
        buckets.resize_with(1 << mask.count_ones(), Bucket::default);
        for (key, bucket) in map {
            buckets[(key >> shift) as usize] = bucket;
        }
        Buckets::Direct { shift, buckets }
    }
}

/// Memory the tables of a growing index may take, at twice its size.
pub const GROWTH_BUDGET: usize = 1 << 30;

/// The size at which a growing index first reviews its layout.
const FIRST_REVIEW: usize = 1 << 12;

/// The cost of a query's visit to a table (a hash-map probe and the
/// bucket it finds, each likely a cache miss), in fingerprint comparisons;
/// an insert's visit (which appends, now and then reallocating) costs
/// `INSERT_VISIT_FACTOR` times as much. Measured with random fingerprints
/// (`cargo bench --bench dedup_index`): at 500,000 entries a query took
/// 3.24 us with 7 tables of 9-bit keys and 1.81 us with 28 of 16-bit
/// keys, so a visit costs 61 ns and a comparison 0.41 ns (150 to one);
/// with AVX-512's population count (src/search/within.rs) 1.63 and 1.55
/// us, 54 ns and 0.18 ns (300 to one). Inserting 200,000 into 28 tables
/// took 205 ns a visit. The layout chosen changes the time, never the
/// answer, so it may depend on the CPU.
fn lookup_cost() -> f64 {
    if crate::search::within::wide_popcount() {
        300.0
    } else {
        150.0
    }
}
const INSERT_VISIT_FACTOR: f64 = 3.4;

/// Entries sampled to estimate how long each table's buckets run.
const REVIEW_SAMPLE: usize = 4096;

/// Of them, how many are compared pair by pair for a layout that looks up
/// keys within a radius.
const NEAR_SAMPLE: usize = 1024;

/// The size from which a growing index also weighs layouts of fewer
/// blocks than k + 1, looked up within a radius.
const PROBING_FROM: usize = 1 << 16;

/// The most lookups a query may make in one table (the keys within the
/// radius are listed up front: 2 blocks at k = 32 would be 2^31 of them).
const MAX_PROBES: usize = 1 << 10;

/// The incremental index; payloads are the caller's numbers.
#[derive(Debug)]
pub struct Index {
    /// The distance queries search within.
    max_distance: u32,
    /// The distance the tables were laid out for: at least
    /// `max_distance` (a layout for k is exact for any smaller distance).
    layout_distance: u32,
    blocks: u32,
    tables: Vec<Table>,
    len: usize,
    /// The size at which the layout is reviewed next (`usize::MAX`: never,
    /// the layout was given).
    review_at: usize,
    /// The modelled cost of a table visit ([`lookup_cost`]; tests lower it).
    lookup_cost: f64,
}

impl Index {
    /// An empty index for distance `max_distance`, which starts with k + 1
    /// tables and takes the layout its cost model prefers as it grows.
    pub fn new(max_distance: u32) -> Index {
        Index::growing(max_distance, lookup_cost())
    }

    /// [`Index::new`] with a table visit priced at `lookup_cost`.
    fn growing(max_distance: u32, lookup_cost: f64) -> Index {
        let mut index = Index::with_layout(Layout::for_distance(max_distance));
        index.review_at = FIRST_REVIEW;
        index.lookup_cost = lookup_cost;
        index
    }

    /// An empty index with a given layout, kept whatever the size.
    pub fn with_layout(layout: Layout) -> Index {
        Index {
            max_distance: layout.max_distance,
            layout_distance: layout.max_distance,
            blocks: layout.blocks,
            tables: layout
                .masks
                .iter()
                .map(|&mask| Table {
                    mask,
                    flips: flips_within(mask, layout.radius),
                    buckets: Buckets::Map(MixMap::default()),
                })
                .collect(),
            len: 0,
            review_at: usize::MAX,
            lookup_cost: lookup_cost(),
        }
    }

    /// The number of blocks of the layout in use.
    pub fn blocks(&self) -> u32 {
        self.blocks
    }

    /// Searches within `max_distance` from now on, if that is narrower,
    /// and weighs the layouts for it against the tables in use (a layout
    /// for k finds everything within less, but may cost far more).
    pub fn narrow(&mut self, max_distance: u32) {
        if max_distance >= self.max_distance {
            return;
        }
        self.max_distance = max_distance;
        // The layout of the wider radius is kept only if it is still the
        // cheapest: narrowed from k = 20 to 0, 21 tables of 3-bit keys
        // each proposed an eighth of the index to every query (the long
        // lines of real text: a tenth of the time) until the next review.
        self.choose_layout();
    }

    /// The modelled cost of deciding one more record, in fingerprint
    /// comparisons: a query visits each table once per key within the
    /// radius and an insert once, and the query scans `len` times the
    /// chance that two entries lie within the radius on the table's key
    /// (`collisions`: per table, its lookups and that share).
    fn record_cost(&self, collisions: &[(usize, f64)]) -> f64 {
        collisions
            .iter()
            .map(|&(probes, share)| {
                self.lookup_cost * (probes as f64 + INSERT_VISIT_FACTOR) + self.len as f64 * share
            })
            .sum()
    }

    /// For each table of `layout`, its lookups a query and the share of
    /// pairs of `sample` within the radius on its key. Real fingerprints
    /// crowd: one-line texts that share words and layout agree on many
    /// bits, so buckets run longer than for random fingerprints (10^6
    /// address lines: 3.6 times at 9-bit keys, 11 times at 16-bit keys),
    /// and more so the wider the key.
    fn collisions(layout: &Layout, sample: &[u64]) -> Vec<(usize, f64)> {
        let mut keys = Vec::with_capacity(sample.len());
        // Pairs within a radius are counted pair by pair: on fewer.
        let near = &sample[..sample.len().min(NEAR_SAMPLE)];
        layout
            .masks
            .iter()
            .map(|&mask| {
                let (pairs, agreeing) = if layout.radius == 0 {
                    keys.clear();
                    keys.extend(sample.iter().map(|&fingerprint| fingerprint & mask));
                    keys.sort_unstable();
                    let agreeing: usize = keys
                        .chunk_by(|a, b| a == b)
                        .map(|run| run.len() * (run.len() - 1) / 2)
                        .sum();
                    (sample.len() * sample.len().saturating_sub(1) / 2, agreeing)
                } else {
                    let mut agreeing = 0usize;
                    for (at, &a) in near.iter().enumerate() {
                        for &b in &near[at + 1..] {
                            agreeing += usize::from(((a ^ b) & mask).count_ones() <= layout.radius);
                        }
                    }
                    (near.len() * near.len().saturating_sub(1) / 2, agreeing)
                };
                // Never below the uniform share: a sample without a
                // collision says little about a wide key.
                let probes = layout.probes(mask);
                let uniform = probes as f64 * 0.5f64.powi(mask.count_ones() as i32);
                let share = (agreeing as f64 / pairs.max(1) as f64).max(uniform);
                (probes, share)
            })
            .collect()
    }

    /// A growing index of the same entries, for distance `max_distance`.
    pub fn at_distance(&self, max_distance: u32) -> Index {
        let mut index = Index::new(max_distance);
        for (fingerprint, payload) in self.entries() {
            index.insert(fingerprint, payload);
        }
        index
    }

    /// Every entry (fingerprint and payload), from the first table.
    fn entries(&self) -> impl Iterator<Item = (u64, u32)> + '_ {
        self.tables
            .iter()
            .take(1)
            .flat_map(|table| table.buckets.values().flat_map(Bucket::entries))
    }

    /// Reviews the layout ([`Index::choose_layout`]), then holds direct
    /// the tables that have grown to twice as many entries as keys.
    fn review(&mut self) {
        self.review_at = self.review_at.saturating_mul(2);
        self.choose_layout();
        self.hold_direct(Buckets::direct_pays);
    }

    /// Holds direct each table that `pays` says should be (given its mask
    /// and the entries), if a hash map holds it now.
    fn hold_direct(&mut self, pays: impl Fn(u64, usize) -> bool) {
        for table in &mut self.tables {
            if let Buckets::Map(map) = &mut table.buckets
                && pays(table.mask, self.len)
            {
                table.buckets = Buckets::direct_from(std::mem::take(map), table.mask);
            }
        }
    }

    /// Takes the layout that decides the next records cheapest, among
    /// those whose tables fit the budget at twice the size, rebuilding the
    /// tables if it is not the one in use and the saving pays for the
    /// rebuild before the next review (as many records again).
    fn choose_layout(&mut self) {
        let k = self.max_distance;
        // A deterministic sample: every step-th entry of the first table.
        let step = (self.len / REVIEW_SAMPLE).max(1);
        let sample: Vec<u64> = self
            .entries()
            .step_by(step)
            .map(|(fingerprint, _)| fingerprint)
            .collect();
        let cost = |layout: &Layout| self.record_cost(&Self::collisions(layout, &sample));
        let current = Layout::new(self.layout_distance, self.blocks);
        let current_cost = cost(&current);
        // Fewer blocks than k + 1 (lookups within a radius) only for a
        // large index: small ones (dedup's per-block ones) stay simple.
        let fewest = if self.len >= PROBING_FROM { 2 } else { k + 1 };
        let best = std::iter::once(0)
            .chain(fewest..=(k + 4).min(64))
            .map(|blocks| Layout::new(k, blocks))
            .filter(|layout| *layout != current)
            .filter(|layout| {
                layout.blocks == k + 1 || 12 * layout.masks.len() * 2 * self.len <= GROWTH_BUDGET
            })
            .filter(|layout| {
                layout
                    .masks
                    .iter()
                    .all(|&mask| layout.probes(mask) <= MAX_PROBES)
            })
            .filter_map(|layout| {
                let tables = layout.masks.len() as f64;
                let probes: usize = layout.masks.iter().map(|&mask| layout.probes(mask)).sum();
                // The rebuild inserts every entry into each of its tables.
                let rebuild = tables * self.lookup_cost * INSERT_VISIT_FACTOR;
                // Its visits alone may already cost more: not sampled.
                let visits = self.lookup_cost * (probes as f64 + tables * INSERT_VISIT_FACTOR);
                if visits + rebuild >= current_cost {
                    return None;
                }
                let total = cost(&layout) + rebuild;
                Some((layout, total))
            })
            .min_by(|a, b| a.1.total_cmp(&b.1));
        let Some((best, best_cost)) = best else {
            return;
        };
        if best_cost >= current_cost {
            return;
        }
        let mut grown = Index::with_layout(best);
        grown.review_at = self.review_at;
        grown.lookup_cost = self.lookup_cost;
        for (fingerprint, payload) in self.entries() {
            grown.insert(fingerprint, payload);
        }
        *self = grown;
    }

    /// How many entries.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether it has none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Adds `fingerprint` with `payload`.
    pub fn insert(&mut self, fingerprint: u64, payload: u32) {
        for table in &mut self.tables {
            table
                .buckets
                .push(fingerprint & table.mask, fingerprint, payload);
        }
        self.len += 1;
        if self.len >= self.review_at {
            self.review();
        }
    }

    /// Appends to `out` the payload of every entry within the distance of
    /// `fingerprint`, with the distance; an entry may come more than once
    /// (once per table it is met in).
    pub fn query(&self, fingerprint: u64, out: &mut Vec<(u32, u32)>) {
        self.query_within(fingerprint, self.max_distance, out);
    }

    /// [`Index::query`] within `distance` bits, if that is narrower (the
    /// tables laid out for a distance find everything within less).
    pub fn query_within(&self, fingerprint: u64, distance: u32, out: &mut Vec<(u32, u32)>) {
        let distance = distance.min(self.max_distance);
        let mut found: [Option<&Bucket>; LOOKUPS_AT_ONCE] = [None; LOOKUPS_AT_ONCE];
        let mut len = 0;
        for table in &self.tables {
            let key = fingerprint & table.mask;
            for &flip in &table.flips {
                found[len] = table.buckets.get(key ^ flip);
                len += 1;
                if len == LOOKUPS_AT_ONCE {
                    Self::scan(&found, fingerprint, distance, out);
                    len = 0;
                }
            }
        }
        Self::scan(&found[..len], fingerprint, distance, out);
    }

    /// The part of [`Index::query`] that scans the buckets it found.
    fn scan(found: &[Option<&Bucket>], fingerprint: u64, distance: u32, out: &mut Vec<(u32, u32)>) {
        // Every bucket's first lines are read before any is scanned, so
        // their cache misses overlap instead of coming one at a time.
        let touched = found
            .iter()
            .flatten()
            .fold(0u64, |sum, bucket| sum ^ bucket.touch());
        std::hint::black_box(touched);
        for bucket in found.iter().flatten() {
            bucket.for_each_within(fingerprint, distance, |payload, distance| {
                out.push((payload, distance))
            });
        }
    }

    /// Bytes held per entry, maps aside.
    pub fn bytes_per_entry(&self) -> usize {
        12 * self.tables.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_large_bucket_grows_by_an_eighth() {
        let mut bucket = Run::default();
        for entry in 0..100_000u32 {
            bucket.push(u64::from(entry), entry);
            let len = bucket.fingerprints.len();
            if len > 2 * GROW_BY_EIGHTHS_FROM {
                assert!(bucket.fingerprints.capacity() <= len + len / 7, "{len}");
                assert!(bucket.payloads.capacity() <= len + len / 7, "{len}");
            }
        }
        assert_eq!(bucket.payloads[77_777], 77_777);
        assert_eq!(bucket.fingerprints[77_777], 77_777);
    }

    #[test]
    fn a_key_with_one_entry_takes_its_map_slot_alone() {
        // Wide keys (small k) hold one entry each: a slot is all they cost.
        assert!(std::mem::size_of::<(u64, Bucket)>() <= 56);
        let mut bucket = Bucket::One(7, 1);
        assert_eq!(bucket.entries().collect::<Vec<_>>(), vec![(7, 1)]);
        bucket.push(8, 2);
        assert_eq!(bucket.entries().collect::<Vec<_>>(), vec![(7, 1), (8, 2)]);
        let mut hits = Vec::new();
        bucket.for_each_within(7, 0, |payload, distance| hits.push((payload, distance)));
        assert_eq!(hits, vec![(1, 0)]);
    }

    #[test]
    fn tables_of_twice_as_many_entries_as_keys_are_held_direct() {
        // One contiguous block of 16 bits: direct from 131,072 entries.
        let block = 0xffffu64 << 16;
        assert!(!Buckets::direct_pays(block, 131_071));
        assert!(Buckets::direct_pays(block, 131_072));
        // Two blocks apart, or too wide a key: hashed whatever the size.
        assert!(!Buckets::direct_pays(0xff | 0xff << 32, usize::MAX));
        assert!(!Buckets::direct_pays(u64::MAX, usize::MAX));
        assert!(Buckets::direct_pays(0xfffff, 1 << 21));
        assert!(!Buckets::direct_pays(0x1f_ffff, usize::MAX));

        // An index of 5 blocks (13 and 12 bits, looked up within one bit)
        // holds its tables direct once it is large enough, and still finds
        // exactly what it holds.
        let mut index = Index::with_layout(Layout::new(6, 5));
        let mut next = pseudo_random(3);
        let fingerprints: Vec<u64> = (0..20_000u64)
            .map(|i| {
                ((i / 4) << 8).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (next() & next() & next())
            })
            .collect();
        for (at, &fingerprint) in fingerprints[..8_000].iter().enumerate() {
            index.insert(fingerprint, at as u32);
        }
        let held_direct = |index: &Index| -> Vec<bool> {
            let direct = |table: &Table| matches!(table.buckets, Buckets::Direct { .. });
            index.tables.iter().map(direct).collect()
        };
        // As a review does (it may also change the layout).
        index.hold_direct(Buckets::direct_pays);
        assert_eq!(held_direct(&index), [false; 5]);
        for (at, &fingerprint) in fingerprints.iter().enumerate().skip(8_000) {
            index.insert(fingerprint, at as u32);
        }
        index.hold_direct(Buckets::direct_pays);
        assert_eq!(held_direct(&index), [true; 5]);
        let entries: Vec<(u64, u32)> = {
            let mut entries: Vec<_> = index.entries().collect();
            entries.sort_unstable_by_key(|&(_, payload)| payload);
            entries
        };
        assert_eq!(entries.len(), fingerprints.len());
        assert!(
            entries
                .iter()
                .all(|&(fingerprint, at)| fingerprints[at as usize] == fingerprint)
        );
        for (at, &fingerprint) in fingerprints.iter().enumerate().step_by(97) {
            let mut found = Vec::new();
            index.query(fingerprint, &mut found);
            found.sort_unstable();
            found.dedup();
            let brute: Vec<(u32, u32)> = fingerprints
                .iter()
                .enumerate()
                .map(|(i, &other)| (i as u32, (other ^ fingerprint).count_ones()))
                .filter(|&(_, distance)| distance <= 6)
                .collect();
            assert!(brute.contains(&(at as u32, 0)));
            assert_eq!(found, brute, "entry {at}");
        }
    }

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
            assert_eq!(layout.masks.len() as u32, k + 1);
        }
    }

    #[test]
    fn probing_layouts_look_up_every_key_within_their_radius() {
        // k = 6 in 4 blocks of 16 bits: one table a block, radius 1.
        let layout = Layout::new(6, 4);
        assert_eq!((layout.masks.len(), layout.radius), (4, 1));
        for &mask in &layout.masks {
            let flips = flips_within(mask, layout.radius);
            assert_eq!(flips.len(), 17);
            assert_eq!(layout.probes(mask), 17);
            assert!(
                flips
                    .iter()
                    .all(|&flip| flip & !mask == 0 && flip.count_ones() <= 1)
            );
        }
        // A radius wider than a block (k past 64: 2-bit blocks, radius 6)
        // lists each key of the block once.
        assert_eq!(Layout::new(200, 32).probes(0b11), 4);
        assert_eq!(flips_within(0b11, 6).len(), 4);
        // k = 6 in 3 blocks (22, 21, 21 bits): radius 2.
        let layout = Layout::new(6, 3);
        assert_eq!(layout.radius, 2);
        let flips = flips_within(layout.masks[0], 2);
        assert_eq!(flips.len(), 1 + 22 + 231);
        let mut distinct = flips.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), flips.len());
    }

    #[test]
    fn keys_of_high_bits_spread_over_the_low_bits_of_their_hash() {
        use std::hash::BuildHasher;
        // The keys of a table on the top block: every set bit is high. The
        // map takes its slot from the low bits of the hash.
        let build = BuildHasherDefault::<MixHasher>::default();
        for shift in [0, 16, 32, 48] {
            let mut slots: Vec<u64> = (0..1u64 << 16)
                .map(|key| build.hash_one(key << shift) & 0x1_ffff)
                .collect();
            slots.sort_unstable();
            slots.dedup();
            assert!(slots.len() > 40_000, "shift {shift}: {} slots", slots.len());
        }
    }

    #[test]
    fn collisions_are_measured_not_assumed_uniform() {
        // Fingerprints that all share their top 16 bits: a table keyed on
        // those bits puts them in one bucket; the others spread them.
        let sample: Vec<u64> = (0..2_000u64)
            .map(|i| 0xabcd_0000_0000_0000 | i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 16)
            .collect();
        let layout = Layout::new(3, 4);
        let shares = Index::collisions(&layout, &sample);
        let top = layout
            .masks
            .iter()
            .position(|&mask| mask == 0xffff_0000_0000_0000)
            .expect("a table on the top block");
        assert_eq!(shares[top], (1, 1.0));
        for (table, &(probes, share)) in shares.iter().enumerate().filter(|&(t, _)| t != top) {
            assert_eq!(probes, 1);
            assert!(share < 0.01, "table {table}: {share}");
        }
        // Within a radius: 4 blocks at k = 6, radius 1, pairs counted one
        // by one; on the top block every pair still agrees.
        let probing = Layout::new(6, 4);
        let near = Index::collisions(&probing, &sample);
        assert_eq!(near[3], (17, 1.0));
        assert!(
            near[..3]
                .iter()
                .all(|&(probes, share)| probes == 17 && share < 0.01)
        );
        // Believed uniform, that table's bucket would hold 1 / 65,536 of
        // the entries; measured, a query scans them all.
        let mut index = Index::with_layout(layout.clone());
        for (at, &fingerprint) in sample.iter().enumerate() {
            index.insert(fingerprint, at as u32);
        }
        let uniform: Vec<(usize, f64)> = layout
            .masks
            .iter()
            .map(|mask| (1, 0.5f64.powi(mask.count_ones() as i32)))
            .collect();
        let extra = index.record_cost(&shares) - index.record_cost(&uniform);
        assert!(extra > 1_900.0, "{extra}");
    }

    /// `seeds` and near copies of them: each flip copies a seed and flips
    /// up to `bits` bits.
    fn near_fingerprints(seeds: &[u64], flips: &[(usize, u64, u32)]) -> Vec<u64> {
        let mut fingerprints = seeds.to_vec();
        for &(from, noise, bits) in flips {
            let mut value = seeds[from % seeds.len()];
            for bit in 0..bits {
                value ^= 1 << (noise.rotate_left(bit * 7) % 64);
            }
            fingerprints.push(value);
        }
        fingerprints
    }

    /// Inserts each fingerprint after asking for it: every answer must be
    /// the entries before it within k (each once, after dedup), as brute
    /// force finds them.
    fn assert_finds_exactly(index: &mut Index, fingerprints: &[u64], k: u32) {
        assert_finds_exactly_from(index, fingerprints, 0, k);
    }

    /// A linear congruential generator from `seed`, its high bits folded
    /// down.
    fn pseudo_random(seed: u64) -> impl FnMut() -> u64 {
        let mut state = seed;
        move || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            state ^ state >> 29
        }
    }

    /// The same from entry `from` on (those before it are in the index).
    fn assert_finds_exactly_from(index: &mut Index, fingerprints: &[u64], from: usize, k: u32) {
        for (at, &fingerprint) in fingerprints.iter().enumerate().skip(from) {
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
            assert_eq!(found, expected, "entry {at}");
            index.insert(fingerprint, at as u32);
        }
        assert_eq!(index.len(), fingerprints.len());
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

        #[test]
        fn queries_find_exactly_the_entries_within_k(
            seeds in proptest::collection::vec(any::<u64>(), 1..60),
            flips in proptest::collection::vec((0usize..60, any::<u64>(), 0u32..20), 0..60),
            k in 0u32..=32,
        ) {
            let fingerprints = near_fingerprints(&seeds, &flips);
            assert_finds_exactly(&mut Index::new(k), &fingerprints, k);
        }

        #[test]
        fn every_layout_finds_exactly_the_entries_within_k(
            seeds in proptest::collection::vec(any::<u64>(), 1..40),
            flips in proptest::collection::vec((0usize..40, any::<u64>(), 0u32..12), 0..60),
            k in 0u32..=10,
            extra in 0u32..=4,
            fewer in 0u32..=9,
            direct in any::<bool>(),
            scan in any::<bool>(),
        ) {
            // More blocks than k (exact keys), at most k (a radius), or
            // none (every entry compared).
            let blocks = if scan {
                0
            } else if fewer == 0 || k == 0 {
                k + 1 + extra
            } else {
                1 + fewer % k
            };
            let layout = Layout::new(k, blocks);
            prop_assume!(layout.masks.iter().all(|&mask| layout.probes(mask) <= MAX_PROBES));
            let fingerprints = near_fingerprints(&seeds, &flips);
            let mut index = Index::with_layout(layout);
            if direct {
                // Every table that can be, half of them filled already.
                let half = fingerprints.len() / 2;
                assert_finds_exactly_from(&mut index, &fingerprints[..half], 0, k);
                index.hold_direct(|mask, _| Buckets::direct_pays(mask, usize::MAX));
                assert_finds_exactly_from(&mut index, &fingerprints, half, k);
            } else {
                assert_finds_exactly(&mut index, &fingerprints, k);
            }
        }
    }

    #[test]
    fn a_small_index_at_a_wide_radius_compares_every_entry() {
        let scan = Layout::new(20, 0);
        assert_eq!(
            (scan.blocks, &scan.masks[..], scan.radius),
            (0, &[0u64][..], 0)
        );
        assert_eq!(scan.probes(0), 1);
        // At k = 20, k + 1 tables of 3-bit keys would each propose an
        // eighth of the entries: comparing them all once costs less.
        let mut next = pseudo_random(11);
        let fingerprints: Vec<u64> = (0..FIRST_REVIEW + 100).map(|_| next()).collect();
        let mut index = Index::new(20);
        assert_eq!(index.blocks(), 21);
        assert_finds_exactly(&mut index, &fingerprints, 20);
        assert_eq!(index.blocks(), 0, "reviewed at {FIRST_REVIEW} entries");
        assert_eq!(index.bytes_per_entry(), 12);
    }

    #[test]
    fn a_narrowed_index_finds_exactly_the_entries_within_its_new_distance() {
        // Visits priced low, so reviews rebuild within a small test.
        let mut index = Index::growing(12, 1.0);
        let mut next = pseudo_random(7);
        // Clusters of near copies, so that some lie within each distance.
        let fingerprints: Vec<u64> = (0..12_000)
            .map(|i| {
                let base = ((i / 8) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                base ^ (next() & next() & next() & next())
            })
            .collect();
        let first = &fingerprints[..3_000];
        for (at, &fingerprint) in first.iter().enumerate() {
            index.insert(fingerprint, at as u32);
        }
        let wide = index.blocks();
        index.narrow(20); // never wider
        assert_eq!(index.blocks(), wide);
        index.narrow(4);
        // The narrowing itself took a layout for the new distance (at
        // least 13 blocks for 12 would look up 13 tables or more).
        assert_ne!(index.blocks(), wide);
        assert!(index.blocks() <= 4 + 4, "{}", index.blocks());
        assert_finds_exactly_from(&mut index, &fingerprints, first.len(), 4);
    }

    #[test]
    fn a_growing_index_takes_more_blocks_and_still_finds_everything() {
        let k = 6;
        // Table visits priced low, so it grows within a small test.
        let mut index = Index::growing(k, 1.0);
        assert_eq!(index.blocks(), k + 1);
        let mut next = pseudo_random(1);
        let fingerprints: Vec<u64> = (0..40_000).map(|_| next()).collect();
        for (at, &fingerprint) in fingerprints.iter().enumerate() {
            index.insert(fingerprint, at as u32);
        }
        assert!(index.blocks() > k + 1, "{}", index.blocks());
        assert_eq!(index.len(), fingerprints.len());
        // Every entry is found again, with near copies of a few.
        for (at, &fingerprint) in fingerprints.iter().enumerate().step_by(997) {
            let mut found = Vec::new();
            index.query(fingerprint ^ 0b1011, &mut found);
            found.sort_unstable();
            found.dedup();
            assert!(found.contains(&(at as u32, 3)), "{at}");
            let brute: Vec<(u32, u32)> = fingerprints
                .iter()
                .enumerate()
                .map(|(i, &other)| (i as u32, (other ^ fingerprint ^ 0b1011).count_ones()))
                .filter(|&(_, distance)| distance <= k)
                .collect();
            assert_eq!(found, brute);
        }
    }
}
