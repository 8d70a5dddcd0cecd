//! Short texts: a one-line text of at most `MAX_CHARS` characters (an
//! address, a title, a ticket) has too few word 3-shingles for their
//! Jaccard to mean much (one changed word moves it by a third), so two
//! such texts are compared by character pairs (`chars:2`) instead. Any
//! pair with a longer text, or one of several lines, is compared by the
//! scan's word shingles.
//!
//! The rule was chosen by measurement (README, "Short texts"): it
//! finds the seed lecture's address cases and the tickets fixture's
//! reworded request, and on real document corpora it leaves the answer
//! within 0.3% of the word 3-shingle one, where a rule on length alone
//! (multi-line short files included) cost a fifth of the precision.

use std::io::{self, Read};

use crate::fingerprint::{FeatureOptions, Fingerprint, Fingerprinter, Shingle, Weighting};
use crate::verify::sketch::Sketch;

/// The longest short text, in characters (surrounding whitespace aside).
pub const MAX_CHARS: usize = 256;

/// Bytes of a file worth looking at: a short text is at most 4 bytes a
/// character, and a little surrounding whitespace is allowed.
pub const MAX_BYTES: usize = 4 * MAX_CHARS + 64;

/// Fingerprints and feature sets of short texts by character pairs, with
/// the scan's normalisation, hash and weighting.
#[derive(Clone, Debug)]
pub struct ShortTexts {
    fingerprinter: Fingerprinter,
}

impl ShortTexts {
    /// Character pairs with the rest of `features`.
    pub fn new(features: &FeatureOptions) -> ShortTexts {
        let options = FeatureOptions {
            shingle: Shingle::Chars(2),
            token_similarity: false,
            ..features.clone()
        };
        ShortTexts {
            fingerprinter: Fingerprinter::new(options),
        }
    }

    /// The fingerprinter of the character pairs.
    pub fn fingerprinter(&self) -> &Fingerprinter {
        &self.fingerprinter
    }

    /// The options of the character-pair features, as `describe` says them.
    pub fn describe(&self) -> String {
        self.fingerprinter.options().shingle.to_string()
    }

    /// The character pairs two texts are measured by, as the scan pairs
    /// them: when the rule is `on` (no shingles were chosen) and both are
    /// short texts; `None` when `features` apply.
    pub fn for_pair(features: &FeatureOptions, on: bool, a: &[u8], b: &[u8]) -> Option<Self> {
        (on && Self::is_short(a) && Self::is_short(b)).then(|| ShortTexts::new(features))
    }

    /// Whether `text` is a short text: one line (a trailing line break
    /// aside) of at most `MAX_CHARS` characters.
    pub fn is_short(text: &[u8]) -> bool {
        if text.len() > MAX_BYTES {
            return false;
        }
        // Most records are ASCII, and this is asked of each one: a
        // character is a byte there, and no copy or decoding is needed
        // (the general way below was a thirtieth of dedup's instructions
        // on address lines).
        if text.is_ascii() {
            let text = trim_whitespace(text);
            return memchr::memchr2(b'\n', b'\r', text).is_none() && text.len() <= MAX_CHARS;
        }
        let text = String::from_utf8_lossy(text);
        let text = text.trim();
        !text.contains(['\n', '\r']) && text.chars().count() <= MAX_CHARS
    }

    /// The character-pair fingerprint of `text`, if it is a short text
    /// with features.
    pub fn fingerprint(&self, text: &[u8]) -> Option<Fingerprint> {
        if !Self::is_short(text) {
            return None;
        }
        let fingerprint = self.fingerprinter.fingerprint_bytes(text);
        (fingerprint.features > 0).then_some(fingerprint)
    }

    /// [`ShortTexts::fingerprint`] and [`ShortTexts::feature_set`] of a
    /// short text with features, in one pass.
    pub fn fingerprint_and_set(&self, text: &[u8]) -> Option<(Fingerprint, Vec<u64>)> {
        let (fingerprint, mut set) = self.fingerprint_and_hashes(text)?;
        set.sort_unstable();
        set.dedup();
        Some((fingerprint, set))
    }

    /// [`ShortTexts::fingerprint`] and the sketch of the set of a short
    /// text with features, in one pass, without sorting the set.
    pub fn fingerprint_and_sketch(&self, text: &[u8]) -> Option<ShortMeasure> {
        let (fingerprint, hashes) = self.fingerprint_and_hashes(text)?;
        Some(ShortMeasure {
            fingerprint,
            sketch: self.sketch(&fingerprint, &hashes),
        })
    }

