//! The search stage: fingerprints in, near-duplicate pairs and groups out.
//!
//! [`search`] takes `(DocId, u64)` fingerprints and a maximum Hamming
//! distance k and returns every pair within k and the groups (connected
//! components) they form. It knows nothing of files. Identical fingerprints
//! are collapsed first (`collapse`), one of three methods pairs the
//! distinct ones (`blocks` exact, `rotate` approximate, `brute` the
//! reference), each pair found goes through a `sink` that counts it,
//! expands it to document pairs and joins it in the union-find, and
//! `groups` reads the components. docs/SEARCH.md has the design and figures.

mod against;
mod blocks;
mod brute;
mod collapse;
mod groups;
mod plan;
mod rotate;
mod sink;
mod sort;
mod tables;
mod tasks;
pub mod within;

#[cfg(test)]
mod tests;

pub use groups::groups_of_pairs;
use sink::Shared;
pub use tables::{TablePlan, table_plan};

/// The largest distance k accepted. Every k up to it is searched exactly
/// by `Method::Exact`. At k = 32 two unrelated fingerprints are already
/// more likely within k than not, so a larger k would find nothing near.
pub const MAX_DISTANCE: u32 = 32;

/// The window `Method::Rotate` uses unless told otherwise (chosen by
/// measurement: docs/SEARCH.md).
pub const DEFAULT_WINDOW: usize = 8;

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

impl std::fmt::Display for Method {
    /// The method's name as users write it: `exact`, `rotate`, `brute`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Method::Exact => "exact",
            Method::Rotate => "rotate",
            Method::Brute => "brute",
        })
    }
}

impl std::str::FromStr for Method {
    type Err = crate::Error;

