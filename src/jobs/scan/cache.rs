//! `scan --cache FILE`: fingerprints of unchanged files taken from an
//! SQLite file (the format of `simdup index`) instead of read again.
//!
//! A file is unchanged when its path, size and modification time are the
//! stored ones and the cache was made with the scan's feature options (a
//! cache of other options is not used, and said so). Files fingerprinted
//! in this run are stored at its end, in one transaction. The cache is an
//! aid: when it cannot be opened or written, the scan goes on without it
//! and says why.
//!
//! The cache also remembers verifications: the exact Jaccard of two feature
//! sets (named by their digests), or that it was below a threshold. A
//! pair of unchanged documents is then decided without reading either.
//! And it remembers the last search (`remembered`): the fingerprints
//! searched and every pair of them within the radius, so a scan of the
//! same corpus searches only the fingerprints it has not seen.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};

use crate::diag::Diagnostics;
use crate::fingerprint::{FeatureOptions, Fingerprint};
use crate::index::{Entry, SearchMemory, Stamp, Store, StoredVerdict, name_of};
use crate::verify::Verdict;

use super::short::ShortTexts;

/// The cache of one scan, as its workers share it (the store itself
/// stays with the collecting thread).
pub struct Cache {
    /// What the cache holds, read by a loader thread with a connection of
    /// its own while the walk starts (reading the rows is most of what
    /// opening costs): the stored entries by name first, for the workers'
    /// lookups, then what the verification and the search remember.
    stored: Arc<Stored>,
    /// The loader; its error, if any, is reported when the run finishes.
    loader: Mutex<Option<std::thread::JoinHandle<crate::Result<()>>>>,
    /// Short texts' character pairs, stored whatever this scan's rule is.
    pub short: ShortTexts,
    fresh: Mutex<Vec<Entry>>,
    fresh_verdicts: Mutex<Vec<StoredVerdict>>,
    /// This run's search, to store.
    fresh_search: Mutex<Option<SearchMemory>>,
    /// Files whose fingerprint came from the cache.
    hits: std::sync::atomic::AtomicU64,
}

/// What the loader reads, each part set once (empty if it fails).
#[derive(Default)]
struct Stored {
    known: OnceLock<HashMap<Vec<u8>, Entry>>,
    remembered: OnceLock<Remembered>,
}

/// The verdicts and the last search a cache remembers.
#[derive(Default)]
struct Remembered {
    verdicts: HashMap<(u64, u64), (Option<f64>, f64)>,
    search: Option<SearchMemory>,
}

impl Stored {
    /// Reads everything from the store at `path`, entries first.
    fn load(&self, path: &Path, count: usize) -> crate::Result<()> {
        let store = Store::open(path, false)?;
        // Straight into the map: a list first would be copied as it grows,
        // then again.
        let mut known = HashMap::with_capacity(count);
        store.for_each_entry(false, |mut entry| {
            known.insert(std::mem::take(&mut entry.name), entry);
        })?;
        let _ = self.known.set(known);
        let verdicts = store
            .verdicts()?
            .into_iter()
            .map(|v| ((v.a, v.b), (v.jaccard, v.threshold)))
            .collect();
        let search = store.search_memory()?;
        let _ = self.remembered.set(Remembered { verdicts, search });
        Ok(())
    }

    /// Sets whatever is not set yet to empty, so nothing waits forever
    /// (the loader failed, or panicked).
    fn settle(&self) {
        let _ = self.known.set(HashMap::new());
        let _ = self.remembered.set(Remembered::default());
    }
}

/// Settles the stored parts when the loader ends, however it ends.
struct SettleOnDrop(Arc<Stored>);

impl Drop for SettleOnDrop {
    fn drop(&mut self) {
        self.0.settle();
    }
}

