//! Token weights with htm.core's semantics: the vocabulary file, the
//! exclude list, orphans, frequency floor and ceiling, and the characters
//! that token similarity adds.
//!
//! File formats (docs/FINGERPRINT.md has the full rules): a vocabulary has
//! one `token<whitespace>weight` per line, an exclude list one token per
//! line; blank lines and lines starting with `#` are ignored. Entries are
//! normalised like document text when a fingerprinter is made. This module
//! decides a token's weight; shingling and hashing happen elsewhere.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::Path;

use super::normalize::normalize_term;
use super::options::FeatureOptions;
use crate::{Error, Result};

/// Largest weight a vocabulary may give; keeps every sum far from overflow.
pub const MAX_WEIGHT: u32 = 1_000_000;

/// Token weights read from a vocabulary file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Vocabulary {
    weights: BTreeMap<String, u32>,
}

/// A set of tokens, such as the exclude list.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TokenSet {
    tokens: BTreeSet<String>,
}

/// Reads a whole file as text (invalid UTF-8 replaced), naming the path on error.
fn read_text(path: &Path) -> Result<String> {
    let bytes = std::fs::read(path).map_err(|source| Error::io(path, source))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// The meaningful lines of a list file: 1-based number and trimmed text.
fn entries(text: &str) -> impl Iterator<Item = (u64, &str)> {
    text.lines()
        .enumerate()
        .map(|(index, line)| (index as u64 + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
}

impl Vocabulary {
    /// Loads a vocabulary file (`token weight` per line).
    pub fn load(path: &Path) -> Result<Self> {
        Self::parse(&path.display().to_string(), &read_text(path)?)
    }

    /// Parses vocabulary text; `source_name` names it in errors.
    pub fn parse(source_name: &str, text: &str) -> Result<Self> {
        let mut weights = BTreeMap::new();
        for (line, entry) in entries(text) {
            let error = |message: String| Error::Parse {
                source_name: source_name.to_string(),
                line,
                message,
            };
            let mut fields = entry.split_whitespace();
            let (Some(token), Some(weight), None) = (fields.next(), fields.next(), fields.next())
            else {
                return Err(error(format!("expected 'token weight', found '{entry}'")));
            };
            let weight: u32 = weight
                .parse()
                .ok()
                .filter(|w| *w <= MAX_WEIGHT)
                .ok_or_else(|| {
                    error(format!(
                        "weight '{weight}' is not a whole number from 0 to {MAX_WEIGHT}"
                    ))
                })?;
            // A repeated token keeps its largest weight, so order never matters.
            let slot = weights.entry(token.to_string()).or_insert(weight);
            *slot = (*slot).max(weight);
        }
        Ok(Vocabulary { weights })
    }

    /// Builds a vocabulary from pairs (weights above [`MAX_WEIGHT`] are capped).
    pub fn from_pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, u32)>) -> Self {
        let mut weights = BTreeMap::new();
        for (token, weight) in pairs {
            let slot = weights.entry(token.to_string()).or_insert(0);
            *slot = (*slot).max(weight.min(MAX_WEIGHT));
        }
        Vocabulary { weights }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.weights.len()
    }

    /// True when there are no entries.
    pub fn is_empty(&self) -> bool {
        self.weights.is_empty()
    }

    /// The entries in token order.
    pub fn entries(&self) -> impl Iterator<Item = (&str, u32)> {
        self.weights
            .iter()
            .map(|(token, weight)| (token.as_str(), *weight))
    }
}

impl TokenSet {
    /// Loads a token list file (one token per line).
    pub fn load(path: &Path) -> Result<Self> {
        Self::parse(&path.display().to_string(), &read_text(path)?)
    }

    /// Parses token list text; `source_name` names it in errors.
    pub fn parse(source_name: &str, text: &str) -> Result<Self> {
        let mut tokens = BTreeSet::new();
        for (line, entry) in entries(text) {
            if entry.split_whitespace().nth(1).is_some() {
                return Err(Error::Parse {
                    source_name: source_name.to_string(),
                    line,
                    message: format!("expected one token, found '{entry}'"),
                });
            }
            tokens.insert(entry.to_string());
        }
        Ok(TokenSet { tokens })
    }

    /// Builds a set from tokens.
    pub fn from_tokens<'a>(tokens: impl IntoIterator<Item = &'a str>) -> Self {
        TokenSet {
            tokens: tokens.into_iter().map(str::to_string).collect(),
        }
    }

    /// Number of tokens.
    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    /// True when there are no tokens.
    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    /// The tokens in order.
    pub fn tokens(&self) -> impl Iterator<Item = &str> {
        self.tokens.iter().map(String::as_str)
    }
}

