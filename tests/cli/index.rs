//! `simdup index` and `scan --against`: a stored corpus in SQLite.

use std::collections::BTreeSet;

use crate::util::{
    TestDir, assert_full_disk_reported, assert_inputs_add_up, assert_quiet_on_closed_pipe, edit,
    json_lines, permissions_apply, stderr, stdout, text,
};

fn corpus(dir: &TestDir) {
    for seed in 0..6 {
        dir.create(&format!("docs/d{seed}.txt"), text(seed, 120));
    }
    dir.create("docs/near0.txt", edit(&text(0, 120), &[5]));
}

/// The corpus, indexed in i.db.
fn indexed_corpus(dir: &TestDir) {
    corpus(dir);
    let made = dir
        .simdup()
        .args(["index", "add", "docs", "--db", "i.db"])
        .output()
        .unwrap();
    assert_eq!(made.status.code(), Some(0), "{}", stderr(&made));
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

    // From another directory no stored name exists: nothing is pruned.
    let elsewhere = dir.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    let pruned = dir
        .simdup()
        .current_dir(&elsewhere)
        .args(["index", "prune", "--db", "../i.db"])
        .output()
        .unwrap();
    assert_eq!(pruned.status.code(), Some(2));
    assert_eq!(stdout(&pruned), "");
    assert!(
        stderr(&pruned).contains("none of the 6 files it holds exists from here"),
        "{}",
        stderr(&pruned)
    );
    let stats = dir
        .simdup()
        .args(["index", "stats", "--db", "i.db"])
        .output()
        .unwrap();
    assert!(stdout(&stats).contains("documents  6\n"));
}

#[test]
fn an_index_of_other_feature_options_is_refused() {
    let dir = TestDir::new();
    indexed_corpus(&dir);
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

/// The pairs of a JSON report: (a, b, Jaccard to 6 places), a before b.
fn pairs(output: &std::process::Output) -> BTreeSet<(String, String, String)> {
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    report["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|pair| {
            let (a, b) = (pair["a"].as_str().unwrap(), pair["b"].as_str().unwrap());
            let (a, b) = if a <= b { (a, b) } else { (b, a) };
            let jaccard = format!("{:.6}", pair["jaccard"].as_f64().unwrap());
            (a.to_string(), b.to_string(), jaccard)
        })
        .collect()
}

/// The pairs of `union` with a member in `new`.
fn touching(
    union: &BTreeSet<(String, String, String)>,
    new: &BTreeSet<String>,
) -> BTreeSet<(String, String, String)> {
    union
        .iter()
        .filter(|(a, b, _)| new.contains(a) || new.contains(b))
        .cloned()
        .collect()
}

/// Splits `items` at random (an LCG from `state`) into about two thirds
/// stored and one third new, each in the order given.
fn random_split<T: Clone>(items: &[T], state: &mut u64) -> (Vec<T>, Vec<T>) {
    let (mut stored, mut new) = (Vec::new(), Vec::new());
    for item in items {
        *state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        if (*state >> 33).is_multiple_of(3) {
            new.push(item.clone());
        } else {
            stored.push(item.clone());
        }
    }
    (stored, new)
}

/// How the `--against` tests scan: JSON, quiet, a radius wide enough to
/// pair every near-copy of their corpora.
const SCAN: [&str; 5] = ["--format", "json", "-q", "-k", "24"];

/// The files of `all/` in `dir`, sorted, and the pairs a scan of them
/// all lists.
fn scan_of_all(dir: &TestDir) -> (Vec<String>, BTreeSet<(String, String, String)>) {
    let names: Vec<String> = std::fs::read_dir(dir.path().join("all"))
        .unwrap()
        .map(|entry| format!("all/{}", entry.unwrap().file_name().to_string_lossy()))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let union = dir
        .simdup()
        .arg("scan")
        .args(&names)
        .args(SCAN)
        .output()
        .unwrap();
    assert_eq!(union.status.code(), Some(0), "{}", stderr(&union));
    (names, pairs(&union))
}

