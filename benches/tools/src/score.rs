//! Precision, recall and F1 of a set of reported pairs against the relevant
//! pairs.
//!
//! Conventions for empty sets (so no ratio is ever NaN): precision is 1 when
//! nothing is reported (no false claims), recall is 1 when nothing is
//! relevant (nothing missed), and F1 is 0 when precision and recall are both 0.

use std::collections::HashSet;
use std::hash::Hash;

/// Counts behind precision and recall.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    /// Pairs reported.
    pub reported: usize,
    /// Pairs relevant.
    pub relevant: usize,
    /// Pairs both reported and relevant.
    pub true_positives: usize,
}

impl Score {
    /// Scores a reported set against a relevant set.
    pub fn from_sets<P: Eq + Hash>(reported: &HashSet<P>, relevant: &HashSet<P>) -> Score {
        Score {
            reported: reported.len(),
            relevant: relevant.len(),
            true_positives: reported.intersection(relevant).count(),
        }
    }

    /// True positives / reported.
    pub fn precision(&self) -> f64 {
        if self.reported == 0 {
            1.0
        } else {
            self.true_positives as f64 / self.reported as f64
        }
    }

    /// True positives / relevant.
    pub fn recall(&self) -> f64 {
        if self.relevant == 0 {
            1.0
        } else {
            self.true_positives as f64 / self.relevant as f64
        }
    }

    /// Harmonic mean of precision and recall.
    pub fn f1(&self) -> f64 {
        let (p, r) = (self.precision(), self.recall());
        if p + r == 0.0 {
            0.0
        } else {
            2.0 * p * r / (p + r)
        }
    }
}

/// What the scorer knows about one reported pair.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Judged {
    /// The pair's exact word-3-shingle Jaccard.
    pub jaccard: f64,
    /// Whether the pair is listed in the ground truth.
    pub in_truth: bool,
}

/// Scores reported pairs at a Jaccard threshold. A pair is relevant when its
/// Jaccard is >= `threshold`; the relevant set is the ground truth's relevant
/// pairs (`truth_relevant` of them) plus reported pairs outside the ground
/// truth that turn out relevant.
pub fn score_at(reported: &[Judged], truth_relevant: usize, threshold: f64) -> Score {
    let mut score = Score {
        reported: reported.len(),
        relevant: truth_relevant,
        true_positives: 0,
    };
    for pair in reported {
        if pair.jaccard >= threshold {
            score.true_positives += 1;
            if !pair.in_truth {
                score.relevant += 1;
            }
        }
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(pairs: &[(u32, u32)]) -> HashSet<(u32, u32)> {
        pairs.iter().copied().collect()
    }

    #[test]
    fn two_of_three_reported_of_four_relevant() {
        let s = Score::from_sets(
            &set(&[(1, 2), (1, 3), (7, 8)]),
            &set(&[(1, 2), (1, 3), (4, 5), (5, 6)]),
        );
        assert_eq!(
            s,
            Score {
                reported: 3,
                relevant: 4,
                true_positives: 2
            }
        );
        assert_eq!(s.precision(), 2.0 / 3.0);
        assert_eq!(s.recall(), 0.5);
        assert!((s.f1() - 4.0 / 7.0).abs() < 1e-12);
    }

    #[test]
    fn perfect_and_disjoint_and_empty() {
        let s = Score::from_sets(&set(&[(1, 2)]), &set(&[(1, 2)]));
        assert_eq!((s.precision(), s.recall(), s.f1()), (1.0, 1.0, 1.0));
        let s = Score::from_sets(&set(&[(1, 2)]), &set(&[(3, 4)]));
        assert_eq!((s.precision(), s.recall(), s.f1()), (0.0, 0.0, 0.0));
        let s = Score::from_sets(&set(&[]), &set(&[(3, 4)]));
        assert_eq!((s.precision(), s.recall(), s.f1()), (1.0, 0.0, 0.0));
        let s = Score::from_sets(&set(&[(1, 2)]), &set(&[]));
        assert_eq!((s.precision(), s.recall()), (0.0, 1.0));
    }

    #[test]
    fn threshold_decides_relevance_and_outsiders_count_when_similar() {
        let reported = [
            Judged {
                jaccard: 0.97,
                in_truth: true,
            },
            Judged {
                jaccard: 0.85,
                in_truth: true,
            },
            Judged {
                jaccard: 0.92,
                in_truth: false,
            }, // found by the tool
            Judged {
                jaccard: 0.01,
                in_truth: false,
            },
        ];
        // Ground truth has 3 pairs >= 0.9 (one of them reported), 5 >= 0.8.
        let s = score_at(&reported, 3, 0.9);
        assert_eq!(
            s,
            Score {
                reported: 4,
                relevant: 4,
                true_positives: 2
            }
        );
        let s = score_at(&reported, 5, 0.8);
        assert_eq!(
            s,
            Score {
                reported: 4,
                relevant: 6,
                true_positives: 3
            }
        );
        assert_eq!(s.precision(), 0.75);
        assert_eq!(s.recall(), 0.5);
    }
}
