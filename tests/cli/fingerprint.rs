//! `simdup fingerprint`: sha256sum-style lines, JSON Lines, stdin, errors.

use crate::util::{
    TestDir, edit, json_lines, run_and_close_pipe, saved_fingerprints, saved_fingerprints_with,
    simdup, stderr, stdout, text,
};

#[test]
fn one_line_per_document_after_a_header() {
    let dir = TestDir::new();
    dir.create("d/a.txt", text(1, 200));
    dir.create("d/b.txt", text(2, 200));
    let output = dir.simdup().args(["fingerprint", "d"]).output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3);
    assert!(
        lines[0].starts_with("# simdup fingerprint options=words:3"),
        "{}",
        lines[0]
    );
    assert!(lines[0].contains(" digest="));
    for (line, name) in lines[1..].iter().zip(["d/a.txt", "d/b.txt"]) {
        let (hex, path) = line.split_once("  ").unwrap();
        assert_eq!(hex.len(), 16);
        assert!(u64::from_str_radix(hex, 16).is_ok());
        assert_eq!(path, name);
    }
}

#[test]
fn stdin_is_one_document_and_matches_the_file() {
    let dir = TestDir::new();
    let body = text(3, 300);
    dir.create("a.txt", &body);
    let from_file = dir
        .simdup()
        .args(["fingerprint", "a.txt"])
        .output()
        .unwrap();
    let from_stdin = simdup()
        .arg("fingerprint")
        .write_stdin(body)
        .output()
        .unwrap();
    let hex =
        |output: &std::process::Output| stdout(output).lines().nth(1).unwrap()[..16].to_string();
    assert_eq!(hex(&from_file), hex(&from_stdin));
    assert!(stdout(&from_stdin).lines().nth(1).unwrap().ends_with("  -"));
}

