//! The `distributed` job: the steps of a scan that a distributed engine
//! (spark/simdup_spark.py) runs on its workers, so every figure comes from
//! this engine and none from a re-implementation.
//!
//! - [`fingerprint_records`]: JSON Lines records in, one line of facts per
//!   record out: its SimHash, feature count, feature digest (documents
//!   with equal digests have equal features), content hash, and the
//!   character-pair fingerprint of a short text.
//! - [`verify_pairs`]: JSON Lines pairs with both texts in, each pair's
//!   verdict out: exact Jaccard by the scan's features (by character pairs
//!   for two short texts), decided against the threshold as the scan
//!   decides it.
//!
//! The table plan is `search::table_plan`.

use std::io::{self, BufRead, Write};
use std::ops::ControlFlow;

use serde::{Deserialize, Serialize};

use crate::fingerprint::{FeatureOptions, Fingerprint, Fingerprinter};
use crate::input::{Outcome, RecordBlocks, RecordFormat, RecordOptions};
use crate::jobs::scan::ShortTexts;
use crate::parallel::for_each_ordered;
use crate::verify::{self, Verdict};
use crate::{Error, Result};

/// The name of standard output in errors.
const STDOUT: &str = "stdout";

/// What both steps measure with: the scan's features, and the character
/// pairs of short texts when the scan would use them (no `--shingle`).
#[derive(Clone, Debug)]
pub struct Measures {
    /// The scan's features.
    fingerprinter: Fingerprinter,
    /// Character pairs of short texts, when on.
    short: Option<ShortTexts>,
}

impl Measures {
    /// The measures of a scan with `features`; `short_texts` compares two
    /// short texts by character pairs (the scan does unless `--shingle`
    /// is given).
    pub fn new(features: FeatureOptions, short_texts: bool) -> Measures {
        Measures {
            short: short_texts.then(|| ShortTexts::new(&features)),
            fingerprinter: Fingerprinter::new(features),
        }
    }
}

/// One record's facts, as printed.
#[derive(Serialize)]
struct Facts<'a> {
    id: &'a str,
    simhash: String,
    features: u64,
    feature_digest: String,
    content_hash: String,
    short_simhash: Option<String>,
    short_features: Option<u64>,
}

/// 16 hex digits.
fn hex(value: u64) -> String {
    format!("{value:016x}")
}

/// Reads JSON Lines records (`{"id": ..., "text": ...}`: the id a string
/// or a number, the text a string) from `reader` and writes one JSON object
/// per record to `out`, in input order. A record without an id is named by
/// its line number. The first malformed record ends the run with an error
/// naming `source` and the line.
pub fn fingerprint_records<R: io::Read + Send>(
    reader: R,
    source: &str,
    measures: &Measures,
    out: &mut impl Write,
) -> Result<u64> {
    let options = RecordOptions {
        format: RecordFormat::JsonLines,
        text_field: "text".to_string(),
        id_field: Some("id".to_string()),
        ..RecordOptions::default()
    };
    let mut written = 0u64;
    let mut failure: Option<Error> = None;
    for_each_ordered(
        RecordBlocks::new(reader, source, &options),
        |block| {
            block
                .parse()
                .into_iter()
                .map(|outcome| match outcome {
                    Outcome::Done(record) => {
                        let fingerprint = measures.fingerprinter.fingerprint_bytes(&record.text);
                        let short = measures
                            .short
                            .as_ref()
                            .and_then(|short| short.fingerprint(&record.text));
                        let id = record.id.unwrap_or_else(|| record.line.to_string());
                        Ok(facts_line(&id, &fingerprint, short.as_ref()))
                    }
                    Outcome::Skipped { name, reason } => {
                        Err(Error::data(name, format!("skipped ({reason})")))
                    }
                    Outcome::Failed(error) => Err(error),
                })
                .collect::<Vec<_>>()
        },
        |_, lines| {
            for line in lines {
                let written_line = line.and_then(|line| {
                    out.write_all(line.as_bytes())
                        .map_err(|error| Error::io_named(STDOUT, error))
                });
                if let Err(error) = written_line {
                    failure = Some(error);
                    return ControlFlow::Break(());
                }
                written += 1;
            }
            ControlFlow::Continue(())
        },
    );
    match failure {
        Some(error) => Err(error),
        None => Ok(written),
    }
}

