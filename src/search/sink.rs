//! Where the search methods put what they find: each pair of distinct
//! fingerprints is counted, joined in the union-find and expanded into the
//! document pairs it stands for, keeping only the first `max_pairs`.
//!
//! Memory stays bounded whatever the output size: a worker keeps at most
//! `2 * max_pairs` document pairs (it drops the larger half when full and
//! then refuses anything past the largest kept one), and unions travel to
//! the shared union-find in small batches.

use std::sync::Mutex;

use super::collapse::Collapsed;
use super::groups::UnionFind;
use super::{DocId, Pair};

/// Unions a worker collects before it takes the union-find lock.
const UNION_BATCH: usize = 4096;

/// The smallest `cap` pairs offered, in any order until `into_sorted`.
#[derive(Debug, Default)]
pub(crate) struct TopPairs {
    cap: usize,
    kept: Vec<Pair>,
    /// Once pruned: the largest kept pair; anything not below it is refused.
    limit: Option<Pair>,
}

impl TopPairs {
    /// An empty collector of at most `cap` pairs.
    pub(crate) fn new(cap: u64) -> TopPairs {
        TopPairs {
            cap: usize::try_from(cap).unwrap_or(usize::MAX),
            kept: Vec::new(),
            limit: None,
        }
    }

    /// Whether `pair` could still be among the smallest `cap`.
    pub(crate) fn wants(&self, pair: &Pair) -> bool {
        self.cap > 0 && self.limit.is_none_or(|limit| *pair < limit)
    }

    /// Offers a pair; returns false if it was refused, so that callers
    /// offering pairs in ascending order can stop.
    pub(crate) fn offer(&mut self, pair: Pair) -> bool {
        if !self.wants(&pair) {
            return false;
        }
        self.kept.push(pair);
        if self.kept.len() >= self.cap.saturating_mul(2) {
            self.prune();
        }
        true
    }

    /// Keeps the `cap` smallest pairs.
    fn prune(&mut self) {
        if self.kept.len() > self.cap {
            self.kept.select_nth_unstable(self.cap - 1);
            self.kept.truncate(self.cap);
            self.limit = self.kept.iter().max().copied();
        }
    }

    /// Adds everything `other` kept.
    pub(crate) fn merge(&mut self, other: TopPairs) {
        for pair in other.kept {
            self.offer(pair);
        }
    }

    /// The kept pairs, sorted.
    pub(crate) fn into_sorted(mut self) -> Vec<Pair> {
        self.prune();
        self.kept.sort_unstable();
        self.kept
    }
}

/// What one worker found; workers' results merge into one.
#[derive(Debug, Default)]
pub(crate) struct Found {
    /// The smallest document pairs.
    pub(crate) pairs: TopPairs,
    /// Every document pair, counted.
    pub(crate) total_pairs: u64,
    /// Fingerprint comparisons made.
    pub(crate) comparisons: u64,
    /// The largest set of fingerprints compared with each other at once.
    pub(crate) largest_bucket: u64,
}

impl Found {
    /// Nothing found yet; keeps at most `max_pairs` pairs.
    pub(crate) fn new(max_pairs: u64) -> Found {
        Found {
            pairs: TopPairs::new(max_pairs),
            ..Found::default()
        }
    }

    /// Merges two workers' results.
    pub(crate) fn merge(mut self, other: Found) -> Found {
        self.pairs.merge(other.pairs);
        self.total_pairs = self.total_pairs.saturating_add(other.total_pairs);
        self.comparisons += other.comparisons;
        self.largest_bucket = self.largest_bucket.max(other.largest_bucket);
        self
    }
}

/// What all workers of a run share: the distinct fingerprints and the
/// union-find over them.
pub(crate) struct Shared {
    /// The distinct fingerprints and their documents.
    pub(crate) collapsed: Collapsed,
    /// Components of the pairs found so far.
    pub(crate) union_find: Mutex<UnionFind>,
    /// At most this many document pairs are kept.
    pub(crate) max_pairs: u64,
}

impl Shared {
    /// Prepares a run over `collapsed`.
    pub(crate) fn new(collapsed: Collapsed, max_pairs: u64) -> Shared {
        let union_find = Mutex::new(UnionFind::new(collapsed.len()));
        Shared {
            collapsed,
            union_find,
            max_pairs,
        }
    }

    /// A sink for one worker.
    pub(crate) fn sink(&self) -> Sink<'_> {
        Sink::new(&self.collapsed, &self.union_find, self.max_pairs)
    }

    /// An empty result to merge workers' results into.
    pub(crate) fn nothing(&self) -> Found {
        Found::new(self.max_pairs)
    }
}

/// One worker's view of the run: receives pairs of distinct fingerprints.
pub(crate) struct Sink<'a> {
    collapsed: &'a Collapsed,
    union_find: &'a Mutex<UnionFind>,
    unions: Vec<(u32, u32)>,
    /// What this worker found so far.
    pub(crate) found: Found,
}

