//! The baseline file: the near-duplicate pairs a team has accepted.
//!
//! A text file, sorted, one pair a line, so that it diffs and merges well:
//!
//! ```text
//! # simdup baseline v1
//! # features words:3,xxh3,binary,nfkc,lower,punct-sep digest=e636ab3973178ea4
//! docs/a.md<TAB>docs/b.md<TAB>1f0e...:9a3c...<TAB>77c1...:9a3d...
//! ```
//!
//! The first line names the format and its version; the `# features` line
//! names the feature options the SimHashes were computed with. Each entry
//! holds both paths (for people, and to prefer the same files when several
//! documents have the same content) and each document's key: the xxh3-64
//! of its raw bytes and its SimHash, both in hexadecimal. Within an entry
//! the paths are in byte order, and entries are sorted by their paths.
//! Other lines starting with `#` and empty lines are comments. A tab, a
//! newline, a carriage return or a backslash in a path is escaped (`\t`,
//! `\n`, `\r`, `\\`), and so is a `#` that starts one (`\#`).
//!
//! How a run's pairs are matched against the entries is
//! `simdup::jobs::scan::baseline`'s business.

use std::fmt;
use std::io::{self, BufRead, Write};

use serde::Serialize;

use crate::Error;

/// The first line of a baseline file.
pub const HEADER: &str = "# simdup baseline v1";

/// What identifies a document across renames and small edits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DocKey {
    /// xxh3-64 of the raw bytes: the same content under any name.
    pub content: u64,
    /// The SimHash with the run's feature options: close after a small
    /// edit.
    pub simhash: u64,
}

impl fmt::Display for DocKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}:{:016x}", self.content, self.simhash)
    }
}

impl std::str::FromStr for DocKey {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let parse = |hex: &str| {
            if is_hex16(hex) {
                u64::from_str_radix(hex, 16).ok()
            } else {
                None
            }
        };
        text.split_once(':')
            .and_then(|(content, simhash)| {
                Some(DocKey {
                    content: parse(content)?,
                    simhash: parse(simhash)?,
                })
            })
            .ok_or_else(|| {
                format!("expected CONTENT:SIMHASH, each 16 hexadecimal digits, got '{text}'")
            })
    }
}

/// Whether `text` is 16 hexadecimal digits: a key's half or a digest.
/// (`u64::from_str_radix` alone would also take a sign.)
fn is_hex16(text: &str) -> bool {
    text.len() == 16 && text.bytes().all(|byte| byte.is_ascii_hexdigit())
}

/// One accepted pair.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct BaselineEntry {
    /// The first document's path when the pair was accepted.
    pub a: String,
    /// The second document's path.
    pub b: String,
    /// The first document's key.
    pub key_a: DocKey,
    /// The second document's key.
    pub key_b: DocKey,
}

impl BaselineEntry {
    /// An entry with its sides in byte order of their paths.
    pub fn new(a: String, key_a: DocKey, b: String, key_b: DocKey) -> Self {
        if b < a {
            BaselineEntry {
                a: b,
                b: a,
                key_a: key_b,
                key_b: key_a,
            }
        } else {
            BaselineEntry { a, b, key_a, key_b }
        }
    }
}

/// The accepted pairs, and the feature options their SimHashes were
/// computed with.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Baseline {
    /// The feature options as `simdup fingerprint` names them, with their
    /// digest (`words:3,... digest=...`).
    pub features: String,
    /// The entries, sorted.
    pub entries: Vec<BaselineEntry>,
}

impl Baseline {
    /// A baseline of these entries (sorted here, duplicates dropped).
    pub fn new(features: String, mut entries: Vec<BaselineEntry>) -> Self {
        entries.sort();
        entries.dedup();
        Baseline { features, entries }
    }

    /// The digest named on the `# features` line, if any.
    pub fn digest(&self) -> Option<&str> {
        self.features
            .rsplit_once("digest=")
            .map(|(_, digest)| digest.trim())
    }

    /// Writes the file.
    pub fn write<W: Write>(&self, out: &mut W) -> io::Result<()> {
        writeln!(out, "{HEADER}")?;
        writeln!(out, "# features {}", self.features)?;
        for entry in &self.entries {
            writeln!(
                out,
                "{}\t{}\t{}\t{}",
                escape(&entry.a),
                escape(&entry.b),
                entry.key_a,
                entry.key_b
            )?;
        }
        Ok(())
    }

