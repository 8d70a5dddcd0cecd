//! score: precision, recall and F1 of any simdup command line (or of its
//! saved output) against a corpus's exact ground truth, written by `truth`.
//!
//! ```console
//! $ score --corpus target/real/debian-docs -- target/release/simdup scan docs -k 9 --format jsonl
//! $ score --corpus target/real/debian-docs --pairs pairs.jsonl
//! ```
//!
//! The command runs in the corpus folder (so `docs` is its folder of
//! documents) with `corpus.jsonl` on stdin (so `--records jsonl` reads the
//! corpus); its arguments are passed verbatim and it must print pairs as
//! `--format jsonl` does. Names are matched to corpus ids by
//! `Records::find`. Wall time is measured around the run, peak memory with
//! GNU time when it is installed.

use std::fmt::Write as _;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use clap::{Parser, ValueEnum};
use serde::Serialize;
use simdup_bench_tools::judge::{Evaluation, Options, Reported, evaluate, read_pairs};
use simdup_bench_tools::records::{Records, corpus_file};
use simdup_bench_tools::truth::JoinTruth;

/// Score a simdup command line, or its output, against exact ground truth.
#[derive(Parser, Debug)]
#[command(version, about)]
struct Args {
    /// Corpus folder (corpus.jsonl, docs/, the truth file).
    #[arg(long, required_unless_present = "print_row_header")]
    corpus: Option<PathBuf>,
    /// Truth file written by `truth` [default: truth-words3.jsonl in the corpus folder].
    #[arg(long)]
    truth: Option<PathBuf>,
    /// A pair is relevant when its exact Jaccard is >= this.
    #[arg(long, default_value_t = 0.8)]
    threshold: f64,
    /// Score this saved output of `simdup scan --format jsonl` (`-`: stdin)
    /// instead of running a command.
    #[arg(long, conflicts_with = "command")]
    pairs: Option<PathBuf>,
    /// Output: a report, one Markdown table row, or JSON.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// The row's label [default: the command's arguments, or the pairs file].
    #[arg(long)]
    label: Option<String>,
    /// How many worst false positives and best misses to list.
    #[arg(long, default_value_t = 10)]
    show: usize,
    /// At most this many false positives below the truth's floor get their
    /// exact Jaccard computed (an even sample beyond).
    #[arg(long, default_value_t = 200_000)]
    max_computed: usize,
    /// Run the command here [default: the corpus folder].
    #[arg(long)]
    cwd: Option<PathBuf>,
    /// GNU time, for the peak memory of the run (none if it is missing).
    #[arg(long, default_value = "/usr/bin/time")]
    time_bin: PathBuf,
    /// Print the header of the `--format row` table and exit.
    #[arg(long)]
    print_row_header: bool,
    /// Print one line describing the corpus and its relevant pairs, and exit.
    #[arg(long, conflicts_with_all = ["pairs", "command"])]
    describe: bool,
    /// The command to run and score (after `--`), e.g.
    /// `-- target/release/simdup scan docs -k 9 --format jsonl`.
    #[arg(last = true)]
    command: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    Text,
    Row,
    Json,
}

/// How the pairs were obtained.
#[derive(Serialize)]
struct RunInfo {
    label: String,
    seconds: Option<f64>,
    peak_mb: Option<f64>,
    exit_code: Option<i32>,
    /// Pairs within k before verification, from simdup's summary line.
    candidates: Option<u64>,
}

/// The candidate pairs, from simdup's summary line: verified runs say
/// `...; 11 pairs in 2 groups (Jaccard >= 0.8; 20 candidates verified; k
/// = 20, ...)`, raw runs `...; 50635 pairs in 930 groups (k = 9, exact)`,
/// where every pair within k is a candidate.
fn candidates_in(line: &str) -> Option<u64> {
    let (_, rest) = line.strip_prefix("simdup:")?.split_once("; ")?;
    let (count, rest) = rest.split_once(' ')?;
    if !(rest.starts_with("pairs in ") || rest.starts_with("pair in ")) {
        return None;
    }
    if let Some((_, verified)) = rest.split_once("; ")
        && let Some((candidates, _)) = verified.split_once(" candidate")
    {
        return candidates.replace(',', "").parse().ok();
    }
    count.replace(',', "").parse().ok()
}

