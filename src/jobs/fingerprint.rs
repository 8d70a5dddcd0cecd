//! The `fingerprint` job: one SimHash fingerprint, or one htm.core sparse
//! encoding, per document, in input order.
//!
//! Inputs are paths (files and directories, walked with the scan's rules)
//! and `-` for standard input as one document. Every document is opened
//! through the input layer, so the binary sniff, size limit and FIFO policy
//! are the scan's. Results reach the caller in input order, whatever the
//! thread count; skips and errors are reported and counted in
//! [`Diagnostics`].

use std::io;
use std::ops::ControlFlow;
use std::path::PathBuf;

use crate::diag::Diagnostics;
use crate::error::STDIN;
use crate::fingerprint::{Fingerprint, Fingerprinter, SdrShape};
use crate::input::{self, FileDocument, Outcome, Walk, WalkOptions, path_bytes};
use crate::jobs::scan::{Prefix, ShortTexts};
use crate::parallel::{Ahead, FILES_PER_TASK, for_each_ordered_chunked};
use crate::{Error, jobs};

/// What to compute for each document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// The 64-bit SimHash fingerprint.
    SimHash,
    /// htm.core's sparse encoding of this shape.
    Sdr(SdrShape),
}

/// What was computed for one document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Encoded {
    /// A fingerprint (of an empty document too: `features` is then 0).
    SimHash {
        /// By the chosen features.
        fingerprint: Fingerprint,
        /// By character pairs, for a short text when they are measured
        /// (one line of at most 256 characters: a scan compares two of
        /// them so, README "Short texts").
        short_text: Option<Fingerprint>,
    },
    /// The ascending active indices (empty for a document without features).
    Sdr(Vec<usize>),
}

impl Encoded {
    /// Whether the document had no features.
    pub fn is_empty(&self) -> bool {
        match self {
            Encoded::SimHash { fingerprint, .. } => fingerprint.features == 0,
            Encoded::Sdr(active) => active.is_empty(),
        }
    }
}

/// A document to encode.
enum Input {
    File(FileDocument),
    Stdin,
}

/// Encodes every document of `paths` (`-`: stdin) and calls `emit(name,
/// encoded)` for each, in input order, with the name as bytes (a path need
/// not be UTF-8). With `short_texts`, a short text's SimHash comes with
/// its character pairs' too. Documents without features are
/// warned about; a SimHash still reaches `emit` (its writer decides how to
/// show it), an empty sparse encoding does not. The first error `emit`
/// returns stops the run and is returned (a closed pipe, a full disk).
pub fn run(
    paths: &[PathBuf],
    walk: &WalkOptions,
    fingerprinter: &Fingerprinter,
    encoding: Encoding,
    short_texts: bool,
    diag: &mut Diagnostics,
    mut emit: impl FnMut(&[u8], &Encoded) -> io::Result<()>,
) -> io::Result<()> {
    let short = short_texts.then(|| ShortTexts::new(fingerprinter.options()));
    let inputs = Inputs {
        paths: paths.iter(),
        walk: Walk::new(&[], walk),
    };
    let mut write_error = None;
    for_each_ordered_chunked(
        inputs,
        FILES_PER_TASK,
        Ahead::Few,
        |found| match found {
            Outcome::Done(Input::File(file)) => file.walked_size(),
            _ => 0,
        },
        |found| {
            let opened = matches!(found, Outcome::Done(_));
            let outcome = found
                .and_then(|input| encode(fingerprinter, short.as_ref(), walk, encoding, input));
            (opened, outcome)
        },
        |_, (opened, outcome)| {
            match outcome {
                Outcome::Done((name, encoded)) => {
                    diag.tally.seen += 1;
                    if encoded.is_empty() {
                        diag.tally.empty += 1;
                        let what = match encoding {
                            Encoding::SimHash => "fingerprint",
                            Encoding::Sdr(_) => "encoding",
                        };
                        diag.warn(format_args!(
                            "{}: no features (empty), no {what}",
                            String::from_utf8_lossy(&name)
                        ));
                        if matches!(encoding, Encoding::Sdr(_)) {
                            return ControlFlow::Continue(());
                        }
                    } else {
                        diag.tally.fingerprinted += 1;
                    }
                    if let Err(error) = emit(&name, &encoded) {
                        write_error = Some(error);
                        return ControlFlow::Break(());
                    }
                }
                Outcome::Skipped { name, reason } => {
                    diag.tally.seen += 1;
                    diag.tally.skip(reason);
                    // A file the walk found is passed over quietly; one that
                    // was opened and then refused (binary, too large) is
                    // worth saying.
                    if opened {
                        diag.warn(format_args!("{name}: skipped ({reason})"));
                    } else {
                        diag.note(format_args!("{name}: skipped ({reason})"));
                    }
                }
                Outcome::Failed(error) => {
                    diag.tally.seen += 1;
                    diag.error(error);
                }
            }
            ControlFlow::Continue(())
        },
    );
    match write_error {
        Some(error) => Err(error),
        None => Ok(()),
    }
}

/// The inputs of the paths, in order: `-` is stdin, every other path is
/// walked by one walk, so that a file reached twice (given again, inside a
/// directory given too, or a hard link) is read once, as a scan reads it.
struct Inputs<'a> {
    paths: std::slice::Iter<'a, PathBuf>,
    walk: Walk,
}

impl Iterator for Inputs<'_> {
    type Item = Outcome<Input>;

    fn next(&mut self) -> Option<Outcome<Input>> {
        loop {
            if let Some(found) = self.walk.next() {
                return Some(found.map(Input::File));
            }
            let path = self.paths.next()?;
            if jobs::is_stdin(path) {
                return Some(Outcome::Done(Input::Stdin));
            }
            self.walk.push_root(path.clone());
        }
    }
}

/// Encodes one document; its name is the path's bytes, or `-` for stdin
/// (as sha256sum names it). With `short`, a short text's first bytes are
/// kept as it is read, for its character pairs.
fn encode(
    fingerprinter: &Fingerprinter,
    short: Option<&ShortTexts>,
    walk: &WalkOptions,
    encoding: Encoding,
    input: Input,
) -> Outcome<(Vec<u8>, Encoded)> {
    let (name, error_name, opened) = match input {
        Input::Stdin => (
            b"-".to_vec(),
            STDIN.to_string(),
            Outcome::Done(Box::new(io::stdin()) as Box<dyn io::Read + Send>),
        ),
        Input::File(file) => {
            let opened = input::open_view(&file, walk, &fingerprinter.options().view);
            (path_bytes(&file.path).to_vec(), file.display, opened)
        }
    };
    opened.and_then(|reader| {
        let encoded =
            match encoding {
                // Only a short text's first bytes are kept, and only when its
                // character pairs are wanted.
                Encoding::SimHash => match short {
                    Some(short) => {
                        let mut prefix = Prefix::new(reader);
                        fingerprinter
                            .fingerprint_reader(&mut prefix)
                            .map(|fingerprint| Encoded::SimHash {
                                fingerprint,
                                short_text: prefix.whole().and_then(|text| short.fingerprint(text)),
                            })
                    }
                    None => fingerprinter.fingerprint_reader(reader).map(|fingerprint| {
                        Encoded::SimHash {
                            fingerprint,
                            short_text: None,
                        }
                    }),
                },
                Encoding::Sdr(shape) => fingerprinter
                    .sdr_reader(reader, shape.size, shape.active)
                    .map(Encoded::Sdr),
            };
        match encoded {
            Ok(encoded) => Outcome::Done((name, encoded)),
            Err(source) => Outcome::Failed(Error::io_named(error_name, source)),
        }
    })
}
