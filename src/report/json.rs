//! JSON and JSON Lines.
//!
//! JSON is one document: `version`, `params`, `stats`, then `pairs` and
//! `groups` (only `groups` when listing groups). JSON Lines is one pair
//! (or group) object per line and nothing else, so it streams into `jq`
//! or any line-oriented tool.
//!
//! With texts shown (`--show-text`), a pair also has `a_text` and `b_text`
//! and a group `texts` (beside `members`): each a string, or `null` when
//! the text could not be read again. Bytes that are not UTF-8 become
//! U+FFFD (JSON strings are Unicode). `texts_truncated: true` says a text
//! is only the start of its document (a file past the size cap).

use std::cell::Cell;
use std::io::{self, Write};

use serde::ser::{SerializeSeq, SerializeStruct};
use serde::{Serialize, Serializer};

use super::baseline::BaselineSummary;
use super::{Listing, Params, Report, ReportGroup, ReportPair, Stats};

#[derive(Serialize)]
struct Document<'a> {
    version: u32,
    params: &'a Params,
    stats: &'a Stats,
    #[serde(skip_serializing_if = "Option::is_none")]
    baseline: Option<&'a BaselineSummary>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pairs: Option<Pairs<'a>>,
    groups: Groups<'a>,
}

/// A pair with its documents' names, as JSON shows it.
struct NamedPair<'a> {
    report: &'a Report,
    pair: &'a ReportPair,
}

impl Serialize for NamedPair<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let pair = self.pair;
        let texts = if self.report.texts.is_none() { 0 } else { 3 };
        let fields =
            4 + usize::from(pair.jaccard.is_some()) + usize::from(pair.short_texts) + texts;
        let mut object = serializer.serialize_struct("Pair", fields)?;
        object.serialize_field("a", &self.report.name(pair.a))?;
        object.serialize_field("b", &self.report.name(pair.b))?;
        object.serialize_field("distance", &pair.distance)?;
        object.serialize_field("similarity", &pair.similarity())?;
        if let Some(jaccard) = pair.jaccard {
            object.serialize_field("jaccard", &jaccard)?;
        }
        if pair.short_texts {
            let features = self.report.params.radius.short_texts.as_ref();
            object.serialize_field("features", &features.map(|texts| texts.features.as_str()))?;
        }
        if !self.report.texts.is_none() {
            let (a, a_cut) = shown_text(self.report, pair.a);
            let (b, b_cut) = shown_text(self.report, pair.b);
            object.serialize_field("a_text", &a)?;
            object.serialize_field("b_text", &b)?;
            if a_cut || b_cut {
                object.serialize_field("texts_truncated", &true)?;
            }
        }
        object.end()
    }
}

/// A group with its members' names, each named as it is written.
struct NamedGroup<'a> {
    report: &'a Report,
    group: &'a ReportGroup,
}

impl Serialize for NamedGroup<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut object = serializer.serialize_struct("Group", 4)?;
        object.serialize_field("id", &self.group.id)?;
        object.serialize_field("members", &Members(self))?;
        if !self.report.texts.is_none() {
            let truncated = Cell::new(false);
            object.serialize_field("texts", &GroupTexts(self, &truncated))?;
            if truncated.get() {
                object.serialize_field("texts_truncated", &true)?;
            }
        }
        object.end()
    }
}

struct Members<'a, 'b>(&'b NamedGroup<'a>);

impl Serialize for Members<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let group = self.0;
        let mut seq = serializer.serialize_seq(Some(group.group.members.len()))?;
        for &member in &group.group.members {
            seq.serialize_element(&group.report.name(member))?;
        }
        seq.end()
    }
}

/// A document's text as shown, lossily UTF-8 (`None` when it cannot be
/// read), and whether it is cut.
fn shown_text(report: &Report, id: u32) -> (Option<String>, bool) {
    match report.text(id) {
        Some(Ok(text)) => (
            Some(String::from_utf8_lossy(&text.bytes).into_owned()),
            text.cut,
        ),
        _ => (None, false),
    }
}

/// The texts of a group's members, in member order, one read at a time
/// (a group may be large); notes whether any was cut.
struct GroupTexts<'a, 'b>(&'b NamedGroup<'a>, &'b Cell<bool>);

impl Serialize for GroupTexts<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let group = self.0;
        let mut seq = serializer.serialize_seq(Some(group.group.members.len()))?;
        for &member in &group.group.members {
            let (text, cut) = shown_text(group.report, member);
            self.1.set(self.1.get() || cut);
            seq.serialize_element(&text)?;
        }
        seq.end()
    }
}

struct Pairs<'a>(&'a Report);

impl Serialize for Pairs<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let report = self.0;
        serializer.collect_seq(report.pairs.iter().map(|pair| NamedPair { report, pair }))
    }
}