#[derive(Serialize)]
struct Output<'a> {
    corpus: String,
    documents: usize,
    truth: String,
    run: &'a RunInfo,
    #[serde(flatten)]
    evaluation: &'a Evaluation,
}

const ROW_HEADER: &str = "| arguments | candidates | pairs | P | R | F1 | group P | largest group | seconds | peak MB |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|";

fn main() {
    if let Err(e) = run(Args::parse()) {
        eprintln!("score: {e}");
        std::process::exit(2);
    }
}

fn run(args: Args) -> Result<(), String> {
    if args.print_row_header {
        println!("{ROW_HEADER}");
        return Ok(());
    }
    let corpus = args.corpus.clone().expect("clap requires --corpus");
    let corpus_jsonl = corpus_file(&corpus);
    let corpus_dir = corpus_jsonl
        .parent()
        .map(Path::to_owned)
        .unwrap_or_default();
    let records = Records::load(&corpus_jsonl)?;
    let truth_path = args
        .truth
        .clone()
        .unwrap_or_else(|| corpus_dir.join("truth-words3.jsonl"));
    let truth = JoinTruth::load(&truth_path, &records)
        .map_err(|e| format!("{e} (make it with `truth --corpus {}`)", corpus.display()))?;
    if args.describe {
        println!(
            "{} documents, {:.1} MB; {} relevant pairs ({} Jaccard >= {})",
            records.len(),
            records.bytes() as f64 / 1e6,
            truth.relevant(args.threshold),
            truth.header.features,
            args.threshold
        );
        return Ok(());
    }
    let (reported, info) = match (&args.pairs, args.command.is_empty()) {
        (Some(path), true) => {
            let reported = if path.as_os_str() == "-" {
                read_pairs(std::io::stdin().lock(), &records)
            } else {
                let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
                read_pairs(BufReader::new(file), &records)
            }
            .map_err(|e| format!("{}: {e}", path.display()))?;
            let info = RunInfo {
                label: args
                    .label
                    .clone()
                    .unwrap_or_else(|| path.display().to_string()),
                seconds: None,
                peak_mb: None,
                exit_code: None,
                candidates: None,
            };
            (reported, info)
        }
        (None, false) => run_command(&args, &corpus_dir, &corpus_jsonl, &records)?,
        _ => return Err("give either --pairs FILE or a command after `--`".into()),
    };
    let options = Options {
        threshold: args.threshold,
        show: args.show,
        max_computed: args.max_computed,
        members: 10,
    };
    let evaluation = evaluate(&reported, &truth, &records, &options)?;
    let out = match args.format {
        Format::Row => row(&info, &evaluation),
        Format::Json => {
            let output = Output {
                corpus: corpus.display().to_string(),
                documents: records.len(),
                truth: truth_path.display().to_string(),
                run: &info,
                evaluation: &evaluation,
            };
            serde_json::to_string(&output).map_err(|e| e.to_string())? + "\n"
        }
        Format::Text => text(&corpus, &records, &truth_path, &truth, &info, &evaluation),
    };
    print!("{out}");
    Ok(())
}

