//! Measurement instruments for simdup: a seeded corpus generator with exact
//! ground truth, exact ground truth for any other corpus, and the scoring
//! behind the quality reports.
//!
//! [`shingle`] defines similarity (words, word 3-shingles, character
//! 5-grams, exact Jaccard); [`features`] computes those sets, and word
//! 1- to 3-shingles and character 1- to 5-grams, for a whole corpus;
//! [`join`] finds every pair of sets with Jaccard >= a floor, exactly;
//! [`corpus`] generates documents and their
//! near-duplicate clusters; [`records`] reads any corpus.jsonl; [`truth`]
//! holds the ground-truth file formats;
//! [`score`] turns reported pairs into precision, recall and F1; [`quality`]
//! judges the pairs `simdup scan` reports against a generated corpus's
//! truth, [`judge`] against the truth of any corpus; [`rng`] is
//! the seeded generator everything random comes from; [`boilerplate`]
//! measures SimHash candidates under corpus-aware weightings.
#![deny(missing_docs)]

pub mod boilerplate;
pub mod corpus;
pub mod features;
pub mod join;
pub mod judge;
pub mod quality;
pub mod records;
pub mod rng;
pub mod score;
pub mod shingle;
pub mod truth;
