//! Opening one file for fingerprinting: type and size checks, the binary
//! sniff, and a reader that never yields more than `max_filesize` bytes.

use std::fs::File;
use std::io::{self, Cursor, Read};

use super::{FileDocument, Outcome, SkipReason, WalkOptions};
use crate::Error;

/// How many leading bytes are searched for a NUL to call a file binary.
pub const SNIFF_BYTES: usize = 8 * 1024;

pub(super) fn open(
    document: &FileDocument,
    options: &WalkOptions,
) -> Outcome<Box<dyn Read + Send>> {
    open_with(document, options, true)
}

/// [`open`], without the binary sniff when `sniff` is false (a converter's
/// output is sniffed instead: it turns binary formats into text).
pub(super) fn open_with(
    document: &FileDocument,
    options: &WalkOptions,
    sniff: bool,
) -> Outcome<Box<dyn Read + Send>> {
    let skipped = |reason| Outcome::Skipped {
        name: document.display.clone(),
        reason,
    };
    let failed = |source| Outcome::Failed(Error::io(&document.path, source));
    let mut file = if document.explicit {
        // Look before opening: a path named by the user may be a FIFO
        // (read without waiting for a writer) or a device (never opened).
        let metadata = match std::fs::metadata(&document.path) {
            Ok(metadata) => metadata,
            Err(source) => return failed(source),
        };
        if super::walk::is_fifo(&metadata) {
            return match fifo::open(&document.path) {
                Ok(pipe) => limited(Box::new(pipe), options),
                Err(source) => failed(source),
            };
        }
        if !metadata.is_file() {
            return skipped(SkipReason::NotRegular);
        }
        match File::open(&document.path) {
            Ok(file) => file,
            Err(source) => return failed(source),
        }
    } else {
        // The walk saw a regular file here. Opened without waiting, so a
        // file swapped for a FIFO since then cannot block the run: the
        // type is checked again below, before any read.
        match nonblocking::open(&document.path) {
            Ok(file) => file,
            Err(source) => return failed(source),
        }
    };
    let metadata = match file.metadata() {
        Ok(metadata) => metadata,
        Err(source) => return failed(source),
    };
    if !metadata.is_file() {
        return skipped(SkipReason::NotRegular);
    }
    if options.max_filesize.is_some_and(|max| metadata.len() > max) {
        return skipped(SkipReason::TooLarge);
    }
    let mut prefix = Vec::with_capacity(SNIFF_BYTES.min(metadata.len() as usize));
    if let Err(source) = (&mut file)
        .take(SNIFF_BYTES as u64)
        .read_to_end(&mut prefix)
    {
        return failed(source);
    }
    if sniff && !options.binary && memchr::memchr(0, &prefix).is_some() {
        return skipped(if super::decompress::is_gzip(&prefix) {
            SkipReason::Compressed
        } else {
            SkipReason::Binary
        });
    }
    if prefix.len() < SNIFF_BYTES {
        // The sniff read the whole file (it stopped at the end): no need
        // to ask the file again. Most documents are this small.
        return limited(Box::new(Cursor::new(prefix)), options);
    }
    limited(Box::new(Cursor::new(prefix).chain(file)), options)
}

/// The reader, bounded by `--max-filesize` when there is one.
fn limited(reader: Box<dyn Read + Send>, options: &WalkOptions) -> Outcome<Box<dyn Read + Send>> {
    Outcome::Done(bounded(reader, options.max_filesize, "file grew"))
}

/// `reader`, failing once it yields more than `limit` bytes (if any): the
/// error says that `what` went past the limit.
fn bounded(
    reader: Box<dyn Read + Send>,
    limit: Option<u64>,
    what: &'static str,
) -> Box<dyn Read + Send> {
    match limit {
        Some(limit) => Box::new(Limited {
            inner: reader,
            remaining: limit,
            limit,
            what,
        }),
        None => reader,
    }
}

/// The text of a compressed file ([`super::decompress`]), bounded by
/// `--max-filesize` as a file is, and sniffed for binary content as a
/// file is: `Ok(None)` when it looks binary. `reader` yields the file's
/// bytes, unsniffed.
pub(super) fn decompressed_text(
    reader: Box<dyn Read + Send>,
    options: &WalkOptions,
) -> io::Result<Option<Box<dyn Read + Send>>> {
    let mut text = bounded(
        super::decompress::decompressed(reader)?,
        options.max_filesize,
        "decompressed text went",
    );
    let mut prefix = Vec::new();
    (&mut text)
        .take(SNIFF_BYTES as u64)
        .read_to_end(&mut prefix)?;
    if !options.binary && memchr::memchr(0, &prefix).is_some() {
        return Ok(None);
    }
    Ok(Some(Box::new(Cursor::new(prefix).chain(text))))
}

