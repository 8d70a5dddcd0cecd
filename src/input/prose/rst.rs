//! reStructuredText: the text a reader sees.
//!
//! Dropped: section adornments, comments, hyperlink targets (`__ url`
//! too), substitution definitions, directive markers with their options
//! (`.. code-block:: python`, `:linenos:`), the whole of directives that
//! show no text of their own (`image`, `raw`, `include`, `toctree`,
//! `index`, `module`...), role and reference syntax
//! (`` :ref:`Title <label>` `` keeps `Title`, `` `text <url>`_ `` keeps
//! `text`), footnote references, emphasis marks and escapes. Kept: the
//! text, directive bodies, literal blocks and code directives' bodies
//! (code is text too, and kept as it is), and directives' arguments,
//! which the page shows (`.. note:: Some text`, `.. py:function::
//! spam(eggs)`, `.. versionadded:: 2.0`), except those that name a
//! language, a file or a class. A directive is known by its name without
//! its domain (`py:function` is `function`), in any case.

use super::inline::{Ahead, emphasis, is_word, run_end};
use super::{trim_end, trim_start};

/// Directives whose argument is not text: a language, a path, a class.
const NO_TEXT_ARGUMENT: &[&str] = &[
    "code",
    "code-block",
    "sourcecode",
    "figure",
    "rst-class",
    "cssclass",
];

/// Directives that show no text of their own: the whole block goes.
const NOT_PROSE: &[&str] = &[
    "image",
    "include",
    "literalinclude",
    "raw",
    "toctree",
    "contents",
    "only",
    "ifconfig",
    "highlight",
    "sectnum",
    "section-numbering",
    "index",
    "tabularcolumns",
    "currentmodule",
    "module",
    "default-role",
    "role",
    "meta",
    "title",
    "header",
    "footer",
    "target-notes",
    "inheritance-diagram",
    "program",
    "default-domain",
    "sectionauthor",
    "moduleauthor",
    "codeauthor",
];

/// Directives whose body is code, kept as it is.
const CODE: &[&str] = &[
    "code",
    "code-block",
    "sourcecode",
    "doctest",
    "testcode",
    "testoutput",
];

/// What the scanner carries from line to line.
#[derive(Debug, Default)]
pub(super) struct State {
    /// Lines indented more than this are dropped (a comment's or a
    /// target's continuation, a non-prose directive's body).
    skip_deeper: Option<usize>,
    /// Field lines indented more than this are a directive's options.
    options_deeper: Option<usize>,
    /// Lines indented more than this are code, kept as they are (a literal
    /// block after `::`, a code directive's body): no markup in them.
    verbatim_deeper: Option<usize>,
}

impl State {
    /// Writes the text of one line; `start` is false for a later piece of
    /// a cut line.
    pub(super) fn line(&mut self, line: &[u8], start: bool, out: &mut Vec<u8>) {
        if !start {
            return inline(line, out);
        }
        let indent = line
            .iter()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count();
        let body = &line[indent..];
        let blank = trim_end(body).is_empty();
        if let Some(level) = self.skip_deeper {
            if blank || indent > level {
                return;
            }
            self.skip_deeper = None;
        }
        if let Some(level) = self.options_deeper {
            if indent > level && body.first() == Some(&b':') && field_end(body).is_some() {
                return;
            }
            self.options_deeper = None;
        }
        if let Some(level) = self.verbatim_deeper {
            if blank || indent > level {
                return out.extend_from_slice(line);
            }
            self.verbatim_deeper = None;
        }
        if blank || is_adornment(trim_end(body)) {
            return;
        }
        out.extend_from_slice(&line[..indent]);
        if let Some(rest) = body.strip_prefix(b"..")
            && (rest.is_empty() || rest[0] == b' ')
        {
            return self.explicit(rest, indent, out);
        }
        if body.starts_with(b"__ ") {
            // An anonymous target in its short form (`__ url`), as
            // `.. __: url`.
            self.skip_deeper = Some(indent);
            return;
        }
        if trim_end(body).ends_with(b"::") {
            // A literal block follows.
            self.verbatim_deeper = Some(indent);
        }
        inline(body, out)
    }

