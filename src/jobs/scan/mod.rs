//! The main job: inputs -> fingerprints -> candidate pairs -> verified
//! near-duplicates -> report.
//!
//! [`scan`] runs the stages in order and times each: collect (walk, read
//! and fingerprint in parallel, documents with the same features joined
//! into classes), radius (the cost model picks how far the search looks),
//! search (SimHash pairs of classes within k), verify (exact Jaccard of
//! each candidate; only pairs at or above the threshold are near
//! duplicates), and the listing (class pairs back to document pairs and
//! groups). In raw mode the search's pairs within k are the answer. Errors
//! about single inputs are reported and counted in [`Diagnostics`]; only
//! errors that make the whole run meaningless are returned.

mod against;
pub mod allowlist;
mod banded;
pub mod baseline;
mod cache;
mod collect;
mod documents;
mod joined;
mod leaders;
mod listing;
pub(crate) mod radius;
pub mod regions;
mod remembered;
pub(crate) mod short;
mod sources;

use std::path::PathBuf;
use std::time::Instant;

use rayon::prelude::*;

use crate::Error;
use crate::diag::Diagnostics;
use crate::fingerprint::{FeatureOptions, Fingerprinter};
use crate::input::{PathSeparator, Provenance, RecordOptions, WalkOptions, read_path_list};
use crate::progress::Progress;
use crate::report::texts::Texts;
use crate::report::{self, Params, RadiusParams, Report, ReportGroup, ReportPair, Seconds, Stats};
use crate::search::{self, DocId, Method, SearchOptions, SearchOutcome};
use crate::verify::{self, Verdict};

use documents::{ClassId, Documents, Grouping};
use listing::{ClassPair, Listing};
use short::Measures;
pub(crate) use short::{Prefix, ShortTexts};

pub use radius::{BUDGET_SHARE, MIN_BUDGET_SECONDS, bit_flip_probability, expected_recall};

/// The radius of raw mode when none is given: k = 9 had the best F1 of raw
/// SimHash on the generated corpus (docs/QUALITY.md).
pub const RAW_MAX_DISTANCE: u32 = 9;

/// Candidate pairs verified at most in one search when not told otherwise
/// (each costs a few dozen bytes until it is decided): about 400 MB.
pub const MAX_CANDIDATES: u64 = 8_000_000;

/// The Jaccard threshold of a near-duplicate when none is given.
pub const DEFAULT_THRESHOLD: f64 = 0.8;

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
    /// Records, each a document: of one file, or of stdin.
    Records {
        /// How the stream is cut and parsed.
        options: RecordOptions,
        /// The file (`None`: stdin).
        file: Option<PathBuf>,
    },
    /// Fingerprints saved by `simdup fingerprint` (`-`: stdin).
    Fingerprints(Vec<PathBuf>),
    /// New documents searched against a stored corpus (`simdup index`):
    /// only pairs with at least one new document are reported.
    Against {
        /// The index file.
        index: PathBuf,
        /// The new documents (paths or a path list).
        new: Box<Inputs>,
    },
}

impl Inputs {
    /// Whether the documents are records (new ones, with `--against`):
    /// their texts are kept while reading, not read again by name.
    pub fn are_records(&self) -> bool {
        match self {
            Inputs::Records { .. } => true,
            Inputs::Against { new, .. } => new.are_records(),
            _ => false,
        }
    }
}

/// What a scan reports.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Mode {
    /// Near-duplicates: pairs whose exact Jaccard is at least `threshold`;
    /// SimHash only proposes the candidates.
    Verified {
        /// The least Jaccard of a near-duplicate, 0 to 1.
        threshold: f64,
        /// How the near pairs form groups.
        group_by: GroupBy,
    },
    /// Every pair whose fingerprints lie within the radius, unverified
    /// (grouped by connected components).
    Raw,
}

/// How near pairs form the report's groups.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GroupBy {
    /// Connected components: documents joined through any chain of pairs.
    #[default]
    Components,
    /// Led by their first member: each document joins the group of the
    /// earliest group's first member it is a near-duplicate of
    /// (src/jobs/scan/leaders.rs), as `simdup dedup` keeps and drops.
    First,
}

impl GroupBy {
    /// The name `--group-by` and the report's params give it.
    pub fn name(self) -> &'static str {
        match self {
            GroupBy::Components => "components",
            GroupBy::First => "first",
        }
    }
}

