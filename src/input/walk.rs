//! The directory walk: arguments in, one [`Outcome`] per file out, one at
//! a time, in a deterministic order.
//!
//! Arguments come out in the order given, each directory's entries sorted by
//! file name. The filters apply to what is found below an argument; a path
//! given explicitly is always taken (as ripgrep and fd do), so `simdup scan
//! .hidden/a.txt` reads it. Only metadata is read here, never contents:
//! a FIFO is recognised by its type and never opened, and a regular file
//! found in a listing is not even stat'ed unless a size limit asks for it
//! (the listing gives its type and inode). Ignore files
//! (`.gitignore`, `.ignore`, `.simdupignore`) prune what is found below an
//! argument unless `no_ignore` is set ([`IgnoreStack`]).

use std::collections::{HashSet, VecDeque};
use std::fs::Metadata;
use std::path::{Path, PathBuf};

use walkdir::DirEntry;

use super::ignore_files::IgnoreStack;
use super::{FileDocument, Outcome, SkipReason, WalkOptions};
use crate::Error;

/// A streaming walk over several paths; see [`super::walk()`].
pub(crate) struct Walk {
    roots: VecDeque<PathBuf>,
    /// The argument being walked, its entries, and the ignore files in
    /// force (read once the argument turns out to be a directory).
    current: Option<(PathBuf, walkdir::IntoIter, Option<IgnoreStack>)>,
    filter: Filter,
}

/// What decides the fate of each entry.
struct Filter {
    options: WalkOptions,
    /// (device, inode) of every file handed out, so a file reached twice is
    /// one document. Grows with the number of files, like the fingerprints.
    seen: HashSet<(u64, u64)>,
    /// The device of each directory being walked, by depth: with the
    /// inode a directory listing gives, a file's identity without a stat.
    devices: Vec<Option<u64>>,
}

impl Walk {
    /// Prepares a walk (the globs in `options` are already compiled).
    pub fn new(paths: &[PathBuf], options: &WalkOptions) -> Self {
        Walk {
            roots: paths.iter().cloned().collect(),
            current: None,
            filter: Filter {
                options: options.clone(),
                seen: HashSet::new(),
                devices: Vec::new(),
            },
        }
    }

    /// Walks `path` after the paths given so far, with what the walk has
    /// seen: a file it already handed out is skipped as a duplicate.
    pub(crate) fn push_root(&mut self, path: PathBuf) {
        self.roots.push_back(path);
    }
}

