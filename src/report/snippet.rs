//! Short, escaped snippets of record texts for the table.
//!
//! A snippet is the start of a text between double quotes, escaped so it
//! stays on one line and shows what is there: `\n`, `\r`, `\t`, `\\` and
//! `\"`; other control characters, bidi controls, zero-width and other
//! invisible format characters as `\u{..}`; bytes that are not UTF-8 as
//! `\xNN`. It is cut at a number of characters (never inside an escape)
//! and then ends with `…`, as it does when the text kept was already cut.

use std::borrow::Cow;

/// Characters of a snippet when the table is not written to a terminal:
/// fixed, so the output is the same wherever it runs.
pub const DEFAULT_CHARS: usize = 60;

/// The fewest and most characters a snippet fitted to a terminal gets.
pub const MIN_CHARS: usize = 12;
/// See [`MIN_CHARS`].
pub const MAX_CHARS: usize = 200;

/// Bytes of each record kept for its snippet: enough for [`MAX_CHARS`]
/// characters of four bytes each.
pub const KEPT_BYTES: usize = MAX_CHARS * 4;

/// Bytes kept when the table is not written to a terminal: enough for
/// [`DEFAULT_CHARS`] (a character shows as at least one, so the snippet
/// is the same as with more kept, at less than a third of the copying).
pub const PIPED_KEPT_BYTES: usize = DEFAULT_CHARS * 4;

/// The snippet of `text`, at most `chars` characters between the quotes
/// (the ellipsis included); `cut` says the text is only the start of the
/// record.
pub fn snippet(text: &[u8], cut: bool, chars: usize) -> String {
    let chars = chars.max(1);
    let mut shown = Shown {
        out: String::with_capacity(chars.min(text.len()) + 8),
        used: 0,
        chars,
        before_ellipsis: 1,
    };
    shown.out.push('"');
    // At most `chars + 1` pieces are looked at, each at most 4 bytes and
    // at least one column: the rest is never shown or decoded.
    let text = &text[..text.len().min(chars.saturating_add(1).saturating_mul(4))];
    let mut chunks = text.utf8_chunks().peekable();
    let mut whole = true;
    'text: while let Some(chunk) = chunks.next() {
        let mut valid = chunk.valid();
        while !valid.is_empty() {
            // Runs of characters shown as they are go in whole: most
            // texts are mostly such runs.
            let run = valid.bytes().take_while(|&byte| shown_as_is(byte)).count();
            if !shown.push_plain(&valid[..run]) {
                whole = false;
                break 'text;
            }
            let Some(c) = valid[run..].chars().next() else {
                break;
            };
            valid = &valid[run + c.len_utf8()..];
            let fits = match escape(c) {
                Some(escaped) => shown.push(&escaped, escaped.len()),
                None => shown.push(c.encode_utf8(&mut [0; 4]), 1),
            };
            if !fits {
                whole = false;
                break 'text;
            }
        }
        // A cut text may end inside a character: that is not the record's
        // fault, so it is not shown as bytes.
        if cut && chunks.peek().is_none() {
            break;
        }
        for byte in chunk.invalid() {
            if !shown.push(&format!("\\x{byte:02x}"), 4) {
                whole = false;
                break 'text;
            }
        }
    }
    let mut out = shown.out;
    if !whole || cut {
        out.truncate(shown.before_ellipsis);
        out.push('…');
    }
    out.push('"');
    out
}

/// Printable ASCII other than the two characters escaped.
fn shown_as_is(byte: u8) -> bool {
    matches!(byte, b' '..=b'~') && byte != b'"' && byte != b'\\'
}

/// A snippet being built: the opening quote and what fits in `chars`, and
/// how much of it fits with an ellipsis after it.
struct Shown {
    out: String,
    used: usize,
    chars: usize,
    /// The length of `out` while it leaves a column for the ellipsis.
    before_ellipsis: usize,
}

impl Shown {
    /// Appends a piece `width` characters wide if it fits whole; an escape
    /// is never cut.
    fn push(&mut self, piece: &str, width: usize) -> bool {
        if self.used + width > self.chars {
            return false;
        }
        self.out.push_str(piece);
        self.used += width;
        if self.used < self.chars {
            self.before_ellipsis = self.out.len();
        }
        true
    }

    /// Appends as much of `run`, one-byte characters, as fits; whether all
    /// of it did.
    fn push_plain(&mut self, run: &str) -> bool {
        let take = run.len().min(self.chars - self.used);
        if take == 0 {
            return run.is_empty();
        }
        self.out.push_str(&run[..take]);
        self.used += take;
        // The last length that left a column free: now, or one character
        // back.
        self.before_ellipsis = if self.used < self.chars {
            self.out.len()
        } else {
            self.out.len() - 1
        };
        take == run.len()
    }
}

/// A character's escape, if the snippet does not show it as it is.
fn escape(c: char) -> Option<Cow<'static, str>> {
    let escaped = match c {
        '\n' => "\\n".into(),
        '\r' => "\\r".into(),
        '\t' => "\\t".into(),
        '\\' => "\\\\".into(),
        '"' => "\\\"".into(),
        c if invisible(c) => c.escape_unicode().to_string().into(),
        _ => return None,
    };
    Some(escaped)
}

