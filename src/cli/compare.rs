//! `simdup compare A B`: how near two documents are, three ways.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use serde::Serialize;

use simdup::diag::Diagnostics;
use simdup::fingerprint::Fingerprinter;
use simdup::jobs::compare::Comparison;
use simdup::report::similarity;

use super::Finished;
use super::args::FeatureArgs;

/// Output formats of `simdup compare`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CompareFormat {
    /// One `name  value` line per figure.
    Text,
    /// One JSON object.
    Json,
}

/// Arguments of `simdup compare`.
#[derive(Args, Debug)]
pub struct CompareArgs {
    /// The first document (`-`: stdin).
    pub a: PathBuf,
    /// The second document (`-`: stdin).
    pub b: PathBuf,

    #[command(flatten)]
    pub features: FeatureArgs,

    /// Compare files that look binary (a NUL byte in the first 8 KiB).
    #[arg(long, help_heading = "Input")]
    pub binary: bool,

    /// Output format.
    #[arg(long, value_enum, default_value_t = CompareFormat::Text)]
    pub format: CompareFormat,
}

/// What `compare` prints: the figures are null when a document has no
/// features.
#[derive(Serialize)]
struct Printed<'a> {
    a: &'a str,
    b: &'a str,
    distance: Option<u32>,
    similarity: Option<f64>,
    jaccard: Option<f64>,
    a_simhash: String,
    b_simhash: String,
    a_features: u64,
    b_features: u64,
    options: String,
    digest: String,
    /// Two short texts, compared by their character pairs.
    short_texts: bool,
    /// The documents without features, said in text output.
    #[serde(skip)]
    without_features: Vec<&'a str>,
}

/// Runs `simdup compare`.
pub fn run(args: CompareArgs) -> anyhow::Result<Finished> {
    let options = args.features.to_options()?;
    let fingerprinter = Fingerprinter::new(options);
    let walk = simdup::input::WalkOptions {
        binary: args.binary,
        ..Default::default()
    };
    // Two short texts are compared by character pairs, as scan does.
    let comparison = simdup::jobs::compare::run(
        &args.a,
        &args.b,
        &fingerprinter,
        &walk,
        args.features.short_texts(),
    )?;
    let printed = printed(&comparison);
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    match args.format {
        CompareFormat::Json => {
            // Text output says it in its first line.
            if let Some(who) = super::no_features(&printed.without_features) {
                Diagnostics::new(false).warn(format_args!(
                    "{who}: nothing to compare (distance, similarity and jaccard are null)"
                ));
            }
            serde_json::to_writer_pretty(&mut out, &printed)?;
            writeln!(out)?;
        }
        CompareFormat::Text => write_text(&printed, &mut out)?,
    }
    out.flush()?;
    Ok(Finished::ran(false))
}

fn printed(c: &Comparison) -> Printed<'_> {
    let without_features = c.without_features();
    let distance = without_features.is_empty().then_some(c.distance);
    Printed {
        a: &c.a.name,
        b: &c.b.name,
        distance,
        similarity: distance.map(similarity),
        jaccard: c.jaccard,
        a_simhash: format!("{:016x}", c.a.fingerprint.simhash),
        b_simhash: format!("{:016x}", c.b.fingerprint.simhash),
        a_features: c.a.fingerprint.features,
        b_features: c.b.fingerprint.features,
        options: c.options.clone(),
        digest: c.digest.clone(),
        short_texts: c.short_texts,
        without_features,
    }
}

fn write_text<W: Write>(c: &Printed<'_>, out: &mut W) -> io::Result<()> {
    if let Some(who) = super::no_features(&c.without_features) {
        writeln!(out, "{who}: {}", super::NOTHING_TO_COMPARE)?;
    }
    let figure = |value: Option<String>| value.unwrap_or_else(|| "-".to_string());
    writeln!(
        out,
        "distance    {}",
        figure(c.distance.map(|d| d.to_string()))
    )?;
    writeln!(
        out,
        "similarity  {}",
        figure(c.similarity.map(|s| format!("{s:.6}")))
    )?;
    writeln!(
        out,
        "jaccard     {}",
        figure(c.jaccard.map(|j| format!("{j:.6}")))
    )?;
    writeln!(
        out,
        "a           {}  {} ({} features)",
        c.a_simhash, c.a, c.a_features
    )?;
    writeln!(
        out,
        "b           {}  {} ({} features)",
        c.b_simhash, c.b, c.b_features
    )?;
    writeln!(out, "options     {} digest={}", c.options, c.digest)?;
    if c.short_texts {
        writeln!(
            out,
            "compared    as two short texts, by character pairs (as scan compares them)"
        )?;
    }
    Ok(())
}
