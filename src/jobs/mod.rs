//! The jobs behind the subcommands: each wires the stages together for one
//! task, takes plain option structs and returns typed results, and knows
//! nothing of the command line. The binary turns those results into output
//! and an exit code.
//!
//! - [`scan`]: inputs to fingerprints to pairs to a [`Report`](crate::report::Report).
//! - [`fingerprint`]: one fingerprint (or sparse encoding) per document, in
//!   input order, handed to the caller as it is computed.
//! - [`compare`]: two documents measured against each other.
//!
//! A new subcommand's work goes in a new module here; its arguments and
//! output go in the binary's `cli` module.

pub mod compare;
pub mod fingerprint;
pub mod scan;

use crate::Error;
use crate::fingerprint::{Fingerprint, Fingerprinter};
use crate::input::{self, FileDocument, Outcome, WalkOptions};

/// Opens, sniffs and fingerprints one file.
pub(crate) fn fingerprint_file(
    fingerprinter: &Fingerprinter,
    file: &FileDocument,
    walk_options: &WalkOptions,
) -> Outcome<Fingerprint> {
    input::open_document(file, walk_options).and_then(|reader| {
        match fingerprinter.fingerprint_reader(reader) {
            Ok(fingerprint) => Outcome::Done(fingerprint),
            Err(source) => Outcome::Failed(Error::io_named(&file.display, source)),
        }
    })
}

/// Whether a path argument stands for standard input.
pub fn is_stdin(path: &std::path::Path) -> bool {
    path.as_os_str() == "-"
}
