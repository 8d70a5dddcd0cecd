//! Pairs by an exact join instead of SimHash candidates: every pair whose
//! feature sets reach the threshold is found, none missed, at no radius
//! (src/verify/join/).
//!
//! Short texts are joined by default. One-line texts share words
//! ("library", "documentation"), so their fingerprints cluster and a
//! SimHash search wide enough for them costs near brute force, while their
//! rarest character pairs tell them apart at once. The join holds every
//! short text's character pairs, 4 bytes each: past [`JOIN_BUDGET`] of
//! them the short texts are searched by SimHash at a radius the cost model
//! picks, as other documents are.
//!
//! Other documents are joined by their features when asked (`--method
//! join`): each is read again, and ranking holds every feature (8 bytes)
//! and each distinct one (about 30 more): 27 bytes a feature on the mixed
//! real corpus, 43 on generated text where most are unique; up to
//! [`WORDS_JOIN_BUDGET`] features.

use std::time::Instant;

use rayon::prelude::*;

use crate::diag::Diagnostics;
use crate::progress::Progress;
use crate::report::{JOINED, RadiusParams};
use crate::search::{self, DocId};
use crate::verify::join::{Join, Joined, RankedSets, Ranker, SelfJoin};
use crate::verify::{Verdict, decide};

use super::SpaceFound;
use super::documents::ClassId;
use super::listing::ClassPair;

/// Most character pairs (summed over the short texts) the join holds:
/// 2^25, about 700,000 texts of 50 characters (8 bytes each while they are
/// ranked, then 4).
pub const JOIN_BUDGET: u64 = 32 << 20;

/// Most features (summed over the documents) `--method join` holds: 2^25
/// of them, some 300 MB of prose, 1.4 GB at most while they are ranked.
/// Past it the documents are searched by SimHash.
pub const WORDS_JOIN_BUDGET: u64 = 1 << 25;

/// Sets read at once.
const CHUNK: usize = 4096;

/// The classes to join: short texts by their character pairs, or
/// documents by their features.
pub(super) struct Joinable<'a> {
    /// `(class, fingerprint)` of every class joined, ascending.
    pub entries: &'a [(DocId, u64)],
    /// Whether they are short texts, joined by character pairs.
    pub short_texts: bool,
    /// Reads a class's sorted, distinct features again.
    pub read: &'a (dyn Fn(ClassId) -> crate::Result<Vec<u64>> + Sync),
    /// Features the join may hold: past them it is declined, before
    /// reading when `features` says so, else once the sets read pass it.
    pub max_features: u64,
    /// Their features, summed, if known before reading (saved
    /// fingerprints may not carry their counts).
    pub features: Option<u64>,
    /// The document pairs a class pair stands for.
    pub weight: &'a (dyn Fn(ClassId, ClassId) -> u64 + Sync),
    /// Whether a pair with this class is asked (against a stored corpus,
    /// pairs of two stored classes are not).
    pub is_new: &'a (dyn Fn(ClassId) -> bool + Sync),
}

/// Core-seconds (reference machine) per candidate of the join, probing,
/// bitmap filter and merge included: on the short-records corpus
/// (docs/QUALITY.md) 25 million candidates at 0.8 took about 0.6
/// core-seconds and 279 million at 0.5 took 7.5.
const SECONDS_PER_CANDIDATE: f64 = 28e-9;

/// The join is always afforded this many core-seconds (about 5 s on two
/// cores): it finds every pair, where the radius the budget affords finds
/// few of them on clustered short texts, and one that finds 99% costs
/// several times the budget (docs/QUALITY.md: on the 48,659 Debian package
/// descriptions, at 0.5, the join finds all 302,499 pairs in 4.2 s, the
/// budget's radius 12% of them). Past it (10^5 generated addresses from
/// short word lists: 12 core-seconds) the texts are searched by
/// fingerprint.
pub const MIN_JOIN_SECONDS: f64 = 10.0;

/// One set in this many is probed to estimate the join's cost.
const SAMPLE_EVERY: usize = 256;

/// Why the join was not used, and what it read.
pub(super) struct Declined {
    /// Why.
    pub why: Why,
    /// The sets it read, handed on so the search that replaces it need not
    /// read every text again.
    pub read: ReadSets,
}

/// Why the join was not used.
pub(super) enum Why {
    /// Its predicted cost passed the budget (core-seconds).
    Cost { budget: f64 },
    /// It found more pairs than may be held.
    Pairs,
    /// The sets read held more features than it may.
    Features,
}

/// The short texts' character pairs as the join read them.
pub(super) struct ReadSets {
    /// Each entry's set, in entry order (empty for one not read).
    pub sets: RankedSets,
    /// Why the unread ones were not, in entry order: not yet reported.
    pub unread: Vec<crate::Error>,
}