/// FIFOs (and process substitutions such as `<(cmd)`) named explicitly.
#[cfg(unix)]
mod fifo {
    use std::fs::File;
    use std::io;
    use std::path::Path;

    use rustix::fs::OFlags;

    /// Opens a FIFO without waiting for a writer, then reads it as usual.
    ///
    /// A blocking open waits until some process opens the FIFO for
    /// writing, possibly forever. Opened non-blocking, the open returns at
    /// once; switched back to blocking reads, the FIFO then reads like a
    /// pipe: to the end when its writers close it, and as empty at once
    /// when it has no writer at all.
    pub(super) fn open(path: &Path) -> io::Result<File> {
        let file = super::nonblocking::open(path)?;
        rustix::fs::fcntl_setfl(&file, OFlags::empty())?;
        Ok(file)
    }
}

/// Regular files found by the walk.
#[cfg(unix)]
mod nonblocking {
    use std::fs::File;
    use std::io;
    use std::path::Path;

    use rustix::fs::{Mode, OFlags};

    /// Opens without waiting, whatever the file has become since the walk
    /// looked. `O_NONBLOCK` changes nothing for reads of a regular file.
    pub(super) fn open(path: &Path) -> io::Result<File> {
        let fd = rustix::fs::open(
            path,
            OFlags::RDONLY | OFlags::NONBLOCK | OFlags::CLOEXEC,
            Mode::empty(),
        )?;
        Ok(File::from(fd))
    }
}

#[cfg(not(unix))]
mod nonblocking {
    pub(super) fn open(path: &std::path::Path) -> std::io::Result<std::fs::File> {
        std::fs::File::open(path)
    }
}

#[cfg(not(unix))]
mod fifo {
    pub(super) fn open(path: &std::path::Path) -> std::io::Result<std::fs::File> {
        std::fs::File::open(path)
    }
}

/// Yields at most `limit` bytes and fails if the source has more, so a file
/// that grows while it is read is reported, not read without bound.
struct Limited<R> {
    inner: R,
    remaining: u64,
    limit: u64,
    /// What went past the limit, for the error.
    what: &'static str,
}

