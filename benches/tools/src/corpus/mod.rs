//! The corpus plan: which document is an original and which a near-duplicate
//! of which, and the text of each.
//!
//! Every document is a pure function of the parameters and its slot, so the
//! generator can produce documents in parallel, in batches, in any order, and
//! still write the same bytes.

pub mod doc;
pub mod edit;
pub mod vocab;

use doc::{Doc, Style, render};
use edit::{Recipe, apply, recipes};
use vocab::Vocabulary;

use crate::rng::{Rng, derive_seed};
use crate::shingle::{Interner, Sets, jaccard};
use crate::truth::TruthPair;

/// Everything that determines a corpus.
#[derive(Clone, Debug)]
pub struct Params {
    /// Number of documents.
    pub docs: usize,
    /// The seed.
    pub seed: u64,
    /// Share of documents that belong to a near-duplicate cluster.
    pub duplicate_share: f64,
    /// Largest cluster (an original and its variants).
    pub max_cluster: usize,
    /// Median length of an original, in words (lengths are log-normal).
    pub median_words: usize,
    /// Shortest original, in words (at least 1).
    pub min_words: usize,
    /// Number of words in the vocabulary.
    pub vocabulary: usize,
}

impl Default for Params {
    fn default() -> Params {
        Params {
            docs: 1_000,
            seed: 1,
            duplicate_share: 0.3,
            max_cluster: 6,
            median_words: 250,
            min_words: MIN_WORDS,
            vocabulary: 50_000,
        }
    }
}

/// Shortest original by default, in words: boilerplate (edit::BOILERPLATE)
/// stays smaller than the document's own text. Shorter originals, for
/// measuring short documents, are a parameter.
pub const MIN_WORDS: usize = 30;
/// Longest original, in words (some 50 pages).
pub const MAX_WORDS: usize = 40_000;

/// What one document slot holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// An original document.
    Original {
        /// Its seed.
        seed: u64,
        /// Its length in words.
        words: usize,
    },
    /// A near-duplicate of the original in slot `of`.
    Variant {
        /// The slot of the original.
        of: usize,
        /// Index into [`recipes`].
        recipe: usize,
        /// Seed of the edits.
        seed: u64,
    },
}

/// A planned corpus.
#[derive(Clone, Debug)]
pub struct Corpus {
    params: Params,
    vocab: Vocabulary,
    recipes: Vec<Recipe>,
    slots: Vec<Slot>,
    clusters: Vec<Vec<usize>>,
}

const STREAM_PLAN: u64 = 1;
const STREAM_DOC: u64 = 2;
const STREAM_EDIT: u64 = 3;

impl Corpus {
    /// Plans a corpus: lengths, clusters and recipes, slots shuffled so that
    /// near-duplicates are scattered through it.
    pub fn plan(params: Params) -> Corpus {
        let mut rng = Rng::new(derive_seed(params.seed, STREAM_PLAN, 0));
        let recipes = recipes();
        let n = params.docs;
        let max_cluster = params.max_cluster.max(2);
        let mut in_clusters = (params.duplicate_share.clamp(0.0, 1.0) * n as f64).round() as usize;
        if in_clusters < 2 {
            in_clusters = 0;
        }
        // Cluster sizes: 2 plus a geometric number, so pairs dominate.
        let mut sizes = Vec::new();
        let mut left = in_clusters;
        while left >= 2 {
            let mut m = 2;
            while m < max_cluster && rng.chance(0.45) {
                m += 1;
            }
            if left - m.min(left) == 1 && m < max_cluster {
                m += 1; // rather than leave a lone document behind
            }
            m = m.min(left);
            sizes.push(m);
            left -= m;
        }
        let mut position: Vec<usize> = (0..n).collect();
        rng.shuffle(&mut position);
        let mut next = position.into_iter();
        let mut slots = vec![Slot::Original { seed: 0, words: 0 }; n];
        let mut original_index = 0u64;
        let mut new_original = |rng: &mut Rng| {
            original_index += 1;
            let median = params.median_words.max(1) as f64;
            let words = (median * rng.normal().exp()).round() as usize;
            Slot::Original {
                seed: derive_seed(params.seed, STREAM_DOC, original_index),
                words: words.clamp(params.min_words.clamp(1, MAX_WORDS), MAX_WORDS),
            }
        };
        let mut clusters = Vec::with_capacity(sizes.len());
        for (c, &m) in sizes.iter().enumerate() {
            let members: Vec<usize> = next.by_ref().take(m).collect();
            slots[members[0]] = new_original(&mut rng);
            for (v, &slot) in members.iter().enumerate().skip(1) {
                slots[slot] = Slot::Variant {
                    of: members[0],
                    recipe: rng.below(recipes.len()),
                    seed: derive_seed(params.seed, STREAM_EDIT, (c * max_cluster + v) as u64),
                };
            }
            clusters.push(members);
        }
        for slot in next {
            slots[slot] = new_original(&mut rng);
        }
        let vocab = Vocabulary::new(params.vocabulary, 1.0);
        Corpus {
            params,
            vocab,
            recipes,
            slots,
            clusters,
        }
    }

