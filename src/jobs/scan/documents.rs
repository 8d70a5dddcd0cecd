//! The document table of a run: every input that got a fingerprint, by
//! [`DocId`], with what is needed to name it and to read it again.
//!
//! It also does the accounting: each input is counted exactly once, as
//! fingerprinted, too short, empty, skipped (with its reason) or failed.

use std::borrow::Cow;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};

use crate::diag::Diagnostics;
use crate::fingerprint::Fingerprint;
use crate::input::{FileDocument, Outcome, SkipReason};
use crate::search::DocId;

/// How a document can be named and read again.
#[derive(Clone, Debug)]
pub enum DocumentRef {
    /// A file on disk.
    File(FileDocument),
    /// A record of stdin, kept in the spool file at `offset` when verifying.
    Record {
        /// The record id.
        id: String,
        /// Where its bytes start in the spool.
        offset: u64,
        /// How many bytes.
        len: u64,
    },
    /// A line of a fingerprint file: the name it gave (read again as a path).
    Named(String),
}

impl DocumentRef {
    /// The name shown to users: a path or a record id.
    pub fn name(&self) -> Cow<'_, str> {
        match self {
            DocumentRef::File(file) => Cow::Borrowed(&file.display),
            DocumentRef::Record { id, .. } => Cow::Borrowed(id),
            DocumentRef::Named(name) => Cow::Borrowed(name),
        }
    }
}

/// Record texts written aside so that `--verify` can read them again
/// without holding stdin in memory.
#[derive(Debug)]
pub struct Spool {
    file: File,
    length: u64,
}

impl Spool {
    /// A new, anonymous temporary spool file.
    pub fn new() -> io::Result<Self> {
        Ok(Spool {
            file: tempfile::tempfile()?,
            length: 0,
        })
    }

    /// Appends a record's text and returns its offset.
    pub fn append(&mut self, text: &[u8]) -> io::Result<u64> {
        let offset = self.length;
        self.file.write_all(text)?;
        self.length += text.len() as u64;
        Ok(offset)
    }

    /// Reads back `len` bytes at `offset`.
    pub fn read(&mut self, offset: u64, len: u64) -> io::Result<Vec<u8>> {
        self.file.seek(SeekFrom::Start(offset))?;
        let mut text = Vec::with_capacity(len as usize);
        (&mut self.file).take(len).read_to_end(&mut text)?;
        // Appends continue at the end.
        self.file.seek(SeekFrom::End(0))?;
        Ok(text)
    }
}

/// The documents of a run and their fingerprints, filled in input order.
#[derive(Debug)]
pub struct Documents {
    /// Documents with at least one feature, by `DocId`.
    pub refs: Vec<DocumentRef>,
    /// `(id, simhash)` of documents with at least `min_features` features.
    pub simhashes: Vec<(DocId, u64)>,
    /// `(id, content hash)` of documents with fewer: matched by exact content.
    pub short: Vec<(DocId, u64)>,
    /// Record texts, when they must be read again.
    pub spool: Option<Spool>,
    min_features: u64,
}

impl Documents {
    /// An empty table; documents with fewer than `min_features` features
    /// are matched by exact content only.
    pub fn new(min_features: u64) -> Self {
        Documents {
            refs: Vec::new(),
            simhashes: Vec::new(),
            short: Vec::new(),
            spool: None,
            min_features,
        }
    }

    /// Accounts for one input's outcome, in input order.
    pub fn record(&mut self, outcome: Outcome<(DocumentRef, Fingerprint)>, diag: &mut Diagnostics) {
        match outcome {
            Outcome::Done((document, fingerprint)) => {
                self.fingerprinted(document, fingerprint, diag)
            }
            Outcome::Skipped { name, reason } => self.skipped(&name, reason, diag),
            Outcome::Failed(error) => self.failed(error, diag),
        }
    }

    /// Counts an input passed over.
    pub fn skipped(&mut self, name: &str, reason: SkipReason, diag: &mut Diagnostics) {
        diag.tally.seen += 1;
        diag.tally.skip(reason);
        diag.note(format_args!("{name}: skipped ({reason})"));
    }

    /// Reports and counts an input that could not be read.
    pub fn failed(&mut self, error: impl std::fmt::Display, diag: &mut Diagnostics) {
        diag.tally.seen += 1;
        diag.error(error);
    }

    /// Adds a fingerprinted document: empty ones are only counted, short
    /// ones go to exact-content matching, the rest to the SimHash search.
    pub fn fingerprinted(
        &mut self,
        document: DocumentRef,
        fingerprint: Fingerprint,
        diag: &mut Diagnostics,
    ) {
        diag.tally.seen += 1;
        diag.tally.bytes += fingerprint.bytes;
        if fingerprint.features == 0 {
            diag.tally.empty += 1;
            diag.note(format_args!("{}: no features (empty)", document.name()));
            return;
        }
        let Ok(id) = DocId::try_from(self.refs.len()) else {
            diag.error(format_args!(
                "{}: more than {} documents in one run; the rest are not searched",
                document.name(),
                DocId::MAX
            ));
            return;
        };
        self.refs.push(document);
        if fingerprint.features < self.min_features {
            diag.tally.too_short += 1;
            self.short.push((id, fingerprint.content_hash));
        } else {
            diag.tally.fingerprinted += 1;
            self.simhashes.push((id, fingerprint.simhash));
        }
    }

    /// The name of a document.
    pub fn name(&self, id: DocId) -> Cow<'_, str> {
        self.refs[id as usize].name()
    }
}
