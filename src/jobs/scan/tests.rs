//! The scan's answer is exact: on small corpora with planted edits, the
//! verified pairs are exactly the pairs whose exact Jaccard reaches the
//! threshold, as brute force over every pair finds them.

use proptest::prelude::*;

use super::*;
use crate::fingerprint::jaccard;
use crate::test_words::{WORDS, with_near_copies, words};

/// A corpus: originals and copies with a few words replaced.
fn corpus() -> impl Strategy<Value = Vec<String>> {
    proptest::collection::vec((any::<u64>(), 20usize..80, 0usize..4, 0usize..12), 2..9).prop_map(
        |specs| {
            let mut docs = Vec::new();
            for (seed, len, copies, edits) in specs {
                docs.extend(with_near_copies(seed, len, copies, edits));
            }
            docs
        },
    )
}

fn scan_dir(dir: &std::path::Path, threshold: f64, max_distance: Option<u32>) -> Report {
    scan_dir_with(dir, threshold, max_distance, None, false)
}

/// A scan of `dir`; with `short_texts`, short texts are compared by
/// character pairs and found that way; with `join`, the other documents
/// by the exact join (`--method join`).
fn scan_dir_with(
    dir: &std::path::Path,
    threshold: f64,
    max_distance: Option<u32>,
    short_texts: Option<ShortTextSearch>,
    join: bool,
) -> Report {
    let options = ScanOptions {
        features: FeatureOptions::default(),
        walk: WalkOptions::default(),
        mode: Mode::Verified {
            threshold,
            group_by: Default::default(),
        },
        max_distance,
        method: Method::Exact,
        join,
        window: search::DEFAULT_WINDOW,
        max_pairs: u64::MAX,
        max_candidates: MAX_CANDIDATES,
        min_features: 1,
        short_texts: short_texts.is_some(),
        short_text_search: short_texts.unwrap_or(ShortTextSearch::Auto),
        progress: false,
        cache: None,
        record_texts: None,
    };
    let mut diag = Diagnostics::new(false);
    let report = scan(&Inputs::Paths(vec![dir.to_path_buf()]), &options, &mut diag).unwrap();
    assert!(!diag.errored());
    report
}

/// Every pair of documents at or above `threshold` whose fingerprints
/// differ in at most `max_distance` bits, by brute force: `(a, b, jaccard)`
/// with names as the scan gives them.
fn brute_force(
    names: &[String],
    texts: &[String],
    threshold: f64,
    max_distance: u32,
) -> Vec<(String, String, f64)> {
    let fingerprinter = Fingerprinter::new(FeatureOptions::default());
    let sets: Vec<Vec<u64>> = texts
        .iter()
        .map(|text| fingerprinter.feature_set_bytes(text.as_bytes()))
        .collect();
    let hashes: Vec<u64> = texts
        .iter()
        .map(|text| fingerprinter.fingerprint_bytes(text.as_bytes()).simhash)
        .collect();
    let mut pairs = Vec::new();
    for i in 0..texts.len() {
        for j in i + 1..texts.len() {
            let value = jaccard(&sets[i], &sets[j]);
            let distance = (hashes[i] ^ hashes[j]).count_ones();
            if value >= threshold && distance <= max_distance {
                pairs.push((names[i].clone(), names[j].clone(), value));
            }
        }
    }
    pairs
}

/// Writes `texts` to `dir` as 000.txt, 001.txt, ...; their names as the
/// scan gives them.
fn write_texts(dir: &std::path::Path, texts: &[String]) -> Vec<String> {
    let names: Vec<String> = (0..texts.len())
        .map(|i| dir.join(format!("{i:03}.txt")).display().to_string())
        .collect();
    for (name, text) in names.iter().zip(texts) {
        std::fs::write(name, text).unwrap();
    }
    names
}