/// Every option of a scan, as plain data.
#[derive(Clone, Debug)]
pub struct ScanOptions {
    /// Feature options of the fingerprints.
    pub features: FeatureOptions,
    /// Walk and read options.
    pub walk: WalkOptions,
    /// Near-duplicates by Jaccard, or raw SimHash pairs.
    pub mode: Mode,
    /// The search radius k; `None`: chosen by the cost model when
    /// verifying, [`RAW_MAX_DISTANCE`] in raw mode.
    pub max_distance: Option<u32>,
    /// The search method.
    pub method: Method,
    /// Verified mode: find the pairs of documents by an exact join of
    /// their feature sets (`--method join`: every pair at the threshold,
    /// none missed), not by SimHash within a radius; `method` then
    /// searches them only if the join would hold too many features or
    /// find more than `max_candidates` pairs.
    pub join: bool,
    /// Neighbours compared per rotation (`Method::Rotate`).
    pub window: usize,
    /// Pairs listed at most (counts and groups stay complete).
    pub max_pairs: u64,
    /// Candidate pairs verified at most in one search: past it, a radius
    /// the cost model chose narrows, a given one is an error.
    pub max_candidates: u64,
    /// Documents with fewer features are matched by exact content only.
    pub min_features: u64,
    /// Compare two short texts (one line of at most 256 characters) by
    /// character pairs instead of `features` (verified mode; on when the
    /// shingles were not chosen).
    pub short_texts: bool,
    /// How pairs of two short texts are found.
    pub short_text_search: ShortTextSearch,
    /// Draw a progress bar (when stderr is a terminal).
    pub progress: bool,
    /// Take the fingerprints of unchanged files from this SQLite file
    /// (`simdup index`'s format) and store the new ones in it.
    pub cache: Option<PathBuf>,
    /// Records: keep the start of each text, up to this many bytes, so
    /// the report can show the texts of the documents it lists
    /// (snippets, `--show-text`); `None` keeps none.
    pub record_texts: Option<usize>,
}

/// What the search and verification stages found, before naming.
struct Found {
    listing: Listing,
    radius: RadiusParams,
    max_distance: u32,
    search: search::SearchStats,
    candidates: u64,
    below_threshold: u64,
    unverified: u64,
    reread: u64,
    searched: Instant,
}

/// Runs a scan and returns its report; per-input problems go to `diag`.
pub fn scan(
    inputs: &Inputs,
    options: &ScanOptions,
    diag: &mut Diagnostics,
) -> crate::Result<Report> {
    let started = Instant::now();
    let fingerprinter = Fingerprinter::new(options.features.clone());
    let verifying = matches!(options.mode, Mode::Verified { .. });
    let mut documents = Documents::new(options.min_features, verifying);
    // Short texts are compared by character pairs unless the features
    // were chosen (verified mode only: raw mode is plain SimHash).
    let measures = Measures {
        short: (verifying && options.short_texts).then(|| ShortTexts::new(&options.features)),
        fingerprinter,
    };
    let cache = open_cache(inputs, options, diag)?;
    let cached = cache.as_ref().map(|(_, cache)| cache);
    // Before any document (stored ones first): one entry per document.
    if let (true, Some(max_bytes)) = (inputs.are_records(), options.record_texts) {
        documents.keep_report_texts(max_bytes, diag);
    }
    let provenance = collect(inputs, options, &measures, &mut documents, diag, cached)?;
    documents.finish();
    let collected = Instant::now();
    let fingerprint_seconds = (collected - started).as_secs_f64();
    let mut found = match options.mode {
        Mode::Raw => raw(&mut documents, options)?,
        Mode::Verified {
            threshold,
            group_by,
        } => verified(
            &documents, &measures, options, threshold, group_by, diag, cached,
        )?,
    };
    if let Some((mut store, cache)) = cache {
        let (hits, stored) = cache.finish(&mut store, &options.features, diag);
        diag.note(format_args!(
            "cache: {hits} fingerprints reused, {stored} stored"
        ));
    }
    against::keep_new(&mut found.listing, &documents);
    let verified_at = Instant::now();
    let pairs = found.listing.pairs;
    let groups = report_groups(found.listing.groups, found.listing.chained);
    // Read back once the listing is chosen (`Report::keep_listed_texts`).
    let texts = documents
        .take_report_texts()
        .map_or(Texts::None, |spool| Texts::Spooled(Box::new(spool)));
    let named = Instant::now();
    let params = params(
        options,
        provenance.as_ref(),
        found.max_distance,
        found.radius,
    );
    let stats = Stats {
        inputs: diag.tally.clone(),
        unique_fingerprints: found.search.unique_fingerprints,
        largest_bucket: found.search.largest_bucket,
        comparisons: found.search.comparisons,
        candidates: found.candidates,
        below_threshold: found.below_threshold,
        unverified: found.unverified,
        reread: found.reread,
        pairs_found: found.listing.total,
        accepted: 0,
        pairs: pairs.len() as u64,
        groups: groups.len() as u64,
        seconds: Seconds {
            fingerprint: fingerprint_seconds,
            search: (found.searched - collected).as_secs_f64(),
            verify: (verified_at - found.searched).as_secs_f64(),
            report: (named - verified_at).as_secs_f64(),
            total: started.elapsed().as_secs_f64(),
        },
    };
    Ok(Report {
        version: report::SCHEMA_VERSION,
        params,
        stats,
        names: documents.into_names(),
        pairs,
        groups,
        keys: Default::default(),
        baseline: None,
        texts,
    })
}

