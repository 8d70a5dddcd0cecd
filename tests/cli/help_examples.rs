//! Every example in `--help` runs, as written, on the fixtures: help,
//! README and man page cannot drift into commands that fail. See: #9.

use std::path::Path;

use crate::util::{TestDir, repo, stderr, stdout};

/// The example command lines of one help text: the lines of its
/// "Example(s):" section, each cut before its two-space comment column.
fn examples(help: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut inside = false;
    for line in help.lines() {
        if line.starts_with("Example") {
            inside = true;
            continue;
        }
        if inside && !line.starts_with("  ") {
            inside = false;
        }
        if inside {
            let command = line.trim_start();
            let end = command.find("  ").unwrap_or(command.len());
            found.push(command[..end].trim_end().to_string());
        }
    }
    found
}

/// A directory laid out as the examples expect: docs/ (the fixture
/// corpus), records, two documents to compare, and saved fingerprints.
fn sandbox() -> TestDir {
    let dir = TestDir::new();
    copy_tree(&repo().join("fixtures/corpus"), &dir.path().join("docs"));
    for (from, to) in [
        ("fixtures/records/addresses.txt", "addresses.txt"),
        ("fixtures/records/tickets.jsonl", "tickets.jsonl"),
        ("fixtures/corpus/repair-cafe.txt", "a.txt"),
        ("fixtures/corpus/copies/repair-cafe-1pct.txt", "b.txt"),
        ("fixtures/corpus/unrelated/sourdough.txt", "notes.txt"),
    ] {
        std::fs::copy(repo().join(from), dir.path().join(to)).unwrap();
    }
    for (shard, part) in [
        ("shard1.txt", "docs/copies"),
        ("shard2.txt", "docs/unrelated"),
    ] {
        let saved = dir.simdup().args(["fingerprint", part]).output().unwrap();
        assert_eq!(saved.status.code(), Some(0));
        dir.create(shard, &saved.stdout);
    }
    dir
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

#[test]
fn every_help_example_runs_on_the_fixtures() {
    let dir = sandbox();
    let bin = Path::new(env!("CARGO_BIN_EXE_simdup"))
        .parent()
        .unwrap()
        .to_path_buf();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut ran = 0;
    for topic in [
        None,
        Some("scan"),
        Some("fingerprint"),
        Some("compare"),
        Some("dedup"),
        Some("index"),
        Some("completions"),
    ] {
        let mut help = dir.simdup();
        match topic {
            Some(topic) => help.args(["help", topic]),
            None => help.arg("--help"),
        };
        let help = stdout(&help.output().unwrap());
        let lines = examples(&help);
        assert!(!lines.is_empty(), "no examples in the help of {topic:?}");
        for line in lines {
            // Installing into the user's home is not for a test.
            if line.contains("~/") {
                continue;
            }
            let output = assert_cmd::Command::new("bash")
                .args(["-c", &line])
                .env("PATH", &path)
                .current_dir(dir.path())
                .timeout(std::time::Duration::from_secs(60))
                .output()
                .unwrap();
            let expected = if line.contains("--fail-on-duplicates") {
                1
            } else {
                0
            };
            assert_eq!(
                output.status.code(),
                Some(expected),
                "`{line}` (help of {topic:?}) failed: {}",
                stderr(&output)
            );
            ran += 1;
        }
    }
    assert!(ran >= 15, "only {ran} examples ran");
}

#[test]
fn examples_are_cut_at_their_comment_column() {
    let help = "Examples:\n  simdup scan docs/   pairs\n  find . -print0 | simdup scan --files-from - -0\n\nExit codes:\n  0  fine\n";
    assert_eq!(
        examples(help),
        [
            "simdup scan docs/",
            "find . -print0 | simdup scan --files-from - -0",
        ]
    );
}
