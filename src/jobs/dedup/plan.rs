//! dedup's search radius when none is given: the scan's cost model
//! (src/jobs/scan/radius.rs), asked again as the input grows.
//!
//! A stream cannot be measured before it is decided, so the radius is
//! chosen for what is coming from what came: the first
//! [`FIRST_CHECKPOINT`] records are searched within the radius the scan
//! gives a small corpus at most (expected recall 0.9995 at the
//! threshold); after the c-th record searched by word fingerprint, and
//! again each time that count doubles, the radius for the next c records
//! is the one the scan would choose for 2c documents like those seen (a
//! sample of their fingerprints, their mean size and features). Deciding
//! the next c records against up to 2c kept ones costs about what a scan
//! of 2c documents does: both compare about 2c^2 pairs. The radius only
//! narrows, so a table laid out for it stays exact.
//!
//! Everything is counted in input order, so the radius of each record,
//! and the answer, do not depend on how the stream is cut into blocks or
//! on the thread count. Inputs of up to 20,000 records get the scan's
//! radius for a small corpus (the same near-duplicates as `simdup scan`)
//! unless it is predicted to cost more than [`FLOOR_SECONDS`]: then the
//! widest radius predicted to cost no more.

use super::filter::{Filter, Measure, Measured};
use super::indexes::SearchRadii;
use crate::jobs::scan::radius::{self, Workload};

/// Records searched by word fingerprint before the radius is first
/// chosen again (tests choose sooner).
pub const FIRST_CHECKPOINT: u64 = if cfg!(test) { 16 } else { 1024 };

/// The scan gives a small corpus the radius of expected recall 0.999
/// whatever it costs, as its verification costs seconds at most. The
/// start of a stream is no small corpus: at a low threshold (k = 29 at
/// 0.5), 16,384 generated documents were predicted at 69 core-seconds,
/// and dedup of 100,000 took 17 s for a radius the scan of all of them
/// does not pay (1 s, k = 11). So when that radius is predicted to cost
/// more than this many core-seconds, the widest one predicted to cost no
/// more is taken: 5.6 s there; on the Debian docs at 0.5, 3.5 s and 0.989
/// of the exact drops, where the floor took 8 s for 0.999. (The
/// prediction is the scan's; dedup verified those docs at k = 29 in 8 s
/// where 16,384 of them were predicted at 111.)
const FLOOR_SECONDS: f64 = 10.0;

/// Short texts searched by fingerprint (a long stream of them, once their
/// join is given up) are searched at least this wide: what dedup took
/// for them before it planned their radius. The model narrows them fast,
/// their fingerprints crowding: to k = 4 (expected recall 0.026 at 0.8)
/// after 524,288 address lines, where it dropped 99,756 of 10^6 against
/// 110,194 at 6, in the same time; the scan of all 10^6 takes k = 6. With
/// this floor: 112,456 in 6.4 s (6 throughout: 5.9 s); 10^5 lines end at
/// k = 8, 13,987 dropped in 1.46 s (6 throughout: 12,151 in 1.27 s).
pub const LEAST_SHORT_DISTANCE: u32 = 6;

/// Fingerprints kept to estimate how far apart records lie: every one up
/// to this many, then every other one of those, and so on. All pairs of
/// 2,048 are within what the cost model compares pair by pair.
const SAMPLE: usize = 2048;

/// The radius of dedup's searches by word fingerprint.
#[derive(Clone, Debug)]
pub struct RadiusPlan {
    threshold: f64,
    /// Given by the user: never changes.
    fixed: bool,
    /// The radius of the next record.
    radius: u32,
    /// The radius of the first records.
    first: u32,
    /// Records searched by word fingerprint so far.
    searched: u64,
    next_checkpoint: u64,
    /// Every `step`-th of those records' fingerprints.
    sample: Vec<u64>,
    step: u64,
    bytes: u64,
    features: u64,
    /// The record from which the radius is the current one, when it was
    /// narrowed.
    narrowed_from: Option<u64>,
    /// It never narrows below this.
    least: u32,
    /// Tests give the radius of each checkpoint instead (the cost model
    /// narrows only past thousands of records).
    #[cfg(test)]
    script: Option<std::collections::VecDeque<u32>>,
}

