//! MinHash bands of a set: keys that two sets share, band by band, with a
//! chance set by their Jaccard alone, so a table of kept sets by band key
//! proposes the kept sets near a new one whatever the rest of the stream
//! looks like (locality-sensitive hashing, Broder 1997; Leskovec,
//! Rajaraman and Ullman, "Mining of Massive Datasets", ch. 3).
//!
//! A set's [`ROWS`] x [`BANDS`] minimum hashes come from one pass over it
//! (one-permutation hashing: each element falls in one of the bins and
//! only the least value of each bin is kept; Li, Owen and Zhang, NIPS
//! 2012). A short text has fewer elements than bins, so an empty bin
//! takes the value of a bin picked by a hash of its number and an
//! attempt count, tried until one is not empty (optimal densification,
//! Shrivastava, ICML 2017): two sets then agree on a bin with
//! probability about their Jaccard J, and share a band's key with about
//! J^ROWS, whatever their size. A pair is proposed when it shares any of
//! the bands: [`expected_recall`].
//!
//! The elements are feature hashes, already uniform; they are mixed again
//! so the bins do not follow the buckets of the sketch (src/verify/sketch.rs).

/// Bands of a set: a pair is proposed when any band's keys are equal.
pub const BANDS: usize = 16;

/// Minimum hashes in a band: a band's keys are equal with probability
/// about J^ROWS. Eight keep unrelated lines apart where they share common
/// pairs (at J = 0.3, 7·10^-5 a band): on 10^6 generated address lines,
/// 7.5 candidates a line, where 6 rows in 12 bands gave 50.
pub const ROWS: usize = 8;

/// The band keys of a set.
pub type BandKeys = [u32; BANDS];

const BINS: usize = BANDS * ROWS;

/// log2 of [`BINS`]: a mixed hash's top bits pick its bin.
const BIN_BITS: u32 = BINS.trailing_zeros();

/// Attempts at a random non-empty bin before an empty one takes the next
/// non-empty bin after it (a set of one element leaves 127 of 128 bins
/// empty, and each attempt then succeeds with chance 1/128: this bound
/// is reached about once in 2.7 times 10^4 empty bins).
const DENSIFY_ATTEMPTS: u64 = 1 << 10;

/// The splitmix64 finaliser: a bijection of 64 bits whose every output
/// bit depends on every input bit.
#[inline]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Set apart from other uses of the same feature hashes.
const SEED: u64 = 0x6a09_e667_f3bc_c908;

/// Attempts of [`densified`] whose picks are held in [`PICKS`]: with 45
/// of 128 bins filled (a text of about 55 character pairs), all 32 miss
/// about once in 10^6 empty bins, and the rest are then computed.
const PICKS_HELD: usize = 32;

/// Picks an empty bin tries without a branch on each: with 45 of 128
/// bins filled, all 8 miss for 3% of the empty bins.
const FIRST_PICKS: usize = 8;

/// For each bin, the bins its first [`PICKS_HELD`] attempts pick: the
/// hashes depend on the bin and the attempt alone, and computing them
/// took most of the time of [`band_keys`].
static PICKS: std::sync::LazyLock<[[u8; PICKS_HELD]; BINS]> = std::sync::LazyLock::new(|| {
    std::array::from_fn(|bin| std::array::from_fn(|at| pick(bin, at as u64 + 1) as u8))
});

/// The bin that attempt `attempt` (from 1) of an empty `bin` picks.
#[inline]
fn pick(bin: usize, attempt: u64) -> usize {
    (mix(((bin as u64) << 32) ^ attempt ^ SEED) >> (64 - BIN_BITS)) as usize
}

