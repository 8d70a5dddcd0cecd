//! Short texts past the join by their MinHash bands (src/verify/bands.rs):
//! where the exact join would cost too much or hold too much, two short
//! texts are candidates when they share one of the bands' keys, a pair at
//! Jaccard J with chance about 1 − (1 − J^8)^16 (0.947 at 0.8), however
//! their fingerprints crowd; exact Jaccard decides as for any candidate.
//! dedup finds its short texts past the join the same way.
//!
//! Each text is read again once for its keys (64 bytes a text are held),
//! then each band's keys are sorted, and the texts of a run of equal keys
//! are candidates pairwise. A run of many texts (lines of one log format
//! crowd so) makes the square of its length: past `max_candidates` the
//! bands are declined, and the texts are searched by fingerprint.

use rayon::prelude::*;

use crate::diag::Diagnostics;
use crate::search::{self, DocId};
use crate::verify::bands::{BANDS, BandKeys, band_keys};

use super::documents::ClassId;
use super::sources::Sources;

/// Texts read at once.
const CHUNK: usize = 4096;

/// One text in this many is read first, to predict the pairs the bands
/// will make: a pair of texts is in the sample with chance 1/SAMPLE_EVERY².
const SAMPLE_EVERY: usize = 16;

/// The bands are declined at once when the sample predicts this many
/// times `max_candidates` pairs in a band, or distinct pairs in all
/// ([`pairs_sharing_a_band`] of the sample, its cap scaled)
/// (3·10^5 generated log lines, which crowd, took 4.5 s to decline after
/// reading every text, 2.9 s by fingerprint; the first 60 MB of the real
/// lines passed the cap only in all bands together, and with a margin of
/// 2 they were read whole to be declined: 12 s against 9.8).
const PREDICTED_MARGIN: u64 = 1;

/// Why the bands were not used.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Declined {
    /// Runs of equal keys made more than this many candidates (in one
    /// band, or distinct in all).
    Candidates(u64),
}

/// Candidate pairs the bands found whose sketches (src/verify/sketch.rs)
/// show they cannot reach the threshold: decided here, never held.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct TurnedAway {
    /// Class pairs.
    pub pairs: u64,
    /// The document pairs they stand for.
    pub weight: u64,
}

/// The candidate pairs of `entries` (`(class, fingerprint)`, classes
/// ascending) by their MinHash bands, each class's character pairs read by
/// `sources`; only pairs that `asked` wants are kept, and of those only
/// the ones that `may_reach` the threshold by their sketches (the others
/// counted, with their `weight`: on 10^6 address lines 97.5% of 4.3
/// million, which held through verification took the peak from 295 MB
/// to 426).
/// Sorted by (distance, a, b), as a search's. Declined past
/// `max_candidates` pairs.
pub(super) fn band_candidates(
    entries: &[(DocId, u64)],
    sources: &Sources<'_>,
    asked: &(dyn Fn(ClassId, ClassId) -> bool + Sync),
    may_reach: &(dyn Fn(ClassId, ClassId) -> bool + Sync),
    weight: &(dyn Fn(ClassId, ClassId) -> u64 + Sync),
    max_candidates: u64,
    diag: &mut Diagnostics,
) -> Result<(search::SearchOutcome, TurnedAway), Declined> {
    // None for a text without character pairs: it shares no band.
    let keys_of = |&(class, _): &(DocId, u64)| {
        sources
            .short_text_set(class)
            .map(|set| (!set.is_empty()).then(|| band_keys(&set)))
    };
    let sample: Vec<_> = entries
        .par_iter()
        .step_by(SAMPLE_EVERY)
        .map(keys_of)
        .collect();
    let sampled: Vec<Option<BandKeys>> = sample
        .iter()
        .map(|keys| keys.as_ref().ok().copied().flatten())
        .collect();
    // The sample's pairs, in a band and distinct in all (many bands each
    // a little under the cap passed it together on real lines), scaled.
    let square = (SAMPLE_EVERY * SAMPLE_EVERY) as u64;
    let allowed = max_candidates.saturating_mul(PREDICTED_MARGIN);
    if pairs_sharing_a_band(&sampled, allowed / square).is_err() {
        return Err(Declined::Candidates(max_candidates));
    }
    drop(sampled);
    let mut keys: Vec<Option<BandKeys>> = Vec::with_capacity(entries.len());
    each_but_sampled_read(
        entries.len(),
        sample,
        |at| keys_of(&entries[at]),
        |text| {
            keys.push(text.unwrap_or_else(|error| {
                diag.verify_error(&error);
                None
            }));
        },
    );
    let found = pairs_sharing_a_band(&keys, max_candidates)?;
    drop(keys);
    let classes = |pair: u64| {
        (
            entries[(pair >> 32) as usize],
            entries[pair as u32 as usize],
        )
    };
    let away = found
        .par_iter()
        .map(|&pair| classes(pair))
        .filter(|(a, b)| asked(a.0, b.0) && !may_reach(a.0, b.0))
        .map(|(a, b)| TurnedAway {
            pairs: 1,
            weight: weight(a.0, b.0),
        })
        .reduce(TurnedAway::default, |x, y| TurnedAway {
            pairs: x.pairs + y.pairs,
            weight: x.weight + y.weight,
        });
    let mut pairs: Vec<search::Pair> = found
        .into_par_iter()
        .map(classes)
        .filter(|(a, b)| asked(a.0, b.0) && may_reach(a.0, b.0))
        .map(|(a, b)| search::Pair {
            distance: (a.1 ^ b.1).count_ones(),
            a: a.0,
            b: b.0,
        })
        .collect();
    pairs.par_sort_unstable();
    let outcome = search::SearchOutcome {
        total_pairs: pairs.len() as u64,
        pairs,
        groups: Vec::new(),
        stats: search::SearchStats {
            unique_fingerprints: entries.len() as u64,
            ..search::SearchStats::default()
        },
    };
    Ok((outcome, away))
}

