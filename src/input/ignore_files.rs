//! Ignore files: `.gitignore`, `.ignore` and `.simdupignore`, read as
//! ripgrep and fd read them.
//!
//! Each directory the walk descends may hold ignore files; their patterns
//! apply to that directory's subtree, with gitignore syntax (negation with
//! `!`, patterns anchored by a `/`, `dir/` matching directories only). The
//! directories above a walked argument count too, so `simdup scan docs`
//! inside a repository honours the repository's top `.gitignore`.
//!
//! Precedence, as in ripgrep: `.simdupignore` over `.ignore` over
//! `.gitignore` over `.git/info/exclude` over the global git excludes file
//! (`core.excludesFile`, by default `$XDG_CONFIG_HOME/git/ignore`); within
//! one kind, the deepest file that has a say (an ignoring or a `!`
//! pattern) decides. The three git kinds apply only inside a git
//! repository (a directory holding `.git`), and not across into a
//! repository nested in another. A `.git` file (a worktree or a submodule)
//! names the repository's directory; its `info/exclude` is read from the
//! common directory, as git reads it. The matching is the `ignore` crate's
//! gitignore matcher; the walk itself stays walkdir's.

use std::path::{Path, PathBuf};

use ignore::Match;
use ignore::gitignore::{Gitignore, GitignoreBuilder};

/// The file names read in each directory, from the highest precedence to
/// the lowest; `.git/info/exclude` and the global excludes come last.
const NAMES: [&str; 3] = [".simdupignore", ".ignore", ".gitignore"];

/// Index of `.gitignore` in [`NAMES`] and in [`Frame::matchers`].
const GIT: usize = 2;

/// Index of `.git/info/exclude` in [`Frame::matchers`].
const EXCLUDE: usize = 3;

/// Index of the global git excludes file in [`Frame::matchers`] (read at
/// each repository's top).
const GLOBAL: usize = 4;

/// Kinds of ignore file.
const KINDS: usize = 5;

/// The ignore files of one directory.
#[derive(Debug)]
struct Frame {
    /// The walk depth of the directory plus one; 0 for the directories
    /// above the walked argument, which are never left.
    level: usize,
    /// The directory holds `.git`: a repository starts here.
    repo_root: bool,
    /// Matchers by kind: `.simdupignore`, `.ignore`, `.gitignore`,
    /// `.git/info/exclude`, the global excludes.
    matchers: [Option<Gitignore>; KINDS],
}

/// The ignore files in force at the current point of one walk.
#[derive(Debug)]
pub(crate) struct IgnoreStack {
    /// The walked argument made absolute (symbolic links resolved), so
    /// that paths below it can be matched against matchers rooted above.
    base: PathBuf,
    /// Frames from the top directory down; only directories that hold an
    /// ignore file or a repository have one.
    frames: Vec<Frame>,
    /// Problems with ignore files (unreadable, bad patterns), to be shown
    /// as warnings: a bad line is skipped, as git skips it.
    warnings: Vec<String>,
    /// The global git excludes file, if git's configuration names one.
    global: Option<PathBuf>,
}

impl IgnoreStack {
    /// The ignore files in force for a walk of `root`: those of the
    /// directories above it. `root`'s own are read when the walk enters it.
    pub(crate) fn new(root: &Path) -> Self {
        IgnoreStack::with_global(root, ignore::gitignore::gitconfig_excludes_path())
    }

    /// [`IgnoreStack::new`] with the global git excludes file given.
    pub(crate) fn with_global(root: &Path, global: Option<PathBuf>) -> Self {
        let base = std::fs::canonicalize(root)
            .or_else(|_| std::path::absolute(root))
            .unwrap_or_else(|_| root.to_path_buf());
        let mut stack = IgnoreStack {
            base,
            frames: Vec::new(),
            warnings: Vec::new(),
            global,
        };
        let ancestors: Vec<PathBuf> = stack
            .base
            .ancestors()
            .skip(1)
            .map(Path::to_path_buf)
            .collect();
        for dir in ancestors.iter().rev() {
            stack.push_dir(dir, 0);
        }
        stack
    }

