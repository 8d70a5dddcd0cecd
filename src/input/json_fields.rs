//! Reads chosen fields of a JSON value, at any depth, and skips every
//! other field without building it. (Parsing whole objects into maps cost
//! more than fingerprinting.)
//!
//! Several paths are looked for in one pass: the text and the id fields,
//! each as a top-level key and as a path (see `field_path`). When a key
//! comes twice, the last one counts, as in a full parse.

use serde::Deserialize;
use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use super::field_path::array_index;

/// Paths looked for at once: the text and the id, each two ways.
pub(crate) const SLOTS: usize = 4;

/// The value found at each path (`None`: not there).
pub(crate) type Found = [Option<Value>; SLOTS];

/// The paths to look for, as segments (`None`: a slot not used).
pub(crate) type Paths<'p> = [Option<&'p [String]>; SLOTS];

/// Looks for paths in a JSON value. Deserializes to whether the value was
/// an object, and the values found.
#[derive(Clone, Copy)]
pub(crate) struct Seek<'p> {
    /// The paths, relative to the value sought in.
    pub paths: Paths<'p>,
}

impl Seek<'_> {
    /// Which paths go on through a key or index their first segment
    /// `matches`.
    fn matched(&self, matches: impl Fn(&str) -> bool) -> [bool; SLOTS] {
        self.paths
            .map(|path| path.is_some_and(|path| matches(&path[0])))
    }
}

impl<'de> DeserializeSeed<'de> for Seek<'_> {
    type Value = (bool, Found);

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Seek<'_> {
    type Value = (bool, Found);

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Self::Value, M::Error> {
        let mut found = Found::default();
        while let Some(key) = map.next_key::<Key<'de>>()? {
            let matched = self.matched(|segment| segment == &*key.0);
            if matched.contains(&true) {
                let mut values = map.next_value_seed(Step {
                    seek: self,
                    matched,
                })?;
                take_matched(&mut found, &mut values, matched);
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok((true, found))
    }

    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<Self::Value, S::Error> {
        let mut found = Found::default();
        for index in 0usize.. {
            let matched = self.matched(|segment| array_index(segment) == Some(index));
            if matched.contains(&true) {
                let step = Step {
                    seek: self,
                    matched,
                };
                match seq.next_element_seed(step)? {
                    Some(mut values) => take_matched(&mut found, &mut values, matched),
                    None => break,
                }
            } else if seq.next_element::<IgnoredAny>()?.is_none() {
                break;
            }
        }
        Ok((false, found))
    }

    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok((false, Found::default()))
    }

    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok((false, Found::default()))
    }

    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok((false, Found::default()))
    }

    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok((false, Found::default()))
    }

    fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
        Ok((false, Found::default()))
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok((false, Found::default()))
    }
}

/// A later key of the same name replaces what an earlier one found.
fn take_matched(found: &mut Found, values: &mut Found, matched: [bool; SLOTS]) {
    for slot in 0..SLOTS {
        if matched[slot] {
            found[slot] = values[slot].take();
        }
    }
}

/// The value under a key (or index) some paths go through.
struct Step<'p> {
    seek: Seek<'p>,
    matched: [bool; SLOTS],
}

impl<'de> DeserializeSeed<'de> for Step<'_> {
    type Value = Found;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Found, D::Error> {
        let paths = self.seek.paths;
        let ends_here =
            |slot: usize| self.matched[slot] && paths[slot].is_some_and(|p| p.len() == 1);
        let mut found = Found::default();
        if !(0..SLOTS).any(ends_here) {
            // Only deeper paths: keep seeking without building the value.
            let deeper = Seek {
                paths: std::array::from_fn(|slot| {
                    paths[slot]
                        .filter(|_| self.matched[slot])
                        .map(|path| &path[1..])
                }),
            };
            return Ok(deeper.deserialize(deserializer)?.1);
        }
        // A path ends here: the value is built, and any deeper path is
        // read from it.
        let value = Value::deserialize(deserializer)?;
        let mut last_end = None;
        for slot in 0..SLOTS {
            match paths[slot] {
                Some(_) if ends_here(slot) => last_end = Some(slot),
                Some(path) if self.matched[slot] => found[slot] = resolve(&value, &path[1..]),
                _ => {}
            }
        }
        for slot in (0..SLOTS).filter(|&slot| ends_here(slot)) {
            if Some(slot) != last_end {
                found[slot] = Some(value.clone());
            }
        }
        if let Some(slot) = last_end {
            found[slot] = Some(value);
        }
        Ok(found)
    }
}

