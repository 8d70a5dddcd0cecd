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
