//! A FIFO named on the command line (a process substitution is one),
//! copied aside so that it can be read again: a pipe can be read once,
//! and a job that reads a document again by its path (dedup verifying a
//! kept file) would otherwise find it empty, or wait for a writer that
//! never comes.

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use super::{FileDocument, Outcome, WalkOptions, read};
use crate::Error;

/// Whether `path` names a FIFO.
pub(crate) fn is_fifo(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|metadata| super::walk::is_fifo(&metadata))
}

/// Where the copies of one run go; removed with it.
#[derive(Debug)]
pub(crate) struct PipedCopies {
    dir: tempfile::TempDir,
    made: AtomicU64,
}

impl PipedCopies {
    /// A new directory for copies, in the system's temporary directory.
    pub(crate) fn new() -> io::Result<PipedCopies> {
        Ok(PipedCopies {
            dir: tempfile::tempdir()?,
            made: AtomicU64::new(0),
        })
    }

    /// `document` (a FIFO named on the command line) read as
    /// [`super::open_view`] reads it (at once empty without a writer, at
    /// most the size limit), its bytes as they came copied to a file under
    /// the same name, which the returned document names: it opens with the
    /// same view (a view may go by the name's extension). Its display name
    /// stays the FIFO's.
    pub(crate) fn copy_aside(
        &self,
        document: FileDocument,
        options: &WalkOptions,
    ) -> Outcome<FileDocument> {
        read::open_with(&document, options, false).and_then(|mut reader| {
            match self.copy(&document.path, &mut reader) {
                Ok(path) => Outcome::Done(FileDocument {
                    path,
                    stamp: None,
                    ..document
                }),
                Err(source) => Outcome::Failed(Error::io_named(&document.display, source)),
            }
        })
    }

    fn copy(&self, original: &Path, reader: &mut dyn io::Read) -> io::Result<PathBuf> {
        let made = self.made.fetch_add(1, Ordering::Relaxed);
        let dir = self.dir.path().join(made.to_string());
        std::fs::create_dir(&dir)?;
        let name = original
            .file_name()
            .map_or_else(|| "piped".into(), |name| name.to_os_string());
        let path = dir.join(name);
        io::copy(reader, &mut File::create(&path)?)?;
        Ok(path)
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    /// Writes `text` into the FIFO at `path` and returns a reader that
    /// holds the pipe (and so the text) open without reading it: opened
    /// first, without waiting, it lets the writer open at once.
    fn filled_fifo(path: &Path, text: &[u8]) -> File {
        use std::os::unix::fs::OpenOptionsExt;
        let keeper = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32)
            .open(path)
            .unwrap();
        io::Write::write_all(&mut File::options().write(true).open(path).unwrap(), text).unwrap();
        keeper
    }

    #[test]
    fn a_fifo_is_copied_under_its_name() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("notes.md");
        let status = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(status.success());
        // The text waits in the pipe, held open by a reader that never
        // reads, so the copy finds it whenever it opens the FIFO.
        let _keeper = filled_fifo(&fifo, b"# piped text\n");
        let copies = PipedCopies::new().unwrap();
        let document = |path: &Path| FileDocument {
            path: path.to_path_buf(),
            display: "shown".to_string(),
            explicit: true,
            stamp: None,
        };
        let options = WalkOptions::default();
        let Outcome::Done(copied) = copies.copy_aside(document(&fifo), &options) else {
            panic!("not copied");
        };
        assert_ne!(copied.path, fifo);
        assert_eq!(copied.path.file_name(), fifo.file_name());
        assert_eq!(copied.display, "shown");
        // Read twice, the same bytes.
        for _ in 0..2 {
            assert_eq!(std::fs::read(&copied.path).unwrap(), b"# piped text\n");
        }
    }
}
