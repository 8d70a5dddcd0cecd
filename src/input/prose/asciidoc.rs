//! AsciiDoc: the text a reader sees.
//!
//! Dropped: attribute entries (`:toc: left`), comments (`//` lines and
//! `////` blocks), block delimiters, block attribute and anchor lines
//! (`[source,python]`, `[[id]]`), block macros (`image::`, `include::`),
//! passthrough blocks, section title `=`s, list markers, link and macro
//! syntax (`https://x[text]` and `link:x[text]` keep `text`,
//! `<<id,text>>` keeps `text`), images, attribute references (`{name}`)
//! and formatting marks. Kept: the text, listing and literal blocks (code
//! is text too) and block titles.

use super::inline::{Ahead, emphasis, is_word, run_end};
use super::{trim_end, trim_start};

/// A delimited block whose lines are not scanned as usual.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Block {
    /// `////`: dropped.
    Comment,
    /// `++++`: raw output, dropped.
    Passthrough,
    /// `----` or `....`: kept as it is.
    Verbatim,
}

/// What the scanner carries from line to line.
#[derive(Debug, Default)]
pub(super) struct State {
    /// The open delimited block, and its delimiter line.
    block: Option<(Block, Vec<u8>)>,
}

impl State {
    /// Writes the text of one line; `start` is false for a later piece of
    /// a cut line.
    pub(super) fn line(&mut self, line: &[u8], start: bool, out: &mut Vec<u8>) {
        if !start {
            return inline(line, out);
        }
        let trimmed = trim_end(line);
        if let Some((block, delimiter)) = &self.block {
            if trimmed == &delimiter[..] {
                self.block = None;
            } else if *block == Block::Verbatim {
                out.extend_from_slice(line);
            }
            return;
        }
        if let Some(block) = delimiter(trimmed) {
            if let Some(block) = block {
                self.block = Some((block, trimmed.to_vec()));
            }
            return;
        }
        let dropped = trimmed.starts_with(b"//")
            || is_attribute_entry(trimmed)
            || (trimmed.starts_with(b"[") && trimmed.ends_with(b"]"))
            || is_block_macro(trimmed);
        if dropped {
            return;
        }
        let body = section_title(trimmed)
            .or_else(|| block_title(trimmed))
            .unwrap_or_else(|| list_item(trimmed));
        inline(body, out)
    }
}

/// A delimiter line: `Some(Some(block))` opens a block scanned its own
/// way, `Some(None)` a block whose lines are scanned as usual (example,
/// sidebar, quote, open block, table).
fn delimiter(text: &[u8]) -> Option<Option<Block>> {
    if text == b"--" {
        return Some(None);
    }
    if matches!(text, b"|===" | b",===" | b":===" | b"!===") {
        return Some(None);
    }
    let first = *text.first()?;
    if text.len() < 4 || text.iter().any(|&b| b != first) {
        return None;
    }
    match first {
        b'/' => Some(Some(Block::Comment)),
        b'+' => Some(Some(Block::Passthrough)),
        b'-' | b'.' => Some(Some(Block::Verbatim)),
        b'=' | b'*' | b'_' => Some(None),
        _ => None,
    }
}

/// `:name: value`, `:name!:`, `:!name:`.
fn is_attribute_entry(text: &[u8]) -> bool {
    let Some(rest) = text.strip_prefix(b":") else {
        return false;
    };
    match memchr::memchr(b':', rest) {
        Some(close) => {
            close > 0
                && rest[..close]
                    .iter()
                    .all(|&b| is_word(b) || matches!(b, b'-' | b'_' | b'!'))
                && matches!(rest.get(close + 1), None | Some(b' ' | b'\t'))
        }
        None => false,
    }
}

/// `name::target[attributes]` on a line of its own.
fn is_block_macro(text: &[u8]) -> bool {
    let Some(at) = memchr::memmem::find(text, b"::") else {
        return false;
    };
    at > 0
        && text[..at]
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || *b == b'-')
        && text.ends_with(b"]")
        && !text[at + 2..].starts_with(b" ")
}