#[test]
fn against_equals_a_scan_of_the_union_restricted_to_new_documents() {
    let dir = TestDir::new();
    let mut files = Vec::new();
    for seed in 0..5 {
        let base = text(seed, 150);
        files.push(dir.create(&format!("all/b{seed}.txt"), &base));
        for (copy, edits) in [
            &[3usize, 40][..],
            &[7, 50, 90, 120],
            &[1, 2, 3, 4, 5, 6, 60, 100],
        ]
        .iter()
        .enumerate()
        {
            files.push(dir.create(&format!("all/b{seed}-{copy}.txt"), edit(&base, edits)));
        }
    }
    dir.create("all/one-line.txt", "a short line of text\n");
    dir.create("all/one-line-copy.txt", "a short line of text!\n");
    let (names, union) = scan_of_all(&dir);
    assert!(union.len() >= 15, "{union:?}");
    let mut state = 7u64;
    for split in 0..6 {
        let (stored, new) = random_split(&names, &mut state);
        let new: BTreeSet<String> = new.into_iter().collect();
        if new.is_empty() {
            continue;
        }
        let db = format!("split{split}.db");
        let added = dir
            .simdup()
            .args(["index", "add", "--db", &db, "-q"])
            .args(&stored)
            .output()
            .unwrap();
        assert_eq!(added.status.code(), Some(0), "{}", stderr(&added));
        let against = dir
            .simdup()
            .arg("scan")
            .args(&new)
            .args(["--against", &db])
            .args(SCAN)
            .output()
            .unwrap();
        assert_eq!(against.status.code(), Some(0), "{}", stderr(&against));
        assert_eq!(
            pairs(&against),
            touching(&union, &new),
            "split {split}: new {new:?}"
        );
    }
}

/// The groups of a JSON report, as sets of names.
fn groups(output: &std::process::Output) -> BTreeSet<BTreeSet<String>> {
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let groups = report["groups"].as_array().unwrap();
    assert_eq!(report["stats"]["groups"], groups.len(), "{report}");
    groups
        .iter()
        .map(|group| {
            let members = group["members"].as_array().unwrap();
            let names: BTreeSet<String> = members
                .iter()
                .map(|name| name.as_str().unwrap().to_string())
                .collect();
            assert_eq!(names.len(), members.len(), "a member twice: {group}");
            names
        })
        .collect()
}

/// The connected components of `pairs`, as sets of names.
fn components(pairs: &BTreeSet<(String, String, String)>) -> BTreeSet<BTreeSet<String>> {
    let mut components: Vec<BTreeSet<String>> = Vec::new();
    for (a, b, _) in pairs {
        let joined: BTreeSet<String> = [a.clone(), b.clone()].into();
        let (touching, apart): (Vec<_>, Vec<_>) = components
            .into_iter()
            .partition(|component| !component.is_disjoint(&joined));
        components = apart;
        components.push(touching.into_iter().flatten().chain(joined).collect());
    }
    components.into_iter().collect()
}

/// New documents that are also stored: each is one document with its
/// stored row, never paired or grouped with it, and the answer is the
/// union's, whichever of them are new.
#[test]
fn against_a_corpus_that_holds_the_new_documents_pairs_each_document_once() {
    let dir = TestDir::new();
    for seed in 0..4 {
        let base = text(seed, 150);
        dir.create(&format!("all/b{seed}.txt"), &base);
        // An exact copy (one class with the original) and a near one.
        dir.create(&format!("all/b{seed}-same.txt"), &base);
        dir.create(&format!("all/b{seed}-near.txt"), edit(&base, &[3, 40]));
    }
    dir.create("all/lone.txt", text(40, 150));
    let (names, union) = scan_of_all(&dir);
    assert_eq!(union.len(), 12, "{union:?}");
    let added = dir
        .simdup()
        .args(["index", "add", "all", "--db", "all.db", "-q"])
        .output()
        .unwrap();
    assert_eq!(added.status.code(), Some(0), "{}", stderr(&added));
    let mut state = 5u64;
    let splits = (0..4).map(|_| random_split(&names, &mut state).1);
    for new in splits.chain([names.clone()]) {
        let against = dir
            .simdup()
            .arg("scan")
            .args(&new)
            .args(["--against", "all.db"])
            .args(SCAN)
            .output()
            .unwrap();
        assert_eq!(against.status.code(), Some(0), "{}", stderr(&against));
        let new: BTreeSet<String> = new.into_iter().collect();
        let listed = pairs(&against);
        assert_eq!(listed, touching(&union, &new), "new {new:?}");
        assert_eq!(groups(&against), components(&listed), "new {new:?}");
        let report: serde_json::Value = serde_json::from_slice(&against.stdout).unwrap();
        assert_eq!(report["stats"]["pairs_found"], listed.len());
    }
    // fdupes lists each document of a group once.
    let fdupes = dir
        .simdup()
        .args([
            "scan",
            "all",
            "--against",
            "all.db",
            "--format",
            "fdupes",
            "-q",
        ])
        .output()
        .unwrap();
    let fdupes = stdout(&fdupes);
    for block in fdupes.split("\n\n").filter(|block| !block.is_empty()) {
        let lines: Vec<&str> = block.lines().collect();
        let distinct: BTreeSet<&str> = lines.iter().copied().collect();
        assert_eq!(distinct.len(), lines.len(), "{fdupes}");
    }
    assert_eq!(fdupes.matches("all/b0.txt\n").count(), 1, "{fdupes}");
}

