//! Markdown (CommonMark and GitHub's extensions): the text a reader sees.
//!
//! Dropped: front matter (YAML `---` or TOML `+++` at the top), fence
//! lines with their info string, heading `#`s, block quote and list
//! markers, task boxes, thematic breaks and setext underlines, link
//! reference definitions, link targets (`[text](url)` keeps `text`),
//! images, autolinks, HTML tags (a known one also over several lines) and
//! comments, emphasis marks and backslashes of escapes. Kept: the text,
//! brackets that have no target (`out[0]`), code spans and the contents
//! of code blocks (code is text too).
//! Character references are decoded.

use super::html;
use super::inline::{Ahead, emphasis, reference, run_end};
use super::trim_end;

/// What the scanner carries from line to line.
#[derive(Debug, Default)]
pub(super) struct State {
    /// Lines seen.
    lines: u64,
    /// Inside front matter opened by this marker (`-` or `+`).
    front: Option<u8>,
    /// Inside a fenced code block: its mark, its length and the blanks
    /// before it.
    fence: Option<(u8, usize, usize)>,
    /// Inside an HTML comment.
    comment: bool,
    /// Inside an HTML tag that goes on past its line (`<img src="..."`
    /// then `width="200">`), until its `>` or a blank line.
    tag: bool,
}

impl State {
    /// Writes the text of one line; `start` is false for a later piece of
    /// a cut line (it is not a line start).
    pub(super) fn line(&mut self, line: &[u8], start: bool, out: &mut Vec<u8>) {
        self.lines += 1;
        if !start {
            return self.inline(line, out);
        }
        let trimmed = trim_end(line);
        if let Some(marker) = self.front {
            let closes = trimmed.len() == 3
                && (trimmed.iter().all(|&b| b == marker) || (marker == b'-' && trimmed == b"..."));
            if closes {
                self.front = None;
            }
            return;
        }
        if self.lines == 1 && (trimmed == b"---" || trimmed == b"+++") {
            self.front = Some(trimmed[0]);
            return;
        }
        if let Some((mark, length, opened)) = self.fence {
            // Up to three blanks more than the opening fence, as a fence in
            // a list item is indented like the item's text.
            let indent = indent(line).min(opened + 3);
            let rest = trim_end(&line[indent..]);
            if rest.len() >= length && rest.iter().all(|&b| b == mark) {
                self.fence = None;
            } else {
                out.extend_from_slice(line);
            }
            return;
        }
        let mut i = 0;
        if self.comment {
            match memchr::memmem::find(line, b"-->") {
                Some(at) => {
                    self.comment = false;
                    i = at + 3;
                }
                None => return,
            }
        }
        if self.tag {
            match memchr::memchr(b'>', line) {
                _ if trim_end(line).is_empty() => {
                    self.tag = false;
                    return;
                }
                Some(at) => {
                    self.tag = false;
                    out.push(b' ');
                    i = at + 1;
                }
                None => return,
            }
        }
        let body = self.block_prefix(line, i, out);
        let rest = &line[body..];
        let rest_trimmed = trim_end(rest);
        if let Some((mark, length)) = opening_fence(rest_trimmed) {
            self.fence = Some((mark, length, indent(line)));
            return;
        }
        if is_rule(rest_trimmed) || is_definition(rest_trimmed) {
            return;
        }
        self.heading_and_inline(rest_trimmed, out);
    }

    /// Copies leading blanks, drops block quote, list and task markers;
    /// returns where the line's own text starts.
    fn block_prefix(&self, line: &[u8], mut i: usize, out: &mut Vec<u8>) -> usize {
        loop {
            while i < line.len() && (line[i] == b' ' || line[i] == b'\t') {
                out.push(line[i]);
                i += 1;
            }
            let rest = &line[i..];
            let marker = match rest.first() {
                Some(b'>') => 1,
                Some(b'-' | b'*' | b'+') if followed_by_blank(rest, 1) && !is_rule(rest) => 1,
                Some(b) if b.is_ascii_digit() => {
                    let digits = rest
                        .iter()
                        .take(10)
                        .take_while(|b| b.is_ascii_digit())
                        .count();
                    match rest.get(digits) {
                        Some(b'.' | b')') if digits <= 9 && followed_by_blank(rest, digits + 1) => {
                            digits + 1
                        }
                        _ => return i,
                    }
                }
                Some(b'[') if rest.len() >= 3 && matches!(&rest[..3], b"[ ]" | b"[x]" | b"[X]") => {
                    3
                }
                _ => return i,
            };
            i += marker;
        }
    }