    /// An explicit markup block (after its `..`).
    fn explicit(&mut self, rest: &[u8], indent: usize, out: &mut Vec<u8>) {
        let rest = trim_start(rest);
        // A footnote or citation: its text stays.
        if rest.first() == Some(&b'[')
            && let Some(close) = memchr::memchr(b']', rest)
        {
            return inline(&rest[close + 1..], out);
        }
        if let Some(at) = memchr::memmem::find(rest, b"::")
            && !rest.starts_with(b"_")
        {
            let name = &rest[..at];
            let name = match name.strip_prefix(b"|") {
                // A substitution definition: `|name| directive::`.
                Some(sub) => match memchr::memchr(b'|', sub) {
                    Some(bar) => trim_start(&sub[bar + 1..]),
                    None => name,
                },
                None => name,
            };
            if name.iter().all(|&b| is_word(b) || b == b'-' || b == b':') && !name.is_empty() {
                // Without its domain: `py:function` is `function`.
                let bare = match memchr::memrchr(b':', name) {
                    Some(colon) => &name[colon + 1..],
                    None => name,
                };
                let known =
                    |list: &[&str]| list.iter().any(|d| d.as_bytes().eq_ignore_ascii_case(bare));
                if known(NOT_PROSE) {
                    self.skip_deeper = Some(indent);
                    return;
                }
                self.options_deeper = Some(indent);
                if known(CODE) {
                    self.verbatim_deeper = Some(indent);
                }
                if !known(NO_TEXT_ARGUMENT) {
                    inline(&rest[at + 2..], out);
                }
                return;
            }
        }
        // A comment or a hyperlink target, with its continuation lines.
        self.skip_deeper = Some(indent);
    }
}

/// Inline markup of a piece of text.
fn inline(text: &[u8], out: &mut Vec<u8>) {
    let mut closing = [Ahead::new(b"`"), Ahead::new(b"``")];
    let mut i = 0;
    while i < text.len() {
        let byte = text[i];
        match byte {
            b'\\' => {
                if let Some(&next) = text.get(i + 1) {
                    out.push(next);
                }
                i += 2;
            }
            b':' => match role(text, i) {
                // `:role:` before a backquote: the role name goes.
                Some(end) => i = end,
                None => {
                    out.push(b':');
                    i += 1;
                }
            },
            b'`' => i = interpreted(text, i, &mut closing, out),
            b'[' => match footnote_reference(text, i) {
                Some(end) => i = end,
                None => {
                    out.push(b'[');
                    i += 1;
                }
            },
            b'*' => i = emphasis(text, i, out),
            b'_' => {
                // `word_` and `word__` are references: the underscores go.
                let end = run_end(text, i, b'_');
                let reference = i > 0
                    && is_word(text[i - 1])
                    && end - i <= 2
                    && !text.get(end).is_some_and(|&b| is_word(b));
                if !reference {
                    out.extend_from_slice(&text[i..end]);
                }
                i = end;
            }
            _ => {
                out.push(byte);
                i += 1;
            }
        }
    }
}

/// `:name:` at `i` directly followed by a backquote: where the role name
/// ends.
fn role(text: &[u8], i: usize) -> Option<usize> {
    let name_end = i
        + 1
        + text[i + 1..]
            .iter()
            .take(64)
            .take_while(|&&b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b':'))
            .count();
    // The name ran into the next colon: back up to it.
    let close = text[..name_end].iter().rposition(|&b| b == b':')?;
    (close > i && text.get(close + 1) == Some(&b'`')).then_some(close + 1)
}

/// Interpreted text, a literal or a reference at `i` (a backquote): its
/// text, without `<target>`s, backquotes or the reference's underscores.
fn interpreted(text: &[u8], i: usize, closing: &mut [Ahead; 2], out: &mut Vec<u8>) -> usize {
    let quotes = run_end(text, i, b'`') - i;
    let start = i + quotes;
    let (closing, length) = if quotes >= 2 {
        (&mut closing[1], 2)
    } else {
        (&mut closing[0], 1)
    };
    let Some(at) = closing.next(text, start) else {
        out.extend_from_slice(&text[i..start]);
        return start;
    };
    let inside = &text[start..at];
    let mut end = at + length;
    if quotes >= 2 {
        // A literal: as it is.
        out.extend_from_slice(inside);
        return end;
    }
    end += text[end..]
        .iter()
        .take(2)
        .take_while(|&&b| b == b'_')
        .count();
    // `text <target>`: the target goes.
    let shown = match (memchr::memrchr(b'<', inside), inside.last()) {
        (Some(open), Some(b'>')) => trim_end(&inside[..open]),
        _ => inside,
    };
    out.extend_from_slice(shown);
    end
}

/// A footnote or citation reference, `[1]_`, `[#note]_`, `[CIT2002]_`.
fn footnote_reference(text: &[u8], i: usize) -> Option<usize> {
    let close = i + 1 + text[i + 1..].iter().take(64).position(|&b| b == b']')?;
    (text.get(close + 1) == Some(&b'_')).then_some(close + 2)
}

