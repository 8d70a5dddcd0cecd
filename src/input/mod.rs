//! The input stage: which documents there are, how to read them, and why
//! anything was skipped.
//!
//! It owns everything between the user's arguments and a byte stream per
//! document: the directory walk and its filters ([`walk`]), opening a file
//! with its binary and size checks as the text its features are made of
//! ([`open_view`]: the markup view or a converter's output, [`prose`]),
//! path lists for `--files-from` ([`read_path_list`]), records on stdin
//! ([`RecordReader`]), fingerprint files written by `simdup fingerprint`
//! (`FingerprintBlocks`) and sizes like `10M` ([`parse_size`]).
//! It does not fingerprint, print or count: every outcome is a value the
//! caller reports.

mod blocks;
mod copies;
pub(crate) mod decompress;
mod delimited;
mod field_path;
mod files_from;
mod fingerprint_file;
mod glob;
mod ignore_files;
mod json_fields;
mod json_top_level;
mod os_names;
mod piped;
mod positioned;
pub mod prose;
mod read;
mod records;
mod reread;
mod size;
mod walk;

use std::fmt;
use std::io::Read;
use std::path::PathBuf;

pub(crate) use copies::measure_once;
pub use files_from::PathSeparator;
pub(crate) use files_from::read_path_list;
pub use fingerprint_file::Provenance;
pub(crate) use fingerprint_file::{
    Declarations, FingerprintBlock, FingerprintBlocks, FingerprintRecord,
    open as open_fingerprint_file, write_checksum_line, write_text_line,
};
pub use glob::GlobFilter;
pub(crate) use os_names::{from_base64, path_bytes, path_from_bytes, percent_encoded, to_base64};
pub(crate) use piped::{PipedCopies, is_fifo};
pub use positioned::Positioned;
pub use prose::{Markup, Transform, View};
pub(crate) use records::{Record, RecordBlocks};
pub use records::{RecordFormat, RecordOptions};
pub(crate) use reread::RecordSource;
pub use size::parse_size;
pub(crate) use walk::Walk;

/// Options of the directory walk and of file reading.
#[derive(Clone, Debug, Default)]
pub struct WalkOptions {
    /// Include hidden files and directories.
    pub hidden: bool,
    /// Follow symbolic links (loops are reported, never followed).
    pub follow_links: bool,
    /// Include and exclude globs, compiled once.
    pub globs: GlobFilter,
    /// Files larger than this are skipped.
    pub max_filesize: Option<u64>,
    /// Read files that look binary.
    pub binary: bool,
    /// Do not read ignore files (`.gitignore`, `.ignore`, `.simdupignore`).
    pub no_ignore: bool,
}

/// Why an input was not fingerprinted.
///
/// Declared in alphabetical order of the words, so counts by reason list
/// in that order everywhere (summary, JSON).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SkipReason {
    /// A NUL byte in the first 8 KiB, without `--binary`.
    Binary,
    /// gzip data, without `-z` (which reads its text).
    Compressed,
    /// The same file reached twice.
    Duplicate,
    /// Excluded by a glob.
    Excluded,
    /// A hidden file or directory, without `--hidden`.
    Hidden,
    /// Ignored by an ignore file (`.gitignore`, `.ignore`,
    /// `.simdupignore`), without `--no-ignore`.
    Ignored,
    /// Not a regular file (FIFO, socket, device) found by the walk.
    NotRegular,
    /// A symbolic link not followed.
    Symlink,
    /// Larger than `--max-filesize`, or a record longer than its limit.
    TooLarge,
    /// The `--transform` converter failed on it.
    Transform,
}

impl serde::Serialize for SkipReason {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl fmt::Display for SkipReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl SkipReason {
    /// Every reason, in order.
    #[cfg(test)]
    const ALL: [SkipReason; 10] = [
        SkipReason::Binary,
        SkipReason::Compressed,
        SkipReason::Duplicate,
        SkipReason::Excluded,
        SkipReason::Hidden,
        SkipReason::Ignored,
        SkipReason::NotRegular,
        SkipReason::Symlink,
        SkipReason::TooLarge,
        SkipReason::Transform,
    ];

    /// The reason as a stable snake_case word.
    pub fn as_str(&self) -> &'static str {
        match self {
            SkipReason::Hidden => "hidden",
            SkipReason::Ignored => "ignored",
            SkipReason::Excluded => "excluded",
            SkipReason::Binary => "binary",
            SkipReason::Compressed => "compressed",
            SkipReason::TooLarge => "too_large",
            SkipReason::NotRegular => "not_regular",
            SkipReason::Symlink => "symlink",
            SkipReason::Duplicate => "duplicate",
            SkipReason::Transform => "transform_failed",
        }
    }

    /// Whether the input was passed over because something went wrong,
    /// which is always said, not only with `--verbose`.
    pub fn is_failure(&self) -> bool {
        matches!(self, SkipReason::Transform)
    }
}

/// What is known of a file on disk, to tell whether it changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stamp {
    /// Size in bytes.
    pub size: u64,
    /// Modification time, nanoseconds since the Unix epoch.
    pub mtime: i64,
}

impl Stamp {
    /// The stamp of a file's metadata.
    pub fn of(metadata: &std::fs::Metadata) -> Stamp {
        let mtime = metadata.modified().ok().map_or(0, |time| {
            match time.duration_since(std::time::UNIX_EPOCH) {
                Ok(after) => i64::try_from(after.as_nanos()).unwrap_or(i64::MAX),
                Err(before) => -i64::try_from(before.duration().as_nanos()).unwrap_or(i64::MAX),
            }
        });
        Stamp {
            size: metadata.len(),
            mtime,
        }
    }
}

