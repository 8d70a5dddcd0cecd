//! `simdup explain A B`: why two documents are near-duplicates (or not).

use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use serde::Serialize;

use simdup::fingerprint::{Fingerprinter, split_lines};
use simdup::jobs::explain::Explanation;
use simdup::report::{Paint, similarity};
use simdup::verify::passages::{LineRange, Passage};

use super::args::FeatureArgs;
use super::{ColorArg, Finished};

/// Lines of unique text shown per document in text output.
const SHOWN_LINES: usize = 20;

/// Output formats of `simdup explain`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ExplainFormat {
    /// For a person: figures, passages, and the lines unique to each side.
    Text,
    /// One JSON object with the same figures and line ranges.
    Json,
}

/// Arguments of `simdup explain`.
#[derive(Args, Debug)]
pub struct ExplainArgs {
    /// The first document (`-`: stdin).
    pub a: PathBuf,
    /// The second document (`-`: stdin).
    pub b: PathBuf,

    #[command(flatten)]
    pub features: FeatureArgs,

    /// Read files that look binary (a NUL byte in the first 8 KiB).
    #[arg(long, help_heading = "Input")]
    pub binary: bool,

    /// Output format.
    #[arg(long, value_enum, default_value_t = ExplainFormat::Text)]
    pub format: ExplainFormat,
}

/// What `explain --format json` prints: the figures are null when a
/// document has no features.
#[derive(Serialize)]
struct Printed<'a> {
    a: &'a str,
    b: &'a str,
    distance: Option<u32>,
    similarity: Option<f64>,
    jaccard: Option<f64>,
    a_features: usize,
    b_features: usize,
    common_features: u64,
    a_in_b: Option<f64>,
    b_in_a: Option<f64>,
    passages: &'a [Passage],
    shared_b: &'a [LineRange],
    unique_a: &'a [LineRange],
    unique_b: &'a [LineRange],
    options: String,
    digest: String,
    /// Two short texts, compared by their character pairs.
    short_texts: bool,
}

/// Runs `simdup explain`.
pub fn run(args: ExplainArgs, color: ColorArg) -> anyhow::Result<Finished> {
    let options = args.features.to_options()?;
    let fingerprinter = Fingerprinter::new(options.clone());
    let walk = simdup::input::WalkOptions {
        binary: args.binary,
        ..Default::default()
    };
    // Two short texts are compared by character pairs, as scan does.
    let short_texts = args.features.short_texts();
    let explanation =
        simdup::jobs::explain::run(&args.a, &args.b, &fingerprinter, &walk, short_texts)?;
    let e = &explanation;
    let without_features = e.without_features();
    let distance = without_features.is_empty().then_some(e.distance);

    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    match args.format {
        ExplainFormat::Json => {
            // Text output says it under its heading.
            if let Some(who) = super::no_features(&without_features) {
                simdup::diag::Diagnostics::new(false).warn(format_args!(
                    "{who}: nothing to compare (distance, similarity, jaccard, a_in_b and \
                     b_in_a are null)"
                ));
            }
            let printed = Printed {
                a: &e.a.name,
                b: &e.b.name,
                distance,
                similarity: distance.map(similarity),
                jaccard: e.jaccard,
                a_features: e.a.set.len(),
                b_features: e.b.set.len(),
                common_features: e.common,
                a_in_b: e.a_in_b,
                b_in_a: e.b_in_a,
                passages: &e.passages.passages,
                shared_b: &e.passages.shared_b,
                unique_a: &e.passages.unique_a,
                unique_b: &e.passages.unique_b,
                options: e.options.clone(),
                digest: e.digest.clone(),
                short_texts: e.short_texts,
            };
            serde_json::to_writer_pretty(&mut out, &printed)?;
            writeln!(out)?;
        }
        ExplainFormat::Text => {
            let paint = color.paint(io::stdout().is_terminal());
            write_text(e, &e.options, paint, &mut out)?;
        }
    }
    out.flush()?;
    Ok(Finished::ran(false))
}

