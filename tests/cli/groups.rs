//! How pairs form groups: connected components (the default) or groups
//! led by their first member (`--group-by first`), which are what
//! `simdup dedup` keeps and drops.

use crate::util::{TestDir, stderr, stdout};

/// Words `from..from + 100` of a vocabulary of distinct words: two such
/// windows 10 apart share 88 of their 98 word 3-shingles (Jaccard 0.815),
/// 20 apart 78 (0.661). So each document is a near-duplicate of the next
/// and not of the one after it: a chain.
fn window(from: usize) -> String {
    (from..from + 100)
        .map(|word| format!("term{word}x"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// docs/1..4.txt, each a near-duplicate of the next only, and an
/// unrelated one.
fn chain() -> TestDir {
    let dir = TestDir::new();
    for (number, from) in [(1, 0), (2, 10), (3, 20), (4, 30)] {
        dir.create(&format!("docs/{number}.txt"), window(from));
    }
    dir.create("docs/5.txt", window(500));
    dir
}

fn groups(dir: &TestDir, extra: &[&str]) -> Vec<Vec<String>> {
    let output = dir
        .simdup()
        .args(["scan", "docs", "--format", "json", "-q"])
        .args(extra)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    report["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|group| {
            group["members"]
                .as_array()
                .unwrap()
                .iter()
                .map(|member| member.as_str().unwrap().to_string())
                .collect()
        })
        .collect()
}

#[test]
fn components_chain_and_groups_led_by_their_first_member_do_not() {
    let dir = chain();
    let names = |numbers: &[u32]| -> Vec<String> {
        numbers.iter().map(|n| format!("docs/{n}.txt")).collect()
    };
    assert_eq!(groups(&dir, &[]), vec![names(&[1, 2, 3, 4])]);
    assert_eq!(
        groups(&dir, &["--group-by", "components"]),
        vec![names(&[1, 2, 3, 4])]
    );
    // 3 is not a near-duplicate of 1, so it leads a group of its own.
    let led = groups(&dir, &["--group-by", "first"]);
    assert_eq!(led, vec![names(&[1, 2]), names(&[3, 4])]);
    // The same whatever the thread count.
    assert_eq!(groups(&dir, &["--group-by", "first", "-j", "1"]), led);
}

#[test]
fn groups_led_by_their_first_member_are_what_dedup_keeps_and_drops() {
    let dir = chain();
    let dropped = dir.path().join("dropped.jsonl");
    let output = dir
        .simdup()
        .args(["dedup", "docs", "-q", "--dropped"])
        .arg(&dropped)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout(&output), "docs/1.txt\ndocs/3.txt\ndocs/5.txt\n");
    let mut led: Vec<Vec<String>> = Vec::new();
    for line in std::fs::read_to_string(&dropped).unwrap().lines() {
        let record: serde_json::Value = serde_json::from_str(line).unwrap();
        let (path, kept) = (record["path"].as_str(), record["kept_path"].as_str());
        let (path, kept) = (path.unwrap().to_string(), kept.unwrap().to_string());
        match led.iter_mut().find(|group| group[0] == kept) {
            Some(group) => group.push(path),
            None => led.push(vec![kept, path]),
        }
    }
    assert_eq!(groups(&dir, &["--group-by", "first"]), led);
}

#[test]
fn fdupes_blocks_follow_the_grouping() {
    let dir = chain();
    let output = dir
        .simdup()
        .args([
            "scan",
            "docs",
            "--format",
            "fdupes",
            "--group-by",
            "first",
            "-q",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        stdout(&output),
        "docs/1.txt\ndocs/2.txt\n\ndocs/3.txt\ndocs/4.txt\n\n"
    );
}

#[test]
fn raw_pairs_cannot_be_grouped_by_their_first_member() {
    let dir = chain();
    let output = dir
        .simdup()
        .args(["scan", "docs", "--raw", "--group-by", "first"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("--group-by first needs verified near-duplicates"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_chained_component_is_pointed_out_beside_the_summary() {
    let dir = chain();
    let run = |extra: &[&str]| {
        let output = dir
            .simdup()
            .args(["scan", "docs", "--groups"])
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        stderr(&output)
    };
    let note = "1 of 2 groups hold documents that are near-duplicates of other members but not \
                of the group's first; --group-by first";
    // Two groups: 1..4 chain (3 and 4 are not near 1), 6 and 7 are a
    // plain pair; 5 is in none.
    dir.create("docs/6.txt", window(700));
    dir.create("docs/7.txt", window(705));
    assert!(run(&[]).contains(note), "{}", run(&[]));
    assert!(!run(&["--group-by", "first"]).contains("groups hold"));
    assert!(!run(&["-q"]).contains("groups hold"));
    // Pairs listed, not groups: nothing to point out.
    let output = dir.simdup().args(["scan", "docs"]).output().unwrap();
    assert!(!stderr(&output).contains("groups hold"));
}

#[test]
fn against_a_stored_corpus_groups_keep_their_chained_mark() {
    let dir = TestDir::new();
    for (number, from) in [(1, 0), (2, 10)] {
        dir.create(&format!("old/{number}.txt"), window(from));
    }
    for (number, from) in [(3, 20), (4, 30)] {
        dir.create(&format!("new/{number}.txt"), window(from));
    }
    dir.create("new/5.txt", window(500));
    let output = dir
        .simdup()
        .args(["index", "add", "--db", "stored.db", "old", "-q"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let output = dir
        .simdup()
        .args(["scan", "new", "--against", "stored.db", "--groups"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    // Pairs with a new document only: old/2 ~ new/3 ~ new/4, and new/4
    // is not near old/2.
    assert_eq!(
        stdout(&output),
        "group 1: 3 documents\n  old/2.txt\n  new/3.txt\n  new/4.txt\n"
    );
    assert!(
        stderr(&output).contains("1 of 1 groups hold documents"),
        "{}",
        stderr(&output)
    );
}