impl RadiusPlan {
    /// The radius `k`, whatever comes.
    pub fn fixed(k: u32) -> RadiusPlan {
        RadiusPlan {
            fixed: true,
            ..RadiusPlan::chosen(0.0, k)
        }
    }

    /// A radius chosen by the cost model for Jaccard `threshold`.
    pub fn by_cost(threshold: f64) -> RadiusPlan {
        RadiusPlan::chosen(threshold, radius::widest(threshold))
    }

    /// [`RadiusPlan::by_cost`], never narrower than `least`.
    pub fn by_cost_at_least(threshold: f64, least: u32) -> RadiusPlan {
        let mut plan = RadiusPlan::by_cost(threshold);
        plan.least = least.min(plan.radius);
        plan
    }

    fn chosen(threshold: f64, first: u32) -> RadiusPlan {
        RadiusPlan {
            threshold,
            fixed: false,
            radius: first,
            first,
            searched: 0,
            next_checkpoint: FIRST_CHECKPOINT,
            sample: Vec::new(),
            step: 1,
            bytes: 0,
            features: 0,
            narrowed_from: None,
            least: 0,
            #[cfg(test)]
            script: None,
        }
    }

    /// A plan whose radius is `first`, then each of `next` in turn at the
    /// checkpoints (tests).
    #[cfg(test)]
    pub fn scripted(first: u32, next: &[u32]) -> RadiusPlan {
        RadiusPlan {
            script: Some(next.iter().copied().collect()),
            ..RadiusPlan::chosen(0.8, first)
        }
    }

    /// The radius of the next record.
    pub fn radius(&self) -> u32 {
        self.radius
    }

    /// The radius of the first records.
    pub fn first(&self) -> u32 {
        self.first
    }

    /// The record (counting those searched by word fingerprint, from 1)
    /// from which the current radius holds, if it was narrowed.
    pub fn narrowed_from(&self) -> Option<u64> {
        self.narrowed_from
    }

    /// Counts a record searched by this plan's fingerprint (`simhash`;
    /// `bytes` of text, `features`), in input order; true when the radius
    /// may change before the next one (see [`RadiusPlan::radius`]).
    pub fn observe(&mut self, simhash: u64, bytes: u64, features: u64) -> bool {
        if self.fixed {
            return false;
        }
        if self.searched.is_multiple_of(self.step) {
            if self.sample.len() == SAMPLE {
                // Keep every other one, and take half as many from now on.
                let kept: Vec<u64> = self.sample.iter().copied().step_by(2).collect();
                self.sample = kept;
                self.step *= 2;
            }
            if self.searched.is_multiple_of(self.step) {
                self.sample.push(simhash);
            }
        }
        self.searched += 1;
        self.bytes = self.bytes.saturating_add(bytes);
        self.features = self.features.saturating_add(features);
        if self.searched < self.next_checkpoint {
            return false;
        }
        self.next_checkpoint = self.next_checkpoint.saturating_mul(2);
        let next = self.choose().max(self.least);
        if next < self.radius {
            self.radius = next;
            self.narrowed_from = Some(self.searched + 1);
        }
        true
    }