#[test]
fn a_stored_document_that_is_gone_leaves_its_pair_unverified_and_counted() {
    let dir = TestDir::new();
    indexed_corpus(&dir);
    dir.create("new.txt", edit(&text(0, 120), &[9]));
    let check = |expected_pairs: u64, expected_unverified: u64, code: i32| {
        let output = dir
            .simdup()
            .args([
                "scan",
                "new.txt",
                "--against",
                "i.db",
                "--format",
                "json",
                "-q",
            ])
            .arg("--fail-on-duplicates")
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(code), "{}", stderr(&output));
        let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(report["stats"]["pairs_found"], expected_pairs);
        assert_eq!(report["stats"]["unverified"], expected_unverified);
        // Only the new document is an input of this run; a stored one
        // that cannot be read again is a verification error, not an
        // input's.
        assert_eq!(report["stats"]["inputs"], 1);
        assert_eq!(report["stats"]["errors"], 0);
        assert_eq!(report["stats"]["verify_errors"], expected_unverified);
        assert_inputs_add_up(&report["stats"]);
        stderr(&output)
    };
    check(2, 0, 1);
    // A new document that is also stored is not its own near-duplicate.
    let itself = dir
        .simdup()
        .args([
            "scan",
            "docs/d4.txt",
            "--against",
            "i.db",
            "--format",
            "json",
            "-q",
        ])
        .output()
        .unwrap();
    assert_eq!(itself.status.code(), Some(0), "{}", stderr(&itself));
    assert!(pairs(&itself).is_empty(), "{:?}", pairs(&itself));
    // Its pairs with other new documents are listed once, under its name.
    let both = dir
        .simdup()
        .args([
            "scan",
            "docs/d0.txt",
            "new.txt",
            "--against",
            "i.db",
            "--format",
            "json",
            "-q",
        ])
        .output()
        .unwrap();
    let both = pairs(&both);
    let names: Vec<(&str, &str)> = both
        .iter()
        .map(|(a, b, _)| (a.as_str(), b.as_str()))
        .collect();
    assert_eq!(
        names,
        [
            ("docs/d0.txt", "new.txt"),
            ("docs/near0.txt", "new.txt"),
            ("docs/d0.txt", "docs/near0.txt")
        ]
        .into_iter()
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect::<Vec<_>>()
    );
    std::fs::remove_file(dir.path().join("docs/near0.txt")).unwrap();
    let message = check(1, 1, 2);
    assert!(message.contains("docs/near0.txt"), "{message}");
}

