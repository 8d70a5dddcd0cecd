//! Markup files compared on their text (`--markup`), and external
//! converters (`--transform`).

use crate::util::{TestDir, text};

/// The same prose as Markdown (with front matter, links, emphasis and a
/// code block) and as an HTML page; returns the paragraphs.
fn markup_pair(dir: &TestDir) -> Vec<String> {
    let paragraphs: Vec<String> = (0..4).map(|seed| text(seed + 40, 60)).collect();
    let mut markdown =
        String::from("---\ntitle: Notes\nlayout: page-with-sidebar\n---\n# Notes\n\n");
    let mut html = String::from(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n\
         <style>body { font-family: serif; margin: 2em auto; }</style>\n\
         <script src=\"analytics.js\"></script></head>\n<body class=\"page-with-sidebar\">\n\
         <h1 id=\"notes\">Notes</h1>\n",
    );
    for (index, paragraph) in paragraphs.iter().enumerate() {
        let words: Vec<&str> = paragraph.split_whitespace().collect();
        let (first, rest) = words.split_at(3);
        markdown.push_str(&format!(
            "**{}** [{}](https://example.com/notes/section-{index}.html \"See section\") {}\n\n",
            first[0],
            first[1..].join(" "),
            rest.join(" ")
        ));
        html.push_str(&format!(
            "<p class=\"para\"><strong>{}</strong> <a href=\"https://example.com/notes/section-{index}.html\" \
             title=\"See section\">{}</a> {}</p>\n",
            first[0],
            first[1..].join(" "),
            rest.join(" ")
        ));
    }
    markdown.push_str("```rust\nlet total = items.iter().count();\n```\n");
    html.push_str("<pre><code class=\"language-rust\">let total = items.iter().count();\n</code></pre>\n</body></html>\n");
    dir.create("docs/notes.md", markdown);
    dir.create("docs/notes.html", html);
    paragraphs
}