    /// Parses `exact`, `rotate` or `brute`.
    fn from_str(name: &str) -> crate::Result<Method> {
        [Method::Exact, Method::Rotate, Method::Brute]
            .into_iter()
            .find(|m| m.to_string() == name)
            .ok_or_else(|| {
                crate::Error::Usage(format!(
                    "unknown search method '{name}': use exact, rotate or brute"
                ))
            })
    }
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
    /// Blocks the exact search cut the 64 bits into (0 when it used none:
    /// brute force, rotation, or nothing to search).
    pub blocks: u32,
    /// Sorted tables (block tables, or the 64 rotations) the search built.
    pub tables: u64,
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
///
/// Pairs are sorted by (distance, a, b) and truncated to
/// `options.max_pairs`; `total_pairs` counts them all. A fingerprint held by
/// c documents yields c(c-1)/2 pairs at distance 0 and one group, without
/// being searched c times. The result is the same for any thread count.
///
/// # Errors
/// `Error::Usage` if `max_distance` exceeds [`MAX_DISTANCE`], if `window`
/// is 0 for `Method::Rotate`, if there are more than `u32::MAX` entries, or
/// if an id appears with two different fingerprints (the same
/// `(id, fingerprint)` twice counts once).
pub fn search(
    fingerprints: &[(DocId, u64)],
    options: &SearchOptions,
) -> crate::Result<SearchOutcome> {
    check(fingerprints, options)?;
    let shared = Shared::new(collapse::Collapsed::new(fingerprints)?, options.max_pairs);
    Ok(run(shared, options, None))
}

/// [`search`] for the pairs with a new document (`is_new`), the others
/// being a stored corpus (`scan --against`).
///
/// With `Method::Exact` and `Method::Brute` exactly the pairs of
/// [`search`] in which either fingerprint is held by a new document are
/// found (two stored documents that share a fingerprint with a new one
/// are among them),
/// at a cost that grows with the new fingerprints times all of them
/// rather than with all squared; groups are the components of those
/// pairs. `Method::Rotate` searches everything (its pairs of stored
/// documents are the caller's to drop).
///
/// # Errors
/// As [`search`].
pub fn search_against(
    fingerprints: &[(DocId, u64)],
    options: &SearchOptions,
    is_new: impl Fn(DocId) -> bool,
) -> crate::Result<SearchOutcome> {
    check(fingerprints, options)?;
    let shared = Shared::new(collapse::Collapsed::new(fingerprints)?, options.max_pairs);
    let n = shared.collapsed.len() as u32;
    let new: Vec<bool> = (0..n)
        .map(|i| shared.collapsed.ids(i).iter().any(|&id| is_new(id)))
        .collect();
    let all_new = new.iter().all(|&fresh| fresh);
    let mut outcome = run(shared, options, (!all_new).then_some(new));
    // A fingerprint repeated among stored documents makes a group of its own.
    outcome
        .groups
        .retain(|group| group.iter().any(|&id| is_new(id)));
    Ok(outcome)
}

/// Refuses options and inputs no search can take.
fn check(fingerprints: &[(DocId, u64)], options: &SearchOptions) -> crate::Result<()> {
    let k = options.max_distance;
    if k > MAX_DISTANCE {
        return Err(crate::Error::Usage(format!(
            "distance {k} is out of range: k must be between 0 and {MAX_DISTANCE}"
        )));
    }
    if options.method == Method::Rotate && options.window == 0 {
        return Err(crate::Error::Usage(
            "window must be at least 1 for the rotate method".to_string(),
        ));
    }
    if u32::try_from(fingerprints.len()).is_err() {
        return Err(crate::Error::Usage(format!(
            "{} fingerprints are more than the {} a search can take",
            fingerprints.len(),
            u32::MAX
        )));
    }
    Ok(())
}

/// Runs the search over collapsed fingerprints: all pairs, or with `new`
/// only those with a new fingerprint (by distinct fingerprint).
fn run(shared: Shared, options: &SearchOptions, new: Option<Vec<bool>>) -> SearchOutcome {
    let k = options.max_distance;
    let n = shared.collapsed.len();
    let mut repeats = shared.sink();
    repeats.emit_repeats(new.as_deref());
    let mut stats = SearchStats {
        unique_fingerprints: n as u64,
        ..SearchStats::default()
    };
    let found = if k == 0 || n < 2 {
        shared.nothing()
    } else {
        match (options.method, new.as_deref()) {
            (Method::Brute, None) => brute::search(&shared, k),
            (Method::Brute, Some(new)) => against::brute(&shared, k, new),
            (Method::Rotate, _) => {
                stats.tables = 64;
                rotate::search(&shared, k, options.window)
            }
            (Method::Exact, None) => match plan::choose(n, k) {
                plan::Plan::Nothing => shared.nothing(),
                plan::Plan::Brute => brute::search(&shared, k),
                plan::Plan::Blocks(m) => {
                    let (found, tables) = blocks::search(&shared, k, m);
                    stats.blocks = m;
                    stats.tables = tables;
                    found
                }
            },
            (Method::Exact, Some(new)) => {
                let fresh = new.iter().filter(|&&fresh| fresh).count();
                match plan::choose_against(n, fresh, k) {
                    plan::Plan::Nothing => shared.nothing(),
                    plan::Plan::Brute => against::brute(&shared, k, new),
                    plan::Plan::Blocks(m) => {
                        let (found, tables) = against::probe(&shared, k, m, new);
                        stats.blocks = m;
                        stats.tables = tables;
                        found
                    }
                }
            }
        }
    };
    let found = repeats.finish().merge(found);
    stats.largest_bucket = found.largest_bucket;
    stats.comparisons = found.comparisons;
    let union_find = shared
        .union_find
        .into_inner()
        .unwrap_or_else(|e| e.into_inner());
    SearchOutcome {
        pairs: found.pairs.into_sorted(),
        total_pairs: found.total_pairs,
        groups: groups::groups(&shared.collapsed, union_find),
        stats,
    }
}

/// Seconds of one comparison, the cost model's unit (one core, POPCNT).
const SECONDS_PER_COMPARISON: f64 = 0.35e-9;

/// Predicted wall seconds of [`search`] with `Method::Exact` over `n`
/// distinct fingerprints at distance `max_distance` on `threads` threads,
/// from the cost model of docs/SEARCH.md (a unit of it, one comparison, is
/// about 0.35 ns on one core with POPCNT).
pub fn predicted_seconds(n: usize, max_distance: u32, threads: usize) -> f64 {
    predicted_seconds_where(n, max_distance, threads, &plan::uniform_agreement)
}

/// [`predicted_seconds`] for fingerprints of which a share `agree(b)` of
/// pairs agree on a key of b bits. Fingerprints that crowd (one log
/// format, text from few words) agree far more often than uniformly random
/// ones (2^-b), and their buckets cost that much more; the plan is the one
/// the search picks, for uniformly random fingerprints.
pub fn predicted_seconds_where(
    n: usize,
    max_distance: u32,
    threads: usize,
    agree: &dyn Fn(u32) -> f64,
) -> f64 {
    let comparisons = match plan::choose(n, max_distance) {
        plan::Plan::Nothing => 0.0,
        plan::Plan::Brute => n as f64 * (n as f64 - 1.0) / 2.0,
        plan::Plan::Blocks(m) => {
            plan::blocks_cost_where(n, max_distance, m, agree).unwrap_or(f64::MAX)
        }
    };
    comparisons * SECONDS_PER_COMPARISON / threads.max(1) as f64
}

/// For each b, the share of fingerprint pairs that agree on a given key of
/// b bits, from the share of pairs at each distance: what
/// [`predicted_seconds_where`] takes.
pub fn agreement_by_key_bits(at_distance: &[f64; 65]) -> [f64; 65] {
    plan::agreement_by_key_bits(at_distance)
}

/// Pairs with at least one of `fresh` new fingerprints among `n`.
pub fn against_pairs(n: usize, fresh: usize) -> f64 {
    plan::against_pairs(n, fresh)
}

/// [`predicted_seconds`] of [`search_against`] with `fresh` of the `n`
/// distinct fingerprints new.
pub fn predicted_seconds_against(n: usize, fresh: usize, max_distance: u32, threads: usize) -> f64 {
    predicted_seconds_against_where(n, fresh, max_distance, threads, &plan::uniform_agreement)
}

/// [`predicted_seconds_against`] for fingerprints of which a share
/// `agree(b)` of pairs agree on a key of b bits
/// ([`predicted_seconds_where`]).
pub fn predicted_seconds_against_where(
    n: usize,
    fresh: usize,
    max_distance: u32,
    threads: usize,
    agree: &dyn Fn(u32) -> f64,
) -> f64 {
    let comparisons = match plan::choose_against(n, fresh, max_distance) {
        plan::Plan::Nothing => 0.0,
        plan::Plan::Brute => plan::against_pairs(n, fresh),
        plan::Plan::Blocks(m) => {
            plan::probe_cost_where(n, fresh, max_distance, m, agree).unwrap_or(f64::MAX)
        }
    };
    comparisons * SECONDS_PER_COMPARISON / threads.max(1) as f64
}
