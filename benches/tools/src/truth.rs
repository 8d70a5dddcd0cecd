//! Ground-truth files: `truth.jsonl` of a generated corpus (one line per
//! pair of documents in the same near-duplicate cluster), and the files the
//! `truth` tool writes for any corpus (a header line, then every pair whose
//! exact Jaccard is >= a floor).

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

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The first line of a truth file written by `truth` for any corpus:
/// `{"header": {...}}`, then one [`JoinLine`] per pair.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JoinHeader {
    /// The feature definition, e.g. `words:3`.
    pub features: String,
    /// Every pair with Jaccard >= floor is listed, and no other.
    pub floor: f64,
    /// Documents in the corpus.
    pub documents: usize,
    /// Documents without a feature (each pair of them has Jaccard 1).
    pub empty_documents: usize,
    /// Pairs of two documents without a feature left out (`truth
    /// --no-empty-pairs`); absent when none were.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub empty_pairs_left_out: usize,
    /// [`crate::records::Records::digest`] of the corpus.
    pub corpus_digest: String,
    /// Pairs listed.
    pub pairs: usize,
    /// Pairs with Jaccard >= each of 0.5, 0.6, ... 1 (those >= floor).
    pub pairs_at_least: std::collections::BTreeMap<String, usize>,
    /// Seconds the join took, reading included.
    pub seconds: f64,
}

#[derive(Serialize, Deserialize)]
struct HeaderLine {
    header: JoinHeader,
}

/// One pair of a truth file: ids in corpus order (`a` first) and the exact
/// Jaccard.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JoinLine {
    /// The id that comes first in the corpus.
    pub a: String,
    /// The other id.
    pub b: String,
    /// Exact Jaccard of the two feature sets.
    pub jaccard: f64,
}

/// Thresholds counted in [`JoinHeader::pairs_at_least`].
pub const COUNTED: [f64; 8] = [0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 1.0];

/// Writes a truth file: the header line, then the pairs (numbers into
/// `ids`) in the order given.
pub fn write_join_truth(
    out: &mut impl std::io::Write,
    header: &JoinHeader,
    pairs: &[crate::join::JoinPair],
    ids: &[String],
) -> std::io::Result<()> {
    let header = HeaderLine {
        header: header.clone(),
    };
    serde_json::to_writer(&mut *out, &header)?;
    out.write_all(b"\n")?;
    for p in pairs {
        let line = JoinLine {
            a: ids[p.a as usize].clone(),
            b: ids[p.b as usize].clone(),
            jaccard: p.jaccard,
        };
        serde_json::to_writer(&mut *out, &line)?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// A truth file loaded against its corpus.
#[derive(Debug)]
pub struct JoinTruth {
    /// Its header.
    pub header: JoinHeader,
    /// Every pair (document numbers, smaller first) and its Jaccard.
    pub pairs: std::collections::HashMap<(u32, u32), f64>,
}

impl JoinTruth {
    /// Reads a truth file; refuses one made from another corpus.
    pub fn load(
        path: &std::path::Path,
        records: &crate::records::Records,
    ) -> Result<JoinTruth, String> {
        use std::io::BufRead;
        let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut lines = std::io::BufReader::new(file).lines();
        let at = |n: usize, e: &dyn std::fmt::Display| format!("{}:{n}: {e}", path.display());
        let first = lines
            .next()
            .ok_or_else(|| at(1, &"empty: expected a header line"))?
            .map_err(|e| at(1, &e))?;
        let header = serde_json::from_str::<HeaderLine>(&first)
            .map_err(|e| at(1, &format!("not a header written by `truth`: {e}")))?
            .header;
        if header.corpus_digest != records.digest() || header.documents != records.len() {
            return Err(format!(
                "{}: made from another corpus (digest {}, {} documents; this corpus: {}, {}): run `truth` again",
                path.display(),
                header.corpus_digest,
                header.documents,
                records.digest(),
                records.len()
            ));
        }
        let mut pairs = std::collections::HashMap::with_capacity(header.pairs);
        for (n, line) in lines.enumerate() {
            let line = line.map_err(|e| at(n + 2, &e))?;
            let p: JoinLine = serde_json::from_str(&line).map_err(|e| at(n + 2, &e))?;
            let (Some(a), Some(b)) = (records.number(&p.a), records.number(&p.b)) else {
                return Err(at(n + 2, &"id not in the corpus"));
            };
            pairs.insert((a.min(b), a.max(b)), p.jaccard);
        }
        if pairs.len() != header.pairs {
            return Err(format!(
                "{}: {} pairs, the header says {}",
                path.display(),
                pairs.len(),
                header.pairs
            ));
        }
        Ok(JoinTruth { header, pairs })
    }

    /// Pairs with Jaccard >= threshold.
    pub fn relevant(&self, threshold: f64) -> usize {
        self.pairs.values().filter(|&&j| j >= threshold).count()
    }
}
