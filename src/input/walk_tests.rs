//! Tests of the walk on real temporary trees.

use std::fs;
use std::path::{Path, PathBuf};

use super::super::{FileDocument, GlobFilter, Outcome, WalkOptions, walk};

/// A temporary tree; files are created with their parent directories.
struct Tree {
    dir: tempfile::TempDir,
}

impl Tree {
    fn new(files: &[&str]) -> Tree {
        let tree = Tree {
            dir: tempfile::tempdir().unwrap(),
        };
        for file in files {
            tree.write(file, file.as_bytes());
        }
        tree
    }

    fn path(&self, relative: &str) -> PathBuf {
        self.dir.path().join(relative)
    }

    fn write(&self, relative: &str, contents: &[u8]) {
        let path = self.path(relative);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, contents).unwrap();
    }

    #[cfg(unix)]
    fn symlink(&self, target: &str, link: &str) {
        std::os::unix::fs::symlink(target, self.path(link)).unwrap();
    }

    /// Walks these paths (relative to the tree) and describes each outcome
    /// with paths relative to the tree.
    fn walk(&self, paths: &[&str], options: &WalkOptions) -> Vec<String> {
        let paths: Vec<PathBuf> = paths.iter().map(|p| self.path(p)).collect();
        walk(&paths, options)
            .into_iter()
            .map(|entry| self.describe(entry))
            .collect()
    }

    fn describe(&self, entry: Outcome<FileDocument>) -> String {
        let base = format!("{}/", self.dir.path().display());
        let text = match entry {
            Outcome::Done(document) => {
                assert_eq!(document.display, document.path.display().to_string());
                format!("doc {}", document.display)
            }
            Outcome::Skipped { name, reason } => format!("{reason} {name}"),
            Outcome::Failed(error) => format!("error {error}"),
        };
        text.replace(&base, "")
    }
}

fn options() -> WalkOptions {
    WalkOptions::default()
}

#[test]
fn sorted_by_name_hidden_skipped_once_per_directory() {
    let tree = Tree::new(&[
        "b.txt",
        "a.txt",
        ".hid.txt",
        ".git/config",
        "sub/c.txt",
        "sub/.h/x",
        "sub/.h/y",
    ]);
    assert_eq!(
        tree.walk(&["."], &options()),
        [
            "hidden ./.git",
            "hidden ./.hid.txt",
            "doc ./a.txt",
            "doc ./b.txt",
            "hidden ./sub/.h",
            "doc ./sub/c.txt",
        ]
    );
    let hidden = WalkOptions {
        hidden: true,
        ..options()
    };
    assert_eq!(
        tree.walk(&["sub", "."], &hidden),
        [
            "doc sub/.h/x",
            "doc sub/.h/y",
            "doc sub/c.txt",
            "doc ./.git/config",
            "doc ./.hid.txt",
            "doc ./a.txt",
            "doc ./b.txt",
            "duplicate ./sub/.h/x",
            "duplicate ./sub/.h/y",
            "duplicate ./sub/c.txt",
        ]
    );
}

#[test]
fn explicit_paths_are_taken_even_when_hidden() {
    let tree = Tree::new(&[".hid.txt", ".dir/a"]);
    assert_eq!(
        tree.walk(&[".hid.txt", ".dir"], &options()),
        ["doc .hid.txt", "doc .dir/a"]
    );
}

#[test]
fn globs_include_exclude_and_prune() {
    let tree = Tree::new(&[
        "README.md",
        "a.md",
        "b.txt",
        "skip/c.md",
        "docs/d.md",
        "docs/e.txt",
    ]);
    let globbed = WalkOptions {
        globs: globs(&["*.md", "!README.md", "!skip"]),
        ..options()
    };
    assert_eq!(
        tree.walk(&["."], &globbed),
        [
            "excluded ./README.md",
            "doc ./a.md",
            "excluded ./b.txt",
            "doc ./docs/d.md",
            "excluded ./docs/e.txt",
            "excluded ./skip",
        ]
    );
    // Globs match below the argument: `docs/*` is relative to `.`.
    let path_glob = WalkOptions {
        globs: globs(&["!docs/*.md"]),
        ..options()
    };
    assert_eq!(
        tree.walk(&["docs", "."], &path_glob)[..2],
        ["doc docs/d.md", "doc docs/e.txt"]
    );
    assert!(
        tree.walk(&["."], &path_glob)
            .contains(&"excluded ./docs/d.md".to_string())
    );
}

