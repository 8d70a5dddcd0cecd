//! `simdup dedup`: filtering records, the account of what was removed,
//! malformed records, determinism, streaming and pipes.

use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;
use std::time::Duration;

use crate::util::{SHOPS, TestDir, json_lines, repo, run_and_close_pipe, stderr, stdout, text};

/// Lines of ten words: `count` records, every fifth a near-copy (one
/// word changed) of an earlier one, every seventh an exact copy.
fn log_lines(count: usize) -> String {
    let mut lines: Vec<String> = Vec::with_capacity(count);
    for i in 0..count {
        let line = if i % 5 == 4 {
            let original = &lines[i - 3];
            let first = original.split(' ').next().unwrap_or_default().len();
            format!("changed{}", &original[first..])
        } else if i % 7 == 6 {
            lines[i - 2].clone()
        } else {
            text(i as u64, 10).trim_end().to_string()
        };
        lines.push(line);
    }
    lines.join("\n") + "\n"
}

#[test]
fn keeps_the_first_of_each_set_of_near_copies() {
    let dir = TestDir::new();
    std::fs::copy(
        repo().join("fixtures/records/addresses.txt"),
        dir.path().join("addresses.txt"),
    )
    .unwrap();
    let output = dir
        .simdup()
        .args(["dedup", "addresses.txt", "--dropped", "dropped.jsonl"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let kept = stdout(&output);
    let input = std::fs::read_to_string(dir.path().join("addresses.txt")).unwrap();
    // Kept lines are input lines, in input order.
    let mut rest = input.lines();
    for line in kept.lines() {
        assert!(rest.any(|other| other == line), "{line} out of order");
    }
    assert!(kept.contains("One Stop Bakery, 1304 High St Rd, Wantirna, VIC, 3152\n"));
    assert!(!kept.contains("1304 High Street Rd"));
    let dropped = json_lines(&std::fs::read(dir.path().join("dropped.jsonl")).unwrap());
    let read = input.lines().count();
    assert_eq!(kept.lines().count() + dropped.len(), read);
    for record in &dropped {
        let line = record["line"].as_u64().unwrap() as usize;
        let kept_line = record["kept_line"].as_u64().unwrap() as usize;
        assert!(kept_line < line);
        let jaccard = record["jaccard"].as_f64().unwrap();
        assert!((0.8..=1.0).contains(&jaccard), "{record}");
        assert!(!kept.contains(input.lines().nth(line - 1).unwrap()));
        assert!(kept.contains(input.lines().nth(kept_line - 1).unwrap()));
    }
    let summary = stderr(&output);
    assert!(
        summary.starts_with(&format!(
            "simdup: {read} records read: {} kept, {} dropped\n",
            kept.lines().count(),
            dropped.len()
        )),
        "{summary}"
    );
}

#[test]
fn stdin_and_a_file_give_the_same_records() {
    let dir = TestDir::new();
    dir.create("log.txt", log_lines(500));
    let from_file = dir
        .simdup()
        .args(["dedup", "log.txt", "-q"])
        .output()
        .unwrap();
    let from_stdin = dir
        .simdup()
        .args(["dedup", "-q"])
        .pipe_stdin(dir.path().join("log.txt"))
        .unwrap()
        .output()
        .unwrap();
    assert_eq!(from_file.status.code(), Some(0));
    assert!(from_file.stderr.is_empty(), "-q: no summary");
    assert_eq!(from_file.stdout, from_stdin.stdout);
    let kept = stdout(&from_file).lines().count();
    let input = log_lines(500);
    let lines: Vec<&str> = input.lines().collect();
    let copies = (0..lines.len())
        .filter(|&i| lines[..i].contains(&lines[i]))
        .count();
    assert!(copies > 50);
    assert!(
        kept < 500 - copies,
        "copies and some near-copies dropped: {kept}"
    );
    // Every line `log_lines` made fresh survives: only copies and the
    // lines made from another by changing a word may go.
    let fresh = (0..500).filter(|i| i % 5 != 4 && i % 7 != 6).count();
    assert!(kept >= fresh, "{kept} kept of {fresh} fresh lines");
}

#[test]
fn records_pass_through_byte_for_byte() {
    let dir = TestDir::new();
    let input: &[u8] = b"caf\xe9 cr\xe8me br\xfbl\xe9e\r\ncaf\xe9 cr\xe8me br\xfbl\xe9e\nnot\xff utf8 \xfe\xfd at all\nlast line, no newline";
    dir.create("bytes.txt", input);
    let output = dir.simdup().args(["dedup", "bytes.txt"]).output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        output.stdout,
        b"caf\xe9 cr\xe8me br\xfbl\xe9e\r\nnot\xff utf8 \xfe\xfd at all\nlast line, no newline\n"
    );
}

#[test]
fn nul_records_come_out_nul_terminated() {
    let dir = TestDir::new();
    dir.create(
        "records",
        b"first record\nwith a newline\0first record with a newline\0other\0",
    );
    let output = dir
        .simdup()
        .args(["dedup", "--records", "nul", "records"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(output.stdout, b"first record\nwith a newline\0other\0");
}

#[test]
fn malformed_json_lines_are_named_and_the_stream_goes_on() {
    let dir = TestDir::new();
    dir.create(
        "tickets.jsonl",
        concat!(
            r#"{"id": 1, "text": "The export button does nothing on large reports"}"#,
            "\n{not json\n",
            r#"{"id": 3, "text": "the export button does nothing on large reports!"}"#,
            "\n",
            r#"{"id": 4, "body": "no text field"}"#,
            "\n",
            r#"{"id": 5, "text": "Please add a dark theme"}"#,
            "\n"
        ),
    );
    let output = dir
        .simdup()
        .args([
            "dedup",
            "--records",
            "jsonl",
            "--id-field",
            "id",
            "tickets.jsonl",
            "--dropped",
            "dropped.jsonl",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let errors = stderr(&output);
    assert!(errors.contains("tickets.jsonl:2: invalid JSON"), "{errors}");
    assert!(
        errors.contains("tickets.jsonl:4: missing text field 'text'"),
        "{errors}"
    );
    assert!(
        errors.contains("simdup: 5 records read: 2 kept, 1 dropped, 2 malformed"),
        "{errors}"
    );
    let kept = stdout(&output);
    assert_eq!(kept.lines().count(), 2);
    assert!(kept.lines().nth(1).unwrap().contains("dark theme"));
    let dropped = json_lines(&std::fs::read(dir.path().join("dropped.jsonl")).unwrap());
    assert_eq!(dropped.len(), 1);
    assert_eq!(dropped[0]["line"], 3);
    assert_eq!(dropped[0]["id"], "3");
    assert_eq!(dropped[0]["kept_line"], 1);
    assert_eq!(dropped[0]["kept_id"], "1");
    assert_eq!(dropped[0]["jaccard"], 1.0);

    let strict = dir
        .simdup()
        .args(["dedup", "--records", "jsonl", "--strict", "tickets.jsonl"])
        .output()
        .unwrap();
    assert_eq!(strict.status.code(), Some(2));
    assert!(stderr(&strict).contains("tickets.jsonl:2: invalid JSON"));
    assert!(!stderr(&strict).contains(":4:"), "stopped at the first");
    assert_eq!(stdout(&strict).lines().count(), 1);
}

#[test]
fn the_output_is_the_same_whatever_the_thread_count() {
    let dir = TestDir::new();
    dir.create("log.txt", log_lines(30_000));
    // `--keep longest` decides the whole input at the end, in blocks of
    // its own, measured and searched on every core.
    for keep in ["first", "longest"] {
        let run = |threads: &str, dropped: &str| {
            let output = dir
                .simdup()
                .args([
                    "dedup",
                    "log.txt",
                    "-q",
                    "--keep",
                    keep,
                    "-j",
                    threads,
                    "--dropped",
                    dropped,
                ])
                .output()
                .unwrap();
            assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
            (
                output.stdout,
                std::fs::read(dir.path().join(dropped)).unwrap(),
            )
        };
        let one = run("1", "one.jsonl");
        let two = run("2", "two.jsonl");
        let eight = run("8", "eight.jsonl");
        assert!(
            one == two && two == eight,
            "--keep {keep}: -j 1, 2 and 8 differ"
        );
        assert!(!one.1.is_empty());
    }
}

/// Short texts are joined at any radius, unless told to be searched by
/// fingerprint, within k.
#[test]
fn short_texts_are_joined_or_searched_as_told() {
    let dir = TestDir::new();
    dir.create(
        "bakery.txt",
        "One Stop Bakery, 1304 High St Rd, Wantirna, VIC, 3152\n\
         One Stop Bakery, 1304 High Street Rd, Wantirna South, VIC, 3152\n",
    );
    let run = |extra: &[&str]| {
        let output = dir
            .simdup()
            .args(["dedup", "bakery.txt", "-k", "0"])
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        (stdout(&output).lines().count(), stderr(&output))
    };
    let (kept, summary) = run(&[]);
    assert_eq!(kept, 1, "{summary}");
    assert!(
        summary.contains("short texts every pair (exact join)"),
        "{summary}"
    );
    assert_eq!(run(&["--short-texts", "join"]).0, 1);
    let (kept, summary) = run(&["--short-texts", "fingerprint"]);
    assert_eq!(kept, 2, "{summary}");
    assert!(summary.contains("short texts within k = 0"), "{summary}");
}

#[test]
fn copies_of_one_line_leave_one() {
    let dir = TestDir::new();
    dir.create("same.txt", "the very same line\n".repeat(200_000));
    let output = dir.simdup().args(["dedup", "same.txt"]).output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout(&output), "the very same line\n");
    assert!(
        stderr(&output).starts_with("simdup: 200000 records read: 1 kept, 199999 dropped\n"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_threshold_of_zero_is_refused_with_its_reason() {
    let dir = TestDir::new();
    dir.create("two.txt", "abc def\nabc deg\n");
    for threshold in ["0", "0.0", "-0"] {
        let output = dir
            .simdup()
            .args(["dedup", "two.txt", &format!("--threshold={threshold}")])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{threshold}");
        let errors = stderr(&output);
        assert!(errors.contains("above 0"), "{errors}");
        assert!(!errors.contains("panicked"), "{errors}");
        assert_eq!(stdout(&output), "");
    }
    // Any positive threshold runs, down to the least (the join once
    // asked for sets of every size up to size / t).
    for threshold in ["0.0001", "1e-9", "1e-300", "5e-324"] {
        for keep in ["first", "last"] {
            let output = dir
                .simdup()
                .args(["dedup", "two.txt", "-t", threshold, "--keep", keep, "-q"])
                .output()
                .unwrap();
            assert_eq!(output.status.code(), Some(0), "{threshold} {keep}");
            let kept = if keep == "first" {
                "abc def\n"
            } else {
                "abc deg\n"
            };
            assert_eq!(stdout(&output), kept, "{threshold} {keep}");
        }
    }
}

#[test]
fn blank_lines_are_kept() {
    let dir = TestDir::new();
    dir.create("blank.txt", "a line of text\n\n\na line of text\n\n");
    let output = dir.simdup().args(["dedup", "blank.txt"]).output().unwrap();
    assert_eq!(stdout(&output), "a line of text\n\n\n\n");
    // Only short texts were searched: the summary says how, and no more.
    let summary = stderr(&output);
    assert!(
        summary.contains("Jaccard >= 0.8, short texts every pair (exact join);"),
        "{summary}"
    );
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let dir = TestDir::new();
    dir.create("log.txt", log_lines(200_000));
    let (code, errors) = run_and_close_pipe(&dir, &["dedup", "log.txt", "-q"]);
    assert_eq!(code, Some(0), "{errors}");
    assert_eq!(errors, "");
}

#[test]
fn output_starts_before_the_input_ends() {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_simdup"))
        .args(["dedup", "-q"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let (sender, receiver) = std::sync::mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if sender.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    input.write_all(b"first line of a slow stream\n").unwrap();
    input.flush().unwrap();
    let first = receiver.recv_timeout(Duration::from_secs(20));
    assert_eq!(first.as_deref(), Ok("first line of a slow stream"));
    // A copy is dropped, a new line comes out, still with stdin open.
    input
        .write_all(b"first line of a slow stream\nsecond, unrelated line\n")
        .unwrap();
    input.flush().unwrap();
    let second = receiver.recv_timeout(Duration::from_secs(20));
    assert_eq!(second.as_deref(), Ok("second, unrelated line"));
    drop(input);
    assert_eq!(child.wait().unwrap().code(), Some(0));
    reader.join().unwrap();
}

#[test]
fn field_options_need_json_lines() {
    let dir = TestDir::new();
    dir.create("a.txt", "x\n");
    let output = dir
        .simdup()
        .args(["dedup", "a.txt", "--id-field", "id"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("--records jsonl"));
}

#[test]
fn keep_chooses_which_copy_survives() {
    let dir = TestDir::new();
    dir.create(
        "addresses.txt",
        "One Stop Bakery, 1304 High Street Rd, Wantirna South, VIC, 3152\n\
         Burra Hotel, 5 Market Sq, Burra, SA, 5417\n\
         One Stop Bakery, 1304 High St Rd, Wantirna, VIC, 3152\n",
    );
    let run = |keep: &str| {
        let output = dir
            .simdup()
            .args(["dedup", "addresses.txt", "-q", "--keep", keep])
            .args(["--dropped", "dropped.jsonl"])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let dropped = json_lines(&std::fs::read(dir.path().join("dropped.jsonl")).unwrap());
        assert_eq!(dropped.len(), 1);
        (stdout(&output), dropped[0]["line"].as_u64().unwrap())
    };
    let burra = "Burra Hotel, 5 Market Sq, Burra, SA, 5417\n";
    let long = "One Stop Bakery, 1304 High Street Rd, Wantirna South, VIC, 3152\n";
    let short = "One Stop Bakery, 1304 High St Rd, Wantirna, VIC, 3152\n";
    // Output stays in input order whichever copy survives.
    assert_eq!(run("first"), (format!("{long}{burra}"), 3));
    assert_eq!(run("last"), (format!("{burra}{short}"), 1));
    assert_eq!(run("longest"), (format!("{long}{burra}"), 3));
    assert_eq!(run("shortest"), (format!("{burra}{short}"), 1));
}

/// A tree with an original, an exact copy, a near-copy and unrelated text;
/// names with a space and a newline.
fn tree() -> TestDir {
    let dir = TestDir::new();
    let original = text(1, 400);
    let words: Vec<&str> = original.split(' ').collect();
    let mut edited = words.clone();
    edited[200] = "changed";
    dir.create("docs/a original.txt", &original);
    dir.create("docs/b copy\nwith newline.txt", &original);
    dir.create("docs/c near.txt", edited.join(" "));
    dir.create("docs/d other.txt", text(2, 400));
    dir
}

fn nul_separated(bytes: &[u8]) -> Vec<String> {
    bytes
        .split(|&b| b == 0)
        .filter(|path| !path.is_empty())
        .map(|path| String::from_utf8(path.to_vec()).unwrap())
        .collect()
}

#[test]
fn files_print_the_paths_to_keep_or_the_duplicates() {
    let dir = tree();
    let run = |extra: &[&str]| {
        let output = dir
            .simdup()
            .args(["dedup", "docs", "-0", "-k", "32"])
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        output
    };
    let kept = run(&[]);
    assert_eq!(
        nul_separated(&kept.stdout),
        ["docs/a original.txt", "docs/d other.txt"]
    );
    assert!(stderr(&kept).starts_with("simdup: 4 files read: 2 kept, 2 dropped\n"));
    let duplicates = run(&["--print-duplicates", "--dropped", "dropped.jsonl"]);
    assert_eq!(
        nul_separated(&duplicates.stdout),
        ["docs/b copy\nwith newline.txt", "docs/c near.txt"]
    );
    let dropped = json_lines(&std::fs::read(dir.path().join("dropped.jsonl")).unwrap());
    assert_eq!(dropped[0]["path"], "docs/b copy\nwith newline.txt");
    assert_eq!(dropped[0]["kept_path"], "docs/a original.txt");
    assert_eq!(dropped[0]["jaccard"], 1.0);
    assert!(dropped[1]["jaccard"].as_f64().unwrap() >= 0.8);
}

#[test]
fn files_from_a_nul_separated_list_round_trip() {
    let dir = tree();
    let list = b"docs/d other.txt\0docs/b copy\nwith newline.txt\0docs/a original.txt\0";
    let output = dir
        .simdup()
        .args(["dedup", "--files-from", "-", "-0", "-q"])
        .write_stdin(&list[..])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    // The list's order decides which copy is first.
    assert_eq!(
        nul_separated(&output.stdout),
        ["docs/d other.txt", "docs/b copy\nwith newline.txt"]
    );
}

#[test]
fn duplicates_can_be_removed_with_xargs() {
    let dir = tree();
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_simdup"));
    let output = std::process::Command::new("bash")
        .arg("-c")
        .arg(format!(
            "'{}' dedup docs -k 32 -q --print-duplicates -0 | xargs -0 rm",
            bin.display()
        ))
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let mut left: Vec<String> = std::fs::read_dir(dir.path().join("docs"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    left.sort();
    assert_eq!(left, ["a original.txt", "d other.txt"]);
}

#[test]
fn options_of_the_other_mode_are_errors() {
    let dir = tree();
    for args in [
        &["dedup", "docs", "--records", "jsonl"][..],
        &["dedup", "docs/d other.txt", "-0"],
        &["dedup", "docs/d other.txt", "--hidden"],
        &["dedup", "docs", "--id-field", "id"],
    ] {
        let output = dir.simdup().args(args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(stderr(&output).contains("appl"), "{}", stderr(&output));
    }
}

#[test]
fn skipped_files_are_counted_named_and_never_printed() {
    let dir = TestDir::new();
    let license = text(7, 400);
    dir.create("docs/a.txt", &license);
    dir.create("docs/b.txt", &license);
    dir.create("docs/.hidden.txt", &license);
    dir.create("docs/c.dat", b"bin\0ary");
    dir.create("bin.dat", b"bin\0ary");
    let run = |extra: &[&str]| {
        let output = dir
            .simdup()
            .args(["dedup", "docs", "bin.dat"])
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        output
    };
    let kept = run(&[]);
    assert_eq!(stdout(&kept), "docs/a.txt\n");
    let messages = stderr(&kept);
    // Only the file named on the command line is warned about unasked.
    assert!(
        messages.starts_with(
            "simdup: warning: bin.dat: skipped (binary), so neither kept nor dropped\n\
             simdup: 2 files read: 1 kept, 1 dropped; 3 skipped (binary 2, hidden 1)\n"
        ),
        "{messages}"
    );
    // A skipped file is no duplicate: `| xargs rm` must never get it.
    let duplicates = run(&["--print-duplicates"]);
    assert_eq!(stdout(&duplicates), "docs/b.txt\n");
    let verbose = stderr(&run(&["-v"]));
    for note in [
        "simdup: docs/.hidden.txt: skipped (hidden)\n",
        "simdup: docs/c.dat: skipped (binary)\n",
    ] {
        assert!(verbose.contains(note), "{verbose}");
    }
}

/// `--short-texts bands` finds short texts by their MinHash bands from the
/// first, without the join, and says so.
#[test]
fn short_texts_are_found_by_bands_when_told() {
    let dir = TestDir::new();
    dir.create("shops.txt", SHOPS);
    let output = dir
        .simdup()
        .args(["dedup", "shops.txt", "--short-texts", "bands"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        stdout(&output),
        "One Stop Bakery, 1304 High Street Rd, Wantirna South, VIC, 3152\n\
         Green Tree Cycles, 4364 Albert Ct, Centerville, 23399\n"
    );
    let summary = stderr(&output);
    assert!(
        summary.contains(
            "short texts by MinHash bands (16 of 8: expected recall 0.947 at the threshold);"
        ),
        "{summary}"
    );
}

/// A file gathered for `--keep longest` is measured again from the file:
/// a path longer than a short text (or than anything else) was once
/// measured as if it were the text.
#[test]
fn files_under_a_long_path_are_measured_by_their_text_for_every_policy() {
    let dir = TestDir::new();
    let deep = format!("{}/{}", "d".repeat(200), "e".repeat(200));
    let text: String = (0..300)
        .map(|i| format!("word{} ", i * 13 % 1000))
        .collect();
    dir.create(&format!("{deep}/a.txt"), &text);
    dir.create(&format!("{deep}/b.txt"), format!("{text}and one more"));
    for keep in ["first", "longest", "last"] {
        let output = dir
            .simdup()
            .args(["dedup", ".", "-q", "--keep", keep, "--print-duplicates"])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let dropped = String::from_utf8(output.stdout).unwrap();
        // b.txt is the longer and comes after a.txt in the walk.
        let expected = if keep == "first" { "b.txt" } else { "a.txt" };
        assert_eq!(dropped.lines().count(), 1, "--keep {keep}: {dropped}");
        assert!(
            dropped.trim_end().ends_with(expected),
            "--keep {keep}: {dropped}"
        );
    }
}

/// Makes FIFO `name` in `dir` holding `text`, and returns a reader that
/// keeps the pipe (and so the text) open without reading it: simdup then
/// finds the text whenever it opens the FIFO, and its end after it (a
/// writer left to a thread may open after simdup has found no writer).
fn filled_fifo(dir: &TestDir, name: &str, text: &str) -> std::fs::File {
    use std::os::unix::fs::OpenOptionsExt;
    let path = dir.path().join(name);
    let made = std::process::Command::new("mkfifo")
        .arg(&path)
        .status()
        .unwrap();
    assert!(made.success());
    let keeper = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32)
        .open(&path)
        .unwrap();
    let mut writer = std::fs::File::options().write(true).open(&path).unwrap();
    writer.write_all(text.as_bytes()).unwrap();
    keeper
}

#[test]
fn named_fifos_are_read_once_and_verified_from_their_copies() {
    // A kept FIFO used to be opened again to verify a later candidate:
    // empty for a process substitution, a hang for a named FIFO.
    let first = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu\n";
    let second = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda nu\n";
    for (keep, kept) in [("first", "fa"), ("last", "fb")] {
        let dir = TestDir::new();
        let _keepers = [
            filled_fifo(&dir, "fa", first),
            filled_fifo(&dir, "fb", second),
        ];
        let output = dir
            .simdup()
            .args([
                "dedup",
                "fa",
                "fb",
                "--keep",
                keep,
                "--dropped",
                "dropped.jsonl",
            ])
            .timeout(std::time::Duration::from_secs(20))
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        assert_eq!(stdout(&output), format!("{kept}\n"), "{keep}");
        let dropped = std::fs::read_to_string(dir.path().join("dropped.jsonl")).unwrap();
        assert!(
            dropped.contains(&format!("\"kept_path\":\"{kept}\"")),
            "{dropped}"
        );
    }
}

#[test]
fn a_dropped_file_that_is_an_input_is_refused_before_anything_is_written() {
    let dir = TestDir::new();
    let lines = "a b c d e\na b c d e\n";
    dir.create("in.txt", lines);
    dir.create("list.txt", "in.txt\n");
    for args in [
        &["dedup", "in.txt", "--dropped", "./in.txt"][..],
        &["dedup", "--files-from", "list.txt", "--dropped", "list.txt"][..],
    ] {
        let output = dir.simdup().args(args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&output).contains("it would be emptied before it is read"),
            "{}",
            stderr(&output)
        );
        assert_eq!(stdout(&output), "");
    }
    assert_eq!(
        std::fs::read_to_string(dir.path().join("in.txt")).unwrap(),
        lines
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("list.txt")).unwrap(),
        "in.txt\n"
    );
}

#[test]
fn the_summary_counts_the_files_that_could_not_be_read() {
    let dir = TestDir::new();
    dir.create("a.txt", text(51, 200));
    dir.create("b.txt", text(52, 200));
    dir.create("list.txt", "a.txt\nmissing.txt\nb.txt\n");
    let output = dir
        .simdup()
        .args(["dedup", "--files-from", "list.txt"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(stdout(&output), "a.txt\nb.txt\n");
    let errors = stderr(&output);
    assert!(errors.contains("missing.txt"), "{errors}");
    assert!(
        errors.contains("simdup: 2 files read: 2 kept, 0 dropped; 1 unreadable\n"),
        "{errors}"
    );
}
