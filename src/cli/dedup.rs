//! `simdup dedup`: write the records that are not near-duplicates of an
//! earlier one.

use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::args::FeatureArgs;
use super::{Finished, RecordsArg};
use simdup::diag::Diagnostics;
use simdup::input::{RecordFormat, RecordOptions};
use simdup::jobs::dedup::{DedupOptions, DedupStats, Keep, Output, RecordName};

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
    /// The records to filter: a file, or `-` (the default) for stdin.
    #[arg(value_name = "FILE")]
    pub input: Option<PathBuf>,

    #[command(flatten)]
    pub features: FeatureArgs,

    /// How the input is cut into records: lines (default), NUL-terminated records, or JSON
    /// objects one per line.
    #[arg(long, value_enum, value_name = "KIND", help_heading = "Input")]
    pub records: Option<RecordsArg>,

    /// With --records jsonl: the field holding the text.
    #[arg(
        long,
        value_name = "NAME",
        default_value = "text",
        help_heading = "Input"
    )]
    pub text_field: String,

    /// With --records jsonl: the field holding the id (default: the line number).
    #[arg(long, value_name = "NAME", help_heading = "Input")]
    pub id_field: Option<String>,

    /// Near-duplicates are pairs whose exact Jaccard is at least T (0-1).
    #[arg(short = 't', long, value_name = "T", alias = "min-jaccard",
          default_value = super::args::defaults::THRESHOLD, value_parser = parse_fraction,
          help_heading = "Near-duplicates")]
    pub threshold: f64,

    /// Search radius: candidates differ in at most K bits, 0-32. Wider finds more near-copies
    /// and costs more (index memory and time grow with it).
    #[arg(short = 'k', long, value_name = "K",
          default_value_t = simdup::jobs::dedup::DEFAULT_MAX_DISTANCE,
          value_parser = clap::value_parser!(u32).range(0..=i64::from(simdup::search::MAX_DISTANCE)),
          help_heading = "Near-duplicates")]
    pub max_distance: u32,

    /// Records with fewer features are matched only by exact content.
    #[arg(long, value_name = "N", default_value = super::args::defaults::MIN_FEATURES,
          help_heading = "Near-duplicates")]
    pub min_features: u64,

    /// Which record of a set of near-copies survives. Any but `first` needs the whole input:
    /// nothing is written until it ends, and every record is spooled (to a temporary file past
    /// 32 MiB) with about 120 bytes each in memory.
    #[arg(long, value_enum, value_name = "WHICH", default_value_t = KeepArg::First,
          help_heading = "Near-duplicates")]
    pub keep: KeepArg,

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

    /// Worker threads for fingerprinting (default: one per core); the output is the same
    /// whatever the number.
    #[arg(short = 'j', long, value_name = "N", default_value_t = 0)]
    pub threads: usize,
}

fn parse_fraction(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(value) if (0.0..=1.0).contains(&value) => Ok(value),
        _ => Err(format!("expected a number from 0 to 1, got '{text}'")),
    }
}

/// Runs `simdup dedup`.
pub fn run(args: DedupArgs) -> anyhow::Result<Finished> {
    super::set_threads(args.threads)?;
    let records = record_options(&args)?;
    let options = DedupOptions {
        features: args.features.to_options()?,
        threshold: args.threshold,
        max_distance: args.max_distance,
        min_features: args.min_features,
        short_texts: args.features.shingle.is_none(),
        strict: args.strict,
        keep: match args.keep {
            KeepArg::First => Keep::First,
            KeepArg::Last => Keep::Last,
            KeepArg::Longest => Keep::Longest,
            KeepArg::Shortest => Keep::Shortest,
        },
        name_kept: args.dropped.is_some(),
    };
    let dropped = match &args.dropped {
        Some(path) => Some(BufWriter::new(File::create(path).map_err(|error| {
            anyhow::anyhow!("cannot create {}: {error}", path.display())
        })?)),
        None => None,
    };
    let stdout = io::stdout();
    let mut output = Writer {
        out: BufWriter::with_capacity(1 << 16, stdout.lock()),
        delimiter: match records.format {
            RecordFormat::Nul => b'\0',
            RecordFormat::Lines | RecordFormat::JsonLines => b'\n',
        },
        dropped,
        dropped_name: args
            .dropped
            .as_ref()
            .map(|path| path.display().to_string())
            .unwrap_or_default(),
    };
    let mut diag = Diagnostics::new(false);
    let stats = match args.input.as_deref() {
        Some(path) if !simdup::jobs::is_stdin(path) => {
            let file =
                File::open(path).map_err(|error| anyhow::anyhow!("{}: {error}", path.display()))?;
            if file.metadata().is_ok_and(|meta| meta.is_dir()) {
                anyhow::bail!(
                    "{}: is a directory; dedup reads records from a file or stdin",
                    path.display()
                );
            }
            let name = path.display().to_string();
            simdup::jobs::dedup::dedup_records(
                file,
                &name,
                &records,
                &options,
                &mut output,
                &mut diag,
            )?
        }
        _ => {
            if io::stdin().is_terminal() {
                diag.warn("reading records from the terminal; end them with Ctrl-D");
            }
            simdup::jobs::dedup::dedup_records(
                io::stdin(),
                simdup::error::STDIN,
                &records,
                &options,
                &mut output,
                &mut diag,
            )?
        }
    };
    if !args.quiet {
        write_summary(&stats, args.threshold, &mut io::stderr().lock())?;
    }
    Ok(Finished::ran(diag.errored()))
}

