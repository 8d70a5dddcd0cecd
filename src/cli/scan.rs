//! `simdup scan`: the main job.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};

use super::Finished;
use super::args::{FeatureArgs, RecordArgs, SearchArgs, ShortTextsArg, WalkArgs};
use simdup::diag::Diagnostics;
use simdup::input::PathSeparator;
use simdup::jobs::scan::allowlist::Allowlist;
use simdup::jobs::scan::{GroupBy, Inputs, Mode, ScanOptions, baseline};
use simdup::report::baseline::Baseline;
use simdup::report::texts::{FILE_BYTES, Texts};
use simdup::report::{self, Format, Listing, Report, snippet};

/// How pairs form groups.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GroupByArg {
    /// Connected components of the pairs.
    Components,
    /// Each group led by its first member.
    First,
}

/// Output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// Aligned columns: distance, similarity, a, b.
    Table,
    /// One JSON document with version, params, stats, pairs and groups.
    Json,
    /// One JSON object per pair (or group) per line.
    Jsonl,
    /// CSV with a header line.
    Csv,
    /// SARIF 2.1.0 for code scanning: one result per pair, a location in each file.
    Sarif,
    /// GitHub Actions annotations: a ::warning in each file of each pair.
    Github,
    /// A Markdown heading and table, for $GITHUB_STEP_SUMMARY or a PR comment.
    Markdown,
    /// Groups as blocks of paths (or record ids), one per line, each block ending with a blank
    /// line: the output of fdupes and jdupes, for scripts that read it.
    Fdupes,
}

/// Arguments of `simdup scan`.
#[derive(Args, Debug)]
pub struct ScanArgs {
    /// Files and directories to scan; `-` reads records from stdin; with --records, one
    /// FILE of records.
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,

    #[command(flatten)]
    pub features: FeatureArgs,

    #[command(flatten)]
    pub walk: WalkArgs,

    /// Read the paths to scan from FILE (`-`: stdin), one per line.
    #[arg(long, value_name = "FILE", help_heading = "Input")]
    pub files_from: Option<PathBuf>,

