use super::*;

fn entry(name: &str, simhash: u64) -> Entry {
    Entry {
        name: name.as_bytes().to_vec(),
        size: 10,
        mtime: 1,
        fingerprint: Fingerprint {
            simhash,
            features: 7,
            bytes: 10,
            content_hash: simhash ^ 1,
            feature_digest: simhash ^ 2,
        },
        short_text: None,
        text: None,
    }
}

fn names(store: &Store) -> Vec<String> {
    store
        .entries()
        .unwrap()
        .into_iter()
        .map(|e| String::from_utf8(e.name).unwrap())
        .collect()
}

#[test]
fn entries_read_back_as_written_and_the_file_is_sound() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("i.db");
    let options = FeatureOptions::default();
    let mut store = Store::open(&path, true).unwrap();
    let mut short = entry("b", u64::MAX);
    short.short_text = Some(Fingerprint {
        simhash: 5,
        features: 3,
        bytes: 10,
        content_hash: 0,
        feature_digest: 0,
    });
    store
        .put(&options, &[entry("a", 1 << 63), short.clone()])
        .unwrap();
    let read = store.entries().unwrap();
    assert_eq!(read, vec![entry("a", 1 << 63), short]);
    assert_eq!(store.integrity_check().unwrap(), "ok");
    let stats = store.stats().unwrap();
    assert_eq!(stats.documents, 2);
    assert_eq!(stats.digest, Some(options.digest()));
    let journal: String = store
        .connection
        .query_row("PRAGMA journal_mode", [], |row| row.get(0))
        .unwrap();
    assert_eq!(journal, "wal");
    assert_eq!(store.remove(&[b"a".to_vec(), b"zz".to_vec()]).unwrap(), 1);
    assert_eq!(names(&store), ["b"]);
    assert_eq!(store.integrity_check().unwrap(), "ok");
}

#[test]
fn a_transaction_that_is_not_committed_leaves_the_previous_state() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("i.db");
    let mut store = Store::open(&path, true).unwrap();
    store
        .put(&FeatureOptions::default(), &[entry("kept", 1)])
        .unwrap();
    {
        let transaction = store.connection.transaction().unwrap();
        transaction.execute("DELETE FROM documents", []).unwrap();
        transaction
            .execute(
                "INSERT INTO documents VALUES (x'6e6577', 1, 1, 1, 1, 1, 1, NULL, NULL, NULL)",
                [],
            )
            .unwrap();
        // Dropped without commit, as a killed writer's would be.
    }
    drop(store);
    let store = Store::open(&path, false).unwrap();
    assert_eq!(names(&store), ["kept"]);
    assert_eq!(store.integrity_check().unwrap(), "ok");
}

#[test]
fn an_unknown_schema_version_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("i.db");
    drop(Store::open(&path, true).unwrap());
    let connection = Connection::open(&path).unwrap();
    connection.pragma_update(None, "user_version", 99).unwrap();
    drop(connection);
    let error = Store::open(&path, false).unwrap_err().to_string();
    assert!(error.contains("schema version 99"), "{error}");
    assert!(
        error.contains(&format!("only version {SCHEMA_VERSION}")),
        "{error}"
    );
}

#[test]
fn a_database_that_is_not_an_index_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("other.db");
    let connection = Connection::open(&path).unwrap();
    connection.execute_batch("CREATE TABLE t (x)").unwrap();
    drop(connection);
    let error = Store::open(&path, true).unwrap_err().to_string();
    assert!(error.contains("schema version 0"), "{error}");
    std::fs::write(
        dir.path().join("text.db"),
        "not sqlite at all, just text\n".repeat(200),
    )
    .unwrap();
    assert!(Store::open(&dir.path().join("text.db"), true).is_err());
}

#[test]
fn a_missing_index_is_not_created_when_only_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("none.db");
    let error = Store::open(&path, false).unwrap_err().to_string();
    assert!(error.contains("no such index"), "{error}");
    // The hint is a command that works as written: `add` needs `--db`.
    assert!(
        error.contains("`simdup index add --db FILE PATH...`"),
        "{error}"
    );
    assert!(!path.exists());
}

#[test]
fn other_feature_options_are_refused_naming_both() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("i.db");
    let mut store = Store::open(&path, true).unwrap();
    let options = FeatureOptions::default();
    store.put(&options, &[entry("a", 1)]).unwrap();
    let other = FeatureOptions {
        shingle: crate::fingerprint::Shingle::Words(2),
        ..FeatureOptions::default()
    };
    let error = store.put(&other, &[entry("b", 2)]).unwrap_err().to_string();
    assert!(error.contains(&options.describe()), "{error}");
    assert!(error.contains(&other.describe()), "{error}");
    assert!(error.contains(&other.digest()), "{error}");
    assert_eq!(names(&store), ["a"]);
}

#[test]
fn an_index_of_an_earlier_definition_is_refused_as_such() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("i.db");
    let mut store = Store::open(&path, true).unwrap();
    let options = FeatureOptions::default();
    store.put(&options, &[entry("a", 1)]).unwrap();
    // The same options, as an earlier version wrote them: another digest.
    store
        .connection
        .execute(
            "UPDATE meta SET value = '0123456789abcdef' WHERE key = 'digest'",
            [],
        )
        .unwrap();
    let error = store
        .put(&options, &[entry("b", 2)])
        .unwrap_err()
        .to_string();
    assert!(error.contains("another version of simdup"), "{error}");
    assert!(error.contains("make the index again"), "{error}");
    assert_eq!(names(&store), ["a"]);
}

