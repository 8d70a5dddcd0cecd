//! Short texts past the join by their MinHash bands (src/verify/bands.rs):
//! where the exact join would cost too much or hold too much, two short
//! texts are candidates when they share one of the bands' keys, a pair at
//! Jaccard J with chance about 1 − (1 − J^8)^16 (0.947 at 0.8), however
//! their fingerprints crowd; exact Jaccard decides as for any candidate.
//! dedup finds its short texts past the join the same way.
//!
//! Each text is read again once for its keys (64 bytes a text are held),
//! unless a join that was declined read it already (its sets are handed
//! on, so the same keys come without a second pass over the texts),
//! then each band's keys are sorted, and the texts of a run of equal keys
//! are candidates pairwise, unless their sketches (src/verify/sketch.rs)
//! turn them away. A run of many texts (lines of one log format crowd so)
//! makes the square of its length: past `max_candidates` pairs held, or
//! 16 times as many compared, the bands are declined, and the texts are
//! searched by fingerprint. The cap counts the pairs held, not those made:
//! on the first 60 MB of the real lines the bands made 15.8 million
//! distinct pairs, past the cap of 8 million, and held 2.9 million.

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use crate::diag::Diagnostics;
use crate::search::{self, DocId};
use crate::verify::bands::{BANDS, BandKeys, band_keys};

use super::documents::ClassId;
use super::joined::ReadSets;
use super::sources::Sources;

/// Texts read at once.
const CHUNK: usize = 4096;

/// One text in this many is read first, to predict the pairs the bands
/// will make: a pair of texts is in the sample with chance 1/SAMPLE_EVERY².
const SAMPLE_EVERY: usize = 16;

/// The bands are declined at once when the sample predicts this many
/// times `max_candidates` pairs held, or compared
/// ([`pairs_sharing_a_band`] of the sample, its cap scaled)
/// (3·10^5 generated log lines, which crowd, took 4.5 s to decline after
/// reading every text, 2.9 s by fingerprint).
const PREDICTED_MARGIN: u64 = 1;

/// Why the bands were not used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Declined {
    /// Runs of equal keys made more than this many candidates held, or
    /// more than [`PAIRS_COMPARED_PER_CANDIDATE`] times as many compared.
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

impl TurnedAway {
    fn add(self, other: TurnedAway) -> TurnedAway {
        TurnedAway {
            pairs: self.pairs + other.pairs,
            weight: self.weight + other.weight,
        }
    }
}

/// Where the short texts' character pairs come from.
pub(super) enum SetsFrom<'a> {
    /// Their texts, read again.
    Texts(&'a Sources<'a>),
    /// The sets a declined join read, in entry order.
    Joined(ReadSets),
}

/// What becomes of a pair of texts that share a band.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fate {
    /// Not wanted (against a stored corpus, a pair of two stored texts).
    Unasked,
    /// Held, to be verified.
    Held,
    /// Turned away by the sketches, standing for this many document pairs.
    TurnedAway(u64),
}

