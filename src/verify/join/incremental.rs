//! Joining sets one at a time (dedup): an order that new tokens extend
//! without reordering the old, and posting lists of whole probe prefixes.

use std::collections::HashMap;

use crate::fingerprint::Identity;

use super::{Bitmap, Overlap, bitmap_bound, least_size, most_size, probe_prefix};

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
/// It also counts, by size, the sets that hold each token in their probe
/// prefix (the lengths of its posting lists, all postings on this order
/// together), to price a probe before it is made.
///
/// Prefixes may be capped ([`TokenOrder::cap_prefixes`]): then only a
/// set's first few tokens ranked by the last reorder are indexed, and a
/// probe reads the lists of its own first few. Two sets that reach the
/// threshold meet at their first common token, within both their
/// prefixes; a cap keeps the pairs whose first common token lies within
/// it in both sets, so the join is no longer exact, but near-copies share
/// their rarest tokens: on real lines the rarest 3 character pairs find
/// 0.998 of the pairs, for 0.07 of the postings (docs/QUALITY.md).
#[derive(Debug)]
pub struct TokenOrder {
    threshold: f64,
    tokens: HashMap<u64, Token, Identity>,
    /// The rank of the next new token.
    next_new: u32,
    /// The most tokens of a prefix indexed or probed.
    cap: usize,
}

/// What a [`TokenOrder`] knows of a token.
#[derive(Clone, Debug)]
struct Token {
    rank: u32,
    /// Sets learnt that hold it.
    sets: u32,
    /// Sets indexed with it in their probe prefix, by set size
    /// (ascending).
    prefixes: Vec<(u16, u32)>,
}

/// Prefixes of at most this many tokens are ranked without gathering
/// the others.
const FEW: usize = 8;

/// Ranks below this are given to new tokens, counting down; reordered
/// tokens rank from it up.
const REORDERED: u32 = 1 << 31;

/// A set in a [`TokenOrder`]: how many of its tokens the order has never
/// seen (they rank first, in any order: no posting holds them), then the
/// others' ranks, ascending, each with its hash.
pub type Ranked = (usize, Vec<(u32, u64)>);

impl TokenOrder {
    /// An empty order for Jaccard `threshold` (> 0).
    pub fn new(threshold: f64) -> TokenOrder {
        TokenOrder {
            threshold,
            tokens: HashMap::default(),
            next_new: u32::MAX,
            cap: usize::MAX,
        }
    }

    /// Indexes and probes at most `cap` tokens of each prefix from now
    /// on; every set must then be indexed again (after
    /// [`TokenOrder::reorder`]).
    pub fn cap_prefixes(&mut self, cap: usize) {
        self.cap = cap;
    }

    /// The most tokens of a prefix indexed or probed (`usize::MAX`: no
    /// cap, the join is exact).
    pub fn cap(&self) -> usize {
        self.cap
    }

    /// `set` ranked for a probe of postings on this order: as
    /// [`TokenOrder::ranked`], its probe prefix's known tokens, up to the
    /// cap (a token never seen is in no list, so it takes no place in a
    /// capped probe).
    pub fn probed(&self, set: &[u64]) -> Ranked {
        let prefix = probe_prefix(set.len(), self.threshold);
        let (unknown, known) = self.first_ranked(set, prefix.min(self.cap));
        if self.cap == usize::MAX {
            return (unknown, known);
        }
        // Capped, no token counts as unknown: a token the order does not
        // rank may still be one the probe shares with a set (first seen
        // since the last reorder), so the positions the join prunes by
        // are counted among the ranked tokens alone, like those of the
        // sets indexed.
        (0, known)
    }

    /// `set` (sorted, distinct feature hashes) in this order.
    pub fn ranked(&self, set: &[u64]) -> Ranked {
        self.first_ranked(set, usize::MAX)
    }

