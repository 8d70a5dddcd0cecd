//! Records on a stream (lines, NUL, JSON Lines) and `--files-from` path
//! lists: no panic, and every record either taken or reported at its
//! number.

use serde_json::Value;

use super::{Choices, ShortReads};
use crate::Error;
use crate::input::{Outcome, PathSeparator, RecordBlocks, RecordFormat, RecordOptions, SkipReason};

/// A record's fate, comparable.
#[derive(Debug, PartialEq, Eq)]
enum Fate {
    Taken {
        id: Option<String>,
        line: u64,
        text: Vec<u8>,
    },
    TooLarge {
        name: String,
    },
    Malformed {
        line: u64,
    },
}

/// Field names the fuzzer picks from, so that inputs can hit them.
const FIELDS: [&str; 4] = ["text", "id", "t", ""];

/// Nested field names: dotted paths and JSON Pointers, one a top-level
/// key too, one through an array.
const PATHS: [&str; 4] = ["m.text", "/m/id", "a.b", "l.0"];

/// Reads the rest of `data` as records with the options its first bytes
/// choose (format, text and id fields, record limit, block size, read
/// sizes) and checks every outcome against a plain model: the stream split
/// at its delimiter, the final empty piece dropped, a trailing `\r`
/// removed from lines; each piece longer than the limit is skipped as too
/// large at its number; for JSON Lines, blank pieces are ignored and
/// every other piece is taken if it is a JSON object with a string text
/// field (and a string or number id field, when asked for), or else
/// reported as malformed at its line number. A field name is a top-level
/// key if the object has it, else a JSON Pointer (a dotted name turned
/// into one), looked up by serde_json.
pub fn records(data: &[u8]) {
    let mut choices = Choices::new(data);
    let format = match choices.byte() % 3 {
        0 => RecordFormat::Lines,
        1 => RecordFormat::Nul,
        _ => RecordFormat::JsonLines,
    };
    let fields = choices.byte();
    // Bits 5 and 6 pick the text and id names from PATHS instead.
    let names = |nested: bool| if nested { PATHS } else { FIELDS };
    let text_field = names(fields & 0x20 != 0)[usize::from(fields & 3)].to_string();
    let id_field = match fields >> 2 & 7 {
        n @ 0..=3 => Some(names(fields & 0x40 != 0)[usize::from(n)].to_string()),
        _ => None,
    };
    let max_record_bytes = match choices.byte() {
        255 => usize::MAX,
        n => usize::from(n),
    };
    let block_bytes = 1 + usize::from(choices.byte());
    let seed = choices.byte();
    let longest = 1 + usize::from(choices.byte());
    let stream = choices.rest();
    let options = RecordOptions {
        format,
        text_field,
        id_field,
        max_record_bytes,
    };

    let reader = ShortReads::new(stream, seed, longest);
    let got: Vec<Fate> = RecordBlocks::with_block_bytes(reader, "in", &options, block_bytes)
        .flat_map(|block| block.parse())
        .map(|outcome| match outcome {
            Outcome::Done(record) => Fate::Taken {
                id: record.id,
                line: record.line,
                text: record.text,
            },
            Outcome::Skipped { name, reason } => {
                assert_eq!(reason, SkipReason::TooLarge, "{name} skipped");
                Fate::TooLarge { name }
            }
            Outcome::Failed(Error::Parse {
                source_name, line, ..
            }) => {
                assert_eq!(source_name, "in");
                Fate::Malformed { line }
            }
            Outcome::Failed(error) => panic!("unexpected error: {error}"),
        })
        .collect();
    let expected = model(stream, &options);
    let matches = got.len() == expected.len()
        && got
            .iter()
            .zip(&expected)
            .all(|(got, expected)| json_fate_matches(got, expected, stream, &options));
    assert!(
        matches,
        "options {options:?}\n     got: {got:?}\nexpected: {expected:?}"
    );
}

/// Whether a record's fate is the model's: the same, or, for a JSON line
/// that serde_json's skipping of unread fields reads more leniently than
/// its full parse (bytes that are not UTF-8, escapes of lone UTF-16
/// surrogates), taken by one and rejected by the other: the invalid part
/// was in a field the reader skips, or in a key, the text or the id.
/// Two different records taken never match.
fn json_fate_matches(got: &Fate, expected: &Fate, stream: &[u8], options: &RecordOptions) -> bool {
    if got == expected {
        return true;
    }
    let line = match (got, expected) {
        (Fate::Malformed { line }, Fate::Taken { line: taken, .. })
        | (Fate::Taken { line, .. }, Fate::Malformed { line: taken })
            if line == taken =>
        {
            *line
        }
        _ => return false,
    };
    let lenient = stream
        .split(|&b| b == b'\n')
        .nth(line as usize - 1)
        .is_some_and(|piece| {
            std::str::from_utf8(piece).is_err()
                || piece.windows(4).any(|w| {
                    w[0] == b'\\'
                        && w[1] == b'u'
                        && w[2].eq_ignore_ascii_case(&b'd')
                        && matches!(w[3].to_ascii_lowercase(), b'8'..=b'9' | b'a'..=b'f')
                })
        });
    options.format == RecordFormat::JsonLines && lenient
}