/// The band keys of `set` (feature hashes, in any order, repeats
/// allowed: they change nothing). The empty set has keys of its own, all
/// zero.
pub fn band_keys(set: &[u64]) -> BandKeys {
    const EMPTY: u64 = u64::MAX;
    let mut bins = [EMPTY; BINS];
    // Bit `bin` set when the bin holds an element.
    let mut occupied: u128 = 0;
    // The same, a byte a bin: picks test it by a load, not a shift (256
    // bytes, so a pick's `u8` needs no bounds check).
    let mut is_filled = [0u8; 256];
    for &element in set {
        let hash = mix(element ^ SEED);
        let bin = (hash >> (64 - BIN_BITS)) as usize;
        // The low bits; never EMPTY.
        let value = hash & (u64::MAX >> BIN_BITS);
        bins[bin] = bins[bin].min(value);
        occupied |= 1 << bin;
        is_filled[bin] = 1;
    }
    if set.is_empty() {
        return [0; BANDS];
    }
    let filled = bins;
    let picks = &*PICKS;
    // Only the empty bins are visited. Whether a pick is filled is a bit
    // of `occupied`: an empty bin's first filled pick among its first
    // picks is found from a mask of those bits, without a branch on
    // each, so only the few bins whose first picks all miss take one
    // (a branch a pick was mispredicted about once a bin).
    let mut empty = !occupied;
    while empty != 0 {
        let bin = empty.trailing_zeros() as usize;
        empty &= empty - 1;
        let held = &picks[bin];
        let first = filled_picks(&is_filled, &held[..FIRST_PICKS]);
        bins[bin] = if first != 0 {
            filled[usize::from(held[first.trailing_zeros() as usize])]
        } else {
            match filled_picks(&is_filled, &held[FIRST_PICKS..]) {
                0 => densified(&filled, bin, PICKS_HELD as u64 + 1),
                rest => filled[usize::from(held[FIRST_PICKS + rest.trailing_zeros() as usize])],
            }
        };
    }
    // Row by row across the bands: the bands' hash chains are
    // independent, so their multiplications overlap.
    let mut hashes: [u64; BANDS] = std::array::from_fn(|band| band as u64);
    for row in 0..ROWS {
        for (band, hash) in hashes.iter_mut().enumerate() {
            *hash = mix(hash.rotate_left(29) ^ bins[band * ROWS + row]);
        }
    }
    hashes.map(|hash| (hash >> 32) as u32)
}

/// Bit `i` set when `picks[i]` is a filled bin (at most 32 picks).
#[inline]
fn filled_picks(is_filled: &[u8; 256], picks: &[u8]) -> u32 {
    picks.iter().enumerate().fold(0, |mask, (i, &pick)| {
        mask | u32::from(is_filled[usize::from(pick)]) << i
    })
}

/// The value an empty `bin` takes: that of the first non-empty bin among
/// those a hash of (bin, attempt) picks, from attempt `first`, else of
/// the next non-empty bin after it. `filled` has at least one non-empty
/// bin.
fn densified(filled: &[u64; BINS], bin: usize, first: u64) -> u64 {
    const EMPTY: u64 = u64::MAX;
    for attempt in first..=DENSIFY_ATTEMPTS {
        let pick = pick(bin, attempt);
        if filled[pick] != EMPTY {
            return filled[pick];
        }
    }
    (1..BINS)
        .map(|step| filled[(bin + step) % BINS])
        .find(|&value| value != EMPTY)
        .unwrap_or(EMPTY)
}

