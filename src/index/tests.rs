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
                "INSERT INTO documents VALUES (x'6e6577', 1, 1, 1, 1, 1, 1, NULL, NULL)",
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
    assert!(error.contains("only version 1"), "{error}");
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
