//! The exact search: permuted block tables (Manku, Jain, Das Sarma,
//! "Detecting Near-Duplicates for Web Crawling", WWW 2007).
//!
//! The 64 bits are cut into m > k blocks of contiguous bits. Two
//! fingerprints within distance k differ in at most k blocks, so they agree
//! on at least m - k. Each table chooses m - k blocks as its key: it permutes
//! every fingerprint so the key blocks come first, sorts, and compares only
//! fingerprints with equal keys. The C(m, k) tables together meet every pair
//! within k; a pair is emitted only by the table whose key blocks are the
//! first m - k blocks it agrees on, so it is reported once without any
//! set of seen pairs.

use super::sink::{Found, Shared, Sink};
use super::sort::{SortBuffers, scatter_bits};
use super::tasks;

/// How the 64 bits are cut: block 0 holds the most significant bits.
#[derive(Debug)]
pub(crate) struct Layout {
    /// The bits of each block, as a mask.
    masks: Vec<u64>,
    /// The distance searched.
    max_distance: u32,
}

/// One table: a bit permutation that brings its key blocks to the top.
#[derive(Debug)]
pub(crate) struct Table {
    /// Bit j is set when block j is part of the key.
    key_blocks: u64,
    /// Width of the key in bits.
    pub(crate) key_bits: u32,
    /// (source mask, left rotation) moves, each a run of adjacent blocks.
    pub(crate) forward: Vec<(u64, u32)>,
    /// The moves that undo `forward`.
    inverse: Vec<(u64, u32)>,
}

impl Layout {
    /// `blocks` blocks (k < blocks <= 64); the first `64 % blocks` are one
    /// bit wider than the rest.
    pub(crate) fn new(blocks: u32, max_distance: u32) -> Layout {
        debug_assert!(max_distance < blocks && blocks <= 64);
        let mut masks = Vec::with_capacity(blocks as usize);
        let mut top = 64u32;
        for j in 0..blocks {
            let width = 64 / blocks + u32::from(j < 64 % blocks);
            let mask = if width == 64 {
                u64::MAX
            } else {
                ((1u64 << width) - 1) << (top - width)
            };
            masks.push(mask);
            top -= width;
        }
        Layout {
            masks,
            max_distance,
        }
    }

    fn blocks(&self) -> u32 {
        self.masks.len() as u32
    }

    /// The distance searched.
    pub(crate) fn max_distance(&self) -> u32 {
        self.max_distance
    }

    /// The bits of each block, block 0 first.
    pub(crate) fn masks(&self) -> &[u64] {
        &self.masks
    }

    /// Every table's key blocks: each choice of m - k blocks, as a set of
    /// block numbers (8 bytes a table; the tables are built when run).
    pub(crate) fn key_block_sets(&self) -> Vec<u64> {
        let m = self.blocks();
        let chosen = m - self.max_distance;
        let mut sets = Vec::new();
        // Gosper's hack walks the m-bit masks with `chosen` bits set.
        let mut set: u128 = (1u128 << chosen) - 1;
        while set < (1u128 << m) {
            sets.push(set as u64);
            let low = set & set.wrapping_neg();
            let ripple = set + low;
            set = (((ripple ^ set) >> 2) / low) | ripple;
        }
        sets
    }

    /// Every table (for tests: a search builds each as it runs it).
    #[cfg(test)]
    fn tables(&self) -> Vec<Table> {
        self.key_block_sets()
            .into_iter()
            .map(|set| self.table(set))
            .collect()
    }

    /// The table keyed on `key_blocks`.
    pub(crate) fn table(&self, key_blocks: u64) -> Table {
        let m = self.blocks() as usize;
        let order = (0..m)
            .filter(|&j| key_blocks >> j & 1 == 1)
            .chain((0..m).filter(|&j| key_blocks >> j & 1 == 0));
        let forward = stacking_moves(order.map(|j| self.masks[j]));
        let inverse = forward
            .iter()
            .map(|&(mask, rotation)| (mask.rotate_left(rotation), (64 - rotation) % 64))
            .collect();
        let key_bits = self
            .masks
            .iter()
            .enumerate()
            .filter(|&(j, _)| key_blocks >> j & 1 == 1)
            .map(|(_, mask)| mask.count_ones())
            .sum();
        Table {
            key_blocks,
            key_bits,
            forward,
            inverse,
        }
    }

