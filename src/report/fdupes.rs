//! The fdupes format: the layout of `fdupes` and `jdupes`, which existing
//! duplicate-handling scripts read.
//!
//! Each group is a block of names, one per line, and every block ends
//! with a blank line (the last one too, as fdupes prints it). Groups come
//! in order of their first member and members in input order, so the
//! output is the same whatever the thread count. Names are written byte
//! for byte, unescaped, as fdupes writes paths: a script gets the exact
//! path back. A name holding a newline cannot be told apart in this
//! layout; `--format json` names it unambiguously. No groups: no output.

use std::io::{self, Write};

use super::Report;

pub(super) fn write<W: Write>(report: &Report, out: &mut W) -> io::Result<()> {
    for group in &report.groups {
        for &member in &group.members {
            match report.names.get(member as usize) {
                Ok(name) => out.write_all(&name)?,
                // Never a silent gap in a block a script may act on.
                Err(error) => {
                    return Err(io::Error::other(format!(
                        "cannot read back the name of document {member}: {error}"
                    )));
                }
            }
            out.write_all(b"\n")?;
        }
        out.write_all(b"\n")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::tests::sample;
    use super::*;
    use crate::report::ReportGroup;

    fn render(report: &Report) -> String {
        let mut out = Vec::new();
        write(report, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn groups_are_blocks_each_ending_with_a_blank_line() {
        let mut report = sample();
        report.groups = vec![
            ReportGroup {
                id: 1,
                members: vec![0, 2],
                chained: false,
            },
            ReportGroup {
                id: 2,
                members: vec![1, 2],
                chained: false,
            },
        ];
        assert_eq!(
            render(&report),
            "docs/a.txt\ndocs/long name.txt\n\ndocs/b, \"quoted\".txt\ndocs/long name.txt\n\n"
        );
    }

    #[test]
    fn no_groups_print_nothing() {
        let mut report = sample();
        report.groups.clear();
        assert_eq!(render(&report), "");
    }

    #[test]
    fn names_are_written_unescaped() {
        let mut report = sample();
        report.names = crate::report::Names::default();
        for name in [&b"tab\there"[..], b"not utf-8 \xff"] {
            report.names.push(name).unwrap();
        }
        report.groups = vec![ReportGroup {
            id: 1,
            members: vec![0, 1],
            chained: false,
        }];
        let mut out = Vec::new();
        write(&report, &mut out).unwrap();
        assert_eq!(out, b"tab\there\nnot utf-8 \xff\n\n");
    }
}