    /// The scan's radius for twice the records seen, like them.
    fn choose(&mut self) -> u32 {
        #[cfg(test)]
        if let Some(script) = &mut self.script {
            return script.pop_front().unwrap_or(self.radius);
        }
        let seen = self.searched.max(1) as f64;
        let count = self.searched.saturating_mul(2);
        let workload = Workload {
            fingerprints: &self.sample,
            count: usize::try_from(count).unwrap_or(usize::MAX),
            fresh: usize::try_from(count).unwrap_or(usize::MAX),
            mean_features: self.features as f64 / seen,
            bytes: (self.bytes as f64 / seen * count as f64) as u64,
            documents: count,
            // dedup turns away by sketch too, but plans as it did: its
            // radius is the scan's without them.
            sketches: None,
        };
        let chosen = radius::choose(&workload, self.threshold);
        if chosen.predicted_seconds <= chosen.budget_seconds.max(FLOOR_SECONDS) {
            return chosen.max_distance;
        }
        // The floor costs too much: the widest radius that does not.
        let budget = chosen.budget_seconds.max(FLOOR_SECONDS);
        radius::choose_within(&workload, self.threshold, budget, false).max_distance
    }
}

/// The radii of a run: of the search by word fingerprint between records
/// that are not short texts, between a short text and another record,
/// and of the search of short texts by character-pair fingerprint (once
/// their join is given up), each planned on the records it searches, as
/// the scan chooses each for its space.
#[derive(Clone, Debug)]
pub struct Radii {
    /// By word fingerprint, between records that are not short texts:
    /// planned on those records.
    pub words: RadiusPlan,
    /// By word fingerprint, between a short text and another record:
    /// planned on every record searched by words, as if all were one
    /// space. Their sizes rule out nearly every such pair
    /// (src/jobs/dedup/size_classes.rs), but the few size classes left
    /// are met by every short text: searched at the long records' radius
    /// (k = 20, then 8), they made 0.8·10^6 more candidates in the first
    /// 60 MB of real lines, 10.1 s against 7.9 (one run each, before the
    /// long records' sketches), for a handful more records dropped.
    pub mixed: RadiusPlan,
    /// Short texts by character-pair fingerprint.
    pub chars: RadiusPlan,
}

impl Radii {
    /// The radii of a run: the radius given, or the cost model's.
    pub fn for_options(options: &super::DedupOptions) -> Radii {
        match options.max_distance {
            Some(k) => Radii {
                words: RadiusPlan::fixed(k),
                mixed: RadiusPlan::fixed(k),
                chars: RadiusPlan::fixed(k),
            },
            None => Radii {
                words: RadiusPlan::by_cost(options.threshold),
                mixed: RadiusPlan::by_cost(options.threshold),
                chars: RadiusPlan::by_cost_at_least(options.threshold, LEAST_SHORT_DISTANCE),
            },
        }
    }

    /// Counts a record, in input order; true when a radius may narrow
    /// before the next one.
    pub fn observe(&mut self, measure: &Measure, record: &Measured) -> bool {
        let words = &record.words;
        if !measure.searched_by_words(words) {
            return false;
        }
        let mixed = self
            .mixed
            .observe(words.simhash, words.bytes, words.features);
        let narrowing = record.short.is_none()
            && self
                .words
                .observe(words.simhash, words.bytes, words.features);
        // A short text's character pairs number about its characters.
        let chars = record
            .short
            .as_ref()
            .is_some_and(|short| self.chars.observe(short.simhash, words.bytes, words.bytes));
        mixed || narrowing || chars
    }

    /// The radii in force.
    pub fn current(&self) -> SearchRadii {
        SearchRadii {
            words: self.words.radius(),
            mixed: self.mixed.radius(),
            chars: self.chars.radius(),
        }
    }

