//! `simdup dedup`: write the records that are not near-duplicates of an
//! earlier one.

use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::Finished;
use super::args::{FeatureArgs, RecordArgs, WalkArgs};
use simdup::diag::Diagnostics;
use simdup::input::{PathSeparator, RecordFormat, RecordOptions};
use simdup::jobs::dedup::{
    DedupOptions, DedupStats, Files, Keep, Output, RecordName, short_join::STAGE_CAPS,
};
use simdup::verify::bands::{BANDS, ROWS};

/// Which copy survives, as typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum KeepArg {
    /// The first in input order; streams.
    First,
    /// The last; reads the whole input first.
    Last,
    /// The longest text (the first of equals); reads the whole input first.
    Longest,
    /// The shortest text (the first of equals); reads the whole input first.
    Shortest,
}

/// Arguments of `simdup dedup`.
#[derive(Args, Debug)]
pub struct DedupArgs {
    /// One FILE: its records (`-` or none: stdin's). A directory or several PATHs: the files
    /// themselves, whose paths are printed.
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,

    #[command(flatten)]
    pub features: FeatureArgs,

    #[command(flatten)]
    pub walk: WalkArgs,

    /// Deduplicate the files listed in FILE (`-`: stdin), one per line, and print the paths to
    /// keep.
    #[arg(long, value_name = "FILE", help_heading = "Input")]
    pub files_from: Option<PathBuf>,

    /// With files: paths are NUL-separated, in --files-from and in the output (xargs -0).
    #[arg(short = '0', long = "null", help_heading = "Input")]
    pub null: bool,

    #[command(flatten)]
    pub record: RecordArgs,

    /// Near-duplicates are pairs whose exact Jaccard is at least T (above 0, at most 1: at 0
    /// every record would be a near-duplicate of the first).
    #[arg(short = 't', long, value_name = "T", alias = "min-jaccard",
          default_value = super::args::defaults::THRESHOLD, value_parser = parse_threshold,
          help_heading = "Near-duplicates")]
    pub threshold: f64,

    /// Search radius: candidates differ in at most K bits, 0-32 (default: chosen by the scan's
    /// cost model as the input grows, the scan's for up to 20,000 records; for short texts
    /// searched by fingerprint, at least 6). Wider finds more near-copies and costs more.
    #[arg(short = 'k', long, value_name = "K",
          value_parser = clap::value_parser!(u32).range(0..=i64::from(simdup::search::MAX_DISTANCE)),
          help_heading = "Near-duplicates")]
    pub max_distance: Option<u32>,

    /// Records with fewer features are matched only by exact content.
    #[arg(long, value_name = "N", default_value = super::args::defaults::MIN_FEATURES,
          help_heading = "Near-duplicates")]
    pub min_features: u64,

    /// How kept one-line texts (compared by character pairs) are found: auto joins them
    /// exactly until the join costs too much, then finds those that share a MinHash band
    /// (expected recall 0.947 at Jaccard 0.8, 0.9996 at 0.9).
    #[arg(long, value_enum, value_name = "HOW", default_value_t = super::args::ShortTextsArg::Auto,
          help_heading = "Near-duplicates")]
    pub short_texts: super::args::ShortTextsArg,

    /// Which record of a set of near-copies survives. Any but `first` needs the whole input:
    /// nothing is written until it ends, and every record is spooled (to a temporary file past
    /// 32 MiB) with about 130 bytes each in memory.
    #[arg(long, value_enum, value_name = "WHICH", default_value_t = KeepArg::First,
          help_heading = "Near-duplicates")]
    pub keep: KeepArg,

    /// Print the removed records (or paths) instead of the kept ones.
    #[arg(long, help_heading = "Output")]
    pub print_duplicates: bool,

    /// Write one JSON line per removed record to FILE: its line (and id), the kept record it
    /// matched, and their Jaccard.
    #[arg(long, value_name = "FILE", help_heading = "Output")]
    pub dropped: Option<PathBuf>,

    /// Stop at the first malformed record (default: report it and go on; exit code 2 at the
    /// end).
    #[arg(long, help_heading = "Output")]
    pub strict: bool,

    /// No summary on stderr (errors are still printed).
    #[arg(short, long, help_heading = "Output")]
    pub quiet: bool,

    /// With files: also name every skipped file on stderr.
    #[arg(short, long, conflicts_with = "quiet", help_heading = "Output")]
    pub verbose: bool,

    /// Worker threads for fingerprinting (default: one per core; at most 256, or one per core
    /// if more); the output is the same whatever the number.
    #[arg(short = 'j', long, value_name = "N", default_value_t = 0, value_parser = super::args::parse_threads)]
    pub threads: usize,
}