    /// [`TokenOrder::ranked`], only the first `limit` known tokens: they
    /// are picked before they are sorted, as a prefix is a fifth of a set
    /// or, capped, a few tokens.
    pub(super) fn first_ranked(&self, set: &[u64], limit: usize) -> Ranked {
        if limit <= FEW {
            return self.fewest_ranked(set, limit);
        }
        let mut known: Vec<(u32, u64)> = set
            .iter()
            .filter_map(|&hash| self.rank(hash).map(|rank| (rank, hash)))
            .collect();
        let unknown = set.len() - known.len();
        if limit < known.len() {
            known.select_nth_unstable(limit);
            known.truncate(limit);
        }
        known.sort_unstable();
        (unknown, known)
    }

    /// A token's rank, if the order ranks it. Capped, only the tokens
    /// ranked by the last [`TokenOrder::reorder`] are: a capped prefix is
    /// a set's first few tokens, and a token first seen since then would
    /// take a place in the prefixes of the texts probed after it (it ranks
    /// first) but not in those of the texts indexed before it, so which
    /// sets a probe meets would depend on when it is made (dedup probes
    /// a block's texts ahead of their turn).
    fn rank(&self, hash: u64) -> Option<u32> {
        let rank = self.tokens.get(&hash)?.rank;
        (self.cap == usize::MAX || rank >= REORDERED).then_some(rank)
    }

    /// [`TokenOrder::first_ranked`] for a limit of at most [`FEW`]: each
    /// known token is placed among the first so far as it comes, so the
    /// others are never gathered (a capped join ranks every text so).
    fn fewest_ranked(&self, set: &[u64], limit: usize) -> Ranked {
        let mut first: Vec<(u32, u64)> = Vec::with_capacity(limit + 1);
        let mut unknown = 0;
        for &hash in set {
            let Some(rank) = self.rank(hash) else {
                unknown += 1;
                continue;
            };
            let entry = (rank, hash);
            if first.len() == limit && first.last().is_none_or(|&last| entry > last) {
                continue;
            }
            let at = first.partition_point(|&other| other < entry);
            first.insert(at, entry);
            first.truncate(limit);
        }
        (unknown, first)
    }

