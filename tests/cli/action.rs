//! The GitHub Action (action.yml, action/*.sh), the pre-commit hook and
//! the example workflow: what can be checked without GitHub. The scan
//! step's script runs here with a fake GITHUB_* environment.

use std::collections::BTreeSet;
use std::path::Path;

use crate::util::{TestDir, edit, repo, simdup, stderr, stdout, text};

fn read(path: &str) -> String {
    std::fs::read_to_string(repo().join(path)).unwrap()
}

/// The `--long-flags` a text uses.
fn flags(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for word in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-')) {
        if let Some(name) = word.strip_prefix("--")
            && !name.is_empty()
            && name.chars().all(|c| c.is_ascii_lowercase() || c == '-')
        {
            found.insert(word.to_string());
        }
    }
    found
}

#[test]
fn the_action_and_the_hook_use_only_flags_that_exist() {
    let help = stdout(&simdup().args(["scan", "--help"]).output().unwrap());
    let used: BTreeSet<String> = [
        read("action/scan.sh"),
        read(".pre-commit-hooks.yaml"),
        read("action.yml"),
    ]
    .iter()
    .flat_map(|text| flags(text))
    .collect();
    assert!(used.contains("--fail-on-duplicates") && used.contains("--format"));
    for flag in &used {
        // cargo's own flags in the install script are not simdup's.
        assert!(help.contains(flag.as_str()), "{flag} is not a scan option");
    }
    let hook = read(".pre-commit-hooks.yaml");
    assert!(hook.contains("entry: simdup scan "), "{hook}");
}

#[test]
fn the_action_declares_every_input_it_uses_and_its_scripts_exist() {
    let action = read("action.yml");
    let script = read("action/scan.sh");
    // Inputs: the two-space-indented keys under `inputs:`.
    let mut declared = BTreeSet::new();
    let mut inside = false;
    for line in action.lines() {
        if !line.starts_with(' ') {
            inside = line == "inputs:";
            continue;
        }
        if inside
            && let Some(key) = line.strip_prefix("  ").and_then(|l| l.strip_suffix(':'))
            && !key.starts_with(' ')
        {
            declared.insert(key.to_string());
        }
    }
    for input in ["path", "threshold", "baseline", "format", "sarif"] {
        assert!(
            declared.contains(input),
            "input {input} missing: {declared:?}"
        );
    }
    for (at, _) in action.match_indices("inputs.") {
        let name: String = action[at + 7..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect();
        assert!(declared.contains(&name), "inputs.{name} is not declared");
        // Each input reaches the script as INPUT_NAME.
        let variable = format!("INPUT_{}", name.to_uppercase().replace('-', "_"));
        assert!(action.contains(&variable), "{variable} not passed");
        assert!(script.contains(&variable), "{variable} not used by scan.sh");
    }
    for line in action
        .lines()
        .filter(|l| l.trim_start().starts_with("run:"))
    {
        let at = line
            .find("$GITHUB_ACTION_PATH/")
            .expect("scripts of the action");
        let path: String = line[at + 20..].chars().take_while(|&c| c != '"').collect();
        assert!(repo().join(&path).is_file(), "{path}");
    }
    assert!(action.contains("using: composite"));
}

/// A checkout with one near-duplicate pair in docs/.
fn checkout() -> TestDir {
    let dir = TestDir::new();
    let a = text(30, 400);
    dir.create("docs/a.md", &a);
    dir.create("docs/b.md", edit(&a, &[7, 70]));
    dir.create("docs/c.md", text(31, 400));
    dir
}

/// Runs action/scan.sh in `dir` as the action would.
fn scan_step(dir: &TestDir, inputs: &[(&str, &str)]) -> (Option<i32>, String, String) {
    let mut command = std::process::Command::new("bash");
    command
        .arg(repo().join("action/scan.sh"))
        .current_dir(dir.path())
        .env("SIMDUP", env!("CARGO_BIN_EXE_simdup"))
        .env("GITHUB_ACTIONS", "true")
        .env("GITHUB_WORKSPACE", dir.path())
        .env("GITHUB_OUTPUT", dir.path().join("output.txt"))
        .env("GITHUB_STEP_SUMMARY", dir.path().join("summary.md"));
    for (name, value) in inputs {
        command.env(name, value);
    }
    let output = command.output().unwrap();
    let outputs = std::fs::read_to_string(dir.path().join("output.txt")).unwrap_or_default();
    (
        output.status.code(),
        stdout(&output),
        outputs + &stderr(&output),
    )
}

#[test]
fn the_scan_step_annotates_summarises_writes_sarif_and_sets_its_output() {
    let dir = checkout();
    let inputs = [
        ("INPUT_PATH", "docs"),
        ("INPUT_FORMAT", "github"),
        ("INPUT_FAIL_ON_DUPLICATES", "true"),
        ("INPUT_SUMMARY", "true"),
        ("INPUT_SARIF", "simdup.sarif"),
    ];
    let (status, out, log) = scan_step(&dir, &inputs);
    assert_eq!(status, Some(1), "{log}");
    assert!(out.contains("::warning file=docs/a.md"), "{out}");
    assert!(log.contains("exit-code=1"), "{log}");
    let summary = std::fs::read_to_string(dir.path().join("summary.md")).unwrap();
    assert!(summary.contains("docs/a.md"), "{summary}");
    let sarif: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("simdup.sarif")).unwrap()).unwrap();
    assert_eq!(sarif["runs"][0]["results"].as_array().unwrap().len(), 1);

    // Accepted in a baseline: the step passes.
    simdup()
        .current_dir(dir.path())
        .args([
            "scan",
            "docs",
            "-q",
            "--write-baseline",
            "accepted.baseline",
        ])
        .assert()
        .success();
    std::fs::remove_file(dir.path().join("output.txt")).unwrap();
    let mut accepted = inputs.to_vec();
    accepted.push(("INPUT_BASELINE", "accepted.baseline"));
    let (status, _, log) = scan_step(&dir, &accepted);
    assert_eq!(status, Some(0), "{log}");
    assert!(log.contains("exit-code=0"), "{log}");

    // Without failing on duplicates, and with a wrong path: exit 2.
    let (status, _, _) = scan_step(
        &dir,
        &[
            ("INPUT_PATH", "docs"),
            ("INPUT_FAIL_ON_DUPLICATES", "false"),
            ("INPUT_SUMMARY", "false"),
        ],
    );
    assert_eq!(status, Some(0));
    let (status, _, log) = scan_step(
        &dir,
        &[
            ("INPUT_PATH", "nowhere"),
            ("INPUT_FAIL_ON_DUPLICATES", "true"),
        ],
    );
    assert_eq!(status, Some(2), "{log}");
}

#[test]
fn the_install_step_keeps_a_simdup_already_on_path() {
    let bin = Path::new(env!("CARGO_BIN_EXE_simdup")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let output = std::process::Command::new("bash")
        .arg(repo().join("action/install.sh"))
        .env("PATH", path)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stdout(&output).contains("simdup already installed"));
}
