//! A search that starts from the last one a scan cache remembered.
//!
//! The cache holds the distinct fingerprints its last search saw and every
//! pair of them within its radius. For a radius no wider, the pairs among
//! fingerprints seen then are those remembered (within the radius, both
//! still present), and only pairs with a fingerprint not seen then need a
//! search, against all the others (`search::search_against`). The union is
//! exactly what a full search finds: a re-scan of an unchanged corpus
//! searches nothing.

use std::collections::HashMap;

use crate::index::SearchMemory;
use crate::search::{self, DocId, Pair, SearchOptions, SearchOutcome};

/// Whether `memory` can answer a search of radius `max_distance`.
pub fn answers(memory: &SearchMemory, max_distance: u32) -> bool {
    max_distance <= memory.max_distance
}

/// Finds every pair of `entries` within `options.max_distance`, as
/// `search::search` does (groups aside: the caller builds its own), from
/// `memory` and a search of the fingerprints it did not see.
///
/// # Errors
/// As `search::search_against`.
pub fn search(
    entries: &[(DocId, u64)],
    options: &SearchOptions,
    memory: &SearchMemory,
) -> crate::Result<SearchOutcome> {
    debug_assert!(answers(memory, options.max_distance));
    // Entries by fingerprint; a merge with the sorted memory tells which
    // fingerprints were seen (no map: 10^6 entries are common).
    let mut by_fingerprint: Vec<(u64, DocId)> = entries
        .iter()
        .map(|&(id, fingerprint)| (fingerprint, id))
        .collect();
    by_fingerprint.sort_unstable();
    by_fingerprint.dedup();
    let mut seen = vec![false; by_fingerprint.len()];
    let mut at = 0;
    for (slot, &(fingerprint, _)) in by_fingerprint.iter().enumerate() {
        while at < memory.searched.len() && memory.searched[at] < fingerprint {
            at += 1;
        }
        seen[slot] = memory.searched.get(at) == Some(&fingerprint);
    }
    let mut outcome = if seen.iter().all(|&seen| seen) {
        SearchOutcome {
            stats: search::SearchStats {
                unique_fingerprints: distinct(&by_fingerprint),
                ..search::SearchStats::default()
            },
            ..SearchOutcome::default()
        }
    } else {
        let len = entries
            .iter()
            .map(|&(id, _)| id as usize + 1)
            .max()
            .unwrap_or(0);
        let mut new_ids = vec![false; len];
        for (&(_, id), &seen) in by_fingerprint.iter().zip(&seen) {
            new_ids[id as usize] = !seen;
        }
        search::search_against(entries, options, |id| new_ids[id as usize])?
    };
    // The ids of the entries seen before with a fingerprint, ascending.
    let seen_with = |fingerprint: u64| -> Vec<DocId> {
        let from = by_fingerprint.partition_point(|&(value, _)| value < fingerprint);
        by_fingerprint[from..]
            .iter()
            .zip(&seen[from..])
            .take_while(|((value, _), _)| *value == fingerprint)
            .filter(|(_, seen)| **seen)
            .map(|(&(_, id), _)| id)
            .collect()
    };
    let mut old = Vec::new();
    for run in by_fingerprint
        .iter()
        .zip(&seen)
        .filter(|(_, seen)| **seen)
        .map(|(entry, _)| entry)
        .collect::<Vec<_>>()
        .chunk_by(|a, b| a.0 == b.0)
    {
        for (i, &&(_, a)) in run.iter().enumerate() {
            old.extend(
                run[i + 1..]
                    .iter()
                    .map(|&&(_, b)| Pair { distance: 0, a, b }),
            );
        }
    }
    for &(x, y, distance) in &memory.pairs {
        if distance > options.max_distance {
            continue;
        }
        let (xs, ys) = (seen_with(x), seen_with(y));
        for &a in &xs {
            old.extend(ys.iter().map(|&b| Pair {
                distance,
                a: a.min(b),
                b: a.max(b),
            }));
        }
    }
    outcome.total_pairs += old.len() as u64;
    outcome.pairs.extend(old);
    outcome.pairs.sort_unstable();
    outcome
        .pairs
        .truncate(usize::try_from(options.max_pairs).unwrap_or(usize::MAX));
    outcome.groups.clear();
    Ok(outcome)
}

