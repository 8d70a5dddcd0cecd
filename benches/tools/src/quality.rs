//! The quality report's data: a loaded corpus and ground truth, pairs
//! reported by `simdup scan`, their exact Jaccard, and the score table.
//!
//! Running simdup and printing live in the `quality` binary; everything here
//! is plain data and functions, so it is tested without simdup.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::sync::OnceLock;

use rayon::prelude::*;
use serde::Deserialize;

use crate::score::{Judged, Score, score_at};
use crate::shingle::{Interner, WORD_SHINGLE, jaccard, word_shingles, words};
use crate::truth::TruthPair;

/// A pair of document numbers, smaller first.
pub type Pair = (u32, u32);

/// Orders a pair.
pub fn pair(a: u32, b: u32) -> Pair {
    if a <= b { (a, b) } else { (b, a) }
}

/// The documents of a corpus, with word-3-shingle sets computed on demand.
#[derive(Debug)]
pub struct Documents {
    ids: HashMap<String, u32>,
    texts: Vec<String>,
    interner: Interner,
    sets: Vec<OnceLock<Vec<u128>>>,
}

#[derive(Deserialize)]
struct Record {
    id: String,
    text: String,
}

fn read_lines(
    path: &Path,
) -> Result<impl Iterator<Item = (usize, std::io::Result<String>)>, String> {
    let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(BufReader::new(file)
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l)))
}

impl Documents {
    /// Documents from `(id, text)` pairs.
    pub fn new(records: Vec<(String, String)>) -> Result<Documents, String> {
        let mut ids = HashMap::with_capacity(records.len());
        let mut texts = Vec::with_capacity(records.len());
        let mut interner = Interner::new();
        for (id, text) in records {
            for w in words(&text) {
                interner.id(&w);
            }
            let n = u32::try_from(texts.len()).map_err(|_| "too many documents".to_owned())?;
            if ids.insert(id.clone(), n).is_some() {
                return Err(format!("duplicate id {id:?}"));
            }
            texts.push(text);
        }
        let sets = texts.iter().map(|_| OnceLock::new()).collect();
        Ok(Documents {
            ids,
            texts,
            interner,
            sets,
        })
    }

    /// Loads `corpus.jsonl` (`{"id": ..., "text": ...}` per line).
    pub fn load(path: &Path) -> Result<Documents, String> {
        let mut records = Vec::new();
        for (n, line) in read_lines(path)? {
            let line = line.map_err(|e| format!("{}:{n}: {e}", path.display()))?;
            let r: Record =
                serde_json::from_str(&line).map_err(|e| format!("{}:{n}: {e}", path.display()))?;
            records.push((r.id, r.text));
        }
        Documents::new(records)
    }

    /// Number of documents.
    pub fn len(&self) -> usize {
        self.texts.len()
    }

    /// Whether there are no documents.
    pub fn is_empty(&self) -> bool {
        self.texts.is_empty()
    }

    /// The number of a document id.
    pub fn number(&self, id: &str) -> Option<u32> {
        self.ids.get(id).copied()
    }

    fn words3(&self, doc: u32) -> &[u128] {
        self.sets[doc as usize].get_or_init(|| {
            let ids: Vec<u32> = words(&self.texts[doc as usize])
                .iter()
                .map(|w| {
                    self.interner
                        .get(w)
                        .expect("every word was interned on load")
                })
                .collect();
            word_shingles(&ids, WORD_SHINGLE)
        })
    }

    /// Exact word-3-shingle Jaccard of two documents.
    pub fn words3_jaccard(&self, a: u32, b: u32) -> f64 {
        jaccard(self.words3(a), self.words3(b))
    }
}

/// The ground truth: word-3 Jaccard of every pair in a cluster, and the
/// recipe of each pair made of an original and one of its variants.
#[derive(Debug, Default)]
pub struct Truth {
    jaccard: HashMap<Pair, f64>,
    recipes: HashMap<Pair, String>,
}

/// Recall of one recipe (variant against its original) at each k.
#[derive(Clone, Debug, PartialEq)]
pub struct RecipeRecall {
    /// The recipe, e.g. `substitute:5%`.
    pub recipe: String,
    /// Ground-truth pairs made by it.
    pub pairs: usize,
    /// Their mean word-3 Jaccard.
    pub mean_jaccard: f64,
    /// found[k]: how many were reported within distance k.
    pub found: Vec<usize>,
}

impl Truth {
    /// Ground truth from its pairs.
    pub fn new(pairs: impl IntoIterator<Item = (Pair, f64)>) -> Truth {
        Truth {
            jaccard: pairs.into_iter().collect(),
            recipes: HashMap::new(),
        }
    }

    /// Records that pair `p` is an original and a variant made by `recipe`.
    pub fn set_recipe(&mut self, p: Pair, recipe: &str) {
        self.recipes.insert(p, recipe.to_owned());
    }

