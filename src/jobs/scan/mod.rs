//! The main job: inputs -> fingerprints -> pairs -> report.
//!
//! [`scan`] runs the stages in order and times each: collect (walk, read
//! and fingerprint in parallel), search (SimHash pairs within k, plus exact
//! content matches among documents too short for SimHash), verify
//! (optional exact Jaccard), and the report model. Errors about single
//! inputs are reported and counted in [`Diagnostics`]; only errors that
//! make the whole run meaningless are returned.

mod collect;
mod documents;
mod verify;

use std::path::PathBuf;
use std::time::Instant;

use crate::Error;
use crate::diag::Diagnostics;
use crate::fingerprint::{FeatureOptions, Fingerprinter};
use crate::input::{
    PathSeparator, Provenance, RecordOptions, WalkOptions, read_fingerprint_files, read_path_list,
};
use crate::progress::Progress;
use crate::report::{self, Params, Report, ReportGroup, ReportPair, Seconds, Stats};
use crate::search::{self, Method, Pair, SearchOptions, SearchOutcome};

use documents::Documents;

/// Where the documents of a scan come from.
#[derive(Clone, Debug)]
pub enum Inputs {
    /// Files and directories.
    Paths(Vec<PathBuf>),
    /// Paths listed in a file (`-`: stdin).
    FilesFrom {
        /// The list.
        list: PathBuf,
        /// What separates its paths.
        separator: PathSeparator,
    },
    /// Records of stdin, each a document.
    Records(RecordOptions),
    /// Fingerprints saved by `simdup fingerprint` (`-`: stdin).
    Fingerprints(Vec<PathBuf>),
}

/// Every option of a scan, as plain data.
#[derive(Clone, Debug)]
pub struct ScanOptions {
    /// Feature options of the fingerprints.
    pub features: FeatureOptions,
    /// Walk and read options.
    pub walk: WalkOptions,
    /// Search options.
    pub search: SearchOptions,
    /// Documents with fewer features are matched by exact content only.
    pub min_features: u64,
    /// Verify pairs by exact Jaccard.
    pub verify: bool,
    /// With verify: drop pairs below this Jaccard.
    pub min_jaccard: Option<f64>,
    /// Draw a progress bar (when stderr is a terminal).
    pub progress: bool,
}

/// Runs a scan and returns its report; per-input problems go to `diag`.
pub fn scan(
    inputs: &Inputs,
    options: &ScanOptions,
    diag: &mut Diagnostics,
) -> crate::Result<Report> {
    let started = Instant::now();
    let fingerprinter = Fingerprinter::new(options.features.clone());
    let mut documents = Documents::new(options.min_features);
    let provenance = collect(inputs, options, &fingerprinter, &mut documents, diag)?;
    let params = params(options, provenance.as_ref());
    let collected = Instant::now();

    let searching = Progress::spinner(
        options.progress,
        &format!(
            "searching {} fingerprints for pairs within {} bits",
            documents.simhashes.len(),
            options.search.max_distance
        ),
    );
    let outcome = find_pairs(&documents, &options.search);
    searching.finish();
    let outcome = outcome?;
    let searched = Instant::now();

    let mut pairs = outcome.pairs;
    let mut groups = outcome.groups;
    let mut jaccards = Vec::new();
    if options.verify {
        jaccards = verify::verify_pairs(&pairs, &mut documents, &fingerprinter, diag);
        if let Some(min_jaccard) = options.min_jaccard {
            (pairs, jaccards) = pairs
                .into_iter()
                .zip(jaccards)
                .filter(|(_, jaccard)| jaccard.is_some_and(|j| j >= min_jaccard))
                .unzip();
            groups = search::groups_of_pairs(&pairs);
        }
    }
    let verified = Instant::now();

    let pairs = name_pairs(&pairs, &jaccards, &documents);
    let groups = name_groups(&groups, &documents);
    let named = Instant::now();
    let stats = Stats {
        inputs: diag.tally.clone(),
        unique_fingerprints: outcome.stats.unique_fingerprints,
        largest_bucket: outcome.stats.largest_bucket,
        comparisons: outcome.stats.comparisons,
        pairs_found: outcome.total_pairs,
        pairs: pairs.len() as u64,
        groups: groups.len() as u64,
        seconds: Seconds {
            fingerprint: (collected - started).as_secs_f64(),
            search: (searched - collected).as_secs_f64(),
            verify: (verified - searched).as_secs_f64(),
            report: (named - verified).as_secs_f64(),
            total: started.elapsed().as_secs_f64(),
        },
    };
    Ok(Report {
        version: report::SCHEMA_VERSION,
        params,
        stats,
        pairs,
        groups,
    })
}

