//! Tests of reading fingerprint files back, in both formats.

use super::*;

fn record(name: impl AsRef<[u8]>, simhash: Option<u64>) -> FingerprintRecord {
    FingerprintRecord {
        name: name.as_ref().to_vec(),
        simhash,
        features: None,
        bytes: None,
        content_hash: None,
        short_text: None,
    }
}

fn read_one(text: impl AsRef<[u8]>, source_name: &str) -> Result<FingerprintSet> {
    let mut set = FingerprintSet::default();
    set.add_file(text.as_ref(), source_name)?;
    Ok(set)
}

fn error_of(result: Result<FingerprintSet>) -> String {
    match result {
        Ok(set) => panic!("accepted: {:?}", set.records),
        Err(error) => error.to_string(),
    }
}

const TEXT: &str = "# simdup fingerprint options=words:3,xxh3,tf digest=abc123
00000000000000ff  docs/a.md
# any other comment

\\8000000000000000  dir\\\\with\\nnewline.txt
FFFFFFFFFFFFFFFF  name with  two spaces
";

#[test]
fn text_format_with_header_and_escaped_paths() {
    let set = read_one(TEXT, "a.fp").unwrap();
    assert_eq!(
        set.records,
        [
            record("docs/a.md", Some(0xff)),
            record("dir\\with\nnewline.txt", Some(1 << 63)),
            record("name with  two spaces", Some(u64::MAX)),
        ]
    );
    assert_eq!(
        set.provenance,
        Some(Provenance {
            digest: "abc123".into(),
            options: Some("words:3,xxh3,tf".into()),
            source_name: "a.fp".into(),
            line: 1,
        })
    );
    assert!(set.files_without_digest.is_empty());
}

#[test]
fn json_lines_format_with_null_simhash() {
    let text = r#"{"path": "a.txt", "simhash": "00000000000000ff", "features": 12, "bytes": 80, "content_hash": "0123456789abcdef", "options": "words:3", "digest": "abc123"}
{"path": "empty.txt", "simhash": null, "features": 0, "bytes": 0, "digest": "abc123"}
"#;
    let set = read_one(text, "b.jsonl").unwrap();
    assert_eq!(
        set.records,
        [
            FingerprintRecord {
                name: b"a.txt".to_vec(),
                simhash: Some(0xff),
                features: Some(12),
                bytes: Some(80),
                content_hash: Some(0x0123_4567_89ab_cdef),
                short_text: None,
            },
            FingerprintRecord {
                features: Some(0),
                bytes: Some(0),
                ..record("empty.txt", None)
            },
        ]
    );
    assert_eq!(set.provenance.unwrap().options.as_deref(), Some("words:3"));
}

#[test]
fn json_lines_carry_a_short_texts_character_pairs_both_or_neither() {
    let text = r#"{"path": "t.txt", "simhash": "00000000000000ff", "short_simhash": "000000000000abcd", "short_features": 9}
"#;
    let set = read_one(text, "s.jsonl").unwrap();
    assert_eq!(
        set.records,
        [FingerprintRecord {
            short_text: Some(SavedShortText {
                simhash: 0xabcd,
                features: 9,
            }),
            ..record("t.txt", Some(0xff))
        }]
    );
    for (bad, said) in [
        (
            r#"{"path": "t", "simhash": null, "short_simhash": "000000000000abcd"}"#,
            "fields 'short_simhash' and 'short_features' go together",
        ),
        (
            r#"{"path": "t", "simhash": null, "short_simhash": "abcd", "short_features": 9}"#,
            "field 'short_simhash' is not 16 hex digits",
        ),
    ] {
        let error = error_of(read_one(bad, "s.jsonl"));
        assert!(error.contains(said), "{error}");
        assert!(error.contains("s.jsonl:1"), "{error}");
    }
}

#[test]
fn json_lines_take_a_name_that_is_not_utf8_from_its_base64() {
    let text = r#"{"path": "a\ufffd.txt", "path_bytes": "Yf8udHh0", "simhash": "00000000000000ff"}
{"path": "b.txt", "path_bytes": null, "simhash": "0000000000000001"}
"#;
    let set = read_one(text, "n.jsonl").unwrap();
    assert_eq!(
        set.records,
        [record(b"a\xff.txt", Some(0xff)), record("b.txt", Some(1))]
    );
    for (bad, said) in [
        (
            r#"{"path": "a", "path_bytes": "Yf8*", "simhash": null}"#,
            "field 'path_bytes' is not base64",
        ),
        (
            r#"{"path": "a", "path_bytes": 3, "simhash": null}"#,
            "field 'path_bytes' is not a string",
        ),
    ] {
        let error = error_of(read_one(bad, "n.jsonl"));
        assert!(error.contains(said), "{error}");
    }
}

