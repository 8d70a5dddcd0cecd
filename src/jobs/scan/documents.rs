//! The document table of a run: every input that got a fingerprint, by
//! [`DocId`], with its name and what is needed to read it again.
//!
//! It also does the accounting: each input is counted exactly once, as
//! fingerprinted, too short, empty, skipped (with its reason) or failed.
//!
//! Memory per document is kept small, since a run may hold 10^7 of them:
//! names live in one arena ([`Names`]); in raw mode a document is its
//! search entry (id and fingerprint, 16 bytes); when verifying, documents
//! with the same features join one class and a document is its class
//! number (4 bytes), while classes hold the fingerprint, the feature count
//! and the first member, the one read again.

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::sync::Arc;

use crate::diag::Diagnostics;
use crate::fingerprint::Fingerprint;
use crate::input::{Outcome, SkipReason};
use crate::input::{Positioned, RecordSource, path_from_bytes};
use crate::report::Names;
use crate::report::texts::TextSpool;
use crate::search::DocId;
use crate::verify::sketch::Sketch;

use super::short::ShortMeasure;

/// A document's name as its input gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DocumentName {
    /// A path (as bytes: any path, UTF-8 or not), a record id, a saved name.
    Bytes(Vec<u8>),
    /// A record named by its line number.
    Line(u64),
}

impl std::fmt::Display for DocumentName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DocumentName::Bytes(bytes) => f.write_str(&String::from_utf8_lossy(bytes)),
            DocumentName::Line(line) => write!(f, "{line}"),
        }
    }
}

/// How a document can be read again.
#[derive(Debug)]
pub enum Origin {
    /// A file: its name is its path.
    File,
    /// A line of a fingerprint file: its name is read again as a path.
    Saved,
    /// A record of a stream: its text, kept if it starts a class, and
    /// where it starts in the stream, if known (then, with a record
    /// source, it is read again from there instead).
    Record(Vec<u8>, Option<u64>),
    /// A FIFO named on the command line: a copy of its bytes.
    Piped(File),
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
    pub features: u32,
    /// The first member, in input order: the one read again to verify.
    pub first: DocId,
    /// Fewer features than `--min-features`: matched by exact content only.
    pub exact_only: bool,
    /// The character-pair fingerprint, when a member is a short text
    /// (see `short`).
    pub short_text: Option<ShortText>,
    /// The digest of the class's features (0: not known, as for saved
    /// fingerprints and classes matched by content): the key of its
    /// verdicts in a scan cache.
    pub digest: u64,
}

/// The character-pair fingerprint of a short text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShortText {
    /// Its SimHash.
    pub simhash: u64,
    /// Its features counted.
    pub features: u32,
}

/// Class numbers, in order of first member.
pub type ClassId = u32;

/// How documents are kept for the search.
#[derive(Debug)]
pub enum Grouping {
    /// Raw mode: each document is searched with its own fingerprint.
    Raw {
        /// `(id, simhash)` of documents with enough features.
        entries: Vec<(DocId, u64)>,
        /// `(id, content hash)` of those with too few features, matched
        /// by content only.
        exact_only: Vec<(DocId, u64)>,
    },
    /// Verified mode: documents with the same features form classes.
    Classes {
        /// The class of each document.
        class_of: Vec<ClassId>,
        /// The classes, by number.
        classes: Vec<Class>,
        /// The class of each key (feature digest; content hash when
        /// matched by content only).
        index: HashMap<u64, ClassId>,
        /// Which documents are short texts, one bit each.
        short_texts: Vec<u64>,
        /// The sketch of each class's character pairs, when its first
        /// document is a short text (the one verification reads); up to
        /// the last class with one.
        sketches: Vec<Sketch>,
    },
}

/// The bit of a class's text place that says it is in the record source.
const IN_SOURCE: u64 = 1 << 63;

/// The text place of a class whose text was not kept.
const NOT_KEPT: u64 = IN_SOURCE - 1;