    /// Recall per recipe at every k up to `max_k`, easiest recipes (highest
    /// mean Jaccard) first. `reported` must hold every pair within `max_k`.
    pub fn recall_by_recipe(&self, reported: &[Reported], max_k: u32) -> Vec<RecipeRecall> {
        let mut by_recipe: HashMap<&str, RecipeRecall> = HashMap::new();
        for (p, recipe) in &self.recipes {
            let r = by_recipe.entry(recipe).or_insert_with(|| RecipeRecall {
                recipe: recipe.clone(),
                pairs: 0,
                mean_jaccard: 0.0,
                found: vec![0; max_k as usize + 1],
            });
            r.pairs += 1;
            r.mean_jaccard += self.jaccard.get(p).copied().unwrap_or(0.0);
        }
        for rep in reported {
            let recipe = self.recipes.get(&rep.pair);
            if let Some(r) = recipe.and_then(|name| by_recipe.get_mut(name.as_str())) {
                for k in rep.distance..=max_k {
                    r.found[k as usize] += 1;
                }
            }
        }
        let mut out: Vec<RecipeRecall> = by_recipe.into_values().collect();
        for r in &mut out {
            r.mean_jaccard /= r.pairs as f64;
        }
        out.sort_by(|a, b| {
            b.mean_jaccard
                .total_cmp(&a.mean_jaccard)
                .then_with(|| a.recipe.cmp(&b.recipe))
        });
        out
    }

    /// Loads `truth.jsonl`, naming documents by their number in `docs`.
    pub fn load(path: &Path, docs: &Documents) -> Result<Truth, String> {
        let mut pairs = Vec::new();
        let mut recipes = Vec::new();
        for (n, line) in read_lines(path)? {
            let at = |e: &dyn std::fmt::Display| format!("{}:{n}: {e}", path.display());
            let line = line.map_err(|e| at(&e))?;
            let p: TruthPair = serde_json::from_str(&line).map_err(|e| at(&e))?;
            let (a, b) = match (docs.number(&p.a), docs.number(&p.b)) {
                (Some(a), Some(b)) => (a, b),
                _ => return Err(at(&"id not in the corpus")),
            };
            pairs.push((pair(a, b), p.jaccard_words3));
            match (p.recipe_a.as_str(), p.recipe_b.as_str()) {
                ("original", variant) | (variant, "original") => {
                    recipes.push((pair(a, b), variant.to_owned()))
                }
                _ => {}
            }
        }
        let mut truth = Truth::new(pairs);
        for (p, recipe) in recipes {
            truth.set_recipe(p, &recipe);
        }
        Ok(truth)
    }

    /// Number of pairs.
    pub fn len(&self) -> usize {
        self.jaccard.len()
    }

    /// Whether there are no pairs.
    pub fn is_empty(&self) -> bool {
        self.jaccard.is_empty()
    }

    /// Pairs with Jaccard >= threshold.
    pub fn relevant(&self, threshold: f64) -> usize {
        self.jaccard.values().filter(|&&j| j >= threshold).count()
    }

    /// The Jaccard of a pair, if it is in the ground truth.
    pub fn get(&self, p: Pair) -> Option<f64> {
        self.jaccard.get(&p).copied()
    }
}

/// One pair as `simdup scan --format jsonl` prints it.
#[derive(Deserialize)]
struct OutputLine {
    a: String,
    b: String,
    distance: u32,
    #[serde(default)]
    jaccard: Option<f64>,
}

/// A reported pair, judged against the ground truth.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reported {
    /// The pair.
    pub pair: Pair,
    /// Hamming distance of the fingerprints.
    pub distance: u32,
    /// The Jaccard simdup computed with `--verify`, under its shingle options.
    pub verified: Option<f64>,
    /// Exact word-3 Jaccard and ground-truth membership.
    pub judged: Judged,
}

/// Parses one line of simdup's JSON Lines output (not yet judged).
pub fn parse_output_line(line: &str, docs: &Documents) -> Result<(Pair, u32, Option<f64>), String> {
    let o: OutputLine = serde_json::from_str(line).map_err(|e| e.to_string())?;
    let number = |id: &str| docs.number(id).ok_or_else(|| format!("unknown id {id:?}"));
    Ok((pair(number(&o.a)?, number(&o.b)?), o.distance, o.jaccard))
}

/// Judges parsed pairs: ground-truth Jaccard where listed, otherwise exact
/// Jaccard computed from the two texts (in parallel).
pub fn judge(
    parsed: Vec<(Pair, u32, Option<f64>)>,
    truth: &Truth,
    docs: &Documents,
) -> Vec<Reported> {
    parsed
        .into_par_iter()
        .map(|(p, distance, verified)| {
            let judged = match truth.get(p) {
                Some(j) => Judged {
                    jaccard: j,
                    in_truth: true,
                },
                None => Judged {
                    jaccard: docs.words3_jaccard(p.0, p.1),
                    in_truth: false,
                },
            };
            Reported {
                pair: p,
                distance,
                verified,
                judged,
            }
        })
        .collect()
}