#[test]
fn a_cached_scan_reuses_unchanged_fingerprints_and_reports_the_same_pairs() {
    let dir = TestDir::new();
    corpus(&dir);
    dir.create("docs/short-a.txt", "one line of text about the harbour\n");
    dir.create("docs/short-b.txt", "one line of text about the harbours\n");
    let scan = |extra: &[&str]| {
        let output = dir
            .simdup()
            .args(["scan", "docs", "--format", "json", "-v"])
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        let reread = report["stats"]["reread"].as_u64().unwrap();
        let comparisons = report["stats"]["comparisons"].as_u64().unwrap();
        (pairs(&output), stderr(&output), reread, comparisons)
    };
    let (plain, _, plain_reread, plain_comparisons) = scan(&[]);
    assert!(plain.len() >= 2, "{plain:?}");
    assert!(plain_reread >= 4, "{plain_reread}");
    let (first, message, _, _) = scan(&["--cache", "c.db"]);
    assert!(
        message.contains("cache: 0 fingerprints reused, 9 stored"),
        "{message}"
    );
    assert_eq!(first, plain);
    let (second, message, reread, comparisons) = scan(&["--cache", "c.db"]);
    assert!(
        message.contains("cache: 9 fingerprints reused, 0 stored"),
        "{message}"
    );
    assert_eq!(second, plain);
    // Every word-shingle verdict was remembered: only the short texts'
    // character pairs are read again.
    assert_eq!(reread, 2, "{message}");
    // The search was remembered too: no fingerprint is compared (the two
    // short texts are joined by their character pairs, without SimHash).
    assert_eq!(comparisons, 0, "{message}");
    // A higher threshold is decided from the remembered verdicts; a lower
    // one reads again the pairs that were only known to be below 0.8.
    for threshold in ["0.9", "0.3"] {
        let (cached, _, _, _) = scan(&["--cache", "c.db", "--threshold", threshold]);
        let (plain, _, _, _) = scan(&["--threshold", threshold]);
        assert_eq!(cached, plain, "threshold {threshold}");
    }
    // A changed file is read again, and its new text decides its pairs.
    dir.create("docs/near0.txt", text(77, 120));
    let (third, message, _, comparisons) = scan(&["--cache", "c.db"]);
    assert!(
        message.contains("cache: 8 fingerprints reused, 1 stored"),
        "{message}"
    );
    let (plain, _, _, _) = scan(&[]);
    assert_eq!(third, plain);
    // Only the changed file's fingerprint was searched against the rest.
    assert!(
        0 < comparisons && comparisons < plain_comparisons,
        "{comparisons} of {plain_comparisons}"
    );
    assert!(
        !third
            .iter()
            .any(|(a, b, _)| a.contains("near0") || b.contains("near0"))
    );
    // A cache of other feature options is not used, and said so.
    let (_, message, _, _) = scan(&["--cache", "c.db", "--shingle", "words:2"]);
    assert!(message.contains("words:3,xxh3"), "{message}");
    assert!(message.contains("scanning without the cache"), "{message}");
}

#[test]
fn a_writer_killed_mid_add_leaves_the_previous_state_or_the_new_one() {
    let dir = TestDir::new();
    for seed in 0..40 {
        dir.create(&format!("a/{seed}.txt"), text(seed, 100));
    }
    for seed in 0..3000 {
        dir.create(&format!("b/{seed}.txt"), text(seed + 5000, 100));
    }
    let made = dir
        .simdup()
        .args(["index", "add", "a", "--db", "i.db"])
        .output()
        .unwrap();
    assert_eq!(made.status.code(), Some(0));
    let count = |dir: &TestDir| -> i64 {
        let connection = rusqlite::Connection::open(dir.path().join("i.db")).unwrap();
        let check: String = connection
            .query_row("PRAGMA integrity_check", [], |row| row.get(0))
            .unwrap();
        assert_eq!(check, "ok");
        connection
            .query_row("SELECT count(*) FROM documents", [], |row| row.get(0))
            .unwrap()
    };
    for delay in [5, 40, 150] {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_simdup"))
            .args(["index", "add", "b", "--db", "i.db", "-q"])
            .current_dir(dir.path())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay));
        // SIGKILL: no destructor, no rollback by the process itself.
        let _ = child.kill();
        let _ = child.wait();
        let stored = count(&dir);
        assert!(stored == 40 || stored == 3040, "{stored} rows after a kill");
    }
    let again = dir
        .simdup()
        .args(["index", "add", "a", "b", "--db", "i.db", "-q"])
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));
    assert_eq!(count(&dir), 3040);
}

