//! Records people can read: snippets beside record ids in the table.

use crate::util::{TestDir, edit, stderr, stdout, text};

/// Lines of which 1 and 3, and 2 and 5, are near-duplicates.
const LINES: &str = "12 Main Street, Springfield\tIL\n\
                     Please add a dark theme to the settings page, it would help a lot at night\n\
                     12 main street springfield\tIL\n\
                     unrelated words entirely\n\
                     please add a dark theme to the settings page; it would help a lot at night!\n";

fn scan(dir: &TestDir, args: &[&str], stdin: impl Into<Vec<u8>>) -> std::process::Output {
    let output = dir
        .simdup()
        .arg("scan")
        .args(args)
        .write_stdin(stdin.into())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    output
}

#[test]
fn the_table_shows_an_escaped_snippet_beside_each_record_id() {
    let dir = TestDir::new();
    let table = stdout(&scan(&dir, &["-", "-q"], LINES));
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), 3, "{table}");
    assert!(
        lines[1].ends_with(
            "1  \"12 Main Street, Springfield\\tIL\"                               3  \"12 main street springfield\\tIL\""
        ),
        "{table}"
    );
    // Cut at a fixed width (not a terminal), with an ellipsis.
    assert!(
        lines[2].ends_with(
            "2  \"Please add a dark theme to the settings page, it would help…\"  5  \"please add a dark theme to the settings page; it would help…\""
        ),
        "{table}"
    );
    let groups = stdout(&scan(&dir, &["-", "-q", "--groups"], LINES));
    assert!(
        groups
            .contains("\n  2  \"Please add a dark theme to the settings page, it would help…\"\n")
    );
    // The same whatever the thread count.
    for threads in ["1", "2"] {
        assert_eq!(
            stdout(&scan(&dir, &["-", "-q", "-j", threads], LINES)),
            table
        );
    }
}

#[test]
fn snippets_of_nul_and_json_records_escape_what_would_break_the_line() {
    let dir = TestDir::new();
    let record = "first line\nsecond line\u{1b}[31m with more words after it, and more again";
    let nul = format!("{record}\0{record}\0other\0");
    let table = stdout(&scan(&dir, &["--records", "nul", "-q"], nul));
    assert!(
        table
            .contains("1  \"first line\\nsecond line\\u{1b}[31m with more words after it,…\"  2  "),
        "{table}"
    );
    assert!(!table.contains('\u{1b}'));
    let json = format!(
        "{}\n{}\n",
        serde_json::json!({"id": "a", "text": record}),
        serde_json::json!({"id": "b", "text": record})
    );
    let args = ["--records", "jsonl", "--id-field", "id", "-q"];
    let table = stdout(&scan(&dir, &args, json));
    assert!(
        table
            .contains("a  \"first line\\nsecond line\\u{1b}[31m with more words after it,…\"  b  "),
        "{table}"
    );
}

#[test]
fn files_keep_their_plain_table() {
    let dir = TestDir::new();
    let original = text(1, 300);
    dir.create("docs/a.txt", &original);
    dir.create("docs/b.txt", edit(&original, &[50]));
    let table = stdout(&scan(&dir, &["docs", "-q"], ""));
    assert!(
        table
            .lines()
            .nth(1)
            .unwrap()
            .ends_with("docs/a.txt  docs/b.txt")
    );
}
