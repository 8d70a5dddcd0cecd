//! Edit recipes: the controlled changes that turn an original document into
//! a near-duplicate.
//!
//! A recipe combines word edits at a fixed rate (insertions, deletions,
//! substitutions or a mix), sentence reordering, boilerplate, whitespace
//! noise and case changes. The number of word edits is exact:
//! max(1, round(rate x words)), at distinct positions.

use std::fmt;

use super::doc::{Case, Doc, Style};
use super::vocab::Vocabulary;
use crate::rng::Rng;

/// Which word edits a recipe makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WordEdit {
    /// A new word before the chosen word.
    Insert,
    /// The chosen word removed.
    Delete,
    /// The chosen word replaced by a different one.
    Substitute,
    /// Each edit one of the three, at random.
    Mixed,
}

impl WordEdit {
    fn name(self) -> &'static str {
        match self {
            WordEdit::Insert => "insert",
            WordEdit::Delete => "delete",
            WordEdit::Substitute => "substitute",
            WordEdit::Mixed => "mixed",
        }
    }
}

/// A combination of edits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Recipe {
    /// Word edits and their rate in percent of the words.
    pub words: Option<(WordEdit, u32)>,
    /// Sentences shuffled within each paragraph.
    pub reorder: bool,
    /// A boilerplate header added.
    pub header: bool,
    /// A boilerplate footer added.
    pub footer: bool,
    /// Whitespace and line breaks changed.
    pub whitespace: bool,
    /// Letter case changed.
    pub case: bool,
}

impl fmt::Display for Recipe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some((edit, rate)) = self.words {
            parts.push(format!("{}:{rate}%", edit.name()));
        }
        for (on, name) in [
            (self.reorder, "reorder"),
            (self.header, "header"),
            (self.footer, "footer"),
            (self.whitespace, "whitespace"),
            (self.case, "case"),
        ] {
            if on {
                parts.push(name.to_owned());
            }
        }
        if parts.is_empty() {
            parts.push("copy".to_owned());
        }
        f.write_str(&parts.join("+"))
    }
}

/// The rates of word edits, in percent.
pub const RATES: [u32; 5] = [1, 2, 5, 10, 20];

/// Every recipe the generator uses, each equally likely: each word edit at
/// each rate, each other edit alone, and a few combinations.
pub fn recipes() -> Vec<Recipe> {
    let mut out = Vec::new();
    for edit in [
        WordEdit::Insert,
        WordEdit::Delete,
        WordEdit::Substitute,
        WordEdit::Mixed,
    ] {
        for rate in RATES {
            out.push(Recipe {
                words: Some((edit, rate)),
                ..Recipe::default()
            });
        }
    }
    let none = Recipe::default();
    out.extend([
        Recipe {
            reorder: true,
            ..none
        },
        Recipe {
            header: true,
            ..none
        },
        Recipe {
            footer: true,
            ..none
        },
        Recipe {
            whitespace: true,
            ..none
        },
        Recipe { case: true, ..none },
        Recipe {
            whitespace: true,
            case: true,
            ..none
        },
        Recipe {
            words: Some((WordEdit::Mixed, 2)),
            footer: true,
            ..none
        },
        Recipe {
            words: Some((WordEdit::Substitute, 1)),
            reorder: true,
            ..none
        },
        Recipe {
            words: Some((WordEdit::Mixed, 5)),
            whitespace: true,
            case: true,
            ..none
        },
        Recipe {
            words: Some((WordEdit::Mixed, 10)),
            header: true,
            footer: true,
            ..none
        },
    ]);
    out
}

/// Boilerplate paragraphs for headers and footers (original text). Each is
/// at most 60 words, and every document has at least 30 words of its own,
/// so two unrelated documents that share one stay far below Jaccard 0.8.
pub const BOILERPLATE: &[&str] = &[
    "CONFIDENTIAL: this message and anything attached to it are meant only for the person named above. If it reached you by mistake, please delete it and let the sender know. Do not copy, forward or keep it.",
    "Printed from the team handbook. Printed copies go stale quickly; the online page is the only current version. Send corrections to the documentation group.",
    "Copyright the authors. All rights reserved. No part of this text may be reproduced, stored or passed on in any form without written permission from the publisher.",
    "Sent from a mobile device. Please excuse short replies and typing mistakes.",
    "You are receiving this newsletter because you signed up for it on our website. To stop receiving it, follow the link at the bottom of any issue or write to us at the postal address below.",
    "DRAFT - not for circulation. The figures in this document are provisional and will change before the final version. Comments are welcome until the end of the month.",
];

