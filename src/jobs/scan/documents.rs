//! The document table of a run: every input that got a fingerprint, by
//! [`DocId`], with what is needed to name it and to read it again.
//!
//! It also does the accounting: each input is counted exactly once, as
//! fingerprinted, too short, empty, skipped (with its reason) or failed.

use std::borrow::Cow;
use std::collections::HashMap;
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
    /// A record of stdin; its text is kept in the spool at `offset` when
    /// it must be read again (the first record of each class).
    Record {
        /// The record id.
        id: String,
        /// Where its bytes start in the spool, if they were kept.
        offset: Option<u64>,
        /// How many bytes.
        len: u64,
    },
    /// A line of a fingerprint file: the name it gave (read again as a path).
    Named(String),
    /// A FIFO or process substitution named on the command line: it cannot
    /// be read twice, so its bytes were copied aside as it was read.
    Piped {
        /// The path as given.
        display: String,
        /// An anonymous temporary file with its bytes.
        copy: std::sync::Arc<File>,
    },
}

impl DocumentRef {
    /// The name shown to users: a path or a record id.
    pub fn name(&self) -> Cow<'_, str> {
        match self {
            DocumentRef::File(file) => Cow::Borrowed(&file.display),
            DocumentRef::Record { id, .. } => Cow::Borrowed(id),
            DocumentRef::Named(name) => Cow::Borrowed(name),
            DocumentRef::Piped { display, .. } => Cow::Borrowed(display),
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

/// Documents with the same features: one fingerprint, one feature set,
/// so every pair among them is a near-duplicate with Jaccard 1 and the
/// class is searched and verified once, through its first member.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Class {
    /// The shared SimHash.
    pub simhash: u64,
    /// Features counted by the fingerprint (an upper bound on the distinct
    /// features an exact Jaccard compares).
    pub features: u64,
    /// The first member, in input order: the one read again to verify.
    pub first: DocId,
    /// Fewer features than `--min-features`: matched by exact content only.
    pub short: bool,
}

/// Class numbers, in order of first member.
pub type ClassId = u32;

/// The documents of a run and their fingerprints, filled in input order.
#[derive(Debug)]
pub struct Documents {
    /// Documents with at least one feature, by `DocId`.
    pub refs: Vec<DocumentRef>,
    /// The class of each document, by `DocId`.
    pub class_of: Vec<ClassId>,
    /// Classes of documents with the same features, by `ClassId`.
    pub classes: Vec<Class>,
    /// The class of each key seen; see [`Documents::fingerprinted`].
    index: HashMap<(bool, u64), ClassId>,
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
            class_of: Vec::new(),
            classes: Vec::new(),
            index: HashMap::new(),
            spool: None,
            min_features,
        }
    }

    /// Accounts for one input's outcome, in input order.
    pub fn record(&mut self, outcome: Outcome<(DocumentRef, Fingerprint)>, diag: &mut Diagnostics) {
        match outcome {
            Outcome::Done((document, fingerprint)) => {
                self.fingerprinted(document, fingerprint, diag);
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

    /// Adds a fingerprinted document and returns whether it starts a new
    /// class (so its text is the one to keep for verification). Empty
    /// documents are only counted; short ones are matched by exact content.
    ///
    /// Documents join a class by the digest of their features (by their
    /// raw content when short); fingerprints read back from a file have no
    /// such digest and are each a class of their own.
    pub fn fingerprinted(
        &mut self,
        document: DocumentRef,
        fingerprint: Fingerprint,
        diag: &mut Diagnostics,
    ) -> bool {
        diag.tally.seen += 1;
        diag.tally.bytes += fingerprint.bytes;
        if fingerprint.features == 0 {
            diag.tally.empty += 1;
            diag.note(format_args!("{}: no features (empty)", document.name()));
            return false;
        }
        let Ok(id) = DocId::try_from(self.refs.len()) else {
            diag.error(format_args!(
                "{}: more than {} documents in one run; the rest are not searched",
                document.name(),
                DocId::MAX
            ));
            return false;
        };
        let short = fingerprint.features < self.min_features;
        if short {
            diag.tally.too_short += 1;
        } else {
            diag.tally.fingerprinted += 1;
        }
        let key = match (&document, short) {
            (_, true) => Some(fingerprint.content_hash),
            (DocumentRef::Named(_), false) => None,
            (_, false) => Some(fingerprint.content_hash),
        };
        self.refs.push(document);
        let next = self.classes.len() as ClassId;
        let class = match key {
            Some(key) => *self.index.entry((short, key)).or_insert(next),
            None => next,
        };
        self.class_of.push(class);
        if class != next {
            return false;
        }
        self.classes.push(Class {
            simhash: fingerprint.simhash,
            features: fingerprint.features,
            first: id,
            short,
        });
        true
    }

    /// The name of a document.
    pub fn name(&self, id: DocId) -> Cow<'_, str> {
        self.refs[id as usize].name()
    }

    /// The members of every class.
    pub fn members(&self) -> Members {
        let mut starts = vec![0u32; self.classes.len() + 1];
        for &class in &self.class_of {
            starts[class as usize + 1] += 1;
        }
        for i in 1..starts.len() {
            starts[i] += starts[i - 1];
        }
        let mut next = starts.clone();
        let mut ids = vec![0; self.class_of.len()];
        for (id, &class) in self.class_of.iter().enumerate() {
            ids[next[class as usize] as usize] = id as DocId;
            next[class as usize] += 1;
        }
        Members { starts, ids }
    }

    /// Keeps the text of the record just added, so verification can read
    /// it again; on failure verification of it reports an error instead.
    pub fn keep_text(&mut self, text: &[u8], diag: &mut Diagnostics) {
        let Some(spool) = self.spool.as_mut() else {
            return;
        };
        match spool.append(text) {
            Ok(at) => {
                if let Some(DocumentRef::Record { offset, .. }) = self.refs.last_mut() {
                    *offset = Some(at);
                }
            }
            Err(error) => {
                diag.error(format_args!(
                    "cannot keep records for verification: {error}"
                ));
                self.spool = None;
            }
        }
    }
}

/// The documents of each class, in input order (one allocation for all).
#[derive(Debug)]
pub struct Members {
    starts: Vec<u32>,
    ids: Vec<DocId>,
}

impl Members {
    /// The members of `class`, ascending.
    pub fn of(&self, class: ClassId) -> &[DocId] {
        &self.ids[self.starts[class as usize] as usize..self.starts[class as usize + 1] as usize]
    }
}
