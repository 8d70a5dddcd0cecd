//! The command-line layer: clap definitions, and one function per
//! subcommand that turns arguments into the library's option structs,
//! calls a library job, writes its result and says how the run ended.
//! clap and anyhow types stay in the binary; main.rs decides the exit code.

pub mod args;
mod compare;
mod config;
mod dedup;
mod distributed;
mod explain;
mod fingerprint;
mod generate;
mod index;
mod scan;

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

const EXIT_CODES: &str = "\
Examples:
  simdup scan docs/                     near-duplicates: pairs with Jaccard >= 0.8
  simdup scan docs/ --groups            groups of near-copies
  simdup fingerprint docs/ > fps.txt    save fingerprints to search later
  simdup compare a.txt b.txt            how near two documents are
  simdup dedup addresses.txt            each line unless it nearly repeats an earlier one
  simdup explain a.txt b.txt            which passages two documents share

Run `simdup help scan` for every option of the main job.

Exit codes:
  0  ran fine
  1  near-duplicates remained and --fail-on-duplicates was given (with --baseline: new ones)
  2  an error: bad arguments, a missing path, an unreadable file, a malformed record;
     or nothing to compare with --fail-on-duplicates";

/// Find near-duplicate documents with 64-bit SimHash.
#[derive(Parser, Debug)]
#[command(
    name = "simdup",
    version,
    about,
    after_help = EXIT_CODES,
    propagate_version = true,
    max_term_width = 100
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,

    /// Colour the table and the summary: auto (on a terminal, unless NO_COLOR is set or
    /// TERM=dumb), always or never.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorArg::Auto, global = true)]
    pub color: ColorArg,
}

/// When to colour output, as typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorArg {
    /// On a terminal, unless NO_COLOR is set or TERM is dumb.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

impl ColorArg {
    /// Whether to colour a stream that is (or is not) a terminal.
    pub fn paint(self, is_terminal: bool) -> simdup::report::Paint {
        let on = match self {
            ColorArg::Always => true,
            ColorArg::Never => false,
            ColorArg::Auto => {
                is_terminal
                    && std::env::var_os("NO_COLOR").is_none_or(|value| value.is_empty())
                    && std::env::var_os("TERM").is_none_or(|term| term != "dumb")
            }
        };
        simdup::report::Paint::new(on)
    }
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Find near-duplicate pairs and groups among documents.
    #[command(after_help = SCAN_EXAMPLES)]
    Scan(Box<scan::ScanArgs>),
    /// Print the SimHash fingerprint of each document.
    #[command(after_help = FINGERPRINT_EXAMPLES)]
    Fingerprint(fingerprint::FingerprintArgs),
    /// Compare two documents: Hamming distance, similarity, exact Jaccard.
    #[command(after_help = COMPARE_EXAMPLES)]
    Compare(compare::CompareArgs),
    /// Write the records that are not near-duplicates of an earlier one, in input order.
    #[command(after_help = DEDUP_EXAMPLES)]
    Dedup(dedup::DedupArgs),
    /// Explain a pair: distance, Jaccard, containment, shared passages and unique lines.
    #[command(after_help = EXPLAIN_EXAMPLES)]
    Explain(explain::ExplainArgs),
    /// Keep fingerprints in an SQLite file, to search new documents against (scan --against).
    #[command(after_help = INDEX_EXAMPLES)]
    Index(index::IndexArgs),
    /// Steps of a distributed scan, run by spark/simdup_spark.py on its workers (docs/SPARK.md).
    #[command(hide = true)]
    Distributed(distributed::DistributedArgs),
    /// Print shell completions.
    #[command(
        after_help = "Example:\n  simdup completions bash > ~/.local/share/bash-completion/completions/simdup"
    )]
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff).
    #[command(after_help = "Example:\n  simdup man > simdup.1 && man ./simdup.1")]
    Man,
}

