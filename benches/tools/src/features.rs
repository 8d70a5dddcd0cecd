//! The feature definitions an exact similarity can be computed over: word
//! n-shingles and character n-grams, exactly as [`crate::shingle`] defines
//! them, for a whole corpus or a pair of texts.

use std::fmt;
use std::str::FromStr;

use rayon::prelude::*;

use crate::shingle::{Interner, char_grams, word_shingles, words};

/// A feature definition: the sets whose Jaccard is measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Feature {
    /// Shingles of n consecutive words (1 to 3).
    Words(usize),
    /// Grams of n consecutive characters of the normalised text (1 to 5).
    Chars(usize),
}

impl Feature {
    /// The ground truth's main definition: word 3-shingles.
    pub const WORDS3: Feature = Feature::Words(3);

    /// The definitions compared on short records: words:1..3, chars:2..5.
    pub const COMPARED: [Feature; 7] = [
        Feature::Words(1),
        Feature::Words(2),
        Feature::Words(3),
        Feature::Chars(2),
        Feature::Chars(3),
        Feature::Chars(4),
        Feature::Chars(5),
    ];

    /// A name usable in a file name: `words3`, `chars5`.
    pub fn file_stem(&self) -> String {
        self.to_string().replace(':', "")
    }

    /// The set of one text. Word ids come from `interner`, which must be the
    /// same for every set the result is compared with.
    pub fn set(&self, text: &str, interner: &mut Interner) -> Vec<u128> {
        let words = words(text);
        match *self {
            Feature::Chars(n) => char_grams(&words, n),
            Feature::Words(n) => {
                let ids: Vec<u32> = words.iter().map(|w| interner.id(w)).collect();
                word_shingles(&ids, n)
            }
        }
    }

    /// The sets of two texts, comparable with each other.
    pub fn pair(&self, a: &str, b: &str) -> (Vec<u128>, Vec<u128>) {
        let mut interner = Interner::new();
        (self.set(a, &mut interner), self.set(b, &mut interner))
    }

    /// The sets of every text of a corpus, comparable with each other.
    /// Words are found in parallel; word ids are given in corpus order, so
    /// the result does not depend on the number of threads.
    pub fn corpus<S: AsRef<str> + Sync>(&self, texts: &[S]) -> Vec<Vec<u128>> {
        let mut interner = Interner::new();
        let mut out = Vec::with_capacity(texts.len());
        // Chunks bound the memory held by word lists.
        for chunk in texts.chunks(2048) {
            let words: Vec<Vec<String>> = chunk.par_iter().map(|t| words(t.as_ref())).collect();
            match *self {
                Feature::Chars(n) => {
                    out.par_extend(words.par_iter().map(|w| char_grams(w, n)));
                }
                Feature::Words(n) => {
                    let ids: Vec<Vec<u32>> = words
                        .iter()
                        .map(|ws| ws.iter().map(|w| interner.id(w)).collect())
                        .collect();
                    out.par_extend(ids.par_iter().map(|ids| word_shingles(ids, n)));
                }
            }
        }
        out
    }
}

impl fmt::Display for Feature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Feature::Words(n) => write!(f, "words:{n}"),
            Feature::Chars(n) => write!(f, "chars:{n}"),
        }
    }
}

impl FromStr for Feature {
    type Err = String;

    fn from_str(s: &str) -> Result<Feature, String> {
        let bad = || format!("{s:?}: expected words:N (N = 1 to 3) or chars:N (N = 1 to 5)");
        let (kind, n) = s.split_once(':').ok_or_else(bad)?;
        let n: usize = n.parse().map_err(|_| bad())?;
        match kind {
            "words" if (1..=3).contains(&n) => Ok(Feature::Words(n)),
            "chars" if (1..=5).contains(&n) => Ok(Feature::Chars(n)),
            _ => Err(bad()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shingle::{Sets, jaccard};

    #[test]
    fn names_round_trip() {
        for f in Feature::COMPARED {
            assert_eq!(f.to_string().parse::<Feature>(), Ok(f));
        }
        assert_eq!(Feature::WORDS3.file_stem(), "words3");
        for bad in [
            "words:4", "chars:0", "chars:6", "words", "bytes:3", "words:x",
        ] {
            assert!(bad.parse::<Feature>().is_err(), "{bad}");
        }
    }

    #[test]
    fn corpus_sets_are_the_definitions_sets() {
        let texts = [
            "The quick brown fox jumps over the lazy dog.",
            "THE quick brown fox -- jumps over a lazy dog",
            "",
            "fox",
        ];
        let words3 = Feature::WORDS3.corpus(&texts);
        let chars5 = Feature::Chars(5).corpus(&texts);
        let mut interner = Interner::new();
        for (i, t) in texts.iter().enumerate() {
            let s = Sets::of(t, &mut interner);
            assert_eq!(chars5[i], s.chars5);
            assert_eq!(words3[i].len(), s.words3.len());
        }
        let expected = {
            let mut interner = Interner::new();
            let a = Sets::of(texts[0], &mut interner);
            let b = Sets::of(texts[1], &mut interner);
            jaccard(&a.words3, &b.words3)
        };
        assert_eq!(jaccard(&words3[0], &words3[1]), expected);
        let (a, b) = Feature::WORDS3.pair(texts[0], texts[1]);
        assert_eq!(jaccard(&a, &b), expected);
        assert!(words3[2].is_empty());
        assert_eq!(Feature::Words(1).corpus(&texts)[3].len(), 1);
    }
}
