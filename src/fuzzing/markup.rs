//! The markup view of Markdown, reStructuredText, AsciiDoc, HTML and roff: no
//! panic on any input; the text is exactly as long as the input, with its
//! line breaks in the same places (so lines and regions stay the file's);
//! valid UTF-8 stays valid; read in short reads of any size (with
//! `Interrupted`), the text is the same.

use std::io::Read;

use super::{Choices, ShortReads};
use crate::input::prose::{Format, prose_of, prose_reader};

const FORMATS: [Format; 5] = [
    Format::Markdown,
    Format::Rst,
    Format::AsciiDoc,
    Format::Html,
    Format::Roff,
];

/// One markup document: the first byte chooses the format, the next two
/// the short reads.
pub fn markup(data: &[u8]) {
    let mut choices = Choices::new(data);
    let format = FORMATS[usize::from(choices.byte()) % FORMATS.len()];
    let seed = choices.byte();
    let longest = 1 + usize::from(choices.byte());
    let document = choices.rest();
    let text = prose_of(format, document);
    assert_eq!(text.len(), document.len(), "{format:?}: the length changed");
    let breaks = |bytes: &[u8]| memchr::memchr_iter(b'\n', bytes).collect::<Vec<_>>();
    assert_eq!(
        breaks(&text),
        breaks(document),
        "{format:?}: a line break moved"
    );
    if std::str::from_utf8(document).is_ok() {
        assert!(
            std::str::from_utf8(&text).is_ok(),
            "{format:?}: a character was split"
        );
    }
    let mut read = Vec::new();
    prose_reader(format, ShortReads::new(document, seed, longest))
        .read_to_end(&mut read)
        .expect("reading from memory");
    assert_eq!(read, text, "{format:?}: short reads changed the text");
}