fn lines(range: LineRange) -> String {
    if range.start == range.end {
        format!("line {}", range.start)
    } else {
        format!("lines {}-{}", range.start, range.end)
    }
}

fn write_text<W: Write>(
    e: &Explanation,
    options: &str,
    paint: Paint,
    out: &mut W,
) -> io::Result<()> {
    let (a, b) = (&e.a.name, &e.b.name);
    writeln!(out, "{}", paint.header(format_args!("{a}  ~  {b}")))?;
    match (e.jaccard, e.a_in_b, e.b_in_a) {
        (Some(jaccard), Some(a_in_b), Some(b_in_a)) => {
            writeln!(
                out,
                "  distance    {} bits (similarity {:.3})",
                paint.quiet(e.distance),
                similarity(e.distance)
            )?;
            writeln!(
                out,
                "  jaccard     {}  ({} features in common; {} in a, {} in b)",
                paint.figure(format_args!("{jaccard:.3}")),
                e.common,
                e.a.set.len(),
                e.b.set.len()
            )?;
            writeln!(
                out,
                "  a in b      {}  (|A∩B| / |A|)",
                paint.figure(format_args!("{a_in_b:.3}"))
            )?;
            writeln!(
                out,
                "  b in a      {}  (|A∩B| / |B|)",
                paint.figure(format_args!("{b_in_a:.3}"))
            )?;
        }
        _ => {
            let who = super::no_features(&e.without_features()).unwrap_or_default();
            writeln!(
                out,
                "  {}: {}",
                paint.warning(who),
                super::NOTHING_TO_COMPARE
            )?;
        }
    }
    writeln!(out, "  options     {options}")?;
    if e.short_texts {
        writeln!(
            out,
            "  compared    as two short texts, by character pairs (as scan compares them)"
        )?;
    }
    writeln!(out)?;
    let passages = &e.passages;
    if passages.passages.is_empty() {
        writeln!(out, "{}", paint.header("No shared passage"))?;
    } else {
        writeln!(out, "{}", paint.header("Shared passages"))?;
        for passage in &passages.passages {
            let elsewhere = match passage.b {
                Some(range) => format!("{b} {}", lines(range)),
                None => format!("{b}: nowhere in one passage"),
            };
            writeln!(
                out,
                "  {a} {}  =  {elsewhere}",
                paint.figure(lines(passage.a))
            )?;
        }
    }
    unique(out, a, &e.a.text, &passages.unique_a, paint)?;
    unique(out, b, &e.b.text, &passages.unique_b, paint)
}

/// The lines of one document the other does not share.
fn unique<W: Write>(
    out: &mut W,
    name: &str,
    text: &[u8],
    ranges: &[LineRange],
    paint: Paint,
) -> io::Result<()> {
    writeln!(out)?;
    if ranges.is_empty() {
        return writeln!(
            out,
            "{}",
            paint.header(format_args!("Nothing unique to {name}"))
        );
    }
    writeln!(out, "{}", paint.header(format_args!("Unique to {name}")))?;
    let all = split_lines(text);
    // The text of a line, without its ending and trailing blanks: a
    // markup file's text view pads its lines with spaces where markup was.
    let text_of = |number: u32| {
        let line = all.get(number as usize - 1).copied().unwrap_or_default();
        String::from_utf8_lossy(line).trim_end().to_string()
    };
    let mut shown = 0;
    // Blank lines say nothing: neither shown nor counted.
    let total = ranges
        .iter()
        .flat_map(|range| range.start..=range.end)
        .filter(|&number| !text_of(number).is_empty())
        .count();
    for range in ranges {
        writeln!(out, "  {}", paint.warning(lines(*range)))?;
        for number in range.start..=range.end {
            if shown == SHOWN_LINES {
                break;
            }
            let line = text_of(number);
            if line.is_empty() {
                continue;
            }
            writeln!(
                out,
                "    {} {line}",
                paint.quiet(format_args!("{number:>5} |"))
            )?;
            shown += 1;
        }
    }
    if total > shown {
        writeln!(out, "  ({} more unique lines not shown)", total - shown)?;
    }
    Ok(())
}
