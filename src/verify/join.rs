//! An exact similarity join: every pair of sets whose Jaccard is at least
//! the threshold, found without SimHash, so none is missed.
//!
//! Prefix filtering (Chaudhuri, Ganti and Kaushik 2006; AllPairs, Bayardo
//! et al. 2007; PPJoin, Xiao et al. 2008): order every set's tokens by one
//! global order. Two sets of sizes a <= b with Jaccard >= t share at least
//! o = t (a + b) / (1 + t) tokens, so their first a - o + 1 tokens must
//! meet. Only those prefixes are indexed and probed, rarest tokens first,
//! so the posting lists read are short. Candidates are pruned by their
//! sizes (b >= t a) and by position (the overlap counted so far plus the
//! tokens left cannot reach o) and by a bitmap bound on their overlap, and
//! each survivor is decided by the verification stage's exact merge
//! (`decide`), so the Jaccard reported is the one verification gives.
//!
//! Any fixed order gives the same pairs; rarest first only makes it fast.
//! [`SelfJoin`] joins a whole collection, its tokens ranked by how many
//! sets hold them ([`Ranker`]). [`TokenOrder`] and [`Postings`] join sets
//! one at a time (dedup), in an order that new tokens extend without
//! reordering the old.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use super::{Verdict, decide};

/// Slack for rounding: every bound below is rounded so that it can only
/// let more candidates through, never fewer.
const SLACK: f64 = 1e-9;

/// A candidate ruled out by position.
const DEAD: u32 = u32::MAX;

/// The least overlap two sets of sizes `a` and `b` need for Jaccard >= t.
fn least_overlap(a: usize, b: usize, t: f64) -> usize {
    Overlap::new(t).least(a + b)
}

/// The least overlap for Jaccard >= t of two sets by the sum of their
/// sizes, t (a + b) / (1 + t), with the division done once (probes ask
/// it for every posting they read).
#[derive(Clone, Copy)]
struct Overlap(f64);

impl Overlap {
    fn new(t: f64) -> Overlap {
        Overlap(t / (1.0 + t))
    }

    fn least(self, sizes: usize) -> usize {
        ((self.0 * sizes as f64) - SLACK).ceil().max(0.0) as usize
    }
}

/// The smallest set size that can reach Jaccard t with a set of `size`.
fn least_size(size: usize, t: f64) -> usize {
    ((t * size as f64) - SLACK).ceil().max(0.0) as usize
}

/// The largest set size that can reach Jaccard t with a set of `size`.
fn most_size(size: usize, t: f64) -> usize {
    if t <= 0.0 {
        return usize::MAX;
    }
    ((size as f64 / t) + SLACK).floor() as usize
}

/// How many first tokens of a set of `size` meet those of any set it
/// reaches Jaccard t with, whatever the other's size.
fn probe_prefix(size: usize, t: f64) -> usize {
    (size + 1).saturating_sub(least_size(size, t)).min(size)
}

/// The same, against sets no larger than itself: when every set probes
/// only the smaller ones, only this much of each needs indexing.
fn index_prefix(size: usize, t: f64) -> usize {
    (size + 1)
        .saturating_sub(least_overlap(size, size, t))
        .min(size)
}

/// Sets of token ranks, each sorted ascending (rarest first).
#[derive(Clone, Debug, Default)]
pub struct RankedSets {
    tokens: Vec<u32>,
    ends: Vec<usize>,
    ranks: usize,
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
}

/// Builds [`RankedSets`] from sets of feature hashes: tokens are ranked by
/// how many sets hold them, fewest first (ties by hash), so the result
/// depends on the sets alone.
#[derive(Debug, Default)]
pub struct Ranker {
    ids: HashMap<u64, u32>,
    hashes: Vec<u64>,
    counts: Vec<u32>,
    tokens: Vec<u32>,
    ends: Vec<usize>,
}

impl Ranker {
    /// An empty ranker.
    pub fn new() -> Ranker {
        Ranker::default()
    }

    /// Adds the next set (sorted, distinct hashes).
    pub fn push(&mut self, set: &[u64]) {
        for &hash in set {
            let next = self.hashes.len() as u32;
            let id = *self.ids.entry(hash).or_insert(next);
            if id == next {
                self.hashes.push(hash);
                self.counts.push(0);
            }
            self.counts[id as usize] += 1;
            self.tokens.push(id);
        }
        self.ends.push(self.tokens.len());
    }

