//! `simdup distributed`: the steps a distributed scan runs on its workers
//! (spark/simdup_spark.py; docs/SPARK.md): the block-table plan, record
//! fingerprints, and the verification of candidate pairs. Hidden from the
//! main help: its input and output are made for a program, not a person.

use std::io::{self, BufWriter, Write};

use clap::{Args, Subcommand};
use serde::Serialize;

use simdup::jobs::distributed::{self, Measures};
use simdup::search::{self, TablePlan};

use super::Finished;
use super::args::FeatureArgs;

/// Arguments of `simdup distributed`.
#[derive(Args, Debug)]
pub struct DistributedArgs {
    /// The step.
    #[command(subcommand)]
    pub step: Step,
}

/// The steps.
#[derive(Subcommand, Debug)]
pub enum Step {
    /// Print the exact search's block tables for N distinct fingerprints at distance K, as JSON.
    Plan {
        /// The search radius.
        #[arg(short = 'k', long = "max-distance", value_name = "K")]
        max_distance: u32,
        /// Distinct fingerprints searched.
        #[arg(short = 'n', long = "fingerprints", value_name = "N")]
        fingerprints: usize,
        /// Cut the 64 bits into M blocks instead of the cost model's choice.
        #[arg(long, value_name = "M")]
        blocks: Option<u32>,
    },
    /// Read JSON Lines records ({"id", "text"}) on stdin; print each one's fingerprints.
    Fingerprint {
        #[command(flatten)]
        features: FeatureArgs,
    },
    /// Read JSON Lines pairs ({"a", "b", "a_text", "b_text", "short_texts"}) on stdin; print
    /// whether each is a near-duplicate and its exact Jaccard.
    Verify {
        #[command(flatten)]
        features: FeatureArgs,
        /// Near-duplicates are pairs whose exact Jaccard is at least T (0-1).
        #[arg(short = 't', long, value_name = "T", value_parser = parse_fraction,
              default_value = super::args::defaults::THRESHOLD)]
        threshold: f64,
    },
}

/// The plan as printed: masks in hex, so no reader loses bits past 2^53.
#[derive(Serialize)]
struct PrintedPlan {
    max_distance: u32,
    fingerprints: usize,
    /// `nothing`, `brute` or `blocks`.
    plan: &'static str,
    block_masks: Vec<String>,
    tables: Vec<Vec<u32>>,
}

/// Runs `simdup distributed`.
pub fn run(args: DistributedArgs) -> anyhow::Result<Finished> {
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    match args.step {
        Step::Plan {
            max_distance,
            fingerprints,
            blocks,
        } => {
            let plan = search::table_plan(fingerprints, max_distance, blocks)?;
            let (name, block_masks, tables) = match plan {
                TablePlan::Nothing => ("nothing", Vec::new(), Vec::new()),
                TablePlan::Brute => ("brute", Vec::new(), Vec::new()),
                TablePlan::Blocks {
                    block_masks,
                    tables,
                } => ("blocks", block_masks, tables),
            };
            let printed = PrintedPlan {
                max_distance,
                fingerprints,
                plan: name,
                block_masks: block_masks
                    .iter()
                    .map(|mask| format!("{mask:016x}"))
                    .collect(),
                tables,
            };
            serde_json::to_writer(&mut out, &printed)?;
            writeln!(out)?;
        }
        Step::Fingerprint { features } => {
            let measures = measures(&features)?;
            distributed::fingerprint_records(
                io::stdin(),
                simdup::error::STDIN,
                &measures,
                &mut out,
            )?;
        }
        Step::Verify {
            features,
            threshold,
        } => {
            let measures = measures(&features)?;
            distributed::verify_pairs(
                io::stdin().lock(),
                simdup::error::STDIN,
                &measures,
                threshold,
                &mut out,
            )?;
        }
    }
    out.flush()?;
    Ok(Finished::default())
}

/// The scan's measures for these feature options: short texts by
/// character pairs unless the shingles were chosen, as in `scan`.
fn measures(features: &FeatureArgs) -> anyhow::Result<Measures> {
    Ok(Measures::new(
        features.to_options()?,
        features.shingle.is_none(),
    ))
}

fn parse_fraction(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(value) if (0.0..=1.0).contains(&value) => Ok(value),
        _ => Err(format!("expected a number from 0 to 1, got '{text}'")),
    }
}
