//! Choosing the search radius: the widest k whose predicted cost (search
//! plus verification) fits a time budget tied to the fingerprinting time,
//! and the recall that k is expected to buy at the threshold.
//!
//! SimHash estimates the angle θ between two documents' feature vectors:
//! each of the 64 bits differs with probability θ/π (Charikar 2002). Two
//! sets of equal size with Jaccard J have cosine 2J / (1 + J), the lowest
//! cosine any pair with that Jaccard can have, so a pair exactly at the
//! threshold t differs in a Binomial(64, p) number of bits with
//! p = arccos(2t / (1 + t)) / π, and pairs above t differ in fewer. The
//! expected recall at the threshold is P(Binomial(64, p) <= k); docs/SEARCH.md
//! compares it with measured distances.
//!
//! Corpora of up to `SMALL_CORPUS` fingerprints always get at least the
//! radius of expected recall 0.999 (their verification costs seconds at
//! most); larger ones get what the budget buys.
//!
//! The cost of a radius is the search's predicted time plus verification:
//! reading again every document in a candidate pair and comparing the
//! sets of every candidate pair. Candidates are estimated from the
//! distances of a deterministic sample of fingerprint pairs, so skewed
//! corpora (shared boilerplate pulls unrelated fingerprints together) pay
//! for their skew before the search starts. Short texts' candidates
//! whose sketches show they cannot reach the threshold are turned away
//! before they are read, so for them only the sampled pairs that their
//! sketches let through are priced as verified.
//!
//! Every cost is in core-seconds of the reference machine (docs/SEARCH.md),
//! predicted from the input alone, never measured during the run: the same
//! input gets the same radius on any machine and with any thread count,
//! so the output stays byte-identical.

use crate::verify::sketch::Sketch;

/// Pairs of fingerprints sampled to estimate how many pairs lie within
/// each distance (all pairs below this many).
const SAMPLE_PAIRS: u64 = 1 << 21;

/// The budget never drops below this many core-seconds. Small corpora get
/// their recall from `SMALL_CORPUS` instead; a higher floor would let a
/// mid-sized corpus spend more than `BUDGET_SHARE` of its fingerprinting.
pub const MIN_BUDGET_SECONDS: f64 = 0.5;

/// The budget is this share of the predicted fingerprinting time. A
/// verified scan is to take at most 1.5 times as long as fingerprinting
/// alone; at 0.5 a radius that just fits lands exactly there, and the
/// prediction's error and the second pass's lower parallel efficiency
/// (verification 1.6x on 2 cores, where fingerprinting gets 1.65x) pushed
/// the measured ratio to 1.51. 0.4 leaves that margin.
pub const BUDGET_SHARE: f64 = 0.4;

/// Core-seconds to fingerprint one byte (words:3, xxh3: about 300 MB/s a
/// core) and to open and read one document, measured on the reference
/// machine (docs/PERFORMANCE.md): `simdup fingerprint -j 1` of the
/// generated 100,000-document tree (292 MB) takes 1.33 CPU seconds, and
/// the same text as one JSON Lines stream 1.02.
const FINGERPRINT_SECONDS_PER_BYTE: f64 = 1.0 / 300e6;
const SECONDS_PER_DOCUMENT: f64 = 3.5e-6;

/// Reading a document again for its feature set costs this many times
/// fingerprinting it, per document the model expects to be read again:
/// measured on the generated 100,000-document corpus at k = 12, one
/// thread, verification took 0.345 s for 33,751 expected rereads (20,700
/// real ones: candidates cluster) and 20,679 candidates, against 13.3 us a
/// document fingerprinted (the file is in the page cache by then).
const REREAD_FACTOR: f64 = 0.7;

/// Corpora with at most this many fingerprints to search always get the
/// radius that buys `SMALL_CORPUS_RECALL` at the threshold, whatever the
/// budget: their whole verification costs seconds at most.
pub const SMALL_CORPUS: usize = 20_000;

/// The expected recall at the threshold a small corpus always gets. The
/// model assumes equal set sizes; with tf weights and unequal sizes real
/// pairs lie a little further apart (debian-docs: measured recall 0.985
/// where the model expected 0.994), so small corpora get a margin.
pub const SMALL_CORPUS_RECALL: f64 = 0.999;

