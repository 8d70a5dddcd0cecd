//! Argument groups shared by several subcommands, and their conversion
//! into the library's plain option structs.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use std::sync::Arc;

use simdup::fingerprint::{
    Case, FeatureHash, FeatureOptions, Punctuation, Shingle, TokenSet, UnicodeForm, Vocabulary,
    Weighting,
};
use simdup::input::{
    GlobFilter, Markup, RecordFormat, RecordOptions, Transform, View, WalkOptions,
};
use simdup::search::Method;

/// Defaults chosen by the quality report (docs/QUALITY.md, "Results").
pub mod defaults {
    /// Shingle mode: word 3-shingles had the best F1 of every shingle mode.
    pub const SHINGLE: &str = "words:3";
    /// The least Jaccard of a near-duplicate.
    pub const THRESHOLD: &str = "0.8";
    /// Documents with fewer features are matched by exact content only.
    /// 1 (off): on short documents, SimHash pairs beat exact-content
    /// matching at every threshold measured (docs/QUALITY.md).
    pub const MIN_FEATURES: &str = "1";
    /// Pairs listed at most.
    pub const MAX_PAIRS: &str = "1000000";
    /// Candidate pairs verified at most (simdup::jobs::scan::MAX_CANDIDATES).
    pub const MAX_CANDIDATES: &str = "8000000";
}

/// The feature hash, as typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum HashArg {
    /// xxh3-64, seed 0.
    Xxh3,
    /// SHAKE256, first 8 bytes little-endian.
    Sha3,
}

/// The weighting, as typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum WeightArg {
    /// Term frequency in the document (the default of simdup 0.1).
    Tf,
    /// Every distinct feature counts once, as near-duplicates are defined
    /// (Jaccard of feature sets).
    Binary,
}

/// How markup files are read, as typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum MarkupArg {
    /// Their text: markup, link targets, front matter and fence lines dropped, code kept.
    Text,
    /// Their bytes as written.
    Raw,
}

/// Options that change a fingerprint.
#[derive(Args, Clone, Debug)]
#[command(next_help_heading = "Features")]
pub struct FeatureArgs {
    /// Features: shingles of N words (words:N) or N characters (chars:N) [default: words:3, and
    /// chars:2 between two one-line texts of at most 256 characters].
    #[arg(long, value_name = "MODE")]
    pub shingle: Option<Shingle>,

    /// Keep upper and lower case apart.
    #[arg(long)]
    pub case_sensitive: bool,

    /// Do not apply Unicode NFKC normalisation.
    #[arg(long)]
    pub no_nfkc: bool,

    /// Keep punctuation inside tokens instead of treating it as a separator.
    #[arg(long)]
    pub keep_punctuation: bool,

    /// Also add each word's characters as features (htm.core).
    #[arg(long)]
    pub token_similarity: bool,

    /// The hash of each feature.
    #[arg(long, value_enum, default_value_t = HashArg::Xxh3)]
    pub hash: HashArg,

    /// How much each feature counts.
    #[arg(long, value_enum, default_value_t = WeightArg::Binary)]
    pub weight: WeightArg,

    /// Token weights, one `token weight` per line (htm.core vocabulary).
    #[arg(long, value_name = "FILE")]
    pub vocabulary: Option<PathBuf>,

    /// With --vocabulary: also encode tokens missing from it (weight 1).
    #[arg(long, requires = "vocabulary")]
    pub encode_orphans: bool,

    /// Tokens to leave out, one per line.
    #[arg(long, value_name = "FILE")]
    pub exclude_tokens: Option<PathBuf>,

    /// Leave out the first N occurrences of each token in a document (htm.core).
    #[arg(long, value_name = "N")]
    pub frequency_floor: Option<u32>,

    /// Keep at most N occurrences of each token in a document (htm.core).
    #[arg(long, value_name = "N")]
    pub frequency_ceiling: Option<u32>,

    /// How Markdown (.md), reStructuredText (.rst), AsciiDoc (.adoc), HTML (.html) and man page
    /// (.1 to .9, roff) files are compared: on their text, or on their raw bytes.
    #[arg(long, value_enum, value_name = "HOW", default_value_t = MarkupArg::Text)]
    pub markup: MarkupArg,

    /// Compare what CMD writes for each file instead (e.g. 'pandoc -t plain $IN'): $IN is the
    /// file's path; without $IN the file is on CMD's stdin. Run without a shell.
    #[arg(long, value_name = "CMD")]
    pub transform: Option<String>,

