//! Tests of the record reader in all three formats.

use std::io::BufReader;

use proptest::prelude::*;

use super::*;

fn options(format: RecordFormat) -> RecordOptions {
    RecordOptions {
        format,
        ..RecordOptions::default()
    }
}

/// Each outcome as `id@line:text`, `skip id@line:reason` or `error message`.
fn describe(item: Outcome<Record>) -> String {
    match item {
        Outcome::Done(r) => {
            let id = r.id.clone().unwrap_or_else(|| r.line.to_string());
            format!("{id}@{}:{}", r.line, String::from_utf8_lossy(&r.text))
        }
        Outcome::Skipped { name, reason } => {
            // Named `stdin:LINE`: the id of a skipped record is its line.
            let line = name.strip_prefix("stdin:").expect("named by its line");
            format!("skip {line}@{line}:{reason}")
        }
        Outcome::Failed(error) => format!("error {error}"),
    }
}

fn read(input: &[u8], options: &RecordOptions) -> Vec<String> {
    RecordReader::new(input, "stdin", options)
        .map(describe)
        .collect()
}

#[test]
fn lines_are_records_numbered_by_line() {
    let input = b"12 Main St\r\n\n12 Main Street\nlast";
    assert_eq!(
        read(input, &options(RecordFormat::Lines)),
        ["1@1:12 Main St", "2@2:", "3@3:12 Main Street", "4@4:last"]
    );
    assert_eq!(read(b"a\n", &options(RecordFormat::Lines)), ["1@1:a"]);
    assert!(read(b"", &options(RecordFormat::Lines)).is_empty());
}

#[test]
fn nul_records_keep_newlines_and_carriage_returns() {
    let input = b"a\nb\r\0c\0";
    assert_eq!(
        read(input, &options(RecordFormat::Nul)),
        ["1@1:a\nb\r", "2@2:c"]
    );
}

/// Found by the `records` fuzz target: when `--id-field` named the text
/// field, the value went to the text alone and every record was rejected
/// for a missing id.
#[test]
fn the_id_field_may_be_the_text_field() {
    let options = RecordOptions {
        format: RecordFormat::JsonLines,
        text_field: "id".to_string(),
        id_field: Some("id".to_string()),
        ..RecordOptions::default()
    };
    let input = b"{\"id\":\"x\",\"text\":\"b\"}\n{\"id\":7}\n";
    assert_eq!(
        read(input, &options),
        [
            "x@1:x".to_string(),
            "error stdin:2: field 'id' is not a string".to_string()
        ]
    );
}

