//! gen-corpus: writes a seeded synthetic corpus with near-duplicate clusters
//! and its exact ground truth.
//!
//! Output folder: `docs/NN/NN/NNNNNN.txt` (one file per document),
//! `corpus.jsonl` (`{"id": "<relative path>", "text": "..."}` per line, in
//! slot order), `truth.jsonl` (every pair within a cluster, sorted by ids)
//! and `manifest.json` (parameters and counts). The same arguments always
//! give the same bytes.

use std::fs;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Parser;
use rayon::prelude::*;
use serde::Serialize;
use simdup_bench_tools::corpus::{Corpus, Params, edit};
use simdup_bench_tools::truth::TruthPair;

/// Generate a synthetic corpus with known near-duplicates.
#[derive(Parser, Debug)]
#[command(version, about)]
struct Args {
    /// Output folder (created; must be empty unless --force).
    #[arg(long)]
    out: PathBuf,
    /// Number of documents.
    #[arg(long, default_value_t = 1_000)]
    docs: usize,
    /// Seed: the same seed and options give the same bytes.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Share of documents in near-duplicate clusters.
    #[arg(long, default_value_t = 0.3)]
    duplicate_share: f64,
    /// Largest cluster (an original and its variants).
    #[arg(long, default_value_t = 6)]
    max_cluster: usize,
    /// Median length of an original in words (log-normal, --min-words to 40,000).
    #[arg(long, default_value_t = 250)]
    median_words: usize,
    /// Shortest original in words; below 30, added boilerplate can outweigh
    /// a document's own text.
    #[arg(long, default_value_t = simdup_bench_tools::corpus::MIN_WORDS)]
    min_words: usize,
    /// Words in the Zipf vocabulary.
    #[arg(long, default_value_t = 50_000)]
    vocabulary: usize,
    /// Write only corpus.jsonl, truth.jsonl and manifest.json, no files.
    #[arg(long)]
    no_files: bool,
    /// Replace a corpus already in the output folder.
    #[arg(long)]
    force: bool,
}

/// Errors are messages naming the file; this tool needs nothing richer.
type Result<T> = std::result::Result<T, String>;

/// Prefixes an error with what was being done (usually a path).
fn context<T, E: std::fmt::Display>(
    r: std::result::Result<T, E>,
    what: impl std::fmt::Display,
) -> Result<T> {
    r.map_err(|e| format!("{what}: {e}"))
}

#[derive(Serialize)]
struct Record<'a> {
    id: &'a str,
    text: &'a str,
}

#[derive(Serialize)]
struct Manifest {
    generator: &'static str,
    seed: u64,
    docs: usize,
    duplicate_share: f64,
    max_cluster: usize,
    median_words: usize,
    min_words: usize,
    vocabulary: usize,
    bytes: u64,
    clusters: usize,
    docs_in_clusters: usize,
    pairs: usize,
    recipes: Vec<String>,
}

/// Slots generated and written per batch: bounds memory for any corpus size.
const BATCH: usize = 4_096;

fn main() {
    if let Err(e) = run(Args::parse()) {
        eprintln!("gen-corpus: {e}");
        std::process::exit(2);
    }
}