fn parse_threshold(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(value) if value > 0.0 && value <= 1.0 => Ok(value),
        _ => Err(format!(
            "expected a number above 0 and at most 1, got '{text}' (at 0 every record would be a \
             near-duplicate of the first)"
        )),
    }
}

/// Runs `simdup dedup`.
pub fn run(args: DedupArgs) -> anyhow::Result<Finished> {
    super::set_threads(args.threads)?;
    let files = files(&args)?;
    let records = record_options(&args, files.is_some())?;
    if args.short_texts != super::args::ShortTextsArg::Auto && !args.features.short_texts() {
        anyhow::bail!(
            "--short-texts applies to short texts compared by character pairs, which a chosen \
             --shingle turns off"
        );
    }
    let options = DedupOptions {
        features: args.features.to_options()?,
        threshold: args.threshold,
        max_distance: args.max_distance,
        min_features: args.min_features,
        short_texts: args.features.short_texts(),
        strict: args.strict,
        keep: match args.keep {
            KeepArg::First => Keep::First,
            KeepArg::Last => Keep::Last,
            KeepArg::Longest => Keep::Longest,
            KeepArg::Shortest => Keep::Shortest,
        },
        name_kept: args.dropped.is_some(),
        short_text_search: args.short_texts.search(),
        ..DedupOptions::default()
    };
    let walk = args.walk.to_options()?;
    if let Some(dropped) = &args.dropped
        && let Some(input) =
            (args.paths.iter().chain(&args.files_from)).find(|path| same_file(path, dropped))
    {
        anyhow::bail!(
            "--dropped {} is the input {}: it would be emptied before it is read",
            dropped.display(),
            input.display()
        );
    }
    let dropped = match &args.dropped {
        Some(path) => Some(BufWriter::new(File::create(path).map_err(|error| {
            anyhow::anyhow!("cannot create {}: {error}", path.display())
        })?)),
        None => None,
    };
    let stdout = io::stdout();
    let mut output = Writer {
        out: BufWriter::with_capacity(1 << 16, stdout.lock()),
        delimiter: match (&files, records.format) {
            (Some(_), _) if args.null => b'\0',
            (Some(_), _) => b'\n',
            (None, RecordFormat::Nul) => b'\0',
            (None, RecordFormat::Lines | RecordFormat::JsonLines) => b'\n',
        },
        duplicates: args.print_duplicates,
        files: files.is_some(),
        dropped,
        dropped_name: args
            .dropped
            .as_ref()
            .map(|path| path.display().to_string())
            .unwrap_or_default(),
    };
    let mut diag = Diagnostics::new(args.verbose);
    let input = args
        .paths
        .first()
        .filter(|path| !simdup::jobs::is_stdin(path));
    let stats = match (&files, input) {
        (Some(files), _) => {
            simdup::jobs::dedup::dedup_files(files, &walk, &options, &mut output, &mut diag)?
        }
        (None, input) => {
            if input.is_none() && io::stdin().is_terminal() {
                diag.warn("reading records from the terminal; end them with Ctrl-D");
            }
            simdup::jobs::dedup::dedup_path(
                input.map(|path| path.as_path()),
                &records,
                &options,
                &mut output,
                &mut diag,
            )?
        }
    };
    if !args.quiet {
        let noun = if files.is_some() { "file" } else { "record" };
        // Files that could not be read (records that could not are the
        // malformed ones, counted apart), then the skipped ones.
        let unreadable = (files.is_some() && diag.tally.errors > 0)
            .then(|| format!("{} unreadable", diag.tally.errors));
        let passed_over: Vec<String> = unreadable
            .into_iter()
            .chain(diag.tally.skipped_summary())
            .collect();
        let skipped = (!passed_over.is_empty()).then(|| passed_over.join("; "));
        write_summary(
            &stats,
            skipped.as_deref(),
            args.threshold,
            noun,
            &mut io::stderr().lock(),
        )?;
    }
    Ok(Finished::ran(diag.errored()))
}

/// Whether two paths name one existing file.
fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (std::fs::metadata(a), std::fs::metadata(b)) {
            (Ok(a), Ok(b)) => (a.dev(), a.ino()) == (b.dev(), b.ino()),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        std::fs::canonicalize(a)
            .ok()
            .is_some_and(|a| std::fs::canonicalize(b).ok() == Some(a))
    }
}

