//! `boilerplate` end to end, on a corpus small enough to count by hand.

use std::path::Path;
use std::process::Command;

/// `prefix0 prefix1 ... prefix19`.
fn run_of(prefix: &str) -> String {
    (0..20)
        .map(|i| format!("{prefix}{i}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Five documents of 40 words (38 word 3-shingles each): a and b are the
/// same, c and d share a's first 20 words (the boilerplate, 18 shingles in
/// 4 documents), e shares nothing.
fn write_corpus(dir: &Path) {
    let boiler = run_of("b");
    let docs = [
        ("a", format!("{boiler} {}", run_of("x"))),
        ("b", format!("{boiler} {}", run_of("x"))),
        ("c", format!("{boiler} {}", run_of("y"))),
        ("d", format!("{boiler} {}", run_of("z"))),
        ("e", format!("{} {}", run_of("u"), run_of("v"))),
    ];
    let mut jsonl = String::new();
    for (id, text) in docs {
        jsonl.push_str(&serde_json::json!({"id": id, "text": text}).to_string());
        jsonl.push('\n');
    }
    std::fs::write(dir.join("corpus.jsonl"), jsonl).unwrap();
}

fn run(bin: &str, args: &[&str]) -> String {
    let out = Command::new(bin).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn boilerplate_counts_candidates_and_recall() {
    let tmp = tempfile::tempdir().unwrap();
    write_corpus(tmp.path());
    let dir = tmp.path().to_str().unwrap();
    run(env!("CARGO_BIN_EXE_truth"), &["--corpus", dir]);
    let out = run(
        env!("CARGO_BIN_EXE_boilerplate"),
        &[
            "--corpus",
            dir,
            "--name",
            "tiny",
            "--weightings",
            "tf,binary,cut50,idf@first2",
            "--seeds",
            "2",
            "--k",
            "0",
            "--recall",
            "1",
        ],
    );
    assert!(
        out.starts_with(
            "#### tiny: 5 documents, 1 pairs with J >= 0.8 (0 with J < 0.85); means over 2 hash seeds\n"
        ),
        "{out}"
    );
    // The one relevant pair, a and b, has equal fingerprints under every
    // weighting: the only candidate at k = 0, recall 1.
    assert!(
        out.contains("| binary | 0.0% | 0 | 0.000 | 1 | 1.000 | 1.000 | 0 (1) |"),
        "{out}"
    );
    assert!(
        out.contains("| tf | 0.0% | 0 | 0.000 | 1 | 1.000 | 1.000 | 0 (1) |"),
        "{out}"
    );
    // cut50: the boilerplate's 18 shingles are in 4 of 5 documents, left
    // out of a, b, c and d: 72 of 190 incidences.
    assert!(
        out.contains("| cut50 | 37.9% | 0 | 0.000 | 1 | 1.000 | 1.000 | 0 (1) |"),
        "{out}"
    );
    // idf over a and b: every shingle of a and b is in both, weight 0
    // (76 incidences), so both fall back to binary; c and d weigh only
    // what is not a's (18 zero each): 112 of 190.
    assert!(
        out.contains("| idf@first2 | 58.9% | 2 | 0.000 | 1 | 1.000 | 1.000 | 0 (1) |"),
        "{out}"
    );
}

#[test]
fn boilerplate_refuses_a_threshold_below_the_truth_floor() {
    let tmp = tempfile::tempdir().unwrap();
    write_corpus(tmp.path());
    let dir = tmp.path().to_str().unwrap();
    run(env!("CARGO_BIN_EXE_truth"), &["--corpus", dir]);
    let out = Command::new(env!("CARGO_BIN_EXE_boilerplate"))
        .args(["--corpus", dir, "--threshold", "0.4"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("above --threshold 0.4"));
}