/// Runs `command` with `input` on its stdin.
fn with_stdin(mut command: assert_cmd::Command, input: &str) -> std::process::Output {
    command.write_stdin(input.to_string()).output().unwrap()
}

/// JSON Lines records `{"id": ..., "text": ...}`.
fn jsonl(records: &[(String, String)]) -> String {
    records
        .iter()
        .map(|(id, text)| format!("{}\n", serde_json::json!({ "id": id, "text": text })))
        .collect()
}

#[test]
fn records_against_equal_a_scan_of_the_union_restricted_to_new_records() {
    let dir = TestDir::new();
    let mut records = Vec::new();
    for seed in 0..4 {
        let base = text(seed, 150);
        records.push((format!("r{seed}"), base.clone()));
        for (copy, edits) in [&[3usize, 40][..], &[7, 50, 90, 120], &[1, 2, 3, 60, 100]]
            .iter()
            .enumerate()
        {
            records.push((format!("r{seed}-{copy}"), edit(&base, edits)));
        }
    }
    records.push(("short".to_string(), "a short line of text".to_string()));
    records.push((
        "short-copy".to_string(),
        "a short line of text!".to_string(),
    ));
    let input = ["-", "--records", "jsonl", "--id-field", "id"];
    let mut command = dir.simdup();
    command.arg("scan").args(input).args(SCAN);
    let union = with_stdin(command, &jsonl(&records));
    assert_eq!(union.status.code(), Some(0), "{}", stderr(&union));
    let union = pairs(&union);
    assert!(union.len() >= 12, "{union:?}");
    let mut state = 11u64;
    for split in 0..5 {
        let (stored, new) = random_split(&records, &mut state);
        let db = format!("records{split}.db");
        let mut command = dir.simdup();
        command
            .args(["index", "add", "--db", &db, "-q"])
            .args(input);
        let added = with_stdin(command, &jsonl(&stored));
        assert_eq!(added.status.code(), Some(0), "{}", stderr(&added));
        let mut command = dir.simdup();
        command
            .arg("scan")
            .args(input)
            .args(["--against", &db])
            .args(SCAN);
        let against = with_stdin(command, &jsonl(&new));
        assert_eq!(against.status.code(), Some(0), "{}", stderr(&against));
        let new: BTreeSet<String> = new.into_iter().map(|(id, _)| id).collect();
        assert_eq!(
            pairs(&against),
            touching(&union, &new),
            "split {split}: new {new:?}"
        );
    }
}

/// Short texts are joined by reading them all again: against a stored
/// corpus that holds many more of them than the new documents, they are
/// searched by fingerprint instead, and `params` and `-v` say so.
#[test]
fn many_stored_short_texts_are_searched_by_fingerprint_not_joined() {
    let dir = TestDir::new();
    let stored: Vec<(String, String)> = (0..20_050)
        .map(|i| (format!("s{i}"), format!("stored line number {i} of many")))
        .collect();
    let input = ["-", "--records", "jsonl", "--id-field", "id"];
    let mut command = dir.simdup();
    command
        .args(["index", "add", "--db", "many.db", "-q"])
        .args(input);
    let added = with_stdin(command, &jsonl(&stored));
    assert_eq!(added.status.code(), Some(0), "{}", stderr(&added));
    let against = |db: &str, new: &[(String, String)]| {
        let mut command = dir.simdup();
        command
            .arg("scan")
            .args(input)
            .args(["--against", db, "--format", "json", "-v"]);
        let output = with_stdin(command, &jsonl(new));
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        (report, stderr(&output))
    };
    let new = [(
        "n".to_string(),
        "stored line number 17 of many!".to_string(),
    )];
    let (report, message) = against("many.db", &new);
    let short = &report["params"]["radius"]["short_texts"];
    assert_eq!(short["search"], "simhash", "{short}");
    assert!(
        message.contains("stored short texts against 1 new"),
        "{message}"
    );
    // Its copy is still found, within the radius.
    assert_eq!(report["pairs"][0]["a"], "s17", "{}", report["pairs"][0]);
    // A small stored corpus is joined.
    let mut command = dir.simdup();
    command
        .args(["index", "add", "--db", "few.db", "-q"])
        .args(input);
    let added = with_stdin(command, &jsonl(&stored[..100]));
    assert_eq!(added.status.code(), Some(0), "{}", stderr(&added));
    let (report, _) = against("few.db", &new);
    assert_eq!(report["params"]["radius"]["short_texts"]["search"], "join");
    assert_eq!(report["pairs"][0]["a"], "s17", "{}", report["pairs"][0]);
}

