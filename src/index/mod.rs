//! A stored corpus: one SQLite file holding the fingerprint of each
//! document, so later runs can search new documents against it
//! (`scan --against`) or skip files that did not change (`scan --cache`,
//! `index add`).
//!
//! The file has three tables: `meta` (the feature options the fingerprints
//! were made with, as `describe` and `digest` say them), `documents` (one
//! row per document: its name, size, modification time, content hash,
//! SimHash, feature count, feature digest, for a short text its
//! character-pair fingerprint, and for a record its text, since a record
//! cannot be read again from anywhere else) and `verdicts` (a scan cache's
//! verifications). Every write is one transaction in WAL mode; a busy
//! timeout makes concurrent writers wait for each other. The schema version
//! is kept in `PRAGMA user_version`: an older version is migrated forward
//! in one transaction when the file is opened, and a version this build
//! does not know is refused, never rewritten.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};

use crate::Error;
use crate::fingerprint::{FeatureOptions, Fingerprint};
pub use crate::input::Stamp;

/// The schema version this build reads and writes (2 added records'
/// texts; version 1 files are migrated when opened).
pub const SCHEMA_VERSION: i64 = 2;

/// How long a writer waits for another one before giving up.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(60);

const SCHEMA: &str = "
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE documents (
    name BLOB PRIMARY KEY,
    size INTEGER NOT NULL,
    mtime INTEGER NOT NULL,
    content_hash INTEGER NOT NULL,
    simhash INTEGER NOT NULL,
    features INTEGER NOT NULL,
    feature_digest INTEGER NOT NULL,
    short_simhash INTEGER,
    short_features INTEGER,
    text BLOB
) WITHOUT ROWID;
CREATE TABLE verdicts (
    a INTEGER NOT NULL,
    b INTEGER NOT NULL,
    jaccard REAL,
    threshold REAL NOT NULL,
    PRIMARY KEY (a, b)
) WITHOUT ROWID;
";

/// A scan cache's memory of its last search (part of the schema since
/// version 2).
const SEARCH_TABLES: &str = "
CREATE TABLE searched (simhash INTEGER PRIMARY KEY) WITHOUT ROWID;
CREATE TABLE candidates (
    a INTEGER NOT NULL,
    b INTEGER NOT NULL,
    distance INTEGER NOT NULL,
    PRIMARY KEY (a, b)
) WITHOUT ROWID;
";

/// From version 1 to 2: records keep their text (and [`SEARCH_TABLES`]).
const MIGRATE_1_TO_2: &str = "ALTER TABLE documents ADD COLUMN text BLOB;";

/// One stored document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Its name: the path as it was given (bytes: any path).
    pub name: Vec<u8>,
    /// Its size in bytes when fingerprinted.
    pub size: u64,
    /// Its modification time when fingerprinted, in nanoseconds since the
    /// Unix epoch.
    pub mtime: i64,
    /// Its fingerprint.
    pub fingerprint: Fingerprint,
    /// Its character-pair fingerprint, when it is a short text.
    pub short_text: Option<Fingerprint>,
    /// Its text, when it is a record (a file is read from its path).
    pub text: Option<Vec<u8>>,
}

/// A verification remembered by a scan cache: the exact Jaccard of two
/// feature sets, named by their digests (`a < b`), or that it was below
/// `threshold`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StoredVerdict {
    /// The smaller feature digest.
    pub a: u64,
    /// The larger one.
    pub b: u64,
    /// The exact Jaccard, when it was at least the threshold.
    pub jaccard: Option<f64>,
    /// The threshold of the run that decided it.
    pub threshold: f64,
}

/// A scan cache's memory of its last search: every pair of distinct
/// fingerprints within `max_distance` among the `searched` ones, so a
/// scan of the same corpus need search only the fingerprints it did not
/// see (`scan --cache`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchMemory {
    /// The radius searched.
    pub max_distance: u32,
    /// The distinct fingerprints searched, ascending.
    pub searched: Vec<u64>,
    /// Every pair of them within the radius: `(a, b, distance)`, `a < b`.
    pub pairs: Vec<(u64, u64, u32)>,
}

