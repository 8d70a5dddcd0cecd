//! The prose view of a document: Markdown, reStructuredText, AsciiDoc,
//! HTML and man page files compared on their text rather than their
//! markup, and
//! `--transform`'s external converters.
//!
//! The markup view keeps every line where it was: markup is removed
//! within a line and the line is padded with spaces to its old length, so
//! line numbers (`explain`, SARIF regions), byte counts and the `bytes` of
//! a fingerprint are those of the file. Each format has a small scanner of
//! its own (`markdown`, `rst`, `asciidoc`, `html`, `roff`) that sees one line at a
//! time and carries what it needs (an open fence, comment or tag) to the
//! next; lines are cut every [`MAX_LINE`] bytes, so memory is bounded on
//! any input and the view never depends on how the file is read.

mod asciidoc;
mod html;
mod inline;
mod markdown;
mod roff;
mod rst;
mod transform;

use std::fmt;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;
use std::sync::Arc;

pub use transform::Transform;
pub(crate) use transform::{DEFAULT_OUTPUT_LIMIT, TransformError};

/// Longest piece of a line a scanner sees at once; a longer line is cut
/// into pieces of this size (only pathological files have such lines).
pub const MAX_LINE: usize = 256 * 1024;

/// Whether markup files are compared on their text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Markup {
    /// Markdown, reStructuredText, AsciiDoc, HTML and man page files are compared on
    /// their text (the default).
    #[default]
    Text,
    /// Every file is compared on its bytes as written.
    Raw,
}

/// How a file's bytes become the text that is fingerprinted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct View {
    /// The markup view.
    pub markup: Markup,
    /// An external converter run on each file instead; its output is
    /// taken as plain text.
    pub transform: Option<Arc<Transform>>,
    /// gzip files are read as the text they hold (`--decompress`; not
    /// with a converter, which reads the file itself).
    pub decompress: bool,
}

impl View {
    /// The raw bytes of every file, unconverted.
    pub fn raw() -> View {
        View {
            markup: Markup::Raw,
            transform: None,
            decompress: false,
        }
    }

    /// Whether the text fingerprinted can differ in length from the file
    /// (only a converter's output can).
    pub fn changes_length(&self) -> bool {
        self.transform.is_some()
    }

    /// A short description for the options string: empty for the default.
    pub(crate) fn describe(&self) -> Vec<&'static str> {
        let mut parts = Vec::new();
        if self.markup == Markup::Raw {
            parts.push("markup:raw");
        }
        if self.transform.is_some() {
            parts.push("transform");
        }
        if self.decompress {
            parts.push("decompress");
        }
        parts
    }

    /// Everything of the view that changes features, for the digest.
    pub(crate) fn digest_bytes(&self) -> Vec<u8> {
        let mut bytes = match self.markup {
            // Man pages joined the text view later, and then the
            // arguments of reStructuredText's directives: fingerprints
            // stored before (caches, indexes) are of another text.
            Markup::Text => b"markup:text+roff+rst-arguments".to_vec(),
            Markup::Raw => b"markup:raw".to_vec(),
        };
        if let Some(transform) = &self.transform {
            bytes.extend_from_slice(b"\0transform:");
            bytes.extend_from_slice(transform.command().as_bytes());
        }
        // Appended only when on, so the digests of earlier options stay.
        if self.decompress {
            bytes.extend_from_slice(b"\0decompress");
        }
        bytes
    }

    /// The markup view of a file's bytes, by its name; `reader` unchanged
    /// for a file of no markup format, or with `--markup raw`. The
    /// converter of `--transform` is not run here (see [`Transform::run`]).
    /// With `decompress`, the format is that of the name without `.gz`.
    pub fn markup_reader(&self, path: &Path, reader: Box<dyn Read + Send>) -> Box<dyn Read + Send> {
        let name = if self.decompress {
            super::decompress::inner_name(path)
        } else {
            path
        };
        match (self.markup, Format::of(name)) {
            (Markup::Text, Some(format)) => Box::new(ProseReader::new(reader, format)),
            _ => reader,
        }
    }

    /// Opens a file again (to verify or explain a pair) and gives the same
    /// text its fingerprint was made from.
    pub fn reopen(&self, path: &Path) -> io::Result<Box<dyn Read + Send>> {
        let file: Box<dyn Read + Send> = Box::new(std::fs::File::open(path)?);
        match &self.transform {
            Some(transform) => {
                let text = transform
                    .run(path, file, DEFAULT_OUTPUT_LIMIT)
                    .map_err(|error| io::Error::other(error.to_string()))?;
                Ok(Box::new(io::Cursor::new(text)))
            }
            None if self.decompress => {
                Ok(self.markup_reader(path, super::decompress::decompressed(file)?))
            }
            None => Ok(self.markup_reader(path, file)),
        }
    }
}