/// The collect stage: fills `documents` from the inputs. Saved
/// fingerprints bring their own feature options: their provenance is
/// returned.
fn collect(
    inputs: &Inputs,
    options: &ScanOptions,
    fingerprinter: &Fingerprinter,
    documents: &mut Documents,
    diag: &mut Diagnostics,
) -> crate::Result<Option<Provenance>> {
    match inputs {
        Inputs::Paths(paths) => collect::collect_paths(
            paths,
            &options.walk,
            fingerprinter,
            documents,
            diag,
            options.progress,
        ),
        Inputs::FilesFrom { list, separator } => {
            let paths = read_list(list, *separator)?;
            collect::collect_paths(
                &paths,
                &options.walk,
                fingerprinter,
                documents,
                diag,
                options.progress,
            )
        }
        Inputs::Records(record_options) => collect::collect_records(
            std::io::stdin().lock(),
            record_options,
            fingerprinter,
            documents,
            diag,
            options.verify,
            options.progress,
        ),
        Inputs::Fingerprints(files) => {
            let saved = read_fingerprint_files(files)?;
            for file in &saved.files_without_digest {
                diag.warn(format_args!(
                    "{file}: names no options digest; assuming its fingerprints are comparable"
                ));
            }
            if let Some(provenance) = &saved.provenance
                && options.verify
                && provenance.digest != options.features.digest()
            {
                diag.warn(format_args!(
                    "--verify reads the documents with the feature options given now ({}), \
                     not those of the saved fingerprints ({})",
                    options.features.describe(),
                    provenance.options.as_deref().unwrap_or_default()
                ));
            }
            let provenance = saved.provenance.clone();
            collect::collect_saved(saved, documents, diag);
            return Ok(provenance);
        }
    }
    Ok(None)
}

/// Pairs with document names, and exact Jaccard where verified.
fn name_pairs(pairs: &[Pair], jaccards: &[Option<f64>], documents: &Documents) -> Vec<ReportPair> {
    pairs
        .iter()
        .enumerate()
        .map(|(index, pair)| ReportPair {
            a: documents.name(pair.a).into_owned(),
            b: documents.name(pair.b).into_owned(),
            distance: pair.distance,
            similarity: report::similarity(pair.distance),
            jaccard: jaccards.get(index).copied().flatten(),
        })
        .collect()
}

/// Groups with document names, numbered from 1.
fn name_groups(groups: &[Vec<search::DocId>], documents: &Documents) -> Vec<ReportGroup> {
    groups
        .iter()
        .enumerate()
        .map(|(index, members)| ReportGroup {
            id: index + 1,
            members: members
                .iter()
                .map(|&id| documents.name(id).into_owned())
                .collect(),
        })
        .collect()
}

/// Reads a `--files-from` list.
fn read_list(list: &std::path::Path, separator: PathSeparator) -> crate::Result<Vec<PathBuf>> {
    if super::is_stdin(list) {
        read_path_list(std::io::stdin().lock(), separator, crate::error::STDIN)
    } else {
        let file = std::fs::File::open(list).map_err(|source| Error::io(list, source))?;
        read_path_list(
            std::io::BufReader::new(file),
            separator,
            &list.display().to_string(),
        )
    }
}

/// SimHash pairs among documents with enough features, and exact-content
/// pairs (distance 0) among the short ones; the two never meet, because
/// equal content means an equal feature count.
fn find_pairs(documents: &Documents, options: &SearchOptions) -> crate::Result<SearchOutcome> {
    let mut outcome = search::search(&documents.simhashes, options)?;
    if documents.short.len() > 1 {
        let exact_content = SearchOptions {
            max_distance: 0,
            method: Method::Exact,
            ..options.clone()
        };
        let short = search::search(&documents.short, &exact_content)?;
        outcome.pairs.extend(short.pairs);
        outcome.pairs.sort_unstable();
        outcome
            .pairs
            .truncate(usize::try_from(options.max_pairs).unwrap_or(usize::MAX));
        outcome.total_pairs += short.total_pairs;
        outcome.groups.extend(short.groups);
        outcome
            .groups
            .sort_unstable_by_key(|group| group.first().copied());
        outcome.stats.unique_fingerprints += short.stats.unique_fingerprints;
        outcome.stats.comparisons += short.stats.comparisons;
    }
    Ok(outcome)
}

/// The options that shaped the result; saved fingerprints name their own
/// feature options.
fn params(options: &ScanOptions, saved: Option<&Provenance>) -> Params {
    let search = &options.search;
    let (features, digest) = match saved {
        Some(provenance) => (
            provenance.options.clone().unwrap_or_default(),
            provenance.digest.clone(),
        ),
        None => (options.features.describe(), options.features.digest()),
    };
    Params {
        method: search.method.to_string(),
        max_distance: search.max_distance,
        exact: search.method != Method::Rotate,
        window: (search.method == Method::Rotate).then_some(search.window),
        features,
        digest,
        min_features: options.min_features,
        verify: options.verify,
        min_jaccard: options.min_jaccard,
        max_pairs: search.max_pairs,
    }
}
