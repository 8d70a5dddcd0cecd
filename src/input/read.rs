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
}
