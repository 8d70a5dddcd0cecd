//! Records on a stream (`simdup scan -`, `--records lines|nul|jsonl`): each
//! record is one document.
//!
//! Records are read in blocks with bounded memory: a record longer than
//! `max_record_bytes` is passed over as [`SkipReason::TooLarge`] without
//! being buffered. Lines end at `\n` with a trailing `\r` removed; an empty
//! final line is not a record. `line` is the 1-based line number (for `nul`,
//! the record number), and the default id is that number.

use std::io::Read;
use std::ops::Range;
use std::sync::Arc;

use serde_json::Value;

use super::blocks::{Blocks, Piece};
use super::field_path::FieldPath;
use super::json_fields::{Paths, SLOTS, Seek};
use super::{Outcome, SkipReason};
use crate::{Error, Result};

/// How a stream is cut into records.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RecordFormat {
    /// One record per line.
    #[default]
    Lines,
    /// NUL-terminated records, taken byte for byte.
    Nul,
    /// One JSON object per line; blank lines are ignored.
    JsonLines,
}

impl RecordFormat {
    /// The byte that ends a record.
    pub fn delimiter(self) -> u8 {
        match self {
            RecordFormat::Nul => b'\0',
            RecordFormat::Lines | RecordFormat::JsonLines => b'\n',
        }
    }
}

/// How records are read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordOptions {
    /// How the stream is cut into records.
    pub format: RecordFormat,
    /// JSON Lines: the field holding the text (a string): a top-level key,
    /// else a dotted path or a JSON Pointer (the rules are in `field_path`).
    pub text_field: String,
    /// JSON Lines: the field holding the id (a string or a number), named
    /// as the text field is; `None` numbers records by line.
    pub id_field: Option<String>,
    /// Longest record read, in bytes (for JSON Lines, of the whole line).
    pub max_record_bytes: usize,
}

impl RecordOptions {
    /// Checks the field names: a JSON Pointer with a bad escape is an
    /// error before any record is read.
    pub fn validate(&self) -> Result<()> {
        FieldPaths::parse(self).map(|_| ()).map_err(Error::Usage)
    }
}

impl Default for RecordOptions {
    fn default() -> Self {
        RecordOptions {
            format: RecordFormat::Lines,
            text_field: "text".to_string(),
            id_field: None,
            max_record_bytes: 16 << 20,
        }
    }
}

/// One record: a document of its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Record {
    /// The record's id field; `None` when records are named by line.
    pub id: Option<String>,
    /// The 1-based line number (record number for NUL-separated records).
    pub line: u64,
    /// The text to fingerprint.
    pub text: Vec<u8>,
}

/// A record's outcome and the range of its block's bytes it was read from.
pub(crate) type RawRecord = (Outcome<Record>, Range<usize>);

/// Reads records from a stream, one at a time.
///
/// Yields `Outcome::Failed(Error::Parse)` for a malformed JSON line and goes
/// on with the next; after an I/O error it yields nothing more. A record
/// passed over is named `SOURCE:LINE` (its id field was not read).
///
/// The stream is cut into blocks of whole records ([`RecordBlocks`]) and
/// each block parsed in turn; the scan does the same with the parsing on
/// the workers. This sequential reader states the semantics for the tests.
#[cfg(test)]
pub(crate) struct RecordReader<R> {
    blocks: RecordBlocks<R>,
    parsed: std::vec::IntoIter<Outcome<Record>>,
}

#[cfg(test)]
impl<R: Read> RecordReader<R> {
    /// A reader over `reader`; `source_name` (e.g. `stdin`) names it in errors.
    pub(crate) fn new(reader: R, source_name: impl Into<String>, options: &RecordOptions) -> Self {
        RecordReader {
            blocks: RecordBlocks::new(reader, source_name, options),
            parsed: Vec::new().into_iter(),
        }
    }
}

#[cfg(test)]
impl<R: Read> Iterator for RecordReader<R> {
    type Item = Outcome<Record>;

    fn next(&mut self) -> Option<Outcome<Record>> {
        loop {
            if let Some(outcome) = self.parsed.next() {
                return Some(outcome);
            }
            let block = self.blocks.next()?;
            self.parsed = block.parse().into_iter();
        }
    }
}

/// A stream cut into blocks of whole records, ready to be parsed anywhere.
pub(crate) struct RecordBlocks<R> {
    blocks: Blocks<R>,
    options: Arc<RecordOptions>,
    fields: Arc<std::result::Result<FieldPaths, String>>,
    source_name: Arc<str>,
}

/// Some records of a stream, not parsed yet.
pub(crate) struct RecordBlock {
    piece: Piece,
    options: Arc<RecordOptions>,
    fields: Arc<std::result::Result<FieldPaths, String>>,
    source_name: Arc<str>,
}