/// Runs the command in the corpus folder, corpus.jsonl on stdin, and reads
/// the pairs it prints.
fn run_command(
    args: &Args,
    corpus_dir: &Path,
    corpus_jsonl: &Path,
    records: &Records,
) -> Result<(Vec<Reported>, RunInfo), String> {
    // A program named by a path is found from here, not from the corpus folder.
    let mut program = PathBuf::from(&args.command[0]);
    if args.command[0].contains('/') {
        program =
            std::path::absolute(&program).map_err(|e| format!("{}: {e}", program.display()))?;
    }
    let cwd = args.cwd.clone().unwrap_or_else(|| corpus_dir.to_owned());
    let time_file = std::env::temp_dir().join(format!("simdup-score-{}.time", std::process::id()));
    let timed = args.time_bin.is_file();
    let mut cmd = if timed {
        let mut c = Command::new(&args.time_bin);
        c.arg("-f")
            .arg("%M")
            .arg("-o")
            .arg(&time_file)
            .arg(&program);
        c
    } else {
        Command::new(&program)
    };
    cmd.args(&args.command[1..]);
    let stdin = File::open(corpus_jsonl).map_err(|e| format!("{}: {e}", corpus_jsonl.display()))?;
    let start = Instant::now();
    let mut child = cmd
        .current_dir(&cwd)
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{}: {e}", program.display()))?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let stderr = child.stderr.take().ok_or("no stderr")?;
    // Its messages go on to our stderr; the summary line gives the candidates.
    let messages = std::thread::spawn(move || {
        let mut candidates = None;
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            eprintln!("{line}");
            candidates = candidates_in(&line).or(candidates);
        }
        candidates
    });
    let read = read_pairs(BufReader::new(stdout), records);
    if read.is_err() {
        let _ = child.kill();
    }
    let status = child.wait().map_err(|e| e.to_string())?;
    let candidates = messages.join().ok().flatten();
    let seconds = start.elapsed().as_secs_f64();
    let reported = read.map_err(|e| format!("output of {}: {e}", args.command.join(" ")))?;
    let peak_mb = timed
        .then(|| std::fs::read_to_string(&time_file).ok())
        .flatten()
        .and_then(|s| s.lines().last().and_then(|l| l.trim().parse::<f64>().ok()))
        .map(|kb| kb / 1024.0);
    let _ = std::fs::remove_file(&time_file);
    // simdup exits 1 when it found pairs and was asked to fail on them.
    if !matches!(status.code(), Some(0 | 1)) {
        return Err(format!("{} failed: {status}", args.command.join(" ")));
    }
    let label = args.label.clone().unwrap_or_else(|| {
        let mut words: Vec<&str> = args.command[1..].iter().map(String::as_str).collect();
        if words.first() == Some(&"scan") {
            words.remove(0);
        }
        words.join(" ")
    });
    Ok((
        reported,
        RunInfo {
            label,
            seconds: Some(seconds),
            peak_mb,
            exit_code: status.code(),
            candidates,
        },
    ))
}

fn opt(x: Option<f64>, decimals: usize) -> String {
    x.map_or("-".to_owned(), |v| format!("{v:.decimals$}"))
}

fn row(info: &RunInfo, e: &Evaluation) -> String {
    let largest = e.largest_group.as_ref().map_or(0, |g| g.size);
    format!(
        "| `{}` | {} | {} | {:.3} | {:.3} | {:.3} | {:.3} | {} | {} | {} |\n",
        info.label.replace('|', "\\|"),
        info.candidates.map_or("-".to_owned(), |c| c.to_string()),
        e.reported,
        e.precision,
        e.recall,
        e.f1,
        e.group_precision,
        largest,
        opt(info.seconds, 2),
        opt(info.peak_mb, 0)
    )
}

