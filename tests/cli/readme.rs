//! The README's examples and the output they show must agree.

use crate::util::{repo, simdup, stdout};

/// Runs `simdup ARGS` in the repository, checks that the README shows the
/// command followed by what it prints, and returns the README and that
/// output.
fn assert_readme_shows(args: &[&str]) -> (String, String) {
    let output = simdup().current_dir(repo()).args(args).output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let command = format!("simdup {}", args.join(" "));
    let printed = stdout(&output);
    assert!(
        readme.contains(&format!("$ {command}\n{printed}")),
        "README.md's example of `{command}` is out of date; it prints:\n{printed}"
    );
    (readme, printed)
}

#[test]
fn readme_shows_what_scanning_the_fixtures_prints() {
    assert_readme_shows(&["scan", "fixtures/corpus"]);
}

#[test]
fn readme_shows_what_fingerprinting_a_fixture_prints() {
    let (readme, printed) =
        assert_readme_shows(&["fingerprint", "fixtures/corpus/repair-cafe.txt"]);
    // The JSON and baseline examples show the same default digest.
    let digest = printed
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
