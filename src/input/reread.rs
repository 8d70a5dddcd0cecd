//! Records read again from the regular file they came from, by where they
//! start: verification needs the text of a record that starts a class, and
//! a stream that is a file need not be copied to a spool for that (the
//! copy was a write of the whole input, on the thread that orders the
//! records: a tenth of a JSON Lines scan).

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use super::Outcome;
use super::Positioned;
use super::records::{FieldPaths, RecordOptions, read_record};

/// A file of records, read again by offset (positioned reads: any thread).
#[derive(Debug)]
pub(crate) struct RecordSource {
    file: File,
    /// Where the stream started in the file (stdin may have been read
    /// from already).
    base: u64,
    options: RecordOptions,
    fields: std::result::Result<FieldPaths, String>,
    source_name: String,
}

/// Bytes read at first while looking for the end of a record (the reads
/// double from there), and at most at a time. Most records a scan reads
/// again are short: a first read of a page copied 4 KB for each of 10^6
/// address lines of 50 bytes.
const FIRST_READ_BYTES: usize = 512;
const READ_BYTES: usize = 64 * 1024;

impl RecordSource {
    /// The records of `path` (stdin when `None`), if it is a regular file
    /// that can be read again; `None` otherwise (a pipe, a terminal): those
    /// must be spooled. Call before the stream is read.
    pub(crate) fn open(
        path: Option<&Path>,
        options: &RecordOptions,
        source_name: &str,
    ) -> Option<RecordSource> {
        let (file, base) = match path {
            Some(path) => (File::open(path).ok()?, 0),
            None => {
                let mut file = stdin_file()?;
                let base = io::Seek::stream_position(&mut file).ok()?;
                (file, base)
            }
        };
        if !file.metadata().ok()?.is_file() {
            return None;
        }
        Some(RecordSource {
            file,
            base,
            options: options.clone(),
            fields: FieldPaths::parse(options),
            source_name: source_name.to_string(),
        })
    }

    /// The text of the record that starts at `offset` of the stream, read
    /// as it was the first time. An error if it no longer reads as a
    /// record (the file changed).
    pub(crate) fn text(&self, offset: u64) -> io::Result<Vec<u8>> {
        let delimiter = self.options.format.delimiter();
        // A record, its `\r` and its delimiter.
        let most = self.options.max_record_bytes.saturating_add(2);
        let mut reader = Positioned {
            file: &self.file,
            at: self.base + offset,
        };
        // Reads grow from FIRST_READ_BYTES: most records are short, and a
        // scan may read millions of them.
        let mut raw = Vec::new();
        let mut want = FIRST_READ_BYTES;
        loop {
            let start = raw.len();
            raw.resize(start + want, 0);
            let n = reader.read(&mut raw[start..])?;
            raw.truncate(start + n);
            if let Some(end) = memchr::memchr(delimiter, &raw[start..]) {
                raw.truncate(start + end);
                break;
            }
            if n == 0 || raw.len() > most {
                break;
            }
            want = (want * 2).min(READ_BYTES);
        }
        let changed = || {
            io::Error::other(format!(
                "{}: the record at byte {offset} changed since it was read",
                self.source_name
            ))
        };
        match read_record(&raw, 0, &self.options, &self.fields, &self.source_name) {
            Some(Outcome::Done(record)) => Ok(record.text),
            _ => Err(changed()),
        }
    }
}

/// Stdin as a file of its own (the same open file: positioned reads do
/// not move stdin).
#[cfg(unix)]
fn stdin_file() -> Option<File> {
    use std::os::fd::AsFd;
    let fd = io::stdin().as_fd().try_clone_to_owned().ok()?;
    Some(File::from(fd))
}

#[cfg(not(unix))]
fn stdin_file() -> Option<File> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::{RecordBlocks, RecordFormat};

    /// Every record of `content`, read once as a stream and again from the
    /// file by its offset: the same texts.
    fn round_trip(content: &[u8], options: &RecordOptions) {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        io::Write::write_all(&mut file, content).unwrap();
        let source = RecordSource::open(Some(file.path()), options, "records").unwrap();
        let blocks = RecordBlocks::with_block_bytes(content, "records", options, 7);
        let mut seen = 0;
        for block in blocks {
            for (outcome, offset) in block.parse_located() {
                if let Outcome::Done(record) = outcome {
                    assert_eq!(source.text(offset).unwrap(), record.text, "at {offset}");
                    seen += 1;
                }
            }
        }
        assert!(seen > 0);
    }

    #[test]
    fn records_read_again_by_offset_are_the_records_read() {
        let lines = b"first line\r\nsecond\n\nthird without an end";
        round_trip(lines, &RecordOptions::default());
        let jsonl =
            b"{\"text\": \"a \\\"quoted\\\" text\"}\n\n{\"id\": 2, \"text\": \"caf\\u00e9\"}\r\n";
        let options = RecordOptions {
            format: RecordFormat::JsonLines,
            ..RecordOptions::default()
        };
        round_trip(jsonl, &options);
        let nul = b"one\0two\r\0three";
        let options = RecordOptions {
            format: RecordFormat::Nul,
            ..RecordOptions::default()
        };
        round_trip(nul, &options);
    }

    /// Records about as long as the first read and many times longer are
    /// read whole, each ending where it ends.
    #[test]
    fn long_records_are_read_again_whole() {
        let mut lines = Vec::new();
        for (at, len) in [
            1,
            FIRST_READ_BYTES - 1,
            FIRST_READ_BYTES,
            FIRST_READ_BYTES + 1,
            5000,
            200_000,
        ]
        .into_iter()
        .enumerate()
        {
            let letter = b'a' + at as u8;
            lines.extend(std::iter::repeat_n(letter, len));
            lines.push(b'\n');
        }
        round_trip(&lines, &RecordOptions::default());
        let jsonl: Vec<u8> = [FIRST_READ_BYTES - 12, 3 * FIRST_READ_BYTES, 70_000]
            .into_iter()
            .flat_map(|len| format!("{{\"text\": \"{}\"}}\n", "x".repeat(len)).into_bytes())
            .collect();
        let options = RecordOptions {
            format: RecordFormat::JsonLines,
            ..RecordOptions::default()
        };
        round_trip(&jsonl, &options);
    }

    #[test]
    fn a_record_that_changed_is_an_error_naming_it() {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        io::Write::write_all(&mut file, b"{\"text\": \"x\"}\n").unwrap();
        let options = RecordOptions {
            format: RecordFormat::JsonLines,
            ..RecordOptions::default()
        };
        let source = RecordSource::open(Some(file.path()), &options, "records.jsonl").unwrap();
        std::fs::write(file.path(), b"not json\n").unwrap();
        let error = source.text(0).unwrap_err().to_string();
        assert!(error.contains("records.jsonl"), "{error}");
        assert!(error.contains("changed"), "{error}");
    }

    #[test]
    fn only_a_regular_file_is_a_source() {
        let options = RecordOptions::default();
        let dir = tempfile::tempdir().unwrap();
        // A directory opens, but is no file of records.
        assert!(RecordSource::open(Some(dir.path()), &options, "dir").is_none());
        #[cfg(unix)]
        assert!(RecordSource::open(Some(Path::new("/dev/null")), &options, "null").is_none());
        let gone = dir.path().join("gone.txt");
        assert!(RecordSource::open(Some(&gone), &options, "gone").is_none());
    }
}
