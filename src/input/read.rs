//! Opening one file for fingerprinting: type and size checks, the binary
//! sniff, and a reader that never yields more than `max_filesize` bytes.

use std::fs::File;
use std::io::{self, Cursor, Read};

use super::{FileDocument, SkipReason, WalkOptions};
use crate::{Error, Result};

/// How many leading bytes are searched for a NUL to call a file binary.
pub const SNIFF_BYTES: usize = 8 * 1024;

pub(super) fn open(
    document: &FileDocument,
    options: &WalkOptions,
) -> Result<Result<Box<dyn Read + Send>, SkipReason>> {
    let io_error = |source| Error::Io {
        path: document.path.clone(),
        source,
    };
    // Look before opening: opening a FIFO blocks until a writer appears.
    // (A file swapped for a FIFO between this stat and the open is the one
    // case left; std offers no portable O_NONBLOCK.)
    if !std::fs::metadata(&document.path)
        .map_err(io_error)?
        .is_file()
    {
        return Ok(Err(SkipReason::NotRegular));
    }
    let mut file = File::open(&document.path).map_err(io_error)?;
    let metadata = file.metadata().map_err(io_error)?;
    if !metadata.is_file() {
        return Ok(Err(SkipReason::NotRegular));
    }
    if options.max_filesize.is_some_and(|max| metadata.len() > max) {
        return Ok(Err(SkipReason::TooLarge));
    }
    let mut prefix = Vec::with_capacity(SNIFF_BYTES.min(metadata.len() as usize));
    (&mut file)
        .take(SNIFF_BYTES as u64)
        .read_to_end(&mut prefix)
        .map_err(io_error)?;
    if !options.binary && memchr::memchr(0, &prefix).is_some() {
        return Ok(Err(SkipReason::Binary));
    }
    let whole = Cursor::new(prefix).chain(file);
    Ok(Ok(match options.max_filesize {
        Some(limit) => Box::new(Limited {
            inner: whole,
            remaining: limit,
            limit,
        }),
        None => Box::new(whole),
    }))
}

/// Yields at most `limit` bytes and fails if the source has more, so a file
/// that grows while it is read is reported, not read without bound.
struct Limited<R> {
    inner: R,
    remaining: u64,
    limit: u64,
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
                "file grew past the maximum size of {} bytes while it was read",
                self.limit
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
        use super::super::super::{FileDocument, SkipReason, WalkOptions, open_document};
        use std::io::{Read, Write};

        fn document(dir: &tempfile::TempDir, name: &str, contents: &[u8]) -> FileDocument {
            let path = dir.path().join(name);
            std::fs::write(&path, contents).unwrap();
            FileDocument {
                display: name.to_string(),
                path,
            }
        }

        fn read_all(document: &FileDocument, options: &WalkOptions) -> Result<Vec<u8>, SkipReason> {
            open_document(document, options).unwrap().map(|mut reader| {
                let mut out = Vec::new();
                reader.read_to_end(&mut out).unwrap();
                out
            })
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

        #[test]
        fn a_file_that_grows_past_the_limit_is_an_error() {
            let dir = tempfile::tempdir().unwrap();
            let doc = document(&dir, "grows", b"0123456789");
            let options = WalkOptions {
                max_filesize: Some(10),
                ..WalkOptions::default()
            };
            let mut reader = open_document(&doc, &options).unwrap().unwrap();
            let mut file = std::fs::OpenOptions::new()
                .append(true)
                .open(&doc.path)
                .unwrap();
            file.write_all(&[b'x'; 100_000]).unwrap();
            let mut out = Vec::new();
            let error = reader.read_to_end(&mut out).unwrap_err();
            assert!(error.to_string().contains("grew past"), "{error}");
            assert!(out.len() <= 10);
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
            let Err(error) = open_document(&doc, &WalkOptions::default()) else {
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
            };
            assert_eq!(
                read_all(&directory, &WalkOptions::default()),
                Err(SkipReason::NotRegular)
            );
            let gone = document(&dir, "gone", b"deleted during the walk");
            std::fs::remove_file(&gone.path).unwrap();
            let Err(error) = open_document(&gone, &WalkOptions::default()) else {
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
