//! The feature sets of kept records met lately as candidates, so that a
//! kept record compared again is not read and measured again: near-copies
//! come in clusters, and each new member of a cluster is a candidate of
//! the kept ones (10,545 Debian docs at k = 19: 155,661 candidates, each
//! a file read again without it).
//!
//! Two generations approximate least-recently-used at O(1) a step: sets
//! go to the young one; a set met in the old one moves to the young one;
//! when the young one holds half the budget it becomes the old one, and
//! what the old one held is dropped. The cache changes the time, never
//! the answer.

use std::sync::{Arc, Mutex};

use super::index::MixMap;

/// Bytes of sets held at most (both generations). Candidates come back
/// round after round, so a cache that holds only part of the kept sets a
/// run needs keeps dropping each before it is met again: at `-t 0.5` the
/// Debian docs (8,040 kept, about 100 MB of sets) took 165 s with 64 MiB
/// and 8 s with this.
pub const SET_CACHE_MEMORY: usize = 256 << 20;

/// What holding a set costs beside its elements (its reference counts and
/// map entry): counted, so that small sets do not overrun the budget.
const ENTRY_BYTES: usize = 48;

/// A feature set, shared by the cache and its readers.
pub type Set = Arc<[u64]>;

/// Sets by key, within a memory budget; shared by the threads that verify
/// candidates (a set missing is made outside the lock, so two threads may
/// make the same one: the same set).
#[derive(Debug)]
pub struct SetCache {
    generations: Mutex<Generations>,
}

#[derive(Debug)]
struct Generations {
    budget: usize,
    young: MixMap<Set>,
    old: MixMap<Set>,
    young_bytes: usize,
    /// A bit per key asked for by `get_or_make_once_met`.
    met: Vec<u64>,
}

impl SetCache {
    /// An empty cache of at most `budget` bytes of sets.
    pub fn new(budget: usize) -> SetCache {
        SetCache {
            generations: Mutex::new(Generations {
                budget,
                young: MixMap::default(),
                old: MixMap::default(),
                young_bytes: 0,
                met: Vec::new(),
            }),
        }
    }

    /// The set of `key`, made by `make` unless held.
    pub fn get_or_make<E>(
        &self,
        key: u64,
        make: impl FnOnce() -> Result<Vec<u64>, E>,
    ) -> Result<Set, E> {
        self.fetch(key, false, make)
    }

    /// [`SetCache::get_or_make`], but a set is held only from the second
    /// time its key is asked for (one bit a key remembers the first, so
    /// keys must be small and dense: kept record numbers): for sets that
    /// are cheap to make and often met once only.
    pub fn get_or_make_once_met<E>(
        &self,
        key: u64,
        make: impl FnOnce() -> Result<Vec<u64>, E>,
    ) -> Result<Set, E> {
        self.fetch(key, true, make)
    }

    /// Holds the set of `key` (made elsewhere).
    pub fn hold(&self, key: u64, set: Vec<u64>) {
        self.lock().insert(key, set.into());
    }

    fn fetch<E>(
        &self,
        key: u64,
        once_met: bool,
        make: impl FnOnce() -> Result<Vec<u64>, E>,
    ) -> Result<Set, E> {
        let hold = {
            let mut generations = self.lock();
            if let Some(set) = generations.get(key) {
                return Ok(set);
            }
            !once_met || generations.met_before(key)
        };
        let set: Set = make()?.into();
        if hold {
            self.lock().insert(key, Arc::clone(&set));
        }
        Ok(set)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Generations> {
        self.generations
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl Generations {
    /// Whether `key` was asked for before; remembers that it now was.
    fn met_before(&mut self, key: u64) -> bool {
        let (word, bit) = ((key / 64) as usize, key % 64);
        if self.met.len() <= word {
            self.met.resize(word + 1, 0);
        }
        let before = self.met[word] & (1 << bit) != 0;
        self.met[word] |= 1 << bit;
        before
    }

    /// The set of `key`, moved to the young generation if it was old.
    fn get(&mut self, key: u64) -> Option<Set> {
        if let Some(set) = self.young.get(&key) {
            return Some(Arc::clone(set));
        }
        let set = self.old.remove(&key)?;
        self.insert(key, Arc::clone(&set));
        Some(set)
    }

    /// Adds to the young generation (unless there already), which becomes
    /// the old one first if the set would take it past half the budget.
    fn insert(&mut self, key: u64, set: Set) {
        if self.young.contains_key(&key) {
            return;
        }
        let bytes = set.len() * size_of::<u64>() + ENTRY_BYTES;
        if self.young_bytes + bytes > self.budget / 2 {
            self.old = std::mem::take(&mut self.young);
            self.young_bytes = 0;
        }
        self.young_bytes += bytes;
        self.young.insert(key, set);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Made = Result<Vec<u64>, String>;

    #[test]
    fn a_set_asked_for_once_met_is_held_from_its_second_time() {
        let cache = SetCache::new(1 << 20);
        let mut made = Vec::new();
        for key in [5, 9, 5, 5, 9, 9, 5] {
            let set = cache
                .get_or_make_once_met(key, || -> Made {
                    made.push(key);
                    Ok(vec![key; 4])
                })
                .unwrap();
            assert_eq!(&set[..], &[key; 4]);
        }
        assert_eq!(made, [5, 9, 5, 9]);
    }

    #[test]
    fn a_set_is_made_once_while_it_is_met_often() {
        let cache = SetCache::new(1024);
        let mut made = 0;
        for round in 0..50u64 {
            for key in [1, 2, 3] {
                let set = cache
                    .get_or_make(key, || -> Made {
                        made += 1;
                        Ok(vec![key; 8])
                    })
                    .unwrap();
                assert_eq!(&set[..], vec![key; 8], "round {round}");
            }
        }
        assert_eq!(made, 3);
    }

    #[test]
    fn memory_stays_within_the_budget() {
        let cache = SetCache::new(64 * 8);
        for key in 0..1000u64 {
            let set = cache
                .get_or_make(key, || -> Made { Ok(vec![key; 8]) })
                .unwrap();
            assert_eq!(&set[..], vec![key; 8]);
            let generations = cache.lock();
            let held: usize = generations
                .young
                .values()
                .chain(generations.old.values())
                .map(|set| set.len())
                .sum();
            assert!(held * 8 <= 64 * 8, "{held}");
        }
        // The latest are still there; the first are not.
        let mut made = Vec::new();
        for key in [999, 0] {
            cache
                .get_or_make(key, || -> Made {
                    made.push(key);
                    Ok(vec![key; 8])
                })
                .unwrap();
        }
        assert_eq!(made, [0]);
    }

    #[test]
    fn a_failure_to_make_a_set_is_returned_and_not_held() {
        let cache = SetCache::new(1024);
        assert!(
            cache
                .get_or_make(7, || -> Made { Err("gone".into()) })
                .is_err()
        );
        assert_eq!(
            &cache.get_or_make(7, || -> Made { Ok(vec![1]) }).unwrap()[..],
            [1]
        );
    }

    #[test]
    fn threads_share_it() {
        let cache = SetCache::new(1 << 20);
        std::thread::scope(|scope| {
            for _ in 0..4 {
                scope.spawn(|| {
                    for key in 0..100u64 {
                        let set = cache
                            .get_or_make(key, || -> Made { Ok(vec![key; 4]) })
                            .unwrap();
                        assert_eq!(&set[..], vec![key; 4]);
                    }
                });
            }
        });
        assert_eq!(cache.lock().young.len(), 100);
    }
}