    /// Read gzip files and record streams (known by their first bytes) as the text they hold,
    /// as zcat does.
    #[arg(short = 'z', long)]
    pub decompress: bool,
}

impl FeatureArgs {
    /// Whether two short texts are compared by character pairs, as the
    /// default says: unless the shingles were chosen.
    pub fn short_texts(&self) -> bool {
        self.shingle.is_none()
    }

    /// Whether every feature option is at its default, so nothing was
    /// asked that an input with options of its own would ignore.
    pub fn are_defaults(&self) -> bool {
        self.shingle.is_none()
            && !self.case_sensitive
            && !self.no_nfkc
            && !self.keep_punctuation
            && !self.token_similarity
            && self.hash == HashArg::Xxh3
            && self.weight == WeightArg::Binary
            && self.vocabulary.is_none()
            && !self.encode_orphans
            && self.exclude_tokens.is_none()
            && self.frequency_floor.is_none()
            && self.frequency_ceiling.is_none()
            && self.markup == MarkupArg::Text
            && self.transform.is_none()
            && !self.decompress
    }

    /// The library's feature options; reads the vocabulary files and
    /// checks that the options fit together.
    pub fn to_options(&self) -> simdup::Result<FeatureOptions> {
        let options = FeatureOptions {
            shingle: self
                .shingle
                .unwrap_or_else(|| defaults::SHINGLE.parse().expect("a valid shingle")),
            hash: match self.hash {
                HashArg::Xxh3 => FeatureHash::Xxh3,
                HashArg::Sha3 => FeatureHash::Sha3,
            },
            weighting: match self.weight {
                WeightArg::Tf => Weighting::Tf,
                WeightArg::Binary => Weighting::Binary,
            },
            unicode: if self.no_nfkc {
                UnicodeForm::AsIs
            } else {
                UnicodeForm::Nfkc
            },
            case: if self.case_sensitive {
                Case::Sensitive
            } else {
                Case::Lower
            },
            punctuation: if self.keep_punctuation {
                Punctuation::Keep
            } else {
                Punctuation::Separate
            },
            token_similarity: self.token_similarity,
            vocabulary: match &self.vocabulary {
                Some(path) => Some(Arc::new(Vocabulary::load(path)?)),
                None => None,
            },
            encode_orphans: self.encode_orphans,
            exclude: match &self.exclude_tokens {
                Some(path) => Some(Arc::new(TokenSet::load(path)?)),
                None => None,
            },
            frequency_floor: self.frequency_floor.unwrap_or(0),
            frequency_ceiling: self.frequency_ceiling,
            view: View {
                markup: match self.markup {
                    MarkupArg::Text => Markup::Text,
                    MarkupArg::Raw => Markup::Raw,
                },
                transform: match &self.transform {
                    Some(command) => Some(Arc::new(command.parse::<Transform>()?)),
                    None => None,
                },
                decompress: self.decompress,
            },
        };
        options.validate()?;
        Ok(options)
    }
}

/// Options of the directory walk.
#[derive(Args, Clone, Debug)]
#[command(next_help_heading = "Input")]
pub struct WalkArgs {
    /// Include hidden files and directories.
    #[arg(long)]
    pub hidden: bool,

    /// Follow symbolic links (loops are reported, not followed).
    #[arg(short = 'L', long)]
    pub follow: bool,

    /// Only files matching GLOB; `!GLOB` excludes. Repeatable.
    #[arg(short, long = "glob", value_name = "GLOB")]
    pub globs: Vec<String>,

    /// Skip files larger than SIZE (e.g. 512K, 10M, 2G); with records, records longer than SIZE
    /// (default 16M).
    #[arg(long, value_name = "SIZE", value_parser = parse_size_arg)]
    pub max_filesize: Option<u64>,

    /// Read files that look binary (a NUL byte in the first 8 KiB).
    #[arg(long)]
    pub binary: bool,

    /// Do not honour .gitignore, .ignore and .simdupignore files.
    #[arg(long)]
    pub no_ignore: bool,
}

impl WalkArgs {
    /// Whether an option of the walk itself was given: one that only
    /// files and directories use (`--max-filesize` also bounds records).
    pub fn walks(&self) -> bool {
        self.hidden || self.follow || !self.globs.is_empty() || self.binary || self.no_ignore
    }

