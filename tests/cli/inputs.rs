//! Every way documents reach `simdup scan`: records on stdin, path lists,
//! saved fingerprints, and the awkward files a tree can hold.

use std::collections::BTreeSet;
use std::os::unix::fs::PermissionsExt;

use crate::util::{
    TestDir, assert_inputs_add_up, json_lines, permissions_apply, saved_fingerprints,
    saved_fingerprints_with, stderr, stdout, text,
};

const ADDRESSES: &str = "\
Burra Hotel, 5 Market Sq, Burra, SA, 5417
Camping Country Superstore, 401 Pacific Hwy, Belmont North, NSW, 2280
One Stop Bakery, 1304 High St Rd, Wantirna, VIC, 3152
One Stop Bakery, 1304 High Street Rd, Wantirna South, VIC, 3152
Weaver Interiors, 955 Pacific Hwy, Pymble, NSW, 2073
Weaver Interiors, 997 Pacific Hwy, Pymble, NSW, 2073
";

#[test]
fn address_lines_from_stdin_find_their_near_duplicates() {
    let output = crate::util::simdup()
        .args([
            "scan",
            "-",
            "--raw",
            "--shingle",
            "chars:3",
            "-k",
            "16",
            "--format",
            "jsonl",
        ])
        .write_stdin(ADDRESSES)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let pairs: Vec<(String, String)> = json_lines(&output.stdout)
        .iter()
        .map(|pair| {
            (
                pair["a"].as_str().unwrap().into(),
                pair["b"].as_str().unwrap().into(),
            )
        })
        .collect();
    // Record ids are line numbers.
    assert!(pairs.contains(&("3".into(), "4".into())), "{pairs:?}");
    assert!(pairs.contains(&("5".into(), "6".into())), "{pairs:?}");
    assert!(!pairs.contains(&("1".into(), "2".into())), "{pairs:?}");
}

#[test]
fn json_lines_records_use_their_id_and_text_fields() {
    let body = text(5, 300);
    let records = format!(
        "{}\n{}\n{}\n",
        serde_json::json!({"key": "first", "body": body}),
        serde_json::json!({"key": "second", "body": body}),
        serde_json::json!({"key": 3, "body": text(6, 300)}),
    );
    let output = crate::util::simdup()
        .args([
            "scan",
            "--records",
            "jsonl",
            "--text-field",
            "body",
            "--id-field",
            "key",
        ])
        .args(["--format", "jsonl"])
        .write_stdin(records)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let pairs = json_lines(&output.stdout);
    assert_eq!(pairs.len(), 1);
    assert_eq!(pairs[0]["a"], "first");
    assert_eq!(pairs[0]["b"], "second");
}

#[test]
fn a_malformed_json_line_names_its_line_number() {
    let records = "{\"text\": \"fine\"}\n{\"text\": broken}\n{\"text\": \"also fine\"}\n";
    let output = crate::util::simdup()
        .args(["scan", "--records", "jsonl"])
        .write_stdin(records)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains(":2:"), "{}", stderr(&output));
}