fn globs(globs: &[&str]) -> GlobFilter {
    GlobFilter::new(&globs.iter().map(|g| g.to_string()).collect::<Vec<_>>()).unwrap()
}

#[test]
fn invalid_glob_is_an_error_before_any_walk() {
    let error = GlobFilter::new(&["a[".to_string()]).unwrap_err();
    assert!(
        error.to_string().starts_with("invalid glob 'a['"),
        "{error}"
    );
}

#[test]
fn files_over_max_filesize_are_too_large() {
    let tree = Tree::new(&[]);
    tree.write("ten", b"0123456789");
    tree.write("eleven", b"0123456789A");
    let limited = WalkOptions {
        max_filesize: Some(10),
        ..options()
    };
    assert_eq!(
        tree.walk(&["."], &limited),
        ["too_large ./eleven", "doc ./ten"]
    );
}

#[test]
fn same_file_twice_is_one_document() {
    let tree = Tree::new(&["d/a", "d/b"]);
    assert_eq!(
        tree.walk(&["d/a", "d", "d/a"], &options()),
        ["doc d/a", "duplicate d/a", "doc d/b", "duplicate d/a"]
    );
}

#[cfg(unix)]
#[test]
fn hard_links_are_one_document_whether_or_not_the_walk_stats() {
    let tree = Tree::new(&["d/a", "e/c"]);
    fs::hard_link(tree.path("d/a"), tree.path("d/b")).unwrap();
    fs::hard_link(tree.path("d/a"), tree.path("e/z")).unwrap();
    let expected = [
        "doc ./d/a",
        "duplicate ./d/b",
        "doc ./e/c",
        "duplicate ./e/z",
    ];
    // Without a size limit, files found in a listing are not stat'ed:
    // their identity is the directory's device and the listed inode.
    assert_eq!(tree.walk(&["."], &options()), expected);
    let limited = WalkOptions {
        max_filesize: Some(1 << 20),
        ..options()
    };
    assert_eq!(tree.walk(&["."], &limited), expected);
    let stamped = |options: &WalkOptions| {
        walk(&[tree.path(".")], options)
            .into_iter()
            .filter_map(|found| match found {
                Outcome::Done(file) => Some(file.stamp.is_some()),
                _ => None,
            })
            .collect::<Vec<bool>>()
    };
    assert_eq!(stamped(&options()), [false, false]);
    assert_eq!(stamped(&limited), [true, true]);
}

#[test]
fn missing_path_is_an_error_and_the_walk_goes_on() {
    let tree = Tree::new(&["a"]);
    let outcomes = tree.walk(&["missing", "a"], &options());
    assert_eq!(outcomes.len(), 2);
    assert!(outcomes[0].starts_with("error missing: "), "{outcomes:?}");
    assert_eq!(outcomes[1], "doc a");
}

#[cfg(unix)]
#[test]
fn symlinks_skipped_unless_followed() {
    let tree = Tree::new(&["real/f.txt"]);
    tree.symlink("real", "link_dir");
    tree.symlink("real/f.txt", "link_file");
    assert_eq!(
        tree.walk(&["."], &options()),
        [
            "symlink ./link_dir",
            "symlink ./link_file",
            "doc ./real/f.txt"
        ]
    );
    // An explicit symlink is followed, as walkdir does for directories.
    assert_eq!(
        tree.walk(&["link_file", "link_dir"], &options()),
        ["doc link_file", "duplicate link_dir/f.txt"]
    );
    let follow = WalkOptions {
        follow_links: true,
        ..options()
    };
    assert_eq!(
        tree.walk(&["."], &follow),
        [
            "doc ./link_dir/f.txt",
            "duplicate ./link_file",
            "duplicate ./real/f.txt"
        ]
    );
}