    /// Searches within the current radii from now on (between blocks).
    pub fn apply(&self, filter: &mut Filter) {
        filter.narrow(self.current());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts a record of 2,000 bytes and 300 features.
    fn observe(plan: &mut RadiusPlan, simhash: u64) -> bool {
        plan.observe(simhash, 2_000, 300)
    }

    /// SplitMix64: spread-out fingerprints.
    fn spread(i: u64) -> u64 {
        let mut z = i.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    #[test]
    fn a_given_radius_never_changes() {
        let mut plan = RadiusPlan::fixed(6);
        for i in 0..10_000 {
            assert!(!observe(&mut plan, spread(i)));
        }
        assert_eq!((plan.radius(), plan.narrowed_from()), (6, None));
    }

    #[test]
    fn small_inputs_get_the_small_corpus_radius_and_large_ones_narrow() {
        let mut plan = RadiusPlan::by_cost(0.8);
        let widest = plan.radius();
        assert!(radius::expected_recall(0.8, widest) >= radius::SMALL_CORPUS_RECALL);
        let mut last = widest;
        let mut checkpoints = Vec::new();
        for i in 0..400_000u64 {
            if observe(&mut plan, spread(i)) {
                checkpoints.push(i + 1);
            }
            assert!(plan.radius() <= last, "the radius only narrows");
            last = plan.radius();
            if i < radius::SMALL_CORPUS as u64 / 2 {
                // Twice the records seen is still a small corpus.
                assert!(
                    radius::expected_recall(0.8, plan.radius()) >= radius::SMALL_CORPUS_RECALL,
                    "{} at {i}",
                    plan.radius()
                );
            }
        }
        assert_eq!(checkpoints[0], FIRST_CHECKPOINT);
        assert!(checkpoints.windows(2).all(|w| w[1] == 2 * w[0]));
        assert!(plan.radius() < widest, "{}", plan.radius());
        assert!(plan.narrowed_from().is_some());
        assert!(plan.sample.len() <= SAMPLE);
    }

    #[test]
    fn the_floor_gives_way_where_it_costs_too_much() {
        // At 0.5 the floor is k = 29 or so: a tenth of all pairs of
        // unrelated fingerprints would be candidates.
        let mut plan = RadiusPlan::by_cost(0.5);
        let floor = plan.radius();
        for i in 0..8_192u64 {
            observe(&mut plan, spread(i));
        }
        assert!(plan.radius() < floor, "{} vs {floor}", plan.radius());
        // Not to the budget's: to the widest within FLOOR_SECONDS.
        assert!(plan.radius() > floor / 2, "{}", plan.radius());
    }

    #[test]
    fn a_least_radius_holds() {
        let mut plan = RadiusPlan::by_cost_at_least(0.8, 6);
        let mut unbounded = RadiusPlan::by_cost(0.8);
        for i in 0..200_000u64 {
            // Crowded: the model narrows fast.
            observe(&mut plan, spread(i % 50) & !0xff);
            observe(&mut unbounded, spread(i % 50) & !0xff);
        }
        assert!(unbounded.radius() < 6, "{}", unbounded.radius());
        assert_eq!(plan.radius(), 6);
    }

    #[test]
    fn crowded_records_narrow_sooner() {
        // Records within a few bits of each other make every search
        // return candidates: the model narrows for them before it does
        // for spread-out ones.
        let mut spread_plan = RadiusPlan::by_cost(0.8);
        let mut crowded_plan = RadiusPlan::by_cost(0.8);
        for i in 0..200_000u64 {
            observe(&mut spread_plan, spread(i));
            observe(&mut crowded_plan, spread(i % 50) & !0xff);
        }
        assert!(
            crowded_plan.radius() < spread_plan.radius(),
            "{} vs {}",
            crowded_plan.radius(),
            spread_plan.radius()
        );
    }

    #[test]
    fn the_words_radius_counts_the_records_that_are_not_short_texts() {
        use crate::fingerprint::{FeatureOptions, Fingerprinter};
        let measure = Measure::new(Fingerprinter::new(FeatureOptions::default()), true, 1);
        let options = super::super::DedupOptions::default();
        let mut radii = Radii::for_options(&options);
        let short =
            measure.measure(b"twelve short words make a line of text like this one".to_vec());
        let long = measure.measure("a long line of many words ".repeat(20).into_bytes());
        assert!(short.short.is_some() && long.short.is_none());
        for _ in 0..3 {
            radii.observe(&measure, &short);
        }
        radii.observe(&measure, &long);
        assert_eq!((radii.words.searched, radii.mixed.searched), (1, 4));
        assert_eq!(radii.chars.searched, 3);
    }
}