/// A file to fingerprint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FileDocument {
    /// The path to open.
    pub path: PathBuf,
    /// The path as shown to users: as given, joined with the path below it.
    pub display: String,
    /// Named on the command line (or in a path list) rather than found by
    /// the walk: a FIFO named explicitly is read, one met in a walk is not.
    pub explicit: bool,
    /// Its size and time as the walk's own stat saw them, when the walk
    /// made one: a scan cache compares it instead of a stat of its own.
    pub stamp: Option<Stamp>,
}

impl FileDocument {
    /// The bytes the walk saw in the file (0 when it made no stat): how
    /// much reading it costs, for batching work.
    pub fn walked_size(&self) -> u64 {
        self.stamp.map_or(0, |stamp| stamp.size)
    }

    /// [`FileDocument::walked_size`] of a found file, 0 for anything else.
    pub fn walked_bytes(found: &Outcome<FileDocument>) -> u64 {
        match found {
            Outcome::Done(file) => file.walked_size(),
            _ => 0,
        }
    }
}

/// What became of one input at one stage: taken, passed over with a
/// reason, or failed with an error that names it.
///
/// Every stage hands on values of this type, so each input ends up counted
/// exactly once, whatever stage decided its fate.
#[derive(Debug)]
pub(crate) enum Outcome<T> {
    /// Taken, ready for the next stage.
    Done(T),
    /// Passed over.
    Skipped {
        /// The input as shown to users.
        name: String,
        /// Why.
        reason: SkipReason,
    },
    /// Could not be read; the error names the input.
    Failed(crate::Error),
}

impl<T> Outcome<T> {
    /// Runs the next stage on a taken input; a skip or a failure passes
    /// through unchanged.
    pub(crate) fn and_then<U>(self, next: impl FnOnce(T) -> Outcome<U>) -> Outcome<U> {
        match self {
            Outcome::Done(value) => next(value),
            Outcome::Skipped { name, reason } => Outcome::Skipped { name, reason },
            Outcome::Failed(error) => Outcome::Failed(error),
        }
    }

    /// Transforms a taken input.
    pub(crate) fn map<U>(self, f: impl FnOnce(T) -> U) -> Outcome<U> {
        self.and_then(|value| Outcome::Done(f(value)))
    }
}

/// Walks these paths (files or directories) in a deterministic order.
///
/// Collects [`Walk`], which streams the same outcomes one at a time.
#[cfg(test)]
pub(crate) fn walk(paths: &[PathBuf], options: &WalkOptions) -> Vec<Outcome<FileDocument>> {
    Walk::new(paths, options).collect()
}

/// Opens a file for fingerprinting, sniffing for binary content:
/// `Outcome::Skipped` when it must be passed over.
///
/// The reader yields the whole file, sniffed prefix included. With
/// `max_filesize`, it never yields more than that many bytes: a file that
/// grew past the limit since it was opened ends in an I/O error instead.
/// A FIFO is read only when named explicitly, and never waits for a
/// writer: with none, it reads as empty. (The jobs open files through
/// [`open_view`], which calls this.)
#[cfg(test)]
pub(crate) fn open_document(
    document: &FileDocument,
    options: &WalkOptions,
) -> Outcome<Box<dyn Read + Send>> {
    read::open(document, options)
}

/// Opens a file and gives the text its features are made of: what the
/// `--transform` converter writes, or else the markup view of the file
/// ([`View::markup_reader`]). A converter that fails passes the file over
/// (`transform_failed`, its name saying why); its output is sniffed for
/// binary content instead of the file, which it may well turn into text.
pub(crate) fn open_view(
    document: &FileDocument,
    options: &WalkOptions,
    view: &View,
) -> Outcome<Box<dyn Read + Send>> {
    let Some(transform) = &view.transform else {
        if view.decompress {
            // The text inside is sniffed, not the compressed bytes.
            return read::open_with(document, options, false).and_then(|reader| {
                match read::decompressed_text(reader, options) {
                    Ok(Some(text)) => Outcome::Done(view.markup_reader(&document.path, text)),
                    Ok(None) => Outcome::Skipped {
                        name: document.display.clone(),
                        reason: SkipReason::Binary,
                    },
                    Err(source) => Outcome::Failed(crate::Error::io(&document.path, source)),
                }
            });
        }
        return read::open(document, options)
            .map(|reader| view.markup_reader(&document.path, reader));
    };
    read::open_with(document, options, false).and_then(|reader| {
        let limit = options.max_filesize.unwrap_or(prose::DEFAULT_OUTPUT_LIMIT);
        let skipped = |name: String, reason| Outcome::Skipped { name, reason };
        match transform.run(&document.path, reader, limit) {
            Ok(text) => {
                let sniffed = &text[..text.len().min(read::SNIFF_BYTES)];
                if !options.binary && memchr::memchr(0, sniffed).is_some() {
                    return skipped(document.display.clone(), SkipReason::Binary);
                }
                Outcome::Done(Box::new(std::io::Cursor::new(text)) as Box<dyn Read + Send>)
            }
            Err(prose::TransformError::TooLarge(..)) if options.max_filesize.is_some() => {
                skipped(document.display.clone(), SkipReason::TooLarge)
            }
            Err(error) => skipped(
                format!("{}: {error}", document.display),
                SkipReason::Transform,
            ),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skip_reason_words_are_distinct_snake_case() {
        let words: Vec<&str> = SkipReason::ALL.iter().map(|r| r.as_str()).collect();
        let mut sorted = words.clone();
        sorted.sort_unstable();
        sorted.dedup();
        // Distinct, and the enum's order is the words' order.
        assert_eq!(words, sorted);
        for word in words {
            assert!(word.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'));
        }
        assert_eq!(SkipReason::TooLarge.to_string(), "too_large");
    }
}