/// The least expected recall at the threshold a larger corpus gets when
/// the budget buys less: the budget share keeps a corpus of ordinary text
/// near 1.5 times its fingerprinting (the generated 100,000 documents get
/// k = 11, expected recall 0.743, measured 0.951), but one whose
/// documents crowd (versions of one project's files, man pages) prices
/// every radius higher, and on 45,510 real documents the budget bought
/// k = 5: expected recall 0.064, measured 0.620. k = 11 there took no more
/// time than k = 5 (docs/QUALITY.md, "A larger real corpus").
pub const FLOOR_RECALL: f64 = 0.7;

/// The floor's radius may cost up to this share of the predicted
/// fingerprinting time (where the budget is [`BUDGET_SHARE`] of it);
/// past that, the widest radius that costs no more.
pub const FLOOR_SHARE: f64 = 1.0;

/// No radius beyond the one whose expected recall reaches this.
const ENOUGH_RECALL: f64 = 0.9995;

/// Seconds to decide one candidate, per feature of a set: a merge step,
/// most merges stopping early (src/verify).
const SECONDS_PER_MERGE_STEP: f64 = 1e-9;

/// Seconds each candidate costs whatever its sets: emitted and sorted by
/// the search, placed in the candidate graph, batched and decided. Measured
/// on the short-records corpus (one-line texts, chars:2), where millions of
/// candidates dominate: from k = 14 to 15 each extra candidate cost about
/// 1.4 us of wall time on 2 threads.
const SECONDS_PER_CANDIDATE: f64 = 1.5e-6;

/// Seconds a candidate pair of short texts costs when its sketches turn
/// it away (src/verify/sketch.rs): emitted and sorted by the search, and
/// its two sketches compared, but neither text read again nor merged. On
/// 10^5 generated log lines (`KIND=logs benches/dedup.sh`), widening k
/// from 5 to 7 added 4.85 million pairs turned away and 0.45 million
/// verified for 1.8 CPU seconds, of which the search took about 0.25 and
/// the verified pairs 0.3: about 0.26 us a pair turned away. (Turning
/// them away took the scan at k = 7 from 4.8 to 2.5 CPU seconds.)
const SECONDS_PER_TURNED_AWAY: f64 = 0.3e-6;

/// What the cost model chose.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Radius {
    /// The search radius k.
    pub max_distance: u32,
    /// Expected share of the pairs exactly at the threshold that lie
    /// within k (pairs above the threshold are found more often).
    pub expected_recall: f64,
    /// Predicted core-seconds of search and verification at k.
    pub predicted_seconds: f64,
    /// The core-seconds k had to fit in.
    pub budget_seconds: f64,
}

/// What the cost model needs to know about a run: only the input, so the
/// choice is the same wherever the run happens.
#[derive(Clone, Debug)]
pub struct Workload<'a> {
    /// The fingerprints to search (one per class of identical documents),
    /// or a sample of them: their distances stand for all.
    pub fingerprints: &'a [u64],
    /// How many fingerprints are searched: `fingerprints.len()`, unless
    /// they are a sample.
    pub count: usize,
    /// How many of them are new: all, unless searched against a stored
    /// corpus (`scan --against`), where only pairs with a new one count.
    pub fresh: usize,
    /// Mean features per fingerprinted class (the size of a set to compare).
    pub mean_features: f64,
    /// Bytes fingerprinted.
    pub bytes: u64,
    /// Documents fingerprinted (in this run: not the stored ones).
    pub documents: u64,
    /// The sketches of `fingerprints`' sets, in the same order, when
    /// candidates are turned away by them (short texts): then only the
    /// sampled pairs whose sketches may reach the threshold are priced as
    /// verified.
    pub sketches: Option<&'a [Sketch]>,
}

impl Workload<'_> {
    /// Predicted core-seconds of fingerprinting the input.
    fn fingerprint_seconds(&self) -> f64 {
        self.bytes as f64 * FINGERPRINT_SECONDS_PER_BYTE
            + self.documents as f64 * SECONDS_PER_DOCUMENT
    }

    /// Core-seconds search and verification may take: a share of the
    /// predicted fingerprinting, at least [`MIN_BUDGET_SECONDS`].
    pub fn budget_seconds(&self) -> f64 {
        (self.fingerprint_seconds() * BUDGET_SHARE).max(MIN_BUDGET_SECONDS)
    }
}

