//! Saved-fingerprint files: no panic, errors at a line that exists, and
//! what the text writer writes reads back the same.

use super::{Choices, ShortReads};
use crate::Error;
use crate::input::{Declarations, FingerprintBlocks, FingerprintRecord, write_text_line};

/// Everything a file yields, read as a scan reads it: the records up to
/// the first error, the line of each, and that error.
struct Contents {
    records: Vec<(u64, FingerprintRecord)>,
    error: Option<Error>,
}

fn read(file: &[u8], seed: u8, longest: usize) -> Contents {
    let mut declarations = Declarations::default();
    let mut declared = false;
    let mut records = Vec::new();
    for block in FingerprintBlocks::new(ShortReads::new(file, seed, longest), "fp") {
        for parsed in block.parse() {
            let taken = parsed.and_then(|(line, parsed)| {
                declarations
                    .take(parsed, "fp", line, &mut declared)
                    .map(|record| (line, record))
            });
            match taken {
                Ok((line, Some(record))) => records.push((line, record)),
                Ok((_, None)) => {}
                Err(error) => {
                    return Contents {
                        records,
                        error: Some(error),
                    };
                }
            }
        }
    }
    Contents {
        records,
        error: None,
    }
}

/// Reads the rest of `data` as a fingerprint file, in short reads, and
/// checks that:
/// - records come in increasing line order, each on a line of the file;
/// - a parse error names a line of the file, after every record read;
/// - each record with a fingerprint and a name, written back with
///   [`write_text_line`], reads back as the same name and fingerprint.
pub fn fingerprint_file(data: &[u8]) {
    let mut choices = Choices::new(data);
    let seed = choices.byte();
    let longest = 1 + usize::from(choices.byte());
    let file = choices.rest();
    let lines = file.split(|&b| b == b'\n').count() as u64;

    let Contents { records, error } = read(file, seed, longest);
    let numbers: Vec<u64> = records.iter().map(|(line, _)| *line).collect();
    assert!(
        numbers.windows(2).all(|pair| pair[0] < pair[1]),
        "records out of order: {numbers:?}"
    );
    assert!(numbers.iter().all(|&line| (1..=lines).contains(&line)));
    match error {
        None => {}
        Some(Error::Parse { line, .. }) => {
            assert!(
                (1..=lines).contains(&line),
                "error at line {line} of {lines}"
            );
            assert!(numbers.last().is_none_or(|&last| last < line));
        }
        // Two digests that differ: the records came first.
        Some(Error::Data { .. }) => {}
        Some(error) => panic!("unexpected error: {error}"),
    }

    let mut written = Vec::new();
    let mut expected = Vec::new();
    for (_, record) in records {
        // The text format has no spelling for a document without features
        // or for an empty name (JSON Lines has both; no writer makes the
        // latter, since names are paths).
        if let (Some(simhash), false) = (record.simhash, record.name.is_empty()) {
            write_text_line(&mut written, simhash, &record.name).expect("writing to a Vec");
            expected.push((simhash, record.name));
        }
    }
    let again = read(&written, seed, longest);
    if let Some(error) = again.error {
        panic!("written text does not read back: {error}");
    }
    let again: Vec<(u64, String)> = again
        .records
        .into_iter()
        .map(|(_, record)| (record.simhash.expect("text lines have one"), record.name))
        .collect();
    assert_eq!(again, expected, "text lines read back differently");
}