impl fmt::Display for Markup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Markup::Text => "text",
            Markup::Raw => "raw",
        })
    }
}

/// A markup format, known by its file extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `.md`, `.markdown`, `.mdown`, `.mkd`.
    Markdown,
    /// `.rst`, `.rest`.
    Rst,
    /// `.adoc`, `.asciidoc` (not `.asc`, which is mostly PGP signatures).
    AsciiDoc,
    /// `.html`, `.htm`, `.xhtml`.
    Html,
    /// Man pages: `.1` to `.9` with an optional suffix (`.3pm`, `.1ssl`),
    /// `.man`, `.mdoc`, `.roff`; read as roff only when their first line
    /// that is not blank is a control line.
    Roff,
}

impl Format {
    /// The format of a file by its extension (any case); `None` for the
    /// rest, which are read as they are.
    pub fn of(path: &Path) -> Option<Format> {
        let extension = path.extension()?.to_str()?.to_ascii_lowercase();
        Some(match extension.as_str() {
            "md" | "markdown" | "mdown" | "mkd" => Format::Markdown,
            "rst" | "rest" => Format::Rst,
            "adoc" | "asciidoc" => Format::AsciiDoc,
            "html" | "htm" | "xhtml" => Format::Html,
            "man" | "mdoc" | "roff" => Format::Roff,
            section if is_man_section(section) => Format::Roff,
            _ => return None,
        })
    }
}

/// A man page section as an extension: a digit from 1 to 9, then up to
/// five letters or digits (`1`, `3pm`, `1ssl`, `8posix`).
fn is_man_section(extension: &str) -> bool {
    let bytes = extension.as_bytes();
    matches!(bytes.first(), Some(b'1'..=b'9'))
        && bytes.len() <= 6
        && bytes[1..].iter().all(u8::is_ascii_alphanumeric)
}

/// One format's scanner and what it carries from line to line.
enum Scanner {
    Markdown(markdown::State),
    Rst(rst::State),
    AsciiDoc(asciidoc::State),
    Html(html::State),
    Roff(roff::State),
}

impl Scanner {
    fn new(format: Format) -> Scanner {
        match format {
            Format::Markdown => Scanner::Markdown(markdown::State::default()),
            Format::Rst => Scanner::Rst(rst::State::default()),
            Format::AsciiDoc => Scanner::AsciiDoc(asciidoc::State::default()),
            Format::Html => Scanner::Html(html::State::default()),
            Format::Roff => Scanner::Roff(roff::State::default()),
        }
    }

    /// Writes the text of one line (without its line ending) to `out`;
    /// `start` is false for the second and later pieces of a cut line.
    fn line(&mut self, line: &[u8], start: bool, out: &mut Vec<u8>) {
        match self {
            Scanner::Markdown(state) => state.line(line, start, out),
            Scanner::Rst(state) => state.line(line, start, out),
            Scanner::AsciiDoc(state) => state.line(line, start, out),
            Scanner::Html(state) => state.line(line, out),
            Scanner::Roff(state) => state.line(line, start, out),
        }
    }
}

/// `text` without its leading blanks (spaces and tabs).
pub(super) fn trim_start(text: &[u8]) -> &[u8] {
    let start = text
        .iter()
        .position(|&b| b != b' ' && b != b'\t')
        .unwrap_or(text.len());
    &text[start..]
}

