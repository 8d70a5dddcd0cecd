//! SARIF 2.1.0, for code scanning (GitHub, GitLab, IDEs).
//!
//! One run of one tool (`simdup`) with one rule, `near-duplicate`; one
//! result per listed pair (with `--groups` too: SARIF has no groups). A
//! result has a location in each document, `a` first; its region is the
//! first passage the two share, in each file, when the caller computed it
//! (`crate::jobs::scan::regions`, as `simdup explain` finds passages), and
//! line 1 otherwise.
//! URIs are the paths relative to the working directory (`uriBaseId`
//! `%SRCROOT%`), their bytes percent-encoded (a name need not be UTF-8);
//! a path outside it (absolute, or with `..` leading out of it, judged
//! lexically) is an absolute `file:` URI. `partialFingerprints` carry the pair's baseline key, the content
//! hashes of both documents in ascending order, so a code-scanning alert
//! follows the pair across commits and renames (not across edits).

use std::io::{self, Write};
use std::path::{Component, Path, PathBuf};

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::{Report, ReportPair};
use crate::input::{path_bytes, path_from_bytes, percent_encoded};
use crate::verify::passages::LineRange;

/// The line range of each pair's first shared passage in each document,
/// by the pair's document numbers.
pub type Regions = BTreeMap<(u32, u32), (LineRange, LineRange)>;

/// The `$schema` of the document.
pub const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// The rule every result belongs to.
pub const RULE_ID: &str = "near-duplicate";

/// The key of the pair fingerprint in `partialFingerprints`.
pub const FINGERPRINT_KEY: &str = "simdupPair/v1";

/// Writes the report as one SARIF log; paths relative to the current
/// directory when they lie below it.
pub(super) fn write<W: Write>(report: &Report, out: &mut W) -> io::Result<()> {
    write_with_regions(report, &Regions::new(), out)
}

/// Writes the report as one SARIF log whose results point at the pairs'
/// `regions` (line 1 for a pair without one).
pub fn write_with_regions<W: Write>(
    report: &Report,
    regions: &Regions,
    out: &mut W,
) -> io::Result<()> {
    let cwd = std::env::current_dir().ok();
    write_from(report, regions, cwd.as_deref(), out)
}

/// [`write_with_regions`] with the directory relative paths start from.
pub(super) fn write_from<W: Write>(
    report: &Report,
    regions: &Regions,
    cwd: Option<&Path>,
    out: &mut W,
) -> io::Result<()> {
    let results: Vec<Value> = report
        .pairs
        .iter()
        .map(|pair| result(report, pair, regions.get(&(pair.a, pair.b)), cwd))
        .collect();
    let threshold = report
        .params
        .threshold
        .map_or_else(String::new, |t| format!(" at or above {t}"));
    let log = json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {
                "driver": {
                    "name": "simdup",
                    "version": env!("CARGO_PKG_VERSION"),
                    "rules": [{
                        "id": RULE_ID,
                        "name": "NearDuplicate",
                        "shortDescription": {"text": "Near-duplicate documents"},
                        "fullDescription": {"text": format!(
                            "Two documents whose feature sets ({}) have an exact Jaccard \
                             similarity{threshold}: one may be a copy of the other.",
                            report.params.features
                        )},
                        "help": {"text": "Merge the two documents, or accept the pair in a \
                                          baseline (simdup scan --write-baseline)."},
                        "defaultConfiguration": {"level": "warning"}
                    }]
                }
            },
            "results": results
        }]
    });
    serde_json::to_writer_pretty(&mut *out, &log).map_err(io::Error::from)?;
    writeln!(out)
}

