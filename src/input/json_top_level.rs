//! The common JSON Lines record read in one pass: an object whose text
//! field (and id field, if asked) are top-level keys holding a string (an
//! id may also be a plain integer).
//!
//! The line is checked against the JSON grammar as it is read, and the
//! wanted strings are unescaped straight into the record's buffers: no
//! value is built for any other field, and nothing is allocated but the
//! text and the id. It stands aside (`None`) for anything else: a line
//! that is not valid UTF-8 or not valid JSON, a missing field or one of
//! another type, an escaped key, deep nesting, a lone surrogate, an id
//! number that is not a plain integer. The general reader
//! (`json_fields`) then decides, so every error message and every rarer
//! form has one implementation. What this accepts, the general reader
//! accepts with the same text and id (a property test holds them to it).

/// The text (unescaped, as bytes) and the id of a record.
pub(crate) type TextAndId = (Vec<u8>, Option<String>);

/// Nesting deeper than this stands aside (the general reader has a limit
/// of its own, with its own message).
const MAX_DEPTH: usize = 64;

/// Reads `line` when its text field `text_key` (and id field `id_key`)
/// are top-level keys of the usual types; `None` otherwise. When a key
/// comes twice, the last one counts.
pub(crate) fn read(line: &[u8], text_key: &str, id_key: Option<&str>) -> Option<TextAndId> {
    // Every string is then valid UTF-8, as the general reader requires.
    std::str::from_utf8(line).ok()?;
    let mut reader = Reader {
        bytes: line,
        at: 0,
        depth: 0,
    };
    reader.skip_whitespace();
    reader.expect(b'{')?;
    let mut text: Option<Vec<u8>> = None;
    let mut id: Option<String> = None;
    loop {
        reader.skip_whitespace();
        let key = reader.plain_key()?;
        reader.skip_whitespace();
        reader.expect(b':')?;
        reader.skip_whitespace();
        if key == text_key.as_bytes() {
            // Unescaping never lengthens, so the rest of the line bounds
            // the text: one allocation for most (reallocating cost 1%).
            let mut value = Vec::with_capacity((line.len() - reader.at).min(1 << 16));
            reader.string(Some(&mut value))?;
            text = Some(value);
        } else if id_key.is_some_and(|id_key| key == id_key.as_bytes()) {
            id = Some(reader.id()?);
        } else {
            reader.skip_value()?;
        }
        reader.skip_whitespace();
        match reader.next()? {
            b',' => continue,
            b'}' => break,
            _ => return None,
        }
    }
    reader.skip_whitespace();
    if reader.at != line.len() {
        return None;
    }
    let text = text?;
    match id_key {
        Some(_) => Some((text, Some(id?))),
        None => Some((text, None)),
    }
}

/// A position in a line being read.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    depth: usize,
}

