//! `truth` end to end, on a corpus made of the fixtures.

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