    /// Moves that gather the key blocks of `key_blocks` past the first
    /// into the top bits, most significant block first: the part of a
    /// table's key left to group by inside a partition of the first block.
    fn rest_key_moves(&self, key_blocks: u64) -> Vec<(u64, u32)> {
        let rest = key_blocks & key_blocks.wrapping_sub(1);
        stacking_moves(
            (0..self.masks.len())
                .filter(|&j| rest >> j & 1 == 1)
                .map(|j| self.masks[j]),
        )
    }

    /// The blocks on which two fingerprints with XOR `difference` agree.
    fn agreeing_blocks(&self, difference: u64) -> u64 {
        self.masks
            .iter()
            .enumerate()
            .filter(|&(_, mask)| difference & mask == 0)
            .fold(0, |set, (j, _)| set | 1 << j)
    }

    /// Whether `table` is the one that reports a pair with XOR `difference`
    /// (within the distance): the first m - k blocks the pair agrees on must
    /// be exactly its key blocks.
    pub(crate) fn owns(&self, table: &Table, difference: u64) -> bool {
        let agree = self.agreeing_blocks(difference);
        let mut rest = agree;
        for _ in 0..self.blocks() - self.max_distance {
            rest &= rest.wrapping_sub(1);
        }
        agree ^ rest == table.key_blocks
    }
}

/// The (source mask, left rotation) moves that stack `blocks`, in the
/// order given, from the top bit down. Adjacent blocks that stay adjacent
/// move together.
fn stacking_moves(blocks: impl Iterator<Item = u64>) -> Vec<(u64, u32)> {
    let mut moves: Vec<(u64, u32)> = Vec::new();
    let mut top = 64u32;
    for mask in blocks {
        let source_top = 64 - mask.leading_zeros();
        let rotation = (top + 64 - source_top) % 64;
        top -= mask.count_ones();
        match moves.last_mut() {
            Some(last) if last.1 == rotation => last.0 |= mask,
            _ => moves.push((mask, rotation)),
        }
    }
    moves
}

/// `permute` over a fixed-length rest-of-key move list.
#[inline(always)]
fn permute_few_key(moves: &[(u64, u32); FEW_KEY_MOVES], x: u64) -> u64 {
    moves.iter().fold(0, |out, &(mask, rotation)| {
        out | (x & mask).rotate_left(rotation)
    })
}

/// Applies a list of moves.
pub(crate) fn permute(moves: &[(u64, u32)], x: u64) -> u64 {
    moves.iter().fold(0, |out, &(mask, rotation)| {
        out | (x & mask).rotate_left(rotation)
    })
}

/// Tables whose leading key blocks leave runs of at most this many
/// fingerprints with equal leading bits sort only those runs.
const PRESORTED_RUN: usize = 1 << 12;

/// Move lists up to this long take the unrolled path.
pub(crate) const FEW_MOVES: usize = 8;

/// `permute` over a fixed-length list padded with no-op moves.
#[inline(always)]
pub(crate) fn permute_few(moves: &[(u64, u32); FEW_MOVES], x: u64) -> u64 {
    moves.iter().fold(0, |out, &(mask, rotation)| {
        out | (x & mask).rotate_left(rotation)
    })
}

/// Rest-of-key move lists up to this long take the unrolled path.
const FEW_KEY_MOVES: usize = 3;

/// From this many fingerprints, tables that start with the same key block
/// share its scatter (`search_two_level`).
const TWO_LEVEL_MIN: usize = 1 << 15;

