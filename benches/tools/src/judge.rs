//! Judges the pairs a simdup run reported against a corpus's exact ground
//! truth (a truth file of the `truth` tool): precision, recall and F1 at a
//! threshold, the groups the pairs form, the worst false positives and the
//! most similar pairs missed.
//!
//! Definitions (docs/QUALITY.md): a pair is relevant when its exact Jaccard
//! is >= the threshold; precision = relevant reported / reported; recall =
//! relevant reported / relevant; groups are the connected components of the
//! reported pairs, and a group of s documents implies s(s-1)/2 pairs.

use std::collections::{HashMap, HashSet};
use std::io::BufRead;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::features::Feature;
use crate::records::Records;
use crate::score::Score;
use crate::shingle::jaccard;
use crate::truth::JoinTruth;

/// A pair of document numbers, smaller first.
pub type Pair = (u32, u32);

/// One pair a run reported.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reported {
    /// The documents.
    pub pair: Pair,
    /// Hamming distance of the fingerprints, if given.
    pub distance: Option<u32>,
    /// The Jaccard simdup computed (`--verify`), if given.
    pub jaccard: Option<f64>,
}

#[derive(Deserialize)]
struct PairLine {
    a: String,
    b: String,
    #[serde(default)]
    distance: Option<u32>,
    #[serde(default)]
    jaccard: Option<f64>,
}

/// Reads pairs as `simdup scan --format jsonl` prints them (`{"a", "b",
/// "distance", "similarity"[, "jaccard"]}` per line), naming documents by
/// [`Records::find`]. A pair listed twice counts once.
pub fn read_pairs(input: impl BufRead, records: &Records) -> Result<Vec<Reported>, String> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for (n, line) in input.lines().enumerate() {
        let at = |e: &dyn std::fmt::Display| format!("line {}: {e}", n + 1);
        let line = line.map_err(|e| at(&e))?;
        if line.trim().is_empty() {
            continue;
        }
        let p: PairLine = serde_json::from_str(&line).map_err(|e| {
            at(&format!(
                "{e}: expected a pair of `simdup scan --format jsonl` ({})",
                line.chars().take(80).collect::<String>()
            ))
        })?;
        let find = |name: &str| {
            records
                .find(name)
                .ok_or_else(|| at(&format!("{name:?} is not a document of the corpus")))
        };
        let (a, b) = (find(&p.a)?, find(&p.b)?);
        if a == b {
            return Err(at(&format!("a document paired with itself: {:?}", p.a)));
        }
        let pair = (a.min(b), a.max(b));
        if seen.insert(pair) {
            out.push(Reported {
                pair,
                distance: p.distance,
                jaccard: p.jaccard,
            });
        }
    }
    Ok(out)
}

/// A reported pair that is not relevant, with its exact Jaccard.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FalsePositive {
    /// First document's id.
    pub a: String,
    /// Second document's id.
    pub b: String,
    /// Exact Jaccard under the truth's features.
    pub jaccard: f64,
    /// Distance simdup reported.
    pub distance: Option<u32>,
    /// Jaccard simdup reported.
    pub simdup_jaccard: Option<f64>,
}

/// A relevant pair the run did not report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Missed {
    /// First document's id.
    pub a: String,
    /// Second document's id.
    pub b: String,
    /// Exact Jaccard.
    pub jaccard: f64,
}

/// One group of documents joined by reported pairs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Group {
    /// Documents in it.
    pub size: usize,
    /// The first few members' ids, in corpus order.
    pub members: Vec<String>,
    /// Reported pairs inside it.
    pub reported_pairs: usize,
    /// Of which relevant.
    pub reported_relevant: usize,
    /// Pairs it implies: size (size - 1) / 2.
    pub member_pairs: u64,
    /// Member pairs that are relevant.
    pub relevant_member_pairs: u64,
    /// Member pairs in the truth file (Jaccard >= its floor).
    pub member_pairs_above_floor: u64,
}

/// Everything the scorer says about one run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Evaluation {
    /// The relevance threshold.
    pub threshold: f64,
    /// The truth file's floor.
    pub floor: f64,
    /// The truth's feature definition.
    pub features: String,
    /// Pairs reported.
    pub reported: usize,
    /// Pairs relevant.
    pub relevant: usize,
    /// Pairs both.
    pub true_positives: usize,
    /// Precision.
    pub precision: f64,
    /// Recall.
    pub recall: f64,
    /// F1.
    pub f1: f64,
    /// False positives with floor <= Jaccard < threshold.
    pub false_positives_above_floor: usize,
    /// False positives with Jaccard < floor.
    pub false_positives_below_floor: usize,
    /// Groups (connected components of the reported pairs).
    pub groups: usize,
    /// Pairs the groups imply (sum of s (s - 1) / 2).
    pub implied_pairs: u64,
    /// Of which relevant.
    pub implied_relevant: u64,
    /// implied_relevant / implied_pairs (1 without groups).
    pub group_precision: f64,
    /// The largest group (ties: the one whose first member comes first).
    pub largest_group: Option<Group>,
    /// The lowest-Jaccard false positives, lowest first.
    pub worst_false_positives: Vec<FalsePositive>,
    /// False positives below the floor whose Jaccard was computed (all,
    /// unless there were more than the cap: then an even sample).
    pub below_floor_computed: usize,
    /// The highest-Jaccard relevant pairs missed, highest first.
    pub best_missed: Vec<Missed>,
}

