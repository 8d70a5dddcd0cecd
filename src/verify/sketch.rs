//! A set's sketch: which of 128 buckets its elements fall in, and how many
//! elements it has. Two sketches bound the intersection of their sets
//! from above, so a candidate pair that cannot reach the threshold is
//! turned away without its sets: no set is read, measured or merged.
//!
//! An element of A whose bucket holds nothing of B is not in B, and each
//! bucket of A that B lacks holds at least one such element, so
//! |A ∩ B| <= |A| - popcount(a & !b), and the same from B's side. On small
//! sets (the character pairs of a line) this is tight: lines of one log
//! format, whose SimHashes crowd together while their Jaccard stays below
//! 0.8, are turned away 99 times in 100 with 128 buckets, and 57 with 64.
//! The elements are feature hashes, already uniform, so their top bits
//! pick the bucket.

/// The sketch of a sorted, distinct set of feature hashes: 16 bytes of
/// buckets and 4 of the set's size, 20 in all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sketch {
    buckets: [u32; 4],
    len: u32,
}

impl Sketch {
    /// The sketch of a set not sketched: it may reach any threshold.
    pub const NONE: Sketch = Sketch {
        buckets: [u32::MAX; 4],
        len: u32::MAX,
    };

    /// The sketch of `set` (of fewer than `u32::MAX` elements: a larger
    /// one is not sketched).
    pub fn of(set: &[u64]) -> Sketch {
        let Ok(len) = u32::try_from(set.len()) else {
            return Sketch::NONE;
        };
        let mut buckets = [0u32; 4];
        for &element in set {
            let bucket = (element >> 57) as usize;
            buckets[bucket >> 5] |= 1 << (bucket & 31);
        }
        Sketch { buckets, len }
    }

    /// Elements of this set certainly not in `other`'s: one at least for
    /// each bucket of this set that `other` lacks.
    fn certainly_not_in(&self, other: &Sketch) -> u32 {
        self.buckets
            .iter()
            .zip(&other.buckets)
            .map(|(ours, theirs)| (ours & !theirs).count_ones())
            .sum()
    }

    /// The most elements the two sets can share.
    pub fn max_common(&self, other: &Sketch) -> u32 {
        (self.len - self.certainly_not_in(other)).min(other.len - other.certainly_not_in(self))
    }

    /// Whether the two sets may reach `threshold`: false only when their
    /// Jaccard is certainly below it. The most it can be is computed as
    /// [`super::decide`] computes the Jaccard, and a smaller intersection
    /// never gives more.
    pub fn may_reach(&self, other: &Sketch, threshold: f64) -> bool {
        if *self == Sketch::NONE || *other == Sketch::NONE {
            return true;
        }
        let common = self.max_common(other);
        let union = self.len + other.len - common;
        union == 0 || f64::from(common) / f64::from(union) >= threshold
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::verify::{Verdict, decide};

    fn sorted(mut set: Vec<u64>) -> Vec<u64> {
        set.sort_unstable();
        set.dedup();
        set
    }

    #[test]
    fn sets_in_different_buckets_share_nothing() {
        let a = Sketch::of(&[1 << 57, 2 << 57]);
        let b = Sketch::of(&[3 << 57, 100 << 57]);
        assert_eq!(a.max_common(&b), 0);
        assert!(!a.may_reach(&b, 0.1));
        assert!(a.may_reach(&a, 1.0));
    }

    #[test]
    fn a_shared_bucket_allows_one_common_element() {
        // Buckets 1 and 2 against 1 and 3: one element of each set is
        // certainly not in the other.
        let a = Sketch::of(&[1 << 57, 2 << 57]);
        let b = Sketch::of(&[(1 << 57) + 5, 3 << 57]);
        assert_eq!(a.max_common(&b), 1);
        // 1 / 3 at most.
        assert!(a.may_reach(&b, 1.0 / 3.0));
        assert!(!a.may_reach(&b, 0.34));
    }

    #[test]
    fn a_set_not_sketched_may_reach_anything() {
        let one = Sketch::of(&[7]);
        assert!(Sketch::NONE.may_reach(&one, 1.0));
        assert!(one.may_reach(&Sketch::NONE, 1.0));
    }

    #[test]
    fn the_empty_set_reaches_only_zero() {
        let empty = Sketch::of(&[]);
        let one = Sketch::of(&[7]);
        assert_eq!(empty.max_common(&one), 0);
        assert!(!empty.may_reach(&one, 0.5));
        assert!(empty.may_reach(&empty, 1.0));
    }

    fn set_near(base: Vec<u64>, changes: Vec<u64>, drop: usize) -> (Vec<u64>, Vec<u64>) {
        let a = sorted(base.clone());
        let mut b: Vec<u64> = base.into_iter().skip(drop).collect();
        b.extend(changes);
        (a, sorted(b))
    }

    proptest! {
        /// The bound is never below the true intersection, and a pair
        /// `decide` calls near is never turned away.
        #[test]
        fn the_bound_never_turns_away_a_near_pair(
            base in proptest::collection::vec(any::<u64>(), 0..120),
            changes in proptest::collection::vec(any::<u64>(), 0..20),
            drop in 0usize..20,
            threshold in 0.05f64..=1.0,
        ) {
            let (a, b) = set_near(base, changes, drop);
            let (sa, sb) = (Sketch::of(&a), Sketch::of(&b));
            let common = a.iter().filter(|x| b.binary_search(x).is_ok()).count();
            prop_assert!(sa.max_common(&sb) as usize >= common);
            prop_assert_eq!(sa.max_common(&sb), sb.max_common(&sa));
            if let Verdict::Near(_) = decide(&a, &b, threshold) {
                prop_assert!(sa.may_reach(&sb, threshold));
            }
        }
    }
}
