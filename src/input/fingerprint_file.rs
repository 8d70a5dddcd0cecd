//! Reading back fingerprint files written by `simdup fingerprint`, so
//! fingerprints computed on many machines are merged and searched.
//!
//! Two formats, detected per file from its first non-empty line (`{` starts
//! JSON Lines):
//! - text, like `sha256sum`: `<16 hex digits>  <path>` per document; lines
//!   starting with `#` are comments, and `# simdup fingerprint
//!   options=<describe> digest=<hex>` records the options. As in GNU
//!   coreutils, a line starting with `\` has a path with `\\` for `\`, `\n`
//!   for a newline (and `\r` for a carriage return).
//! - JSON Lines: `{"path": "...", "simhash": "<16 hex>" or null, "features":
//!   N, "bytes": N, "content_hash": "<16 hex>", "options": "...", "digest":
//!   "<hex>"}`; only `path` and `simhash` are required. A short text also
//!   has `"short_simhash": "<16 hex>", "short_features": N`, its character
//!   pairs' fingerprint.
//!
//! Fingerprints are only comparable when computed with the same options, so
//! every digest met must be the same one.

use std::fs::File;
use std::io::{Read, Write};
#[cfg(test)]
use std::path::PathBuf;
use std::sync::Arc;

use serde_json::{Map, Value};

use super::blocks::{BLOCK_BYTES, Blocks, Piece};
use super::from_base64;
use crate::{Error, Result};

/// Longest line accepted; a fingerprint line is a path and a few numbers.
const MAX_LINE_BYTES: usize = 1 << 20;

/// One document's fingerprint, as read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FingerprintRecord {
    /// The document's name: a path's bytes, UTF-8 or not.
    pub name: Vec<u8>,
    /// The SimHash; `None` for a document without features.
    pub simhash: Option<u64>,
    /// Number of features, when recorded.
    pub features: Option<u64>,
    /// Bytes read, when recorded.
    pub bytes: Option<u64>,
    /// xxh3-64 of the raw bytes, when recorded.
    pub content_hash: Option<u64>,
    /// A short text's character-pair fingerprint, when recorded.
    pub short_text: Option<SavedShortText>,
}

/// A short text's character-pair fingerprint, as saved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SavedShortText {
    /// Its SimHash.
    pub simhash: u64,
    /// Its number of features.
    pub features: u64,
}

/// Where the options of a set of fingerprints were first declared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Provenance {
    /// The options digest.
    pub digest: String,
    /// The options' description, when given.
    pub options: Option<String>,
    /// The file that declared them.
    pub source_name: String,
    /// The line that declared them.
    pub line: u64,
}

/// Fingerprints merged from one or more files, read in order (the tests'
/// statement of the semantics; a scan parses blocks on the workers and
/// feeds [`Declarations`] itself).
#[cfg(test)]
#[derive(Clone, Debug, Default)]
pub struct FingerprintSet {
    /// Every fingerprint, in file order.
    pub records: Vec<FingerprintRecord>,
    /// The options all files agree on; `None` if no file declared any.
    pub provenance: Option<Provenance>,
    /// Files that declared no digest.
    pub files_without_digest: Vec<String>,
}

/// Reads and merges fingerprint files (`-` is stdin).
///
/// Fails on the first unreadable file or malformed line, and on files whose
/// digests differ.
#[cfg(test)]
pub fn read_fingerprint_files(paths: &[PathBuf]) -> Result<FingerprintSet> {
    let mut set = FingerprintSet::default();
    for path in paths {
        let (reader, name) = open(path)?;
        set.add_file(reader, &name)?;
    }
    Ok(set)
}

/// Opens a fingerprint file (`-`: stdin) and names it for messages.
pub(crate) fn open(path: &std::path::Path) -> Result<(Box<dyn Read + Send>, String)> {
    if path.as_os_str() == "-" {
        Ok((Box::new(std::io::stdin()), crate::error::STDIN.to_string()))
    } else {
        let file = File::open(path).map_err(|source| Error::io(path, source))?;
        Ok((Box::new(file), path.display().to_string()))
    }
}

#[cfg(test)]
impl FingerprintSet {
    /// Adds the fingerprints of one file, read from `reader`; `source_name`
    /// names it in errors.
    pub fn add_file<R: Read>(&mut self, reader: R, source_name: &str) -> Result<()> {
        let mut declarations = Declarations {
            provenance: self.provenance.take(),
            files_without_digest: std::mem::take(&mut self.files_without_digest),
        };
        let result = self.add_lines(reader, source_name, &mut declarations);
        self.provenance = declarations.provenance;
        self.files_without_digest = declarations.files_without_digest;
        result
    }

