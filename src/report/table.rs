//! The table format: aligned columns for a person at a terminal.
//!
//! Pairs are one line each (jaccard, distance, a, b when verified;
//! distance, similarity, a, b in raw mode), groups a block each. Control
//! characters in names are escaped so a hostile file name cannot move the
//! cursor or hide text. No pairs: no output at all, so
//! `simdup scan ... | wc -l` counts pairs. Colour, when asked, marks the
//! headers and the figures; padding is done before it, so columns align.
//!
//! For records, whose ids say nothing of their text, each id is followed
//! by a short escaped snippet of the record (`super::snippet`): fitted to
//! the terminal's width when written to one, else of a fixed width.

use std::io::{self, Write};

use rayon::prelude::*;

use super::snippet::{self, snippet};
use super::texts::Texts;
use super::{Listing, Paint, Report, ReportGroup};

pub(super) fn write<W: Write>(
    report: &Report,
    listing: Listing,
    paint: Paint,
    columns: Option<usize>,
    out: &mut W,
) -> io::Result<()> {
    match listing {
        Listing::Pairs => write_pairs(report, paint, columns, out),
        Listing::Groups => write_groups(report, paint, columns, out),
    }
}

/// Pairs (or groups) whose cells are made together, on every core,
/// before they are written: enough to share out, few enough to hold
/// (tests take one at a time, to cross the joins).
const CELLS_AT_ONCE: usize = if cfg!(test) { 1 } else { 4096 };

/// Whether ids are followed by snippets: records whose texts were kept.
fn shows_snippets(report: &Report) -> bool {
    matches!(report.texts, Texts::Kept(_))
}

/// A document's snippet, `chars` characters at most.
fn snippet_of(report: &Report, id: u32, chars: usize) -> String {
    match report.text(id) {
        Some(Ok(text)) => snippet(&text.bytes, text.cut, chars),
        Some(Err(error)) => format!("<text unreadable: {error}>"),
        None => "-".to_string(),
    }
}

/// Characters of each snippet: on a terminal, what is left of a line
/// after `fixed` columns, shared by `count` snippets; else the default.
fn snippet_chars(columns: Option<usize>, fixed: usize, count: usize) -> usize {
    match columns {
        // The last column is left empty: some terminals wrap on it.
        Some(columns) => (columns.saturating_sub(fixed + 1) / count)
            .clamp(snippet::MIN_CHARS, snippet::MAX_CHARS),
        None => snippet::DEFAULT_CHARS,
    }
}

fn write_pairs<W: Write>(
    report: &Report,
    paint: Paint,
    columns: Option<usize>,
    out: &mut W,
) -> io::Result<()> {
    let pairs = &report.pairs;
    if pairs.is_empty() {
        return Ok(());
    }
    // Names are made again for each pass rather than held for every pair
    // (a million pairs are listed: 110 MB of short strings), and so are
    // the snippets that follow record ids.
    let name = |id: u32| sanitize(&report.name(id));
    let snippets = shows_snippets(report).then(|| {
        let (widest_a, widest_b) = pairs
            .par_iter()
            .map(|pair| (name(pair.a).chars().count(), name(pair.b).chars().count()))
            .reduce(|| (0, 0), |x, y| (x.0.max(y.0), x.1.max(y.1)));
        // The figures, the two ids, the gaps and the snippets' quotes.
        let figures = if report.params.verified() { 19 } else { 22 };
        let fixed = figures + widest_a + widest_b + 10;
        snippet_chars(columns, fixed, 2)
    });
    let cell = |id: u32| match snippets {
        Some(chars) => format!("{}  {}", name(id), snippet_of(report, id, chars)),
        None => name(id),
    };
    // Pairs often share their `a` with the pair before (a document and
    // each of its copies): its cell is made once for them.
    let new_a = |at: usize| at == 0 || pairs[at - 1].a != pairs[at].a;
    let a_width = (0..pairs.len())
        .into_par_iter()
        .filter(|&at| new_a(at))
        .map(|at| cell(pairs[at].a).chars().count())
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
    let mut a = String::new();
    for start in (0..pairs.len()).step_by(CELLS_AT_ONCE) {
        let end = (start + CELLS_AT_ONCE).min(pairs.len());
        // Snippets cost a lookup and an escape each: made on every core.
        let cells: Vec<(Option<String>, String)> = (start..end)
            .into_par_iter()
            .map(|at| {
                let a = new_a(at).then(|| cell(pairs[at].a));
                (a, cell(pairs[at].b))
            })
            .collect();
        for (pair, (a_cell, b)) in pairs[start..end].iter().zip(cells) {
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
            if let Some(a_cell) = a_cell {
                a = a_cell;
            }
            // Pad by characters, not bytes, so non-ASCII names stay aligned.
            let padding = a_width - a.chars().count();
            writeln!(out, "  {a}{:padding$}  {b}", "")?;
        }
    }
    Ok(())
}

fn write_groups<W: Write>(
    report: &Report,
    paint: Paint,
    columns: Option<usize>,
    out: &mut W,
) -> io::Result<()> {
    let mut first = true;
    for groups in report.groups.chunks(CELLS_AT_ONCE) {
        // Snippets cost a lookup and an escape each: made on every core.
        let blocks: Vec<String> = groups
            .par_iter()
            .map(|group| group_block(report, group, paint, columns))
            .collect();
        for block in blocks {
            if !first {
                writeln!(out)?;
            }
            first = false;
            out.write_all(block.as_bytes())?;
        }
    }
    Ok(())
}