#[test]
fn records_are_read_from_one_file_as_from_stdin() {
    let dir = TestDir::new();
    dir.create("addresses.txt", ADDRESSES);
    let args = ["scan", "--records", "lines", "--format", "jsonl"];
    let from_file = dir
        .simdup()
        .args(args)
        .arg("addresses.txt")
        .output()
        .unwrap();
    let from_stdin = dir
        .simdup()
        .args(args)
        .write_stdin(ADDRESSES)
        .output()
        .unwrap();
    assert_eq!(from_file.status.code(), Some(0), "{}", stderr(&from_file));
    assert!(!from_file.stdout.is_empty());
    assert_eq!(stdout(&from_file), stdout(&from_stdin));
    // A malformed record is named by the file and its line.
    dir.create("bad.jsonl", "{\"text\": \"fine\"}\n{\"text\": broken}\n");
    let bad = dir
        .simdup()
        .args(["scan", "--records", "jsonl", "bad.jsonl"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("bad.jsonl:2:"), "{}", stderr(&bad));
    // One file at a time; a missing one is an error told once.
    let two = dir
        .simdup()
        .args(["scan", "--records", "lines", "addresses.txt", "bad.jsonl"])
        .output()
        .unwrap();
    assert_eq!(two.status.code(), Some(2));
    assert!(
        stderr(&two).contains("one FILE or stdin"),
        "{}",
        stderr(&two)
    );
    let missing = dir
        .simdup()
        .args(["scan", "--records", "lines", "gone.txt"])
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
    let message = stderr(&missing);
    assert!(message.contains("gone.txt: "), "{message}");
    assert_eq!(message.matches("(os error 2)").count(), 1, "{message}");
}

#[test]
fn nul_separated_records() {
    let body = text(8, 200);
    let input = format!("{body}\0{body}\0{}\0", text(9, 200));
    let output = crate::util::simdup()
        .args(["scan", "--records", "nul", "--raw", "--format", "csv"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(stdout(&output), "a,b,distance,similarity\n1,2,0,1\n");
}

#[test]
fn records_from_stdin_are_verified() {
    let body = text(10, 300);
    let input = format!("{}\n{}\n", body.replace('\n', " "), body.replace('\n', " "));
    // Without --verify, which only saved fingerprints take.
    let output = crate::util::simdup()
        .args(["scan", "-", "--format", "jsonl"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let pairs = json_lines(&output.stdout);
    assert_eq!(pairs[0]["jaccard"], 1.0);
}

#[test]
fn files_from_reads_nul_separated_paths() {
    let dir = TestDir::new();
    let body = text(12, 300);
    dir.create("a b.txt", &body);
    dir.create("c.txt", &body);
    dir.create("ignored.txt", &body);
    let output = dir
        .simdup()
        .args([
            "scan",
            "--files-from",
            "-",
            "-0",
            "--raw",
            "--format",
            "csv",
        ])
        .write_stdin("a b.txt\0c.txt\0")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        stdout(&output),
        "a,b,distance,similarity\na b.txt,c.txt,0,1\n"
    );
}

#[test]
fn the_same_file_twice_is_one_document() {
    let dir = TestDir::new();
    dir.create("d/a.txt", text(13, 300));
    let output = dir
        .simdup()
        .args(["scan", "d", "d/a.txt", "./d", "--format", "json"])
        .output()
        .unwrap();
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(value["stats"]["fingerprinted"], 1);
    assert_eq!(value["pairs"].as_array().unwrap().len(), 0);
}

#[test]
fn a_fifo_is_skipped_not_read() {
    let dir = TestDir::new();
    dir.create("d/a.txt", text(14, 300));
    let made = std::process::Command::new("mkfifo")
        .arg(dir.path().join("d/pipe"))
        .status()
        .unwrap();
    assert!(made.success());
    let output = dir
        .simdup()
        .args(["scan", "d", "--format", "json"])
        .timeout(std::time::Duration::from_secs(20))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(value["stats"]["skipped"]["not_regular"], 1);
}

#[test]
fn a_symlink_loop_is_reported_not_followed() {
    let dir = TestDir::new();
    dir.create("d/a.txt", text(15, 300));
    std::os::unix::fs::symlink("..", dir.path().join("d/up")).unwrap();
    let output = dir
        .simdup()
        .args(["scan", "d", "-L", "--format", "json"])
        .timeout(std::time::Duration::from_secs(20))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("d/up"), "{}", stderr(&output));
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(value["stats"]["fingerprinted"], 1);
}

#[test]
fn an_unreadable_file_is_reported_and_the_run_goes_on() {
    let dir = TestDir::new();
    if !permissions_apply(&dir) {
        eprintln!("skipped: permissions do not apply to this user (root)");
        return;
    }
    let body = text(16, 300);
    dir.create("d/a.txt", &body);
    dir.create("d/b.txt", &body);
    let locked = dir.create("d/locked.txt", &body);
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    let output = dir
        .simdup()
        .args(["scan", "d", "--format", "jsonl"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("d/locked.txt"));
    assert_eq!(json_lines(&output.stdout).len(), 1);
}

#[test]
fn saved_fingerprints_are_searched_like_documents() {
    let dir = TestDir::new();
    let body = text(17, 400);
    dir.create("d/a.txt", &body);
    dir.create("d/b.txt", &body);
    dir.create("d/c.txt", text(18, 400));
    for format in ["text", "jsonl"] {
        dir.create(
            &format!("saved.{format}"),
            saved_fingerprints(&dir, "d", format),
        );
        let output = dir
            .simdup()
            .args([
                "scan",
                "--fingerprints",
                &format!("saved.{format}"),
                "--format",
                "csv",
            ])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        assert_eq!(
            stdout(&output),
            "a,b,distance,similarity\nd/a.txt,d/b.txt,0,1\n"
        );
    }
}

/// Shards that overlap list some documents twice: each is one document,
/// never paired with itself, raw or verified.
#[test]
fn a_path_in_two_fingerprint_files_is_one_document() {
    let dir = TestDir::new();
    let body = text(21, 300);
    dir.create("d/a.txt", &body);
    dir.create("d/b.txt", &body);
    dir.create("d/c.txt", text(22, 300));
    let saved = dir.simdup().args(["fingerprint", "d"]).output().unwrap();
    assert_eq!(saved.status.code(), Some(0), "{}", stderr(&saved));
    let saved = stdout(&saved);
    dir.create("all.txt", &saved);
    // The second shard holds c again, and b.
    let shard: String = saved
        .lines()
        .filter(|line| !line.ends_with("d/a.txt"))
        .map(|line| format!("{line}\n"))
        .collect();
    dir.create("shard.txt", &shard);
    for extra in [&[][..], &["--verify"]] {
        let output = dir
            .simdup()
            .args(["scan", "--fingerprints", "all.txt", "shard.txt", "all.txt"])
            .args(["--format", "json"])
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        let pairs: Vec<(&str, &str)> = report["pairs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|pair| (pair["a"].as_str().unwrap(), pair["b"].as_str().unwrap()))
            .collect();
        assert_eq!(pairs, [("d/a.txt", "d/b.txt")], "{extra:?}");
        assert_eq!(report["stats"]["fingerprinted"], 3);
        assert_eq!(report["stats"]["skipped"]["duplicate"], 5);
        assert_eq!(report["groups"][0]["members"].as_array().unwrap().len(), 2);
        assert!(!stderr(&output).contains("warning"), "{}", stderr(&output));
    }
    // A later line with another fingerprint is named; the first is kept.
    let other: String = shard
        .lines()
        .map(|line| match line.strip_suffix("d/b.txt") {
            Some(_) => format!("0000000000000000{}\n", &line[16..]),
            None => format!("{line}\n"),
        })
        .collect();
    assert_ne!(other, shard);
    dir.create("other.txt", &other);
    let output = dir
        .simdup()
        .args([
            "scan",
            "--fingerprints",
            "all.txt",
            "other.txt",
            "--format",
            "csv",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        stdout(&output),
        "a,b,distance,similarity\nd/a.txt,d/b.txt,0,1\n"
    );
    let message = stderr(&output);
    assert!(
        message.contains("warning: d/b.txt: listed again with another fingerprint (other.txt:"),
        "{message}"
    );
}

#[test]
fn fingerprints_made_with_other_options_are_refused() {
    let dir = TestDir::new();
    dir.create("d/a.txt", text(19, 300));
    for (name, shingle) in [("one.jsonl", "words:3"), ("two.jsonl", "chars:5")] {
        let saved = saved_fingerprints_with(&dir, "d", "jsonl", &["--shingle", shingle]);
        dir.create(name, &saved);
    }
    let output = dir
        .simdup()
        .args(["scan", "--fingerprints", "one.jsonl", "two.jsonl"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let message = stderr(&output);
    assert!(
        message.contains("one.jsonl") && message.contains("two.jsonl"),
        "{message}"
    );
}

/// A malformed line is one input that failed: it is named with its file
/// and line, counted as an error, and the lines after it are still
/// searched and reported (exit 2 at the end), as a malformed record is.
#[test]
fn a_malformed_fingerprint_line_is_counted_and_the_rest_searched() {
    let dir = TestDir::new();
    dir.create(
        "bad.txt",
        "0123456789abcdef  a.txt\nnot a fingerprint\n0123456789abcdef  c.txt\n",
    );
    let output = dir
        .simdup()
        .args(["scan", "--fingerprints", "bad.txt", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let message = stderr(&output);
    assert!(
        message.contains("bad.txt:2: expected 16 hex digits"),
        "{message}"
    );
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let stats = &report["stats"];
    assert_eq!(stats["inputs"], 3, "{stats}");
    assert_eq!(stats["fingerprinted"], 2, "{stats}");
    assert_eq!(stats["errors"], 1, "{stats}");
    assert_inputs_add_up(stats);
    assert_eq!(report["pairs"][0]["a"], "a.txt");
    assert_eq!(report["pairs"][0]["b"], "c.txt");
    // Two bad lines in one block: both named, the line between them kept.
    dir.create(
        "two.txt",
        "zz  a.txt\n0123456789abcdef  a.txt\n0123456789abcdeg  b.txt\n0123456789abcdef  c.txt\n",
    );
    let output = dir
        .simdup()
        .args(["scan", "--fingerprints", "two.txt", "--format", "csv"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let message = stderr(&output);
    assert!(
        message.contains("two.txt:1:") && message.contains("two.txt:3:"),
        "{message}"
    );
    assert_eq!(
        stdout(&output),
        "a,b,distance,similarity\na.txt,c.txt,0,1\n"
    );
}

/// A listed file that cannot be read again leaves its pair unverified:
/// a verification error, not a second outcome of an input, so `inputs`
/// stays the sum of the outcomes.
#[test]
fn a_saved_fingerprint_whose_file_is_gone_is_a_verify_error() {
    let dir = TestDir::new();
    let body = text(23, 300);
    dir.create("d/a.txt", &body);
    dir.create("d/b.txt", &body);
    let saved = dir.simdup().args(["fingerprint", "d"]).output().unwrap();
    assert_eq!(saved.status.code(), Some(0), "{}", stderr(&saved));
    dir.create("saved.txt", &saved.stdout);
    std::fs::remove_file(dir.path().join("d/b.txt")).unwrap();
    let output = dir
        .simdup()
        .args(["scan", "--fingerprints", "saved.txt", "--verify"])
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let message = stderr(&output);
    assert!(
        message.contains("d/b.txt") && message.contains("(while verifying)"),
        "{message}"
    );
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let stats = &report["stats"];
    assert_eq!(stats["inputs"], 2, "{stats}");
    assert_eq!(stats["fingerprinted"], 2, "{stats}");
    assert_eq!(stats["errors"], 0, "{stats}");
    assert_eq!(stats["verify_errors"], 1, "{stats}");
    assert_eq!(stats["unverified"], 1, "{stats}");
    assert_inputs_add_up(stats);
    // The summary says it apart from the inputs' outcomes.
    let output = dir
        .simdup()
        .args(["scan", "--fingerprints", "saved.txt", "--verify"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output)
            .contains("2 inputs: 2 fingerprinted; 1 document could not be read again to verify"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn an_oversized_record_is_skipped_and_counted() {
    let long = "word ".repeat(100);
    let input = format!("short record here\n{long}\nanother short one\n");
    let output = crate::util::simdup()
        .args(["scan", "-", "--max-filesize", "64", "--format", "json"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(value["stats"]["inputs"], 3);
    assert_eq!(value["stats"]["skipped"]["too_large"], 1);
}

/// A tree with one near-duplicate pair in every corner the walk filters.
fn filtered_tree() -> TestDir {
    let dir = TestDir::new();
    let body = text(30, 300);
    dir.create("d/a.md", &body);
    dir.create("d/b.txt", &body);
    dir.create("d/.hidden/c.md", &body);
    dir.create("d/big.md", format!("{body}{}", text(31, 3000)));
    dir.create("d/bin.md", format!("{body}\0"));
    dir
}

fn scanned(dir: &TestDir, args: &[&str]) -> serde_json::Value {
    let output = dir
        .simdup()
        .args(["scan", "d", "--format", "json"])
        .args(args)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn walk_filters_are_counted_by_reason() {
    let dir = filtered_tree();
    let value = scanned(&dir, &[]);
    assert_eq!(value["stats"]["fingerprinted"], 3, "a.md, b.txt, big.md");
    assert_eq!(value["stats"]["skipped"]["hidden"], 1);
    assert_eq!(value["stats"]["skipped"]["binary"], 1);

    let value = scanned(&dir, &["--hidden", "--binary"]);
    assert_eq!(value["stats"]["fingerprinted"], 5);

    let value = scanned(&dir, &["--max-filesize", "4K"]);
    assert_eq!(value["stats"]["skipped"]["too_large"], 1);

    let value = scanned(&dir, &["-g", "*.md", "-g", "!big.md"]);
    assert_eq!(value["stats"]["fingerprinted"], 1, "only a.md");
    assert_eq!(value["stats"]["skipped"]["excluded"], 2, "b.txt and big.md");
}

#[test]
fn symlinks_are_skipped_unless_followed() {
    let dir = TestDir::new();
    let body = text(32, 300);
    dir.create("d/a.txt", &body);
    dir.create("elsewhere/b.txt", &body);
    std::os::unix::fs::symlink("../elsewhere/b.txt", dir.path().join("d/link.txt")).unwrap();
    let value = scanned(&dir, &[]);
    assert_eq!(value["stats"]["skipped"]["symlink"], 1);
    assert_eq!(value["pairs"].as_array().unwrap().len(), 0);
    let value = scanned(&dir, &["-L"]);
    assert_eq!(value["pairs"][0]["b"], "d/link.txt");
}

#[test]
fn a_bad_glob_is_an_error_before_any_work() {
    let dir = filtered_tree();
    let output = dir
        .simdup()
        .args(["scan", "d", "-g", "a[b"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    assert!(stderr(&output).contains("a[b"), "{}", stderr(&output));
}

/// See: #8. Short records work with the defaults: two one-line texts are
/// compared by character pairs, so the lecture's address cases come out
/// as the lecture reads them.
#[test]
fn the_address_fixture_with_the_defaults() {
    let output = crate::util::simdup()
        .current_dir(crate::util::repo())
        .args(["scan", "-", "--format", "jsonl"])
        .write_stdin(
            std::fs::read(crate::util::repo().join("fixtures/records/addresses.txt")).unwrap(),
        )
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let pairs: Vec<(String, String)> = json_lines(&output.stdout)
        .iter()
        .map(|pair| {
            assert_eq!(pair["features"], "chars:2", "{pair}");
            assert!(pair["jaccard"].as_f64().unwrap() >= 0.8);
            (
                pair["a"].as_str().unwrap().into(),
                pair["b"].as_str().unwrap().into(),
            )
        })
        .collect();
    let has = |a: &str, b: &str| pairs.contains(&(a.to_string(), b.to_string()));
    // Case 2: the same bakery, written differently.
    assert!(has("3", "4"), "{pairs:?}");
    // Case 3: the same shop four ways; its pairs at Jaccard >= 0.8.
    for (a, b) in [("5", "6"), ("5", "7"), ("5", "8"), ("7", "8")] {
        assert!(has(a, b), "{a}-{b}: {pairs:?}");
    }
    // Case 1: two different places, never a pair.
    assert!(!has("1", "2"), "{pairs:?}");
    assert!(
        pairs
            .iter()
            .all(|(a, b)| a != "1" && a != "2" && b != "1" && b != "2")
    );
}

/// `simdup scan - ARGS` on the address fixture; it must succeed.
fn scan_addresses(args: &[&str]) -> std::process::Output {
    let output = crate::util::simdup()
        .args(["scan", "-"])
        .args(args)
        .write_stdin(
            std::fs::read(crate::util::repo().join("fixtures/records/addresses.txt")).unwrap(),
        )
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    output
}

/// See: #8. Short texts are joined exactly: every pair at the threshold
/// is found at any radius, and `params` says so.
#[test]
fn short_texts_are_joined_whatever_the_radius() {
    let scan = |extra: &[&str]| {
        let output = scan_addresses(&[&["--format", "json"], extra].concat());
        serde_json::from_slice::<serde_json::Value>(&output.stdout).unwrap()
    };
    let default = scan(&[]);
    let short = &default["params"]["radius"]["short_texts"];
    assert_eq!(short["search"], "join", "{short}");
    assert_eq!(short["expected_recall"], 1.0, "{short}");
    assert!(short.get("max_distance").is_none(), "{short}");
    assert_eq!(default["pairs"].as_array().unwrap().len(), 6);
    // The pair of case 2 lies 5 bits apart: k = 0 finds it all the same.
    let narrow = scan(&["-k", "0"]);
    assert_eq!(narrow["pairs"], default["pairs"]);
    assert_eq!(
        scan(&["-k", "0", "--short-texts", "join"])["pairs"],
        default["pairs"]
    );
    // Searched by fingerprint, short texts are found within k only.
    let searched = scan(&["-k", "0", "--short-texts", "fingerprint"]);
    let short = &searched["params"]["radius"]["short_texts"];
    assert_eq!(short["search"], "simhash", "{short}");
    assert_eq!(short["max_distance"], 0, "{short}");
    let pairs = searched["pairs"].as_array().unwrap();
    assert!(pairs.iter().all(|pair| pair["distance"] == 0), "{pairs:?}");
    assert!(pairs.len() < 6, "{pairs:?}");
}

/// The join lists every pair at the threshold, so a lower threshold never
/// lists fewer: at 0 every pair of short texts is one, even two that
/// share no character pair (Jaccard 0), which no prefix can find.
#[test]
fn the_join_at_threshold_zero_lists_every_pair() {
    let pairs = |threshold: &str| {
        let output =
            scan_addresses(&["--format", "json", "-t", threshold, "--short-texts", "join"]);
        let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        let short = &report["params"]["radius"]["short_texts"];
        assert_eq!(short["search"], "join", "-t {threshold}: {short}");
        let pairs: BTreeSet<(String, String)> = report["pairs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|pair| {
                let jaccard = pair["jaccard"].as_f64().unwrap();
                assert!(jaccard >= threshold.parse::<f64>().unwrap(), "{pair}");
                (pair["a"].to_string(), pair["b"].to_string())
            })
            .collect();
        assert_eq!(report["stats"]["pairs_found"], pairs.len());
        pairs
    };
    let all = pairs("0");
    // The fixture's 12 lines: C(12, 2) pairs.
    assert_eq!(all.len(), 66);
    let mut lower = all;
    for threshold in ["0.0000001", "0.2", "0.5", "0.8"] {
        let higher = pairs(threshold);
        assert!(higher.is_subset(&lower), "-t {threshold}");
        lower = higher;
    }
    let dir = TestDir::new();
    let output = dir
        .simdup()
        .args([
            "scan",
            "-",
            "-t",
            "0",
            "--short-texts",
            "join",
            "--format",
            "csv",
        ])
        .write_stdin("abab abab\ncdcd cdcd\n")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let listed = stdout(&output);
    let rows: Vec<&str> = listed.lines().skip(1).collect();
    assert_eq!(rows.len(), 1, "{listed}");
    assert!(
        rows[0].starts_with("1,2,") && rows[0].ends_with(",0"),
        "{listed}"
    );
}

/// The summary line says how short texts were searched, beside the radius
/// of the others.
#[test]
fn the_summary_names_the_short_texts_search() {
    let summary = |extra: &[&str]| stderr(&scan_addresses(extra));
    let joined = summary(&[]);
    assert!(
        joined.contains("; short texts: every pair, joined)"),
        "{joined}"
    );
    let searched = summary(&["--short-texts", "fingerprint", "-k", "3"]);
    assert!(
        searched.contains("; short texts within k = 3, expected recall 0.0"),
        "{searched}"
    );
}

/// A scan of JSON Lines records named by their `id`, listed as JSON Lines.
const SCAN_JSONL_WITH_IDS: [&str; 7] = [
    "scan",
    "--records",
    "jsonl",
    "--id-field",
    "id",
    "--format",
    "jsonl",
];

/// See: #8. The tickets fixture's reworded feature request is found.
#[test]
fn the_tickets_fixture_with_the_defaults() {
    let output = crate::util::simdup()
        .args(SCAN_JSONL_WITH_IDS)
        .write_stdin(
            std::fs::read(crate::util::repo().join("fixtures/records/tickets.jsonl")).unwrap(),
        )
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let pairs: Vec<(String, String)> = json_lines(&output.stdout)
        .iter()
        .map(|pair| {
            (
                pair["a"].as_str().unwrap().into(),
                pair["b"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert!(
        pairs.contains(&("ticket-103".into(), "ticket-105".into())),
        "{pairs:?}"
    );
    assert!(
        !pairs
            .iter()
            .any(|(a, b)| a == "ticket-104" || b == "ticket-104")
    );
}

/// Choosing the shingles turns the short-text rule off: every pair is
/// then compared by the features chosen.
#[test]
fn chosen_shingles_apply_to_short_texts_too() {
    let output = crate::util::simdup()
        .args(["scan", "-", "--shingle", "words:3", "--format", "jsonl"])
        .write_stdin(ADDRESSES)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    // Word 3-shingles of the bakery pair: Jaccard 0.21.
    assert!(json_lines(&output.stdout).is_empty(), "{}", stdout(&output));
}

/// See: #10. The same output whatever the thread count, for every kind of
/// input: files, lines, NUL records, JSON Lines and saved fingerprints.
#[test]
fn every_input_gives_the_same_output_on_1_2_and_8_threads() {
    let dir = TestDir::new();
    let mut lines = String::new();
    let mut nul = Vec::new();
    let mut jsonl = String::new();
    for index in 0..120u64 {
        let body = text(index / 3, 150 + (index as usize % 3));
        dir.create(&format!("d/{:02}/{index}.txt", index % 9), &body);
        let line = body.replace('\n', " ");
        lines.push_str(&line);
        lines.push('\n');
        nul.extend_from_slice(line.as_bytes());
        nul.push(0);
        jsonl.push_str(&serde_json::json!({"id": format!("r{index}"), "text": line}).to_string());
        jsonl.push('\n');
    }
    let saved = dir
        .simdup()
        .args(["fingerprint", "d", "--format", "jsonl"])
        .output()
        .unwrap();
    dir.create("saved.jsonl", &saved.stdout);
    let cases: [(&[&str], Vec<u8>); 5] = [
        (&["scan", "d"], Vec::new()),
        (&["scan", "-"], lines.into_bytes()),
        (&["scan", "--records", "nul"], nul),
        (
            &["scan", "--records", "jsonl", "--id-field", "id"],
            jsonl.into_bytes(),
        ),
        (&["scan", "--fingerprints", "saved.jsonl"], Vec::new()),
    ];
    for (args, input) in cases {
        let run = |threads: &str| {
            let output = dir
                .simdup()
                .args(args)
                .args(["--format", "json", "-j", threads])
                .write_stdin(input.clone())
                .output()
                .unwrap();
            assert_eq!(
                output.status.code(),
                Some(0),
                "{args:?}: {}",
                stderr(&output)
            );
            let mut report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
            report["stats"]["seconds"] = serde_json::Value::Null;
            report
        };
        let one = run("1");
        assert!(
            one["stats"]["pairs"].as_u64().unwrap() >= 40,
            "{args:?}: {}",
            one["stats"]
        );
        assert_eq!(one, run("2"), "{args:?}");
        assert_eq!(one, run("8"), "{args:?}");
    }
}

/// See: #10. A tree of 100,000 empty files runs in a few file descriptors:
/// files are opened one at a time per worker and closed when read.
#[test]
fn a_hundred_thousand_empty_files_need_few_file_descriptors() {
    let dir = TestDir::new();
    for folder in 0..100 {
        let path = dir.path().join(format!("t/{folder:02}"));
        std::fs::create_dir_all(&path).unwrap();
        for file in 0..1000 {
            std::fs::File::create(path.join(format!("{file:03}"))).unwrap();
        }
    }
    let output = assert_cmd::Command::new("bash")
        .args(["-c", "ulimit -n 64 && \"$SIMDUP\" scan t --format json"])
        .env("SIMDUP", env!("CARGO_BIN_EXE_simdup"))
        .current_dir(dir.path())
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["stats"]["inputs"], 100_000);
    assert_eq!(report["stats"]["empty"], 100_000);
    assert_eq!(report["stats"]["errors"], 0);
}

/// JSON Lines of two near-copy pairs (not the same features, so their
/// texts are read again to verify them), with ids.
fn near_copy_records() -> String {
    let mut lines = String::new();
    for (id, seed) in [("a", 31), ("b", 32)] {
        let body = text(seed, 200).replace('\n', " ");
        let edited = body.replacen(" the ", " THE harbour ", 1);
        lines += &format!("{{\"id\": \"{id}1\", \"text\": \"{body}\"}}\n");
        lines += &format!("{{\"id\": \"{id}2\", \"text\": \"{edited}\"}}\n");
    }
    lines
}

#[test]
fn verified_records_are_read_again_from_their_file_wherever_stdin_starts() {
    let dir = TestDir::new();
    let records = near_copy_records();
    let skipped = "{\"id\": \"skipped\", \"text\": \"a line read before simdup starts\"}\n";
    let path = dir.create("records.jsonl", format!("{skipped}{records}"));
    let args = SCAN_JSONL_WITH_IDS;
    // From a pipe: the texts are spooled.
    let piped = crate::util::simdup()
        .args(args)
        .arg("-")
        .write_stdin(records.clone())
        .output()
        .unwrap();
    assert_eq!(piped.status.code(), Some(0), "{}", stderr(&piped));
    let pairs = json_lines(&piped.stdout);
    assert_eq!(pairs.len(), 2, "{pairs:?}");
    assert!(
        pairs
            .iter()
            .all(|pair| pair["jaccard"].as_f64().unwrap() < 1.0)
    );
    // From stdin, a file already read past its first line: read again
    // from where each record is, not from the start of the file.
    let mut file = std::fs::File::open(&path).unwrap();
    std::io::Seek::seek(&mut file, std::io::SeekFrom::Start(skipped.len() as u64)).unwrap();
    let from_stdin = std::process::Command::new(env!("CARGO_BIN_EXE_simdup"))
        .args(args)
        .arg("-")
        .stdin(std::process::Stdio::from(file))
        .output()
        .unwrap();
    assert_eq!(from_stdin.status.code(), Some(0), "{}", stderr(&from_stdin));
    assert_eq!(stdout(&from_stdin), stdout(&piped));
    // Named: the skipped line is a record too, and no near-copy of any;
    // read again on any thread, the same answer whatever their number.
    for threads in ["1", "2", "8"] {
        let named = dir
            .simdup()
            .args(args)
            .args(["-j", threads])
            .arg(&path)
            .output()
            .unwrap();
        assert_eq!(named.status.code(), Some(0), "{}", stderr(&named));
        assert_eq!(stdout(&named), stdout(&piped), "-j {threads}");
    }
}

/// Threads past the bound (256, or the cores if more) are a usage error
/// that names the option, before any work starts: thousands of threads
/// took minutes on a few files, and 2^64 - 1 never returned.
#[test]
fn too_many_threads_are_a_usage_error_for_every_command() {
    let dir = TestDir::new();
    dir.create("d/a.txt", text(1, 50));
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let over = (256.max(cores) + 1).to_string();
    let commands: [&[&str]; 4] = [
        &["scan", "d"],
        &["fingerprint", "d"],
        &["dedup", "d"],
        &["index", "add", "d", "--db", "i.db"],
    ];
    for command in commands {
        for threads in [over.as_str(), "18446744073709551615"] {
            let output = dir
                .simdup()
                .args(command)
                .args(["-j", threads])
                .timeout(std::time::Duration::from_secs(60))
                .output()
                .unwrap();
            let errors = stderr(&output);
            assert_eq!(
                output.status.code(),
                Some(2),
                "{command:?} -j {threads}: {errors}"
            );
            assert!(
                errors.contains("--threads") && errors.contains("at most"),
                "{command:?} -j {threads}: {errors}"
            );
            assert!(output.stdout.is_empty(), "{command:?} -j {threads}");
        }
    }
    assert!(!dir.path().join("i.db").exists(), "no index made");
}

#[test]
fn a_name_cannot_forge_a_line_or_rewrite_the_terminal_on_stderr() {
    let dir = TestDir::new();
    dir.create("d/evil\nsimdup: fake.txt \u{1b}[2J", b"x\0y");
    let output = dir.simdup().args(["scan", "-v", "d"]).output().unwrap();
    let errors = stderr(&output);
    assert!(
        errors.contains("simdup: d/evil\\nsimdup: fake.txt \\u{1b}[2J: skipped (binary)\n"),
        "{errors}"
    );
    assert!(!errors.contains('\u{1b}'), "{errors}");
    assert!(
        !errors
            .lines()
            .any(|line| line.starts_with("simdup: fake.txt"))
    );
}
