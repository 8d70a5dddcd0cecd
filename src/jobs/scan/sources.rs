//! Reading a class's first document again for verification: its sorted,
//! distinct feature set, from its file, from the copy of a piped document,
//! from the record spool, or from the path a saved fingerprint names.

use std::io::Read;

use crate::Error;
use crate::fingerprint::Fingerprinter;

use super::documents::{ClassId, Documents, Source};
use super::short::ShortTexts;
use crate::input::Positioned;

/// Reads feature sets; shared by the verification workers.
pub struct Sources<'a> {
    documents: &'a Documents,
    fingerprinter: &'a Fingerprinter,
    short: Option<&'a ShortTexts>,
}

impl<'a> Sources<'a> {
    /// Sources for the documents of a run; `short` reads short texts'
    /// character pairs.
    pub fn new(
        documents: &'a Documents,
        fingerprinter: &'a Fingerprinter,
        short: Option<&'a ShortTexts>,
    ) -> Sources<'a> {
        Sources {
            documents,
            fingerprinter,
            short,
        }
    }

    /// The sorted, distinct character-pair features of `class`, a class
    /// of short texts (its members share their words, so any member will
    /// do: the first).
    pub fn short_text_set(&self, class: ClassId) -> crate::Result<Vec<u64>> {
        let Some(short) = self.short else {
            return Ok(Vec::new());
        };
        self.read(class, |reader| short.feature_set_reader(reader))
    }

    /// The sorted, distinct feature hashes of `class`, read from its first
    /// document.
    pub fn feature_set(&self, class: ClassId) -> crate::Result<Vec<u64>> {
        self.read(class, |reader| {
            self.fingerprinter.feature_set_reader(reader)
        })
    }

    /// Reads the first document of `class` again with `measure`.
    fn read(
        &self,
        class: ClassId,
        measure: impl Fn(&mut dyn Read) -> std::io::Result<Vec<u64>>,
    ) -> crate::Result<Vec<u64>> {
        let first = self.documents.classes()[class as usize].first;
        let name = || self.documents.name(first);
        if let Some(text) = self.documents.class_text(class) {
            let text = text.map_err(|source| Error::io_named(name(), source))?;
            return measure(&mut text.as_slice()).map_err(|source| Error::io_named(name(), source));
        }
        match self.documents.source(first) {
            // The same text the file was fingerprinted from.
            Source::Path(path) => (self.fingerprinter.options().view)
                .reopen(&path)
                .and_then(|mut reader| measure(&mut reader))
                .map_err(|source| Error::io(&path, source)),
            Source::Copy(copy) => measure(&mut Positioned { file: copy, at: 0 })
                .map_err(|source| Error::io_named(name(), source)),
            Source::Lost(why) => Err(Error::data(name(), why)),
        }
    }
}
