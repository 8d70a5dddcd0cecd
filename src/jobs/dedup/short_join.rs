//! The join of dedup's kept short texts: its token order, the reorders
//! that rank the tokens by rarity, and the budgets past which short texts
//! are joined on their rarest character pair only (beside a search by
//! fingerprint), then found by fingerprint alone (docs/DEDUP.md, "Short
//! texts in a long stream").
//! Everything here is counted in input order, so it does not depend on
//! how the stream is cut into blocks.

use std::io;

use crate::verify::join::{JoinScratch, Postings, Ranked, TokenOrder};

/// The join of short texts may read this many postings, plus
/// [`JOIN_POSTINGS_PER_SHORT_TEXT`] for each short text searched, before
/// short texts are searched by fingerprint within k instead (about 1.5
/// s, then a few microseconds a text, when measured; since the probes
/// skip the sizes their later tokens cannot reach, the same postings
/// priced take about 0.75 of that). Every probe reads postings of kept
/// texts that share a rare character pair, and a stream of one-line texts
/// from a few dozen words makes that a share of all kept texts, so the
/// join would cost the square of the stream. The 48,659 Debian package
/// descriptions are joined whole within it (1.3 s); 10^5 generated
/// addresses give it up after 26,647. The scan draws the same line by its
/// predicted cost (src/jobs/scan/joined.rs). Counted from the token order
/// alone, so the decisions do not depend on how the stream is cut into
/// blocks.
pub const JOIN_BASE_POSTINGS: u64 = 1 << 27;

/// See [`JOIN_BASE_POSTINGS`].
pub const JOIN_POSTINGS_PER_SHORT_TEXT: u64 = 500;

/// The join's stages, by the most tokens of each prefix indexed and
/// probed: the whole prefix (exact), then each text's rarest character
/// pair. Each stage has a budget of its own, counted from its start; from
/// the second on, short texts are searched by fingerprint within k too,
/// and past the last by fingerprint alone. Near-copies share their rarest
/// pairs, so the second stage finds most of the pairs for a few percent
/// of the postings (on real lines 0.976 of them for 0.010: docs/QUALITY.md,
/// "Short texts past the join"), and the fingerprints most of the others
/// (alone, the rarest pair found fewer than k = 8 on 10^5 generated
/// addresses). It is still quadratic, so on a long stream of crowded lines
/// it too is given up. dedup's default goes from the exact join to the
/// texts' MinHash bands first ([`Filter::with_bands_past_join`](super::filter::Filter::with_bands_past_join)),
/// which find more for less on every input measured but crowded log
/// lines, and past the bands' budget (crowded lines) to the last stage. Without the fingerprints, a stage on the rarest 3
/// pairs before the rarest one found 0.7% more on real lines (3% on
/// addresses) for 1.27 times the time (1.35).
pub const STAGE_CAPS: [usize; 2] = [usize::MAX, 1];

/// The join's token order is rebuilt by rarity when this many short texts
/// are kept, then each time four times as many are: first appearance ranks
/// well a large vocabulary's rare tokens (they appear late), but not a
/// small one's, every token of which appears early (tests reorder every
/// few texts, to exercise it). All reorders together
/// measure each kept short text again at most a third of a time more.
pub const FIRST_REORDER: usize = if cfg!(test) { 4 } else { 1024 };

/// Work allowed to a search of short texts, `base` plus `per_short_text`
/// for each short text searched: the postings the join may read, or the
/// band matches the MinHash bands may make.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JoinBudget {
    /// Postings allowed whatever the stream.
    pub base: u64,
    /// Postings allowed for each short text searched.
    pub per_short_text: u64,
}

impl JoinBudget {
    /// Whether `cost` passes the budget of `searched` short texts.
    pub fn passed(&self, cost: u64, searched: u64) -> bool {
        cost > self
            .base
            .saturating_add(self.per_short_text.saturating_mul(searched))
    }

    /// No bound: the join is never given up.
    pub const UNLIMITED: JoinBudget = JoinBudget {
        base: u64::MAX,
        per_short_text: 0,
    };
}

impl Default for JoinBudget {
    fn default() -> Self {
        JoinBudget {
            base: JOIN_BASE_POSTINGS,
            per_short_text: JOIN_POSTINGS_PER_SHORT_TEXT,
        }
    }
}

/// A record's character pairs as the join probes them, ranked once for
/// every index it asks and for the budget (empty when it is not a short
/// text or the join was given up).
#[derive(Debug)]
pub struct Probe<'a> {
    /// The sorted, distinct character pairs.
    pub set: &'a [u64],
    /// Their ranks in the join's order.
    pub ranked: Ranked,
}

/// The state of the join of kept short texts.
#[derive(Debug)]
pub struct ShortJoin {
    threshold: f64,
    /// The token order, shared by the main and the in-block indexes.
    pub order: TokenOrder,
    /// A probe's memory, for the searches of the deciding thread.
    pub scratch: JoinScratch,
    /// Whether kept short texts are still found by the join.
    joining: bool,
    /// Postings the probes of this stage may have read so far.
    cost: u64,
    /// Short texts searched so far.
    searched: u64,
    /// Short texts searched when this stage started.
    stage_started: u64,
    /// Short texts searched when each stage ended: while the join lasts,
    /// its length is the stage (an index into [`STAGE_CAPS`]).
    stage_ends: Vec<u64>,
    /// Every kept short text's character-pair fingerprint and number,
    /// while the join lasts (to index them again, or by fingerprint).
    kept: Vec<(u64, u32)>,
    /// Kept short texts at which the order is next rebuilt.
    next_reorder: usize,
    budget: JoinBudget,
}

