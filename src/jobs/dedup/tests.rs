//! dedup's answer is the greedy one: record i is kept iff no record kept
//! before it is its near-duplicate by the scan's rule (the same features;
//! two short texts at least the threshold by character pairs, at any
//! distance; any other pair within k bits and at least the threshold), as
//! brute force over every earlier kept record finds it.

use proptest::prelude::*;

use super::*;
use crate::fingerprint::{Fingerprint, jaccard};
use crate::input::RecordFormat;
use crate::jobs::scan::ShortTexts;
use crate::test_words::with_near_copies;

/// Lines: originals (short, or longer than a short text) and copies with a
/// few words replaced, exact copies, and lines without features, shuffled
/// by a seed.
fn corpus() -> impl Strategy<Value = Vec<String>> {
    (
        proptest::collection::vec((any::<u64>(), 2usize..70, 0usize..4, 0usize..4), 1..10),
        any::<u64>(),
    )
        .prop_map(|(specs, order)| {
            let mut lines = Vec::new();
            for (seed, len, copies, edits) in specs {
                let documents = with_near_copies(seed, len, copies, edits);
                let original = documents[0].clone();
                lines.extend(documents);
                if seed % 5 == 0 {
                    lines.push(original.clone());
                }
                if seed % 7 == 0 {
                    lines.push(String::new());
                }
                // The same words, too widely spaced to be a short text:
                // a text measured by words beside its short twins.
                if seed % 3 == 0 {
                    lines.push(
                        original
                            .split(' ')
                            .collect::<Vec<_>>()
                            .join(&" ".repeat(60)),
                    );
                }
            }
            // A deterministic shuffle, so copies come before originals too.
            let mut state = order | 1;
            for i in (1..lines.len()).rev() {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                lines.swap(i, (state % (i as u64 + 1)) as usize);
            }
            lines
        })
}

/// What a run wrote: kept lines, and `(dropped line, kept line)`.
#[derive(Default)]
struct Collected {
    kept: Vec<Vec<u8>>,
    dropped: Vec<(u64, u64, f64)>,
    flushes: usize,
}

impl Output for Collected {
    fn kept(&mut self, raw: &[u8]) -> crate::Result<()> {
        self.kept.push(raw.to_vec());
        Ok(())
    }

    fn dropped(
        &mut self,
        _raw: &[u8],
        record: &RecordName,
        kept: &RecordName,
        jaccard: f64,
    ) -> crate::Result<()> {
        self.dropped.push((record.line, kept.line, jaccard));
        Ok(())
    }

    fn flush(&mut self) -> crate::Result<()> {
        self.flushes += 1;
        Ok(())
    }
}

fn run(input: &[u8], options: &DedupOptions, block_bytes: usize) -> (Collected, DedupStats) {
    let records = RecordOptions::default();
    let blocks = RecordBlocks::with_block_bytes(input, "stdin", &records, block_bytes);
    let mut out = Collected::default();
    let mut diag = Diagnostics::new(false);
    let stats = dedup_blocks(blocks, &records, options, &mut out, &mut diag).unwrap();
    assert!(!diag.errored());
    (out, stats)
}

/// The brute-force greedy answer: kept line numbers and `(dropped line,
/// kept line)`.
fn reference(lines: &[String], threshold: f64, k: u32) -> (Vec<u64>, Vec<(u64, u64)>) {
    let order: Vec<usize> = (0..lines.len()).collect();
    reference_in(lines, &order, threshold, k)
}

/// The same, deciding the records in `order` (indices); kept lines
/// ascending, dropped pairs by dropped line.
fn reference_in(
    lines: &[String],
    order: &[usize],
    threshold: f64,
    k: u32,
) -> (Vec<u64>, Vec<(u64, u64)>) {
    reference_radii(lines, order, threshold, &|_| k, &|_| k)
}

