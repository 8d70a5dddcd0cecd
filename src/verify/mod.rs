//! The verify stage: the exact Jaccard of each candidate pair.
//!
//! SimHash proposes candidate pairs; this stage decides. Each item (a
//! document, or a class of documents with the same features) is read once
//! to get its sorted, distinct feature set, and each pair's Jaccard is
//! computed from the two sets. Memory is bounded: the pairs are split into
//! the connected components of the candidate graph, and components are
//! verified in batches whose feature sets fit a budget, so a set is dropped
//! as soon as its component is done and is never read twice. A component
//! too large for the budget keeps its sets in an anonymous temporary file
//! instead. Sets and Jaccards are computed on every core; the verdicts do
//! not depend on the thread count.

pub mod bands;
mod components;
pub mod join;
pub mod passages;
pub mod sketch;
mod spill;

use rayon::prelude::*;

use crate::Error;

/// What verification decided for one pair.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Verdict {
    /// The exact Jaccard, at least the threshold.
    Near(f64),
    /// Below the threshold (the exact value is not kept: a pair whose set
    /// sizes differ too much is decided without comparing the sets).
    Below,
    /// One of the two could not be read again.
    Unverified,
}

/// The verdicts, by pair, and the items that could not be read (by item,
/// ascending), so the caller reports them in a deterministic order.
#[derive(Debug, Default)]
pub struct Verified {
    /// One verdict per pair, in the order the pairs were given.
    pub verdicts: Vec<Verdict>,
    /// The items whose feature sets could not be read, with the error.
    pub failures: Vec<(u32, Error)>,
    /// Items read.
    pub items_read: u64,
}

/// How many feature hashes (8 bytes each) the sets held at once may take:
/// 128 MiB.
pub const DEFAULT_BUDGET: u64 = 16 << 20;

/// Verifies `pairs` of items `0..items`: `size(item)` is an upper bound on
/// the item's distinct features (to plan memory), `load(item)` reads its
/// sorted, distinct feature hashes. Pairs below `threshold` come out as
/// [`Verdict::Below`]. At most `budget` feature hashes are held in memory
/// at once (a single item larger than that is still loaded whole).
pub fn verify<S, L>(
    pairs: &[(u32, u32)],
    items: usize,
    size: S,
    load: L,
    threshold: f64,
    budget: u64,
) -> Verified
where
    S: Fn(u32) -> u64 + Sync,
    L: Fn(u32) -> crate::Result<Vec<u64>> + Sync,
{
    let mut verified = Verified {
        verdicts: vec![Verdict::Unverified; pairs.len()],
        ..Verified::default()
    };
    let plan = components::Components::new(pairs, items);
    let mut batch: Vec<usize> = Vec::new();
    let mut batch_size = 0u64;
    for component in 0..plan.len() {
        let weight: u64 = plan.items(component).iter().map(|&item| size(item)).sum();
        if weight > budget {
            // Too large to hold: its sets go to a temporary file.
            spill::verify_component(&plan, component, &load, threshold, budget, &mut verified);
            continue;
        }
        if batch_size + weight > budget {
            verify_batch(&plan, &batch, &load, threshold, &mut verified);
            batch.clear();
            batch_size = 0;
        }
        batch.push(component);
        batch_size += weight;
    }
    verify_batch(&plan, &batch, &load, threshold, &mut verified);
    verified.failures.sort_by_key(|&(item, _)| item);
    verified
}

/// Loads every set of a batch of components, then decides their pairs.
fn verify_batch<L>(
    plan: &components::Components,
    batch: &[usize],
    load: &L,
    threshold: f64,
    verified: &mut Verified,
) where
    L: Fn(u32) -> crate::Result<Vec<u64>> + Sync,
{
    if batch.is_empty() {
        return;
    }
    let mut items: Vec<u32> = batch
        .iter()
        .flat_map(|&component| plan.items(component).iter().copied())
        .collect();
    items.sort_unstable();
    let loaded: Vec<crate::Result<Vec<u64>>> = items.par_iter().map(|&item| load(item)).collect();
    verified.items_read += items.len() as u64;
    let mut sets: Vec<Option<Vec<u64>>> = Vec::with_capacity(items.len());
    for (&item, set) in items.iter().zip(loaded) {
        match set {
            Ok(set) => sets.push(Some(set)),
            Err(error) => {
                verified.failures.push((item, error));
                sets.push(None);
            }
        }
    }
    let set_of = |item: u32| {
        let index = items
            .binary_search(&item)
            .expect("every item of the batch is loaded");
        sets[index].as_deref()
    };
    let pair_indices: Vec<usize> = batch
        .iter()
        .flat_map(|&component| plan.pairs(component).iter().copied())
        .collect();
    let decided: Vec<Verdict> = pair_indices
        .par_iter()
        .map(|&index| {
            let (a, b) = plan.pair(index);
            match (set_of(a), set_of(b)) {
                (Some(a), Some(b)) => decide(a, b, threshold),
                _ => Verdict::Unverified,
            }
        })
        .collect();
    for (index, verdict) in pair_indices.into_iter().zip(decided) {
        verified.verdicts[index] = verdict;
    }
}

/// The verdict on two sorted, distinct sets.
///
/// J(A, B) >= t exactly when |A ∩ B| >= t (|A| + |B|) / (1 + t). The merge
/// of the two sets stops as soon as the elements left cannot bring the
/// intersection that high, so a pair far below the threshold (the usual
/// candidate on boilerplate-heavy text) costs a fraction of a merge; and a
/// pair whose sizes alone rule it out costs nothing.
pub(crate) fn decide<T: Ord>(a: &[T], b: &[T], threshold: f64) -> Verdict {
    let (small, large) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    // |A ∩ B| <= |small| and |A ∪ B| >= |large|.
    if !large.is_empty() && (small.len() as f64) < threshold * large.len() as f64 {
        return Verdict::Below;
    }
    // The least intersection that could reach the threshold, rounded down
    // a little so rounding can never turn away a pair at the threshold.
    let total = (a.len() + b.len()) as f64;
    let needed = ((threshold * total / (1.0 + threshold)) - 1e-9)
        .floor()
        .max(0.0) as usize;
    let (mut i, mut j, mut common) = (0, 0, 0usize);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                common += 1;
                i += 1;
                j += 1;
                continue;
            }
        }
        if common + (a.len() - i).min(b.len() - j) < needed {
            return Verdict::Below;
        }
    }
    let jaccard = if a.is_empty() && b.is_empty() {
        1.0
    } else {
        common as f64 / (a.len() + b.len() - common) as f64
    };
    if jaccard >= threshold {
        Verdict::Near(jaccard)
    } else {
        Verdict::Below
    }
}

#[cfg(test)]
mod tests;