/// The candidate pairs of `entries` (`(class, fingerprint)`, classes
/// ascending) by their MinHash bands, each class's character pairs read by
/// `sources`; only pairs that `asked` wants are kept, and of those only
/// the ones that `may_reach` the threshold by their sketches (the others
/// counted, with their `weight`: on 10^6 address lines 97.5% of 4.3
/// million, which held through verification took the peak from 295 MB
/// to 426).
/// Sorted by (distance, a, b), as a search's. Declined past
/// `max_candidates` pairs held, or when the runs of equal keys make more
/// than [`PAIRS_COMPARED_PER_CANDIDATE`] times as many pairs to compare.
pub(super) fn band_candidates(
    entries: &[(DocId, u64)],
    sets: SetsFrom<'_>,
    asked: &(dyn Fn(ClassId, ClassId) -> bool + Sync),
    may_reach: &(dyn Fn(ClassId, ClassId) -> bool + Sync),
    weight: &(dyn Fn(ClassId, ClassId) -> u64 + Sync),
    max_candidates: u64,
    diag: &mut Diagnostics,
) -> Result<(search::SearchOutcome, TurnedAway), Declined> {
    // None for a text without character pairs: it shares no band. The
    // sets a declined join read are taken as they are; others are read
    // again.
    let keys_of = |at: usize| -> crate::Result<Option<BandKeys>> {
        let set = match &sets {
            SetsFrom::Joined(joined) => joined.sets.hashes(at).collect(),
            SetsFrom::Texts(sources) => sources.short_text_set(entries[at].0)?,
        };
        Ok((!set.is_empty()).then(|| band_keys(&set)))
    };
    let sample: Vec<_> = (0..entries.len())
        .into_par_iter()
        .step_by(SAMPLE_EVERY)
        .map(keys_of)
        .collect();
    let sampled: Vec<Option<BandKeys>> = sample
        .iter()
        .map(|keys| keys.as_ref().ok().copied().flatten())
        .collect();
    // The fate of a pair of texts, by index (in the sample, every
    // SAMPLE_EVERY-th entry).
    let fate = |step: usize| {
        move |a: usize, b: usize| {
            let (a, b) = (entries[a * step].0, entries[b * step].0);
            if !asked(a, b) {
                Fate::Unasked
            } else if may_reach(a, b) {
                Fate::Held
            } else {
                Fate::TurnedAway(weight(a, b))
            }
        }
    };
    // The sample's pairs, scaled: a pair is in it with chance
    // 1/SAMPLE_EVERY².
    let square = (SAMPLE_EVERY * SAMPLE_EVERY) as u64;
    let allowed = max_candidates.saturating_mul(PREDICTED_MARGIN);
    if pairs_sharing_a_band(&sampled, allowed / square, &fate(SAMPLE_EVERY)).is_err() {
        return Err(Declined::Candidates(max_candidates));
    }
    drop(sampled);
    // The texts a declined join could not read, reported as the bands
    // would report them reading every text.
    if let SetsFrom::Joined(joined) = &sets {
        for error in &joined.unread {
            diag.verify_error(error);
        }
    }
    let mut keys: Vec<Option<BandKeys>> = Vec::with_capacity(entries.len());
    each_but_sampled_read(entries.len(), sample, keys_of, |text| {
        keys.push(text.unwrap_or_else(|error| {
            diag.verify_error(&error);
            None
        }));
    });
    drop(sets);
    let (found, away) = pairs_sharing_a_band(&keys, max_candidates, &fate(1))?;
    drop(keys);
    let mut pairs: Vec<search::Pair> = found
        .into_par_iter()
        .map(|pair| {
            let (a, b) = (
                entries[(pair >> 32) as usize],
                entries[pair as u32 as usize],
            );
            search::Pair {
                distance: (a.1 ^ b.1).count_ones(),
                a: a.0,
                b: b.0,
            }
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

/// Pairs of texts in runs of equal keys compared, at most, for each
/// candidate pair the bands may hold. A pair is made by every band it
/// shares, so this many let `max_candidates` pairs be made in every band;
/// past it, the runs are mostly pairs their sketches turn away (on the
/// first 60 MB of the real lines: 25.2 million made, 2.9 million held).
pub(super) const PAIRS_COMPARED_PER_CANDIDATE: u64 = BANDS as u64;

/// Every pair of indexes `(i << 32 | j)`, `i < j`, whose keys are equal in
/// some band (texts without keys share none) whose `fate` is to be held:
/// sorted and distinct, with those turned away counted. A pair is taken in the first band it shares, so no list
/// of the pairs seen is held, and the bands are paired in parallel.
/// Declined once more than `max_candidates` pairs are held, or the runs
/// make more than [`PAIRS_COMPARED_PER_CANDIDATE`] times as many.
fn pairs_sharing_a_band(
    keys: &[Option<BandKeys>],
    max_candidates: u64,
    fate: &(impl Fn(usize, usize) -> Fate + Sync),
) -> Result<(Vec<u64>, TurnedAway), Declined> {
    let declined = Declined::Candidates(max_candidates);
    let max_compared = max_candidates.saturating_mul(PAIRS_COMPARED_PER_CANDIDATE);
    let held = AtomicU64::new(0);
    let compared = AtomicU64::new(0);
    let bands: Vec<(Vec<u64>, TurnedAway)> = (0..BANDS)
        .into_par_iter()
        .map(|band| {
            let mut by_key: Vec<u64> = keys
                .iter()
                .enumerate()
                .filter_map(|(index, keys)| {
                    keys.map(|keys| u64::from(keys[band]) << 32 | index as u64)
                })
                .collect();
            by_key.sort_unstable();
            let mut pairs = Vec::new();
            let mut away = TurnedAway::default();
            let mut members: Vec<(usize, &BandKeys)> = Vec::new();
            for run in by_key.chunk_by(|x, y| x >> 32 == y >> 32) {
                let len = run.len() as u64;
                if len < 2 {
                    continue;
                }
                let made = len * (len - 1) / 2;
                if compared.fetch_add(made, Ordering::Relaxed) + made > max_compared {
                    return Err(declined);
                }
                // Indexes ascend within a run: i < j.
                members.clear();
                members.extend(run.iter().filter_map(|&entry| {
                    let index = (entry & u64::from(u32::MAX)) as usize;
                    keys[index].as_ref().map(|keys| (index, keys))
                }));
                let before = pairs.len();
                for (from, &(i, keys_i)) in members.iter().enumerate() {
                    for &(j, keys_j) in &members[from + 1..] {
                        let shared_before = keys_i[..band]
                            .iter()
                            .zip(&keys_j[..band])
                            .any(|(x, y)| x == y);
                        if shared_before {
                            continue;
                        }
                        match fate(i, j) {
                            Fate::Unasked => {}
                            Fate::Held => pairs.push((i as u64) << 32 | j as u64),
                            Fate::TurnedAway(weight) => {
                                away = away.add(TurnedAway { pairs: 1, weight });
                            }
                        }
                    }
                }
                let fresh = (pairs.len() - before) as u64;
                if held.fetch_add(fresh, Ordering::Relaxed) + fresh > max_candidates {
                    return Err(declined);
                }
            }
            Ok((pairs, away))
        })
        .collect::<Result<_, Declined>>()?;
    let mut away = TurnedAway::default();
    let mut pairs = Vec::with_capacity(held.into_inner() as usize);
    for (band_pairs, band_away) in bands {
        pairs.extend(band_pairs);
        away = away.add(band_away);
    }
    pairs.par_sort_unstable();
    Ok((pairs, away))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// Pairs asked for unless `i + j` is a multiple of `unasked`, turned
    /// away when a multiple of `away`, each standing for `i + 1` pairs.
    fn rule(unasked: usize, away: usize) -> impl Fn(usize, usize) -> Fate + Sync {
        move |i, j| {
            if (i + j).is_multiple_of(unasked) {
                Fate::Unasked
            } else if (i + j).is_multiple_of(away) {
                Fate::TurnedAway(i as u64 + 1)
            } else {
                Fate::Held
            }
        }
    }

    /// Every pair asked for and held.
    fn all(_: usize, _: usize) -> Fate {
        Fate::Held
    }

    proptest! {
        /// Exactly the pairs that share a band key and are asked for, each
        /// once, held or turned away as the rule says, whatever the runs;
        /// none with a text without keys.
        #[test]
        fn the_pairs_are_those_sharing_a_band(
            keys in proptest::collection::vec(
                proptest::option::weighted(0.9, proptest::collection::vec(0u32..4, BANDS)),
                0..40),
            unasked in 2usize..6,
            away in 2usize..6,
        ) {
            let keys: Vec<Option<BandKeys>> = keys
                .into_iter()
                .map(|keys| keys.map(|keys| std::array::from_fn(|band| keys[band])))
                .collect();
            let rule = rule(unasked, away);
            let (found, turned) = pairs_sharing_a_band(&keys, u64::MAX, &rule).unwrap();
            let mut expected = Vec::new();
            let mut expected_away = TurnedAway::default();
            for i in 0..keys.len() {
                for j in i + 1..keys.len() {
                    if let (Some(a), Some(b)) = (keys[i], keys[j])
                        && a.iter().zip(&b).any(|(x, y)| x == y)
                    {
                        match rule(i, j) {
                            Fate::Unasked => {}
                            Fate::Held => expected.push((i as u64) << 32 | j as u64),
                            Fate::TurnedAway(weight) => {
                                expected_away = expected_away.add(TurnedAway { pairs: 1, weight });
                            }
                        }
                    }
                }
            }
            prop_assert_eq!(found, expected);
            prop_assert_eq!(turned, expected_away);
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
        // the same 45, held once.
        let keys = vec![Some([7u32; BANDS]); 10];
        let held = |max| pairs_sharing_a_band(&keys, max, &all).map(|(pairs, _)| pairs.len());
        assert_eq!(held(45), Ok(45));
        assert_eq!(held(44), Err(Declined::Candidates(44)));
        // Pairs turned away by their sketches are not held, but each run
        // is compared: 16 bands of 45 pairs, at most 16 compared for each
        // one that may be held.
        let none = rule(usize::MAX, 1);
        let turned = |max| {
            pairs_sharing_a_band(&keys, max, &none).map(|(pairs, away)| (pairs.len(), away.pairs))
        };
        assert_eq!(turned(45), Ok((0, 45)));
        assert_eq!(turned(44), Err(Declined::Candidates(44)));
        // Distinct pairs of several bands: 4 texts, each band pairing two
        // others (0-1, 2-3, 0-2, 1-3, ...).
        let keys: Vec<Option<BandKeys>> = (0..4u32)
            .map(|text| {
                Some(std::array::from_fn(|band| {
                    if band % 2 == 0 { text / 2 } else { text % 2 }
                }))
            })
            .collect();
        let held = |max| pairs_sharing_a_band(&keys, max, &all).map(|(pairs, _)| pairs.len());
        assert_eq!(held(4), Ok(4));
        assert_eq!(held(3), Err(Declined::Candidates(3)));
    }
}
