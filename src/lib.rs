//! simdup finds near-duplicate documents.
//!
//! The pipeline, one module per stage:
//! [`input`] walks directories, reads files and stdin records and says why it
//! skips anything; [`fingerprint`] turns each document into a 64-bit SimHash;
//! [`search`] finds every pair of fingerprints within Hamming distance k and
//! the groups they form; [`report`] writes pairs or groups as a table, JSON,
//! JSON Lines or CSV and decides the exit code. [`cli`] only parses arguments
//! into the plain option structs of these modules and calls them.
#![deny(missing_docs)]

pub mod cli;
pub mod diag;
pub mod error;
pub mod fingerprint;
pub mod input;
pub mod progress;
pub mod report;
pub mod scan;
pub mod search;

pub use error::{Error, Result};
