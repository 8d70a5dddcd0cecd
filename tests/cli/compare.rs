//! `simdup compare`: distance, similarity and exact Jaccard of two documents.

use crate::util::{TestDir, stderr, stdout};

/// Seed 003 (the hashing lecture), address case 2: Jaccard 46/57 = 0.807
/// on character bigrams, and case 1: two unrelated addresses.
const CASE_2: [&str; 2] = [
    "One Stop Bakery, 1304 High St Rd, Wantirna, VIC, 3152",
    "One Stop Bakery, 1304 High Street Rd, Wantirna South, VIC, 3152",
];
const CASE_1: [&str; 2] = [
    "Burra Hotel, 5 Market Sq, Burra, SA, 5417",
    "Camping Country Superstore, 401 Pacific Hwy, Belmont North, NSW, 2280",
];

fn compare(pair: [&str; 2]) -> serde_json::Value {
    let dir = TestDir::new();
    dir.create("a.txt", pair[0]);
    dir.create("b.txt", pair[1]);
    let output = dir
        .simdup()
        .args([
            "compare",
            "a.txt",
            "b.txt",
            "--shingle",
            "chars:2",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn the_lecture_address_cases() {
    let near = compare(CASE_2);
    let far = compare(CASE_1);
    let jaccard = near["jaccard"].as_f64().unwrap();
    assert!((jaccard - 0.807).abs() < 0.08, "{jaccard}");
    assert!(far["jaccard"].as_f64().unwrap() < 0.2);
    let (near_distance, far_distance) = (
        near["distance"].as_u64().unwrap(),
        far["distance"].as_u64().unwrap(),
    );
    assert!(
        near_distance + 8 <= far_distance,
        "{near_distance} vs {far_distance}"
    );
    let similarity = near["similarity"].as_f64().unwrap();
    assert_eq!(similarity, 1.0 - near_distance as f64 / 64.0);
    for key in ["a", "b", "a_simhash", "b_simhash", "options", "digest"] {
        assert!(near[key].is_string(), "{key}");
    }
}

#[test]
fn text_output_names_each_figure() {
    let dir = TestDir::new();
    dir.create("a.txt", CASE_2[0]);
    let output = dir
        .simdup()
        .args(["compare", "a.txt", "-", "--shingle", "chars:2"])
        .write_stdin(CASE_2[0])
        .output()
        .unwrap();
    let text = stdout(&output);
    assert!(
        text.starts_with("distance    0\nsimilarity  1.000000\njaccard     1.000000\n"),
        "{text}"
    );
}

#[test]
fn a_missing_document_is_an_error() {
    let dir = TestDir::new();
    dir.create("a.txt", CASE_2[0]);
    let output = dir
        .simdup()
        .args(["compare", "a.txt", "nope.txt"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("nope.txt"));
}

#[test]
fn two_short_texts_are_compared_by_character_pairs_as_scan_and_explain_do() {
    let dir = TestDir::new();
    dir.create("a.txt", format!("{}\n", CASE_2[0]));
    dir.create("b.txt", format!("{}\n", CASE_2[1]));
    let json = |command: &str, extra: &[&str]| -> serde_json::Value {
        let output = dir
            .simdup()
            .args([command, "a.txt", "b.txt", "--format", "json"])
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        serde_json::from_slice(&output.stdout).unwrap()
    };
    let compared = json("compare", &[]);
    let explained = json("explain", &[]);
    assert_eq!(compared["short_texts"], true);
    assert_eq!(compared["jaccard"], explained["jaccard"]);
    assert!(compared["jaccard"].as_f64().unwrap() >= 0.8, "{compared}");
    assert_eq!(compared["digest"], explained["digest"]);
    assert!(
        compared["options"]
            .as_str()
            .unwrap()
            .starts_with("chars:2,"),
        "{compared}"
    );
    // Shingles chosen are used as given, whatever the length.
    let words = json("compare", &["--shingle", "words:3"]);
    assert_eq!(words["short_texts"], false);
    assert!(words["jaccard"].as_f64().unwrap() < 0.5, "{words}");
    let text = stdout(
        &dir.simdup()
            .args(["compare", "a.txt", "b.txt"])
            .output()
            .unwrap(),
    );
    assert!(
        text.ends_with(
            "compared    as two short texts, by character pairs (as scan compares them)\n"
        ),
        "{text}"
    );
}

/// A document without features (empty, or only blanks and punctuation)
/// has no Jaccard with anything, and the scan never pairs it: compare and
/// explain say which has none instead of a similarity, in text and JSON,
/// and exit 0 (both were read).
#[test]
fn documents_without_features_are_said_to_have_none() {
    let dir = TestDir::new();
    dir.create("empty.txt", "");
    dir.create("blank.txt", "  ...  \n\n -- \n");
    dir.create("full.txt", CASE_2[0]);
    let run = |args: &[&str]| {
        let output = dir.simdup().args(args).output().unwrap();
        assert_eq!(
            output.status.code(),
            Some(0),
            "{args:?}: {}",
            stderr(&output)
        );
        output
    };
    let nothing = "nothing to compare (scan never pairs a document without features)";
    for (a, b, who) in [
        (
            "empty.txt",
            "blank.txt",
            "empty.txt and blank.txt have no features",
        ),
        ("full.txt", "blank.txt", "blank.txt has no features"),
        ("empty.txt", "full.txt", "empty.txt has no features"),
    ] {
        // Text: the first line says it; no figure is printed.
        let text = stdout(&run(&["compare", a, b]));
        assert!(text.starts_with(&format!("{who}: {nothing}\n")), "{text}");
        assert!(
            text.contains("distance    -\nsimilarity  -\njaccard     -\n"),
            "{text}"
        );
        assert!(!text.contains("1.000"), "{text}");
        let text = stdout(&run(&["explain", a, b, "--color", "never"]));
        assert!(text.contains(&format!("\n  {who}: {nothing}\n")), "{text}");
        assert!(!text.contains("jaccard"), "{text}");
        assert!(!text.contains("1.000"), "{text}");
        // JSON: null figures, and a warning naming the documents.
        for command in ["compare", "explain"] {
            let output = run(&[command, a, b, "--format", "json"]);
            let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
            for key in ["distance", "similarity", "jaccard"] {
                assert!(value[key].is_null(), "{command} {key}: {value}");
            }
            if command == "explain" {
                assert!(value["a_in_b"].is_null(), "{value}");
                assert!(value["b_in_a"].is_null(), "{value}");
            }
            let warned = stderr(&output);
            assert!(
                warned.contains(&format!("warning: {who}: nothing to compare")),
                "{command}: {warned}"
            );
        }
    }
    // Two documents with features: figures, and nothing said.
    let output = run(&["compare", "full.txt", "full.txt", "--format", "json"]);
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(value["jaccard"], 1.0);
    assert_eq!(value["distance"], 0);
    assert!(stderr(&output).is_empty(), "{}", stderr(&output));
}
