//! A set's sketch: which of 120 buckets its elements fall in, and how many
//! elements it has. Two sketches bound the intersection of their sets
//! from above, so a candidate pair that cannot reach the threshold is
//! turned away without its sets: no set is read, measured or merged.
//!
//! An element of A whose bucket holds nothing of B is not in B, and each
//! bucket of A that B lacks holds at least one such element, so
//! |A ∩ B| <= |A| - popcount(a & !b), and the same from B's side. On small
//! sets (the character pairs of a line, 70 or so for a log line) this is
//! tight: pairs of lines of one log format, whose SimHashes crowd together
//! while their Jaccard stays below 0.8, are nearly all turned away (64
//! buckets would let about half through). The elements are feature
//! hashes, already uniform, so their top bits pick the bucket.

/// The sketch of a sorted, distinct set of feature hashes, in 16 bytes
/// (one cache line always holds it whole): bits 0 to 119 say which of
/// [`BUCKETS`] buckets hold an element, the top 8 bits how many elements
/// there are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(align(16))]
pub struct Sketch([u64; 2]);

/// Buckets of a sketch.
pub const BUCKETS: u64 = 120;

/// Where the set's size starts in the second word.
const LEN_SHIFT: u32 = 56;

/// The bucket bits of the second word.
const SECOND_BUCKETS: u64 = (1 << LEN_SHIFT) - 1;

impl Sketch {
    /// The sketch of a set not sketched: it may reach any threshold. (A
    /// set of 255 elements in every bucket has the same sketch, and is
    /// then never turned away either: that is safe.)
    pub const NONE: Sketch = Sketch([u64::MAX; 2]);

    /// The sketch of `set`; a set of more than 255 elements is not
    /// sketched (a short text has fewer character pairs).
    pub fn of(set: &[u64]) -> Sketch {
        let Ok(len) = u8::try_from(set.len()) else {
            return Sketch::NONE;
        };
        let mut words = [0u64; 2];
        for &element in set {
            mark_bucket(&mut words, element);
        }
        Sketch::with_len(words, len)
    }

    /// The sketch of these bucket bits and size.
    fn with_len(mut words: [u64; 2], len: u8) -> Sketch {
        words[1] |= u64::from(len) << LEN_SHIFT;
        Sketch(words)
    }

    /// The sketch of the set of `hashes`, given in any order, repeats
    /// included: [`Sketch::of`] the sorted, distinct set, without sorting
    /// it (for a short text's character pairs, the sort cost about as much
    /// as fingerprinting). Distinct hashes are counted in a small table;
    /// past 255 of them the set is not sketched.
    pub fn of_repeated(hashes: &[u64]) -> Sketch {
        // The table is zeroed on every call: one no larger than it needs
        // (a line of 60 characters has about 55 pairs).
        match hashes.len() {
            0..SMALL_TABLE_HASHES => Sketch::counted::<{ 2 * SMALL_TABLE_HASHES }>(hashes),
            SMALL_TABLE_HASHES..TABLE_HASHES => Sketch::counted::<{ 2 * TABLE_HASHES }>(hashes),
            _ => {
                let mut set = hashes.to_vec();
                set.sort_unstable();
                set.dedup();
                Sketch::of(&set)
            }
        }
    }

    /// The sketch of the set of `hashes`, given in any order, repeats
    /// included, when the set's size is known (`distinct`): the hashes
    /// are only put in their buckets, not counted.
    pub fn of_hashes_counted(hashes: &[u64], distinct: u64) -> Sketch {
        let Ok(len) = u8::try_from(distinct) else {
            return Sketch::NONE;
        };
        let mut words = [0u64; 2];
        for &hash in hashes {
            mark_bucket(&mut words, hash);
        }
        Sketch::with_len(words, len)
    }

    /// [`Sketch::of_repeated`] for fewer than `SLOTS / 2` hashes, counted
    /// in a table of `SLOTS` (a power of two).
    fn counted<const SLOTS: usize>(hashes: &[u64]) -> Sketch {
        // Open addressing; 0 marks an empty slot, so a hash of 0 is counted
        // apart. At most half full, so probes stay short.
        let mut slots = [0u64; SLOTS];
        let mask = SLOTS - 1;
        let mut words = [0u64; 2];
        let mut distinct = 0usize;
        let mut zero = false;
        for &hash in hashes {
            if hash == 0 {
                distinct += usize::from(!zero);
                zero = true;
            } else {
                let mut at = (hash as usize) & mask;
                loop {
                    match slots[at] {
                        0 => {
                            slots[at] = hash;
                            distinct += 1;
                            break;
                        }
                        seen if seen == hash => break,
                        _ => at = (at + 1) & mask,
                    }
                }
            }
            mark_bucket(&mut words, hash);
        }
        match u8::try_from(distinct) {
            Ok(len) => Sketch::with_len(words, len),
            Err(_) => Sketch::NONE,
        }
    }