    /// Problems met since the last call, in the order met.
    pub(crate) fn take_warnings(&mut self) -> Vec<String> {
        std::mem::take(&mut self.warnings)
    }

    /// Leaves the directories that an entry at `depth` is not below.
    pub(crate) fn leave_to(&mut self, depth: usize) {
        while self.frames.last().is_some_and(|frame| frame.level > depth) {
            self.frames.pop();
        }
    }

    /// Enters a directory the walk descends: `relative` to the walked
    /// argument, at walk depth `depth` (0: the argument itself).
    pub(crate) fn enter(&mut self, relative: &Path, depth: usize) {
        let dir = self.absolute(relative);
        self.push_dir(&dir, depth + 1);
    }

    /// Whether the ignore files in force ignore this entry, `relative` to
    /// the walked argument. Call [`IgnoreStack::leave_to`] with its depth
    /// first.
    pub(crate) fn ignores(&self, relative: &Path, is_dir: bool) -> bool {
        let path = self.absolute(relative);
        // Gitignore rules stop at the top of the innermost repository.
        let git_floor = self.frames.iter().rposition(|frame| frame.repo_root);
        for kind in 0..KINDS {
            let git = kind >= GIT;
            let frames = match (git, git_floor) {
                (false, _) => &self.frames[..],
                (true, Some(floor)) => &self.frames[floor..],
                (true, None) => &[][..],
            };
            for frame in frames.iter().rev() {
                let Some(matcher) = &frame.matchers[kind] else {
                    continue;
                };
                match matcher.matched(&path, is_dir) {
                    Match::None => {}
                    Match::Ignore(_) => return true,
                    Match::Whitelist(_) => return false,
                }
            }
        }
        false
    }

    fn absolute(&self, relative: &Path) -> PathBuf {
        if relative.as_os_str().is_empty() {
            self.base.clone()
        } else {
            self.base.join(relative)
        }
    }

    /// Reads the ignore files of `dir` and pushes a frame when there are
    /// any, or when a repository starts there.
    fn push_dir(&mut self, dir: &Path, level: usize) {
        let git = dir.join(".git");
        let repo_root = std::fs::symlink_metadata(&git).is_ok();
        let mut matchers = [None, None, None, None, None];
        for (kind, name) in NAMES.iter().enumerate() {
            matchers[kind] = self.read(dir, &dir.join(name));
        }
        if repo_root {
            if let Some(common) = common_git_dir(&git) {
                matchers[EXCLUDE] = self.read(dir, &common.join("info").join("exclude"));
            }
            if let Some(global) = self.global.clone() {
                matchers[GLOBAL] = self.read(dir, &global);
            }
        }
        if repo_root || matchers.iter().any(Option::is_some) {
            self.frames.push(Frame {
                level,
                repo_root,
                matchers,
            });
        }
    }

    /// One ignore file, its patterns rooted at `dir`; `None` when it does
    /// not exist or holds no pattern.
    fn read(&mut self, dir: &Path, file: &Path) -> Option<Gitignore> {
        if !file.is_file() {
            return None;
        }
        let mut builder = GitignoreBuilder::new(dir);
        // An unclosed `[` is an error to warn about and skip, not a
        // literal `[`: git matches nothing with such a line, and `-g`
        // refuses it too.
        builder.allow_unclosed_class(false);
        if let Some(error) = builder.add(file) {
            self.warn(file, error);
        }
        match builder.build() {
            Ok(matcher) if matcher.is_empty() => None,
            Ok(matcher) => Some(matcher),
            Err(error) => {
                self.warn(file, error);
                None
            }
        }
    }

    /// One warning per problem with an ignore file, each naming the file
    /// once: the `ignore` crate's errors for the lines of a file carry its
    /// path already, and come together as one.
    fn warn(&mut self, file: &Path, error: ignore::Error) {
        match error {
            ignore::Error::Partial(errors) => {
                for error in errors {
                    self.warn(file, error);
                }
            }
            ignore::Error::WithPath { err, .. } => self.warn(file, *err),
            error => self.warnings.push(format!("{}: {error}", file.display())),
        }
    }
}