    /// With --files-from: paths are NUL-separated (find -print0).
    #[arg(
        short = '0',
        long = "null",
        requires = "files_from",
        help_heading = "Input"
    )]
    pub null: bool,

    #[command(flatten)]
    pub record: RecordArgs,

    /// Search fingerprints saved by `simdup fingerprint` instead of reading documents (`-`: stdin).
    #[arg(long, value_name = "FILE", num_args = 1.., help_heading = "Input")]
    pub fingerprints: Vec<PathBuf>,

    /// Search the documents against the index FILE (`simdup index add`): only pairs with a
    /// document given here are reported.
    #[arg(long, value_name = "FILE", help_heading = "Input")]
    pub against: Option<PathBuf>,

    /// Reuse the fingerprints of files unchanged since the last scan with this cache FILE (same
    /// path, size, time and feature options) and store the new ones in it (an SQLite file).
    #[arg(long, value_name = "FILE", help_heading = "Input")]
    pub cache: Option<PathBuf>,

    /// Near-duplicates are pairs whose exact Jaccard is at least T (0-1).
    #[arg(short = 't', long, value_name = "T", alias = "min-jaccard",
          default_value = super::args::defaults::THRESHOLD, value_parser = parse_fraction,
          help_heading = "Near-duplicates")]
    pub threshold: f64,

    /// Report raw SimHash pairs within -k instead: fast, unverified.
    #[arg(long, help_heading = "Near-duplicates")]
    pub raw: bool,

    /// With --fingerprints: read the documents again and verify (raw by default there).
    #[arg(long, conflicts_with = "raw", help_heading = "Near-duplicates")]
    pub verify: bool,

    #[command(flatten)]
    pub search: SearchArgs,

    /// Output format.
    #[arg(long, value_enum, default_value_t = FormatArg::Table, help_heading = "Output")]
    pub format: FormatArg,

    /// Report groups instead of pairs.
    #[arg(long, help_heading = "Output")]
    pub groups: bool,

    /// How pairs form groups (--groups, fdupes, JSON): components joins documents through any
    /// chain of pairs; first puts each document in the group of the earliest group's first member
    /// it is a near-duplicate of, so every member is a near-duplicate of its group's first (what
    /// `simdup dedup` keeps and drops). Verified mode only.
    #[arg(long, value_enum, default_value_t = GroupByArg::Components, help_heading = "Output")]
    pub group_by: GroupByArg,

    /// With --format json or jsonl: add the text of each document (a_text and b_text of a pair,
    /// texts of a group); a file's is read again, its first 16 MiB at most.
    #[arg(long, help_heading = "Output")]
    pub show_text: bool,

    /// Exit with code 1 when near-duplicates are found (for CI); with --baseline, new ones only.
    #[arg(long, help_heading = "Output")]
    pub fail_on_duplicates: bool,

    /// Accept the pairs recorded in FILE: only new pairs are listed and fail the run.
    #[arg(long, value_name = "FILE", help_heading = "CI")]
    pub baseline: Option<PathBuf>,

    /// Record today's pairs in FILE (a baseline accepting all of them).
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with = "baseline",
        help_heading = "CI"
    )]
    pub write_baseline: Option<PathBuf>,

    /// With --baseline: rewrite it in place, without its stale entries and with today's paths
    /// and keys (new pairs are not added).
    #[arg(long, help_heading = "CI")]
    pub update_baseline: bool,

    /// Ignore simdup.toml and .simdup.toml (looked for up to the repository root).
    #[arg(long, help_heading = "CI")]
    pub no_config: bool,

    /// No summary and no progress bar on stderr (errors are still printed).
    #[arg(short, long, help_heading = "Output")]
    pub quiet: bool,

    /// Also name every skipped and empty input on stderr.
    #[arg(short, long, conflicts_with = "quiet", help_heading = "Output")]
    pub verbose: bool,

    /// Worker threads (default: one per core; at most 256, or one per core if more).
    #[arg(short = 'j', long, value_name = "N", default_value_t = 0, value_parser = super::args::parse_threads)]
    pub threads: usize,
}

fn parse_fraction(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(value) if (0.0..=1.0).contains(&value) => Ok(value),
        _ => Err(format!("expected a number from 0 to 1, got '{text}'")),
    }
}

