//! Baselines: which of a run's pairs a team has already accepted.
//!
//! Each document of a listed pair gets a key ([`DocKey`]): the xxh3-64 of
//! its raw bytes and its SimHash with the run's feature options, read
//! again from its file ([`document_keys`]). A pair of this run is accepted
//! by a baseline entry when each of its documents matches one side of the
//! entry (one document each side):
//!
//! - by content: the same content hash, under any name, so a rename or a
//!   move keeps the pair accepted;
//! - or by SimHash: within [`EDIT_DISTANCE`] bits of the side's recorded
//!   SimHash, so a small edit keeps it accepted. Only when the baseline
//!   was written with the same feature options; else by content only.
//!
//! Each entry accepts at most one pair, so a new copy of an accepted
//! document makes new pairs instead of hiding behind the old one. When
//! several pairs could take an entry, the best match wins: both sides by
//! content before one, the same paths before others, the smaller SimHash
//! distance, then the report's order ([`compare`]). Entries that accept no
//! pair are stale.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use rayon::prelude::*;

use crate::diag::Diagnostics;
use crate::fingerprint::{FeatureOptions, Fingerprinter};
use crate::input::path_from_bytes;
use crate::report::Report;
use crate::report::baseline::{Baseline, BaselineEntry, BaselineSummary, DocKey, StaleEntry};

/// The most SimHash bits a document may differ by from a baseline side
/// and still match it. Replacing 1% of the words of a page of text moved
/// its SimHash 4 bits, 5% moved it 11 (fixtures/corpus); unrelated
/// documents differ by about 32.
pub const EDIT_DISTANCE: u32 = 8;

/// Reads again every document of a listed pair and returns its key, by
/// document number. A document that cannot be read has no key (its pairs
/// cannot be matched: they count as new); it is an error in `diag` when
/// the keys are `required` (baselines), else a note (SARIF fingerprints
/// are optional). Only regular files are read: a FIFO is never opened
/// twice.
pub fn document_keys(
    report: &Report,
    features: &FeatureOptions,
    required: bool,
    diag: &mut Diagnostics,
) -> BTreeMap<u32, DocKey> {
    let ids: BTreeSet<u32> = report.pairs.iter().flat_map(|p| [p.a, p.b]).collect();
    let ids: Vec<u32> = ids.into_iter().collect();
    let fingerprinter = Fingerprinter::new(features.clone());
    let read: Vec<(u32, Result<DocKey, String>)> = ids
        .par_iter()
        .map(|&id| (id, read_key(report, id, &fingerprinter)))
        .collect();
    let mut keys = BTreeMap::new();
    for (id, key) in read {
        match key {
            Ok(key) => {
                keys.insert(id, key);
            }
            Err(error) => {
                let message = format_args!(
                    "{}: {error} (while computing its baseline key)",
                    report.name(id)
                );
                if required {
                    diag.error(message);
                } else {
                    diag.note(message);
                }
            }
        }
    }
    keys
}

fn read_key(report: &Report, id: u32, fingerprinter: &Fingerprinter) -> Result<DocKey, String> {
    let name = report
        .names
        .get(id as usize)
        .map_err(|error| error.to_string())?;
    let path = path_from_bytes(&name);
    let metadata = std::fs::metadata(&path).map_err(|error| error.to_string())?;
    if !metadata.is_file() {
        return Err("not a regular file: it cannot be read again".to_string());
    }
    let file = std::fs::File::open(&path).map_err(|error| error.to_string())?;
    let fingerprint = fingerprinter
        .fingerprint_reader(file)
        .map_err(|error| error.to_string())?;
    Ok(DocKey {
        content: fingerprint.content_hash,
        simhash: fingerprint.simhash,
    })
}

/// The feature options as a baseline records them.
pub fn features_line(features: &FeatureOptions) -> String {
    format!("{} digest={}", features.describe(), features.digest())
}

/// A baseline of the report's listed pairs (those whose documents have a
/// key).
pub fn from_report(report: &Report, features: &FeatureOptions) -> Baseline {
    let entries = report
        .pairs
        .iter()
        .filter_map(|pair| entry(report, pair.a, pair.b))
        .collect();
    Baseline::new(features_line(features), entries)
}

