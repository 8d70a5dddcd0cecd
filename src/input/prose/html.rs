//! HTML: the text between the tags, with character references decoded.
//!
//! Tags, comments, declarations and the contents of `<script>` and
//! `<style>` are dropped. A tag that starts a block (`<p>`, `<td>`,
//! `<br>`...) leaves a space, so words on either side stay apart; an
//! inline one (`<b>`, `<a>`, `<span>`...) leaves nothing, so a word it
//! splits stays whole. Tags, comments and attribute values may span lines.

use super::inline::reference;

/// Tags that do not separate words.
const INLINE: &[&str] = &[
    "a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "del", "dfn", "em", "font", "i", "ins",
    "kbd", "mark", "q", "s", "samp", "small", "span", "strike", "strong", "sub", "sup", "time",
    "tt", "u", "var", "wbr",
];

/// Tags common enough in Markdown files to be taken for tags when they go
/// on past their line.
const KNOWN: &[&str] = &[
    "article",
    "blockquote",
    "br",
    "center",
    "dd",
    "details",
    "div",
    "dl",
    "dt",
    "figcaption",
    "figure",
    "footer",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hr",
    "iframe",
    "img",
    "input",
    "li",
    "link",
    "meta",
    "nav",
    "ol",
    "p",
    "picture",
    "pre",
    "section",
    "source",
    "summary",
    "svg",
    "table",
    "tbody",
    "td",
    "th",
    "thead",
    "tr",
    "ul",
    "video",
];

/// Whether a lower-case name is an HTML tag's.
pub(super) fn is_known(name: &[u8]) -> bool {
    KNOWN
        .iter()
        .chain(INLINE)
        .any(|known| known.as_bytes() == name)
}

/// Whether a tag (lower-case name) separates words.
pub(super) fn separates(name: &[u8]) -> bool {
    !INLINE.iter().any(|inline| inline.as_bytes() == name)
}

/// The longest tag name remembered; longer names are no tag we know.
const NAME: usize = 16;

/// Where the scanner is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Mode {
    #[default]
    Text,
    /// Inside `<...>`: the name so far, then attributes, maybe in quotes.
    Tag,
    /// Inside `<!-- ... -->`.
    Comment,
    /// Inside `<!...>` or `<?...>`.
    Declaration,
    /// Inside `<script>` or `<style>`, until its end tag.
    Raw,
}

/// What the scanner carries from line to line.
#[derive(Debug, Default)]
pub(super) struct State {
    mode: Mode,
    /// The tag's name, lower-case (Tag mode), or the raw element's (Raw).
    name: [u8; NAME],
    name_len: usize,
    /// The name is complete (a space or `/` followed it).
    name_done: bool,
    closing: bool,
    quote: Option<u8>,
}

impl State {
    /// Writes the text of one line.
    pub(super) fn line(&mut self, line: &[u8], out: &mut Vec<u8>) {
        let mut i = 0;
        while i < line.len() {
            i = match self.mode {
                Mode::Text => self.text(line, i, out),
                Mode::Tag => self.tag(line, i, out),
                Mode::Comment => match memchr::memmem::find(&line[i..], b"-->") {
                    Some(at) => {
                        self.mode = Mode::Text;
                        i + at + 3
                    }
                    None => line.len(),
                },
                Mode::Declaration => match memchr::memchr(b'>', &line[i..]) {
                    Some(at) => {
                        self.mode = Mode::Text;
                        i + at + 1
                    }
                    None => line.len(),
                },
                Mode::Raw => self.raw(line, i),
            };
        }
    }

    /// Text from `i` up to the next tag or the end of the line.
    fn text(&mut self, line: &[u8], mut i: usize, out: &mut Vec<u8>) -> usize {
        while i < line.len() {
            match line[i] {
                b'<' => {
                    let rest = &line[i + 1..];
                    if rest.starts_with(b"!--") {
                        self.mode = Mode::Comment;
                        return i + 4;
                    }
                    match rest.first() {
                        Some(b'!' | b'?') => {
                            self.mode = Mode::Declaration;
                            return i + 2;
                        }
                        Some(b'/') if rest.get(1).is_some_and(u8::is_ascii_alphabetic) => {
                            self.open_tag(true);
                            return i + 2;
                        }
                        Some(b) if b.is_ascii_alphabetic() => {
                            self.open_tag(false);
                            return i + 1;
                        }
                        _ => out.push(b'<'),
                    }
                }
                b'&' => {
                    i = reference(line, i, out);
                    continue;
                }
                byte => out.push(byte),
            }
            i += 1;
        }
        i
    }

