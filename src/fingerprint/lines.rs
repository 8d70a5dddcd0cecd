//! Features by line: which features end on each line of a document, so
//! that shared passages can be told apart from unique ones
//! (`crate::verify::passages`).
//!
//! The document is fed through the same pipeline as the fingerprint, one
//! line at a time (chunk boundaries never change the features), and each
//! feature is put on the line being fed when it came out. The pipeline
//! holds back the last character of a chunk (NFKC may compose it with the
//! next one), so the token that ends a line only ends when the next chunk
//! arrives: the first character of each line is therefore fed on its own,
//! and what comes out of it still belongs to the line before. (A line that
//! starts with a combining mark, which NFKC keeps with what precedes it,
//! may take the last feature of the line before.)

use super::Fingerprinter;
use super::shingle::FeatureSink;
use super::stream::Pipeline;

/// The feature hashes that end on each line.
struct LineSink {
    lines: Vec<Vec<u64>>,
    current: usize,
}

impl FeatureSink for LineSink {
    fn feature(&mut self, _bytes: &[u8], hash: u64, _weight: u32) {
        if let Some(line) = self.lines.get_mut(self.current) {
            line.push(hash);
        }
    }
}

/// The lines of a document: slices ending after their `\n` (the last one
/// may have none). An empty document has no line.
pub fn split_lines(bytes: &[u8]) -> Vec<&[u8]> {
    bytes.split_inclusive(|&byte| byte == b'\n').collect()
}

impl Fingerprinter {
    /// The hashes of the features that end on each line of `bytes`
    /// (lines as [`split_lines`] cuts them), in order of occurrence:
    /// together, exactly the features of [`Fingerprinter::feature_set_bytes`]
    /// with their repeats. A feature ends on the line of its last token;
    /// features that come out only at the end of the document (a document
    /// shorter than one shingle) go to the last line.
    pub fn features_by_line(&self, bytes: &[u8]) -> Vec<Vec<u64>> {
        let lines = split_lines(bytes);
        let mut sink = LineSink {
            lines: vec![Vec::new(); lines.len()],
            current: 0,
        };
        let mut pipeline = Pipeline::new(self);
        for (index, line) in lines.iter().enumerate() {
            let Some(&lead) = line.first() else {
                continue;
            };
            let (first, rest) = line.split_at(char_len(lead).min(line.len()));
            sink.current = index.saturating_sub(1);
            pipeline.feed(first, &mut sink);
            sink.current = index;
            pipeline.feed(rest, &mut sink);
        }
        sink.current = lines.len().saturating_sub(1);
        pipeline.finish(&mut sink);
        sink.lines
    }
}

/// The length of the UTF-8 sequence a lead byte starts (1 for anything
/// else: the decoder replaces invalid bytes one by one).
fn char_len(lead: u8) -> usize {
    match lead {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fingerprint::FeatureOptions;
    use crate::fingerprint::hash::feature_hash;
    use crate::fingerprint::options::FeatureHash;

    fn words3() -> Fingerprinter {
        Fingerprinter::new(FeatureOptions::default())
    }

    #[test]
    fn the_features_by_line_are_the_feature_set() {
        let text = "one two three four\n\nfive six\nseven eight nine ten eleven\n";
        let fingerprinter = words3();
        let by_line = fingerprinter.features_by_line(text.as_bytes());
        assert_eq!(by_line.len(), 4);
        let mut all: Vec<u64> = by_line.iter().flatten().copied().collect();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all, fingerprinter.feature_set_bytes(text.as_bytes()));
    }

    #[test]
    fn a_feature_belongs_to_the_line_of_its_last_token() {
        let fingerprinter = words3();
        let by_line = fingerprinter.features_by_line(b"one two three four\nfive six\n");
        // "one two three", "two three four" end on line 1; "three four
        // five", "four five six" on line 2.
        assert_eq!(by_line[0].len(), 2);
        assert_eq!(by_line[1].len(), 2);
        assert_eq!(
            by_line[0][0],
            feature_hash(FeatureHash::Xxh3, b"one two three")
        );
        assert_eq!(
            by_line[1][1],
            feature_hash(FeatureHash::Xxh3, b"four five six")
        );
    }

    #[test]
    fn a_line_starting_with_a_multibyte_character() {
        let fingerprinter = words3();
        let by_line = fingerprinter.features_by_line(
            "one two three
évé four
"
            .as_bytes(),
        );
        assert_eq!(
            by_line[0],
            vec![feature_hash(FeatureHash::Xxh3, b"one two three")]
        );
        assert_eq!(by_line[1].len(), 2);
    }

    #[test]
    fn short_and_empty_documents() {
        let fingerprinter = words3();
        assert!(fingerprinter.features_by_line(b"").is_empty());
        let by_line = fingerprinter.features_by_line(b"just two");
        assert_eq!(
            by_line,
            vec![vec![feature_hash(FeatureHash::Xxh3, b"just two")]]
        );
        assert_eq!(split_lines(b"a\nb"), vec![&b"a\n"[..], &b"b"[..]]);
    }
}
