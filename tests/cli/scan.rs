//! `simdup scan` on directories: pairs, groups, formats, exit codes,
//! determinism and pipes.

use serde::Deserialize;

use crate::util::{
    SHOPS, TestDir, edit, json_lines, run_and_close_pipe, saved_fingerprints, stderr, stdout, text,
};

/// A directory with one near-duplicate pair, one exact copy and unrelated text.
fn corpus() -> TestDir {
    let dir = TestDir::new();
    let original = text(1, 600);
    dir.create("docs/original.txt", &original);
    dir.create("docs/edited.txt", edit(&original, &[100]));
    dir.create("docs/nested/copy.txt", &original);
    dir.create("docs/other.txt", text(2, 600));
    dir.create("docs/third.txt", text(3, 300));
    dir
}

#[derive(Debug, Deserialize)]
struct JsonReport {
    version: u32,
    params: JsonParams,
    stats: JsonStats,
    pairs: Vec<JsonPair>,
    groups: Vec<JsonGroup>,
}

#[derive(Debug, Deserialize)]
struct JsonParams {
    method: String,
    max_distance: u32,
    exact: bool,
    features: String,
    digest: String,
}

#[derive(Debug, Deserialize)]
struct JsonStats {
    inputs: u64,
    fingerprinted: u64,
    skipped: std::collections::BTreeMap<String, u64>,
    errors: u64,
    bytes: u64,
    pairs_found: u64,
    seconds: std::collections::BTreeMap<String, f64>,
}

#[derive(Debug, Deserialize, PartialEq)]
struct JsonPair {
    a: String,
    b: String,
    distance: u32,
    similarity: f64,
    jaccard: Option<f64>,
}

#[derive(Debug, Deserialize)]
struct JsonGroup {
    id: usize,
    members: Vec<String>,
}

fn json_report(output: &std::process::Output) -> JsonReport {
    serde_json::from_slice(&output.stdout).expect("valid JSON report")
}