/// The documents of a run and their fingerprints, filled in input order.
#[derive(Debug)]
pub struct Documents {
    names: Names,
    /// What a name means: a path to read again, or only a name.
    names_are_paths: bool,
    /// How documents are kept for the search.
    pub grouping: Grouping,
    /// Texts of records that start a class, in class order.
    spool: Option<Spool>,
    /// The file the records come from, when it can be read again: then
    /// their texts are read from it, not spooled.
    record_source: Option<RecordSource>,
    /// Where each class's text is (records only): its start in the spool,
    /// or with [`IN_SOURCE`] set, its record's start in the source.
    text_starts: Vec<u64>,
    /// Copies of piped documents.
    piped: HashMap<DocId, Arc<File>>,
    /// Every record's text (or its start), for the report.
    report_texts: Option<TextSpool>,
    min_features: u64,
    /// The first new document: those before it come from a stored corpus
    /// (`scan --against`), and pairs of two of them are not reported.
    pub fresh_from: DocId,
    /// Documents that are no members of anything, one bit each (empty
    /// when there are none): stored rows replaced by a new document.
    superseded: Vec<u64>,
}

impl Documents {
    /// An empty table. Documents with fewer than `min_features` features
    /// are matched by exact content only; `classes` joins documents with
    /// the same features (verified mode) instead of keeping each apart.
    pub fn new(min_features: u64, classes: bool) -> Self {
        let grouping = if classes {
            Grouping::Classes {
                class_of: Vec::new(),
                classes: Vec::new(),
                index: HashMap::new(),
                short_texts: Vec::new(),
                sketches: Vec::new(),
            }
        } else {
            Grouping::Raw {
                entries: Vec::new(),
                exact_only: Vec::new(),
            }
        };
        Documents {
            names: Names::default(),
            names_are_paths: true,
            grouping,
            spool: None,
            record_source: None,
            text_starts: Vec::new(),
            piped: HashMap::new(),
            report_texts: None,
            min_features,
            fresh_from: 0,
            superseded: Vec::new(),
        }
    }

    /// Keeps the text of records that start a class in an anonymous
    /// temporary file, so verification can read them again (once: stored
    /// records and new ones share the spool).
    pub fn keep_texts(&mut self) -> io::Result<()> {
        if self.spool.is_none() {
            self.spool = Some(Spool::new()?);
        }
        Ok(())
    }

    /// Reads the texts of records that start a class again from `source`,
    /// the file they come from, rather than spooling them (records given
    /// with their place, [`Origin::Record`]).
    pub fn read_texts_from(&mut self, source: RecordSource) {
        self.record_source = Some(source);
    }

    /// Whether record texts are read again from their file.
    pub fn reads_texts_from_source(&self) -> bool {
        self.record_source.is_some()
    }

    /// Keeps the start of every record's text, up to `max_bytes`, in an
    /// anonymous temporary file, so the report can show the texts of the
    /// documents it lists.
    pub fn keep_report_texts(&mut self, max_bytes: usize, diag: &mut Diagnostics) {
        match TextSpool::new(max_bytes) {
            Ok(spool) => self.report_texts = Some(spool),
            Err(error) => diag.error(format_args!(
                "cannot create a temporary file to keep the records' texts: {error}"
            )),
        }
    }

    /// The records' texts kept for the report, once collection is done.
    pub fn take_report_texts(&mut self) -> Option<TextSpool> {
        self.report_texts.take()
    }

    /// How many documents have an id.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Accounts for one input's outcome, in input order.
    pub fn record(
        &mut self,
        outcome: Outcome<(DocumentName, Origin, Fingerprint, Option<ShortMeasure>)>,
        diag: &mut Diagnostics,
    ) {
        match outcome {
            Outcome::Done((name, origin, fingerprint, short_text)) => {
                self.fingerprinted(name, origin, fingerprint, short_text, diag)
            }
            Outcome::Skipped { name, reason } => self.skipped(&name, reason, diag),
            Outcome::Failed(error) => self.failed(error, diag),
        }
    }

