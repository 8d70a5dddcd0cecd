//! Baseline files and allowlist rules: no panic; a baseline that reads
//! writes back to text that reads as the same baseline; errors name the
//! file; an allowlist that compiles answers any pair of names, the same
//! way in either order.

use std::path::Path;

use super::{Choices, ShortReads};
use crate::Error;
use crate::jobs::scan::allowlist::{Allowlist, Rule};
use crate::report::baseline::Baseline;

/// A baseline file read in short reads of any size.
pub fn baseline(data: &[u8]) {
    let mut choices = Choices::new(data);
    let seed = choices.byte();
    let longest = 1 + usize::from(choices.byte());
    let file = choices.rest();
    match Baseline::read(ShortReads::new(file, seed, longest), "b.txt") {
        Ok(baseline) => {
            let mut written = Vec::new();
            baseline.write(&mut written).expect("writing to memory");
            let again = Baseline::read(&written[..], "again")
                .unwrap_or_else(|error| panic!("what write wrote does not read: {error}"));
            assert_eq!(again, baseline, "a baseline changed on a round trip");
        }
        Err(Error::Usage(message)) => assert!(message.starts_with("b.txt:"), "{message}"),
        Err(error) => assert!(error.to_string().contains("b.txt"), "{error}"),
    }
}

/// Allowlist globs, one rule a line (a line with a tab is a pair rule,
/// one without a group of space-separated globs), then names to match.
pub fn allowlist(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let (rules_text, names_text) = text.split_once("\n\n").unwrap_or((&text, ""));
    let rules: Vec<Rule> = rules_text
        .lines()
        .map(|line| match line.split_once('\t') {
            Some((a, b)) => Rule::Pair(a.to_string(), b.to_string()),
            None => Rule::Group(line.split(' ').map(str::to_string).collect()),
        })
        .collect();
    let Ok(allowlist) = Allowlist::new(&rules, Path::new("root"), Path::new("/cwd")) else {
        return;
    };
    let names: Vec<&str> = names_text.lines().collect();
    for a in &names {
        for b in &names {
            assert_eq!(
                allowlist.accepts(a, b),
                allowlist.accepts(b, a),
                "acceptance depends on the order of {a:?} and {b:?}"
            );
        }
    }
}