const SCAN_EXAMPLES: &str = "\
Examples:
  simdup scan docs/                          pairs with exact Jaccard >= 0.8, as a table
  simdup scan docs/ --groups                 one block per group of near-copies
  simdup scan docs/ --threshold 0.9          closer copies only
  simdup scan docs/ --raw -k 9               raw SimHash pairs within 9 bits: fast, unverified
  simdup scan docs/ --format json > dups.json
  find docs -name '*.txt' -print0 | simdup scan --files-from - -0
  simdup scan - < addresses.txt              each line a document
  simdup scan --records jsonl --id-field id < tickets.jsonl
  simdup scan --records jsonl --id-field id --format jsonl --show-text < tickets.jsonl
  simdup scan docs/ --format fdupes          groups as blocks of paths, as fdupes prints them
  simdup scan --fingerprints shard1.txt shard2.txt   search saved fingerprints
  simdup scan docs/ -q --fail-on-duplicates  for CI: exit 1 when any are found
  simdup scan docs/ --write-baseline dups.baseline   accept today's pairs
  simdup scan docs/ --baseline dups.baseline   list only pairs it does not accept
  simdup scan docs/ --format sarif > dups.sarif   for code scanning

Exit codes:
  0  ran fine
  1  near-duplicates remained and --fail-on-duplicates was given (with --baseline: new ones)
  2  an error: bad arguments, a missing path, an unreadable file, a malformed record;
     or nothing to compare with --fail-on-duplicates";

const EXPLAIN_EXAMPLES: &str = "\
Examples:
  simdup explain a.txt b.txt                   figures, shared passages, unique lines
  simdup explain docs/repair-cafe.txt docs/copies/repair-cafe-footer.txt
  simdup explain a.txt b.txt --format json     the same figures and line ranges, for machines

A line is shared when at least half of the shingles ending on it occur in the other document.";

const FINGERPRINT_EXAMPLES: &str = "\
Examples:
  simdup fingerprint notes.txt docs/          <16 hex digits>  <path>, like sha256sum
  echo 'some text' | simdup fingerprint       stdin is one document
  simdup fingerprint docs/ --format jsonl > fingerprints.jsonl
  simdup fingerprint notes.txt --sdr 2048:41  htm.core's sparse encoding";

const COMPARE_EXAMPLES: &str = "\
Examples:
  simdup compare a.txt b.txt
  simdup compare a.txt b.txt --shingle chars:2 --format json";

const DEDUP_EXAMPLES: &str = "\
Examples:
  simdup dedup addresses.txt                 lines that do not nearly repeat an earlier line
  simdup dedup < addresses.txt > unique.txt  the same, stdin to stdout
  simdup dedup addresses.txt --dropped dropped.jsonl   and what was removed, and why
  simdup dedup --records jsonl --id-field id tickets.jsonl
  simdup dedup addresses.txt -t 0.9 -k 8     closer copies only, searched wider
  simdup dedup addresses.txt --keep longest  keep the longest of near-copies (reads all first)
  simdup dedup docs/                         the paths of the files to keep
  find docs -name '*.txt' -print0 | simdup dedup --files-from - -0 --print-duplicates
  simdup dedup docs/ --print-duplicates -0 | xargs -0 rm   remove the near-copies

A record is dropped when a record kept before it is its near-duplicate as `simdup scan`
defines one: the same features, or SimHash within -k bits and exact Jaccard >= -t (two
one-line texts of at most 256 characters by character pairs). The first of each set of
near-copies is kept (--keep chooses another). Records without features (blank lines) are
always kept. Kept records are written byte for byte, each ended by a newline (a NUL with
--records nul).

One FILE (or `-`, or none: stdin) is filtered record by record. A directory, several PATHs
or --files-from deduplicate the files themselves, in walk order (or list order): the paths
to keep are printed, or with --print-duplicates the others; -0 separates them (and the
--files-from list) with NULs. A kept file's path is held, and files are read again to verify.