/// Scores at one k and threshold: plain (every pair within k) and verified
/// (only pairs whose `--verify` Jaccard is >= the threshold, as
/// `--verify --min-jaccard` would keep); `None` when simdup gave no Jaccard.
pub fn score_k(
    reported: &[Reported],
    k: u32,
    threshold: f64,
    truth_relevant: usize,
) -> (Score, Option<Score>) {
    let within: Vec<&Reported> = reported.iter().filter(|r| r.distance <= k).collect();
    let plain: Vec<Judged> = within.iter().map(|r| r.judged).collect();
    let verified = if within.iter().all(|r| r.verified.is_some()) {
        let kept: Vec<Judged> = within
            .iter()
            .filter(|r| r.verified.unwrap_or(0.0) >= threshold)
            .map(|r| r.judged)
            .collect();
        Some(score_at(&kept, truth_relevant, threshold))
    } else {
        None
    };
    (score_at(&plain, truth_relevant, threshold), verified)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn docs() -> Documents {
        Documents::new(vec![
            ("x".into(), "one two three four five six".into()),
            ("y".into(), "one two three four five seven".into()),
            ("z".into(), "ONE two three, four five six!".into()),
            ("w".into(), "nothing in common here at all".into()),
        ])
        .unwrap()
    }

    #[test]
    fn exact_jaccard_outside_the_truth() {
        let d = docs();
        assert_eq!(d.words3_jaccard(0, 2), 1.0);
        assert_eq!(d.words3_jaccard(0, 1), 3.0 / 5.0);
        assert_eq!(d.words3_jaccard(0, 3), 0.0);
        assert!(Documents::new(vec![("a".into(), "".into()), ("a".into(), "".into())]).is_err());
    }

    #[test]
    fn parse_judge_and_score() {
        let d = docs();
        let truth = Truth::new([((0, 1), 0.6), ((0, 2), 1.0)]);
        let lines = [
            r#"{"a":"z","b":"x","distance":0,"similarity":1.0,"jaccard":1.0}"#,
            r#"{"a":"x","b":"w","distance":5,"similarity":0.92,"jaccard":0.0}"#,
        ];
        let parsed: Vec<_> = lines
            .iter()
            .map(|l| parse_output_line(l, &d).unwrap())
            .collect();
        assert_eq!(parsed[0], ((0, 2), 0, Some(1.0)));
        let reported = judge(parsed, &truth, &d);
        assert_eq!(
            reported[1].judged,
            Judged {
                jaccard: 0.0,
                in_truth: false
            }
        );
        // k = 4: only the identical pair; 1 of the 1 relevant pair >= 0.9.
        let (plain, verified) = score_k(&reported, 4, 0.9, truth.relevant(0.9));
        assert_eq!(
            plain,
            Score {
                reported: 1,
                relevant: 1,
                true_positives: 1
            }
        );
        assert_eq!(verified, Some(plain));
        // k = 5 adds a false positive that --verify removes; at 0.5 the
        // relevant pair (0, 1) is missed.
        let (plain, verified) = score_k(&reported, 5, 0.5, truth.relevant(0.5));
        assert_eq!(
            plain,
            Score {
                reported: 2,
                relevant: 2,
                true_positives: 1
            }
        );
        assert_eq!(
            verified,
            Some(Score {
                reported: 1,
                relevant: 2,
                true_positives: 1
            })
        );
        assert!(parse_output_line(r#"{"a":"nope","b":"x","distance":1}"#, &d).is_err());
        let no_verify =
            parse_output_line(r#"{"a":"y","b":"x","distance":1,"similarity":0.98}"#, &d).unwrap();
        let reported = judge(vec![no_verify], &truth, &d);
        assert_eq!(score_k(&reported, 1, 0.5, 2).1, None);
    }

    #[test]
    fn recall_by_recipe_counts_pairs_found_within_each_k() {
        let judged = Judged {
            jaccard: 1.0,
            in_truth: true,
        };
        let mut truth = Truth::new([((0, 1), 0.9), ((0, 2), 1.0), ((1, 2), 0.8), ((2, 3), 0.5)]);
        truth.set_recipe((0, 1), "substitute:1%");
        truth.set_recipe((0, 2), "case");
        truth.set_recipe((2, 3), "substitute:1%");
        let reported = [
            Reported {
                pair: (0, 2),
                distance: 0,
                verified: None,
                judged,
            },
            Reported {
                pair: (0, 1),
                distance: 2,
                verified: None,
                judged,
            },
            Reported {
                pair: (1, 2),
                distance: 1,
                verified: None,
                judged,
            }, // two variants: no recipe
        ];
        let table = truth.recall_by_recipe(&reported, 3);
        assert_eq!(table.len(), 2);
        assert_eq!(
            (
                table[0].recipe.as_str(),
                table[0].pairs,
                table[0].mean_jaccard
            ),
            ("case", 1, 1.0)
        );
        assert_eq!(table[0].found, [1, 1, 1, 1]);
        assert_eq!(
            (
                table[1].recipe.as_str(),
                table[1].pairs,
                table[1].mean_jaccard
            ),
            ("substitute:1%", 2, 0.7)
        );
        assert_eq!(table[1].found, [0, 0, 1, 1]);
    }
}