impl ShortJoin {
    /// A join for Jaccard `threshold` within `budget`.
    pub fn new(threshold: f64, budget: JoinBudget) -> ShortJoin {
        ShortJoin {
            threshold,
            order: TokenOrder::new(threshold),
            scratch: JoinScratch::default(),
            joining: true,
            cost: 0,
            searched: 0,
            stage_started: 0,
            stage_ends: Vec::new(),
            kept: Vec::new(),
            next_reorder: FIRST_REORDER,
            budget,
        }
    }

    /// Whether kept short texts are still found by the join.
    pub fn joining(&self) -> bool {
        self.joining
    }

    /// Whether the join is still exact (its first stage).
    pub fn exact(&self) -> bool {
        self.joining && self.stage_ends.is_empty()
    }

    /// Every kept short text's character-pair fingerprint and number,
    /// while the join lasts.
    pub fn kept(&self) -> &[(u64, u32)] {
        &self.kept
    }

    /// Short texts searched, and how many had been when each stage of
    /// the join ended ([`STAGE_CAPS`]; none: every one was joined
    /// exactly).
    pub fn searched(&self) -> (u64, &[u64]) {
        (self.searched, &self.stage_ends)
    }

    /// `set` ranked for probes of the join (empty when it was given up).
    pub fn probe<'a>(&self, set: &'a [u64]) -> Probe<'a> {
        let ranked = if self.joining {
            self.order.probed(set)
        } else {
            (0, Vec::new())
        };
        Probe { set, ranked }
    }

    /// Counts a short text about to be searched and the postings its
    /// probe reads; true when that passes the stage's budget, so the stage
    /// must end ([`ShortJoin::next_stage`]) before the search.
    pub fn search(&mut self, probe: &Probe<'_>) -> bool {
        self.searched += 1;
        if !self.joining {
            return false;
        }
        self.cost += self.order.probe_cost(probe.set.len(), &probe.ranked);
        self.budget
            .passed(self.cost, self.searched - self.stage_started)
    }

    /// Ends the stage: true when the join goes on with shorter prefixes,
    /// and every kept short text must be indexed again
    /// ([`ShortJoin::reindex`]); false when it was the last, and the join
    /// must be given up ([`ShortJoin::stop`]).
    pub fn next_stage(&mut self) -> bool {
        let Some(&cap) = STAGE_CAPS.get(self.stage_ends.len() + 1) else {
            return false;
        };
        self.stage_ends.push(self.searched);
        self.stage_started = self.searched;
        self.cost = 0;
        self.order.cap_prefixes(cap);
        true
    }

    /// Takes the join up again, given up for the MinHash bands, on each
    /// text's rarest pair: its last stage, with a budget of its own from
    /// now. Every kept short text must then be learnt
    /// ([`ShortJoin::learn`]) and indexed again ([`ShortJoin::reindex`]).
    pub fn resume_on_rarest(&mut self) {
        self.joining = true;
        self.stage_ends.truncate(1);
        self.stage_started = self.searched;
        self.cost = 0;
        self.order = TokenOrder::new(self.threshold);
        self.order.cap_prefixes(STAGE_CAPS[STAGE_CAPS.len() - 1]);
        self.kept.clear();
    }

    /// Learns a kept short text as [`ShortJoin::keep`] does, but with no
    /// reorder due (the caller reindexes once all are learnt).
    pub fn learn(&mut self, simhash: u64, set: &[u64], number: u32) {
        self.kept.push((simhash, number));
        self.order.learn(set);
        self.next_reorder = self.kept.len().max(FIRST_REORDER).saturating_mul(4);
    }

    /// Learns a kept short text (its fingerprint, character pairs and
    /// number) before it is indexed; true when the order is due to be
    /// rebuilt ([`ShortJoin::reindex`]) once it is.
    pub fn keep(&mut self, simhash: u64, set: &[u64], number: u32) -> bool {
        if !self.joining {
            return false;
        }
        self.kept.push((simhash, number));
        self.order.learn(set);
        if self.kept.len() < self.next_reorder {
            return false;
        }
        self.next_reorder = self.next_reorder.saturating_mul(4);
        true
    }

    /// Rebuilds the order by rarity and indexes every kept short text
    /// again in it, measured again by `set_of(number)`.
    pub fn reindex(
        &mut self,
        mut set_of: impl FnMut(u32) -> io::Result<Vec<u64>>,
    ) -> io::Result<Postings> {
        self.order.reorder();
        let mut postings = Postings::new(self.threshold);
        for &(_, number) in &self.kept {
            let set = set_of(number)?;
            self.order.count_prefix(&set);
            postings.add(&set, &self.order, number);
        }
        Ok(postings)
    }

    /// Gives the join up; returns every kept short text's fingerprint and
    /// number, to index by fingerprint.
    pub fn stop(&mut self) -> Vec<(u64, u32)> {
        self.joining = false;
        self.stage_ends.resize(STAGE_CAPS.len(), self.searched);
        self.order = TokenOrder::new(self.threshold);
        std::mem::take(&mut self.kept)
    }
}