/// `== Title` (or Markdown's `## Title`): the title.
fn section_title(text: &[u8]) -> Option<&[u8]> {
    let mark = *text.first()?;
    if mark != b'=' && mark != b'#' {
        return None;
    }
    let marks = run_end(text, 0, mark);
    (marks <= 6 && text.get(marks) == Some(&b' ')).then(|| &text[marks..])
}

/// `.Title` above a block: the title.
fn block_title(text: &[u8]) -> Option<&[u8]> {
    let rest = text.strip_prefix(b".")?;
    rest.first()
        .is_some_and(|&b| b != b'.' && b != b' ' && b != b'\t')
        .then_some(rest)
}

/// A list item's text: `*`, `-`, `.` (repeated) or `1.` markers and
/// checkboxes dropped.
fn list_item(text: &[u8]) -> &[u8] {
    let start = text.len() - trim_start(text).len();
    let rest = &text[start..];
    let Some(&mark) = rest.first() else {
        return text;
    };
    let marks = match mark {
        b'*' | b'-' | b'.' => run_end(rest, 0, mark),
        b'0'..=b'9' => {
            let digits = run_end_digits(rest);
            if rest.get(digits) == Some(&b'.') {
                digits + 1
            } else {
                return text;
            }
        }
        _ => return text,
    };
    if rest.get(marks) != Some(&b' ') {
        return text;
    }
    let mut item = &rest[marks..];
    let body = trim_start(item);
    for box_ in [&b"[ ]"[..], b"[x]", b"[*]"] {
        if let Some(after) = body.strip_prefix(box_) {
            item = after;
        }
    }
    item
}

fn run_end_digits(text: &[u8]) -> usize {
    text.iter()
        .take(10)
        .take_while(|b| b.is_ascii_digit())
        .count()
}

/// Inline markup of a piece of text.
fn inline(text: &[u8], out: &mut Vec<u8>) {
    let mut ahead = Aheads {
        angles: Ahead::new(b">>"),
        open: Ahead::new(b"["),
        close: Ahead::new(b"]"),
        blank: Ahead::new(b" "),
    };
    let mut i = 0;
    while i < text.len() {
        let byte = text[i];
        match byte {
            b'\\' if text.get(i + 1).is_some_and(u8::is_ascii_punctuation) => {
                out.push(text[i + 1]);
                i += 2;
            }
            b'<' if text.get(i + 1) == Some(&b'<') => match cross_reference(text, i, &mut ahead) {
                Some((shown, end)) => {
                    out.extend_from_slice(shown);
                    i = end;
                }
                None => {
                    out.extend_from_slice(b"<<");
                    i += 2;
                }
            },
            b'{' => match attribute_reference(text, i) {
                // Its value is not known here (`{nbsp}`, `{product}`):
                // a space keeps the words around it apart.
                Some(end) => {
                    out.push(b' ');
                    i = end;
                }
                None => {
                    out.push(b'{');
                    i += 1;
                }
            },
            b'[' => match role_before_mark(text, i) {
                Some(end) => i = end,
                None => {
                    out.push(b'[');
                    i += 1;
                }
            },
            b'*' | b'_' | b'`' | b'#' | b'^' | b'~' | b'+' => i = emphasis(text, i, out),
            _ if is_word(byte) && (i == 0 || !is_word(text[i - 1])) => {
                match inline_macro(text, i, &mut ahead) {
                    Some((shown, end)) => {
                        inline(shown, out);
                        i = end;
                    }
                    None => {
                        out.push(byte);
                        i += 1;
                    }
                }
            }
            _ => {
                out.push(byte);
                i += 1;
            }
        }
    }
}

/// Where the next of each pattern is, for one line.
struct Aheads {
    angles: Ahead,
    open: Ahead,
    close: Ahead,
    blank: Ahead,
}