/// Raw mode: every pair of documents within k, as the search lists them.
fn raw(documents: &mut Documents, options: &ScanOptions) -> crate::Result<Found> {
    let max_distance = options.max_distance.unwrap_or(RAW_MAX_DISTANCE);
    let search_options = SearchOptions {
        max_distance,
        method: options.method,
        window: options.window,
        max_pairs: options.max_pairs,
    };
    let searching = Progress::spinner(
        options.progress,
        &format!(
            "searching {} fingerprints for pairs within {max_distance} bits",
            documents.len()
        ),
    );
    let outcome = find_raw_pairs(documents, &search_options);
    searching.finish();
    let outcome = outcome?;
    let pairs = outcome
        .pairs
        .iter()
        .map(|pair| ReportPair {
            a: pair.a,
            b: pair.b,
            distance: pair.distance,
            jaccard: None,
            short_texts: false,
        })
        .collect();
    Ok(Found {
        listing: Listing {
            pairs,
            total: outcome.total_pairs,
            chained: vec![false; outcome.groups.len()],
            groups: outcome.groups,
        },
        radius: RadiusParams::default(),
        max_distance,
        search: outcome.stats,
        candidates: outcome.total_pairs,
        below_threshold: 0,
        unverified: 0,
        reread: 0,
        searched: Instant::now(),
    })
}

/// Verified mode: candidate pairs of classes within the chosen radius,
/// each decided by the exact Jaccard of its feature sets. Two short texts
/// are compared by character pairs, found by an exact join (or a search of
/// their own: `ShortTextSearch`); any other pair by the scan's features.
fn verified(
    documents: &Documents,
    measures: &Measures,
    options: &ScanOptions,
    threshold: f64,
    group_by: GroupBy,
    diag: &mut Diagnostics,
    cache: Option<&cache::Cache>,
) -> crate::Result<Found> {
    let classes = documents.classes();
    let members = documents.members();
    // Short members per class: their pairs are the short-text search's.
    let short_members: Vec<u32> = (0..classes.len() as ClassId)
        .map(|class| {
            let ids = members.of(class);
            ids.iter()
                .filter(|&&id| documents.is_short_text(id))
                .count() as u32
        })
        .collect();
    let short = measures.short.as_ref();
    let sources = sources::Sources::new(documents, &measures.fingerprinter, short);
    let words = space(
        Space::Words,
        documents,
        &sources,
        &members,
        &short_members,
        options,
        threshold,
        diag,
        cache,
    )?;
    // (A cache's verdicts are by word features: short texts' are not
    // remembered.)
    let texts = match short {
        Some(_) => Some(space(
            Space::ShortTexts,
            documents,
            &sources,
            &members,
            &short_members,
            options,
            threshold,
            diag,
            None,
        )?),
        None => None,
    };
    let mut near = words.near;
    let mut proposed = words.candidates;
    let (mut below_threshold, mut unverified, mut reread) =
        (words.below_threshold, words.unverified, words.reread);
    let mut search_stats = words.search;
    let short_params = texts.map(|texts| {
        near.extend(texts.near);
        proposed += texts.candidates;
        below_threshold += texts.below_threshold;
        unverified += texts.unverified;
        reread += texts.reread;
        search_stats.unique_fingerprints += texts.search.unique_fingerprints;
        search_stats.comparisons += texts.search.comparisons;
        search_stats.largest_bucket = search_stats.largest_bucket.max(texts.search.largest_bucket);
        (texts.radius, texts.max_distance, texts.found_by)
    });
    let is_short = |id: DocId| documents.is_short_text(id);
    let (pairs, total) = listing::pairs(
        &near,
        classes.len(),
        &members,
        &short_members,
        is_short,
        options.max_pairs,
        true,
    );
    // Pairs within a class need no verification: they share their features.
    let within: u64 = (0..classes.len() as ClassId)
        .map(|class| {
            let c = members.of(class).len() as u64;
            c * c.saturating_sub(1) / 2
        })
        .sum();
    drop(members);
    let listed = |id: DocId| !documents.is_superseded(id);
    let (groups, chained) = match group_by {
        GroupBy::Components => {
            let groups = listing::groups(&near, documents.class_of(), classes.len(), listed);
            let chained = leaders::chained(
                &groups,
                &near,
                documents.class_of(),
                classes.len(),
                is_short,
                listed,
            );
            (groups, chained)
        }
        GroupBy::First => {
            let groups =
                leaders::first_groups(&near, documents.class_of(), classes.len(), is_short, listed);
            let chained = vec![false; groups.len()];
            (groups, chained)
        }
    };
    let listing = Listing {
        pairs,
        total,
        groups,
        chained,
    };
    let mut radius = words.radius;
    if let (Some((texts_radius, k, found_by)), Some(short)) = (short_params, short) {
        radius.short_texts = Some(report::ShortTextParams {
            features: short.describe(),
            max_chars: short::MAX_CHARS,
            search: found_by.name().to_string(),
            max_distance: (found_by == FoundBy::Fingerprint).then_some(k),
            expected_recall: texts_radius.expected_recall.unwrap_or(1.0),
        });
    }
    Ok(Found {
        candidates: within + proposed,
        listing,
        radius,
        max_distance: words.max_distance,
        search: search_stats,
        below_threshold,
        unverified,
        reread,
        searched: words.searched,
    })
}