impl<'a> Reader<'a> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let byte = self.peek()?;
        self.at += 1;
        Some(byte)
    }

    fn expect(&mut self, byte: u8) -> Option<()> {
        (self.next()? == byte).then_some(())
    }

    fn skip_whitespace(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.at += 1;
        }
    }

    /// A key without escapes, borrowed.
    fn plain_key(&mut self) -> Option<&'a [u8]> {
        self.expect(b'"')?;
        let start = self.at;
        let end = start + find_special(&self.bytes[start..])?;
        if self.bytes[end] != b'"' {
            return None; // an escape or a control character
        }
        self.at = end + 1;
        let bytes: &'a [u8] = self.bytes;
        Some(&bytes[start..end])
    }

    /// A string value, checked, and unescaped into `out` if given.
    fn string(&mut self, mut out: Option<&mut Vec<u8>>) -> Option<()> {
        self.expect(b'"')?;
        loop {
            match out.as_deref_mut() {
                Some(out) => self.copy_plain(out)?,
                None => self.at += find_special(&self.bytes[self.at..])?,
            }
            match self.next()? {
                b'"' => return Some(()),
                b'\\' => {
                    let mut utf8 = [0; 4];
                    let decoded = self.escape(&mut utf8)?;
                    if let Some(out) = out.as_deref_mut() {
                        match *decoded {
                            [byte] => out.push(byte), // the usual `\n`, without a copy call
                            _ => out.extend_from_slice(decoded),
                        }
                    }
                }
                _ => return None, // a control character
            }
        }
    }

    /// Copies the run of plain string characters from here to `out`,
    /// stopping at the byte that ends it: [`find_special`] fused with the
    /// copy (escaped newlines cut JSON texts into runs of a line, and a
    /// copy call each cost more than the bytes it copied).
    fn copy_plain(&mut self, out: &mut Vec<u8>) -> Option<()> {
        let mut blocks = self.bytes[self.at..].chunks_exact(PLAIN_BLOCK);
        for block in blocks.by_ref() {
            let block: &[u8; PLAIN_BLOCK] = block.try_into().expect("a block");
            let specials = special_mask(block);
            // The whole block, cut back to the run: a copy of a length
            // known only here would be a call.
            let start = out.len();
            out.extend_from_slice(block);
            if specials != 0 {
                let run = specials.trailing_zeros() as usize;
                out.truncate(start + run);
                self.at += run;
                return Some(());
            }
            self.at += PLAIN_BLOCK;
        }
        let rest = blocks.remainder();
        let run = rest.iter().position(|&byte| is_special(byte))?;
        out.extend_from_slice(&rest[..run]);
        self.at += run;
        Some(())
    }

    /// The escape after a backslash, decoded (as UTF-8, in `utf8`). A
    /// `\u` escape is decoded even in a skipped string, so a lone
    /// surrogate stands aside there too.
    fn escape<'b>(&mut self, utf8: &'b mut [u8; 4]) -> Option<&'b [u8]> {
        let byte = match self.next()? {
            b'"' => b'"',
            b'\\' => b'\\',
            b'/' => b'/',
            b'b' => 0x08,
            b'f' => 0x0c,
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            b'u' => return Some(self.unicode_escape()?.encode_utf8(utf8).as_bytes()),
            _ => return None,
        };
        utf8[0] = byte;
        Some(&utf8[..1])
    }

    /// The character of a `\uXXXX` escape (the `\u` read), and of the
    /// low surrogate's escape after a high one.
    fn unicode_escape(&mut self) -> Option<char> {
        let first = self.hex4()?;
        match first {
            0xD800..=0xDBFF => {
                self.expect(b'\\')?;
                self.expect(b'u')?;
                let second = self.hex4()?;
                if !(0xDC00..=0xDFFF).contains(&second) {
                    return None;
                }
                let c = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
                char::from_u32(c)
            }
            0xDC00..=0xDFFF => None,
            _ => char::from_u32(first),
        }
    }

    fn hex4(&mut self) -> Option<u32> {
        let digits = self.bytes.get(self.at..self.at + 4)?;
        let mut value = 0;
        for &digit in digits {
            value = value * 16 + (digit as char).to_digit(16)?;
        }
        self.at += 4;
        Some(value)
    }

    /// An id: a string, or a plain integer (as the general reader would
    /// print it).
    fn id(&mut self) -> Option<String> {
        if self.peek() == Some(b'"') {
            let mut value = Vec::new();
            self.string(Some(&mut value))?;
            return String::from_utf8(value).ok();
        }
        let start = self.at;
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        let digits = self.bytes[self.at..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        let first = self.peek()?;
        // Leading zeros, "-0", fractions and exponents are the general
        // reader's (its numbers print their own way); so are the widest.
        if digits == 0 || digits > 18 || first == b'0' {
            return None;
        }
        self.at += digits;
        if matches!(self.peek(), Some(b'.' | b'e' | b'E')) {
            return None;
        }
        String::from_utf8(self.bytes[start..self.at].to_vec()).ok()
    }

    /// Any value, checked and skipped.
    fn skip_value(&mut self) -> Option<()> {
        match self.peek()? {
            b'"' => self.string(None),
            b'{' => self.skip_container(b'}', true),
            b'[' => self.skip_container(b']', false),
            b't' => self.literal(b"true"),
            b'f' => self.literal(b"false"),
            b'n' => self.literal(b"null"),
            b'-' | b'0'..=b'9' => self.skip_number(),
            _ => None,
        }
    }

    /// An object (`keyed`) or an array, checked and skipped.
    fn skip_container(&mut self, close: u8, keyed: bool) -> Option<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return None;
        }
        self.at += 1;
        self.skip_whitespace();
        if self.peek() == Some(close) {
            self.at += 1;
            self.depth -= 1;
            return Some(());
        }
        loop {
            self.skip_whitespace();
            if keyed {
                self.string(None)?;
                self.skip_whitespace();
                self.expect(b':')?;
                self.skip_whitespace();
            }
            self.skip_value()?;
            self.skip_whitespace();
            match self.next()? {
                b',' => continue,
                byte if byte == close => break,
                _ => return None,
            }
        }
        self.depth -= 1;
        Some(())
    }

    fn literal(&mut self, word: &[u8]) -> Option<()> {
        if !self.bytes[self.at..].starts_with(word) {
            return None;
        }
        self.at += word.len();
        Some(())
    }

    /// A number: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    fn skip_number(&mut self) -> Option<()> {
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        match self.next()? {
            b'0' => {}
            b'1'..=b'9' => self.skip_digits(),
            _ => return None,
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            self.digits()?;
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.at += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.at += 1;
            }
            self.digits()?;
        }
        Some(())
    }

    fn skip_digits(&mut self) {
        while let Some(b'0'..=b'9') = self.peek() {
            self.at += 1;
        }
    }

    /// At least one digit.
    fn digits(&mut self) -> Option<()> {
        let start = self.at;
        self.skip_digits();
        (self.at > start).then_some(())
    }
}