/// Files mode (`None`: records): --files-from, several PATHs or a
/// directory.
fn files(args: &DedupArgs) -> anyhow::Result<Option<Files>> {
    if args.paths.len() > 1 && args.paths.iter().any(|path| simdup::jobs::is_stdin(path)) {
        anyhow::bail!("'-' reads records from stdin and cannot be combined with other PATHs");
    }
    let files = if let Some(list) = &args.files_from {
        if !args.paths.is_empty() {
            anyhow::bail!("PATH arguments cannot be combined with --files-from");
        }
        Some(Files::FilesFrom {
            list: list.clone(),
            separator: if args.null {
                PathSeparator::Nul
            } else {
                PathSeparator::Newline
            },
        })
    } else if args.paths.len() > 1 || args.paths.iter().any(|path| path.is_dir()) {
        Some(Files::Paths(args.paths.clone()))
    } else {
        None
    };
    if files.is_some() && args.record.records.is_some() {
        anyhow::bail!(
            "--records applies to one FILE or stdin; a directory, several PATHs or \
             --files-from deduplicate files"
        );
    }
    if files.is_some() && args.strict {
        anyhow::bail!(
            "--strict applies to records (one FILE or stdin), not to files (a directory, \
             several PATHs or --files-from)"
        );
    }
    if files.is_none() {
        if args.null {
            anyhow::bail!("-0 applies to files; NUL-separated records are --records nul");
        }
        if args.walk.walks() {
            anyhow::bail!(
                "--hidden, --follow, --glob, --binary and --no-ignore apply to files (a \
                 directory, several PATHs or --files-from), not to records"
            );
        }
        if args.verbose {
            anyhow::bail!(
                "-v applies to files (a directory, several PATHs or --files-from), not to \
                 records"
            );
        }
        if args.features.transform.is_some() {
            anyhow::bail!(
                "--transform applies to files (a directory, several PATHs or --files-from), \
                 not to records"
            );
        }
    }
    Ok(files)
}

/// How records are read; field options without JSON Lines are errors.
fn record_options(args: &DedupArgs, files: bool) -> anyhow::Result<RecordOptions> {
    let options = args.record.to_options(args.walk.max_filesize)?;
    if (files || options.format != RecordFormat::JsonLines) && args.record.names_fields() {
        anyhow::bail!("--id-field and --text-field apply only to --records jsonl");
    }
    Ok(options)
}

/// Writes kept records to stdout and removed ones to the `--dropped` file.
struct Writer<W: Write> {
    out: W,
    delimiter: u8,
    /// Print the dropped records, not the kept ones.
    duplicates: bool,
    /// Records are files: `--dropped` names paths.
    files: bool,
    dropped: Option<BufWriter<File>>,
    dropped_name: String,
}

impl<W: Write> Output for Writer<W> {
    fn kept(&mut self, raw: &[u8]) -> simdup::Result<()> {
        if self.duplicates {
            return Ok(());
        }
        self.write(raw)
    }

    fn dropped(
        &mut self,
        raw: &[u8],
        record: &RecordName,
        kept: &RecordName,
        jaccard: f64,
    ) -> simdup::Result<()> {
        if self.duplicates {
            self.write(raw)?;
        }
        let Some(file) = self.dropped.as_mut() else {
            return Ok(());
        };
        let none = String::new();
        let mut line = if self.files {
            format!(
                "{{\"path\":{},\"kept_path\":{}",
                json_string(record.id.as_ref().unwrap_or(&none)),
                json_string(kept.id.as_ref().unwrap_or(&none))
            )
        } else {
            let mut line = format!("{{\"line\":{}", record.line);
            if let Some(id) = &record.id {
                line += &format!(",\"id\":{}", json_string(id));
            }
            line += &format!(",\"kept_line\":{}", kept.line);
            if let Some(id) = &kept.id {
                line += &format!(",\"kept_id\":{}", json_string(id));
            }
            line
        };
        line += &format!(",\"jaccard\":{}}}\n", serde_json::Value::from(jaccard));
        file.write_all(line.as_bytes())
            .map_err(|error| simdup::Error::io_named(&self.dropped_name, error))
    }

    fn flush(&mut self) -> simdup::Result<()> {
        self.out.flush().map_err(stdout_error)?;
        if let Some(file) = self.dropped.as_mut() {
            file.flush()
                .map_err(|error| simdup::Error::io_named(&self.dropped_name, error))?;
        }
        Ok(())
    }
}

impl<W: Write> Writer<W> {
    /// Writes one record and its delimiter to stdout.
    fn write(&mut self, raw: &[u8]) -> simdup::Result<()> {
        self.out
            .write_all(raw)
            .and_then(|()| self.out.write_all(&[self.delimiter]))
            .map_err(stdout_error)
    }
}