/// The same at radii that narrow: two records that are not short texts
/// within `words_radius(j)`, j counting such records with features (from
/// 1, in `order`); a short text and another within `mixed_radius(j)`, j
/// counting every record with features.
fn reference_radii(
    lines: &[String],
    order: &[usize],
    threshold: f64,
    words_radius: &dyn Fn(u64) -> u32,
    mixed_radius: &dyn Fn(u64) -> u32,
) -> (Vec<u64>, Vec<(u64, u64)>) {
    let (mut searched, mut searched_long) = (0u64, 0u64);
    let fingerprinter = Fingerprinter::new(FeatureOptions::default());
    let short = ShortTexts::new(&FeatureOptions::default());
    struct Held {
        line: u64,
        words: Fingerprint,
        set: Vec<u64>,
        short: Option<Vec<u64>>,
    }
    let mut held: Vec<Held> = Vec::new();
    let (mut kept, mut dropped) = (Vec::new(), Vec::new());
    for &index in order {
        let text = &lines[index];
        let line = index as u64 + 1;
        let bytes = text.as_bytes();
        let words = fingerprinter.fingerprint_bytes(bytes);
        if words.features == 0 {
            kept.push(line);
            continue;
        }
        let set = fingerprinter.feature_set_bytes(bytes);
        let short = short
            .fingerprint(bytes)
            .map(|_| short.feature_set_reader(bytes).unwrap());
        searched += 1;
        // The radius between records that are not short texts is planned
        // on them alone.
        if short.is_none() {
            searched_long += 1;
        }
        let k_words = words_radius(searched_long);
        let k_mixed = mixed_radius(searched);
        // The earliest held record it is near; the same features measured
        // the same way (both short texts, or neither) are at Jaccard 1.
        let near = held.iter().find(|other| {
            let same = other.words.feature_digest == words.feature_digest
                && other.short.is_some() == short.is_some();
            same || match (&short, &other.short) {
                (Some(our_set), Some(their_set)) => jaccard(our_set, their_set) >= threshold,
                (ours, theirs) => {
                    let k = if ours.is_none() && theirs.is_none() {
                        k_words
                    } else {
                        k_mixed
                    };
                    (words.simhash ^ other.words.simhash).count_ones() <= k
                        && jaccard(&set, &other.set) >= threshold
                }
            }
        });
        match near {
            Some(other) => dropped.push((line, other.line)),
            None => {
                kept.push(line);
                held.push(Held {
                    line,
                    words,
                    set,
                    short,
                });
            }
        }
    }
    kept.sort_unstable();
    dropped.sort_unstable();
    (kept, dropped)
}