#[test]
fn json_lines_take_text_and_id_fields() {
    let input = br#"{"text": "one", "id": "a-1"}

{"id": 7, "text": "two", "other": [1, 2]}
{"id": 2.5, "text": "three"}
"#;
    let with_id = RecordOptions {
        id_field: Some("id".into()),
        ..options(RecordFormat::JsonLines)
    };
    assert_eq!(
        read(input, &with_id),
        ["a-1@1:one", "7@3:two", "2.5@4:three"]
    );
    assert_eq!(
        read(input, &options(RecordFormat::JsonLines)),
        ["1@1:one", "3@3:two", "4@4:three"],
        "without an id field, records are numbered by line"
    );
    let body = RecordOptions {
        text_field: "body".into(),
        ..options(RecordFormat::JsonLines)
    };
    assert_eq!(read(br#"{"body": "x\ny"}"#, &body), ["1@1:x\ny"]);
}

#[test]
fn malformed_json_lines_are_errors_with_line_numbers_and_reading_goes_on() {
    let input = br#"{"text": "ok", "id": 1}
{"text": "unterminated
["not", "an", "object"]
{"id": 2}
{"text": 3, "id": 3}
{"text": "no id"}
{"text": "bad id", "id": null}
{"text": "fine", "id": "6"}
"#;
    let with_id = RecordOptions {
        id_field: Some("id".into()),
        ..options(RecordFormat::JsonLines)
    };
    let outcomes = read(input, &with_id);
    assert_eq!(outcomes.len(), 8, "{outcomes:?}");
    assert_eq!(outcomes[0], "1@1:ok");
    assert!(
        outcomes[1].starts_with("error stdin:2: invalid JSON"),
        "{}",
        outcomes[1]
    );
    assert_eq!(outcomes[2], "error stdin:3: expected a JSON object");
    assert_eq!(outcomes[3], "error stdin:4: missing text field 'text'");
    assert_eq!(outcomes[4], "error stdin:5: field 'text' is not a string");
    assert_eq!(outcomes[5], "error stdin:6: missing id field 'id'");
    assert_eq!(
        outcomes[6],
        "error stdin:7: id field 'id' is neither a string nor a number"
    );
    assert_eq!(outcomes[7], "6@8:fine");
}

#[test]
fn a_byte_order_mark_starting_json_lines_is_skipped_but_not_elsewhere() {
    let jsonl = options(RecordFormat::JsonLines);
    let input = b"\xEF\xBB\xBF{\"text\": \"one\"}\n\xEF\xBB\xBF{\"text\": \"two\"}\n";
    let outcomes = read(input, &jsonl);
    assert_eq!(outcomes[0], "1@1:one");
    assert!(
        outcomes[1].starts_with("error stdin:2: invalid JSON"),
        "{}",
        outcomes[1]
    );
    // A mark alone on the first line leaves it blank.
    assert!(read(b"\xEF\xBB\xBF\n", &jsonl).is_empty());
    // In lines it is text, as any other character.
    let lines = read(b"\xEF\xBB\xBFone\n", &options(RecordFormat::Lines));
    assert_eq!(lines, ["1@1:\u{feff}one"]);
}

#[test]
fn oversized_records_are_skipped_and_reading_goes_on() {
    let small = |format| RecordOptions {
        max_record_bytes: 5,
        ..options(format)
    };
    assert_eq!(
        read(b"12345\r\n123456\nabc\n", &small(RecordFormat::Lines)),
        ["1@1:12345", "skip 2@2:too_large", "3@3:abc"]
    );
    assert_eq!(
        read(b"123456\0abc", &small(RecordFormat::Nul)),
        ["skip 1@1:too_large", "2@2:abc"]
    );
    let json = RecordOptions {
        max_record_bytes: 20,
        ..options(RecordFormat::JsonLines)
    };
    assert_eq!(
        read(
            b"{\"text\": \"a long long text\"}\n{\"text\": \"b\"}\n",
            &json
        ),
        ["skip 1@1:too_large", "2@2:b"]
    );
}

#[test]
fn an_oversized_record_is_never_buffered_whole() {
    // A 64 MiB line through a 1 KiB limit: the reader streams past it.
    struct Endless(usize);
    impl std::io::Read for Endless {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = buf.len().min(self.0);
            buf[..n].fill(b'x');
            self.0 -= n;
            Ok(n)
        }
    }
    let options = RecordOptions {
        max_record_bytes: 1024,
        ..options(RecordFormat::Lines)
    };
    let mut reader = RecordReader::new(BufReader::new(Endless(64 << 20)), "stdin", &options);
    assert!(matches!(
        reader.next(),
        Some(Outcome::Skipped {
            reason: SkipReason::TooLarge,
            ref name,
        }) if name == "stdin:1"
    ));
    // What is kept is bounded by one read of a block, not by the record:
    // 64 MiB went through a reader that holds at most a few MiB.
    let kept = reader.blocks.blocks.buffered();
    assert!(
        kept <= 2 * super::super::blocks::BLOCK_BYTES + 1024,
        "kept {kept} bytes"
    );
    assert!(reader.next().is_none());
}

#[test]
fn an_io_error_ends_the_records() {
    struct Failing;
    impl std::io::Read for Failing {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("device gone"))
        }
    }
    let mut reader = RecordReader::new(BufReader::new(Failing), "stdin", &RecordOptions::default());
    let Some(Outcome::Failed(error)) = reader.next() else {
        panic!("no error");
    };
    assert_eq!(error.to_string(), "stdin: device gone");
    assert!(reader.next().is_none());
}

