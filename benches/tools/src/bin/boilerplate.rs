//! boilerplate: does down-weighting shingles that many documents share
//! make SimHash a better candidate generator? Reads a `corpus.jsonl` and
//! its truth file (written by `truth`, word 3-shingles), fingerprints every
//! document under each weighting (tf, binary, sublinear tf, idf, and binary
//! with the shingles of high document frequency left out, document
//! frequencies counted over the whole corpus or a sample of it), and prints
//! as Markdown, for each weighting, the candidate pairs within k (every
//! pair compared, brute force) and the recall of the relevant pairs.
//!
//! A weighting only proposes candidates: relevance is the exact Jaccard of
//! all word 3-shingles, unweighted, as in the truth file. The column
//! `J_w < t` says what would change if the Jaccard were computed on the
//! weighted features instead (sum of minima over sum of maxima): the share
//! of the relevant pairs it would put below the threshold.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

use clap::Parser;
use rayon::prelude::*;
use simdup_bench_tools::boilerplate::{
    Bags, Df, Sample, Score, Weigher, Weighting, document_frequencies, fingerprints, score,
};
use simdup_bench_tools::records::{Records, corpus_file};
use simdup_bench_tools::truth::JoinTruth;

/// Measure boilerplate down-weighting: candidates and recall per weighting.
#[derive(Parser, Debug)]
#[command(version, about)]
struct Args {
    /// A corpus folder (holding corpus.jsonl) or a corpus.jsonl file.
    #[arg(long)]
    corpus: PathBuf,
    /// The truth file [default: truth-words3.jsonl beside corpus.jsonl].
    #[arg(long)]
    truth: Option<PathBuf>,
    /// Weightings, comma-separated: tf, binary, sublinear, idf[@SAMPLE],
    /// cutPERCENT[@SAMPLE] (binary without the shingles in >= PERCENT% of
    /// the sampled documents). SAMPLE: all (default), firstN (the first N
    /// documents), spreadN (N documents evenly spread).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "tf,binary,sublinear,idf,idf@first1000,idf@first5000,idf@spread1000,\
cut0.5,cut1,cut2,cut5,cut10,cut20,cut1@first1000,cut1@first5000,cut1@spread1000,\
cut5@first1000,cut5@first5000,cut5@spread1000,cut10@first1000,cut10@spread1000"
    )]
    weightings: Vec<Weighting>,
    /// Relevant: word-3 Jaccard >= this.
    #[arg(long, default_value_t = 0.8)]
    threshold: f64,
    /// Hard: relevant and Jaccard < this.
    #[arg(long, default_value_t = 0.85)]
    hard_below: f64,
    /// The k of the summary table's columns.
    #[arg(long, value_delimiter = ',', default_value = "12,16,20")]
    k: Vec<usize>,
    /// Recall targets: for each, the least k whose recall reaches it, and
    /// its candidates.
    #[arg(long, value_delimiter = ',', default_value = "0.99,0.999")]
    recall: Vec<f64>,
    /// Also print every k from --k-min to --k-max for every weighting.
    #[arg(long)]
    detail: bool,
    /// Least k of the detail table.
    #[arg(long, default_value_t = 8)]
    k_min: usize,
    /// Largest k of the detail table.
    #[arg(long, default_value_t = 20)]
    k_max: usize,
    /// Hash seeds: every weighting is measured with seeds 0 to N - 1, and
    /// the figures are means over them.
    #[arg(long, default_value_t = 1)]
    seeds: u64,
    /// A name for the corpus in the output [default: its folder's name].
    #[arg(long)]
    name: Option<String>,
}

fn main() {
    if let Err(e) = run(Args::parse()) {
        eprintln!("boilerplate: {e}");
        std::process::exit(2);
    }
}

