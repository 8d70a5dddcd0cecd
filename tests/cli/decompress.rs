//! gzip files read as the text they hold (`-z/--decompress`).

use std::io::Write;

use crate::util::{TestDir, assert_inputs_add_up, edit, stderr, text};

fn gzip(text: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(text).unwrap();
    encoder.finish().unwrap()
}

/// `simdup ARGS --format json` in `dir`, which must exit 0 or 1.
fn report(dir: &TestDir, args: &[&str]) -> serde_json::Value {
    let output = dir
        .simdup()
        .args(args)
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "{}",
        stderr(&output)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

/// A text and a near-copy of it, plain in `plain/` and gzipped in `gz/`.
fn near_copies(dir: &TestDir) {
    let body = text(60, 400);
    let copy = edit(&body, &[30, 200]);
    for (name, contents) in [("a.txt", &body), ("b.txt", &copy)] {
        dir.create(&format!("plain/{name}"), contents);
        dir.create(&format!("gz/{name}.gz"), gzip(contents.as_bytes()));
    }
}

#[test]
fn gzip_files_pair_as_their_text_does_and_are_skipped_without_z() {
    let dir = TestDir::new();
    near_copies(&dir);
    let plain = report(&dir, &["scan", "plain"]);
    let zipped = report(&dir, &["scan", "-z", "gz"]);
    let jaccard = &plain["pairs"][0]["jaccard"];
    assert!(jaccard.as_f64().unwrap() < 1.0, "{plain}");
    // Verification read both files again, decompressed: the same Jaccard.
    assert_eq!(&zipped["pairs"][0]["jaccard"], jaccard, "{zipped}");
    assert_eq!(zipped["pairs"][0]["a"], "gz/a.txt.gz");
    assert!(
        zipped["params"]["features"]
            .as_str()
            .unwrap()
            .contains("decompress")
    );
    let without = report(&dir, &["scan", "gz"]);
    assert_eq!(without["stats"]["skipped"]["compressed"], 2, "{without}");
    assert_inputs_add_up(&zipped["stats"]);
}

#[test]
fn a_gzipped_file_fingerprints_as_its_text_and_explains_as_it() {
    let dir = TestDir::new();
    near_copies(&dir);
    let fingerprint = |args: &[&str]| -> String {
        let output = dir.simdup().arg("fingerprint").args(args).output().unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        String::from_utf8(output.stdout).unwrap()
    };
    let plain = fingerprint(&["plain/a.txt"]);
    let zipped = fingerprint(&["-z", "gz/a.txt.gz"]);
    assert_eq!(
        plain.split_whitespace().next(),
        zipped.split_whitespace().next()
    );
    let explained = report(&dir, &["explain", "-z", "gz/a.txt.gz", "gz/b.txt.gz"]);
    let plain_explained = report(&dir, &["explain", "plain/a.txt", "plain/b.txt"]);
    assert_eq!(
        explained["jaccard"], plain_explained["jaccard"],
        "{explained}"
    );
}

#[test]
fn the_markup_format_is_that_of_the_name_inside() {
    let dir = TestDir::new();
    let words = text(61, 120);
    let markdown = format!("# Notes\n\n**{words}** [see](https://example.com/a \"A\")\n");
    let html = format!(
        "<html><head><style>p {{ margin: 0 }}</style></head><body><h1>Notes</h1>\n\
         <p><b>{words}</b> <a href=\"https://example.com/a\" title=\"A\">see</a></p></body></html>\n"
    );
    dir.create("docs/notes.md.gz", gzip(markdown.as_bytes()));
    dir.create("docs/notes.html", html);
    let both = report(&dir, &["scan", "-z", "docs"]);
    assert_eq!(both["pairs"][0]["jaccard"], 1.0, "{both}");
}

#[test]
fn bad_gzip_is_reported_by_name_and_the_run_goes_on() {
    let dir = TestDir::new();
    near_copies(&dir);
    let whole = gzip(text(62, 400).as_bytes());
    dir.create("gz/truncated.txt.gz", &whole[..whole.len() / 2]);
    let output = dir
        .simdup()
        .args(["scan", "-z", "gz", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    let message = stderr(&output);
    assert!(
        message.contains("gz/truncated.txt.gz") && message.contains("bad gzip data"),
        "{message}"
    );
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(value["pairs"].as_array().unwrap().len(), 1, "{value}");
    assert_eq!(value["stats"]["errors"], 1);
    assert_inputs_add_up(&value["stats"]);
}

#[test]
fn max_filesize_bounds_the_decompressed_text_and_binary_text_is_skipped() {
    let dir = TestDir::new();
    // 40 KB of text in far fewer bytes of gzip.
    let long = text(63, 8000);
    dir.create("gz/long.txt.gz", gzip(long.as_bytes()));
    let mut binary = text(64, 100).into_bytes();
    binary.push(0);
    dir.create("gz/binary.gz", gzip(&binary));
    let output = dir
        .simdup()
        .args([
            "scan",
            "-z",
            "gz",
            "--max-filesize",
            "20K",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    let message = stderr(&output);
    assert!(
        message.contains("gz/long.txt.gz") && message.contains("decompressed text went past"),
        "{message}"
    );
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(value["stats"]["skipped"]["binary"], 1, "{value}");
    assert_inputs_add_up(&value["stats"]);
}

#[test]
fn decompress_and_transform_do_not_go_together() {
    let dir = TestDir::new();
    near_copies(&dir);
    let output = dir
        .simdup()
        .args(["scan", "-z", "--transform", "cat", "gz"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("--decompress and --transform"));
}

#[test]
fn the_config_file_can_turn_it_on() {
    let dir = TestDir::new();
    near_copies(&dir);
    dir.create("simdup.toml", "decompress = true\n");
    let zipped = report(&dir, &["scan", "gz"]);
    assert_eq!(zipped["pairs"].as_array().unwrap().len(), 1, "{zipped}");
    let off = report(&dir, &["scan", "gz", "--no-config"]);
    assert_eq!(off["stats"]["skipped"]["compressed"], 2, "{off}");
}

#[test]
fn gzipped_records_dedup_and_scan_as_their_text_does() {
    let dir = TestDir::new();
    let mut lines = String::new();
    for seed in 0..40 {
        let line = text(70 + seed % 10, 12);
        lines.push_str(&edit(&line, &[(seed as usize) % 12]));
        lines.push('\n');
    }
    dir.create("lines.txt", &lines);
    dir.create("lines.txt.gz", gzip(lines.as_bytes()));
    let run = |args: &[&str], stdin: Option<Vec<u8>>| -> Vec<u8> {
        let mut command = dir.simdup();
        command.args(args);
        if let Some(stdin) = stdin {
            command.write_stdin(stdin);
        }
        let output = command.output().unwrap();
        assert!(
            matches!(output.status.code(), Some(0 | 1)),
            "{}",
            stderr(&output)
        );
        output.stdout
    };
    let plain = run(&["dedup", "lines.txt"], None);
    assert!(plain.len() < lines.len(), "some lines are near-copies");
    assert_eq!(run(&["dedup", "-z", "lines.txt.gz"], None), plain);
    let piped = run(&["dedup", "-z"], Some(gzip(lines.as_bytes())));
    assert_eq!(piped, plain);
    // A stream that is not gzip is read as it is.
    assert_eq!(run(&["dedup", "-z", "lines.txt"], None), plain);
    let pairs = |file: &str, z: &[&str]| {
        let mut args = vec!["scan", "--records", "lines", file, "--format", "csv"];
        args.extend_from_slice(z);
        run(&args, None)
    };
    assert_eq!(pairs("lines.txt.gz", &["-z"]), pairs("lines.txt", &[]));
}

#[test]
fn without_z_a_gzip_file_named_for_explain_says_how_to_read_it() {
    let dir = TestDir::new();
    near_copies(&dir);
    let output = dir
        .simdup()
        .args(["explain", "gz/a.txt.gz", "gz/b.txt.gz"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let message = stderr(&output);
    assert!(
        message.contains("gz/a.txt.gz") && message.contains("compressed (gzip: -z reads its text)"),
        "{message}"
    );
}

#[test]
fn gzipped_records_are_indexed_as_their_text() {
    let dir = TestDir::new();
    let records: String = (0..3)
        .map(|seed| {
            let record = serde_json::json!({"id": format!("r{seed}"), "text": text(80 + seed, 30)});
            format!("{record}\n")
        })
        .collect();
    dir.create("records.jsonl", &records);
    dir.create("records.jsonl.gz", gzip(records.as_bytes()));
    let listed = |file: &str, db: &str, z: &[&str]| -> String {
        let added = dir
            .simdup()
            .args([
                "index",
                "add",
                file,
                "--db",
                db,
                "--records",
                "jsonl",
                "--id-field",
                "id",
            ])
            .args(z)
            .output()
            .unwrap();
        assert_eq!(added.status.code(), Some(0), "{}", stderr(&added));
        let ls = dir
            .simdup()
            .args(["index", "ls", "--db", db])
            .output()
            .unwrap();
        String::from_utf8(ls.stdout).unwrap()
    };
    let plain = listed("records.jsonl", "plain.db", &[]);
    assert!(plain.contains("r2"), "{plain}");
    assert_eq!(listed("records.jsonl.gz", "zipped.db", &["-z"]), plain);
}
