//! Ranking a collection's tokens for the batch join: each distinct hash
//! gets its rank by how many sets hold it, fewest first (ties by hash), and
//! every set becomes its ranks, ascending (rarest first).
//!
//! The sets are only gathered as they come; ranking waits for the last,
//! since a rank depends on every set. Then the hashes are cut by their top
//! bits into parts whose tables of distinct hashes stay in cache: counted
//! part by part on every core, then each set's hashes replaced by their
//! ranks, part by part, by groups of sets on every core. (One table of
//! every distinct hash, filled set by set as they came, missed the cache
//! at nearly every token: 6.4 s for the 32 million word features of the
//! mixed real corpus.)

use std::collections::HashMap;

use rayon::prelude::*;

use super::RankedSets;
use crate::fingerprint::Identity;

/// Tokens a part holds, about, so that its table of distinct hashes
/// stays in a core's cache (at most a megabyte, two thirds of them
/// distinct; 2^18 took 1.12 times as long on `cargo bench --bench join
/// rank_documents`).
const TOKENS_PER_PART: usize = 1 << 16;

/// Each set is visited once a part: at most one part for this many of a
/// set's tokens, on average (one-line texts have a few dozen).
const TOKENS_PER_SET_AND_PART: usize = 8;

/// Most parts: 2^12.
const MAX_PART_BITS: u32 = 12;

/// Builds [`RankedSets`] from sets of feature hashes: tokens are ranked by
/// how many sets hold them, fewest first (ties by hash), so the result
/// depends on the sets alone.
#[derive(Debug, Default)]
pub struct Ranker {
    /// Every set's hashes, sorted and distinct, one set after another.
    hashes: Vec<u64>,
    /// Where each set ends in `hashes`.
    ends: Vec<usize>,
}

/// One part's distinct hashes: each one's number within the part, its
/// hash and how many sets hold it.
struct Part {
    ids: HashMap<u64, u32, Identity>,
    hashes: Vec<u64>,
    counts: Vec<u32>,
}

impl Ranker {
    /// An empty ranker.
    pub fn new() -> Ranker {
        Ranker::default()
    }

    /// Adds the next set (distinct hashes, best sorted: others are sorted
    /// here). Holds 8 bytes a hash until [`Ranker::finish`].
    pub fn push(&mut self, set: &[u64]) {
        let start = self.hashes.len();
        self.hashes.extend_from_slice(set);
        if !set.windows(2).all(|pair| pair[0] < pair[1]) {
            let mut sorted = self.hashes.split_off(start);
            sorted.sort_unstable();
            sorted.dedup();
            self.hashes.extend_from_slice(&sorted);
        }
        self.ends.push(self.hashes.len());
    }

    /// The sets, by rank.
    pub fn finish(self) -> RankedSets {
        let bits = part_bits(self.hashes.len(), self.ends.len());
        self.finish_in_parts(bits)
    }

