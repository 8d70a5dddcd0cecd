//! Joining a whole collection at once: tokens ranked by how many sets
//! hold them, sets taken in size order so that each probes only the
//! smaller ones before it, probes on every core.

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use super::super::{Verdict, decide};
use super::{Bitmap, DEAD, Overlap, bitmap_bound, index_prefix, least_size, probe_prefix};

/// Sets of token ranks, each sorted ascending (rarest first).
#[derive(Clone, Debug, Default)]
pub struct RankedSets {
    pub(super) tokens: Vec<u32>,
    pub(super) ends: Vec<usize>,
    /// The hash each rank stands for, one a distinct token (so their
    /// number is the number of ranks): a set's hashes are at hand again
    /// without reading its text.
    pub(super) hashes: Vec<u64>,
}

impl RankedSets {
    /// How many sets.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Set `index`.
    pub fn get(&self, index: usize) -> &[u32] {
        let start = if index == 0 { 0 } else { self.ends[index - 1] };
        &self.tokens[start..self.ends[index]]
    }

    /// How many ranks: distinct tokens.
    fn ranks(&self) -> usize {
        self.hashes.len()
    }

    /// The hashes pushed for set `index`, in rank order.
    pub fn hashes(&self, index: usize) -> impl Iterator<Item = u64> + '_ {
        self.get(index)
            .iter()
            .map(|&rank| self.hashes[rank as usize])
    }

    /// `sets` (sorted, distinct hashes) ranked by a [`Ranker`].
    #[cfg(test)]
    pub(crate) fn of(sets: &[Vec<u64>]) -> RankedSets {
        let mut ranker = super::Ranker::new();
        for set in sets {
            ranker.push(set);
        }
        ranker.finish()
    }
}

/// A pair of sets (by index, `a < b`) at or above the threshold.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Joined {
    /// The first set.
    pub a: u32,
    /// The second set.
    pub b: u32,
    /// Their exact Jaccard.
    pub jaccard: f64,
}

/// What a join found.
#[derive(Debug, Default, PartialEq)]
pub struct Join {
    /// Every pair at or above the threshold, by `(a, b)`.
    pub pairs: Vec<Joined>,
    /// Candidates: pairs whose prefixes met, not ruled out by position
    /// (the bitmaps then rule out most before a merge).
    pub candidates: u64,
}

/// One prefix token of an indexed set.
#[derive(Clone, Copy, Debug)]
struct Posting {
    /// The set's place in size order.
    at: u32,
    /// The token's position in the set.
    position: u32,
}

/// A self-join of a collection of sets, ready to probe: sets in size
/// order, and the posting lists of their index prefixes. Each set probes
/// the sets before it, which are no larger, so only their index prefixes
/// need indexing.
pub struct SelfJoin<'a> {
    sets: &'a RankedSets,
    threshold: f64,
    /// Non-empty sets by (size, index).
    order: Vec<u32>,
    /// Their sizes.
    sizes: Vec<usize>,
    /// Where each rank's posting list starts in `postings`.
    starts: Vec<usize>,
    /// Every posting list, each in size order.
    postings: Vec<Posting>,
    /// Each set's bitmap, by place.
    bitmaps: Vec<Bitmap>,
}

/// A set's bitmap (see [`Bitmap`]), from its ranks.
fn bitmap(set: &[u32]) -> Bitmap {
    let mut bits = [0u64; 4];
    for &token in set {
        let bit = (token.wrapping_mul(0x9e37_79b1) >> 24) as usize;
        bits[bit / 64] |= 1 << (bit % 64);
    }
    bits
}

/// A probe's reusable memory: overlap counts by place in size order, and
/// the places touched.
struct Scratch {
    overlap: Vec<u32>,
    touched: Vec<usize>,
}

