//! The report stage: the result of a run as plain data, and its formats.
//!
//! [`Report`] is what every format writes; the writers live in one module
//! each and take any `W: Write`, so tests write into a `Vec<u8>`.

pub mod baseline;
mod csv;
mod fdupes;
pub mod fingerprints;
mod github;
mod json;
mod markdown;
pub mod names;
mod paint;
pub mod sarif;
pub mod snippet;
mod summary;
mod table;
pub mod texts;

pub use names::Names;
pub use paint::Paint;
pub use summary::write_summary;

use std::collections::BTreeMap;
use std::io::{self, Write};

use serde::Serialize;

use baseline::{BaselineSummary, DocKey};
use texts::{Text, Texts};

use crate::diag::Tally;

/// The version of the JSON schema (`version` in JSON output).
pub const SCHEMA_VERSION: u32 = 2;

/// The output formats of `scan`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Aligned columns for a person.
    Table,
    /// One JSON document.
    Json,
    /// One JSON object per line.
    Jsonl,
    /// RFC 4180 CSV with a header line.
    Csv,
    /// SARIF 2.1.0: one result per pair, for code scanning.
    Sarif,
    /// GitHub Actions workflow commands: a warning in each file of a pair.
    Github,
    /// A Markdown heading and table, for a step summary.
    Markdown,
    /// Groups as blocks of names separated by blank lines (fdupes, jdupes).
    Fdupes,
}

/// Whether the report lists pairs or groups.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Listing {
    /// One entry per near-duplicate pair.
    Pairs,
    /// One entry per group (connected component of the pairs).
    Groups,
}

/// Every option that shaped the result.
#[derive(Clone, Debug, Serialize)]
pub struct Params {
    /// `verified` (near-duplicates by exact Jaccard) or `raw` (SimHash
    /// pairs within the radius).
    pub mode: String,
    /// Verified mode: the least Jaccard of a near-duplicate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threshold: Option<f64>,
    /// Search method: `exact`, `rotate` or `brute`.
    pub method: String,
    /// The search radius k: the largest Hamming distance searched.
    pub max_distance: u32,
    /// How the radius was chosen and what it buys (verified mode).
    #[serde(skip_serializing_if = "RadiusParams::is_empty")]
    pub radius: RadiusParams,
    /// Whether every pair within k is guaranteed to be found.
    pub exact: bool,
    /// Neighbours compared per rotation (rotate only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window: Option<usize>,
    /// The feature options, as `simdup fingerprint` prints them.
    pub features: String,
    /// Short digest of the feature options.
    pub digest: String,
    /// Documents with fewer features are matched by exact content only.
    pub min_features: u64,
    /// At most this many pairs are listed.
    pub max_pairs: u64,
    /// How pairs form groups: `components` (connected components) or
    /// `first` (led by their first member).
    pub group_by: String,
}

/// [`RadiusParams::chosen_by`] of pairs found by the exact join: at no
/// radius, every pair at the threshold.
pub const JOINED: &str = "exact join";

/// How the search radius was chosen (verified mode).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct RadiusParams {
    /// `cost model`, `option` (`-k`), `MinHash bands` or [`JOINED`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chosen_by: Option<String>,
    /// The expected share of pairs exactly at the threshold within k.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected_recall: Option<f64>,
    /// The single-core seconds (reference machine) search and
    /// verification were to fit in: 0.4 of the predicted fingerprinting
    /// time, at least 0.5. Predicted from the input alone, so the radius is
    /// the same on any machine and with any thread count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub budget_seconds: Option<f64>,
    /// The single-core seconds the cost model predicted for them at k.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub predicted_seconds: Option<f64>,
    /// How pairs of short texts were compared, when they were apart.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub short_texts: Option<ShortTextParams>,
}

/// Pairs of short texts (one line of at most `max_chars` characters) are
/// compared by other features, found by an exact join (or a search of
/// their own).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ShortTextParams {
    /// Their features (`chars:2`).
    pub features: String,
    /// The longest short text, in characters.
    pub max_chars: usize,
    /// How their pairs were found: `join` (every pair at the threshold,
    /// by an exact join of their features), `bands` (candidates sharing
    /// a MinHash band of their features) or `simhash` (candidates within
    /// `max_distance`).
    pub search: String,
    /// Their search radius (`simhash` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_distance: Option<u32>,
    /// The expected recall at the threshold (1 for the join).
    pub expected_recall: f64,
}

impl Params {
    /// Whether pairs were verified (and carry their Jaccard).
    pub fn verified(&self) -> bool {
        self.mode == "verified"
    }
}

