//! The same input rules in every subcommand: FIFOs and process
//! substitutions named on the command line are read, never waited on
//! forever; files the walk finds are opened through one layer; options
//! that cannot apply are errors. See: #9.

use std::time::Duration;

use crate::util::{TestDir, stderr, stdout, text};

/// No run may take longer than this: a hang fails the test instead of
/// blocking the suite.
const DEADLINE: Duration = Duration::from_secs(20);

fn fifo(dir: &TestDir, name: &str) {
    let made = std::process::Command::new("mkfifo")
        .arg(dir.path().join(name))
        .status()
        .unwrap();
    assert!(made.success());
}

#[test]
fn a_fifo_without_a_writer_hangs_no_subcommand() {
    let dir = TestDir::new();
    dir.create("d/a.txt", text(31, 200));
    fifo(&dir, "d/pipe");
    fifo(&dir, "lonely");
    // Found by a walk: skipped, never opened.
    let scan = dir
        .simdup()
        .args(["scan", "d", "--format", "json"])
        .timeout(DEADLINE)
        .output()
        .unwrap();
    assert_eq!(scan.status.code(), Some(0), "{}", stderr(&scan));
    let value: serde_json::Value = serde_json::from_slice(&scan.stdout).unwrap();
    assert_eq!(value["stats"]["skipped"]["not_regular"], 1);
    // Named explicitly with nobody writing: read at once, as empty.
    let fingerprint = dir
        .simdup()
        .args(["fingerprint", "lonely"])
        .timeout(DEADLINE)
        .output()
        .unwrap();
    assert_eq!(
        fingerprint.status.code(),
        Some(0),
        "{}",
        stderr(&fingerprint)
    );
    assert!(stderr(&fingerprint).contains("lonely: no features (empty)"));
    let compare = dir
        .simdup()
        .args(["compare", "lonely", "d/a.txt"])
        .timeout(DEADLINE)
        .output()
        .unwrap();
    assert_eq!(compare.status.code(), Some(0), "{}", stderr(&compare));
    assert!(
        stdout(&compare).starts_with("lonely has no features: nothing to compare"),
        "{}",
        stdout(&compare)
    );
}

/// Runs a bash command line (for process substitution) in `dir`.
fn bash(dir: &TestDir, script: &str) -> std::process::Output {
    assert_cmd::Command::new("bash")
        .arg("-c")
        .arg(script)
        .env("SIMDUP", env!("CARGO_BIN_EXE_simdup"))
        .current_dir(dir.path())
        .timeout(DEADLINE)
        .output()
        .unwrap()
}

#[test]
fn process_substitutions_are_read_like_files() {
    let dir = TestDir::new();
    let original = text(32, 300);
    dir.create("a.txt", &original);
    let from_file = dir
        .simdup()
        .args(["fingerprint", "a.txt"])
        .output()
        .unwrap();
    let substituted = bash(&dir, "\"$SIMDUP\" fingerprint <(cat a.txt)");
    assert_eq!(
        substituted.status.code(),
        Some(0),
        "{}",
        stderr(&substituted)
    );
    let simhash = |output: &std::process::Output| {
        stdout(output)
            .lines()
            .nth(1)
            .and_then(|line| line.split_whitespace().next())
            .map(str::to_string)
    };
    assert!(simhash(&from_file).is_some());
    assert_eq!(simhash(&substituted), simhash(&from_file));

    let compared = bash(
        &dir,
        "\"$SIMDUP\" compare <(cat a.txt) <(cat a.txt) --format json",
    );
    assert_eq!(compared.status.code(), Some(0), "{}", stderr(&compared));
    let value: serde_json::Value = serde_json::from_slice(&compared.stdout).unwrap();
    assert_eq!(value["distance"], 0);
    assert_eq!(value["jaccard"], 1.0);

    let scanned = bash(
        &dir,
        "\"$SIMDUP\" scan <(cat a.txt) a.txt --format json -k 0",
    );
    assert_eq!(scanned.status.code(), Some(0), "{}", stderr(&scanned));
    let value: serde_json::Value = serde_json::from_slice(&scanned.stdout).unwrap();
    assert_eq!(value["stats"]["fingerprinted"], 2);
    assert_eq!(value["stats"]["pairs"], 1);

    // Verification reads a piped document again from the copy kept of it.
    dir.create("b.txt", crate::util::edit(&original, &[40]));
    let verified = bash(&dir, "\"$SIMDUP\" scan <(cat a.txt) b.txt --format jsonl");
    assert_eq!(verified.status.code(), Some(0), "{}", stderr(&verified));
    let pairs = crate::util::json_lines(&verified.stdout);
    assert_eq!(pairs.len(), 1, "{}", stdout(&verified));
    let jaccard = pairs[0]["jaccard"].as_f64().unwrap();
    assert!(jaccard > 0.9 && jaccard < 1.0, "{jaccard}");
}