/// Counts of what a store holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StoreStats {
    /// Documents stored.
    pub documents: u64,
    /// Their bytes in all.
    pub bytes: u64,
    /// The feature options, as `describe` says them (if any were recorded).
    pub features: Option<String>,
    /// Their digest.
    pub digest: Option<String>,
}

/// An open store.
#[derive(Debug)]
pub struct Store {
    connection: Connection,
    path: PathBuf,
}

impl Store {
    /// Opens the store at `path`, creating it (and its schema) if `create`
    /// and it does not exist. A file of an unknown schema version is refused.
    pub fn open(path: &Path, create: bool) -> crate::Result<Store> {
        Store::open_with(path, create, false)
    }

    /// [`Store::open`] for reading only (`index stats`, `index ls`, `scan
    /// --against`): when the file or its directory cannot be written (a
    /// shared index), it is opened read-only instead, and if SQLite cannot
    /// make the WAL's shared-memory file beside it either, as a file that
    /// nobody writes while it is read (`immutable`).
    pub fn open_to_read(path: &Path) -> crate::Result<Store> {
        Store::open_with(path, false, true)
    }

    fn open_with(path: &Path, create: bool, to_read: bool) -> crate::Result<Store> {
        if !create && !path.exists() {
            return Err(Error::Data {
                name: path.display().to_string(),
                message: "no such index (create it with `simdup index add --db FILE PATH...`)"
                    .to_string(),
            });
        }
        // SQLite takes an empty file for an empty database, and would give
        // it a schema: read, a truncated index would find nothing quietly.
        if to_read && std::fs::metadata(path).is_ok_and(|metadata| metadata.len() == 0) {
            return Err(Error::Data {
                name: path.display().to_string(),
                message: "an empty file, not an index (create one with `simdup index add --db \
                          FILE PATH...`)"
                    .to_string(),
            });
        }
        let connection = Connection::open(path).map_err(|e| sql_error(path, e))?;
        let mut store = Store {
            connection,
            path: path.to_path_buf(),
        };
        match store.setup_when_free() {
            Err(error) if to_read && is_read_only(&error) => {
                store = Store::read_only(path).map_err(|e| sql_error(path, e))?;
            }
            done => done.map_err(|e| sql_error(path, e))?,
        }
        let version = store.version().map_err(|e| sql_error(path, e))?;
        if version != SCHEMA_VERSION {
            return Err(Error::Data {
                name: path.display().to_string(),
                message: format!(
                    "schema version {version}, but this simdup knows only version \
                     {SCHEMA_VERSION}: use the simdup that made it, or make a new index"
                ),
            });
        }
        Ok(store)
    }

    /// [`Store::setup`], tried again while another process holds the
    /// file, for up to [`BUSY_TIMEOUT`]. Two processes opening a new index
    /// at once both switch it to WAL, and SQLite answers the second "busy"
    /// at once, without waiting (two `index add` at once failed so about
    /// one time in two).
    fn setup_when_free(&mut self) -> rusqlite::Result<()> {
        let started = std::time::Instant::now();
        loop {
            match self.setup() {
                Err(error) if is_busy(&error) && started.elapsed() < BUSY_TIMEOUT => {
                    std::thread::sleep(Duration::from_millis(10));
                }
                done => return done,
            }
        }
    }

    fn setup(&mut self) -> rusqlite::Result<()> {
        self.connection.busy_timeout(BUSY_TIMEOUT)?;
        let mode: String = self
            .connection
            .query_row("PRAGMA journal_mode=WAL", [], |row| row.get(0))?;
        debug_assert!(mode.eq_ignore_ascii_case("wal") || mode == "memory");
        self.connection
            .pragma_update(None, "synchronous", "NORMAL")?;
        let transaction = self
            .connection
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let version: i64 = transaction.query_row("PRAGMA user_version", [], |row| row.get(0))?;
        let tables: i64 =
            transaction.query_row("SELECT count(*) FROM sqlite_master", [], |row| row.get(0))?;
        if version == 0 && tables == 0 {
            transaction.execute_batch(SCHEMA)?;
            transaction.execute_batch(SEARCH_TABLES)?;
            transaction.pragma_update(None, "user_version", SCHEMA_VERSION)?;
        } else if version == 1 {
            transaction.execute_batch(MIGRATE_1_TO_2)?;
            transaction.execute_batch(SEARCH_TABLES)?;
            transaction.pragma_update(None, "user_version", SCHEMA_VERSION)?;
        }
        transaction.commit()
    }