    /// A line's text: an ATX heading's `#`s dropped, then its inlines.
    fn heading_and_inline(&mut self, text: &[u8], out: &mut Vec<u8>) {
        let hashes = text.iter().take(7).take_while(|&&b| b == b'#').count();
        if (1..=6).contains(&hashes) && followed_by_blank(text, hashes) {
            let mut body = &text[hashes..];
            // A closing sequence of #s after a blank goes too.
            let trimmed = trim_end(body);
            let closing = trimmed.iter().rev().take_while(|&&b| b == b'#').count();
            let before = trimmed.len() - closing;
            if closing > 0 && (before == 0 || matches!(trimmed[before - 1], b' ' | b'\t')) {
                body = &trimmed[..before];
            }
            return self.inline(body, out);
        }
        self.inline(text, out)
    }

    /// Inline markup of a piece of text.
    fn inline(&mut self, text: &[u8], out: &mut Vec<u8>) {
        let mut closing_bracket = Ahead::new(b"]");
        let mut closing_paren = Ahead::new(b")");
        let mut closing_angle = Ahead::new(b">");
        let mut failed_runs: Vec<usize> = Vec::new();
        let mut i = 0;
        while i < text.len() {
            let byte = text[i];
            match byte {
                b'\\' if text.get(i + 1).is_some_and(u8::is_ascii_punctuation) => {
                    out.push(text[i + 1]);
                    i += 2;
                }
                b'`' => i = copy_code_span(text, i, &mut failed_runs, out),
                b'!' if text.get(i + 1) == Some(&b'[') => {
                    match link(text, i + 2, &mut closing_bracket, &mut closing_paren) {
                        // An image: its alt text and target both go.
                        Some((_, end)) => i = end,
                        None => {
                            out.push(b'!');
                            i += 1;
                        }
                    }
                }
                b'[' if text[skip_blanks(text, i + 1)..].starts_with(b"![") => {
                    // A linked image (a badge), blanks around it or not: all
                    // of it goes.
                    let bang = skip_blanks(text, i + 1);
                    let image = link(text, bang + 2, &mut closing_bracket, &mut closing_paren);
                    match image.map(|(_, end)| skip_blanks(text, end)) {
                        Some(close) if text.get(close) == Some(&b']') => {
                            i = after_label(text, close, &mut closing_bracket, &mut closing_paren);
                        }
                        _ => {
                            out.push(b'[');
                            i += 1;
                        }
                    }
                }
                b'[' => {
                    // A `]` in a code span that opens the link's text does
                    // not close it (`` [`Rc<[u8]>`](url) ``).
                    let from = match text.get(i + 1) {
                        Some(b'`') => {
                            code_span(text, i + 1, &mut failed_runs).map_or(i + 1, |(_, end)| end)
                        }
                        _ => i + 1,
                    };
                    match link(text, from, &mut closing_bracket, &mut closing_paren) {
                        // Without a target (`out[0]`, or a reference
                        // defined elsewhere) the brackets are text: they
                        // part words.
                        Some((label_end, end)) if end > label_end + 1 => {
                            // The text of a link, without nested links.
                            self.inline_text(&text[i + 1..label_end], out);
                            i = end;
                        }
                        _ => {
                            out.push(b'[');
                            i += 1;
                        }
                    }
                }
                b'<' => i = self.angle(text, i, &mut closing_angle, true, out),
                b'&' => i = reference(text, i, out),
                b'*' | b'_' | b'~' => i = emphasis(text, i, out),
                _ => {
                    out.push(byte);
                    i += 1;
                }
            }
        }
    }

