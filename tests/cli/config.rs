//! simdup.toml: found up to the repository root, overridden by flags,
//! ignored with --no-config; bad keys are errors naming file and key.

use crate::util::{TestDir, edit, stderr, stdout, text};

/// A repository with one near-duplicate pair (Jaccard about 0.97) in docs/.
fn repository(config: &str) -> TestDir {
    let dir = TestDir::new();
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    let a = text(20, 400);
    dir.create("docs/a.md", &a);
    dir.create("docs/b.md", edit(&a, &[5, 200]));
    dir.create("docs/other.txt", text(21, 400));
    dir.create("simdup.toml", config);
    dir
}

fn code(dir: &TestDir, cwd: &str, args: &[&str]) -> (Option<i32>, String, String) {
    let output = dir
        .simdup()
        .current_dir(dir.path().join(cwd))
        .args(args)
        .output()
        .unwrap();
    (output.status.code(), stdout(&output), stderr(&output))
}

#[test]
fn the_file_sets_defaults_flags_override_and_no_config_ignores() {
    let dir = repository(
        "paths = [\"docs\"]\nfail-on-duplicates = true\nformat = \"json\"\nglobs = [\"*.md\"]\n",
    );
    let (status, out, _) = code(&dir, "", &["scan", "-q"]);
    assert_eq!(status, Some(1), "fail-on-duplicates from the file");
    let value: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        value["stats"]["fingerprinted"], 2,
        "paths and globs from the file"
    );
    assert_eq!(value["stats"]["skipped"]["excluded"], 1);
    // A flag wins over the file.
    let (status, out, _) = code(&dir, "", &["scan", "-q", "--format", "csv"]);
    assert_eq!(status, Some(1));
    assert!(out.starts_with("a,b,"), "{out}");
    let (status, _, _) = code(&dir, "", &["scan", "-q", "-t", "0.99"]);
    assert_eq!(status, Some(0), "--threshold overrides the file's default");
    // --no-config: defaults (table, no failure, paths = .).
    let (status, out, _) = code(&dir, "", &["scan", "-q", "--no-config"]);
    assert_eq!(status, Some(0));
    assert!(out.contains("docs/a.md"), "{out}");
}

#[test]
fn found_from_a_subdirectory_with_paths_relative_to_it() {
    let dir = repository("threshold = 0.99\nbaseline = \"accepted.baseline\"\n");
    dir.simdup()
        .args([
            "scan",
            "docs",
            "-q",
            "--no-config",
            "--write-baseline",
            "accepted.baseline",
        ])
        .assert()
        .success();
    // From docs/: the file at the root is found; its baseline path is
    // relative to the file; its threshold makes the pair too far anyway.
    let (status, _, err) = code(
        &dir,
        "docs",
        &["scan", ".", "-t", "0.8", "--fail-on-duplicates"],
    );
    assert_eq!(status, Some(0), "{err}");
    assert!(err.contains("accepted"), "{err}");
    let (status, _, _) = code(
        &dir,
        "docs",
        &["scan", ".", "-q", "--fail-on-duplicates", "--no-config"],
    );
    assert_eq!(status, Some(1));
}

#[test]
fn bad_keys_and_values_are_errors_naming_the_file_and_the_key() {
    for (config, key) in [
        ("thresold = 0.9\n", "thresold"),
        ("threshold = 2\n", "threshold"),
        ("format = \"xml\"\n", "format"),
    ] {
        let dir = repository(config);
        let (status, _, err) = code(&dir, "", &["scan", "docs"]);
        assert_eq!(status, Some(2), "{config}");
        assert!(err.contains("simdup.toml") && err.contains(key), "{err}");
        // --no-config does not even read it.
        let (status, _, _) = code(&dir, "", &["scan", "docs", "-q", "--no-config"]);
        assert_eq!(status, Some(0));
    }
}

#[test]
fn update_baseline_takes_the_baseline_from_the_file() {
    let dir = repository("baseline = \"b.baseline\"\n");
    let (status, _, err) = code(&dir, "", &["scan", "docs", "--update-baseline"]);
    assert_eq!(status, Some(2), "no such baseline yet: {err}");
    assert!(err.contains("b.baseline"), "{err}");
    let (status, _, err) = code(
        &dir,
        "",
        &["scan", "docs", "--update-baseline", "--no-config"],
    );
    assert_eq!(status, Some(2));
    assert!(err.contains("--update-baseline needs a baseline"), "{err}");
}

