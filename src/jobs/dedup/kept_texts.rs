//! The texts of the kept records, by kept number, for verification: each
//! kept record is compared with the records after it.
//!
//! Records of a stream are spooled (in memory up to a budget, then in a
//! temporary file). Records of a regular file are held in memory up to the
//! same budget too, and past it are not copied: where each starts is kept
//! (8 bytes), and the record is read from the file again
//! ([`RecordSource`]), so no copy of a large input is written to disk.

use std::borrow::Cow;
use std::io;

use crate::input::RecordSource;
use crate::report::Names;

/// The place of a record that has none (its text is never needed: it is
/// matched by content only).
const NO_PLACE: u64 = u64::MAX;

/// Kept records' texts.
#[derive(Debug)]
pub enum KeptTexts {
    /// The texts themselves (for files: their paths).
    Spooled(Names),
    /// The first texts in memory, then where each record starts in its
    /// file.
    Placed {
        /// The file.
        source: Box<RecordSource>,
        /// The texts of the first kept records, within `budget` bytes.
        first: Names,
        /// Bytes of text in `first`.
        first_bytes: usize,
        /// Bytes of text `first` may hold.
        budget: usize,
        /// The start of each kept record after those in `first`.
        places: Vec<u64>,
    },
}

impl KeptTexts {
    /// Texts of records of `source`: in memory up to `budget` bytes, then
    /// read from it again.
    pub fn placed(source: RecordSource, budget: usize) -> KeptTexts {
        KeptTexts::Placed {
            source: Box::new(source),
            first: Names::with_budget(budget),
            first_bytes: 0,
            budget,
            places: Vec::new(),
        }
    }

    /// Adds the next kept record: its text, and where it starts in the
    /// stream (`None`: no text is needed).
    pub fn push(&mut self, text: &[u8], place: Option<u64>) -> io::Result<()> {
        match self {
            KeptTexts::Spooled(texts) => texts.push(text),
            KeptTexts::Placed {
                first,
                first_bytes,
                budget,
                places,
                ..
            } => {
                if places.is_empty() && *first_bytes + text.len() <= *budget {
                    *first_bytes += text.len();
                    return first.push(text);
                }
                places.push(place.unwrap_or(NO_PLACE));
                Ok(())
            }
        }
    }

    /// The text of kept record `kept`.
    pub fn get(&self, kept: usize) -> io::Result<Cow<'_, [u8]>> {
        match self {
            KeptTexts::Spooled(texts) => texts.get(kept),
            KeptTexts::Placed {
                source,
                first,
                places,
                ..
            } => {
                if kept < first.len() {
                    return first.get(kept);
                }
                match places.get(kept - first.len()) {
                    Some(&place) if place != NO_PLACE => source.text(place).map(Cow::Owned),
                    _ => Err(io::Error::other(format!("no text kept for record {kept}"))),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::RecordOptions;
    use std::io::Write;

    #[test]
    fn placed_texts_are_read_from_their_file() {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        file.write_all(b"alpha\nbeta gamma\n").unwrap();
        let options = RecordOptions::default();
        let source = RecordSource::open(Some(file.path()), &options, "lines").unwrap();
        // Ten bytes in memory: the first record, then places.
        let mut texts = KeptTexts::placed(source, 10);
        texts.push(b"beta gamma", Some(6)).unwrap();
        texts.push(b"alpha", Some(0)).unwrap();
        texts.push(b"", None).unwrap();
        texts.push(b"beta gamma", Some(6)).unwrap();
        let KeptTexts::Placed { first, places, .. } = &texts else {
            panic!("placed");
        };
        assert_eq!((first.len(), places.len()), (1, 3));
        assert_eq!(&texts.get(0).unwrap()[..], b"beta gamma");
        assert_eq!(&texts.get(1).unwrap()[..], b"alpha");
        assert!(texts.get(2).is_err());
        assert_eq!(&texts.get(3).unwrap()[..], b"beta gamma");
        assert!(texts.get(4).is_err());
    }
}