#[test]
fn records_are_added_again_only_when_their_text_changed_and_never_pruned() {
    let dir = TestDir::new();
    let records: Vec<(String, String)> = (0..4)
        .map(|seed| (format!("r{seed}"), text(seed, 60)))
        .collect();
    let add = |records: &[(String, String)]| {
        let mut command = dir.simdup();
        command.args([
            "index",
            "add",
            "-",
            "--records",
            "jsonl",
            "--id-field",
            "id",
            "--db",
            "r.db",
        ]);
        let output = with_stdin(command, &jsonl(records));
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        stderr(&output)
    };
    assert!(add(&records).contains("4 added, 0 updated, 0 unchanged"));
    let mut changed = records.clone();
    changed[2].1 = text(40, 60);
    assert!(add(&changed).contains("0 added, 1 updated, 3 unchanged"));
    // Without ids, records are named by line.
    let mut command = dir.simdup();
    command.args(["index", "add", "-", "--db", "lines.db"]);
    let lines = with_stdin(
        command,
        "first line of words here\nsecond line of other words\n",
    );
    assert_eq!(lines.status.code(), Some(0), "{}", stderr(&lines));
    let ls = stdout(
        &dir.simdup()
            .args(["index", "ls", "--db", "lines.db"])
            .output()
            .unwrap(),
    );
    assert!(ls.contains("line 1") && ls.contains("line 2"), "{ls}");
    // Records are not files: prune keeps them.
    let pruned = dir
        .simdup()
        .args(["index", "prune", "--db", "r.db"])
        .output()
        .unwrap();
    assert!(
        stderr(&pruned).contains("0 documents pruned"),
        "{}",
        stderr(&pruned)
    );
}

/// An id given twice in one stream updates its record, as a later run
/// would: the summary counts both, and the later text is the one kept.
#[test]
fn an_id_twice_in_one_stream_updates_its_record() {
    let dir = TestDir::new();
    let (first, later) = (text(50, 40), text(51, 40));
    let records = [
        ("x".to_string(), first.clone()),
        ("x".to_string(), later.clone()),
    ];
    dir.create("twice.jsonl", jsonl(&records));
    let fields = ["--records", "jsonl", "--id-field", "id"];
    let added = dir
        .simdup()
        .args(["index", "add", "twice.jsonl", "--db", "r.db", "-v"])
        .args(fields)
        .output()
        .unwrap();
    assert_eq!(added.status.code(), Some(0), "{}", stderr(&added));
    let message = stderr(&added);
    assert!(
        message.contains("r.db: 1 added, 1 updated, 0 unchanged"),
        "{message}"
    );
    assert!(
        message.contains("twice.jsonl:2: id x again (before at line 1)"),
        "{message}"
    );
    let ls = dir
        .simdup()
        .args(["index", "ls", "--db", "r.db"])
        .output()
        .unwrap();
    assert_eq!(stdout(&ls).lines().count(), 1, "{}", stdout(&ls));
    // The stored text is the later one: its copy pairs, the first's not.
    let paired = |text: &str| {
        let mut command = dir.simdup();
        command
            .args(["scan", "-", "--against", "r.db", "--format", "csv", "-q"])
            .args(fields);
        let output = with_stdin(command, &jsonl(&[("y".to_string(), text.to_string())]));
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        stdout(&output).lines().count() > 1
    };
    assert!(paired(&later));
    assert!(!paired(&first));
    // Added again, the same stream updates the record twice over (the
    // first record differs from the stored later one), as it says.
    let again = dir
        .simdup()
        .args(["index", "add", "twice.jsonl", "--db", "r.db"])
        .args(fields)
        .output()
        .unwrap();
    assert!(
        stderr(&again).contains("r.db: 0 added, 2 updated, 0 unchanged"),
        "{}",
        stderr(&again)
    );
}

