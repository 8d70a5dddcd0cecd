//! Reading a document again for verification: its sorted, distinct
//! feature set, from its file, from the record spool, or from the path a
//! saved fingerprint names.

use std::fs::File;
use std::sync::Mutex;

use crate::Error;
use crate::fingerprint::Fingerprinter;
use crate::search::DocId;

use super::documents::{DocumentRef, Documents, Spool};

/// Reads the feature sets of documents; shared by the verification
/// workers (the spool is read under a lock, files are opened per read).
pub struct Sources<'a> {
    refs: &'a [DocumentRef],
    spool: Option<Mutex<&'a mut Spool>>,
    fingerprinter: &'a Fingerprinter,
}

impl<'a> Sources<'a> {
    /// Sources for the documents of a run.
    pub fn new(documents: &'a mut Documents, fingerprinter: &'a Fingerprinter) -> Sources<'a> {
        Sources {
            refs: &documents.refs,
            spool: documents.spool.as_mut().map(Mutex::new),
            fingerprinter,
        }
    }

    /// The sorted, distinct feature hashes of document `id`.
    pub fn feature_set(&self, id: DocId) -> crate::Result<Vec<u64>> {
        match &self.refs[id as usize] {
            DocumentRef::File(file) => File::open(&file.path)
                .and_then(|reader| self.fingerprinter.feature_set_reader(reader))
                .map_err(|source| Error::io(&file.path, source)),
            DocumentRef::Named(name) => File::open(name)
                .and_then(|reader| self.fingerprinter.feature_set_reader(reader))
                .map_err(|source| Error::io_named(name, source)),
            DocumentRef::Piped { display, copy } => self
                .fingerprinter
                .feature_set_reader(Positioned { file: copy, at: 0 })
                .map_err(|source| Error::io_named(display, source)),
            DocumentRef::Record { id, offset, len } => {
                let name = format!("{}: record {id}", crate::error::STDIN);
                let (Some(offset), Some(spool)) = (offset, &self.spool) else {
                    return Err(Error::data(name, "its text was not kept"));
                };
                let text = spool
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .read(*offset, *len)
                    .map_err(|source| Error::io_named(&name, source))?;
                Ok(self.fingerprinter.feature_set_bytes(&text))
            }
        }
    }
}

/// Reads a shared file from the start with positioned reads, so several
/// threads can read it at once.
struct Positioned<'a> {
    file: &'a File,
    at: u64,
}

impl std::io::Read for Positioned<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        #[cfg(unix)]
        let n = std::os::unix::fs::FileExt::read_at(self.file, buf, self.at)?;
        #[cfg(windows)]
        let n = std::os::windows::fs::FileExt::seek_read(self.file, buf, self.at)?;
        self.at += n as u64;
        Ok(n)
    }
}