/// The probability that one bit differs for a pair exactly at Jaccard
/// `threshold` (equal set sizes: the worst case).
pub fn bit_flip_probability(threshold: f64) -> f64 {
    let threshold = threshold.clamp(0.0, 1.0);
    let cosine = 2.0 * threshold / (1.0 + threshold);
    cosine.clamp(-1.0, 1.0).acos() / std::f64::consts::PI
}

/// P(Binomial(64, p(threshold)) <= k): the expected recall at the threshold.
pub fn expected_recall(threshold: f64, max_distance: u32) -> f64 {
    let p = bit_flip_probability(threshold);
    binomial_cdf(64, p, max_distance)
}

/// P(Binomial(n, p) <= k).
fn binomial_cdf(n: u32, p: f64, k: u32) -> f64 {
    if p <= 0.0 {
        return 1.0;
    }
    if p >= 1.0 {
        return if k >= n { 1.0 } else { 0.0 };
    }
    let mut term = (1.0 - p).powi(n as i32);
    let mut sum = term;
    for i in 0..k.min(n) {
        term *= f64::from(n - i) / f64::from(i + 1) * p / (1.0 - p);
        sum += term;
    }
    sum.min(1.0)
}

/// The widest radius ever chosen: the first whose expected recall at
/// `threshold` is near 1 (what a tiny corpus gets).
pub fn widest(threshold: f64) -> u32 {
    radius_for(threshold, ENOUGH_RECALL, crate::search::MAX_DISTANCE)
}

/// The least k up to `most` whose expected recall at `threshold` reaches
/// `recall`; `most` if none does.
fn radius_for(threshold: f64, recall: f64, most: u32) -> u32 {
    (0..=most)
        .find(|&k| expected_recall(threshold, k) >= recall)
        .unwrap_or(most)
}

/// The largest k whose predicted cost fits the budget, up to the k whose
/// expected recall is already near 1; for a small corpus, at least the k
/// of [`SMALL_CORPUS_RECALL`]; for a larger one, at least the k of
/// [`FLOOR_RECALL`] if it costs no more than [`FLOOR_SHARE`] of the
/// fingerprinting, else the widest that does (then its budget is the one
/// reported).
pub fn choose(workload: &Workload<'_>, threshold: f64) -> Radius {
    let small = workload.count <= SMALL_CORPUS;
    let chosen = choose_within(workload, threshold, workload.budget_seconds(), small);
    if small || chosen.expected_recall >= FLOOR_RECALL {
        return chosen;
    }
    let floor_budget = (workload.fingerprint_seconds() * FLOOR_SHARE).max(MIN_BUDGET_SECONDS);
    let widened = choose_within(workload, threshold, floor_budget, false);
    if widened.max_distance == chosen.max_distance {
        return chosen;
    }
    let floor = radius_for(threshold, FLOOR_RECALL, widest(threshold));
    if widened.max_distance <= floor {
        return widened;
    }
    // The floor fits with room to spare: the floor, priced as given.
    Radius {
        budget_seconds: floor_budget,
        ..given(workload, threshold, floor)
    }
}

/// The largest k whose predicted cost fits `budget_seconds`, up to the k
/// whose expected recall is already near 1, and with `floor` at least
/// the k of [`SMALL_CORPUS_RECALL`].
pub fn choose_within(
    workload: &Workload<'_>,
    threshold: f64,
    budget_seconds: f64,
    floor: bool,
) -> Radius {
    let shares = distance_shares(workload, threshold);
    let ceiling = widest(threshold);
    let mut chosen = 0;
    for k in 1..=ceiling {
        if cost(workload, &shares, k) > budget_seconds {
            break;
        }
        chosen = k;
    }
    if floor {
        chosen = chosen.max(radius_for(threshold, SMALL_CORPUS_RECALL, ceiling));
    }
    Radius {
        max_distance: chosen,
        expected_recall: expected_recall(threshold, chosen),
        predicted_seconds: cost(workload, &shares, chosen),
        budget_seconds,
    }
}