fn result(
    report: &Report,
    pair: &ReportPair,
    region: Option<&(LineRange, LineRange)>,
    cwd: Option<&Path>,
) -> Value {
    let (a, b) = (report.name(pair.a), report.name(pair.b));
    let measure = match pair.jaccard {
        Some(jaccard) => format!("Jaccard {jaccard:.3}"),
        None => format!("SimHash distance {}", pair.distance),
    };
    let mut properties = json!({"distance": pair.distance});
    if let Some(jaccard) = pair.jaccard {
        properties["jaccard"] = json!(jaccard);
    }
    let mut result = json!({
        "ruleId": RULE_ID,
        "ruleIndex": 0,
        "level": "warning",
        "message": {"text": format!("{a} and {b} are near-duplicates ({measure}).")},
        "locations": [
            location(&name_bytes(report, pair.a), region.map(|r| r.0), cwd),
            location(&name_bytes(report, pair.b), region.map(|r| r.1), cwd)
        ],
        "properties": properties
    });
    if let (Some(key_a), Some(key_b)) = (report.keys.get(&pair.a), report.keys.get(&pair.b)) {
        let (low, high) = if key_a.content <= key_b.content {
            (key_a.content, key_b.content)
        } else {
            (key_b.content, key_a.content)
        };
        result["partialFingerprints"] = json!({FINGERPRINT_KEY: format!("{low:016x}{high:016x}")});
    }
    result
}

/// The name of document `id` as its bytes: a path need not be UTF-8, and
/// its URI holds its bytes percent-encoded.
fn name_bytes(report: &Report, id: u32) -> Vec<u8> {
    match report.names.get(id as usize) {
        Ok(bytes) => bytes.into_owned(),
        Err(_) => report.name(id).into_bytes(),
    }
}

fn location(name: &[u8], region: Option<LineRange>, cwd: Option<&Path>) -> Value {
    let path = path_from_bytes(name);
    let mut artifact = match relative_bytes(&path, cwd) {
        Some(relative) => json!({"uri": percent_encoded(&relative), "uriBaseId": "%SRCROOT%"}),
        None => {
            let absolute = absolute(&path, cwd);
            json!({"uri": format!("file://{}", percent_encoded(path_bytes(&absolute)))})
        }
    };
    if artifact["uri"] == "" {
        artifact["uri"] = json!(".");
    }
    json!({
        "physicalLocation": {
            "artifactLocation": artifact,
            "region": match region {
                Some(lines) => json!({"startLine": lines.start, "endLine": lines.end}),
                None => json!({"startLine": 1}),
            }
        }
    })
}

/// The path as a relative reference with `/` separators: the path joined
/// to `cwd` and normalised lexically (`.` dropped, `..` taken back), when
/// that stays below `cwd`; `None` for a path that leaves it. Without a
/// working directory, a relative path is only normalised.
pub(super) fn relative(path: &Path, cwd: Option<&Path>) -> Option<String> {
    relative_bytes(path, cwd).map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
}

/// [`relative`] as bytes: a name that is not UTF-8 keeps its bytes.
fn relative_bytes(path: &Path, cwd: Option<&Path>) -> Option<Vec<u8>> {
    let below = match cwd {
        Some(cwd) => normalise(&cwd.join(path))
            .strip_prefix(normalise(cwd))
            .ok()?
            .to_path_buf(),
        None if path.is_absolute() => return None,
        None => normalise(path),
    };
    let parts: Vec<&[u8]> = below
        .components()
        .map(|component| path_bytes(Path::new(component.as_os_str())))
        .collect();
    Some(parts.join(&b'/'))
}

/// The path made absolute against `cwd` and normalised lexically (as given
/// when there is no working directory to start from).
fn absolute(path: &Path, cwd: Option<&Path>) -> PathBuf {
    match cwd {
        Some(cwd) => normalise(&cwd.join(path)),
        None => path.to_path_buf(),
    }
}