/// The widest key, past the first block, that a partition is grouped by
/// in one scatter.
const MAX_PARTITION_GROUP_BITS: u32 = 14;

/// Tables one task runs over one first-level partition.
const TABLES_PER_TASK: usize = 8;

/// Runs every table of `blocks` blocks over the distinct fingerprints.
pub(crate) fn search(shared: &Shared, max_distance: u32, blocks: u32) -> (Found, u64) {
    let two_level = runs_in_two_levels(shared.collapsed.len(), max_distance, blocks);
    search_with(shared, max_distance, blocks, two_level)
}

/// Whether [`search`] runs `blocks` blocks at `max_distance` over `n`
/// distinct fingerprints in two levels.
fn runs_in_two_levels(n: usize, max_distance: u32, blocks: u32) -> bool {
    n >= TWO_LEVEL_MIN && blocks >= max_distance + 2
}

/// Whether the tables of `blocks` blocks at `max_distance` over `n`
/// distinct fingerprints mostly take the cheap path of two levels: each
/// partition grouped by the rest of the key, unpermuted, with at most
/// four groups per fingerprint (more would cost more in counters than in
/// fingerprints). The cost model prices such a pass lower.
pub(crate) fn groups_partitions_cheaply(n: usize, max_distance: u32, blocks: u32) -> bool {
    if !runs_in_two_levels(n, max_distance, blocks) {
        return false;
    }
    let narrow = 64 / blocks;
    let rest_bits = (blocks - max_distance - 1) * narrow;
    let partition = n >> narrow.min(63);
    rest_bits <= MAX_PARTITION_GROUP_BITS && 1usize << rest_bits <= partition.saturating_mul(4)
}

/// [`search`], one level or two as told (the tests run both on small
/// inputs).
pub(crate) fn search_with(
    shared: &Shared,
    max_distance: u32,
    blocks: u32,
    two_level: bool,
) -> (Found, u64) {
    let layout = Layout::new(blocks, max_distance);
    let key_block_sets = layout.key_block_sets();
    let count = key_block_sets.len() as u64;
    if two_level && blocks >= max_distance + 2 {
        return (search_two_level(shared, &layout, &key_block_sets), count);
    }
    let found = tasks::run(
        shared.collapsed.len(),
        &key_block_sets,
        || shared.nothing(),
        |&key_blocks, buffers| {
            let mut sink = shared.sink();
            let table = layout.table(key_blocks);
            run_table(shared, &layout, &table, buffers, &mut sink);
            sink.finish()
        },
        Found::merge,
    );
    (found, count)
}

/// The tables in tasks of up to `TABLES_PER_TASK` that share their first
/// key block. A task cuts the fingerprints once by that block's bits into
/// partitions of a few thousand, which stay in cache while each of its
/// tables groups every partition by the rest of its key: one pass over
/// all fingerprints a task instead of one a table, the rest in cache.
fn search_two_level(shared: &Shared, layout: &Layout, key_block_sets: &[u64]) -> Found {
    let mut sets = key_block_sets.to_vec();
    sets.sort_by_key(|&set| (set.trailing_zeros(), set));
    let task_list: Vec<&[u64]> = sets
        .chunk_by(|a, b| a.trailing_zeros() == b.trailing_zeros())
        .flat_map(|run| run.chunks(TABLES_PER_TASK))
        .collect();
    tasks::run(
        shared.collapsed.len(),
        &task_list,
        || shared.nothing(),
        |chunk, buffers| {
            let mut sink = shared.sink();
            let first = chunk[0].trailing_zeros() as usize;
            let mask = layout.masks[first];
            let width = mask.count_ones();
            let lift = mask.leading_zeros();
            let fingerprints = &shared.collapsed.fingerprints;
            buffers.group_mapped(fingerprints, |&x| x, |&x| (x & mask) << lift, width);
            let partitions = std::mem::take(&mut buffers.values);
            let ends = buffers.group_ends().to_vec();
            let mut local = SortBuffers::default();
            for &key_blocks in *chunk {
                let table = layout.table(key_blocks);
                let parts = Partitions {
                    values: &partitions,
                    ends: &ends,
                    width,
                };
                if table.forward.len() <= FEW_MOVES {
                    let mut few = [(0u64, 0u32); FEW_MOVES];
                    few[..table.forward.len()].copy_from_slice(&table.forward);
                    let forward = |x| permute_few(&few, x);
                    run_partitions(
                        shared, layout, &table, &parts, forward, &mut local, &mut sink,
                    );
                } else {
                    let forward = |x| permute(&table.forward, x);
                    run_partitions(
                        shared, layout, &table, &parts, forward, &mut local, &mut sink,
                    );
                }
            }
            buffers.values = partitions;
            sink.finish()
        },
        Found::merge,
    )
}