/// Control characters, and format characters that move or hide text:
/// bidi controls, zero-width characters, line and paragraph separators,
/// the soft hyphen and the byte-order mark.
pub(crate) fn invisible(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{00AD}'
                | '\u{061C}'
                | '\u{180E}'
                | '\u{200B}'..='\u{200F}'
                | '\u{2028}'..='\u{202E}'
                | '\u{2060}'..='\u{2069}'
                | '\u{FEFF}'
                | '\u{FFF9}'..='\u{FFFB}'
        )
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn short_texts_are_quoted_whole() {
        assert_eq!(snippet(b"12 Main St", false, 40), "\"12 Main St\"");
        assert_eq!(snippet(b"", false, 40), "\"\"");
    }

    #[test]
    fn control_and_invisible_characters_are_escaped() {
        assert_eq!(
            snippet(b"a\nb\r\tc\\d\"e\x1b[31m", false, 40),
            "\"a\\nb\\r\\tc\\\\d\\\"e\\u{1b}[31m\""
        );
        assert_eq!(
            snippet("x\u{202E}y\u{200B}z\u{FEFF}é".as_bytes(), false, 40),
            "\"x\\u{202e}y\\u{200b}z\\u{feff}é\""
        );
    }

    #[test]
    fn bytes_that_are_not_utf8_are_shown_as_bytes() {
        assert_eq!(
            snippet(b"caf\xe9 ok \xff", false, 40),
            "\"caf\\xe9 ok \\xff\""
        );
    }

    #[test]
    fn long_texts_end_with_an_ellipsis_within_the_width() {
        let text = "word ".repeat(30);
        let shown = snippet(text.as_bytes(), false, 12);
        assert_eq!(shown, "\"word word w…\"");
        assert_eq!(shown.chars().count(), 12 + 2);
        // Exactly the width: whole; one more, and the last column goes to
        // the ellipsis.
        assert_eq!(snippet(b"abcdef", false, 6), "\"abcdef\"");
        assert_eq!(snippet(b"abcdefg", false, 6), "\"abcde…\"");
    }

    #[test]
    fn an_escape_is_never_cut_in_half() {
        let shown = snippet(b"abc\x01def", false, 6);
        assert_eq!(shown, "\"abc…\"");
        assert!(snippet(b"\n\n\n\n", false, 5).ends_with("\\n\\n…\""));
    }

    #[test]
    fn a_text_kept_cut_says_so_and_hides_its_broken_last_character() {
        // "é" is two bytes; the kept start ends inside it.
        assert_eq!(snippet(b"caf\xc3", true, 40), "\"caf…\"");
        assert_eq!(snippet(b"whole", true, 40), "\"whole…\"");
    }

    /// The snippet made one character at a time, as the definition
    /// reads: the reference for the runs taken whole.
    fn one_character_at_a_time(text: &[u8], cut: bool, chars: usize) -> String {
        let chars = chars.max(1);
        let (mut out, mut used, mut before_ellipsis) = (String::new(), 0, 0);
        let mut push = |out: &mut String, piece: &str| {
            let width = piece.chars().count();
            if used + width > chars {
                return false;
            }
            out.push_str(piece);
            used += width;
            if used < chars {
                before_ellipsis = out.len();
            }
            true
        };
        let mut chunks = text.utf8_chunks().peekable();
        let mut whole = true;
        'text: while let Some(chunk) = chunks.next() {
            for c in chunk.valid().chars() {
                let piece = escape(c).unwrap_or_else(|| c.to_string().into());
                if !push(&mut out, &piece) {
                    whole = false;
                    break 'text;
                }
            }
            if cut && chunks.peek().is_none() {
                break;
            }
            for byte in chunk.invalid() {
                if !push(&mut out, &format!("\\x{byte:02x}")) {
                    whole = false;
                    break 'text;
                }
            }
        }
        if !whole || cut {
            out.truncate(before_ellipsis);
            out.push('…');
        }
        format!("\"{out}\"")
    }

    proptest! {
        #[test]
        fn runs_taken_whole_give_the_snippet_of_one_character_at_a_time(
            pieces in proptest::collection::vec(
                prop_oneof![
                    "[ -~]{0,12}",
                    Just("\n".to_string()),
                    Just("\\".to_string()),
                    Just("\"".to_string()),
                    Just("\u{1b}".to_string()),
                    Just("é".to_string()),
                    Just("\u{202E}".to_string()),
                    Just("漢".to_string()),
                    Just("😀".to_string()),
                ]
                .prop_map(String::into_bytes)
                .boxed()
                .prop_union(proptest::collection::vec(128u8.., 1..3).boxed()),
                0..12,
            ),
            cut: bool,
            chars in 0usize..40,
        ) {
            let text = pieces.concat();
            prop_assert_eq!(
                snippet(&text, cut, chars),
                one_character_at_a_time(&text, cut, chars)
            );
        }
    }

    #[test]
    fn widths_are_counted_in_characters() {
        let shown = snippet("ééééééééé".as_bytes(), false, 5);
        assert_eq!(shown, "\"éééé…\"");
        // Four bytes a character: one more than fits is still seen.
        assert_eq!(snippet("😀😀".as_bytes(), false, 1), "\"…\"");
        assert_eq!(snippet("😀😀😀".as_bytes(), false, 2), "\"😀…\"");
        assert_eq!(snippet("😀😀".as_bytes(), false, 2), "\"😀😀\"");
        // Any width is safe.
        assert_eq!(snippet(b"abc", false, usize::MAX), "\"abc\"");
    }
}