impl RadiusParams {
    /// Nothing to say (raw mode).
    pub fn is_empty(&self) -> bool {
        *self == RadiusParams::default()
    }
}

/// Seconds spent in each stage.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Seconds {
    /// Walking, reading and fingerprinting: they overlap (documents stream
    /// from the readers to the fingerprinting workers), so they are one figure.
    pub fingerprint: f64,
    /// The pair search.
    pub search: f64,
    /// Re-reading documents for exact Jaccard.
    pub verify: f64,
    /// Building the report (naming pairs and groups); writing it follows.
    pub report: f64,
    /// The whole run.
    pub total: f64,
}

/// Counts of the run.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Stats {
    /// What happened to the inputs: seen (`inputs`), fingerprinted,
    /// empty, too short, skipped by reason, errors, and bytes read.
    #[serde(flatten)]
    pub inputs: Tally,
    /// Distinct fingerprints searched.
    pub unique_fingerprints: u64,
    /// The largest set of fingerprints compared with each other at once.
    pub largest_bucket: u64,
    /// Fingerprint comparisons made by the search.
    pub comparisons: u64,
    /// Document pairs the search proposed (within k, or sharing their
    /// features).
    pub candidates: u64,
    /// Candidates verification found below the threshold.
    pub below_threshold: u64,
    /// Candidates that could not be verified (a document could not be
    /// read again); never listed.
    pub unverified: u64,
    /// Documents read again by verification.
    pub reread: u64,
    /// Near-duplicate pairs after every filter (before `max_pairs`).
    pub pairs_found: u64,
    /// Pairs the allowlist (`[[accept]]` in simdup.toml) accepted: not
    /// listed, not in `pairs_found`.
    #[serde(skip_serializing_if = "is_zero")]
    pub accepted: u64,
    /// Pairs listed.
    pub pairs: u64,
    /// Groups found.
    pub groups: u64,
    /// Seconds by stage.
    pub seconds: Seconds,
}

/// One near-duplicate pair; its documents are named by [`Report::name`].
#[derive(Clone, Debug, PartialEq)]
pub struct ReportPair {
    /// The first document, in input order.
    pub a: u32,
    /// The second document.
    pub b: u32,
    /// Hamming distance of the fingerprints.
    pub distance: u32,
    /// Exact Jaccard of the feature sets (when verified).
    pub jaccard: Option<f64>,
    /// Two short texts, compared by the features of
    /// `params.radius.short_texts`.
    pub short_texts: bool,
}

impl ReportPair {
    /// `1 - distance / 64`.
    pub fn similarity(&self) -> f64 {
        similarity(self.distance)
    }
}

/// One group of near-duplicates.
#[derive(Clone, Debug, PartialEq)]
pub struct ReportGroup {
    /// 1-based group number, in order of first member.
    pub id: usize,
    /// Members, in input order, named by [`Report::name`].
    pub members: Vec<u32>,
    /// A member is not a near-duplicate of the first: it joined the group
    /// through others (connected components only).
    pub chained: bool,
}

/// Everything a run reports. Documents are numbers, named through
/// `names` as the report is written, so a group of ten million members
/// costs ten million numbers, not ten million strings.
#[derive(Debug)]
pub struct Report {
    /// Schema version.
    pub version: u32,
    /// The options that shaped the result.
    pub params: Params,
    /// Counts and timings.
    pub stats: Stats,
    /// The names of the documents, by number.
    pub names: Names,
    /// Pairs in the report's order: by Jaccard when verified (highest
    /// first), else by distance; then by input order.
    pub pairs: Vec<ReportPair>,
    /// Groups in order of first member.
    pub groups: Vec<ReportGroup>,
    /// The baseline keys of the documents of listed pairs, by number, when
    /// they were asked for (baselines, SARIF); empty otherwise.
    pub keys: BTreeMap<u32, DocKey>,
    /// How the pairs compared with a baseline (`--baseline`): only the
    /// new pairs are then in `pairs`.
    pub baseline: Option<BaselineSummary>,
    /// The texts of the listed documents, when they are shown (snippets
    /// of records in the table, `--show-text`).
    pub texts: Texts,
}

impl Report {
    /// The name of document `id`: a path as given, or a record id.
    pub fn name(&self, id: u32) -> String {
        self.names.text(id as usize)
    }