/// What [`records`] expects of `stream`.
fn model(stream: &[u8], options: &RecordOptions) -> Vec<Fate> {
    let delimiter = match options.format {
        RecordFormat::Nul => b'\0',
        RecordFormat::Lines | RecordFormat::JsonLines => b'\n',
    };
    let mut pieces: Vec<&[u8]> = stream.split(|&b| b == delimiter).collect();
    if stream.last().is_none_or(|&b| b == delimiter) {
        pieces.pop();
    }
    let mut fates = Vec::new();
    for (index, piece) in pieces.into_iter().enumerate() {
        let line = index as u64 + 1;
        let text = match options.format {
            RecordFormat::Nul => piece,
            _ => piece.strip_suffix(b"\r").unwrap_or(piece),
        };
        if text.len() > options.max_record_bytes {
            fates.push(Fate::TooLarge {
                name: format!("in:{line}"),
            });
            continue;
        }
        match options.format {
            RecordFormat::Lines | RecordFormat::Nul => fates.push(Fate::Taken {
                id: None,
                line,
                text: text.to_vec(),
            }),
            RecordFormat::JsonLines if text.iter().all(u8::is_ascii_whitespace) => {}
            RecordFormat::JsonLines => fates.push(json_model(text, line, options)),
        }
    }
    fates
}

/// The fate of one JSON line, from a full parse into a `Value`.
fn json_model(text: &[u8], line: u64, options: &RecordOptions) -> Fate {
    let malformed = Fate::Malformed { line };
    let parsed = match std::str::from_utf8(text) {
        Ok(text) => serde_json::from_str::<Value>(text),
        // Fields other than the text and id are skipped unchecked, so bytes
        // that are not UTF-8 there do not reject the line (elsewhere they
        // do): the model reads the line with them replaced, and
        // [`json_fate_matches`] accepts either fate.
        Err(_) => serde_json::from_str::<Value>(&String::from_utf8_lossy(text)),
    };
    let Ok(Value::Object(object)) = parsed else {
        return malformed;
    };
    let object = Value::Object(object);
    let Some(Value::String(body)) = field(&object, &options.text_field) else {
        return malformed;
    };
    let id = match &options.id_field {
        None => None,
        Some(name) => match field(&object, name) {
            Some(Value::String(id)) => Some(id.clone()),
            Some(Value::Number(id)) => Some(id.to_string()),
            _ => return malformed,
        },
    };
    Fate::Taken {
        id,
        line,
        text: body.clone().into_bytes(),
    }
}

/// The value a field name picks: the top-level key as written, else the
/// name as a JSON Pointer (a dotted name joined into one).
fn field<'a>(object: &'a Value, name: &str) -> Option<&'a Value> {
    if let Some(value) = object.get(name) {
        return Some(value);
    }
    if name.starts_with('/') {
        return object.pointer(name);
    }
    let pointer: String = name
        .split('.')
        .map(|segment| format!("/{}", segment.replace('~', "~0").replace('/', "~1")))
        .collect();
    object.pointer(&pointer)
}

/// Reads the rest of `data` as a `--files-from` list (newline or NUL, as
/// the first byte chooses) and checks it against a plain split: the same
/// non-empty paths in order, or an error at the number of the first entry
/// that is too long.
pub fn path_list(data: &[u8]) {
    let mut choices = Choices::new(data);
    let nul = choices.byte() & 1 == 1;
    let seed = choices.byte();
    let longest = 1 + usize::from(choices.byte());
    let list = choices.rest();
    let (separator, delimiter) = if nul {
        (PathSeparator::Nul, b'\0')
    } else {
        (PathSeparator::Newline, b'\n')
    };
    let got = crate::input::read_path_list(ShortReads::new(list, seed, longest), separator, "list");

    let mut expected = Vec::new();
    for piece in list.split(|&b| b == delimiter) {
        let piece = match separator {
            PathSeparator::Newline => piece.strip_suffix(b"\r").unwrap_or(piece),
            PathSeparator::Nul => piece,
        };
        if !piece.is_empty() {
            expected.push(piece.to_vec());
        }
    }
    match got {
        Ok(paths) => {
            let paths: Vec<Vec<u8>> = paths
                .into_iter()
                .map(|path| path.into_os_string().into_encoded_bytes())
                .collect();
            assert_eq!(paths, expected);
        }
        Err(error) => panic!("a short list failed: {error}"),
    }
}
