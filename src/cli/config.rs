//! The repository's config file, `simdup.toml` or `.simdup.toml`: the
//! options a team wants on every `simdup scan`, so the CI command stays
//! short. Command-line flags override it; `--no-config` ignores it.
//!
//! It is looked for in the current directory and each directory above,
//! up to the first that holds `.git` (the repository root); outside a git
//! repository, only in the current directory. Both names in one directory
//! is an error, as is an unknown key or a bad value (the message names the
//! file and the key). Paths in it (`paths`, `baseline`) are relative to the
//! directory of the file; globs are matched as on the command line.

use std::path::{Path, PathBuf};

use clap::ArgMatches;
use clap::ValueEnum;
use clap::parser::ValueSource;
use serde::Deserialize;

use super::args::MarkupArg;
use super::scan::{FormatArg, GroupByArg, ScanArgs};
use simdup::jobs::scan::allowlist::{Allowlist, Rule};

/// The file names looked for, in this order.
pub const NAMES: [&str; 2] = ["simdup.toml", ".simdup.toml"];

/// What the file may hold.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ConfigFile {
    /// PATHs to scan when none is given.
    pub paths: Option<Vec<PathBuf>>,
    /// `--threshold`.
    pub threshold: Option<f64>,
    /// `--glob`, each.
    pub globs: Option<Vec<String>>,
    /// `--baseline`.
    pub baseline: Option<PathBuf>,
    /// `--format`.
    pub format: Option<String>,
    /// `--group-by` (`components` or `first`).
    pub group_by: Option<String>,
    /// `--fail-on-duplicates`.
    pub fail_on_duplicates: Option<bool>,
    /// `--no-ignore`.
    pub no_ignore: Option<bool>,
    /// `--shingle`.
    pub shingle: Option<String>,
    /// `--markup` (`text` or `raw`).
    pub markup: Option<String>,
    /// `--transform`.
    pub transform: Option<String>,
    /// `--decompress`.
    pub decompress: Option<bool>,
    /// Accepted pairs and groups (the allowlist).
    #[serde(default)]
    pub accept: Vec<AcceptEntry>,
}

/// One `[[accept]]` table: `paths` (globs; a pair whose two documents
/// both match one of them is accepted) or `pair` (two paths or globs, one
/// for each side).
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct AcceptEntry {
    /// Globs: a pair whose both documents match is accepted.
    pub paths: Option<Vec<String>>,
    /// Two paths or globs: a pair with one document matching each.
    pub pair: Option<Vec<String>>,
}

/// A config file found and read.
#[derive(Debug)]
pub struct Config {
    /// Where it is (relative to the current directory).
    pub file: PathBuf,
    /// What it says.
    pub values: ConfigFile,
}

impl Config {
    /// Finds the config file from the current directory, and reads it.
    pub fn discover() -> anyhow::Result<Option<Config>> {
        let cwd = std::env::current_dir()?;
        let Some(file) = find(&cwd)? else {
            return Ok(None);
        };
        Ok(Some(Config::read(&file)?))
    }

    /// Reads and checks one config file.
    pub fn read(file: &Path) -> anyhow::Result<Config> {
        let text = std::fs::read_to_string(file)
            .map_err(|error| anyhow::anyhow!("cannot read {}: {error}", file.display()))?;
        let values: ConfigFile = toml::from_str(&text).map_err(|error| {
            anyhow::anyhow!("{}: {}", file.display(), error.to_string().trim_end())
        })?;
        let config = Config {
            file: file.to_path_buf(),
            values,
        };
        config.check()?;
        Ok(config)
    }

    fn bad(&self, key: &str, why: impl std::fmt::Display) -> anyhow::Error {
        anyhow::anyhow!("{}: {key}: {why}", self.file.display())
    }

