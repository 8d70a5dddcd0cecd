//! The input stage: which documents there are, how to read them, and why
//! anything was skipped.
//!
//! INTERFACE STUB: the input stage replaces the bodies; the types and
//! signatures below are the contract the rest of the crate codes against.

use std::fmt;
use std::io::Read;
use std::path::PathBuf;

/// Options of the directory walk and of file reading.
#[derive(Clone, Debug, Default)]
pub struct WalkOptions {
    /// Include hidden files and directories.
    pub hidden: bool,
    /// Follow symbolic links (loops are reported, never followed).
    pub follow_links: bool,
    /// Globs; a leading `!` excludes.
    pub globs: Vec<String>,
    /// Files larger than this are skipped.
    pub max_filesize: Option<u64>,
    /// Read files that look binary.
    pub binary: bool,
}

/// Why an input was not fingerprinted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SkipReason {
    /// A hidden file or directory, without `--hidden`.
    Hidden,
    /// Excluded by a glob.
    Excluded,
    /// A NUL byte in the first 8 KiB, without `--binary`.
    Binary,
    /// Larger than `--max-filesize`.
    TooLarge,
    /// Not a regular file (FIFO, socket, device).
    NotRegular,
    /// A symbolic link not followed.
    Symlink,
    /// The same file reached twice.
    Duplicate,
}

impl fmt::Display for SkipReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl SkipReason {
    /// The reason as a stable snake_case word.
    pub fn as_str(&self) -> &'static str {
        todo!()
    }
}

/// A file to fingerprint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileDocument {
    /// The path to open.
    pub path: PathBuf,
    /// The path as shown to users: as given, joined with the path below it.
    pub display: String,
}

/// One outcome of the walk, in deterministic order.
#[derive(Debug)]
pub enum WalkEntry {
    /// A file to read.
    Document(FileDocument),
    /// An input passed over.
    Skipped {
        /// The path as shown.
        display: String,
        /// Why.
        reason: SkipReason,
    },
    /// An input that could not be walked (missing path, permission, loop).
    Error(crate::Error),
}

/// Walks these paths (files or directories) in a deterministic order.
pub fn walk(_paths: &[PathBuf], _options: &WalkOptions) -> Vec<WalkEntry> {
    todo!()
}

/// Opens a file for fingerprinting, sniffing for binary content.
/// `Ok(Err(reason))` when it must be skipped.
pub fn open_document(
    _document: &FileDocument,
    _options: &WalkOptions,
) -> crate::Result<Result<Box<dyn Read + Send>, SkipReason>> {
    todo!()
}
#[allow(missing_docs)]
pub fn parse_size(_s: &str) -> crate::Result<u64> {
    todo!()
}
