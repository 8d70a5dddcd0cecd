//! `simdup index`: a stored corpus of fingerprints in one SQLite file.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

use clap::{Args, Subcommand};

use simdup::diag::Diagnostics;
use simdup::index::Store;

use super::Finished;
use super::args::{FeatureArgs, RecordArgs, WalkArgs};

/// Arguments of `simdup index`.
#[derive(Args, Debug)]
pub struct IndexArgs {
    /// What to do with the index.
    #[command(subcommand)]
    pub action: IndexAction,
}

/// The index's subcommands.
#[derive(Subcommand, Debug)]
pub enum IndexAction {
    /// Fingerprint files (or records from stdin) into the index; unchanged ones are not stored
    /// again.
    Add(Box<AddArgs>),
    /// Drop the documents whose file no longer exists.
    Prune(DbArg),
    /// Say how many documents the index holds, and with which feature options.
    Stats(DbArg),
    /// List the stored documents: fingerprint, features, bytes, name.
    Ls(DbArg),
}

/// The index file.
#[derive(Args, Debug)]
pub struct DbArg {
    /// The index: an SQLite file.
    #[arg(long, value_name = "FILE")]
    pub db: PathBuf,
}

/// Arguments of `simdup index add`.
#[derive(Args, Debug)]
pub struct AddArgs {
    /// Files and directories to add (stored by the path as given); `-` adds the records of
    /// stdin, stored with their text by id (or as `line N`); with --records, one FILE of
    /// records, stored the same way.
    #[arg(value_name = "PATH", required = true)]
    pub paths: Vec<PathBuf>,

    #[command(flatten)]
    pub record: RecordArgs,

    #[command(flatten)]
    pub db: DbArg,

    #[command(flatten)]
    pub features: FeatureArgs,

    #[command(flatten)]
    pub walk: WalkArgs,

    /// Say nothing on stderr but errors.
    #[arg(short, long)]
    pub quiet: bool,

    /// Also name every skipped and empty input on stderr.
    #[arg(short, long, conflicts_with = "quiet")]
    pub verbose: bool,

    /// Worker threads (default: one per core; at most 256, or one per core if more).
    #[arg(short = 'j', long, value_name = "N", default_value_t = 0, value_parser = super::args::parse_threads)]
    pub threads: usize,
}

/// Runs `simdup index`.
pub fn run(args: IndexArgs) -> anyhow::Result<Finished> {
    match args.action {
        IndexAction::Add(args) => add(*args),
        IndexAction::Prune(db) => {
            let mut store = Store::open(&db.db, false)?;
            let gone = simdup::jobs::index::prune(&mut store)?;
            let stdout = io::stdout();
            let mut out = BufWriter::new(stdout.lock());
            for name in &gone {
                writeln!(out, "pruned  {}", String::from_utf8_lossy(name))?;
            }
            out.flush()?;
            eprintln!("{} documents pruned", gone.len());
            Ok(Finished::ran(false))
        }
        IndexAction::Stats(db) => {
            let store = Store::open_to_read(&db.db)?;
            let stats = store.stats()?;
            // Written with `writeln!`, not `println!`: a closed pipe or a
            // full disk is an error to report, not a panic.
            let mut out = io::stdout().lock();
            writeln!(out, "documents  {}", stats.documents)?;
            writeln!(out, "bytes      {}", stats.bytes)?;
            writeln!(
                out,
                "features   {}",
                stats.features.as_deref().unwrap_or("(none yet)")
            )?;
            writeln!(
                out,
                "digest     {}",
                stats.digest.as_deref().unwrap_or("(none yet)")
            )?;
            writeln!(out, "schema     {}", simdup::index::SCHEMA_VERSION)?;
            out.flush()?;
            Ok(Finished::ran(false))
        }
        IndexAction::Ls(db) => {
            let store = Store::open_to_read(&db.db)?;
            let stdout = io::stdout();
            let mut out = BufWriter::new(stdout.lock());
            for entry in store.entries()? {
                writeln!(
                    out,
                    "{:016x}  {:>8}  {:>10}  {}",
                    entry.fingerprint.simhash,
                    entry.fingerprint.features,
                    entry.size,
                    String::from_utf8_lossy(&entry.name)
                )?;
            }
            out.flush()?;
            Ok(Finished::ran(false))
        }
    }
}

fn add(args: AddArgs) -> anyhow::Result<Finished> {
    super::set_threads(args.threads)?;
    let stdin_records = args.paths.len() == 1 && simdup::jobs::is_stdin(&args.paths[0]);
    if !stdin_records && args.paths.iter().any(|path| simdup::jobs::is_stdin(path)) {
        anyhow::bail!("'-' adds the records of stdin and cannot be combined with other PATHs");
    }
    // `--records` with one FILE adds its records, as `- < FILE` would.
    let record_file = args
        .record
        .file(&args.paths, "simdup index add - --db DB --records ...")?;
    let records = stdin_records || record_file.is_some();
    let jsonl = args.record.records == Some(super::RecordsArg::Jsonl);
    if args.record.names_fields() && !(records && jsonl) {
        anyhow::bail!("--id-field and --text-field apply only to --records jsonl");
    }
    if records && args.walk.walks() {
        anyhow::bail!(
            "--hidden, --follow, --glob, --binary and --no-ignore apply to files and \
             directories, not to records"
        );
    }
    if records && args.features.transform.is_some() {
        anyhow::bail!("--transform applies to files and directories, not to records");
    }
    let features = args.features.to_options()?;
    let walk = args.walk.to_options()?;
    let mut diag = Diagnostics::new(args.verbose);
    let mut store = Store::open(&args.db.db, true)?;
    let summary = if records {
        let records = args.record.to_options(walk.max_filesize)?;
        let (reader, name) = simdup::jobs::open_records(record_file.as_deref())?;
        let (reader, _) = simdup::jobs::records_text(reader, &name, features.view.decompress)?;
        simdup::jobs::index::add_records(&mut store, reader, &name, &records, &features, &mut diag)?
    } else {
        simdup::jobs::index::add(&mut store, &args.paths, &walk, &features, &mut diag)?
    };
    if !args.quiet {
        eprintln!(
            "{}: {} added, {} updated, {} unchanged{}",
            args.db.db.display(),
            summary.added,
            summary.updated,
            summary.unchanged,
            not_stored(&diag.tally)
        );
    }
    Ok(Finished::ran(diag.errored()))
}

/// The inputs `index add` did not store, as scan's summary words them
/// (`, 1 empty, 2 skipped (binary 1, hidden 1), 1 error`), so the summary
/// accounts for every input; nothing when all were stored.
fn not_stored(tally: &simdup::diag::Tally) -> String {
    let mut out = String::new();
    if tally.empty > 0 {
        out.push_str(&format!(", {} empty", tally.empty));
    }
    let skipped: u64 = tally.skipped.values().sum();
    if skipped > 0 {
        let reasons: Vec<String> = tally
            .skipped
            .iter()
            .map(|(reason, count)| format!("{reason} {count}"))
            .collect();
        out.push_str(&format!(", {skipped} skipped ({})", reasons.join(", ")));
    }
    if tally.errors > 0 {
        let plural = if tally.errors == 1 { "" } else { "s" };
        out.push_str(&format!(", {} error{plural}", tally.errors));
    }
    out
}