    fn open_tag(&mut self, closing: bool) {
        self.mode = Mode::Tag;
        self.name_len = 0;
        self.name_done = false;
        self.closing = closing;
        self.quote = None;
    }

    /// Inside a tag: its name, its attributes, up to its `>`.
    fn tag(&mut self, line: &[u8], mut i: usize, out: &mut Vec<u8>) -> usize {
        while i < line.len() {
            let byte = line[i];
            i += 1;
            if let Some(quote) = self.quote {
                if byte == quote {
                    self.quote = None;
                }
                continue;
            }
            match byte {
                b'>' => {
                    self.end_tag(out);
                    return i;
                }
                b'"' | b'\'' if self.name_done => self.quote = Some(byte),
                _ if !self.name_done && (byte.is_ascii_alphanumeric() || byte == b'-') => {
                    if self.name_len < NAME {
                        self.name[self.name_len] = byte.to_ascii_lowercase();
                    }
                    self.name_len += 1;
                }
                _ => self.name_done = true,
            }
        }
        // The tag goes on past the line: a line break ends its name.
        self.name_done = true;
        i
    }

    fn end_tag(&mut self, out: &mut Vec<u8>) {
        self.mode = Mode::Text;
        let name = &self.name[..self.name_len.min(NAME)];
        if self.name_len > NAME {
            out.push(b' ');
            return;
        }
        if !self.closing && (name == b"script" || name == b"style") {
            self.mode = Mode::Raw;
            return;
        }
        if separates(name) {
            out.push(b' ');
        }
    }

    /// Inside `<script>` or `<style>`: skips to its end tag.
    fn raw(&mut self, line: &[u8], mut i: usize) -> usize {
        let name = &self.name[..self.name_len.min(NAME)];
        while let Some(at) = memchr::memmem::find(&line[i..], b"</") {
            let start = i + at + 2;
            let end = start + name.len();
            if line
                .get(start..end)
                .is_some_and(|found| found.eq_ignore_ascii_case(name))
                && !line.get(end).is_some_and(u8::is_ascii_alphanumeric)
            {
                // The end tag itself is read as a tag, which leaves a space.
                self.open_tag(true);
                return start;
            }
            i = start;
        }
        line.len()
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Format, prose_of, view_words};

    fn text(html: &str) -> String {
        String::from_utf8(prose_of(Format::Html, html.as_bytes())).unwrap()
    }

    fn words(html: &str) -> Vec<String> {
        view_words(Format::Html, html)
    }

    #[test]
    fn tags_comments_scripts_and_styles_are_dropped() {
        let page = "<!DOCTYPE html>\n<html><head><title>A page</title>\n\
                    <style>p { color: red }</style>\n<script type=\"x\">var a = '</p>';\n\
                    if (a < b) {}</script></head>\n<body><!-- a\nnote --><p class=\"intro\">\
                    Hello <b>wo</b>rld</p><p>again</p></body></html>\n";
        assert_eq!(words(page), ["A", "page", "Hello", "world", "again"]);
    }

    #[test]
    fn references_are_decoded() {
        assert_eq!(
            words("<p>Caf&eacute; &amp; cr&#232;me &lt;b&gt; &bogus; AT&T</p>"),
            ["Café", "&", "crème", "<b>", "&bogus;", "AT&T"]
        );
    }

    #[test]
    fn lines_and_lengths_are_kept() {
        let page = "<p title='a\nb'>one\n<!--\n-->two <a\nhref=\"x\">three</a>\n";
        let out = text(page);
        assert_eq!(out.len(), page.len());
        assert_eq!(out.lines().count(), page.lines().count());
        assert_eq!(
            out.lines().map(str::trim).collect::<Vec<_>>(),
            ["", "one", "", "two", "three"]
        );
    }

    #[test]
    fn a_lone_angle_bracket_is_text() {
        assert_eq!(
            words("a < b and c <= d"),
            ["a", "<", "b", "and", "c", "<=", "d"]
        );
    }
}