impl Cache {
    /// Opens (or creates) the cache at `path`; `None`, with a warning,
    /// when it cannot be used. An index of records is refused: the files
    /// a cache stores would make it an index of both.
    pub fn open(
        path: &Path,
        features: &FeatureOptions,
        diag: &Diagnostics,
    ) -> crate::Result<Option<(Store, Cache)>> {
        // Refused, not passed over: the user named an index of records.
        let refused = || crate::Error::Data {
            name: path.display().to_string(),
            message: "holds records; a scan cache holds files: give --cache a file of its own"
                .to_string(),
        };
        let mut records = false;
        let opened = Store::open(path, true).and_then(|store| {
            records = store.holds_records()?;
            if records {
                return Err(refused());
            }
            store.check_options(features)?;
            let count = store.stats()?.documents as usize;
            let stored = Arc::new(Stored::default());
            let settled = SettleOnDrop(Arc::clone(&stored));
            let from = path.to_path_buf();
            let loader = std::thread::spawn(move || settled.0.load(&from, count));
            Ok((store, stored, loader))
        });
        match opened {
            Ok((store, stored, loader)) => Ok(Some((
                store,
                Cache {
                    stored,
                    loader: Mutex::new(Some(loader)),
                    fresh_verdicts: Mutex::new(Vec::new()),
                    fresh_search: Mutex::new(None),
                    short: ShortTexts::new(features),
                    fresh: Mutex::new(Vec::new()),
                    hits: Default::default(),
                },
            ))),
            Err(error) if records => Err(error),
            Err(error) => {
                diag.warn(format_args!("{error}; scanning without the cache"));
                Ok(None)
            }
        }
    }

    /// What the cache remembers of verifications and the last search
    /// (waits for the loader to have read it).
    fn remembered(&self) -> &Remembered {
        self.stored.remembered.wait()
    }

    /// The stored fingerprint (and short-text fingerprint) of `path`, if
    /// the file is unchanged since it was stored; else its stamp, to store
    /// what this run computes. `walked` is the walk's stamp of it, when
    /// the walk made one (it spares a second stat).
    pub fn lookup(
        &self,
        path: &Path,
        walked: Option<Stamp>,
    ) -> Result<(Fingerprint, Option<Fingerprint>), Stamp> {
        let stamp = walked.unwrap_or_else(|| match std::fs::metadata(path) {
            Ok(metadata) => Stamp::of(&metadata),
            // Unknown: the read reports the error; nothing is stored.
            Err(_) => Stamp { size: 0, mtime: -1 },
        });
        match self
            .stored
            .known
            .wait()
            .get(path.as_os_str().as_encoded_bytes())
        {
            Some(entry) if entry.size == stamp.size && entry.mtime == stamp.mtime => {
                self.hits.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                Ok((entry.fingerprint, entry.short_text))
            }
            _ => Err(stamp),
        }
    }

    /// Remembers the fingerprint of a file read in this run, if it did not
    /// change while it was read.
    pub fn remember(
        &self,
        path: &Path,
        before: Stamp,
        fingerprint: Fingerprint,
        short_text: Option<Fingerprint>,
    ) {
        let after = std::fs::metadata(path).map(|m| Stamp::of(&m)).ok();
        if before.mtime == -1 || after != Some(before) || fingerprint.bytes != before.size {
            return;
        }
        let entry = Entry {
            name: name_of(path),
            size: before.size,
            mtime: before.mtime,
            fingerprint,
            short_text,
            text: None,
        };
        if let Ok(mut fresh) = self.fresh.lock() {
            fresh.push(entry);
        }
    }

    /// The remembered verdict of two feature sets at `threshold`, if one
    /// decides it.
    pub fn verdict(&self, a: u64, b: u64, threshold: f64) -> Option<Verdict> {
        if a == 0 || b == 0 {
            return None;
        }
        match *self.remembered().verdicts.get(&(a.min(b), a.max(b)))? {
            (Some(jaccard), _) if jaccard >= threshold => Some(Verdict::Near(jaccard)),
            (Some(_), _) => Some(Verdict::Below),
            // Below some threshold: below every higher one too.
            (None, decided_at) if threshold >= decided_at => Some(Verdict::Below),
            (None, _) => None,
        }
    }

    /// Remembers a verdict reached in this run.
    pub fn remember_verdict(&self, a: u64, b: u64, verdict: Verdict, threshold: f64) {
        let jaccard = match verdict {
            Verdict::Near(jaccard) => Some(jaccard),
            Verdict::Below => None,
            Verdict::Unverified => return,
        };
        if a == 0 || b == 0 {
            return;
        }
        if let Ok(mut fresh) = self.fresh_verdicts.lock() {
            fresh.push(StoredVerdict {
                a: a.min(b),
                b: a.max(b),
                jaccard,
                threshold,
            });
        }
    }

