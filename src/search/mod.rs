//! The search stage: fingerprints in, near-duplicate pairs and groups out.
//!
//! INTERFACE STUB: the pair search replaces the bodies; the types and
//! signatures below are the contract the rest of the crate codes against.

/// A document's index in the run (assigned in input order).
pub type DocId = u32;

/// Two documents within the distance limit, `a < b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pair {
    /// Hamming distance of their fingerprints (sorts first).
    pub distance: u32,
    /// The smaller id.
    pub a: DocId,
    /// The larger id.
    pub b: DocId,
}

/// How pairs are found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Permuted block tables: exactly the pairs brute force finds.
    Exact,
    /// Rotate, sort, compare each with the next `window`: approximate.
    Rotate,
    /// All pairs: the reference.
    Brute,
}

/// Options of a search.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// The largest Hamming distance reported (k).
    pub max_distance: u32,
    /// The method.
    pub method: Method,
    /// Neighbours compared per rotation, for `Method::Rotate`.
    pub window: usize,
    /// At most this many pairs are kept in `SearchOutcome::pairs`.
    pub max_pairs: u64,
}

/// Counters that show where the search spent its effort.
#[derive(Clone, Debug, Default)]
pub struct SearchStats {
    /// Distinct fingerprints searched (after collapsing identical ones).
    pub unique_fingerprints: u64,
    /// The largest set of fingerprints compared with each other at once.
    pub largest_bucket: u64,
    /// Fingerprint comparisons made.
    pub comparisons: u64,
}

/// What a search found.
#[derive(Clone, Debug, Default)]
pub struct SearchOutcome {
    /// Pairs sorted by (distance, a, b), truncated to `max_pairs`.
    pub pairs: Vec<Pair>,
    /// Every pair found, including those beyond `max_pairs`.
    pub total_pairs: u64,
    /// Connected components of all pairs: members sorted, groups sorted by first member.
    pub groups: Vec<Vec<DocId>>,
    /// Effort counters.
    pub stats: SearchStats,
}

/// Finds every pair within `options.max_distance`.
pub fn search(
    _fingerprints: &[(DocId, u64)],
    _options: &SearchOptions,
) -> crate::Result<SearchOutcome> {
    todo!()
}
#[allow(missing_docs)]
pub fn groups_of_pairs(_p: &[Pair]) -> Vec<Vec<DocId>> {
    todo!()
}
