//! simdup finds near-duplicate documents.
//!
//! The pipeline, one module per stage:
//! [`input`] walks directories, reads files and stdin records and says why it
//! skips anything; [`fingerprint`] turns each document into a 64-bit SimHash;
//! [`search`] finds every pair of fingerprints within Hamming distance k and
//! the groups they form; [`verify`] decides candidate pairs by exact
//! Jaccard; [`report`] writes pairs or groups as a table, JSON, JSON Lines,
//! CSV, SARIF and more. [`index`] keeps fingerprints in an SQLite file for
//! later runs. [`jobs`] wires the stages into the work of each subcommand; `parallel` runs per-document work on every core in input
//! order; [`diag`] and `progress` talk to the person at the terminal.
//!
//! The library knows no command line: the `simdup` binary parses arguments
//! into the plain option structs of these modules, calls a job, writes its
//! result and decides the exit code.
#![deny(missing_docs)]

pub mod diag;
pub mod error;
pub mod fingerprint;
#[doc(hidden)]
pub mod fuzzing;
pub mod index;
pub mod input;
pub mod jobs;
pub(crate) mod parallel;
pub(crate) mod progress;
pub mod report;
pub mod search;
pub mod verify;

#[cfg(test)]
mod test_words;

pub use error::{Error, Result};
