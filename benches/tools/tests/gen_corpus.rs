//! gen-corpus end to end: same seed, same bytes; files match the JSON Lines.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use simdup_bench_tools::truth::TruthPair;

fn generate(out: &Path, seed: &str) {
    let status = Command::new(env!("CARGO_BIN_EXE_gen-corpus"))
        .args([
            "--docs",
            "300",
            "--vocabulary",
            "3000",
            "--seed",
            seed,
            "--out",
        ])
        .arg(out)
        .status()
        .expect("gen-corpus runs");
    assert!(status.success());
}

/// Every file under `dir`, by relative path, with its bytes.
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                let rel = path
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                out.insert(rel, std::fs::read(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

#[test]
fn same_seed_gives_identical_bytes_and_another_seed_does_not() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    generate(&a, "11");
    generate(&b, "11");
    generate(&c, "12");
    let (ta, tb, tc) = (tree(&a), tree(&b), tree(&c));
    assert_eq!(ta.len(), 300 + 3);
    assert!(ta == tb, "same seed, different bytes");
    assert_ne!(ta["corpus.jsonl"], tc["corpus.jsonl"]);
    assert_ne!(ta["truth.jsonl"], tc["truth.jsonl"]);
}

#[test]
fn files_jsonl_and_truth_agree() {
    let tmp = tempfile::tempdir().unwrap();
    generate(tmp.path(), "3");
    let files = tree(tmp.path());
    let jsonl = String::from_utf8(files["corpus.jsonl"].clone()).unwrap();
    let mut ids = std::collections::HashSet::new();
    for line in jsonl.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let id = v["id"].as_str().unwrap();
        assert_eq!(files[id], v["text"].as_str().unwrap().as_bytes(), "{id}");
        ids.insert(id.to_owned());
    }
    assert_eq!(ids.len(), 300);
    let truth = String::from_utf8(files["truth.jsonl"].clone()).unwrap();
    let pairs: Vec<TruthPair> = truth
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(!pairs.is_empty());
    for p in &pairs {
        assert!(ids.contains(&p.a) && ids.contains(&p.b) && p.a < p.b);
        let text = |id: &str| String::from_utf8(files[id].clone()).unwrap();
        let j = simdup_bench_tools::shingle::words3_jaccard(&text(&p.a), &text(&p.b));
        // serde_json's float parser may be one ulp off the printed value.
        assert!(
            (j - p.jaccard_words3).abs() < 1e-12,
            "{j} {}",
            p.jaccard_words3
        );
    }
    // Whitespace and case edits alone never change the words.
    fn recipes(p: &TruthPair) -> [&str; 2] {
        let mut r = [p.recipe_a.as_str(), p.recipe_b.as_str()];
        r.sort();
        r
    }
    let light = pairs
        .iter()
        .filter(|p| recipes(p) == ["original", "whitespace+case"]);
    let mut seen = 0;
    for p in light {
        assert_eq!(p.jaccard_words3, 1.0);
        seen += 1;
    }
    assert!(seen > 0, "seed 3 has such a pair");
}

#[test]
fn refuses_to_overwrite_without_force() {
    let tmp = tempfile::tempdir().unwrap();
    generate(tmp.path(), "1");
    let status = Command::new(env!("CARGO_BIN_EXE_gen-corpus"))
        .args(["--docs", "10", "--out"])
        .arg(tmp.path())
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(2));
}