/// Fingerprints cut by the bits of a table's first key block.
struct Partitions<'a> {
    /// The fingerprints, partition after partition.
    values: &'a [u64],
    /// Where each partition ends.
    ends: &'a [u32],
    /// Bits of the first key block (the top bits of every permuted value).
    width: u32,
}

/// Runs one table over every partition: permutes its fingerprints, groups
/// them by the rest of the key and compares those with equal keys.
fn run_partitions(
    shared: &Shared,
    layout: &Layout,
    table: &Table,
    parts: &Partitions<'_>,
    forward: impl Fn(u64) -> u64 + Sync,
    local: &mut SortBuffers<u64>,
    sink: &mut Sink<'_>,
) {
    let rest = table.key_bits - parts.width;
    let rest_key = layout.rest_key_moves(table.key_blocks);
    let mut start = 0usize;
    for &end in parts.ends {
        let part = &parts.values[start..end as usize];
        start = end as usize;
        if part.len() < 2 {
            continue;
        }
        // Up to 2^14 groups of a partition cost little to count in cache,
        // and grouping by the whole key spares sorting inside the groups.
        let bits = if rest <= MAX_PARTITION_GROUP_BITS && part.len() >= 64 {
            rest
        } else {
            scatter_bits(part.len(), rest)
        };
        let width = parts.width;
        if bits > 0 && bits == rest && rest_key.len() <= FEW_KEY_MOVES {
            // Grouping by the whole rest of the key needs only that key,
            // not the permutation: the fingerprints stay as they are.
            let mut few = [(0u64, 0u32); FEW_KEY_MOVES];
            few[..rest_key.len()].copy_from_slice(&rest_key);
            local.group_mapped(part, |&x| x, |&x| permute_few_key(&few, x), bits);
            compare_unpermuted_groups(shared, layout, table, local, sink);
            continue;
        }
        if bits > 0 && bits == rest {
            local.group_mapped(part, |&x| forward(x), |&v| v << width, bits);
        } else {
            local.sort_mapped(part, |&x| forward(x), |&v| v << width, bits, false);
        }
        compare_groups(shared, layout, table, &local.values, sink);
    }
}

/// Sorts the fingerprints by one table's permutation and compares those
/// with equal keys.
fn run_table(
    shared: &Shared,
    layout: &Layout,
    table: &Table,
    buffers: &mut SortBuffers<u64>,
    sink: &mut Sink<'_>,
) {
    let fingerprints = &shared.collapsed.fingerprints;
    let bits = scatter_bits(fingerprints.len(), table.key_bits);
    // Key blocks 0, 1, .. stay where they are, and the fingerprints are
    // sorted: on those leading bits the order is already right.
    let leading = (table.key_blocks.trailing_ones() as usize).min(layout.masks.len());
    let sorted_bits: u32 = layout.masks[..leading].iter().map(|m| m.count_ones()).sum();
    let presorted = sorted_bits > 0 && fingerprints.len() >> sorted_bits.min(63) <= PRESORTED_RUN;
    let presorted = presorted.then_some(sorted_bits);
    if table.forward.len() <= FEW_MOVES {
        // A fixed-length move list unrolls: the sort passes run ~1.5x faster.
        let mut few = [(0u64, 0u32); FEW_MOVES];
        few[..table.forward.len()].copy_from_slice(&table.forward);
        let forward = |x| permute_few(&few, x);
        order(
            buffers,
            fingerprints,
            forward,
            presorted,
            bits,
            table.key_bits,
        );
    } else {
        let forward = |x| permute(&table.forward, x);
        order(
            buffers,
            fingerprints,
            forward,
            presorted,
            bits,
            table.key_bits,
        );
    }
    compare_groups(shared, layout, table, &buffers.values, sink);
}