struct Groups<'a>(&'a Report);

impl Serialize for Groups<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let report = self.0;
        serializer.collect_seq(
            report
                .groups
                .iter()
                .map(|group| NamedGroup { report, group }),
        )
    }
}

pub(super) fn write_document<W: Write>(
    report: &Report,
    listing: Listing,
    out: &mut W,
) -> io::Result<()> {
    let document = Document {
        version: report.version,
        params: &report.params,
        stats: &report.stats,
        baseline: report.baseline.as_ref(),
        pairs: (listing == Listing::Pairs).then_some(Pairs(report)),
        groups: Groups(report),
    };
    serde_json::to_writer_pretty(&mut *out, &document).map_err(io::Error::from)?;
    writeln!(out)
}

pub(super) fn write_lines<W: Write>(
    report: &Report,
    listing: Listing,
    out: &mut W,
) -> io::Result<()> {
    match listing {
        Listing::Pairs => report
            .pairs
            .iter()
            .try_for_each(|pair| line(&NamedPair { report, pair }, out)),
        Listing::Groups => report
            .groups
            .iter()
            .try_for_each(|group| line(&NamedGroup { report, group }, out)),
    }
}

fn line<T: Serialize, W: Write>(value: &T, out: &mut W) -> io::Result<()> {
    serde_json::to_writer(&mut *out, value).map_err(io::Error::from)?;
    out.write_all(b"\n")
}

#[cfg(test)]
mod tests {
    use super::super::tests::sample;
    use super::*;

    #[test]
    fn json_lines_are_one_pair_per_line() {
        let mut out = Vec::new();
        write_lines(&sample(), Listing::Pairs, &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\"a\":\"docs/a.txt\",\"b\":\"docs/b, \\\"quoted\\\".txt\",\"distance\":0,\"similarity\":1.0}\n\
             {\"a\":\"docs/a.txt\",\"b\":\"docs/long name.txt\",\"distance\":12,\"similarity\":0.8125}\n"
        );
    }

    #[test]
    fn json_lines_groups() {
        let mut out = Vec::new();
        write_lines(&sample(), Listing::Groups, &mut out).unwrap();
        let value: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(value["id"], 1);
        assert_eq!(value["members"].as_array().unwrap().len(), 3);
    }

    #[test]
    fn texts_are_shown_lossily_with_null_for_one_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let mut report = sample();
        report.names = crate::report::Names::default();
        std::fs::write(dir.path().join("a.txt"), b"caf\xe9 te").unwrap();
        std::fs::write(dir.path().join("b.txt"), "0123456789").unwrap();
        for name in ["a.txt", "b.txt", "gone.txt"] {
            let path = dir.path().join(name);
            report
                .names
                .push(path.to_str().unwrap().as_bytes())
                .unwrap();
        }
        report.texts = crate::report::texts::Texts::Files { max_bytes: 8 };
        let mut out = Vec::new();
        write_lines(&report, Listing::Pairs, &mut out).unwrap();
        let lines: Vec<serde_json::Value> = out
            .split(|&b| b == b'\n')
            .filter(|line| !line.is_empty())
            .map(|line| serde_json::from_slice(line).unwrap())
            .collect();
        assert_eq!(lines[0]["a_text"], "caf\u{fffd} te");
        assert_eq!(lines[0]["b_text"], "01234567");
        assert_eq!(lines[0]["texts_truncated"], true);
        assert_eq!(lines[1]["b_text"], serde_json::Value::Null);

        let mut out = Vec::new();
        write_lines(&report, Listing::Groups, &mut out).unwrap();
        let group: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(
            group["texts"],
            serde_json::json!(["caf\u{fffd} te", "01234567", null])
        );
        assert_eq!(group["texts_truncated"], true);
    }

    #[test]
    fn no_texts_unless_asked() {
        let mut out = Vec::new();
        write_document(&sample(), Listing::Pairs, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(!text.contains("text"), "{text}");
    }

    #[test]
    fn document_has_the_schema_keys() {
        let mut out = Vec::new();
        write_document(&sample(), Listing::Pairs, &mut out).unwrap();
        let value: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(value["version"], 2);
        assert_eq!(value["params"]["mode"], "raw");
        assert_eq!(value["params"]["method"], "exact");
        assert_eq!(value["params"]["exact"], true);
        assert_eq!(value["pairs"][1]["distance"], 12);
        assert_eq!(value["groups"][0]["members"][0], "docs/a.txt");
        assert!(value["stats"]["seconds"]["total"].is_number());

        let mut out = Vec::new();
        write_document(&sample(), Listing::Groups, &mut out).unwrap();
        let value: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert!(value.get("pairs").is_none());
        assert_eq!(value["groups"][0]["id"], 1);
    }
}
