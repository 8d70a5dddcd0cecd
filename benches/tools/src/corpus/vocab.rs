//! A Zipf-distributed vocabulary: real English function words at the top
//! ranks, pronounceable made-up words below them.
//!
//! Rank r is drawn with probability proportional to 1 / r^s, the shape of
//! word frequencies in natural text. Unrelated documents drawn from it share
//! only a few frequent shingles, as real documents do.

use std::collections::HashSet;

use crate::rng::Rng;

/// The most frequent English words, in rough frequency order.
const COMMON: &[&str] = &[
    "the", "of", "and", "to", "a", "in", "is", "that", "for", "it", "was", "on", "with", "as",
    "be", "by", "at", "this", "are", "from", "or", "have", "an", "not", "they", "which", "but",
    "one", "we", "all", "you", "were", "there", "been", "has", "can", "their", "more", "if",
    "will", "would", "when", "who", "so", "what", "about", "some", "into", "them", "out", "time",
    "only", "other", "new", "could", "than", "then", "may", "first", "these", "any", "work",
    "also", "after", "people", "over", "most", "two", "where", "should", "each", "made", "how",
    "between", "under", "system", "years", "through", "well", "both", "part", "same", "used",
    "because", "while", "long", "must", "number", "each", "water", "city", "data", "report",
    "order", "small", "large", "without", "before", "point", "place", "world", "state", "again",
];

const ONSETS: &[&str] = &[
    "b", "c", "d", "f", "g", "h", "j", "k", "l", "m", "n", "p", "r", "s", "t", "v", "w", "z", "br",
    "cr", "dr", "fl", "gr", "pl", "st", "tr", "ch", "sh", "th", "qu", "",
];
const VOWELS: &[&str] = &["a", "e", "i", "o", "u", "ai", "ea", "ou", "io", "y"];
const CODAS: &[&str] = &["", "", "", "n", "r", "s", "l", "t", "m", "nd", "st", "ck"];

/// Words ranked by frequency, with a sampler for their Zipf distribution.
#[derive(Clone, Debug)]
pub struct Vocabulary {
    words: Vec<String>,
    /// cumulative[r] = sum of weights of ranks 0..=r.
    cumulative: Vec<f64>,
}

impl Vocabulary {
    /// A vocabulary of `size` words (at least the common ones) with Zipf
    /// exponent `exponent`. The words depend only on `size` (a fixed seed),
    /// so corpora of different seeds speak the same language.
    pub fn new(size: usize, exponent: f64) -> Vocabulary {
        let mut rng = Rng::new(0x05EE_D0F7_0CAB);
        let mut seen: HashSet<String> = HashSet::new();
        let mut words = Vec::with_capacity(size.max(COMMON.len()));
        for w in COMMON {
            if seen.insert((*w).to_owned()) {
                words.push((*w).to_owned());
            }
        }
        while words.len() < size {
            // Rarer words are longer, as in real text.
            let syllables = match words.len() {
                0..1_000 => rng.range(1, 2),
                1_000..10_000 => rng.range(2, 3),
                _ => rng.range(2, 4),
            };
            let mut w = String::new();
            for _ in 0..syllables {
                w.push_str(ONSETS[rng.below(ONSETS.len())]);
                w.push_str(VOWELS[rng.below(VOWELS.len())]);
                w.push_str(CODAS[rng.below(CODAS.len())]);
            }
            if seen.insert(w.clone()) {
                words.push(w);
            }
        }
        let mut total = 0.0;
        let cumulative = (1..=words.len())
            .map(|rank| {
                total += 1.0 / (rank as f64).powf(exponent);
                total
            })
            .collect();
        Vocabulary { words, cumulative }
    }

    /// Number of words.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// Whether the vocabulary is empty (never: it holds the common words).
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// Draws a word.
    pub fn sample(&self, rng: &mut Rng) -> &str {
        let total = *self.cumulative.last().unwrap_or(&0.0);
        let x = rng.unit() * total;
        let rank = self
            .cumulative
            .partition_point(|&c| c <= x)
            .min(self.words.len() - 1);
        &self.words[rank]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distinct_alphabetic_words_and_zipf_shape() {
        let v = Vocabulary::new(5_000, 1.0);
        assert_eq!(v.len(), 5_000);
        let distinct: HashSet<&String> = v.words.iter().collect();
        assert_eq!(distinct.len(), v.len());
        assert!(
            v.words
                .iter()
                .all(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_lowercase()))
        );
        let mut rng = Rng::new(9);
        let draws = 100_000;
        let the = (0..draws).filter(|_| v.sample(&mut rng) == "the").count() as f64;
        // P(rank 1) = 1 / H(5000) ~ 0.109.
        assert!((the / draws as f64 - 0.109).abs() < 0.01, "{the}");
    }
}
