//! `truth` and `score` end to end, on a corpus made of the fixtures.

use std::path::{Path, PathBuf};
use std::process::Command;

use simdup_bench_tools::truth::{JoinHeader, JoinLine};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/corpus")
}

/// Every fixture text file as a corpus folder: corpus.jsonl (ids are paths
/// below fixtures/corpus, sorted) and docs/.
fn fixture_corpus(dir: &Path) -> Vec<String> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(root, &path, out);
            } else if path.extension().is_some_and(|e| e == "txt") {
                let rel = path.strip_prefix(root).unwrap().to_string_lossy();
                out.push(rel.replace('\\', "/"));
            }
        }
    }
    let mut files = Vec::new();
    walk(&fixtures(), &fixtures(), &mut files);
    files.sort();
    let mut jsonl = String::new();
    for f in &files {
        let text =
            String::from_utf8_lossy(&std::fs::read(fixtures().join(f)).unwrap()).into_owned();
        let record = serde_json::json!({"id": f, "text": text});
        jsonl.push_str(&record.to_string());
        jsonl.push('\n');
    }
    std::fs::write(dir.join("corpus.jsonl"), jsonl).unwrap();
    files
}

fn truth(dir: &Path, extra: &[&str]) -> (JoinHeader, Vec<JoinLine>) {
    let out = Command::new(env!("CARGO_BIN_EXE_truth"))
        .arg("--corpus")
        .arg(dir)
        .args(extra)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let path = extra
        .iter()
        .position(|&a| a == "--out")
        .map_or(dir.join("truth-words3.jsonl"), |i| {
            PathBuf::from(extra[i + 1])
        });
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header: serde_json::Value = serde_json::from_str(lines.next().unwrap()).unwrap();
    let header: JoinHeader = serde_json::from_value(header["header"].clone()).unwrap();
    let pairs = lines.map(|l| serde_json::from_str(l).unwrap()).collect();
    (header, pairs)
}

#[test]
fn truth_of_the_fixtures_matches_their_readme() {
    let tmp = tempfile::tempdir().unwrap();
    let files = fixture_corpus(tmp.path());
    let order = |id: &str| files.iter().position(|f| f == id).unwrap();
    for (features, column) in [("words:3", 2), ("chars:5", 3)] {
        let out = tmp.path().join(format!("{features}.jsonl"));
        let out = out.to_str().unwrap();
        let (header, pairs) = truth(
            tmp.path(),
            &["--features", features, "--floor", "0.4", "--out", out],
        );
        assert_eq!(header.documents, files.len());
        assert_eq!(header.features, features);
        assert_eq!(header.pairs, pairs.len());
        assert!(
            pairs
                .windows(2)
                .all(|w| (order(&w[0].a), order(&w[0].b)) < (order(&w[1].a), order(&w[1].b)))
        );
        assert!(
            pairs
                .iter()
                .all(|p| order(&p.a) < order(&p.b) && p.jaccard >= 0.4)
        );
        // Every row of the README's table: listed with its Jaccard when >= 0.4.
        let readme = std::fs::read_to_string(fixtures().join("../README.md")).unwrap();
        let mut rows = 0;
        for line in readme.lines() {
            let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
            if cells.len() != 4 || !cells[0].ends_with(".txt") {
                continue;
            }
            let (a, b) = if order(cells[0]) < order(cells[1]) {
                (cells[0], cells[1])
            } else {
                (cells[1], cells[0])
            };
            let listed = pairs.iter().find(|p| p.a == a && p.b == b);
            let expected: f64 = cells[column].parse().unwrap();
            match listed {
                Some(p) => assert_eq!(format!("{:.2}", p.jaccard), cells[column], "{line}"),
                None => assert!(expected < 0.41, "{features}: {line} is missing"),
            }
            rows += 1;
        }
        assert_eq!(rows, 12);
        // The brute-force check gives the same pairs.
        let brute = tmp.path().join("brute.jsonl");
        let (_, same) = truth(
            tmp.path(),
            &[
                "--features",
                features,
                "--floor",
                "0.4",
                "--brute-force",
                "--out",
                brute.to_str().unwrap(),
            ],
        );
        assert_eq!(same, pairs);
    }
}

