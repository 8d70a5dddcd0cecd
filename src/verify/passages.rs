//! Shared passages: which lines of two documents the other one shares,
//! found from their features (the same ones exact Jaccard counts).
//!
//! The rule, line by line (documented in docs/EXPLAIN.md too):
//!
//! - each feature (shingle) belongs to the line its last token is on
//!   ([`Fingerprinter::features_by_line`]);
//! - a line with features is **shared** when at least half of its
//!   features occur anywhere in the other document, and **unique**
//!   otherwise;
//! - a line without features of its own but with text (a heading of fewer
//!   words than a shingle, whose words end up in the next line's
//!   shingles) takes the state of the next line with features, or of the
//!   last one at the end of the document;
//! - a blank line has no state: it belongs to a range only when the lines
//!   on both sides of it do.
//!
//! Consecutive shared lines make a shared range; consecutive unique lines a
//! unique range. Each shared range of `a` is matched with the shared range
//! of `b` it has the most distinct features in common with (the first of
//! equals), which gives the passages. Everything is deterministic.

use std::collections::{HashMap, HashSet};

use serde::Serialize;

use crate::fingerprint::{Fingerprinter, split_lines};

/// Lines `start..=end`, counted from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LineRange {
    /// The first line.
    pub start: u32,
    /// The last line (inclusive).
    pub end: u32,
}

/// A passage of `a` and where `b` has it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Passage {
    /// Its lines in `a`.
    pub a: LineRange,
    /// The shared range of `b` with the most features in common with it
    /// (none when no shared range of `b` has any).
    pub b: Option<LineRange>,
}

/// The shared and unique lines of two documents.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Passages {
    /// The shared ranges of `a`, in order, each with its range in `b`.
    pub passages: Vec<Passage>,
    /// The shared ranges of `b`, in order.
    pub shared_b: Vec<LineRange>,
    /// The ranges of `a` that `b` does not share.
    pub unique_a: Vec<LineRange>,
    /// The ranges of `b` that `a` does not share.
    pub unique_b: Vec<LineRange>,
}

impl Passages {
    /// The first passage's range in each document, when `b` has it: the
    /// region a code-scanning result points at.
    pub fn first_region(&self) -> Option<(LineRange, LineRange)> {
        self.passages
            .iter()
            .find_map(|passage| passage.b.map(|b| (passage.a, b)))
    }
}

/// The passages of two documents under `fingerprinter`'s feature options.
pub fn find(fingerprinter: &Fingerprinter, a: &[u8], b: &[u8]) -> Passages {
    let a_lines = Side::new(fingerprinter, a);
    let b_lines = Side::new(fingerprinter, b);
    let (shared_a, unique_a) = a_lines.ranges(&b_lines.all);
    let (shared_b, unique_b) = b_lines.ranges(&a_lines.all);
    // Where each feature of b's shared ranges is.
    let mut in_b: HashMap<u64, Vec<usize>> = HashMap::new();
    for (index, range) in shared_b.iter().enumerate() {
        for feature in b_lines.distinct(*range) {
            in_b.entry(feature).or_default().push(index);
        }
    }
    let passages = shared_a
        .iter()
        .map(|&range| {
            let mut common = vec![0u64; shared_b.len()];
            for feature in a_lines.distinct(range) {
                for &index in in_b.get(&feature).map_or(&[][..], Vec::as_slice) {
                    common[index] += 1;
                }
            }
            let best = common
                .iter()
                .enumerate()
                .filter(|&(_, &count)| count > 0)
                .max_by(|x, y| x.1.cmp(y.1).then(y.0.cmp(&x.0)))
                .map(|(index, _)| shared_b[index]);
            Passage { a: range, b: best }
        })
        .collect();
    Passages {
        passages,
        shared_b,
        unique_a,
        unique_b,
    }
}

/// One document's lines and features.
struct Side {
    /// Feature hashes ending on each line.
    by_line: Vec<Vec<u64>>,
    /// Whether each line is blank (white space only).
    blank: Vec<bool>,
    /// Every feature of the document.
    all: HashSet<u64>,
}

impl Side {
    fn new(fingerprinter: &Fingerprinter, bytes: &[u8]) -> Side {
        let by_line = fingerprinter.features_by_line(bytes);
        let blank = split_lines(bytes)
            .iter()
            .map(|line| String::from_utf8_lossy(line).trim().is_empty())
            .collect();
        let all = by_line.iter().flatten().copied().collect();
        Side {
            by_line,
            blank,
            all,
        }
    }

    /// The distinct features ending on the lines of `range`.
    fn distinct(&self, range: LineRange) -> HashSet<u64> {
        let (start, end) = (range.start as usize - 1, range.end as usize);
        self.by_line[start..end].iter().flatten().copied().collect()
    }