    /// Learns the tokens of a set about to be added to postings.
    pub fn learn(&mut self, set: &[u64]) {
        for &hash in set {
            let next = self.next_new;
            let token = self.tokens.entry(hash).or_insert_with(|| Token {
                rank: next,
                sets: 0,
                prefixes: Vec::new(),
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
        let Ok(size) = u16::try_from(set.len()) else {
            return; // not indexed (see `Postings::add`)
        };
        let prefix = probe_prefix(set.len(), self.threshold).min(self.cap);
        let (_, ranked) = self.first_ranked(set, prefix);
        for (_, hash) in &ranked {
            if let Some(token) = self.tokens.get_mut(hash) {
                match token
                    .prefixes
                    .binary_search_by_key(&size, |&(size, _)| size)
                {
                    Ok(at) => token.prefixes[at].1 += 1,
                    Err(at) => token.prefixes.insert(at, (size, 1)),
                }
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
                token.prefixes.clear();
            }
        }
        self.next_new = REORDERED - 1;
    }

    /// How many postings a probe of a set of `size` tokens, `ranked` (from
    /// [`TokenOrder::probed`]), may read: those of its probe prefix's
    /// tokens whose sets' sizes could reach the threshold with it (`size`
    /// is not that of `ranked`, which a cap cuts short).
    /// [`Postings::candidates`] reads
    /// fewer (each token fewer sizes than the one before), but the budget
    /// that prices the join in these postings (src/jobs/dedup/short_join.rs)
    /// was measured in them: counting the reads let the join run on to
    /// later texts, each probe's fixed costs with it (3·10^5 generated log
    /// lines took 1.1 times as long, for 0.3% more dropped).
    pub fn probe_cost(&self, size: usize, (unknown, known): &Ranked) -> u64 {
        let t = self.threshold;
        let (least, most) = (least_size(size, t), most_size(size, t));
        let prefix = probe_prefix(size, t).saturating_sub(*unknown);
        known[..prefix.min(known.len())]
            .iter()
            .filter_map(|(_, hash)| self.tokens.get(hash))
            .flat_map(|token| &token.prefixes)
            .filter(|&&(other, _)| (least..=most).contains(&usize::from(other)))
            .map(|&(_, count)| u64::from(count))
            .sum()
    }
}

/// A probe that met at least one set per this many words of the bitmap
/// of sets met decides them by a sweep of that bitmap, in place order.
const SWEEP_AT: usize = 16;

/// A probe's reusable memory.
#[derive(Debug, Default)]
pub struct JoinScratch {
    /// Whether each held set was met by the probe, a bit each (300,000
    /// sets in 37 KB), so that a sweep finds them in place order.
    met: Vec<u64>,
    /// The places of the sets met, in the order met (at the start).
    touched: Vec<u32>,
    /// The least overlap with the probe, by the other set's size.
    needed: Vec<usize>,
    /// Decide the sets met by a sweep (`Some(true)`) or from the list
    /// of places (`Some(false)`) whatever their number, so tests hold
    /// the two to the same answer.
    #[cfg(test)]
    pub(super) sweep: Option<bool>,
}

/// Sets added one at a time, indexed by their probe prefixes in a
/// [`TokenOrder`] (sets come in any size order, so the whole probe prefix
/// is indexed): [`Postings::candidates`] proposes the sets added before
/// that may reach the threshold with a new one. One order may serve
/// several postings, each consistent with it.
#[derive(Debug, Default)]
pub struct Postings {
    threshold: f64,
    /// Posting lists by token (its feature hash: a rank would need a
    /// hasher of its own), each cut by set size (ascending), so a probe
    /// reads only the sizes that can reach the threshold with it.
    lists: HashMap<u64, Vec<SizeList>, Identity>,
    /// Each set added: its number, size and bitmap.
    held: Vec<(u32, u16, Bitmap)>,
}

/// The postings of one token from sets of one size.
#[derive(Debug)]
struct SizeList {
    size: u16,
    entries: Vec<Posting>,
}

/// A set in a posting list: where it is held, where the token sits in it,
/// and its tokens hashed to 64 bits (see [`Bitmap`]), so that a probe
/// rules out most sets it meets without reading them where they are held
/// (a cache miss each once many are: on real lines, when probes met a few
/// hundred sets each among 800,000, those reads took most of their time).
#[derive(Debug)]
struct Posting {
    bits: u64,
    place: u32,
    position: u16,
}

/// A set's feature hashes to 64 bits: a coarser [`Bitmap`], its bound on
/// the overlap weaker but still valid.
fn hash_bits(set: &[u64]) -> u64 {
    set.iter().fold(0, |bits, &hash| bits | 1 << (hash >> 58))
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

    /// The numbers of the sets added that may reach the threshold with
    /// `set` (sorted, distinct feature hashes; `ranked` is its rank in
    /// `order`, from [`TokenOrder::probed`]), ascending: every one that
    /// does is among them, if prefixes are not capped. Read-only.
    pub fn candidates(
        &self,
        set: &[u64],
        (unknown, known): &Ranked,
        scratch: &mut JoinScratch,
    ) -> Vec<u32> {
        let t = self.threshold;
        let overlap = Overlap::new(t);
        let size = set.len();
        // No larger set is held (a tiny threshold would ask for sizes
        // without end).
        let most = most_size(size, t).min(usize::from(u16::MAX));
        let least = least_size(size, t).min(most + 1);
        let prefix = probe_prefix(size, t).saturating_sub(*unknown);
        #[cfg(test)]
        let forced = scratch.sweep;
        let JoinScratch {
            met,
            touched,
            needed,
            ..
        } = scratch;
        // Grown, never shrunk: one scratch probes postings of different
        // sizes in turn (the main and the in-block ones), and shrinking
        // would zero the difference again at every turn.
        if met.len() < self.held.len().div_ceil(64) {
            met.resize(self.held.len().div_ceil(64), 0);
        }
        // Every set met is a distinct held one: room for all and one more,
        // so each posting's set is written past the end and kept by moving
        // the end, without a branch.
        if touched.len() <= self.held.len() {
            touched.resize(self.held.len() + 1, 0);
        }
        let mut touched_len = 0;
        let bits = hash_bits(set);
        // The least overlap by the other set's size, from `least` on.
        needed.clear();
        needed.extend((least..=most).map(|other| overlap.least(size + other)));
        for (k, &(_, hash)) in known[..prefix.min(known.len())].iter().enumerate() {
            let i = unknown + k;
            let Some(lists) = self.lists.get(&hash) else {
                continue;
            };
            let from = lists.partition_point(|list| usize::from(list.size) < least);
            for list in &lists[from..] {
                let other_size = usize::from(list.size);
                // The tokens left of `set` cannot make up the overlap with
                // a set this large (nor a larger one): none of them starts
                // here, and one met before stays a candidate, for the
                // bitmap and the merge to decide. A probe's tokens thus see
                // fewer sizes as they go (the length-dependent prefix).
                // (`needed` ends at `most`: larger sets cannot reach the
                // threshold at all.)
                let Some(&needed) = needed.get(other_size - least) else {
                    break;
                };
                if size - i < needed {
                    break;
                }
                // Likewise a set whose token sits past its own `last`: the
                // ones it holds after it are further on still. Every
                // posting read thus leaves at least `needed` tokens on both
                // sides, so the position filter has nothing left to rule
                // out: a set met is a candidate.
                let Some(last) = other_size.checked_sub(needed) else {
                    continue;
                };
                // The bits two sets differ in are at most their symmetric
                // difference, size + other_size - 2 overlap.
                let most_differ = (size + other_size).saturating_sub(2 * needed);
                for posting in &list.entries {
                    let (place, position) = (posting.place, posting.position);
                    let differ = (posting.bits ^ bits).count_ones() as usize;
                    let wanted = u64::from(usize::from(position) <= last && differ <= most_differ);
                    let word = &mut met[place as usize / 64];
                    let bit = wanted << (place % 64);
                    let new = bit & !*word != 0;
                    *word |= bit;
                    touched[touched_len] = place;
                    touched_len += usize::from(new);
                }
            }
        }
        let bitmap = hash_bitmap(set);
        let mut found = Vec::new();
        let mut decide = |place: usize| {
            let (number, other_size, other) = self.held[place];
            let other_size = usize::from(other_size);
            if bitmap_bound(&bitmap, &other, size + other_size) >= needed[other_size - least] {
                found.push(number);
            }
        };
        let words = self.held.len().div_ceil(64);
        let sweep = touched_len * SWEEP_AT >= words;
        #[cfg(test)]
        let sweep = forced.unwrap_or(sweep);
        if !sweep {
            for &place in &touched[..touched_len] {
                // Every bit set is a place touched: its whole word clears.
                met[place as usize / 64] = 0;
                decide(place as usize);
            }
        } else {
            // Many met: the held sets are read in place order (a sweep
            // of the bits), so the reads run forward instead of jumping
            // (on crowded short texts a probe met a third of all sets,
            // and these reads missed the cache: 40% of the probe).
            for (at, word) in met[..words].iter_mut().enumerate() {
                let mut bits = std::mem::take(word);
                while bits != 0 {
                    decide(at * 64 + bits.trailing_zeros() as usize);
                    bits &= bits - 1;
                }
            }
        }
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
        let bits = hash_bits(set);
        let prefix = probe_prefix(set.len(), self.threshold).min(order.cap);
        let (unknown, ranked) = order.first_ranked(set, prefix);
        debug_assert!(
            unknown == 0 || order.cap != usize::MAX,
            "the order learnt the set"
        );
        for (position, &(_, hash)) in ranked.iter().enumerate() {
            let lists = self.lists.entry(hash).or_default();
            let at = match lists.binary_search_by_key(&size, |list| list.size) {
                Ok(at) => at,
                Err(at) => {
                    let entries = Vec::new();
                    lists.insert(at, SizeList { size, entries });
                    at
                }
            };
            lists[at].entries.push(Posting {
                bits,
                place,
                position: position as u16,
            });
        }
    }
}