/// How pairs of two short texts are found (`--short-texts`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ShortTextSearch {
    /// By the exact join, unless it is predicted to cost too much, or
    /// would read again more stored texts than new ones (then as `Fingerprint`).
    #[default]
    Auto,
    /// By the exact join, whatever it costs (within the memory bounds).
    Join,
    /// Within the radius, by their character-pair fingerprints, as the
    /// other documents are found (what the Spark job does).
    Fingerprint,
    /// By their MinHash bands, without the join (src/jobs/scan/banded.rs).
    Bands,
}

/// The two searches of verified mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Space {
    /// Every class, by the scan's features; pairs of two short texts are
    /// left to the other space.
    Words,
    /// Classes with a short text, by character pairs (joined, unless the
    /// join is declined); only pairs of two short texts count.
    ShortTexts,
}

/// What one space's search and verification found.
struct SpaceFound {
    near: Vec<ClassPair>,
    candidates: u64,
    below_threshold: u64,
    unverified: u64,
    reread: u64,
    radius: RadiusParams,
    max_distance: u32,
    /// How short texts' candidates were found.
    found_by: FoundBy,
    search: search::SearchStats,
    searched: Instant,
}

/// How a space's candidates were found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FoundBy {
    /// The exact join of short texts: every pair at the threshold.
    Join,
    /// The MinHash bands of short texts.
    Bands,
    /// SimHash, within the radius.
    Fingerprint,
}

impl FoundBy {
    /// Its name in the report's parameters.
    fn name(self) -> &'static str {
        match self {
            FoundBy::Join => "join",
            FoundBy::Bands => "bands",
            FoundBy::Fingerprint => "simhash",
        }
    }
}

