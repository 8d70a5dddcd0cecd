//! Markdown: a heading and a table, for `$GITHUB_STEP_SUMMARY` or a pull
//! request comment.
//!
//! The heading says how many pairs (or groups) were found and, with a
//! baseline, how many were accepted, new and stale; the table lists the
//! listed pairs (`Jaccard | distance | a | b`, no Jaccard with `--raw`) or
//! groups (`group | members`). Names are code spans with `|` escaped and
//! control characters shown as `\u{..}`. A run with nothing to list still
//! writes its heading, so the summary says that it ran.

use std::io::{self, Write};

use super::{Listing, Report, table::sanitize};

/// Writes the summary.
pub(super) fn write<W: Write>(report: &Report, listing: Listing, out: &mut W) -> io::Result<()> {
    let stats = &report.stats;
    let what = match &report.baseline {
        Some(baseline) => {
            let mut text = format!(
                "{} (baseline `{}`: {} accepted",
                counted(baseline.new, "new near-duplicate pair"),
                code_text(&baseline.file),
                baseline.accepted
            );
            if !baseline.stale.is_empty() {
                text.push_str(&format!(", {} stale", baseline.stale.len()));
            }
            text.push(')');
            text
        }
        None => format!(
            "{} in {}",
            counted(stats.pairs_found, "near-duplicate pair"),
            counted(stats.groups, "group")
        ),
    };
    writeln!(out, "### simdup: {what}")?;
    writeln!(out)?;
    let listed = match listing {
        Listing::Pairs => report.pairs.len(),
        Listing::Groups => report.groups.len(),
    };
    if listed == 0 {
        return Ok(());
    }
    match listing {
        Listing::Pairs => {
            let verified = report.params.verified();
            if verified {
                writeln!(out, "| Jaccard | distance | a | b |")?;
                writeln!(out, "|---:|---:|---|---|")?;
            } else {
                writeln!(out, "| distance | a | b |")?;
                writeln!(out, "|---:|---|---|")?;
            }
            for pair in &report.pairs {
                if verified {
                    match pair.jaccard {
                        Some(jaccard) => write!(out, "| {jaccard:.3} ")?,
                        None => write!(out, "| ")?,
                    }
                }
                writeln!(
                    out,
                    "| {} | {} | {} |",
                    pair.distance,
                    code(&report.name(pair.a)),
                    code(&report.name(pair.b))
                )?;
            }
        }
        Listing::Groups => {
            writeln!(out, "| group | members |")?;
            writeln!(out, "|---:|---|")?;
            for group in &report.groups {
                let members: Vec<String> = group
                    .members
                    .iter()
                    .map(|&member| code(&report.name(member)))
                    .collect();
                writeln!(out, "| {} | {} |", group.id, members.join("<br>"))?;
            }
        }
    }
    if (listed as u64) < stats.pairs_found && listing == Listing::Pairs && report.baseline.is_none()
    {
        writeln!(out)?;
        writeln!(
            out,
            "{listed} of {} pairs listed (`--max-pairs`).",
            stats.pairs_found
        )?;
    }
    Ok(())
}

/// A name as a code span in a table cell.
fn code(name: &str) -> String {
    let text = code_text(name);
    if text.contains('`') {
        format!("`` {text} ``")
    } else {
        format!("`{text}`")
    }
}

/// A name with control characters escaped and `|` escaped for a table.
fn code_text(name: &str) -> String {
    sanitize(name).replace('|', "\\|")
}

/// `1 pair`, `2 pairs`.
fn counted(count: u64, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::super::baseline::BaselineSummary;
    use super::super::tests::sample;
    use super::*;

    fn written(report: &Report, listing: Listing) -> String {
        let mut out = Vec::new();
        write(report, listing, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn heading_and_table_of_pairs_and_groups() {
        let mut report = sample();
        report.stats.pairs_found = 2;
        report.stats.groups = 1;
        report.names.push(b"x|y`z\n".as_slice()).unwrap();
        report.pairs[1].b = 3;
        assert_eq!(
            written(&report, Listing::Pairs),
            "### simdup: 2 near-duplicate pairs in 1 group\n\n\
             | distance | a | b |\n\
             |---:|---|---|\n\
             | 0 | `docs/a.txt` | `docs/b, \"quoted\".txt` |\n\
             | 12 | `docs/a.txt` | `` x\\|y`z\\u{a} `` |\n"
        );
        assert_eq!(
            written(&report, Listing::Groups),
            "### simdup: 2 near-duplicate pairs in 1 group\n\n\
             | group | members |\n\
             |---:|---|\n\
             | 1 | `docs/a.txt`<br>`docs/b, \"quoted\".txt`<br>`docs/long name.txt` |\n"
        );
    }

    #[test]
    fn baseline_counts_in_the_heading_and_nothing_else_when_nothing_is_new() {
        let mut report = sample();
        report.pairs.clear();
        report.baseline = Some(BaselineSummary {
            file: "b.txt".into(),
            accepted: 3,
            new: 0,
            stale: Vec::new(),
            updated: false,
        });
        assert_eq!(
            written(&report, Listing::Pairs),
            "### simdup: 0 new near-duplicate pairs (baseline `b.txt`: 3 accepted)\n\n"
        );
    }
}