impl<'a> SelfJoin<'a> {
    /// Indexes `sets` for Jaccard >= `threshold` (> 0).
    pub fn new(sets: &'a RankedSets, threshold: f64) -> SelfJoin<'a> {
        let t = threshold;
        let mut order: Vec<u32> = (0..sets.len() as u32)
            .filter(|&set| !sets.get(set as usize).is_empty())
            .collect();
        order.sort_unstable_by_key(|&set| (sets.get(set as usize).len(), set));
        let sizes: Vec<usize> = order
            .iter()
            .map(|&set| sets.get(set as usize).len())
            .collect();
        let mut starts = vec![0usize; sets.ranks() + 1];
        for &set in &order {
            let set = sets.get(set as usize);
            for &token in &set[..index_prefix(set.len(), t)] {
                starts[token as usize + 1] += 1;
            }
        }
        for rank in 0..sets.ranks() {
            starts[rank + 1] += starts[rank];
        }
        let mut filled = starts.clone();
        let mut postings = vec![Posting { at: 0, position: 0 }; starts[sets.ranks()]];
        for (at, &set) in order.iter().enumerate() {
            let set = sets.get(set as usize);
            for (position, &token) in set[..index_prefix(set.len(), t)].iter().enumerate() {
                postings[filled[token as usize]] = Posting {
                    at: at as u32,
                    position: position as u32,
                };
                filled[token as usize] += 1;
            }
        }
        let bitmaps = order
            .iter()
            .map(|&set| bitmap(sets.get(set as usize)))
            .collect();
        SelfJoin {
            sets,
            threshold,
            order,
            sizes,
            starts,
            postings,
            bitmaps,
        }
    }

    fn scratch(&self) -> Scratch {
        Scratch {
            overlap: vec![0; self.order.len()],
            touched: Vec::new(),
        }
    }

    /// The candidates to merge in the whole join, estimated by probing
    /// every `every`-th set (deterministic, about 1 / `every` of the work);
    /// `None` as soon as the estimate passes `limit`. The count only
    /// grows, so a part of it passes `limit` exactly when the whole does:
    /// the answer is the same whatever the thread count, and a join far
    /// too dear (crowded texts, whose probes read long posting lists) is
    /// declined for a share of the estimate's work.
    pub fn estimate_candidates_within(&self, every: usize, limit: u64) -> Option<u64> {
        let every = every.max(1) as u64;
        let places: Vec<usize> = (0..self.order.len()).step_by(every as usize).collect();
        let counted = AtomicU64::new(0);
        let past = |counted: u64| counted.saturating_mul(every) > limit;
        places.par_chunks(256).for_each(|places| {
            let mut scratch = self.scratch();
            let mut pairs = Vec::new();
            for &at in places {
                if past(counted.load(Ordering::Relaxed)) {
                    return;
                }
                pairs.clear();
                let probed = self.probe(at, &mut scratch, &mut pairs);
                counted.fetch_add(probed, Ordering::Relaxed);
            }
        });
        let counted = counted.into_inner();
        (!past(counted)).then(|| counted * every)
    }

    /// Every pair with Jaccard >= the threshold; `None` once more than
    /// `max_pairs` are found, so memory stays bounded.
    pub fn run(&self, max_pairs: u64) -> Option<Join> {
        let found = AtomicU64::new(0);
        let candidates = AtomicU64::new(0);
        let chunk = (self.order.len() / 64).max(4096);
        let places: Vec<usize> = (0..self.order.len()).collect();
        let chunks: Vec<Option<Vec<Joined>>> = places
            .par_chunks(chunk)
            .map(|places| {
                let mut scratch = self.scratch();
                let mut pairs = Vec::new();
                for &at in places {
                    let before = pairs.len() as u64;
                    candidates
                        .fetch_add(self.probe(at, &mut scratch, &mut pairs), Ordering::Relaxed);
                    let new = pairs.len() as u64 - before;
                    if found.fetch_add(new, Ordering::Relaxed) + new > max_pairs {
                        return None;
                    }
                }
                Some(pairs)
            })
            .collect();
        let mut pairs = Vec::new();
        for chunk in chunks {
            pairs.extend(chunk?);
        }
        pairs.sort_unstable_by_key(|pair| (pair.a, pair.b));
        Some(Join {
            pairs,
            candidates: candidates.into_inner(),
        })
    }

    /// Probes the set at place `at` against the sets before it, pushes the
    /// pairs it reaches the threshold with, and returns its candidates
    /// (the sets its prefix met that position did not rule out).
    fn probe(&self, at: usize, scratch: &mut Scratch, pairs: &mut Vec<Joined>) -> u64 {
        let t = self.threshold;
        let overlap = Overlap::new(t);
        let x = self.sets.get(self.order[at] as usize);
        // Sets before `from` are too small to reach t with x.
        let from = self
            .sizes
            .partition_point(|&size| size < least_size(x.len(), t)) as u32;
        for (i, &token) in x[..probe_prefix(x.len(), t)].iter().enumerate() {
            let entries =
                &self.postings[self.starts[token as usize]..self.starts[token as usize + 1]];
            let low = entries.partition_point(|entry| entry.at < from);
            let high = entries.partition_point(|entry| (entry.at as usize) < at);
            for entry in &entries[low..high] {
                let other = entry.at as usize;
                let count = &mut scratch.overlap[other];
                if *count == DEAD {
                    continue;
                }
                if *count == 0 {
                    scratch.touched.push(other);
                }
                let size = self.sizes[other];
                // The overlap counted, this token and every one left.
                let left = (x.len() - i).min(size - entry.position as usize);
                if *count as usize + left >= overlap.least(x.len() + size) {
                    *count += 1;
                } else {
                    *count = DEAD;
                }
            }
        }
        let mut candidates = 0;
        for &other in &scratch.touched {
            let size = self.sizes[other];
            if scratch.overlap[other] != DEAD {
                candidates += 1;
            }
            if scratch.overlap[other] != DEAD
                && bitmap_bound(&self.bitmaps[at], &self.bitmaps[other], x.len() + size)
                    >= overlap.least(x.len() + size)
            {
                let y = self.sets.get(self.order[other] as usize);
                if let Verdict::Near(jaccard) = decide(x, y, t) {
                    let (ours, theirs) = (self.order[at], self.order[other]);
                    pairs.push(Joined {
                        a: ours.min(theirs),
                        b: ours.max(theirs),
                        jaccard,
                    });
                }
            }
            scratch.overlap[other] = 0;
        }
        scratch.touched.clear();
        candidates
    }
}