    /// The sets, by rank.
    pub fn finish(self) -> RankedSets {
        let Ranker {
            hashes,
            counts,
            mut tokens,
            ends,
            ..
        } = self;
        let mut by_rarity: Vec<u32> = (0..hashes.len() as u32).collect();
        by_rarity.sort_unstable_by_key(|&id| (counts[id as usize], hashes[id as usize]));
        let mut rank = vec![0u32; hashes.len()];
        for (position, &id) in by_rarity.iter().enumerate() {
            rank[id as usize] = position as u32;
        }
        let mut start = 0;
        for &end in &ends {
            let set = &mut tokens[start..end];
            for token in set.iter_mut() {
                *token = rank[*token as usize];
            }
            set.sort_unstable();
            start = end;
        }
        RankedSets {
            tokens,
            ends,
            ranks: hashes.len(),
        }
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

/// A set's tokens hashed to 256 bits. Each token of the symmetric
/// difference of two sets flips at most one bit, and every bit the two
/// bitmaps differ in needs one, so their overlap is at most
/// (|A| + |B| - differing bits) / 2 (the bitmap filter of Sandes, Teodoro
/// and Melo, SIGMOD 2020): three instructions a word rule out most
/// candidates a merge would.
type Bitmap = [u64; 4];

fn bitmap(set: &[u32]) -> Bitmap {
    let mut bits = [0u64; 4];
    for &token in set {
        let bit = (token.wrapping_mul(0x9e37_79b1) >> 24) as usize;
        bits[bit / 64] |= 1 << (bit % 64);
    }
    bits
}

/// The largest overlap two sets with these sizes and bitmaps can have.
fn bitmap_bound(a: &Bitmap, b: &Bitmap, sizes: usize) -> usize {
    let differ: u32 = a.iter().zip(b).map(|(a, b)| (a ^ b).count_ones()).sum();
    sizes.saturating_sub(differ as usize) / 2
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
        let mut starts = vec![0usize; sets.ranks + 1];
        for &set in &order {
            let set = sets.get(set as usize);
            for &token in &set[..index_prefix(set.len(), t)] {
                starts[token as usize + 1] += 1;
            }
        }
        for rank in 0..sets.ranks {
            starts[rank + 1] += starts[rank];
        }
        let mut filled = starts.clone();
        let mut postings = vec![Posting { at: 0, position: 0 }; starts[sets.ranks]];
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
    /// every `every`-th set (deterministic, about 1 / `every` of the work).
    pub fn estimate_candidates(&self, every: usize) -> u64 {
        let every = every.max(1);
        let places: Vec<usize> = (0..self.order.len()).step_by(every).collect();
        let candidates: u64 = places
            .par_chunks(256)
            .map(|places| {
                let mut scratch = self.scratch();
                let mut pairs = Vec::new();
                places
                    .iter()
                    .map(|&at| self.probe(at, &mut scratch, &mut pairs))
                    .sum::<u64>()
            })
            .sum();
        candidates * every as u64
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

/// The token order of a join that grows one set at a time.
///
/// A token never seen ranks before every token seen, the latest first: a
/// token first met late is usually rare, and ranking it first leaves the
/// old tokens' order alone, so every prefix indexed so far stays valid (no
/// set added holds a token newer than itself). First appearance is a poor
/// guide to rarity when every token of a small vocabulary appears early,
/// so [`TokenOrder::reorder`] ranks the tokens seen by how many sets hold
/// them, fewest first (ties by hash), after which every set must be
/// indexed again.
///
/// It also counts the sets that hold each token in their probe prefix
/// (the length of its posting lists, all postings on this order
/// together), to price a probe before it is made.
#[derive(Debug, Default)]
pub struct TokenOrder {
    threshold: f64,
    tokens: HashMap<u64, Token>,
    /// The rank of the next new token.
    next_new: u32,
}

/// What a [`TokenOrder`] knows of a token.
#[derive(Clone, Copy, Debug)]
struct Token {
    rank: u32,
    /// Sets learnt that hold it.
    sets: u32,
    /// Sets indexed with it in their probe prefix.
    prefixes: u32,
}

/// Ranks below this are given to new tokens, counting down; reordered
/// tokens rank from it up.
const REORDERED: u32 = 1 << 31;

/// A set in a [`TokenOrder`]: how many of its tokens the order has never
/// seen (they rank first, in any order: no posting holds them), then the
/// others' ranks, ascending, each with its posting lists' length.
pub type Ranked = (usize, Vec<(u32, u32)>);

impl TokenOrder {
    /// An empty order for Jaccard `threshold` (> 0).
    pub fn new(threshold: f64) -> TokenOrder {
        TokenOrder {
            threshold,
            tokens: HashMap::new(),
            next_new: u32::MAX,
        }
    }

    /// `set` (sorted, distinct feature hashes) in this order.
    pub fn ranked(&self, set: &[u64]) -> Ranked {
        let mut known: Vec<(u32, u32)> = set
            .iter()
            .filter_map(|hash| {
                self.tokens
                    .get(hash)
                    .map(|token| (token.rank, token.prefixes))
            })
            .collect();
        known.sort_unstable();
        (set.len() - known.len(), known)
    }

    /// Learns the tokens of a set about to be added to postings.
    pub fn learn(&mut self, set: &[u64]) {
        for &hash in set {
            let next = self.next_new;
            let token = self.tokens.entry(hash).or_insert(Token {
                rank: next,
                sets: 0,
                prefixes: 0,
            });
            if token.rank == next {
                self.next_new -= 1;
            }
            token.sets += 1;
        }
        self.count_prefix(set);
    }

    /// Counts the probe prefix of a set learnt before, about to be added
    /// to postings (again, after [`TokenOrder::reorder`]).
    pub fn count_prefix(&mut self, set: &[u64]) {
        let mut by_rank: Vec<(u32, u64)> = set
            .iter()
            .filter_map(|hash| self.tokens.get(hash).map(|token| (token.rank, *hash)))
            .collect();
        by_rank.sort_unstable();
        let prefix = probe_prefix(set.len(), self.threshold).min(by_rank.len());
        for (_, hash) in &by_rank[..prefix] {
            if let Some(token) = self.tokens.get_mut(hash) {
                token.prefixes += 1;
            }
        }
    }

    /// Ranks the tokens seen by how many sets hold them, fewest first;
    /// no set is indexed in the new order until it is added again (after
    /// [`TokenOrder::count_prefix`]).
    pub fn reorder(&mut self) {
        let mut by_rarity: Vec<(u32, u64)> = self
            .tokens
            .iter()
            .map(|(&hash, token)| (token.sets, hash))
            .collect();
        by_rarity.sort_unstable();
        for (position, (_, hash)) in by_rarity.into_iter().enumerate() {
            if let Some(token) = self.tokens.get_mut(&hash) {
                token.rank = REORDERED.saturating_add(position as u32);
                token.prefixes = 0;
            }
        }
        self.next_new = REORDERED - 1;
    }

    /// How many postings a probe of `ranked` (from [`TokenOrder::ranked`])
    /// reads at most: the lengths of its probe prefix's posting lists.
    pub fn probe_cost(&self, (unknown, known): &Ranked) -> u64 {
        let prefix = probe_prefix(unknown + known.len(), self.threshold).saturating_sub(*unknown);
        known[..prefix.min(known.len())]
            .iter()
            .map(|&(_, prefixes)| u64::from(prefixes))
            .sum()
    }
}

/// A probe's reusable memory.
#[derive(Debug, Default)]
pub struct JoinScratch {
    counts: Vec<u32>,
    touched: Vec<u32>,
}

/// Sets added one at a time, indexed by their probe prefixes in a
/// [`TokenOrder`] (sets come in any size order, so the whole probe prefix
/// is indexed): [`Postings::candidates`] proposes the sets added before
/// that may reach the threshold with a new one. One order may serve
/// several postings, each consistent with it.
#[derive(Debug, Default)]
pub struct Postings {
    threshold: f64,
    /// Posting lists by token rank: (place in `held`, position in its
    /// set, its size).
    lists: HashMap<u32, Vec<(u32, u16, u16)>>,
    /// Each set added: its number, size and bitmap.
    held: Vec<(u32, u16, Bitmap)>,
}

/// A set's feature hashes to 256 bits (see [`Bitmap`]).
fn hash_bitmap(set: &[u64]) -> Bitmap {
    let mut bits = [0u64; 4];
    for &hash in set {
        let bit = (hash >> 56) as usize;
        bits[bit / 64] |= 1 << (bit % 64);
    }
    bits
}

impl Postings {
    /// Empty postings for `threshold` (> 0).
    pub fn new(threshold: f64) -> Postings {
        Postings {
            threshold,
            ..Postings::default()
        }
    }

    /// Bytes held per set added, and per prefix token indexed.
    pub const BYTES_PER_SET: usize = 40;
    /// See [`Postings::BYTES_PER_SET`].
    pub const BYTES_PER_POSTING: usize = 8;

    /// The numbers of the sets added that may reach the threshold with
    /// `set` (sorted, distinct feature hashes; `ranked` is its rank in
    /// `order`), ascending: every one that does is among them. Read-only.
    pub fn candidates(
        &self,
        set: &[u64],
        (unknown, known): &Ranked,
        scratch: &mut JoinScratch,
    ) -> Vec<u32> {
        let t = self.threshold;
        let overlap = Overlap::new(t);
        let size = set.len();
        let (least, most) = (least_size(size, t), most_size(size, t));
        let prefix = probe_prefix(size, t).saturating_sub(*unknown);
        scratch.counts.resize(self.held.len(), 0);
        for (k, &(rank, _)) in known[..prefix.min(known.len())].iter().enumerate() {
            let i = unknown + k;
            let Some(list) = self.lists.get(&rank) else {
                continue;
            };
            for &(place, position, other_size) in list {
                let other_size = usize::from(other_size);
                if other_size < least || other_size > most {
                    continue;
                }
                let count = &mut scratch.counts[place as usize];
                if *count == DEAD {
                    continue;
                }
                if *count == 0 {
                    scratch.touched.push(place);
                }
                let left = (size - i).min(other_size - usize::from(position));
                if *count as usize + left >= overlap.least(size + other_size) {
                    *count += 1;
                } else {
                    *count = DEAD;
                }
            }
        }
        let bitmap = hash_bitmap(set);
        let mut found = Vec::new();
        for &place in &scratch.touched {
            let count = std::mem::take(&mut scratch.counts[place as usize]);
            let (number, other_size, other) = self.held[place as usize];
            let other_size = usize::from(other_size);
            if count != DEAD
                && bitmap_bound(&bitmap, &other, size + other_size)
                    >= overlap.least(size + other_size)
            {
                found.push(number);
            }
        }
        scratch.touched.clear();
        found.sort_unstable();
        found
    }

    /// Adds `set` (sorted, distinct feature hashes, learnt by `order`) as
    /// set `number`. Sets of more than `u16::MAX` tokens are not indexed
    /// (a short text has at most a few hundred).
    pub fn add(&mut self, set: &[u64], order: &TokenOrder, number: u32) {
        let Ok(size) = u16::try_from(set.len()) else {
            return;
        };
        let place = self.held.len() as u32;
        self.held.push((number, size, hash_bitmap(set)));
        let (_, ranked) = order.ranked(set);
        debug_assert_eq!(ranked.len(), set.len(), "the order learnt the set");
        for (position, &(rank, _)) in ranked[..probe_prefix(set.len(), self.threshold)]
            .iter()
            .enumerate()
        {
            self.lists
                .entry(rank)
                .or_default()
                .push((place, position as u16, size));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Sorted, distinct sets from a small universe, with near-copies.
    fn sets() -> impl Strategy<Value = Vec<Vec<u64>>> {
        proptest::collection::vec(proptest::collection::btree_set(0u64..30, 0..20), 1..40)
            .prop_flat_map(|sets| {
                let n = sets.len();
                (
                    Just(sets),
                    proptest::collection::vec((0..n, 0u64..30, any::<bool>()), 0..20),
                )
            })
            .prop_map(|(mut sets, edits)| {
                // Copies of earlier sets with one token added or removed.
                for (from, token, add) in edits {
                    let mut copy = sets[from].clone();
                    if add {
                        copy.insert(token);
                    } else {
                        copy.remove(&token);
                    }
                    sets.push(copy);
                }
                // Hash-like values, sorted, as feature sets are.
                sets.into_iter()
                    .map(|set| {
                        let mut set: Vec<u64> = set
                            .into_iter()
                            .map(|t| t.wrapping_mul(0x9e37_79b9_7f4a_7c15))
                            .collect();
                        set.sort_unstable();
                        set
                    })
                    .collect()
            })
    }

    fn brute_force(sets: &[Vec<u64>], t: f64) -> Vec<Joined> {
        let mut pairs = Vec::new();
        for a in 0..sets.len() {
            for b in a + 1..sets.len() {
                if sets[a].is_empty() || sets[b].is_empty() {
                    continue;
                }
                let jaccard = crate::fingerprint::jaccard(&sets[a], &sets[b]);
                if jaccard >= t {
                    pairs.push(Joined {
                        a: a as u32,
                        b: b as u32,
                        jaccard,
                    });
                }
            }
        }
        pairs
    }

    fn ranked(sets: &[Vec<u64>]) -> RankedSets {
        let mut ranker = Ranker::new();
        for set in sets {
            ranker.push(set);
        }
        ranker.finish()
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        #[test]
        fn the_join_finds_exactly_the_pairs_brute_force_finds(
            sets in sets(),
            t in prop_oneof![Just(0.8), Just(0.5), Just(1.0), Just(0.6), 0.05f64..1.0],
        ) {
            let joined = SelfJoin::new(&ranked(&sets), t).run(u64::MAX).unwrap();
            prop_assert_eq!(joined.pairs, brute_force(&sets, t));
        }

        #[test]
        fn the_incremental_join_proposes_every_earlier_match(
            sets in sets(),
            t in prop_oneof![Just(0.8), Just(0.5), Just(1.0), 0.05f64..1.0],
        ) {
            // Two postings on one order, as dedup keeps them: sets go to
            // the second until every third, then all move to the first;
            // every seventh, the order is rebuilt by rarity.
            let mut order = TokenOrder::new(t);
            let (mut main, mut recent) = (Postings::new(t), Postings::new(t));
            let mut moving: Vec<usize> = Vec::new();
            let mut scratch = JoinScratch::default();
            for (number, set) in sets.iter().enumerate() {
                let ranked = order.ranked(set);
                let mut proposed = main.candidates(set, &ranked, &mut scratch);
                proposed.extend(recent.candidates(set, &ranked, &mut scratch));
                for (earlier, other) in sets[..number].iter().enumerate() {
                    if !set.is_empty() && !other.is_empty()
                        && crate::fingerprint::jaccard(set, other) >= t
                    {
                        prop_assert!(proposed.contains(&(earlier as u32)), "{} missed", earlier);
                    }
                }
                prop_assert!(proposed.iter().all(|&earlier| (earlier as usize) < number));
                order.learn(set);
                recent.add(set, &order, number as u32);
                moving.push(number);
                if number % 3 == 2 {
                    for moved in moving.drain(..) {
                        main.add(&sets[moved], &order, moved as u32);
                    }
                    recent = Postings::new(t);
                }
                if number % 7 == 6 {
                    // Reordered by rarity: every set is indexed again.
                    order.reorder();
                    moving.clear();
                    recent = Postings::new(t);
                    main = Postings::new(t);
                    for (again, set) in sets[..=number].iter().enumerate() {
                        order.count_prefix(set);
                        main.add(set, &order, again as u32);
                    }
                }
            }
        }
    }

    #[test]
    fn sets_rank_rarest_first() {
        let sets = ranked(&[vec![1, 2, 3], vec![2, 3], vec![3]]);
        // 1 is in one set, 2 in two, 3 in three.
        assert_eq!(sets.get(0), &[0, 1, 2]);
        assert_eq!(sets.get(1), &[1, 2]);
        assert_eq!(sets.get(2), &[2]);
    }

    #[test]
    fn too_many_pairs_give_up() {
        let same: Vec<Vec<u64>> = (0..50).map(|i| vec![1, 2, 3, 4, 100 + i]).collect();
        let sets = ranked(&same);
        let join = SelfJoin::new(&sets, 0.5);
        assert!(join.run(10).is_none());
        let all = join.run(u64::MAX).unwrap();
        assert_eq!(all.pairs.len(), 50 * 49 / 2);
        assert_eq!(all.candidates, 50 * 49 / 2);
        // Every set is a candidate of every one before it: the estimate from
        // every fifth is near the whole.
        let estimate = join.estimate_candidates(5);
        assert!((900..=1500).contains(&estimate), "{estimate}");
        assert!(
            all.pairs
                .iter()
                .all(|pair| (pair.jaccard - 4.0 / 6.0).abs() < 1e-12)
        );
    }

    #[test]
    fn prefixes_are_as_short_as_the_threshold_allows() {
        // 10 tokens at t = 0.8: a match shares 8, so 3 must be probed.
        assert_eq!(probe_prefix(10, 0.8), 3);
        // Against sets no larger: o = 0.8 * 20 / 1.8 = 8.9, so 9 shared.
        assert_eq!(index_prefix(10, 0.8), 2);
        assert_eq!(probe_prefix(10, 1.0), 1);
        assert_eq!(probe_prefix(3, 0.01), 3);
    }
}