    /// The sketch of a short text's set from what
    /// [`ShortTexts::fingerprint_and_hashes`] gives. With binary weighting
    /// the fingerprint has counted the distinct features already, so the
    /// hashes are not counted again (that took 7% of a dedup worker's
    /// time on one-line records).
    pub fn sketch(&self, fingerprint: &Fingerprint, hashes: &[u64]) -> Sketch {
        match self.fingerprinter.options().weighting {
            Weighting::Binary => Sketch::of_hashes_counted(hashes, fingerprint.features),
            Weighting::Tf => Sketch::of_repeated(hashes),
        }
    }

    /// The fingerprint of a short text with features, and the hashes of
    /// its set in no order, repeats included.
    pub fn fingerprint_and_hashes(&self, text: &[u8]) -> Option<(Fingerprint, Vec<u64>)> {
        if !Self::is_short(text) {
            return None;
        }
        let (fingerprint, hashes) = self.fingerprinter.fingerprint_and_hashes_bytes(text);
        (fingerprint.features > 0).then_some((fingerprint, hashes))
    }

    /// The sorted, distinct character-pair features of `text`.
    pub fn feature_set(&self, text: &[u8]) -> Vec<u64> {
        self.fingerprinter.feature_set_bytes(text)
    }

    /// The same, read from a stream.
    pub fn feature_set_reader<R: Read>(&self, reader: R) -> io::Result<Vec<u64>> {
        self.fingerprinter.feature_set_reader(reader)
    }
}

/// ASCII `text` without its surrounding whitespace, as `str::trim` sees
/// it (`trim_ascii` would keep a vertical tab, which `char::is_whitespace`
/// counts).
fn trim_whitespace(text: &[u8]) -> &[u8] {
    let space = |byte: &&u8| char::from(**byte).is_whitespace();
    let start = text.iter().take_while(space).count();
    let end = text.len() - text[start..].iter().rev().take_while(space).count();
    &text[start..end]
}

/// How a scan measures documents: their fingerprints by the scan's
/// features, and short texts' by character pairs when that rule is on.
#[derive(Clone, Debug)]
pub struct Measures {
    /// The scan's features.
    pub fingerprinter: Fingerprinter,
    /// Short texts' character pairs, when compared apart.
    pub short: Option<ShortTexts>,
}

/// A short text's character-pair fingerprint, and the sketch of its set
/// (src/verify/sketch.rs): measured in one pass, so that candidate pairs
/// that cannot reach the threshold are turned away without reading the
/// text again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShortMeasure {
    /// Its character-pair fingerprint.
    pub fingerprint: Fingerprint,
    /// The sketch of its character pairs ([`Sketch::NONE`] when unknown,
    /// as for fingerprints read back from a cache).
    pub sketch: Sketch,
}

impl ShortMeasure {
    /// A fingerprint whose set was not sketched.
    pub fn unsketched(fingerprint: Fingerprint) -> ShortMeasure {
        ShortMeasure {
            fingerprint,
            sketch: Sketch::NONE,
        }
    }
}

impl Measures {
    /// The character-pair fingerprint and sketch of a whole text (`None`:
    /// not kept whole) when the rule is on and it is a short text.
    pub fn short_text(&self, whole: Option<&[u8]>) -> Option<ShortMeasure> {
        let (short, text) = self.short.as_ref().zip(whole)?;
        short.fingerprint_and_sketch(text)
    }
}

/// A reader that keeps the first `MAX_BYTES + 1` bytes it passes on, so a
/// document read once can be checked for being a short text afterwards.
pub struct Prefix<R> {
    inner: R,
    /// The first bytes read.
    pub kept: Vec<u8>,
    /// Bytes read in all.
    pub total: u64,
}

impl<R> Prefix<R> {
    /// Wraps `inner`.
    pub fn new(inner: R) -> Self {
        Prefix {
            inner,
            kept: Vec::new(),
            total: 0,
        }
    }

    /// The whole text, if it was small enough to be kept whole.
    pub fn whole(&self) -> Option<&[u8]> {
        (self.total as usize <= MAX_BYTES).then_some(&self.kept)
    }
}