fn pairs(dir: &TestDir, extra: &[&str]) -> serde_json::Value {
    let output = dir
        .simdup()
        .args(["scan", "docs", "--format", "json"])
        .args(extra)
        .output()
        .unwrap();
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn a_markdown_file_and_an_html_page_of_the_same_prose_are_paired_on_their_text() {
    let dir = TestDir::new();
    markup_pair(&dir);
    let report = pairs(&dir, &[]);
    let pair = &report["pairs"][0];
    assert_eq!(
        (pair["a"].as_str(), pair["b"].as_str()),
        (Some("docs/notes.html"), Some("docs/notes.md"))
    );
    assert_eq!(pair["jaccard"], 1.0, "{report}");
    // Byte counts are the files' own.
    let sizes: u64 = ["docs/notes.md", "docs/notes.html"]
        .iter()
        .map(|name| std::fs::metadata(dir.path().join(name)).unwrap().len())
        .sum();
    assert_eq!(report["stats"]["bytes"], sizes);
    // Raw, the markup keeps them apart.
    let raw = pairs(&dir, &["--markup", "raw"]);
    assert_eq!(raw["pairs"], serde_json::json!([]), "{raw}");
    assert!(
        raw["params"]["features"]
            .as_str()
            .unwrap()
            .ends_with(",markup:raw")
    );
    assert_ne!(raw["params"]["digest"], report["params"]["digest"]);
}

#[test]
fn compare_and_explain_measure_the_same_text() {
    let dir = TestDir::new();
    markup_pair(&dir);
    let jaccard = |command: &str, extra: &[&str]| -> f64 {
        let output = dir
            .simdup()
            .args([
                command,
                "docs/notes.md",
                "docs/notes.html",
                "--format",
                "json",
            ])
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{command}");
        let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        value["jaccard"].as_f64().unwrap()
    };
    assert_eq!(jaccard("compare", &[]), 1.0);
    assert_eq!(jaccard("explain", &[]), 1.0);
    let raw = jaccard("compare", &["--markup", "raw"]);
    assert!(raw < 0.8, "{raw}");
    assert_eq!(jaccard("explain", &["--markup", "raw"]), raw);
}

#[test]
fn explain_and_sarif_point_at_the_markdown_files_own_lines() {
    let dir = TestDir::new();
    let shared = text(9, 200);
    // Front matter, a heading of its own and a badge line before the
    // shared text, which starts on line 8.
    dir.create(
        "docs/guide.md",
        format!(
            "---\ntitle: Guide\n---\n# A guide whose title only this file has\n\n\
             [![build](https://ci.example.com/badge.svg)](https://ci.example.com)\n\n{shared}"
        ),
    );
    dir.create(
        "docs/copy.txt",
        format!("{shared}\nThe end of a plain copy, with a line of its own.\n"),
    );
    let explained = dir
        .simdup()
        .args([
            "explain",
            "docs/guide.md",
            "docs/copy.txt",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    let explained: serde_json::Value = serde_json::from_slice(&explained.stdout).unwrap();
    let shared_lines = shared.lines().count() as u64;
    assert_eq!(
        explained["passages"][0]["a"],
        serde_json::json!({"start": 8, "end": 7 + shared_lines})
    );
    assert_eq!(
        explained["passages"][0]["b"],
        serde_json::json!({"start": 1, "end": shared_lines})
    );
    // Only the heading is the Markdown file's own: its markup has no text.
    assert_eq!(
        explained["unique_a"],
        serde_json::json!([{"start": 4, "end": 4}])
    );
    let output = dir
        .simdup()
        .args(["scan", "docs", "--format", "sarif"])
        .output()
        .unwrap();
    let log: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let result = &log["runs"][0]["results"][0];
    let region = |uri: &str| {
        result["locations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|location| &location["physicalLocation"])
            .find(|location| location["artifactLocation"]["uri"] == uri)
            .map(|location| location["region"].clone())
            .unwrap()
    };
    assert_eq!(
        region("docs/guide.md"),
        serde_json::json!({"startLine": 8, "endLine": 7 + shared_lines})
    );
}

#[test]
fn fingerprint_dedup_and_a_stored_index_see_the_same_text() {
    let dir = TestDir::new();
    markup_pair(&dir);
    // The same text, so the same features and SimHash.
    let output = dir
        .simdup()
        .args(["fingerprint", "docs/notes.md", "docs/notes.html"])
        .output()
        .unwrap();
    let printed = String::from_utf8_lossy(&output.stdout);
    let hashes: Vec<&str> = printed
        .lines()
        .filter(|line| !line.starts_with('#'))
        .map(|line| line.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(hashes.len(), 2, "{printed}");
    assert_eq!(hashes[0], hashes[1], "{printed}");
    // dedup keeps the first of a list of files.
    let output = dir
        .simdup()
        .args(["dedup", "--files-from", "-", "-q"])
        .write_stdin("docs/notes.md\ndocs/notes.html\n")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&output.stdout), "docs/notes.md\n");
    // A stored Markdown file is found from its HTML page.
    let added = dir
        .simdup()
        .args(["index", "add", "--db", "i.db", "-q", "docs/notes.md"])
        .output()
        .unwrap();
    assert_eq!(added.status.code(), Some(0));
    let against = dir
        .simdup()
        .args([
            "scan",
            "docs/notes.html",
            "--against",
            "i.db",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&against.stdout).unwrap();
    assert_eq!(report["pairs"][0]["jaccard"], 1.0, "{report}");
}

#[test]
fn the_config_file_can_turn_the_text_view_off() {
    let dir = TestDir::new();
    markup_pair(&dir);
    dir.create("simdup.toml", "markup = \"raw\"\n");
    assert_eq!(pairs(&dir, &[])["pairs"], serde_json::json!([]));
    // The command line wins.
    assert_eq!(
        pairs(&dir, &["--markup", "text"])["pairs"][0]["jaccard"],
        1.0
    );
}

#[test]
fn an_index_made_with_another_markup_view_is_refused() {
    let dir = TestDir::new();
    markup_pair(&dir);
    let add = |extra: &[&str]| {
        dir.simdup()
            .args(["index", "add", "docs", "--db", "i.db"])
            .args(extra)
            .output()
            .unwrap()
    };
    assert_eq!(add(&[]).status.code(), Some(0));
    let refused = add(&["--markup", "raw"]);
    assert_eq!(refused.status.code(), Some(2));
    let message = String::from_utf8_lossy(&refused.stderr);
    assert!(message.contains("markup:raw"), "{message}");
}

/// Two copies of a text, the second with a word `zzz` between every two
/// words: far apart, until a converter takes the `zzz`s out.
#[cfg(unix)]
fn padded_pair(dir: &TestDir) {
    let words = text(3, 300);
    dir.create("docs/a.txt", &words);
    dir.create("docs/b.txt", words.replace(' ', " zzz "));
}

#[cfg(unix)]
#[test]
fn a_transform_reads_the_file_on_stdin_or_by_its_path() {
    let dir = TestDir::new();
    padded_pair(&dir);
    assert_eq!(pairs(&dir, &[])["pairs"], serde_json::json!([]));
    for command in ["sed s/zzz//g", "sed -e s/zzz//g $IN"] {
        let report = pairs(&dir, &["--transform", command]);
        assert_eq!(report["pairs"][0]["jaccard"], 1.0, "{command}: {report}");
        assert!(
            report["params"]["features"]
                .as_str()
                .unwrap()
                .ends_with(",transform")
        );
    }
    // The same text for compare and explain.
    let output = dir
        .simdup()
        .args(["compare", "docs/a.txt", "docs/b.txt", "--format", "json"])
        .args(["--transform", "sed s/zzz//g"])
        .output()
        .unwrap();
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(value["jaccard"], 1.0);
}

#[cfg(unix)]
#[test]
fn a_failing_converter_names_the_file_and_the_run_goes_on() {
    let dir = TestDir::new();
    padded_pair(&dir);
    dir.create("docs/bad.txt", text(5, 100));
    // Fails on bad.txt only, saying why on stderr.
    let converter = "sh -c 'case \"$0\" in *bad*) echo cannot convert >&2; exit 3;; esac; \
                     sed s/zzz//g \"$0\"' $IN";
    let output = dir
        .simdup()
        .args(["scan", "docs", "--format", "json", "--transform", converter])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("docs/bad.txt") && stderr.contains("cannot convert"),
        "{stderr}"
    );
    assert!(stderr.contains("transform_failed"), "{stderr}");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["stats"]["skipped"]["transform_failed"], 1);
    assert_eq!(report["pairs"][0]["jaccard"], 1.0, "{report}");
    // A converter that cannot start: every file, each named.
    let output = dir
        .simdup()
        .args([
            "scan",
            "docs",
            "--transform",
            "simdup-no-such-converter $IN",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    for name in ["docs/a.txt", "docs/b.txt", "docs/bad.txt"] {
        assert!(stderr.contains(name), "{stderr}");
    }
    assert!(stderr.contains("cannot run"), "{stderr}");
}

#[test]
fn a_transform_that_cannot_be_parsed_is_a_usage_error() {
    let output = crate::util::simdup()
        .args(["scan", ".", "--transform", "pandoc 'unclosed"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("--transform"), "{stderr}");
}

#[test]
fn explain_shows_the_text_of_unique_lines_and_leaves_out_blank_ones() {
    let dir = TestDir::new();
    let shared = text(11, 120);
    dir.create(
        "docs/guide.md",
        format!(
            "# A guide whose *title* only this file has\n\n<div align=\"center\">\n\
             [![build](https://ci.example.com/badge.svg)](https://ci.example.com)\n</div>\n\
             A paragraph of its own that the plain copy does not have at all.\n\n{shared}"
        ),
    );
    dir.create("docs/copy.txt", &shared);
    let output = dir
        .simdup()
        .args(["explain", "docs/guide.md", "docs/copy.txt"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let shown = String::from_utf8_lossy(&output.stdout);
    assert!(
        shown.contains("Unique to docs/guide.md\n  lines 1-6\n"),
        "{shown}"
    );
    assert!(
        shown.contains("    1 |  A guide whose title only this file has\n"),
        "{shown}"
    );
    assert!(shown.contains("    6 | A paragraph of its own"), "{shown}");
    // Lines 2 to 5 have no text: none is shown, none is counted.
    for number in 2..=5 {
        assert!(!shown.contains(&format!("    {number} |")), "{shown}");
    }
    assert!(!shown.contains("more unique lines"), "{shown}");
}

#[test]
fn a_man_page_pairs_with_its_text_in_the_text_view_only_and_not_with_another_page() {
    let dir = TestDir::new();
    // Two pages of different prose in the same roff scaffolding, and the
    // text of the first as `man` shows it.
    let page = |name: &str, seed: u64| -> (String, String) {
        let mut roff = format!(".\\\" Generated page.\n.TH {name} 1 \"May 2024\"\n.SH NAME\n");
        let mut shown = format!("{name} 1 May 2024\nNAME\n");
        for paragraph in 0..6 {
            let words = text(seed + paragraph, 12);
            roff.push_str(&format!(
                ".TP\n\\fB\\-\\-opt{paragraph}\\fR=\\fI\\,VALUE\\/\\fR\n{words}\n.PP\n.sp 1\n"
            ));
            shown.push_str(&format!("--opt{paragraph}=VALUE\n{words}\n"));
        }
        (roff, shown)
    };
    let (first, first_shown) = page("alpha", 300);
    let (second, _) = page("beta", 400);
    dir.create("docs/alpha.1", first);
    dir.create("docs/beta.1", second);
    dir.create("docs/alpha.txt", first_shown);
    let report = pairs(&dir, &[]);
    let listed: Vec<(&str, &str)> = report["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|pair| (pair["a"].as_str().unwrap(), pair["b"].as_str().unwrap()))
        .collect();
    assert_eq!(listed, [("docs/alpha.1", "docs/alpha.txt")], "{report}");
    assert_eq!(report["pairs"][0]["jaccard"], 1.0, "{report}");
    // Raw, the macros keep the page apart from its text.
    let raw = pairs(&dir, &["--markup", "raw"]);
    assert_eq!(raw["pairs"], serde_json::json!([]), "{raw}");
}