    /// Values serde cannot check.
    fn check(&self) -> anyhow::Result<()> {
        let values = &self.values;
        if let Some(threshold) = values.threshold
            && !(0.0..=1.0).contains(&threshold)
        {
            return Err(self.bad(
                "threshold",
                format_args!("expected a number from 0 to 1, got {threshold}"),
            ));
        }
        if let Some(format) = &values.format {
            FormatArg::from_str(format, false).map_err(|_| {
                self.bad(
                    "format",
                    format_args!(
                        "unknown format '{format}' (one of {})",
                        FormatArg::value_variants()
                            .iter()
                            .filter_map(|v| v.to_possible_value())
                            .map(|v| v.get_name().to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                )
            })?;
        }
        if let Some(group_by) = &values.group_by {
            GroupByArg::from_str(group_by, false).map_err(|_| {
                self.bad(
                    "group-by",
                    format_args!("unknown value '{group_by}' (components or first)"),
                )
            })?;
        }
        if let Some(shingle) = &values.shingle {
            shingle
                .parse::<simdup::fingerprint::Shingle>()
                .map_err(|error| self.bad("shingle", error))?;
        }
        if let Some(globs) = &values.globs {
            simdup::input::GlobFilter::new(globs).map_err(|error| self.bad("globs", error))?;
        }
        if let Some(markup) = &values.markup {
            MarkupArg::from_str(markup, false).map_err(|_| {
                self.bad(
                    "markup",
                    format_args!("unknown value '{markup}' (text or raw)"),
                )
            })?;
        }
        if let Some(transform) = &values.transform {
            transform
                .parse::<simdup::input::Transform>()
                .map_err(|error| self.bad("transform", error))?;
        }
        for (index, entry) in values.accept.iter().enumerate() {
            let key = format!("accept[{}]", index + 1);
            match (&entry.paths, &entry.pair) {
                (Some(paths), None) if !paths.is_empty() => {}
                (None, Some(pair)) if pair.len() == 2 => {}
                (None, Some(_)) => return Err(self.bad(&key, "pair takes exactly two paths")),
                _ => {
                    return Err(self.bad(&key, "give either paths = [globs...] or pair = [a, b]"));
                }
            }
        }
        Ok(())
    }

    /// A path of the file, relative to the current directory.
    fn path(&self, path: &Path) -> PathBuf {
        match self.file.parent() {
            Some(dir) if !dir.as_os_str().is_empty() && path.is_relative() => dir.join(path),
            _ => path.to_path_buf(),
        }
    }

    /// The allowlist of its `[[accept]]` tables (`None` without any), its
    /// paths relative to the file's directory.
    pub fn allowlist(&self) -> anyhow::Result<Option<Allowlist>> {
        let rules: Vec<Rule> = self
            .values
            .accept
            .iter()
            .filter_map(|entry| match (&entry.paths, &entry.pair) {
                (Some(paths), _) => Some(Rule::Group(paths.clone())),
                (None, Some(pair)) if pair.len() == 2 => {
                    Some(Rule::Pair(pair[0].clone(), pair[1].clone()))
                }
                _ => None,
            })
            .collect();
        if rules.is_empty() {
            return Ok(None);
        }
        let root = match self.file.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let cwd = std::env::current_dir()?;
        Allowlist::new(&rules, &root, &cwd)
            .map(Some)
            .map_err(|error| self.bad("accept", error))
    }

    /// Fills the scan options the command line left alone.
    pub fn apply(&self, args: &mut ScanArgs, matches: Option<&ArgMatches>) {
        let given = |id: &str| {
            matches.is_some_and(|m| {
                m.try_contains_id(id).unwrap_or(false)
                    && m.value_source(id) == Some(ValueSource::CommandLine)
            })
        };
        let values = &self.values;
        if let Some(paths) = &values.paths
            && args.paths.is_empty()
            && args.files_from.is_none()
            && args.record.records.is_none()
            && args.fingerprints.is_empty()
        {
            args.paths = paths.iter().map(|path| self.path(path)).collect();
        }
        // A threshold for verified pairs only: --raw stays usable.
        if let Some(threshold) = values.threshold
            && !given("threshold")
            && !args.raw
            && (args.fingerprints.is_empty() || args.verify)
        {
            args.threshold = threshold;
        }
        // The walk's options are for files: records and saved
        // fingerprints stay usable (they would refuse them).
        let stdin_records = args.paths.len() == 1 && simdup::jobs::is_stdin(&args.paths[0]);
        let reads_files =
            args.record.records.is_none() && !stdin_records && args.fingerprints.is_empty();
        if let Some(globs) = &values.globs
            && !given("globs")
            && reads_files
        {
            args.walk.globs = globs.clone();
        }
        if let Some(baseline) = &values.baseline
            && !given("baseline")
            && args.write_baseline.is_none()
        {
            args.baseline = Some(self.path(baseline));
        }
        if let Some(format) = &values.format
            && !given("format")
            && let Ok(format) = FormatArg::from_str(format, false)
        {
            args.format = format;
        }
        // Groups led by their first member need verified pairs: --raw
        // stays usable.
        if let Some(group_by) = &values.group_by
            && !given("group_by")
            && !args.raw
            && (args.fingerprints.is_empty() || args.verify)
            && let Ok(group_by) = GroupByArg::from_str(group_by, false)
        {
            args.group_by = group_by;
        }
        if let Some(fail) = values.fail_on_duplicates
            && !given("fail_on_duplicates")
        {
            args.fail_on_duplicates = fail;
        }
        if let Some(no_ignore) = values.no_ignore
            && !given("no_ignore")
            && reads_files
        {
            args.walk.no_ignore = no_ignore;
        }
        // Saved fingerprints keep their own feature options.
        if let Some(shingle) = &values.shingle
            && !given("shingle")
            && (args.fingerprints.is_empty() || args.verify)
            && let Ok(shingle) = shingle.parse()
        {
            args.features.shingle = Some(shingle);
        }
        let own_features = args.fingerprints.is_empty() || args.verify;
        if let Some(markup) = &values.markup
            && !given("markup")
            && own_features
            && let Ok(markup) = MarkupArg::from_str(markup, false)
        {
            args.features.markup = markup;
        }
        if let Some(transform) = &values.transform
            && !given("transform")
            && own_features
        {
            args.features.transform = Some(transform.clone());
        }
        if let Some(decompress) = values.decompress
            && !given("decompress")
            && own_features
        {
            args.features.decompress = decompress;
        }
    }
}

/// Reads the config file (unless `--no-config`) and fills the scan
/// options the command line left alone; its allowlist, if any.
pub fn load(
    args: &mut ScanArgs,
    matches: Option<&ArgMatches>,
) -> anyhow::Result<Option<Allowlist>> {
    if args.no_config {
        return Ok(None);
    }
    let Some(config) = Config::discover()? else {
        return Ok(None);
    };
    config.apply(args, matches);
    config.allowlist()
}

/// The config file for a run in `cwd`: in it or a directory above, up to
/// the repository root; only in `cwd` outside a repository. The path is
/// relative (`simdup.toml`, `../simdup.toml`, ...).
pub fn find(cwd: &Path) -> anyhow::Result<Option<PathBuf>> {
    let in_repository = cwd.ancestors().any(|dir| dir.join(".git").exists());
    let mut prefix = PathBuf::new();
    for dir in cwd.ancestors() {
        let found: Vec<&str> = NAMES
            .iter()
            .copied()
            .filter(|name| dir.join(name).is_file())
            .collect();
        match found.as_slice() {
            [] => {}
            [name] => return Ok(Some(prefix.join(name))),
            _ => anyhow::bail!(
                "both {} and {} in {}: keep one",
                NAMES[0],
                NAMES[1],
                if prefix.as_os_str().is_empty() {
                    ".".to_string()
                } else {
                    prefix.display().to_string()
                }
            ),
        }
        if !in_repository || dir.join(".git").exists() {
            break;
        }
        prefix.push("..");
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> anyhow::Result<Config> {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("simdup.toml");
        std::fs::write(&file, text).unwrap();
        Config::read(&file)
    }

    #[test]
    fn every_key_parses() {
        let config = parse(
            "paths = [\"docs\"]\nthreshold = 0.9\nglobs = [\"*.md\"]\nbaseline = \".b\"\n\
             format = \"sarif\"\ngroup-by = \"first\"\nfail-on-duplicates = true\nno-ignore = true\n\
             shingle = \"words:4\"\nmarkup = \"raw\"\ntransform = \"pandoc -t plain $IN\"\ndecompress = true\n[[accept]]\npaths = [\"licenses/*\"]\n\
             [[accept]]\npair = [\"a.md\", \"b.md\"]\n",
        )
        .unwrap();
        assert_eq!(config.values.threshold, Some(0.9));
        assert_eq!(config.values.group_by.as_deref(), Some("first"));
        assert_eq!(config.values.accept.len(), 2);
    }

    #[test]
    fn unknown_keys_and_bad_values_name_the_file_and_the_key() {
        for (text, key) in [
            ("thresold = 0.9\n", "thresold"),
            ("threshold = 1.5\n", "threshold"),
            ("threshold = \"high\"\n", "threshold"),
            ("format = \"xml\"\n", "format"),
            ("group-by = \"leader\"\n", "group-by"),
            ("shingle = \"words:0\"\n", "shingle"),
            ("markup = \"pretty\"\n", "markup"),
            ("transform = \"a 'b\"\n", "transform"),
            ("[[accept]]\npair = [\"a\"]\n", "accept[1]"),
            ("[[accept]]\nglob = [\"a\"]\n", "glob"),
        ] {
            let error = parse(text).unwrap_err().to_string();
            assert!(error.contains("simdup.toml"), "{text}: {error}");
            assert!(error.contains(key), "{text}: {error}");
        }
    }

    #[test]
    fn found_up_to_the_repository_root_only() {
        let root = tempfile::tempdir().unwrap();
        let deep = root.path().join("a/b");
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::write(root.path().join(".simdup.toml"), "").unwrap();
        // Outside a repository: the current directory only.
        assert_eq!(find(&deep).unwrap(), None);
        std::fs::create_dir(root.path().join(".git")).unwrap();
        assert_eq!(
            find(&deep).unwrap(),
            Some(PathBuf::from("../../.simdup.toml"))
        );
        std::fs::write(root.path().join("simdup.toml"), "").unwrap();
        assert!(find(root.path()).is_err());
    }
}
