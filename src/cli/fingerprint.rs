//! `simdup fingerprint`: one fingerprint per document, or htm.core's
//! sparse encoding with `--sdr`.

use std::io::{self, BufWriter, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};

use super::args::{FeatureArgs, WalkArgs};
use crate::diag::Diagnostics;
use crate::fingerprint::{Fingerprint, Fingerprinter, SdrShape};
use crate::input::{self, FileDocument, WalkEntry};
use crate::report::fingerprints::{FingerprintFormat, FingerprintWriter};
use crate::scan::ordered::for_each_ordered;
use crate::scan::{Outcome, fingerprint_file};

/// Output formats of `simdup fingerprint`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FingerprintFormatArg {
    /// `<16 hex digits>  <path>`, after a header naming the options.
    Text,
    /// One JSON object per document.
    Jsonl,
}

/// Arguments of `simdup fingerprint`.
#[derive(Args, Debug)]
pub struct FingerprintArgs {
    /// Files and directories (`-` or none: stdin is one document).
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,

    #[command(flatten)]
    pub features: FeatureArgs,

    #[command(flatten)]
    pub walk: WalkArgs,

    /// Output format.
    #[arg(long, value_enum, default_value_t = FingerprintFormatArg::Text)]
    pub format: FingerprintFormatArg,

    /// Print htm.core's sparse encoding instead: the indices of the ACTIVE largest of SIZE sums.
    #[arg(long, value_name = "SIZE:ACTIVE")]
    pub sdr: Option<SdrShape>,

    /// Worker threads (default: one per core).
    #[arg(short = 'j', long, value_name = "N", default_value_t = 0)]
    pub threads: usize,
}

/// A document to fingerprint: a file found by the walk, or stdin.
enum Target {
    File(FileDocument),
    Stdin,
}

/// Runs `simdup fingerprint`.
pub fn run(args: FingerprintArgs) -> anyhow::Result<ExitCode> {
    super::set_threads(args.threads)?;
    let options = args.features.to_options()?;
    let walk_options = args.walk.to_options();
    let fingerprinter = Fingerprinter::new(options.clone());
    let mut diag = Diagnostics::new(false);

    let paths = if args.paths.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        args.paths.clone()
    };
    let mut targets = Vec::new();
    for path in &paths {
        if super::is_stdin(path) {
            targets.push(Target::Stdin);
            continue;
        }
        for entry in input::walk(std::slice::from_ref(path), &walk_options) {
            match entry {
                WalkEntry::Document(file) => targets.push(Target::File(file)),
                WalkEntry::Skipped { display, reason } => {
                    diag.tally.skip(reason.as_str());
                    diag.note(format_args!("{display}: skipped ({reason})"));
                }
                WalkEntry::Error(error) => diag.error(error),
            }
        }
    }

    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut write_error = None;
    if let Some(SdrShape { size, active }) = args.sdr {
        // The sparse encoding names its own parameters on each line.
        for_each_ordered(
            &targets,
            |target| sdr(&fingerprinter, target, size, active),
            |_, target, result| {
                match result {
                    Ok(bits) if bits.is_empty() => diag.warn(format_args!(
                        "{}: no features (empty), no encoding",
                        name(target)
                    )),
                    Ok(bits) => {
                        let bits: Vec<String> = bits.iter().map(usize::to_string).collect();
                        if let Err(error) = writeln!(out, "{}  {}", bits.join(","), name(target)) {
                            write_error = Some(error);
                            return ControlFlow::Break(());
                        }
                    }
                    Err(error) => diag.error(error),
                }
                ControlFlow::Continue(())
            },
        );
    } else {
        let format = match args.format {
            FingerprintFormatArg::Text => FingerprintFormat::Text,
            FingerprintFormatArg::Jsonl => FingerprintFormat::Jsonl,
        };
        let writer = FingerprintWriter::new(format, options.describe(), options.digest());
        writer.header(&mut out)?;
        for_each_ordered(
            &targets,
            |target| fingerprint(&fingerprinter, target, &walk_options),
            |_, target, outcome| {
                match outcome {
                    Outcome::Done(fingerprint) => {
                        if let Err(error) =
                            emit(&writer, &name(target), &fingerprint, &mut out, &diag)
                        {
                            // Stop: nothing more can be written (a closed pipe, a full disk).
                            write_error = Some(error);
                            return ControlFlow::Break(());
                        }
                    }
                    Outcome::Skipped(reason) => {
                        diag.warn(format_args!("{}: skipped ({reason})", name(target)))
                    }
                    Outcome::Failed(error) => diag.error(error),
                }
                ControlFlow::Continue(())
            },
        );
    }
    if let Some(error) = write_error {
        return Err(error.into());
    }
    out.flush()?;
    Ok(ExitCode::from(if diag.errored() { 2 } else { 0 }))
}

fn emit<W: Write>(
    writer: &FingerprintWriter,
    name: &str,
    fingerprint: &Fingerprint,
    out: &mut W,
    diag: &Diagnostics,
) -> io::Result<()> {
    if fingerprint.features == 0 {
        diag.warn(format_args!("{name}: no features (empty), no fingerprint"));
    }
    writer.entry(name, fingerprint, out)
}

fn name(target: &Target) -> String {
    match target {
        Target::File(file) => file.display.clone(),
        Target::Stdin => "-".to_string(),
    }
}

fn fingerprint(
    fingerprinter: &Fingerprinter,
    target: &Target,
    walk_options: &input::WalkOptions,
) -> Outcome {
    match target {
        Target::File(file) => fingerprint_file(fingerprinter, file, walk_options),
        Target::Stdin => match fingerprinter.fingerprint_reader(io::stdin().lock()) {
            Ok(fingerprint) => Outcome::Done(fingerprint),
            Err(source) => Outcome::Failed(crate::Error::Io {
                path: "-".into(),
                source,
            }),
        },
    }
}

fn sdr(
    fingerprinter: &Fingerprinter,
    target: &Target,
    size: usize,
    active: usize,
) -> Result<Vec<usize>, crate::Error> {
    let (path, result) = match target {
        Target::File(file) => (
            file.path.clone(),
            std::fs::File::open(&file.path)
                .and_then(|reader| fingerprinter.sdr_reader(reader, size, active)),
        ),
        Target::Stdin => (
            PathBuf::from("-"),
            fingerprinter.sdr_reader(io::stdin().lock(), size, active),
        ),
    };
    result.map_err(|source| crate::Error::Io { path, source })
}