impl Filter {
    /// Decides what one walkdir entry becomes; `None` for a directory that
    /// is descended (it is not an input of its own).
    fn classify(
        &mut self,
        root: &Path,
        entry: &DirEntry,
        entries: &mut walkdir::IntoIter,
        ignores: &mut Option<IgnoreStack>,
    ) -> Option<Outcome<FileDocument>> {
        // As `Path::display` shows it, without the formatting machinery.
        let display = || entry.path().to_string_lossy().into_owned();
        let skipped = |reason| {
            Some(Outcome::Skipped {
                name: display(),
                reason,
            })
        };
        let file_type = entry.file_type();
        let explicit = entry.depth() == 0;
        let relative = below(root, entry.path());
        if !explicit {
            if !self.options.hidden && is_hidden(entry) {
                if file_type.is_dir() {
                    entries.skip_current_dir();
                }
                return skipped(SkipReason::Hidden);
            }
            if let Some(stack) = ignores.as_mut() {
                stack.leave_to(entry.depth());
                if stack.ignores(relative, file_type.is_dir()) {
                    if file_type.is_dir() {
                        entries.skip_current_dir();
                    }
                    return skipped(SkipReason::Ignored);
                }
            }
            if self.options.globs.excludes(relative, file_type.is_dir()) {
                if file_type.is_dir() {
                    entries.skip_current_dir();
                }
                return skipped(SkipReason::Excluded);
            }
            if file_type.is_symlink() {
                // walkdir reports a symlink only when it does not follow it.
                return skipped(SkipReason::Symlink);
            }
        }
        if file_type.is_dir() {
            self.descend(root, relative, entry.depth(), ignores);
            self.enter_device(entry.depth(), entry.metadata().ok().as_ref());
            return None;
        }
        // A regular file found in a listing needs no stat here: the
        // listing gives its type and inode, its directory the device, and
        // the workers stat it in parallel if they need to. Without a size
        // limit to check, the walk is then one system call a directory.
        if !explicit
            && file_type.is_file()
            && !entry.path_is_symlink()
            && self.options.max_filesize.is_none()
            && let Some(id) = self.listed_file_id(entry)
        {
            if !self.seen.insert(id) {
                return skipped(SkipReason::Duplicate);
            }
            return Some(Outcome::Done(FileDocument {
                path: entry.path().to_path_buf(),
                display: display(),
                explicit,
                stamp: None,
            }));
        }
        // An explicit symlink is followed whatever `follow_links` says, as
        // walkdir does for a directory given as a symlink.
        let metadata = match metadata(entry, explicit && file_type.is_symlink()) {
            Ok(metadata) => metadata,
            Err(error) => return Some(Outcome::Failed(error)),
        };
        if metadata.is_dir() {
            self.descend(root, relative, entry.depth(), ignores);
            self.enter_device(entry.depth(), Some(&metadata));
            return None;
        }
        // A FIFO named explicitly is read (as cat and diff do); anything
        // else that is not a regular file is never opened.
        let readable_fifo = explicit && is_fifo(&metadata);
        if !metadata.is_file() && !readable_fifo {
            return skipped(SkipReason::NotRegular);
        }
        if self
            .options
            .max_filesize
            .is_some_and(|max| metadata.len() > max)
        {
            return skipped(SkipReason::TooLarge);
        }
        if let Some(id) = file_id(&metadata)
            && !self.seen.insert(id)
        {
            return skipped(SkipReason::Duplicate);
        }
        Some(Outcome::Done(FileDocument {
            path: entry.path().to_path_buf(),
            display: display(),
            explicit,
            stamp: Some(super::Stamp::of(&metadata)),
        }))
    }
}

impl Filter {
    /// Notes the device of the directory entered at `depth`.
    fn enter_device(&mut self, depth: usize, metadata: Option<&Metadata>) {
        self.devices.truncate(depth);
        self.devices.resize(depth, None);
        self.devices
            .push(metadata.and_then(file_id).map(|(device, _)| device));
    }

    /// (device, inode) of a file found in a directory listing, if the
    /// directory's device is known.
    #[cfg(unix)]
    fn listed_file_id(&self, entry: &DirEntry) -> Option<(u64, u64)> {
        use walkdir::DirEntryExt;
        let parent = entry.depth().checked_sub(1)?;
        let device = (*self.devices.get(parent)?)?;
        Some((device, entry.ino()))
    }

    #[cfg(not(unix))]
    fn listed_file_id(&self, _entry: &DirEntry) -> Option<(u64, u64)> {
        None
    }

    /// Reads the ignore files of a directory the walk descends (those
    /// above the argument too, when it is the argument itself).
    fn descend(
        &self,
        root: &Path,
        relative: &Path,
        depth: usize,
        ignores: &mut Option<IgnoreStack>,
    ) {
        if self.options.no_ignore {
            return;
        }
        let stack = ignores.get_or_insert_with(|| IgnoreStack::new(root));
        stack.leave_to(depth);
        stack.enter(relative, depth);
        for warning in stack.take_warnings() {
            crate::diag::print_stderr(format_args!("simdup: warning: {warning}"));
        }
    }
}

impl Iterator for Walk {
    type Item = Outcome<FileDocument>;

