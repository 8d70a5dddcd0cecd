//! `simdup fingerprint`: one fingerprint per document, or htm.core's
//! sparse encoding with `--sdr`.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

use clap::{Args, ValueEnum};

use simdup::diag::Diagnostics;
use simdup::fingerprint::{Fingerprinter, SdrShape};
use simdup::jobs::fingerprint::{Encoded, Encoding};
use simdup::report::fingerprints::{FingerprintFormat, FingerprintWriter};

use super::Finished;
use super::args::{FeatureArgs, HashArg, WalkArgs};

/// The features of `--sdr` unless `--shingle` is given: htm.core's tokens.
const SDR_SHINGLE: &str = "words:1";

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
    /// Its features are single words, htm.core's tokens, unless --shingle says otherwise.
    #[arg(long, value_name = "SIZE:ACTIVE")]
    pub sdr: Option<SdrShape>,

    /// Also name every file the walk passes over on stderr.
    #[arg(short, long)]
    pub verbose: bool,

    /// Worker threads (default: one per core; at most 256, or one per core if more).
    #[arg(short = 'j', long, value_name = "N", default_value_t = 0, value_parser = super::args::parse_threads)]
    pub threads: usize,
}

/// Options the inputs or the encoding would ignore are errors.
fn misplaced(args: &FingerprintArgs) -> anyhow::Result<()> {
    if args.sdr.is_some() && args.format != FingerprintFormatArg::Text {
        anyhow::bail!(
            "--format applies to SimHash fingerprints, not to --sdr (one line of indices \
             and a path per document)"
        );
    }
    if args.sdr.is_some() && args.features.hash != HashArg::Xxh3 {
        anyhow::bail!("--hash applies to SimHash fingerprints; --sdr always hashes with SHAKE256");
    }
    let walk = &args.walk;
    if args.paths.iter().all(|path| simdup::jobs::is_stdin(path))
        && (walk.walks() || walk.max_filesize.is_some())
    {
        anyhow::bail!(
            "--hidden, --follow, --glob, --max-filesize, --binary and --no-ignore apply to \
             files and directories, not to stdin"
        );
    }
    Ok(())
}

/// Runs `simdup fingerprint`.
pub fn run(mut args: FingerprintArgs) -> anyhow::Result<Finished> {
    super::set_threads(args.threads)?;
    misplaced(&args)?;
    if args.sdr.is_some() && args.features.shingle.is_none() {
        // htm.core encodes a document's tokens; each distinct one is hashed
        // once, so the encoding runs at tens of MB/s. Word 3-shingles are
        // nearly all distinct: SHAKE256 would run per shingle (~4 MB/s).
        args.features.shingle = Some(SDR_SHINGLE.parse()?);
    }
    let options = args.features.to_options()?;
    let walk = args.walk.to_options()?;
    let fingerprinter = Fingerprinter::new(options.clone());
    let mut diag = Diagnostics::new(args.verbose);
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        args.paths.clone()
    };
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let encoding = match args.sdr {
        Some(shape) => Encoding::Sdr(shape),
        None => Encoding::SimHash,
    };
    let format = match args.format {
        FingerprintFormatArg::Text => FingerprintFormat::Text,
        FingerprintFormatArg::Jsonl => FingerprintFormat::Jsonl,
    };
    let writer = FingerprintWriter::new(format, options.describe(), options.digest());
    if encoding == Encoding::SimHash {
        writer.header(&mut out)?;
    }
    simdup::jobs::fingerprint::run(
        &paths,
        &walk,
        &fingerprinter,
        encoding,
        // As a scan measures them (character pairs unless shingles were
        // chosen), so that a scan of the fingerprints pairs them as a scan
        // of the files does; only JSON Lines has room to say it.
        format == FingerprintFormat::Jsonl && args.features.short_texts(),
        &mut diag,
        |name, encoded| match encoded {
            Encoded::SimHash {
                fingerprint,
                short_text,
            } => writer.entry(name, fingerprint, short_text.as_ref(), &mut out),
            // The sparse encoding names its own parameters on each line.
            Encoded::Sdr(active) => {
                simdup::report::fingerprints::write_sdr_line(&mut out, active, name)
            }
        },
    )?;
    out.flush()?;
    Ok(Finished::ran(diag.errored()))
}
