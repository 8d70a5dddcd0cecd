//! Collapsing identical fingerprints: the search sees each distinct
//! fingerprint once, and this module maps it back to its documents.
//!
//! Distinct fingerprints are numbered 0.. in ascending order of value, so a
//! fingerprint finds its number by binary search. A fingerprint held by c
//! documents costs one slot in every table, not c.

use super::DocId;
use super::sort::{SortBuffers, scatter_bits};

/// The distinct fingerprints of a run and the documents behind each.
#[derive(Debug, Default)]
pub(crate) struct Collapsed {
    /// Distinct fingerprints, ascending.
    pub(crate) fingerprints: Vec<u64>,
    /// Document ids ordered by (fingerprint, id).
    ids: Vec<DocId>,
    /// Where each distinct fingerprint's ids start in `ids` (plus the end),
    /// or `None` when every fingerprint is held by exactly one document,
    /// which saves 4 bytes per document in the common case.
    starts: Option<Vec<u32>>,
}

impl Collapsed {
    /// Collapses `input`, which must hold each id with one fingerprint only.
    ///
    /// A repeated `(id, fingerprint)` entry counts once. An id seen with two
    /// different fingerprints is an error, because a pair of a document with
    /// itself means nothing.
    pub(crate) fn new(input: &[(DocId, u64)]) -> crate::Result<Collapsed> {
        let mut sorted = SortBuffers::<(u64, DocId)>::default();
        let bits = scatter_bits(input.len(), 64);
        sorted.sort_mapped(input, |&(id, fp)| (fp, id), |&(fp, _)| fp, bits, true);
        let mut pairs = std::mem::take(&mut sorted.values);
        pairs.dedup();
        check_unique_ids(&pairs)?;

        let mut fingerprints = Vec::with_capacity(pairs.len());
        let mut ids = Vec::with_capacity(pairs.len());
        let mut starts = Vec::with_capacity(pairs.len() + 1);
        for (i, &(fp, id)) in pairs.iter().enumerate() {
            if fingerprints.last() != Some(&fp) {
                fingerprints.push(fp);
                starts.push(i as u32);
            }
            ids.push(id);
        }
        drop(pairs);
        starts.push(ids.len() as u32);
        let starts = (fingerprints.len() != ids.len()).then(|| {
            starts.shrink_to_fit();
            starts
        });
        fingerprints.shrink_to_fit();
        Ok(Collapsed {
            fingerprints,
            ids,
            starts,
        })
    }

    /// The number of distinct fingerprints.
    pub(crate) fn len(&self) -> usize {
        self.fingerprints.len()
    }

    /// The number of a distinct fingerprint.
    pub(crate) fn index_of(&self, fingerprint: u64) -> u32 {
        match self.fingerprints.binary_search(&fingerprint) {
            Ok(i) => i as u32,
            // The search only looks up fingerprints it took from here.
            Err(_) => unreachable!("fingerprint {fingerprint:#018x} is not in the run"),
        }
    }

    /// The ids of the documents with distinct fingerprint `index`, ascending.
    pub(crate) fn ids(&self, index: u32) -> &[DocId] {
        let i = index as usize;
        match &self.starts {
            None => &self.ids[i..=i],
            Some(starts) => &self.ids[starts[i] as usize..starts[i + 1] as usize],
        }
    }

    /// Whether some fingerprint is held by more than one document.
    pub(crate) fn has_repeats(&self) -> bool {
        self.starts.is_some()
    }
}

/// Fails if an id occurs twice in `pairs` (already free of repeated
/// `(fingerprint, id)` entries).
fn check_unique_ids(pairs: &[(u64, DocId)]) -> crate::Result<()> {
    let max = pairs.iter().map(|&(_, id)| id as usize).max().unwrap_or(0);
    let repeated = if max / 64 <= pairs.len() {
        // A bitmap costs at most 8 bytes per entry here.
        let mut seen = vec![0u64; max / 64 + 1];
        pairs.iter().find(|&&(_, id)| {
            let (word, bit) = (id as usize / 64, 1u64 << (id % 64));
            let again = seen[word] & bit != 0;
            seen[word] |= bit;
            again
        })
    } else {
        let mut ids: Vec<DocId> = pairs.iter().map(|&(_, id)| id).collect();
        ids.sort_unstable();
        let repeat = ids.windows(2).find(|w| w[0] == w[1]).map(|w| w[0]);
        repeat.and_then(|id| pairs.iter().find(|&&(_, x)| x == id))
    };
    match repeated {
        None => Ok(()),
        Some(&(_, id)) => Err(crate::Error::Usage(format!(
            "document id {id} appears with two different fingerprints; \
             each document must have exactly one"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collapses_repeats_and_keeps_ids_sorted() {
        let input = [(5, 30), (1, 10), (2, 30), (9, 20), (3, 30), (5, 30)];
        let c = Collapsed::new(&input).unwrap();
        assert_eq!(c.fingerprints, vec![10, 20, 30]);
        assert!(c.has_repeats());
        assert_eq!(c.ids(c.index_of(10)), &[1]);
        assert_eq!(c.ids(c.index_of(20)), &[9]);
        assert_eq!(c.ids(c.index_of(30)), &[2, 3, 5]);
    }

    #[test]
    fn all_distinct_needs_no_offsets() {
        let input = [(0, 7), (1, 3), (2, 5)];
        let c = Collapsed::new(&input).unwrap();
        assert!(!c.has_repeats());
        assert_eq!(c.fingerprints, vec![3, 5, 7]);
        assert_eq!(c.ids(0), &[1]);
        assert_eq!(c.ids(2), &[0]);
    }

    #[test]
    fn repeat_after_singletons_keeps_earlier_offsets() {
        let input = [(0, 1), (1, 2), (2, 3), (3, 3), (4, 4)];
        let c = Collapsed::new(&input).unwrap();
        assert_eq!(c.ids(0), &[0]);
        assert_eq!(c.ids(1), &[1]);
        assert_eq!(c.ids(2), &[2, 3]);
        assert_eq!(c.ids(3), &[4]);
    }

    #[test]
    fn empty_input() {
        let c = Collapsed::new(&[]).unwrap();
        assert_eq!(c.len(), 0);
    }

    #[test]
    fn an_id_with_two_fingerprints_is_a_usage_error() {
        for input in [
            vec![(4, 1), (4, 2)],
            vec![(u32::MAX, 1), (0, 5), (u32::MAX, 2)],
        ] {
            match Collapsed::new(&input) {
                Err(crate::Error::Usage(message)) => {
                    assert!(message.contains(&input[0].0.to_string()), "{message}")
                }
                other => panic!("expected a usage error, got {other:?}"),
            }
        }
    }
}
