//! The allowlist: pairs and groups a repository accepts for good, listed
//! by path or glob (the `[[accept]]` tables of simdup.toml). An accepted
//! pair is dropped from the report like a pair a baseline accepts: not
//! listed, not failing the run, and counted (`stats.accepted`).
//!
//! A rule is either a set of globs (a pair is accepted when each of its
//! two documents matches one of them: "these files may copy each other")
//! or a pair of globs (one document matches the first and the other the
//! second). Globs match a document's path relative to the allowlist's
//! root (the directory of the config file), with `/` separators; `*` and
//! `?` stay within one directory, `**` crosses directories. Only listed
//! pairs are checked (`--max-pairs`).

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};

use globset::{Glob, GlobBuilder, GlobMatcher};

use crate::report::Report;
use crate::{Error, Result};

/// One accepted pair or group, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Any pair whose two documents both match one of these globs.
    Group(Vec<String>),
    /// A pair with one document matching each glob.
    Pair(String, String),
}

/// The compiled rules and where their paths start.
#[derive(Debug)]
pub struct Allowlist {
    rules: Vec<Compiled>,
    /// The directory paths are relative to, absolute and normalised.
    root: PathBuf,
    /// The current directory, absolute and normalised.
    cwd: PathBuf,
}

#[derive(Debug)]
enum Compiled {
    Group(Vec<GlobMatcher>),
    Pair(GlobMatcher, GlobMatcher),
}

fn compile(glob: &str) -> Result<GlobMatcher> {
    let glob = glob.strip_prefix("./").unwrap_or(glob);
    GlobBuilder::new(glob)
        .literal_separator(true)
        .build()
        .map(|glob: Glob| glob.compile_matcher())
        .map_err(|error| Error::Usage(format!("bad glob in the allowlist: {error}")))
}

impl Allowlist {
    /// Compiles `rules`; their paths are relative to `root` (relative to
    /// `cwd`, or absolute).
    pub fn new(rules: &[Rule], root: &Path, cwd: &Path) -> Result<Allowlist> {
        let rules = rules
            .iter()
            .map(|rule| {
                Ok(match rule {
                    Rule::Group(globs) => {
                        Compiled::Group(globs.iter().map(|g| compile(g)).collect::<Result<_>>()?)
                    }
                    Rule::Pair(a, b) => Compiled::Pair(compile(a)?, compile(b)?),
                })
            })
            .collect::<Result<_>>()?;
        let cwd = normalise(cwd);
        Ok(Allowlist {
            rules,
            root: normalise(&cwd.join(root)),
            cwd,
        })
    }

    /// The path a document name is matched as: relative to the root when
    /// it lies below it, else as given (without `./`).
    fn key(&self, name: &str) -> String {
        let absolute = normalise(&self.cwd.join(name));
        let relative = absolute
            .strip_prefix(&self.root)
            .map(Path::to_path_buf)
            .unwrap_or_else(|_| normalise(Path::new(name)));
        relative
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("/")
    }

    /// Whether the allowlist accepts the pair of documents named `a`, `b`.
    pub fn accepts(&self, a: &str, b: &str) -> bool {
        let (a, b) = (self.key(a), self.key(b));
        self.rules.iter().any(|rule| match rule {
            Compiled::Group(globs) => {
                globs.iter().any(|g| g.is_match(&a)) && globs.iter().any(|g| g.is_match(&b))
            }
            Compiled::Pair(x, y) => {
                (x.is_match(&a) && y.is_match(&b)) || (x.is_match(&b) && y.is_match(&a))
            }
        })
    }

    /// Drops the accepted pairs from the report (and the groups left
    /// without a listed pair), counts them in `stats.accepted` and takes
    /// them out of `stats.pairs_found`. Returns how many were accepted.
    pub fn apply(&self, report: &mut Report) -> u64 {
        if self.rules.is_empty() {
            return 0;
        }
        let names: Vec<bool> = report
            .pairs
            .iter()
            .map(|pair| self.accepts(&report.name(pair.a), &report.name(pair.b)))
            .collect();
        let accepted = names.iter().filter(|&&accepted| accepted).count() as u64;
        if accepted == 0 {
            return 0;
        }
        let mut index = 0;
        report.pairs.retain(|_| {
            let keep = !names[index];
            index += 1;
            keep
        });
        let members: BTreeSet<u32> = report.pairs.iter().flat_map(|p| [p.a, p.b]).collect();
        report
            .groups
            .retain(|group| group.members.iter().any(|m| members.contains(m)));
        report.stats.pairs = report.pairs.len() as u64;
        report.stats.groups = report.groups.len() as u64;
        report.stats.pairs_found = report.stats.pairs_found.saturating_sub(accepted);
        report.stats.accepted += accepted;
        accepted
    }
}

/// The path without `.` components and with `..` applied (lexically: no
/// file system access, symbolic links are not followed).
fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn allowlist(rules: &[Rule], root: &str) -> Allowlist {
        Allowlist::new(rules, Path::new(root), Path::new("/repo/docs")).unwrap()
    }

    #[test]
    fn groups_accept_pairs_whose_both_sides_match() {
        let list = allowlist(&[Rule::Group(vec!["docs/licenses/*".into()])], "..");
        assert!(list.accepts("licenses/mit.md", "./licenses/apache.md"));
        assert!(!list.accepts("licenses/mit.md", "guide.md"));
        // `*` stays in its directory.
        assert!(!list.accepts("licenses/old/mit.md", "licenses/apache.md"));
    }

    #[test]
    fn pairs_accept_either_order_and_paths_outside_the_root_as_given() {
        let list = allowlist(
            &[Rule::Pair("docs/a.md".into(), "docs/**/b.md".into())],
            "..",
        );
        assert!(list.accepts("x/y/b.md", "a.md"));
        assert!(!list.accepts("a.md", "c.md"));
        let outside = allowlist(&[Rule::Pair("../x.md".into(), "y.md".into())], ".");
        assert!(outside.accepts("../x.md", "y.md"));
        assert!(
            Allowlist::new(
                &[Rule::Group(vec!["a[".into()])],
                Path::new("."),
                Path::new("/")
            )
            .is_err()
        );
    }
}
