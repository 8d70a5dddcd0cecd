//! A generated document as paragraphs of sentences of words, and how it is
//! rendered to text (line wrapping, whitespace noise, case, boilerplate).
//!
//! Edits work on this structure; only rendering produces bytes.

use super::vocab::Vocabulary;
use crate::rng::Rng;

/// One sentence: its words (a word may carry a trailing comma) and its end
/// mark.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sentence {
    /// The words, lower-case as drawn; the first is capitalised on rendering.
    pub words: Vec<String>,
    /// `.`, `?` or `!`.
    pub end: char,
}

/// A document: paragraphs of sentences.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Doc {
    /// The paragraphs, in order.
    pub paragraphs: Vec<Vec<Sentence>>,
}

impl Doc {
    /// A random document of exactly `words` words.
    pub fn random(vocab: &Vocabulary, rng: &mut Rng, words: usize) -> Doc {
        let mut paragraphs = Vec::new();
        let mut left = words;
        while left > 0 {
            let mut paragraph = Vec::new();
            for _ in 0..rng.range(2, 8) {
                if left == 0 {
                    break;
                }
                let len = rng.range(4, 24).min(left);
                left -= len;
                paragraph.push(Sentence::random(vocab, rng, len));
            }
            paragraphs.push(paragraph);
        }
        Doc { paragraphs }
    }

    /// Number of words.
    pub fn word_count(&self) -> usize {
        self.paragraphs
            .iter()
            .flatten()
            .map(|s| s.words.len())
            .sum()
    }
}

impl Sentence {
    /// A random sentence of `len` words.
    pub fn random(vocab: &Vocabulary, rng: &mut Rng, len: usize) -> Sentence {
        let mut words: Vec<String> = (0..len).map(|_| vocab.sample(rng).to_owned()).collect();
        for w in words.iter_mut().take(len.saturating_sub(1)) {
            if rng.chance(0.06) {
                w.push(',');
            }
        }
        let end = match rng.below(100) {
            0..90 => '.',
            90..96 => '?',
            _ => '!',
        };
        Sentence { words, end }
    }
}

/// How letters are cased on rendering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Case {
    /// Sentence case: each sentence's first letter upper-case.
    Sentence,
    /// Everything upper-case.
    Upper,
    /// Everything lower-case.
    Lower,
    /// Every word capitalised.
    Title,
    /// Sentence case with about one word in seven upper-cased.
    Shouty,
}

impl Case {
    /// The name used in edit recipes.
    pub fn name(self) -> &'static str {
        match self {
            Case::Sentence => "sentence",
            Case::Upper => "upper",
            Case::Lower => "lower",
            Case::Title => "title",
            Case::Shouty => "shouty",
        }
    }
}

/// Everything about rendering that is not the words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Style {
    /// Target line width.
    pub wrap: usize,
    /// Random extra spaces, tabs and blank lines.
    pub noisy_whitespace: bool,
    /// Letter case.
    pub case: Case,
    /// A boilerplate paragraph before the text.
    pub header: Option<&'static str>,
    /// A boilerplate paragraph after the text.
    pub footer: Option<&'static str>,
}

impl Default for Style {
    fn default() -> Style {
        Style {
            wrap: 72,
            noisy_whitespace: false,
            case: Case::Sentence,
            header: None,
            footer: None,
        }
    }
}

fn capitalise(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Writes one paragraph's words, wrapped, into `out`.
fn wrap_words(out: &mut String, words: &[String], style: &Style, rng: &mut Rng) {
    let mut column = 0;
    for (i, w) in words.iter().enumerate() {
        if i > 0 {
            if column + 1 + w.len() > style.wrap {
                if style.noisy_whitespace && rng.chance(0.3) {
                    out.push(' '); // trailing space before the break
                }
                out.push('\n');
                column = 0;
            } else {
                let gap = if style.noisy_whitespace && rng.chance(0.15) {
                    ["  ", "\t", " \t ", "   "][rng.below(4)]
                } else {
                    " "
                };
                out.push_str(gap);
                column += gap.len();
            }
        }
        out.push_str(w);
        column += w.len();
    }
}

/// Renders a document to text.
pub fn render(doc: &Doc, style: &Style, rng: &mut Rng) -> String {
    let mut paragraphs: Vec<Vec<String>> = Vec::new();
    let boilerplate = |text: &str| text.split(' ').map(str::to_owned).collect::<Vec<_>>();
    if let Some(h) = style.header {
        paragraphs.push(boilerplate(h));
    }
    for p in &doc.paragraphs {
        let mut words = Vec::new();
        for s in p {
            let n = s.words.len();
            for (i, w) in s.words.iter().enumerate() {
                let mut w = match style.case {
                    Case::Upper => w.to_uppercase(),
                    Case::Lower => w.clone(),
                    Case::Title => capitalise(w),
                    Case::Sentence if i == 0 => capitalise(w),
                    Case::Sentence => w.clone(),
                    Case::Shouty if rng.chance(1.0 / 7.0) => w.to_uppercase(),
                    Case::Shouty if i == 0 => capitalise(w),
                    Case::Shouty => w.clone(),
                };
                if i + 1 == n {
                    w.push(s.end);
                }
                words.push(w);
            }
        }
        if !words.is_empty() {
            paragraphs.push(words);
        }
    }
    if let Some(f) = style.footer {
        paragraphs.push(boilerplate(f));
    }
    let mut out = String::new();
    for (i, words) in paragraphs.iter().enumerate() {
        if i > 0 {
            out.push_str(if style.noisy_whitespace {
                ["\n\n", "\n\n\n", "\n \n"][rng.below(3)]
            } else {
                "\n\n"
            });
        }
        wrap_words(&mut out, words, style, rng);
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_doc_has_the_asked_word_count() {
        let v = Vocabulary::new(1_000, 1.0);
        let mut rng = Rng::new(1);
        for n in [1, 4, 30, 1_000] {
            assert_eq!(Doc::random(&v, &mut rng, n).word_count(), n);
        }
    }

    #[test]
    fn rendering_wraps_and_cases() {
        let doc = Doc {
            paragraphs: vec![vec![Sentence {
                words: vec!["alpha".into(), "beta,".into(), "gamma".into()],
                end: '.',
            }]],
        };
        let mut rng = Rng::new(1);
        assert_eq!(
            render(&doc, &Style::default(), &mut rng),
            "Alpha beta, gamma.\n"
        );
        let narrow = Style {
            wrap: 11,
            case: Case::Upper,
            footer: Some("The end."),
            ..Style::default()
        };
        assert_eq!(
            render(&doc, &narrow, &mut rng),
            "ALPHA BETA,\nGAMMA.\n\nThe end.\n"
        );
    }
}