    /// Reads a baseline file; `source` names it in errors. A file of
    /// another format or version, or a malformed line, is an error.
    pub fn read<R: BufRead>(input: R, source: &str) -> crate::Result<Self> {
        let bad = |line: usize, message: String| {
            Error::Usage(format!("{source}:{line}: not a simdup baseline: {message}"))
        };
        let mut features = String::new();
        let mut entries = Vec::new();
        let mut header = false;
        for (index, line) in input.lines().enumerate() {
            let number = index + 1;
            let line = line.map_err(|error| Error::io_named(source, error))?;
            let line = line.strip_suffix('\r').unwrap_or(&line);
            if number == 1 {
                if line != HEADER {
                    return Err(bad(
                        number,
                        format!("the first line must be '{HEADER}' (this simdup reads version 1)"),
                    ));
                }
                header = true;
                continue;
            }
            if let Some(rest) = line.strip_prefix("# features ") {
                // Carriage returns at the end are line endings, however
                // many: kept, they would not survive a write and a read.
                features = rest.trim_end_matches('\r').to_string();
                // A digest that no run writes would only turn matching by
                // SimHash off, silently: say where it is wrong.
                if let Some((_, digest)) = features.rsplit_once("digest=")
                    && !is_hex16(digest.trim())
                {
                    return Err(bad(
                        number,
                        format!(
                            "the features digest must be 16 hexadecimal digits, got '{}'",
                            digest.trim()
                        ),
                    ));
                }
                continue;
            }
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let fields: Vec<&str> = line.split('\t').collect();
            let [a, b, key_a, key_b] = fields[..] else {
                return Err(bad(
                    number,
                    format!("expected 4 tab-separated fields, got {}", fields.len()),
                ));
            };
            let (a, b) = (
                unescape(a).map_err(|e| bad(number, e))?,
                unescape(b).map_err(|e| bad(number, e))?,
            );
            let key_a = key_a.parse().map_err(|e| bad(number, e))?;
            let key_b = key_b.parse().map_err(|e| bad(number, e))?;
            entries.push(BaselineEntry::new(a, key_a, b, key_b));
        }
        if !header {
            return Err(bad(1, format!("empty; the first line must be '{HEADER}'")));
        }
        Ok(Baseline::new(features, entries))
    }
}

/// A path as written in an entry.
fn escape(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    if path.starts_with('#') {
        out.push('\\');
    }
    for c in path.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out
}

/// The inverse of [`escape`].
fn unescape(field: &str) -> Result<String, String> {
    let mut out = String::with_capacity(field.len());
    let mut chars = field.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('\\') => out.push('\\'),
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('#') => out.push('#'),
            other => {
                return Err(format!(
                    "unknown escape '\\{}' in '{field}'",
                    other.map(String::from).unwrap_or_default()
                ));
            }
        }
    }
    Ok(out)
}

/// How a run compared with its baseline, as reports show it.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct BaselineSummary {
    /// The baseline file, as given.
    pub file: String,
    /// Pairs found that the baseline accepts (not listed).
    pub accepted: u64,
    /// Pairs found that it does not (listed).
    pub new: u64,
    /// Entries no pair of this run matched: the baseline can drop them.
    pub stale: Vec<StaleEntry>,
    /// Whether the file was rewritten (`--update-baseline`).
    pub updated: bool,
}

/// A baseline entry no pair matched.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StaleEntry {
    /// Its first path.
    pub a: String,
    /// Its second path.
    pub b: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(content: u64, simhash: u64) -> DocKey {
        DocKey { content, simhash }
    }

    #[test]
    fn round_trip_sorted_and_escaped() {
        let baseline = Baseline::new(
            "words:3 digest=0123456789abcdef".into(),
            vec![
                BaselineEntry::new("z.md".into(), key(1, 2), "b.md".into(), key(3, 4)),
                BaselineEntry::new("#odd\tname\\x".into(), key(5, 6), "c\nd".into(), key(7, 8)),
            ],
        );
        let mut out = Vec::new();
        baseline.write(&mut out).unwrap();
        let text = String::from_utf8(out.clone()).unwrap();
        assert_eq!(
            text,
            "# simdup baseline v1\n# features words:3 digest=0123456789abcdef\n\
             \\#odd\\tname\\\\x\tc\\nd\t0000000000000005:0000000000000006\t0000000000000007:0000000000000008\n\
             b.md\tz.md\t0000000000000003:0000000000000004\t0000000000000001:0000000000000002\n"
        );
        let read = Baseline::read(&out[..], "b").unwrap();
        assert_eq!(read, baseline);
        assert_eq!(read.digest(), Some("0123456789abcdef"));
    }

    #[test]
    fn other_files_and_bad_lines_are_errors() {
        let error = |text: &str| {
            Baseline::read(text.as_bytes(), "f")
                .unwrap_err()
                .to_string()
        };
        assert!(error("").contains("f:1: not a simdup baseline"));
        assert!(error("# simdup baseline v2\n").contains("version 1"));
        assert!(error(&format!("{HEADER}\na\tb\n")).contains("f:2: "));
        assert!(error(&format!("{HEADER}\na\tb\t1:2\t3:4\n")).contains("hexadecimal"));
        // Exactly 16 digits: no sign, nothing else.
        let good_key = key(1, 2);
        let good = format!("{HEADER}\na\tb\t{good_key}\t{good_key}\n");
        assert!(Baseline::read(good.as_bytes(), "f").is_ok());
        for bad in ["+000000000000001", "-000000000000001", "000000000000000g"] {
            let line = format!("{HEADER}\n# c\na\tb\t{bad}:0000000000000002\t{good_key}\n");
            assert!(error(&line).contains("f:3: "), "{bad}");
            assert!(error(&line).contains("16 hexadecimal digits"), "{bad}");
        }
        for digest in ["zzz", "0123", "+123456789abcdef"] {
            let text = format!("{HEADER}\n# features words:3 digest={digest}\n");
            let message = error(&text);
            assert!(message.contains("f:2: "), "{message}");
            assert!(message.contains(&format!("got '{digest}'")), "{message}");
        }
        assert!(
            error(&format!(
                "{HEADER}\na\\q\tb\t{}\t{}\n",
                key(1, 1),
                key(2, 2)
            ))
            .contains("escape")
        );
        // A header alone is an empty baseline; comments and CRLF are fine.
        let read = Baseline::read(format!("{HEADER}\r\n# note\r\n\r\n").as_bytes(), "f").unwrap();
        assert!(read.entries.is_empty());
    }
}
