//! The output of `simdup fingerprint`: a text format in the style of
//! `sha256sum`, or JSON Lines. Both name the feature options and their
//! digest, so fingerprints are only ever compared with comparable ones;
//! `simdup scan --fingerprints` reads both back.

use std::borrow::Cow;
use std::io::{self, Write};

use serde::Serialize;

use crate::fingerprint::Fingerprint;
use crate::input::{to_base64, write_checksum_line, write_text_line};

/// The formats of `simdup fingerprint`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FingerprintFormat {
    /// A `# simdup fingerprint options=... digest=...` header, then
    /// `<16 hex digits>  <path>` per document.
    Text,
    /// One JSON object per document, each naming options and digest.
    Jsonl,
}

/// Writes fingerprint lines for one set of feature options.
#[derive(Debug)]
pub struct FingerprintWriter {
    format: FingerprintFormat,
    options: String,
    digest: String,
}

#[derive(Serialize)]
struct Line<'a> {
    /// The name, with any bytes that are not UTF-8 replaced...
    path: &'a str,
    /// ...and then all its bytes, as base64.
    #[serde(skip_serializing_if = "Option::is_none")]
    path_bytes: Option<String>,
    simhash: Option<String>,
    features: u64,
    bytes: u64,
    content_hash: String,
    /// A short text's character-pair SimHash and feature count.
    #[serde(skip_serializing_if = "Option::is_none")]
    short_simhash: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    short_features: Option<u64>,
    options: &'a str,
    digest: &'a str,
}

impl FingerprintWriter {
    /// A writer in `format` for fingerprints made with these options.
    pub fn new(format: FingerprintFormat, options: String, digest: String) -> Self {
        FingerprintWriter {
            format,
            options,
            digest,
        }
    }

    /// The header (text format only).
    pub fn header<W: Write>(&self, out: &mut W) -> io::Result<()> {
        match self.format {
            FingerprintFormat::Text => writeln!(
                out,
                "# simdup fingerprint options={} digest={}",
                self.options, self.digest
            ),
            FingerprintFormat::Jsonl => Ok(()),
        }
    }

    /// One document, and for a short text its character pairs'
    /// fingerprint (JSON Lines only: `short_simhash`, `short_features`).
    /// The text format has no line for a document without features; JSON
    /// Lines says `"simhash": null, "features": 0`. A name that is not
    /// UTF-8 is written as its bytes in the text format, and as
    /// `path_bytes` (base64) beside a readable `path` in JSON Lines.
    pub fn entry<W: Write>(
        &self,
        name: &[u8],
        fingerprint: &Fingerprint,
        short_text: Option<&Fingerprint>,
        out: &mut W,
    ) -> io::Result<()> {
        let empty = fingerprint.features == 0;
        match self.format {
            FingerprintFormat::Text if empty => Ok(()),
            // As GNU sha256sum: a name with a backslash or line break is
            // escaped; the input stage reads the same escaping back.
            FingerprintFormat::Text => write_text_line(out, fingerprint.simhash, name),
            FingerprintFormat::Jsonl => {
                let path = String::from_utf8_lossy(name);
                let line = Line {
                    path: &path,
                    path_bytes: matches!(path, Cow::Owned(_)).then(|| to_base64(name)),
                    simhash: (!empty).then(|| format!("{:016x}", fingerprint.simhash)),
                    features: fingerprint.features,
                    bytes: fingerprint.bytes,
                    content_hash: format!("{:016x}", fingerprint.content_hash),
                    short_simhash: short_text.map(|short| format!("{:016x}", short.simhash)),
                    short_features: short_text.map(|short| short.features),
                    options: &self.options,
                    digest: &self.digest,
                };
                serde_json::to_writer(&mut *out, &line).map_err(io::Error::from)?;
                out.write_all(b"\n")
            }
        }
    }
}