/// `12345` as `12,345`.
fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn run(args: Args) -> Result<(), String> {
    if !(args.threshold > 0.0 && args.threshold <= 1.0) {
        return Err(format!("--threshold {}: must be in (0, 1]", args.threshold));
    }
    if let Some(&k) = args.k.iter().chain([&args.k_max]).find(|&&k| k > 64) {
        return Err(format!("k = {k}: at most 64"));
    }
    let corpus = corpus_file(&args.corpus);
    let truth_path = args
        .truth
        .clone()
        .unwrap_or_else(|| corpus.with_file_name("truth-words3.jsonl"));
    let name = args.name.clone().unwrap_or_else(|| {
        corpus.parent().and_then(|p| p.file_name()).map_or_else(
            || corpus.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        )
    });

    let start = Instant::now();
    let records = Records::load(&corpus)?;
    let truth = JoinTruth::load(&truth_path, &records)?;
    if truth.header.features != "words:3" {
        return Err(format!(
            "{}: a truth of {}, expected words:3",
            truth_path.display(),
            truth.header.features
        ));
    }
    if truth.header.floor > args.threshold {
        return Err(format!(
            "{}: lists pairs from {}, above --threshold {}",
            truth_path.display(),
            truth.header.floor,
            args.threshold
        ));
    }
    let mut pairs: Vec<(u32, u32, f64)> =
        truth.pairs.iter().map(|(&(a, b), &j)| (a, b, j)).collect();
    pairs.sort_unstable_by_key(|p| (p.0, p.1));
    let read = start.elapsed().as_secs_f64();

    let start = Instant::now();
    let bags = Bags::words3(&records.texts);
    let shingled = start.elapsed().as_secs_f64();
    eprintln!(
        "boilerplate: {name}: {} documents read in {read:.1} s, shingled in {shingled:.1} s: {} distinct word 3-shingles, {} (document, shingle) incidences",
        bags.len(),
        bags.features(),
        bags.incidences()
    );

    if let Some(r) = args.recall.iter().find(|r| !(**r > 0.0 && **r <= 1.0)) {
        return Err(format!("--recall {r}: must be in (0, 1]"));
    }
    if args.seeds == 0 {
        return Err("--seeds 0: at least one".to_owned());
    }
    let hashes: Vec<Vec<u64>> = (0..args.seeds).map(|s| bags.seeded_hashes(s)).collect();
    let mut dfs: Vec<(Sample, Df)> = Vec::new();
    let mut rows: Vec<Row> = Vec::new();
    for &w in &args.weightings {
        let df = w.sample().map(|s| {
            if let Some(i) = dfs.iter().position(|(t, _)| *t == s) {
                return i;
            }
            let start = Instant::now();
            let df = document_frequencies(&bags, s);
            eprintln!(
                "boilerplate: document frequencies over {s} ({} documents) in {:.2} s",
                df.documents,
                start.elapsed().as_secs_f64()
            );
            dfs.push((s, df));
            dfs.len() - 1
        });
        let mut runs = Vec::new();
        let mut fps = None;
        for (seed, hashes) in hashes.iter().enumerate() {
            let start = Instant::now();
            let f = fingerprints(&bags, hashes, w, df.map(|i| &dfs[i].1));
            let fingerprinted = start.elapsed().as_secs_f64();
            let start = Instant::now();
            runs.push(score(
                &f.fingerprints,
                &pairs,
                args.threshold,
                args.hard_below,
            ));
            eprintln!(
                "boilerplate: {w}, seed {seed}: fingerprints in {fingerprinted:.2} s, every pair compared in {:.2} s",
                start.elapsed().as_secs_f64()
            );
            fps.get_or_insert(f);
        }
        let fps = fps.expect("at least one seed");
        let weigher = Weigher::new(w, df.map(|i| &dfs[i].1));
        let relevant: Vec<&(u32, u32, f64)> =
            pairs.iter().filter(|p| p.2 >= args.threshold).collect();
        let below = relevant
            .par_iter()
            .filter(|p| {
                weigher.jaccard(&bags.docs[p.0 as usize], &bags.docs[p.1 as usize]) < args.threshold
            })
            .count();
        rows.push(Row {
            weighted_below: below as f64 / relevant.len().max(1) as f64,
            weighting: w,
            score: Score::pool(&runs),
            runs,
            fallbacks: fps.fallbacks,
            zero_weighted: fps.zero_weighted,
        });
    }

    print!(
        "{}",
        report(&args, &name, bags.len(), bags.incidences(), &rows)
    );
    Ok(())
}

