//! GitHub Actions workflow commands: one `::warning` annotation in each
//! file of each listed pair, so a pull request shows it on either file.
//!
//! `::warning file=PATH,line=1,endLine=1,title=Near-duplicate::MESSAGE`,
//! with the path relative to the working directory (the workspace, in a
//! workflow) as SARIF writes it, and the escapes GitHub's toolkit applies:
//! `%`, CR and LF in the message; those and `:` and `,` in properties.

use std::io::{self, Write};
use std::path::Path;

use super::{Report, ReportPair};

/// Writes the annotations of every listed pair.
pub(super) fn write<W: Write>(report: &Report, out: &mut W) -> io::Result<()> {
    let cwd = std::env::current_dir().ok();
    write_from(report, cwd.as_deref(), out)
}

/// [`write`] with the directory relative paths start from.
pub(super) fn write_from<W: Write>(
    report: &Report,
    cwd: Option<&Path>,
    out: &mut W,
) -> io::Result<()> {
    for pair in &report.pairs {
        let (a, b) = (report.name(pair.a), report.name(pair.b));
        annotation(&a, &b, pair, cwd, out)?;
        annotation(&b, &a, pair, cwd, out)?;
    }
    Ok(())
}

fn annotation<W: Write>(
    file: &str,
    other: &str,
    pair: &ReportPair,
    cwd: Option<&Path>,
    out: &mut W,
) -> io::Result<()> {
    let path = super::sarif::relative(Path::new(file), cwd).unwrap_or_else(|| file.to_string());
    let measure = match pair.jaccard {
        Some(jaccard) => format!("Jaccard {jaccard:.3}"),
        None => format!("SimHash distance {}", pair.distance),
    };
    writeln!(
        out,
        "::warning file={},line=1,endLine=1,title=Near-duplicate::{}",
        property(&path),
        data(&format!("Near-duplicate of {other} ({measure})."))
    )
}

/// Escapes a message.
fn data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a property value.
fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::super::tests::sample;
    use super::*;

    #[test]
    fn two_annotations_per_pair_escaped() {
        let mut out = Vec::new();
        write_from(&sample(), None, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4);
        assert_eq!(
            lines[0],
            "::warning file=docs/a.txt,line=1,endLine=1,title=Near-duplicate::\
             Near-duplicate of docs/b, \"quoted\".txt (SimHash distance 0)."
        );
        assert_eq!(
            lines[1],
            "::warning file=docs/b%2C \"quoted\".txt,line=1,endLine=1,title=Near-duplicate::\
             Near-duplicate of docs/a.txt (SimHash distance 0)."
        );
        assert_eq!(property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
    }
}
