//! Searching a few new fingerprints against many stored ones
//! (`scan --against`): only pairs with at least one new fingerprint are
//! wanted, so the stored ones are never sorted into tables.
//!
//! Either every new fingerprint is compared with every fingerprint (brute
//! force, t·n comparisons for t new of n), or each block table of the exact
//! search (`blocks`) is built over the t new fingerprints only, as a small
//! table bucketed by key, and every fingerprint probes it: n probes a table
//! and no sort. A pair is emitted by the one table that owns it, as in the
//! full search, and a pair of two new fingerprints by the probe of its
//! larger one, so each pair arrives once. `plan::choose_against` picks
//! the cheaper.

use rayon::prelude::*;

use super::blocks::{FEW_MOVES, Layout, Table, permute, permute_few};
use super::sink::{Found, Shared, Sink};

/// Fingerprints one brute-force task compares with every new one (32 KiB:
/// they stay in the first-level cache while the new ones stream past).
const BRUTE_CHUNK: usize = 4096;

/// Fingerprints one probing task runs through one table, at least.
const PROBE_CHUNK: usize = 1 << 16;

/// Buckets of a probe table: at most 2^this, whatever the key width.
const MAX_BUCKET_BITS: u32 = 20;

/// Whether the pair of new fingerprint `q` and fingerprint `x` is the
/// probe's to emit: `x` is stored, or new and larger than `q`.
fn emits(new: &[bool], q: u32, x: u32) -> bool {
    !new[x as usize] || x > q
}

/// Every pair of a new fingerprint with another within `max_distance`,
/// by comparing each new fingerprint with all of them.
pub(crate) fn brute(shared: &Shared, max_distance: u32, new: &[bool]) -> Found {
    let fingerprints = &shared.collapsed.fingerprints;
    let fresh: Vec<u32> = (0..fingerprints.len() as u32)
        .filter(|&i| new[i as usize])
        .collect();
    let fresh_values: Vec<u64> = fresh.iter().map(|&q| fingerprints[q as usize]).collect();
    let mut found = fingerprints
        .par_chunks(BRUTE_CHUNK)
        .enumerate()
        .fold(
            || shared.sink(),
            |mut sink, (chunk, values)| {
                let first = chunk * BRUTE_CHUNK;
                for (offset, &x) in values.iter().enumerate() {
                    let xi = (first + offset) as u32;
                    for (&q, &value) in fresh.iter().zip(&fresh_values) {
                        let distance = (x ^ value).count_ones();
                        if distance <= max_distance && xi != q && emits(new, q, xi) {
                            sink.emit(q.min(xi), q.max(xi), distance);
                        }
                    }
                }
                sink.found.comparisons += (values.len() * fresh.len()) as u64;
                sink
            },
        )
        .map(Sink::finish)
        .reduce(|| shared.nothing(), Found::merge);
    found.largest_bucket = fresh.len() as u64;
    found
}

/// The block tables of `blocks` blocks, each built over the new
/// fingerprints and probed by all; returns what they found and how many
/// tables there were.
pub(crate) fn probe(shared: &Shared, max_distance: u32, blocks: u32, new: &[bool]) -> (Found, u64) {
    let layout = Layout::new(blocks, max_distance);
    let sets = layout.key_block_sets();
    let n = shared.collapsed.len();
    let fresh: Vec<u32> = (0..n as u32).filter(|&i| new[i as usize]).collect();
    let chunk = PROBE_CHUNK.max(8 * fresh.len());
    let tasks: Vec<(u64, usize)> = sets
        .iter()
        .flat_map(|&set| (0..n).step_by(chunk).map(move |start| (set, start)))
        .collect();
    let found = tasks
        .par_iter()
        .with_max_len(1)
        .fold(
            || shared.sink(),
            |mut sink, &(set, start)| {
                let table = layout.table(set);
                let range = start..(start + chunk).min(n);
                if table.forward.len() <= FEW_MOVES {
                    let mut few = [(0u64, 0u32); FEW_MOVES];
                    few[..table.forward.len()].copy_from_slice(&table.forward);
                    let forward = |x| permute_few(&few, x);
                    probe_table(
                        shared, &layout, &table, forward, &fresh, new, range, &mut sink,
                    );
                } else {
                    let forward = |x| permute(&table.forward, x);
                    probe_table(
                        shared, &layout, &table, forward, &fresh, new, range, &mut sink,
                    );
                }
                sink
            },
        )
        .map(Sink::finish)
        .reduce(|| shared.nothing(), Found::merge);
    (found, sets.len() as u64)
}

/// One table over the new fingerprints, probed by the fingerprints in
/// `range`.
#[allow(clippy::too_many_arguments)]
fn probe_table(
    shared: &Shared,
    layout: &Layout,
    table: &Table,
    forward: impl Fn(u64) -> u64,
    fresh: &[u32],
    new: &[bool],
    range: std::ops::Range<usize>,
    sink: &mut Sink<'_>,
) {
    let fingerprints = &shared.collapsed.fingerprints;
    let max_distance = layout.max_distance();
    // About two new fingerprints a bucket; within one, the whole key decides.
    let wanted = usize::BITS - fresh.len().leading_zeros();
    let bucket_bits = wanted.clamp(1, MAX_BUCKET_BITS).min(table.key_bits);
    let bucket_shift = 64 - bucket_bits;
    let key_shift = 64 - table.key_bits;
    let mut starts = vec![0u32; (1usize << bucket_bits) + 1];
    let permuted: Vec<u64> = fresh
        .iter()
        .map(|&q| forward(fingerprints[q as usize]))
        .collect();
    for &p in &permuted {
        starts[(p >> bucket_shift) as usize + 1] += 1;
    }
    for i in 1..starts.len() {
        starts[i] += starts[i - 1];
    }
    let mut next = starts.clone();
    let mut entries = vec![(0u64, 0u32); fresh.len()];
    for (&p, &q) in permuted.iter().zip(fresh) {
        let slot = &mut next[(p >> bucket_shift) as usize];
        entries[*slot as usize] = (p, q);
        *slot += 1;
    }
    let mut compared = 0u64;
    let mut largest = 0u64;
    for xi in range {
        let x = fingerprints[xi];
        let px = forward(x);
        let bucket = (px >> bucket_shift) as usize;
        let (from, to) = (starts[bucket] as usize, starts[bucket + 1] as usize);
        if from == to {
            continue;
        }
        largest = largest.max((to - from) as u64);
        for &(pq, q) in &entries[from..to] {
            if (pq ^ px) >> key_shift != 0 {
                continue;
            }
            compared += 1;
            let xi = xi as u32;
            if xi == q || !emits(new, q, xi) {
                continue;
            }
            let difference = fingerprints[q as usize] ^ x;
            let distance = difference.count_ones();
            if distance <= max_distance && layout.owns(table, difference) {
                sink.emit(q.min(xi), q.max(xi), distance);
            }
        }
    }
    sink.found.comparisons += compared;
    sink.found.largest_bucket = sink.found.largest_bucket.max(largest);
}