/// A field marker `:name:` at the start of `text`: where it ends.
fn field_end(text: &[u8]) -> Option<usize> {
    let close = 1 + memchr::memchr(b':', &text[1..])?;
    (close > 1).then_some(close + 1)
}

/// A section adornment or transition: one punctuation character repeated
/// (at least twice), nothing else.
fn is_adornment(text: &[u8]) -> bool {
    let Some(&first) = text.first() else {
        return false;
    };
    text.len() >= 2 && first.is_ascii_punctuation() && text.iter().all(|&b| b == first)
}

#[cfg(test)]
mod tests {
    use super::super::{Format, prose_of, view_words};

    fn words(rst: &str) -> Vec<String> {
        view_words(Format::Rst, rst)
    }

    #[test]
    fn markup_goes_and_text_stays() {
        let doc = "=====\nTitle\n=====\n\n.. comment that\n   goes on\n\n\
                   Some *emphasis*, a `link <https://x.org>`_, :ref:`Guide <guide>` and\n\
                   ``code``, a_reference_ and a note [1]_.\n\n\
                   .. _guide: https://example.com\n\n\
                   .. note:: Read this.\n\n\
                   .. image:: picture.png\n   :alt: picture\n\n\
                   .. code-block:: python\n   :linenos:\n\n   print(1)\n\n\
                   .. [1] The footnote.\n";
        assert_eq!(
            words(doc),
            [
                "Title",
                "Some",
                "emphasis,",
                "a",
                "link,",
                "Guide",
                "and",
                "code,",
                "a_reference",
                "and",
                "a",
                "note",
                ".",
                "Read",
                "this.",
                "print(1)",
                "The",
                "footnote."
            ]
        );
    }

    #[test]
    fn directive_arguments_stay_unless_they_name_code_a_file_or_a_class() {
        let doc = ".. py:function:: spam(eggs)\n\n   Spams.\n\n\
                   .. versionadded:: 2.0\n\n\
                   .. Note:: Mind it.\n\n\
                   .. autoclass:: pkg.Thing\n   :members:\n\n\
                   .. Index:: single: hidden\n\n\
                   .. py:module:: hidden.too\n   :synopsis: hidden\n\n\
                   .. code-block:: python\n\n   x = 1\n\n\
                   .. figure:: picture.png\n\n   The caption.\n\n\
                   .. rst-class:: wide\n\n\
                   End.\n";
        assert_eq!(
            words(doc),
            [
                "spam(eggs)",
                "Spams.",
                "2.0",
                "Mind",
                "it.",
                "pkg.Thing",
                "x",
                "=",
                "1",
                "The",
                "caption.",
                "End."
            ]
        );
    }

    #[test]
    fn literal_blocks_and_code_bodies_are_kept_as_they_are() {
        let doc = "Set the font::\n\n    \\renewcommand\\ttdefault{txtt}\n    .. raw:: latex\n\n\
                   \x20      *kept*\n\n\
                   .. code-block:: latex\n   :linenos:\n\n   \\renewcommand\\ttdefault{txtt}\n\
                   \x20  .. raw:: latex\n\n      \\usepackage{x}\n\n\
                   After *the* code_.\n";
        assert_eq!(
            words(doc),
            [
                "Set",
                "the",
                "font::",
                "\\renewcommand\\ttdefault{txtt}",
                "..",
                "raw::",
                "latex",
                "*kept*",
                "\\renewcommand\\ttdefault{txtt}",
                "..",
                "raw::",
                "latex",
                "\\usepackage{x}",
                "After",
                "the",
                "code."
            ]
        );
    }

    #[test]
    fn anonymous_targets_go_in_either_form() {
        let doc = "See `the page`__ and `that one`__.\n\n__ https://example.org/page\n\
                   \x20  /continued\n\n.. __: https://example.org/other\n\nEnd, not __ a target.\n";
        assert_eq!(
            words(doc),
            [
                "See", "the", "page", "and", "that", "one.", "End,", "not", "__", "a", "target."
            ]
        );
    }

    #[test]
    fn lines_and_lengths_are_kept() {
        let doc = "Head\n====\n\n.. note::\n   :class: x\n\n   Body `here <u>`_.\n";
        let out = prose_of(Format::Rst, doc.as_bytes());
        assert_eq!(out.len(), doc.len());
        let out = String::from_utf8(out).unwrap();
        assert_eq!(
            out.lines().map(str::trim).collect::<Vec<_>>(),
            ["Head", "", "", "", "", "", "Body here."]
        );
    }
}
