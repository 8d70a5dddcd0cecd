//! `--verify`: exact Jaccard of the feature sets of each reported pair.
//!
//! SimHash pairs are candidates; reading both documents again and
//! comparing their feature sets turns them into exact answers. Pairs are
//! taken in chunks; feature sets are kept for later chunks while they fit
//! in a fixed budget (a document in many pairs is read once), and dropped
//! together when they do not, so memory never holds the corpus.

use std::collections::HashMap;
use std::fs::File;
use std::sync::Arc;

use rayon::prelude::*;

use crate::diag::Diagnostics;
use crate::fingerprint::{Fingerprinter, jaccard};
use crate::search::{DocId, Pair};

use super::documents::{DocumentRef, Documents};

/// Pairs verified per chunk: bounds the feature sets loaded at once.
const PAIRS_PER_CHUNK: usize = 2048;

/// Feature hashes kept between chunks (8 bytes each): 256 MiB.
const CACHE_FEATURES: usize = 32 << 20;

/// A document's feature set, or why it could not be read (reported once).
type FeatureSet = Option<Arc<Vec<u64>>>;

/// Where a document's bytes come from for verification.
enum Source {
    Path(std::path::PathBuf),
    Bytes(Vec<u8>),
    Failed(crate::Error),
}

/// The exact Jaccard of each pair, `None` where a document could not be
/// read again (reported as an error).
pub fn verify_pairs(
    pairs: &[Pair],
    documents: &mut Documents,
    fingerprinter: &Fingerprinter,
    diag: &mut Diagnostics,
) -> Vec<Option<f64>> {
    verify_within(
        pairs,
        documents,
        fingerprinter,
        diag,
        PAIRS_PER_CHUNK,
        CACHE_FEATURES,
    )
}

/// [`verify_pairs`] with its limits as parameters, so tests can make them tiny.
fn verify_within(
    pairs: &[Pair],
    documents: &mut Documents,
    fingerprinter: &Fingerprinter,
    diag: &mut Diagnostics,
    pairs_per_chunk: usize,
    cache_features: usize,
) -> Vec<Option<f64>> {
    let mut jaccards = Vec::with_capacity(pairs.len());
    let mut cache: HashMap<DocId, FeatureSet> = HashMap::new();
    let mut cached_features = 0;
    for chunk in pairs.chunks(pairs_per_chunk) {
        let mut needed: Vec<DocId> = chunk.iter().flat_map(|pair| [pair.a, pair.b]).collect();
        needed.sort_unstable();
        needed.dedup();
        let missing: Vec<DocId> = needed
            .iter()
            .copied()
            .filter(|id| !cache.contains_key(id))
            .collect();
        let sources: Vec<Source> = missing.iter().map(|&id| source(documents, id)).collect();
        let loaded: Vec<Result<Vec<u64>, crate::Error>> = sources
            .into_par_iter()
            .map(|source| feature_set(fingerprinter, source))
            .collect();
        let loaded_features: usize = loaded.iter().flatten().map(Vec::len).sum();
        if cached_features + loaded_features > cache_features {
            // Over budget: keep only what this chunk needs.
            cache.retain(|id, _| needed.binary_search(id).is_ok());
            cached_features = cache.values().flatten().map(|set| set.len()).sum();
        }
        cached_features += loaded_features;
        for (id, set) in missing.into_iter().zip(loaded) {
            let set = set
                .map_err(|error| diag.error(format_args!("{error} (while verifying)")))
                .ok()
                .map(Arc::new);
            cache.insert(id, set);
        }
        // Every member of this chunk's pairs is in the cache now: it was
        // there (and kept) or loaded above.
        let found: Vec<Option<f64>> = chunk
            .par_iter()
            .map(|pair| match (&cache[&pair.a], &cache[&pair.b]) {
                (Some(a), Some(b)) => Some(jaccard(a, b)),
                _ => None,
            })
            .collect();
        jaccards.extend(found);
    }
    jaccards
}