    /// Counts an input passed over.
    pub fn skipped(&mut self, name: &str, reason: SkipReason, diag: &mut Diagnostics) {
        diag.tally.seen += 1;
        diag.tally.skip(reason);
        diag.skip_note(name, reason);
    }

    /// Reports and counts an input that could not be read.
    pub fn failed(&mut self, error: impl std::fmt::Display, diag: &mut Diagnostics) {
        diag.tally.seen += 1;
        diag.error(error);
    }

    /// Adds a fingerprinted document, with its character-pair fingerprint
    /// when it is a short text. Empty documents are only counted; those
    /// with too few features are matched by exact content.
    ///
    /// Documents join a class by the digest of their features (by their
    /// raw content when short); fingerprints read back from a file have no
    /// such digest and are each a class of their own.
    pub fn fingerprinted(
        &mut self,
        name: DocumentName,
        origin: Origin,
        fingerprint: Fingerprint,
        short_text: Option<ShortMeasure>,
        diag: &mut Diagnostics,
    ) {
        diag.tally.seen += 1;
        diag.tally.bytes += fingerprint.bytes;
        if fingerprint.features == 0 {
            diag.tally.empty += 1;
            diag.note(format_args!("{name}: no features (empty)"));
            return;
        }
        let Ok(id) = DocId::try_from(self.names.len()) else {
            diag.error(format_args!(
                "{name}: more than {} documents in one run; the rest are not searched",
                DocId::MAX
            ));
            return;
        };
        let kept = match name {
            DocumentName::Bytes(bytes) => self.names.push(&bytes),
            DocumentName::Line(line) => self.names.push_number(line),
        };
        if let Err(error) = kept {
            diag.error(format_args!("cannot keep the names of documents: {error}"));
            return;
        }
        // One entry per document with an id, in order, as the names.
        if let (Some(spool), Origin::Record(text, _)) = (self.report_texts.as_mut(), &origin)
            && let Err(error) = spool.push(text)
        {
            diag.error(format_args!(
                "cannot keep the records' texts for the report: {error}"
            ));
            self.report_texts = None;
        }
        let exact_only = fingerprint.features < self.min_features;
        if exact_only {
            diag.tally.too_short += 1;
        } else {
            diag.tally.fingerprinted += 1;
        }
        let key = match (&origin, exact_only) {
            (_, true) => Some(content_key(fingerprint.content_hash)),
            (Origin::Saved, false) => None,
            (_, false) => Some(fingerprint.feature_digest),
        };
        let text = match origin {
            Origin::File => None,
            Origin::Saved => {
                self.names_are_paths = true;
                None
            }
            Origin::Record(text, at) => {
                self.names_are_paths = false;
                Some((text, at))
            }
            Origin::Piped(copy) => {
                self.piped.insert(id, Arc::new(copy));
                None
            }
        };
        match &mut self.grouping {
            Grouping::Raw {
                entries,
                exact_only: by_content,
            } => {
                if exact_only {
                    by_content.push((id, fingerprint.content_hash));
                } else {
                    entries.push((id, fingerprint.simhash));
                }
            }
            Grouping::Classes {
                class_of,
                classes,
                index,
                short_texts,
                sketches,
            } => {
                let next = classes.len() as ClassId;
                let class = match key {
                    Some(key) => *index.entry(key).or_insert(next),
                    None => next,
                };
                class_of.push(class);
                let short_measure = short_text.filter(|_| !exact_only);
                let short_text = short_measure.map(|short| ShortText {
                    simhash: short.fingerprint.simhash,
                    features: u32::try_from(short.fingerprint.features).unwrap_or(u32::MAX),
                });
                if id as usize / 64 >= short_texts.len() {
                    short_texts.push(0);
                }
                if short_text.is_some() {
                    short_texts[id as usize / 64] |= 1 << (id % 64);
                }
                if class != next {
                    // Same features: a later short member gives the class
                    // its character-pair fingerprint.
                    let known = &mut classes[class as usize].short_text;
                    *known = known.or(short_text);
                    return;
                }
                // Only the class's first document is read to verify it, so
                // only its sketch speaks for the class.
                if let Some(short) = short_measure
                    && short.sketch != Sketch::NONE
                {
                    sketches.resize(next as usize, Sketch::NONE);
                    sketches.push(short.sketch);
                }
                classes.push(Class {
                    simhash: fingerprint.simhash,
                    features: u32::try_from(fingerprint.features).unwrap_or(u32::MAX),
                    first: id,
                    exact_only,
                    short_text,
                    digest: match key {
                        Some(_) if !exact_only => fingerprint.feature_digest,
                        _ => 0,
                    },
                });
                match text {
                    Some((_, Some(at))) if self.record_source.is_some() && at < IN_SOURCE => {
                        self.text_starts.push(IN_SOURCE | at);
                    }
                    Some((text, _)) => self.keep_text(&text, diag),
                    None => {}
                }
            }
        }
    }

