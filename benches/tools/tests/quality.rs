//! quality end to end, with a stand-in for simdup that prints known pairs.
#![cfg(unix)]

use std::fmt::Write as _;
use std::os::unix::fs::PermissionsExt;
use std::process::Command;

use simdup_bench_tools::truth::TruthPair;

#[test]
fn scores_a_known_output() {
    let tmp = tempfile::tempdir().unwrap();
    let corpus = tmp.path().join("corpus");
    let ok = Command::new(env!("CARGO_BIN_EXE_gen-corpus"))
        .args([
            "--docs",
            "200",
            "--vocabulary",
            "3000",
            "--no-files",
            "--out",
        ])
        .arg(&corpus)
        .status()
        .unwrap();
    assert!(ok.success());
    let truth: Vec<TruthPair> = std::fs::read_to_string(corpus.join("truth.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();

    // Close pairs at distance 2, the rest at 12, and one false pair at 3
    // between two documents of no cluster.
    let mut output = String::new();
    for p in &truth {
        let d = if p.jaccard_words3 >= 0.9 { 2 } else { 12 };
        let _ = writeln!(
            output,
            r#"{{"a":"{}","b":"{}","distance":{d},"similarity":0.9,"jaccard":{}}}"#,
            p.a, p.b, p.jaccard_words3
        );
    }
    let in_truth = |id: &str| truth.iter().any(|p| p.a == id || p.b == id);
    let loners: Vec<String> = (0..200)
        .map(|i| format!("docs/00/{:02}/{i:06}.txt", i / 100))
        .filter(|id| !in_truth(id))
        .take(2)
        .collect();
    let _ = writeln!(
        output,
        r#"{{"a":"{}","b":"{}","distance":3,"similarity":0.95,"jaccard":0.0}}"#,
        loners[0], loners[1]
    );
    let output_path = tmp.path().join("pairs.jsonl");
    std::fs::write(&output_path, output).unwrap();
    let mock = tmp.path().join("simdup");
    std::fs::write(
        &mock,
        format!(
            "#!/bin/sh\ncat > /dev/null\ncat '{}'\n",
            output_path.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&mock, std::fs::Permissions::from_mode(0o755)).unwrap();

    let out = Command::new(env!("CARGO_BIN_EXE_quality"))
        .args([
            "--shingles",
            "words:3",
            "--weights",
            "tf",
            "--thresholds",
            "0.9",
            "--corpus",
        ])
        .arg(&corpus)
        .arg("--simdup")
        .arg(&mock)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = String::from_utf8(out.stdout).unwrap();
    let row = |k: u32| {
        let prefix = format!("| words:3 | tf | {k} |");
        report
            .lines()
            .find(|l| l.starts_with(&prefix))
            .unwrap_or_else(|| panic!("{report}"))
            .to_owned()
    };
    let total = truth.len();
    let close = truth.iter().filter(|p| p.jaccard_words3 >= 0.9).count();
    assert!(close > 0 && close < total);
    let f = |x: f64| format!("{x:.3}");
    // k = 2: exactly the relevant pairs.
    assert_eq!(
        row(2),
        format!("| words:3 | tf | 2 | {close} | 1.000 | 1.000 | 1.000 | 1.000 | 1.000 | 1.000 |")
    );
    // k = 12: everything; precision close / (total + 1), --verify removes the rest.
    let p = close as f64 / (total + 1) as f64;
    let f1 = 2.0 * p / (p + 1.0);
    assert_eq!(
        row(12),
        format!(
            "| words:3 | tf | 12 | {} | {} | 1.000 | {} | 1.000 | 1.000 | 1.000 |",
            total + 1,
            f(p),
            f(f1)
        )
    );
    assert!(!report.contains("Warning"), "{report}");

    // Recall by recipe: nothing at k = 0 or 1, everything by k = 12, and at
    // k = 2 exactly the pairs with Jaccard >= 0.9.
    let table: Vec<Vec<&str>> = report
        .split("## Recall by recipe")
        .nth(1)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| recipe"))
        .map(|l| l.trim_matches('|').split('|').map(str::trim).collect())
        .collect();
    assert!(table.len() >= 5, "{report}");
    for row in &table {
        let recipe_pairs: Vec<&TruthPair> = truth
            .iter()
            .filter(|p| {
                (p.recipe_a == "original" && p.recipe_b == row[0])
                    || (p.recipe_b == "original" && p.recipe_a == row[0])
            })
            .collect();
        assert_eq!(row[1], recipe_pairs.len().to_string());
        let close = recipe_pairs
            .iter()
            .filter(|p| p.jaccard_words3 >= 0.9)
            .count();
        let at2 = format!("{:.2}", close as f64 / recipe_pairs.len() as f64);
        assert_eq!(
            [row[3], row[4], row[5], row[15]],
            ["0.00", "0.00", &at2, "1.00"],
            "{row:?}"
        );
    }
}