impl<R: Read> RecordBlocks<R> {
    /// Blocks of `reader`; `source_name` names the stream in errors.
    pub(crate) fn new(reader: R, source_name: impl Into<String>, options: &RecordOptions) -> Self {
        Self::with_block_bytes(reader, source_name, options, super::blocks::BLOCK_BYTES)
    }

    /// Like [`RecordBlocks::new`] with another block size (tests use tiny ones).
    pub(crate) fn with_block_bytes(
        reader: R,
        source_name: impl Into<String>,
        options: &RecordOptions,
        block_bytes: usize,
    ) -> Self {
        let delimiter = options.format.delimiter();
        // One byte of slack for the `\r` removed after reading.
        let limit = options.max_record_bytes.saturating_add(1);
        RecordBlocks {
            blocks: Blocks::with_block_bytes(reader, delimiter, limit, block_bytes),
            options: Arc::new(options.clone()),
            // Checked by `RecordOptions::validate` before any reading; a
            // bad name would make every JSON line an error naming it.
            fields: Arc::new(FieldPaths::parse(options)),
            source_name: Arc::from(source_name.into()),
        }
    }
}

impl<R: Read> RecordBlocks<R> {
    /// Ends a block as soon as the stream has nothing more to read for
    /// now, so records of a slow stream are not held back until a block
    /// is full.
    pub(crate) fn eager(mut self) -> Self {
        self.blocks = self.blocks.eager();
        self
    }
}

impl<R: Read> Iterator for RecordBlocks<R> {
    type Item = RecordBlock;

    fn next(&mut self) -> Option<RecordBlock> {
        Some(RecordBlock {
            piece: self.blocks.next()?,
            options: Arc::clone(&self.options),
            fields: Arc::clone(&self.fields),
            source_name: Arc::clone(&self.source_name),
        })
    }
}

impl RecordBlock {
    /// The outcome of every record of the block, in order.
    pub(crate) fn parse(self) -> Vec<Outcome<Record>> {
        self.parse_raw()
            .1
            .into_iter()
            .map(|(outcome, _)| outcome)
            .collect()
    }

    /// The outcome of every record of the block, in order, each with the
    /// range of the block's bytes it was read from (delimiter excluded,
    /// a line's `\r` included: the record as it came), and those bytes.
    /// A record that was not read (too long, a failed read) has an empty
    /// range.
    pub(crate) fn parse_raw(self) -> (Vec<u8>, Vec<RawRecord>) {
        let source = &*self.source_name;
        let options = &*self.options;
        match self.piece {
            Piece::Failed(error) => (
                Vec::new(),
                vec![(Outcome::Failed(Error::io_named(source, error)), 0..0)],
            ),
            Piece::TooLong { number } => (Vec::new(), vec![(too_large(source, number), 0..0)]),
            Piece::Block { bytes, first, .. } => {
                let delimiter = options.format.delimiter();
                let mut out = Vec::new();
                // Each record but the last is followed by one delimiter.
                let mut start = 0;
                for (index, raw) in super::blocks::records(&bytes, delimiter).enumerate() {
                    let line = first + index as u64;
                    let range = start..start + raw.len();
                    start = range.end + 1;
                    if let Some(outcome) = read_record(raw, line, options, &self.fields, source) {
                        out.push((outcome, range));
                    }
                }
                (bytes, out)
            }
        }
    }

    /// Where the block's bytes start in the stream (0 for a piece without
    /// bytes: a record too long, a failed read).
    pub(crate) fn offset(&self) -> u64 {
        match &self.piece {
            Piece::Block { offset, .. } => *offset,
            _ => 0,
        }
    }

    /// [`RecordBlock::parse`], each record with where it starts in the
    /// stream ([`super::RecordSource`] reads it again from there).
    pub(crate) fn parse_located(self) -> Vec<(Outcome<Record>, u64)> {
        let offset = self.offset();
        self.parse_raw()
            .1
            .into_iter()
            .map(|(outcome, range)| (outcome, offset + range.start as u64))
            .collect()
    }
}

