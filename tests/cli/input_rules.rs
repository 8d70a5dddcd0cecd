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
    assert!(stdout(&compare).starts_with("distance"));
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