/// The widest radius a scan accepts.
const MAX_K: u32 = search::MAX_DISTANCE;

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn verified_pairs_are_the_brute_force_pairs(
        texts in corpus(),
        threshold in prop_oneof![Just(0.8), Just(0.5), 0.3f64..0.95],
    ) {
        let dir = tempfile::tempdir().unwrap();
        let names = write_texts(dir.path(), &texts);
        // SimHash proposes, verification decides: the answer is exactly the
        // pairs within k whose Jaccard reaches the threshold. (Whether k
        // reaches every such pair is a matter of recall, tested apart: at a
        // low threshold a pair may differ in more than 32 bits.)
        let report = scan_dir(dir.path(), threshold, Some(MAX_K));
        let found = named_pairs(&report);
        let expected = brute_force(&names, &texts, threshold, MAX_K);
        prop_assert_eq!(&found, &expected);
        prop_assert_eq!(report.stats.pairs_found, expected.len() as u64);
        // Groups are the components of the verified pairs alone.
        let grouped: usize = report.groups.iter().map(|g| g.members.len()).sum();
        let mut in_pairs: Vec<&String> = expected.iter().flat_map(|p| [&p.0, &p.1]).collect();
        in_pairs.sort_unstable();
        in_pairs.dedup();
        prop_assert_eq!(grouped, in_pairs.len());
        for group in &report.groups {
            for &member in &group.members {
                prop_assert!(in_pairs.contains(&&report.name(member)));
            }
        }
    }
}

/// The pairs a scan listed, `(a, b, jaccard)` by name, sorted.
fn named_pairs(report: &Report) -> Vec<(String, String, f64)> {
    let mut found: Vec<(String, String, f64)> = report
        .pairs
        .iter()
        .map(|pair| {
            (
                report.name(pair.a),
                report.name(pair.b),
                pair.jaccard.unwrap(),
            )
        })
        .collect();
    found.sort_by(|x, y| (&x.0, &x.1).cmp(&(&y.0, &y.1)));
    found
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// The join has no radius: its pairs are those brute force finds at
    /// any distance, 64 bits included.
    #[test]
    fn joined_pairs_are_every_brute_force_pair(
        texts in corpus(),
        threshold in prop_oneof![Just(0.8), Just(0.5), 0.05f64..0.95],
    ) {
        let dir = tempfile::tempdir().unwrap();
        let names = write_texts(dir.path(), &texts);
        let report = scan_dir_with(dir.path(), threshold, None, None, true);
        let expected = brute_force(&names, &texts, threshold, u64::BITS);
        prop_assert_eq!(&named_pairs(&report), &expected);
        prop_assert_eq!(report.stats.pairs_found, expected.len() as u64);
        prop_assert_eq!(report.params.method.as_str(), "join");
        prop_assert_eq!(report.params.radius.chosen_by.as_deref(), Some(crate::report::JOINED));
    }
}