    /// Appends the text of the class just started to the spool.
    /// Every class gets an entry, kept or not, so that texts from the
    /// spool and from the source stay in step with their classes.
    fn keep_text(&mut self, text: &[u8], diag: &mut Diagnostics) {
        let Some(spool) = self.spool.as_mut() else {
            self.text_starts.push(NOT_KEPT);
            return;
        };
        match spool.append(text) {
            Ok(at) => self.text_starts.push(at),
            Err(error) => {
                diag.error(format_args!(
                    "cannot keep records for verification: {error}"
                ));
                self.spool = None;
                self.text_starts.push(NOT_KEPT);
            }
        }
    }

    /// The name of a document, as shown.
    pub fn name(&self, id: DocId) -> String {
        self.names.text(id as usize)
    }

    /// The name of a document, as its input gave it.
    pub fn name_bytes(&self, id: DocId) -> io::Result<Vec<u8>> {
        self.names.get(id as usize).map(|name| name.into_owned())
    }

    /// The names, for the report, once the documents are done with.
    pub fn into_names(self) -> Names {
        self.names
    }

    /// How to read a document again.
    pub fn source(&self, id: DocId) -> Source<'_> {
        if let Some(copy) = self.piped.get(&id) {
            return Source::Copy(copy);
        }
        if self.names_are_paths {
            return match self.names.get(id as usize) {
                Ok(bytes) => Source::Path(path_from_bytes(&bytes)),
                Err(error) => Source::Lost(error.to_string()),
            };
        }
        Source::Lost("its text was not kept".to_string())
    }

    /// The kept text of a class (records), if any.
    pub fn class_text(&self, class: ClassId) -> Option<io::Result<Vec<u8>>> {
        let start = *self.text_starts.get(class as usize)?;
        if start == NOT_KEPT {
            return None;
        }
        if start & IN_SOURCE != 0 {
            return Some(self.record_source.as_ref()?.text(start & !IN_SOURCE));
        }
        Some(self.spool.as_ref()?.read(start))
    }

    /// The classes (verified mode), else nothing.
    pub fn classes(&self) -> &[Class] {
        match &self.grouping {
            Grouping::Classes { classes, .. } => classes,
            Grouping::Raw { .. } => &[],
        }
    }

    /// The sketch of class `class`'s character pairs: [`Sketch::NONE`]
    /// (it may reach any threshold) unless its first document is a short
    /// text sketched in this run.
    pub fn short_sketch(&self, class: ClassId) -> Sketch {
        match &self.grouping {
            Grouping::Classes { sketches, .. } => sketches
                .get(class as usize)
                .copied()
                .unwrap_or(Sketch::NONE),
            Grouping::Raw { .. } => Sketch::NONE,
        }
    }

    /// Whether document `id` is a short text (verified mode).
    pub fn is_short_text(&self, id: DocId) -> bool {
        match &self.grouping {
            Grouping::Classes { short_texts, .. } => is_set(short_texts, id),
            Grouping::Raw { .. } => false,
        }
    }

    /// The class of every document (verified mode), else nothing.
    pub fn class_of(&self) -> &[ClassId] {
        match &self.grouping {
            Grouping::Classes { class_of, .. } => class_of,
            Grouping::Raw { .. } => &[],
        }
    }

    /// Ends collection: no more documents (frees the class index and
    /// unused capacity).
    pub fn finish(&mut self) {
        if let Grouping::Classes {
            class_of, index, ..
        } = &mut self.grouping
        {
            *index = HashMap::new();
            class_of.shrink_to_fit();
        }
    }

    /// Takes documents `ids` out of the run, once collection is done:
    /// they are searched, paired and grouped no more (a class keeps its
    /// fingerprint and the member it reads again, which the caller must
    /// know still has the class's features, or leaves it without members).
    pub fn supersede(&mut self, ids: impl IntoIterator<Item = DocId>) {
        for id in ids {
            let word = id as usize / 64;
            if word >= self.superseded.len() {
                self.superseded.resize(word + 1, 0);
            }
            self.superseded[word] |= 1 << (id % 64);
        }
        if let Grouping::Raw {
            entries,
            exact_only,
        } = &mut self.grouping
        {
            let superseded = &self.superseded;
            let kept = |&(id, _): &(DocId, u64)| !is_set(superseded, id);
            entries.retain(kept);
            exact_only.retain(kept);
        }
    }

    /// Whether document `id` was taken out of the run ([`Self::supersede`]).
    pub fn is_superseded(&self, id: DocId) -> bool {
        is_set(&self.superseded, id)
    }

    /// The members of every class (verified mode), superseded documents
    /// left out.
    pub fn members(&self) -> Members {
        let Grouping::Classes {
            class_of, classes, ..
        } = &self.grouping
        else {
            return Members {
                starts: vec![0],
                ids: Vec::new(),
            };
        };
        let listed = |id: usize| !self.is_superseded(id as DocId);
        let mut starts = vec![0u32; classes.len() + 1];
        for (id, &class) in class_of.iter().enumerate() {
            if listed(id) {
                starts[class as usize + 1] += 1;
            }
        }
        for i in 1..starts.len() {
            starts[i] += starts[i - 1];
        }
        let mut next = starts.clone();
        let mut ids = vec![0; starts[classes.len()] as usize];
        for (id, &class) in class_of.iter().enumerate() {
            if !listed(id) {
                continue;
            }
            ids[next[class as usize] as usize] = id as DocId;
            next[class as usize] += 1;
        }
        Members { starts, ids }
    }
}