/// The radius given by the user, with its expected recall and cost.
pub fn given(workload: &Workload<'_>, threshold: f64, max_distance: u32) -> Radius {
    let shares = distance_shares(workload, threshold);
    Radius {
        max_distance,
        expected_recall: expected_recall(threshold, max_distance),
        predicted_seconds: cost(workload, &shares, max_distance),
        budget_seconds: workload.budget_seconds(),
    }
}

/// Predicted core-seconds of search and verification at radius `k`.
fn cost(workload: &Workload<'_>, shares: &Shares, k: u32) -> f64 {
    let n = workload.count;
    let fresh = workload.fresh.min(n);
    let against = fresh < n;
    let pairs = if against {
        crate::search::against_pairs(n, fresh)
    } else {
        n as f64 * (n as f64 - 1.0) / 2.0
    };
    let candidates = pairs * shares.within[k as usize];
    // Only the candidates their sketches do not turn away are verified.
    let verified = pairs * shares.verified[k as usize];
    // A fingerprint is read again if it has at least one verified
    // candidate; against a stored corpus, a candidate joins a new one and
    // a stored one.
    let reread = if against {
        touched(fresh, verified) + touched(n - fresh, verified)
    } else {
        touched(n, verified * 2.0)
    };
    let seconds_per_document =
        workload.fingerprint_seconds() / workload.documents.max(1) as f64 * REREAD_FACTOR;
    let verify = reread * seconds_per_document
        + verified * (workload.mean_features * SECONDS_PER_MERGE_STEP + SECONDS_PER_CANDIDATE)
        + (candidates - verified) * SECONDS_PER_TURNED_AWAY;
    // Buckets hold the pairs that agree on a table's key: priced by how
    // often the sampled pairs do, not as for uniformly random fingerprints.
    let agree = |bits: u32| shares.agreement[bits.min(64) as usize];
    let search = if against {
        crate::search::predicted_seconds_against_where(n, fresh, k, 1, &agree)
    } else {
        crate::search::predicted_seconds_where(n, k, 1, &agree)
    };
    search + verify
}

/// How many of `n` fingerprints expect at least one of `ends` candidate
/// ends spread evenly over them.
fn touched(n: usize, ends: f64) -> f64 {
    if n == 0 {
        return 0.0;
    }
    n as f64 * (1.0 - (-ends / n as f64).exp())
}

/// For each distance d, the share of fingerprint pairs within d, and the
/// share of pairs within d expected to be verified (not turned away by
/// their sketches).
#[derive(Clone, Debug, PartialEq)]
struct Shares {
    within: [f64; 65],
    verified: [f64; 65],
    /// For each b, the share of pairs that agree on a given key of b bits:
    /// a pair d bits apart does with probability C(64 - d, b) / C(64, b)
    /// (2^-b over uniformly random fingerprints). Crowded fingerprints
    /// agree far more often: on 10^6 address lines, 11 times as often on
    /// 16 bits, and their search's comparisons were as predicted so (2.1,
    /// 1.8 and 6.0 billion at k = 6, 7 and 8), where 2^-b predicted a
    /// tenth of them.
    agreement: [f64; 65],
}