Streaming: records are decided in input order as they arrive; output is flushed after each
block, which ends at 1 MiB or as soon as the input has nothing more to read, so `tail -f
log | simdup dedup` prints each line as soon as it is read.

Memory grows with the records kept, never with the input: per kept record, 12 bytes for each
of the k + 1 index tables (84 at -k 6) and about 40 for maps and names, with slack for growth;
its text is held in memory up to 32 MiB in all, in a temporary file beyond. Measured: 268 MB
for 907,000 kept of 10^6 address lines. Copies of a kept record cost nothing. Time per record
grows with -k and with the records kept: each is compared with about (k + 1) n / 2^(64/(k+1))
kept fingerprints.

Exit codes:
  0  ran fine
  2  an error: bad arguments, an unreadable input, a malformed record (reported with its
     line; the rest of the stream is still filtered unless --strict)";

const INDEX_EXAMPLES: &str = "\
Examples:
  simdup index add docs/ --db corpus.db        store docs/' fingerprints (again: only changes)
  simdup index stats --db corpus.db
  simdup index prune --db corpus.db            forget documents that are gone
  simdup scan notes.txt --against corpus.db    new documents near stored ones";

/// How stdin is cut into records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RecordsArg {
    /// One document per line.
    Lines,
    /// One document per NUL-terminated record.
    Nul,
    /// One JSON object per line.
    Jsonl,
}

/// How a subcommand that ran to its end came out: what the one exit
/// policy (in main.rs) needs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Finished {
    /// Some input could not be read or parsed: the result is incomplete.
    /// Also set when `--fail-on-duplicates` was asked of a scan that found
    /// no document to compare: such a result certifies nothing either.
    pub errored: bool,
    /// Near-duplicates remained after every filter and the user asked to
    /// fail on them (`--fail-on-duplicates`).
    pub failed_on_duplicates: bool,
}

impl Finished {
    /// A run without a duplicate check.
    pub fn ran(errored: bool) -> Finished {
        Finished {
            errored,
            failed_on_duplicates: false,
        }
    }
}

/// Runs the parsed command line.
pub fn run(cli: Cli, matches: &clap::ArgMatches) -> anyhow::Result<Finished> {
    match cli.command {
        Command::Scan(mut args) => {
            let allowlist = config::load(&mut args, matches.subcommand_matches("scan"))?;
            scan::run(*args, cli.color, allowlist.as_ref())
        }
        Command::Fingerprint(args) => fingerprint::run(args),
        Command::Compare(args) => compare::run(args),
        Command::Dedup(args) => dedup::run(args),
        Command::Explain(args) => explain::run(args, cli.color),
        Command::Index(args) => index::run(args),
        Command::Distributed(args) => distributed::run(args),
        Command::Completions { shell } => generate::completions(shell),
        Command::Man => generate::man(),
    }
}

/// Sets the size of the worker pool (0: one per core).
pub(crate) fn set_threads(threads: usize) -> anyhow::Result<()> {
    if threads > 0 {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build_global()
            .map_err(|error| anyhow::anyhow!("cannot start {threads} threads: {error}"))?;
    }
    Ok(())
}

/// What compare and explain say when a document has no features.
pub(crate) const NOTHING_TO_COMPARE: &str =
    "nothing to compare (scan never pairs a document without features)";

/// Which of two documents have no features, as a sentence's start (`a
/// has no features`, `a and b have no features`); `None` when both have.
pub(crate) fn no_features(names: &[&str]) -> Option<String> {
    match names {
        [] => None,
        [one] => Some(format!("{one} has no features")),
        [a, b, ..] => Some(format!("{a} and {b} have no features")),
    }
}

/// The paths to use when none is given.
pub(crate) fn default_paths(paths: Vec<PathBuf>) -> Vec<PathBuf> {
    if paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        paths
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn verify_cli() {
        super::Cli::command().debug_assert();
    }
}
