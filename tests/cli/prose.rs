//! Markup files compared on their text (`--markup`).

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