#[test]
fn an_index_holds_files_or_records_not_both() {
    let dir = TestDir::new();
    indexed_corpus(&dir);
    let mut command = dir.simdup();
    command.args(["index", "add", "-", "--db", "i.db"]);
    let records = with_stdin(command, "a line of words\n");
    assert_eq!(records.status.code(), Some(2));
    assert!(
        stderr(&records).contains("i.db: holds files; records go in an index of their own"),
        "{}",
        stderr(&records)
    );
    let mut command = dir.simdup();
    command.args(["scan", "-", "--against", "i.db"]);
    let searched = with_stdin(command, "a line of words\n");
    assert_eq!(searched.status.code(), Some(2));
    assert!(
        stderr(&searched).contains("i.db: holds files; search files against it"),
        "{}",
        stderr(&searched)
    );
    let mut command = dir.simdup();
    command.args(["index", "add", "-", "--db", "r.db"]);
    assert_eq!(
        with_stdin(command, "a line of words\n").status.code(),
        Some(0)
    );
    let files = dir
        .simdup()
        .args(["index", "add", "docs", "--db", "r.db"])
        .output()
        .unwrap();
    assert_eq!(files.status.code(), Some(2));
    assert!(
        stderr(&files).contains("r.db: holds records; files go in an index of their own"),
        "{}",
        stderr(&files)
    );
}

/// A scan cache stores files: given an index of records, the scan is
/// refused before it writes anything, so the index still takes records.
#[test]
fn a_scan_cache_that_holds_records_is_refused() {
    let dir = TestDir::new();
    corpus(&dir);
    let mut command = dir.simdup();
    command.args(["index", "add", "-", "--db", "r.db"]);
    let added = with_stdin(command, "alpha beta gamma delta epsilon\n");
    assert_eq!(added.status.code(), Some(0), "{}", stderr(&added));
    let listed = || {
        let ls = dir
            .simdup()
            .args(["index", "ls", "--db", "r.db"])
            .output()
            .unwrap();
        assert_eq!(ls.status.code(), Some(0), "{}", stderr(&ls));
        stdout(&ls)
    };
    let before = listed();
    let scanned = dir
        .simdup()
        .args(["scan", "docs", "--cache", "r.db"])
        .output()
        .unwrap();
    assert_eq!(scanned.status.code(), Some(2), "{}", stderr(&scanned));
    assert!(
        stderr(&scanned).contains("r.db: holds records; a scan cache holds files"),
        "{}",
        stderr(&scanned)
    );
    assert!(stdout(&scanned).is_empty(), "{}", stdout(&scanned));
    assert_eq!(listed(), before);
    let mut command = dir.simdup();
    command.args(["index", "add", "-", "--db", "r.db"]);
    let again = with_stdin(command, "totally different words in this one\n");
    assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));
    // A cache of files is still one.
    let cached = dir
        .simdup()
        .args(["scan", "docs", "--cache", "files.db", "-q"])
        .output()
        .unwrap();
    assert_eq!(cached.status.code(), Some(0), "{}", stderr(&cached));
}

#[test]
fn records_are_added_from_a_file_as_from_stdin() {
    let dir = TestDir::new();
    let records: Vec<(String, String)> = (0..3)
        .map(|seed| (format!("r{seed}"), text(seed, 40)))
        .collect();
    dir.create("records.jsonl", jsonl(&records));
    let fields = ["--records", "jsonl", "--id-field", "id"];
    let from_file = dir
        .simdup()
        .args(["index", "add", "records.jsonl", "--db", "file.db"])
        .args(fields)
        .output()
        .unwrap();
    assert_eq!(from_file.status.code(), Some(0), "{}", stderr(&from_file));
    let mut command = dir.simdup();
    command
        .args(["index", "add", "-", "--db", "stdin.db"])
        .args(fields);
    let from_stdin = with_stdin(command, &jsonl(&records));
    assert_eq!(from_stdin.status.code(), Some(0), "{}", stderr(&from_stdin));
    let ls = |db: &str| {
        stdout(
            &dir.simdup()
                .args(["index", "ls", "--db", db])
                .output()
                .unwrap(),
        )
    };
    assert_eq!(ls("file.db"), ls("stdin.db"));
    assert!(ls("file.db").contains("r2"), "{}", ls("file.db"));
    // One file of records at a time.
    let two = dir
        .simdup()
        .args([
            "index",
            "add",
            "records.jsonl",
            "records.jsonl",
            "--db",
            "two.db",
        ])
        .args(fields)
        .output()
        .unwrap();
    assert_eq!(two.status.code(), Some(2));
    assert!(
        stderr(&two).contains("one FILE or stdin"),
        "{}",
        stderr(&two)
    );
}

