//! compare-features: how feature definitions disagree on a corpus. For each
//! definition (word shingles, character grams) it finds every pair with
//! exact Jaccard >= a threshold, then prints, as Markdown:
//!
//! - how many pairs each definition finds, and how many of them every
//!   other definition also puts at or above the threshold;
//! - an even sample of the pairs any definition finds, with their Jaccard
//!   under every definition (and the texts, when short);
//! - for each definition, a sample of the pairs it finds that word
//!   3-shingles do not: what a looser definition adds.
//!
//! Meant for short records (titles, one-line descriptions), where word
//! 3-shingles barely exist.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

use clap::Parser;
use simdup_bench_tools::features::Feature;
use simdup_bench_tools::join::{rank_tokens, similarity_join};
use simdup_bench_tools::records::Records;
use simdup_bench_tools::rng::Rng;
use simdup_bench_tools::shingle::jaccard;

/// Compare feature definitions by the pairs each finds.
#[derive(Parser, Debug)]
#[command(version, about)]
struct Args {
    /// A corpus folder (holding corpus.jsonl) or a corpus.jsonl file.
    #[arg(long)]
    corpus: PathBuf,
    /// Feature definitions, comma-separated.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "words:1,words:2,words:3,chars:2,chars:3,chars:4,chars:5"
    )]
    features: Vec<Feature>,
    /// A pair counts when its Jaccard is >= this.
    #[arg(long, default_value_t = 0.8)]
    threshold: f64,
    /// Pairs in the sample of all pairs.
    #[arg(long, default_value_t = 30)]
    sample: usize,
    /// Pairs shown per definition that word 3-shingles do not find.
    #[arg(long, default_value_t = 5)]
    extra: usize,
    /// Seed of the samples.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Texts longer than this are shown by id.
    #[arg(long, default_value_t = 90)]
    max_text: usize,
}

fn main() {
    if let Err(e) = run(Args::parse()) {
        eprintln!("compare-features: {e}");
        std::process::exit(2);
    }
}

fn run(args: Args) -> Result<(), String> {
    let records = Records::load(&args.corpus)?;
    let t = args.threshold;
    if !(t > 0.0 && t <= 1.0) {
        return Err(format!("--threshold {t}: must be in (0, 1]"));
    }
    let mut found: Vec<HashSet<(u32, u32)>> = Vec::new();
    let mut sets: Vec<Vec<Vec<u128>>> = Vec::new();
    for f in &args.features {
        let start = Instant::now();
        let s = f.corpus(&records.texts);
        let (ranked, _) = rank_tokens(s.clone());
        let (pairs, _) = similarity_join(&ranked, t);
        eprintln!(
            "compare-features: {f}: {} pairs >= {t} in {:.1} s",
            pairs.len(),
            start.elapsed().as_secs_f64()
        );
        found.push(pairs.iter().map(|p| (p.a, p.b)).collect());
        sets.push(s);
    }
    let j = |k: usize, (a, b): (u32, u32)| jaccard(&sets[k][a as usize], &sets[k][b as usize]);
    let names: Vec<String> = args.features.iter().map(Feature::to_string).collect();
    let mut out = String::new();

    let _ = writeln!(
        out,
        "Pairs with Jaccard >= {t} under each definition (rows), and the share of them that each other definition (columns) also puts at >= {t}:\n"
    );
    let _ = writeln!(out, "| definition | pairs | {} |", names.join(" | "));
    let _ = writeln!(out, "|---|---:|{}", "---:|".repeat(names.len()));
    for (r, pairs) in found.iter().enumerate() {
        let _ = write!(out, "| {} | {} |", names[r], pairs.len());
        for c in 0..names.len() {
            let agree = pairs.iter().filter(|&&p| c == r || j(c, p) >= t).count();
            let share = if pairs.is_empty() {
                1.0
            } else {
                agree as f64 / pairs.len() as f64
            };
            let _ = write!(out, " {share:.2} |");
        }
        out.push('\n');
    }

    let shown = |d: u32| {
        let text = records.texts[d as usize].trim();
        if text.chars().count() <= args.max_text && !text.contains('\n') {
            text.replace('|', "\\|")
        } else {
            format!("`{}`", records.ids[d as usize])
        }
    };
    let table = |out: &mut String, pairs: &[(u32, u32)]| {
        let _ = writeln!(out, "| a | b | {} |", names.join(" | "));
        let _ = writeln!(out, "|---|---|{}", "---:|".repeat(names.len()));
        for &p in pairs {
            let _ = write!(out, "| {} | {} |", shown(p.0), shown(p.1));
            for k in 0..names.len() {
                let v = j(k, p);
                if v >= t {
                    let _ = write!(out, " **{v:.2}** |");
                } else {
                    let _ = write!(out, " {v:.2} |");
                }
            }
            out.push('\n');
        }
    };

    // Pairs every definition puts at 1 (the same words) say nothing about
    // the definitions: the samples leave them out.
    let same = |p: (u32, u32)| (0..names.len()).all(|k| j(k, p) == 1.0);
    let mut all: Vec<(u32, u32)> = found.iter().flatten().copied().collect();
    all.sort_unstable();
    all.dedup();
    let identical = all.iter().filter(|&&p| same(p)).count();
    all.retain(|&p| !same(p));
    let mut rng = Rng::new(args.seed);
    let sample = pick(&mut rng, &all, args.sample);
    let _ = writeln!(
        out,
        "\n{} pairs are at >= {t} under some definition; {identical} of them have the same words (Jaccard 1 under every definition). A sample of the other {}, at most one pair per document (bold: >= {t}):\n",
        all.len() + identical,
        all.len()
    );
    table(&mut out, &sample);

    if let Some(w3) = args.features.iter().position(|&f| f == Feature::WORDS3) {
        for (k, pairs) in found.iter().enumerate() {
            if k == w3 {
                continue;
            }
            let mut only: Vec<(u32, u32)> =
                pairs.iter().filter(|&&p| j(w3, p) < t).copied().collect();
            only.sort_unstable();
            if only.is_empty() {
                continue;
            }
            let sample = pick(&mut rng, &only, args.extra);
            let _ = writeln!(
                out,
                "\n{} finds {} pairs that words:3 puts below {t}; a sample:\n",
                names[k],
                only.len()
            );
            table(&mut out, &sample);
        }
    }
    print!("{out}");
    Ok(())
}

/// Up to `n` pairs drawn at random, in their order, no document twice (so
/// large clusters of near-copies do not fill the sample).
fn pick(rng: &mut Rng, pairs: &[(u32, u32)], n: usize) -> Vec<(u32, u32)> {
    let mut idx: Vec<usize> = (0..pairs.len()).collect();
    rng.shuffle(&mut idx);
    let mut used = HashSet::new();
    let mut out = Vec::new();
    for i in idx {
        let (a, b) = pairs[i];
        if out.len() == n {
            break;
        }
        if !used.contains(&a) && !used.contains(&b) {
            used.insert(a);
            used.insert(b);
            out.push((a, b));
        }
    }
    out.sort_unstable();
    out
}