/// A string as a JSON value.
fn json_string(text: &str) -> String {
    serde_json::Value::from(text).to_string()
}

fn stdout_error(error: io::Error) -> simdup::Error {
    simdup::Error::io_named("stdout", error)
}

/// The summary on stderr: what became of every record (`skipped`: the
/// files passed over, as scan's summary says them), and the rule.
fn write_summary(
    stats: &DedupStats,
    skipped: Option<&str>,
    threshold: f64,
    noun: &str,
    out: &mut impl Write,
) -> io::Result<()> {
    write!(
        out,
        "simdup: {} read: {} kept, {} dropped",
        counted(stats.read, noun),
        stats.kept,
        stats.dropped
    )?;
    if stats.malformed > 0 {
        write!(out, ", {} malformed", stats.malformed)?;
    }
    if let Some(skipped) = skipped {
        write!(out, "; {skipped}")?;
    }
    writeln!(out)?;
    let megabytes = stats.bytes as f64 / 1e6;
    let rate = if stats.seconds > 0.0 {
        megabytes / stats.seconds
    } else {
        0.0
    };
    let k = stats.max_distance;
    let recall = |k| simdup::jobs::scan::expected_recall(threshold, k);
    // The radius of the records that are not short texts, narrowed after
    // `searched` of them.
    let within = |searched: &dyn Fn(u64) -> String| match stats.narrowed {
        None => format!(
            "within k = {k} (expected recall {:.3} at the threshold)",
            stats.expected_recall
        ),
        Some((first, from)) => format!(
            "within k = {first} (expected recall {:.3} at the threshold), narrowed by the cost \
             model to k = {k} ({:.3}) after {}",
            recall(first),
            stats.expected_recall,
            searched(from.saturating_sub(1))
        ),
    };
    let chars = stats.chars_distance;
    let fingerprints = format!(
        "within k = {chars} (expected recall {:.3} at the threshold)",
        recall(chars)
    );
    let chars_within = if stats.short_texts_by_bands {
        let bands = format!(
            "by MinHash bands ({BANDS} of {ROWS}: expected recall {:.3} at the threshold)",
            simdup::verify::bands::expected_recall(threshold)
        );
        match stats.bands_ended {
            Some(end) => format!("{bands} to {end}, then {fingerprints}"),
            None => bands,
        }
    } else {
        fingerprints
    };
    let short = format!(
        "short texts {}",
        short_text_search(&stats.join_stage_ends, stats.bands_ended, &chars_within)
    );
    let mixed = stats.mixed_distance;
    let rule = match (stats.short_texts, stats.long_texts) {
        (0, _) => within(&|count| counted(count, noun)),
        (_, 0) => short,
        _ => format!(
            "{short}, others {}, short texts against others within k = {mixed} \
             (expected recall {:.3})",
            within(&|count| format!("{count} of them")),
            recall(mixed)
        ),
    };
    writeln!(
        out,
        "simdup: {megabytes:.1} MB in {:.2} s ({rate:.1} MB/s); Jaccard >= {threshold}, {rule}; \
         {} verified",
        stats.seconds,
        counted(stats.candidates, "candidate"),
    )
}

/// How short texts were searched: by the exact join for the first
/// `stage_ends[0]`, then within k (`within`) and by each later stage of
/// the join while it lasted (`stage_ends`: how many had been searched when
/// each stage ended; the later stages start where the bands ended, if
/// they came between).
fn short_text_search(stage_ends: &[u64], bands_ended: Option<u64>, within: &str) -> String {
    let Some(&exact_end) = stage_ends.first() else {
        return "every pair (exact join)".to_string();
    };
    let mut how = within.to_string();
    for (stage, &cap) in STAGE_CAPS.iter().enumerate().skip(1) {
        let Some(&from) = stage_ends.get(stage - 1) else {
            break;
        };
        let from = from.max(bands_ended.unwrap_or(0));
        let to = stage_ends.get(stage).copied();
        if to.is_some_and(|to| to <= from) {
            continue; // it searched none
        }
        match cap {
            1 => how.push_str(" and by a join on their rarest character pair"),
            _ => how.push_str(&format!(
                " and by a join on their rarest {cap} character pairs"
            )),
        }
        if let Some(to) = to {
            how.push_str(&format!(" to {to}"));
        }
    }
    if exact_end == 0 {
        return how;
    }
    format!("every pair for the first {exact_end}, then {how} (the exact join cost too much)")
}