    /// How many elements the set has.
    fn len(&self) -> u32 {
        (self.0[1] >> LEN_SHIFT) as u32
    }

    /// Elements of this set certainly not in `other`'s: one at least for
    /// each bucket of this set that `other` lacks.
    fn certainly_not_in(&self, other: &Sketch) -> u32 {
        (self.0[0] & !other.0[0]).count_ones()
            + (self.0[1] & !other.0[1] & SECOND_BUCKETS).count_ones()
    }

    /// The most elements the two sets can share.
    pub fn max_common(&self, other: &Sketch) -> u32 {
        (self.len() - self.certainly_not_in(other)).min(other.len() - other.certainly_not_in(self))
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
        let union = self.len() + other.len() - common;
        union == 0 || f64::from(common) / f64::from(union) >= threshold
    }
}

/// Hashes [`Sketch::of_repeated`] counts in its small table, at most.
const SMALL_TABLE_HASHES: usize = 64;

/// Hashes it counts in a table at all; more are sorted.
const TABLE_HASHES: usize = 256;

/// Sets the bit of `element`'s bucket.
fn mark_bucket(words: &mut [u64; 2], element: u64) {
    // Multiply-shift spreads the top 32 bits over the buckets evenly.
    let bucket = ((element >> 32) * BUCKETS) >> 32;
    words[(bucket >> 6) as usize] |= 1 << (bucket & 63);
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::verify::{Verdict, decide};

    /// An element that falls in `bucket`.
    fn element(bucket: u64, low: u64) -> u64 {
        ((bucket << 32).div_ceil(BUCKETS) << 32) | low
    }

    #[test]
    fn every_bucket_can_be_hit_and_the_size_is_kept() {
        let set: Vec<u64> = (0..BUCKETS).map(|bucket| element(bucket, 0)).collect();
        let sketch = Sketch::of(&set);
        assert_eq!(sketch.0[0], u64::MAX);
        assert_eq!(sketch.0[1] & SECOND_BUCKETS, SECOND_BUCKETS);
        assert_eq!(sketch.len(), 120);
        assert_eq!(Sketch::of(&vec![0; 256]), Sketch::NONE);
    }

    fn sorted(mut set: Vec<u64>) -> Vec<u64> {
        set.sort_unstable();
        set.dedup();
        set
    }

    #[test]
    fn sets_in_different_buckets_share_nothing() {
        let a = Sketch::of(&[element(1, 0), element(2, 0)]);
        let b = Sketch::of(&[element(3, 0), element(100, 0)]);
        assert_eq!(a.max_common(&b), 0);
        assert!(!a.may_reach(&b, 0.1));
        assert!(a.may_reach(&a, 1.0));
    }

    #[test]
    fn a_shared_bucket_allows_one_common_element() {
        // Buckets 1 and 2 against 1 and 3: one element of each set is
        // certainly not in the other.
        let a = Sketch::of(&[element(1, 0), element(2, 0)]);
        let b = Sketch::of(&[element(1, 5), element(3, 0)]);
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
        /// In any order, with repeats, the hashes give the sketch of their
        /// sorted, distinct set: zero among them, small sets and large.
        #[test]
        fn repeated_hashes_in_any_order_give_the_sketch_of_their_set(
            distinct in proptest::collection::vec(any::<u64>(), 0..300),
            repeats in proptest::collection::vec((any::<prop::sample::Index>(), 1usize..4), 0..300),
            zero in any::<bool>(),
            seed in any::<u64>(),
        ) {
            let mut hashes = distinct.clone();
            if zero {
                hashes.extend([0, 0]);
            }
            for (at, times) in &repeats {
                if !distinct.is_empty() {
                    let hash = distinct[at.index(distinct.len())];
                    hashes.extend(std::iter::repeat_n(hash, *times));
                }
            }
            // A deterministic shuffle.
            let mut state = seed;
            for i in (1..hashes.len()).rev() {
                state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                hashes.swap(i, (state >> 33) as usize % (i + 1));
            }
            let set = sorted(hashes.clone());
            prop_assert_eq!(Sketch::of_repeated(&hashes), Sketch::of(&set));
            prop_assert_eq!(Sketch::of_hashes_counted(&hashes, set.len() as u64), Sketch::of(&set));
        }

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
