//! A block's records measured once per distinct text: a record whose text
//! is, byte for byte, an earlier one's in the same block takes a copy of
//! that one's measure instead of being fingerprinted again.
//!
//! Logs and real lines repeat (blank lines, braces, a message logged again
//! and again: three lines in four of the Debian docs and PyPI releases
//! are a copy of another). A measure depends on the text alone, so the
//! answer is the same; a distinct text costs one xxh3 of its bytes and a
//! map entry more.

use std::collections::HashMap;

use super::{Outcome, Record};
use crate::fingerprint::Identity;

/// Measures each record of `items` with `measure` (given the text and
/// its xxh3-64), in order, once per distinct text; `X` rides along (a
/// record's place in its block).
pub(crate) fn measure_once<X, T: Clone>(
    items: Vec<(Outcome<Record>, X)>,
    mut measure: impl FnMut(&[u8], u64) -> T,
) -> Vec<(Outcome<(Record, T)>, X)> {
    // The first record with each hash of its text, by its place in `measured`.
    let mut first: HashMap<u64, usize, Identity> = HashMap::default();
    first.reserve(items.len());
    let mut measured: Vec<(Outcome<(Record, T)>, X)> = Vec::with_capacity(items.len());
    for (outcome, extra) in items {
        let at = measured.len();
        let outcome = outcome.map(|record| {
            let key = xxhash_rust::xxh3::xxh3_64(&record.text);
            let copy = first
                .get(&key)
                .and_then(|&earlier| match &measured[earlier].0 {
                    Outcome::Done((met, measure)) if met.text == record.text => {
                        Some(measure.clone())
                    }
                    _ => None,
                });
            let measure = copy.unwrap_or_else(|| {
                // A text whose hash another took is measured every time.
                first.entry(key).or_insert(at);
                measure(&record.text, key)
            });
            (record, measure)
        });
        measured.push((outcome, extra));
    }
    measured
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::SkipReason;

    fn record(line: u64, text: &str) -> Outcome<Record> {
        Outcome::Done(Record {
            id: None,
            line,
            text: text.as_bytes().to_vec(),
        })
    }

    #[test]
    fn a_text_met_again_is_measured_once_and_every_record_gets_its_measure() {
        let skipped = Outcome::Skipped {
            name: "stdin:3".to_string(),
            reason: SkipReason::TooLarge,
        };
        let items = vec![
            (record(1, "a line"), 10),
            (record(2, "b line"), 20),
            (skipped, 30),
            (record(4, "a line"), 40),
            (record(5, "A line"), 50),
            (record(6, "b line"), 60),
        ];
        let mut calls = Vec::new();
        let measured = measure_once(items, |text, hash| {
            assert_eq!(hash, xxhash_rust::xxh3::xxh3_64(text));
            calls.push(text.to_vec());
            text.len() * 100 + usize::from(text[0])
        });
        assert_eq!(
            calls,
            vec![b"a line".to_vec(), b"b line".to_vec(), b"A line".to_vec()]
        );
        let got: Vec<_> = measured
            .iter()
            .map(|(outcome, extra)| match outcome {
                Outcome::Done((record, measure)) => (*extra, Some((record.line, *measure))),
                _ => (*extra, None),
            })
            .collect();
        let expected = vec![
            (10, Some((1, 600 + 97))),
            (20, Some((2, 600 + 98))),
            (30, None),
            (40, Some((4, 600 + 97))),
            (50, Some((5, 600 + 65))),
            (60, Some((6, 600 + 98))),
        ];
        assert_eq!(got, expected);
    }
}
