//! `simdup scan --format fdupes`: groups as blocks of names, the layout
//! fdupes and jdupes print and duplicate-handling scripts read.

use crate::ci::golden;
use crate::util::{TestDir, edit, run_and_close_pipe, stderr, text};

/// Two groups (one with a space in a name) and an unrelated file.
fn corpus() -> TestDir {
    let dir = TestDir::new();
    let first = text(1, 600);
    dir.create("docs/a/original.txt", &first);
    dir.create("docs/a/edited copy.txt", edit(&first, &[100]));
    dir.create("docs/b/copy.txt", &first);
    let second = text(2, 600);
    dir.create("docs/c/report.txt", &second);
    dir.create("docs/c/report (1).txt", edit(&second, &[7, 300]));
    dir.create("docs/unrelated.txt", text(3, 600));
    dir
}

fn fdupes(dir: &TestDir, extra: &[&str]) -> Vec<u8> {
    let output = dir
        .simdup()
        .args(["scan", "docs", "--format", "fdupes", "-q"])
        .args(extra)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    output.stdout
}

#[test]
fn groups_are_blocks_of_paths_ending_with_a_blank_line() {
    let dir = corpus();
    let output = fdupes(&dir, &[]);
    golden("groups.fdupes", &output);
    // The same whatever the thread count.
    assert_eq!(fdupes(&dir, &["-j", "1"]), output);
    assert_eq!(fdupes(&dir, &["-j", "2"]), output);
}

#[test]
fn record_ids_are_the_names_for_records() {
    let dir = TestDir::new();
    let line = text(4, 40).replace('\n', " ");
    let input = format!(
        "{{\"id\":\"x\",\"text\":\"{line}\"}}\n{{\"id\":\"y\",\"text\":\"other words entirely\"}}\n\
         {{\"id\":\"z\",\"text\":\"{line}\"}}\n"
    );
    let output = dir
        .simdup()
        .args(["scan", "--records", "jsonl", "--id-field", "id"])
        .args(["--format", "fdupes", "-q"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(String::from_utf8(output.stdout).unwrap(), "x\nz\n\n");
}

/// A loop of the kind written for fdupes output (keep the first path of
/// each set, remove the others) runs on simdup's output unchanged.
#[test]
fn a_shell_loop_written_for_fdupes_consumes_it() {
    let dir = corpus();
    let output = fdupes(&dir, &[]);
    std::fs::write(dir.path().join("sets.txt"), output).unwrap();
    let script = r#"
sets=0
first=1
while IFS= read -r path; do
    if [ -z "$path" ]; then
        sets=$((sets + 1))
        first=1
        continue
    fi
    if [ "$first" = 1 ]; then
        first=0
    else
        rm -- "$path" || exit 3
    fi
done < sets.txt
echo "$sets"
"#;
    let run = std::process::Command::new("sh")
        .arg("-c")
        .arg(script)
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&run.stdout), "2\n");
    let left: Vec<bool> = [
        "docs/a/edited copy.txt",
        "docs/a/original.txt",
        "docs/b/copy.txt",
        "docs/c/report (1).txt",
        "docs/c/report.txt",
        "docs/unrelated.txt",
    ]
    .iter()
    .map(|path| dir.path().join(path).exists())
    .collect();
    // The first of each set (in input order) is kept; the unrelated file
    // was in no set.
    assert_eq!(left, [true, false, false, true, false, true]);
    // Nothing near-duplicate is left.
    assert!(fdupes(&dir, &[]).is_empty());
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let dir = TestDir::new();
    let body = text(11, 200);
    // 500 identical files with long names: one block of about 100 KB,
    // more than a pipe buffer.
    let long = "n".repeat(200);
    for index in 0..500 {
        dir.create(&format!("d/{long}{index:03}.txt"), &body);
    }
    let (code, errors) = run_and_close_pipe(&dir, &["scan", "d", "--format", "fdupes"]);
    assert_eq!(code, Some(0), "{errors}");
    assert!(!errors.contains("panicked"), "{errors}");
    assert!(!errors.contains("Broken pipe"), "{errors}");
}