#[test]
fn sdr_skips_binary_files_like_fingerprints_do() {
    let dir = TestDir::new();
    dir.create("blob.bin", b"text\0more text".as_slice());
    for extra in [&[][..], &["--sdr", "256:8"][..]] {
        let output = dir
            .simdup()
            .arg("fingerprint")
            .arg("blob.bin")
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        assert!(
            stderr(&output).contains("blob.bin: skipped (binary)"),
            "{extra:?}: {}",
            stderr(&output)
        );
        assert!(!stdout(&output).contains("blob.bin"), "{extra:?}");
    }
}

#[test]
fn compare_refuses_a_binary_file_unless_asked() {
    let dir = TestDir::new();
    dir.create("blob.bin", b"text\0more text".as_slice());
    dir.create("a.txt", "more text");
    let refused = dir
        .simdup()
        .args(["compare", "blob.bin", "a.txt"])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        stderr(&refused).contains("blob.bin: not compared: binary (use --binary"),
        "{}",
        stderr(&refused)
    );
    let asked = dir
        .simdup()
        .args(["compare", "blob.bin", "a.txt", "--binary"])
        .output()
        .unwrap();
    assert_eq!(asked.status.code(), Some(0), "{}", stderr(&asked));
}

#[test]
fn options_that_cannot_apply_are_errors() {
    let dir = TestDir::new();
    dir.create("d/a.txt", text(33, 100));
    dir.create("saved.txt", "0123456789abcdef  d/a.txt\n");
    for (args, message) in [
        (
            &["scan", "d", "--window", "4"][..],
            "--window applies only to --method rotate",
        ),
        (
            &[
                "scan",
                "--fingerprints",
                "saved.txt",
                "--shingle",
                "chars:5",
            ][..],
            "feature options do not apply to --fingerprints",
        ),
        (
            &["scan", "-", "d"][..],
            "'-' reads records from stdin and cannot be combined",
        ),
    ] {
        let output = dir.simdup().args(args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&output).contains(message),
            "{args:?}: {}",
            stderr(&output)
        );
        assert!(stdout(&output).is_empty(), "{args:?}");
    }
}