    fn add_lines<R: Read>(
        &mut self,
        reader: R,
        source_name: &str,
        declarations: &mut Declarations,
    ) -> Result<()> {
        let mut declared = false;
        for block in FingerprintBlocks::new(reader, source_name) {
            for parsed in block.parse() {
                let (line, parsed) = parsed?;
                if let Some(record) = declarations.take(parsed, source_name, line, &mut declared)? {
                    self.records.push(record);
                }
            }
        }
        declarations.file_done(source_name, declared);
        Ok(())
    }
}

/// The options the files of a run declare: every digest met must be the
/// same one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Declarations {
    /// The options all files agree on; `None` if no file declared any.
    pub provenance: Option<Provenance>,
    /// Files that declared no digest: accepted, but worth a warning, since
    /// nothing shows they were computed with the same options.
    pub files_without_digest: Vec<String>,
}

impl Declarations {
    /// Takes one parsed line of `source_name`: checks what it declares,
    /// and returns its fingerprint, if it holds one. `declared` becomes
    /// true once the file has declared its options.
    pub(crate) fn take(
        &mut self,
        line: Line,
        source_name: &str,
        number: u64,
        declared: &mut bool,
    ) -> Result<Option<FingerprintRecord>> {
        let (record, declaration) = match line {
            Line::Nothing => (None, None),
            Line::Options { digest, options } => (None, Some((digest, options))),
            Line::Record(record, declaration) => (Some(record), declaration),
        };
        if let Some((digest, options)) = declaration {
            *declared = true;
            self.check_digest(Provenance {
                digest,
                options,
                source_name: source_name.to_string(),
                line: number,
            })?;
        }
        Ok(record)
    }

    /// Notes the end of a file.
    pub(crate) fn file_done(&mut self, source_name: &str, declared: bool) {
        if !declared {
            self.files_without_digest.push(source_name.to_string());
        }
    }

    fn check_digest(&mut self, found: Provenance) -> Result<()> {
        let Some(first) = &self.provenance else {
            self.provenance = Some(found);
            return Ok(());
        };
        if first.digest == found.digest {
            return Ok(());
        }
        let describe = |p: &Provenance| match &p.options {
            Some(options) => format!(
                "{}:{} has digest {} (options {options})",
                p.source_name, p.line, p.digest
            ),
            None => format!("{}:{} has digest {}", p.source_name, p.line, p.digest),
        };
        Err(Error::data(
            found.source_name.clone(),
            format!(
                "fingerprints computed with different options cannot be compared: {} but {}; \
                 recompute them with the same options",
                describe(first),
                describe(&found)
            ),
        ))
    }
}

/// What one line of a fingerprint file holds.
#[derive(Debug)]
pub(crate) enum Line {
    Nothing,
    Options {
        digest: String,
        options: Option<String>,
    },
    Record(FingerprintRecord, Option<(String, Option<String>)>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Text,
    JsonLines,
}

/// A fingerprint file cut into blocks of whole lines; the format is that
/// of its first non-empty line (`{` starts JSON Lines).
pub(crate) struct FingerprintBlocks<R> {
    blocks: Blocks<R>,
    source_name: Arc<str>,
    format: Option<Format>,
}

/// Some lines of a fingerprint file, not parsed yet.
pub(crate) struct FingerprintBlock {
    piece: Piece,
    source_name: Arc<str>,
    format: Option<Format>,
}

impl<R: Read> FingerprintBlocks<R> {
    /// The blocks of `reader`, named `source_name` in errors.
    pub(crate) fn new(reader: R, source_name: &str) -> Self {
        FingerprintBlocks {
            blocks: Blocks::with_block_bytes(reader, b'\n', MAX_LINE_BYTES, BLOCK_BYTES),
            source_name: Arc::from(source_name),
            format: None,
        }
    }
}

impl<R: Read> Iterator for FingerprintBlocks<R> {
    type Item = FingerprintBlock;