/// `<<id>>` (dropped) or `<<id,text>>` (the text) at `i`.
fn cross_reference<'t>(text: &'t [u8], i: usize, ahead: &mut Aheads) -> Option<(&'t [u8], usize)> {
    let inside_start = i + 2;
    let close = ahead.angles.next(text, inside_start)?;
    let inside = &text[inside_start..close];
    let shown = match memchr::memchr(b',', inside) {
        Some(comma) => trim_start(&inside[comma + 1..]),
        None => &[],
    };
    Some((shown, close + 2))
}

/// `{name}` at `i`: where it ends.
fn attribute_reference(text: &[u8], i: usize) -> Option<usize> {
    let length = text[i + 1..]
        .iter()
        .take(64)
        .take_while(|&&b| is_word(b) || b == b'-' || b == b'_')
        .count();
    (length > 0 && text.get(i + 1 + length) == Some(&b'}')).then_some(i + length + 2)
}

/// `[.role]` or `[#id]` directly before a formatting mark: where it ends.
fn role_before_mark(text: &[u8], i: usize) -> Option<usize> {
    let close = i + 1 + text[i + 1..].iter().take(64).position(|&b| b == b']')?;
    matches!(text.get(close + 1), Some(b'#' | b'*' | b'_' | b'`')).then_some(close + 1)
}

/// A macro at `i`: `link:target[text]`, `https://target[text]`,
/// `image:target[alt]` (dropped), `kbd:[keys]`... : the text shown and
/// where it ends. A bare URL is text.
fn inline_macro<'t>(text: &'t [u8], i: usize, ahead: &mut Aheads) -> Option<(&'t [u8], usize)> {
    let name_length = text[i..]
        .iter()
        .take(16)
        .take_while(|b| b.is_ascii_alphanumeric())
        .count();
    if text.get(i + name_length) != Some(&b':') || name_length == 0 {
        return None;
    }
    let name = &text[i..i + name_length];
    let target_start = i + name_length + 1;
    // The target runs to the `[` (no blank in it).
    let open = ahead.open.next(text, target_start)?;
    if ahead
        .blank
        .next(text, target_start)
        .is_some_and(|blank| blank < open)
    {
        return None;
    }
    let close = ahead.close.next(text, open + 1)?;
    let shown = &text[open + 1..close];
    let shown = match name {
        b"image" | b"footnoteref" | b"anchor" | b"indexterm" => &[][..],
        _ if shown.contains(&b'=') => &shown[..memchr::memchr(b',', shown).unwrap_or(0)],
        _ => shown,
    };
    Some((shown, close + 1))
}

#[cfg(test)]
mod tests {
    use super::super::{Format, prose_of, view_words};

    fn words(adoc: &str) -> Vec<String> {
        view_words(Format::AsciiDoc, adoc)
    }

    #[test]
    fn markup_goes_and_text_stays() {
        let doc = "= The Title\n:toc: left\n:author: Someone\n\n// a comment\n\
                   == A *bold* section\n\nSee https://x.org[the site], link:a.html[this page] \
                   and <<intro,the intro>>{nbsp}too.\n\n[source,python]\n.Example\n----\n\
                   print(\"*x*\")\n----\n////\nhidden\n////\nimage::pic.png[A picture]\n\
                   * item _one_\n. step `two`\n";
        assert_eq!(
            words(doc),
            [
                "The",
                "Title",
                "A",
                "bold",
                "section",
                "See",
                "the",
                "site,",
                "this",
                "page",
                "and",
                "the",
                "intro",
                "too.",
                "Example",
                "print(\"*x*\")",
                "item",
                "one",
                "step",
                "two"
            ]
        );
    }

    #[test]
    fn lines_and_lengths_are_kept() {
        let doc = ":a: b\n== Head\n----\ncode\n----\ntext\n";
        let out = prose_of(Format::AsciiDoc, doc.as_bytes());
        assert_eq!(out.len(), doc.len());
        let out = String::from_utf8(out).unwrap();
        assert_eq!(
            out.lines().map(str::trim).collect::<Vec<_>>(),
            ["", "Head", "", "code", "", "text"]
        );
    }
}
