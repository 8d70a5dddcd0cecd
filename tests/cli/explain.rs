//! `simdup explain`: figures, shared passages and unique lines, on the
//! fixtures' near-copies.

use crate::util::{TestDir, repo, stdout};

fn fixture(path: &str) -> String {
    repo()
        .join("fixtures/corpus")
        .join(path)
        .display()
        .to_string()
}

#[test]
fn a_footer_copy_shares_every_line_but_its_footer() {
    let output = crate::util::simdup()
        .args([
            "explain",
            &fixture("repair-cafe.txt"),
            &fixture("copies/repair-cafe-footer.txt"),
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(value["a_in_b"], 1.0);
    assert!(value["b_in_a"].as_f64().unwrap() < 1.0);
    assert!(value["jaccard"].as_f64().unwrap() >= 0.8);
    let (a, b) = (
        value["a_features"].as_f64().unwrap(),
        value["b_features"].as_f64().unwrap(),
    );
    let common = value["common_features"].as_f64().unwrap();
    assert_eq!(value["b_in_a"].as_f64().unwrap(), common / b);
    assert_eq!(
        value["jaccard"].as_f64().unwrap(),
        common / (a + b - common)
    );
    assert_eq!(
        value["passages"],
        serde_json::json!([{"a": {"start": 1, "end": 30}, "b": {"start": 1, "end": 30}}])
    );
    assert_eq!(value["unique_a"], serde_json::json!([]));
    assert_eq!(
        value["unique_b"],
        serde_json::json!([{"start": 32, "end": 34}])
    );
    for key in ["distance", "similarity", "shared_b", "options", "digest"] {
        assert!(value.get(key).is_some(), "{key}");
    }
}

#[test]
fn text_names_the_ranges_and_shows_unique_lines_without_colour_in_a_pipe() {
    let output = crate::util::simdup()
        .args([
            "explain",
            &fixture("repair-cafe.txt"),
            &fixture("copies/repair-cafe-footer.txt"),
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let text = stdout(&output);
    assert!(!text.contains('\u{1b}'), "no colour in a pipe: {text}");
    assert!(text.contains("lines 1-30  =  "), "{text}");
    assert!(text.contains("Unique to "), "{text}");
    assert!(text.contains("   33 | This newsletter is sent"), "{text}");
    assert!(text.contains("jaccard     0.9"), "{text}");
}

#[test]
fn colour_when_asked_and_never_with_no_color_on_auto() {
    let args = [
        "explain",
        &fixture("repair-cafe.txt"),
        &fixture("copies/repair-cafe-1pct.txt"),
    ];
    let always = crate::util::simdup()
        .args(args)
        .args(["--color", "always"])
        .output()
        .unwrap();
    assert!(stdout(&always).contains('\u{1b}'));
    let auto = crate::util::simdup()
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(!stdout(&auto).contains('\u{1b}'));
}

#[test]
fn one_sided_sharing_and_feature_options_apply() {
    let dir = TestDir::new();
    dir.create("a.txt", "The Quick brown fox jumps over the lazy dog\n");
    dir.create(
        "b.txt",
        "the quick brown fox\nsomething else entirely here\n",
    );
    let output = dir
        .simdup()
        .args(["explain", "a.txt", "b.txt", "--format", "json"])
        .output()
        .unwrap();
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    // b's first line is all in a; a's line holds much more than b has.
    assert_eq!(value["passages"], serde_json::json!([]));
    assert_eq!(
        value["shared_b"],
        serde_json::json!([{"start": 1, "end": 1}])
    );
    assert_eq!(
        value["unique_a"],
        serde_json::json!([{"start": 1, "end": 1}])
    );
    assert_eq!(
        value["unique_b"],
        serde_json::json!([{"start": 2, "end": 2}])
    );
    let sensitive = dir
        .simdup()
        .args([
            "explain",
            "a.txt",
            "b.txt",
            "--format",
            "json",
            "--case-sensitive",
        ])
        .output()
        .unwrap();
    let value: serde_json::Value = serde_json::from_slice(&sensitive.stdout).unwrap();
    assert!(value["common_features"].as_u64().unwrap() < 2);
    let missing = dir
        .simdup()
        .args(["explain", "a.txt", "nope.txt"])
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
}

#[test]
fn sarif_regions_are_the_first_passage_explain_finds() {
    let dir = TestDir::new();
    let shared = crate::util::text(7, 240);
    dir.create(
        "a.txt",
        format!("A title\nan introduction only the first file has here\n\n{shared}"),
    );
    dir.create(
        "b.txt",
        format!("{shared}\na closing remark that only the second file makes\n"),
    );
    let explained = dir
        .simdup()
        .args(["explain", "a.txt", "b.txt", "--format", "json"])
        .output()
        .unwrap();
    let explained: serde_json::Value = serde_json::from_slice(&explained.stdout).unwrap();
    let passage = &explained["passages"][0];
    assert_eq!(passage["a"]["start"], 4);
    assert_eq!(passage["b"]["start"], 1);
    let output = dir
        .simdup()
        .args(["scan", ".", "--format", "sarif"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let log: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let result = &log["runs"][0]["results"][0];
    let region = |side: usize| {
        let location = &result["locations"][side]["physicalLocation"];
        (
            location["artifactLocation"]["uri"].clone(),
            location["region"].clone(),
        )
    };
    let expected = |range: &serde_json::Value| serde_json::json!({"startLine": range["start"], "endLine": range["end"]});
    assert_eq!(region(0), ("a.txt".into(), expected(&passage["a"])));
    assert_eq!(region(1), ("b.txt".into(), expected(&passage["b"])));
}

/// Two short texts are explained by their character pairs, as scan
/// compares them: the same Jaccard scan reports for the pair.
#[test]
fn two_short_texts_are_explained_by_character_pairs() {
    let dir = TestDir::new();
    dir.create(
        "a.txt",
        "One Stop Bakery, 1304 High St Rd, Wantirna, VIC, 3152\n",
    );
    dir.create(
        "b.txt",
        "One Stop Bakery, 1304 High Street Rd, Wantirna South, VIC, 3152\n",
    );
    let explain = |extra: &[&str]| {
        let output = dir
            .simdup()
            .args(["explain", "a.txt", "b.txt", "--format", "json"])
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0));
        serde_json::from_slice::<serde_json::Value>(&output.stdout).unwrap()
    };
    let explained = explain(&[]);
    assert_eq!(explained["short_texts"], true);
    assert!(
        explained["options"]
            .as_str()
            .unwrap()
            .starts_with("chars:2,"),
        "{explained}"
    );
    let scanned = dir
        .simdup()
        .args(["scan", "a.txt", "b.txt", "--format", "jsonl"])
        .output()
        .unwrap();
    let pair: serde_json::Value = serde_json::from_slice(&scanned.stdout).unwrap();
    assert_eq!(explained["jaccard"], pair["jaccard"]);
    assert_eq!(explained["distance"], pair["distance"]);
    // Chosen shingles apply to every pair, short texts too.
    let worded = explain(&["--shingle", "words:3"]);
    assert_eq!(worded["short_texts"], false);
    assert!(worded["jaccard"].as_f64().unwrap() < 0.5, "{worded}");
}