/// Compares the fingerprints of each run of equal keys in `values`
/// (permuted by `table`, equal keys contiguous) and counts the work.
fn compare_groups(
    shared: &Shared,
    layout: &Layout,
    table: &Table,
    values: &[u64],
    sink: &mut Sink<'_>,
) {
    let shift = 64 - table.key_bits;
    // Counters stay in registers; most fingerprints have no key-mate.
    let (mut comparisons, mut largest) = (0u64, 1usize);
    let mut start = 0;
    while start < values.len() {
        let key = values[start] >> shift;
        let mut end = start + 1;
        while end < values.len() && values[end] >> shift == key {
            end += 1;
        }
        if end - start > 1 {
            let bucket = &values[start..end];
            largest = largest.max(bucket.len());
            comparisons += (bucket.len() * (bucket.len() - 1) / 2) as u64;
            compare_bucket(shared, layout, table, bucket, sink, |v| {
                permute(&table.inverse, v)
            });
        }
        start = end;
    }
    sink.found.comparisons += comparisons;
    let largest = (largest as u64).min(values.len() as u64);
    sink.found.largest_bucket = sink.found.largest_bucket.max(largest);
}

/// Like [`compare_groups`] for fingerprints left unpermuted and grouped
/// by the whole key (`local.group_ends()` marks the buckets).
fn compare_unpermuted_groups(
    shared: &Shared,
    layout: &Layout,
    table: &Table,
    local: &SortBuffers<u64>,
    sink: &mut Sink<'_>,
) {
    let (mut comparisons, mut largest) = (0u64, 1usize);
    let mut start = 0usize;
    for &end in local.group_ends() {
        let end = end as usize;
        if end - start > 1 {
            let bucket = &local.values[start..end];
            largest = largest.max(bucket.len());
            comparisons += (bucket.len() * (bucket.len() - 1) / 2) as u64;
            compare_bucket(shared, layout, table, bucket, sink, |v| v);
        }
        start = end;
    }
    sink.found.comparisons += comparisons;
    sink.found.largest_bucket = sink.found.largest_bucket.max(largest as u64);
}

/// Puts the permuted fingerprints in `buffers.values` with equal keys
/// (their top `key_bits`) contiguous: from a presorted order when
/// `presorted` gives the bits already in order; by one scatter on the top
/// `bits` when those cover the key, as its groups are then the buckets and
/// need no sorting inside; else by sorting.
fn order(
    buffers: &mut SortBuffers<u64>,
    fingerprints: &[u64],
    forward: impl Fn(u64) -> u64 + Sync,
    presorted: Option<u32>,
    bits: u32,
    key_bits: u32,
) {
    let grouped = bits > 0 && bits == key_bits;
    match presorted {
        Some(sorted_bits) => buffers.sort_presorted(fingerprints, forward, sorted_bits),
        None if grouped => buffers.group_mapped(fingerprints, |&x| forward(x), |&v| v, bits),
        None => buffers.sort_mapped(fingerprints, |&x| forward(x), |&v| v, bits, false),
    }
}

