//! `simdup index` and `scan --against`: a stored corpus in SQLite.

use crate::util::{TestDir, edit, stderr, stdout, text};

fn corpus(dir: &TestDir) {
    for seed in 0..6 {
        dir.create(&format!("docs/d{seed}.txt"), text(seed, 120));
    }
    dir.create("docs/near0.txt", edit(&text(0, 120), &[5]));
}

#[test]
fn a_second_add_reads_only_changed_files_and_prune_drops_deleted_ones() {
    let dir = TestDir::new();
    corpus(&dir);
    let first = dir
        .simdup()
        .args(["index", "add", "docs", "--db", "i.db"])
        .output()
        .unwrap();
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    assert!(
        stderr(&first).contains("7 added, 0 updated, 0 unchanged"),
        "{}",
        stderr(&first)
    );
    // Same size, other time; and one rewritten with other text.
    let file = std::fs::File::options()
        .write(true)
        .open(dir.path().join("docs/d1.txt"))
        .unwrap();
    file.set_modified(std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(86_400))
        .unwrap();
    drop(file);
    dir.create("docs/d2.txt", text(99, 120));
    let second = dir
        .simdup()
        .args(["index", "add", "docs", "--db", "i.db"])
        .output()
        .unwrap();
    assert_eq!(second.status.code(), Some(0));
    assert!(
        stderr(&second).contains("0 added, 2 updated, 5 unchanged"),
        "{}",
        stderr(&second)
    );
    let ls = stdout(
        &dir.simdup()
            .args(["index", "ls", "--db", "i.db"])
            .output()
            .unwrap(),
    );
    let fingerprint = stdout(
        &dir.simdup()
            .args(["fingerprint", "docs/d2.txt"])
            .output()
            .unwrap(),
    );
    let hex = fingerprint
        .lines()
        .last()
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap();
    assert!(
        ls.lines()
            .any(|l| l.starts_with(hex) && l.ends_with("docs/d2.txt")),
        "{ls}"
    );

    std::fs::remove_file(dir.path().join("docs/d3.txt")).unwrap();
    let pruned = dir
        .simdup()
        .args(["index", "prune", "--db", "i.db"])
        .output()
        .unwrap();
    assert_eq!(pruned.status.code(), Some(0));
    assert_eq!(stdout(&pruned), "pruned  docs/d3.txt\n");
    let stats = stdout(
        &dir.simdup()
            .args(["index", "stats", "--db", "i.db"])
            .output()
            .unwrap(),
    );
    assert!(stats.contains("documents  6\n"), "{stats}");
    let ls = stdout(
        &dir.simdup()
            .args(["index", "ls", "--db", "i.db"])
            .output()
            .unwrap(),
    );
    assert!(!ls.contains("d3.txt"), "{ls}");
}

#[test]
fn an_index_of_other_feature_options_is_refused() {
    let dir = TestDir::new();
    corpus(&dir);
    let made = dir
        .simdup()
        .args(["index", "add", "docs", "--db", "i.db"])
        .output()
        .unwrap();
    assert_eq!(made.status.code(), Some(0));
    let args = [
        "index",
        "add",
        "docs",
        "--db",
        "i.db",
        "--shingle",
        "words:2",
    ];
    let refused = dir.simdup().args(args).output().unwrap();
    assert_eq!(refused.status.code(), Some(2), "{args:?}");
    let message = stderr(&refused);
    assert!(message.contains("words:3,xxh3"), "{message}");
    assert!(message.contains("words:2,xxh3"), "{message}");
}

#[test]
fn two_writers_at_once_both_succeed() {
    let dir = TestDir::new();
    for seed in 0..300 {
        dir.create(&format!("a/{seed}.txt"), text(seed, 200));
        dir.create(&format!("b/{seed}.txt"), text(seed + 1000, 200));
    }
    let spawn = |part: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_simdup"))
            .args(["index", "add", part, "--db", "i.db", "-j", "1"])
            .current_dir(dir.path())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (a, b) = (spawn("a"), spawn("b"));
    for child in [a, b] {
        let output = child.wait_with_output().unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    }
    let stats = stdout(
        &dir.simdup()
            .args(["index", "stats", "--db", "i.db"])
            .output()
            .unwrap(),
    );
    assert!(stats.contains("documents  600\n"), "{stats}");
}
