//! The library's error type: what went wrong, and with which input.

use std::path::PathBuf;

/// An error that stops an operation, naming the input it concerns.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file or stream could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The path (or `-` for stdin) that failed.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// A malformed line in a file of records, fingerprints or vocabulary.
    #[error("{source_name}:{line}: {message}")]
    Parse {
        /// The file (or `stdin`) the line came from.
        source_name: String,
        /// The 1-based line number.
        line: u64,
        /// What is wrong with it.
        message: String,
    },
    /// An option value that cannot be used.
    #[error("{0}")]
    Usage(String),
}

/// The library's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
