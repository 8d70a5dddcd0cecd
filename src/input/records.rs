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
    source_name: Arc<str>,
}

/// Some records of a stream, not parsed yet.
pub(crate) struct RecordBlock {
    piece: Piece,
    options: Arc<RecordOptions>,
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
        let delimiter = match options.format {
            RecordFormat::Nul => b'\0',
            RecordFormat::Lines | RecordFormat::JsonLines => b'\n',
        };
        // One byte of slack for the `\r` removed after reading.
        let limit = options.max_record_bytes.saturating_add(1);
        RecordBlocks {
            blocks: Blocks::with_block_bytes(reader, delimiter, limit, block_bytes),
            options: Arc::new(options.clone()),
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
            Piece::Block { bytes, first } => {
                let delimiter = match options.format {
                    RecordFormat::Nul => b'\0',
                    RecordFormat::Lines | RecordFormat::JsonLines => b'\n',
                };
                let mut out = Vec::new();
                // Each record but the last is followed by one delimiter.
                let mut start = 0;
                for (index, raw) in super::blocks::records(&bytes, delimiter).enumerate() {
                    let line = first + index as u64;
                    let range = start..start + raw.len();
                    start = range.end + 1;
                    let text = if options.format == RecordFormat::Nul {
                        raw
                    } else {
                        raw.strip_suffix(b"\r").unwrap_or(raw)
                    };
                    if text.len() > options.max_record_bytes {
                        out.push((too_large(source, line), range));
                        continue;
                    }
                    match options.format {
                        RecordFormat::JsonLines if text.iter().all(u8::is_ascii_whitespace) => {}
                        RecordFormat::JsonLines => out.push((
                            match json_record(text, line, options, source) {
                                Ok(record) => Outcome::Done(record),
                                Err(error) => Outcome::Failed(error),
                            },
                            range,
                        )),
                        RecordFormat::Lines | RecordFormat::Nul => out.push((
                            Outcome::Done(Record {
                                id: None,
                                line,
                                text: text.to_vec(),
                            }),
                            range,
                        )),
                    }
                }
                (bytes, out)
            }
        }
    }
}

fn too_large(source: &str, line: u64) -> Outcome<Record> {
    Outcome::Skipped {
        name: format!("{source}:{line}"),
        reason: SkipReason::TooLarge,
    }
}

/// Turns one JSON line into a record.
fn json_record(text: &[u8], line: u64, options: &RecordOptions, source: &str) -> Result<Record> {
    let parse_error = |message: String| Error::Parse {
        source_name: source.to_string(),
        line,
        message,
    };
    let mut deserializer = serde_json::Deserializer::from_slice(text);
    let fields = Fields {
        text: &options.text_field,
        id: options.id_field.as_deref(),
    };
    let found = serde::de::DeserializeSeed::deserialize(fields, &mut deserializer)
        .and_then(|found| deserializer.end().map(|()| found));
    let (text_value, id_value) = match found {
        Ok(Some(values)) => values,
        Ok(None) => return Err(parse_error("expected a JSON object".to_string())),
        Err(e) => return Err(parse_error(format!("invalid JSON: {e}"))),
    };
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

/// Reads the text and id fields of a JSON object and skips every other
/// field without building it: `Ok(None)` for a value that is not an
/// object. (Parsing whole objects into maps cost more than fingerprinting.)
struct Fields<'a> {
    text: &'a str,
    id: Option<&'a str>,
}

/// The text and id values found, each the last of its name.
type Found = Option<(Option<Value>, Option<Value>)>;

impl<'de> serde::de::DeserializeSeed<'de> for Fields<'_> {
    type Value = Found;

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Found, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Fields<'_> {
    type Value = Found;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<M: serde::de::MapAccess<'de>>(self, mut map: M) -> Result<Found, M::Error> {
        let (mut text, mut id) = (None, None);
        while let Some(key) = map.next_key::<Key<'de>>()? {
            if *key.0 == *self.text {
                let value = map.next_value::<Value>()?;
                // `--id-field` may name the text field itself.
                if Some(&*key.0) == self.id {
                    id = Some(value.clone());
                }
                text = Some(value);
            } else if Some(&*key.0) == self.id {
                id = Some(map.next_value::<Value>()?);
            } else {
                map.next_value::<serde::de::IgnoredAny>()?;
            }
        }
        Ok(Some((text, id)))
    }

    fn visit_seq<S: serde::de::SeqAccess<'de>>(self, mut seq: S) -> Result<Found, S::Error> {
        while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
        Ok(None)
    }

    fn visit_bool<E>(self, _: bool) -> Result<Found, E> {
        Ok(None)
    }

    fn visit_i64<E>(self, _: i64) -> Result<Found, E> {
        Ok(None)
    }

    fn visit_u64<E>(self, _: u64) -> Result<Found, E> {
        Ok(None)
    }

    fn visit_f64<E>(self, _: f64) -> Result<Found, E> {
        Ok(None)
    }

    fn visit_str<E>(self, _: &str) -> Result<Found, E> {
        Ok(None)
    }

    fn visit_unit<E>(self) -> Result<Found, E> {
        Ok(None)
    }
}

/// An object key, borrowed from the line unless it holds escapes.
struct Key<'de>(std::borrow::Cow<'de, str>);

impl<'de> serde::Deserialize<'de> for Key<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> serde::de::Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E>(self, key: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(std::borrow::Cow::Borrowed(key)))
            }
            fn visit_str<E>(self, key: &str) -> Result<Key<'de>, E> {
                Ok(Key(std::borrow::Cow::Owned(key.to_string())))
            }
            fn visit_string<E>(self, key: String) -> Result<Key<'de>, E> {
                Ok(Key(std::borrow::Cow::Owned(key)))
            }
        }
        deserializer.deserialize_str(KeyVisitor)
    }
}

#[cfg(test)]
#[path = "records_tests.rs"]
mod tests;