    /// The library's walk options, with the globs compiled (a bad glob is
    /// an error before any work).
    pub fn to_options(&self) -> simdup::Result<WalkOptions> {
        Ok(WalkOptions {
            hidden: self.hidden,
            follow_links: self.follow,
            globs: GlobFilter::new(&self.globs)?,
            max_filesize: self.max_filesize,
            binary: self.binary,
            no_ignore: self.no_ignore,
        })
    }
}

/// How a stream is cut into records, and which JSON fields hold their
/// text and id (scan, dedup, index add).
#[derive(Args, Clone, Debug)]
#[command(next_help_heading = "Input")]
pub struct RecordArgs {
    /// How the input is cut into records, each a document: lines (default), NUL-terminated
    /// records, or JSON objects one per line.
    #[arg(long, value_enum, value_name = "KIND")]
    pub records: Option<super::RecordsArg>,

    /// With --records jsonl: the field holding the text: a top-level key, else a dotted path
    /// (meta.body) or a JSON Pointer (/meta/body).
    #[arg(long, value_name = "NAME", default_value = "text")]
    pub text_field: String,

    /// With --records jsonl: the field holding the id, named as --text-field is (default: the
    /// line number).
    #[arg(long, value_name = "NAME")]
    pub id_field: Option<String>,
}

impl RecordArgs {
    /// With --records, the one FILE of records among `paths` (`None`: stdin,
    /// or not records); several are an error whose advice ends with
    /// `joined`, the command that reads them joined.
    pub fn file(&self, paths: &[PathBuf], joined: &str) -> anyhow::Result<Option<PathBuf>> {
        if self.records.is_none() {
            return Ok(None);
        }
        match paths {
            [path] if !simdup::jobs::is_stdin(path) => Ok(Some(path.clone())),
            [_, _, ..] => anyhow::bail!(
                "--records reads one FILE or stdin; to read the records of several files, \
                 join them first (cat A B | {joined})"
            ),
            _ => Ok(None),
        }
    }

    /// The library's record options, records at most `max_bytes` long (the
    /// default when `None`); a field name that cannot be a path is an
    /// error before any record is read.
    pub fn to_options(&self, max_bytes: Option<u64>) -> simdup::Result<RecordOptions> {
        let defaults = RecordOptions::default();
        let options = RecordOptions {
            format: match self.records.unwrap_or(super::RecordsArg::Lines) {
                super::RecordsArg::Lines => RecordFormat::Lines,
                super::RecordsArg::Nul => RecordFormat::Nul,
                super::RecordsArg::Jsonl => RecordFormat::JsonLines,
            },
            text_field: self.text_field.clone(),
            id_field: self.id_field.clone(),
            max_record_bytes: max_bytes.map_or(defaults.max_record_bytes, |size| {
                usize::try_from(size).unwrap_or(usize::MAX)
            }),
        };
        options.validate()?;
        Ok(options)
    }

    /// Whether a field option was given (they apply to JSON Lines only).
    pub fn names_fields(&self) -> bool {
        self.id_field.is_some() || self.text_field != "text"
    }
}

fn parse_size_arg(text: &str) -> Result<u64, String> {
    simdup::input::parse_size(text).map_err(|error| error.to_string())
}

/// The most worker threads `-j` accepts, unless the machine has more
/// cores. The output is the same whatever the count, so threads beyond
/// the cores only add contention: on two busy cores a debug build took
/// 0.6 s to scan 18 small files with 256 threads, 10 s with 512 and 57 s
/// with 1024, and never returned once asked for 2^64 - 1. A fixed number (rather than a
/// multiple of the cores) keeps a command line valid on every machine of
/// up to 256 cores.
pub const MAX_THREADS: usize = 256;

/// Parses `-j/--threads`: 0 (one per core) up to [`MAX_THREADS`], or up
/// to the number of cores where there are more.
pub fn parse_threads(text: &str) -> Result<usize, String> {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let most = MAX_THREADS.max(cores);
    let too_many = || format!("at most {most} threads (0: one per core), got {text}");
    match text.parse::<usize>() {
        Ok(threads) if threads <= most => Ok(threads),
        Ok(_) => Err(too_many()),
        Err(error) if *error.kind() == std::num::IntErrorKind::PosOverflow => Err(too_many()),
        Err(error) => Err(format!("expected a number of threads: {error}")),
    }
}