    /// [`Ranker::finish`] with the hashes cut in 2^`bits` parts.
    fn finish_in_parts(self, bits: u32) -> RankedSets {
        let Ranker { hashes, ends } = self;
        let starts: Vec<usize> = std::iter::once(0)
            .chain(ends.iter().copied())
            .take(ends.len())
            .collect();
        let part_of = |hash: u64| if bits == 0 { 0 } else { hash >> (64 - bits) };
        // Where each part starts in each set (a set's hashes are sorted,
        // so a part's are together), and where the set ends: one pass over
        // the sets, rather than searching each set for each part.
        let stride = (1usize << bits) + 1;
        let mut cuts = vec![0usize; ends.len() * stride];
        cuts.par_chunks_mut(stride)
            .enumerate()
            .for_each(|(set, cuts)| {
                let mut at = starts[set];
                for (part, cut) in cuts.iter_mut().enumerate() {
                    while at < ends[set] && (part_of(hashes[at]) as usize) < part {
                        at += 1;
                    }
                    *cut = at;
                }
            });
        // The range of `set` whose hashes fall in part `part`.
        let range_in = |set: usize, part: u64| {
            let at = set * stride + part as usize;
            cuts[at]..cuts[at + 1]
        };
        let parts: Vec<Part> = (0..1u64 << bits)
            .into_par_iter()
            .map(|part| {
                let mut counted = Part {
                    ids: HashMap::default(),
                    hashes: Vec::new(),
                    counts: Vec::new(),
                };
                for set in 0..ends.len() {
                    for &hash in &hashes[range_in(set, part)] {
                        let next = counted.hashes.len() as u32;
                        let id = *counted.ids.entry(table_key(hash)).or_insert(next);
                        if id == next {
                            counted.hashes.push(hash);
                            counted.counts.push(0);
                        }
                        counted.counts[id as usize] += 1;
                    }
                }
                counted
            })
            .collect();
        // Each distinct hash's slot: its part's first, plus its number.
        let mut first_slot = Vec::with_capacity(parts.len());
        let mut slots = 0usize;
        for part in &parts {
            first_slot.push(slots);
            slots += part.hashes.len();
        }
        let mut by_rarity: Vec<(u32, u64, u32)> = Vec::with_capacity(slots);
        for (part, &first) in parts.iter().zip(&first_slot) {
            by_rarity.extend(
                part.counts
                    .iter()
                    .zip(&part.hashes)
                    .enumerate()
                    .map(|(id, (&count, &hash))| (count, hash, (first + id) as u32)),
            );
        }
        // The parts' tables alone are needed from here.
        let tables: Vec<HashMap<u64, u32, Identity>> =
            parts.into_iter().map(|part| part.ids).collect();
        by_rarity.par_sort_unstable_by_key(|&(count, hash, _)| (count, hash));
        let mut rank_of_slot = vec![0u32; slots];
        for (rank, &(_, _, slot)) in by_rarity.iter().enumerate() {
            rank_of_slot[slot as usize] = rank as u32;
        }
        let ranked_hashes: Vec<u64> = by_rarity.iter().map(|&(_, hash, _)| hash).collect();
        drop(by_rarity);
        // Groups of whole sets, one at a time on each core, each walking
        // the parts in order so that one part's table is in cache at once.
        let rank = |hash: u64| {
            let part = part_of(hash) as usize;
            rank_of_slot[first_slot[part] + tables[part][&table_key(hash)] as usize]
        };
        let mut tokens = vec![0u32; hashes.len()];
        let groups = set_groups(&ends, rayon::current_num_threads() * 4);
        let mut outputs = Vec::with_capacity(groups.len());
        let mut rest = tokens.as_mut_slice();
        let mut taken = 0;
        for group in &groups {
            let end = group.clone().last().map_or(taken, |set| ends[set]);
            let (output, after) = rest.split_at_mut(end - taken);
            outputs.push((group.clone(), output));
            rest = after;
            taken = end;
        }
        outputs.into_par_iter().for_each(|(group, output)| {
            let offset = starts.get(group.start).copied().unwrap_or(0);
            for part in 0..1u64 << bits {
                for set in group.clone() {
                    for at in range_in(set, part) {
                        output[at - offset] = rank(hashes[at]);
                    }
                }
            }
            for set in group {
                output[starts[set] - offset..ends[set] - offset].sort_unstable();
            }
        });
        RankedSets {
            tokens,
            ends,
            hashes: ranked_hashes,
        }
    }
}

/// A hash as its part's table holds it: the top bits, which are the
/// part's and the same for all of them, moved to the middle (the table
/// tells keys apart by their top bits before comparing them).
#[inline]
fn table_key(hash: u64) -> u64 {
    hash.rotate_left(32)
}

/// log2 of the number of parts for `tokens` hashes in `sets` sets.
fn part_bits(tokens: usize, sets: usize) -> u32 {
    let by_tokens = tokens / TOKENS_PER_PART;
    let by_sets = tokens / (TOKENS_PER_SET_AND_PART * sets.max(1));
    let parts = by_tokens.min(by_sets).max(1);
    // The largest power of two no larger.
    (usize::BITS - 1 - parts.leading_zeros()).min(MAX_PART_BITS)
}

