//! `--verify`: exact Jaccard of the feature sets of each reported pair.
//!
//! SimHash pairs are candidates; reading both documents again and
//! comparing their feature sets turns them into exact answers. Pairs are
//! taken in chunks so memory holds the feature sets of one chunk's
//! documents at a time, never the corpus.

use std::fs::File;

use rayon::prelude::*;

use crate::diag::Diagnostics;
use crate::fingerprint::{Fingerprinter, jaccard};
use crate::search::{DocId, Pair};

use super::documents::{DocumentRef, Documents};

/// Pairs verified per chunk: bounds the feature sets held at once.
const PAIRS_PER_CHUNK: usize = 2048;

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
    let mut jaccards = Vec::with_capacity(pairs.len());
    for chunk in pairs.chunks(PAIRS_PER_CHUNK) {
        let mut ids: Vec<DocId> = chunk.iter().flat_map(|pair| [pair.a, pair.b]).collect();
        ids.sort_unstable();
        ids.dedup();
        let sources: Vec<Source> = ids.iter().map(|&id| source(documents, id)).collect();
        let sets: Vec<Result<Vec<u64>, crate::Error>> = sources
            .into_par_iter()
            .map(|source| feature_set(fingerprinter, source))
            .collect();
        for set in &sets {
            if let Err(error) = set {
                diag.error(format_args!("{error} (while verifying)"));
            }
        }
        for pair in chunk {
            let set = |id: DocId| {
                let index = ids
                    .binary_search(&id)
                    .expect("every pair member was loaded");
                sets[index].as_ref().ok()
            };
            jaccards.push(match (set(pair.a), set(pair.b)) {
                (Some(a), Some(b)) => Some(jaccard(a, b)),
                _ => None,
            });
        }
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
                    Err(source) => Source::Failed(crate::Error::Io {
                        path: name.into(),
                        source,
                    }),
                },
                None => Source::Failed(crate::Error::Usage(format!(
                    "{name}: its text was not kept"
                ))),
            }
        }
    }
}

fn feature_set(fingerprinter: &Fingerprinter, source: Source) -> Result<Vec<u64>, crate::Error> {
    match source {
        Source::Path(path) => File::open(&path)
            .and_then(|file| fingerprinter.feature_set_reader(file))
            .map_err(|source| crate::Error::Io { path, source }),
        Source::Bytes(bytes) => {
            fingerprinter
                .feature_set_reader(bytes.as_slice())
                .map_err(|source| crate::Error::Io {
                    path: "stdin".into(),
                    source,
                })
        }
        Source::Failed(error) => Err(error),
    }
}