/// One record's line of facts, newline included.
fn facts_line(id: &str, fingerprint: &Fingerprint, short: Option<&Fingerprint>) -> String {
    let facts = Facts {
        id,
        simhash: hex(fingerprint.simhash),
        features: fingerprint.features,
        feature_digest: hex(fingerprint.feature_digest),
        content_hash: hex(fingerprint.content_hash),
        short_simhash: short.map(|short| hex(short.simhash)),
        short_features: short.map(|short| short.features),
    };
    let mut line = serde_json::to_string(&facts).expect("facts serialise");
    line.push('\n');
    line
}

/// A pair to verify: any JSON ids, both texts, and whether the scan
/// compares it as two short texts.
#[derive(Deserialize)]
struct PairIn {
    a: serde_json::Value,
    b: serde_json::Value,
    a_text: String,
    b_text: String,
    #[serde(default)]
    short_texts: bool,
}

/// A pair's verdict, as printed.
#[derive(Serialize)]
struct PairOut {
    a: serde_json::Value,
    b: serde_json::Value,
    /// At or above the threshold.
    near: bool,
    /// The exact Jaccard of a near pair (a pair below is decided without
    /// finishing it).
    jaccard: Option<f64>,
    /// The features of two short texts (`chars:2`), as the scan's pairs
    /// name them; absent for the scan's own features.
    #[serde(skip_serializing_if = "Option::is_none")]
    features: Option<String>,
}