/// Runs `simdup scan`.
pub fn run(
    args: ScanArgs,
    color: super::ColorArg,
    allowlist: Option<&Allowlist>,
) -> anyhow::Result<Finished> {
    super::set_threads(args.threads)?;
    if args.update_baseline && args.baseline.is_none() {
        anyhow::bail!(
            "--update-baseline needs a baseline (--baseline FILE, or baseline in simdup.toml)"
        );
    }
    let options = options(&args)?;
    let inputs = inputs(&args)?;
    let mut diag = Diagnostics::new(args.verbose);
    if matches!(inputs, Inputs::Records { file: None, .. }) && io::stdin().is_terminal() {
        diag.warn("reading records from the terminal; end them with Ctrl-D");
    }
    let mut report = simdup::jobs::scan::scan(&inputs, &options, &mut diag)?;
    if let Some(allowlist) = allowlist {
        allowlist.apply(&mut report);
    }
    // The fdupes format lists groups, which are always whole.
    let lists_groups = args.groups || args.format == FormatArg::Fdupes;
    if report.stats.pairs < report.stats.pairs_found && !lists_groups {
        diag.warn(format_args!(
            "listing {} of {} pairs (--max-pairs); --groups shows every group whole",
            report.stats.pairs, report.stats.pairs_found
        ));
    }
    baseline(&args, &options, &mut report, &mut diag)?;

    let format = match args.format {
        FormatArg::Table => Format::Table,
        FormatArg::Json => Format::Json,
        FormatArg::Jsonl => Format::Jsonl,
        FormatArg::Csv => Format::Csv,
        FormatArg::Sarif => Format::Sarif,
        FormatArg::Github => Format::Github,
        FormatArg::Markdown => Format::Markdown,
        FormatArg::Fdupes => Format::Fdupes,
    };
    let listing = if args.groups {
        Listing::Groups
    } else {
        Listing::Pairs
    };
    // Only what is listed: JSON lists the groups beside the pairs.
    let (pairs, groups) = match (format, listing) {
        (Format::Json, Listing::Pairs) => (true, true),
        (_, Listing::Pairs) => (true, false),
        (_, Listing::Groups) => (false, true),
    };
    if let Err(error) = report.keep_listed_texts(pairs, groups) {
        diag.error(format_args!(
            "cannot read back the records' texts for the report: {error}"
        ));
    }
    // Records' texts were kept while reading; files are read again.
    if args.show_text && !inputs.are_records() {
        report.texts = Texts::Files {
            max_bytes: args.walk.max_filesize.unwrap_or(FILE_BYTES).min(FILE_BYTES),
        };
    }
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let terminal = io::stdout().is_terminal();
    let paint = color.paint(terminal);
    if format == Format::Table {
        let columns = terminal
            .then(|| terminal_size::terminal_size().map(|(width, _)| usize::from(width.0)))
            .flatten();
        report::write_table(&report, listing, paint, columns, &mut out)?;
    } else if format == Format::Sarif {
        // Each result points at the first passage its two files share.
        let regions = simdup::jobs::scan::regions::regions(&report, &options.features);
        report::sarif::write_with_regions(&report, &regions, &mut out)?;
    } else {
        report::write(&report, format, listing, paint, &mut out)?;
    }
    out.flush()?;
    if !args.quiet {
        let paint = color.paint(io::stderr().is_terminal());
        report::write_summary(&report, paint, &mut io::stderr().lock())?;
        let chained = report.groups.iter().filter(|group| group.chained).count();
        if lists_groups && chained > 0 {
            simdup::diag::print_stderr(format_args!(
                "simdup: {chained} of {} groups hold documents that are near-duplicates of \
                 other members but not of the group's first; --group-by first keeps every \
                 member a near-duplicate of its group's first",
                report.groups.len()
            ));
        }
    }
    let found = match (&report.baseline, &args.write_baseline) {
        (Some(baseline), _) => baseline.new > 0,
        // The baseline written accepts every pair it holds: only those
        // past --max-pairs, not written, remain.
        (None, Some(_)) => report.stats.pairs_found > report.pairs.len() as u64,
        (None, None) => report.stats.pairs_found > 0,
    };
    // A run that compared nothing must not look like a clean one in CI.
    let inputs = &report.stats.inputs;
    let saw_nothing = inputs.fingerprinted + inputs.too_short == 0;
    if saw_nothing {
        diag.warn(format_args!(
            "no document to compare ({} seen): a wrong path, or everything skipped{}",
            if inputs.seen == 1 {
                "1 input".to_string()
            } else {
                format!("{} inputs", inputs.seen)
            },
            if args.fail_on_duplicates {
                "; --fail-on-duplicates fails the run (exit 2)"
            } else {
                ""
            }
        ));
    }
    Ok(Finished {
        errored: diag.errored() || (saw_nothing && args.fail_on_duplicates),
        failed_on_duplicates: found && args.fail_on_duplicates,
    })
}