    fn next(&mut self) -> Option<Outcome<FileDocument>> {
        loop {
            let Some((root, entries, ignores)) = self.current.as_mut() else {
                let root = self.roots.pop_front()?;
                let entries = walkdir::WalkDir::new(&root)
                    .follow_links(self.filter.options.follow_links)
                    .sort_by(|a, b| listed_name(a).cmp(listed_name(b)))
                    .into_iter();
                self.current = Some((root, entries, None));
                continue;
            };
            match entries.next() {
                None => self.current = None,
                Some(Err(error)) => return Some(Outcome::Failed(walk_error(root, error))),
                Some(Ok(entry)) => {
                    if let Some(outcome) = self.filter.classify(root, &entry, entries, ignores) {
                        return Some(outcome);
                    }
                }
            }
        }
    }
}

/// The file name of an entry below the argument, as bytes: what
/// `DirEntry::file_name` gives, found with one search for the last
/// separator instead of parsing the path's components (the sort calls it
/// twice per comparison).
#[cfg(unix)]
fn listed_name(entry: &DirEntry) -> &[u8] {
    let path = entry.path().as_os_str().as_encoded_bytes();
    match memchr::memrchr(b'/', path) {
        Some(slash) if slash + 1 < path.len() => &path[slash + 1..],
        _ => entry.file_name().as_encoded_bytes(),
    }
}

#[cfg(not(unix))]
fn listed_name(entry: &DirEntry) -> &[u8] {
    entry.file_name().as_encoded_bytes()
}

/// `path` relative to `root`, which walkdir joined in front of it: cut by
/// bytes where it can (`strip_prefix` parses both paths' components).
#[cfg(unix)]
fn below<'a>(root: &Path, path: &'a Path) -> &'a Path {
    use std::os::unix::ffi::OsStrExt;
    let prefix = root.as_os_str().as_bytes();
    if !prefix.ends_with(b"/")
        && let Some(rest) = path.as_os_str().as_bytes().strip_prefix(prefix)
        && let Some(rest) = rest.strip_prefix(b"/")
        && !rest.is_empty()
    {
        return Path::new(std::ffi::OsStr::from_bytes(rest));
    }
    path.strip_prefix(root).unwrap_or(path)
}

#[cfg(not(unix))]
fn below<'a>(root: &Path, path: &'a Path) -> &'a Path {
    path.strip_prefix(root).unwrap_or(path)
}

/// A name starting with `.`, as Unix tools hide files.
fn is_hidden(entry: &DirEntry) -> bool {
    entry.file_name().as_encoded_bytes().first() == Some(&b'.')
}

fn metadata(entry: &DirEntry, follow: bool) -> crate::Result<Metadata> {
    let result = if follow {
        std::fs::metadata(entry.path())
    } else {
        entry.metadata().map_err(std::io::Error::from)
    };
    result.map_err(|source| Error::io(entry.path(), source))
}

#[cfg(unix)]
pub(super) fn is_fifo(metadata: &Metadata) -> bool {
    use std::os::unix::fs::FileTypeExt;
    metadata.file_type().is_fifo()
}

#[cfg(not(unix))]
pub(super) fn is_fifo(_metadata: &Metadata) -> bool {
    false
}

#[cfg(unix)]
fn file_id(metadata: &Metadata) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    Some((metadata.dev(), metadata.ino()))
}

#[cfg(not(unix))]
fn file_id(_metadata: &Metadata) -> Option<(u64, u64)> {
    None
}

/// Names the path walkdir failed on (the argument when it names none) with
/// the underlying error; a loop, which has none, keeps walkdir's message
/// saying which ancestor it points to.
fn walk_error(root: &Path, error: walkdir::Error) -> Error {
    let path = error.path().unwrap_or(root).to_path_buf();
    let message = error.to_string();
    let source = error
        .into_io_error()
        .unwrap_or_else(|| std::io::Error::other(message));
    Error::io(&path, source)
}

#[cfg(test)]
#[path = "walk_tests.rs"]
mod tests;