fn format() -> impl Strategy<Value = RecordFormat> {
    prop_oneof![
        Just(RecordFormat::Lines),
        Just(RecordFormat::Nul),
        Just(RecordFormat::JsonLines)
    ]
}

proptest! {
    /// Records do not depend on how the stream is buffered.
    #[test]
    fn same_records_whatever_the_buffer_capacity(
        input in proptest::collection::vec(
            prop_oneof![Just(b'\n'), Just(0u8), Just(b'\r'), Just(b'{'), Just(b'"'), any::<u8>()],
            0..300,
        ),
        format in format(),
        max_record_bytes in 0usize..40,
        capacity in 1usize..64,
    ) {
        let options = RecordOptions { max_record_bytes, ..options(format) };
        let whole = read(&input, &options);
        let buffered: Vec<String> =
            RecordReader::new(BufReader::with_capacity(capacity, &input[..]), "stdin", &options)
                .map(describe)
                .collect();
        prop_assert_eq!(whole, buffered);
    }

    /// Records do not depend on where the stream is cut into blocks.
    #[test]
    fn same_records_whatever_the_block_size(
        input in proptest::collection::vec(
            prop_oneof![Just(b'\n'), Just(0u8), Just(b'\r'), Just(b'{'), Just(b'"'), any::<u8>()],
            0..300,
        ),
        format in format(),
        max_record_bytes in 0usize..40,
        block_bytes in 1usize..50,
    ) {
        let options = RecordOptions { max_record_bytes, ..options(format) };
        let whole = read(&input, &options);
        let blocked: Vec<String> =
            RecordBlocks::with_block_bytes(&input[..], "stdin", &options, block_bytes)
                .flat_map(|block| block.parse())
                .map(describe)
                .collect();
        prop_assert_eq!(whole, blocked);
    }

    /// Lines: every line comes out, in order, as itself (or skipped).
    #[test]
    fn lines_round_trip(lines in proptest::collection::vec("[^\n\r]{0,12}", 0..20)) {
        let input: String = lines.iter().map(|line| format!("{line}\n")).collect();
        let options = RecordOptions { max_record_bytes: 8, ..options(RecordFormat::Lines) };
        let records: Vec<Outcome<Record>> =
            RecordReader::new(input.as_bytes(), "stdin", &options).collect();
        prop_assert_eq!(records.len(), lines.len());
        for (i, (line, record)) in lines.iter().zip(&records).enumerate() {
            match record {
                Outcome::Done(r) => {
                    prop_assert!(line.len() <= 8);
                    prop_assert_eq!(&r.text, line.as_bytes());
                    prop_assert_eq!(r.line, i as u64 + 1);
                }
                Outcome::Skipped { reason, .. } => {
                    prop_assert!(line.len() > 8);
                    prop_assert_eq!(*reason, SkipReason::TooLarge);
                }
                Outcome::Failed(error) => prop_assert!(false, "{error}"),
            }
        }
    }
}

/// Pinned after the `records` fuzz target met it: fields that are not read
/// are skipped unchecked, so bytes that are not UTF-8 there keep the
/// record; in the text field they reject it.
#[test]
fn bytes_that_are_not_utf8_matter_only_in_fields_read() {
    let options = options(RecordFormat::JsonLines);
    let input = b"{\"text\":\"a\",\"tt\":\"\xff\xe8\"}\n{\"text\":\"\xff\"}\n";
    let got = read(input, &options);
    assert_eq!(got[0], "1@1:a");
    assert!(got[1].starts_with("error stdin:2: invalid JSON"), "{got:?}");
    assert_eq!(got.len(), 2);
}

/// Also met by the `records` fuzz target: an escaped lone UTF-16
/// surrogate (valid JSON grammar, no Unicode scalar) keeps the record in a
/// field that is not read, and rejects it in the text field.
#[test]
fn lone_surrogates_matter_only_in_fields_read() {
    let options = options(RecordFormat::JsonLines);
    let input = b"{\"id\":\"x\\ud800\",\"text\":\"b\"}\n{\"text\":\"\\udc00\"}\n";
    let got = read(input, &options);
    assert_eq!(got[0], "1@1:b");
    assert!(got[1].starts_with("error stdin:2: invalid JSON"), "{got:?}");
    assert_eq!(got.len(), 2);
}