/// Searches and verifies one space.
#[allow(clippy::too_many_arguments)]
fn space(
    space: Space,
    documents: &Documents,
    sources: &sources::Sources<'_>,
    members: &documents::Members,
    short_members: &[u32],
    options: &ScanOptions,
    threshold: f64,
    diag: &mut Diagnostics,
    cache: Option<&cache::Cache>,
) -> crate::Result<SpaceFound> {
    let classes = documents.classes();
    // When every document is a short text (records, mostly), no pair is
    // this space's: leave it empty rather than search pairs to discard.
    let all_short = (0..classes.len() as ClassId)
        .all(|class| short_members[class as usize] as usize == members.of(class).len());
    // Classes matched by exact content only are never searched.
    let fingerprint = |class: &documents::Class| match space {
        Space::Words if all_short => None,
        Space::Words => (!class.exact_only).then_some((class.simhash, class.features)),
        Space::ShortTexts => class.short_text.map(|text| (text.simhash, text.features)),
    };
    // A class whose documents were all superseded (`--against`) is none.
    let searchable = || {
        classes
            .iter()
            .enumerate()
            .filter(|&(index, _)| !members.of(index as ClassId).is_empty())
            .filter_map(|(index, class)| fingerprint(class).map(|found| (index as DocId, found)))
    };
    let entries: Vec<(DocId, u64)> = searchable()
        .map(|(index, (simhash, _))| (index, simhash))
        .collect();
    let fingerprints: Vec<u64> = entries.iter().map(|&(_, simhash)| simhash).collect();
    let features: f64 = searchable()
        .map(|(_, (_, features))| f64::from(features))
        .sum();
    // Against a stored corpus, only pairs with a new class are searched.
    let is_new = |class: ClassId| {
        members
            .of(class)
            .last()
            .is_some_and(|&id| id >= documents.fresh_from)
    };
    let fresh_entries = entries.iter().filter(|&&(class, _)| is_new(class)).count();
    // Pairs of two short texts are the other space's: the words search
    // need only find the pairs with a class that is not all short texts.
    let has_long =
        |class: ClassId| (short_members[class as usize] as usize) < members.of(class).len();
    let long_entries = match space {
        Space::Words => entries
            .iter()
            .filter(|&&(class, _)| has_long(class))
            .count(),
        Space::ShortTexts => entries.len(),
    };
    // (A scan cache remembers whole searches: with one, search everything.)
    let only_long =
        fresh_entries == entries.len() && long_entries < entries.len() && cache.is_none();
    // The document pairs a class pair stands for in this space.
    let class_pair_weight = |a: ClassId, b: ClassId| {
        let (size_a, size_b) = (members.of(a).len() as u64, members.of(b).len() as u64);
        let (short_a, short_b) = (
            u64::from(short_members[a as usize]),
            u64::from(short_members[b as usize]),
        );
        match space {
            Space::Words => size_a * size_b - short_a * short_b,
            Space::ShortTexts => short_a * short_b,
        }
    };
    // Short texts' candidates are turned away by their sketches (below):
    // the cost model prices only those it expects to be verified.
    let sketches: Option<Vec<_>> = (space == Space::ShortTexts).then(|| {
        entries
            .iter()
            .map(|&(class, _)| documents.short_sketch(class))
            .collect()
    });
    let workload = radius::Workload {
        fingerprints: &fingerprints,
        count: fingerprints.len(),
        fresh: if only_long {
            long_entries
        } else {
            fresh_entries
        },
        mean_features: features / entries.len().max(1) as f64,
        bytes: diag.tally.bytes,
        documents: (documents.len() as u64).saturating_sub(u64::from(documents.fresh_from)),
        sketches: sketches.as_deref(),
    };
    // The join reads every short text again. A scan has just read them
    // (a scan cache's reused ones aside: they are read, so that a cached
    // scan lists what a plain one does), but not a stored corpus's: it may
    // read as many of those as new ones (or SMALL_CORPUS), no more.
    let stored = entries.len() - fresh_entries;
    let affordable_reading = stored <= fresh_entries.max(radius::SMALL_CORPUS);
    let join = match options.short_text_search {
        ShortTextSearch::Auto => affordable_reading,
        ShortTextSearch::Join => true,
        ShortTextSearch::Fingerprint | ShortTextSearch::Bands => false,
    };
    // Past the join, MinHash bands find short texts with an expected
    // recall (0.947 at 0.8) that no affordable radius gives crowded
    // one-line texts (k = 6 gave 0.130 on 10^6 address lines); unless a
    // radius is given, or they crowd too much (then by fingerprint).
    let try_bands = space == Space::ShortTexts
        && match options.short_text_search {
            ShortTextSearch::Auto => affordable_reading && options.max_distance.is_none(),
            ShortTextSearch::Bands => true,
            ShortTextSearch::Join | ShortTextSearch::Fingerprint => false,
        };
    let instead = if try_bands {
        "by their MinHash bands"
    } else {
        "by fingerprint"
    };
    if space == Space::Words
        && options.join
        && !entries.is_empty()
        && let Some(found) = join_documents(
            &entries,
            // Saved fingerprints without their feature counts hold the
            // most a count can be: theirs are known only once read.
            searchable()
                .all(|(_, (_, features))| features < u32::MAX)
                .then_some(features as u64),
            sources,
            &class_pair_weight,
            &is_new,
            options,
            threshold,
            diag,
        )
    {
        return Ok(found);
    }
    // What a declined join read, for the bands to take.
    let mut joined_sets = None;
    let read_short_text = |class: ClassId| sources.short_text_set(class);
    if space == Space::ShortTexts && features <= joined::JOIN_BUDGET as f64 && join {
        let texts = joined::Joinable {
            entries: &entries,
            short_texts: true,
            read: &read_short_text,
            max_features: joined::JOIN_BUDGET,
            // Checked above, with a note of its own.
            features: None,
            weight: &class_pair_weight,
            is_new: &is_new,
        };
        let budget = match options.short_text_search {
            ShortTextSearch::Join => f64::INFINITY,
            _ => workload.budget_seconds(),
        };
        let found = joined::join(
            &texts,
            threshold,
            budget,
            options.max_candidates,
            options.progress,
            diag,
        );
        let declined = match found {
            Ok(found) => return Ok(found),
            Err(declined) => declined,
        };
        match declined.why {
            joined::Why::Cost { budget } => diag.note(format_args!(
                "joining the short texts would cost more than {budget:.1} core-seconds: \
                 searching them {instead} instead"
            )),
            joined::Why::Pairs => diag.note(format_args!(
                "more than --max-candidates {} pairs of short texts: \
                 searching them {instead} instead",
                options.max_candidates
            )),
            joined::Why::Features => diag.note(format_args!(
                "the short texts have more character pairs than the join holds ({}): \
                 searching them {instead} instead",
                joined::JOIN_BUDGET
            )),
        }
        joined_sets = Some(declined.read);
    } else if space == Space::ShortTexts && join && features > joined::JOIN_BUDGET as f64 {
        diag.note(format_args!(
            "the short texts have {features:.0} character pairs, more than the join \
             holds ({}): searching them {instead} instead",
            joined::JOIN_BUDGET
        ));
    } else if space == Space::ShortTexts
        && options.short_text_search == ShortTextSearch::Auto
        && !affordable_reading
    {
        diag.note(format_args!(
            "{stored} stored short texts against {fresh_entries} new: searching them \
             by fingerprint instead of reading them all for the join"
        ));
    }
    // Whether a pair of short texts may reach the threshold by their
    // sketches (the bound is exact: src/verify/sketch.rs); a pair that
    // cannot is decided without reading it.
    let may_reach = |a: ClassId, b: ClassId| {
        documents
            .short_sketch(a)
            .may_reach(&documents.short_sketch(b), threshold)
    };
    let bands = if try_bands {
        let asked =
            |a: ClassId, b: ClassId| class_pair_weight(a, b) > 0 && (is_new(a) || is_new(b));
        let banding = Progress::spinner(
            options.progress,
            &format!(
                "finding {} short texts by their MinHash bands",
                entries.len()
            ),
        );
        let sets = match joined_sets.take() {
            Some(read) => banded::SetsFrom::Joined(read),
            None => banded::SetsFrom::Texts(sources),
        };
        let found = banded::band_candidates(
            &entries,
            sets,
            &asked,
            &may_reach,
            &class_pair_weight,
            options.max_candidates,
            diag,
        );
        banding.finish();
        match found {
            Ok(found) => Some(found),
            Err(banded::Declined::Candidates(cap)) => {
                diag.note(format_args!(
                    "the short texts' MinHash bands would hold more than --max-candidates {cap} \
                     pairs, or compare more than {} times as many: searching them by \
                     fingerprint instead",
                    banded::PAIRS_COMPARED_PER_CANDIDATE
                ));
                None
            }
        }
    } else {
        None
    };
    let by_bands = bands.is_some();
    let (mut chosen, chosen_by) = match (options.max_distance, by_bands) {
        (_, true) => (
            radius::Radius {
                max_distance: 0,
                expected_recall: crate::verify::bands::expected_recall(threshold),
                budget_seconds: workload.budget_seconds(),
                predicted_seconds: 0.0,
            },
            "MinHash bands",
        ),
        (Some(k), false) => (radius::given(&workload, threshold, k), "option"),
        (None, false) => (radius::choose(&workload, threshold), "cost model"),
    };
    let what = match space {
        Space::Words => "fingerprints",
        Space::ShortTexts => "short texts",
    };
    // A scan cache remembers the last exact search of a whole corpus (not
    // one against a stored corpus), so a scan of the same corpus searches
    // only the fingerprints it has not seen.
    let remembers = matches!(space, Space::Words)
        && options.method == search::Method::Exact
        && fresh_entries == entries.len();
    let memory = cache
        .filter(|_| remembers)
        .and_then(|cache| cache.search_memory());
    // Every candidate is verified, so their number bounds memory: past
    // MAX_CANDIDATES a radius the user gave is refused, and one the cost
    // model chose (its sample underestimated the candidates) is narrowed.
    // Pairs the bands turned away by their sketches before holding them.
    let banded_away = bands.as_ref().map(|(_, away)| *away).unwrap_or_default();
    let outcome = if let Some((outcome, _)) = bands {
        outcome
    } else {
        loop {
            let max_distance = chosen.max_distance;
            let searching = Progress::spinner(
                options.progress,
                &format!(
                    "searching {} {what} for candidates within {max_distance} bits",
                    entries.len()
                ),
            );
            let search_options = SearchOptions {
                max_distance,
                method: options.method,
                window: options.window,
                max_pairs: options.max_candidates,
            };
            let outcome = match memory.filter(|memory| remembered::answers(memory, max_distance)) {
                Some(memory) => remembered::search(&entries, &search_options, memory),
                None if fresh_entries < entries.len() => {
                    search::search_against(&entries, &search_options, is_new)
                }
                None if only_long => search::search_against(&entries, &search_options, has_long),
                None => search::search(&entries, &search_options),
            };
            searching.finish();
            let outcome = outcome?;
            let cap = options.max_candidates;
            if outcome.total_pairs <= cap {
                break outcome;
            }
            if options.max_distance.is_some() || max_distance == 0 {
                return Err(Error::Usage(format!(
                    "{} candidate pairs of {what} lie within k = {max_distance}, more than \
                 --max-candidates {cap} can verify in bounded memory: use a smaller -k, \
                 a larger --max-candidates, or --raw",
                    outcome.total_pairs
                )));
            }
            let narrower = max_distance.saturating_sub(2);
            diag.note(format_args!(
                "{} candidate pairs of {what} within k = {max_distance}, more than \
             --max-candidates {cap}: searching within k = {narrower}",
                outcome.total_pairs
            ));
            chosen = radius::given(&workload, threshold, narrower);
        }
    };
    let max_distance = chosen.max_distance;
    if let Some(cache) = cache.filter(|_| remembers)
        && outcome.total_pairs == outcome.pairs.len() as u64
    {
        cache.remember_search(remembered::memory_of(
            &entries,
            &outcome.pairs,
            max_distance,
        ));
    }
    drop(fingerprints);
    drop(entries);
    let searched = Instant::now();

    let weight = |pair: &search::Pair| class_pair_weight(pair.a, pair.b);
    // A class pair with no document pair of this space needs no reading.
    // Against a stored corpus, pairs of two stored classes are not asked.
    let counted: Vec<&search::Pair> = outcome
        .pairs
        .iter()
        .filter(|pair| weight(pair) > 0 && (is_new(pair.a) || is_new(pair.b)))
        .collect();
    // Pairs of short texts that cannot reach the threshold by their
    // sketches, and pairs a scan cache has decided before, are not read.
    let digest = |class: ClassId| classes[class as usize].digest;
    let turned_away =
        |pair: &search::Pair| space == Space::ShortTexts && !may_reach(pair.a, pair.b);
    let remembered: Vec<Option<Verdict>> = counted
        .par_iter()
        .map(|pair| {
            if turned_away(pair) {
                return Some(Verdict::Below);
            }
            cache.and_then(|cache| cache.verdict(digest(pair.a), digest(pair.b), threshold))
        })
        .collect();
    let class_pairs: Vec<(u32, u32)> = counted
        .iter()
        .zip(&remembered)
        .filter(|(_, known)| known.is_none())
        .map(|(p, _)| (p.a, p.b))
        .collect();
    if space == Space::ShortTexts && diag.verbose {
        diag.note(format_args!(
            "{} of {} candidate pairs of short texts turned away by their sketches",
            counted.iter().filter(|pair| turned_away(pair)).count() as u64 + banded_away.pairs,
            counted.len() as u64 + banded_away.pairs
        ));
    }
    let checking = Progress::spinner(
        options.progress,
        &format!("verifying {} candidate pairs", class_pairs.len()),
    );
    let checked = verify::verify(
        &class_pairs,
        classes.len(),
        |class| {
            fingerprint(&classes[class as usize]).map_or(0, |(_, features)| u64::from(features))
        },
        |class| match space {
            Space::Words => sources.feature_set(class),
            Space::ShortTexts => sources.short_text_set(class),
        },
        threshold,
        verify::DEFAULT_BUDGET,
    );
    checking.finish();
    for (_, error) in &checked.failures {
        diag.verify_error(error);
    }
    let mut fresh = checked.verdicts.iter();
    let verdicts: Vec<Verdict> = counted
        .iter()
        .zip(&remembered)
        .map(|(pair, known)| match known {
            Some(verdict) => *verdict,
            None => {
                let verdict = fresh.next().copied().unwrap_or(Verdict::Unverified);
                if let Some(cache) = cache {
                    cache.remember_verdict(digest(pair.a), digest(pair.b), verdict, threshold);
                }
                verdict
            }
        })
        .collect();
    let mut near = Vec::new();
    let (mut below_threshold, mut unverified) = (banded_away.weight, 0u64);
    for (pair, verdict) in counted.iter().zip(&verdicts) {
        match *verdict {
            Verdict::Near(jaccard) => near.push(ClassPair {
                a: pair.a,
                b: pair.b,
                distance: pair.distance,
                jaccard: Some(jaccard),
                short_texts: space == Space::ShortTexts,
            }),
            Verdict::Below => below_threshold += weight(pair),
            Verdict::Unverified => unverified += weight(pair),
        }
    }
    Ok(SpaceFound {
        near,
        candidates: counted.iter().map(|pair| weight(pair)).sum::<u64>() + banded_away.weight,
        below_threshold,
        unverified,
        reread: checked.items_read,
        radius: RadiusParams {
            chosen_by: Some(chosen_by.to_string()),
            expected_recall: Some(chosen.expected_recall),
            budget_seconds: Some(chosen.budget_seconds),
            predicted_seconds: Some(chosen.predicted_seconds),
            short_texts: None,
        },
        max_distance,
        found_by: if by_bands {
            FoundBy::Bands
        } else {
            FoundBy::Fingerprint
        },
        search: outcome.stats,
        searched,
    })
}

