//! Small pieces the scanners share: what a word byte is, character
//! references (`&amp;`), emphasis marks, and finding a byte ahead in a
//! line without going quadratic.

/// Whether a byte can be part of a word: an ASCII letter or digit, or any
/// byte of a non-ASCII character (the tokenizer decides those).
pub(super) fn is_word(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte >= 0x80
}

/// Named character references decoded; others stay as written. Each
/// decodes to fewer bytes than its reference, so a line never grows.
const ENTITIES: &[(&str, &str)] = &[
    ("amp", "&"),
    ("lt", "<"),
    ("gt", ">"),
    ("quot", "\""),
    ("apos", "'"),
    ("nbsp", "\u{a0}"),
    ("ensp", "\u{2002}"),
    ("emsp", "\u{2003}"),
    ("thinsp", "\u{2009}"),
    ("shy", ""),
    ("zwj", ""),
    ("zwnj", ""),
    ("copy", "©"),
    ("reg", "®"),
    ("trade", "™"),
    ("hellip", "…"),
    ("mdash", "—"),
    ("ndash", "–"),
    ("minus", "−"),
    ("lsquo", "‘"),
    ("rsquo", "’"),
    ("sbquo", "‚"),
    ("ldquo", "“"),
    ("rdquo", "”"),
    ("bdquo", "„"),
    ("laquo", "«"),
    ("raquo", "»"),
    ("lsaquo", "‹"),
    ("rsaquo", "›"),
    ("larr", "←"),
    ("rarr", "→"),
    ("uarr", "↑"),
    ("darr", "↓"),
    ("harr", "↔"),
    ("crarr", "↵"),
    ("lArr", "⇐"),
    ("rArr", "⇒"),
    ("uArr", "⇑"),
    ("dArr", "⇓"),
    ("hArr", "⇔"),
    ("dagger", "†"),
    ("Dagger", "‡"),
    ("prime", "′"),
    ("Prime", "″"),
    ("permil", "‰"),
    ("le", "≤"),
    ("ge", "≥"),
    ("ne", "≠"),
    ("asymp", "≈"),
    ("infin", "∞"),
    ("micro", "µ"),
    ("frac12", "½"),
    ("frac14", "¼"),
    ("frac34", "¾"),
    ("sup1", "¹"),
    ("sup2", "²"),
    ("sup3", "³"),
    ("bull", "•"),
    ("middot", "·"),
    ("deg", "°"),
    ("times", "×"),
    ("divide", "÷"),
    ("plusmn", "±"),
    ("euro", "€"),
    ("pound", "£"),
    ("yen", "¥"),
    ("cent", "¢"),
    ("sect", "§"),
    ("para", "¶"),
    ("iexcl", "¡"),
    ("iquest", "¿"),
    ("szlig", "ß"),
    ("aelig", "æ"),
    ("AElig", "Æ"),
    ("oelig", "œ"),
    ("OElig", "Œ"),
    ("eth", "ð"),
    ("ETH", "Ð"),
    ("thorn", "þ"),
    ("THORN", "Þ"),
    ("oslash", "ø"),
    ("Oslash", "Ø"),
    ("aring", "å"),
    ("Aring", "Å"),
    ("ccedil", "ç"),
    ("Ccedil", "Ç"),
];

/// Letters with an accent named `&<letter><accent>;`.
const ACCENTS: &[(&str, &str, &str)] = &[
    // (accent, lower-case letters, their accented forms)
    ("grave", "aeiou", "àèìòù"),
    ("acute", "aeiouy", "áéíóúý"),
    ("circ", "aeiou", "âêîôû"),
    ("tilde", "ano", "ãñõ"),
    ("uml", "aeiouy", "äëïöüÿ"),
];

/// The accented letter of a reference like `eacute` or `Uuml`.
fn accented(name: &str) -> Option<char> {
    let mut chars = name.chars();
    let letter = chars.next()?;
    let accent = chars.as_str();
    let (_, letters, forms) = ACCENTS.iter().find(|(a, _, _)| *a == accent)?;
    let index = letters.find(letter.to_ascii_lowercase())?;
    let form = forms.chars().nth(index)?;
    if letter.is_ascii_uppercase() {
        form.to_uppercase().next()
    } else {
        Some(form)
    }
}

/// Decodes the character reference at the start of `text` (which starts
/// with `&`): the bytes it stands for and how many bytes it took, or
/// `None` when it is not one (the `&` is then text).
pub(super) fn entity(text: &[u8], out: &mut Vec<u8>) -> Option<usize> {
    // The longest reference decoded is well under 16 bytes.
    let end = text.iter().take(16).position(|&b| b == b';')?;
    let name = std::str::from_utf8(&text[1..end]).ok()?;
    let start = out.len();
    if let Some(number) = name.strip_prefix('#') {
        let value = match number.strip_prefix(['x', 'X']) {
            Some(hex) if !hex.is_empty() && hex.len() <= 6 => u32::from_str_radix(hex, 16).ok()?,
            None if !number.is_empty() && number.len() <= 7 => number.parse().ok()?,
            _ => return None,
        };
        let decoded = match char::from_u32(value) {
            None | Some('\0') => '\u{fffd}',
            // `&#10;` must not break a line: lines are the file's.
            Some(c) if c.is_control() && c != '\t' => ' ',
            Some(c) => c,
        };
        let mut buffer = [0; 4];
        out.extend_from_slice(decoded.encode_utf8(&mut buffer).as_bytes());
    } else if let Some((_, decoded)) = ENTITIES.iter().find(|(n, _)| *n == name) {
        out.extend_from_slice(decoded.as_bytes());
    } else if let Some(decoded) = accented(name) {
        let mut buffer = [0; 4];
        out.extend_from_slice(decoded.encode_utf8(&mut buffer).as_bytes());
    } else {
        return None;
    }
    // Every reference is longer than what it decodes to; keep it so.
    if out.len() - start > end + 1 {
        out.truncate(start);
        return None;
    }
    Some(end + 1)
}