fn fields(text: &str, id: Option<&str>) -> RecordOptions {
    RecordOptions {
        text_field: text.into(),
        id_field: id.map(str::to_string),
        ..options(RecordFormat::JsonLines)
    }
}

#[test]
fn nested_fields_by_dotted_path_or_json_pointer() {
    let input = br#"{"meta": {"body": "one", "id": "m-1"}, "body": "top"}
{"meta": {"id": 7, "body": "two", "tags": ["a", {"t": "x"}]}}
"#;
    for (text, id) in [("meta.body", "meta.id"), ("/meta/body", "/meta/id")] {
        assert_eq!(
            read(input, &fields(text, Some(id))),
            ["m-1@1:one", "7@2:two"],
            "{text} {id}"
        );
    }
    // Array elements by index, both ways.
    for text in ["meta.tags.1.t", "/meta/tags/1/t"] {
        assert_eq!(
            read(input, &fields(text, None)),
            [
                "error stdin:1: missing text field '".to_string() + text + "'",
                "2@2:x".to_string()
            ]
        );
    }
    // Pointer escapes: `~1` is `/`, `~0` is `~`.
    let escaped = br#"{"a/b": {"c~d": "escaped"}}"#;
    assert_eq!(read(escaped, &fields("/a~1b/c~0d", None)), ["1@1:escaped"]);
}

/// A top-level key named exactly as written wins over the path, so every
/// name that worked before still means the same key.
#[test]
fn a_top_level_key_holding_a_dot_comes_first() {
    let input = br#"{"a.b": "literal", "a": {"b": "nested"}}
{"a": {"b": "nested"}}
{"/a/b": "literal pointer", "a": {"b": "nested"}}
"#;
    assert_eq!(
        read(input, &fields("a.b", None)),
        ["1@1:literal", "2@2:nested", "3@3:nested"]
    );
    assert_eq!(
        read(input, &fields("/a/b", None)),
        ["1@1:nested", "2@2:nested", "3@3:literal pointer"]
    );
    // A key with a dot below the top level: a pointer reaches it.
    let deeper = br#"{"m": {"file.name": "x"}}"#;
    assert_eq!(read(deeper, &fields("/m/file.name", None)), ["1@1:x"]);
    assert_eq!(
        read(deeper, &fields("m.file.name", None)),
        ["error stdin:1: missing text field 'm.file.name'"]
    );
}

#[test]
fn a_missing_or_mistyped_nested_field_is_malformed_at_its_line() {
    let input = br#"{"meta": {"body": "ok", "id": 1}}
{"meta": {"id": 2}}
{"meta": "not an object"}
{"meta": {"body": ["x"], "id": 4}}
{"meta": {"body": "no id"}}
"#;
    assert_eq!(
        read(input, &fields("meta.body", Some("/meta/id"))),
        [
            "1@1:ok",
            "error stdin:2: missing text field 'meta.body'",
            "error stdin:3: missing text field 'meta.body'",
            "error stdin:4: field 'meta.body' is not a string",
            "error stdin:5: missing id field '/meta/id'",
        ]
    );
}

#[test]
fn a_bad_pointer_escape_is_a_usage_error() {
    let error = fields("/a~2", None).validate().unwrap_err();
    assert!(matches!(error, Error::Usage(_)));
    assert!(error.to_string().contains("/a~2"), "{error}");
    assert!(fields("/a~1b", Some("x.y")).validate().is_ok());
    assert!(fields("text", Some("/i~")).validate().is_err());
}

