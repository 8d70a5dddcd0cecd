//! truth: exact ground truth for any corpus. Reads a `corpus.jsonl` and
//! writes every pair of documents whose exact Jaccard (under one feature
//! definition of benches/tools/src/shingle.rs) is >= a floor: a similarity
//! join (PPJoin), no sampling, no hashing.
//!
//! Output: a header line `{"header": {...}}` (features, floor, corpus digest,
//! counts), then `{"a", "b", "jaccard"}` per pair, `a` before `b` in the
//! corpus, sorted by `a` then `b`.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::time::Instant;

use clap::Parser;
use simdup_bench_tools::features::Feature;
use simdup_bench_tools::join::{JoinStats, brute_force, rank_tokens, similarity_join};
use simdup_bench_tools::records::{Records, corpus_file};
use simdup_bench_tools::truth::{COUNTED, JoinHeader, write_join_truth};

/// Write every pair of a corpus whose exact Jaccard is >= a floor.
#[derive(Parser, Debug)]
#[command(version, about)]
struct Args {
    /// A corpus folder (holding corpus.jsonl) or a corpus.jsonl file.
    #[arg(long)]
    corpus: PathBuf,
    /// Feature definition: words:1..3 (word shingles) or chars:1..5
    /// (character grams of the normalised text).
    #[arg(long, default_value = "words:3")]
    features: Feature,
    /// List the pairs with Jaccard >= this (0 < floor <= 1).
    #[arg(long, default_value_t = 0.5)]
    floor: f64,
    /// Output file [default: truth-FEATURES.jsonl beside corpus.jsonl,
    /// e.g. truth-words3.jsonl].
    #[arg(long)]
    out: Option<PathBuf>,
    /// Compare every pair instead (quadratic: a check of the join on small
    /// corpora; the output is the same).
    #[arg(long)]
    brute_force: bool,
    /// Leave out the pairs of two documents without features (Jaccard 1 by
    /// definition), which simdup never pairs: for a corpus where some
    /// documents have no words, such as the text view of markup files.
    #[arg(long)]
    no_empty_pairs: bool,
}

fn main() {
    if let Err(e) = run(Args::parse()) {
        eprintln!("truth: {e}");
        std::process::exit(2);
    }
}

fn run(args: Args) -> Result<(), String> {
    if !(args.floor > 0.0 && args.floor <= 1.0) {
        return Err(format!("--floor {}: must be in (0, 1]", args.floor));
    }
    let start = Instant::now();
    let corpus = corpus_file(&args.corpus);
    let records = Records::load(&corpus)?;
    let out_path = args.out.clone().unwrap_or_else(|| {
        corpus.with_file_name(format!("truth-{}.jsonl", args.features.file_stem()))
    });
    let sets = args.features.corpus(&records.texts);
    let features: usize = sets.iter().map(Vec::len).sum();
    let empty: Vec<bool> = sets.iter().map(Vec::is_empty).collect();
    let (mut pairs, stats) = if args.brute_force {
        let stats = JoinStats {
            tokens: 0,
            empty: sets.iter().filter(|s| s.is_empty()).count(),
            verified: (sets.len() as u64 * sets.len().saturating_sub(1) as u64) / 2,
        };
        (brute_force(&sets, args.floor), stats)
    } else {
        let (ranked, _) = rank_tokens(sets);
        similarity_join(&ranked, args.floor)
    };
    let before = pairs.len();
    if args.no_empty_pairs {
        pairs.retain(|p| !(empty[p.a as usize] && empty[p.b as usize]));
    }
    let empty_pairs_left_out = before - pairs.len();
    let pairs_at_least: BTreeMap<String, usize> = COUNTED
        .iter()
        .filter(|&&t| t >= args.floor)
        .map(|&t| {
            (
                t.to_string(),
                pairs.iter().filter(|p| p.jaccard >= t).count(),
            )
        })
        .collect();
    let header = JoinHeader {
        features: args.features.to_string(),
        floor: args.floor,
        documents: records.len(),
        empty_documents: stats.empty,
        empty_pairs_left_out,
        corpus_digest: records.digest(),
        pairs: pairs.len(),
        pairs_at_least,
        seconds: (start.elapsed().as_secs_f64() * 100.0).round() / 100.0,
    };
    let file = File::create(&out_path).map_err(|e| format!("{}: {e}", out_path.display()))?;
    let mut out = BufWriter::new(file);
    write_join_truth(&mut out, &header, &pairs, &records.ids)
        .and_then(|()| out.flush())
        .map_err(|e| format!("{}: {e}", out_path.display()))?;
    let distinct = if args.brute_force {
        String::new()
    } else {
        format!(" ({} distinct)", stats.tokens)
    };
    let left_out = if args.no_empty_pairs {
        format!(" ({empty_pairs_left_out} pairs of documents without features left out)")
    } else {
        String::new()
    };
    eprintln!(
        "truth: {} documents ({} without features), {} {} features{distinct}, {} candidates verified: {} pairs >= {}{left_out} in {:.1} s -> {}",
        records.len(),
        stats.empty,
        features,
        args.features,
        stats.verified,
        pairs.len(),
        args.floor,
        start.elapsed().as_secs_f64(),
        out_path.display()
    );
    Ok(())
}