/// `1 record`, `2 records`.
fn counted(count: u64, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(stats: &DedupStats) -> String {
        let mut out = Vec::new();
        write_summary(stats, None, 0.8, "record", &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn the_summary_says_how_each_kind_of_record_was_searched() {
        let mut stats = DedupStats {
            read: 10,
            kept: 8,
            dropped: 2,
            max_distance: 20,
            expected_recall: 1.0,
            chars_distance: 8,
            ..DedupStats::default()
        };
        // Long texts only.
        stats.long_texts = 10;
        let text = summary(&stats);
        assert!(
            text.starts_with("simdup: 10 records read: 8 kept, 2 dropped\n"),
            "{text}"
        );
        assert!(
            text.contains("Jaccard >= 0.8, within k = 20 (expected recall 1.000"),
            "{text}"
        );
        // Narrowed: the first radius, the last, and after how many.
        stats.max_distance = 11;
        stats.expected_recall = 0.743;
        stats.narrowed = Some((20, 65_537));
        let text = summary(&stats);
        assert!(
            text.contains(
                "within k = 20 (expected recall 1.000 at the threshold), narrowed by the cost \
                 model to k = 11 (0.743) after 65536 records"
            ),
            "{text}"
        );
        // Short texts only, every stage of their join given up: no word
        // about the others.
        let short = DedupStats {
            short_texts: 10,
            long_texts: 0,
            join_stage_ends: vec![4, 9],
            ..stats.clone()
        };
        let text = summary(&short);
        assert!(
            text.contains(
                "short texts every pair for the first 4, then within k = 8 (expected recall 0.351 \
                 at the threshold) and by a join on their rarest character pair to 9 (the exact \
                 join cost too much);"
            ),
            "{text}"
        );
        // Past the exact join, by MinHash bands.
        let bands = DedupStats {
            join_stage_ends: vec![4, 4],
            short_texts_by_bands: true,
            ..short.clone()
        };
        let text = summary(&bands);
        assert!(
            text.contains(
                "short texts every pair for the first 4, then by MinHash bands (16 of 8: expected \
                 recall 0.947 at the threshold) (the exact join cost too much);"
            ),
            "{text}"
        );
        // The bands given up too, for the join on the rarest pair, which
        // lasted.
        let crowded = DedupStats {
            join_stage_ends: vec![4],
            bands_ended: Some(7),
            ..bands.clone()
        };
        let text = summary(&crowded);
        assert!(
            text.contains(
                "short texts every pair for the first 4, then by MinHash bands (16 of 8: expected \
                 recall 0.947 at the threshold) to 7, then within k = 8 (expected recall 0.351 at \
                 the threshold) and by a join on their rarest character pair (the exact join cost \
                 too much);"
            ),
            "{text}"
        );
        // ... and that join given up too.
        let more = DedupStats {
            join_stage_ends: vec![4, 9],
            ..crowded.clone()
        };
        let text = summary(&more);
        assert!(
            text.contains(
                "to 7, then within k = 8 (expected recall 0.351 at the threshold) and by a join \
                 on their rarest character pair to 9 (the exact join cost too much);"
            ),
            "{text}"
        );
        // ... at once: it searched none.
        let at_once = DedupStats {
            join_stage_ends: vec![4, 7],
            ..crowded.clone()
        };
        let text = summary(&at_once);
        assert!(
            text.contains(
                "to 7, then within k = 8 (expected recall 0.351 at the threshold) (the exact \
                 join cost too much);"
            ),
            "{text}"
        );
        // The last stage of the join lasted.
        let capped = DedupStats {
            join_stage_ends: vec![4],
            ..short.clone()
        };
        let text = summary(&capped);
        assert!(
            text.contains(
                "short texts every pair for the first 4, then within k = 8 (expected recall 0.351 \
                 at the threshold) and by a join on their rarest character pair (the exact join \
                 cost too much);"
            ),
            "{text}"
        );
        // A stage that searched none is not named.
        let skipped = DedupStats {
            join_stage_ends: vec![4, 4],
            ..short.clone()
        };
        let text = summary(&skipped);
        assert!(
            text.contains(
                "short texts every pair for the first 4, then within k = 8 (expected recall \
                 0.351 at the threshold) (the exact join cost too much);"
            ),
            "{text}"
        );
        // Never joined.
        let fingerprints = DedupStats {
            join_stage_ends: vec![0, 0],
            ..short.clone()
        };
        let text = summary(&fingerprints);
        assert!(
            text.contains("Jaccard >= 0.8, short texts within k = 8 (expected recall 0.351"),
            "{text}"
        );
        // Both.
        let both = DedupStats {
            long_texts: 3,
            join_stage_ends: Vec::new(),
            ..short
        };
        let text = summary(&both);
        assert!(
            text.contains("short texts every pair (exact join), others within k = 20"),
            "{text}"
        );
    }
}