/// How records are read; field options without JSON Lines are errors.
fn record_options(args: &DedupArgs) -> anyhow::Result<RecordOptions> {
    let format = match args.records.unwrap_or(RecordsArg::Lines) {
        RecordsArg::Lines => RecordFormat::Lines,
        RecordsArg::Nul => RecordFormat::Nul,
        RecordsArg::Jsonl => RecordFormat::JsonLines,
    };
    if format != RecordFormat::JsonLines && (args.id_field.is_some() || args.text_field != "text") {
        anyhow::bail!("--id-field and --text-field apply only to --records jsonl");
    }
    Ok(RecordOptions {
        format,
        text_field: args.text_field.clone(),
        id_field: args.id_field.clone(),
        ..RecordOptions::default()
    })
}

/// Writes kept records to stdout and removed ones to the `--dropped` file.
struct Writer<W: Write> {
    out: W,
    delimiter: u8,
    dropped: Option<BufWriter<File>>,
    dropped_name: String,
}

impl<W: Write> Output for Writer<W> {
    fn kept(&mut self, raw: &[u8]) -> simdup::Result<()> {
        self.out
            .write_all(raw)
            .and_then(|()| self.out.write_all(&[self.delimiter]))
            .map_err(stdout_error)
    }

    fn dropped(
        &mut self,
        record: &RecordName,
        kept: &RecordName,
        jaccard: f64,
    ) -> simdup::Result<()> {
        let Some(file) = self.dropped.as_mut() else {
            return Ok(());
        };
        let mut line = format!("{{\"line\":{}", record.line);
        if let Some(id) = &record.id {
            line += &format!(",\"id\":{}", json_string(id));
        }
        line += &format!(",\"kept_line\":{}", kept.line);
        if let Some(id) = &kept.id {
            line += &format!(",\"kept_id\":{}", json_string(id));
        }
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

/// A string as a JSON value.
fn json_string(text: &str) -> String {
    serde_json::Value::from(text).to_string()
}

fn stdout_error(error: io::Error) -> simdup::Error {
    simdup::Error::io_named("stdout", error)
}

/// The summary on stderr: what became of every record, and the rule.
fn write_summary(stats: &DedupStats, threshold: f64, out: &mut impl Write) -> io::Result<()> {
    write!(
        out,
        "simdup: {} read: {} kept, {} dropped",
        counted(stats.read, "record"),
        stats.kept,
        stats.dropped
    )?;
    if stats.malformed > 0 {
        write!(out, ", {} malformed", stats.malformed)?;
    }
    writeln!(out)?;
    let megabytes = stats.bytes as f64 / 1e6;
    let rate = if stats.seconds > 0.0 {
        megabytes / stats.seconds
    } else {
        0.0
    };
    writeln!(
        out,
        "simdup: {megabytes:.1} MB in {:.2} s ({rate:.1} MB/s); Jaccard >= {threshold} within \
         k = {} (expected recall {:.3} at the threshold); {} verified",
        stats.seconds,
        stats.max_distance,
        stats.expected_recall,
        counted(stats.candidates, "candidate"),
    )
}

/// `1 record`, `2 records`.
fn counted(count: u64, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}
