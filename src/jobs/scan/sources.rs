//! Reading a class's first document again for verification: its sorted,
//! distinct feature set, from its file, from the copy of a piped document,
//! from the record spool, or from the path a saved fingerprint names.

use std::fs::File;

use crate::Error;
use crate::fingerprint::Fingerprinter;

use super::documents::{ClassId, Documents, Positioned, Source};

/// Reads feature sets; shared by the verification workers.
pub struct Sources<'a> {
    documents: &'a Documents,
    fingerprinter: &'a Fingerprinter,
}

impl<'a> Sources<'a> {
    /// Sources for the documents of a run.
    pub fn new(documents: &'a Documents, fingerprinter: &'a Fingerprinter) -> Sources<'a> {
        Sources {
            documents,
            fingerprinter,
        }
    }

    /// The sorted, distinct feature hashes of `class`, read from its first
    /// document.
    pub fn feature_set(&self, class: ClassId) -> crate::Result<Vec<u64>> {
        let first = self.documents.classes()[class as usize].first;
        let name = || self.documents.name(first);
        if let Some(text) = self.documents.class_text(class) {
            let text = text.map_err(|source| Error::io_named(name(), source))?;
            return Ok(self.fingerprinter.feature_set_bytes(&text));
        }
        match self.documents.source(first) {
            Source::Path(path) => File::open(&path)
                .and_then(|reader| self.fingerprinter.feature_set_reader(reader))
                .map_err(|source| Error::io(&path, source)),
            Source::Copy(copy) => self
                .fingerprinter
                .feature_set_reader(Positioned { file: copy, at: 0 })
                .map_err(|source| Error::io_named(name(), source)),
            Source::Lost(why) => Err(Error::data(name(), why)),
        }
    }
}