    /// The last search remembered, if any.
    pub fn search_memory(&self) -> Option<&SearchMemory> {
        self.remembered().search.as_ref()
    }

    /// Remembers this run's search, to store at the end.
    pub fn remember_search(&self, memory: SearchMemory) {
        if let Ok(mut fresh) = self.fresh_search.lock() {
            *fresh = Some(memory);
        }
    }

    /// Stores this run's new fingerprints, verdicts and search in one
    /// transaction; returns (cache hits, stored).
    pub fn finish(
        self,
        store: &mut Store,
        features: &FeatureOptions,
        diag: &Diagnostics,
    ) -> (u64, u64) {
        let loader = self.loader.into_inner().ok().flatten();
        match loader.map(std::thread::JoinHandle::join) {
            Some(Ok(Err(error))) => diag.warn(format_args!(
                "{error}; its stored fingerprints were not used"
            )),
            Some(Err(_)) => diag.warn("the cache's stored fingerprints could not be read"),
            _ => {}
        }
        let fresh = self.fresh.into_inner().unwrap_or_default();
        let verdicts = self.fresh_verdicts.into_inner().unwrap_or_default();
        let hits = self.hits.into_inner();
        // The memory is written again only when the search saw otherwise.
        let search = self
            .fresh_search
            .into_inner()
            .unwrap_or_default()
            .filter(|search| {
                self.stored.remembered.get().and_then(|r| r.search.as_ref()) != Some(search)
            });
        if let Err(error) = store.put_all(features, &fresh, &verdicts, search.as_ref()) {
            diag.warn(format_args!("{error}; the cache was not updated"));
            return (hits, 0);
        }
        (hits, fresh.len() as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_loader_that_fails_leaves_nothing_waiting() {
        let dir = tempfile::tempdir().unwrap();
        let stored = Arc::new(Stored::default());
        let settled = SettleOnDrop(Arc::clone(&stored));
        let missing = dir.path().join("gone.db");
        let loader = std::thread::spawn(move || settled.0.load(&missing, 10));
        assert!(loader.join().unwrap().is_err());
        // Both parts are set, empty: lookups and verdicts miss, nothing blocks.
        assert!(stored.known.get().unwrap().is_empty());
        let remembered = stored.remembered.get().unwrap();
        assert!(remembered.verdicts.is_empty() && remembered.search.is_none());
    }

    #[test]
    fn a_remembered_verdict_decides_only_what_it_proves() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.db");
        let features = FeatureOptions::default();
        let diag = Diagnostics::new(false);
        let (mut store, cache) = Cache::open(&path, &features, &diag).unwrap().unwrap();
        cache.remember_verdict(9, 4, Verdict::Near(0.85), 0.8);
        cache.remember_verdict(5, 6, Verdict::Below, 0.8);
        cache.remember_verdict(7, 8, Verdict::Unverified, 0.8);
        cache.remember_verdict(0, 8, Verdict::Below, 0.8);
        cache.finish(&mut store, &features, &diag);
        drop(store);
        let (_, cache) = Cache::open(&path, &features, &diag).unwrap().unwrap();
        // Either order of the two digests.
        assert_eq!(cache.verdict(4, 9, 0.8), Some(Verdict::Near(0.85)));
        assert_eq!(cache.verdict(9, 4, 0.5), Some(Verdict::Near(0.85)));
        assert_eq!(cache.verdict(4, 9, 0.9), Some(Verdict::Below));
        // Below 0.8 proves below 0.9, not below 0.5.
        assert_eq!(cache.verdict(5, 6, 0.9), Some(Verdict::Below));
        assert_eq!(cache.verdict(5, 6, 0.8), Some(Verdict::Below));
        assert_eq!(cache.verdict(5, 6, 0.5), None);
        // Nothing is remembered of unverified pairs or unknown digests.
        assert_eq!(cache.verdict(7, 8, 0.8), None);
        assert_eq!(cache.verdict(0, 8, 0.8), None);
        assert_eq!(cache.verdict(1, 2, 0.8), None);
    }
}