impl<R: Read> Read for Prefix<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        let room = (MAX_BYTES + 1).saturating_sub(self.kept.len()).min(n);
        self.kept.extend_from_slice(&buf[..room]);
        self.total += n as u64;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rule for any text, decoded: the ASCII fast path must agree.
    fn is_short_decoded(text: &[u8]) -> bool {
        if text.len() > MAX_BYTES {
            return false;
        }
        let text = String::from_utf8_lossy(text);
        let text = text.trim();
        !text.contains(['\n', '\r']) && text.chars().count() <= MAX_CHARS
    }

    proptest::proptest! {
        #[test]
        fn ascii_texts_are_short_by_the_general_rule(
            edge in "[ \t\n\x0b\x0c\r]{0,3}",
            middle in "[ -~\t\x0b\x0c]{250,258}",
            cut in 240usize..260,
            line_break in proptest::option::of((0usize..260, "[\n\r]")),
            end in "[ \t\n\x0b\x0c\r]{0,3}",
        ) {
            let mut middle = middle.into_bytes();
            middle.truncate(cut);
            if let Some((at, line_break)) = line_break {
                middle.insert(at.min(middle.len()), line_break.as_bytes()[0]);
            }
            let text = [edge.as_bytes(), &middle, end.as_bytes()].concat();
            proptest::prop_assert_eq!(ShortTexts::is_short(&text), is_short_decoded(&text));
        }
    }

    #[test]
    fn one_line_of_at_most_256_characters_is_short() {
        assert!(ShortTexts::is_short(b"One Stop Bakery, 1304 High St Rd\n"));
        assert!(ShortTexts::is_short(
            format!("  {}\n", "é".repeat(256)).as_bytes()
        ));
        assert!(!ShortTexts::is_short("é".repeat(257).as_bytes()));
        assert!(!ShortTexts::is_short(b"two\nlines"));
        assert!(!ShortTexts::is_short(b"carriage\rreturn"));
        assert!(!ShortTexts::is_short("x".repeat(257).as_bytes()));
        assert!(ShortTexts::is_short(
            format!("\x0b {}\t\n", "x".repeat(256)).as_bytes()
        ));
        assert!(ShortTexts::is_short("x".repeat(256).as_bytes()));
    }

    #[test]
    fn one_pass_gives_the_fingerprint_and_the_set_of_a_short_text() {
        for weighting in [Weighting::Binary, Weighting::Tf] {
            one_pass_gives_the_fingerprint_and_the_set_with(weighting);
        }
    }

    /// With either weighting (the sketch's size comes from the binary
    /// fingerprint's count, or from counting the hashes), on texts whose
    /// character pairs repeat.
    fn one_pass_gives_the_fingerprint_and_the_set_with(weighting: Weighting) {
        let short = ShortTexts::new(&FeatureOptions {
            weighting,
            ..FeatureOptions::default()
        });
        for text in [
            "One Stop Bakery, 1304 High St Rd",
            "a",
            "x\ty é",
            "abababab abab",
        ] {
            let (fingerprint, set) = short.fingerprint_and_set(text.as_bytes()).unwrap();
            assert_eq!(
                Some(fingerprint),
                short.fingerprint(text.as_bytes()),
                "{text}"
            );
            assert_eq!(set, short.feature_set(text.as_bytes()), "{text}");
            assert!(!set.is_empty());
            assert_eq!(
                short.fingerprint_and_sketch(text.as_bytes()),
                Some(ShortMeasure {
                    fingerprint,
                    sketch: Sketch::of(&set)
                }),
                "{text}"
            );
        }
        // Not short, or no features: nothing.
        let long = "word ".repeat(60);
        assert_eq!(short.fingerprint_and_set(long.as_bytes()), None);
        assert_eq!(short.fingerprint_and_set(b"  ,, -- "), None);
        assert_eq!(short.fingerprint_and_sketch(long.as_bytes()), None);
        assert_eq!(short.fingerprint_and_sketch(b"  ,, -- "), None);
    }

    #[test]
    fn the_prefix_keeps_small_texts_whole() {
        let mut small = Prefix::new(&b"a short line\n"[..]);
        io::copy(&mut small, &mut io::sink()).unwrap();
        assert_eq!(small.whole(), Some(&b"a short line\n"[..]));
        let long = vec![b'x'; 5000];
        let mut large = Prefix::new(&long[..]);
        io::copy(&mut large, &mut io::sink()).unwrap();
        assert_eq!(large.whole(), None);
        assert_eq!(large.total, 5000);
    }

    #[test]
    fn the_lecture_addresses_by_character_pairs() {
        let short = ShortTexts::new(&FeatureOptions::default());
        let set = |text: &str| short.feature_set(text.as_bytes());
        let case_2 = crate::fingerprint::jaccard(
            &set("One Stop Bakery, 1304 High St Rd, Wantirna, VIC, 3152"),
            &set("One Stop Bakery, 1304 High Street Rd, Wantirna South, VIC, 3152"),
        );
        assert!(case_2 >= 0.8, "{case_2}");
        let case_1 = crate::fingerprint::jaccard(
            &set("Burra Hotel, 5 Market Sq, Burra, SA, 5417"),
            &set("Camping Country Superstore, 401 Pacific Hwy, Belmont North, NSW, 2280"),
        );
        assert!(case_1 < 0.2, "{case_1}");
    }
}