    /// A link's text: emphasis, code spans (as they are), references and
    /// tags, but brackets as they are (no recursion, so no depth to bound).
    fn inline_text(&mut self, text: &[u8], out: &mut Vec<u8>) {
        let mut closing_angle = Ahead::new(b">");
        let mut failed_runs: Vec<usize> = Vec::new();
        let mut i = 0;
        while i < text.len() {
            let byte = text[i];
            match byte {
                b'`' => i = copy_code_span(text, i, &mut failed_runs, out),
                b'<' => i = self.angle(text, i, &mut closing_angle, false, out),
                b'&' => i = reference(text, i, out),
                b'*' | b'_' | b'~' => i = emphasis(text, i, out),
                b'\\' if text.get(i + 1).is_some_and(u8::is_ascii_punctuation) => {
                    out.push(text[i + 1]);
                    i += 2;
                }
                _ => {
                    out.push(byte);
                    i += 1;
                }
            }
        }
    }

    /// `<` at `i`: an autolink, an HTML tag or comment (dropped) or text.
    /// A comment or tag left open goes on to the next lines only if
    /// `to_next_line` (a link's text ends on its own line).
    fn angle(
        &mut self,
        text: &[u8],
        i: usize,
        closing: &mut Ahead,
        to_next_line: bool,
        out: &mut Vec<u8>,
    ) -> usize {
        let rest = &text[i + 1..];
        if rest.starts_with(b"!--") {
            return match memchr::memmem::find(&rest[3..], b"-->") {
                Some(at) => i + 1 + 3 + at + 3,
                None if !to_next_line => {
                    out.push(b'<');
                    i + 1
                }
                None => {
                    self.comment = true;
                    text.len()
                }
            };
        }
        let tag = match rest.first() {
            Some(b'/') => rest.get(1).is_some_and(u8::is_ascii_alphabetic),
            Some(b) => b.is_ascii_alphabetic(),
            None => false,
        };
        let end = if tag { closing.next(text, i) } else { None };
        let name = |inside: &[u8]| -> Vec<u8> {
            inside
                .iter()
                .skip_while(|&&b| b == b'/')
                .take(16)
                .take_while(|b| b.is_ascii_alphanumeric())
                .map(u8::to_ascii_lowercase)
                .collect()
        };
        let Some(end) = end else {
            // A known tag that goes on past the line: the rest of the line
            // and the next lines up to its `>` are attributes. Any other
            // `<` is text ("a <b").
            if to_next_line && tag && html::is_known(&name(rest)) && !self.comment {
                self.tag = true;
                return text.len();
            }
            out.push(b'<');
            return i + 1;
        };
        let inside = &text[i + 1..end];
        let name = name(inside);
        let autolink = inside.contains(&b':') && !inside.contains(&b' ') || inside.contains(&b'@');
        if !autolink && html::separates(&name) {
            out.push(b' ');
        }
        end + 1
    }
}

/// A link or image whose `]` is looked for from `from` (after its `[`):
/// where its text ends (the `]`) and where the whole ends: after
/// `(target)`, `[label]`, or the `]` alone. `None` when the `]` is not on
/// the line.
fn link(
    text: &[u8],
    from: usize,
    closing_bracket: &mut Ahead,
    closing_paren: &mut Ahead,
) -> Option<(usize, usize)> {
    let close = closing_bracket.next(text, from)?;
    Some((
        close,
        after_label(text, close, closing_bracket, closing_paren),
    ))
}

/// Where a link ends whose label closes at `close`: after its
/// `(target)` or `[label]`, or after the `]` alone.
fn after_label(
    text: &[u8],
    close: usize,
    closing_bracket: &mut Ahead,
    closing_paren: &mut Ahead,
) -> usize {
    let end = match text.get(close + 1) {
        Some(b'(') => closing_paren.next(text, close + 2),
        Some(b'[') => closing_bracket.next(text, close + 2),
        _ => None,
    };
    end.unwrap_or(close) + 1
}

/// The code span whose backticks start at `i`: where its text ends (its
/// closing run) and where it ends; `None` when no run of the same length
/// closes it on the line. A length that found none never will further on:
/// `failed` keeps it, and it is not looked for again.
fn code_span(text: &[u8], i: usize, failed: &mut Vec<usize>) -> Option<(usize, usize)> {
    let length = run_end(text, i, b'`') - i;
    if failed.contains(&length) {
        return None;
    }
    let close = closing_run(text, i + length, length);
    if close.is_none() {
        failed.push(length);
    }
    close.map(|close| (close, close + length))
}

