//! An exact similarity join: every pair of sets whose Jaccard is at least
//! the threshold, found without SimHash, so none is missed.
//!
//! Prefix filtering (Chaudhuri, Ganti and Kaushik 2006; AllPairs, Bayardo
//! et al. 2007; PPJoin, Xiao et al. 2008): order every set's tokens by one
//! global order. Two sets of sizes a <= b with Jaccard >= t share at least
//! o = t (a + b) / (1 + t) tokens, so their first a - o + 1 tokens must
//! meet. Only those prefixes are indexed and probed, rarest tokens first,
//! so the posting lists read are short. Candidates are pruned by their
//! sizes (b >= t a) and by position, then by a bitmap bound on their
//! overlap, and each survivor is decided by the verification stage's
//! exact merge (`decide`), so the Jaccard reported is the one
//! verification gives.
//!
//! By position, two ways. [`SelfJoin`] drops a candidate whose counted
//! overlap plus the tokens left after a match cannot reach o (the
//! positional filter of PPJoin); the scan prices a join by the candidates
//! it leaves, in a sample (src/jobs/scan/joined.rs). [`Postings`] reads
//! less: two sets meet within the first a - o + 1 tokens of the one and
//! b - o + 1 of the other, and o grows with b, so each later token of a
//! probe reads only the sets small enough for its tokens left to reach o
//! (a length-dependent prefix) and passes over a posting whose set has
//! fewer than o tokens left; the counted filter then has nothing left to
//! rule out, and a probe only marks the sets it meets (each posting
//! carries its set's tokens hashed to 64 bits, whose bound rules out most
//! of them before they are marked). It leaves more candidates for the
//! bitmap bound, which is why the batch join, whose candidates price it,
//! keeps the counted filter.
//!
//! Any fixed order gives the same pairs; rarest first only makes it fast.
//! [`SelfJoin`] joins a whole collection, its tokens ranked by how many
//! sets hold them ([`Ranker`]). [`TokenOrder`] and [`Postings`] join sets
//! one at a time (dedup), in an order that new tokens extend without
//! reordering the old.

mod batch;
mod incremental;
mod rank;

pub use batch::{Join, Joined, RankedSets, SelfJoin};
pub use incremental::{JoinScratch, Postings, Ranked, TokenOrder};
pub use rank::Ranker;

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

/// A set's tokens hashed to 256 bits. Each token of the symmetric
/// difference of two sets flips at most one bit, and every bit the two
/// bitmaps differ in needs one, so their overlap is at most
/// (|A| + |B| - differing bits) / 2 (the bitmap filter of Sandes, Teodoro
/// and Melo, SIGMOD 2020): three instructions a word rule out most
/// candidates a merge would.
type Bitmap = [u64; 4];

/// The largest overlap two sets with these sizes and bitmaps can have.
fn bitmap_bound(a: &Bitmap, b: &Bitmap, sizes: usize) -> usize {
    let differ: u32 = a.iter().zip(b).map(|(a, b)| (a ^ b).count_ones()).sum();
    sizes.saturating_sub(differ as usize) / 2
}

#[cfg(test)]
mod tests;