/// The value at `path` in a built value.
fn resolve(value: &Value, path: &[String]) -> Option<Value> {
    let mut at = value;
    for segment in path {
        at = match at {
            Value::Object(object) => object.get(segment)?,
            Value::Array(items) => items.get(array_index(segment)?)?,
            _ => return None,
        };
    }
    Some(at.clone())
}

/// An object key, borrowed from the line unless it holds escapes.
struct Key<'de>(std::borrow::Cow<'de, str>);

impl<'de> serde::Deserialize<'de> for Key<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E>(self, key: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(std::borrow::Cow::Borrowed(key)))
            }
            fn visit_str<E>(self, key: &str) -> Result<Key<'de>, E> {
                Ok(Key(std::borrow::Cow::Owned(key.to_string())))
            }
            fn visit_string<E>(self, key: String) -> Result<Key<'de>, E> {
                Ok(Key(std::borrow::Cow::Owned(key)))
            }
        }
        deserializer.deserialize_str(KeyVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seek(json: &str, paths: &[&[&str]]) -> (bool, Vec<Option<Value>>) {
        let owned: Vec<Vec<String>> = paths
            .iter()
            .map(|path| path.iter().map(|s| s.to_string()).collect())
            .collect();
        let mut slots: Paths = [None; SLOTS];
        for (slot, path) in owned.iter().enumerate() {
            slots[slot] = Some(path.as_slice());
        }
        let mut deserializer = serde_json::Deserializer::from_str(json);
        let (object, found) = Seek { paths: slots }
            .deserialize(&mut deserializer)
            .unwrap();
        (object, found[..paths.len()].to_vec())
    }

    #[test]
    fn finds_values_at_any_depth() {
        let json = r#"{"a":{"b":{"c":"deep"},"x":[1,{"y":"in an array"}]},"t":"top"}"#;
        let (object, found) = seek(
            json,
            &[&["a", "b", "c"], &["a", "x", "1", "y"], &["t"], &["a", "b"]],
        );
        assert!(object);
        assert_eq!(
            found,
            [
                Some(Value::from("deep")),
                Some(Value::from("in an array")),
                Some(Value::from("top")),
                Some(serde_json::json!({"c": "deep"})),
            ]
        );
    }

    #[test]
    fn a_path_through_a_value_built_for_another_is_read_from_it() {
        let (_, found) = seek(r#"{"m":{"id":7,"text":"x"}}"#, &[&["m"], &["m", "text"]]);
        assert_eq!(found[0], Some(serde_json::json!({"id": 7, "text": "x"})));
        assert_eq!(found[1], Some(Value::from("x")));
    }

    #[test]
    fn missing_paths_are_none() {
        let json = r#"{"a":{"b":1},"l":[0],"s":"str"}"#;
        let (_, found) = seek(json, &[&["a", "c"], &["l", "1"], &["s", "x"], &["l", "00"]]);
        assert_eq!(found, [None, None, None, None]);
    }

    #[test]
    fn the_last_of_a_repeated_key_counts() {
        let (_, found) = seek(r#"{"m":{"t":"first"},"m":{"u":1}}"#, &[&["m", "t"]]);
        assert_eq!(found, [None]);
        let (_, found) = seek(r#"{"m":{"u":1},"m":{"t":"second"}}"#, &[&["m", "t"]]);
        assert_eq!(found, [Some(Value::from("second"))]);
    }

    #[test]
    fn a_value_that_is_not_an_object_says_so() {
        assert!(!seek("[1,2]", &[&["0"]]).0);
        assert!(!seek("\"x\"", &[&["a"]]).0);
    }
}