/// Whether a run of emphasis marks `text[start..end]` is markup: it
/// touches a word on at most one side (`*word*`, `**word**`), unlike a
/// mark inside a word (`snake_case`, `2*3*4`).
pub(super) fn is_emphasis(text: &[u8], start: usize, end: usize) -> bool {
    let before = start.checked_sub(1).map(|i| text[i]);
    let after = text.get(end).copied();
    !(before.is_some_and(is_word) && after.is_some_and(is_word))
}

/// Copies the run of emphasis marks at `start` to `out` unless it is
/// markup; returns where the run ends.
pub(super) fn emphasis(text: &[u8], start: usize, out: &mut Vec<u8>) -> usize {
    let end = run_end(text, start, text[start]);
    if !is_emphasis(text, start, end) {
        out.extend_from_slice(&text[start..end]);
    }
    end
}

/// Decodes the character reference at `at` (an `&`) into `out`, or
/// copies the `&` as text; returns where the text goes on.
pub(super) fn reference(text: &[u8], at: usize, out: &mut Vec<u8>) -> usize {
    match entity(&text[at..], out) {
        Some(used) => at + used,
        None => {
            out.push(b'&');
            at + 1
        }
    }
}

/// The end of the run of `byte` starting at `start`.
pub(super) fn run_end(text: &[u8], start: usize, byte: u8) -> usize {
    start
        + text[start..]
            .iter()
            .position(|&b| b != byte)
            .unwrap_or(text.len() - start)
}

/// Finds the next occurrence of a pattern at or after a position,
/// remembering the last answer so that asking again from later positions
/// costs nothing until it is passed: a scan of a line stays linear however
/// often it asks.
pub(super) struct Ahead {
    pattern: &'static [u8],
    /// The last answer (`None`: there is none from `from` on).
    found: Option<usize>,
    /// The position it was asked from.
    from: usize,
    asked: bool,
}

impl Ahead {
    pub(super) fn new(pattern: &'static [u8]) -> Ahead {
        Ahead {
            pattern,
            found: None,
            from: 0,
            asked: false,
        }
    }

    /// The position of the next occurrence in `text` at or after `at`.
    pub(super) fn next(&mut self, text: &[u8], at: usize) -> Option<usize> {
        let fresh = match self.found {
            _ if !self.asked || at < self.from => true,
            Some(found) => found < at,
            None => false,
        };
        if fresh {
            self.asked = true;
            self.from = at;
            let rest = text.get(at..).unwrap_or(&[]);
            self.found = memchr::memmem::find(rest, self.pattern).map(|i| at + i);
        }
        self.found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(text: &str) -> Option<(String, usize)> {
        let mut out = Vec::new();
        let used = entity(text.as_bytes(), &mut out)?;
        Some((String::from_utf8(out).unwrap(), used))
    }

    #[test]
    fn references_decode_to_fewer_bytes() {
        assert_eq!(decode("&amp; x"), Some(("&".into(), 5)));
        assert_eq!(decode("&eacute;"), Some(("é".into(), 8)));
        assert_eq!(decode("&Uuml;"), Some(("Ü".into(), 6)));
        assert_eq!(decode("&#233;"), Some(("é".into(), 6)));
        assert_eq!(decode("&#x1F600;"), Some(("😀".into(), 9)));
        assert_eq!(decode("&#0;"), Some(("\u{fffd}".into(), 4)));
        assert_eq!(decode("&#xD800;"), Some(("\u{fffd}".into(), 8)));
        // Never a line break, which would move the file's lines.
        assert_eq!(decode("&#xA;"), Some((" ".into(), 5)));
        assert_eq!(decode("&#13;"), Some((" ".into(), 5)));
        assert_eq!(decode("&#9;"), Some(("\t".into(), 4)));
        assert_eq!(decode("&unknown;"), None);
        assert_eq!(decode("& amp"), None);
        assert_eq!(decode("&#;"), None);
        assert_eq!(decode("&#99999999999;"), None);
        for (name, _) in ENTITIES {
            let reference = format!("&{name};");
            let (decoded, used) = decode(&reference).unwrap();
            assert!(decoded.len() < used, "{reference}");
        }
    }

    #[test]
    fn arrows_and_other_common_names_decode() {
        // An unknown name stays as written, a word (`rarr`) in the text.
        assert_eq!(decode("&rarr;"), Some(("→".into(), 6)));
        assert_eq!(decode("&rArr;"), Some(("⇒".into(), 6)));
        assert_eq!(decode("&lsaquo;"), Some(("‹".into(), 8)));
        assert_eq!(decode("&le;"), Some(("≤".into(), 4)));
        assert_eq!(decode("&frac12;"), Some(("½".into(), 8)));
    }

    #[test]
    fn emphasis_is_a_run_beside_at_most_one_word() {
        let text = b"**bold** snake_case 2*3";
        assert!(is_emphasis(text, 0, 2));
        assert!(is_emphasis(text, 6, 8));
        assert!(!is_emphasis(text, 14, 15));
        assert!(!is_emphasis(text, 21, 22));
    }

    #[test]
    fn ahead_finds_the_next_byte_from_any_later_position() {
        let text = b"a]b]c";
        let mut ahead = Ahead::new(b"]");
        assert_eq!(ahead.next(text, 0), Some(1));
        assert_eq!(ahead.next(text, 1), Some(1));
        assert_eq!(ahead.next(text, 2), Some(3));
        assert_eq!(ahead.next(text, 4), None);
        assert_eq!(ahead.next(text, 0), Some(1));
    }
}
