//! Records on a stream (`simdup scan -`, `--records lines|nul|jsonl`): each
//! record is one document.
//!
//! Records are read one at a time with bounded memory: a record longer than
//! `max_record_bytes` is passed over as [`SkipReason::TooLarge`] without
//! being buffered. Lines end at `\n` with a trailing `\r` removed; an empty
//! final line is not a record. `line` is the 1-based line number (for `nul`,
//! the record number), and the default id is that number.

use std::io::BufRead;

use serde_json::Value;

use super::delimited::{Chunk, Delimited};
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

/// How records are read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordOptions {
    /// How the stream is cut into records.
    pub format: RecordFormat,
    /// JSON Lines: the field holding the text (a string).
    pub text_field: String,
    /// JSON Lines: the field holding the id (a string or a number); `None`
    /// numbers records by line.
    pub id_field: Option<String>,
    /// Longest record read, in bytes (for JSON Lines, of the whole line).
    pub max_record_bytes: usize,
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
    /// The record's id: the id field, or the line number.
    pub id: String,
    /// The 1-based line number (record number for NUL-separated records).
    pub line: u64,
    /// The text to fingerprint.
    pub text: Vec<u8>,
}

/// Reads records from a stream, one at a time.
///
/// Yields `Outcome::Failed(Error::Parse)` for a malformed JSON line and goes
/// on with the next; after an I/O error it yields nothing more. A record
/// passed over is named `SOURCE:LINE` (its id field was not read).
pub(crate) struct RecordReader<R> {
    chunks: Delimited<R>,
    options: RecordOptions,
    source_name: String,
    line: u64,
    buf: Vec<u8>,
    failed: bool,
}

impl<R: BufRead> RecordReader<R> {
    /// A reader over `reader`; `source_name` (e.g. `stdin`) names it in errors.
    pub fn new(reader: R, source_name: impl Into<String>, options: &RecordOptions) -> Self {
        let delimiter = match options.format {
            RecordFormat::Nul => b'\0',
            RecordFormat::Lines | RecordFormat::JsonLines => b'\n',
        };
        // One byte of slack for the `\r` removed after reading.
        let limit = options.max_record_bytes.saturating_add(1);
        RecordReader {
            chunks: Delimited::new(reader, delimiter, limit),
            options: options.clone(),
            source_name: source_name.into(),
            line: 0,
            buf: Vec::new(),
            failed: false,
        }
    }

    fn parse_error(&self, message: String) -> Error {
        Error::Parse {
            source_name: self.source_name.clone(),
            line: self.line,
            message,
        }
    }

    /// Turns one JSON line into a record.
    fn json_record(&self) -> Result<Record> {
        let value: Value = serde_json::from_slice(&self.buf)
            .map_err(|e| self.parse_error(format!("invalid JSON: {e}")))?;
        let Value::Object(mut object) = value else {
            return Err(self.parse_error("expected a JSON object".to_string()));
        };
        let field = &self.options.text_field;
        let text = match object.remove(field) {
            Some(Value::String(text)) => text,
            Some(_) => return Err(self.parse_error(format!("field '{field}' is not a string"))),
            None => return Err(self.parse_error(format!("missing text field '{field}'"))),
        };
        let id = match &self.options.id_field {
            None => self.line.to_string(),
            Some(field) => match object.get(field) {
                Some(Value::String(id)) => id.clone(),
                Some(Value::Number(id)) => id.to_string(),
                Some(_) => {
                    return Err(self.parse_error(format!(
                        "id field '{field}' is neither a string nor a number"
                    )));
                }
                None => return Err(self.parse_error(format!("missing id field '{field}'"))),
            },
        };
        Ok(Record {
            id,
            line: self.line,
            text: text.into_bytes(),
        })
    }
}

impl<R: BufRead> Iterator for RecordReader<R> {
    type Item = Outcome<Record>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.failed {
            let chunk = match self.chunks.next_into(&mut self.buf) {
                Ok(chunk) => chunk?,
                Err(source) => {
                    self.failed = true;
                    return Some(Outcome::Failed(Error::io_named(&self.source_name, source)));
                }
            };
            self.line += 1;
            if self.options.format != RecordFormat::Nul && self.buf.last() == Some(&b'\r') {
                self.buf.pop();
            }
            if chunk == Chunk::TooLong || self.buf.len() > self.options.max_record_bytes {
                return Some(Outcome::Skipped {
                    name: format!("{}:{}", self.source_name, self.line),
                    reason: SkipReason::TooLarge,
                });
            }
            return Some(match self.options.format {
                RecordFormat::JsonLines if self.buf.iter().all(u8::is_ascii_whitespace) => continue,
                RecordFormat::JsonLines => match self.json_record() {
                    Ok(record) => Outcome::Done(record),
                    Err(error) => Outcome::Failed(error),
                },
                RecordFormat::Lines | RecordFormat::Nul => Outcome::Done(Record {
                    id: self.line.to_string(),
                    line: self.line,
                    text: std::mem::take(&mut self.buf),
                }),
            });
        }
        None
    }
}

#[cfg(test)]
#[path = "records_tests.rs"]
mod tests;
