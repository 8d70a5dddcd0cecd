//! The texts of the documents a report lists: snippets in the table for
//! records, and whole texts in JSON with `--show-text`.
//!
//! Records are gone once read, so their texts are kept as they stream by
//! (each cut at a limit: a snippet's worth for the table, whole for
//! `--show-text`), written in input order to an anonymous temporary file
//! ([`TextSpool`]): nothing per record stays in memory. Once it is known
//! what the report will list (its pairs or its groups), the texts of those
//! documents alone are read back ([`Texts::keep`]), into a [`Names`] arena
//! that spills to a file past its budget. Files are read again when the report is written, one
//! at a time, at most [`FILE_BYTES`] each.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, Write};
use std::path::Path;

use crate::input::path_from_bytes;

use super::Names;

/// Bytes of a file's text shown at most (its start): the record limit.
pub const FILE_BYTES: u64 = 16 << 20;

/// Bytes of kept texts held in memory before the rest goes to a file.
const MEMORY_BYTES: usize = 4 << 20;

/// Where the texts of a report's documents come from.
#[derive(Debug, Default)]
pub enum Texts {
    /// None are shown.
    #[default]
    None,
    /// Every record's text, in its spool: none is shown until
    /// [`Texts::keep`] reads back those the report lists.
    Spooled(Box<TextSpool>),
    /// Records' texts, kept while reading.
    Kept(Box<KeptTexts>),
    /// Files, read again by their names (paths) when written.
    Files {
        /// Bytes read at most from each.
        max_bytes: u64,
    },
}

/// The texts of some records, kept while reading.
#[derive(Debug)]
pub struct KeptTexts {
    /// The documents whose texts are kept, ascending.
    ids: Vec<u32>,
    /// Their texts, in the order of `ids`.
    texts: Names,
    /// Whether each text is only the start of its record.
    cut: Vec<bool>,
}

/// One document's text, as far as it is shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Text {
    /// The bytes (possibly not UTF-8).
    pub bytes: Vec<u8>,
    /// Only the start of the document.
    pub cut: bool,
}

impl Texts {
    /// Whether no text is shown.
    pub fn is_none(&self) -> bool {
        matches!(self, Texts::None | Texts::Spooled(_))
    }

    /// Spooled texts: reads back those of the documents in `wanted`
    /// (any order, repeats allowed); other texts are kept as they are.
    pub fn keep(self, wanted: impl IntoIterator<Item = u32>) -> io::Result<Texts> {
        match self {
            Texts::Spooled(spool) => Texts::kept(*spool, wanted),
            texts => Ok(texts),
        }
    }

    /// Reads back from `spool` the texts of the documents in `wanted`
    /// (any order, repeats allowed).
    pub fn kept(spool: TextSpool, wanted: impl IntoIterator<Item = u32>) -> io::Result<Texts> {
        let mut ids: Vec<u32> = wanted.into_iter().collect();
        ids.sort_unstable();
        ids.dedup();
        let mut texts = Names::with_budget(MEMORY_BYTES);
        let mut cut = Vec::with_capacity(ids.len());
        let mut file = spool
            .file
            .into_inner()
            .map_err(|error| error.into_error())?;
        file.rewind()?;
        let mut reader = BufReader::new(file);
        let mut next = 0u32;
        for &id in &ids {
            // Entries are one per document, in order: skip to this one.
            while next < id {
                let (length, _) = read_header(&mut reader)?;
                reader.seek_relative(i64::try_from(length).map_err(io::Error::other)?)?;
                next += 1;
            }
            let (length, was_cut) = read_header(&mut reader)?;
            let mut text = vec![0; usize::try_from(length).map_err(io::Error::other)?];
            reader.read_exact(&mut text)?;
            texts.push(&text)?;
            cut.push(was_cut);
            next += 1;
        }
        Ok(Texts::Kept(Box::new(KeptTexts { ids, texts, cut })))
    }

    /// The text of document `id`, named `name`: `None` when texts are not
    /// shown or this one was not kept; an error when it cannot be read.
    pub fn get(&self, id: u32, name: &[u8]) -> Option<io::Result<Text>> {
        match self {
            Texts::None | Texts::Spooled(_) => None,
            Texts::Kept(kept) => {
                let index = kept.ids.binary_search(&id).ok()?;
                Some(kept.texts.get(index).map(|bytes| Text {
                    bytes: bytes.into_owned(),
                    cut: kept.cut[index],
                }))
            }
            Texts::Files { max_bytes } => Some(read_file(&path_from_bytes(name), *max_bytes)),
        }
    }
}