/// The chance that a pair of Jaccard `jaccard` shares at least one band:
/// 1 - (1 - J^ROWS)^BANDS (0.947 at 0.8, 0.9996 at 0.9).
pub fn expected_recall(jaccard: f64) -> f64 {
    let band = jaccard.clamp(0.0, 1.0).powi(ROWS as i32);
    1.0 - (1.0 - band).powi(BANDS as i32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn shared_bands(a: &BandKeys, b: &BandKeys) -> usize {
        a.iter().zip(b).filter(|(x, y)| x == y).count()
    }

    #[test]
    fn equal_sets_share_every_band_in_any_order_and_with_repeats() {
        let set: Vec<u64> = (0..40).map(mix).collect();
        let mut shuffled: Vec<u64> = set.iter().rev().copied().collect();
        shuffled.extend_from_slice(&set[..5]);
        assert_eq!(band_keys(&set), band_keys(&shuffled));
    }

    #[test]
    fn a_single_element_fills_every_bin() {
        let keys = band_keys(&[42]);
        // Every bin holds the one value, so the bands differ only by
        // their number.
        let distinct: std::collections::HashSet<u32> = keys.iter().copied().collect();
        assert_eq!(distinct.len(), BANDS);
        assert_eq!(band_keys(&[]), [0; BANDS]);
    }

    #[test]
    fn expected_recall_is_the_banding_curve() {
        assert!((expected_recall(0.8) - 0.947).abs() < 0.001);
        assert!(expected_recall(0.9) > 0.999);
        assert!(expected_recall(0.3) < 0.002);
        assert_eq!(expected_recall(1.0), 1.0);
        assert_eq!(expected_recall(0.0), 0.0);
    }

    /// Sets of `size` elements of which `common` are shared.
    fn pair(seed: u64, size: u64, common: u64) -> (Vec<u64>, Vec<u64>) {
        let shared = (0..common).map(|i| mix(seed ^ (i << 20)));
        let a: Vec<u64> = shared
            .clone()
            .chain((common..size).map(|i| mix(seed ^ (i << 20) ^ 1)))
            .collect();
        let b: Vec<u64> = shared
            .chain((common..size).map(|i| mix(seed ^ (i << 20) ^ 2)))
            .collect();
        (a, b)
    }

    #[test]
    fn bins_agree_about_as_often_as_the_jaccard_says() {
        // 40 elements each, 36 shared: J = 36 / 44. Over many pairs the
        // share of equal bands is about J^ROWS, and of pairs proposed
        // about the expected recall.
        let (size, common) = (40, 36);
        let jaccard = common as f64 / (2 * size - common) as f64;
        let pairs = 2000;
        let (mut bands, mut proposed) = (0, 0);
        for seed in 0..pairs {
            let (a, b) = pair(seed * 7919 + 1, size, common);
            let shared = shared_bands(&band_keys(&a), &band_keys(&b));
            bands += shared;
            proposed += usize::from(shared > 0);
        }
        let band_share = bands as f64 / (pairs as usize * BANDS) as f64;
        let want = jaccard.powi(ROWS as i32);
        assert!(
            (band_share - want).abs() < 0.25 * want,
            "{band_share} against {want}"
        );
        let recall = proposed as f64 / pairs as f64;
        assert!((recall - expected_recall(jaccard)).abs() < 0.05, "{recall}");
    }

    #[test]
    fn unrelated_sets_rarely_share_a_band() {
        let pairs = 2000;
        let proposed = (0..pairs)
            .filter(|&seed| {
                let (a, b) = pair(seed * 104_729 + 3, 40, 10);
                shared_bands(&band_keys(&a), &band_keys(&b)) > 0
            })
            .count();
        // J = 10 / 70: J^8 * 16 is about 2·10^-6.
        assert!(proposed <= 2, "{proposed} of {pairs}");
    }

    /// The band keys as first written: every attempt's pick hashed, the
    /// bands hashed one after another.
    fn band_keys_reference(set: &[u64]) -> BandKeys {
        const EMPTY: u64 = u64::MAX;
        let mut bins = [EMPTY; BINS];
        for &element in set {
            let hash = mix(element ^ SEED);
            let bin = (hash >> (64 - BIN_BITS)) as usize;
            bins[bin] = bins[bin].min(hash & (u64::MAX >> BIN_BITS));
        }
        if set.is_empty() {
            return [0; BANDS];
        }
        let filled = bins;
        for (bin, slot) in bins.iter_mut().enumerate() {
            if *slot == EMPTY {
                *slot = densified(&filled, bin, 1);
            }
        }
        std::array::from_fn(|band| {
            let rows = &bins[band * ROWS..(band + 1) * ROWS];
            let hash =
                rows.iter().fold(
                    band as u64,
                    |hash, &value| mix(hash.rotate_left(29) ^ value),
                );
            (hash >> 32) as u32
        })
    }

    proptest! {
        /// The held picks and the bands hashed side by side change no
        /// key; sets from 1 element (127 empty bins, some past the held
        /// picks) to more than the bins.
        #[test]
        fn keys_are_those_of_the_plain_computation(
            set in proptest::collection::vec(any::<u64>(), 0..300),
        ) {
            prop_assert_eq!(band_keys(&set), band_keys_reference(&set));
        }

        #[test]
        fn keys_depend_on_the_set_alone(
            set in proptest::collection::vec(any::<u64>(), 0..300),
            rotate in 0usize..300,
        ) {
            let mut other = set.clone();
            if !other.is_empty() {
                let by = rotate % other.len();
                other.rotate_left(by);
            }
            prop_assert_eq!(band_keys(&set), band_keys(&other));
        }
    }
}