#[test]
fn records_keep_their_text_and_are_told_from_files() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("i.db");
    let options = FeatureOptions::default();
    let mut store = Store::open(&path, true).unwrap();
    assert_eq!(store.kinds().unwrap(), (false, false));
    let mut record = entry("r1", 3);
    record.text = Some(b"the text of a record".to_vec());
    store
        .put(&options, &[entry("f", 1), record.clone()])
        .unwrap();
    assert_eq!(store.kinds().unwrap(), (true, true));
    // Files are stamped (and pruned) by path; records by content hash.
    assert_eq!(
        store.stamps().unwrap().into_keys().collect::<Vec<_>>(),
        [b"f".to_vec()]
    );
    assert_eq!(
        store.record_hashes().unwrap(),
        HashMap::from([(b"r1".to_vec(), record.fingerprint.content_hash)])
    );
    // Texts are read only when asked for.
    assert_eq!(store.entries().unwrap()[1].text, None);
    let mut with_texts = Vec::new();
    store
        .for_each_entry(true, |entry| with_texts.push(entry))
        .unwrap();
    assert_eq!(with_texts, vec![entry("f", 1), record]);
}

#[test]
fn a_version_1_file_is_migrated_forward() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.db");
    {
        let connection = Connection::open(&path).unwrap();
        connection
            .execute_batch(
                "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                 CREATE TABLE documents (
                     name BLOB PRIMARY KEY, size INTEGER NOT NULL, mtime INTEGER NOT NULL,
                     content_hash INTEGER NOT NULL, simhash INTEGER NOT NULL,
                     features INTEGER NOT NULL, feature_digest INTEGER NOT NULL,
                     short_simhash INTEGER, short_features INTEGER
                 ) WITHOUT ROWID;
                 CREATE TABLE verdicts (a INTEGER NOT NULL, b INTEGER NOT NULL, jaccard REAL,
                     threshold REAL NOT NULL, PRIMARY KEY (a, b)) WITHOUT ROWID;
                 INSERT INTO documents VALUES (x'61', 10, 1, 0, 1, 7, 3, NULL, NULL);
                 PRAGMA user_version = 1;",
            )
            .unwrap();
    }
    let mut store = Store::open(&path, false).unwrap();
    assert_eq!(store.version().unwrap(), SCHEMA_VERSION);
    assert_eq!(names(&store), ["a"]);
    assert_eq!(store.entries().unwrap()[0].text, None);
    let mut record = entry("r", 9);
    record.text = Some(b"kept".to_vec());
    store
        .put(&FeatureOptions::default(), std::slice::from_ref(&record))
        .unwrap();
    assert_eq!(store.integrity_check().unwrap(), "ok");
}

#[test]
fn a_search_memory_reads_back_as_written_and_replaces_the_last() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.db");
    let options = FeatureOptions::default();
    let mut store = Store::open(&path, true).unwrap();
    assert_eq!(store.search_memory().unwrap(), None);
    // Fingerprints with the top bit set are stored as negative integers.
    let memory = SearchMemory {
        max_distance: 9,
        searched: vec![3, 1 << 40, u64::MAX - 1, u64::MAX],
        pairs: vec![(3, 1 << 40, 7), (u64::MAX - 1, u64::MAX, 1)],
    };
    store.put_all(&options, &[], &[], Some(&memory)).unwrap();
    assert_eq!(store.search_memory().unwrap(), Some(memory));
    let next = SearchMemory {
        max_distance: 4,
        searched: vec![5],
        pairs: vec![],
    };
    store.put_all(&options, &[], &[], Some(&next)).unwrap();
    assert_eq!(store.search_memory().unwrap(), Some(next.clone()));
    // A write without one keeps it.
    store.put(&options, &[entry("a", 1)]).unwrap();
    assert_eq!(store.search_memory().unwrap(), Some(next));
}

#[test]
fn a_store_read_only_or_immutable_reads_what_was_written() {
    let dir = tempfile::tempdir().unwrap();
    // A name a URI would otherwise cut or change.
    let path = dir.path().join("an index?#100%.db");
    let mut store = Store::open(&path, true).unwrap();
    store
        .put(&FeatureOptions::default(), &[entry("a", 1), entry("b", 2)])
        .unwrap();
    drop(store);
    for immutable in [false, true] {
        let store = Store::read_only_as(&path, immutable).unwrap();
        assert_eq!(store.version().unwrap(), SCHEMA_VERSION);
        assert_eq!(names(&store), ["a", "b"], "immutable {immutable}");
        let written = store.connection.execute("DELETE FROM documents", []);
        assert!(written.is_err_and(|error| is_read_only(&error)));
    }
    let store = Store::open_to_read(&path).unwrap();
    assert_eq!(names(&store), ["a", "b"]);
}

#[test]
fn an_empty_file_is_no_index_to_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("truncated.db");
    std::fs::write(&path, b"").unwrap();
    let error = Store::open_to_read(&path).unwrap_err().to_string();
    assert!(error.contains("an empty file, not an index"), "{error}");
    // Nothing was written into it.
    assert_eq!(std::fs::metadata(&path).unwrap().len(), 0);
    // A writer makes its schema there, as before.
    assert!(Store::open(&path, true).is_ok());
}