/// A corpus of one-line texts (short) and of several lines (long): names
/// and texts, written to `dir`.
fn mixed_corpus(
    dir: &std::path::Path,
    specs: &[(u64, usize, usize, bool)],
) -> (Vec<String>, Vec<String>) {
    let mut texts = Vec::new();
    for &(seed, len, copies, one_line) in specs {
        let original = words(seed, len);
        let join = |w: &[&str]| {
            if one_line {
                w.join(" ")
            } else {
                w.chunks(7)
                    .map(|c| c.join(" "))
                    .collect::<Vec<_>>()
                    .join("\n")
            }
        };
        texts.push(join(&original));
        for copy in 0..copies {
            let mut edited = original.clone();
            edited[(copy * 5) % len] = WORDS[(seed as usize + copy) % WORDS.len()];
            texts.push(join(&edited));
        }
    }
    let names = write_texts(dir, &texts);
    (names, texts)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// With the short-text rule, a pair of two one-line texts of at most
    /// 256 characters is judged by character pairs, any other pair by
    /// word 3-shingles, and the scan finds exactly those pairs: every pair
    /// of two short texts at the threshold whatever the radius when they
    /// are joined exactly, or within the radius of their character-pair
    /// fingerprints when searched by them (where their sketches turn most
    /// candidates away: none that reaches the threshold), or those that
    /// share a MinHash band when found by their bands, the others
    /// within the radius of their words.
    #[test]
    fn short_texts_are_judged_by_character_pairs(
        specs in proptest::collection::vec((any::<u64>(), 3usize..30, 0usize..4, any::<bool>()), 2..8),
        threshold in prop_oneof![Just(0.8), Just(0.6)],
        k in prop_oneof![Just(32u32), Just(0), Just(4), Just(12)],
        search in prop_oneof![
            Just(ShortTextSearch::Auto),
            Just(ShortTextSearch::Fingerprint),
            Just(ShortTextSearch::Bands),
        ],
    ) {
        let dir = tempfile::tempdir().unwrap();
        let (names, texts) = mixed_corpus(dir.path(), &specs);
        let report = scan_dir_with(dir.path(), threshold, Some(k), Some(search), false);
        let words = Fingerprinter::new(FeatureOptions::default());
        let short = super::short::ShortTexts::new(&FeatureOptions::default());
        let is_short = |text: &str| super::short::ShortTexts::is_short(text.as_bytes());
        let mut expected = Vec::new();
        for i in 0..texts.len() {
            for j in i + 1..texts.len() {
                let (a, b) = (texts[i].as_bytes(), texts[j].as_bytes());
                let (value, searched) = if is_short(&texts[i]) && is_short(&texts[j]) {
                    let within = match search {
                        ShortTextSearch::Fingerprint => {
                            let fingerprint =
                                |text| short.fingerprint(text).map_or(0, |print| print.simhash);
                            (fingerprint(a) ^ fingerprint(b)).count_ones() <= k
                        }
                        ShortTextSearch::Bands => {
                            let keys = |text| crate::verify::bands::band_keys(&short.feature_set(text));
                            let same = short.feature_set(a) == short.feature_set(b);
                            same || keys(a).iter().zip(&keys(b)).any(|(x, y)| x == y)
                        }
                        _ => true,
                    };
                    (jaccard(&short.feature_set(a), &short.feature_set(b)), within)
                } else {
                    let distance = (words.fingerprint_bytes(a).simhash
                        ^ words.fingerprint_bytes(b).simhash)
                        .count_ones();
                    let same = words.fingerprint_bytes(a).feature_digest
                        == words.fingerprint_bytes(b).feature_digest;
                    let value = jaccard(&words.feature_set_bytes(a), &words.feature_set_bytes(b));
                    (value, distance <= k || same)
                };
                if value >= threshold && searched {
                    expected.push((names[i].clone(), names[j].clone(), value));
                }
            }
        }
        let mut found: Vec<(String, String, f64)> = report
            .pairs
            .iter()
            .map(|pair| (report.name(pair.a), report.name(pair.b), pair.jaccard.unwrap()))
            .collect();
        found.sort_by(|x, y| (&x.0, &x.1).cmp(&(&y.0, &y.1)));
        prop_assert_eq!(&found, &expected);
        prop_assert_eq!(report.stats.pairs_found, expected.len() as u64);
    }
}

#[test]
fn listed_pairs_come_highest_jaccard_first_and_unrelated_never_chain() {
    let dir = tempfile::tempdir().unwrap();
    // Three documents sharing a boilerplate half, otherwise unrelated: raw
    // SimHash at a wide radius would chain them; verification must not.
    let boilerplate = words(99, 60).join(" ");
    for (i, seed) in [1u64, 2, 3].into_iter().enumerate() {
        let own = words(seed, 60).join(" ");
        std::fs::write(
            dir.path().join(format!("{i}.txt")),
            format!("{boilerplate} {own}"),
        )
        .unwrap();
    }
    let original = words(7, 200);
    let mut copy = original.clone();
    copy[100] = "edited";
    std::fs::write(dir.path().join("a.txt"), original.join(" ")).unwrap();
    std::fs::write(dir.path().join("b.txt"), copy.join(" ")).unwrap();
    std::fs::write(dir.path().join("c.txt"), original.join(" ")).unwrap();
    let report = scan_dir(dir.path(), 0.8, Some(32));
    let jaccards: Vec<f64> = report.pairs.iter().map(|p| p.jaccard.unwrap()).collect();
    assert_eq!(jaccards.len(), 3, "{:?}", report.pairs);
    assert_eq!(jaccards[0], 1.0);
    assert!(jaccards.windows(2).all(|w| w[0] >= w[1]), "{jaccards:?}");
    assert_eq!(report.groups.len(), 1);
    assert_eq!(report.groups[0].members.len(), 3);
    assert!(
        report.stats.below_threshold > 0,
        "the boilerplate pairs were candidates"
    );
}

#[test]
fn the_default_radius_reaches_the_recall_small_corpora_need() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..50u64 {
        std::fs::write(dir.path().join(format!("{i}.txt")), words(i, 300).join(" ")).unwrap();
    }
    let report = scan_dir(dir.path(), 0.8, None);
    assert_eq!(
        report.params.radius.chosen_by.as_deref(),
        Some("cost model")
    );
    assert!(report.params.radius.expected_recall.unwrap() >= 0.99);
    assert!(report.params.max_distance >= 16);
}
