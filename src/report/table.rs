//! The table format: aligned columns for a person at a terminal.
//!
//! Pairs are one line each (jaccard, distance, a, b when verified;
//! distance, similarity, a, b in raw mode), groups a block each. Control
//! characters in names are escaped so a hostile file name cannot move the
//! cursor or hide text. No pairs: no output at all, so
//! `simdup scan ... | wc -l` counts pairs. Colour, when asked, marks the
//! headers and the figures; padding is done before it, so columns align.

use std::io::{self, Write};

use super::{Listing, Paint, Report};

pub(super) fn write<W: Write>(
    report: &Report,
    listing: Listing,
    paint: Paint,
    out: &mut W,
) -> io::Result<()> {
    match listing {
        Listing::Pairs => write_pairs(report, paint, out),
        Listing::Groups => write_groups(report, paint, out),
    }
}

fn write_pairs<W: Write>(report: &Report, paint: Paint, out: &mut W) -> io::Result<()> {
    if report.pairs.is_empty() {
        return Ok(());
    }
    let names: Vec<(String, String)> = report
        .pairs
        .iter()
        .map(|pair| {
            (
                sanitize(&report.name(pair.a)),
                sanitize(&report.name(pair.b)),
            )
        })
        .collect();
    let a_width = names
        .iter()
        .map(|(a, _)| a.chars().count())
        .max()
        .unwrap_or(0)
        .max(1);
    let verified = report.params.verified();
    let header = if verified {
        format!("jaccard  distance  {:<a_width$}  b", "a")
    } else {
        format!("distance  similarity  {:<a_width$}  b", "a")
    };
    writeln!(out, "{}", paint.header(header))?;
    for (pair, (a, b)) in report.pairs.iter().zip(&names) {
        let distance = format!("{:>8}", pair.distance);
        if verified {
            let jaccard = match pair.jaccard {
                Some(jaccard) => format!("{jaccard:>7.4}"),
                None => format!("{:>7}", "-"),
            };
            write!(out, "{}  {}", paint.figure(jaccard), paint.quiet(distance))?;
        } else {
            let similarity = format!("{:>10.4}", pair.similarity());
            write!(
                out,
                "{}  {}",
                paint.figure(distance),
                paint.quiet(similarity)
            )?;
        }
        // Pad by characters, not bytes, so non-ASCII names stay aligned.
        let padding = a_width - a.chars().count();
        writeln!(out, "  {a}{:padding$}  {b}", "")?;
    }
    Ok(())
}

fn write_groups<W: Write>(report: &Report, paint: Paint, out: &mut W) -> io::Result<()> {
    for (index, group) in report.groups.iter().enumerate() {
        if index > 0 {
            writeln!(out)?;
        }
        let title = format!("group {}: {} documents", group.id, group.members.len());
        writeln!(out, "{}", paint.header(title))?;
        for &member in &group.members {
            writeln!(out, "  {}", sanitize(&report.name(member)))?;
        }
    }
    Ok(())
}

/// Escapes control characters (and bidi overrides) as `\u{..}`.
pub(crate) fn sanitize(name: &str) -> String {
    if !name.chars().any(needs_escape) {
        return name.to_string();
    }
    let mut clean = String::with_capacity(name.len() + 8);
    for c in name.chars() {
        if needs_escape(c) {
            clean.push_str(&c.escape_unicode().to_string());
        } else {
            clean.push(c);
        }
    }
    clean
}

fn needs_escape(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::super::tests::sample;
    use super::*;

    fn render(listing: Listing) -> String {
        let mut out = Vec::new();
        write(&sample(), listing, Paint::none(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn pairs_are_aligned_columns() {
        assert_eq!(
            render(Listing::Pairs),
            "distance  similarity  a           b\n\
             \x20      0      1.0000  docs/a.txt  docs/b, \"quoted\".txt\n\
             \x20     12      0.8125  docs/a.txt  docs/long name.txt\n"
        );
    }

    #[test]
    fn groups_are_blocks() {
        assert_eq!(
            render(Listing::Groups),
            "group 1: 3 documents\n  docs/a.txt\n  docs/b, \"quoted\".txt\n  docs/long name.txt\n"
        );
    }

    #[test]
    fn no_pairs_print_nothing() {
        let mut report = sample();
        report.pairs.clear();
        let mut out = Vec::new();
        write(&report, Listing::Pairs, Paint::none(), &mut out).unwrap();
        assert!(out.is_empty());
    }

    #[test]
    fn colour_keeps_the_columns_aligned() {
        let mut out = Vec::new();
        write(&sample(), Listing::Pairs, Paint::new(true), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains('\u{1b}'));
        // Without its escapes, the text is the plain table.
        let mut plain = String::new();
        let mut chars = text.chars();
        while let Some(c) = chars.next() {
            if c == '\u{1b}' {
                for c in chars.by_ref() {
                    if c == 'm' {
                        break;
                    }
                }
            } else {
                plain.push(c);
            }
        }
        assert_eq!(plain, render(Listing::Pairs));
    }

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(sanitize("a\nb\u{1b}[31m"), "a\\u{a}b\\u{1b}[31m");
        assert_eq!(sanitize("x\u{202E}y"), "x\\u{202e}y");
        assert_eq!(sanitize("plain é"), "plain é");
    }
}