/// One record from its bytes (`raw`, delimiter excluded) as the stream's
/// options read it: a line's `\r` dropped, a JSON line parsed; `None` for
/// a blank JSON line, which is no record.
pub(super) fn read_record(
    raw: &[u8],
    line: u64,
    options: &RecordOptions,
    fields: &std::result::Result<FieldPaths, String>,
    source: &str,
) -> Option<Outcome<Record>> {
    let text = if options.format == RecordFormat::Nul {
        raw
    } else {
        raw.strip_suffix(b"\r").unwrap_or(raw)
    };
    if text.len() > options.max_record_bytes {
        return Some(too_large(source, line));
    }
    // A UTF-8 byte order mark may start a JSON Lines stream, as editors on
    // some systems write one; JSON has no place for it. (Line 0 is a record
    // read again, the first among them: a later line with one never parsed.)
    let text = match options.format {
        RecordFormat::JsonLines if line <= 1 => text.strip_prefix(UTF8_BOM).unwrap_or(text),
        _ => text,
    };
    match options.format {
        RecordFormat::JsonLines if text.iter().all(u8::is_ascii_whitespace) => None,
        RecordFormat::JsonLines => Some(match json_record(text, line, options, fields, source) {
            Ok(record) => Outcome::Done(record),
            Err(error) => Outcome::Failed(error),
        }),
        RecordFormat::Lines | RecordFormat::Nul => Some(Outcome::Done(Record {
            id: None,
            line,
            text: text.to_vec(),
        })),
    }
}

/// The UTF-8 encoding of U+FEFF, the byte order mark.
const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

fn too_large(source: &str, line: u64) -> Outcome<Record> {
    Outcome::Skipped {
        name: format!("{source}:{line}"),
        reason: SkipReason::TooLarge,
    }
}

/// The text and id field names of a stream, parsed once.
#[derive(Debug)]
pub(super) struct FieldPaths {
    text: FieldPath,
    id: Option<FieldPath>,
}

impl FieldPaths {
    pub(super) fn parse(options: &RecordOptions) -> std::result::Result<FieldPaths, String> {
        Ok(FieldPaths {
            text: FieldPath::parse(&options.text_field)?,
            id: options
                .id_field
                .as_deref()
                .map(FieldPath::parse)
                .transpose()?,
        })
    }
}

/// The error of a malformed record at `line` of `source`.
fn malformed(source: &str, line: u64, message: String) -> Error {
    Error::Parse {
        source_name: source.to_string(),
        line,
        message,
    }
}

/// Turns one JSON line into a record.
fn json_record(
    text: &[u8],
    line: u64,
    options: &RecordOptions,
    fields: &std::result::Result<FieldPaths, String>,
    source: &str,
) -> Result<Record> {
    let fields = fields
        .as_ref()
        .map_err(|error| malformed(source, line, error.clone()))?;
    let id_key = fields.id.as_ref().map(|id| id.literal.as_str());
    match super::json_top_level::read(text, &fields.text.literal, id_key) {
        Some((text, id)) => Ok(Record { id, line, text }),
        None => json_record_in_general(text, line, options, fields, source),
    }
}

/// Turns one JSON line into a record, whatever its form (the one-pass
/// reader stood aside), or says what is wrong with it.
fn json_record_in_general(
    text: &[u8],
    line: u64,
    options: &RecordOptions,
    fields: &FieldPaths,
    source: &str,
) -> Result<Record> {
    let parse_error = |message: String| malformed(source, line, message);
    // Slots: the text as a top-level key, then as a path; the same for the id.
    let mut paths: Paths = [None; SLOTS];
    paths[0] = Some(std::slice::from_ref(&fields.text.literal));
    paths[1] = fields.text.path.as_deref();
    if let Some(id) = &fields.id {
        paths[2] = Some(std::slice::from_ref(&id.literal));
        paths[3] = id.path.as_deref();
    }
    let mut deserializer = serde_json::Deserializer::from_slice(text);
    let found = serde::de::DeserializeSeed::deserialize(Seek { paths }, &mut deserializer)
        .and_then(|found| deserializer.end().map(|()| found));
    let mut found = match found {
        Ok((true, found)) => found,
        Ok((false, _)) => return Err(parse_error("expected a JSON object".to_string())),
        Err(e) => return Err(parse_error(format!("invalid JSON: {e}"))),
    };
    // A top-level key named as written comes first.
    let text_value = found[0].take().or_else(|| found[1].take());
    let id_value = found[2].take().or_else(|| found[3].take());
    let field = &options.text_field;
    let text = match text_value {
        Some(Value::String(text)) => text,
        Some(_) => return Err(parse_error(format!("field '{field}' is not a string"))),
        None => return Err(parse_error(format!("missing text field '{field}'"))),
    };
    let id = match &options.id_field {
        None => None,
        Some(field) => match id_value {
            Some(Value::String(id)) => Some(id),
            Some(Value::Number(id)) => Some(id.to_string()),
            Some(_) => {
                return Err(parse_error(format!(
                    "id field '{field}' is neither a string nor a number"
                )));
            }
            None => return Err(parse_error(format!("missing id field '{field}'"))),
        },
    };
    Ok(Record {
        id,
        line,
        text: text.into_bytes(),
    })
}

#[cfg(test)]
#[path = "records_tests.rs"]
mod tests;