/// The [`Shares`] of a workload's fingerprints at `threshold`: exact for
/// small inputs, from a deterministic sample of pairs otherwise.
fn distance_shares(workload: &Workload<'_>, threshold: f64) -> Shares {
    let fingerprints = workload.fingerprints;
    let n = fingerprints.len() as u64;
    let mut histogram = [0u64; 65];
    let mut verified = [0u64; 65];
    let mut count = |i: usize, j: usize| {
        let distance = (fingerprints[i] ^ fingerprints[j]).count_ones() as usize;
        histogram[distance] += 1;
        let turned_away = workload
            .sketches
            .is_some_and(|sketches| !sketches[i].may_reach(&sketches[j], threshold));
        if !turned_away {
            verified[distance] += 1;
        }
    };
    let all_pairs = n * n.saturating_sub(1) / 2;
    if all_pairs <= SAMPLE_PAIRS {
        for i in 0..fingerprints.len() {
            for j in i + 1..fingerprints.len() {
                count(i, j);
            }
        }
    } else {
        // SplitMix64 from a fixed seed: the same input gives the same k.
        let mut state = 0x5eed_0f51_3d0a_u64;
        let mut next = || {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        let mut drawn = 0;
        while drawn < SAMPLE_PAIRS {
            let i = (next() % n) as usize;
            let j = (next() % n) as usize;
            if i != j {
                count(i, j);
                drawn += 1;
            }
        }
    }
    let total = histogram.iter().sum::<u64>().max(1) as f64;
    let at_distance = histogram.map(|count| count as f64 / total);
    let mut shares = Shares {
        within: [0.0; 65],
        verified: [0.0; 65],
        agreement: crate::search::agreement_by_key_bits(&at_distance),
    };
    let (mut within, mut let_through) = (0u64, 0u64);
    for d in 0..=64 {
        within += histogram[d];
        let_through += verified[d];
        shares.within[d] = within as f64 / total;
        // The share let through, as if one more sampled pair had been:
        // a few sampled pairs (a large input's, at a small distance) say
        // little, and with none every candidate is priced as verified.
        let through = (let_through + 1) as f64 / (within + 1) as f64;
        shares.verified[d] = shares.within[d] * through.min(1.0);
    }
    shares
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flip_probability_at_the_usual_thresholds() {
        // J = 0.8: cosine 0.889, about 27 degrees, p = 0.15, 9.7 bits on average.
        let p = bit_flip_probability(0.8);
        assert!((p - 0.1515).abs() < 0.001, "{p}");
        assert_eq!(bit_flip_probability(1.0), 0.0);
        assert!((bit_flip_probability(0.0) - 0.5).abs() < 1e-12);
    }

    #[test]
    fn recall_grows_with_k_and_reaches_one() {
        let mut last = 0.0;
        for k in 0..=32 {
            let recall = expected_recall(0.8, k);
            assert!(recall >= last);
            last = recall;
        }
        assert!(expected_recall(0.8, 9) > 0.4 && expected_recall(0.8, 9) < 0.65);
        assert!(expected_recall(0.8, 16) > 0.98 && expected_recall(0.8, 17) > 0.99);
        assert_eq!(expected_recall(1.0, 0), 1.0);
    }

    #[test]
    fn binomial_cdf_matches_small_cases() {
        assert!((binomial_cdf(2, 0.5, 0) - 0.25).abs() < 1e-12);
        assert!((binomial_cdf(2, 0.5, 1) - 0.75).abs() < 1e-12);
        assert!((binomial_cdf(2, 0.5, 2) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn small_corpora_get_a_radius_with_high_recall() {
        let fingerprints: Vec<u64> = (0..10_000u64)
            .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(17))
            .collect();
        let workload = Workload {
            fingerprints: &fingerprints,
            count: fingerprints.len(),
            fresh: fingerprints.len(),
            mean_features: 300.0,
            bytes: 10_000 * 2_000,
            documents: 10_000,
            sketches: None,
        };
        let radius = choose(&workload, 0.8);
        assert!(radius.expected_recall >= SMALL_CORPUS_RECALL, "{radius:?}");
        assert!(
            radius.predicted_seconds <= radius.budget_seconds,
            "{radius:?}"
        );
    }

    /// `n` fingerprints in clusters of 100 (each a random center with two
    /// of its bits flipped), with the sketches of sets in one of 15 groups
    /// whatever their cluster: sets of different groups share no bucket, so
    /// only pairs within a group may reach any threshold.
    fn crowded_with_sketches(n: u64) -> (Vec<u64>, Vec<Sketch>) {
        let mix = |x: u64| {
            let x = (x ^ (x >> 31)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            x ^ (x >> 29)
        };
        let fingerprints = (0..n)
            .map(|i| mix(i / 100 + 1) ^ (1 << (i % 64)) ^ (1 << (mix(i) % 64)))
            .collect();
        let element = |bucket: u64| ((bucket << 32).div_ceil(120) << 32) | 1;
        let sketches = (0..n)
            .map(|i| {
                let group = i % 15;
                let set: Vec<u64> = (group * 8..group * 8 + 8).map(element).collect();
                Sketch::of(&set)
            })
            .collect();
        (fingerprints, sketches)
    }

    #[test]
    fn candidates_turned_away_by_their_sketches_buy_a_wider_radius() {
        let (fingerprints, sketches) = crowded_with_sketches(100_000);
        let workload = |sketches| Workload {
            fingerprints: &fingerprints,
            count: fingerprints.len(),
            fresh: fingerprints.len(),
            mean_features: 60.0,
            bytes: 6_000_000,
            documents: 100_000,
            sketches,
        };
        let (plain, sketched) = (workload(None), workload(Some(&sketches[..])));
        let without = choose(&plain, 0.8);
        let with = choose(&sketched, 0.8);
        assert!(
            with.max_distance > without.max_distance,
            "{with:?} {without:?}"
        );
        assert!(with.predicted_seconds <= with.budget_seconds, "{with:?}");
        // At one radius: cheaper, as about 14 in 15 pairs are turned away.
        let k = without.max_distance + 1;
        let (plain_cost, sketched_cost) = (
            given(&plain, 0.8, k).predicted_seconds,
            given(&sketched, 0.8, k).predicted_seconds,
        );
        assert!(
            sketched_cost < plain_cost / 2.0,
            "{sketched_cost} {plain_cost}"
        );
        let shares = distance_shares(&sketched, 0.8);
        let through = shares.verified[16] / shares.within[16];
        assert!((through - 1.0 / 15.0).abs() < 0.02, "{through}");
    }

    #[test]
    fn crowded_fingerprints_price_their_search_by_how_often_they_agree() {
        let workload = |fingerprints| Workload {
            fingerprints,
            count: 100_000,
            fresh: 100_000,
            mean_features: 60.0,
            bytes: 6_000_000,
            documents: 100_000,
            sketches: None,
        };
        let uniform: Vec<u64> = (0..100_000u64)
            .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(17))
            .collect();
        let shares = distance_shares(&workload(&uniform), 0.8);
        let share = shares.agreement[16] * 65536.0;
        assert!((0.8..1.25).contains(&share), "{share}");
        // One pair in a thousand is of one cluster, and agrees on a 16-bit
        // key a third of the time: 20 times as often as 2^-16.
        let (crowded, _) = crowded_with_sketches(100_000);
        let shares = distance_shares(&workload(&crowded), 0.8);
        let share = shares.agreement[16] * 65536.0;
        assert!(share > 10.0, "{share}");
        let agree = |bits: u32| shares.agreement[bits as usize];
        let (plain, priced) = (
            crate::search::predicted_seconds(100_000, 8, 1),
            crate::search::predicted_seconds_where(100_000, 8, 1, &agree),
        );
        assert!(priced > 2.0 * plain, "{priced} {plain}");
    }

    /// A corpus of `count` documents of `bytes` in all, whose
    /// fingerprints are spread evenly (a sample of 100,000 stands for them).
    fn spread(uniform: &[u64], count: usize, bytes: u64) -> Workload<'_> {
        Workload {
            fingerprints: uniform,
            count,
            fresh: count,
            mean_features: 500.0,
            bytes,
            documents: count as u64,
            sketches: None,
        }
    }

    fn uniform() -> Vec<u64> {
        (0..100_000u64)
            .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(17))
            .collect()
    }

    fn floor_radius(threshold: f64) -> u32 {
        let floor = radius_for(threshold, FLOOR_RECALL, 64);
        assert!(expected_recall(threshold, floor) >= FLOOR_RECALL);
        floor
    }

    #[test]
    fn a_budget_that_buys_little_recall_is_raised_to_the_floor() {
        let uniform = uniform();
        // 10^6 documents of 1 KB: the budget (0.4 of 6.8 core-seconds)
        // buys k = 9, expected recall 0.489; the floor's k = 11 costs less
        // than the fingerprinting.
        let workload = spread(&uniform, 1_000_000, 1_000_000_000);
        let plain = choose_within(&workload, 0.8, workload.budget_seconds(), false);
        assert!(plain.expected_recall < FLOOR_RECALL, "{plain:?}");
        let chosen = choose(&workload, 0.8);
        assert_eq!(chosen.max_distance, floor_radius(0.8), "{chosen:?}");
        assert!(chosen.expected_recall >= FLOOR_RECALL);
        let floor_budget = workload.fingerprint_seconds() * FLOOR_SHARE;
        assert_eq!(chosen.budget_seconds, floor_budget);
        assert!(chosen.predicted_seconds <= floor_budget, "{chosen:?}");
        assert!(
            given(&workload, 0.8, chosen.max_distance + 1).predicted_seconds > plain.budget_seconds
        );
        // 3 KB documents: the budget buys k = 10 (0.625), the floor's budget
        // would buy k = 12; the floor is k = 11, no wider.
        let workload = spread(&uniform, 1_000_000, 3_000_000_000);
        let plain = choose_within(&workload, 0.8, workload.budget_seconds(), false);
        let floor_budget = workload.fingerprint_seconds() * FLOOR_SHARE;
        let affordable = choose_within(&workload, 0.8, floor_budget, false);
        assert!(plain.expected_recall < FLOOR_RECALL, "{plain:?}");
        assert!(
            affordable.max_distance > floor_radius(0.8),
            "{affordable:?}"
        );
        let chosen = choose(&workload, 0.8);
        assert_eq!(chosen.max_distance, floor_radius(0.8), "{chosen:?}");
        assert_eq!(chosen.budget_seconds, floor_budget);
    }

    #[test]
    fn a_floor_that_costs_too_much_gives_the_widest_radius_that_does_not() {
        let uniform = uniform();
        // 10^7 documents: the floor would cost ten times the fingerprinting.
        let workload = spread(&uniform, 10_000_000, 1_000_000_000);
        let plain = choose_within(&workload, 0.8, workload.budget_seconds(), false);
        let chosen = choose(&workload, 0.8);
        let floor_budget = workload.fingerprint_seconds() * FLOOR_SHARE;
        assert!(
            plain.max_distance < chosen.max_distance,
            "{plain:?} {chosen:?}"
        );
        assert!(chosen.max_distance < floor_radius(0.8), "{chosen:?}");
        assert!(chosen.predicted_seconds <= floor_budget, "{chosen:?}");
        let wider = given(&workload, 0.8, chosen.max_distance + 1);
        assert!(wider.predicted_seconds > floor_budget, "{wider:?}");
    }

    #[test]
    fn a_budget_that_buys_the_floor_is_left_alone() {
        let uniform = uniform();
        // 10 KB documents: the budget alone buys more than the floor.
        let workload = spread(&uniform, 1_000_000, 10_000_000_000);
        let plain = choose_within(&workload, 0.8, workload.budget_seconds(), false);
        assert!(plain.expected_recall >= FLOOR_RECALL, "{plain:?}");
        assert_eq!(choose(&workload, 0.8), plain);
    }

    #[test]
    fn few_sampled_pairs_lean_to_pricing_candidates_as_verified() {
        // Two fingerprints 3 bits apart, whose sketches turn them away: the
        // one sampled pair lets nothing through, yet it says too little to
        // price the pairs within 3 as turned away.
        let set = |bucket: u64| Sketch::of(&[((bucket << 32).div_ceil(120) << 32) | 1]);
        let sketches = [set(0), set(1)];
        let workload = Workload {
            fingerprints: &[0, 0b111],
            count: 2,
            fresh: 2,
            mean_features: 10.0,
            bytes: 100,
            documents: 2,
            sketches: Some(&sketches),
        };
        let shares = distance_shares(&workload, 0.8);
        assert_eq!(shares.within[2], 0.0);
        assert_eq!(shares.within[3], 1.0);
        // One pair, none let through: (0 + 1) / (1 + 1).
        assert_eq!(shares.verified[3], 0.5);
    }

    #[test]
    fn shares_are_cumulative_and_exact_for_small_inputs() {
        let workload = Workload {
            fingerprints: &[0, 1, 3],
            count: 3,
            fresh: 3,
            mean_features: 10.0,
            bytes: 100,
            documents: 3,
            sketches: None,
        };
        let shares = distance_shares(&workload, 0.8);
        // Distances 1, 2, 1.
        assert!((shares.within[0] - 0.0).abs() < 1e-12);
        assert!((shares.within[1] - 2.0 / 3.0).abs() < 1e-12);
        assert!((shares.within[2] - 1.0).abs() < 1e-12);
        assert_eq!(shares.within[64], 1.0);
        // Without sketches, every pair within d is verified.
        assert_eq!(shares.verified, shares.within);
    }
}