/// A JSON value as written, with the forms the one-pass reader must
/// treat as the general reader does (and a few invalid ones).
fn json_value() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        prop::sample::select(vec![
            "0",
            "-0",
            "12",
            "-7",
            "1.5",
            "-2.5e+3",
            "1E9",
            "01",
            "1.",
            "-",
            "1e400",
            "true",
            "false",
            "null",
            "tru",
            "\"\"",
            "\"\\ud800\"",
            "\"\\udc00\"",
            "\"\\q\"",
            "\"\\ud83d\\ude00\"",
            "\"\u{1}\"",
            "12345678901234567890",
        ])
        .prop_map(str::to_string),
        "[ -~\u{e9}\u{1F600}\n\t]{0,8}".prop_map(|s| serde_json::to_string(&s).unwrap()),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4)
                .prop_map(|items| format!("[{}]", items.join(","))),
            proptest::collection::vec((json_key(), inner), 0..4).prop_map(|members| {
                let members: Vec<String> =
                    members.iter().map(|(k, v)| format!("{k}:{v}")).collect();
                format!("{{ {} }}", members.join(" , "))
            }),
        ]
    })
}

/// An object key as written: the text and id fields, others, escaped ones.
fn json_key() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => Just("\"text\""),
        2 => Just("\"id\""),
        3 => prop::sample::select(vec!["\"k\"", "\"te\\u0078t\"", "\"\"", "\"t\\\"\""]),
    ]
    .prop_map(str::to_string)
}

proptest! {
    // Cheap cases, and the rarer forms need many.
    #![proptest_config(ProptestConfig::with_cases(2048))]

    /// What the one-pass reader accepts, the general reader accepts with
    /// the same text and id; and it takes the usual records.
    #[test]
    fn the_one_pass_reader_agrees_with_the_general_one(
        members in proptest::collection::vec((json_key(), json_value()), 0..5),
        mutation in proptest::option::of((any::<prop::sample::Index>(), prop::sample::select(vec![
            "", "{", "}", "[", "]", ":", ",", "\"", "\\", "0", ".", "e", "-", " ", "\u{1}", "\u{e9}",
        ]))),
        with_id in any::<bool>(),
        // Long enough to cross the one-pass reader's blocks of 32 bytes.
        text in "[ -~\u{e9}\u{1F600}\n\t]{0,80}",
        id in prop_oneof!["[a-z0-9/]{0,6}".prop_map(|s| format!("{s:?}")), (1u64..1 << 40).prop_map(|n| n.to_string())],
    ) {
        let options = RecordOptions {
            format: RecordFormat::JsonLines,
            id_field: with_id.then(|| "id".to_string()),
            ..RecordOptions::default()
        };
        let fields = FieldPaths::parse(&options).unwrap();
        let id_key = with_id.then_some("id");
        let members: Vec<String> = members.iter().map(|(k, v)| format!("{k}:{v}")).collect();
        let mut line = format!(r#" {{"text":{},"id":{id}{}{}}} "#,
            serde_json::to_string(&text).unwrap(),
            if members.is_empty() { "" } else { "," },
            members.join(","));
        if let Some((at, insert)) = mutation {
            // Cut or insert at a character boundary.
            let mut at = at.index(line.len() + 1);
            while !line.is_char_boundary(at) {
                at -= 1;
            }
            if insert.is_empty() {
                if let Some(c) = line[at..].chars().next() {
                    line.replace_range(at..at + c.len_utf8(), "");
                }
            } else {
                line.insert_str(at, insert);
            }
        }
        let general = json_record_in_general(line.as_bytes(), 1, &options, &fields, "in");
        if let Some((one_pass_text, one_pass_id)) =
            super::super::json_top_level::read(line.as_bytes(), "text", id_key)
        {
            let general = general.map_err(|e| e.to_string());
            prop_assert_eq!(
                general,
                Ok(Record { id: one_pass_id, line: 1, text: one_pass_text }),
                "line {}", line
            );
        }
        let usual = format!(r#"{{"id":{id},"text":{}}}"#, serde_json::to_string(&text).unwrap());
        let read = super::super::json_top_level::read(usual.as_bytes(), "text", id_key);
        prop_assert_eq!(
            read.map(|(text, _)| text),
            Some(text.into_bytes()),
            "the usual record is read in one pass"
        );
    }
}