/// Baselines: keys for the pairs' documents when anything needs them;
/// `--write-baseline` records the pairs; `--baseline` keeps only the new
/// ones in the report (and `--update-baseline` rewrites it).
fn baseline(
    args: &ScanArgs,
    options: &ScanOptions,
    report: &mut Report,
    diag: &mut Diagnostics,
) -> anyhow::Result<()> {
    if !needs_keys(args) {
        return Ok(());
    }
    let required = args.baseline.is_some() || args.write_baseline.is_some();
    report.keys = baseline::document_keys(report, &options.features, required, diag);
    if report.stats.pairs < report.stats.pairs_found
        && (args.baseline.is_some() || args.write_baseline.is_some())
    {
        diag.warn(format_args!(
            "only the {} listed pairs are compared with or written to the baseline \
             (--max-pairs); the others count as new",
            report.stats.pairs
        ));
    }
    if let Some(file) = &args.write_baseline {
        write_baseline(file, &baseline::from_report(report, &options.features))?;
    }
    let Some(file) = &args.baseline else {
        return Ok(());
    };
    let recorded = read_baseline(file)?;
    let by_simhash = recorded.digest() == Some(options.features.digest().as_str());
    if !by_simhash && !recorded.entries.is_empty() {
        diag.warn(format_args!(
            "{} was written with other feature options ({}); its pairs are matched by \
             content only (rewrite it with --write-baseline)",
            file.display(),
            recorded.features
        ));
    }
    let comparison = baseline::compare(&recorded, report, by_simhash);
    let refreshed = args
        .update_baseline
        .then(|| baseline::refreshed(report, &comparison, &options.features));
    baseline::apply(report, &recorded, &comparison, file.display().to_string());
    if refreshed.is_some() && diag.errored() {
        // An input that could not be read would drop its entries.
        diag.warn(format_args!(
            "{} not updated: this run had errors",
            file.display()
        ));
    } else if let Some(refreshed) = refreshed {
        write_baseline(file, &refreshed)?;
        if let Some(summary) = report.baseline.as_mut() {
            summary.updated = true;
        }
    }
    Ok(())
}

/// Whether the documents of the pairs need their baseline keys (SARIF
/// fingerprints are made of them).
fn needs_keys(args: &ScanArgs) -> bool {
    args.baseline.is_some() || args.write_baseline.is_some() || args.format == FormatArg::Sarif
}

fn read_baseline(file: &Path) -> anyhow::Result<Baseline> {
    let source = file.display().to_string();
    let opened = std::fs::File::open(file)
        .map_err(|error| anyhow::anyhow!("cannot read the baseline {source}: {error}"))?;
    Ok(Baseline::read(io::BufReader::new(opened), &source)?)
}