impl<R: Read> Read for Limited<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        // Ask for one byte past the limit: getting it proves the file grew.
        let wanted = buf
            .len()
            .min(usize::try_from(self.remaining.saturating_add(1)).unwrap_or(usize::MAX));
        let n = self.inner.read(&mut buf[..wanted])?;
        if n as u64 > self.remaining {
            self.remaining = 0;
            return Err(io::Error::other(format!(
                "{} past the maximum size of {} bytes while it was read",
                self.what, self.limit
            )));
        }
        self.remaining -= n as u64;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limited(data: &[u8], limit: u64) -> Limited<&[u8]> {
        Limited {
            inner: data,
            remaining: limit,
            limit,
            what: "file grew",
        }
    }

    #[test]
    fn limited_passes_data_within_the_limit() {
        let mut out = Vec::new();
        limited(b"hello", 5).read_to_end(&mut out).unwrap();
        assert_eq!(out, b"hello");
    }

    #[test]
    fn limited_fails_on_data_past_the_limit() {
        let mut out = Vec::new();
        let error = limited(b"hello!", 5).read_to_end(&mut out).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("grew past the maximum size of 5")
        );
        assert!(out.len() <= 5);
    }

    mod files {
        use super::super::super::{FileDocument, Outcome, SkipReason, WalkOptions, open_document};
        use std::io::{Read, Write};

        fn document(dir: &tempfile::TempDir, name: &str, contents: &[u8]) -> FileDocument {
            let path = dir.path().join(name);
            std::fs::write(&path, contents).unwrap();
            FileDocument {
                display: name.to_string(),
                path,
                explicit: false,
                stamp: None,
            }
        }

        fn read_all(document: &FileDocument, options: &WalkOptions) -> Result<Vec<u8>, SkipReason> {
            match open_document(document, options) {
                Outcome::Done(mut reader) => {
                    let mut out = Vec::new();
                    reader.read_to_end(&mut out).unwrap();
                    Ok(out)
                }
                Outcome::Skipped { reason, .. } => Err(reason),
                Outcome::Failed(error) => panic!("{error}"),
            }
        }

        #[test]
        fn yields_the_whole_file_prefix_included() {
            let dir = tempfile::tempdir().unwrap();
            let contents: Vec<u8> = (0..20_000u32).map(|i| b'a' + (i % 26) as u8).collect();
            let doc = document(&dir, "long.txt", &contents);
            assert_eq!(read_all(&doc, &WalkOptions::default()).unwrap(), contents);
            let empty = document(&dir, "empty.txt", b"");
            assert_eq!(read_all(&empty, &WalkOptions::default()).unwrap(), b"");
        }

        #[test]
        fn nul_in_the_first_8k_means_binary() {
            let dir = tempfile::tempdir().unwrap();
            let mut early = vec![b'x'; 8191];
            early.push(0);
            let doc = document(&dir, "early", &early);
            assert_eq!(
                read_all(&doc, &WalkOptions::default()),
                Err(SkipReason::Binary)
            );
            let binary = WalkOptions {
                binary: true,
                ..WalkOptions::default()
            };
            assert_eq!(read_all(&doc, &binary).unwrap(), early);
            // A NUL past the sniffed prefix is not looked for.
            let mut late = vec![b'x'; 8192];
            late.push(0);
            let doc = document(&dir, "late", &late);
            assert_eq!(read_all(&doc, &WalkOptions::default()).unwrap(), late);
        }

        #[test]
        fn size_is_checked_again_at_open_time() {
            let dir = tempfile::tempdir().unwrap();
            let doc = document(&dir, "f", b"0123456789");
            let max = |n| WalkOptions {
                max_filesize: Some(n),
                ..WalkOptions::default()
            };
            assert_eq!(read_all(&doc, &max(9)), Err(SkipReason::TooLarge));
            assert_eq!(read_all(&doc, &max(10)).unwrap(), b"0123456789");
        }

        /// Appends 100,000 bytes to an opened document.
        fn grow(document: &FileDocument) {
            let mut file = std::fs::OpenOptions::new()
                .append(true)
                .open(&document.path)
                .unwrap();
            file.write_all(&[b'x'; 100_000]).unwrap();
        }

        #[test]
        fn a_file_that_grows_past_the_limit_is_an_error() {
            let dir = tempfile::tempdir().unwrap();
            // Larger than the sniff, so reading goes on past it.
            let start = vec![b'a'; super::super::SNIFF_BYTES + 10];
            let doc = document(&dir, "grows", &start);
            let options = WalkOptions {
                max_filesize: Some(start.len() as u64),
                ..WalkOptions::default()
            };
            let Outcome::Done(mut reader) = open_document(&doc, &options) else {
                panic!("not opened");
            };
            grow(&doc);
            let mut out = Vec::new();
            let error = reader.read_to_end(&mut out).unwrap_err();
            assert!(error.to_string().contains("grew past"), "{error}");
            assert!(out.len() <= start.len());
        }

        #[test]
        fn a_small_file_is_read_as_it_was_when_opened() {
            let dir = tempfile::tempdir().unwrap();
            let doc = document(&dir, "grows", b"0123456789");
            let Outcome::Done(mut reader) = open_document(&doc, &WalkOptions::default()) else {
                panic!("not opened");
            };
            grow(&doc);
            let mut out = Vec::new();
            reader.read_to_end(&mut out).unwrap();
            assert_eq!(out, b"0123456789");
        }

        #[cfg(unix)]
        #[test]
        fn unreadable_file_is_an_error_naming_it() {
            use std::os::unix::fs::PermissionsExt;
            let dir = tempfile::tempdir().unwrap();
            let doc = document(&dir, "secret", b"text");
            std::fs::set_permissions(&doc.path, std::fs::Permissions::from_mode(0o000)).unwrap();
            if std::fs::File::open(&doc.path).is_ok() {
                eprintln!("running as root: permissions cannot deny; skipping");
                return;
            }
            let Outcome::Failed(error) = open_document(&doc, &WalkOptions::default()) else {
                panic!("an unreadable file opened");
            };
            assert!(
                error.to_string().contains("secret: Permission denied"),
                "{error}"
            );
        }

        #[test]
        fn directories_are_not_regular_and_missing_files_are_errors() {
            let dir = tempfile::tempdir().unwrap();
            let directory = FileDocument {
                path: dir.path().to_path_buf(),
                display: "dir".into(),
                explicit: true,
                stamp: None,
            };
            assert_eq!(
                read_all(&directory, &WalkOptions::default()),
                Err(SkipReason::NotRegular)
            );
            let gone = document(&dir, "gone", b"deleted during the walk");
            std::fs::remove_file(&gone.path).unwrap();
            let Outcome::Failed(error) = open_document(&gone, &WalkOptions::default()) else {
                panic!("a deleted file opened");
            };
            assert!(
                error
                    .to_string()
                    .starts_with(&gone.path.display().to_string()),
                "{error}"
            );
        }
    }
}
