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
//!
//! A new subcommand's work goes in a new module here; its arguments and
//! output go in the binary's `cli` module.

pub mod compare;
pub mod dedup;
pub mod explain;
pub mod fingerprint;
pub mod index;
pub mod scan;

/// Whether a path argument stands for standard input.
pub fn is_stdin(path: &std::path::Path) -> bool {
    path.as_os_str() == "-"
}