/// One group's lines: its title, then each member (with its snippet).
fn group_block(
    report: &Report,
    group: &ReportGroup,
    paint: Paint,
    columns: Option<usize>,
) -> String {
    let mut block = format!(
        "{}\n",
        paint.header(format!(
            "group {}: {} documents",
            group.id,
            group.members.len()
        ))
    );
    let ids: Vec<String> = group
        .members
        .iter()
        .map(|&member| sanitize(&report.name(member)))
        .collect();
    if !shows_snippets(report) {
        for id in ids {
            block.push_str(&format!("  {id}\n"));
        }
        return block;
    }
    // Ids padded to the group's widest, so the snippets line up.
    let width = ids.iter().map(|id| id.chars().count()).max().unwrap_or(0);
    let chars = snippet_chars(columns, width + 6, 1);
    for (&member, id) in group.members.iter().zip(&ids) {
        let padding = width - id.chars().count();
        let text = snippet_of(report, member, chars);
        block.push_str(&format!("  {id}{:padding$}  {text}\n", ""));
    }
    block
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
        write(&sample(), listing, Paint::none(), None, &mut out).unwrap();
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
        write(&report, Listing::Pairs, Paint::none(), None, &mut out).unwrap();
        assert!(out.is_empty());
    }

    #[test]
    fn colour_keeps_the_columns_aligned() {
        let mut out = Vec::new();
        write(&sample(), Listing::Pairs, Paint::new(true), None, &mut out).unwrap();
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

    /// The sample as records numbered 1 to 3, with their texts kept.
    fn records(texts: [&[u8]; 3], max_bytes: usize) -> Report {
        let mut report = sample();
        report.names = crate::report::Names::default();
        for number in 1..=3 {
            report.names.push_number(number).unwrap();
        }
        let mut spool = crate::report::texts::TextSpool::new(max_bytes).unwrap();
        for text in texts {
            spool.push(text).unwrap();
        }
        report.texts = Texts::kept(spool, [0, 1, 2]).unwrap();
        report
    }

    fn render_with(report: &Report, listing: Listing, columns: Option<usize>) -> String {
        let mut out = Vec::new();
        write(report, listing, Paint::none(), columns, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn records_show_an_escaped_snippet_beside_their_id() {
        let long = "a line long enough to be cut before its end, at sixty characters, when not on a terminal";
        let report = records([b"12 Main St\r", b"12 Main St.", long.as_bytes()], 1000);
        assert_eq!(
            render_with(&report, Listing::Pairs, None),
            "distance  similarity  a                  b\n\
             \x20      0      1.0000  1  \"12 Main St\\r\"  2  \"12 Main St.\"\n\
             \x20     12      0.8125  1  \"12 Main St\\r\"  3  \"a line long enough to be cut before its end, at sixty chara…\"\n"
        );
        assert_eq!(
            render_with(&report, Listing::Groups, None),
            "group 1: 3 documents\n  1  \"12 Main St\\r\"\n  2  \"12 Main St.\"\n  \
             3  \"a line long enough to be cut before its end, at sixty chara…\"\n"
        );
    }

    #[test]
    fn groups_are_separated_by_a_blank_line() {
        let mut report = records([b"one", b"two", b"three"], 1000);
        report.groups = vec![
            ReportGroup {
                id: 1,
                members: vec![0, 2],
                chained: false,
            },
            ReportGroup {
                id: 2,
                members: vec![1],
                chained: false,
            },
        ];
        assert_eq!(
            render_with(&report, Listing::Groups, None),
            "group 1: 2 documents\n  1  \"one\"\n  3  \"three\"\n\n\
             group 2: 1 documents\n  2  \"two\"\n"
        );
    }

    #[test]
    fn snippets_fit_the_terminal() {
        let long = "word ".repeat(100);
        let report = records([long.as_bytes(); 3], 1000);
        for columns in [60, 100, 150] {
            for listing in [Listing::Pairs, Listing::Groups] {
                let table = render_with(&report, listing, Some(columns));
                let widest = table.lines().map(|line| line.chars().count()).max();
                assert!(widest < Some(columns), "{columns}: {table}");
                assert!(widest > Some(columns - 4), "{columns}: {table}");
            }
        }
        // Never narrower than a few words.
        let table = render_with(&report, Listing::Pairs, Some(10));
        assert!(table.contains(&format!("\"{}…\"", &long[..snippet::MIN_CHARS - 1])));
    }

    #[test]
    fn a_record_kept_cut_ends_with_an_ellipsis() {
        let report = records([b"short", b"0123456789", b"x"], 4);
        assert!(render_with(&report, Listing::Groups, None).contains("  2  \"0123…\"\n"));
    }

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(sanitize("a\nb\u{1b}[31m"), "a\\u{a}b\\u{1b}[31m");
        assert_eq!(sanitize("x\u{202E}y"), "x\\u{202e}y");
        assert_eq!(sanitize("plain é"), "plain é");
    }
}
