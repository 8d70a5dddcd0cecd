//! The names of JSON Lines fields (`--text-field`, `--id-field`): a plain
//! top-level key, a dotted path (`meta.body`) or a JSON Pointer
//! (`/meta/body`, RFC 6901).
//!
//! A name is first looked up as a top-level key exactly as written, so
//! every name that worked as a plain key still means that key, even one
//! holding a dot or starting with `/`. Only when the object has no such key
//! is the name read as a path: a name starting with `/` is a JSON Pointer
//! (`~1` is `/`, `~0` is `~`), any other is split at every dot. A segment
//! that is an array index (`0`, or digits without a leading zero) also
//! picks that element of an array. A key that holds a dot below the top
//! level is reached with a pointer: `/meta/file.name`.

/// A field name and what it means as a path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FieldPath {
    /// The name as written: a top-level key first.
    pub literal: String,
    /// The segments of the path, when they are not just the literal.
    pub path: Option<Vec<String>>,
}

impl FieldPath {
    /// Parses a name; a pointer with `~` not followed by `0` or `1` is an
    /// error.
    pub(crate) fn parse(name: &str) -> Result<FieldPath, String> {
        let segments: Vec<String> = if let Some(pointer) = name.strip_prefix('/') {
            pointer
                .split('/')
                .map(unescape)
                .collect::<Result<_, _>>()
                .map_err(|error| format!("invalid JSON Pointer '{name}': {error}"))?
        } else {
            name.split('.').map(str::to_string).collect()
        };
        let path = (segments.len() != 1 || segments[0] != name).then_some(segments);
        Ok(FieldPath {
            literal: name.to_string(),
            path,
        })
    }
}

/// Undoes a pointer segment's escapes: `~1` is `/`, `~0` is `~`.
fn unescape(segment: &str) -> Result<String, String> {
    let mut out = String::with_capacity(segment.len());
    let mut chars = segment.chars();
    while let Some(c) = chars.next() {
        if c != '~' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('0') => out.push('~'),
            Some('1') => out.push('/'),
            _ => return Err("'~' must be followed by 0 or 1 (~0 is '~', ~1 is '/')".to_string()),
        }
    }
    Ok(out)
}

/// The array index a segment names: `0`, or digits without a leading
/// zero (as RFC 6901 has it).
pub(crate) fn array_index(segment: &str) -> Option<usize> {
    let digits = segment.bytes().all(|b| b.is_ascii_digit());
    if segment.is_empty() || !digits || (segment.len() > 1 && segment.starts_with('0')) {
        return None;
    }
    segment.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(name: &str) -> Option<Vec<String>> {
        FieldPath::parse(name).unwrap().path
    }

    #[test]
    fn a_plain_name_is_only_a_top_level_key() {
        assert_eq!(
            FieldPath::parse("text").unwrap(),
            FieldPath {
                literal: "text".to_string(),
                path: None
            }
        );
        assert_eq!(path(""), None);
    }

    #[test]
    fn dots_separate_segments() {
        assert_eq!(path("meta.body"), Some(vec!["meta".into(), "body".into()]));
        assert_eq!(path("a..b"), Some(vec!["a".into(), "".into(), "b".into()]));
        assert_eq!(FieldPath::parse("meta.body").unwrap().literal, "meta.body");
    }

    #[test]
    fn a_leading_slash_is_a_json_pointer() {
        assert_eq!(path("/meta/body"), Some(vec!["meta".into(), "body".into()]));
        assert_eq!(path("/a.b"), Some(vec!["a.b".into()]));
        assert_eq!(path("/"), Some(vec!["".into()]));
        assert_eq!(path("/x/0"), Some(vec!["x".into(), "0".into()]));
    }

    #[test]
    fn pointer_escapes_follow_rfc_6901() {
        assert_eq!(path("/a~1b/c~0d"), Some(vec!["a/b".into(), "c~d".into()]));
        // ~01 is `~1` unescaped once, not `/`.
        assert_eq!(path("/~01"), Some(vec!["~1".into()]));
        for bad in ["/a~", "/a~2", "/~x"] {
            let error = FieldPath::parse(bad).unwrap_err();
            assert!(error.contains(bad) && error.contains("~0"), "{error}");
        }
        // Outside a pointer, `~` is an ordinary character.
        assert_eq!(path("a~.b"), Some(vec!["a~".into(), "b".into()]));
    }

    #[test]
    fn array_indices_have_no_leading_zeros() {
        assert_eq!(array_index("0"), Some(0));
        assert_eq!(array_index("12"), Some(12));
        for not in ["", "01", "-1", "+1", "1a", "١"] {
            assert_eq!(array_index(not), None, "{not}");
        }
    }
}