fn entry(report: &Report, a: u32, b: u32) -> Option<BaselineEntry> {
    Some(BaselineEntry::new(
        report.name(a),
        *report.keys.get(&a)?,
        report.name(b),
        *report.keys.get(&b)?,
    ))
}

/// How a run's listed pairs compare with a baseline.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Comparison {
    /// `(pair, entry)`: each accepted pair (by its index in
    /// `report.pairs`) and the entry that accepts it, by pair.
    pub accepted: Vec<(usize, usize)>,
    /// Indices in `report.pairs` of the pairs no entry accepts, ascending.
    pub new: Vec<usize>,
    /// Indices of the entries that accept no pair, ascending.
    pub stale: Vec<usize>,
}

/// How well a pair matches an entry; greater is better.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Score {
    /// Sides matched by content (2 each) or by SimHash (1 each).
    level: u8,
    /// Sides with the same path.
    paths: u8,
    /// Minus the SimHash bits the sides differ by.
    closeness: i32,
}

/// Matches the report's listed pairs with the baseline's entries, one
/// entry per pair at most, best matches first (see the module's doc).
/// `by_simhash`: whether SimHashes are comparable (same feature options).
pub fn compare(baseline: &Baseline, report: &Report, by_simhash: bool) -> Comparison {
    let entries = &baseline.entries;
    let pairs: Vec<Option<(String, DocKey, String, DocKey)>> = report
        .pairs
        .iter()
        .map(|pair| {
            Some((
                report.name(pair.a),
                *report.keys.get(&pair.a)?,
                report.name(pair.b),
                *report.keys.get(&pair.b)?,
            ))
        })
        .collect();
    let score = |pair: usize, entry: usize| {
        let (a, key_a, b, key_b) = pairs[pair].as_ref()?;
        let e = &entries[entry];
        let straight = side(a, *key_a, &e.a, e.key_a, by_simhash)
            .zip(side(b, *key_b, &e.b, e.key_b, by_simhash));
        let crossed = side(a, *key_a, &e.b, e.key_b, by_simhash)
            .zip(side(b, *key_b, &e.a, e.key_a, by_simhash));
        let total = |(x, y): (Score, Score)| Score {
            level: x.level + y.level,
            paths: x.paths + y.paths,
            closeness: x.closeness + y.closeness,
        };
        straight.map(total).max(crossed.map(total))
    };
    let mut taken_pairs = vec![false; pairs.len()];
    let mut taken_entries = vec![false; entries.len()];
    let mut accepted = Vec::new();
    let mut assign = |mut candidates: Vec<(Score, usize, usize)>,
                      taken_pairs: &mut Vec<bool>,
                      taken_entries: &mut Vec<bool>| {
        candidates.sort_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)).then(x.2.cmp(&y.2)));
        for (_, pair, entry) in candidates {
            if !taken_pairs[pair] && !taken_entries[entry] {
                taken_pairs[pair] = true;
                taken_entries[entry] = true;
                accepted.push((pair, entry));
            }
        }
    };
    // Both sides by content first, found through an index; then whatever
    // is left, pair by entry (new pairs and stale entries: few).
    let mut by_content: HashMap<(u64, u64), Vec<usize>> = HashMap::new();
    for (index, entry) in entries.iter().enumerate() {
        by_content
            .entry(unordered(entry.key_a.content, entry.key_b.content))
            .or_default()
            .push(index);
    }
    let mut exact = Vec::new();
    for (pair, keys) in pairs.iter().enumerate() {
        let Some((_, key_a, _, key_b)) = keys else {
            continue;
        };
        for &entry in by_content
            .get(&unordered(key_a.content, key_b.content))
            .into_iter()
            .flatten()
        {
            if let Some(found) = score(pair, entry) {
                exact.push((found, pair, entry));
            }
        }
    }
    assign(exact, &mut taken_pairs, &mut taken_entries);
    let mut near = Vec::new();
    for pair in (0..pairs.len()).filter(|&pair| !taken_pairs[pair]) {
        for entry in (0..entries.len()).filter(|&entry| !taken_entries[entry]) {
            if let Some(found) = score(pair, entry) {
                near.push((found, pair, entry));
            }
        }
    }
    assign(near, &mut taken_pairs, &mut taken_entries);
    accepted.sort_unstable();
    Comparison {
        accepted,
        new: (0..pairs.len()).filter(|&p| !taken_pairs[p]).collect(),
        stale: (0..entries.len()).filter(|&e| !taken_entries[e]).collect(),
    }
}