    /// Reads back the spooled texts of the documents the report will list:
    /// those of its pairs, its groups, or both (`pairs`, `groups`). On an
    /// error, no text is shown.
    pub fn keep_listed_texts(&mut self, pairs: bool, groups: bool) -> io::Result<()> {
        let mut wanted = Vec::new();
        if pairs {
            wanted.extend(self.pairs.iter().flat_map(|pair| [pair.a, pair.b]));
        }
        if groups {
            wanted.extend(self.groups.iter().flat_map(|group| &group.members));
        }
        self.texts = std::mem::take(&mut self.texts).keep(wanted)?;
        Ok(())
    }

    /// The text of document `id`, when texts are shown and it is at hand.
    pub fn text(&self, id: u32) -> Option<io::Result<Text>> {
        // Only files are found by their name.
        if !matches!(self.texts, Texts::Files { .. }) {
            return self.texts.get(id, b"");
        }
        match self.names.get(id as usize) {
            Ok(name) => self.texts.get(id, &name),
            Err(error) => Some(Err(error)),
        }
    }
}

fn is_zero(value: &u64) -> bool {
    *value == 0
}

/// `1 - distance / 64`, the similarity shown to users.
pub fn similarity(distance: u32) -> f64 {
    1.0 - f64::from(distance) / 64.0
}

/// Writes the report in a format; `listing` picks pairs or groups, and
/// `paint` colours the table (other formats are for programs).
pub fn write<W: Write>(
    report: &Report,
    format: Format,
    listing: Listing,
    paint: Paint,
    out: &mut W,
) -> io::Result<()> {
    match format {
        Format::Table => table::write(report, listing, paint, None, out),
        Format::Json => json::write_document(report, listing, out),
        Format::Jsonl => json::write_lines(report, listing, out),
        Format::Csv => csv::write(report, listing, out),
        Format::Sarif => sarif::write(report, out),
        Format::Github => github::write(report, out),
        Format::Markdown => markdown::write(report, listing, out),
        Format::Fdupes => fdupes::write(report, out),
    }
}

/// Writes the table to a terminal `columns` wide: record snippets are
/// fitted to it (elsewhere they have a fixed width, so the output is the
/// same wherever it runs).
pub fn write_table<W: Write>(
    report: &Report,
    listing: Listing,
    paint: Paint,
    columns: Option<usize>,
    out: &mut W,
) -> io::Result<()> {
    table::write(report, listing, paint, columns, out)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A small report used by the format tests.
    pub(crate) fn sample() -> Report {
        Report {
            version: SCHEMA_VERSION,
            params: Params {
                mode: "raw".into(),
                threshold: None,
                method: "exact".into(),
                max_distance: 3,
                radius: RadiusParams::default(),
                exact: true,
                window: None,
                features: "words:3".into(),
                digest: "0123abcd".into(),
                min_features: 8,
                max_pairs: 1000,
                group_by: "components".into(),
            },
            stats: Stats::default(),
            names: {
                let mut names = Names::default();
                for name in ["docs/a.txt", "docs/b, \"quoted\".txt", "docs/long name.txt"] {
                    names.push(name.as_bytes()).unwrap();
                }
                names
            },
            pairs: vec![
                ReportPair {
                    a: 0,
                    b: 1,
                    distance: 0,
                    jaccard: None,
                    short_texts: false,
                },
                ReportPair {
                    a: 0,
                    b: 2,
                    distance: 12,
                    jaccard: None,
                    short_texts: false,
                },
            ],
            groups: vec![ReportGroup {
                id: 1,
                members: vec![0, 1, 2],
                chained: false,
            }],
            keys: BTreeMap::new(),
            baseline: None,
            texts: Texts::None,
        }
    }

    #[test]
    fn only_the_texts_of_what_is_listed_are_read_back() {
        let listed = |pairs: bool, groups: bool| {
            let mut report = sample();
            report.pairs.truncate(1);
            let mut spool = texts::TextSpool::new(100).unwrap();
            for text in ["zero", "one", "two"] {
                spool.push(text.as_bytes()).unwrap();
            }
            report.texts = Texts::Spooled(Box::new(spool));
            assert!(report.text(0).is_none(), "not shown before");
            report.keep_listed_texts(pairs, groups).unwrap();
            (0..3)
                .map(|id| report.text(id).map(|text| text.unwrap().bytes))
                .collect::<Vec<_>>()
        };
        let kept = |text: &str| Some(text.as_bytes().to_vec());
        assert_eq!(listed(true, false), [kept("zero"), kept("one"), None]);
        assert_eq!(
            listed(false, true),
            [kept("zero"), kept("one"), kept("two")]
        );
    }

    #[test]
    fn similarity_is_one_minus_distance_over_64() {
        assert_eq!(similarity(0), 1.0);
        assert_eq!(similarity(16), 0.75);
        assert_eq!(similarity(64), 0.0);
    }
}