/// Writes one line of `fingerprint --sdr`: the active indices, comma
/// separated, then the name, escaped as the text format escapes it (a
/// name with a line break stays on its line).
pub fn write_sdr_line<W: Write>(out: &mut W, active: &[usize], name: &[u8]) -> io::Result<()> {
    let active: Vec<String> = active.iter().map(usize::to_string).collect();
    write_checksum_line(out, format_args!("{}", active.join(",")), name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fingerprint(simhash: u64, features: u64) -> Fingerprint {
        Fingerprint {
            simhash,
            features,
            bytes: 42,
            content_hash: 0xabc,
            feature_digest: 0,
        }
    }

    fn render(format: FingerprintFormat, name: &str, fp: Fingerprint) -> String {
        let writer = FingerprintWriter::new(format, "words:3".into(), "d1g35t".into());
        let mut out = Vec::new();
        writer.header(&mut out).unwrap();
        writer.entry(name.as_bytes(), &fp, None, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn an_sdr_line_escapes_its_name_as_the_text_format_does() {
        let mut out = Vec::new();
        write_sdr_line(&mut out, &[3, 17], b"plain.txt").unwrap();
        write_sdr_line(&mut out, &[5], b"two\nlines\\.txt").unwrap();
        assert_eq!(out, b"3,17  plain.txt\n\\5  two\\nlines\\\\.txt\n");
    }

    #[test]
    fn text_is_sha256sum_style_with_a_header() {
        assert_eq!(
            render(FingerprintFormat::Text, "a b.txt", fingerprint(0x1f, 9)),
            "# simdup fingerprint options=words:3 digest=d1g35t\n000000000000001f  a b.txt\n"
        );
    }

    #[test]
    fn text_escapes_backslash_and_newline() {
        assert_eq!(
            render(FingerprintFormat::Text, "a\\b\nc", fingerprint(1, 9))
                .lines()
                .nth(1),
            Some("\\0000000000000001  a\\\\b\\nc")
        );
    }

    #[test]
    fn empty_documents_have_no_text_line_and_null_in_json() {
        assert_eq!(
            render(FingerprintFormat::Text, "e", fingerprint(0, 0))
                .lines()
                .count(),
            1
        );
        let json = render(FingerprintFormat::Jsonl, "e", fingerprint(0, 0));
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert!(value["simhash"].is_null());
        assert_eq!(value["features"], 0);
        assert_eq!(value["digest"], "d1g35t");
    }

    #[test]
    fn names_that_are_not_utf8_keep_their_bytes() {
        let writer = FingerprintWriter::new(FingerprintFormat::Text, "w".into(), "d".into());
        let mut out = Vec::new();
        writer
            .entry(b"a\xff\\.txt", &fingerprint(1, 9), None, &mut out)
            .unwrap();
        assert_eq!(out, b"\\0000000000000001  a\xff\\\\.txt\n");

        let writer = FingerprintWriter::new(FingerprintFormat::Jsonl, "w".into(), "d".into());
        let mut out = Vec::new();
        writer
            .entry(b"a\xff.txt", &fingerprint(1, 9), None, &mut out)
            .unwrap();
        let value: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(value["path"], "a\u{fffd}.txt");
        assert_eq!(value["path_bytes"], "Yf8udHh0");
        let utf8 = render(FingerprintFormat::Jsonl, "é.txt", fingerprint(1, 9));
        assert!(!utf8.contains("path_bytes"), "{utf8}");
    }

    #[test]
    fn jsonl_names_options_and_digest() {
        let json = render(FingerprintFormat::Jsonl, "a", fingerprint(u64::MAX, 3));
        assert_eq!(
            json,
            "{\"path\":\"a\",\"simhash\":\"ffffffffffffffff\",\"features\":3,\"bytes\":42,\
             \"content_hash\":\"0000000000000abc\",\"options\":\"words:3\",\"digest\":\"d1g35t\"}\n"
        );
    }

    #[test]
    fn a_short_texts_character_pairs_are_in_json_lines_only() {
        let short = fingerprint(0x5, 7);
        let mut out = Vec::new();
        let writer = FingerprintWriter::new(FingerprintFormat::Jsonl, "w".into(), "d".into());
        writer
            .entry(b"t", &fingerprint(1, 2), Some(&short), &mut out)
            .unwrap();
        let value: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(value["short_simhash"], "0000000000000005");
        assert_eq!(value["short_features"], 7);
        let writer = FingerprintWriter::new(FingerprintFormat::Text, "w".into(), "d".into());
        let mut out = Vec::new();
        writer
            .entry(b"t", &fingerprint(1, 2), Some(&short), &mut out)
            .unwrap();
        assert_eq!(out, b"0000000000000001  t\n");
    }
}