/// Calls `each` with `read(at)` for each of `0..count`, in order, read in
/// parallel a chunk at a time, except at the indexes `sample` already
/// holds (one in [`SAMPLE_EVERY`], from 0), which are not read again.
fn each_but_sampled_read<T: Send>(
    count: usize,
    sample: Vec<T>,
    read: impl Fn(usize) -> T + Sync,
    mut each: impl FnMut(T),
) {
    let mut sampled = sample.into_iter();
    for start in (0..count).step_by(CHUNK) {
        let read: Vec<Option<T>> = (start..count.min(start + CHUNK))
            .into_par_iter()
            .map(|at| (at % SAMPLE_EVERY != 0).then(|| read(at)))
            .collect();
        for text in read
            .into_iter()
            .map_while(|text| text.or_else(|| sampled.next()))
        {
            each(text);
        }
    }
}

/// Every pair of indexes `(i << 32 | j)`, `i < j`, whose keys are equal in
/// some band (texts without keys share none), sorted and distinct;
/// declined once the runs of one band make more than `max_candidates`
/// pairs, or the distinct pairs of all are more.
fn pairs_sharing_a_band(
    keys: &[Option<BandKeys>],
    max_candidates: u64,
) -> Result<Vec<u64>, Declined> {
    let mut pairs: Vec<u64> = Vec::new();
    let mut fresh: Vec<u64> = Vec::new();
    let mut band: Vec<u64> = Vec::with_capacity(keys.len());
    for at in 0..BANDS {
        band.clear();
        band.extend(
            keys.iter().enumerate().filter_map(|(index, keys)| {
                keys.map(|keys| u64::from(keys[at]) << 32 | index as u64)
            }),
        );
        band.par_sort_unstable();
        fresh.clear();
        let mut made = 0u64;
        for run in band.chunk_by(|x, y| x >> 32 == y >> 32) {
            let len = run.len() as u64;
            made = made.saturating_add(len * (len - 1) / 2);
            if made > max_candidates {
                return Err(Declined::Candidates(max_candidates));
            }
            // Indexes ascend within a run: the key is equal, the index
            // sorts the rest.
            for (from, &first) in run.iter().enumerate() {
                let i = first & u64::from(u32::MAX);
                fresh.extend(
                    run[from + 1..]
                        .iter()
                        .map(|&second| i << 32 | (second & u64::from(u32::MAX))),
                );
            }
        }
        if !fresh.is_empty() {
            // The pairs so far are sorted: merged with this band's, not
            // sorted again with them (on 10^6 address lines, 4.3 million
            // pairs sorted again after each band took 0.5 s).
            fresh.par_sort_unstable();
            merge_distinct(&mut pairs, &fresh);
        }
        if pairs.len() as u64 > max_candidates {
            return Err(Declined::Candidates(max_candidates));
        }
    }
    Ok(pairs)
}

