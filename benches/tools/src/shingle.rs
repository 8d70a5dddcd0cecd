//! The ground truth's definition of similarity: words, word 3-shingles,
//! character 5-grams and their exact Jaccard.
//!
//! docs/QUALITY.md states the same definition in prose; keep the two in step.
//! Sets hold exact keys (word ids or character codes packed into a `u128`),
//! never hashes, so a Jaccard computed here has no collisions.

use std::collections::HashMap;

/// Number of words in a word shingle of the ground truth.
pub const WORD_SHINGLE: usize = 3;
/// Number of characters in a character gram of the ground truth.
pub const CHAR_GRAM: usize = 5;

/// True for a CJK ideograph, which is a word of its own (Chinese and
/// Japanese text does not separate words by spaces).
fn is_cjk_ideograph(c: char) -> bool {
    matches!(c as u32,
        0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0x20000..=0x3134F)
}

/// The words of a text: maximal runs of alphanumeric characters
/// (`char::is_alphanumeric`), each CJK ideograph a word by itself, each
/// word lower-cased (`char::to_lowercase`).
pub fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for c in text.chars() {
        if c.is_alphanumeric() && !is_cjk_ideograph(c) {
            current.extend(c.to_lowercase());
            continue;
        }
        if !current.is_empty() {
            out.push(std::mem::take(&mut current));
        }
        if is_cjk_ideograph(c) {
            out.push(c.to_lowercase().collect());
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// Gives each distinct word a small integer id, so shingles are exact keys.
#[derive(Default, Debug)]
pub struct Interner {
    ids: HashMap<String, u32>,
}

impl Interner {
    /// An empty interner.
    pub fn new() -> Interner {
        Interner::default()
    }

    /// The id of a word already seen.
    pub fn get(&self, word: &str) -> Option<u32> {
        self.ids.get(word).copied()
    }

    /// The id of a word, assigning the next one if it is new.
    pub fn id(&mut self, word: &str) -> u32 {
        if let Some(&id) = self.ids.get(word) {
            return id;
        }
        // Ids stay below u32::MAX, which marks "no word" in short shingles.
        let id = u32::try_from(self.ids.len())
            .ok()
            .filter(|&id| id < u32::MAX)
            .expect("fewer than 2^32 - 1 distinct words");
        self.ids.insert(word.to_owned(), id);
        id
    }
}

/// Packs up to `max` values of `bits` bits each into one key; missing
/// places hold `pad` (a value no real item takes).
fn pack(items: &[u32], bits: u32, pad: u32, width: usize) -> u128 {
    let mut key = 0u128;
    for i in 0..width {
        let v = items.get(i).copied().unwrap_or(pad);
        key = (key << bits) | v as u128;
    }
    key
}

/// Sorts and removes duplicates: a set as a sorted vector.
fn into_set(mut keys: Vec<u128>) -> Vec<u128> {
    keys.sort_unstable();
    keys.dedup();
    keys
}

/// The set of shingles of `n` consecutive words (1 <= n <= 3). A text with
/// fewer than `n` (but some) words has one shingle, its whole word sequence;
/// a text with no words has the empty set.
pub fn word_shingles(ids: &[u32], n: usize) -> Vec<u128> {
    assert!((1..=3).contains(&n), "word shingles of 1 to 3 words");
    if ids.len() < n {
        return if ids.is_empty() {
            Vec::new()
        } else {
            vec![pack(ids, 32, u32::MAX, n)]
        };
    }
    into_set(ids.windows(n).map(|w| pack(w, 32, u32::MAX, n)).collect())
}

/// The shingles of [`word_shingles`] with their number of occurrences:
/// `(key, count)` sorted by key, the keys exactly those of
/// `word_shingles(ids, n)`.
pub fn word_shingle_counts(ids: &[u32], n: usize) -> Vec<(u128, u32)> {
    assert!((1..=3).contains(&n), "word shingles of 1 to 3 words");
    if ids.len() < n {
        return word_shingles(ids, n).into_iter().map(|k| (k, 1)).collect();
    }
    let mut keys: Vec<u128> = ids.windows(n).map(|w| pack(w, 32, u32::MAX, n)).collect();
    keys.sort_unstable();
    let mut out: Vec<(u128, u32)> = Vec::new();
    for key in keys {
        match out.last_mut() {
            Some((last, count)) if *last == key => *count += 1,
            _ => out.push((key, 1)),
        }
    }
    out
}

/// The set of `n` consecutive characters (1 <= n <= 5) of the normalised
/// text: its words joined by single spaces. A shorter non-empty text has one
/// gram, the whole text; a text with no words has the empty set.
pub fn char_grams(words: &[String], n: usize) -> Vec<u128> {
    assert!((1..=5).contains(&n), "character grams of 1 to 5 characters");
    const PAD: u32 = 0x11_0000; // above every Unicode scalar value
    let joined = words.join(" ");
    let chars: Vec<u32> = joined.chars().map(|c| c as u32).collect();
    if chars.len() < n {
        return if chars.is_empty() {
            Vec::new()
        } else {
            vec![pack(&chars, 22, PAD, n)]
        };
    }
    into_set(chars.windows(n).map(|w| pack(w, 22, PAD, n)).collect())
}

/// Exact Jaccard similarity |A ∩ B| / |A ∪ B| of two sorted, distinct sets;
/// 1.0 when both are empty. Any key type will do, as long as both sets are
/// sorted by the same order.
pub fn jaccard<T: Ord>(a: &[T], b: &[T]) -> f64 {
    if a.is_empty() && b.is_empty() {
        return 1.0;
    }
    let (mut i, mut j, mut common) = (0, 0, 0usize);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                common += 1;
                i += 1;
                j += 1;
            }
        }
    }
    common as f64 / (a.len() + b.len() - common) as f64
}