fn text(
    corpus: &Path,
    records: &Records,
    truth_path: &Path,
    truth: &JoinTruth,
    info: &RunInfo,
    e: &Evaluation,
) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "corpus     {}: {} documents, {:.1} MB",
        corpus.display(),
        records.len(),
        records.bytes() as f64 / 1e6
    );
    let _ = writeln!(
        s,
        "truth      {}: {}, every pair with Jaccard >= {} ({} pairs)",
        truth_path.display(),
        e.features,
        e.floor,
        truth.pairs.len()
    );
    match info.seconds {
        Some(secs) => {
            let _ = writeln!(
                s,
                "run        {}: {:.2} s, peak {} MB, {} candidate pairs",
                info.label,
                secs,
                opt(info.peak_mb, 1),
                info.candidates.map_or("-".to_owned(), |c| c.to_string())
            );
        }
        None => {
            let _ = writeln!(s, "pairs      {}", info.label);
        }
    }
    let _ = writeln!(
        s,
        "relevant   {} Jaccard >= {}: {} pairs\n",
        e.features, e.threshold, e.relevant
    );
    let _ = writeln!(
        s,
        "reported   {} pairs: {} relevant, {} not ({} with {} <= J < {}, {} with J < {})",
        e.reported,
        e.true_positives,
        e.reported - e.true_positives,
        e.false_positives_above_floor,
        e.floor,
        e.threshold,
        e.false_positives_below_floor,
        e.floor
    );
    let _ = writeln!(s, "precision  {:.3}", e.precision);
    let _ = writeln!(s, "recall     {:.3}", e.recall);
    let _ = writeln!(s, "F1         {:.3}", e.f1);
    let _ = writeln!(
        s,
        "groups     {}: they imply {} pairs, {} of them relevant (group precision {:.3})",
        e.groups, e.implied_pairs, e.implied_relevant, e.group_precision
    );
    if let Some(g) = &e.largest_group {
        let _ = writeln!(
            s,
            "largest    {} documents, {} reported pairs ({} relevant); of its {} member pairs {} are relevant, {} have {} <= J < {}, {} have J < {}",
            g.size,
            g.reported_pairs,
            g.reported_relevant,
            g.member_pairs,
            g.relevant_member_pairs,
            g.member_pairs_above_floor - g.relevant_member_pairs,
            e.floor,
            e.threshold,
            g.member_pairs - g.member_pairs_above_floor,
            e.floor
        );
        let more = if g.size > g.members.len() {
            ", ..."
        } else {
            ""
        };
        let _ = writeln!(s, "           {}{more}", g.members.join(", "));
    }
    if !e.worst_false_positives.is_empty() {
        let sampled = if e.below_floor_computed < e.false_positives_below_floor {
            format!(
                "; below {}, an even sample of {} of {}",
                e.floor, e.below_floor_computed, e.false_positives_below_floor
            )
        } else {
            String::new()
        };
        let _ = writeln!(
            s,
            "\nworst false positives (exact Jaccard, lowest first{sampled}):"
        );
        for fp in &e.worst_false_positives {
            let _ = writeln!(
                s,
                "  J {:.3}  distance {:>2}  simdup J {:>5}  {}  {}",
                fp.jaccard,
                fp.distance.map_or("-".into(), |d| d.to_string()),
                opt(fp.simdup_jaccard, 3),
                fp.a,
                fp.b
            );
        }
    }
    if !e.best_missed.is_empty() {
        let _ = writeln!(s, "\nbest missed (exact Jaccard, highest first):");
        for m in &e.best_missed {
            let _ = writeln!(s, "  J {:.3}  {}  {}", m.jaccard, m.a, m.b);
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::candidates_in;

    #[test]
    fn candidates_from_the_summary_line() {
        let line = "simdup: 2.9 MB in 31.50 s (0.1 MB/s); 24019122 pairs in 2955 groups (k = 20, exact); 37276 pairs listed";
        assert_eq!(candidates_in(line), Some(24_019_122));
        let one = "simdup: 0.0 MB in 0.00 s (…); 1 pair in 1 group (k = 9, exact)";
        assert_eq!(candidates_in(one), Some(1));
        assert_eq!(
            candidates_in("simdup: 18 inputs: 15 fingerprinted, 1 empty"),
            None
        );
        assert_eq!(candidates_in("other: x; 5 pairs in 1 group"), None);
        let verified = "simdup: 0.0 MB in 0.02 s (0.7 MB/s); 11 pairs in 2 groups (Jaccard >= 0.8; 20 candidates verified; k = 20, expected recall 1.000)";
        assert_eq!(candidates_in(verified), Some(20));
        // As written before the candidates of short texts were counted apart.
        let older = "simdup: 0.0 MB in 0.02 s (0.7 MB/s); 11 pairs in 2 groups (Jaccard >= 0.8; 20 candidates within k = 20, expected recall 1.000)";
        assert_eq!(candidates_in(older), Some(20));
    }
}
