//! quality: precision, recall and F1 of `simdup scan` across a grid of
//! options, against a generated corpus's exact ground truth.
//!
//! For each shingle mode and weighting it runs simdup once at the largest k
//! with `--verify`, and scores every k <= that from the reported distances
//! (exact search reports, at k, exactly the pairs within k); `--each-k` runs
//! every k separately instead. Scores are given plain and verified (pairs
//! kept only when simdup's own Jaccard is >= the threshold, as
//! `--verify --min-jaccard` does).

use std::fmt::Write as _;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Instant;

use clap::Parser;
use simdup_bench_tools::quality::{
    Documents, Pair, RecipeRecall, Reported, Truth, judge, parse_output_line, score_k,
};
use simdup_bench_tools::score::Score;

/// Score `simdup scan` against a generated corpus's ground truth.
#[derive(Parser, Debug)]
#[command(version, about)]
struct Args {
    /// Corpus folder written by gen-corpus (corpus.jsonl, truth.jsonl).
    #[arg(long)]
    corpus: PathBuf,
    /// The simdup binary.
    #[arg(long, default_value = "target/release/simdup")]
    simdup: PathBuf,
    /// Largest k; every k from 0 to this is scored.
    #[arg(long, default_value_t = 12)]
    max_k: u32,
    /// Shingle modes, comma-separated.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "words:1,words:2,words:3,chars:3,chars:4,chars:5"
    )]
    shingles: Vec<String>,
    /// Weightings, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "tf,binary")]
    weights: Vec<String>,
    /// Word-3-shingle Jaccard thresholds of relevance, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "0.95,0.9,0.8")]
    thresholds: Vec<f64>,
    /// Run simdup at every k instead of deriving smaller k from the largest.
    #[arg(long)]
    each_k: bool,
    /// Do not pass --verify (no verified columns; faster).
    #[arg(long)]
    no_verify: bool,
    /// Passed to simdup as --min-features.
    #[arg(long)]
    min_features: Option<u64>,
    /// Passed to simdup as --max-pairs; a run that reaches it is marked '*'.
    #[arg(long, default_value_t = 2_000_000)]
    max_pairs: u64,
    /// Only print rows with this k or these k (comma-separated); all by default.
    #[arg(long, value_delimiter = ',')]
    show_k: Vec<u32>,
    /// The options (SHINGLE,WEIGHT) of the recall-by-recipe table.
    #[arg(
        long,
        value_delimiter = ',',
        num_args = 2,
        default_value = "words:3,tf"
    )]
    by_recipe: Vec<String>,
}

/// One simdup run's output.
struct Run {
    reported: Vec<Reported>,
    seconds: f64,
    capped: bool,
}

/// One table row: options, k, and scores per threshold.
struct Row {
    shingle: String,
    weight: String,
    k: u32,
    pairs: usize,
    capped: bool,
    scores: Vec<(Score, Option<Score>)>,
}

fn main() {
    if let Err(e) = run(Args::parse()) {
        eprintln!("quality: {e}");
        std::process::exit(2);
    }
}

