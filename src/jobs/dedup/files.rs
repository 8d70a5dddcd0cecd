//! `simdup dedup PATH...` and `--files-from`: the files that are not
//! near-duplicates of a file kept before them, in walk order.
//!
//! The walk streams to the workers, which read each file once, for its
//! fingerprint and (unless it is large) its feature set; this thread
//! decides each file in walk order with the records' filter. A kept
//! file's path is held, not its text: its feature set stays in the
//! filter's set cache while there is room, and is read from the file again
//! once it is not. A FIFO named as an argument is read from a copy of its
//! bytes (src/input/piped.rs), since a pipe can be read only once.

use std::collections::HashSet;
use std::io;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Instant;

use crate::Error;
use crate::diag::Diagnostics;
use crate::input::{
    Outcome, PathSeparator, PipedCopies, SkipReason, Walk, WalkOptions, is_fifo, read_path_list,
};
use crate::parallel::for_each_ordered;

use super::plan::Radii;
use super::{DedupOptions, DedupStats, Output, RecordName, Run};

/// Where the files come from.
#[derive(Clone, Debug)]
pub enum Files {
    /// Files and directories, walked.
    Paths(Vec<PathBuf>),
    /// Paths listed in a file (`-`: stdin).
    FilesFrom {
        /// The list.
        list: PathBuf,
        /// What separates its paths.
        separator: PathSeparator,
    },
}

/// Runs dedup over files: `output` gets each file's path (as bytes) as
/// its record, kept or dropped; a file's name is its path as shown, and
/// its line its number in walk order. Unreadable files are errors in
/// `diag`; skipped ones are counted in `diag` (notes when verbose, a
/// warning for a file named in `files`' paths) and given to `output`
/// neither as kept nor as dropped.
pub fn dedup_files(
    files: &Files,
    walk: &WalkOptions,
    options: &DedupOptions,
    output: &mut dyn Output,
    diag: &mut Diagnostics,
) -> crate::Result<DedupStats> {
    let started = Instant::now();
    let paths = match files {
        Files::Paths(paths) => paths.clone(),
        Files::FilesFrom { list, separator } => read_list(list, *separator)?,
    };
    // The files named as arguments, as the walk names them; a
    // `--files-from` list is input, like a walk's findings.
    let named: HashSet<String> = match files {
        Files::Paths(paths) => paths
            .iter()
            .map(|path| path.to_string_lossy().into_owned())
            .collect(),
        Files::FilesFrom { .. } => HashSet::new(),
    };
    let mut run = Run::new(options, Radii::for_options(options), true, true)?;
    let measure = run.filter.measure().clone();
    // A FIFO named here is read from a copy: a kept one is read again.
    let copies = OnceLock::new();
    let mut number = 0u64;
    for_each_ordered(
        Walk::new(&paths, walk),
        |found| {
            found.and_then(|file| {
                let path = file.path.clone().into_os_string().into_encoded_bytes();
                let file = if file.explicit && is_fifo(&file.path) {
                    match copies.get_or_init(PipedCopies::new) {
                        Ok(copies) => copies.copy_aside(file, walk),
                        Err(source) => Outcome::Failed(Error::io_named(
                            &file.display,
                            io::Error::new(source.kind(), source.to_string()),
                        )),
                    }
                } else {
                    Outcome::Done(file)
                };
                file.and_then(|file| {
                    let view = &measure.fingerprinter().options().view;
                    crate::input::open_view(&file, walk, view).and_then(|reader| {
                        // Read again from where it was read: the copy, if any.
                        let read_from = file.path.clone().into_os_string().into_encoded_bytes();
                        match measure.measure_reader(reader, read_from) {
                            Ok(measured) => Outcome::Done((file, path, measured)),
                            Err(source) => Outcome::Failed(Error::io_named(&file.display, source)),
                        }
                    })
                })
            })
        },
        |_, outcome| {
            let taken = match outcome {
                Outcome::Done((file, path, measured)) => {
                    number += 1;
                    let name = RecordName {
                        line: number,
                        id: Some(file.display),
                    };
                    let record = Outcome::Done((name, measured));
                    let checkpoint = run.observe(&record);
                    let taken = run.take(record, &path, None, output, diag);
                    if checkpoint {
                        run.radii.apply(&mut run.filter);
                    }
                    taken
                }
                Outcome::Skipped { name, reason } => {
                    diag.tally.seen += 1;
                    diag.tally.skip(reason);
                    // A file named on the command line was meant to be
                    // read: its skip is said even without `-v`. A second
                    // name of a file already read loses nothing.
                    if named.contains(&name) && reason != SkipReason::Duplicate {
                        diag.warn(format_args!(
                            "{name}: skipped ({reason}), so neither kept nor dropped"
                        ));
                    } else {
                        diag.skip_note(&name, reason);
                    }
                    Ok(())
                }
                Outcome::Failed(error) => {
                    diag.tally.seen += 1;
                    diag.error(error);
                    Ok(())
                }
            };
            match taken.and_then(|()| output.flush()) {
                Ok(()) => ControlFlow::Continue(()),
                Err(error) => {
                    run.failure = Some(error);
                    ControlFlow::Break(())
                }
            }
        },
    );
    run.finish(options, output, started)
}

/// Reads a `--files-from` list.
fn read_list(list: &std::path::Path, separator: PathSeparator) -> crate::Result<Vec<PathBuf>> {
    if super::super::is_stdin(list) {
        read_path_list(std::io::stdin().lock(), separator, crate::error::STDIN)
    } else {
        let file = std::fs::File::open(list).map_err(|source| Error::io(list, source))?;
        read_path_list(
            std::io::BufReader::new(file),
            separator,
            &list.display().to_string(),
        )
    }
}