#[test]
fn stats_end_quietly_on_a_closed_pipe_and_report_a_full_disk() {
    let dir = TestDir::new();
    indexed_corpus(&dir);
    let args = ["index", "stats", "--db", "i.db"];
    assert_quiet_on_closed_pipe(&dir, &args);
    assert_full_disk_reported(&dir, &args);
}

/// The summary of `index add` accounts for every input: files passed over
/// in a tree and records too large to store are counted with their
/// reasons, as scan's summary counts them, not only named with -v.
#[test]
fn index_add_counts_what_it_did_not_store() {
    let dir = TestDir::new();
    dir.create("docs/a.txt", text(50, 120));
    dir.create("docs/b.txt", text(51, 120));
    dir.create("docs/.hidden.txt", text(52, 120));
    dir.create("docs/blob.bin", b"\x00\x01\x02binary\x00 bytes\x00");
    dir.create("docs/empty.txt", "");
    let output = dir
        .simdup()
        .args(["index", "add", "docs", "--db", "i.db"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(
        stderr(&output).contains(
            "i.db: 2 added, 0 updated, 0 unchanged, 1 empty, 2 skipped (binary 1, hidden 1)\n"
        ),
        "{}",
        stderr(&output)
    );
    let long = "word ".repeat(40);
    dir.create(
        "r.jsonl",
        format!(
            "{{\"id\": \"1\", \"text\": \"a short record of words\"}}\n\
             {{\"id\": \"2\", \"text\": \"{long}\"}}\n\
             {{\"id\": \"3\", \"text\": \"another short record here\"}}\n"
        ),
    );
    let output = dir
        .simdup()
        .args(["index", "add", "--records", "jsonl", "r.jsonl"])
        .args(["--id-field", "id", "--max-filesize", "100", "--db", "r.db"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(
        stderr(&output)
            .contains("r.db: 2 added, 0 updated, 0 unchanged, 1 skipped (too_large 1)\n"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn an_index_in_a_directory_the_user_cannot_write_is_read() {
    use std::os::unix::fs::PermissionsExt;
    let dir = TestDir::new();
    if !permissions_apply(&dir) {
        eprintln!("skipped: permissions do not apply to this user (root)");
        return;
    }
    let body = text(41, 300);
    dir.create("docs/a.txt", &body);
    dir.create("new/b.txt", &body);
    std::fs::create_dir(dir.path().join("shared")).unwrap();
    let added = dir
        .simdup()
        .args(["index", "add", "--db", "shared/i.db", "docs", "-q"])
        .output()
        .unwrap();
    assert_eq!(added.status.code(), Some(0), "{}", stderr(&added));
    let shared = dir.path().join("shared");
    let mode = |mode| std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(mode));
    mode(0o555).unwrap();
    let stats = dir
        .simdup()
        .args(["index", "stats", "--db", "shared/i.db"])
        .output()
        .unwrap();
    let against = dir
        .simdup()
        .args([
            "scan",
            "new",
            "--against",
            "shared/i.db",
            "--format",
            "jsonl",
        ])
        .output()
        .unwrap();
    mode(0o755).unwrap();
    assert_eq!(stats.status.code(), Some(0), "{}", stderr(&stats));
    assert!(stdout(&stats).starts_with("documents  1\n"));
    assert_eq!(against.status.code(), Some(0), "{}", stderr(&against));
    assert_eq!(json_lines(&against.stdout).len(), 1);
}