/// Options of another input mode (or encoding) would be ignored: each is
/// an error naming the option and the mode it applies to, before any
/// input is read or any file written.
#[test]
fn options_of_another_mode_are_errors() {
    let dir = TestDir::new();
    dir.create("d/a.txt", text(34, 100));
    dir.create("e/b.txt", text(35, 100));
    dir.create("lines.txt", "one line\nanother line\n");
    dir.create("r.jsonl", "{\"id\": \"1\", \"text\": \"some text\"}\n");
    let saved = dir.simdup().args(["fingerprint", "d"]).output().unwrap();
    assert_eq!(saved.status.code(), Some(0), "{}", stderr(&saved));
    dir.create("saved.txt", &saved.stdout);
    let fields = "--id-field and --text-field apply only to --records jsonl";
    let scan_walk = "--hidden, --follow, --glob, --binary and --no-ignore apply to files \
                     (PATHs or --files-from), not to records or saved fingerprints";
    let cache = "--cache applies to files (PATHs or --files-from), not to records or saved \
                 fingerprints";
    let by_chars = "--short-texts applies to short texts compared by character pairs, which a \
                    chosen --shingle";
    let dedup_walk = "--hidden, --follow, --glob, --binary and --no-ignore apply to files (a \
                      directory, several PATHs or --files-from), not to records";
    let stdin_walk = "--hidden, --follow, --glob, --max-filesize, --binary and --no-ignore \
                      apply to files and directories, not to stdin";
    let index_walk = "--hidden, --follow, --glob, --binary and --no-ignore apply to files and \
                      directories, not to records";
    let cases: &[(&[&str], &str)] = &[
        // scan: record fields without JSON Lines records.
        (&["scan", "d", "--text-field", "body"], fields),
        (&["scan", "--files-from", "-", "--id-field", "id"], fields),
        (&["scan", "-", "--id-field", "id"], fields),
        (
            &[
                "scan",
                "--records",
                "nul",
                "lines.txt",
                "--text-field",
                "body",
            ],
            fields,
        ),
        (
            &["scan", "--fingerprints", "saved.txt", "--id-field", "id"],
            fields,
        ),
        // scan: a cache of files, or the walk, without files.
        (&["scan", "-", "--cache", "cache.db"], cache),
        (
            &["scan", "--fingerprints", "saved.txt", "--cache", "cache.db"],
            cache,
        ),
        (
            &["scan", "--records", "jsonl", "r.jsonl", "--glob", "*.md"],
            scan_walk,
        ),
        (&["scan", "-", "--no-ignore"], scan_walk),
        (
            &["scan", "--fingerprints", "saved.txt", "--hidden"],
            scan_walk,
        ),
        (
            &[
                "scan",
                "--fingerprints",
                "saved.txt",
                "--verify",
                "--binary",
            ],
            scan_walk,
        ),
        // scan: what only verification uses, in raw mode.
        (
            &["scan", "d", "--raw", "--max-candidates", "10"],
            "--max-candidates applies only to verified near-duplicates; drop --raw",
        ),
        (
            &[
                "scan",
                "--fingerprints",
                "saved.txt",
                "--max-candidates",
                "10",
            ],
            "--max-candidates applies only to verified near-duplicates; drop --raw or add \
             --verify",
        ),
        (
            &["scan", "d", "--raw", "--short-texts", "join"],
            "--short-texts applies only to verified near-duplicates; drop --raw",
        ),
        (
            &[
                "scan",
                "--fingerprints",
                "saved.txt",
                "--verify",
                "--short-texts",
                "join",
            ],
            "--short-texts does not apply to --fingerprints",
        ),
        (
            &["scan", "d", "--shingle", "words:2", "--short-texts", "join"],
            by_chars,
        ),
        // dedup: options of files on records, and of records on files.
        (
            &["dedup", "d", "e", "--strict"],
            "--strict applies to records (one FILE or stdin), not to files",
        ),
        (
            &["dedup", "lines.txt", "-v"],
            "-v applies to files (a directory, several PATHs or --files-from), not to records",
        ),
        (&["dedup", "lines.txt", "--no-ignore"], dedup_walk),
        (
            &["dedup", "lines.txt", "--transform", "cat"],
            "--transform applies to files (a directory, several PATHs or --files-from), not \
             to records",
        ),
        (
            &[
                "scan",
                "--records",
                "lines",
                "lines.txt",
                "--transform",
                "cat",
            ],
            "--transform applies to files (PATHs or --files-from), not to records",
        ),
        (
            &["index", "add", "--db", "i.db", "-", "--transform", "cat"],
            "--transform applies to files and directories, not to records",
        ),
        (
            &[
                "dedup",
                "lines.txt",
                "--shingle",
                "chars:3",
                "--short-texts",
                "join",
            ],
            by_chars,
        ),
        // fingerprint: SimHash's options with --sdr; the walk's on stdin.
        (
            &["fingerprint", "d", "--sdr", "2048:41", "--format", "jsonl"],
            "--format applies to SimHash fingerprints, not to --sdr",
        ),
        (
            &["fingerprint", "d", "--sdr", "2048:41", "--hash", "sha3"],
            "--hash applies to SimHash fingerprints; --sdr always hashes with SHAKE256",
        ),
        (&["fingerprint", "--glob", "*.md"], stdin_walk),
        (&["fingerprint", "-", "--max-filesize", "1M"], stdin_walk),
        // index add: record fields without JSON Lines, the walk on records.
        (
            &[
                "index",
                "add",
                "d",
                "--db",
                "index.db",
                "--text-field",
                "body",
            ],
            fields,
        ),
        (
            &["index", "add", "-", "--db", "index.db", "--id-field", "id"],
            fields,
        ),
        (
            &[
                "index",
                "add",
                "--records",
                "jsonl",
                "r.jsonl",
                "--db",
                "index.db",
                "--hidden",
            ],
            index_walk,
        ),
    ];
    for &(args, message) in cases {
        let output = dir.simdup().args(args).output().unwrap();
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            stderr(&output)
        );
        let said = stderr(&output);
        assert!(said.contains(message), "{args:?}: {said}");
        assert_eq!(said.lines().count(), 1, "{args:?}: {said}");
        assert!(stdout(&output).is_empty(), "{args:?}");
    }
    assert!(!dir.path().join("cache.db").exists());
    assert!(!dir.path().join("index.db").exists());
}