#[cfg(unix)]
#[test]
fn score_runs_a_command_and_reads_saved_pairs() {
    use std::os::unix::fs::PermissionsExt;

    let tmp = tempfile::tempdir().unwrap();
    fixture_corpus(tmp.path());
    let (_, pairs) = truth(tmp.path(), &[]);
    let relevant: Vec<&JoinLine> = pairs.iter().filter(|p| p.jaccard >= 0.8).collect();
    assert!(relevant.len() >= 4, "{pairs:?}");
    // A stand-in for simdup: every relevant pair but the first, and one
    // unrelated pair; names as `simdup scan docs` gives them, and a summary
    // line on stderr.
    let mut out = String::new();
    for p in &relevant[1..] {
        out.push_str(&format!(
            "{{\"a\":\"docs/{}\",\"b\":\"docs/{}\",\"distance\":3,\"similarity\":0.95}}\n",
            p.a, p.b
        ));
    }
    out.push_str("{\"a\":\"docs/unrelated/chess-clock.txt\",\"b\":\"docs/unrelated/tide-tables.txt\",\"distance\":9,\"similarity\":0.86}\n");
    let pairs_file = tmp.path().join("pairs.jsonl");
    std::fs::write(&pairs_file, &out).unwrap();
    let mock = tmp.path().join("fake-simdup");
    std::fs::write(
        &mock,
        format!(
            "#!/bin/sh\necho 'simdup: 0.0 MB in 0.00 s (x); 42 pairs in 3 groups (k = 9, exact)' >&2\ncat '{}'\n",
            pairs_file.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&mock, std::fs::Permissions::from_mode(0o755)).unwrap();
    let score = |extra: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_score"))
            .arg("--corpus")
            .arg(tmp.path())
            .args(["--format", "json"])
            .args(extra)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let run = score(&["--", mock.to_str().unwrap(), "scan", "docs", "-k", "9"]);
    let n = relevant.len() as u64;
    assert_eq!(run["reported"], n);
    assert_eq!(run["relevant"], n);
    assert_eq!(run["true_positives"], n - 1);
    assert_eq!(run["false_positives_below_floor"], 1);
    assert_eq!(run["run"]["candidates"], 42);
    assert_eq!(run["run"]["label"], "docs -k 9");
    assert!(run["run"]["seconds"].as_f64().unwrap() >= 0.0);
    let worst = &run["worst_false_positives"][0];
    assert_eq!(worst["a"], "unrelated/chess-clock.txt");
    assert_eq!(worst["jaccard"], 0.0);
    assert_eq!(run["best_missed"][0]["a"], relevant[0].a.as_str());
    let saved = score(&["--pairs", pairs_file.to_str().unwrap()]);
    for key in [
        "reported",
        "true_positives",
        "precision",
        "recall",
        "f1",
        "largest_group",
    ] {
        assert_eq!(saved[key], run[key], "{key}");
    }

    // The row format, and a helpful error for table output.
    let row = Command::new(env!("CARGO_BIN_EXE_score"))
        .arg("--corpus")
        .arg(tmp.path())
        .args(["--format", "row", "--label=-k 9", "--pairs"])
        .arg(&pairs_file)
        .output()
        .unwrap();
    let row = String::from_utf8(row.stdout).unwrap();
    assert!(row.starts_with(&format!("| `-k 9` | - | {n} | ")), "{row}");
    std::fs::write(&pairs_file, "distance  similarity  a  b\n").unwrap();
    let bad = Command::new(env!("CARGO_BIN_EXE_score"))
        .arg("--corpus")
        .arg(tmp.path())
        .arg("--pairs")
        .arg(&pairs_file)
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--format jsonl"));
}