/// The weighting rules of one fingerprinter, with entries normalised.
#[derive(Clone, Debug, Default)]
pub(crate) struct TokenRules {
    exclude: Option<HashSet<Box<[u8]>>>,
    vocabulary: Option<HashMap<Box<[u8]>, u32>>,
    encode_orphans: bool,
    floor: u32,
    ceiling: Option<u32>,
    token_similarity: bool,
}

impl TokenRules {
    /// Prepares the rules of `options`.
    pub(crate) fn new(options: &FeatureOptions) -> Self {
        let normalize = |token: &str| {
            normalize_term(token, options)
                .into_bytes()
                .into_boxed_slice()
        };
        let vocabulary = options.vocabulary.as_ref().map(|vocabulary| {
            let mut map = HashMap::new();
            for (token, weight) in vocabulary.entries() {
                let slot = map.entry(normalize(token)).or_insert(weight);
                *slot = (*slot).max(weight);
            }
            map
        });
        TokenRules {
            exclude: options
                .exclude
                .as_ref()
                .map(|set| set.tokens().map(normalize).collect()),
            vocabulary,
            encode_orphans: options.encode_orphans,
            floor: options.frequency_floor,
            ceiling: options.frequency_ceiling,
            token_similarity: options.token_similarity,
        }
    }

    /// True when every token simply weighs 1 (the fast path).
    pub(crate) fn is_trivial(&self) -> bool {
        self.exclude.is_none()
            && self.vocabulary.is_none()
            && self.floor == 0
            && self.ceiling.is_none()
            && !self.token_similarity
    }
}

/// Applies [`TokenRules`] to the tokens of one document, in order.
#[derive(Debug)]
pub(crate) struct TokenWeigher<'a> {
    rules: &'a TokenRules,
    /// Occurrences so far of each token (only with a floor or ceiling):
    /// memory grows with the number of distinct tokens.
    seen: HashMap<Box<[u8]>, u32>,
    /// Occurrences of each character within the current token.
    chars_seen: Vec<(char, u32)>,
}

impl<'a> TokenWeigher<'a> {
    /// A weigher for a new document.
    pub(crate) fn new(rules: &'a TokenRules) -> Self {
        TokenWeigher {
            rules,
            seen: HashMap::new(),
            chars_seen: Vec::new(),
        }
    }

    /// The weight of the next token, or `None` to drop it. With token
    /// similarity, first calls `char_feature` with each character feature.
    pub(crate) fn weigh(
        &mut self,
        token: &[u8],
        char_feature: &mut impl FnMut(&[u8], u32),
    ) -> Option<u32> {
        let rules = self.rules;
        if rules
            .exclude
            .as_ref()
            .is_some_and(|set| set.contains(token))
        {
            return None;
        }
        let mut weight = 1;
        if let Some(vocabulary) = &rules.vocabulary {
            match vocabulary.get(token) {
                Some(&w) => weight = w,
                None if rules.encode_orphans => {}
                None => return None,
            }
        }
        if rules.floor > 0 || rules.ceiling.is_some() {
            let count = match self.seen.get_mut(token) {
                Some(count) => count,
                None => self.seen.entry(token.into()).or_insert(0),
            };
            *count = count.saturating_add(1);
            if *count <= rules.floor || rules.ceiling.is_some_and(|ceiling| *count > ceiling) {
                return None;
            }
        }
        if rules.token_similarity {
            self.char_features(token, weight, char_feature);
            // htm.core: "try to balance token with letters".
            weight += weight / 2;
        }
        Some(weight)
    }