/// Joins `texts` at `threshold` when the join's predicted cost fits
/// `budget_seconds` (at least [`MIN_JOIN_SECONDS`]) and it finds at most
/// `max_pairs` pairs; otherwise says why not (the caller searches by
/// SimHash instead).
pub(super) fn join(
    texts: &Joinable<'_>,
    threshold: f64,
    budget_seconds: f64,
    max_pairs: u64,
    progress: bool,
    diag: &mut Diagnostics,
) -> Result<SpaceFound, Declined> {
    let what = if texts.short_texts {
        "short texts by character pairs"
    } else {
        "documents by their features"
    };
    let joining = Progress::spinner(progress, &format!("joining {} {what}", texts.entries.len()));
    let mut ranker = Ranker::new();
    // Reported only if the join goes ahead: otherwise the search that
    // replaces it reads (and reports) what it needs.
    let mut unread = Vec::new();
    let mut read = Vec::with_capacity(texts.entries.len());
    let too_many = |unread| Declined {
        why: Why::Features,
        read: ReadSets {
            sets: RankedSets::default(),
            unread,
        },
    };
    if texts
        .features
        .is_some_and(|features| features > texts.max_features)
    {
        joining.finish();
        return Err(too_many(unread));
    }
    let mut held = 0u64;
    for chunk in texts.entries.chunks(CHUNK) {
        let sets: Vec<_> = chunk
            .par_iter()
            .map(|&(class, _)| (texts.read)(class))
            .collect();
        held += sets
            .iter()
            .flatten()
            .map(|set| set.len() as u64)
            .sum::<u64>();
        if held > texts.max_features {
            joining.finish();
            return Err(too_many(unread));
        }
        for set in sets {
            read.push(set.is_ok());
            match set {
                Ok(set) => ranker.push(&set),
                Err(error) => {
                    unread.push(error);
                    ranker.push(&[]);
                }
            }
        }
    }
    let sets = ranker.finish();
    let budget = budget_seconds.max(MIN_JOIN_SECONDS);
    let affordable = (budget / SECONDS_PER_CANDIDATE) as u64;
    let (predicted, found) = if threshold > 0.0 {
        let join = SelfJoin::new(&sets, threshold);
        let estimate = join.estimate_candidates_within(SAMPLE_EVERY, affordable);
        let predicted = estimate.map_or(f64::INFINITY, |candidates| {
            candidates as f64 * SECONDS_PER_CANDIDATE
        });
        let found = match estimate {
            None => Err(Why::Cost { budget }),
            Some(_) => join.run(max_pairs).ok_or(Why::Pairs),
        };
        (predicted, found)
    } else {
        let asked = |a: usize, b: usize| {
            let (a, b) = (texts.entries[a].0, texts.entries[b].0);
            (texts.weight)(a, b) > 0 && ((texts.is_new)(a) || (texts.is_new)(b))
        };
        let found = every_pair(&sets, &read, &asked, affordable, max_pairs);
        let predicted = match &found {
            Ok(found) => found.candidates as f64 * SECONDS_PER_CANDIDATE,
            Err(_) => f64::INFINITY,
        };
        (predicted, found)
    };
    joining.finish();
    let found = match found {
        Ok(found) => found,
        Err(why) => {
            return Err(Declined {
                why,
                read: ReadSets { sets, unread },
            });
        }
    };
    for error in &unread {
        diag.verify_error(error);
    }
    let near: Vec<ClassPair> = found
        .pairs
        .iter()
        .map(|pair| {
            let (a, b) = (
                texts.entries[pair.a as usize],
                texts.entries[pair.b as usize],
            );
            ClassPair {
                a: a.0,
                b: b.0,
                distance: (a.1 ^ b.1).count_ones(),
                jaccard: Some(pair.jaccard),
                short_texts: texts.short_texts,
            }
        })
        .filter(|pair| {
            (texts.weight)(pair.a, pair.b) > 0 && ((texts.is_new)(pair.a) || (texts.is_new)(pair.b))
        })
        .collect();
    // Candidates: the pairs merged and found below, and the document
    // pairs of those found.
    let near_weight: u64 = near.iter().map(|pair| (texts.weight)(pair.a, pair.b)).sum();
    let below_threshold = found.candidates.saturating_sub(found.pairs.len() as u64);
    Ok(SpaceFound {
        candidates: below_threshold + near_weight,
        below_threshold,
        unverified: 0,
        reread: (texts.entries.len() - unread.len()) as u64,
        radius: RadiusParams {
            chosen_by: Some(JOINED.to_string()),
            expected_recall: Some(1.0),
            budget_seconds: Some(budget),
            predicted_seconds: Some(predicted),
            short_texts: None,
        },
        max_distance: 0,
        found_by: super::FoundBy::Join,
        search: search::SearchStats {
            unique_fingerprints: texts.entries.len() as u64,
            ..search::SearchStats::default()
        },
        searched: Instant::now(),
        near,
    })
}

