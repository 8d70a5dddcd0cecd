//! Test helpers: a fresh temporary directory per test, the built binary,
//! and deterministic English-like text to make near-duplicates from.

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;

/// A temporary directory, removed when dropped.
pub struct TestDir {
    dir: tempfile::TempDir,
}

impl TestDir {
    pub fn new() -> TestDir {
        TestDir {
            dir: tempfile::tempdir().expect("temporary directory"),
        }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Writes a file (creating parent directories) and returns its path.
    pub fn create(&self, relative: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.path().join(relative);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).unwrap();
        }
        fs::write(&path, contents).unwrap();
        path
    }

    /// `simdup` run in this directory, with this directory as its home,
    /// so no git configuration of the machine (a global excludes file)
    /// reaches the test.
    pub fn simdup(&self) -> Command {
        let mut command = simdup();
        command
            .current_dir(self.path())
            .env("HOME", self.path())
            .env("XDG_CONFIG_HOME", self.path().join(".config"))
            .env(
                "GIT_CONFIG_SYSTEM",
                self.path().join(".no-system-gitconfig"),
            )
            .env_remove("GIT_CONFIG_GLOBAL");
        command
    }
}

/// The built `simdup` binary.
pub fn simdup() -> Command {
    Command::new(env!("CARGO_BIN_EXE_simdup"))
}

/// The repository root (fixtures live there).
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

const WORDS: &[&str] = &[
    "the", "of", "and", "to", "in", "a", "is", "that", "for", "it", "as", "was", "with", "be",
    "by", "on", "not", "he", "this", "are", "or", "his", "from", "at", "which", "but", "have",
    "an", "had", "they", "you", "were", "their", "one", "all", "we", "can", "her", "has", "there",
    "been", "if", "more", "when", "will", "would", "who", "so", "no", "river", "garden", "winter",
    "letter", "station", "harbour", "lantern", "orchard", "valley", "market", "engine", "window",
    "bridge", "signal", "meadow", "copper", "thunder", "archive", "ledger", "compass", "quarry",
    "violet", "saddle", "tunnel", "furnace", "pepper", "marble", "candle",
];

/// Three one-line shop records: the first and last near-copies (Jaccard
/// 0.944 by character pairs, not the same features), the middle apart.
pub const SHOPS: &str = "One Stop Bakery, 1304 High Street Rd, Wantirna South, VIC, 3152\n\
                         Green Tree Cycles, 4364 Albert Ct, Centerville, 23399\n\
                         One Stop Bakery, 1304 High Street Rd, Wantirna Sth, VIC, 3152\n";

/// Deterministic pseudo-random text of `words` words.
pub fn text(seed: u64, words: usize) -> String {
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut out = String::new();
    for index in 0..words {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let word = WORDS[(state >> 33) as usize % WORDS.len()];
        if index > 0 {
            out.push(if index % 12 == 0 { '\n' } else { ' ' });
        }
        out.push_str(word);
    }
    out.push('\n');
    out
}

/// `text` with the word at each of `positions` replaced.
pub fn edit(text: &str, positions: &[usize]) -> String {
    let mut words: Vec<String> = text.split(' ').map(str::to_string).collect();
    for &position in positions {
        words[position] = format!("edited{position}");
    }
    words.join(" ")
}

/// What `simdup fingerprint PATH --format FORMAT` prints, run in `dir`
/// (it must succeed).
pub fn saved_fingerprints(dir: &TestDir, path: &str, format: &str) -> Vec<u8> {
    saved_fingerprints_with(dir, path, format, &[])
}

/// The same, with more options to `simdup fingerprint`.
pub fn saved_fingerprints_with(
    dir: &TestDir,
    path: &str,
    format: &str,
    options: &[&str],
) -> Vec<u8> {
    let saved = dir
        .simdup()
        .args(["fingerprint", path, "--format", format])
        .args(options)
        .output()
        .unwrap();
    assert_eq!(saved.status.code(), Some(0), "{}", stderr(&saved));
    saved.stdout
}

