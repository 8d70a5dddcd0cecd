//! Option values and the small files options name: sizes, globs,
//! shingles, SDR shapes, search methods, vocabularies and token lists.

use std::path::Path;
use std::str::FromStr;

use crate::Error;
use crate::fingerprint::{
    FeatureOptions, MAX_SHINGLE, MAX_WEIGHT, SdrShape, Shingle, TokenSet, Vocabulary,
};
use crate::input::{GlobFilter, parse_size};
use crate::search::Method;

/// Parses `data`, as text, with every option parser, and checks that:
/// - a size accepted is digits with an optional K/M/G/T suffix, and its
///   value, written as a number, parses back the same;
/// - a shingle, SDR shape or method accepted prints back as a value that
///   parses to itself, and is within its documented range;
/// - globs (one per line) either compile or fail with a usage error, and
///   compiled ones decide paths without panicking;
/// - a vocabulary or token list either parses or fails at a line of the
///   text, and keeps weights within range.
pub fn options(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let text = text.as_ref();
    let lines = text.lines().count().max(1) as u64;
    let first = text.lines().next().unwrap_or("");

    for value in [text, first] {
        if let Ok(size) = parse_size(value) {
            let trimmed = value.trim();
            let digits = trimmed.trim_end_matches(['k', 'K', 'm', 'M', 'g', 'G', 't', 'T']);
            assert!(trimmed.len() - digits.len() <= 1, "{value:?} accepted");
            assert!(!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()));
            assert_eq!(parse_size(&size.to_string()).ok(), Some(size));
        }
        if let Ok(shingle) = Shingle::from_str(value) {
            assert!((1..=MAX_SHINGLE).contains(&shingle.size()));
            assert_eq!(shingle.to_string().parse::<Shingle>().ok(), Some(shingle));
            let options = FeatureOptions {
                shingle,
                ..FeatureOptions::default()
            };
            assert!(
                options.validate().is_ok(),
                "{value:?} parsed but is invalid"
            );
        }
        if let Ok(shape) = SdrShape::from_str(value) {
            assert!(shape.validate().is_ok());
            assert_eq!(shape.to_string().parse::<SdrShape>().ok(), Some(shape));
        }
        if let Ok(method) = Method::from_str(value) {
            assert_eq!(method.to_string(), value);
        }
    }

    let globs: Vec<String> = text.lines().map(str::to_string).collect();
    match GlobFilter::new(&globs) {
        Ok(filter) => {
            assert_eq!(filter.is_empty(), globs.is_empty());
            for glob in &globs {
                let path = glob.trim_start_matches('!');
                for is_dir in [false, true] {
                    filter.excludes(Path::new(path), is_dir);
                }
            }
        }
        Err(Error::Usage(_)) => {}
        Err(error) => panic!("globs failed with a non-usage error: {error}"),
    }

    match Vocabulary::parse("vocab", text) {
        Ok(vocabulary) => assert!(vocabulary.entries().all(|(token, weight)| {
            weight <= MAX_WEIGHT && !token.is_empty() && !token.contains(char::is_whitespace)
        })),
        Err(Error::Parse { line, .. }) => assert!((1..=lines).contains(&line), "line {line}"),
        Err(error) => panic!("vocabulary failed with a non-parse error: {error}"),
    }
    match TokenSet::parse("tokens", text) {
        Ok(tokens) => assert!(tokens.tokens().all(|token| !token.is_empty())),
        Err(Error::Parse { line, .. }) => assert!((1..=lines).contains(&line), "line {line}"),
        Err(error) => panic!("token list failed with a non-parse error: {error}"),
    }
}