/// Writes a baseline into `file` as a shell redirection would, but never
/// leaves half a baseline in a regular file: a symbolic link is followed
/// (the file it names is written, the link stays); a regular file is
/// replaced through a temporary file beside it and keeps its permissions;
/// anything else (a FIFO, a device) is written in place, as renaming over
/// it would replace it instead.
fn write_baseline(file: &Path, baseline: &Baseline) -> anyhow::Result<()> {
    let failed = |error: &dyn std::fmt::Display| {
        anyhow::anyhow!("cannot write the baseline {}: {error}", file.display())
    };
    let target = resolve_links(file).map_err(|e| failed(&e))?;
    let existing = match std::fs::metadata(&target) {
        Ok(metadata) => Some(metadata),
        Err(error) if error.kind() == io::ErrorKind::NotFound => None,
        Err(error) => return Err(failed(&error)),
    };
    if existing
        .as_ref()
        .is_some_and(|metadata| !metadata.is_file())
    {
        // A directory fails to open here, as it should.
        let opened = std::fs::OpenOptions::new()
            .write(true)
            .open(&target)
            .map_err(|e| failed(&e))?;
        let mut out = BufWriter::new(opened);
        baseline.write(&mut out).map_err(|e| failed(&e))?;
        out.flush().map_err(|e| failed(&e))?;
        return Ok(());
    }
    let dir = match target.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    // A new baseline gets the mode a redirection would give it (0666 less
    // the umask), not the temporary file's 0600.
    #[cfg(unix)]
    if existing.is_none() {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut temporary = builder.tempfile_in(dir).map_err(|e| failed(&e))?;
    {
        let mut out = BufWriter::new(temporary.as_file_mut());
        baseline.write(&mut out).map_err(|e| failed(&e))?;
        out.flush().map_err(|e| failed(&e))?;
    }
    if let Some(metadata) = &existing {
        temporary
            .as_file()
            .set_permissions(metadata.permissions())
            .map_err(|e| failed(&e))?;
    }
    temporary.persist(&target).map_err(|e| failed(&e.error))?;
    Ok(())
}

/// The path `file` names once its symbolic links are followed, the last
/// one possibly dangling (writing then creates the file it names).
fn resolve_links(file: &Path) -> io::Result<PathBuf> {
    // As many links as Linux follows before giving up with ELOOP.
    const MAX_LINKS: usize = 40;
    let mut path = file.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&path) {
            Ok(metadata) if metadata.file_type().is_symlink() => {
                // A relative target is relative to the link's directory;
                // joining an absolute one yields it unchanged.
                let target = std::fs::read_link(&path)?;
                path = match path.parent() {
                    Some(parent) => parent.join(target),
                    None => target,
                };
            }
            _ => return Ok(path),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// The library's scan options; options that cannot apply are errors.
fn options(args: &ScanArgs) -> anyhow::Result<ScanOptions> {
    let (method, window) = args.search.method()?;
    // Saved fingerprints need not have documents at hand: raw unless asked.
    let raw = args.raw || (!args.fingerprints.is_empty() && !args.verify);
    let unraw = if args.fingerprints.is_empty() {
        "drop --raw"
    } else {
        "drop --raw or add --verify"
    };
    if raw && threshold_given(args) {
        anyhow::bail!("--threshold applies only to verified near-duplicates; {unraw}");
    }
    if raw && args.group_by != GroupByArg::Components {
        anyhow::bail!(
            "--group-by first needs verified near-duplicates (raw pairs form components); {unraw}"
        );
    }
    if raw && args.search.max_candidates.to_string() != super::args::defaults::MAX_CANDIDATES {
        anyhow::bail!("--max-candidates applies only to verified near-duplicates; {unraw}");
    }
    if raw && args.search.joins() {
        anyhow::bail!("--method join finds verified near-duplicates by exact Jaccard; {unraw}");
    }
    if args.search.short_texts != ShortTextsArg::Auto {
        if raw {
            anyhow::bail!("--short-texts applies only to verified near-duplicates; {unraw}");
        }
        if !args.fingerprints.is_empty() {
            anyhow::bail!(
                "--short-texts does not apply to --fingerprints: saved fingerprints are never \
                 compared as short texts"
            );
        }
        if !args.features.short_texts() {
            anyhow::bail!(
                "--short-texts applies to short texts compared by character pairs, which a \
                 chosen --shingle (on the command line or in simdup.toml) turns off"
            );
        }
    }
    Ok(ScanOptions {
        features: args.features.to_options()?,
        walk: args.walk.to_options()?,
        mode: if raw {
            Mode::Raw
        } else {
            Mode::Verified {
                threshold: args.threshold,
                group_by: match args.group_by {
                    GroupByArg::Components => GroupBy::Components,
                    GroupByArg::First => GroupBy::First,
                },
            }
        },
        max_distance: args.search.max_distance,
        method,
        join: args.search.joins(),
        window,
        max_pairs: args.search.max_pairs,
        max_candidates: args.search.max_candidates,
        min_features: args.search.min_features,
        short_texts: args.features.short_texts(),
        short_text_search: args.search.short_texts.search(),
        progress: !args.quiet,
        cache: args.cache.clone(),
        record_texts: record_texts(args),
    })
}

/// How much of each record's text the report needs: whole texts for
/// --show-text, a snippet's worth for the table, else none.
fn record_texts(args: &ScanArgs) -> Option<usize> {
    if args.show_text {
        Some(usize::MAX)
    } else if args.format == FormatArg::Table && io::stdout().is_terminal() {
        Some(snippet::KEPT_BYTES)
    } else if args.format == FormatArg::Table {
        Some(snippet::PIPED_KEPT_BYTES)
    } else {
        None
    }
}

/// Whether --threshold was given a value other than its default.
fn threshold_given(args: &ScanArgs) -> bool {
    args.threshold.to_string() != super::args::defaults::THRESHOLD
}

/// Chooses the input mode; conflicting modes, and options the mode would
/// ignore, are errors.
fn inputs(args: &ScanArgs) -> anyhow::Result<Inputs> {
    let new = new_inputs(args)?;
    match &args.against {
        Some(index)
            if matches!(
                new,
                Inputs::Paths(_) | Inputs::FilesFrom { .. } | Inputs::Records { .. }
            ) =>
        {
            Ok(Inputs::Against {
                index: index.clone(),
                new: Box::new(new),
            })
        }
        Some(_) => anyhow::bail!(
            "--against searches files (PATHs or --files-from) or records against the index, \
             not saved fingerprints"
        ),
        None => Ok(new),
    }
}

/// Options of another input mode, which this one would ignore, are
/// errors.
fn misplaced(args: &ScanArgs, stdin_records: bool) -> anyhow::Result<()> {
    let fingerprints = !args.fingerprints.is_empty();
    let records = args.record.records.is_some() || stdin_records;
    let jsonl = args.record.records == Some(super::RecordsArg::Jsonl);
    if args.record.names_fields() && !jsonl {
        anyhow::bail!("--id-field and --text-field apply only to --records jsonl");
    }
    if !records && !fingerprints {
        return Ok(());
    }
    if args.cache.is_some() {
        anyhow::bail!(
            "--cache applies to files (PATHs or --files-from), not to records or saved \
             fingerprints"
        );
    }
    if args.walk.walks() {
        anyhow::bail!(
            "--hidden, --follow, --glob, --binary and --no-ignore apply to files (PATHs or \
             --files-from), not to records or saved fingerprints"
        );
    }
    // Saved fingerprints verified are read again from their files, through
    // the transform.
    if records && args.features.transform.is_some() {
        anyhow::bail!("--transform applies to files (PATHs or --files-from), not to records");
    }
    Ok(())
}

/// The inputs as given, before `--against`.
fn new_inputs(args: &ScanArgs) -> anyhow::Result<Inputs> {
    let stdin_records = args.paths.len() == 1 && simdup::jobs::is_stdin(&args.paths[0]);
    if !stdin_records && args.paths.iter().any(|path| simdup::jobs::is_stdin(path)) {
        anyhow::bail!(
            "'-' reads records from stdin and cannot be combined with other PATHs; \
             to mix a stream with files, save it to a file first"
        );
    }
    if !args.fingerprints.is_empty() && !args.verify && !args.features.are_defaults() {
        anyhow::bail!(
            "feature options do not apply to --fingerprints: saved fingerprints keep the \
             options they were made with (add --verify to read the documents again with \
             the options given)"
        );
    }
    // `--records` with one FILE reads its records, as `< FILE` would.
    let record_file = args.record.file(&args.paths, "simdup scan --records ...")?;
    let reads_files = args.record.records.is_none() && !stdin_records;
    if args.show_text && !matches!(args.format, FormatArg::Json | FormatArg::Jsonl) {
        anyhow::bail!("--show-text applies to --format json and jsonl");
    }
    if !reads_files && (needs_keys(args) || args.format == FormatArg::Github) {
        anyhow::bail!(
            "baselines, --format sarif and --format github need documents read from files, \
             not records"
        );
    }
    let modes = [
        args.files_from.is_some(),
        args.record.records.is_some() || stdin_records,
        !args.fingerprints.is_empty(),
    ];
    if modes.iter().filter(|&&mode| mode).count() > 1 {
        anyhow::bail!("choose one input: PATHs, --files-from, --records (or -), or --fingerprints");
    }
    if (args.files_from.is_some() || !args.fingerprints.is_empty())
        && !args.paths.is_empty()
        && !stdin_records
    {
        anyhow::bail!("PATH arguments cannot be combined with --files-from or --fingerprints");
    }
    misplaced(args, stdin_records)?;
    if let Some(list) = &args.files_from {
        let separator = if args.null {
            PathSeparator::Nul
        } else {
            PathSeparator::Newline
        };
        return Ok(Inputs::FilesFrom {
            list: list.clone(),
            separator,
        });
    }
    if !args.fingerprints.is_empty() {
        return Ok(Inputs::Fingerprints(args.fingerprints.clone()));
    }
    if args.record.records.is_some() || stdin_records {
        let options = args.record.to_options(args.walk.max_filesize)?;
        return Ok(Inputs::Records {
            options,
            file: record_file,
        });
    }
    Ok(Inputs::Paths(super::default_paths(args.paths.clone())))
}