/// The search method, as typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum MethodArg {
    /// Permuted block tables: every pair within k (default).
    Exact,
    /// Rotate, sort, compare neighbours: approximate (docs/SEARCH.md says when it pays).
    Rotate,
    /// All pairs: the reference, for small inputs.
    Brute,
    /// No radius: every pair at the threshold, by an exact join of the feature sets (reads every document again and holds its features while they are ranked: about 27 bytes a feature on real text).
    Join,
}

/// How pairs of two short texts are found, as typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ShortTextsArg {
    /// Exact join, unless too costly (then MinHash bands, unless they crowd or K is given to scan).
    Auto,
    /// Exact join, whatever it costs: every pair at the threshold.
    Join,
    /// Within K by their character-pair fingerprints, like other documents.
    Fingerprint,
    /// By their MinHash bands, without the join: expected recall 0.947 at 0.8, faster on long inputs.
    Bands,
}

impl ShortTextsArg {
    /// The library's value.
    pub fn search(self) -> simdup::jobs::scan::ShortTextSearch {
        use simdup::jobs::scan::ShortTextSearch;
        match self {
            ShortTextsArg::Auto => ShortTextSearch::Auto,
            ShortTextsArg::Join => ShortTextSearch::Join,
            ShortTextsArg::Fingerprint => ShortTextSearch::Fingerprint,
            ShortTextsArg::Bands => ShortTextSearch::Bands,
        }
    }
}

/// Options of the pair search.
#[derive(Args, Clone, Debug)]
#[command(next_help_heading = "Search")]
pub struct SearchArgs {
    /// Search radius: candidates differ in at most K bits, 0-32 (default: chosen by the cost model; 9 with --raw).
    #[arg(short = 'k', long, value_name = "K",
          value_parser = clap::value_parser!(u32).range(0..=i64::from(simdup::search::MAX_DISTANCE)))]
    pub max_distance: Option<u32>,

    /// How candidate pairs are found.
    #[arg(long, value_enum, default_value_t = MethodArg::Exact)]
    pub method: MethodArg,

    /// With --method rotate: neighbours compared after each sort [default: 8].
    #[arg(long, value_name = "W")]
    pub window: Option<usize>,

    /// List at most N pairs (counts and groups are always complete).
    #[arg(long, value_name = "N", default_value = defaults::MAX_PAIRS)]
    pub max_pairs: u64,

    /// Verify at most N candidate pairs of distinct fingerprints (memory: a few dozen bytes
    /// each; documents that share a fingerprint are compared whatever N); past it, a chosen
    /// radius narrows and a given -k is an error.
    #[arg(long, value_name = "N", default_value = defaults::MAX_CANDIDATES)]
    pub max_candidates: u64,

    /// Documents with fewer features are matched only by exact content.
    #[arg(long, value_name = "N", default_value = defaults::MIN_FEATURES)]
    pub min_features: u64,

    /// How pairs of two one-line texts (compared by character pairs) are found.
    #[arg(long, value_enum, value_name = "HOW", default_value_t = ShortTextsArg::Auto)]
    pub short_texts: ShortTextsArg,
}

impl SearchArgs {
    /// Whether pairs are found by the exact join (`--method join`).
    pub fn joins(&self) -> bool {
        self.method == MethodArg::Join
    }

    /// The method and window; `--window` without `--method rotate` is an
    /// error (it would be ignored).
    pub fn method(&self) -> simdup::Result<(Method, usize)> {
        if self.window.is_some() && self.method != MethodArg::Rotate {
            return Err(simdup::Error::Usage(
                "--window applies only to --method rotate".to_string(),
            ));
        }
        let method = match self.method {
            // The search of documents a declined join leaves.
            MethodArg::Exact | MethodArg::Join => Method::Exact,
            MethodArg::Rotate => Method::Rotate,
            MethodArg::Brute => Method::Brute,
        };
        Ok((
            method,
            self.window.unwrap_or(simdup::search::DEFAULT_WINDOW),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_are_bounded() {
        assert_eq!(parse_threads("0"), Ok(0));
        assert_eq!(parse_threads("256"), Ok(256));
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
        let most = MAX_THREADS.max(cores);
        let over = (most + 1).to_string();
        assert!(
            parse_threads(&over)
                .unwrap_err()
                .contains(&format!("at most {most}"))
        );
        for huge in ["18446744073709551615", "99999999999999999999999"] {
            assert!(
                parse_threads(huge).unwrap_err().contains("at most"),
                "{huge}"
            );
        }
        assert!(parse_threads("-1").is_err());
        assert!(parse_threads("many").is_err());
    }
}
