//! The jobs behind the subcommands: each wires the stages together for one
//! task, takes plain option structs and returns typed results, and knows
//! nothing of the command line. The binary turns those results into output
//! and an exit code.
//!
//! - [`scan`]: inputs to fingerprints to pairs to a [`Report`](crate::report::Report).
//! - [`fingerprint`]: one fingerprint (or sparse encoding) per document, in
//!   input order, handed to the caller as it is computed.
//! - [`compare`]: two documents measured against each other.
//! - [`dedup`]: the records of a stream that are not near-duplicates of
//!   an earlier one, decided in input order as they stream.
//! - [`explain`]: why two documents are near: shared passages by line.
//! - [`index`]: documents added to (or pruned from) a stored corpus.
//! - [`distributed`]: the steps a distributed engine runs on its workers
//!   (record fingerprints, pair verification).
//!
//! A new subcommand's work goes in a new module here; its arguments and
//! output go in the binary's `cli` module.

pub mod compare;
pub mod dedup;
pub mod distributed;
pub mod explain;
pub mod fingerprint;
pub mod index;
pub mod scan;

use std::io::Read;
use std::path::Path;

use crate::error::STDIN;
use crate::input::{self, FileDocument, Outcome, SkipReason, View, WalkOptions};
use crate::{Error, Result};

/// Whether a path argument stands for standard input.
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// A stream of records: the file at `path`, or stdin (`None`), with the
/// name messages give it (`stdin`, or the path as given).
pub fn open_records(path: Option<&Path>) -> Result<(Box<dyn Read + Send>, String)> {
    match path {
        None => Ok((Box::new(std::io::stdin()), STDIN.to_string())),
        Some(path) => {
            let file = std::fs::File::open(path).map_err(|error| Error::io(path, error))?;
            Ok((Box::new(file), path.display().to_string()))
        }
    }
}

/// The records of a stream opened by [`open_records`], named `name`: with
/// `decompress` (`-z`), the text of a gzip stream. True when it was gzip:
/// places in the text are then not places in the file, so kept records
/// cannot be read from it again.
pub fn records_text(
    reader: Box<dyn Read + Send>,
    name: &str,
    decompress: bool,
) -> Result<(Box<dyn Read + Send>, bool)> {
    if !decompress {
        return Ok((reader, false));
    }
    input::decompress::gzip_text(reader).map_err(|error| Error::io(Path::new(name), error))
}

/// One of the two documents `compare` and `explain` take, opened.
pub(crate) struct Named {
    /// The name shown: the path as given, or `-` for stdin.
    pub name: String,
    /// The name its read errors give (stdin spelled out).
    pub error_name: String,
    /// The whole document, sniffed prefix included.
    pub reader: Box<dyn Read + Send>,
}

/// Refuses two paths that are both stdin.
pub(crate) fn at_most_one_stdin(a: &Path, b: &Path) -> Result<()> {
    if is_stdin(a) && is_stdin(b) {
        return Err(Error::Usage(
            "only one of A and B can be stdin ('-')".to_string(),
        ));
    }
    Ok(())
}

/// Opens a document named on the command line (or stdin) through the
/// input layer's checks, through `view` (stdin is read as it is, or
/// decompressed with `-z`); one the
/// checks pass over is an error saying it was `not_done` ("not compared")
/// and why.
pub(crate) fn open_named(
    path: &Path,
    walk: &WalkOptions,
    view: &View,
    not_done: &str,
) -> Result<Named> {
    if is_stdin(path) {
        let (reader, _) = records_text(Box::new(std::io::stdin()), STDIN, view.decompress)?;
        return Ok(Named {
            name: "-".into(),
            error_name: STDIN.into(),
            reader,
        });
    }
    let document = FileDocument {
        path: path.to_path_buf(),
        display: path.display().to_string(),
        explicit: true,
        stamp: None,
    };
    match input::open_view(&document, walk, view) {
        Outcome::Done(reader) => Ok(Named {
            name: document.display.clone(),
            error_name: document.display,
            reader,
        }),
        Outcome::Skipped { name, reason } => Err(Error::data(
            name,
            format!("{not_done}: {reason}{}", hint(reason)),
        )),
        Outcome::Failed(error) => Err(error),
    }
}

/// How to take a skipped document anyway.
fn hint(reason: SkipReason) -> &'static str {
    match reason {
        SkipReason::Binary => " (use --binary to take it anyway)",
        SkipReason::Compressed => " (gzip: -z reads its text)",
        SkipReason::TooLarge => " (larger than --max-filesize)",
        _ => "",
    }
}