    /// The shared and unique ranges against the other side's features.
    fn ranges(&self, other: &HashSet<u64>) -> (Vec<LineRange>, Vec<LineRange>) {
        // Shared (true), unique (false), or no features yet (None).
        let mut state: Vec<Option<bool>> = self
            .by_line
            .iter()
            .map(|features| {
                (!features.is_empty()).then(|| {
                    let found = features.iter().filter(|f| other.contains(f)).count();
                    2 * found >= features.len()
                })
            })
            .collect();
        // Lines with text but no features: the next line with features,
        // else the last one before.
        let mut next = None;
        for line in (0..state.len()).rev() {
            match state[line] {
                Some(shared) => next = Some(shared),
                None if !self.blank[line] => state[line] = next,
                None => {}
            }
        }
        let mut previous = None;
        for (line, state) in state.iter_mut().enumerate() {
            match *state {
                Some(shared) => previous = Some(shared),
                None if !self.blank[line] => *state = Some(previous.unwrap_or(false)),
                None => {}
            }
        }
        let (mut shared, mut unique) = (Vec::new(), Vec::new());
        let mut open: Option<(bool, LineRange)> = None;
        for (line, state) in state.iter().enumerate() {
            let Some(state) = *state else { continue };
            let number = u32::try_from(line + 1).unwrap_or(u32::MAX);
            match &mut open {
                Some((kind, range)) if *kind == state => range.end = number,
                _ => {
                    if let Some((kind, range)) = open.take() {
                        if kind {
                            shared.push(range)
                        } else {
                            unique.push(range)
                        }
                    }
                    open = Some((
                        state,
                        LineRange {
                            start: number,
                            end: number,
                        },
                    ));
                }
            }
        }
        if let Some((kind, range)) = open {
            if kind {
                shared.push(range)
            } else {
                unique.push(range)
            }
        }
        (shared, unique)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fingerprint::FeatureOptions;

    fn range(start: u32, end: u32) -> LineRange {
        LineRange { start, end }
    }

    fn passages(a: &str, b: &str) -> Passages {
        find(
            &Fingerprinter::new(FeatureOptions::default()),
            a.as_bytes(),
            b.as_bytes(),
        )
    }

    const SHARED: &str = "the river runs past the old mill and under the stone bridge\n\
                          every winter the water rises to the second step of the mill\n\
                          and the miller keeps a ledger of the floods since the war\n";

    #[test]
    fn a_shared_block_between_unique_lines() {
        let a = format!(
            "Title\nsomething only the first document says at length\n\n{SHARED}\nan ending of its own written for a\n"
        );
        let b = format!("{SHARED}\ncompletely different closing words appear in b alone\n");
        let found = passages(&a, &b);
        assert_eq!(
            found.passages,
            vec![Passage {
                a: range(4, 6),
                b: Some(range(1, 3))
            }]
        );
        assert_eq!(found.shared_b, vec![range(1, 3)]);
        // The title joins the next line with features; blank lines stay out.
        assert_eq!(found.unique_a, vec![range(1, 2), range(8, 8)]);
        assert_eq!(found.unique_b, vec![range(5, 5)]);
        assert_eq!(found.first_region(), Some((range(4, 6), range(1, 3))));
    }

    #[test]
    fn moved_passages_are_matched_by_their_features() {
        let first = "alpha beta gamma delta epsilon zeta eta theta iota kappa\n";
        let second = "one two three four five six seven eight nine ten eleven\n";
        let filler_a = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do\n";
        let filler_b = "quick brown fox jumps over the lazy dog again and again\n";
        let a = format!("{first}{filler_a}{second}");
        let b = format!("{second}{filler_b}{first}");
        let found = passages(&a, &b);
        assert_eq!(
            found.passages,
            vec![
                Passage {
                    a: range(1, 1),
                    b: Some(range(3, 3))
                },
                Passage {
                    a: range(3, 3),
                    b: Some(range(1, 1))
                },
            ]
        );
    }

    #[test]
    fn identical_unrelated_and_empty() {
        let same = passages(SHARED, SHARED);
        assert_eq!(
            same.passages,
            vec![Passage {
                a: range(1, 3),
                b: Some(range(1, 3))
            }]
        );
        assert!(same.unique_a.is_empty() && same.unique_b.is_empty());
        let apart = passages(SHARED, "nothing at all in common here\n");
        assert!(apart.passages.is_empty());
        assert_eq!(apart.first_region(), None);
        assert_eq!(apart.unique_a, vec![range(1, 3)]);
        let empty = passages("", "\n\n");
        assert_eq!(empty, Passages::default());
    }
}