/// Whether bit `id` of `bits` is set (bits past the end are not).
fn is_set(bits: &[u64], id: DocId) -> bool {
    bits.get(id as usize / 64)
        .is_some_and(|word| word >> (id % 64) & 1 == 1)
}

/// Keys of documents matched by raw content never meet the feature
/// digests of the others.
fn content_key(content_hash: u64) -> u64 {
    content_hash ^ 0x5407_7e4c_0a7e_17ed
}

/// How a document is read again.
#[derive(Debug)]
pub enum Source<'a> {
    /// Open this path.
    Path(PathBuf),
    /// Read this copy.
    Copy(&'a File),
    /// It cannot be: why.
    Lost(String),
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

/// Record texts written aside so that verification can read them again
/// without holding the stream in memory.
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

    /// Appends a record's text, after its length, and returns its offset.
    pub fn append(&mut self, text: &[u8]) -> io::Result<u64> {
        let offset = self.length;
        let length = (text.len() as u64).to_le_bytes();
        self.file.write_all(&length)?;
        self.file.write_all(text)?;
        self.length += (length.len() + text.len()) as u64;
        Ok(offset)
    }

    /// Reads back the text appended at `offset` (positioned reads: any
    /// thread).
    pub fn read(&self, offset: u64) -> io::Result<Vec<u8>> {
        let mut reader = Positioned {
            file: &self.file,
            at: offset,
        };
        let mut length = [0; 8];
        reader.read_exact(&mut length)?;
        let length = u64::from_le_bytes(length);
        if length > self.length {
            return Err(io::Error::other("the spool of record texts is damaged"));
        }
        let mut text = Vec::with_capacity(length as usize);
        reader.take(length).read_to_end(&mut text)?;
        Ok(text)
    }
}