/// The documents of the words space by the exact join of their features
/// (`--method join`); `None`, with a warning, when the join would hold more
/// than [`joined::WORDS_JOIN_BUDGET`] features or find more than
/// `--max-candidates` pairs: they are then searched by SimHash.
/// `features`: their sum, if every class's count is known.
#[allow(clippy::too_many_arguments)]
fn join_documents(
    entries: &[(DocId, u64)],
    features: Option<u64>,
    sources: &sources::Sources<'_>,
    weight: &(dyn Fn(ClassId, ClassId) -> u64 + Sync),
    is_new: &(dyn Fn(ClassId) -> bool + Sync),
    options: &ScanOptions,
    threshold: f64,
    diag: &mut Diagnostics,
) -> Option<SpaceFound> {
    let read = |class: ClassId| sources.feature_set(class);
    let documents = joined::Joinable {
        entries,
        short_texts: false,
        read: &read,
        max_features: joined::WORDS_JOIN_BUDGET,
        features,
        weight,
        is_new,
    };
    match joined::join(
        &documents,
        threshold,
        f64::INFINITY,
        options.max_candidates,
        options.progress,
        diag,
    ) {
        Ok(found) => Some(found),
        Err(declined) => {
            match declined.why {
                joined::Why::Features => diag.warn(format_args!(
                    "the documents have more features than the join holds ({}): \
                     searching them by fingerprint instead",
                    joined::WORDS_JOIN_BUDGET
                )),
                _ => diag.warn(format_args!(
                    "more than --max-candidates {} pairs of documents: searching them by \
                     fingerprint instead",
                    options.max_candidates
                )),
            }
            None
        }
    }
}