/// Compares every pair of a bucket of equal keys and emits those within k
/// that this table owns; `unpermute` gives back a value's original bits
/// (the identity for fingerprints grouped unpermuted).
fn compare_bucket(
    shared: &Shared,
    layout: &Layout,
    table: &Table,
    bucket: &[u64],
    sink: &mut Sink<'_>,
    unpermute: impl Fn(u64) -> u64,
) {
    let k = layout.max_distance;
    for (i, &x) in bucket.iter().enumerate() {
        for &y in &bucket[i + 1..] {
            if (x ^ y).count_ones() <= k {
                emit_close(shared, layout, table, sink, &unpermute, x, y);
            }
        }
    }
}

/// Emits a pair found within k if this table owns it. Out of line and
/// cold: inlined into the comparison loop, the owner test and the lookups
/// crowded its registers (a 25% swing in the search's time from unrelated
/// changes); kept cold, the loop is the same whatever the build.
#[cold]
#[inline(never)]
fn emit_close(
    shared: &Shared,
    layout: &Layout,
    table: &Table,
    sink: &mut Sink<'_>,
    unpermute: &impl Fn(u64) -> u64,
    x: u64,
    y: u64,
) {
    if layout.owns(table, unpermute(x ^ y)) {
        let a = shared.collapsed.index_of(unpermute(x));
        let b = shared.collapsed.index_of(unpermute(y));
        sink.emit(a, b, (x ^ y).count_ones());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_tile_the_64_bits() {
        for m in 1..=64 {
            let layout = Layout::new(m, 0);
            assert_eq!(layout.masks.iter().fold(0, |a, b| a | b), u64::MAX);
            assert_eq!(layout.masks.iter().map(|m| m.count_ones()).sum::<u32>(), 64);
            let widths: Vec<u32> = layout.masks.iter().map(|m| m.count_ones()).collect();
            assert!(widths.windows(2).all(|w| w[0] >= w[1]), "{widths:?}");
            assert!(widths[0] - widths[widths.len() - 1] <= 1);
        }
    }

    #[test]
    fn tables_are_every_choice_of_key_blocks() {
        let layout = Layout::new(6, 3);
        let tables = layout.tables();
        assert_eq!(tables.len(), 20);
        let mut keys: Vec<u64> = tables.iter().map(|t| t.key_blocks).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), 20);
        assert!(keys.iter().all(|k| k.count_ones() == 3 && *k < 64));
        assert_eq!(Layout::new(64, 63).tables().len(), 64);
        assert_eq!(Layout::new(64, 0).tables().len(), 1);
    }

    #[test]
    fn permutations_put_the_key_on_top_and_invert() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for (m, k) in [(4, 3), (5, 3), (7, 2), (13, 10), (64, 60), (1, 0)] {
            let layout = Layout::new(m, k);
            for table in layout.tables() {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let p = permute(&table.forward, x);
                assert_eq!(permute(&table.inverse, p), x);
                assert_eq!(p.count_ones(), x.count_ones());
                // The key is the key blocks' bits, most significant first.
                let mut key = 0u128;
                for (j, mask) in layout.masks.iter().enumerate() {
                    if table.key_blocks >> j & 1 == 1 {
                        let width = mask.count_ones();
                        key = key << width | u128::from((x & mask) >> mask.trailing_zeros());
                    }
                }
                assert_eq!(u128::from(p) >> (64 - table.key_bits), key);
            }
        }
    }

    #[test]
    fn exactly_one_table_owns_each_close_pair() {
        let layout = Layout::new(7, 3);
        let tables = layout.tables();
        let mut x = 1u64;
        for _ in 0..2000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            // A difference of at most 3 bits.
            let difference = (0..3).fold(0u64, |d, i| d | 1 << ((x >> (10 * i)) % 64));
            let owners: Vec<&Table> = tables
                .iter()
                .filter(|t| layout.owns(t, difference))
                .collect();
            assert_eq!(owners.len(), 1, "{difference:#x}");
            // The owner's key blocks are all blocks the pair agrees on.
            assert_eq!(
                layout.agreeing_blocks(difference) & owners[0].key_blocks,
                owners[0].key_blocks
            );
        }
    }
}