/// A document's ground-truth sets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sets {
    /// Word 3-shingles.
    pub words3: Vec<u128>,
    /// Character 5-grams.
    pub chars5: Vec<u128>,
}

impl Sets {
    /// Both sets of a text; word ids come from `interner`, which must be the
    /// same for every text the sets are compared with.
    pub fn of(text: &str, interner: &mut Interner) -> Sets {
        let words = words(text);
        let ids: Vec<u32> = words.iter().map(|w| interner.id(w)).collect();
        Sets {
            words3: word_shingles(&ids, WORD_SHINGLE),
            chars5: char_grams(&words, CHAR_GRAM),
        }
    }
}

/// Exact word-3-shingle Jaccard of two texts.
pub fn words3_jaccard(a: &str, b: &str) -> f64 {
    let mut interner = Interner::new();
    let sa = Sets::of(a, &mut interner);
    let sb = Sets::of(b, &mut interner);
    jaccard(&sa.words3, &sb.words3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_lowercased_alphanumeric_runs_and_single_ideographs() {
        assert_eq!(words("Hello, WORLD! x2-y"), ["hello", "world", "x2", "y"]);
        assert_eq!(words("Ünïcode café"), ["ünïcode", "café"]);
        assert_eq!(words("中文abc 文本"), ["中", "文", "abc", "文", "本"]);
        assert!(words(" \t.,;").is_empty());
    }

    #[test]
    fn jaccard_by_hand() {
        assert_eq!(jaccard(&[1, 2, 3], &[2, 3, 4]), 0.5);
        assert_eq!(jaccard(&[1], &[2]), 0.0);
        assert_eq!(jaccard::<u128>(&[], &[]), 1.0);
        assert_eq!(jaccard(&[], &[1]), 0.0);
        assert_eq!(jaccard(&[5, 6], &[5, 6]), 1.0);
    }

    #[test]
    fn word_shingles_by_hand() {
        // "a b c a b c": shingles abc, bca, cab -> 3 distinct.
        assert_eq!(word_shingles(&[0, 1, 2, 0, 1, 2], 3).len(), 3);
        // Two words: one shingle, different from any 3-word shingle.
        let short = word_shingles(&[0, 1], 3);
        assert_eq!(short.len(), 1);
        assert!(!word_shingles(&[0, 1, 0], 3).contains(&short[0]));
        assert!(word_shingles(&[], 3).is_empty());
    }

    #[test]
    fn word_shingle_counts_by_hand() {
        // "a b c a b c a": abc twice, bca twice, cab once.
        let ids = [0, 1, 2, 0, 1, 2, 0];
        let counts = word_shingle_counts(&ids, 3);
        let keys: Vec<u128> = counts.iter().map(|&(k, _)| k).collect();
        assert_eq!(keys, word_shingles(&ids, 3));
        let mut n: Vec<u32> = counts.iter().map(|&(_, c)| c).collect();
        n.sort_unstable();
        assert_eq!(n, [1, 2, 2]);
        assert_eq!(
            word_shingle_counts(&[4, 5], 3),
            [(word_shingles(&[4, 5], 3)[0], 1)]
        );
        assert!(word_shingle_counts(&[], 3).is_empty());
    }

    #[test]
    fn one_substitution_in_ten_words() {
        // 8 shingles each; one word changed in the middle breaks 3 of them:
        // 5 common, union 11.
        let a = "w0 w1 w2 w3 w4 w5 w6 w7 w8 w9";
        let b = "w0 w1 w2 w3 w4 XX w6 w7 w8 w9";
        assert_eq!(words3_jaccard(a, b), 5.0 / 11.0);
    }

    #[test]
    fn case_whitespace_and_punctuation_do_not_matter() {
        let a = "The quick brown fox jumps over the lazy dog.";
        let b = "THE  quick\n\tbrown -- fox; jumps over THE lazy dog";
        assert_eq!(words3_jaccard(a, b), 1.0);
        let mut i = Interner::new();
        assert_eq!(Sets::of(a, &mut i).chars5, Sets::of(b, &mut i).chars5);
    }

    #[test]
    fn char_grams_by_hand() {
        let w = |s: &str| words(s);
        // "abcdef" -> abcde, bcdef.
        assert_eq!(char_grams(&w("abcdef"), 5).len(), 2);
        // "ab cd" is 5 characters with its space: one gram.
        assert_eq!(char_grams(&w("ab, cd"), 5).len(), 1);
        assert_eq!(char_grams(&w("abc"), 5).len(), 1);
        assert_ne!(char_grams(&w("abc"), 5), char_grams(&w("abd"), 5));
        assert!(char_grams(&w("!!"), 5).is_empty());
    }
}