/// The collect stage: fills `documents` from the inputs. Saved
/// fingerprints bring their own feature options: their provenance is
/// returned.
fn collect(
    inputs: &Inputs,
    options: &ScanOptions,
    measures: &Measures,
    documents: &mut Documents,
    diag: &mut Diagnostics,
    cache: Option<&cache::Cache>,
) -> crate::Result<Option<Provenance>> {
    let cached = |paths: &[PathBuf], documents: &mut Documents, diag: &mut Diagnostics| {
        collect::collect_paths(
            paths,
            &options.walk,
            measures,
            documents,
            diag,
            options.progress,
            cache,
        );
    };
    match inputs {
        Inputs::Paths(paths) => cached(paths, documents, diag),
        Inputs::FilesFrom { list, separator } => {
            let paths = read_list(list, *separator)?;
            cached(&paths, documents, diag)
        }
        Inputs::Records {
            options: record_options,
            file,
        } => {
            let (reader, name) = super::open_records(file.as_deref())?;
            let verifying = matches!(options.mode, Mode::Verified { .. });
            // Before the stream is read: stdin's place is where it starts.
            let source = verifying
                .then(|| crate::input::RecordSource::open(file.as_deref(), record_options, &name))
                .flatten();
            let (reader, gzip) =
                super::records_text(reader, &name, options.features.view.decompress)?;
            if let Some(source) = source.filter(|_| !gzip) {
                documents.read_texts_from(source);
            }
            collect::collect_records(
                reader,
                &name,
                record_options,
                measures,
                documents,
                diag,
                matches!(options.mode, Mode::Verified { .. }),
                options.progress,
            )
        }
        Inputs::Fingerprints(files) => {
            let declared = collect::collect_saved(files, measures, documents, diag)?;
            if let Some(provenance) = &declared.provenance
                && matches!(options.mode, Mode::Verified { .. })
                && provenance.digest != options.features.digest()
            {
                return Err(Error::Usage(format!(
                    "verification reads the documents again with the feature options given \
                     ({}), but {} was made with other options ({}): give the same options",
                    options.features.describe(),
                    provenance.source_name,
                    provenance.options.as_deref().unwrap_or("not named")
                )));
            }
            return Ok(declared.provenance);
        }
        Inputs::Against { index, new } => {
            let records = matches!(**new, Inputs::Records { .. });
            against::collect_stored(index, records, options, documents, diag)?;
            let provenance = collect(new, options, measures, documents, diag, cache)?;
            against::supersede_stored(documents, diag);
            return Ok(provenance);
        }
    }
    Ok(None)
}

