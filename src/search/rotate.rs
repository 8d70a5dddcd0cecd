//! The approximate search of the seed lecture: for each of the 64 bit
//! rotations, sort the fingerprints and compare each with the next `window`.
//!
//! Two close fingerprints end up near each other in some rotation when
//! their differing bits are all low in it, so small windows already find
//! most close pairs; nothing guarantees all. A pair met in several rotations
//! is reported once: each rotation's finds are sorted and merged into the
//! running set, so memory grows with the pairs found (at most 64 * window
//! per fingerprint), not with the comparisons made.

use super::sink::{Found, Shared};
use super::sort::scatter_bits;
use super::tasks;

/// Pairs of distinct fingerprint numbers `x < y`, packed as `x << 32 | y`,
/// sorted and without repeats; with the comparisons that found them.
#[derive(Default)]
struct Finds {
    pairs: Vec<u64>,
    comparisons: u64,
}

impl Finds {
    /// The union of two sets of finds.
    fn merge(self, other: Finds) -> Finds {
        let (a, b) = (self.pairs, other.pairs);
        let mut pairs = Vec::with_capacity(a.len() + b.len());
        let (mut i, mut j) = (0, 0);
        while i < a.len() && j < b.len() {
            if a[i] <= b[j] {
                if a[i] == b[j] {
                    j += 1;
                }
                pairs.push(a[i]);
                i += 1;
            } else {
                pairs.push(b[j]);
                j += 1;
            }
        }
        pairs.extend_from_slice(&a[i..]);
        pairs.extend_from_slice(&b[j..]);
        Finds {
            pairs,
            comparisons: self.comparisons + other.comparisons,
        }
    }
}

/// Emits the pairs within `max_distance` that some rotation places within
/// `window` of each other.
pub(crate) fn search(shared: &Shared, max_distance: u32, window: usize) -> Found {
    let fingerprints = &shared.collapsed.fingerprints;
    let rotations: Vec<u32> = (0..64).collect();
    let finds = tasks::run(
        fingerprints.len(),
        &rotations,
        Finds::default,
        |&rotation, buffers| {
            let bits = scatter_bits(fingerprints.len(), 64);
            buffers.sort_mapped(
                fingerprints,
                |&x| x.rotate_left(rotation),
                |&v| v,
                bits,
                false,
            );
            let values = &buffers.values;
            let mut finds = Finds::default();
            for (i, &x) in values.iter().enumerate() {
                let next =
                    &values[i + 1..values.len().min(i.saturating_add(1).saturating_add(window))];
                finds.comparisons += next.len() as u64;
                for &y in next {
                    if (x ^ y).count_ones() <= max_distance {
                        let a = shared.collapsed.index_of(x.rotate_right(rotation));
                        let b = shared.collapsed.index_of(y.rotate_right(rotation));
                        let (a, b) = (a.min(b), a.max(b));
                        finds.pairs.push(u64::from(a) << 32 | u64::from(b));
                    }
                }
            }
            finds.pairs.sort_unstable();
            finds.pairs.dedup();
            finds
        },
        Finds::merge,
    );
    let mut sink = shared.sink();
    for &packed in &finds.pairs {
        let (a, b) = ((packed >> 32) as u32, packed as u32);
        let distance = (fingerprints[a as usize] ^ fingerprints[b as usize]).count_ones();
        sink.emit(a, b, distance);
    }
    let mut found = sink.finish();
    found.comparisons = finds.comparisons;
    found.largest_bucket = (window as u64)
        .saturating_add(1)
        .min(fingerprints.len() as u64);
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_is_a_sorted_union() {
        let a = Finds {
            pairs: vec![1, 3, 5, 9],
            comparisons: 2,
        };
        let b = Finds {
            pairs: vec![0, 3, 4, 9, 10],
            comparisons: 5,
        };
        let merged = a.merge(b);
        assert_eq!(merged.pairs, vec![0, 1, 3, 4, 5, 9, 10]);
        assert_eq!(merged.comparisons, 7);
    }
}