    /// The store opened read-only, as it is, or as an immutable file
    /// when reading it needs what cannot be created (see
    /// [`Store::open_to_read`]).
    fn read_only(path: &Path) -> rusqlite::Result<Store> {
        let store = Store::read_only_as(path, false)?;
        match store.version() {
            Err(error) if is_read_only(&error) || is_cannot_open(&error) => {
                Store::read_only_as(path, true)
            }
            _ => Ok(store),
        }
    }

    fn read_only_as(path: &Path, immutable: bool) -> rusqlite::Result<Store> {
        use rusqlite::OpenFlags;
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY
            | OpenFlags::SQLITE_OPEN_URI
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let uri = format!(
            "file:{}{}",
            uri_path(path),
            if immutable { "?immutable=1" } else { "" }
        );
        let connection = Connection::open_with_flags(uri, flags)?;
        connection.busy_timeout(BUSY_TIMEOUT)?;
        Ok(Store {
            connection,
            path: path.to_path_buf(),
        })
    }

    fn version(&self) -> rusqlite::Result<i64> {
        self.connection
            .query_row("PRAGMA user_version", [], |row| row.get(0))
    }

    /// The path of the store, as given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn error(&self, error: rusqlite::Error) -> Error {
        sql_error(&self.path, error)
    }

    /// The feature options recorded: `(describe, digest)`.
    pub fn options(&self) -> crate::Result<Option<(String, String)>> {
        let get = |key: &str| -> rusqlite::Result<Option<String>> {
            self.connection
                .query_row("SELECT value FROM meta WHERE key = ?1", [key], |row| {
                    row.get(0)
                })
                .optional()
        };
        let describe = get("features").map_err(|e| self.error(e))?;
        let digest = get("digest").map_err(|e| self.error(e))?;
        Ok(digest.map(|digest| (describe.unwrap_or_default(), digest)))
    }

    /// Refuses a store made with other feature options than `options`,
    /// naming both. A store without options takes these (when written).
    pub fn check_options(&self, options: &FeatureOptions) -> crate::Result<()> {
        match self.options()? {
            Some((describe, digest)) if digest != options.digest() => Err(Error::Data {
                name: self.path.display().to_string(),
                message: if describe == options.describe() {
                    format!(
                        "made by another version of simdup, whose fingerprints of the same \
                         options differ (digest {digest}, now {}): make the index again",
                        options.digest()
                    )
                } else {
                    format!(
                        "made with other feature options ({describe}, digest {digest}) than \
                         these ({}, digest {}): give the same options, or use another index",
                        options.describe(),
                        options.digest()
                    )
                },
            }),
            _ => Ok(()),
        }
    }

    /// The stamp of every stored file (not records), by name.
    pub fn stamps(&self) -> crate::Result<HashMap<Vec<u8>, Stamp>> {
        let run = || -> rusqlite::Result<HashMap<Vec<u8>, Stamp>> {
            let mut statement = self
                .connection
                .prepare("SELECT name, size, mtime FROM documents WHERE text IS NULL")?;
            let rows = statement.query_map([], |row| {
                Ok((
                    row.get::<_, Vec<u8>>(0)?,
                    Stamp {
                        size: row.get::<_, i64>(1)? as u64,
                        mtime: row.get(2)?,
                    },
                ))
            })?;
            rows.collect()
        };
        run().map_err(|e| self.error(e))
    }

    /// The content hash of every stored record, by name.
    pub fn record_hashes(&self) -> crate::Result<HashMap<Vec<u8>, u64>> {
        let run = || -> rusqlite::Result<HashMap<Vec<u8>, u64>> {
            let mut statement = self
                .connection
                .prepare("SELECT name, content_hash FROM documents WHERE text IS NOT NULL")?;
            let rows = statement.query_map([], |row| {
                Ok((row.get::<_, Vec<u8>>(0)?, row.get::<_, i64>(1)? as u64))
            })?;
            rows.collect()
        };
        run().map_err(|e| self.error(e))
    }

    /// Whether the store holds records (documents kept with their text)
    /// and whether it holds files.
    pub fn kinds(&self) -> crate::Result<(bool, bool)> {
        let exists = |condition: &str| -> rusqlite::Result<bool> {
            self.connection.query_row(
                &format!("SELECT EXISTS (SELECT 1 FROM documents WHERE text IS {condition})"),
                [],
                |row| row.get(0),
            )
        };
        let records = exists("NOT NULL").map_err(|e| self.error(e))?;
        let files = exists("NULL").map_err(|e| self.error(e))?;
        Ok((records, files))
    }

    /// Whether the store holds records, judged by its first document (an
    /// index holds one kind, so one row says which, however large it is).
    pub fn holds_records(&self) -> crate::Result<bool> {
        self.connection
            .query_row(
                "SELECT text IS NOT NULL FROM documents LIMIT 1",
                [],
                |row| row.get(0),
            )
            .optional()
            .map(|first| first.unwrap_or(false))
            .map_err(|e| self.error(e))
    }

    /// Every stored document, by name (ascending bytes), without texts.
    pub fn entries(&self) -> crate::Result<Vec<Entry>> {
        let mut entries = Vec::new();
        self.for_each_entry(false, |entry| entries.push(entry))?;
        Ok(entries)
    }

    /// Calls `each` with every stored document, by name (ascending
    /// bytes), one row at a time; with `texts`, records carry their text.
    pub fn for_each_entry(&self, texts: bool, mut each: impl FnMut(Entry)) -> crate::Result<()> {
        let mut run = || -> rusqlite::Result<()> {
            let text_column = if texts { "text" } else { "NULL" };
            let mut statement = self.connection.prepare(&format!(
                "SELECT name, size, mtime, content_hash, simhash, features, feature_digest, \
                 short_simhash, short_features, {text_column} FROM documents ORDER BY name"
            ))?;
            let rows = statement.query_map([], |row| {
                let size = row.get::<_, i64>(1)? as u64;
                let short_simhash: Option<i64> = row.get(7)?;
                let short_features: Option<i64> = row.get(8)?;
                Ok(Entry {
                    name: row.get(0)?,
                    size,
                    mtime: row.get(2)?,
                    fingerprint: Fingerprint {
                        content_hash: row.get::<_, i64>(3)? as u64,
                        simhash: row.get::<_, i64>(4)? as u64,
                        features: row.get::<_, i64>(5)? as u64,
                        feature_digest: row.get::<_, i64>(6)? as u64,
                        bytes: size,
                    },
                    short_text: short_simhash
                        .zip(short_features)
                        .map(|(simhash, features)| Fingerprint {
                            simhash: simhash as u64,
                            features: features as u64,
                            bytes: size,
                            content_hash: 0,
                            feature_digest: 0,
                        }),
                    text: row.get(9)?,
                })
            })?;
            for row in rows {
                each(row?);
            }
            Ok(())
        };
        run().map_err(|e| self.error(e))
    }

    /// The last search a scan cache remembered, if any.
    pub fn search_memory(&self) -> crate::Result<Option<SearchMemory>> {
        let run = || -> rusqlite::Result<Option<SearchMemory>> {
            let radius: Option<String> = self
                .connection
                .query_row("SELECT value FROM meta WHERE key = 'search_k'", [], |row| {
                    row.get(0)
                })
                .optional()?;
            let Some(max_distance) = radius.and_then(|k| k.parse().ok()) else {
                return Ok(None);
            };
            let mut statement = self.connection.prepare("SELECT simhash FROM searched")?;
            let mut searched: Vec<u64> = statement
                .query_map([], |row| Ok(row.get::<_, i64>(0)? as u64))?
                .collect::<rusqlite::Result<_>>()?;
            // Stored as signed integers: sort as unsigned.
            searched.sort_unstable();
            let mut statement = self
                .connection
                .prepare("SELECT a, b, distance FROM candidates")?;
            let mut pairs: Vec<(u64, u64, u32)> = statement
                .query_map([], |row| {
                    Ok((
                        row.get::<_, i64>(0)? as u64,
                        row.get::<_, i64>(1)? as u64,
                        row.get::<_, u32>(2)?,
                    ))
                })?
                .collect::<rusqlite::Result<_>>()?;
            pairs.sort_unstable();
            Ok(Some(SearchMemory {
                max_distance,
                searched,
                pairs,
            }))
        };
        run().map_err(|e| self.error(e))
    }

    /// Every stored verdict.
    pub fn verdicts(&self) -> crate::Result<Vec<StoredVerdict>> {
        let run = || -> rusqlite::Result<Vec<StoredVerdict>> {
            let mut statement = self
                .connection
                .prepare("SELECT a, b, jaccard, threshold FROM verdicts")?;
            let rows = statement.query_map([], |row| {
                Ok(StoredVerdict {
                    a: row.get::<_, i64>(0)? as u64,
                    b: row.get::<_, i64>(1)? as u64,
                    jaccard: row.get(2)?,
                    threshold: row.get(3)?,
                })
            })?;
            rows.collect()
        };
        run().map_err(|e| self.error(e))
    }

    /// Stores `entries` (replacing rows of the same name) and records
    /// `options`, in one transaction; the options are checked again inside
    /// it, against a writer that got there first.
    pub fn put(&mut self, options: &FeatureOptions, entries: &[Entry]) -> crate::Result<()> {
        self.put_all(options, entries, &[], None)
    }

    /// [`Store::put`], with verdicts and, when given, a search memory (it
    /// replaces the one stored) in the same transaction.
    pub fn put_all(
        &mut self,
        options: &FeatureOptions,
        entries: &[Entry],
        verdicts: &[StoredVerdict],
        search: Option<&SearchMemory>,
    ) -> crate::Result<()> {
        self.check_options(options)?;
        let path = self.path.clone();
        let run = |connection: &mut Connection| -> rusqlite::Result<Option<String>> {
            let transaction =
                connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let recorded: Option<String> = transaction
                .query_row("SELECT value FROM meta WHERE key = 'digest'", [], |row| {
                    row.get(0)
                })
                .optional()?;
            if let Some(digest) = recorded {
                if digest != options.digest() {
                    return Ok(Some(digest));
                }
            } else {
                transaction.execute(
                    "INSERT INTO meta (key, value) VALUES ('features', ?1), ('digest', ?2)",
                    params![options.describe(), options.digest()],
                )?;
            }
            {
                let mut insert = transaction.prepare(
                    "INSERT OR REPLACE INTO documents (name, size, mtime, content_hash, simhash, \
                     features, feature_digest, short_simhash, short_features, text) \
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                )?;
                for entry in entries {
                    let f = &entry.fingerprint;
                    insert.execute(params![
                        entry.name,
                        entry.size as i64,
                        entry.mtime,
                        f.content_hash as i64,
                        f.simhash as i64,
                        f.features as i64,
                        f.feature_digest as i64,
                        entry.short_text.map(|s| s.simhash as i64),
                        entry.short_text.map(|s| s.features as i64),
                        entry.text,
                    ])?;
                }
                let mut insert = transaction.prepare(
                    "INSERT OR REPLACE INTO verdicts (a, b, jaccard, threshold) \
                     VALUES (?1, ?2, ?3, ?4)",
                )?;
                for verdict in verdicts {
                    insert.execute(params![
                        verdict.a as i64,
                        verdict.b as i64,
                        verdict.jaccard,
                        verdict.threshold
                    ])?;
                }
            }
            if let Some(search) = search {
                transaction.execute_batch(
                    "DELETE FROM searched; DELETE FROM candidates; \
                     DELETE FROM meta WHERE key = 'search_k';",
                )?;
                transaction.execute(
                    "INSERT INTO meta (key, value) VALUES ('search_k', ?1)",
                    [search.max_distance.to_string()],
                )?;
                let mut insert =
                    transaction.prepare("INSERT INTO searched (simhash) VALUES (?1)")?;
                for &simhash in &search.searched {
                    insert.execute([simhash as i64])?;
                }
                let mut insert = transaction
                    .prepare("INSERT INTO candidates (a, b, distance) VALUES (?1, ?2, ?3)")?;
                for &(a, b, distance) in &search.pairs {
                    insert.execute(params![a as i64, b as i64, distance])?;
                }
            }
            transaction.commit()?;
            Ok(None)
        };
        match run(&mut self.connection).map_err(|e| sql_error(&path, e))? {
            None => Ok(()),
            Some(_) => self.check_options(options),
        }
    }

    /// Removes the documents named, in one transaction; returns how many
    /// were stored.
    pub fn remove(&mut self, names: &[Vec<u8>]) -> crate::Result<u64> {
        let path = self.path.clone();
        let run = |connection: &mut Connection| -> rusqlite::Result<u64> {
            let transaction =
                connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let mut removed = 0;
            {
                let mut delete = transaction.prepare("DELETE FROM documents WHERE name = ?1")?;
                for name in names {
                    removed += delete.execute([name])? as u64;
                }
            }
            transaction.commit()?;
            Ok(removed)
        };
        run(&mut self.connection).map_err(|e| sql_error(&path, e))
    }

    /// What the store holds.
    pub fn stats(&self) -> crate::Result<StoreStats> {
        let (documents, bytes): (i64, i64) = self
            .connection
            .query_row(
                "SELECT count(*), coalesce(sum(size), 0) FROM documents",
                [],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .map_err(|e| self.error(e))?;
        let options = self.options()?;
        Ok(StoreStats {
            documents: documents as u64,
            bytes: bytes as u64,
            features: options.as_ref().map(|(describe, _)| describe.clone()),
            digest: options.map(|(_, digest)| digest),
        })
    }

    /// The result of `PRAGMA integrity_check`: `ok`, or what is wrong.
    pub fn integrity_check(&self) -> crate::Result<String> {
        self.connection
            .query_row("PRAGMA integrity_check", [], |row| row.get(0))
            .map_err(|e| self.error(e))
    }
}

/// Whether `error` says another connection holds the database.
fn is_busy(error: &rusqlite::Error) -> bool {
    matches!(error, rusqlite::Error::SqliteFailure(failure, _)
        if failure.code == rusqlite::ErrorCode::DatabaseBusy
            || failure.code == rusqlite::ErrorCode::DatabaseLocked)
}

fn is_read_only(error: &rusqlite::Error) -> bool {
    matches!(error, rusqlite::Error::SqliteFailure(failure, _)
        if failure.code == rusqlite::ErrorCode::ReadOnly)
}

fn is_cannot_open(error: &rusqlite::Error) -> bool {
    matches!(error, rusqlite::Error::SqliteFailure(failure, _)
        if failure.code == rusqlite::ErrorCode::CannotOpen)
}

/// A path as the path of an SQLite URI (absolute, percent-encoded).
fn uri_path(path: &Path) -> String {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    crate::input::percent_encoded(crate::input::path_bytes(&absolute))
}

fn sql_error(path: &Path, error: rusqlite::Error) -> Error {
    let message = match &error {
        _ if is_busy(&error) => {
            format!(
                "the index is busy: another simdup has been writing it for more than {} s; \
                 try again when it is done ({error})",
                BUSY_TIMEOUT.as_secs()
            )
        }
        rusqlite::Error::SqliteFailure(failure, _)
            if failure.code == rusqlite::ErrorCode::NotADatabase =>
        {
            "not a simdup index (not an SQLite database)".to_string()
        }
        _ => format!("index: {error}"),
    };
    Error::Data {
        name: path.display().to_string(),
        message,
    }
}

/// The name of a path as stored: its bytes.
pub fn name_of(path: &Path) -> Vec<u8> {
    path.as_os_str().as_encoded_bytes().to_vec()
}

#[cfg(test)]
mod tests;
