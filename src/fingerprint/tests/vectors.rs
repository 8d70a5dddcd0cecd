//! The published test vectors, fixtures/vectors/fingerprints.jsonl: they
//! must not change, and an ignored test regenerates them.

use super::*;

/// The published vectors: fixtures/vectors/fingerprints.jsonl.
const VECTORS: &str = include_str!("../../../fixtures/vectors/fingerprints.jsonl");

/// Inputs of the published vectors: (name, bytes).
fn vector_inputs() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("empty", b"".to_vec()),
        ("one-word", b"Hello".to_vec()),
        (
            "pangram",
            b"The quick brown fox jumps over the lazy dog.".to_vec(),
        ),
        (
            "punctuation-case",
            b"Don't PANIC -- it's only a TEST, isn't it?".to_vec(),
        ),
        (
            "nfkc",
            "The ﬁnal ＣＡＦＥ\u{301} menu: ½ price".as_bytes().to_vec(),
        ),
        (
            "combining",
            "cafe\u{301} re\u{301}sume\u{301} nai\u{308}ve"
                .as_bytes()
                .to_vec(),
        ),
        (
            "chinese",
            "北京是中华人民共和国的首都。".as_bytes().to_vec(),
        ),
        (
            "japanese",
            "東京は日本の首都です。ひらがなとカタカナ"
                .as_bytes()
                .to_vec(),
        ),
        (
            "greek-cyrillic",
            "Ὀδυσσεύς ΣΟΦΙΑ Москва столица".as_bytes().to_vec(),
        ),
        (
            "invalid-utf8",
            b"caf\xC3 is \xFF\xFE open \xE2\x82 late".to_vec(),
        ),
        (
            "address",
            b"One Stop Bakery, 1304 High St Rd, Wantirna, VIC, 3152".to_vec(),
        ),
    ]
}

fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn vector_options() -> Vec<(String, FeatureOptions)> {
    let mut all = Vec::new();
    for shingle in [
        Shingle::Words(1),
        Shingle::Words(3),
        Shingle::Chars(2),
        Shingle::Chars(5),
    ] {
        for hash in [FeatureHash::Xxh3, FeatureHash::Sha3] {
            let options = FeatureOptions {
                shingle,
                hash,
                weighting: Weighting::Tf,
                ..FeatureOptions::default()
            };
            all.push((options.describe(), options));
        }
    }
    // Binary weighting (the default since tf's vectors were published),
    // after them so that their lines stay as they were.
    for shingle in [Shingle::Words(3), Shingle::Chars(2)] {
        let options = FeatureOptions {
            shingle,
            weighting: Weighting::Binary,
            ..FeatureOptions::default()
        };
        all.push((options.describe(), options));
    }
    all
}

fn vector_lines() -> Vec<String> {
    let mut lines = Vec::new();
    for (name, bytes) in vector_inputs() {
        for (describe, options) in vector_options() {
            let got = Fingerprinter::new(options).fingerprint_bytes(&bytes);
            let line = serde_json::json!({
                "name": name,
                "text": std::str::from_utf8(&bytes).ok(),
                "input_hex": to_hex(&bytes),
                "options": describe,
                "simhash": format!("{:016x}", got.simhash),
                "features": got.features,
            });
            lines.push(line.to_string());
        }
    }
    lines
}

#[test]
fn published_vectors_still_hold() {
    let expected: Vec<&str> = VECTORS.lines().filter(|l| !l.trim().is_empty()).collect();
    let actual = vector_lines();
    assert_eq!(
        expected.len(),
        actual.len(),
        "vector count changed; regenerate with the ignored test below"
    );
    for (want, got) in expected.iter().zip(&actual) {
        assert_eq!(
            *want, got,
            "a fingerprint changed: if intended, bump the definition version and regenerate"
        );
    }
}

/// Regenerates the vectors: `cargo test --lib write_vectors -- --ignored`.
#[test]
#[ignore]
fn write_vectors() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/vectors/fingerprints.jsonl"
    );
    std::fs::write(path, vector_lines().join("\n") + "\n").unwrap();
}