/// Consecutive ranges of sets with about the same number of tokens, at
/// most `count` of them.
fn set_groups(ends: &[usize], count: usize) -> Vec<std::ops::Range<usize>> {
    let total = ends.last().copied().unwrap_or(0);
    let per_group = total.div_ceil(count.max(1)).max(1);
    let mut groups = Vec::new();
    let mut start = 0;
    for (set, &end) in ends.iter().enumerate() {
        if end >= (groups.len() + 1) * per_group || set + 1 == ends.len() {
            groups.push(start..set + 1);
            start = set + 1;
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// The ranking by definition: count every hash, sort by (count, hash).
    fn ranked_by_definition(sets: &[Vec<u64>]) -> (Vec<Vec<u32>>, Vec<u64>) {
        let mut counts: std::collections::BTreeMap<u64, u32> = Default::default();
        for set in sets {
            let distinct: std::collections::BTreeSet<u64> = set.iter().copied().collect();
            for hash in distinct {
                *counts.entry(hash).or_default() += 1;
            }
        }
        let mut order: Vec<(u32, u64)> =
            counts.iter().map(|(&hash, &count)| (count, hash)).collect();
        order.sort_unstable();
        let rank: HashMap<u64, u32> = order
            .iter()
            .enumerate()
            .map(|(rank, &(_, hash))| (hash, rank as u32))
            .collect();
        let ranked = sets
            .iter()
            .map(|set| {
                let distinct: std::collections::BTreeSet<u64> = set.iter().copied().collect();
                let mut ranks: Vec<u32> = distinct.iter().map(|hash| rank[hash]).collect();
                ranks.sort_unstable();
                ranks
            })
            .collect();
        (ranked, order.into_iter().map(|(_, hash)| hash).collect())
    }

    /// The splitmix64 finaliser: small numbers spread over every bit.
    fn spread(mut z: u64) -> u64 {
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn check(sets: &[Vec<u64>], bits: u32) -> Result<(), TestCaseError> {
        let mut ranker = Ranker::new();
        for set in sets {
            ranker.push(set);
        }
        let ranked = ranker.finish_in_parts(bits);
        let (expected, hashes) = ranked_by_definition(sets);
        prop_assert_eq!(ranked.len(), sets.len());
        for (index, set) in expected.iter().enumerate() {
            prop_assert_eq!(ranked.get(index), set.as_slice());
        }
        prop_assert_eq!(&ranked.hashes, &hashes);
        Ok(())
    }

    proptest! {
        /// Whatever the number of parts, ranks are by (count, hash) and
        /// every set is its ranks ascending; unsorted sets and repeats
        /// are taken as their distinct hashes.
        #[test]
        fn ranks_are_by_how_many_sets_hold_a_hash(
            sets in proptest::collection::vec(
                proptest::collection::vec(
                    prop_oneof![(0u64..40).prop_map(spread), any::<u64>()], 0..30),
                0..40),
            bits in 0u32..7,
        ) {
            check(&sets, bits)?;
        }
    }

    #[test]
    fn parts_follow_tokens_and_sets() {
        // A part 65,536 tokens, and at least 8 tokens a
        // set for each part.
        assert_eq!(part_bits(0, 0), 0);
        assert_eq!(part_bits(1 << 20, 1), 4);
        assert_eq!(part_bits(1 << 30, 1), MAX_PART_BITS);
        assert_eq!(part_bits(1 << 24, 1 << 20), 1);
        assert_eq!(part_bits(1 << 24, 1 << 16), 5);
    }

    #[test]
    fn groups_cover_every_set_once_in_order() {
        let ends = [0, 3, 3, 10, 11, 40, 41];
        for count in 1..10 {
            let groups = set_groups(&ends, count);
            let covered: Vec<usize> = groups.iter().flat_map(|group| group.clone()).collect();
            assert_eq!(covered, (0..ends.len()).collect::<Vec<_>>());
            assert!(groups.len() <= count.max(1) + 1, "{count}: {groups:?}");
        }
        assert!(set_groups(&[], 4).is_empty());
    }
}
