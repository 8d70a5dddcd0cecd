//! The view as a whole: lines and lengths kept on any input, whatever the
//! reads' sizes, and no panic.

use std::io::Read;

use proptest::prelude::*;

use super::*;

const FORMATS: [Format; 5] = [
    Format::Markdown,
    Format::Rst,
    Format::AsciiDoc,
    Format::Html,
    Format::Roff,
];

/// A reader that hands out at most `n` bytes per read.
struct Trickle<'a> {
    data: &'a [u8],
    n: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.n.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

fn markup_bytes() -> impl Strategy<Value = Vec<u8>> {
    let pieces = prop::sample::select(vec![
        &b"<"[..],
        b">",
        b"</",
        b"<!--",
        b"-->",
        b"<script>",
        b"</script>",
        b"&amp;",
        b"&#",
        b";",
        b"[",
        b"]",
        b"(",
        b")",
        b"`",
        b"```",
        b"~~~",
        b"*",
        b"_",
        b"#",
        b"---",
        b"+++",
        b"\n",
        b"\r\n",
        b" ",
        b"..",
        b"::",
        b":",
        b"|",
        b"====",
        b"----",
        b"////",
        b"<<",
        b">>",
        b"{",
        b"}",
        b"word",
        b"\xc3\xa9",
        b"\xff",
        b"link:",
        b"https://x",
        b"\t",
        b"1.",
        b"\\",
        b"\\f",
        b"\\(",
        b"\\s-",
        b"\\h'",
        b"\\\"",
        b".TH",
        b".de",
        b".IP \"",
        b"\\[",
        b"'",
    ]);
    prop::collection::vec(pieces, 0..80).prop_map(|pieces| pieces.concat())
}

proptest! {
    #[test]
    fn any_input_keeps_its_lines_and_length(bytes in markup_bytes(), n in 1usize..7) {
        for format in FORMATS {
            let whole = prose_of(format, &bytes);
            prop_assert_eq!(whole.len(), bytes.len());
            let newlines = |b: &[u8]| b.iter().enumerate().filter(|(_, c)| **c == b'\n')
                .map(|(i, _)| i).collect::<Vec<_>>();
            prop_assert_eq!(newlines(&whole), newlines(&bytes));
            // Read in small pieces: the same text.
            let mut trickled = Vec::new();
            ProseReader::new(Trickle { data: &bytes, n }, format)
                .read_to_end(&mut trickled)
                .unwrap();
            prop_assert_eq!(&trickled, &whole);
        }
    }
}

#[test]
fn formats_by_extension_in_any_case() {
    let of = |name: &str| Format::of(Path::new(name));
    assert_eq!(of("a/README.md"), Some(Format::Markdown));
    assert_eq!(of("x.MARKDOWN"), Some(Format::Markdown));
    assert_eq!(of("index.rst"), Some(Format::Rst));
    assert_eq!(of("guide.adoc"), Some(Format::AsciiDoc));
    assert_eq!(of("release.tar.gz.asc"), None);
    assert_eq!(of("page.HTM"), Some(Format::Html));
    assert_eq!(of("page.xhtml"), Some(Format::Html));
    assert_eq!(of("notes.txt"), None);
    assert_eq!(of("Makefile"), None);
    assert_eq!(of("ls.1"), Some(Format::Roff));
    assert_eq!(of("Digest::SHA.3pm"), Some(Format::Roff));
    assert_eq!(of("openssl.1SSL"), Some(Format::Roff));
    assert_eq!(of("page.man"), Some(Format::Roff));
    assert_eq!(of("report.0"), None);
    assert_eq!(of("libfoo.so.10"), Some(Format::Roff));
    assert_eq!(of("archive.7z"), Some(Format::Roff));
    assert_eq!(of(".md"), None);
}

#[test]
fn a_line_longer_than_the_cut_is_read_in_pieces_of_the_same_text() {
    let mut doc = b"# Title\n".to_vec();
    doc.extend(b"word *x* ".iter().cycle().take(MAX_LINE * 2 + 5));
    doc.extend_from_slice(b"\nend\n");
    let text = prose_of(Format::Markdown, &doc);
    assert_eq!(text.len(), doc.len());
    assert!(!text[8..].windows(3).any(|w| w == b"*x*"));
    assert!(text.ends_with(b"\nend\n"));
}

#[test]
fn the_raw_view_and_other_files_are_read_as_they_are() {
    let doc = b"# *Title*\n".to_vec();
    let read = |view: &View, name: &str| {
        let mut out = Vec::new();
        view.markup_reader(Path::new(name), Box::new(io::Cursor::new(doc.clone())))
            .read_to_end(&mut out)
            .unwrap();
        out
    };
    assert_eq!(read(&View::default(), "a.md"), b" Title   \n");
    assert_eq!(read(&View::default(), "a.txt"), doc);
    assert_eq!(read(&View::raw(), "a.md"), doc);
}

/// Yields its data, then fails once, then ends: an error lost is
/// an end of file.
struct FailsOnce<'a>(&'a [u8], bool);

impl Read for FailsOnce<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.0.is_empty() {
            if std::mem::replace(&mut self.1, true) {
                return Ok(0);
            }
            return Err(io::Error::other("disk gone"));
        }
        let n = buf.len().min(self.0.len());
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

#[test]
fn a_read_gives_many_lines_and_an_error_after_them_comes_next() {
    let doc = b"# Title\n*one*\ntwo\n";
    let mut reader = ProseReader::new(FailsOnce(doc, false), Format::Markdown);
    let mut buf = [0u8; 64];
    let n = reader.read(&mut buf).unwrap();
    assert_eq!(&buf[..n], prose_of(Format::Markdown, doc).as_slice());
    let error = reader.read(&mut buf).unwrap_err();
    assert_eq!(error.to_string(), "disk gone");
}
