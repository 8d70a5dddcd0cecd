//! `simdup compare A B`: how near two documents are, three ways.

use std::fs::File;
use std::io::{self, BufWriter, Seek, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, ValueEnum};
use serde::Serialize;

use super::args::FeatureArgs;
use crate::fingerprint::{Fingerprinter, jaccard};
use crate::report::similarity;

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

    /// Output format.
    #[arg(long, value_enum, default_value_t = CompareFormat::Text)]
    pub format: CompareFormat,
}

/// What `compare` prints.
#[derive(Serialize)]
struct Comparison {
    a: String,
    b: String,
    distance: u32,
    similarity: f64,
    jaccard: f64,
    a_simhash: String,
    b_simhash: String,
    a_features: u64,
    b_features: u64,
    options: String,
    digest: String,
}

/// A document measured: its fingerprint and its feature set.
struct Measured {
    simhash: u64,
    features: u64,
    set: Vec<u64>,
}

/// Runs `simdup compare`.
pub fn run(args: CompareArgs) -> anyhow::Result<ExitCode> {
    if super::is_stdin(&args.a) && super::is_stdin(&args.b) {
        anyhow::bail!("only one of A and B can be stdin ('-')");
    }
    let options = args.features.to_options()?;
    let fingerprinter = Fingerprinter::new(options.clone());
    let a = measure(&fingerprinter, &args.a)?;
    let b = measure(&fingerprinter, &args.b)?;
    for (path, measured) in [(&args.a, &a), (&args.b, &b)] {
        if measured.features == 0 {
            crate::diag::print_stderr(format_args!(
                "simdup: warning: {}: no features (empty): distance and similarity mean nothing",
                path.display()
            ));
        }
    }
    let distance = (a.simhash ^ b.simhash).count_ones();
    let comparison = Comparison {
        a: args.a.display().to_string(),
        b: args.b.display().to_string(),
        distance,
        similarity: similarity(distance),
        jaccard: jaccard(&a.set, &b.set),
        a_simhash: format!("{:016x}", a.simhash),
        b_simhash: format!("{:016x}", b.simhash),
        a_features: a.features,
        b_features: b.features,
        options: options.describe(),
        digest: options.digest(),
    };
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    match args.format {
        CompareFormat::Json => {
            serde_json::to_writer_pretty(&mut out, &comparison)?;
            writeln!(out)?;
        }
        CompareFormat::Text => write_text(&comparison, &mut out)?,
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn write_text<W: Write>(c: &Comparison, out: &mut W) -> io::Result<()> {
    writeln!(out, "distance    {}", c.distance)?;
    writeln!(out, "similarity  {:.6}", c.similarity)?;
    writeln!(out, "jaccard     {:.6}", c.jaccard)?;
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
    writeln!(out, "options     {} digest={}", c.options, c.digest)
}

/// Reads a document twice (fingerprint, then feature set); stdin is first
/// copied to a temporary file, so memory stays bounded.
fn measure(fingerprinter: &Fingerprinter, path: &Path) -> anyhow::Result<Measured> {
    let mut file = if super::is_stdin(path) {
        let mut spool = tempfile::tempfile().context("creating a temporary file for stdin")?;
        io::copy(&mut io::stdin().lock(), &mut spool).context("reading stdin")?;
        spool.rewind()?;
        spool
    } else {
        File::open(path).with_context(|| path.display().to_string())?
    };
    let fingerprint = fingerprinter
        .fingerprint_reader(&mut file)
        .with_context(|| path.display().to_string())?;
    file.rewind()?;
    let set = fingerprinter
        .feature_set_reader(&mut file)
        .with_context(|| path.display().to_string())?;
    Ok(Measured {
        simhash: fingerprint.simhash,
        features: fingerprint.features,
        set,
    })
}