    /// Emits each character of `token` as a feature (htm.core's token similarity).
    fn char_features(
        &mut self,
        token: &[u8],
        token_weight: u32,
        char_feature: &mut impl FnMut(&[u8], u32),
    ) {
        self.chars_seen.clear();
        let text = String::from_utf8_lossy(token);
        for c in text.chars() {
            let mut buffer = [0; 4];
            let bytes = c.encode_utf8(&mut buffer).as_bytes();
            if let Some(ceiling) = self.rules.ceiling {
                let count = match self.chars_seen.iter_mut().find(|(seen, _)| *seen == c) {
                    Some((_, count)) => count,
                    None => {
                        self.chars_seen.push((c, 0));
                        &mut self.chars_seen.last_mut().expect("just pushed").1
                    }
                };
                *count += 1;
                if *count > ceiling {
                    continue;
                }
            }
            let weight = self
                .rules
                .vocabulary
                .as_ref()
                .and_then(|v| v.get(bytes).copied())
                .unwrap_or(token_weight);
            char_feature(bytes, weight);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn vocabulary_parses_comments_blank_lines_and_repeats() {
        let vocabulary = Vocabulary::parse("v", "# weights\n\nthe 0\nfox\t5\nfox 3\n").unwrap();
        assert_eq!(
            vocabulary.entries().collect::<Vec<_>>(),
            vec![("fox", 5), ("the", 0)]
        );
    }

    #[test]
    fn malformed_lines_give_source_and_line_number() {
        let cases = [
            ("a 1\nb\n", "v:2:"),
            ("a 1\n\nb x\n", "v:3:"),
            ("a 1 2\n", "v:1:"),
            ("a 1000001", "v:1:"),
        ];
        for (text, prefix) in cases {
            let message = Vocabulary::parse("v", text).unwrap_err().to_string();
            assert!(message.starts_with(prefix), "{message}");
        }
        let message = TokenSet::parse("x", "ok\n# c\ntwo words\n")
            .unwrap_err()
            .to_string();
        assert!(message.starts_with("x:3:"), "{message}");
    }

    #[test]
    fn unreadable_file_names_the_path() {
        let message = Vocabulary::load(Path::new("no/such/vocabulary.txt"))
            .unwrap_err()
            .to_string();
        assert!(message.contains("no/such/vocabulary.txt"), "{message}");
        assert!(
            TokenSet::load(Path::new("no/such/list"))
                .unwrap_err()
                .to_string()
                .contains("no/such/list")
        );
    }

    fn weigh_all(options: FeatureOptions, tokens: &[&str]) -> Vec<Option<u32>> {
        let rules = TokenRules::new(&options);
        let mut weigher = TokenWeigher::new(&rules);
        tokens
            .iter()
            .map(|t| weigher.weigh(t.as_bytes(), &mut |_, _| {}))
            .collect()
    }

    #[test]
    fn vocabulary_orphans_and_excludes_follow_htm_core() {
        let options = FeatureOptions {
            vocabulary: Some(Arc::new(Vocabulary::from_pairs([("Fox", 4), ("the", 0)]))),
            exclude: Some(Arc::new(TokenSet::from_tokens(["THE"]))),
            ..FeatureOptions::default()
        };
        // Entries are lower-cased like text; excludes win over the vocabulary.
        assert_eq!(
            weigh_all(options.clone(), &["fox", "the", "dog"]),
            vec![Some(4), None, None]
        );
        let orphans = FeatureOptions {
            encode_orphans: true,
            ..options
        };
        assert_eq!(
            weigh_all(orphans, &["fox", "the", "dog"]),
            vec![Some(4), None, Some(1)]
        );
    }

    #[test]
    fn floor_drops_first_occurrences_and_ceiling_keeps_at_most_n() {
        let floor = FeatureOptions {
            frequency_floor: 1,
            ..FeatureOptions::default()
        };
        assert_eq!(
            weigh_all(floor, &["a", "a", "b", "a"]),
            vec![None, Some(1), None, Some(1)]
        );
        let ceiling = FeatureOptions {
            frequency_ceiling: Some(2),
            ..FeatureOptions::default()
        };
        assert_eq!(
            weigh_all(ceiling, &["a", "a", "a", "b"]),
            vec![Some(1), Some(1), None, Some(1)]
        );
    }

    #[test]
    fn token_similarity_emits_characters_and_balances_the_token() {
        let options = FeatureOptions {
            token_similarity: true,
            frequency_ceiling: Some(1),
            vocabulary: Some(Arc::new(Vocabulary::from_pairs([("hello", 4), ("l", 7)]))),
            ..FeatureOptions::default()
        };
        let rules = TokenRules::new(&options);
        let mut weigher = TokenWeigher::new(&rules);
        let mut chars = Vec::new();
        let weight = weigher.weigh(b"hello", &mut |bytes, w| {
            chars.push((String::from_utf8_lossy(bytes).into_owned(), w))
        });
        assert_eq!(weight, Some(6));
        let expected: Vec<(String, u32)> = [("h", 4), ("e", 4), ("l", 7), ("o", 4)]
            .iter()
            .map(|(c, w)| (c.to_string(), *w))
            .collect();
        assert_eq!(chars, expected);
    }
}