fn find(parent: &mut [u32], mut x: u32) -> u32 {
    while parent[x as usize] != x {
        parent[x as usize] = parent[parent[x as usize] as usize];
        x = parent[x as usize];
    }
    x
}

/// Options of [`evaluate`].
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Relevance threshold (>= the truth's floor).
    pub threshold: f64,
    /// How many worst false positives and best misses to list.
    pub show: usize,
    /// At most this many false positives below the floor get their Jaccard
    /// computed (an even sample of them beyond).
    pub max_computed: usize,
    /// Member ids listed for the largest group.
    pub members: usize,
}

/// Scores a run's pairs against the truth.
pub fn evaluate(
    reported: &[Reported],
    truth: &JoinTruth,
    records: &Records,
    options: &Options,
) -> Result<Evaluation, String> {
    let t = options.threshold;
    let floor = truth.header.floor;
    if t < floor {
        return Err(format!(
            "threshold {t} is below the truth file's floor {floor}: it lists only pairs >= {floor}"
        ));
    }
    let feature: Feature = truth.header.features.parse()?;
    let relevant = truth.relevant(t);
    let mut true_positives = 0;
    let mut above_floor = Vec::new();
    let mut below_floor = Vec::new();
    for r in reported {
        match truth.pairs.get(&r.pair) {
            Some(&j) if j >= t => true_positives += 1,
            Some(&j) => above_floor.push((r, j)),
            None => below_floor.push(r),
        }
    }
    let score = Score {
        reported: reported.len(),
        relevant,
        true_positives,
    };

    // Exact Jaccard of false positives below the floor (a sample if many).
    let step = below_floor
        .len()
        .div_ceil(options.max_computed.max(1))
        .max(1);
    let sample: Vec<&Reported> = below_floor.iter().step_by(step).copied().collect();
    let mut docs: Vec<u32> = sample.iter().flat_map(|r| [r.pair.0, r.pair.1]).collect();
    docs.sort_unstable();
    docs.dedup();
    let texts: Vec<&str> = docs
        .iter()
        .map(|&d| records.texts[d as usize].as_str())
        .collect();
    let sets = feature.corpus(&texts);
    let set = |d: u32| &sets[docs.binary_search(&d).expect("listed")];
    let computed: Vec<(&Reported, f64)> = sample
        .par_iter()
        .map(|r| (*r, jaccard(set(r.pair.0), set(r.pair.1))))
        .collect();
    let mut false_positives: Vec<(&Reported, f64)> =
        above_floor.iter().copied().chain(computed).collect();
    false_positives.sort_by(|x, y| x.1.total_cmp(&y.1).then(x.0.pair.cmp(&y.0.pair)));
    let id = |d: u32| records.ids[d as usize].clone();
    let worst_false_positives = false_positives
        .iter()
        .take(options.show)
        .map(|(r, j)| FalsePositive {
            a: id(r.pair.0),
            b: id(r.pair.1),
            jaccard: *j,
            distance: r.distance,
            simdup_jaccard: r.jaccard,
        })
        .collect();

    let reported_set: HashSet<Pair> = reported.iter().map(|r| r.pair).collect();
    let mut missed: Vec<(Pair, f64)> = truth
        .pairs
        .iter()
        .filter(|(p, j)| **j >= t && !reported_set.contains(p))
        .map(|(p, j)| (*p, *j))
        .collect();
    missed.sort_by(|x, y| y.1.total_cmp(&x.1).then(x.0.cmp(&y.0)));
    let best_missed = missed
        .iter()
        .take(options.show)
        .map(|(p, j)| Missed {
            a: id(p.0),
            b: id(p.1),
            jaccard: *j,
        })
        .collect();

    // Groups: connected components of the reported pairs.
    let mut parent: Vec<u32> = (0..records.len() as u32).collect();
    for r in reported {
        let (a, b) = (find(&mut parent, r.pair.0), find(&mut parent, r.pair.1));
        if a != b {
            parent[a.max(b) as usize] = a.min(b);
        }
    }
    let root: Vec<u32> = (0..records.len() as u32)
        .map(|d| find(&mut parent, d))
        .collect();
    let mut members: HashMap<u32, Vec<u32>> = HashMap::new();
    for r in reported {
        for d in [r.pair.0, r.pair.1] {
            members.entry(root[d as usize]).or_default().push(d);
        }
    }
    for m in members.values_mut() {
        m.sort_unstable();
        m.dedup();
    }
    let mut relevant_in = HashMap::<u32, u64>::new();
    let mut truth_in = HashMap::<u32, u64>::new();
    for (&(a, b), &j) in &truth.pairs {
        let g = root[a as usize];
        if g == root[b as usize] && members.contains_key(&g) {
            *truth_in.entry(g).or_default() += 1;
            if j >= t {
                *relevant_in.entry(g).or_default() += 1;
            }
        }
    }
    let implied_pairs: u64 = members
        .values()
        .map(|m| m.len() as u64 * (m.len() as u64 - 1) / 2)
        .sum();
    let implied_relevant: u64 = relevant_in.values().sum();
    let largest_group = members
        .iter()
        .max_by(|x, y| x.1.len().cmp(&y.1.len()).then(y.1[0].cmp(&x.1[0])))
        .map(|(&g, m)| {
            let inside: Vec<&Reported> = reported
                .iter()
                .filter(|r| root[r.pair.0 as usize] == g)
                .collect();
            Group {
                size: m.len(),
                members: m.iter().take(options.members).map(|&d| id(d)).collect(),
                reported_pairs: inside.len(),
                reported_relevant: inside
                    .iter()
                    .filter(|r| truth.pairs.get(&r.pair).is_some_and(|&j| j >= t))
                    .count(),
                member_pairs: m.len() as u64 * (m.len() as u64 - 1) / 2,
                relevant_member_pairs: relevant_in.get(&g).copied().unwrap_or(0),
                member_pairs_above_floor: truth_in.get(&g).copied().unwrap_or(0),
            }
        });

    Ok(Evaluation {
        threshold: t,
        floor,
        features: truth.header.features.clone(),
        reported: score.reported,
        relevant: score.relevant,
        true_positives: score.true_positives,
        precision: score.precision(),
        recall: score.recall(),
        f1: score.f1(),
        false_positives_above_floor: above_floor.len(),
        false_positives_below_floor: below_floor.len(),
        groups: members.len(),
        implied_pairs,
        implied_relevant,
        group_precision: if implied_pairs == 0 {
            1.0
        } else {
            implied_relevant as f64 / implied_pairs as f64
        },
        largest_group,
        worst_false_positives,
        below_floor_computed: sample.len(),
        best_missed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::join::{rank_tokens, similarity_join};
    use crate::truth::{JoinHeader, write_join_truth};

    /// Six documents: 0, 1, 2 near-copies; 3 a looser copy of 0; 4 and 5
    /// unrelated.
    fn fixture() -> (Records, JoinTruth) {
        let base = "the quick brown fox jumps over the lazy dog while the cat sleeps on the warm mat by the door";
        let texts = [
            base.to_owned(),
            base.replace("warm", "cold"),
            format!("{base} today"),
            base.replace("quick", "slow").replace("lazy", "tired"),
            "an entirely different text about tide tables and harbour walls at dawn".to_owned(),
            "minutes of the meeting of the allotment society held in march".to_owned(),
        ];
        let records = Records::new(
            texts
                .iter()
                .enumerate()
                .map(|(i, t)| (format!("docs/{i}.txt"), t.clone())),
        )
        .unwrap();
        let sets = Feature::WORDS3.corpus(&records.texts);
        let (ranked, _) = rank_tokens(sets);
        let (pairs, stats) = similarity_join(&ranked, 0.3);
        let header = JoinHeader {
            features: "words:3".into(),
            floor: 0.3,
            documents: records.len(),
            empty_documents: stats.empty,
            empty_pairs_left_out: 0,
            corpus_digest: records.digest(),
            pairs: pairs.len(),
            pairs_at_least: Default::default(),
            seconds: 0.0,
        };
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("truth.jsonl");
        let mut out = Vec::new();
        write_join_truth(&mut out, &header, &pairs, &records.ids).unwrap();
        std::fs::write(&path, out).unwrap();
        let truth = JoinTruth::load(&path, &records).unwrap();
        (records, truth)
    }

    fn options(threshold: f64) -> Options {
        Options {
            threshold,
            show: 3,
            max_computed: 1000,
            members: 10,
        }
    }

    #[test]
    fn truth_round_trips_and_refuses_another_corpus() {
        let (records, truth) = fixture();
        assert!(truth.pairs.contains_key(&(0, 1)));
        assert!(!truth.pairs.contains_key(&(4, 5)));
        let other = Records::new([("x".to_owned(), "y".to_owned())]).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.jsonl");
        let mut out = Vec::new();
        write_join_truth(&mut out, &truth.header, &[], &records.ids).unwrap();
        std::fs::write(&path, out).unwrap();
        let e = JoinTruth::load(&path, &other).unwrap_err();
        assert!(e.contains("another corpus"), "{e}");
    }

    #[test]
    fn scores_groups_and_worst_pairs() {
        let (records, truth) = fixture();
        let t = 0.65;
        let relevant: Vec<Pair> = {
            let mut v: Vec<Pair> = truth
                .pairs
                .iter()
                .filter(|(_, j)| **j >= t)
                .map(|(p, _)| *p)
                .collect();
            v.sort();
            v
        };
        assert_eq!(relevant, [(0, 1), (0, 2), (1, 2)]);
        // Reported: two relevant pairs, the loose copy (0, 3), and an
        // unrelated pair (4, 5) that joins nothing else.
        let input = [
            r#"{"a":"docs/1.txt","b":"docs/0.txt","distance":2,"similarity":0.97}"#,
            r#"{"a":"corpus/docs/0.txt","b":"docs/2.txt","distance":3,"similarity":0.95}"#,
            r#"{"a":"docs/0.txt","b":"docs/3.txt","distance":8,"similarity":0.88,"jaccard":0.4}"#,
            r#"{"a":"docs/4.txt","b":"docs/5.txt","distance":9,"similarity":0.86}"#,
            r#"{"a":"docs/5.txt","b":"docs/4.txt","distance":9,"similarity":0.86}"#,
        ]
        .join("\n");
        let reported = read_pairs(input.as_bytes(), &records).unwrap();
        assert_eq!(reported.len(), 4);
        let e = evaluate(&reported, &truth, &records, &options(t)).unwrap();
        assert_eq!((e.reported, e.relevant, e.true_positives), (4, 3, 2));
        assert_eq!((e.precision, e.recall), (0.5, 2.0 / 3.0));
        let j03 = truth.pairs[&(0, 3)];
        assert!((0.3..t).contains(&j03), "{j03}");
        assert_eq!(
            (e.false_positives_above_floor, e.false_positives_below_floor),
            (1, 1)
        );
        // Worst first: the unrelated pair (computed, 0 here), then (0, 3).
        assert_eq!(e.worst_false_positives.len(), 2);
        assert_eq!(e.worst_false_positives[0].a, "docs/4.txt");
        assert_eq!(e.worst_false_positives[0].jaccard, 0.0);
        assert_eq!(e.worst_false_positives[1].jaccard, j03);
        assert_eq!(e.worst_false_positives[1].simdup_jaccard, Some(0.4));
        assert_eq!(e.best_missed.len(), 1);
        assert_eq!(
            (e.best_missed[0].a.as_str(), e.best_missed[0].b.as_str()),
            ("docs/1.txt", "docs/2.txt")
        );
        // Groups {0, 1, 2, 3} and {4, 5}: 6 + 1 implied pairs, 3 relevant.
        assert_eq!(e.groups, 2);
        assert_eq!((e.implied_pairs, e.implied_relevant), (7, 3));
        let g = e.largest_group.unwrap();
        assert_eq!((g.size, g.reported_pairs, g.reported_relevant), (4, 3, 2));
        assert_eq!((g.member_pairs, g.relevant_member_pairs), (6, 3));
        assert!(g.member_pairs_above_floor >= 4);
        assert_eq!(g.members[0], "docs/0.txt");
    }

    #[test]
    fn nothing_reported_and_bad_input() {
        let (records, truth) = fixture();
        let e = evaluate(&[], &truth, &records, &options(0.8)).unwrap();
        assert_eq!((e.precision, e.recall, e.groups), (1.0, 0.0, 0));
        assert!(e.largest_group.is_none());
        assert!(evaluate(&[], &truth, &records, &options(0.2)).is_err());
        let bad = |s: &str| read_pairs(s.as_bytes(), &records).unwrap_err();
        assert!(bad(r#"{"a":"docs/9.txt","b":"docs/0.txt"}"#).contains("not a document"));
        assert!(bad("distance  similarity  a  b").contains("--format jsonl"));
        assert!(bad(r#"{"a":"docs/0.txt","b":"./docs/0.txt"}"#).contains("itself"));
    }

    #[test]
    fn many_false_positives_are_sampled() {
        let (records, truth) = fixture();
        let reported: Vec<Reported> = [(3u32, 4u32), (3, 5), (4, 5), (1, 4), (2, 5)]
            .iter()
            .map(|&pair| Reported {
                pair,
                distance: None,
                jaccard: None,
            })
            .collect();
        let e = evaluate(
            &reported,
            &truth,
            &records,
            &Options {
                max_computed: 2,
                ..options(0.8)
            },
        )
        .unwrap();
        assert_eq!(e.false_positives_below_floor, 5);
        assert_eq!(e.below_floor_computed, 2);
        assert_eq!(e.worst_false_positives.len(), 2);
    }
}