    fn next(&mut self) -> Option<FingerprintBlock> {
        let piece = self.blocks.next()?;
        if self.format.is_none()
            && let Piece::Block { bytes, .. } = &piece
        {
            self.format = super::blocks::records(bytes, b'\n')
                .map(|line| line.strip_suffix(b"\r").unwrap_or(line))
                .find(|line| !line.iter().all(u8::is_ascii_whitespace))
                .map(|line| {
                    if line.first() == Some(&b'{') {
                        Format::JsonLines
                    } else {
                        Format::Text
                    }
                });
        }
        Some(FingerprintBlock {
            piece,
            source_name: Arc::clone(&self.source_name),
            format: self.format,
        })
    }
}

impl FingerprintBlock {
    /// Every line of the block that says something, with its number; a
    /// malformed line is an error in its place, and the lines after it are
    /// still parsed, so one bad line costs only itself.
    pub(crate) fn parse(self) -> Vec<Result<(u64, Line)>> {
        let source_name = &*self.source_name;
        let error = |line: u64, message: String| Error::Parse {
            source_name: source_name.to_string(),
            line,
            message,
        };
        match self.piece {
            Piece::Failed(source) => vec![Err(Error::io_named(source_name, source))],
            Piece::TooLong { number } => vec![Err(error(
                number,
                format!("line longer than {MAX_LINE_BYTES} bytes"),
            ))],
            Piece::Block { bytes, first, .. } => {
                let mut parsed = Vec::new();
                for (index, line) in super::blocks::records(&bytes, b'\n').enumerate() {
                    let number = first + index as u64;
                    let line = line.strip_suffix(b"\r").unwrap_or(line);
                    if line.iter().all(u8::is_ascii_whitespace) {
                        continue;
                    }
                    let result = match self.format {
                        Some(Format::JsonLines) => parse_json_line(line),
                        _ => parse_text_line(line),
                    };
                    match result {
                        Ok(Line::Nothing) => {}
                        Ok(line) => parsed.push(Ok((number, line))),
                        Err(message) => parsed.push(Err(error(number, message))),
                    }
                }
                parsed
            }
        }
    }
}

/// Writes one line of the text format (`<16 hex>  <name>`), escaping as
/// GNU coreutils does, so the parser reads back `name`
/// exactly. Kept beside the parser so the two cannot drift apart.
pub fn write_text_line<W: Write>(out: W, simhash: u64, name: &[u8]) -> std::io::Result<()> {
    write_checksum_line(out, format_args!("{simhash:016x}"), name)
}

/// Writes `<value>  <name>` on one line as GNU sha256sum does: a name
/// holding a backslash or a line break has them escaped (`\\`, `\n`,
/// `\r`) and the line starts with a backslash.
pub fn write_checksum_line<W: Write>(
    mut out: W,
    value: std::fmt::Arguments<'_>,
    name: &[u8],
) -> std::io::Result<()> {
    if !name.iter().any(|&b| matches!(b, b'\\' | b'\n' | b'\r')) {
        write!(out, "{value}  ")?;
        out.write_all(name)?;
        return out.write_all(b"\n");
    }
    let mut escaped = Vec::with_capacity(name.len() + 8);
    for &byte in name {
        match byte {
            b'\\' => escaped.extend_from_slice(b"\\\\"),
            b'\n' => escaped.extend_from_slice(b"\\n"),
            b'\r' => escaped.extend_from_slice(b"\\r"),
            _ => escaped.push(byte),
        }
    }
    write!(out, "\\{value}  ")?;
    out.write_all(&escaped)?;
    out.write_all(b"\n")
}

fn parse_text_line(line: &[u8]) -> Result<Line, String> {
    if let Some(comment) = line.strip_prefix(b"#") {
        return Ok(parse_header(&String::from_utf8_lossy(comment)));
    }
    let (escaped, line) = match line.strip_prefix(b"\\") {
        Some(rest) => (true, rest),
        None => (false, line),
    };
    let simhash = line
        .get(..16)
        .and_then(parse_hex)
        .ok_or("expected 16 hex digits, two spaces and a path")?;
    let name = line
        .get(16..)
        .and_then(|rest| rest.strip_prefix(b"  "))
        .filter(|name| !name.is_empty())
        .ok_or("expected two spaces and a path after the fingerprint")?;
    let name = if escaped {
        unescape(name)?
    } else {
        name.to_vec()
    };
    Ok(Line::Record(
        FingerprintRecord {
            name,
            simhash: Some(simhash),
            features: None,
            bytes: None,
            content_hash: None,
            short_text: None,
        },
        None,
    ))
}

/// `# simdup fingerprint options=<describe> digest=<hex>`; other comments
/// say nothing.
fn parse_header(comment: &str) -> Line {
    let mut words = comment.split_ascii_whitespace();
    if words.next() != Some("simdup") || words.next() != Some("fingerprint") {
        return Line::Nothing;
    }
    let (mut options, mut digest) = (None, None);
    for word in words {
        if let Some(value) = word.strip_prefix("options=") {
            options = Some(value.to_string());
        } else if let Some(value) = word.strip_prefix("digest=") {
            digest = Some(value.to_string());
        }
    }
    match digest {
        Some(digest) => Line::Options { digest, options },
        None => Line::Nothing,
    }
}

fn unescape(escaped: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(escaped.len());
    let mut bytes = escaped.iter();
    while let Some(&byte) = bytes.next() {
        if byte != b'\\' {
            out.push(byte);
            continue;
        }
        out.push(match bytes.next() {
            Some(b'\\') => b'\\',
            Some(b'n') => b'\n',
            Some(b'r') => b'\r',
            _ => return Err("invalid escape in path (expected \\\\, \\n or \\r)".to_string()),
        });
    }
    Ok(out)
}

fn parse_hex(digits: &[u8]) -> Option<u64> {
    // `from_str_radix` would also take a sign; a fingerprint is 16 digits.
    if digits.len() != 16 || !digits.iter().all(u8::is_ascii_hexdigit) {
        return None;
    }
    u64::from_str_radix(std::str::from_utf8(digits).ok()?, 16).ok()
}

fn parse_json_line(line: &[u8]) -> Result<Line, String> {
    let value: Value = serde_json::from_slice(line).map_err(|e| format!("invalid JSON: {e}"))?;
    let Value::Object(object) = value else {
        return Err("expected a JSON object".to_string());
    };
    // A name that is not UTF-8 has its bytes beside the readable `path`.
    let name = match (object.get("path"), object.get("path_bytes")) {
        (Some(Value::String(_)), Some(Value::String(encoded))) => {
            from_base64(encoded).ok_or("field 'path_bytes' is not base64")?
        }
        (Some(Value::String(path)), None | Some(Value::Null)) => path.clone().into_bytes(),
        (Some(Value::String(_)), Some(_)) => {
            return Err("field 'path_bytes' is not a string".to_string());
        }
        _ => return Err("expected a string field 'path'".to_string()),
    };
    let simhash = match object.get("simhash") {
        Some(Value::Null) => None,
        Some(Value::String(hex)) => {
            Some(parse_hex(hex.as_bytes()).ok_or("field 'simhash' is not 16 hex digits")?)
        }
        _ => return Err("expected a field 'simhash': 16 hex digits or null".to_string()),
    };
    let short_text = match (
        optional_hex(&object, "short_simhash")?,
        optional_count(&object, "short_features")?,
    ) {
        (Some(simhash), Some(features)) => Some(SavedShortText { simhash, features }),
        (None, None) => None,
        _ => return Err("fields 'short_simhash' and 'short_features' go together".to_string()),
    };
    let declaration = match optional_string(&object, "digest")? {
        Some(digest) => Some((digest, optional_string(&object, "options")?)),
        None => None,
    };
    Ok(Line::Record(
        FingerprintRecord {
            name,
            simhash,
            features: optional_count(&object, "features")?,
            bytes: optional_count(&object, "bytes")?,
            content_hash: optional_hex(&object, "content_hash")?,
            short_text,
        },
        declaration,
    ))
}

fn optional_hex(object: &Map<String, Value>, field: &str) -> Result<Option<u64>, String> {
    match object.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(hex)) => parse_hex(hex.as_bytes())
            .map(Some)
            .ok_or(format!("field '{field}' is not 16 hex digits")),
        Some(_) => Err(format!("field '{field}' is not 16 hex digits")),
    }
}

fn optional_count(object: &Map<String, Value>, field: &str) -> Result<Option<u64>, String> {
    match object.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(value) => value
            .as_u64()
            .map(Some)
            .ok_or(format!("field '{field}' is not a whole number")),
    }
}

fn optional_string(object: &Map<String, Value>, field: &str) -> Result<Option<String>, String> {
    match object.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(text.clone())),
        Some(_) => Err(format!("field '{field}' is not a string")),
    }
}

#[cfg(test)]
#[path = "fingerprint_file_tests.rs"]
mod tests;
