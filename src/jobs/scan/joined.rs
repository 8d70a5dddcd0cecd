//! Short texts by an exact join instead of SimHash candidates: every pair
//! of two short texts whose character pairs reach the threshold is found,
//! none missed, at no radius (src/verify/join/). One-line texts share
//! words ("library", "documentation"), so their fingerprints cluster and a
//! SimHash search wide enough for them costs near brute force, while their
//! rarest character pairs tell them apart at once.
//!
//! The join holds every short text's character pairs, 4 bytes each: past
//! [`JOIN_BUDGET`] of them the short texts are searched by SimHash at a
//! radius the cost model picks, as other documents are.

use std::time::Instant;

use rayon::prelude::*;

use crate::diag::Diagnostics;
use crate::progress::Progress;
use crate::report::RadiusParams;
use crate::search::{self, DocId};
use crate::verify::join::{Ranker, SelfJoin};

use super::SpaceFound;
use super::documents::ClassId;
use super::listing::ClassPair;
use super::sources::Sources;

/// Most character pairs (summed over the short texts) the join holds:
/// 128 MiB of them, about 700,000 texts of 50 characters.
pub const JOIN_BUDGET: u64 = 32 << 20;

/// Sets read at once.
const CHUNK: usize = 4096;

/// The short texts to join: their classes (ascending) with their
/// character-pair fingerprints.
pub(super) struct ShortTexts<'a> {
    /// `(class, fingerprint)` of every class with a short text.
    pub entries: &'a [(DocId, u64)],
    /// The document pairs a class pair stands for.
    pub weight: &'a dyn Fn(ClassId, ClassId) -> u64,
    /// Whether a pair with this class is asked (against a stored corpus,
    /// pairs of two stored classes are not).
    pub is_new: &'a dyn Fn(ClassId) -> bool,
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

/// Why the join was not used.
pub(super) enum Declined {
    /// Its predicted cost passed the budget (core-seconds).
    Cost { budget: f64 },
    /// It found more pairs than may be held.
    Pairs,
}

/// Joins `texts` at `threshold` when the join's predicted cost fits
/// `budget_seconds` (at least [`MIN_JOIN_SECONDS`]) and it finds at most
/// `max_pairs` pairs; otherwise says why not (the caller searches by
/// SimHash instead).
pub(super) fn join_short_texts(
    texts: &ShortTexts<'_>,
    sources: &Sources<'_>,
    threshold: f64,
    budget_seconds: f64,
    max_pairs: u64,
    progress: bool,
    diag: &mut Diagnostics,
) -> Result<SpaceFound, Declined> {
    let joining = Progress::spinner(
        progress,
        &format!(
            "joining {} short texts by character pairs",
            texts.entries.len()
        ),
    );
    let mut ranker = Ranker::new();
    // Reported only if the join goes ahead: otherwise the search that
    // replaces it reads (and reports) what it needs.
    let mut unread = Vec::new();
    for chunk in texts.entries.chunks(CHUNK) {
        let sets: Vec<_> = chunk
            .par_iter()
            .map(|&(class, _)| sources.short_text_set(class))
            .collect();
        for set in sets {
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
    let join = SelfJoin::new(&sets, threshold);
    let budget = budget_seconds.max(MIN_JOIN_SECONDS);
    let affordable = (budget / SECONDS_PER_CANDIDATE) as u64;
    let estimate = join.estimate_candidates_within(SAMPLE_EVERY, affordable);
    let predicted = estimate.map_or(f64::INFINITY, |candidates| {
        candidates as f64 * SECONDS_PER_CANDIDATE
    });
    let found = match estimate {
        None => Err(Declined::Cost { budget }),
        Some(_) => join.run(max_pairs).ok_or(Declined::Pairs),
    };
    joining.finish();
    let found = found?;
    for error in &unread {
        diag.error(format_args!("{error} (while verifying)"));
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
                short_texts: true,
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
            chosen_by: Some("exact join".to_string()),
            expected_recall: Some(1.0),
            budget_seconds: Some(budget),
            predicted_seconds: Some(predicted),
            short_texts: None,
        },
        max_distance: 0,
        joined: true,
        search: search::SearchStats {
            unique_fingerprints: texts.entries.len() as u64,
            ..search::SearchStats::default()
        },
        searched: Instant::now(),
        near,
    })
}