/// Whether a run wrote what the reference decided: the kept lines, and
/// each dropped line with the kept one it matched.
fn same_as_reference(
    out: &Collected,
    lines: &[String],
    (kept, dropped): (Vec<u64>, Vec<(u64, u64)>),
) -> Result<(), TestCaseError> {
    let kept_lines: Vec<Vec<u8>> = kept
        .iter()
        .map(|&line| lines[line as usize - 1].as_bytes().to_vec())
        .collect();
    prop_assert_eq!(&out.kept, &kept_lines);
    let pairs: Vec<(u64, u64)> = out.dropped.iter().map(|&(a, b, _)| (a, b)).collect();
    prop_assert_eq!(&pairs, &dropped);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn dedup_keeps_what_brute_force_keeps(
        lines in corpus(),
        threshold in prop_oneof![Just(0.8), Just(0.6), 0.3f64..0.95],
        k in prop_oneof![Just(6u32), Just(32u32), 0u32..32],
        block_bytes in prop_oneof![Just(1usize), Just(64), Just(1 << 20)],
    ) {
        let input: Vec<u8> = lines.iter().flat_map(|line| format!("{line}\n").into_bytes()).collect();
        let options = DedupOptions { threshold, max_distance: Some(k), ..DedupOptions::default() };
        let (out, stats) = run(&input, &options, block_bytes);
        same_as_reference(&out, &lines, reference(&lines, threshold, k))?;
        prop_assert!(out.dropped.iter().all(|&(_, _, j)| j >= threshold && j <= 1.0));
        prop_assert_eq!(stats.read, lines.len() as u64);
        prop_assert_eq!(stats.kept + stats.dropped, stats.read);
        prop_assert!(out.flushes >= 1);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// Records of a file: kept texts past the first few bytes are read
    /// from the file again, not spooled; the same answer.
    #[test]
    fn dedup_of_a_file_keeps_what_brute_force_keeps(
        lines in corpus(),
        threshold in prop_oneof![Just(0.8), 0.3f64..0.95],
        k in prop_oneof![Just(6u32), Just(32u32), 0u32..32],
    ) {
        let input: Vec<u8> = lines.iter().flat_map(|line| format!("{line}\n").into_bytes()).collect();
        let mut file = tempfile::NamedTempFile::new().unwrap();
        std::io::Write::write_all(&mut file, &input).unwrap();
        let options = DedupOptions { threshold, max_distance: Some(k), ..DedupOptions::default() };
        let mut out = Collected::default();
        let mut diag = Diagnostics::new(false);
        let records = RecordOptions::default();
        let stats = dedup_path(Some(file.path()), &records, &options, &mut out, &mut diag).unwrap();
        same_as_reference(&out, &lines, reference(&lines, threshold, k))?;
        prop_assert_eq!(stats.kept + stats.dropped, lines.len() as u64);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Radii that narrow as the records come (the cost model's, here
    /// scripted) are each record's own, counted in input order: the
    /// answer is the greedy one at those radii, whatever the blocks. The
    /// radius between records that are not short texts counts those
    /// alone; the one between a short text and another counts them all.
    #[test]
    fn a_narrowing_radius_is_each_records_own_whatever_the_blocks(
        lines in corpus(),
        first in 8u32..33,
        narrowing in proptest::collection::vec(0u32..33, 0..4),
        first_mixed in 0u32..33,
        narrowing_mixed in proptest::collection::vec(0u32..33, 0..4),
        block_bytes in prop_oneof![Just(1usize), Just(64), Just(1 << 20)],
    ) {
        let input: Vec<u8> = lines.iter().flat_map(|line| format!("{line}\n").into_bytes()).collect();
        let options = DedupOptions::default();
        let records = RecordOptions::default();
        let blocks = RecordBlocks::with_block_bytes(&input[..], "stdin", &records, block_bytes);
        let mut out = Collected::default();
        let mut diag = Diagnostics::new(false);
        let mut radii = Radii::for_options(&options);
        radii.words = plan::RadiusPlan::scripted(first, &narrowing);
        radii.mixed = plan::RadiusPlan::scripted(first_mixed, &narrowing_mixed);
        let stats =
            dedup_blocks_with_radii(blocks, &records, &options, radii, None, &mut out, &mut diag).unwrap();
        // The radius after the c-th record it counts, c = 16, 32, ...
        let scripted = |first: u32, narrowing: &[u32], j: u64| {
            let mut k = first;
            let mut checkpoint = plan::FIRST_CHECKPOINT;
            for &next in narrowing {
                if checkpoint >= j {
                    break;
                }
                k = k.min(next);
                checkpoint *= 2;
            }
            k
        };
        let radius = |j: u64| scripted(first, &narrowing, j);
        let mixed = |j: u64| scripted(first_mixed, &narrowing_mixed, j);
        let order: Vec<usize> = (0..lines.len()).collect();
        same_as_reference(&out, &lines, reference_radii(&lines, &order, 0.8, &radius, &mixed))?;
        let short = ShortTexts::new(&FeatureOptions::default());
        let searched = lines.iter().filter(|line| {
            Fingerprinter::new(FeatureOptions::default()).fingerprint_bytes(line.as_bytes()).features > 0
                && short.fingerprint(line.as_bytes()).is_none()
        }).count() as u64;
        prop_assert_eq!(stats.max_distance, radius(searched + 1));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// The radius of short texts searched by fingerprint (the join given
    /// up) narrows as the records come, counted in input order: the
    /// answer does not depend on the blocks.
    #[test]
    fn a_narrowing_short_text_radius_gives_the_same_answer_whatever_the_blocks(
        // Enough short texts to pass a checkpoint or two.
        lines in (corpus(), corpus(), corpus(), corpus())
            .prop_map(|(a, b, c, d)| [a, b, c, d].concat()),
        base in 0u64..300,
        first in 8u32..33,
        narrowing in proptest::collection::vec(0u32..33, 0..4),
    ) {
        let input: Vec<u8> = lines.iter().flat_map(|line| format!("{line}\n").into_bytes()).collect();
        let join_budget = JoinBudget { base, per_short_text: 0 };
        let options = DedupOptions {
            join_budget,
            short_text_search: ShortTextSearch::Fingerprint,
            ..DedupOptions::default()
        };
        let records = RecordOptions::default();
        let run = |block_bytes: usize| {
            let blocks = RecordBlocks::with_block_bytes(&input[..], "stdin", &records, block_bytes);
            let mut out = Collected::default();
            let mut diag = Diagnostics::new(false);
            let mut radii = Radii::for_options(&options);
            radii.chars = plan::RadiusPlan::scripted(first, &narrowing);
            let stats = dedup_blocks_with_radii(blocks, &records, &options, radii, None, &mut out, &mut diag)
                .unwrap();
            (out, stats)
        };
        let (whole, stats) = run(1 << 20);
        prop_assert!(stats.chars_distance <= first);
        for block_bytes in [1, 64] {
            let (cut, cut_stats) = run(block_bytes);
            prop_assert_eq!(&cut.kept, &whole.kept);
            prop_assert_eq!(&cut.dropped, &whole.dropped);
            prop_assert_eq!(cut_stats.chars_distance, stats.chars_distance);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Past the exact join, short texts found by their MinHash bands, then
    /// (past the bands' budget) by a join on their rarest pair and by
    /// fingerprint, then (past its budget) by fingerprint alone: the
    /// answer and where each stage ended do not depend on the blocks, and
    /// every drop is a pair at the threshold with a record kept before it.
    #[test]
    fn bands_past_the_join_drop_only_pairs_at_the_threshold_whatever_the_blocks(
        lines in corpus(),
        base in prop_oneof![0u64..300, 0u64..8],
        bands in prop_oneof![Just(u64::MAX), 0u64..100, 0u64..8],
    ) {
        let input: Vec<u8> = lines.iter().flat_map(|line| format!("{line}\n").into_bytes()).collect();
        let join_budget = JoinBudget { base, per_short_text: 0 };
        let bands_budget = JoinBudget { base: bands, per_short_text: 0 };
        let options = DedupOptions { join_budget, bands_budget, ..DedupOptions::default() };
        let (whole, stats) = run(&input, &options, 1 << 20);
        for block_bytes in [1, 64] {
            let (cut, cut_stats) = run(&input, &options, block_bytes);
            prop_assert_eq!(&cut.kept, &whole.kept);
            prop_assert_eq!(&cut.dropped, &whole.dropped);
            prop_assert_eq!(cut_stats.short_texts_by_bands, stats.short_texts_by_bands);
            prop_assert_eq!(cut_stats.bands_ended, stats.bands_ended);
            prop_assert_eq!(&cut_stats.join_stage_ends, &stats.join_stage_ends);
        }
        let short = ShortTexts::new(&FeatureOptions::default());
        let fingerprinter = Fingerprinter::new(FeatureOptions::default());
        let chars = |line: u64| {
            let bytes = lines[line as usize - 1].as_bytes();
            short.fingerprint(bytes).map(|_| short.feature_set_reader(bytes).unwrap())
        };
        let words = |line: u64| fingerprinter.feature_set_bytes(lines[line as usize - 1].as_bytes());
        for &(dropped, kept, reported) in &whole.dropped {
            prop_assert!(kept < dropped);
            let exact = match (chars(dropped), chars(kept)) {
                (Some(ours), Some(theirs)) => jaccard(&ours, &theirs),
                _ => jaccard(&words(dropped), &words(kept)),
            };
            prop_assert!(exact >= 0.8, "{} {} {}", dropped, kept, exact);
            prop_assert!((exact - reported).abs() < 1e-9, "{} {} {} {}", dropped, kept, exact, reported);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Where the join of short texts is reordered (every few kept texts in
    /// tests) or given up (a small budget) does not depend on how the
    /// stream is cut into blocks, so neither does the answer.
    #[test]
    fn the_join_gives_the_same_answer_whatever_the_blocks(
        lines in corpus(),
        base in prop_oneof![Just(u64::MAX), 0u64..300],
        k in prop_oneof![Just(6u32), Just(32u32)],
    ) {
        let input: Vec<u8> = lines.iter().flat_map(|line| format!("{line}\n").into_bytes()).collect();
        let join_budget = JoinBudget { base, per_short_text: 0 };
        let options = DedupOptions { max_distance: Some(k), join_budget, ..DedupOptions::default() };
        let (whole, stats) = run(&input, &options, 1 << 20);
        for block_bytes in [1, 64] {
            let (cut, cut_stats) = run(&input, &options, block_bytes);
            prop_assert_eq!(&cut.kept, &whole.kept);
            prop_assert_eq!(&cut.dropped, &whole.dropped);
            prop_assert_eq!(&cut_stats.join_stage_ends, &stats.join_stage_ends);
        }
        if base == u64::MAX {
            prop_assert!(stats.join_stage_ends.is_empty());
            let (kept, _) = reference(&lines, 0.8, k);
            prop_assert_eq!(whole.kept.len(), kept.len());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn every_policy_is_the_greedy_answer_in_its_order(
        lines in corpus(),
        keep in prop_oneof![Just(Keep::Last), Just(Keep::Longest), Just(Keep::Shortest)],
        given in prop_oneof![Just(None), Just(Some(6u32)), Just(Some(32u32))],
    ) {
        let input: Vec<u8> = lines.iter().flat_map(|line| format!("{line}\n").into_bytes()).collect();
        let options = DedupOptions { keep, max_distance: given, ..DedupOptions::default() };
        // Without a k, so few records keep the widest radius.
        let k = given.unwrap_or(crate::jobs::scan::radius::widest(0.8));
        let (out, stats) = run(&input, &options, 64);
        let mut order: Vec<usize> = (0..lines.len()).collect();
        match keep {
            Keep::Last => order.reverse(),
            Keep::Longest => order.sort_by_key(|&i| (std::cmp::Reverse(lines[i].len()), i)),
            Keep::Shortest => order.sort_by_key(|&i| (lines[i].len(), i)),
            Keep::First => {}
        }
        same_as_reference(&out, &lines, reference_in(&lines, &order, 0.8, k))?;
        prop_assert_eq!(stats.kept + stats.dropped, stats.read);
    }
}

#[test]
fn a_gathered_record_is_measured_as_a_streamed_one() {
    // Short lines, long lines (over 256 characters), a short line with no
    // features, and near-copies of each kind.
    let long =
        |seed: usize| -> String { (0..60).map(|i| format!("word{} ", i * 7 + seed)).collect() };
    let lines = [
        "One Stop Bakery, 1304 High St Rd, Wantirna".to_string(),
        long(1),
        "!!! ???".to_string(),
        "One Stop Bakery, 1304 High Street Rd, Wantirna".to_string(),
        format!("{} word999", long(1)),
        long(2),
    ];
    let input: Vec<u8> = lines
        .iter()
        .flat_map(|line| format!("{line}\n").into_bytes())
        .collect();
    let (first_out, first) = run(&input, &DedupOptions::default(), 64);
    let options = DedupOptions {
        keep: Keep::Last,
        ..DedupOptions::default()
    };
    let (last_out, last) = run(&input, &options, 64);
    assert_eq!(first.long_texts, 3);
    assert_eq!(
        (last.long_texts, last.empty, last.dropped),
        (first.long_texts, first.empty, first.dropped)
    );
    assert_eq!((first_out.dropped.len(), last_out.dropped.len()), (2, 2));
}

#[test]
fn records_come_out_byte_for_byte() {
    let input = b"caf\xe9 au lait\r\ncaf\xe9 au lait\n\xff\xfe\n\xff\xfe\nlast without newline";
    let (out, stats) = run(input, &DedupOptions::default(), 1 << 20);
    assert_eq!(
        out.kept,
        [
            b"caf\xe9 au lait\r".to_vec(),
            b"\xff\xfe".to_vec(),
            b"\xff\xfe".to_vec(),
            b"last without newline".to_vec(),
        ]
    );
    // The `\r` is whitespace to the features: the second line is a copy.
    // The bytes `ff fe` have no features, so both are kept.
    assert_eq!(out.dropped.len(), 1);
    assert_eq!((out.dropped[0].0, out.dropped[0].1), (2, 1));
    assert_eq!(stats.empty, 2);
}

#[test]
fn identical_records_cost_nothing_more() {
    let input = "the same line of text, again\n".repeat(20_000);
    let (out, stats) = run(input.as_bytes(), &DedupOptions::default(), 4096);
    assert_eq!(out.kept.len(), 1);
    assert_eq!(stats.dropped, 19_999);
    assert_eq!(stats.candidates, 0, "copies are dropped without a search");
    assert!(out.flushes > 1, "each block is flushed");
}

#[test]
fn malformed_records_are_counted_and_the_stream_goes_on() {
    let records = RecordOptions {
        format: RecordFormat::JsonLines,
        id_field: Some("id".to_string()),
        ..RecordOptions::default()
    };
    let input = br#"{"id": "a", "text": "one stop bakery high street"}
not json
{"id": "b", "text": "One Stop Bakery, High Street"}
{"id": "c"}
{"id": "d", "text": "something else entirely"}
"#;
    let run = |strict| {
        let mut out = Collected::default();
        let mut diag = Diagnostics::new(false);
        let options = DedupOptions {
            strict,
            ..DedupOptions::default()
        };
        let ended = dedup_records(&input[..], "stdin", &records, &options, &mut out, &mut diag);
        (out, ended, diag.errored())
    };
    let (out, ended, errored) = run(false);
    let stats = ended.unwrap();
    assert!(errored);
    assert_eq!(
        (stats.read, stats.kept, stats.dropped, stats.malformed),
        (5, 2, 1, 2)
    );
    assert_eq!(out.kept.len(), 2);
    assert!(out.kept[1].starts_with(br#"{"id": "d""#));
    assert_eq!((out.dropped[0].0, out.dropped[0].1), (3, 1));
    let (out, ended, _) = run(true);
    let error = ended.unwrap_err().to_string();
    assert!(error.starts_with("stdin:2: invalid JSON"), "{error}");
    assert_eq!(out.kept.len(), 1);
}

/// What a files run wrote: kept paths, and `(dropped path, kept path,
/// Jaccard)`.
#[derive(Default)]
struct Paths {
    kept: Vec<String>,
    dropped: Vec<(String, String, f64)>,
}

impl Output for Paths {
    fn kept(&mut self, raw: &[u8]) -> crate::Result<()> {
        self.kept.push(String::from_utf8_lossy(raw).into_owned());
        Ok(())
    }

    fn dropped(
        &mut self,
        raw: &[u8],
        _record: &RecordName,
        kept: &RecordName,
        jaccard: f64,
    ) -> crate::Result<()> {
        let kept = kept.id.clone().unwrap_or_default();
        self.dropped
            .push((String::from_utf8_lossy(raw).into_owned(), kept, jaccard));
        Ok(())
    }

    fn flush(&mut self) -> crate::Result<()> {
        Ok(())
    }
}

/// The scan options dedup's answer is compared with: the defaults, at
/// `threshold` and radius `k` (the cost model's when `None`), groups led
/// by their first member.
fn scan_options(threshold: f64, k: Option<u32>) -> crate::jobs::scan::ScanOptions {
    use crate::jobs::scan::{GroupBy, Mode, ScanOptions, ShortTextSearch};
    ScanOptions {
        features: FeatureOptions::default(),
        walk: crate::input::WalkOptions::default(),
        mode: Mode::Verified {
            threshold,
            group_by: GroupBy::First,
        },
        max_distance: k,
        method: crate::search::Method::Exact,
        join: false,
        window: crate::search::DEFAULT_WINDOW,
        max_pairs: u64::MAX,
        max_candidates: crate::jobs::scan::MAX_CANDIDATES,
        min_features: 1,
        short_texts: true,
        short_text_search: ShortTextSearch::Auto,
        progress: false,
        cache: None,
        record_texts: None,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// dedup removes what scan calls near-duplicates: each file dropped
    /// forms a pair scan lists with the kept file it matched (same
    /// Jaccard), and scan lists no pair of two kept files; scan's groups
    /// led by their first member are the kept files with those dropped
    /// for them. Without a k, both take the cost model's (the same for a
    /// small corpus).
    #[test]
    fn dedup_agrees_with_scan(
        lines in corpus(),
        threshold in prop_oneof![Just(0.8), Just(0.6)],
        k in prop_oneof![Just(None), Just(Some(6u32)), Just(Some(32u32))],
    ) {
        use crate::jobs::scan::{Inputs, scan};
        let dir = tempfile::tempdir().unwrap();
        for (i, line) in lines.iter().enumerate() {
            std::fs::write(dir.path().join(format!("{i:03}.txt")), line).unwrap();
        }
        let scanned = scan(
            &Inputs::Paths(vec![dir.path().to_path_buf()]),
            &scan_options(threshold, k),
            &mut Diagnostics::new(false),
        )
        .unwrap();
        let pairs: std::collections::HashMap<(String, String), f64> = scanned
            .pairs
            .iter()
            .map(|pair| ((scanned.name(pair.a), scanned.name(pair.b)), pair.jaccard.unwrap()))
            .collect();
        let mut out = Paths::default();
        let options = DedupOptions { threshold, max_distance: k, ..DedupOptions::default() };
        let files = Files::Paths(vec![dir.path().to_path_buf()]);
        let stats = dedup_files(&files, &crate::input::WalkOptions::default(), &options, &mut out, &mut Diagnostics::new(false)).unwrap();
        prop_assert_eq!(stats.kept + stats.dropped, lines.len() as u64);
        for (dropped, kept, jaccard) in &out.dropped {
            // Walk order is name order: the kept file comes first.
            let listed = pairs.get(&(kept.clone(), dropped.clone()));
            prop_assert_eq!(listed, Some(jaccard), "{} for {}", dropped, kept);
        }
        for (i, a) in out.kept.iter().enumerate() {
            for b in &out.kept[i + 1..] {
                prop_assert!(!pairs.contains_key(&(a.clone(), b.clone())), "{} {}", a, b);
            }
        }
        let groups: Vec<Vec<String>> = scanned
            .groups
            .iter()
            .map(|group| group.members.iter().map(|&id| scanned.name(id)).collect())
            .collect();
        let mut led: Vec<Vec<String>> = out
            .kept
            .iter()
            .map(|kept| {
                let mut group = vec![kept.clone()];
                group.extend(
                    out.dropped
                        .iter()
                        .filter(|(_, by, _)| by == kept)
                        .map(|(dropped, _, _)| dropped.clone()),
                );
                group.sort();
                group
            })
            .filter(|group| group.len() > 1)
            .collect();
        led.sort();
        prop_assert_eq!(groups, led);
    }
}

#[test]
fn thresholds_outside_zero_to_one_are_usage_errors_not_panics() {
    let records = RecordOptions::default();
    for threshold in [0.0, -0.5, 1.5, f64::NAN] {
        let options = DedupOptions {
            threshold,
            ..DedupOptions::default()
        };
        let mut out = Collected::default();
        let mut diag = Diagnostics::new(false);
        let ended = dedup_records(
            &b"abc def\nabc deg\n"[..],
            "stdin",
            &records,
            &options,
            &mut out,
            &mut diag,
        );
        assert!(
            matches!(ended, Err(crate::Error::Usage(_))),
            "{threshold}: {ended:?}"
        );
        assert!(out.kept.is_empty());
    }
}

/// Two records that are not short texts are searched within the radius
/// planned on such records; a short text and another within the radius
/// planned on them all, whichever comes first.
#[test]
fn each_kind_of_pair_is_searched_within_its_own_radius() {
    let words = |count: usize| -> String {
        (0..count)
            .map(|i| format!("w{i:03}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    // 52 words (259 characters) are no short text; 51 (254) are one.
    let (long, longer, short) = (words(52), words(53), words(51));
    let fingerprinter = Fingerprinter::new(FeatureOptions::default());
    let simhash = |text: &str| fingerprinter.fingerprint_bytes(text.as_bytes()).simhash;
    let apart = |a: &str, b: &str| (simhash(a) ^ simhash(b)).count_ones();
    assert!(apart(&long, &short) > 0 && apart(&long, &longer) > 0);
    let dropped = |first: &str, second: &str, words: u32, mixed: u32| {
        let input = format!("{first}\n{second}\n");
        let options = DedupOptions::default();
        let records = RecordOptions::default();
        let blocks = RecordBlocks::with_block_bytes(input.as_bytes(), "stdin", &records, 1 << 20);
        let mut radii = Radii::for_options(&options);
        radii.words = plan::RadiusPlan::fixed(words);
        radii.mixed = plan::RadiusPlan::fixed(mixed);
        let mut out = Collected::default();
        let mut diag = Diagnostics::new(false);
        dedup_blocks_with_radii(blocks, &records, &options, radii, None, &mut out, &mut diag)
            .unwrap();
        out.dropped.len()
    };
    for (first, second) in [(&long, &short), (&short, &long)] {
        assert_eq!(dropped(first, second, 64, 0), 0);
        assert_eq!(dropped(first, second, 0, 64), 1);
    }
    assert_eq!(dropped(&long, &longer, 64, 0), 1);
    assert_eq!(dropped(&long, &longer, 0, 64), 0);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// Records: what dedup keeps is what `scan --group-by first` leaves as
    /// the first members of its groups plus the records in no group, in
    /// input order, and each record dropped is in the group of the record
    /// it names (the same options, the same radius).
    #[test]
    fn dedup_keeps_the_first_members_of_scans_groups(
        lines in corpus(),
        threshold in prop_oneof![Just(0.8), Just(0.6)],
        k in prop_oneof![Just(6u32), Just(20u32)],
    ) {
        use crate::jobs::scan::{Inputs, scan};
        let file = tempfile::NamedTempFile::new().unwrap();
        let input = lines.iter().map(|line| format!("{line}\n")).collect::<String>();
        std::fs::write(file.path(), &input).unwrap();
        let scanned = scan(
            &Inputs::Records {
                options: RecordOptions::default(),
                file: Some(file.path().to_path_buf()),
            },
            &scan_options(threshold, Some(k)),
            &mut Diagnostics::new(false),
        )
        .unwrap();
        let line = |id: u32| -> u64 { scanned.name(id).parse().unwrap() };
        let mut led: Vec<(u64, u64)> = scanned
            .groups
            .iter()
            .flat_map(|group| {
                let first = line(group.members[0]);
                group.members[1..].iter().map(move |&member| (line(member), first))
            })
            .collect();
        led.sort_unstable();
        let options = DedupOptions { threshold, max_distance: Some(k), ..DedupOptions::default() };
        let (out, stats) = run(input.as_bytes(), &options, 1 << 20);
        let dropped: Vec<(u64, u64)> = out.dropped.iter().map(|&(a, b, _)| (a, b)).collect();
        prop_assert_eq!(&dropped, &led);
        let dropped_lines: std::collections::HashSet<u64> = led.iter().map(|&(a, _)| a).collect();
        let kept: Vec<Vec<u8>> = lines
            .iter()
            .enumerate()
            .filter(|(index, _)| !dropped_lines.contains(&(*index as u64 + 1)))
            .map(|(_, line)| line.as_bytes().to_vec())
            .collect();
        prop_assert_eq!(&out.kept, &kept);
        prop_assert_eq!(stats.kept + stats.dropped, lines.len() as u64);
    }
}
