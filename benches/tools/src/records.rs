//! A corpus as `corpus.jsonl` holds it: `{"id": ..., "text": ...}` per
//! line, documents numbered in line order.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use serde::Deserialize;

/// The documents of a corpus, in file order.
#[derive(Debug, Default)]
pub struct Records {
    /// Ids (for file corpora, paths relative to the corpus folder).
    pub ids: Vec<String>,
    /// Texts.
    pub texts: Vec<String>,
    numbers: HashMap<String, u32>,
}

#[derive(Deserialize)]
struct Line {
    id: String,
    text: String,
}

/// `corpus.jsonl` in a corpus folder, or the path itself if it is a file.
pub fn corpus_file(path: &Path) -> PathBuf {
    if path.is_dir() {
        path.join("corpus.jsonl")
    } else {
        path.to_owned()
    }
}

impl Records {
    /// Records from `(id, text)` pairs; ids must be distinct.
    pub fn new(records: impl IntoIterator<Item = (String, String)>) -> Result<Records, String> {
        let mut out = Records::default();
        for (id, text) in records {
            let n = u32::try_from(out.ids.len()).map_err(|_| "too many documents".to_owned())?;
            if out.numbers.insert(id.clone(), n).is_some() {
                return Err(format!("duplicate id {id:?}"));
            }
            out.ids.push(id);
            out.texts.push(text);
        }
        Ok(out)
    }

    /// Loads a `corpus.jsonl` (or the one in a corpus folder).
    pub fn load(path: &Path) -> Result<Records, String> {
        let path = corpus_file(path);
        let file = File::open(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut records = Vec::new();
        for (n, line) in BufReader::new(file).lines().enumerate() {
            let at = |e: &dyn std::fmt::Display| format!("{}:{}: {e}", path.display(), n + 1);
            let line = line.map_err(|e| at(&e))?;
            let r: Line = serde_json::from_str(&line).map_err(|e| at(&e))?;
            records.push((r.id, r.text));
        }
        Records::new(records)
    }

    /// Number of documents.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// Total bytes of the texts.
    pub fn bytes(&self) -> usize {
        self.texts.iter().map(String::len).sum()
    }

    /// The number of the document with this id.
    pub fn number(&self, id: &str) -> Option<u32> {
        self.numbers.get(id).copied()
    }

    /// The number of the document a tool names `name`: its id, or else the
    /// longest tail of `name` after a `/` that is an id (so
    /// `corpus/docs/a.txt` and `./docs/a.txt` find `docs/a.txt`).
    pub fn find(&self, name: &str) -> Option<u32> {
        if let Some(n) = self.number(name) {
            return Some(n);
        }
        name.match_indices('/')
            .find_map(|(i, _)| self.number(&name[i + 1..]))
    }

    /// FNV-1a (64 bits) of every id and text, with separators: two corpora
    /// with the same digest have the same documents in the same order.
    pub fn digest(&self) -> String {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |bytes: &[u8]| {
            for &b in bytes {
                h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
            }
        };
        for (id, text) in self.ids.iter().zip(&self.texts) {
            eat(id.as_bytes());
            eat(&[0xff]);
            eat(text.as_bytes());
            eat(&[0xfe]);
        }
        format!("{h:016x}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_find_ids_by_their_tail() {
        let r = Records::new([
            ("docs/a.txt".to_owned(), "x".to_owned()),
            ("docs/sub/a.txt".to_owned(), "y".to_owned()),
            ("pkg".to_owned(), "z".to_owned()),
        ])
        .unwrap();
        assert_eq!(r.find("docs/a.txt"), Some(0));
        assert_eq!(r.find("./docs/a.txt"), Some(0));
        assert_eq!(r.find("/abs/corpus/docs/sub/a.txt"), Some(1));
        assert_eq!(r.find("pkg"), Some(2));
        assert_eq!(r.find("other/pkg"), Some(2));
        assert_eq!(r.find("docs/b.txt"), None);
        assert_eq!(r.bytes(), 3);
    }

    #[test]
    fn ids_are_distinct_and_digest_sees_every_byte() {
        let rec = |a: &str, b: &str| Records::new([(a.to_owned(), b.to_owned())]).unwrap();
        assert!(Records::new([("a".into(), "".into()), ("a".into(), "".into())]).is_err());
        assert_eq!(rec("a", "b").digest(), rec("a", "b").digest());
        assert_ne!(rec("a", "b").digest(), rec("a", "c").digest());
        assert_ne!(rec("ab", "").digest(), rec("a", "b").digest());
    }

    #[test]
    fn loads_a_corpus_folder() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("corpus.jsonl"),
            "{\"id\":\"a\",\"text\":\"one\"}\n{\"id\":\"b\",\"text\":\"two\"}\n",
        )
        .unwrap();
        let r = Records::load(dir.path()).unwrap();
        assert_eq!((r.len(), r.number("b")), (2, Some(1)));
        std::fs::write(dir.path().join("bad.jsonl"), "{\"id\":\"a\"}\n").unwrap();
        let e = Records::load(&dir.path().join("bad.jsonl")).unwrap_err();
        assert!(e.contains("bad.jsonl:1"), "{e}");
    }
}
