//! CI mode of `simdup scan`: ignore files, baselines, SARIF and the
//! annotation formats (issue 11).

use crate::util::{TestDir, edit, stderr, stdout, text};

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
fn the_global_git_excludes_and_a_worktrees_exclude_are_honoured() {
    let dir = TestDir::new();
    let doc = text(4, 300);
    // A worktree of a repository: .git is a file naming its directory.
    dir.create("main/.git/info/exclude", "*.orig\n");
    dir.create("main/.git/worktrees/wt/commondir", "../..\n");
    dir.create("wt/.git", "gitdir: ../main/.git/worktrees/wt\n");
    dir.create("wt/a.md", &doc);
    dir.create("wt/a.md.orig", &doc);
    dir.create("wt/a.md.bak", &doc);
    // The global excludes file, at its default place under the home.
    dir.create(".config/git/ignore", "*.bak\n");
    let output = scan(&dir, &["wt", "--format", "json"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let value = json(&output);
    assert_eq!(value["stats"]["skipped"]["ignored"], 2);
    assert!(pairs(&value).is_empty());
    let output = scan(&dir, &["wt", "--no-ignore", "--format", "json"]);
    assert_eq!(pairs(&json(&output)).len(), 3);
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

#[test]
fn a_bad_line_of_an_ignore_file_is_a_warning_naming_it_once() {
    let dir = TestDir::new();
    let doc = text(3, 300);
    dir.create("d/a.md", &doc);
    dir.create("d/b.md", &doc);
    dir.create("d/c.log", &doc);
    dir.create("d/e.tmp", &doc);
    dir.create("d/.simdupignore", "[bad\n*.log\n");
    dir.create("d/.ignore", b"*.tmp\n\xff\n");
    let output = scan(&dir, &["d", "--format", "json"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    // The valid lines still apply.
    assert_eq!(pairs(&json(&output)), ["d/a.md d/b.md"]);
    let errors = stderr(&output);
    let warnings: Vec<&str> = errors
        .lines()
        .filter(|line| line.starts_with("simdup: warning:"))
        .collect();
    assert_eq!(warnings.len(), 2, "{errors}");
    let simdupignore = warnings.iter().find(|w| w.contains(".simdupignore"));
    let simdupignore = simdupignore.unwrap_or_else(|| panic!("{errors}"));
    assert!(
        simdupignore.contains("/d/.simdupignore: line 1: error parsing glob '[bad'"),
        "{errors}"
    );
    let ignore = warnings.iter().find(|w| w.contains("/d/.ignore")).unwrap();
    assert!(ignore.contains("/d/.ignore: line 2: "), "{errors}");
    for warning in warnings {
        assert_eq!(warning.matches("ignore:").count(), 1, "{warning}");
    }
}

/// A repository with two accepted near-duplicate pairs in docs/.
fn accepted_duplicates() -> TestDir {
    let dir = TestDir::new();
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    let a = text(10, 400);
    let c = text(11, 400);
    dir.create("docs/a.md", &a);
    dir.create("docs/b.md", edit(&a, &[5, 50, 100]));
    dir.create("docs/c.md", &c);
    dir.create("docs/d.md", edit(&c, &[9, 90, 190]));
    dir.create("docs/unique.md", text(12, 400));
    dir
}

fn baseline_summary(output: &std::process::Output) -> serde_json::Value {
    json(output)["baseline"].clone()
}

#[test]
fn baseline_accepts_renames_and_edits_and_fails_on_new_copies() {
    let dir = accepted_duplicates();
    let write = scan(
        &dir,
        &["docs", "--write-baseline", "simdup.baseline", "-j", "1"],
    );
    assert_eq!(write.status.code(), Some(0), "{}", stderr(&write));
    let recorded = std::fs::read_to_string(dir.path().join("simdup.baseline")).unwrap();
    let lines: Vec<&str> = recorded.lines().collect();
    assert_eq!(lines[0], "# simdup baseline v1");
    assert!(lines[1].starts_with("# features words:3,"), "{recorded}");
    assert_eq!(lines.len(), 4, "{recorded}");
    assert!(lines[2].starts_with("docs/a.md\tdocs/b.md\t"), "{recorded}");
    assert!(lines[3].starts_with("docs/c.md\tdocs/d.md\t"), "{recorded}");
    // Writing a baseline accepts what it writes: --fail-on-duplicates
    // (from a config, say) fails only for the pairs it could not write.
    let accepting = scan(
        &dir,
        &[
            "docs",
            "--write-baseline",
            "x.baseline",
            "--fail-on-duplicates",
        ],
    );
    assert_eq!(accepting.status.code(), Some(0), "{}", stderr(&accepting));
    let cut = [
        "docs",
        "--write-baseline",
        "x.baseline",
        "--fail-on-duplicates",
        "--max-pairs",
        "1",
    ];
    assert_eq!(scan(&dir, &cut).status.code(), Some(1));
    // The same file with any thread count.
    scan(
        &dir,
        &["docs", "--write-baseline", "again.baseline", "-j", "2"],
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("again.baseline")).unwrap(),
        recorded
    );

    let check = [
        "docs",
        "--baseline",
        "simdup.baseline",
        "--fail-on-duplicates",
    ];
    let json_check = [&check[..], &["--format", "json"]].concat();
    // 1. Accepted duplicates: exit 0, nothing listed.
    let output = scan(&dir, &check);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout(&output), "");
    assert!(
        stderr(&output).contains("baseline simdup.baseline: 2 accepted, 0 new"),
        "{}",
        stderr(&output)
    );

    // 2. A rename and a small edit keep both pairs accepted.
    std::fs::create_dir(dir.path().join("docs/moved")).unwrap();
    std::fs::rename(
        dir.path().join("docs/a.md"),
        dir.path().join("docs/moved/renamed.md"),
    )
    .unwrap();
    let d = std::fs::read_to_string(dir.path().join("docs/d.md")).unwrap();
    dir.create("docs/d.md", edit(&d, &[300]));
    let output = scan(&dir, &json_check);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let summary = baseline_summary(&output);
    assert_eq!(
        (summary["accepted"].as_u64(), summary["new"].as_u64()),
        (Some(2), Some(0))
    );
    assert_eq!(summary["stale"], serde_json::json!([]));
    assert_eq!(json(&output)["pairs"], serde_json::json!([]));

    // 3. A new near-copy of an accepted document: exit 1, only the new
    // pairs listed, in every format.
    let c = std::fs::read_to_string(dir.path().join("docs/c.md")).unwrap();
    dir.create("docs/e.md", edit(&c, &[33]));
    let output = scan(&dir, &json_check);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let value = json(&output);
    assert_eq!(
        pairs(&value),
        ["docs/c.md docs/e.md", "docs/d.md docs/e.md"]
    );
    assert_eq!(value["baseline"]["accepted"], 2);
    assert_eq!(value["baseline"]["new"], 2);
    let table = scan(&dir, &check);
    assert_eq!(table.status.code(), Some(1));
    let rows: Vec<String> = stdout(&table).lines().skip(1).map(String::from).collect();
    assert_eq!(rows.len(), 2, "{}", stdout(&table));
    assert!(
        rows.iter().all(|line| line.ends_with("docs/e.md")),
        "{rows:?}"
    );
    let groups = scan(&dir, &[&json_check[..], &["--groups"]].concat());
    let value = json(&groups);
    let groups = value["groups"].clone();
    assert_eq!(groups.as_array().unwrap().len(), 1, "{groups}");
    assert_eq!(groups[0]["members"].as_array().unwrap().len(), 3);
    // Numbered from 1 among those listed; the count is of all found.
    assert_eq!(groups[0]["id"], 1, "{groups}");
    assert_eq!(value["stats"]["groups"], 2);
    let csv = scan(&dir, &[&check[..], &["--format", "csv"]].concat());
    assert_eq!(stdout(&csv).lines().count(), 3);
    // Without --fail-on-duplicates, new pairs do not fail the run.
    let output = scan(&dir, &["docs", "--baseline", "simdup.baseline"]);
    assert_eq!(output.status.code(), Some(0));
}

#[test]
fn stale_entries_are_reported_and_update_baseline_drops_them() {
    let dir = accepted_duplicates();
    scan(&dir, &["docs", "--write-baseline", "simdup.baseline"]);
    std::fs::remove_file(dir.path().join("docs/b.md")).unwrap();
    std::fs::rename(dir.path().join("docs/c.md"), dir.path().join("docs/c2.md")).unwrap();
    let check = [
        "docs",
        "--baseline",
        "simdup.baseline",
        "--fail-on-duplicates",
    ];
    let output = scan(&dir, &[&check[..], &["--format", "json"]].concat());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let summary = baseline_summary(&output);
    assert_eq!(summary["accepted"], 1);
    assert_eq!(
        summary["stale"],
        serde_json::json!([{"a": "docs/a.md", "b": "docs/b.md"}])
    );
    assert_eq!(summary["updated"], false);
    assert!(stderr(&output).contains("1 stale"), "{}", stderr(&output));
    assert!(stderr(&output).contains("simdup: stale: docs/a.md docs/b.md"));

    let output = scan(&dir, &[&check[..], &["--update-baseline"]].concat());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let rewritten = std::fs::read_to_string(dir.path().join("simdup.baseline")).unwrap();
    let entries: Vec<&str> = rewritten.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(entries.len(), 1, "{rewritten}");
    assert!(
        entries[0].starts_with("docs/c2.md\tdocs/d.md\t"),
        "{rewritten}"
    );
    let output = scan(&dir, &[&check[..], &["--format", "json"]].concat());
    assert_eq!(baseline_summary(&output)["stale"], serde_json::json!([]));
    assert_eq!(baseline_summary(&output)["accepted"], 1);
}

#[test]
fn baseline_errors() {
    let dir = accepted_duplicates();
    // A missing or foreign baseline is an error, not an empty baseline.
    let output = scan(
        &dir,
        &["docs", "--baseline", "missing", "--fail-on-duplicates"],
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("cannot read the baseline missing"),
        "{}",
        stderr(&output)
    );
    dir.create("foreign", "a\tb\n");
    let output = scan(&dir, &["docs", "--baseline", "foreign"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("foreign:1: not a simdup baseline"));
    // A digest or a key that is not 16 hexadecimal digits names its line.
    scan(&dir, &["docs", "--write-baseline", "written"]);
    let written = std::fs::read_to_string(dir.path().join("written")).unwrap();
    let digest = written
        .lines()
        .nth(1)
        .unwrap()
        .rsplit_once("digest=")
        .unwrap()
        .1;
    let entry = written.lines().nth(2).unwrap();
    let key = entry.rsplit_once('\t').unwrap().1;
    for (edited, line) in [
        (written.replace(digest, "zzz"), 2),
        (written.replacen(key, &format!("+{}", &key[1..]), 1), 3),
    ] {
        dir.create("edited", edited);
        let output = scan(&dir, &["docs", "--baseline", "edited"]);
        assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
        let errors = stderr(&output);
        assert!(
            errors.contains(&format!("edited:{line}: not a simdup baseline")),
            "{errors}"
        );
        assert!(errors.contains("16 hexadecimal digits"), "{errors}");
    }
    let output = scan(&dir, &["--update-baseline", "docs"]);
    assert_eq!(output.status.code(), Some(2));
    let output = dir
        .simdup()
        .args(["scan", "-", "--write-baseline", "b"])
        .write_stdin("x\n")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("need documents read from files"));
}

/// Checks what the SARIF 2.1.0 schema requires of the parts simdup
/// writes: a log has `version` and `runs`; a run has `tool.driver.name`;
/// a rule has `id`; a result has `message.text`; a physical location has
/// an artifact location with a `uri`, and a region's `startLine` is at
/// least 1; `level` is one of the schema's values.
fn assert_sarif_shape(value: &serde_json::Value) {
    assert_eq!(value["version"], "2.1.0");
    assert_eq!(
        value["$schema"],
        "https://json.schemastore.org/sarif-2.1.0.json"
    );
    let runs = value["runs"].as_array().expect("runs is an array");
    assert_eq!(runs.len(), 1);
    let driver = &runs[0]["tool"]["driver"];
    assert!(driver["name"].is_string());
    let rules = driver["rules"].as_array().unwrap();
    assert!(rules.iter().all(|rule| rule["id"].is_string()));
    for result in runs[0]["results"].as_array().expect("results is an array") {
        assert!(result["message"]["text"].is_string(), "{result}");
        assert!(["none", "note", "warning", "error"].contains(&result["level"].as_str().unwrap()));
        let rule = result["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[rule]["id"], result["ruleId"]);
        let locations = result["locations"].as_array().unwrap();
        assert_eq!(locations.len(), 2, "{result}");
        for location in locations {
            let physical = &location["physicalLocation"];
            assert!(
                physical["artifactLocation"]["uri"].is_string(),
                "{location}"
            );
            assert!(physical["region"]["startLine"].as_u64().unwrap() >= 1);
        }
        if let Some(fingerprints) = result.get("partialFingerprints") {
            assert!(
                fingerprints
                    .as_object()
                    .unwrap()
                    .values()
                    .all(|v| v.is_string())
            );
        }
    }
}

#[test]
fn sarif_has_one_result_per_pair_and_stable_fingerprints() {
    let dir = accepted_duplicates();
    let run = |dir: &TestDir, threads: &str| {
        let output = scan(dir, &["./docs", "--format", "sarif", "-j", threads]);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        output.stdout
    };
    let first = run(&dir, "1");
    assert_eq!(run(&dir, "2"), first, "SARIF depends on the thread count");
    let value: serde_json::Value = serde_json::from_slice(&first).unwrap();
    assert_sarif_shape(&value);
    let results = value["runs"][0]["results"].as_array().unwrap().clone();
    assert_eq!(results.len(), 2);
    let uri = |result: &serde_json::Value, side: usize| {
        result["locations"][side]["physicalLocation"]["artifactLocation"]["uri"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let ab = results
        .iter()
        .find(|result| uri(result, 0) == "docs/a.md")
        .expect("the pair of a.md");
    assert_eq!(uri(ab, 1), "docs/b.md");
    assert_eq!(ab["ruleId"], "near-duplicate");
    assert!(
        ab["message"]["text"]
            .as_str()
            .unwrap()
            .contains("Jaccard 0."),
        "{}",
        ab["message"]
    );
    let fingerprint = ab["partialFingerprints"]["simdupPair/v1"].clone();
    assert!(fingerprint.is_string());

    // A rename keeps the fingerprint, so code scanning keeps the alert.
    std::fs::rename(dir.path().join("docs/a.md"), dir.path().join("docs/z.md")).unwrap();
    let value: serde_json::Value = serde_json::from_slice(&run(&dir, "1")).unwrap();
    let renamed = value["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|result| uri(result, 1) == "docs/z.md")
        .expect("the renamed pair")
        .clone();
    assert_eq!(renamed["partialFingerprints"]["simdupPair/v1"], fingerprint);

    // With a baseline, only the new pairs are results.
    scan(&dir, &["docs", "--write-baseline", "b.txt"]);
    dir.create("docs/e.md", text(10, 400));
    let output = scan(&dir, &["docs", "--baseline", "b.txt", "--format", "sarif"]);
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_sarif_shape(&value);
    let results = value["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 2, "{value}");
    assert!(
        results
            .iter()
            .all(|result| uri(result, 0) == "docs/e.md" || uri(result, 1) == "docs/e.md")
    );
}

/// Compares output with a golden file in tests/cli/golden/; with
/// `SIMDUP_BLESS=1`, rewrites the file instead.
pub fn golden(name: &str, output: &[u8]) {
    let path = crate::util::repo().join("tests/cli/golden").join(name);
    if std::env::var_os("SIMDUP_BLESS").is_some() {
        std::fs::write(&path, output).unwrap();
    }
    let expected = std::fs::read(&path).unwrap_or_default();
    assert!(
        expected == output,
        "tests/cli/golden/{name} differs (SIMDUP_BLESS=1 rewrites it); got:\n{}",
        String::from_utf8_lossy(output)
    );
}

#[test]
fn github_and_markdown_formats_match_their_golden_files() {
    let dir = accepted_duplicates();
    scan(&dir, &["docs", "--write-baseline", "simdup.baseline"]);
    let c = std::fs::read_to_string(dir.path().join("docs/c.md")).unwrap();
    dir.create("docs/new copy|1.md", edit(&c, &[33]));
    std::fs::remove_file(dir.path().join("docs/b.md")).unwrap();
    let run = |args: &[&str]| {
        let output = scan(&dir, args);
        assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
        output.stdout
    };
    let check = [
        "docs",
        "--baseline",
        "simdup.baseline",
        "--fail-on-duplicates",
        "-q",
    ];
    golden(
        "baseline.github",
        &run(&[&check[..], &["--format", "github"]].concat()),
    );
    golden(
        "baseline.md",
        &run(&[&check[..], &["--format", "markdown"]].concat()),
    );
    golden(
        "baseline-groups.md",
        &run(&[&check[..], &["--format", "markdown", "--groups"]].concat()),
    );
    golden(
        "all.md",
        &run(&["docs", "--fail-on-duplicates", "--format", "markdown"]),
    );
}

#[test]
fn a_run_that_saw_nothing_warns_and_fails_in_ci() {
    let dir = TestDir::new();
    dir.create("docs/a.md", text(3, 300));
    dir.create("docs/.ignore", "*.md\n");
    let output = scan(&dir, &["docs", "--fail-on-duplicates"]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("warning: no document to compare (2 inputs seen)"),
        "{}",
        stderr(&output)
    );
    // Without the CI switch it is only a warning.
    let output = scan(&dir, &["docs"]);
    assert_eq!(output.status.code(), Some(0));
    assert!(stderr(&output).contains("no document to compare"));
    // An empty directory too.
    std::fs::create_dir(dir.path().join("empty")).unwrap();
    let output = scan(&dir, &["empty", "--fail-on-duplicates", "-q"]);
    assert_eq!(output.status.code(), Some(2));
}

/// The SARIF 2.1.0 JSON schema (release 2.1.0-rtm.5, JSON Schema
/// draft-04), vendored from the npm package `@microsoft/jest-sarif`
/// 1.0.0-beta.0 (MIT), `lib/schemas/sarif-2.1.0-rtm.5.json`, unchanged.
const SARIF_SCHEMA: &str = include_str!("schemas/sarif-2.1.0-rtm.5.json");

/// Validates a SARIF log against the vendored schema, formats included.
fn assert_valid_sarif(log: &serde_json::Value) {
    let schema: serde_json::Value = serde_json::from_str(SARIF_SCHEMA).unwrap();
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    compiler.enable_format_assertions();
    let location = "file:///sarif-2.1.0-rtm.5.json";
    compiler.add_resource(location, schema).unwrap();
    let index = compiler.compile(location, &mut schemas).unwrap();
    if let Err(error) = schemas.validate(log, index) {
        panic!("invalid SARIF: {error:#}\n{log:#}");
    }
}

#[test]
fn sarif_validates_against_the_sarif_2_1_0_schema() {
    let dir = accepted_duplicates();
    let a = std::fs::read_to_string(dir.path().join("docs/a.md")).unwrap();
    dir.create("docs/odd name, 100%.md", &a);
    for args in [
        &["./docs", "--format", "sarif"][..],
        &["docs", "--format", "sarif", "--raw"],
        &["docs", "--format", "sarif", "--groups"],
        &["docs/unique.md", "--format", "sarif"],
    ] {
        let output = scan(&dir, args);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_valid_sarif(&value);
        assert_sarif_shape(&value);
    }
    // An absolute path below the working directory: a relative URI.
    let docs = std::fs::canonicalize(dir.path().join("docs")).unwrap();
    let sarif_uri = |cwd: &std::path::Path| {
        let output = dir
            .simdup()
            .current_dir(cwd)
            .args(["scan", "--format", "sarif"])
            .arg(&docs)
            .output()
            .unwrap();
        let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_valid_sarif(&value);
        value["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
            ["uri"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let uri = sarif_uri(&docs);
    assert!(!uri.starts_with('/') && !uri.starts_with("file:"), "{uri}");
    // Outside it: an absolute file URI.
    std::fs::create_dir(dir.path().join("elsewhere")).unwrap();
    let uri = sarif_uri(&dir.path().join("elsewhere"));
    assert!(uri.starts_with("file:///"), "{uri}");
}

/// A relative path is judged lexically against the working directory: one
/// whose `..` leaves it gets an absolute `file:` URI, as an absolute path
/// outside it does, and one that comes back into it a relative URI.
#[test]
fn sarif_paths_that_leave_the_working_directory_are_absolute() {
    let dir = TestDir::new();
    let body = text(30, 300);
    dir.create("top/a.txt", &body);
    dir.create("top/sub/b.txt", &body);
    let sub = std::fs::canonicalize(dir.path().join("top/sub")).unwrap();
    let top = sub.parent().unwrap().to_str().unwrap().to_string();
    let artifacts = |paths: &[&str]| {
        let output = dir
            .simdup()
            .current_dir(&sub)
            .args(["scan", "--format", "sarif"])
            .args(paths)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_valid_sarif(&value);
        value["runs"][0]["results"][0]["locations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|location| location["physicalLocation"]["artifactLocation"].clone())
            .collect::<Vec<_>>()
    };
    assert!(
        !top.bytes()
            .any(|byte| !byte.is_ascii_alphanumeric() && !b"-._~/".contains(&byte)),
        "the expected URI below assumes {top} needs no percent-encoding"
    );
    assert_eq!(
        artifacts(&["../a.txt", "b.txt"]),
        [
            serde_json::json!({"uri": format!("file://{top}/a.txt")}),
            serde_json::json!({"uri": "b.txt", "uriBaseId": "%SRCROOT%"}),
        ]
    );
    assert_eq!(
        artifacts(&["../a.txt", "../sub/./b.txt"])[1],
        serde_json::json!({"uri": "b.txt", "uriBaseId": "%SRCROOT%"})
    );
}

#[test]
fn an_invalid_log_fails_the_schema_check() {
    let result = std::panic::catch_unwind(|| {
        assert_valid_sarif(&serde_json::json!({"version": "2.1.0", "runs": [{"results": []}]}))
    });
    assert!(result.is_err(), "a run without a tool passed the schema");
}

/// The end-to-end scenario, in a real git repository: every exit
/// code a CI job can see.
#[test]
fn ci_scenario_in_a_git_repository() {
    let dir = TestDir::new();
    let git = |args: &[&str]| {
        let status = std::process::Command::new("git")
            .args(args)
            .current_dir(dir.path())
            .stdout(std::process::Stdio::null())
            .status()
            .expect("git runs");
        assert!(status.success(), "git {args:?}");
    };
    git(&["init", "-q"]);
    let a = text(20, 500);
    dir.create("docs/install.md", &a);
    dir.create("docs/setup.md", edit(&a, &[10, 200]));
    dir.create("docs/other.md", text(21, 500));
    dir.create(".gitignore", "/build/\n");
    let check = |args: &[&str]| {
        let output = scan(&dir, &[&[".", "--fail-on-duplicates"][..], args].concat());
        (output.status.code(), stdout(&output), stderr(&output))
    };
    std::fs::create_dir(dir.path().join("build")).unwrap();
    let write = scan(&dir, &["docs", "--write-baseline", ".simdup-baseline"]);
    assert_eq!(write.status.code(), Some(0), "{}", stderr(&write));

    // 1. Accepted duplicates with their baseline: exit 0.
    let (code, out, err) = check(&["--baseline", ".simdup-baseline"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out, "");
    // 2. A rename of an accepted file (git mv): still 0.
    git(&["add", "."]);
    git(&["mv", "docs/setup.md", "docs/getting-started.md"]);
    let (code, _, err) = check(&["--baseline", ".simdup-baseline"]);
    assert_eq!(code, Some(0), "{err}");
    // 3. Build output ignored by .gitignore is not scanned: still 0.
    dir.create("build/install.md", &a);
    let (code, _, err) = check(&["--baseline", ".simdup-baseline"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("ignored"), "{err}");
    // 4. A new near-copy: exit 1, only the new pairs listed.
    dir.create("docs/faq.md", edit(&a, &[40]));
    let (code, out, err) = check(&["--baseline", ".simdup-baseline", "--format", "jsonl"]);
    assert_eq!(code, Some(1), "{err}");
    let listed: Vec<String> = out
        .lines()
        .map(|line| {
            let pair: serde_json::Value = serde_json::from_str(line).unwrap();
            format!(
                "{} {}",
                pair["a"].as_str().unwrap(),
                pair["b"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(listed.len(), 2, "{out}");
    assert!(
        listed.iter().all(|pair| pair.contains("docs/faq.md")),
        "{listed:?}"
    );
    assert!(err.contains("1 accepted, 2 new"), "{err}");
    // 5. A scan that matches nothing (a wrong glob): exit 2.
    let output = scan(&dir, &["docs", "-g", "*.rst", "--fail-on-duplicates"]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
}

#[test]
fn a_baseline_of_other_feature_options_matches_by_content_only() {
    let dir = accepted_duplicates();
    scan(&dir, &["docs", "--write-baseline", "simdup.baseline"]);
    let d = std::fs::read_to_string(dir.path().join("docs/d.md")).unwrap();
    dir.create("docs/d.md", edit(&d, &[300]));
    let args = ["docs", "--baseline", "simdup.baseline", "--format", "json"];
    // Same options: the edited pair is accepted by SimHash.
    let output = scan(&dir, &args);
    assert_eq!(baseline_summary(&output)["accepted"], 2);
    // Other options: SimHashes are not comparable, so only the unchanged
    // pair is accepted, and a warning says why.
    let output = scan(&dir, &[&args[..], &["--shingle", "words:2"]].concat());
    assert_eq!(baseline_summary(&output)["accepted"], 1);
    assert_eq!(baseline_summary(&output)["new"], 1);
    assert!(
        stderr(&output).contains("was written with other feature options"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn update_baseline_leaves_the_file_alone_after_an_error() {
    let dir = accepted_duplicates();
    scan(&dir, &["docs", "--write-baseline", "simdup.baseline"]);
    std::fs::remove_file(dir.path().join("docs/b.md")).unwrap();
    let before = std::fs::read(dir.path().join("simdup.baseline")).unwrap();
    // A missing path is an error: the entry of a.md and b.md looks stale,
    // but this run cannot tell, so the baseline stays as it was.
    let output = scan(
        &dir,
        &[
            "docs",
            "missing",
            "--baseline",
            "simdup.baseline",
            "--update-baseline",
        ],
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("simdup.baseline not updated: this run had errors"),
        "{}",
        stderr(&output)
    );
    assert_eq!(
        std::fs::read(dir.path().join("simdup.baseline")).unwrap(),
        before
    );
}

/// The mode of a file, permission bits only.
fn mode(path: &std::path::Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

/// This process's umask, where Linux tells it.
fn umask() -> Option<u32> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("Umask:"))?;
    u32::from_str_radix(line["Umask:".len()..].trim(), 8).ok()
}

#[test]
fn a_baseline_is_written_into_a_linked_file_and_keeps_its_mode() {
    use std::os::unix::fs::PermissionsExt;
    let dir = accepted_duplicates();
    let real = dir.create("ci/real.baseline", "");
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o604)).unwrap();
    let link = dir.path().join("simdup.baseline");
    std::os::unix::fs::symlink("ci/real.baseline", &link).unwrap();

    let output = scan(&dir, &["docs", "--write-baseline", "simdup.baseline"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
    let written = std::fs::read_to_string(&real).unwrap();
    assert!(written.starts_with("# simdup baseline"), "{written}");
    assert_eq!(written.lines().filter(|l| !l.starts_with('#')).count(), 2);
    assert_eq!(mode(&real), 0o604);

    // --update-baseline rewrites the same file, link and mode kept.
    std::fs::remove_file(dir.path().join("docs/b.md")).unwrap();
    let output = scan(
        &dir,
        &["docs", "--baseline", "simdup.baseline", "--update-baseline"],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
    let updated = std::fs::read_to_string(&real).unwrap();
    assert_eq!(updated.lines().filter(|l| !l.starts_with('#')).count(), 1);
    assert_eq!(mode(&real), 0o604);

    // A link to no file yet makes the file it names.
    std::os::unix::fs::symlink("ci/later.baseline", dir.path().join("later")).unwrap();
    let output = scan(&dir, &["docs", "--write-baseline", "later"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(
        dir.path()
            .join("later")
            .symlink_metadata()
            .unwrap()
            .file_type()
            .is_symlink()
    );
    let later = dir.path().join("ci/later.baseline");
    assert!(
        std::fs::read_to_string(&later)
            .unwrap()
            .starts_with("# simdup baseline")
    );
    // A new file gets the mode a shell redirection would give it.
    if let Some(umask) = umask() {
        assert_eq!(mode(&later), 0o666 & !umask);
    }
}

#[test]
fn a_baseline_is_written_into_a_fifo_without_replacing_it() {
    use std::os::unix::fs::FileTypeExt;
    let dir = accepted_duplicates();
    let fifo = dir.path().join("baseline.fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|status| status.success()) {
        eprintln!("no mkfifo here: skipped");
        return;
    }
    // The reader opens the FIFO (waiting for the writer) and reads it to
    // its end; a run that replaced the FIFO would leave it waiting, so
    // the result comes back on a channel with a deadline.
    let (sender, received) = std::sync::mpsc::channel();
    let path = fifo.clone();
    std::thread::spawn(move || {
        let _ = sender.send(std::fs::read_to_string(path));
    });
    let output = dir
        .simdup()
        .args(["scan", "docs", "--write-baseline", "baseline.fifo"])
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(
        fifo.symlink_metadata().unwrap().file_type().is_fifo(),
        "the FIFO was replaced"
    );
    let read = received
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("the reader got nothing")
        .unwrap();
    assert!(read.starts_with("# simdup baseline"), "{read}");
    assert_eq!(read.lines().filter(|l| !l.starts_with('#')).count(), 2);
}

#[test]
fn a_baseline_that_cannot_be_written_is_an_error_naming_it() {
    let dir = accepted_duplicates();
    std::fs::create_dir(dir.path().join("taken")).unwrap();
    let output = scan(&dir, &["docs", "--write-baseline", "taken"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("cannot write the baseline taken: "),
        "{}",
        stderr(&output)
    );
    assert!(dir.path().join("taken").is_dir());
}
