//! Saved-fingerprint files: no panic, errors at a line that exists, and
//! what the text writer writes reads back the same.

use super::{Choices, ShortReads};
use crate::Error;
use crate::input::{Declarations, FingerprintBlocks, FingerprintRecord, write_text_line};

/// Everything a file yields, read as a scan reads it: the records, the
/// line of each, the lines found malformed (the reading goes on past
/// them), and the error that ended the reading, if one did.
struct Contents {
    records: Vec<(u64, FingerprintRecord)>,
    malformed: Vec<u64>,
    error: Option<Error>,
}

fn read(file: &[u8], seed: u8, longest: usize) -> Contents {
    let mut declarations = Declarations::default();
    let mut declared = false;
    let mut contents = Contents {
        records: Vec::new(),
        malformed: Vec::new(),
        error: None,
    };
    for block in FingerprintBlocks::new(ShortReads::new(file, seed, longest), "fp") {
        for parsed in block.parse() {
            let taken = parsed.and_then(|(line, parsed)| {
                declarations
                    .take(parsed, "fp", line, &mut declared)
                    .map(|record| (line, record))
            });
            match taken {
                Ok((line, Some(record))) => contents.records.push((line, record)),
                Ok((_, None)) => {}
                Err(Error::Parse { line, .. }) => contents.malformed.push(line),
                Err(error) => {
                    contents.error = Some(error);
                    return contents;
                }
            }
        }
    }
    contents
}

/// Reads the rest of `data` as a fingerprint file, in short reads, and
/// checks that:
/// - records and malformed lines come in increasing line order, each on a
///   line of the file, no line both;
/// - each record with a fingerprint and a name, written back with
///   [`write_text_line`], reads back as the same name and fingerprint.
pub fn fingerprint_file(data: &[u8]) {
    let mut choices = Choices::new(data);
    let seed = choices.byte();
    let longest = 1 + usize::from(choices.byte());
    let file = choices.rest();
    let lines = file.split(|&b| b == b'\n').count() as u64;

    let Contents {
        records,
        malformed,
        error,
    } = read(file, seed, longest);
    let numbers: Vec<u64> = records.iter().map(|(line, _)| *line).collect();
    for (what, numbers) in [("records", &numbers), ("malformed lines", &malformed)] {
        assert!(
            numbers.windows(2).all(|pair| pair[0] < pair[1]),
            "{what} out of order: {numbers:?}"
        );
        assert!(
            numbers.iter().all(|&line| (1..=lines).contains(&line)),
            "{what} past line {lines}: {numbers:?}"
        );
    }
    assert!(
        !malformed.iter().any(|line| numbers.contains(line)),
        "a line both read and malformed"
    );
    match error {
        None => {}
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
    assert!(
        again.malformed.is_empty(),
        "written text has malformed lines: {:?}",
        again.malformed
    );
    let again: Vec<(u64, Vec<u8>)> = again
        .records
        .into_iter()
        .map(|(_, record)| (record.simhash.expect("text lines have one"), record.name))
        .collect();
    assert_eq!(again, expected, "text lines read back differently");
}
