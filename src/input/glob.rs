//! Include and exclude globs (`-g GLOB`, `-g '!GLOB'`), decided per path
//! below a walked argument.
//!
//! Semantics follow ripgrep's and fd's gitignore-style globs:
//! - a glob without `/` is matched against the file name alone, at any
//!   depth (`*.md` matches `docs/a.md`);
//! - a glob with a `/` is matched against the path below the argument, with
//!   `/` separators; `*` stays within one component and `**` crosses any
//!   number (`docs/**/*.md`); a leading `/` is dropped (it only anchors);
//! - the last glob that matches decides; when no glob matches, a file is
//!   excluded if there is any include glob;
//! - directories are only pruned by an exclude glob: include globs choose
//!   files, so a directory never has to match one to be descended.

use globset::{Candidate, Glob, GlobBuilder, GlobSet, GlobSetBuilder};
use std::path::Path;

use crate::{Error, Result};

/// A compiled list of include and exclude globs.
#[derive(Clone, Debug)]
pub struct GlobFilter {
    /// Globs matched against the file name, and their positions in the list.
    names: GlobSet,
    name_positions: Vec<usize>,
    /// Globs matched against the path below the argument.
    paths: GlobSet,
    path_positions: Vec<usize>,
    /// Whether the glob at each position of the list excludes.
    excludes: Vec<bool>,
    has_include: bool,
}

impl Default for GlobFilter {
    fn default() -> Self {
        GlobFilter::none()
    }
}

impl GlobFilter {
    /// Compiles the globs, in the order given; a leading `!` excludes.
    pub fn new(globs: &[String]) -> Result<Self> {
        let mut names = GlobSetBuilder::new();
        let mut paths = GlobSetBuilder::new();
        let mut name_positions = Vec::new();
        let mut path_positions = Vec::new();
        let mut excludes = Vec::with_capacity(globs.len());
        for (position, text) in globs.iter().enumerate() {
            let (exclude, pattern) = match text.strip_prefix('!') {
                Some(rest) => (true, rest),
                None => (false, text.as_str()),
            };
            excludes.push(exclude);
            let anchored = pattern.strip_prefix('/');
            if anchored.is_none() && !pattern.contains('/') {
                names.add(compile(text, pattern)?);
                name_positions.push(position);
            } else {
                paths.add(compile(text, anchored.unwrap_or(pattern))?);
                path_positions.push(position);
            }
        }
        let build = |builder: GlobSetBuilder| {
            builder
                .build()
                .map_err(|e| Error::Usage(format!("invalid globs: {e}")))
        };
        Ok(GlobFilter {
            names: build(names)?,
            name_positions,
            paths: build(paths)?,
            path_positions,
            has_include: excludes.iter().any(|&e| !e),
            excludes,
        })
    }

    /// No globs: everything passes.
    pub fn none() -> Self {
        GlobFilter {
            names: GlobSet::empty(),
            name_positions: Vec::new(),
            paths: GlobSet::empty(),
            path_positions: Vec::new(),
            excludes: Vec::new(),
            has_include: false,
        }
    }

    /// Whether there are no globs at all (everything passes).
    pub fn is_empty(&self) -> bool {
        self.excludes.is_empty()
    }

    /// Whether the globs exclude this path (relative to the walked argument).
    pub fn excludes(&self, relative: &Path, is_dir: bool) -> bool {
        if self.is_empty() {
            return false;
        }
        let last_name = relative
            .file_name()
            .map(|name| self.names.matches(name))
            .and_then(|hits| hits.into_iter().map(|i| self.name_positions[i]).max());
        let last_path = self
            .paths
            .matches_candidate(&Candidate::new(relative))
            .into_iter()
            .map(|i| self.path_positions[i])
            .max();
        match last_name.max(last_path) {
            Some(position) => self.excludes[position],
            None => !is_dir && self.has_include,
        }
    }
}

fn compile(original: &str, pattern: &str) -> Result<Glob> {
    GlobBuilder::new(pattern)
        .literal_separator(true)
        .backslash_escape(true)
        .build()
        .map_err(|e| Error::Usage(format!("invalid glob '{original}': {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filter(globs: &[&str]) -> GlobFilter {
        GlobFilter::new(&globs.iter().map(|g| g.to_string()).collect::<Vec<_>>()).unwrap()
    }

    #[test]
    fn no_globs_exclude_nothing() {
        let f = filter(&[]);
        assert!(!f.excludes(Path::new("a/b.bin"), false));
    }

    #[test]
    fn name_globs_match_at_any_depth() {
        let f = filter(&["*.md"]);
        assert!(!f.excludes(Path::new("a.md"), false));
        assert!(!f.excludes(Path::new("docs/deep/a.md"), false));
        assert!(f.excludes(Path::new("docs/a.txt"), false));
        // An include glob does not prune directories.
        assert!(!f.excludes(Path::new("docs"), true));
    }

    #[test]
    fn path_globs_match_below_the_argument() {
        let f = filter(&["docs/*.md"]);
        assert!(!f.excludes(Path::new("docs/a.md"), false));
        assert!(
            f.excludes(Path::new("docs/deep/a.md"), false),
            "* stays in one component"
        );
        assert!(f.excludes(Path::new("other/docs/a.md"), false));
        let f = filter(&["docs/**/*.md"]);
        assert!(!f.excludes(Path::new("docs/deep/er/a.md"), false));
        let f = filter(&["/a.md"]);
        assert!(!f.excludes(Path::new("a.md"), false));
        assert!(
            f.excludes(Path::new("x/a.md"), false),
            "a leading / anchors"
        );
    }

    #[test]
    fn last_matching_glob_wins() {
        let f = filter(&["*.md", "!README.md"]);
        assert!(f.excludes(Path::new("README.md"), false));
        assert!(!f.excludes(Path::new("GUIDE.md"), false));
        let f = filter(&["!*.md", "README.md"]);
        assert!(!f.excludes(Path::new("x/README.md"), false));
        assert!(f.excludes(Path::new("x/GUIDE.md"), false));
        assert!(
            f.excludes(Path::new("x/a.txt"), false),
            "unmatched while an include exists"
        );
    }

    #[test]
    fn exclude_globs_prune_directories() {
        let f = filter(&["!target"]);
        assert!(f.excludes(Path::new("target"), true));
        assert!(f.excludes(Path::new("sub/target"), true));
        assert!(!f.excludes(Path::new("src"), true));
        assert!(
            !f.excludes(Path::new("src/a.rs"), false),
            "only excludes: the rest passes"
        );
    }

    #[test]
    fn invalid_glob_names_itself() {
        let error = GlobFilter::new(&["!a[".to_string()])
            .unwrap_err()
            .to_string();
        assert!(error.contains("'!a['"), "{error}");
    }
}
