//! Path lists for `--files-from FILE`: one path per line, or NUL-separated
//! (`-0`) as `find -print0` writes them.

use std::io::BufRead;
use std::path::PathBuf;

use super::delimited::{Chunk, Delimited};
use crate::{Error, Result};

/// Longest path accepted in a list; far beyond any file system's limit, it
/// only keeps a list without separators from filling memory.
const MAX_PATH_BYTES: usize = 64 * 1024;

/// What separates the paths of a list.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PathSeparator {
    /// One path per line; a trailing `\r` is removed (lists made on Windows).
    #[default]
    Newline,
    /// NUL-terminated paths (`find -print0`, `-0`); taken byte for byte.
    Nul,
}

/// Reads a list of paths; empty entries are ignored.
///
/// `source_name` names the list in errors (`stdin` for stdin). On
/// Unix any bytes make a path; elsewhere a path must be UTF-8.
pub fn read_path_list<R: BufRead>(
    reader: R,
    separator: PathSeparator,
    source_name: &str,
) -> Result<Vec<PathBuf>> {
    let delimiter = match separator {
        PathSeparator::Newline => b'\n',
        PathSeparator::Nul => b'\0',
    };
    let mut chunks = Delimited::new(reader, delimiter, MAX_PATH_BYTES + 1);
    let mut buf = Vec::new();
    let mut paths = Vec::new();
    let mut number = 0u64;
    let parse_error = |line, message: String| Error::Parse {
        source_name: source_name.to_string(),
        line,
        message,
    };
    loop {
        let chunk = chunks
            .next_into(&mut buf)
            .map_err(|source| Error::io_named(source_name, source))?;
        number += 1;
        let too_long = match chunk {
            None => return Ok(paths),
            Some(Chunk::TooLong) => true,
            Some(Chunk::Whole) => false,
        };
        if separator == PathSeparator::Newline && buf.last() == Some(&b'\r') {
            buf.pop();
        }
        if too_long || buf.len() > MAX_PATH_BYTES {
            return Err(parse_error(
                number,
                format!(
                    "path longer than {MAX_PATH_BYTES} bytes (is the separator right? -0 reads NUL-separated lists)"
                ),
            ));
        }
        if buf.is_empty() {
            continue;
        }
        paths.push(
            listed_path(&buf)
                .ok_or_else(|| parse_error(number, "path is not valid UTF-8".to_string()))?,
        );
    }
}

/// Any bytes on Unix; elsewhere a name must be UTF-8.
fn listed_path(bytes: &[u8]) -> Option<PathBuf> {
    (cfg!(unix) || std::str::from_utf8(bytes).is_ok()).then(|| super::path_from_bytes(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(list: &[&str]) -> Vec<PathBuf> {
        list.iter().map(PathBuf::from).collect()
    }

    #[test]
    fn reads_lines_ignoring_empty_ones_and_carriage_returns() {
        let input = b"a.txt\n\ndocs/b c.md\r\n\nlast";
        let got = read_path_list(&input[..], PathSeparator::Newline, "list").unwrap();
        assert_eq!(got, paths(&["a.txt", "docs/b c.md", "last"]));
    }

    #[test]
    fn reads_nul_separated_paths_with_newlines_inside() {
        let input = b"a\nb\0\0c\r\0";
        let got = read_path_list(&input[..], PathSeparator::Nul, "-").unwrap();
        assert_eq!(got, paths(&["a\nb", "c\r"]));
    }

    #[cfg(unix)]
    #[test]
    fn accepts_paths_that_are_not_utf8() {
        use std::os::unix::ffi::OsStrExt;
        let input = b"ok\n\xff\xfe.txt\n";
        let got = read_path_list(&input[..], PathSeparator::Newline, "-").unwrap();
        assert_eq!(got[1].as_os_str().as_bytes(), b"\xff\xfe.txt");
    }

    #[test]
    fn an_endless_line_is_an_error_naming_it() {
        let mut input = b"a\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', MAX_PATH_BYTES + 1));
        let Err(error) = read_path_list(&input[..], PathSeparator::Newline, "list.txt") else {
            panic!("a path longer than the limit was accepted");
        };
        let error = error.to_string();
        assert!(error.starts_with("list.txt:2: path longer than"), "{error}");
    }
}