/// Applies a recipe to a copy of `original`: the edited structure and the
/// style to render it with.
pub fn apply(original: &Doc, recipe: &Recipe, vocab: &Vocabulary, rng: &mut Rng) -> (Doc, Style) {
    let mut doc = original.clone();
    if let Some((edit, rate)) = recipe.words {
        edit_words(&mut doc, edit, rate, vocab, rng);
    }
    if recipe.reorder {
        for p in &mut doc.paragraphs {
            rng.shuffle(p);
        }
    }
    let mut style = Style::default();
    if recipe.header {
        style.header = Some(BOILERPLATE[rng.below(BOILERPLATE.len())]);
    }
    if recipe.footer {
        style.footer = Some(BOILERPLATE[rng.below(BOILERPLATE.len())]);
    }
    if recipe.whitespace {
        style.noisy_whitespace = true;
        style.wrap = rng.range(30, 110);
    }
    if recipe.case {
        style.case = [Case::Upper, Case::Lower, Case::Title, Case::Shouty][rng.below(4)];
    }
    (doc, style)
}

/// What happens at one word position.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    Keep,
    Insert,
    Delete,
    Substitute,
}

/// Makes max(1, round(rate% x words)) edits at distinct word positions.
fn edit_words(doc: &mut Doc, edit: WordEdit, rate: u32, vocab: &Vocabulary, rng: &mut Rng) {
    let n = doc.word_count();
    if n == 0 {
        return;
    }
    let count = ((n as f64 * rate as f64 / 100.0).round() as usize).clamp(1, n);
    let mut ops = vec![Op::Keep; n];
    let mut placed = 0;
    while placed < count {
        let i = rng.below(n);
        if ops[i] == Op::Keep {
            ops[i] = match edit {
                WordEdit::Insert => Op::Insert,
                WordEdit::Delete => Op::Delete,
                WordEdit::Substitute => Op::Substitute,
                WordEdit::Mixed => [Op::Insert, Op::Delete, Op::Substitute][rng.below(3)],
            };
            placed += 1;
        }
    }
    let mut position = 0;
    for p in &mut doc.paragraphs {
        for s in p.iter_mut() {
            let mut words = Vec::with_capacity(s.words.len() + 1);
            for w in s.words.drain(..) {
                match ops[position] {
                    Op::Keep => words.push(w),
                    Op::Insert => {
                        words.push(vocab.sample(rng).to_owned());
                        words.push(w);
                    }
                    Op::Delete => {}
                    Op::Substitute => words.push(different_word(&w, vocab, rng)),
                }
                position += 1;
            }
            s.words = words;
        }
        p.retain(|s| !s.words.is_empty());
    }
    doc.paragraphs.retain(|p| !p.is_empty());
}

/// A word from the vocabulary other than `old` (ignoring its comma).
fn different_word(old: &str, vocab: &Vocabulary, rng: &mut Rng) -> String {
    let bare = old.trim_end_matches(',');
    loop {
        let w = vocab.sample(rng);
        if w != bare {
            return w.to_owned();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::doc::render;
    use crate::shingle::{Interner, Sets, jaccard, words};

    fn setup() -> (Vocabulary, Doc) {
        let v = Vocabulary::new(2_000, 1.0);
        let doc = Doc::random(&v, &mut Rng::new(5), 500);
        (v, doc)
    }

    fn words_after(recipe: Recipe) -> (Vec<String>, Vec<String>) {
        let (v, doc) = setup();
        let mut rng = Rng::new(6);
        let before = words(&render(&doc, &Style::default(), &mut rng));
        let (edited, style) = apply(&doc, &recipe, &v, &mut rng);
        (before, words(&render(&edited, &style, &mut rng)))
    }

    #[test]
    fn word_edit_counts_are_exact() {
        for rate in RATES {
            let n = (500 * rate / 100) as usize;
            let r = |e| Recipe {
                words: Some((e, rate)),
                ..Recipe::default()
            };
            let (a, b) = words_after(r(WordEdit::Insert));
            assert_eq!(b.len(), a.len() + n);
            let (a, b) = words_after(r(WordEdit::Delete));
            assert_eq!(b.len(), a.len() - n);
            let (a, b) = words_after(r(WordEdit::Substitute));
            assert_eq!(b.len(), a.len());
            assert_eq!(a.iter().zip(&b).filter(|(x, y)| x != y).count(), n);
        }
    }

    #[test]
    fn whitespace_and_case_keep_the_words() {
        let none = Recipe::default();
        for r in [
            Recipe {
                whitespace: true,
                ..none
            },
            Recipe {
                case: true,
                whitespace: true,
                ..none
            },
        ] {
            let (a, b) = words_after(r);
            assert_eq!(a, b, "{r}");
        }
    }

    #[test]
    fn reorder_keeps_the_multiset_of_words_but_lowers_jaccard() {
        let (mut a, mut b) = words_after(Recipe {
            reorder: true,
            ..Recipe::default()
        });
        let mut i = Interner::new();
        let j = jaccard(
            &Sets::of(&a.join(" "), &mut i).words3,
            &Sets::of(&b.join(" "), &mut i).words3,
        );
        assert!(j < 1.0 && j > 0.5, "{j}");
        a.sort();
        b.sort();
        assert_eq!(a, b);
    }

    #[test]
    fn recipes_have_distinct_names() {
        let names: std::collections::HashSet<String> =
            recipes().iter().map(|r| r.to_string()).collect();
        assert_eq!(names.len(), recipes().len());
        assert!(names.contains("mixed:10%+header+footer"));
    }
}