fn run(args: Args) -> Result<(), String> {
    let corpus_path = args.corpus.join("corpus.jsonl");
    let docs = Documents::load(&corpus_path)?;
    let truth = Truth::load(&args.corpus.join("truth.jsonl"), &docs)?;
    let relevant: Vec<usize> = args.thresholds.iter().map(|&t| truth.relevant(t)).collect();
    let mut rows = Vec::new();
    let mut runs = String::new();
    let mut mismatches = 0usize;
    let mut by_recipe = None;
    for shingle in &args.shingles {
        for weight in &args.weights {
            let mut per_k = Vec::new();
            if args.each_k {
                for k in 0..=args.max_k {
                    per_k.push((k, scan(&args, shingle, weight, k, &docs, &truth)?));
                }
            } else {
                let r = scan(&args, shingle, weight, args.max_k, &docs, &truth)?;
                if r.capped {
                    // Pairs past the cap are arbitrary: smaller k need runs of their own.
                    for k in 0..args.max_k {
                        per_k.push((k, scan(&args, shingle, weight, k, &docs, &truth)?));
                    }
                }
                per_k.push((args.max_k, r));
            }
            for (k_run, r) in &per_k {
                let _ = writeln!(
                    runs,
                    "| {shingle} | {weight} | {k_run} | {}{} | {:.2} |",
                    r.reported.len(),
                    if r.capped { "*" } else { "" },
                    r.seconds
                );
                if shingle == "words:3" {
                    mismatches += r
                        .reported
                        .iter()
                        .filter(|p| {
                            p.verified
                                .is_some_and(|v| (v - p.judged.jaccard).abs() > 1e-9)
                        })
                        .count();
                }
            }
            if args.by_recipe == [shingle.as_str(), weight.as_str()] {
                by_recipe = Some(recipe_table(&truth, &per_k, args.max_k));
            }
            for k in 0..=args.max_k {
                // The run for this k: its own, else the smallest run above it.
                let Some((_, r)) = per_k
                    .iter()
                    .filter(|(kr, _)| *kr >= k)
                    .min_by_key(|(kr, _)| *kr)
                else {
                    continue;
                };
                let scores = args
                    .thresholds
                    .iter()
                    .zip(&relevant)
                    .map(|(&t, &n)| score_k(&r.reported, k, t, n))
                    .collect();
                let pairs = r.reported.iter().filter(|p| p.distance <= k).count();
                rows.push(Row {
                    shingle: shingle.clone(),
                    weight: weight.clone(),
                    k,
                    pairs,
                    capped: r.capped,
                    scores,
                });
            }
        }
    }
    let mut out = report(&args, &docs, &truth, &relevant, &rows, &runs, mismatches);
    out.push_str(&by_recipe.unwrap_or_default());
    print!("{out}");
    Ok(())
}

/// Recall per recipe at every k, as Markdown, from the runs of one
/// configuration (each k scored from its own run, or the smallest above it).
fn recipe_table(truth: &Truth, per_k: &[(u32, Run)], max_k: u32) -> String {
    let tables: Vec<(u32, Vec<RecipeRecall>)> = per_k
        .iter()
        .map(|(k, r)| (*k, truth.recall_by_recipe(&r.reported, *k)))
        .collect();
    let Some((_, widest)) = tables.iter().max_by_key(|(k, _)| *k) else {
        return String::new();
    };
    let mut out = String::from(
        "\n## Recall by recipe (variant against its original)\n\n| recipe | pairs | mean J |",
    );
    for k in 0..=max_k {
        let _ = write!(out, " k={k} |");
    }
    out.push_str("\n|---|---:|---:|");
    out.push_str(&"---:|".repeat(max_k as usize + 1));
    out.push('\n');
    for row in widest {
        let _ = write!(
            out,
            "| {} | {} | {:.3} |",
            row.recipe, row.pairs, row.mean_jaccard
        );
        for k in 0..=max_k {
            // The run for this k: its own, else the smallest run above it.
            let table = tables
                .iter()
                .filter(|(kr, _)| *kr >= k)
                .min_by_key(|(kr, _)| *kr)
                .map(|(_, t)| t);
            let found = table
                .and_then(|t| t.iter().find(|r| r.recipe == row.recipe))
                .and_then(|r| r.found.get(k as usize).copied())
                .unwrap_or(0);
            let _ = write!(out, " {:.2} |", found as f64 / row.pairs as f64);
        }
        out.push('\n');
    }
    out
}