#[test]
fn malformed_lines_name_file_and_line() {
    let cases = [
        ("0123  a\n", "t.fp:1: expected 16 hex digits"),
        (
            "# c\n+123456789abcdef  a\n",
            "t.fp:2: expected 16 hex digits",
        ),
        ("0123456789abcdef a\n", "t.fp:1: expected two spaces"),
        ("0123456789abcdef  \n", "t.fp:1: expected two spaces"),
        ("\\0123456789abcdef  a\\tb\n", "t.fp:1: invalid escape"),
        (
            "{\"path\": \"a\", \"simhash\": \"xyz\"}\n",
            "t.fp:1: field 'simhash' is not 16 hex",
        ),
        ("{\"path\": \"a\"}\n", "t.fp:1: expected a field 'simhash'"),
        (
            "{\"simhash\": null}\n",
            "t.fp:1: expected a string field 'path'",
        ),
        (
            "{\"path\": \"a\", \"simhash\": null, \"bytes\": -1}\n",
            "t.fp:1: field 'bytes' is not a whole number",
        ),
        (
            "{\"path\": \"a\", \"simhash\": null}\n{oops\n",
            "t.fp:2: invalid JSON",
        ),
    ];
    for (text, expected) in cases {
        let error = error_of(read_one(text, "t.fp"));
        assert!(error.starts_with(expected), "{text:?}: {error}");
    }
}

#[test]
fn differing_digests_are_refused_naming_both_files() {
    let mut set = FingerprintSet::default();
    set.add_file(TEXT.as_bytes(), "a.fp").unwrap();
    let other = r#"{"path": "x", "simhash": null, "options": "chars:5", "digest": "def456"}"#;
    let error = set
        .add_file(other.as_bytes(), "b.jsonl")
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("a.fp:1 has digest abc123 (options words:3,xxh3,tf)"),
        "{error}"
    );
    assert!(
        error.contains("b.jsonl:1 has digest def456 (options chars:5)"),
        "{error}"
    );
    // Same digest in another format merges.
    let same = r#"{"path": "y", "simhash": "0000000000000001", "digest": "abc123"}"#;
    set.add_file(same.as_bytes(), "c.jsonl").unwrap();
    assert_eq!(set.records.last().unwrap(), &record("y", Some(1)));
}

#[test]
fn concatenated_files_are_checked_too() {
    let mixed = "# simdup fingerprint options=a digest=1\n0000000000000001  x\n# simdup fingerprint options=b digest=2\n";
    let error = error_of(read_one(mixed, "cat.fp"));
    assert!(
        error.contains("cat.fp:1 has digest 1") && error.contains("cat.fp:3 has digest 2"),
        "{error}"
    );
}

#[test]
fn files_without_digest_are_accepted_and_listed() {
    let mut set = FingerprintSet::default();
    set.add_file("0000000000000001  x\n".as_bytes(), "plain.fp")
        .unwrap();
    set.add_file(TEXT.as_bytes(), "a.fp").unwrap();
    set.add_file("".as_bytes(), "empty.fp").unwrap();
    assert_eq!(set.files_without_digest, ["plain.fp", "empty.fp"]);
    assert_eq!(set.records.len(), 4);
}

#[test]
fn read_fingerprint_files_opens_paths_and_names_missing_ones() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.fp");
    std::fs::write(&a, TEXT).unwrap();
    let set = read_fingerprint_files(std::slice::from_ref(&a)).unwrap();
    assert_eq!(set.records.len(), 3);
    assert_eq!(set.provenance.unwrap().source_name, a.display().to_string());
    let missing = dir.path().join("missing.fp");
    let error = error_of(read_fingerprint_files(&[a, missing.clone()]));
    assert!(error.starts_with(&missing.display().to_string()), "{error}");
}

proptest::proptest! {
    /// Whatever the name, UTF-8 or not, the text format gives it back
    /// unchanged.
    #[test]
    fn text_lines_round_trip(
        simhash: u64,
        name in proptest::collection::vec(1u8..=255, 1..40),
    ) {
        let mut line = Vec::new();
        write_text_line(&mut line, simhash, &name).unwrap();
        let set = read_one(&line, "p.fp").unwrap();
        proptest::prop_assert_eq!(&set.records, &[record(&name, Some(simhash))]);
    }
}

#[test]
fn written_lines_escape_like_coreutils() {
    let mut out = Vec::new();
    write_text_line(&mut out, 0xff, b"plain name").unwrap();
    write_text_line(&mut out, 1, b"a\\b\nc").unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "00000000000000ff  plain name\n\\0000000000000001  a\\\\b\\nc\n"
    );
}
