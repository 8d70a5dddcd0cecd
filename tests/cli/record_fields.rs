//! `--text-field` and `--id-field` as dotted paths and JSON Pointers, for
//! `scan` and `dedup`.

use crate::util::{TestDir, json_lines, stderr, stdout};

/// Tickets with their text and id nested; tickets 1 and 3 are
/// near-duplicates, line 4 lacks the nested text.
const TICKETS: &str = concat!(
    r#"{"meta": {"id": "T-1", "body": "The export button does nothing on large reports"}}"#,
    "\n",
    r#"{"meta": {"id": "T-2", "body": "Please add a dark theme to the settings page"}}"#,
    "\n",
    r#"{"meta": {"id": "T-3", "body": "the export button does nothing on large reports!"}}"#,
    "\n",
    r#"{"meta": {"id": "T-4"}, "body": "a top-level body is not meta.body"}"#,
    "\n"
);

const SYNTAXES: [(&str, &str); 2] = [("meta.body", "meta.id"), ("/meta/body", "/meta/id")];

#[test]
fn scan_reads_nested_fields_either_way_and_names_a_missing_one() {
    let dir = TestDir::new();
    for (text, id) in SYNTAXES {
        let output = dir
            .simdup()
            .args(["scan", "--records", "jsonl", "--format", "jsonl"])
            .args(["--text-field", text, "--id-field", id])
            .write_stdin(TICKETS)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
        let pairs = json_lines(&output.stdout);
        assert_eq!(pairs.len(), 1, "{text}: {pairs:?}");
        assert_eq!(pairs[0]["a"], "T-1");
        assert_eq!(pairs[0]["b"], "T-3");
        let errors = stderr(&output);
        assert!(
            errors.contains(&format!("stdin:4: missing text field '{text}'")),
            "{errors}"
        );
    }
}

#[test]
fn dedup_reads_nested_fields_either_way() {
    let dir = TestDir::new();
    dir.create("tickets.jsonl", TICKETS);
    for (text, id) in SYNTAXES {
        let output = dir
            .simdup()
            .args(["dedup", "--records", "jsonl", "tickets.jsonl"])
            .args(["--text-field", text, "--id-field", id])
            .args(["--dropped", "dropped.jsonl"])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
        let kept: Vec<&str> = TICKETS.lines().take(2).collect();
        assert_eq!(stdout(&output), format!("{}\n{}\n", kept[0], kept[1]));
        let errors = stderr(&output);
        assert!(
            errors.contains(&format!("tickets.jsonl:4: missing text field '{text}'")),
            "{errors}"
        );
        let dropped = json_lines(&std::fs::read(dir.path().join("dropped.jsonl")).unwrap());
        assert_eq!(dropped.len(), 1);
        assert_eq!(dropped[0]["id"], "T-3");
        assert_eq!(dropped[0]["kept_id"], "T-1");
    }
}

#[test]
fn a_top_level_key_named_as_written_comes_first() {
    let dir = TestDir::new();
    let input = concat!(
        r#"{"a.b": "one two three four five six", "a": {"b": "unrelated words here"}}"#,
        "\n",
        r#"{"a": {"b": "one two three four five six"}}"#,
        "\n"
    );
    let output = dir
        .simdup()
        .args(["scan", "--records", "jsonl", "--text-field", "a.b"])
        .args(["--format", "jsonl", "-q"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let pairs = json_lines(&output.stdout);
    assert_eq!(pairs.len(), 1, "{pairs:?}");
    assert_eq!((&pairs[0]["a"], &pairs[0]["b"]), (&"1".into(), &"2".into()));
}

#[test]
fn a_bad_pointer_is_an_error_before_any_reading() {
    let dir = TestDir::new();
    for command in ["scan", "dedup"] {
        let output = dir
            .simdup()
            .args([command, "--records", "jsonl", "--text-field", "/meta/b~2"])
            .write_stdin(TICKETS)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2));
        let errors = stderr(&output);
        assert!(
            errors.contains("invalid JSON Pointer '/meta/b~2'"),
            "{command}: {errors}"
        );
        assert!(output.stdout.is_empty());
    }
}

/// A file that starts with a UTF-8 byte order mark, as some editors write:
/// its first record is read (and read again to verify its pair).
#[test]
fn a_byte_order_mark_starting_json_lines_is_skipped() {
    let dir = TestDir::new();
    let mut input = b"\xEF\xBB\xBF".to_vec();
    input.extend_from_slice(TICKETS.as_bytes());
    dir.create("tickets.jsonl", &input);
    let output = dir
        .simdup()
        .args([
            "scan",
            "--records",
            "jsonl",
            "tickets.jsonl",
            "--format",
            "jsonl",
        ])
        .args(["--text-field", "meta.body", "--id-field", "meta.id"])
        .output()
        .unwrap();
    let errors = stderr(&output);
    assert!(!errors.contains("tickets.jsonl:1:"), "{errors}");
    let pairs = json_lines(&output.stdout);
    assert_eq!(pairs.len(), 1, "{pairs:?}");
    assert_eq!(
        (&pairs[0]["a"], &pairs[0]["b"]),
        (&"T-1".into(), &"T-3".into())
    );
}