/// Copies the text of the code span at `i` as it is, or its backticks as
/// text when it is not closed; returns where the text goes on.
fn copy_code_span(text: &[u8], i: usize, failed: &mut Vec<usize>, out: &mut Vec<u8>) -> usize {
    let start = run_end(text, i, b'`');
    match code_span(text, i, failed) {
        Some((close, end)) => {
            out.extend_from_slice(&text[start..close]);
            end
        }
        None => {
            out.extend_from_slice(&text[i..start]);
            start
        }
    }
}

/// The start of the next run of exactly `length` backticks at or after
/// `from`, on this line.
fn closing_run(text: &[u8], from: usize, length: usize) -> Option<usize> {
    let mut i = from;
    while let Some(at) = memchr::memchr(b'`', &text[i..]) {
        let start = i + at;
        let end = run_end(text, start, b'`');
        if end - start == length {
            return Some(start);
        }
        i = end;
    }
    None
}

/// An opening code fence: its mark and length.
fn opening_fence(text: &[u8]) -> Option<(u8, usize)> {
    let mark = *text.first()?;
    if mark != b'`' && mark != b'~' {
        return None;
    }
    let length = run_end(text, 0, mark);
    // A backtick fence's info string has no backtick.
    let info_ok = mark == b'~' || !text[length..].contains(&b'`');
    (length >= 3 && info_ok).then_some((mark, length))
}

/// A thematic break or a setext underline: one of `-*_=` three or more
/// times (blanks between), nothing else.
fn is_rule(text: &[u8]) -> bool {
    let Some(&mark) = text.iter().find(|&&b| b != b' ' && b != b'\t') else {
        return false;
    };
    if !matches!(mark, b'-' | b'*' | b'_' | b'=') {
        return false;
    }
    let marks = text.iter().filter(|&&b| b == mark).count();
    let only = text.iter().all(|&b| b == mark || b == b' ' || b == b'\t');
    only && (marks >= 3 || mark == b'=' || (mark == b'-' && marks >= 2))
}

/// A link reference definition, `[label]: target "title"` (footnotes,
/// `[^1]: text`, are text).
fn is_definition(text: &[u8]) -> bool {
    if text.first() != Some(&b'[') || text.get(1) == Some(&b'^') {
        return false;
    }
    match memchr::memmem::find(text, b"]:") {
        Some(at) => !text[1..at].contains(&b'['),
        None => false,
    }
}

fn followed_by_blank(text: &[u8], at: usize) -> bool {
    matches!(text.get(at), None | Some(b' ' | b'\t'))
}

/// Where the blanks from `at` end.
fn skip_blanks(text: &[u8], at: usize) -> usize {
    at + indent(&text[at..])
}

fn indent(line: &[u8]) -> usize {
    line.iter()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count()
}

#[cfg(test)]
mod tests {
    use super::super::{Format, prose_of, view_words};

    fn text(markdown: &str) -> String {
        String::from_utf8(prose_of(Format::Markdown, markdown.as_bytes())).unwrap()
    }

    fn words(markdown: &str) -> Vec<String> {
        view_words(Format::Markdown, markdown)
    }

    #[test]
    fn markup_goes_and_text_stays() {
        let doc = "---\ntitle: Front\ntags: [a]\n---\n# The *title* #\n\n\
                   > A **bold** [link](https://example.com/x \"t\") and ![img](i.png)\n\
                   - [x] item_one `a*b*c` [![badge](b.svg)](https://ci)\n1. second <br> line<!-- hidden -->\n\n\
                   [ref]: https://example.com\n***\nSee [this][ref] &amp; <https://x.org>.\n";
        assert_eq!(
            words(doc),
            [
                "The", "title", "A", "bold", "link", "and", "item_one", "a*b*c", "second", "line",
                "See", "this", "&", "."
            ]
        );
    }

    #[test]
    fn a_tag_that_goes_on_past_its_line_is_dropped_to_its_end() {
        let doc = "<p align=\"center\">\n  <img src=\"logo.png\" alt=\"logo\"\n       width=\"200\">\n\
                   </p>\n\nText with a < b, 2<3 and <notatag d.\n<div\n\nafter a blank line\n";
        assert_eq!(
            words(doc),
            [
                "Text", "with", "a", "<", "b,", "2<3", "and", "<notatag", "d.", "after", "a",
                "blank", "line"
            ]
        );
    }