/// Whether `byte` ends a run of plain string characters: a quote, a
/// backslash or a control character (below 0x20). Without branches, so
/// that [`special_mask`] vectorises (with `||` it did not).
#[inline(always)]
fn is_special(byte: u8) -> bool {
    (byte == b'"') | (byte == b'\\') | (byte < 0x20)
}

/// The bytes tested at a time for the end of a run.
const PLAIN_BLOCK: usize = 32;

/// Bit k set when byte k of `block` ends a run of plain string
/// characters: flags the compiler vectorises, packed as the tokenizer
/// packs its own.
#[inline(always)]
fn special_mask(block: &[u8; PLAIN_BLOCK]) -> u64 {
    let mut flags = [0u8; PLAIN_BLOCK];
    for (flag, &byte) in flags.iter_mut().zip(block) {
        *flag = u8::from(is_special(byte));
    }
    crate::fingerprint::mask_of_flags(&flags)
}

/// The offset of the first byte of `bytes` that ends a run of plain string
/// characters, [`PLAIN_BLOCK`] bytes at a time.
fn find_special(bytes: &[u8]) -> Option<usize> {
    let mut at = 0;
    let mut blocks = bytes.chunks_exact(PLAIN_BLOCK);
    for block in blocks.by_ref() {
        let specials = special_mask(block.try_into().expect("a block"));
        if specials != 0 {
            return Some(at + specials.trailing_zeros() as usize);
        }
        at += PLAIN_BLOCK;
    }
    blocks
        .remainder()
        .iter()
        .position(|&byte| is_special(byte))
        .map(|offset| at + offset)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_str(line: &str, id: Option<&str>) -> Option<(String, Option<String>)> {
        read(line.as_bytes(), "text", id).map(|(text, id)| (String::from_utf8(text).unwrap(), id))
    }

    #[test]
    fn reads_the_text_and_the_id_and_skips_the_rest() {
        let line = r#" {"meta": {"a": [1, -2.5e+3, true, null, {"b": "\u00e9"}]}, "id": "d\/1", "text": "tab\there \"q\" \ud83d\ude00 \u00e9"} "#;
        assert_eq!(
            read_str(line, Some("id")),
            Some((
                "tab\there \"q\" \u{1F600} \u{e9}".to_string(),
                Some("d/1".to_string())
            ))
        );
        assert_eq!(
            read_str(r#"{"id":-42,"text":""}"#, Some("id")),
            Some((String::new(), Some("-42".to_string())))
        );
        assert_eq!(
            read_str(r#"{"text":"x","id":7}"#, None),
            Some(("x".to_string(), None))
        );
    }

    #[test]
    fn the_last_of_a_repeated_key_counts() {
        assert_eq!(
            read_str(r#"{"text":"first","text":"second"}"#, None),
            Some(("second".to_string(), None))
        );
        assert_eq!(read_str(r#"{"text":"first","text":1}"#, None), None);
    }

    #[test]
    fn stands_aside_for_what_the_general_reader_decides() {
        for line in [
            "",
            "[1]",
            "{}",
            r#"{"text":"x"} x"#,
            r#"{"text":"x",}"#,
            r#"{"text":1}"#,
            r#"{"body":"x"}"#,
            r#"{"te\u0078t":"x"}"#,
            r#"{"text":"\ud800"}"#,
            r#"{"text":"\udc00x"}"#,
            r#"{"text":"bad \q"}"#,
            "{\"text\":\"raw\u{1}control\"}",
            r#"{"text":"x","n":01}"#,
            r#"{"text":"x","n":1.}"#,
            r#"{"text":"x","n":-}"#,
            r#"{"text":"x","n":tru}"#,
            r#"{"text":"x","a":[1,]}"#,
            r#"{"text":"x""#,
        ] {
            assert_eq!(read_str(line, None), None, "{line}");
        }
        for id in [
            "01",
            "-0",
            "1.5",
            "1e3",
            "12345678901234567890",
            "null",
            "{}",
        ] {
            let line = format!(r#"{{"text":"x","id":{id}}}"#);
            assert_eq!(read_str(&line, Some("id")), None, "{line}");
        }
        assert_eq!(read_str(r#"{"text":"x"}"#, Some("id")), None);
        assert_eq!(read(b"{\"text\":\"\xff\"}", "text", None), None);
        let deep = format!(
            r#"{{"text":"x","a":{}{}}}"#,
            "[".repeat(100),
            "]".repeat(100)
        );
        assert_eq!(read_str(&deep, None), None);
    }

    #[test]
    fn copies_a_text_whose_escape_falls_anywhere_in_a_block() {
        for len in 0..3 * PLAIN_BLOCK {
            for at in 0..=len {
                let plain: String = (0..len)
                    .map(|i| char::from(b'a' + (i % 26) as u8))
                    .collect();
                let (before, after) = plain.split_at(at);
                let line = format!(r#"{{"text":"{before}\n{after}"}}"#);
                let expected = format!("{before}\n{after}");
                assert_eq!(read_str(&line, None), Some((expected, None)), "{line}");
                let line = format!(r#"{{"text":"{plain}"}}"#);
                assert_eq!(read_str(&line, None), Some((plain.clone(), None)));
            }
        }
    }

    #[test]
    fn finds_the_first_special_byte_in_any_position() {
        for len in 0..3 * PLAIN_BLOCK {
            for at in 0..len {
                for special in [b'"', b'\\', 0x00, 0x1f] {
                    let mut bytes = vec![b'a'; len];
                    bytes[at] = special;
                    if at + 1 < len {
                        bytes[at + 1] = b'"';
                    }
                    assert_eq!(find_special(&bytes), Some(at));
                }
            }
            let plain: Vec<u8> = (0..len).map(|i| [b' ', b'~', 0x7f, 0xc3][i % 4]).collect();
            assert_eq!(find_special(&plain), None);
        }
    }
}