#[test]
fn finds_the_near_duplicates_and_only_them() {
    let dir = corpus();
    let output = dir
        .simdup()
        .args(["scan", "docs", "--raw", "-k", "6", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let report = json_report(&output);
    assert_eq!(report.version, 2);
    assert_eq!(report.params.method, "exact");
    assert_eq!(report.params.max_distance, 6);
    assert!(report.params.exact);
    assert!(report.params.features.starts_with("words:3"));
    assert!(!report.params.digest.is_empty());
    assert_eq!(report.stats.inputs, 5);
    assert_eq!(report.stats.fingerprinted, 5);
    assert_eq!(report.stats.errors, 0);
    assert!(report.stats.bytes > 8000);
    assert!(report.stats.seconds.contains_key("search"));
    let names: Vec<(&str, &str)> = report
        .pairs
        .iter()
        .map(|pair| (pair.a.as_str(), pair.b.as_str()))
        .collect();
    // Ids follow the walk: each directory's entries sorted by name, so
    // edited.txt, nested/copy.txt, original.txt; pairs sort by distance, a, b.
    assert_eq!(
        names,
        [
            ("docs/nested/copy.txt", "docs/original.txt"),
            ("docs/edited.txt", "docs/nested/copy.txt"),
            ("docs/edited.txt", "docs/original.txt"),
        ]
    );
    assert_eq!(report.pairs[0].distance, 0, "the exact copy sorts first");
    assert_eq!(report.pairs[0].similarity, 1.0);
    assert!(report.pairs[1].distance == report.pairs[2].distance);
    assert!(report.pairs[1].distance <= 6);
    assert_eq!(report.stats.pairs_found, 3);
    assert_eq!(report.groups.len(), 1);
    assert_eq!(report.groups[0].id, 1);
    assert_eq!(report.groups[0].members.len(), 3);
}

#[test]
fn table_lists_pairs_with_aligned_columns() {
    let dir = corpus();
    let output = dir
        .simdup()
        .args(["scan", "docs", "--raw", "-k", "6"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let table = stdout(&output);
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), 4, "{table}");
    assert!(lines[0].starts_with("distance  similarity  a"));
    assert!(
        lines[1]
            .trim_start()
            .starts_with("0      1.0000  docs/nested/copy.txt  docs/original.txt")
    );
    // The summary goes to stderr.
    assert!(
        stderr(&output).contains("5 inputs: 5 fingerprinted"),
        "{}",
        stderr(&output)
    );
    assert!(stderr(&output).contains("3 pairs in 1 group (k = 6, exact)"));
}

#[test]
fn groups_instead_of_pairs_in_every_format() {
    let dir = corpus();
    let table = dir
        .simdup()
        .args(["scan", "docs", "-k", "6", "--groups"])
        .output()
        .unwrap();
    assert_eq!(
        stdout(&table),
        "group 1: 3 documents\n  docs/edited.txt\n  docs/nested/copy.txt\n  docs/original.txt\n"
    );
    let lines = dir
        .simdup()
        .args(["scan", "docs", "-k", "6", "--groups", "--format", "jsonl"])
        .output()
        .unwrap();
    let groups = json_lines(&lines.stdout);
    assert_eq!(groups.len(), 1);
    assert_eq!(groups[0]["members"][2], "docs/original.txt");
    let csv = dir
        .simdup()
        .args(["scan", "docs", "-k", "6", "--groups", "--format", "csv"])
        .output()
        .unwrap();
    assert_eq!(
        stdout(&csv),
        "group,member\n1,docs/edited.txt\n1,docs/nested/copy.txt\n1,docs/original.txt\n"
    );
    let json = dir
        .simdup()
        .args(["scan", "docs", "-k", "6", "--groups", "--format", "json"])
        .output()
        .unwrap();
    let value: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert!(value.get("pairs").is_none());
    assert_eq!(value["groups"][0]["members"].as_array().unwrap().len(), 3);
}

#[test]
fn csv_has_a_header_and_quotes_names() {
    let dir = TestDir::new();
    let body = text(7, 400);
    dir.create("d/plain.txt", &body);
    dir.create("d/with, comma.txt", &body);
    let output = dir
        .simdup()
        .args(["scan", "d", "--raw", "--format", "csv"])
        .output()
        .unwrap();
    assert_eq!(
        stdout(&output),
        "a,b,distance,similarity\nd/plain.txt,\"d/with, comma.txt\",0,1\n"
    );
}

#[test]
fn exit_codes_follow_the_ci_switch() {
    let dir = corpus();
    let found = dir.simdup().args(["scan", "docs", "-q"]).output().unwrap();
    assert_eq!(found.status.code(), Some(0));
    assert!(found.stderr.is_empty(), "-q prints no summary");
    let failed = dir
        .simdup()
        .args(["scan", "docs", "-q", "--fail-on-duplicates"])
        .output()
        .unwrap();
    assert_eq!(failed.status.code(), Some(1));
    let clean = dir
        .simdup()
        .args([
            "scan",
            "docs/other.txt",
            "docs/third.txt",
            "--fail-on-duplicates",
        ])
        .output()
        .unwrap();
    assert_eq!(clean.status.code(), Some(0));
}

#[test]
fn a_missing_path_is_an_error_but_the_rest_is_reported() {
    let dir = corpus();
    let output = dir
        .simdup()
        .args([
            "scan",
            "docs",
            "no-such-dir",
            "--format",
            "jsonl",
            "-k",
            "6",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("no-such-dir"),
        "{}",
        stderr(&output)
    );
    assert_eq!(json_lines(&output.stdout).len(), 3);
}

#[test]
fn output_is_identical_with_one_or_two_threads() {
    let dir = TestDir::new();
    for index in 0..60 {
        let body = text(index / 3, 300 + (index as usize % 3));
        dir.create(&format!("d/{:02}/{index}.txt", index % 7), body);
    }
    let run = |threads: &str| {
        dir.simdup()
            .args(["scan", "d", "-k", "8", "--format", "jsonl", "-j", threads])
            .output()
            .unwrap()
    };
    let one = run("1");
    let two = run("2");
    assert_eq!(one.status.code(), Some(0));
    assert!(json_lines(&one.stdout).len() >= 20);
    assert_eq!(one.stdout, two.stdout);
    // The radius the cost model picks depends on the input alone, not on
    // the machine or the thread count.
    let chosen = |threads: &str| {
        let output = dir
            .simdup()
            .args(["scan", "d", "--format", "json", "-j", threads])
            .output()
            .unwrap();
        let mut report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        report["stats"]["seconds"] = serde_json::Value::Null;
        report
    };
    let (one, eight) = (chosen("1"), chosen("8"));
    assert_eq!(one["params"]["radius"]["chosen_by"], "cost model");
    assert_eq!(one, eight);
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let dir = TestDir::new();
    let body = text(11, 200);
    for index in 0..150 {
        dir.create(&format!("d/{index:03}.txt"), &body);
    }
    // 150 identical files make 11,175 pairs: far more than a pipe buffer.
    let (code, errors) = run_and_close_pipe(&dir, &["scan", "d"]);
    assert_eq!(code, Some(0), "{errors}");
    assert!(!errors.contains("panicked"), "{errors}");
    assert!(!errors.contains("Broken pipe"), "{errors}");
}

#[test]
fn pairs_have_exact_jaccard_and_min_jaccard_filters() {
    let dir = corpus();
    // Verified by default: --verify is for saved fingerprints only.
    let output = dir
        .simdup()
        .args(["scan", "docs", "-k", "6", "--format", "jsonl"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let pairs = json_lines(&output.stdout);
    assert_eq!(pairs.len(), 3);
    assert_eq!(pairs[0]["jaccard"], 1.0);
    let jaccard = pairs[1]["jaccard"].as_f64().unwrap();
    // One word of 600 replaced: 3 of ~598 word 3-shingles change.
    assert!(jaccard > 0.98 && jaccard < 1.0, "{jaccard}");

    let strict = dir
        .simdup()
        .args(["scan", "docs", "-k", "6", "--min-jaccard", "0.999"])
        .args(["--format", "jsonl"])
        .output()
        .unwrap();
    let pairs = json_lines(&strict.stdout);
    assert_eq!(pairs.len(), 1);
    assert_eq!(pairs[0]["distance"], 0);
}

#[test]
fn the_join_lists_every_pair_at_the_threshold_at_no_radius() {
    let dir = corpus();
    // A copy with a tenth of its words replaced: Jaccard about 0.5, its
    // fingerprint well apart.
    let original = text(1, 600);
    let positions: Vec<usize> = (0..original.split(' ').count()).step_by(10).collect();
    dir.create("docs/rewritten.txt", edit(&original, &positions));
    let scan = |args: &[&str]| {
        let output = dir
            .simdup()
            .args(["scan", "docs", "-t", "0.4", "--format", "json"])
            .args(args)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        output
    };
    let joined = scan(&["--method", "join"]);
    let report: serde_json::Value = serde_json::from_slice(&joined.stdout).unwrap();
    assert_eq!(report["params"]["method"], "join");
    assert_eq!(report["params"]["radius"]["chosen_by"], "exact join");
    // (Short texts have a clause of their own after it.)
    assert!(
        stderr(&joined).contains("verified; every pair, joined"),
        "{}",
        stderr(&joined)
    );
    let pairs = |report: &serde_json::Value| -> Vec<(String, String, f64)> {
        report["pairs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|pair| {
                let name = |key: &str| pair[key].as_str().unwrap().to_string();
                (name("a"), name("b"), pair["jaccard"].as_f64().unwrap())
            })
            .collect()
    };
    // Brute force at the widest radius compares every pair here.
    let every = scan(&["--method", "brute", "-k", "32"]);
    let every: serde_json::Value = serde_json::from_slice(&every.stdout).unwrap();
    assert_eq!(pairs(&report), pairs(&every));
    let far = |report: &serde_json::Value| {
        pairs(report)
            .into_iter()
            .filter(|pair| pair.0.contains("rewritten") || pair.1.contains("rewritten"))
            .count()
    };
    assert_eq!(
        far(&report),
        3,
        "the rewritten copy pairs with the original, its copy and the edit"
    );
    // A narrow radius misses them: the join is what finds them.
    let narrow = scan(&["-k", "3"]);
    let narrow: serde_json::Value = serde_json::from_slice(&narrow.stdout).unwrap();
    assert_eq!(far(&narrow), 0);
    // Saved fingerprints in the text format carry no feature counts: the
    // join counts them as it reads the documents again.
    dir.create("fp.txt", saved_fingerprints(&dir, "docs", "text"));
    let saved = dir
        .simdup()
        .args([
            "scan",
            "--fingerprints",
            "fp.txt",
            "--verify",
            "--method",
            "join",
        ])
        .args(["-t", "0.4", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(saved.status.code(), Some(0), "{}", stderr(&saved));
    let saved: serde_json::Value = serde_json::from_slice(&saved.stdout).unwrap();
    assert_eq!(saved["params"]["radius"]["chosen_by"], "exact join");
    assert_eq!(pairs(&saved), pairs(&report));
    // More pairs than may be held: searched by fingerprint, and said so.
    let capped = scan(&["--method", "join", "--max-candidates", "2"]);
    assert!(
        stderr(&capped).contains(
            "warning: more than --max-candidates 2 pairs of documents: searching them by \
             fingerprint instead"
        ),
        "{}",
        stderr(&capped)
    );
    let capped: serde_json::Value = serde_json::from_slice(&capped.stdout).unwrap();
    assert_ne!(capped["params"]["radius"]["chosen_by"], "exact join");
}

#[test]
fn short_documents_match_only_by_exact_content() {
    let dir = TestDir::new();
    dir.create("d/a.txt", "one two three four");
    dir.create("d/b.txt", "one two three four");
    dir.create("d/c.txt", "one two three five");
    dir.create("d/empty.txt", "");
    dir.create("d/empty2.txt", "  ...  ");
    let output = dir
        .simdup()
        .args([
            "scan",
            "d",
            "-k",
            "32",
            "--min-features",
            "8",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    let report = json_report(&output);
    assert_eq!(report.pairs.len(), 1, "{:?}", report.pairs);
    assert_eq!(
        (report.pairs[0].a.as_str(), report.pairs[0].b.as_str()),
        ("d/a.txt", "d/b.txt")
    );
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(value["stats"]["too_short"], 3);
    assert_eq!(value["stats"]["empty"], 2);
    assert_eq!(value["stats"]["inputs"], 5);
}

#[test]
fn every_input_is_accounted_for() {
    let dir = TestDir::new();
    dir.create("d/a.txt", text(1, 300));
    dir.create("d/b.bin", b"abc\0def");
    dir.create("d/.hidden.txt", text(1, 300));
    dir.create("d/empty.txt", "");
    dir.create("d/short.txt", "tiny");
    let output = dir
        .simdup()
        .args(["scan", "d", "--format", "json"])
        .output()
        .unwrap();
    let report = json_report(&output);
    let stats = &report.stats;
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let accounted = stats.fingerprinted
        + value["stats"]["too_short"].as_u64().unwrap()
        + value["stats"]["empty"].as_u64().unwrap()
        + stats.skipped.values().sum::<u64>()
        + stats.errors;
    assert_eq!(stats.inputs, 5);
    assert_eq!(accounted, stats.inputs);
    assert_eq!(stats.skipped.get("binary"), Some(&1));
    assert_eq!(stats.skipped.get("hidden"), Some(&1));
}

#[test]
fn bad_arguments_exit_2_before_any_work() {
    let dir = corpus();
    for args in [
        vec!["scan", "docs", "-k", "65"],
        vec!["scan", "docs", "--shingle", "words:0"],
        vec!["scan", "docs", "--shingle", "chars:x"],
        vec!["scan", "docs", "--min-jaccard", "2", "--verify"],
        vec!["scan", "docs", "--method", "fastest"],
        vec!["scan", "docs", "--method", "join", "--raw"],
    ] {
        let output = dir.simdup().args(&args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
        assert!(!stderr(&output).is_empty(), "{args:?}");
    }
}

#[test]
fn max_pairs_caps_the_list_and_says_so() {
    let dir = TestDir::new();
    let body = text(21, 200);
    for index in 0..6 {
        dir.create(&format!("d/{index}.txt"), &body);
    }
    let output = dir
        .simdup()
        .args(["scan", "d", "--max-pairs", "4", "--format", "json", "-q"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let report = json_report(&output);
    assert_eq!(report.pairs.len(), 4);
    assert_eq!(report.stats.pairs_found, 15);
    assert_eq!(report.groups[0].members.len(), 6, "groups stay whole");
    assert!(
        stderr(&output).contains("listing 4 of 15 pairs"),
        "{}",
        stderr(&output)
    );
}

/// See: #9. Colour only when asked or on a terminal; never in a pipe.
#[test]
fn colour_only_when_asked_or_on_a_terminal() {
    let run = |args: &[&str], no_color: bool| {
        let mut command = crate::util::simdup();
        command
            .current_dir(crate::util::repo())
            .args(["scan", "fixtures/corpus"])
            .args(args);
        if no_color {
            command.env("NO_COLOR", "1");
        } else {
            command.env_remove("NO_COLOR");
        }
        command.output().unwrap()
    };
    let escape = |bytes: &[u8]| bytes.contains(&0x1b);
    let piped = run(&[], false);
    assert!(!escape(&piped.stdout) && !escape(&piped.stderr));
    let always = run(&["--color", "always"], false);
    assert!(escape(&always.stdout) && escape(&always.stderr));
    let never = run(&["--color", "never"], false);
    assert!(!escape(&never.stdout));
    // NO_COLOR turns off what auto would choose; an explicit choice wins.
    let auto = run(&["--color", "auto"], true);
    assert!(!escape(&auto.stdout));
    let stripped: Vec<u8> = String::from_utf8(always.stdout)
        .unwrap()
        .split('\u{1b}')
        .enumerate()
        .map(|(i, part)| {
            if i == 0 {
                part
            } else {
                part.split_once('m').map_or("", |(_, rest)| rest)
            }
        })
        .collect::<String>()
        .into_bytes();
    assert_eq!(
        stripped, piped.stdout,
        "colour changes nothing but the escapes"
    );
}

/// See: #8. Verification holds every candidate pair, so their number is
/// capped: a given radius past the cap is an error, a chosen one narrows.
#[test]
fn candidates_past_the_cap_narrow_a_chosen_radius_and_refuse_a_given_one() {
    let repo = crate::util::repo();
    let given = crate::util::simdup()
        .current_dir(&repo)
        .args([
            "scan",
            "fixtures/corpus",
            "-k",
            "20",
            "--max-candidates",
            "5",
        ])
        .output()
        .unwrap();
    assert_eq!(given.status.code(), Some(2));
    assert!(
        stderr(&given).contains("more than --max-candidates 5"),
        "{}",
        stderr(&given)
    );
    assert!(stdout(&given).is_empty());
    let chosen = crate::util::simdup()
        .current_dir(&repo)
        .args([
            "scan",
            "fixtures/corpus",
            "--max-candidates",
            "5",
            "--format",
            "json",
            "-v",
        ])
        .output()
        .unwrap();
    assert_eq!(chosen.status.code(), Some(0), "{}", stderr(&chosen));
    assert!(
        stderr(&chosen).contains("searching within k ="),
        "{}",
        stderr(&chosen)
    );
    let report: serde_json::Value = serde_json::from_slice(&chosen.stdout).unwrap();
    assert!(report["params"]["max_distance"].as_u64().unwrap() < 20);
    let uncapped = crate::util::simdup()
        .current_dir(&repo)
        .args(["scan", "fixtures/corpus", "--format", "json"])
        .output()
        .unwrap();
    let uncapped: serde_json::Value = serde_json::from_slice(&uncapped.stdout).unwrap();
    assert!(report["stats"]["candidates"].as_u64() < uncapped["stats"]["candidates"].as_u64());
}

/// `--short-texts bands` finds the pairs of short texts by their MinHash
/// bands, without the join, and the report says so.
#[test]
fn short_texts_are_found_by_bands_when_told() {
    let dir = TestDir::new();
    dir.create("shops.txt", SHOPS);
    let scan = |format: &str| {
        let output = dir
            .simdup()
            .args([
                "scan",
                "--records",
                "lines",
                "shops.txt",
                "--short-texts",
                "bands",
            ])
            .args(["--format", format])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        output
    };
    let output = scan("json");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let short = &report["params"]["radius"]["short_texts"];
    assert_eq!(short["search"], "bands", "{report}");
    assert!(short.get("max_distance").is_none(), "{report}");
    assert_eq!(report["pairs"].as_array().unwrap().len(), 1, "{report}");
    assert_eq!(report["pairs"][0]["a"], "1", "{report}");
    assert_eq!(report["pairs"][0]["b"], "3", "{report}");
    // Not the same features: found by the bands, not as one class.
    assert!(
        report["pairs"][0]["jaccard"].as_f64().unwrap() < 1.0,
        "{report}"
    );
    let summary = stderr(&scan("table"));
    assert!(
        summary.contains("short texts by MinHash bands, expected recall 0.947"),
        "{summary}"
    );
}

/// Short texts whose bands would make more pairs than --max-candidates
/// (lines of one format) are searched by fingerprint instead, and -v says
/// why.
#[test]
fn crowded_bands_give_way_to_fingerprints() {
    let dir = TestDir::new();
    let lines: String = (0..64)
        .map(|n| {
            format!(
                "user {} logged in from host alpha at 10:{:02}\n",
                1000 + n,
                n
            )
        })
        .collect();
    dir.create("log.txt", lines);
    let output = dir
        .simdup()
        .args([
            "scan",
            "--records",
            "lines",
            "log.txt",
            "--short-texts",
            "bands",
        ])
        .args(["--max-candidates", "10", "-v", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let said = stderr(&output);
    assert!(
        said.contains(
            "the short texts' MinHash bands would hold more than --max-candidates 10 pairs, \
             or compare more than 16 times as many: searching them by fingerprint instead"
        ),
        "{said}"
    );
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        report["params"]["radius"]["short_texts"]["search"], "simhash",
        "{report}"
    );
}