    /// The parameters.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// Number of documents.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether the corpus has no documents.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The clusters, each a list of slots with the original first.
    pub fn clusters(&self) -> &[Vec<usize>] {
        &self.clusters
    }

    /// The id of a slot: its path relative to the corpus folder, in folders
    /// of at most 100 files.
    pub fn id(&self, slot: usize) -> String {
        let width = (self.len().max(2) - 1).to_string().len().max(6);
        format!(
            "docs/{:02}/{:02}/{slot:0width$}.txt",
            slot / 10_000,
            slot / 100 % 100
        )
    }

    /// How the document in a slot was made.
    pub fn recipe_name(&self, slot: usize) -> String {
        match self.slots[slot] {
            Slot::Original { .. } => "original".to_owned(),
            Slot::Variant { recipe, .. } => self.recipes[recipe].to_string(),
        }
    }

    fn original(&self, slot: usize) -> Doc {
        match self.slots[slot] {
            Slot::Original { seed, words } => Doc::random(&self.vocab, &mut Rng::new(seed), words),
            Slot::Variant { of, .. } => self.original(of),
        }
    }

    /// The text of the document in a slot.
    pub fn text(&self, slot: usize) -> String {
        match self.slots[slot] {
            Slot::Original { .. } => {
                render(&self.original(slot), &Style::default(), &mut Rng::new(0))
            }
            Slot::Variant { of, recipe, seed } => {
                let mut rng = Rng::new(seed);
                let (doc, style) = apply(
                    &self.original(of),
                    &self.recipes[recipe],
                    &self.vocab,
                    &mut rng,
                );
                render(&doc, &style, &mut rng)
            }
        }
    }

    /// Every pair of one cluster with its exact similarities, `a < b`.
    pub fn cluster_pairs(&self, cluster: usize) -> Vec<TruthPair> {
        let members = &self.clusters[cluster];
        let mut interner = Interner::new();
        let sets: Vec<Sets> = members
            .iter()
            .map(|&s| Sets::of(&self.text(s), &mut interner))
            .collect();
        let mut pairs = Vec::new();
        for i in 0..members.len() {
            for j in i + 1..members.len() {
                let (mut x, mut y) = (members[i], members[j]);
                if self.id(x) > self.id(y) {
                    std::mem::swap(&mut x, &mut y);
                }
                pairs.push(TruthPair {
                    a: self.id(x),
                    b: self.id(y),
                    cluster,
                    recipe_a: self.recipe_name(x),
                    recipe_b: self.recipe_name(y),
                    jaccard_words3: jaccard(&sets[i].words3, &sets[j].words3),
                    jaccard_chars5: jaccard(&sets[i].chars5, &sets[j].chars5),
                });
            }
        }
        pairs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small(seed: u64) -> Corpus {
        Corpus::plan(Params {
            docs: 200,
            seed,
            vocabulary: 5_000,
            ..Params::default()
        })
    }

    #[test]
    fn clusters_cover_the_duplicate_share_and_are_disjoint() {
        let c = small(1);
        let members: Vec<usize> = c.clusters().iter().flatten().copied().collect();
        // 30% of 200, less one if a lone document was left over.
        assert!((59..=60).contains(&members.len()), "{}", members.len());
        let distinct: std::collections::HashSet<_> = members.iter().collect();
        assert_eq!(distinct.len(), members.len());
        assert!(c.clusters().iter().all(|m| (2..=6).contains(&m.len())));
    }

    #[test]
    fn same_seed_same_texts_other_seed_other_texts() {
        let (a, b, other) = (small(4), small(4), small(5));
        assert!((0..200).all(|s| a.text(s) == b.text(s)));
        assert!((0..200).any(|s| a.text(s) != other.text(s)));
    }

    #[test]
    fn pairs_have_exact_jaccards_and_ordered_ids() {
        let c = small(2);
        for k in 0..c.clusters().len() {
            let m = c.clusters()[k].len();
            let pairs = c.cluster_pairs(k);
            assert_eq!(pairs.len(), m * (m - 1) / 2);
            let with_original = pairs
                .iter()
                .filter(|p| p.recipe_a == "original" || p.recipe_b == "original");
            assert_eq!(with_original.count(), m - 1);
            for p in pairs {
                assert!(p.a < p.b);
                assert_eq!(
                    p.jaccard_words3,
                    crate::shingle::words3_jaccard(
                        &c.text(slot_of(&c, &p.a)),
                        &c.text(slot_of(&c, &p.b))
                    )
                );
                assert!((0.0..=1.0).contains(&p.jaccard_chars5));
            }
        }
    }

    fn slot_of(c: &Corpus, id: &str) -> usize {
        (0..c.len()).find(|&s| c.id(s) == id).unwrap()
    }

    #[test]
    fn unrelated_documents_are_dissimilar() {
        let c = small(3);
        let singles: Vec<usize> = (0..c.len())
            .filter(|s| !c.clusters().iter().flatten().any(|m| m == s))
            .take(20)
            .collect();
        for w in singles.windows(2) {
            assert!(crate::shingle::words3_jaccard(&c.text(w[0]), &c.text(w[1])) < 0.1);
        }
    }
}