/// One weighting's measurements.
struct Row {
    weighting: Weighting,
    /// Every seed's runs pooled.
    score: Score,
    /// Each seed's run.
    runs: Vec<Score>,
    /// Documents that fell back to binary weights.
    fallbacks: usize,
    /// (document, shingle) incidences weighted 0.
    zero_weighted: usize,
    /// The share of relevant pairs whose weighted Jaccard is below the
    /// threshold.
    weighted_below: f64,
}

/// The Markdown tables.
fn report(args: &Args, name: &str, documents: usize, incidences: usize, rows: &[Row]) -> String {
    let mean = |x: f64| thousands(x.round() as u64);
    let (relevant, hard) = rows
        .first()
        .map_or((0, 0), |r| (r.runs[0].relevant, r.runs[0].hard));
    let mut out = String::new();
    let seeds = if args.seeds > 1 {
        format!("; means over {} hash seeds", args.seeds)
    } else {
        String::new()
    };
    let _ = writeln!(
        out,
        "#### {name}: {} documents, {} pairs with J >= {} ({} with J < {}){seeds}\n",
        thousands(documents as u64),
        thousands(relevant),
        args.threshold,
        thousands(hard),
        args.hard_below
    );
    let _ = write!(
        out,
        "| weighting | cut | fallbacks | J_w < {} |",
        args.threshold
    );
    for k in &args.k {
        let _ = write!(out, " k={k} candidates | R | R hard |");
    }
    for r in &args.recall {
        let _ = write!(out, " R >= {r}: k (candidates) |");
    }
    let _ = writeln!(
        out,
        "\n|---|---:|---:|---:|{}{}",
        "---:|---:|---:|".repeat(args.k.len()),
        "---:|".repeat(args.recall.len())
    );
    for row in rows {
        let s = &row.score;
        let _ = write!(
            out,
            "| {} | {:.1}% | {} | {:.3} |",
            row.weighting,
            100.0 * row.zero_weighted as f64 / incidences.max(1) as f64,
            thousands(row.fallbacks as u64),
            row.weighted_below
        );
        for &k in &args.k {
            let _ = write!(
                out,
                " {} | {:.3} | {:.3} |",
                mean(s.mean_candidates(k)),
                s.recall(k),
                s.hard_recall(k)
            );
        }
        let at = |r: f64| {
            let k = s.k_for_recall(r);
            format!("{k} ({})", mean(s.mean_candidates(k)))
        };
        for &r in &args.recall {
            let _ = write!(out, " {} |", at(r));
        }
        out.push('\n');
    }
    if args.detail {
        let _ = writeln!(
            out,
            "\n| weighting | k | candidates | false | R | R min..max | R hard |\n|---|---:|---:|---:|---:|---:|---:|"
        );
        for row in rows {
            let s = &row.score;
            for k in args.k_min..=args.k_max {
                let recalls = row.runs.iter().map(|r| r.recall(k));
                let lo = recalls.clone().fold(1.0, f64::min);
                let hi = recalls.fold(0.0, f64::max);
                let _ = writeln!(
                    out,
                    "| {} | {k} | {} | {} | {:.3} | {lo:.3}..{hi:.3} | {:.3} |",
                    row.weighting,
                    mean(s.mean_candidates(k)),
                    mean(s.false_candidates(k)),
                    s.recall(k),
                    s.hard_recall(k)
                );
            }
        }
    }
    out
}