/// Two near-duplicate pairs: licenses/ and a.md ~ b.md.
fn allowlisted(accept: &str) -> TestDir {
    let dir = repository(&format!(
        "paths = [\"docs\"]\nfail-on-duplicates = true\n{accept}"
    ));
    let license = text(22, 400);
    dir.create("docs/licenses/mit.md", &license);
    dir.create("docs/licenses/mit-copy.md", edit(&license, &[3, 30]));
    dir
}

#[test]
fn the_allowlist_accepts_pairs_by_glob_and_by_pair() {
    let dir = allowlisted("[[accept]]\npaths = [\"docs/licenses/*\"]\n");
    let (status, out, err) = code(&dir, "", &["scan", "--format", "json"]);
    assert_eq!(status, Some(1), "a.md ~ b.md is not accepted: {err}");
    let value: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(value["stats"]["accepted"], 1);
    assert_eq!(value["stats"]["pairs_found"], 1);
    assert_eq!(value["pairs"].as_array().unwrap().len(), 1);
    assert_eq!(value["pairs"][0]["a"], "docs/a.md");
    assert!(err.contains("allowlist: 1 pair accepted"), "{err}");

    let dir = allowlisted(
        "[[accept]]\npaths = [\"docs/licenses/*\"]\n[[accept]]\npair = [\"docs/b.md\", \"docs/a.md\"]\n",
    );
    let (status, out, err) = code(&dir, "", &["scan"]);
    assert_eq!(status, Some(0), "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("allowlist: 2 pairs accepted"), "{err}");
    // From a subdirectory the globs still start at the file's directory.
    let (status, _, err) = code(&dir, "docs", &["scan", "."]);
    assert_eq!(status, Some(0), "{err}");
    // --no-config: both pairs again.
    let (status, _, _) = code(
        &dir,
        "",
        &["scan", "docs", "-q", "--no-config", "--fail-on-duplicates"],
    );
    assert_eq!(status, Some(1));
}

#[test]
fn allowlisted_pairs_need_no_baseline_entry() {
    let dir =
        allowlisted("baseline = \"empty.baseline\"\n[[accept]]\npaths = [\"docs/licenses/**\"]\n");
    // A baseline that accepts only a.md ~ b.md.
    dir.simdup()
        .args([
            "scan",
            "docs",
            "-g",
            "!licenses/**",
            "-q",
            "--no-config",
            "--write-baseline",
            "empty.baseline",
        ])
        .assert()
        .success();
    let (status, _, err) = code(&dir, "", &["scan"]);
    assert_eq!(status, Some(0), "{err}");
    assert!(err.contains("1 accepted, 0 new"), "{err}");
    assert!(err.contains("allowlist: 1 pair accepted"), "{err}");
}

#[test]
fn a_bad_accept_table_is_an_error() {
    let dir = repository("[[accept]]\npair = [\"only-one.md\"]\n");
    let (status, _, err) = code(&dir, "", &["scan", "docs"]);
    assert_eq!(status, Some(2));
    assert!(
        err.contains("simdup.toml: accept[1]: pair takes exactly two paths"),
        "{err}"
    );
}

#[test]
fn the_file_leaves_saved_fingerprints_and_raw_runs_alone() {
    let dir = repository("threshold = 0.9\nshingle = \"words:2\"\n");
    let saved = dir
        .simdup()
        .args(["fingerprint", "docs", "--no-ignore"])
        .output()
        .unwrap();
    assert_eq!(saved.status.code(), Some(0));
    assert!(!saved.stdout.is_empty());
    dir.create("fps.txt", &saved.stdout);
    // Neither --threshold nor --shingle would apply: not taken from the file.
    let (status, _, err) = code(&dir, "", &["scan", "--fingerprints", "fps.txt", "-q"]);
    assert_eq!(status, Some(0), "{err}");
    let (status, _, err) = code(&dir, "", &["scan", "docs", "--raw", "-q"]);
    assert_eq!(status, Some(0), "{err}");
}

#[test]
fn group_by_from_the_file_applies_to_verified_scans_and_leaves_raw_usable() {
    let dir = repository("group-by = \"first\"\nformat = \"json\"\n");
    let (status, out, err) = code(&dir, "", &["scan", "docs", "-q"]);
    assert_eq!(status, Some(0), "{err}");
    let value: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(value["params"]["group_by"], "first");
    let (status, out, err) = code(&dir, "", &["scan", "docs", "-q", "--raw"]);
    assert_eq!(status, Some(0), "{err}");
    let value: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(value["params"]["group_by"], "components");
    let (status, out, _) = code(
        &dir,
        "",
        &["scan", "docs", "-q", "--group-by", "components"],
    );
    assert_eq!(status, Some(0));
    let value: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(value["params"]["group_by"], "components", "a flag wins");
}