/// Reads the start of a file again; anything but a regular file (a FIFO
/// would block, a directory has no text) is an error.
fn read_file(path: &Path, max_bytes: u64) -> io::Result<Text> {
    if !std::fs::metadata(path)?.is_file() {
        return Err(io::Error::other("no longer a regular file"));
    }
    let mut bytes = Vec::new();
    File::open(path)?
        .take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)?;
    let cut = bytes.len() as u64 > max_bytes;
    bytes.truncate(usize::try_from(max_bytes).unwrap_or(usize::MAX));
    Ok(Text { bytes, cut })
}

/// Every record's text (or its start), one entry per document in input
/// order, in an anonymous temporary file.
#[derive(Debug)]
pub struct TextSpool {
    file: BufWriter<File>,
    max_bytes: usize,
}

impl TextSpool {
    /// A new spool keeping at most `max_bytes` of each text.
    pub fn new(max_bytes: usize) -> io::Result<TextSpool> {
        Ok(TextSpool {
            file: BufWriter::with_capacity(1 << 20, tempfile::tempfile()?),
            max_bytes,
        })
    }

    /// Appends the next document's text.
    pub fn push(&mut self, text: &[u8]) -> io::Result<()> {
        let kept = &text[..text.len().min(self.max_bytes)];
        let cut = kept.len() < text.len();
        self.file.write_all(&(kept.len() as u64).to_le_bytes())?;
        self.file.write_all(&[u8::from(cut)])?;
        self.file.write_all(kept)
    }
}

/// An entry's length and whether its text was cut.
fn read_header(reader: &mut impl Read) -> io::Result<(u64, bool)> {
    let mut header = [0u8; 9];
    reader.read_exact(&mut header)?;
    let length = u64::from_le_bytes(header[..8].try_into().expect("8 bytes"));
    Ok((length, header[8] == 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(texts: &Texts, id: u32) -> Option<(String, bool)> {
        texts
            .get(id, b"")
            .map(|text| text.unwrap())
            .map(|text| (String::from_utf8(text.bytes).unwrap(), text.cut))
    }

    #[test]
    fn only_the_wanted_texts_are_read_back_each_cut_at_the_limit() {
        let mut spool = TextSpool::new(5).unwrap();
        for record in ["zero", "one is long", "", "three", "four!!"] {
            spool.push(record.as_bytes()).unwrap();
        }
        let texts = Texts::kept(spool, [4, 1, 4, 2]).unwrap();
        assert_eq!(text(&texts, 0), None);
        assert_eq!(text(&texts, 1), Some(("one i".to_string(), true)));
        assert_eq!(text(&texts, 2), Some((String::new(), false)));
        assert_eq!(text(&texts, 3), None);
        assert_eq!(text(&texts, 4), Some(("four!".to_string(), true)));
    }

    #[test]
    fn asking_past_the_spool_is_an_error_not_a_panic() {
        let mut spool = TextSpool::new(10).unwrap();
        spool.push(b"only").unwrap();
        assert!(Texts::kept(spool, [3]).is_err());
    }

    #[test]
    fn files_are_read_again_up_to_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.txt");
        std::fs::write(&path, "0123456789").unwrap();
        let name = path.to_str().unwrap().as_bytes();
        let whole = Texts::Files { max_bytes: 10 }
            .get(0, name)
            .unwrap()
            .unwrap();
        assert_eq!(
            (whole.bytes.as_slice(), whole.cut),
            (&b"0123456789"[..], false)
        );
        let start = Texts::Files { max_bytes: 4 }.get(0, name).unwrap().unwrap();
        assert_eq!((start.bytes.as_slice(), start.cut), (&b"0123"[..], true));
        let gone = dir.path().join("gone.txt");
        let name = gone.to_str().unwrap().as_bytes();
        assert!(Texts::Files { max_bytes: 4 }.get(0, name).unwrap().is_err());
        let name = dir.path().to_str().unwrap().as_bytes();
        assert!(Texts::Files { max_bytes: 4 }.get(0, name).unwrap().is_err());
    }
}
