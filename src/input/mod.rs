//! The input stage: which documents there are, how to read them, and why
//! anything was skipped.
//!
//! It owns everything between the user's arguments and a byte stream per
//! document: the directory walk and its filters ([`walk`]), opening a file
//! with its binary and size checks ([`open_document`]), path lists for
//! `--files-from` ([`read_path_list`]), records on stdin ([`RecordReader`]),
//! fingerprint files written by `simdup fingerprint`
//! ([`read_fingerprint_files`]) and sizes like `10M` ([`parse_size`]).
//! It does not fingerprint, print or count: every outcome is a value the
//! caller reports.

mod delimited;
mod files_from;
mod fingerprint_file;
mod glob;
mod read;
mod records;
mod size;
mod walk;

use std::fmt;
use std::io::Read;
use std::path::PathBuf;

pub use files_from::{PathSeparator, read_path_list};
pub use fingerprint_file::{
    FingerprintRecord, FingerprintSet, Provenance, read_fingerprint_files, write_text_line,
};
pub use glob::GlobFilter;
pub use read::SNIFF_BYTES;
pub use records::{Record, RecordEntry, RecordFormat, RecordOptions, RecordReader};
pub use size::parse_size;
pub use walk::Walk;

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
    /// Larger than `--max-filesize`, or a record longer than its limit.
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
    /// Every reason, in a fixed order (for summaries that list them all).
    pub const ALL: [SkipReason; 7] = [
        SkipReason::Hidden,
        SkipReason::Excluded,
        SkipReason::Binary,
        SkipReason::TooLarge,
        SkipReason::NotRegular,
        SkipReason::Symlink,
        SkipReason::Duplicate,
    ];

    /// The reason as a stable snake_case word.
    pub fn as_str(&self) -> &'static str {
        match self {
            SkipReason::Hidden => "hidden",
            SkipReason::Excluded => "excluded",
            SkipReason::Binary => "binary",
            SkipReason::TooLarge => "too_large",
            SkipReason::NotRegular => "not_regular",
            SkipReason::Symlink => "symlink",
            SkipReason::Duplicate => "duplicate",
        }
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
///
/// Collects [`Walk`], which streams the same entries one at a time. Invalid
/// globs come out as one [`WalkEntry::Error`] and nothing else; check them
/// first with [`GlobFilter::new`] to fail early.
pub fn walk(paths: &[PathBuf], options: &WalkOptions) -> Vec<WalkEntry> {
    match Walk::new(paths, options) {
        Ok(walk) => walk.collect(),
        Err(error) => vec![WalkEntry::Error(error)],
    }
}

/// Opens a file for fingerprinting, sniffing for binary content.
/// `Ok(Err(reason))` when it must be skipped.
///
/// The reader yields the whole file, sniffed prefix included. With
/// `max_filesize`, it never yields more than that many bytes: a file that
/// grew past the limit since it was opened ends in an I/O error instead.
pub fn open_document(
    document: &FileDocument,
    options: &WalkOptions,
) -> crate::Result<Result<Box<dyn Read + Send>, SkipReason>> {
    read::open(document, options)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skip_reason_words_are_distinct_snake_case() {
        let words: std::collections::BTreeSet<&str> =
            SkipReason::ALL.iter().map(|r| r.as_str()).collect();
        assert_eq!(words.len(), SkipReason::ALL.len());
        for word in words {
            assert!(word.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'));
        }
        assert_eq!(SkipReason::TooLarge.to_string(), "too_large");
    }
}