impl<'a> Sink<'a> {
    /// A sink for one worker keeping at most `max_pairs` document pairs.
    pub(crate) fn new(
        collapsed: &'a Collapsed,
        union_find: &'a Mutex<UnionFind>,
        max_pairs: u64,
    ) -> Sink<'a> {
        Sink {
            collapsed,
            union_find,
            unions: Vec::new(),
            found: Found::new(max_pairs),
        }
    }

    /// Records that distinct fingerprints `x` and `y` (x != y) are within
    /// the limit at `distance`; each such pair must arrive exactly once.
    pub(crate) fn emit(&mut self, x: u32, y: u32, distance: u32) {
        let xs = self.collapsed.ids(x);
        let ys = self.collapsed.ids(y);
        let count = xs.len() as u64 * ys.len() as u64;
        self.found.total_pairs = self.found.total_pairs.saturating_add(count);
        self.unions.push((x, y));
        if self.unions.len() >= UNION_BATCH {
            self.flush_unions();
        }
        offer_product(&mut self.found.pairs, xs, ys, distance);
    }

    /// Records the distance-0 pairs among the documents of each repeated
    /// fingerprint (with `new`, of each new one only).
    pub(crate) fn emit_repeats(&mut self, new: Option<&[bool]>) {
        if !self.collapsed.has_repeats() {
            return;
        }
        for index in 0..self.collapsed.len() as u32 {
            if new.is_some_and(|new| !new[index as usize]) {
                continue;
            }
            let ids = self.collapsed.ids(index);
            let c = ids.len() as u64;
            self.found.total_pairs = self.found.total_pairs.saturating_add(c * (c - 1) / 2);
            offer_within(&mut self.found.pairs, ids);
        }
    }

    fn flush_unions(&mut self) {
        // A poisoned lock means another worker panicked; its panic is the
        // one rayon reports, so carry on with the data as it is.
        let mut union_find = self.union_find.lock().unwrap_or_else(|e| e.into_inner());
        for &(x, y) in &self.unions {
            union_find.union(x, y);
        }
        self.unions.clear();
    }

    /// Flushes pending unions and returns what this worker found.
    pub(crate) fn finish(mut self) -> Found {
        self.flush_unions();
        self.found
    }
}

/// Offers every pair of one id from `xs` and one from `ys` (disjoint sets),
/// stopping each row at the first refusal: for a fixed x, pairs grow with y.
fn offer_product(pairs: &mut TopPairs, xs: &[DocId], ys: &[DocId], distance: u32) {
    for &x in xs {
        for &y in ys {
            let (a, b) = if x < y { (x, y) } else { (y, x) };
            if !pairs.offer(Pair { distance, a, b }) {
                break;
            }
        }
    }
}

/// Offers every pair within `ids` (ascending) at distance 0, in ascending
/// order, stopping at the first refusal of a row's smallest pair.
fn offer_within(pairs: &mut TopPairs, ids: &[DocId]) {
    for (i, &a) in ids.iter().enumerate() {
        for (j, &b) in ids[i + 1..].iter().enumerate() {
            if !pairs.offer(Pair { distance: 0, a, b }) {
                if j == 0 {
                    return;
                }
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn pair(distance: u32, a: DocId, b: DocId) -> Pair {
        Pair { distance, a, b }
    }

    proptest! {
        #[test]
        fn top_pairs_keeps_the_smallest(
            raw in proptest::collection::btree_set((0u32..4, 0u32..50, 0u32..50), 0..300),
            cap in 0u64..40,
            split in 0usize..300,
        ) {
            let all: Vec<Pair> = raw.iter().map(|&(d, a, b)| pair(d, a, b)).collect();
            let split = split.min(all.len());
            let mut left = TopPairs::new(cap);
            let mut right = TopPairs::new(cap);
            for p in &all[..split] {
                left.offer(*p);
            }
            for p in all[split..].iter().rev() {
                right.offer(*p);
            }
            left.merge(right);
            let mut expected = all.clone();
            expected.sort_unstable();
            expected.truncate(cap as usize);
            prop_assert_eq!(left.into_sorted(), expected);
        }

        #[test]
        fn offer_helpers_keep_the_smallest(
            xs in proptest::collection::btree_set(0u32..100, 1..15),
            ys in proptest::collection::btree_set(100u32..200, 1..15),
            within in proptest::collection::btree_set(0u32..1000, 2..40),
            cap in 1u64..30,
        ) {
            let xs: Vec<u32> = xs.into_iter().collect();
            // Interleave the two id sets so rows cross from (y, x) to (x, y).
            let ys: Vec<u32> = ys
                .into_iter()
                .map(|y| y - 100 + (y % 2) * 37)
                .filter(|y| !xs.contains(y))
                .collect::<std::collections::BTreeSet<u32>>()
                .into_iter()
                .collect();
            let within: Vec<u32> = within.into_iter().collect();
            let mut top = TopPairs::new(cap);
            offer_product(&mut top, &xs, &ys, 3);
            offer_within(&mut top, &within);
            let mut expected = Vec::new();
            for &x in &xs {
                for &y in &ys {
                    expected.push(pair(3, x.min(y), x.max(y)));
                }
            }
            for (i, &a) in within.iter().enumerate() {
                for &b in &within[i + 1..] {
                    expected.push(pair(0, a, b));
                }
            }
            expected.sort_unstable();
            expected.truncate(cap as usize);
            prop_assert_eq!(top.into_sorted(), expected);
        }
    }

    #[test]
    fn zero_cap_keeps_nothing() {
        let mut top = TopPairs::new(0);
        assert!(!top.offer(pair(0, 1, 2)));
        assert!(top.into_sorted().is_empty());
    }
}