#[cfg(unix)]
#[test]
fn symlink_loops_are_errors_never_followed() {
    let tree = Tree::new(&["d/a"]);
    tree.symlink(".", "d/self");
    tree.symlink("broken-target", "d/broken");
    assert_eq!(
        tree.walk(&["d"], &options()),
        ["doc d/a", "symlink d/broken", "symlink d/self"]
    );
    let follow = WalkOptions {
        follow_links: true,
        ..options()
    };
    assert_eq!(
        tree.walk(&["d"], &follow),
        [
            "doc d/a",
            "error d/broken: No such file or directory (os error 2)",
            "error d/self: File system loop found: d/self points to an ancestor d",
        ]
    );
}

#[cfg(unix)]
#[test]
fn fifo_is_not_regular_and_never_opened() {
    let tree = Tree::new(&["a"]);
    let made = std::process::Command::new("mkfifo")
        .arg(tree.path("pipe"))
        .status();
    if !made.is_ok_and(|status| status.success()) {
        eprintln!("mkfifo unavailable: skipping");
        return;
    }
    assert_eq!(
        tree.walk(&["."], &options()),
        ["doc ./a", "not_regular ./pipe"]
    );
    // Named explicitly, a FIFO is read, as cat reads it (see: #9).
    assert_eq!(tree.walk(&["pipe"], &options()), ["doc pipe"]);
    let found = super::super::FileDocument {
        path: tree.path("pipe"),
        display: "pipe".into(),
        explicit: false,
        stamp: None,
    };
    let opened = super::super::open_document(&found, &options());
    assert!(matches!(
        opened,
        Outcome::Skipped {
            reason: super::super::SkipReason::NotRegular,
            ..
        }
    ));
    // With no writer it reads as empty at once instead of waiting forever.
    let named = super::super::FileDocument {
        explicit: true,
        ..found
    };
    let Outcome::Done(mut reader) = super::super::open_document(&named, &options()) else {
        panic!("an explicit FIFO was not opened");
    };
    let mut text = Vec::new();
    std::io::Read::read_to_end(&mut reader, &mut text).unwrap();
    assert!(text.is_empty());
}

#[cfg(unix)]
#[test]
fn an_explicit_fifo_reads_what_its_writer_writes() {
    let tree = Tree::new(&[]);
    let made = std::process::Command::new("mkfifo")
        .arg(tree.path("pipe"))
        .status();
    if !made.is_ok_and(|status| status.success()) {
        eprintln!("mkfifo unavailable: skipping");
        return;
    }
    let named = super::super::FileDocument {
        path: tree.path("pipe"),
        display: "pipe".into(),
        explicit: true,
        stamp: None,
    };
    // A writer blocks in its open until a reader comes. A reader that
    // comes first reads the FIFO as empty (no writer yet), so retry; the
    // rare writer that opens between that reader's end-of-file and its
    // close loses its text, so a fresh writer is started then.
    for _ in 0..20 {
        let path = tree.path("pipe");
        let writer = std::thread::spawn(move || fs::write(path, b"through the pipe"));
        std::thread::sleep(std::time::Duration::from_millis(20));
        while !writer.is_finished() {
            let Outcome::Done(mut reader) = super::super::open_document(&named, &options()) else {
                panic!("an explicit FIFO was not opened");
            };
            let mut text = Vec::new();
            std::io::Read::read_to_end(&mut reader, &mut text).unwrap();
            if !text.is_empty() {
                assert_eq!(text, b"through the pipe");
                writer.join().unwrap().unwrap();
                return;
            }
        }
    }
    panic!("no writer's text was ever read");
}