fn unordered(x: u64, y: u64) -> (u64, u64) {
    (x.min(y), x.max(y))
}

/// How one document matches one side of an entry, if at all.
fn side(
    path: &str,
    key: DocKey,
    side_path: &str,
    side_key: DocKey,
    by_simhash: bool,
) -> Option<Score> {
    let paths = u8::from(path == side_path);
    let distance = (key.simhash ^ side_key.simhash).count_ones();
    let closeness = -(distance as i32);
    if key.content == side_key.content {
        return Some(Score {
            level: 2,
            paths,
            closeness,
        });
    }
    (by_simhash && distance <= EDIT_DISTANCE).then_some(Score {
        level: 1,
        paths,
        closeness,
    })
}

/// Keeps only the new pairs in the report (and, with them, the groups that
/// hold one) and says how the run compared. Pairs found but not listed
/// (past `--max-pairs`) cannot be compared: they count as new.
pub fn apply(report: &mut Report, baseline: &Baseline, comparison: &Comparison, file: String) {
    let unlisted = report
        .stats
        .pairs_found
        .saturating_sub(report.pairs.len() as u64);
    let mut index = 0;
    report.pairs.retain(|_| {
        let keep = comparison.new.binary_search(&index).is_ok();
        index += 1;
        keep
    });
    let members: BTreeSet<u32> = report.pairs.iter().flat_map(|p| [p.a, p.b]).collect();
    report
        .groups
        .retain(|group| group.members.iter().any(|m| members.contains(m)));
    // The groups listed are numbered from 1, as without a baseline;
    // `stats.groups` still counts every group found.
    for (index, group) in report.groups.iter_mut().enumerate() {
        group.id = index + 1;
    }
    report.stats.pairs = report.pairs.len() as u64;
    report.baseline = Some(BaselineSummary {
        file,
        accepted: comparison.accepted.len() as u64,
        new: comparison.new.len() as u64 + unlisted,
        stale: comparison
            .stale
            .iter()
            .map(|&entry| StaleEntry {
                a: baseline.entries[entry].a.clone(),
                b: baseline.entries[entry].b.clone(),
            })
            .collect(),
        updated: false,
    });
}

