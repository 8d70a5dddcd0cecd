//! CSV: a header line, then one row per pair (or per group member), with
//! RFC 4180 quoting. Rows end with `\n`.

use std::io::{self, Write};

use super::{Listing, Report};

pub(super) fn write<W: Write>(report: &Report, listing: Listing, out: &mut W) -> io::Result<()> {
    match listing {
        Listing::Pairs => {
            let verify = report.params.verified();
            out.write_all(if verify {
                b"a,b,distance,similarity,jaccard\n"
            } else {
                b"a,b,distance,similarity\n"
            })?;
            for pair in &report.pairs {
                write!(
                    out,
                    "{},{},{},{}",
                    quote(&report.name(pair.a)),
                    quote(&report.name(pair.b)),
                    pair.distance,
                    pair.similarity()
                )?;
                if verify {
                    match pair.jaccard {
                        Some(jaccard) => write!(out, ",{jaccard}")?,
                        None => write!(out, ",")?,
                    }
                }
                out.write_all(b"\n")?;
            }
        }
        Listing::Groups => {
            out.write_all(b"group,member\n")?;
            for group in &report.groups {
                for &member in &group.members {
                    writeln!(out, "{},{}", group.id, quote(&report.name(member)))?;
                }
            }
        }
    }
    Ok(())
}

/// Quotes a field when it holds a comma, quote, or line break (RFC 4180).
fn quote(field: &str) -> std::borrow::Cow<'_, str> {
    if field.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", field.replace('"', "\"\"")).into()
    } else {
        field.into()
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::sample;
    use super::*;

    #[test]
    fn pairs_with_rfc4180_quoting() {
        let mut out = Vec::new();
        write(&sample(), Listing::Pairs, &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "a,b,distance,similarity\n\
             docs/a.txt,\"docs/b, \"\"quoted\"\".txt\",0,1\n\
             docs/a.txt,docs/long name.txt,12,0.8125\n"
        );
    }

    #[test]
    fn groups_one_row_per_member() {
        let mut out = Vec::new();
        write(&sample(), Listing::Groups, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.lines().count(), 4);
        assert_eq!(
            text.lines().nth(2),
            Some("1,\"docs/b, \"\"quoted\"\".txt\"")
        );
    }

    #[test]
    fn quote_leaves_plain_fields() {
        assert_eq!(quote("plain"), "plain");
        assert_eq!(quote("line\nbreak"), "\"line\nbreak\"");
    }
}