/// Runs `simdup scan` once and judges what it reports.
fn scan(
    args: &Args,
    shingle: &str,
    weight: &str,
    k: u32,
    docs: &Documents,
    truth: &Truth,
) -> Result<Run, String> {
    let mut cmd = Command::new(&args.simdup);
    cmd.args([
        "scan",
        "--records",
        "jsonl",
        "--id-field",
        "id",
        "--text-field",
        "text",
    ]);
    cmd.args([
        "-k",
        &k.to_string(),
        "--shingle",
        shingle,
        "--weight",
        weight,
        "--format",
        "jsonl",
    ]);
    cmd.args(["--max-pairs", &args.max_pairs.to_string(), "-q"]);
    // Verified with threshold 0: every candidate within k, each with its
    // exact Jaccard; raw: the candidates alone.
    if args.no_verify {
        cmd.arg("--raw");
    } else {
        cmd.args(["--threshold", "0"]);
    }
    if let Some(n) = args.min_features {
        cmd.args(["--min-features", &n.to_string()]);
    }
    let input = File::open(args.corpus.join("corpus.jsonl")).map_err(|e| e.to_string())?;
    let start = Instant::now();
    let mut child = cmd
        .stdin(input)
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| {
            format!(
                "{}: {e} (build it with `cargo build --release`)",
                args.simdup.display()
            )
        })?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let mut parsed: Vec<(Pair, u32, Option<f64>)> = Vec::new();
    for (n, line) in BufReader::new(stdout).lines().enumerate() {
        let line = line.map_err(|e| e.to_string())?;
        parsed.push(
            parse_output_line(&line, docs)
                .map_err(|e| format!("simdup output line {}: {e}", n + 1))?,
        );
    }
    let status = child.wait().map_err(|e| e.to_string())?;
    let seconds = start.elapsed().as_secs_f64();
    if !matches!(status.code(), Some(0 | 1)) {
        return Err(format!("{cmd:?} failed: {status}"));
    }
    let capped = parsed.len() as u64 >= args.max_pairs;
    eprintln!(
        "quality: {shingle} {weight} k={k}: {} pairs in {seconds:.2} s",
        parsed.len()
    );
    Ok(Run {
        reported: judge(parsed, truth, docs),
        seconds,
        capped,
    })
}

fn cell(s: &Score) -> String {
    format!("{:.3} | {:.3} | {:.3}", s.precision(), s.recall(), s.f1())
}

/// The whole report as Markdown.
fn report(
    args: &Args,
    docs: &Documents,
    truth: &Truth,
    relevant: &[usize],
    rows: &[Row],
    runs: &str,
    mismatches: usize,
) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# simdup quality report\n");
    let _ = writeln!(
        out,
        "Corpus: {} documents, {} ground-truth pairs. simdup: `{}`. min-features: {}.\n",
        docs.len(),
        truth.len(),
        args.simdup.display(),
        args.min_features
            .map_or("default".to_owned(), |n| n.to_string())
    );
    let show = |k: u32| args.show_k.is_empty() || args.show_k.contains(&k);
    for (t, (&threshold, &n)) in args.thresholds.iter().zip(relevant).enumerate() {
        let _ = writeln!(
            out,
            "## Relevant: word-3-shingle Jaccard >= {threshold} ({n} pairs in the ground truth)\n"
        );
        let _ = writeln!(
            out,
            "| shingle | weight | k | pairs | P | R | F1 | verified P | R | F1 |"
        );
        let _ = writeln!(out, "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
        for row in rows.iter().filter(|r| show(r.k)) {
            let (plain, verified) = &row.scores[t];
            let _ = writeln!(
                out,
                "| {} | {} | {} | {}{} | {} | {} |",
                row.shingle,
                row.weight,
                row.k,
                row.pairs,
                if row.capped { "*" } else { "" },
                cell(plain),
                verified.as_ref().map_or("- | - | -".to_owned(), cell)
            );
        }
        let best = |f: &dyn Fn(&Row) -> Option<f64>| {
            rows.iter()
                .filter_map(|r| f(r).map(|v| (v, r)))
                // On ties the first row wins: the smallest k of the first options.
                .reduce(|best, x| if x.0 > best.0 { x } else { best })
                .map_or("-".to_owned(), |(v, r)| {
                    format!("F1 {v:.3} with {} {} k={}", r.shingle, r.weight, r.k)
                })
        };
        let _ = writeln!(
            out,
            "\nBest plain: {}.",
            best(&|r| Some(r.scores[t].0.f1()))
        );
        let _ = writeln!(
            out,
            "Best verified: {}.\n",
            best(&|r| r.scores[t].1.map(|s| s.f1()))
        );
    }
    let _ = writeln!(
        out,
        "## Runs\n\n| shingle | weight | k | pairs | seconds |\n|---|---|---:|---:|---:|"
    );
    out.push_str(runs);
    if rows.iter().any(|r| r.capped) {
        let _ = writeln!(
            out,
            "\n`*`: the run reached --max-pairs {}; its scores cover the pairs reported.",
            args.max_pairs
        );
    }
    if mismatches > 0 {
        let _ = writeln!(
            out,
            "\nWarning: simdup's --verify Jaccard differs from the ground truth's on {mismatches} words:3 pairs (counted per run): the two definitions of words disagree."
        );
    }
    out
}
