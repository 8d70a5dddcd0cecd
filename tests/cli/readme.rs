//! The README's first command and the output it shows must agree.

use crate::util::{repo, simdup, stdout};

#[test]
fn readme_shows_what_scanning_the_fixtures_prints() {
    let output = simdup()
        .current_dir(repo())
        .args(["scan", "fixtures/corpus"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let shown = format!("$ simdup scan fixtures/corpus\n{}", stdout(&output));
    assert!(
        readme.contains(&shown),
        "README.md's example of `simdup scan fixtures/corpus` is out of date; it prints:\n{}",
        stdout(&output)
    );
}

#[test]
fn readme_shows_what_fingerprinting_a_fixture_prints() {
    let output = simdup()
        .current_dir(repo())
        .args(["fingerprint", "fixtures/corpus/repair-cafe.txt"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let shown = format!(
        "$ simdup fingerprint fixtures/corpus/repair-cafe.txt\n{}",
        stdout(&output)
    );
    assert!(
        readme.contains(&shown),
        "README.md's example of `simdup fingerprint` is out of date; it prints:\n{}",
        stdout(&output)
    );
    // The JSON and baseline examples show the same default digest.
    let digest = stdout(&output)
        .lines()
        .next()
        .and_then(|header| header.split_once(" digest="))
        .map(|(_, digest)| digest.to_string())
        .unwrap();
    for (at, _) in readme.match_indices("digest") {
        let shown: String = readme[at..]
            .trim_start_matches("digest")
            .trim_start_matches(['=', '"', ':', ' '])
            .chars()
            .take_while(char::is_ascii_hexdigit)
            .collect();
        if shown.len() == 16 {
            assert_eq!(shown, digest, "README.md shows an old digest");
        }
    }
}
