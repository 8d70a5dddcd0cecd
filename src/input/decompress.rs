//! `--decompress`: gzip files read as the text they hold, as `zcat` reads
//! them (`ripgrep -z` does the same for its searches).
//!
//! A file is gzip by its first two bytes (0x1f 0x8b), whatever its name,
//! so `page.1.gz`, `access.log.1.gz` and `notes.svgz` are all read; every
//! member of a multi-member file is read, as `gzip -d` does. Any other
//! file is read as it is. Its markup format is that of its name without
//! `.gz` (`README.md.gz` is Markdown).

use std::ffi::OsStr;
use std::io::{self, Cursor, Read};
use std::path::Path;

use flate2::read::MultiGzDecoder;

/// The first bytes of every gzip stream (RFC 1952).
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Whether bytes that start a file are gzip's.
pub fn is_gzip(start: &[u8]) -> bool {
    start.starts_with(&GZIP_MAGIC)
}

/// What `reader` holds: the text inside it when it is gzip, else its bytes
/// unchanged. Reads its first two bytes to tell.
pub fn decompressed(reader: Box<dyn Read + Send>) -> io::Result<Box<dyn Read + Send>> {
    Ok(gzip_text(reader)?.0)
}

/// [`decompressed`], and whether it was gzip.
pub fn gzip_text(mut reader: Box<dyn Read + Send>) -> io::Result<(Box<dyn Read + Send>, bool)> {
    let mut magic = Vec::with_capacity(GZIP_MAGIC.len());
    (&mut reader)
        .take(GZIP_MAGIC.len() as u64)
        .read_to_end(&mut magic)?;
    let gzip = is_gzip(&magic);
    let whole = Cursor::new(magic).chain(reader);
    Ok(if gzip {
        (Box::new(GzipText(MultiGzDecoder::new(whole))), true)
    } else {
        (Box::new(whole), false)
    })
}

/// The name whose extension gives a file's markup format: without a
/// trailing `.gz` (any case).
pub fn inner_name(path: &Path) -> &Path {
    match (path.extension(), path.file_stem()) {
        (Some(extension), Some(stem)) if extension.eq_ignore_ascii_case(OsStr::new("gz")) => {
            Path::new(stem)
        }
        _ => path,
    }
}

/// A gzip stream's text, its errors saying that the gzip data is bad (the
/// caller names the file).
struct GzipText<R>(MultiGzDecoder<R>);

impl<R: Read> Read for GzipText<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf).map_err(|error| match error.kind() {
            // The decoder's own errors; the file's pass as they are (a
            // file that grew past --max-filesize is not bad gzip).
            io::ErrorKind::InvalidInput | io::ErrorKind::InvalidData => io::Error::new(
                io::ErrorKind::InvalidData,
                format!("bad gzip data: {error}"),
            ),
            io::ErrorKind::UnexpectedEof => io::Error::new(
                io::ErrorKind::InvalidData,
                "bad gzip data: the stream is cut short (a truncated file?)",
            ),
            _ => error,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::Compression;
    use flate2::write::GzEncoder;
    use std::io::Write;

    pub(crate) fn gzip(text: &[u8]) -> Vec<u8> {
        let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
        encoder.write_all(text).unwrap();
        encoder.finish().unwrap()
    }

    fn read_all(bytes: Vec<u8>) -> io::Result<Vec<u8>> {
        let mut out = Vec::new();
        decompressed(Box::new(Cursor::new(bytes)))?.read_to_end(&mut out)?;
        Ok(out)
    }

    #[test]
    fn gzip_gives_its_text_and_anything_else_its_bytes() {
        let text = b"the quick brown fox\n".repeat(1000);
        assert_eq!(read_all(gzip(&text)).unwrap(), text);
        assert_eq!(read_all(text.clone()).unwrap(), text);
        // Shorter than the magic, and one byte of it.
        assert_eq!(read_all(b"x".to_vec()).unwrap(), b"x");
        assert_eq!(read_all(vec![0x1f]).unwrap(), vec![0x1f]);
        assert_eq!(read_all(Vec::new()).unwrap(), b"");
    }

    #[test]
    fn every_member_of_a_multi_member_file_is_read() {
        let mut both = gzip(b"first member\n");
        both.extend(gzip(b"second member\n"));
        assert_eq!(read_all(both).unwrap(), b"first member\nsecond member\n");
    }

    #[test]
    fn bad_and_truncated_gzip_are_errors_that_say_so() {
        let whole = gzip(&b"some text to compress\n".repeat(100));
        let truncated = whole[..whole.len() / 2].to_vec();
        let error = read_all(truncated).unwrap_err();
        assert!(error.to_string().starts_with("bad gzip data"), "{error}");
        let mut corrupt = whole.clone();
        for byte in &mut corrupt[12..40] {
            *byte ^= 0x55;
        }
        let error = read_all(corrupt).unwrap_err();
        assert!(error.to_string().starts_with("bad gzip data"), "{error}");
    }

    #[test]
    fn the_format_comes_from_the_name_inside() {
        assert_eq!(
            inner_name(Path::new("doc/README.md.gz")),
            Path::new("README.md")
        );
        assert_eq!(inner_name(Path::new("ls.1.GZ")), Path::new("ls.1"));
        assert_eq!(inner_name(Path::new("notes.md")), Path::new("notes.md"));
        assert_eq!(inner_name(Path::new(".gz")), Path::new(".gz"));
    }
}