#[test]
fn jsonl_counts_features_and_bytes() {
    let dir = TestDir::new();
    dir.create("a.txt", "alpha beta gamma delta");
    dir.create("empty.txt", "");
    let output = dir
        .simdup()
        .args(["fingerprint", "a.txt", "empty.txt", "--format", "jsonl"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let lines = json_lines(&output.stdout);
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["path"], "a.txt");
    assert_eq!(
        lines[0]["features"], 2,
        "four words make two word 3-shingles"
    );
    assert_eq!(lines[0]["bytes"], 22);
    assert!(lines[0]["digest"].is_string());
    assert!(lines[1]["simhash"].is_null());
    assert_eq!(lines[1]["features"], 0);
    assert!(stderr(&output).contains("empty.txt: no features"));
}

#[test]
fn an_empty_document_has_no_text_line_but_a_message() {
    let dir = TestDir::new();
    dir.create("empty.txt", "");
    let output = dir
        .simdup()
        .args(["fingerprint", "empty.txt"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout(&output).lines().count(), 1, "only the header");
    assert!(stderr(&output).contains("empty.txt"));
}

#[test]
fn a_missing_path_is_named_and_the_others_still_print() {
    let dir = TestDir::new();
    dir.create("a.txt", text(4, 100));
    let output = dir
        .simdup()
        .args(["fingerprint", "missing.txt", "a.txt"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("missing.txt"));
    assert!(stdout(&output).contains("  a.txt\n"));
}

#[test]
fn bad_option_values_are_clear_errors() {
    let dir = TestDir::new();
    dir.create("a.txt", text(4, 100));
    for (args, expected) in [
        (vec!["--shingle", "words:0"], "words:0"),
        (vec!["--shingle", "chars:x"], "chars:x"),
        (vec!["--shingle", "lines:3"], "lines:3"),
        (
            vec!["--vocabulary", "no-such-vocabulary"],
            "no-such-vocabulary",
        ),
        (vec!["--sdr", "10:20"], "10:20"),
    ] {
        let output = dir
            .simdup()
            .arg("fingerprint")
            .args(&args)
            .arg("a.txt")
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
        assert!(
            stderr(&output).contains(expected),
            "{args:?}: {}",
            stderr(&output)
        );
    }
}

#[test]
fn a_malformed_vocabulary_names_its_line() {
    let dir = TestDir::new();
    dir.create("a.txt", text(4, 100));
    dir.create("vocab.txt", "the 1\nriver two\n");
    let output = dir
        .simdup()
        .args(["fingerprint", "--vocabulary", "vocab.txt", "a.txt"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("vocab.txt:2"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn sdr_prints_active_indices() {
    let dir = TestDir::new();
    dir.create("a.txt", text(5, 100));
    let output = dir
        .simdup()
        .args(["fingerprint", "--sdr", "400:21", "a.txt"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let line = stdout(&output);
    let (bits, name) = line.trim_end().split_once("  ").unwrap();
    assert_eq!(name, "a.txt");
    let bits: Vec<usize> = bits.split(',').map(|bit| bit.parse().unwrap()).collect();
    assert!(bits.len() >= 21, "{bits:?}");
    assert!(bits.windows(2).all(|pair| pair[0] < pair[1]));
    assert!(bits.iter().all(|&bit| bit < 400));
}

#[test]
fn sdr_encodes_single_words_unless_told_otherwise() {
    let dir = TestDir::new();
    dir.create("a.txt", text(7, 300));
    let run = |extra: &[&str]| {
        let output = dir
            .simdup()
            .args(["fingerprint", "--sdr", "2048:40", "a.txt"])
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        stdout(&output)
    };
    let default = run(&[]);
    assert_eq!(default, run(&["--shingle", "words:1"]));
    assert_ne!(default, run(&["--shingle", "words:3"]));
}

#[test]
fn chinese_text_fingerprints_sensibly() {
    let dir = TestDir::new();
    let original = "传统的哈希算法只负责将原始内容尽量均匀随机地映射为一个签名值，原理上仅相当于伪随机数产生算法。\
                    而局部敏感哈希算法可以将原始的文本内容映射为数字，而且较为相近的文本内容对应的签名也比较相近。";
    let edited = original.replace("均匀", "平均");
    dir.create("a.txt", original);
    dir.create("b.txt", &edited);
    dir.create("c.txt", "完全不同的一段文字，讲的是天气、城市和一条安静的河流，与上面的算法毫无关系，只是为了比较而写的句子。");
    let near = dir
        .simdup()
        .args(["compare", "a.txt", "b.txt", "--format", "json"])
        .output()
        .unwrap();
    let far = dir
        .simdup()
        .args(["compare", "a.txt", "c.txt", "--format", "json"])
        .output()
        .unwrap();
    let near: serde_json::Value = serde_json::from_slice(&near.stdout).unwrap();
    let far: serde_json::Value = serde_json::from_slice(&far.stdout).unwrap();
    assert!(
        near["a_features"].as_u64().unwrap() > 50,
        "each ideograph is a token"
    );
    assert!(near["jaccard"].as_f64().unwrap() > 0.8);
    assert!(far["jaccard"].as_f64().unwrap() < 0.1);
    assert!(near["distance"].as_u64().unwrap() < far["distance"].as_u64().unwrap());
}

#[test]
fn invalid_utf8_never_errors() {
    let dir = TestDir::new();
    dir.create(
        "bad.txt",
        b"valid words \xff\xfe then more words and more words\n",
    );
    let output = dir
        .simdup()
        .args(["fingerprint", "bad.txt"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout(&output).lines().count(), 2);
}

#[test]
fn sdr_of_an_empty_document_is_no_line_but_a_message() {
    let dir = TestDir::new();
    dir.create("empty.txt", "  ...  ");
    let output = dir
        .simdup()
        .args(["fingerprint", "--sdr", "100:5", "empty.txt"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert!(output.stdout.is_empty());
    assert!(stderr(&output).contains("empty.txt: no features"));
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let dir = TestDir::new();
    // 3,000 lines of ~40 bytes: far more than a pipe buffer holds.
    for index in 0..3000 {
        dir.create(&format!("d/{index:04}.txt"), text(index, 20));
    }
    let (code, errors) = run_and_close_pipe(&dir, &["fingerprint", "d"]);
    assert_eq!(code, Some(0), "{errors}");
    assert!(errors.is_empty(), "{errors}");
}

/// A name that is not UTF-8 keeps its bytes through a fingerprint file, in
/// both formats, so a scan of the saved fingerprints opens the file again
/// to verify its pairs.
#[cfg(unix)]
#[test]
fn names_that_are_not_utf8_survive_a_fingerprint_file() {
    use std::os::unix::ffi::OsStrExt;
    let dir = TestDir::new();
    let body = text(7, 300);
    dir.create("d/a.txt", &body);
    let odd = dir
        .path()
        .join("d")
        .join(std::ffi::OsStr::from_bytes(b"b\xff.txt"));
    std::fs::write(&odd, edit(&body, &[10, 150])).unwrap();
    for format in ["text", "jsonl"] {
        dir.create("saved", saved_fingerprints(&dir, "d", format));
        let output = dir
            .simdup()
            .args([
                "scan",
                "--fingerprints",
                "saved",
                "--verify",
                "--format",
                "fdupes",
            ])
            .output()
            .unwrap();
        assert_eq!(
            output.status.code(),
            Some(0),
            "{format}: {}",
            stderr(&output)
        );
        assert_eq!(output.stdout, b"d/a.txt\nd/b\xff.txt\n\n", "{format}");
    }
}

/// Two one-line texts saved as JSON Lines keep their character pairs'
/// fingerprint, so a verified scan of the saved fingerprints pairs them
/// as a scan of the files does (by character pairs, not word shingles);
/// the text format has no room for it, and shingles chosen turn it off.
#[test]
fn saved_short_texts_are_compared_by_character_pairs_as_files_are() {
    let dir = TestDir::new();
    dir.create(
        "d/a.txt",
        "One Stop Bakery, 1304 High St Rd, Wantirna, VIC, 3152\n",
    );
    dir.create(
        "d/b.txt",
        "One Stop Bakery, 1304 High Street Rd, Wantirna South, VIC, 3152\n",
    );
    dir.create("d/c.txt", "Burra Hotel, 5 Market Sq, Burra, SA, 5417\n");
    let pairs = |args: &[&str]| {
        let output = dir
            .simdup()
            .args(args)
            .args(["--format", "jsonl"])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        json_lines(&output.stdout)
            .into_iter()
            .map(|pair| {
                (
                    pair["a"].clone(),
                    pair["b"].clone(),
                    pair["jaccard"].clone(),
                    pair["features"].clone(),
                )
            })
            .collect::<Vec<_>>()
    };
    let files = pairs(&["scan", "d"]);
    assert_eq!(files.len(), 1, "{files:?}");
    let saved = saved_fingerprints(&dir, "d", "jsonl");
    let lines = json_lines(&saved);
    assert!(
        lines
            .iter()
            .all(|line| line["short_features"].as_u64() > Some(0)),
        "{lines:?}"
    );
    dir.create("saved.jsonl", saved);
    assert_eq!(
        pairs(&["scan", "--fingerprints", "saved.jsonl", "--verify"]),
        files
    );
    // By word shingles the two are below the threshold.
    dir.create("saved.txt", saved_fingerprints(&dir, "d", "text"));
    assert_eq!(
        pairs(&["scan", "--fingerprints", "saved.txt", "--verify"]),
        []
    );
    let chosen = saved_fingerprints_with(&dir, "d", "jsonl", &["--shingle", "words:3"]);
    assert!(
        json_lines(&chosen)
            .iter()
            .all(|line| line.get("short_simhash").is_none())
    );
}

#[test]
fn a_file_reached_twice_across_arguments_is_printed_once() {
    let dir = TestDir::new();
    dir.create("d/a.txt", text(1, 200));
    dir.create("d/c.txt", text(2, 200));
    std::fs::hard_link(dir.path().join("d/a.txt"), dir.path().join("b.txt")).unwrap();
    let output = dir
        .simdup()
        .args(["fingerprint", "-v", "d", "d/a.txt", "b.txt", "d"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let names: Vec<String> = stdout(&output)
        .lines()
        .skip(1)
        .map(|line| line.split_once("  ").unwrap().1.to_string())
        .collect();
    assert_eq!(names, ["d/a.txt", "d/c.txt"]);
    let notes = stderr(&output);
    for name in ["d/a.txt", "b.txt", "d/c.txt"] {
        assert!(
            notes.contains(&format!("{name}: skipped (duplicate)")),
            "{notes}"
        );
    }
}