/// Reads JSON Lines pairs (`{"a": ID, "b": ID, "a_text": "...", "b_text":
/// "...", "short_texts": false}`) and writes, for each in order, `{"a",
/// "b", "near", "jaccard"}` (and `"features": "chars:2"` for two short
/// texts): near when the exact Jaccard of the two
/// feature sets is at least `threshold`. With `short_texts`, the sets are
/// character pairs (an error when `measures` has none). A malformed line
/// ends the run with an error naming `source` and the line.
pub fn verify_pairs(
    reader: impl BufRead,
    source: &str,
    measures: &Measures,
    threshold: f64,
    out: &mut impl Write,
) -> Result<u64> {
    let mut written = 0u64;
    for (index, line) in reader.lines().enumerate() {
        let line = line.map_err(|error| Error::io_named(source, error))?;
        if line.trim().is_empty() {
            continue;
        }
        let at = || format!("{source}, line {}", index + 1);
        let pair: PairIn = serde_json::from_str(&line)
            .map_err(|error| Error::data(at(), format!("not a pair with both texts: {error}")))?;
        let sets = if pair.short_texts {
            let short = measures.short.as_ref().ok_or_else(|| {
                Error::data(
                    at(),
                    "short_texts is set, but short texts are not compared by character pairs \
                     when --shingle is given",
                )
            })?;
            let set = |text: &str| short.feature_set_reader(text.as_bytes());
            (set(&pair.a_text), set(&pair.b_text))
        } else {
            let set = |text: &str| Ok(measures.fingerprinter.feature_set_bytes(text.as_bytes()));
            (set(&pair.a_text), set(&pair.b_text))
        };
        let (a_set, b_set) = match sets {
            (Ok(a), Ok(b)) => (a, b),
            (Err(error), _) | (_, Err(error)) => return Err(Error::io_named(at(), error)),
        };
        let verdict = verify::decide(&a_set, &b_set, threshold);
        let printed = PairOut {
            a: pair.a,
            b: pair.b,
            near: matches!(verdict, Verdict::Near(_)),
            jaccard: match verdict {
                Verdict::Near(jaccard) => Some(jaccard),
                _ => None,
            },
            features: measures
                .short
                .as_ref()
                .filter(|_| pair.short_texts)
                .map(ShortTexts::describe),
        };
        serde_json::to_writer(&mut *out, &printed)
            .map_err(|error| Error::io_named(STDOUT, error.into()))?;
        out.write_all(b"\n")
            .map_err(|error| Error::io_named(STDOUT, error))?;
        written += 1;
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn measures() -> Measures {
        Measures::new(FeatureOptions::default(), true)
    }

    fn lines(bytes: &[u8]) -> Vec<serde_json::Value> {
        String::from_utf8_lossy(bytes)
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect()
    }

    #[test]
    fn records_get_the_fingerprint_the_fingerprinter_computes() {
        let text = "the quick brown fox jumps over the lazy dog\nand runs far away";
        let input = format!(
            "{}\n{}\n",
            serde_json::json!({"id": "a", "text": text}),
            serde_json::json!({"id": 7, "text": "one short line"})
        );
        let measures = measures();
        let mut out = Vec::new();
        let written = fingerprint_records(input.as_bytes(), "in", &measures, &mut out).unwrap();
        assert_eq!(written, 2);
        let printed = lines(&out);
        let expected = measures.fingerprinter.fingerprint_bytes(text.as_bytes());
        assert_eq!(printed[0]["id"], "a");
        assert_eq!(printed[0]["simhash"], hex(expected.simhash));
        assert_eq!(printed[0]["features"], expected.features);
        assert_eq!(printed[0]["feature_digest"], hex(expected.feature_digest));
        assert_eq!(
            printed[0]["short_simhash"],
            serde_json::Value::Null,
            "two lines"
        );
        assert_eq!(printed[1]["id"], "7");
        let short = measures.short.as_ref().unwrap();
        let expected = short.fingerprint(b"one short line").unwrap();
        assert_eq!(printed[1]["short_simhash"], hex(expected.simhash));
    }

    #[test]
    fn a_malformed_record_names_its_line() {
        let input = "{\"id\": \"a\", \"text\": \"fine\"}\n{\"id\": \"b\", \"text\": 3}\n";
        let error = fingerprint_records(input.as_bytes(), "part-1", &measures(), &mut Vec::new())
            .unwrap_err()
            .to_string();
        assert!(error.contains("part-1") && error.contains('2'), "{error}");
    }

    #[test]
    fn pairs_are_decided_as_the_scan_decides_them() {
        let a = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu";
        let b = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda nu";
        let measures = measures();
        let set = |text: &str| measures.fingerprinter.feature_set_bytes(text.as_bytes());
        let jaccard = crate::fingerprint::jaccard(&set(a), &set(b));
        let input = format!(
            "{}\n{}\n",
            serde_json::json!({"a": 1, "b": 2, "a_text": a, "b_text": b}),
            serde_json::json!({"a": "x", "b": "y", "a_text": a, "b_text": "unrelated words here"})
        );
        for threshold in [jaccard - 0.01, jaccard + 0.01] {
            let mut out = Vec::new();
            verify_pairs(input.as_bytes(), "in", &measures, threshold, &mut out).unwrap();
            let printed = lines(&out);
            assert_eq!(printed[0]["near"], threshold <= jaccard);
            if threshold <= jaccard {
                assert_eq!(printed[0]["jaccard"].as_f64(), Some(jaccard));
            }
            assert_eq!(printed[1]["a"], "x");
            assert_eq!(printed[1]["near"], false);
        }
    }

    #[test]
    fn short_pairs_use_character_pairs() {
        let (a, b) = ("12 Main Street, Springfield", "12 Main St, Springfield");
        let measures = measures();
        let short = measures.short.as_ref().unwrap();
        let set = |text: &str| short.feature_set_reader(text.as_bytes()).unwrap();
        let jaccard = crate::fingerprint::jaccard(&set(a), &set(b));
        let input =
            serde_json::json!({"a": 1, "b": 2, "a_text": a, "b_text": b, "short_texts": true})
                .to_string();
        let mut out = Vec::new();
        verify_pairs(input.as_bytes(), "in", &measures, 0.0, &mut out).unwrap();
        assert_eq!(lines(&out)[0]["jaccard"].as_f64(), Some(jaccard));
        assert_eq!(lines(&out)[0]["features"], "chars:2");
    }

    #[test]
    fn a_malformed_pair_names_its_line() {
        let input = "{\"a\": 1, \"b\": 2, \"a_text\": \"x\", \"b_text\": \"y\"}\n{\"a\": 1}\n";
        let error = verify_pairs(input.as_bytes(), "pairs", &measures(), 0.8, &mut Vec::new())
            .unwrap_err()
            .to_string();
        assert!(error.contains("pairs, line 2"), "{error}");
    }
}