/// The directory holding a repository's `info/exclude`: `.git` itself, or
/// for a `.git` file (`gitdir: PATH`, a worktree or a submodule) the
/// directory it names, or that directory's `commondir` (a worktree's main
/// repository). `None` when `.git` names nothing readable.
fn common_git_dir(git: &Path) -> Option<PathBuf> {
    if git.is_dir() {
        return Some(git.to_path_buf());
    }
    let text = std::fs::read_to_string(git).ok()?;
    let named = text
        .lines()
        .find_map(|line| line.strip_prefix("gitdir:"))?
        .trim();
    let base = git.parent()?;
    let gitdir = base.join(named);
    match std::fs::read_to_string(gitdir.join("commondir")) {
        Ok(common) => Some(gitdir.join(common.trim())),
        Err(_) => Some(gitdir),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn write(root: &Path, relative: &str, text: &str) {
        let path = root.join(relative);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }

    /// A stack positioned inside `dirs` (each relative to the root, in
    /// walk order), as the walk would leave it.
    fn stack_at(root: &Path, dirs: &[&str]) -> IgnoreStack {
        stack_with_global(root, dirs, None)
    }

    /// [`stack_at`] with a global git excludes file.
    fn stack_with_global(root: &Path, dirs: &[&str], global: Option<PathBuf>) -> IgnoreStack {
        let mut stack = IgnoreStack::with_global(root, global);
        stack.enter(Path::new(""), 0);
        for dir in dirs {
            let depth = Path::new(dir).components().count();
            stack.leave_to(depth);
            stack.enter(Path::new(dir), depth);
        }
        stack
    }

    #[test]
    fn gitignore_applies_only_inside_a_repository() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), ".gitignore", "*.log\n");
        write(dir.path(), ".ignore", "*.tmp\n");
        let stack = stack_at(dir.path(), &[]);
        assert!(!stack.ignores(Path::new("a.log"), false));
        assert!(stack.ignores(Path::new("a.tmp"), false));
        fs::create_dir(dir.path().join(".git")).unwrap();
        let stack = stack_at(dir.path(), &[]);
        assert!(stack.ignores(Path::new("a.log"), false));
    }

    #[test]
    fn negation_anchoring_and_directory_patterns() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), ".ignore", "*.md\n!keep.md\n/top.txt\nbuild/\n");
        let stack = stack_at(dir.path(), &[]);
        assert!(stack.ignores(Path::new("a.md"), false));
        assert!(stack.ignores(Path::new("sub/a.md"), false));
        assert!(!stack.ignores(Path::new("keep.md"), false));
        assert!(stack.ignores(Path::new("top.txt"), false));
        assert!(!stack.ignores(Path::new("sub/top.txt"), false));
        assert!(stack.ignores(Path::new("build"), true));
        assert!(!stack.ignores(Path::new("build"), false));
    }

    #[test]
    fn deeper_files_and_higher_kinds_win() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join(".git")).unwrap();
        write(dir.path(), ".gitignore", "*.txt\n");
        write(dir.path(), "sub/.gitignore", "!a.txt\n");
        write(dir.path(), ".simdupignore", "b.txt\n");
        write(dir.path(), "sub/.ignore", "!b.txt\n");
        let stack = stack_at(dir.path(), &["sub"]);
        assert!(!stack.ignores(Path::new("sub/a.txt"), false));
        assert!(stack.ignores(Path::new("sub/c.txt"), false));
        // .simdupignore outranks .ignore, however deep.
        assert!(stack.ignores(Path::new("sub/b.txt"), false));
        // Leaving `sub` drops its rules.
        let mut stack = stack;
        stack.leave_to(1);
        assert!(stack.ignores(Path::new("a.txt"), false));
    }

    #[test]
    fn ignore_files_above_the_argument_apply() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), ".ignore", "docs/build/\n");
        fs::create_dir_all(dir.path().join("docs/build")).unwrap();
        let stack = stack_at(&dir.path().join("docs"), &[]);
        assert!(stack.ignores(Path::new("build"), true));
    }

    #[test]
    fn a_nested_repository_does_not_inherit_gitignore() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join(".git")).unwrap();
        fs::create_dir_all(dir.path().join("inner/.git")).unwrap();
        write(dir.path(), ".gitignore", "*.txt\n");
        write(dir.path(), ".git/info/exclude", "*.log\n");
        let stack = stack_at(dir.path(), &["inner"]);
        assert!(!stack.ignores(Path::new("inner/a.txt"), false));
        let stack = stack_at(dir.path(), &[]);
        assert!(stack.ignores(Path::new("a.txt"), false));
        assert!(stack.ignores(Path::new("a.log"), false));
    }

    #[test]
    fn bad_patterns_are_warnings_and_the_rest_apply() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), ".ignore", "a{b\n*.tmp\n[bad\n");
        let mut stack = stack_at(dir.path(), &[]);
        assert!(stack.ignores(Path::new("x.tmp"), false));
        // Skipped, as git matches nothing with it, rather than a literal.
        assert!(!stack.ignores(Path::new("[bad"), false));
        let warnings = stack.take_warnings();
        let file = dir.path().canonicalize().unwrap().join(".ignore");
        let file = file.display();
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert!(
            warnings[0].starts_with(&format!("{file}: line 1: error parsing glob 'a{{b'")),
            "{warnings:?}"
        );
        assert!(
            warnings[1].starts_with(&format!("{file}: line 3: error parsing glob '[bad'")),
            "{warnings:?}"
        );
    }

    #[test]
    fn a_line_that_is_not_utf8_is_a_warning_naming_the_file_once() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(
            dir.path().join(".simdupignore"),
            b"*.tmp\n\xff\xfe\n*.log\n",
        )
        .unwrap();
        let mut stack = stack_at(dir.path(), &[]);
        assert!(stack.ignores(Path::new("x.tmp"), false));
        assert!(stack.ignores(Path::new("x.log"), false));
        let warnings = stack.take_warnings();
        let file = dir.path().canonicalize().unwrap().join(".simdupignore");
        assert_eq!(
            warnings,
            [format!(
                "{}: line 2: stream did not contain valid UTF-8",
                file.display()
            )]
        );
    }

    #[test]
    fn the_global_excludes_apply_inside_repositories_below_their_own_files() {
        let dir = tempfile::tempdir().unwrap();
        let global = dir.path().join("config/git/ignore");
        write(dir.path(), "config/git/ignore", "*.bak\n*.txt\n");
        let repo = dir.path().join("repo");
        fs::create_dir_all(repo.join(".git")).unwrap();
        write(&repo, ".gitignore", "!keep.txt\n");
        let stack = stack_with_global(&repo, &[], Some(global.clone()));
        assert!(stack.ignores(Path::new("a.bak"), false));
        assert!(stack.ignores(Path::new("a.txt"), false));
        // A repository's own file outranks the global one.
        assert!(!stack.ignores(Path::new("keep.txt"), false));
        // Outside a repository it does not apply.
        write(dir.path(), "plain/x.bak", "");
        let stack = stack_with_global(&dir.path().join("plain"), &[], Some(global));
        assert!(!stack.ignores(Path::new("x.bak"), false));
    }

    #[test]
    fn a_git_file_leads_to_the_repositorys_info_exclude() {
        let dir = tempfile::tempdir().unwrap();
        // A worktree: .git names a directory whose commondir is the main one.
        write(dir.path(), "main/.git/info/exclude", "*.log\n");
        write(dir.path(), "main/.git/worktrees/wt/commondir", "../..\n");
        write(dir.path(), "wt/.git", "gitdir: ../main/.git/worktrees/wt\n");
        let stack = stack_at(&dir.path().join("wt"), &[]);
        assert!(stack.ignores(Path::new("a.log"), false));
        // A submodule: .git names its own directory.
        write(dir.path(), "super/.git/modules/sub/info/exclude", "*.tmp\n");
        write(
            dir.path(),
            "super/sub/.git",
            "gitdir: ../.git/modules/sub\n",
        );
        let stack = stack_at(&dir.path().join("super/sub"), &[]);
        assert!(stack.ignores(Path::new("a.tmp"), false));
        assert!(!stack.ignores(Path::new("a.log"), false));
    }
}
