//! CI mode of `simdup scan`: ignore files, baselines, SARIF and the
//! annotation formats (issue 11).

use crate::util::{TestDir, stderr, stdout, text};

/// Runs `simdup scan ARGS` in `dir` and returns the output.
fn scan(dir: &TestDir, args: &[&str]) -> std::process::Output {
    dir.simdup().arg("scan").args(args).output().unwrap()
}

/// Parses the JSON document of a run.
fn json(output: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|error| panic!("{error}: {}\n{}", stdout(output), stderr(output)))
}

/// The pairs of a JSON document, as `a b` strings.
fn pairs(value: &serde_json::Value) -> Vec<String> {
    value["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|pair| {
            format!(
                "{} {}",
                pair["a"].as_str().unwrap(),
                pair["b"].as_str().unwrap()
            )
        })
        .collect()
}

#[test]
fn ignore_files_keep_build_output_out_of_a_repository_scan() {
    let dir = TestDir::new();
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    let doc = text(1, 300);
    dir.create("docs/guide.md", &doc);
    dir.create("build/guide.md", &doc);
    dir.create("docs/gen/api.md", &doc);
    dir.create("docs/gen/keep.md", &doc);
    dir.create(".gitignore", "/build/\n");
    dir.create("docs/.ignore", "gen/*\n!gen/keep.md\n");
    let output = scan(&dir, &[".", "--format", "json"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let value = json(&output);
    assert_eq!(pairs(&value), ["./docs/gen/keep.md ./docs/guide.md"]);
    assert_eq!(value["stats"]["skipped"]["ignored"], 2);
    assert_eq!(value["stats"]["errors"], 0);

    // From below the repository top, its .gitignore still applies.
    let output = dir
        .simdup()
        .current_dir(dir.path().join("docs"))
        .args(["scan", "..", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(pairs(&json(&output)).len(), 1, "{}", stdout(&output));

    // --no-ignore reads everything.
    let output = scan(&dir, &[".", "--no-ignore", "--format", "json"]);
    let value = json(&output);
    assert_eq!(value["stats"]["fingerprinted"], 4);
    assert_eq!(pairs(&value).len(), 6);
    assert!(value["stats"]["skipped"].get("ignored").is_none());
}

#[test]
fn gitignore_outside_a_repository_is_not_honoured() {
    let dir = TestDir::new();
    let doc = text(2, 300);
    dir.create("a.md", &doc);
    dir.create("build/a.md", &doc);
    dir.create(".gitignore", "build/\n");
    let output = scan(&dir, &[".", "--format", "json"]);
    assert_eq!(pairs(&json(&output)), ["./a.md ./build/a.md"]);
    dir.create(".simdupignore", "build/\n");
    let output = scan(&dir, &[".", "--format", "json"]);
    assert!(pairs(&json(&output)).is_empty());
    assert!(
        stderr(&output).contains("ignored 1)"),
        "{}",
        stderr(&output)
    );
}