/// The neighbours of those errors still run: each option in the mode it
/// applies to.
#[test]
fn options_in_their_own_mode_still_run() {
    let dir = TestDir::new();
    dir.create("d/a.txt", text(36, 100));
    dir.create("lines.txt", "one line\nanother line\n");
    dir.create("r.jsonl", "{\"id\": \"1\", \"body\": \"some text\"}\n");
    let saved = dir.simdup().args(["fingerprint", "d"]).output().unwrap();
    dir.create("saved.txt", &saved.stdout);
    let cases: &[&[&str]] = &[
        &[
            "scan",
            "--records",
            "jsonl",
            "r.jsonl",
            "--text-field",
            "body",
            "--id-field",
            "id",
        ],
        &[
            "scan",
            "--fingerprints",
            "saved.txt",
            "--verify",
            "--max-candidates",
            "10",
        ],
        &["scan", "-", "--max-filesize", "1M", "--short-texts", "join"],
        // Verified anyway: --verify asks for what files get.
        &["scan", "d", "--verify"],
        &[
            "scan",
            "d",
            "--cache",
            "cache.db",
            "--hidden",
            "--no-ignore",
        ],
        &["dedup", "lines.txt", "--strict", "--max-filesize", "1M"],
        &["dedup", "d", "-v", "--no-ignore", "--shingle", "words:2"],
        &[
            "fingerprint",
            "d",
            "--sdr",
            "2048:41",
            "--shingle",
            "words:2",
        ],
        &["fingerprint", "-", "d", "--glob", "*.txt"],
        &[
            "index",
            "add",
            "--records",
            "jsonl",
            "r.jsonl",
            "--db",
            "index.db",
            "--text-field",
            "body",
            "--max-filesize",
            "1M",
        ],
        &["index", "add", "d", "--db", "files.db", "--hidden"],
    ];
    for &args in cases {
        let output = dir
            .simdup()
            .args(args)
            .write_stdin("one line\n")
            .output()
            .unwrap();
        assert_eq!(
            output.status.code(),
            Some(0),
            "{args:?}: {}",
            stderr(&output)
        );
    }
}

/// simdup.toml's walk options are for files: records and saved
/// fingerprints are still scanned where it holds them.
#[test]
fn the_config_files_walk_options_leave_records_alone() {
    let dir = TestDir::new();
    dir.create("d/a.txt", text(37, 100));
    dir.create("simdup.toml", "globs = [\"*.txt\"]\nno-ignore = true\n");
    let saved = dir.simdup().args(["fingerprint", "d"]).output().unwrap();
    dir.create("saved.txt", &saved.stdout);
    for args in [
        &["scan", "-"][..],
        &["scan", "--fingerprints", "saved.txt"][..],
    ] {
        let output = dir
            .simdup()
            .args(args)
            .write_stdin("one line\n")
            .output()
            .unwrap();
        assert_eq!(
            output.status.code(),
            Some(0),
            "{args:?}: {}",
            stderr(&output)
        );
    }
    // Given on the command line, they are refused as ever.
    let output = dir
        .simdup()
        .args(["scan", "-", "--no-ignore"])
        .write_stdin("one line\n")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
}