#[cfg(test)]
mod tests {
    use super::super::short::{Measures, ShortTexts};
    use super::*;
    use crate::fingerprint::{FeatureOptions, Fingerprinter};

    #[test]
    fn a_class_has_the_sketch_of_its_first_document_only() {
        let features = FeatureOptions::default();
        let measures = Measures {
            fingerprinter: Fingerprinter::new(features.clone()),
            short: Some(ShortTexts::new(&features)),
        };
        let mut documents = Documents::new(1, true);
        let mut diag = Diagnostics::new(false);
        let texts = [
            "one two three four",
            // Two lines, not a short text; then the same words on one line.
            "five six seven\neight nine",
            "five six seven eight nine",
        ];
        for (line, text) in (1..).zip(texts) {
            let bytes = text.as_bytes();
            documents.fingerprinted(
                DocumentName::Line(line),
                Origin::Record(bytes.to_vec(), None),
                measures.fingerprinter.fingerprint_bytes(bytes),
                measures.short_text(Some(bytes)),
                &mut diag,
            );
        }
        assert_eq!(documents.classes().len(), 2);
        let short = measures.short.as_ref().unwrap();
        assert_eq!(
            documents.short_sketch(0),
            Sketch::of(&short.feature_set(texts[0].as_bytes()))
        );
        // Verification reads the class's first document, which the short
        // copy's sketch does not describe: the class has none.
        assert!(documents.classes()[1].short_text.is_some());
        assert_eq!(documents.short_sketch(1), Sketch::NONE);
        assert_eq!(documents.short_sketch(7), Sketch::NONE);
    }

    #[test]
    fn superseded_documents_are_members_of_nothing() {
        let fingerprinter = Fingerprinter::new(FeatureOptions::default());
        let mut documents = Documents::new(1, true);
        let mut diag = Diagnostics::new(false);
        for line in 1..=3 {
            let text = b"the same words in every document";
            documents.fingerprinted(
                DocumentName::Line(line),
                Origin::Record(text.to_vec(), None),
                fingerprinter.fingerprint_bytes(text),
                None,
                &mut diag,
            );
        }
        assert_eq!(documents.members().of(0), [0, 1, 2]);
        documents.supersede([0, 2]);
        assert!(documents.is_superseded(2) && !documents.is_superseded(1));
        assert_eq!(documents.members().of(0), [1]);
        // A class of one document left is no group.
        let groups = super::super::listing::groups(&[], documents.class_of(), 1, |id| {
            !documents.is_superseded(id)
        });
        assert!(groups.is_empty(), "{groups:?}");
        // In raw mode, they are not searched.
        let mut raw = Documents::new(1, false);
        for line in 1..=2 {
            let text = b"the same words in every document";
            raw.fingerprinted(
                DocumentName::Line(line),
                Origin::Record(text.to_vec(), None),
                fingerprinter.fingerprint_bytes(text),
                None,
                &mut diag,
            );
        }
        raw.supersede([0]);
        let Grouping::Raw { entries, .. } = &raw.grouping else {
            unreachable!()
        };
        assert_eq!(entries.iter().map(|&(id, _)| id).collect::<Vec<_>>(), [1]);
    }
}