/// Merges sorted `fresh` into sorted, distinct `pairs`, which stay
/// sorted and distinct: from the back, in place, so no second list is
/// held beside them.
fn merge_distinct(pairs: &mut Vec<u64>, fresh: &[u64]) {
    let (mut from_pairs, mut from_fresh) = (pairs.len(), fresh.len());
    pairs.resize(from_pairs + from_fresh, 0);
    let mut to = pairs.len();
    while from_fresh > 0 {
        to -= 1;
        if from_pairs > 0 && pairs[from_pairs - 1] > fresh[from_fresh - 1] {
            from_pairs -= 1;
            pairs[to] = pairs[from_pairs];
        } else {
            from_fresh -= 1;
            pairs[to] = fresh[from_fresh];
        }
    }
    pairs.dedup();
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        /// Exactly the pairs that share a band key, each once, whatever
        /// the runs; none with a text without keys.
        #[test]
        fn the_pairs_are_those_sharing_a_band(
            keys in proptest::collection::vec(
                proptest::option::weighted(0.9, proptest::collection::vec(0u32..4, BANDS)),
                0..40),
        ) {
            let keys: Vec<Option<BandKeys>> = keys
                .into_iter()
                .map(|keys| keys.map(|keys| std::array::from_fn(|band| keys[band])))
                .collect();
            let found = pairs_sharing_a_band(&keys, u64::MAX).unwrap();
            let mut expected = Vec::new();
            for i in 0..keys.len() {
                for j in i + 1..keys.len() {
                    if let (Some(a), Some(b)) = (keys[i], keys[j])
                        && a.iter().zip(&b).any(|(x, y)| x == y)
                    {
                        expected.push((i as u64) << 32 | j as u64);
                    }
                }
            }
            prop_assert_eq!(found, expected);
        }

        /// The merge leaves each value of either list once, in order.
        #[test]
        fn merged_lists_are_their_distinct_values(
            mut a in proptest::collection::vec(0u64..50, 0..30),
            mut b in proptest::collection::vec(0u64..50, 0..30),
        ) {
            a.sort_unstable();
            a.dedup();
            b.sort_unstable();
            let expected: Vec<u64> = a
                .iter()
                .chain(&b)
                .copied()
                .collect::<std::collections::BTreeSet<u64>>()
                .into_iter()
                .collect();
            merge_distinct(&mut a, &b);
            prop_assert_eq!(a, expected);
        }
    }

    #[test]
    fn sampled_texts_are_taken_from_the_sample_and_the_rest_read() {
        for count in [0, 1, 16, 17, CHUNK - 1, CHUNK + 17, 3 * CHUNK] {
            let sample: Vec<usize> = (0..count)
                .step_by(SAMPLE_EVERY)
                .map(|at| at + 1_000_000)
                .collect();
            let read = std::sync::atomic::AtomicUsize::new(0);
            let mut all = Vec::new();
            each_but_sampled_read(
                count,
                sample,
                |at| {
                    read.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    at
                },
                |text| all.push(text),
            );
            let expected: Vec<usize> = (0..count)
                .map(|at| {
                    if at % SAMPLE_EVERY == 0 {
                        at + 1_000_000
                    } else {
                        at
                    }
                })
                .collect();
            assert_eq!(all, expected, "{count}");
            assert_eq!(read.into_inner(), count - count.div_ceil(SAMPLE_EVERY));
        }
    }

    #[test]
    fn crowded_runs_are_declined() {
        // Ten texts with the same keys: 45 pairs in each of the bands,
        // the same 45.
        let keys = vec![Some([7u32; BANDS]); 10];
        assert_eq!(pairs_sharing_a_band(&keys, 45).unwrap().len(), 45);
        assert_eq!(
            pairs_sharing_a_band(&keys, 44),
            Err(Declined::Candidates(44))
        );
        // Distinct pairs of several bands: 4 texts, each band pairing two
        // others (0-1, 2-3, 0-2, 1-3, ...).
        let keys: Vec<Option<BandKeys>> = (0..4u32)
            .map(|text| {
                Some(std::array::from_fn(|band| {
                    if band % 2 == 0 { text / 2 } else { text % 2 }
                }))
            })
            .collect();
        assert_eq!(pairs_sharing_a_band(&keys, 4).unwrap().len(), 4);
        assert_eq!(pairs_sharing_a_band(&keys, 3), Err(Declined::Candidates(3)));
    }
}
