//! The ground-truth record: one line of `truth.jsonl` per pair of documents
//! in the same near-duplicate cluster.

use serde::{Deserialize, Serialize};

/// A pair of near-duplicates the generator made, with its exact similarity.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TruthPair {
    /// The smaller id (relative path) of the two.
    pub a: String,
    /// The larger id.
    pub b: String,
    /// The cluster both belong to.
    pub cluster: usize,
    /// How `a` was made from the cluster's original (`original` for it).
    pub recipe_a: String,
    /// How `b` was made from the cluster's original.
    pub recipe_b: String,
    /// Exact Jaccard of the word 3-shingle sets.
    pub jaccard_words3: f64,
    /// Exact Jaccard of the character 5-gram sets.
    pub jaccard_chars5: f64,
}