/// Whether permissions can deny this process anything (not so for root).
#[cfg(unix)]
fn permissions_apply(path: &Path) -> bool {
    fs::read_dir(path).is_err()
}

#[cfg(unix)]
#[test]
fn unreadable_directory_is_an_error_and_the_walk_goes_on() {
    use std::os::unix::fs::PermissionsExt;
    let tree = Tree::new(&["a", "locked/secret", "z"]);
    let locked = tree.path("locked");
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o000)).unwrap();
    let applies = permissions_apply(&locked);
    let outcomes = tree.walk(&["."], &options());
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o755)).unwrap();
    if !applies {
        eprintln!("running as root: permissions cannot deny; skipping");
        return;
    }
    assert_eq!(outcomes.len(), 3, "{outcomes:?}");
    assert_eq!(outcomes[0], "doc ./a");
    assert!(outcomes[1].starts_with("error ./locked: "), "{outcomes:?}");
    assert_eq!(outcomes[2], "doc ./z");
}

#[test]
fn ignore_files_prune_nested_negate_and_can_be_turned_off() {
    let tree = Tree::new(&[
        ".git/HEAD",
        "a.md",
        "build/out.md",
        "docs/b.md",
        "docs/draft.md",
        "docs/keep.log",
        "docs/x.log",
        "notes/c.md",
    ]);
    tree.write(".gitignore", b"build/\n*.log\n");
    tree.write("docs/.ignore", b"draft.md\n!keep.log\n");
    tree.write(".simdupignore", b"/notes\n");
    assert_eq!(
        tree.walk(&["."], &options()),
        [
            "hidden ./.git",
            "hidden ./.gitignore",
            "hidden ./.simdupignore",
            "doc ./a.md",
            "ignored ./build",
            "hidden ./docs/.ignore",
            "doc ./docs/b.md",
            "ignored ./docs/draft.md",
            "doc ./docs/keep.log",
            "ignored ./docs/x.log",
            "ignored ./notes",
        ]
    );
    // Rules above the argument apply to what is found below it; a path
    // given explicitly is always taken.
    assert_eq!(
        tree.walk(&["docs", "build/out.md"], &options()),
        [
            "hidden docs/.ignore",
            "doc docs/b.md",
            "ignored docs/draft.md",
            "doc docs/keep.log",
            "ignored docs/x.log",
            "doc build/out.md",
        ]
    );
    let everything = WalkOptions {
        no_ignore: true,
        ..options()
    };
    let found = tree.walk(&["."], &everything);
    assert!(
        found.contains(&"doc ./build/out.md".to_string()),
        "{found:?}"
    );
    assert!(found.contains(&"doc ./docs/x.log".to_string()), "{found:?}");
    assert!(!found.iter().any(|f| f.starts_with("ignored")), "{found:?}");
}

#[test]
fn gitignore_outside_a_repository_is_not_read() {
    let tree = Tree::new(&["a.log", "b.tmp"]);
    tree.write(".gitignore", b"*.log\n");
    tree.write(".ignore", b"*.tmp\n");
    assert_eq!(
        tree.walk(&["."], &options())[2..],
        ["doc ./a.log", "ignored ./b.tmp"]
    );
}

#[cfg(unix)]
#[test]
fn names_and_relative_paths_cut_by_bytes_match_the_component_parsers() {
    let tree = Tree::new(&["a/b.txt", "a/.hidden", "a/c d/e"]);
    for root in [".", "a", "./a", "a/", "a/./", "a//"] {
        let root = tree.path(root);
        for entry in walkdir::WalkDir::new(&root).min_depth(1) {
            let entry = entry.unwrap();
            let path = entry.path();
            assert_eq!(
                super::below(&root, path),
                path.strip_prefix(&root).unwrap(),
                "{path:?}"
            );
            assert_eq!(
                super::listed_name(&entry),
                entry.file_name().as_encoded_bytes(),
                "{path:?}"
            );
        }
    }
}
