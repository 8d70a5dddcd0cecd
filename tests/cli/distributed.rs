//! `simdup distributed`: the steps spark/simdup_spark.py runs on its
//! workers give the figures the rest of simdup gives.

use assert_cmd::Command;
use std::process::Output;

use crate::util::{TestDir, json_lines, simdup, stderr, text};

/// Runs `command` with `input` on stdin.
fn run(mut command: Command, input: &str) -> Output {
    command.write_stdin(input).output().unwrap()
}

#[test]
fn record_fingerprints_are_those_of_the_same_text_in_a_file() {
    let dir = TestDir::new();
    let long = format!("{}\n{}", text(1, 80), text(2, 40));
    let short = "One Stop Bakery, 1304 High St Rd, Wantirna, VIC, 3152";
    dir.create("long.txt", &long);
    let input = format!(
        "{}\n{}\n",
        serde_json::json!({"id": "long", "text": long}),
        serde_json::json!({"id": 2, "text": short})
    );
    let mut command = dir.simdup();
    command.args(["distributed", "fingerprint"]);
    let output = run(command, &input);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let records = json_lines(&output.stdout);
    let saved = dir
        .simdup()
        .args(["fingerprint", "long.txt", "--format", "jsonl"])
        .output()
        .unwrap();
    let saved = &json_lines(&saved.stdout)[0];
    assert_eq!(records[0]["id"], "long");
    assert_eq!(records[0]["simhash"], saved["simhash"]);
    assert_eq!(records[0]["features"], saved["features"]);
    assert_eq!(records[0]["content_hash"], saved["content_hash"]);
    assert!(records[0]["short_simhash"].is_null(), "two lines");
    assert_eq!(records[1]["id"], "2");
    assert!(records[1]["short_simhash"].is_string(), "one short line");

    // With --shingle, short texts are not measured apart, as in scan.
    let mut command = dir.simdup();
    command.args(["distributed", "fingerprint", "--shingle", "words:2"]);
    let output = run(command, &input);
    assert!(json_lines(&output.stdout)[1]["short_simhash"].is_null());
}

#[test]
fn verification_gives_the_jaccard_compare_gives() {
    let dir = TestDir::new();
    let (a, b) = (
        "One Stop Bakery, 1304 High St Rd, Wantirna, VIC, 3152",
        "One Stop Bakery, 1304 High Street Rd, Wantirna South, VIC, 3152",
    );
    dir.create("a.txt", a);
    dir.create("b.txt", b);
    let compared = dir
        .simdup()
        .args(["compare", "a.txt", "b.txt", "--shingle", "chars:2"])
        .args(["--format", "json"])
        .output()
        .unwrap();
    let compared: serde_json::Value = serde_json::from_slice(&compared.stdout).unwrap();
    let jaccard = compared["jaccard"].as_f64().unwrap();
    let input = serde_json::json!({"a": 1, "b": 2, "a_text": a, "b_text": b, "short_texts": true})
        .to_string();
    for (threshold, near) in [(jaccard - 0.001, true), (jaccard + 0.001, false)] {
        let mut command = dir.simdup();
        command.args(["distributed", "verify", "-t", &threshold.to_string()]);
        let output = run(command, &input);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let verdict = &json_lines(&output.stdout)[0];
        assert_eq!(verdict["near"], near);
        if near {
            assert_eq!(verdict["jaccard"].as_f64(), Some(jaccard));
            assert_eq!(verdict["features"], "chars:2");
        }
    }
}

#[test]
fn the_plan_lists_every_choice_of_key_blocks() {
    let output = simdup()
        .args([
            "distributed",
            "plan",
            "-k",
            "2",
            "-n",
            "1000",
            "--blocks",
            "5",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let plan = &json_lines(&output.stdout)[0];
    assert_eq!(plan["plan"], "blocks");
    let masks: Vec<u64> = plan["block_masks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|mask| u64::from_str_radix(mask.as_str().unwrap(), 16).unwrap())
        .collect();
    assert_eq!(masks.len(), 5);
    assert_eq!(masks.iter().fold(0, |all, mask| all | mask), u64::MAX);
    assert_eq!(plan["tables"].as_array().unwrap().len(), 10, "C(5, 2)");

    let tiny = simdup()
        .args(["distributed", "plan", "-k", "3", "-n", "10"])
        .output()
        .unwrap();
    assert_eq!(json_lines(&tiny.stdout)[0]["plan"], "brute");
}

#[test]
fn bad_input_is_an_error_naming_it() {
    let mut command = simdup();
    command.args(["distributed", "fingerprint"]);
    let output = run(command, "{\"id\": \"a\", \"text\": \"fine\"}\nnot json\n");
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("stdin"), "{}", stderr(&output));

    let mut command = simdup();
    command.args(["distributed", "verify"]);
    let output = run(command, "{\"a\": 1, \"b\": 2}\n");
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("stdin, line 1"),
        "{}",
        stderr(&output)
    );

    let output = simdup()
        .args([
            "distributed",
            "plan",
            "-k",
            "4",
            "-n",
            "100",
            "--blocks",
            "3",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("3 blocks"), "{}", stderr(&output));
}
