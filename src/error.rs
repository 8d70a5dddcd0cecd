//! The library's error type: what went wrong, and with which input.
//!
//! Every variant names its input the way messages show it: a path as the
//! user gave it (joined with the path below it), `stdin`, or `stdin:LINE`
//! for one record of a stream.

use std::path::Path;

/// An error that stops an operation, naming the input it concerns.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file or stream could not be opened, read or written.
    ///
    /// The message includes the underlying error, which is therefore not
    /// also its `source` (a report of the chain would say it twice).
    #[error("{name}: {error}")]
    Io {
        /// The input as shown to users: a path, `stdin` or `stdin:LINE`.
        name: String,
        /// The underlying error.
        error: std::io::Error,
    },
    /// A malformed line in a file of records, fingerprints, paths or
    /// vocabulary.
    #[error("{source_name}:{line}: {message}")]
    Parse {
        /// The file (or `stdin`) the line came from.
        source_name: String,
        /// The 1-based line number.
        line: u64,
        /// What is wrong with it.
        message: String,
    },
    /// Well-formed input that cannot be used as it is (fingerprints made
    /// with other options, more documents than a run can hold, a record
    /// whose text was not kept).
    #[error("{name}: {message}")]
    Data {
        /// The input concerned.
        name: String,
        /// What is wrong with it, and what to do.
        message: String,
    },
    /// An option value that cannot be used.
    #[error("{0}")]
    Usage(String),
}

impl Error {
    /// An I/O error on a path.
    pub fn io(path: &Path, source: std::io::Error) -> Error {
        Error::Io {
            name: path.display().to_string(),
            error: source,
        }
    }

    /// An I/O error on an input named for users (`stdin`, a display path).
    pub fn io_named(name: impl Into<String>, source: std::io::Error) -> Error {
        Error::Io {
            name: name.into(),
            error: source,
        }
    }

    /// A data error about a named input.
    pub fn data(name: impl Into<String>, message: impl Into<String>) -> Error {
        Error::Data {
            name: name.into(),
            message: message.into(),
        }
    }

    /// Whether a closed pipe caused this error: the reader has what it
    /// wanted, so the run ends quietly.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, Error::Io { error, .. } if error.kind() == std::io::ErrorKind::BrokenPipe)
    }
}

/// The library's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// The name messages use for standard input.
pub const STDIN: &str = "stdin";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_their_input() {
        let missing = std::io::Error::from(std::io::ErrorKind::NotFound);
        assert_eq!(
            Error::io(Path::new("docs/a.txt"), missing).to_string(),
            "docs/a.txt: entity not found"
        );
        let parse = Error::Parse {
            source_name: STDIN.into(),
            line: 12,
            message: "invalid JSON".into(),
        };
        assert_eq!(parse.to_string(), "stdin:12: invalid JSON");
        assert_eq!(
            Error::data("shard.txt", "made with other options").to_string(),
            "shard.txt: made with other options"
        );
        let pipe = Error::io_named(STDIN, std::io::ErrorKind::BrokenPipe.into());
        assert!(pipe.is_broken_pipe());
    }

    #[test]
    fn an_io_error_is_told_once() {
        // The binary prints the chain of causes: the I/O error is in the
        // message already, so it must not be a cause as well.
        let missing = Error::io(Path::new("gone.txt"), std::io::ErrorKind::NotFound.into());
        assert!(std::error::Error::source(&missing).is_none());
    }
}