/// The baseline rewritten for today (`--update-baseline`): stale entries
/// dropped, accepted ones with today's paths and keys; new pairs are not
/// added (accepting them is `--write-baseline`'s job). Call before
/// [`apply`], which drops the accepted pairs from the report.
pub fn refreshed(report: &Report, comparison: &Comparison, features: &FeatureOptions) -> Baseline {
    let entries = comparison
        .accepted
        .iter()
        .filter_map(|&(pair, _)| {
            let pair = &report.pairs[pair];
            entry(report, pair.a, pair.b)
        })
        .collect();
    Baseline::new(features_line(features), entries)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::tests::sample;
    use crate::report::{Names, ReportPair};

    fn key(content: u64, simhash: u64) -> DocKey {
        DocKey { content, simhash }
    }

    /// A report of these documents (name, key) and pairs.
    fn report(docs: &[(&str, DocKey)], pairs: &[(u32, u32)]) -> Report {
        let mut report = sample();
        report.names = Names::default();
        report.keys.clear();
        for (id, (name, key)) in docs.iter().enumerate() {
            report.names.push(name.as_bytes()).unwrap();
            report.keys.insert(id as u32, *key);
        }
        report.pairs = pairs
            .iter()
            .map(|&(a, b)| ReportPair {
                a,
                b,
                distance: 1,
                jaccard: Some(0.9),
                short_texts: false,
            })
            .collect();
        report.stats.pairs_found = pairs.len() as u64;
        report.groups.clear();
        report
    }

    fn baseline(entries: &[(&str, DocKey, &str, DocKey)]) -> Baseline {
        Baseline::new(
            "f digest=0".into(),
            entries
                .iter()
                .map(|(a, ka, b, kb)| BaselineEntry::new(a.to_string(), *ka, b.to_string(), *kb))
                .collect(),
        )
    }

    const A: DocKey = DocKey {
        content: 1,
        simhash: 0b1111,
    };
    const B: DocKey = DocKey {
        content: 2,
        simhash: 0b0111,
    };

    #[test]
    fn renamed_and_slightly_edited_pairs_stay_accepted() {
        let base = baseline(&[("a.md", A, "b.md", B)]);
        // Renamed: same contents, other names, other order.
        let renamed = report(&[("x/b.md", B), ("y/a.md", A)], &[(0, 1)]);
        let found = compare(&base, &renamed, true);
        assert_eq!(found.accepted, [(0, 0)]);
        assert!(found.new.is_empty() && found.stale.is_empty());
        // Edited: other content, SimHash 3 bits away.
        let edited = report(
            &[("a.md", key(9, 0b1110_0000_1111)), ("b.md", B)],
            &[(0, 1)],
        );
        assert_eq!(compare(&base, &edited, true).accepted, [(0, 0)]);
        // Not when SimHashes are not comparable, nor when too far.
        assert_eq!(compare(&base, &edited, false).new, [0]);
        let rewritten = report(&[("a.md", key(9, !0b1111)), ("b.md", B)], &[(0, 1)]);
        let found = compare(&base, &rewritten, true);
        assert_eq!((found.new, found.stale), (vec![0], vec![0]));
    }

    #[test]
    fn a_new_copy_makes_new_pairs() {
        let base = baseline(&[("a.md", A, "b.md", B)]);
        // c.md is a copy of a.md: (a, b) is the accepted pair; (a, c) and
        // (b, c) are new, though each could match the entry alone.
        let found = compare(
            &base,
            &report(
                &[("a.md", A), ("b.md", B), ("c.md", A)],
                &[(0, 2), (0, 1), (1, 2)],
            ),
            true,
        );
        assert_eq!(found.accepted, [(1, 0)]);
        assert_eq!(found.new, [0, 2]);
        // Both sides must match: one side alone accepts nothing.
        let found = compare(
            &base,
            &report(&[("a.md", A), ("d.md", key(5, !0))], &[(0, 1)]),
            true,
        );
        assert_eq!((found.new, found.stale), (vec![0], vec![0]));
    }

    #[test]
    fn same_paths_win_among_identical_contents() {
        let base = baseline(&[("a.md", A, "b.md", A), ("c.md", A, "d.md", A)]);
        let found = compare(
            &base,
            &report(
                &[("a.md", A), ("b.md", A), ("c.md", A), ("d.md", A)],
                &[(0, 1), (2, 3), (0, 2)],
            ),
            true,
        );
        assert_eq!(found.accepted, [(0, 0), (1, 1)]);
        assert_eq!(found.new, [2]);
    }

    #[test]
    fn apply_lists_only_new_pairs_and_refresh_keeps_only_accepted() {
        let base = baseline(&[("a.md", A, "b.md", B), ("gone.md", key(7, 7), "b.md", B)]);
        let mut run = report(
            &[("a2.md", A), ("b.md", B), ("c.md", key(3, !0))],
            &[(0, 1), (1, 2)],
        );
        let found = compare(&base, &run, true);
        let features = FeatureOptions::default();
        let refreshed = refreshed(&run, &found, &features);
        assert_eq!(refreshed.entries.len(), 1);
        assert_eq!(refreshed.entries[0].a, "a2.md");
        apply(&mut run, &base, &found, "base.txt".into());
        assert_eq!(run.pairs.len(), 1);
        assert_eq!((run.pairs[0].a, run.pairs[0].b), (1, 2));
        let summary = run.baseline.unwrap();
        assert_eq!((summary.accepted, summary.new), (1, 1));
        assert_eq!(summary.stale[0].a, "b.md");
        assert_eq!(summary.stale[0].b, "gone.md");
    }
}