/// The scan cache, when one is asked for and can be used (files only, not
/// with `--binary`); an index that cannot be one is refused.
fn open_cache(
    inputs: &Inputs,
    options: &ScanOptions,
    diag: &Diagnostics,
) -> crate::Result<Option<(crate::index::Store, cache::Cache)>> {
    let Some(file) = options.cache.as_deref() else {
        return Ok(None);
    };
    let files = match inputs {
        Inputs::Paths(_) | Inputs::FilesFrom { .. } => true,
        Inputs::Against { new, .. } => matches!(**new, Inputs::Paths(_) | Inputs::FilesFrom { .. }),
        Inputs::Records { .. } | Inputs::Fingerprints(_) => false,
    };
    if !files {
        diag.warn("--cache applies to files, not records or saved fingerprints");
        return Ok(None);
    }
    if options.walk.binary {
        diag.warn("--cache is not used with --binary");
        return Ok(None);
    }
    cache::Cache::open(file, &options.features, diag)
}

/// Groups numbered from 1.
fn report_groups(groups: Vec<Vec<DocId>>, chained: Vec<bool>) -> Vec<ReportGroup> {
    groups
        .into_iter()
        .zip(chained)
        .enumerate()
        .map(|(index, (members, chained))| ReportGroup {
            id: index + 1,
            members,
            chained,
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

/// Raw mode's search: SimHash pairs among documents with enough features,
/// and exact-content pairs (distance 0) among the short ones; the two
/// never meet, because equal content means an equal feature count.
fn find_raw_pairs(
    documents: &mut Documents,
    options: &SearchOptions,
) -> crate::Result<SearchOutcome> {
    let Grouping::Raw {
        entries,
        exact_only: short,
    } = &mut documents.grouping
    else {
        unreachable!("raw mode keeps documents apart");
    };
    // The search keeps its own copies: hand it no slack.
    entries.shrink_to_fit();
    let mut outcome = search::search(entries, options)?;
    // The search copied what it needs.
    *entries = Vec::new();
    if short.len() > 1 {
        let exact_content = SearchOptions {
            max_distance: 0,
            method: Method::Exact,
            ..options.clone()
        };
        let short = search::search(short, &exact_content)?;
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
fn params(
    options: &ScanOptions,
    saved: Option<&Provenance>,
    max_distance: u32,
    radius: RadiusParams,
) -> Params {
    let (features, digest) = match saved {
        Some(provenance) => (
            provenance.options.clone().unwrap_or_default(),
            provenance.digest.clone(),
        ),
        None => (options.features.describe(), options.features.digest()),
    };
    let (mode, threshold, group_by) = match options.mode {
        Mode::Verified {
            threshold,
            group_by,
        } => ("verified", Some(threshold), group_by),
        Mode::Raw => ("raw", None, GroupBy::Components),
    };
    Params {
        mode: mode.to_string(),
        threshold,
        method: if options.join && threshold.is_some() {
            "join".to_string()
        } else {
            options.method.to_string()
        },
        max_distance,
        radius,
        exact: options.method != Method::Rotate,
        window: (options.method == Method::Rotate).then_some(options.window),
        features,
        digest,
        min_features: options.min_features,
        max_pairs: options.max_pairs,
        group_by: group_by.name().to_string(),
    }
}

#[cfg(test)]
mod tests;