/// The join at threshold 0, where every pair qualifies (a Jaccard is never
/// below 0): prefix filtering finds only pairs that share a character
/// pair, so every pair of readable sets that `asked` wants is merged for
/// its Jaccard instead. Declined when there are more than `affordable`
/// such pairs to merge, or more than `max_pairs`.
fn every_pair(
    sets: &RankedSets,
    read: &[bool],
    asked: &(dyn Fn(usize, usize) -> bool + Sync),
    affordable: u64,
    max_pairs: u64,
) -> Result<Join, Why> {
    let readable: Vec<usize> = (0..sets.len()).filter(|&set| read[set]).collect();
    let row = |i: usize| {
        let a = readable[i];
        readable[i + 1..].iter().filter(move |&&b| asked(a, b))
    };
    let count: u64 = (0..readable.len())
        .into_par_iter()
        .map(|i| row(i).count() as u64)
        .sum();
    if count > affordable {
        return Err(Why::Cost {
            budget: affordable as f64 * SECONDS_PER_CANDIDATE,
        });
    }
    if count > max_pairs {
        return Err(Why::Pairs);
    }
    let pairs: Vec<Joined> = (0..readable.len())
        .into_par_iter()
        .flat_map_iter(|i| {
            let a = readable[i];
            row(i).filter_map(move |&b| match decide(sets.get(a), sets.get(b), 0.0) {
                Verdict::Near(jaccard) => Some(Joined {
                    a: a as u32,
                    b: b as u32,
                    jaccard,
                }),
                _ => None,
            })
        })
        .collect();
    Ok(Join {
        candidates: count,
        pairs,
    })
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn ranked(sets: &[Vec<u64>]) -> RankedSets {
        RankedSets::of(sets)
    }

    proptest! {
        /// At threshold 0 every asked pair of readable sets is listed with
        /// its exact Jaccard, those sharing nothing included.
        #[test]
        fn every_pair_lists_each_asked_pair_with_its_jaccard(
            sets in proptest::collection::vec(
                proptest::collection::btree_set(0u64..20, 1..8), 1..12),
            unread in proptest::collection::vec(any::<bool>(), 12),
            skip_every in 2usize..5,
        ) {
            let sets: Vec<Vec<u64>> = sets.into_iter().map(|set| set.into_iter().collect()).collect();
            let ranked = ranked(&sets);
            let read: Vec<bool> = (0..sets.len()).map(|set| !unread[set]).collect();
            let asked = |a: usize, b: usize| !(a + b).is_multiple_of(skip_every);
            let found = every_pair(&ranked, &read, &asked, u64::MAX, u64::MAX).ok().unwrap();
            let mut expected = Vec::new();
            for a in 0..sets.len() {
                for b in a + 1..sets.len() {
                    if read[a] && read[b] && asked(a, b) {
                        let common = sets[a].iter().filter(|x| sets[b].contains(x)).count();
                        let jaccard = common as f64 / (sets[a].len() + sets[b].len() - common) as f64;
                        expected.push((a as u32, b as u32, jaccard));
                    }
                }
            }
            let got: Vec<(u32, u32, f64)> =
                found.pairs.iter().map(|pair| (pair.a, pair.b, pair.jaccard)).collect();
            prop_assert_eq!(found.candidates, expected.len() as u64);
            prop_assert_eq!(got, expected);
        }
    }

    #[test]
    fn the_join_stops_reading_past_the_features_it_may_hold() {
        // Three classes of ten features each, the first two alike.
        let entries: Vec<(DocId, u64)> = (0..3).map(|class| (class, 0)).collect();
        let read = |class: ClassId| -> crate::Result<Vec<u64>> {
            let first = if class == 2 { 100 } else { 0 };
            Ok((first..first + 10).collect())
        };
        let joinable = |max_features| Joinable {
            entries: &entries,
            short_texts: false,
            read: &read,
            max_features,
            features: None,
            weight: &|_, _| 1,
            is_new: &|_| true,
        };
        let mut diag = Diagnostics::new(false);
        let found = join(&joinable(30), 0.8, f64::INFINITY, 100, false, &mut diag)
            .ok()
            .unwrap();
        let pairs: Vec<(DocId, DocId)> = found.near.iter().map(|pair| (pair.a, pair.b)).collect();
        assert_eq!(pairs, [(0, 1)]);
        let declined = join(&joinable(29), 0.8, f64::INFINITY, 100, false, &mut diag);
        assert!(matches!(
            declined,
            Err(Declined {
                why: Why::Features,
                ..
            })
        ));
        // A count known before reading is checked before reading.
        let unreadable = |_: ClassId| -> crate::Result<Vec<u64>> { panic!("read") };
        let counted = Joinable {
            read: &unreadable,
            features: Some(30),
            ..joinable(29)
        };
        let declined = join(&counted, 0.8, f64::INFINITY, 100, false, &mut diag);
        assert!(matches!(
            declined,
            Err(Declined {
                why: Why::Features,
                ..
            })
        ));
    }

    #[test]
    fn every_pair_declines_past_its_bounds() {
        let sets = ranked(&[vec![1, 2], vec![3, 4], vec![5], vec![1, 5]]);
        let read = [true; 4];
        let all = |_: usize, _: usize| true;
        let found = every_pair(&sets, &read, &all, 6, 6).ok().unwrap();
        assert_eq!(found.pairs.len(), 6);
        assert!(matches!(
            every_pair(&sets, &read, &all, 6, 5),
            Err(Why::Pairs)
        ));
        assert!(matches!(
            every_pair(&sets, &read, &all, 5, 6),
            Err(Why::Cost { .. })
        ));
    }
}