/// Parses JSON Lines output.
pub fn json_lines(output: &[u8]) -> Vec<serde_json::Value> {
    std::str::from_utf8(output)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// Stdout as a string.
pub fn stdout(output: &std::process::Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// Stderr as a string.
pub fn stderr(output: &std::process::Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

/// Whether this process can be denied permission (root cannot).
pub fn permissions_apply(dir: &TestDir) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let probe = dir.create("probe", "x");
    fs::set_permissions(&probe, fs::Permissions::from_mode(0o000)).unwrap();
    let denied = fs::read(&probe).is_err();
    fs::set_permissions(&probe, fs::Permissions::from_mode(0o644)).unwrap();
    fs::remove_file(probe).unwrap();
    denied
}

/// Runs `simdup ARGS` in `dir`, reads the first bytes of its output, closes
/// the pipe (as `| head` does) and returns the exit code and stderr.
pub fn run_and_close_pipe(dir: &TestDir, args: &[&str]) -> (Option<i32>, String) {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_simdup"))
        .current_dir(dir.path())
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 64];
    let mut stdout = child.stdout.take().unwrap();
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    let mut errors = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut errors)
        .unwrap();
    (child.wait().unwrap().code(), errors)
}

/// Runs `simdup ARGS` in `dir` with stdout a pipe whose reader is closed
/// before the run starts, so every write fails as it does under `| head`
/// once head has gone (however short the output).
pub fn run_into_closed_pipe(dir: &TestDir, args: &[&str]) -> std::process::Output {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    std::process::Command::new(env!("CARGO_BIN_EXE_simdup"))
        .current_dir(dir.path())
        .env("HOME", dir.path())
        .args(args)
        .stdout(writer)
        .output()
        .unwrap()
}

/// `/dev/full` opened for writing, if this system has it as a character
/// device: every write to it fails with "no space left on device".
pub fn dev_full() -> Option<fs::File> {
    use std::os::unix::fs::FileTypeExt;
    let path = Path::new("/dev/full");
    if !fs::metadata(path).ok()?.file_type().is_char_device() {
        return None;
    }
    fs::OpenOptions::new().write(true).open(path).ok()
}

/// Runs `simdup ARGS` in `dir` with stdout `/dev/full`; `None` (the test
/// skips) where there is no such device.
pub fn run_into_full_disk(dir: &TestDir, args: &[&str]) -> Option<std::process::Output> {
    let full = dev_full()?;
    Some(
        std::process::Command::new(env!("CARGO_BIN_EXE_simdup"))
            .current_dir(dir.path())
            .env("HOME", dir.path())
            .args(args)
            .stdout(full)
            .output()
            .unwrap(),
    )
}

/// Asserts that `simdup ARGS` in `dir` ends quietly when its stdout is a
/// closed pipe (exit 0, nothing on stderr), as under `| head`.
pub fn assert_quiet_on_closed_pipe(dir: &TestDir, args: &[&str]) {
    let closed = run_into_closed_pipe(dir, args);
    assert_eq!(
        closed.status.code(),
        Some(0),
        "{args:?}: {}",
        stderr(&closed)
    );
    assert!(closed.stderr.is_empty(), "{args:?}: {}", stderr(&closed));
}

/// Asserts that `simdup ARGS` in `dir` writing to a full disk exits 2 and
/// says so, without a panic (skipped where there is no `/dev/full`).
pub fn assert_full_disk_reported(dir: &TestDir, args: &[&str]) {
    let Some(full) = run_into_full_disk(dir, args) else {
        eprintln!("no /dev/full here: the full-disk check is skipped");
        return;
    };
    let errors = stderr(&full);
    assert_eq!(full.status.code(), Some(2), "{args:?}: {errors}");
    assert!(
        errors.contains("No space left on device") && !errors.contains("panicked"),
        "{args:?}: {errors}"
    );
}

/// Checks the JSON `stats` invariant the README states: every input is
/// fingerprinted, too short, empty, skipped or an error.
pub fn assert_inputs_add_up(stats: &serde_json::Value) {
    let count = |key: &str| {
        stats[key]
            .as_u64()
            .unwrap_or_else(|| panic!("{key}: {stats}"))
    };
    let skipped: u64 = stats["skipped"]
        .as_object()
        .unwrap()
        .values()
        .map(|count| count.as_u64().unwrap())
        .sum();
    assert_eq!(
        count("inputs"),
        count("fingerprinted") + count("too_short") + count("empty") + skipped + count("errors"),
        "{stats}"
    );
}
