//! Records people can read: snippets beside record ids in the table, and
//! the texts in JSON and JSON Lines with `--show-text`.

use crate::util::{TestDir, edit, json_lines, stderr, stdout, text};

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

#[test]
fn show_text_adds_both_texts_of_each_pair_in_json_lines() {
    let dir = TestDir::new();
    let output = scan(
        &dir,
        &["-", "-q", "--format", "jsonl", "--show-text"],
        LINES,
    );
    let pairs = json_lines(&output.stdout);
    let lines: Vec<&str> = LINES.lines().collect();
    assert_eq!(pairs.len(), 2, "{pairs:?}");
    for pair in &pairs {
        let a: usize = pair["a"].as_str().unwrap().parse().unwrap();
        let b: usize = pair["b"].as_str().unwrap().parse().unwrap();
        assert_eq!(pair["a_text"], lines[a - 1]);
        assert_eq!(pair["b_text"], lines[b - 1]);
        assert!(pair.get("texts_truncated").is_none());
    }
}

#[test]
fn show_text_adds_the_texts_of_groups_in_json() {
    let dir = TestDir::new();
    let input = format!(
        "{}\n{}\n{}\n",
        serde_json::json!({"m": {"id": 7, "body": "the export button does nothing"}}),
        serde_json::json!({"m": {"id": 8, "body": "something else entirely, unrelated"}}),
        serde_json::json!({"m": {"id": 9, "body": "The export button does nothing!"}}),
    );
    let args = [
        "--records",
        "jsonl",
        "--text-field",
        "m.body",
        "--id-field",
        "/m/id",
        "--format",
        "json",
        "--groups",
        "--show-text",
        "-q",
    ];
    let output = scan(&dir, &args, input);
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        report["groups"],
        serde_json::json!([{
            "id": 1,
            "members": ["7", "9"],
            "texts": ["the export button does nothing", "The export button does nothing!"],
        }])
    );
}

/// Against a stored corpus, new records' texts are kept as they are read
/// and stored records' come from the index: none is read again by name.
#[test]
fn records_against_an_index_show_new_and_stored_texts() {
    let dir = TestDir::new();
    let line = |id: &str, text: &str| format!("{}\n", serde_json::json!({"id": id, "text": text}));
    let lines: Vec<&str> = LINES.lines().collect();
    let stored = line("s1", lines[0]) + &line("s2", lines[3]);
    let new = line("n1", lines[2]) + &line("n2", lines[1]) + &line("n3", lines[4]);
    let texts: std::collections::HashMap<&str, &str> = [
        ("s1", lines[0]),
        ("s2", lines[3]),
        ("n1", lines[2]),
        ("n2", lines[1]),
        ("n3", lines[4]),
    ]
    .into();
    let records = ["-", "--records", "jsonl", "--id-field", "id", "-q"];
    let added = dir
        .simdup()
        .args(["index", "add", "--db", "stored.db"])
        .args(records)
        .write_stdin(stored)
        .output()
        .unwrap();
    assert_eq!(added.status.code(), Some(0), "{}", stderr(&added));
    for raw in [&[][..], &["--raw", "--max-distance", "30"]] {
        let mut args = records.to_vec();
        args.extend(["--against", "stored.db", "--format", "jsonl", "--show-text"]);
        args.extend(raw);
        let pairs = json_lines(&scan(&dir, &args, new.clone()).stdout);
        let ids: Vec<(&str, &str)> = pairs
            .iter()
            .map(|pair| (pair["a"].as_str().unwrap(), pair["b"].as_str().unwrap()))
            .collect();
        // A new record with a stored one, and two new ones.
        assert!(
            ids.iter()
                .any(|&pair| pair == ("n1", "s1") || pair == ("s1", "n1")),
            "{ids:?}"
        );
        assert!(ids.contains(&("n2", "n3")), "{ids:?}");
        for pair in &pairs {
            for side in ["a", "b"] {
                let id = pair[side].as_str().unwrap();
                assert_eq!(pair[format!("{side}_text")], texts[id], "{raw:?} {pair}");
            }
        }
    }
    let mut args = records.to_vec();
    args.extend(["--against", "stored.db"]);
    let table = stdout(&scan(&dir, &args, new));
    assert!(
        table.contains("\"12 Main Street, Springfield\\tIL\""),
        "{table}"
    );
    assert!(
        table.contains("\"12 main street springfield\\tIL\""),
        "{table}"
    );
}

#[test]
fn show_text_reads_files_again_and_replaces_bytes_that_are_not_utf8() {
    let dir = TestDir::new();
    let mut original = text(1, 300).into_bytes();
    original.extend_from_slice(b"caf\xe9\n");
    dir.create("docs/a.txt", &original);
    let mut copy = original.clone();
    copy.extend_from_slice(b"one more line\n");
    dir.create("docs/b.txt", &copy);
    let output = scan(&dir, &["docs", "-q", "--format", "json", "--show-text"], "");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let pair = &report["pairs"][0];
    assert_eq!(pair["a"], "docs/a.txt");
    assert_eq!(pair["a_text"], String::from_utf8_lossy(&original).as_ref());
    assert_eq!(pair["b_text"], String::from_utf8_lossy(&copy).as_ref());
    assert!(pair["a_text"].as_str().unwrap().ends_with("caf\u{fffd}\n"));

    // Records that are not UTF-8 too.
    let output = scan(
        &dir,
        &["-", "-q", "--format", "jsonl", "--show-text"],
        &b"r\xe9sum\xe9 of the long line here\nR\xe9sum\xe9 of the long line here\n"[..],
    );
    let pairs = json_lines(&output.stdout);
    assert_eq!(
        pairs[0]["a_text"],
        "r\u{fffd}sum\u{fffd} of the long line here"
    );
}

#[test]
fn show_text_is_refused_where_it_would_be_ignored() {
    let dir = TestDir::new();
    for format in ["table", "csv", "fdupes"] {
        let output = dir
            .simdup()
            .args(["scan", "-", "--show-text", "--format", format])
            .write_stdin(LINES)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{format}");
        assert!(stderr(&output).contains("--show-text applies to --format json and jsonl"));
    }
}

/// Thousands of rows of snippets into `head`: the pipe closes early and
/// the run ends quietly.
#[test]
fn a_closed_pipe_ends_the_table_of_snippets_quietly() {
    let dir = TestDir::new();
    let line = "a record repeated often enough to fill a pipe buffer\n";
    // 150 identical records make 11,175 pairs: far more than a pipe buffer.
    dir.create("lines.txt", line.repeat(150));
    let script =
        r#"set -o pipefail; "$0" scan - < lines.txt 2> errors.txt | head -c 100 > /dev/null"#;
    let run = std::process::Command::new("bash")
        .args(["-c", script, env!("CARGO_BIN_EXE_simdup")])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let errors = std::fs::read_to_string(dir.path().join("errors.txt")).unwrap();
    assert_eq!(run.status.code(), Some(0), "{errors}");
    assert!(!errors.contains("panicked"), "{errors}");
    assert!(!errors.contains("Broken pipe"), "{errors}");
}
