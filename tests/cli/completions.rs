//! Completions and the man page in completions/ are what the binary
//! generates now: a changed flag without regenerating them fails here.

use crate::util::{TestDir, assert_full_disk_reported, assert_quiet_on_closed_pipe, repo, simdup};

const SHELLS: [(&str, &str); 5] = [
    ("bash", "simdup.bash"),
    ("zsh", "_simdup"),
    ("fish", "simdup.fish"),
    ("elvish", "simdup.elv"),
    ("powershell", "_simdup.ps1"),
];

#[test]
fn completions_are_current() {
    for (shell, file) in SHELLS {
        let generated = simdup().args(["completions", shell]).output().unwrap();
        assert_eq!(generated.status.code(), Some(0));
        let committed = std::fs::read(repo().join("completions").join(file)).unwrap_or_default();
        assert!(
            committed == generated.stdout,
            "completions/{file} is out of date: run `bash completions/regenerate.sh`"
        );
    }
}

#[test]
fn man_page_is_current() {
    let generated = simdup().arg("man").output().unwrap();
    assert_eq!(generated.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&generated.stdout).contains(".TH simdup"));
    let committed = std::fs::read(repo().join("completions/simdup.1")).unwrap_or_default();
    assert!(
        committed == generated.stdout,
        "completions/simdup.1 is out of date: run `bash completions/regenerate.sh`"
    );
}

#[test]
fn completions_end_quietly_on_a_closed_pipe_and_report_a_full_disk() {
    let dir = TestDir::new();
    for (shell, _) in SHELLS {
        assert_quiet_on_closed_pipe(&dir, &["completions", shell]);
    }
    assert_full_disk_reported(&dir, &["completions", "bash"]);
}