fn run(args: Args) -> Result<()> {
    let start = Instant::now();
    prepare(&args.out, args.force)?;
    let corpus = Corpus::plan(Params {
        docs: args.docs,
        seed: args.seed,
        duplicate_share: args.duplicate_share,
        max_cluster: args.max_cluster,
        median_words: args.median_words,
        min_words: args.min_words,
        vocabulary: args.vocabulary,
    });

    let jsonl_path = args.out.join("corpus.jsonl");
    let mut jsonl = BufWriter::new(context(
        fs::File::create(&jsonl_path),
        jsonl_path.display(),
    )?);
    let mut bytes = 0u64;
    for first in (0..corpus.len()).step_by(BATCH) {
        let slots = first..(first + BATCH).min(corpus.len());
        let docs: Vec<(String, String)> = slots
            .into_par_iter()
            .map(|s| (corpus.id(s), corpus.text(s)))
            .collect();
        if !args.no_files {
            write_files(&args.out, &docs)?;
        }
        for (id, text) in &docs {
            bytes += text.len() as u64;
            context(
                serde_json::to_writer(&mut jsonl, &Record { id, text }),
                jsonl_path.display(),
            )?;
            context(jsonl.write_all(b"\n"), jsonl_path.display())?;
        }
    }
    context(jsonl.flush(), jsonl_path.display())?;

    let mut pairs: Vec<TruthPair> = (0..corpus.clusters().len())
        .into_par_iter()
        .flat_map_iter(|c| corpus.cluster_pairs(c))
        .collect();
    pairs.sort_unstable_by(|x, y| (&x.a, &x.b).cmp(&(&y.a, &y.b)));
    let truth_path = args.out.join("truth.jsonl");
    let mut truth = BufWriter::new(context(
        fs::File::create(&truth_path),
        truth_path.display(),
    )?);
    for p in &pairs {
        context(serde_json::to_writer(&mut truth, p), truth_path.display())?;
        context(truth.write_all(b"\n"), truth_path.display())?;
    }
    context(truth.flush(), truth_path.display())?;

    let manifest = Manifest {
        generator: concat!("gen-corpus ", env!("CARGO_PKG_VERSION")),
        seed: args.seed,
        docs: corpus.len(),
        duplicate_share: args.duplicate_share,
        max_cluster: args.max_cluster,
        median_words: args.median_words,
        min_words: args.min_words,
        vocabulary: args.vocabulary,
        bytes,
        clusters: corpus.clusters().len(),
        docs_in_clusters: corpus.clusters().iter().map(Vec::len).sum(),
        pairs: pairs.len(),
        recipes: edit::recipes().iter().map(ToString::to_string).collect(),
    };
    let manifest_path = args.out.join("manifest.json");
    let mut text = context(serde_json::to_string_pretty(&manifest), "manifest")?;
    text.push('\n');
    context(fs::write(&manifest_path, text), manifest_path.display())?;

    eprintln!(
        "gen-corpus: {} documents, {:.1} MB, {} clusters, {} pairs in {:.1} s -> {}",
        corpus.len(),
        bytes as f64 / 1e6,
        manifest.clusters,
        pairs.len(),
        start.elapsed().as_secs_f64(),
        args.out.display()
    );
    Ok(())
}

/// Creates the output folder, refusing to mix a new corpus into an old one.
fn prepare(out: &Path, force: bool) -> Result<()> {
    const OURS: [&str; 4] = ["docs", "corpus.jsonl", "truth.jsonl", "manifest.json"];
    context(fs::create_dir_all(out), out.display())?;
    let mut entries = context(fs::read_dir(out), out.display())?;
    if entries.next().is_none() {
        return Ok(());
    }
    if !force {
        return Err(format!(
            "{} is not empty (use --force to replace a corpus there)",
            out.display()
        ));
    }
    for name in OURS {
        let path = out.join(name);
        let removed = if path.is_dir() {
            fs::remove_dir_all(&path)
        } else {
            fs::remove_file(&path)
        };
        match removed {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(format!("{}: {e}", path.display()));
            }
            _ => {}
        }
    }
    Ok(())
}

/// Writes one batch of documents as files, in parallel.
fn write_files(out: &Path, docs: &[(String, String)]) -> Result<()> {
    let mut last_parent = None;
    for (id, _) in docs {
        let parent = Path::new(id).parent();
        if parent != last_parent {
            if let Some(dir) = parent {
                context(fs::create_dir_all(out.join(dir)), dir.display())?;
            }
            last_parent = parent;
        }
    }
    docs.par_iter().try_for_each(|(id, text)| {
        let path = out.join(id);
        context(fs::write(&path, text), path.display())
    })
}