    #[test]
    fn code_blocks_are_kept_without_their_fences() {
        let doc = "Intro\n```python\nprint(\"*not emphasis*\")\n```\n~~~~\n[a](b)\n~~~~\nend\n";
        assert_eq!(
            text(doc).lines().map(str::trim_end).collect::<Vec<_>>(),
            [
                "Intro",
                "",
                "print(\"*not emphasis*\")",
                "",
                "",
                "[a](b)",
                "",
                "end"
            ]
        );
    }

    #[test]
    fn a_fence_indented_in_a_list_item_closes_at_the_same_indent() {
        let doc = "1. Push the tag:\n\n    ```sh\n    git push\n    ```\n\n\
                   See [the page](https://example.org/page.html).\n";
        assert_eq!(
            words(doc),
            ["Push", "the", "tag:", "git", "push", "See", "the", "page."]
        );
        // Four more blanks than the opening fence: a line of the code.
        let doc = "```\n    ```\nstill code [a](b)\n```\n";
        assert_eq!(words(doc), ["```", "still", "code", "[a](b)"]);
    }

    #[test]
    fn brackets_that_are_no_link_are_text() {
        assert_eq!(
            words("out[0] and -i[a|p], see [the guide] or [x][ref] [y][]."),
            [
                "out[0]", "and", "-i[a|p],", "see", "[the", "guide]", "or", "x", "y."
            ]
        );
    }

    #[test]
    fn tags_in_a_link_text_go() {
        assert_eq!(
            words("[<em>proc1</em>](https://x.org) [a<br>b](u) [<!-- c -->d](u) [<em](u)"),
            ["proc1", "a", "b", "d", "<em"]
        );
    }

    #[test]
    fn code_spans_in_a_link_text_are_kept_as_they_are() {
        assert_eq!(
            words(
                "[`Yoke<Y, C>`][Yoke], [`Rc<[u8]>`](alloc::rc::Rc), [`util._extend()`][x] [`x`]."
            ),
            ["Yoke<Y,", "C>,", "Rc<[u8]>,", "util._extend()", "[x]."]
        );
    }

    #[test]
    fn a_linked_image_with_blanks_in_its_brackets_goes() {
        assert_eq!(
            words("a [ ![alt](img.png) ](https://x.org/u) b [ ![alt](img.png)](u) c"),
            ["a", "b", "c"]
        );
    }

    #[test]
    fn lines_and_lengths_are_kept() {
        let doc = "# Head\r\n\r\nSome [text](http://a.b/c) here\r\n<!--\r\nx\r\n-->after\r\n";
        let out = text(doc);
        assert_eq!(out.len(), doc.len());
        assert_eq!(out.matches("\r\n").count(), doc.matches("\r\n").count());
        assert_eq!(
            out.lines().map(str::trim).collect::<Vec<_>>(),
            ["Head", "", "Some text here", "", "", "after"]
        );
    }

    #[test]
    fn a_markdown_file_and_its_plain_text_have_the_same_features() {
        use crate::fingerprint::{FeatureOptions, Fingerprinter, jaccard};
        let markdown = "# Repair café\n\nThe **repair café** meets on the [first Saturday]\
                        (https://example.org/dates) of each month at the *library*.\n\n\
                        - Bring a broken toaster\n- Bring a torn coat\n";
        let plain = "Repair café\n\nThe repair café meets on the first Saturday of each month \
                     at the library.\n\nBring a broken toaster\nBring a torn coat\n";
        let fingerprinter = Fingerprinter::new(FeatureOptions::default());
        let a = fingerprinter.feature_set_bytes(&prose_of(Format::Markdown, markdown.as_bytes()));
        let b = fingerprinter.feature_set_bytes(plain.as_bytes());
        assert_eq!(jaccard(&a, &b), 1.0);
        let raw = fingerprinter.feature_set_bytes(markdown.as_bytes());
        assert!(jaccard(&raw, &b) < 0.9);
    }
}
