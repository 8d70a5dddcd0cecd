//! Word documents for tests: a small vocabulary and a deterministic
//! generator, shared by the scan's and dedup's property tests.

/// The vocabulary of generated documents.
pub(crate) const WORDS: [&str; 24] = [
    "the", "of", "river", "garden", "winter", "letter", "station", "harbour", "lantern", "orchard",
    "valley", "market", "engine", "window", "bridge", "signal", "meadow", "copper", "thunder",
    "archive", "ledger", "compass", "quarry", "violet",
];

/// A document of `len` words drawn by a small generator (xorshift64) from
/// `seed`.
pub(crate) fn words(seed: u64, len: usize) -> Vec<&'static str> {
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            WORDS[(state % WORDS.len() as u64) as usize]
        })
        .collect()
}

/// A document of `len` words from `seed` followed by `copies` copies of
/// it, each with `edits` words replaced (different ones per copy), all
/// joined by spaces.
pub(crate) fn with_near_copies(seed: u64, len: usize, copies: usize, edits: usize) -> Vec<String> {
    let original = words(seed, len);
    let mut documents = vec![original.join(" ")];
    for copy in 0..copies {
        let mut edited = original.clone();
        let noise = words(seed ^ (copy as u64 + 1), edits);
        for (i, word) in noise.into_iter().enumerate() {
            let at = (i * 7 + copy * 3) % edited.len();
            edited[at] = word;
        }
        documents.push(edited.join(" "));
    }
    documents
}