/// `text` without its trailing blanks (spaces and tabs).
pub(super) fn trim_end(text: &[u8]) -> &[u8] {
    let end = text
        .iter()
        .rposition(|&b| b != b' ' && b != b'\t')
        .map_or(0, |i| i + 1);
    &text[..end]
}

/// The text of a whole buffer in `format`, line for line (for tests and
/// fuzzing; files go through [`View::markup_reader`]).
pub fn prose_of(format: Format, bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    prose_reader(format, bytes)
        .read_to_end(&mut out)
        .unwrap_or_default();
    out
}

/// A reader of the text of what `reader` reads, in `format`.
pub fn prose_reader<R: Read>(format: Format, reader: R) -> impl Read {
    ProseReader::new(reader, format)
}

/// A reader of a document's text: each line of the inner reader, through
/// the format's scanner, padded with spaces to its length, with its line
/// ending.
struct ProseReader<R> {
    inner: BufReader<R>,
    scanner: Scanner,
    /// The current input line.
    line: Vec<u8>,
    /// Output not yet read, from `at`.
    ready: Vec<u8>,
    at: usize,
    /// Whether the next piece starts a line.
    start: bool,
    /// An error met after a read had bytes to give: the next read's.
    error: Option<io::Error>,
}

impl<R: Read> ProseReader<R> {
    fn new(inner: R, format: Format) -> Self {
        ProseReader {
            inner: BufReader::new(inner),
            scanner: Scanner::new(format),
            line: Vec::new(),
            ready: Vec::new(),
            at: 0,
            start: true,
            error: None,
        }
    }

    /// Scans the next line (or piece); false at the end of the input.
    fn next_line(&mut self) -> io::Result<bool> {
        self.line.clear();
        (&mut self.inner)
            .take(MAX_LINE as u64)
            .read_until(b'\n', &mut self.line)?;
        if self.line.is_empty() {
            return Ok(false);
        }
        let mut body = &self.line[..];
        let mut ending: &[u8] = b"";
        if body.ends_with(b"\n") {
            let cut = if body.ends_with(b"\r\n") { 2 } else { 1 };
            ending = &body[body.len() - cut..];
            body = &body[..body.len() - cut];
        }
        self.ready.clear();
        self.at = 0;
        self.scanner.line(body, self.start, &mut self.ready);
        // A scanner only removes or shortens; never let a line grow.
        debug_assert!(self.ready.len() <= body.len());
        self.ready.truncate(body.len());
        self.ready.resize(body.len(), b' ');
        self.ready.extend_from_slice(ending);
        self.start = !ending.is_empty();
        Ok(true)
    }
}

impl<R: Read> Read for ProseReader<R> {
    /// Fills `buf` with as many lines as fit: a line a call made every
    /// line a chunk of its own for the fingerprint pipeline, whose cost per
    /// chunk then outweighed the scanner's (1.3 times the time on man
    /// pages). An error after some bytes waits for the next call.
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Some(error) = self.error.take() {
            return Err(error);
        }
        let mut filled = 0;
        while filled < buf.len() {
            if self.at == self.ready.len() {
                match self.next_line() {
                    Ok(true) => continue,
                    Ok(false) => break,
                    Err(error) if filled == 0 => return Err(error),
                    Err(error) => {
                        self.error = Some(error);
                        break;
                    }
                }
            }
            let n = (buf.len() - filled).min(self.ready.len() - self.at);
            buf[filled..filled + n].copy_from_slice(&self.ready[self.at..self.at + n]);
            self.at += n;
            filled += n;
        }
        Ok(filled)
    }
}

/// A markup text's view, split into words: what the scanners' tests
/// compare.
#[cfg(test)]
fn view_words(format: Format, text: &str) -> Vec<String> {
    String::from_utf8(prose_of(format, text.as_bytes()))
        .unwrap()
        .split_whitespace()
        .map(String::from)
        .collect()
}

#[cfg(test)]
mod tests;