fn source(documents: &mut Documents, id: DocId) -> Source {
    match &documents.refs[id as usize] {
        DocumentRef::File(file) => Source::Path(file.path.clone()),
        DocumentRef::Named(name) => Source::Path(name.into()),
        DocumentRef::Record {
            id: record_id,
            offset,
            len,
        } => {
            let (offset, len) = (*offset, *len);
            let name = format!("stdin: record {record_id}");
            match documents.spool.as_mut() {
                Some(spool) => match spool.read(offset, len) {
                    Ok(bytes) => Source::Bytes(bytes),
                    Err(source) => Source::Failed(crate::Error::io_named(name, source)),
                },
                None => Source::Failed(crate::Error::data(name, "its text was not kept")),
            }
        }
    }
}

fn feature_set(fingerprinter: &Fingerprinter, source: Source) -> Result<Vec<u64>, crate::Error> {
    match source {
        Source::Path(path) => File::open(&path)
            .and_then(|file| fingerprinter.feature_set_reader(file))
            .map_err(|source| crate::Error::io(&path, source)),
        Source::Bytes(bytes) => fingerprinter
            .feature_set_reader(bytes.as_slice())
            .map_err(|source| crate::Error::io_named(crate::error::STDIN, source)),
        Source::Failed(error) => Err(error),
    }
}

#[cfg(test)]
mod tests {
    use super::super::documents::Spool;
    use super::*;
    use crate::fingerprint::FeatureOptions;

    const TEXTS: [&str; 6] = [
        "the quick brown fox jumps over the lazy dog by the river bank",
        "the quick brown fox jumps over the lazy cat by the river bank",
        "a quick brown fox leaps over a lazy dog near the river",
        "completely different words about winter gardens and lanterns",
        "the quick brown fox jumps over the lazy dog by the river bank",
        "",
    ];

    /// Records in a spool, as `simdup scan -` keeps them for --verify.
    fn records(fingerprinter: &Fingerprinter) -> Documents {
        let mut documents = Documents::new(1);
        documents.spool = Some(Spool::new().unwrap());
        let mut diag = Diagnostics::new(false);
        for (index, text) in TEXTS.iter().enumerate() {
            let spool = documents.spool.as_mut().unwrap();
            let offset = spool.append(text.as_bytes()).unwrap();
            let document = DocumentRef::Record {
                id: index.to_string(),
                offset,
                len: text.len() as u64,
            };
            let fingerprint = fingerprinter.fingerprint_bytes(text.as_bytes());
            documents.fingerprinted(document, fingerprint, &mut diag);
        }
        documents
    }

    #[test]
    fn every_cache_size_gives_the_exact_jaccard() {
        let fingerprinter = Fingerprinter::new(FeatureOptions::default());
        let mut documents = records(&fingerprinter);
        // The empty text has no features, so it has no id: five documents.
        let ids: Vec<DocId> = (0..documents.refs.len() as DocId).collect();
        let pairs: Vec<Pair> = ids
            .iter()
            .flat_map(|&a| ids.iter().filter(move |&&b| a < b).map(move |&b| (a, b)))
            .map(|(a, b)| Pair { distance: 0, a, b })
            .collect();
        let expected: Vec<Option<f64>> = pairs
            .iter()
            .map(|pair| {
                let set =
                    |id: DocId| fingerprinter.feature_set_bytes(TEXTS[id as usize].as_bytes());
                Some(jaccard(&set(pair.a), &set(pair.b)))
            })
            .collect();
        assert_eq!(
            expected[3],
            Some(1.0),
            "documents 0 and 4 are the same text"
        );
        let mut diag = Diagnostics::new(false);
        for (chunk, budget) in [(1, 0), (2, 5), (3, 20), (4, usize::MAX), (100, 0)] {
            let found = verify_within(
                &pairs,
                &mut documents,
                &fingerprinter,
                &mut diag,
                chunk,
                budget,
            );
            assert_eq!(found, expected, "chunk {chunk}, budget {budget}");
        }
        assert!(!diag.errored());
    }
}