/// Distinct fingerprints of entries sorted by fingerprint.
fn distinct(by_fingerprint: &[(u64, DocId)]) -> u64 {
    by_fingerprint.chunk_by(|a, b| a.0 == b.0).count() as u64
}

/// What a complete search of `entries` at `max_distance` that found
/// `pairs` leaves to remember: the distinct fingerprints and the pairs of
/// distinct fingerprints among them.
pub fn memory_of(entries: &[(DocId, u64)], pairs: &[Pair], max_distance: u32) -> SearchMemory {
    let fingerprint_of: HashMap<DocId, u64> = entries.iter().copied().collect();
    let mut searched: Vec<u64> = entries
        .iter()
        .map(|&(_, fingerprint)| fingerprint)
        .collect();
    searched.sort_unstable();
    searched.dedup();
    let mut remembered: Vec<(u64, u64, u32)> = pairs
        .iter()
        .filter_map(|pair| {
            let x = *fingerprint_of.get(&pair.a)?;
            let y = *fingerprint_of.get(&pair.b)?;
            (x != y).then_some((x.min(y), x.max(y), pair.distance))
        })
        .collect();
    remembered.sort_unstable();
    remembered.dedup();
    SearchMemory {
        max_distance,
        searched,
        pairs: remembered,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Method;
    use proptest::prelude::*;

    fn options(max_distance: u32) -> SearchOptions {
        SearchOptions {
            max_distance,
            method: Method::Exact,
            window: search::DEFAULT_WINDOW,
            max_pairs: u64::MAX,
        }
    }

    /// Fingerprints in a few clusters of nearby values, some repeated.
    fn entries(seed: u64, n: usize) -> Vec<(DocId, u64)> {
        let mut state = seed;
        let mut next = move || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            state >> 11
        };
        let centres: Vec<u64> = (0..8).map(|_| next() << 11 ^ next()).collect();
        (0..n as DocId)
            .map(|id| {
                let centre = centres[(next() % 8) as usize];
                let flips = (0..next() % 6).fold(0u64, |mask, _| mask | 1 << (next() % 64));
                (id, centre ^ flips)
            })
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// A search from memory equals a full search, whatever changed:
        /// entries dropped, added, or given another fingerprint.
        #[test]
        fn remembered_search_equals_a_full_search(
            seed in any::<u64>(),
            n in 0usize..400,
            k in 0u32..=12,
            extra_radius in 0u32..=4,
            changes in 0usize..60,
        ) {
            let before = entries(seed, n);
            let full_before = search::search(&before, &options(k + extra_radius)).unwrap();
            let memory = memory_of(&before, &full_before.pairs, k + extra_radius);
            let mut after = before.clone();
            let later = entries(seed ^ 0x5eed, changes);
            for (i, &(_, fingerprint)) in later.iter().enumerate() {
                match i % 3 {
                    0 if !after.is_empty() => { after.remove(i % after.len()); }
                    1 if !after.is_empty() => { let at = i % after.len(); after[at].1 = fingerprint; }
                    _ => after.push((n as DocId + i as DocId, fingerprint)),
                }
            }
            let full = search::search(&after, &options(k)).unwrap();
            let remembered = search(&after, &options(k), &memory).unwrap();
            prop_assert_eq!(remembered.pairs, full.pairs);
            prop_assert_eq!(remembered.total_pairs, full.total_pairs);
        }
    }

    #[test]
    fn an_unchanged_corpus_is_not_searched() {
        let before = entries(3, 300);
        let full = search::search(&before, &options(6)).unwrap();
        let memory = memory_of(&before, &full.pairs, 6);
        let remembered = search(&before, &options(6), &memory).unwrap();
        assert_eq!(remembered.pairs, full.pairs);
        assert_eq!(remembered.stats.comparisons, 0);
        assert!(!answers(&memory, 7));
    }
}
