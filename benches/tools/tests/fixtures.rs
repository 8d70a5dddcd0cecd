//! The similarity table in fixtures/README.md is exact, and every fixture
//! file is described there.

use std::path::{Path, PathBuf};

use simdup_bench_tools::shingle::{Interner, Sets, jaccard};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures")
}

fn sets(path: &Path, interner: &mut Interner) -> Sets {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Sets::of(&String::from_utf8_lossy(&bytes), interner)
}

#[test]
fn fixtures_readme_is_exact() {
    let readme = std::fs::read_to_string(fixtures().join("README.md")).unwrap();
    let mut rows = 0;
    for line in readme.lines() {
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        if cells.len() != 4 || !cells[0].ends_with(".txt") {
            continue;
        }
        let mut interner = Interner::new();
        let a = sets(&fixtures().join("corpus").join(cells[0]), &mut interner);
        let b = sets(&fixtures().join("corpus").join(cells[1]), &mut interner);
        let words3 = format!("{:.2}", jaccard(&a.words3, &b.words3));
        let chars5 = format!("{:.2}", jaccard(&a.chars5, &b.chars5));
        assert_eq!(
            [words3.as_str(), chars5.as_str()],
            [cells[2], cells[3]],
            "{line}"
        );
        rows += 1;
    }
    assert_eq!(rows, 12);
}

#[test]
fn every_fixture_file_is_described() {
    let readme = std::fs::read_to_string(fixtures().join("README.md")).unwrap();
    fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                out.push(
                    path.strip_prefix(root)
                        .unwrap()
                        .to_string_lossy()
                        .replace('\\', "/"),
                );
            }
        }
    }
    let mut files = Vec::new();
    walk(
        &fixtures().join("corpus"),
        &fixtures().join("corpus"),
        &mut files,
    );
    walk(
        &fixtures().join("records"),
        &fixtures().join("records"),
        &mut files,
    );
    assert!(files.len() >= 18);
    for f in files {
        assert!(
            readme.contains(&format!("`{f}`")),
            "{f} is not described in fixtures/README.md"
        );
    }
}