/// Drops `.` components and takes back a `..` with the name before it,
/// without asking the file system (a report names paths, it does not
/// follow links); a `..` with nothing to take back is kept, or dropped
/// at the root.
fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => match out.components().next_back() {
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                Some(Component::RootDir | Component::Prefix(_)) => {}
                _ => out.push(".."),
            },
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::baseline::DocKey;
    use super::super::tests::sample;
    use super::*;

    fn log(report: &Report, cwd: Option<&Path>) -> Value {
        let mut out = Vec::new();
        write_from(report, &Regions::new(), cwd, &mut out).unwrap();
        serde_json::from_slice(&out).unwrap()
    }

    #[test]
    fn one_result_per_pair_with_both_locations() {
        let mut report = sample();
        report.keys.insert(
            0,
            DocKey {
                content: 0xb,
                simhash: 1,
            },
        );
        report.keys.insert(
            1,
            DocKey {
                content: 0xa,
                simhash: 2,
            },
        );
        let value = log(&report, None);
        assert_eq!(value["version"], "2.1.0");
        assert_eq!(value["$schema"], SCHEMA);
        let run = &value["runs"][0];
        assert_eq!(run["tool"]["driver"]["name"], "simdup");
        assert_eq!(run["tool"]["driver"]["rules"][0]["id"], RULE_ID);
        let results = run["results"].as_array().unwrap();
        assert_eq!(results.len(), 2);
        let first = &results[0];
        assert_eq!(first["ruleId"], RULE_ID);
        assert_eq!(
            first["locations"][1]["physicalLocation"]["artifactLocation"]["uri"],
            "docs/b%2C%20%22quoted%22.txt"
        );
        assert_eq!(
            first["locations"][0]["physicalLocation"]["region"]["startLine"],
            1
        );
        assert_eq!(
            first["partialFingerprints"][FINGERPRINT_KEY],
            "000000000000000a000000000000000b"
        );
        assert!(
            first["message"]["text"]
                .as_str()
                .unwrap()
                .contains("SimHash distance 0")
        );
        // No key for document 2: no fingerprint rather than a wrong one.
        assert!(results[1].get("partialFingerprints").is_none());
    }

    #[test]
    fn regions_are_the_shared_passage_in_each_file() {
        let report = sample();
        let (a, b) = (report.pairs[0].a, report.pairs[0].b);
        let mut regions = Regions::new();
        regions.insert(
            (a, b),
            (
                LineRange { start: 3, end: 9 },
                LineRange { start: 1, end: 7 },
            ),
        );
        let mut out = Vec::new();
        write_from(&report, &regions, None, &mut out).unwrap();
        let value: Value = serde_json::from_slice(&out).unwrap();
        let results = &value["runs"][0]["results"];
        let region = |result: usize, side: usize| {
            results[result]["locations"][side]["physicalLocation"]["region"].clone()
        };
        assert_eq!(region(0, 0), json!({"startLine": 3, "endLine": 9}));
        assert_eq!(region(0, 1), json!({"startLine": 1, "endLine": 7}));
        assert_eq!(region(1, 0), json!({"startLine": 1}));
    }

    #[test]
    fn paths_relative_to_the_working_directory() {
        let cwd = Path::new("/home/user/repo");
        assert_eq!(
            relative(Path::new("./docs/a.md"), Some(cwd)).unwrap(),
            "docs/a.md"
        );
        assert_eq!(
            relative(Path::new("docs/../x/./a.md"), Some(cwd)).unwrap(),
            "x/a.md"
        );
        // `..` that leaves the working directory makes an absolute URI.
        assert_eq!(relative(Path::new("../x/a.md"), Some(cwd)), None);
        assert_eq!(
            location(b"../x/a.md", None, Some(cwd))["physicalLocation"]["artifactLocation"],
            json!({"uri": "file:///home/user/x/a.md"})
        );
        assert_eq!(
            relative(Path::new("../repo/a.md"), Some(cwd)).unwrap(),
            "a.md"
        );
        assert_eq!(relative(Path::new("../x/a.md"), None).unwrap(), "../x/a.md");
        assert_eq!(
            relative(Path::new("/home/user/repo/docs/a.md"), Some(cwd)).unwrap(),
            "docs/a.md"
        );
        assert_eq!(relative(Path::new("/elsewhere/a.md"), Some(cwd)), None);
        assert_eq!(
            location(b"/elsewhere/a b.md", None, Some(cwd))["physicalLocation"]["artifactLocation"]
                ["uri"],
            "file:///elsewhere/a%20b.md"
        );
        assert_eq!(percent_encoded("é".as_bytes()), "%C3%A9");
    }

    #[test]
    #[cfg(unix)]
    fn a_name_not_utf8_keeps_its_bytes_in_the_uri() {
        let cwd = Path::new("/home/user/repo");
        let artifact = |name: &[u8]| {
            location(name, None, Some(cwd))["physicalLocation"]["artifactLocation"]["uri"].clone()
        };
        assert_eq!(artifact(b"docs/bad\xff\xfe.txt"), "docs/bad%FF%FE.txt");
        assert_eq!(artifact(b"/elsewhere/\xe9"), "file:///elsewhere/%E9");
    }
}
