//! htm.core's sparse output (SDR): SIZE signed sums from SIZE-bit feature
//! hashes, and the indices of the ACTIVE largest sums.
//!
//! A feature's SIZE-bit hash is the first ceil(SIZE / 8) bytes of SHAKE256
//! of its bytes, read most significant bit first (bit j is bit 7 - j % 8 of
//! byte j / 8), as htm.core's `bytesToBits_` reads them. The sums and the
//! selection take injected bits too, so htm.core's worked examples can be
//! checked with their 9-bit toy hashes. Ties between equal sums go to the
//! lower index (htm.core takes the first maximum, repeatedly).
//!
//! The sums are linear in the weights, so a feature that occurs c times
//! is added once with its total weight: callers count the distinct
//! features of a document first, and SHAKE256, by far the largest cost,
//! runs once per distinct feature.

use std::fmt;
use std::str::FromStr;

use super::hash::shake256;
use crate::{Error, Result};

/// Largest SDR size accepted; bounds the memory of the sums.
pub const MAX_SDR_SIZE: usize = 1 << 16;

/// The shape of a sparse output: SIZE bits of which ACTIVE are on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SdrShape {
    /// Total number of bits.
    pub size: usize,
    /// Number of bits set (the largest sums).
    pub active: usize,
}

impl SdrShape {
    /// Checks 1 <= ACTIVE < SIZE <= [`MAX_SDR_SIZE`] (htm.core's rule).
    pub fn validate(&self) -> Result<()> {
        if self.active == 0 || self.active >= self.size || self.size > MAX_SDR_SIZE {
            return Err(Error::Usage(format!(
                "invalid SDR shape '{self}': expected SIZE:ACTIVE with 0 < ACTIVE < SIZE <= {MAX_SDR_SIZE}"
            )));
        }
        Ok(())
    }
}

impl fmt::Display for SdrShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.size, self.active)
    }
}

impl FromStr for SdrShape {
    type Err = Error;

    /// Parses `SIZE:ACTIVE`, e.g. `400:21`.
    fn from_str(value: &str) -> Result<Self> {
        let bad = || {
            Error::Usage(format!(
                "invalid SDR shape '{value}': expected SIZE:ACTIVE with 0 < ACTIVE < SIZE <= {MAX_SDR_SIZE}"
            ))
        };
        let (size, active) = value.split_once(':').ok_or_else(bad)?;
        let shape = SdrShape {
            size: size.parse().map_err(|_| bad())?,
            active: active.parse().map_err(|_| bad())?,
        };
        shape.validate().map_err(|_| bad())?;
        Ok(shape)
    }
}

/// Bit 0 of every byte: `(word >> k) & LOW_BIT_OF_EACH_BYTE` has, in byte
/// b, bit 8b + k of the word.
const LOW_BIT_OF_EACH_BYTE: u64 = 0x0101_0101_0101_0101;

/// Additions a byte-wide counter can take before it must be flushed.
const LANE_LIMIT: u32 = 255;

/// Byte-wide counters of the digests added with one power of two of the
/// weight: `lanes[k * words + w]` has in byte b the number of those digests
/// with bit k of digest byte 8w + b set.
#[derive(Clone, Debug)]
struct Plane {
    lanes: Vec<u64>,
    /// Digests added since the last flush.
    adds: u32,
}

/// SIZE signed sums of weighted feature hashes.
///
/// Sum j is `2 * set[j] - total`: `set[j]` is the weight of the features
/// whose bit j is 1, `total` the weight of all. A digest is added without
/// a branch per bit: for each set bit s of the weight, its words go into
/// the byte counters of plane s, eight bits of a word at a time (a shift
/// and a mask put bits k, k+8, ..., k+56 in the low bits of the eight
/// bytes, so one addition bumps eight counters). A plane is flushed into
/// the wide `set`, times 2^s, before a byte can overflow.
#[derive(Clone, Debug)]
pub(crate) struct SdrSums {
    size: usize,
    /// 64-bit words of a digest: ceil(SIZE / 64).
    words: usize,
    /// The digest bytes (SHAKE256 output), zero beyond ceil(SIZE / 8).
    bytes: Vec<u8>,
    /// The digest as little-endian words.
    digest: Vec<u64>,
    /// Plane s counts the digests added with bit s of their weight set
    /// (made when first needed).
    planes: Vec<Option<Plane>>,
    /// Weight of the features with bit j set, for j < 64 * words.
    set: Vec<u128>,
    /// Weight of all features.
    total: u128,
    /// Features added with a weight above zero.
    features: u64,
    /// The signed sums, as last computed by [`Self::sums`].
    sums: Vec<i64>,
}

impl SdrSums {
    /// Zero sums for `size` bits.
    pub(crate) fn new(size: usize) -> Self {
        let words = size.div_ceil(64);
        SdrSums {
            size,
            words,
            bytes: vec![0; 8 * words],
            digest: vec![0; words],
            planes: vec![None; 64],
            set: vec![0; 64 * words],
            total: 0,
            features: 0,
            sums: Vec::new(),
        }
    }

    /// Adds a feature with its total weight: hashes its bytes with SHAKE256
    /// to SIZE bits.
    pub(crate) fn add_feature(&mut self, bytes: &[u8], weight: u64) {
        shake256(bytes, &mut self.bytes[..self.size.div_ceil(8)]);
        self.add_digest(weight);
    }

    /// Adds an already hashed feature given as bits (`true` = 1).
    #[cfg(test)]
    pub(crate) fn add_bits(&mut self, bits: &[bool], weight: u32) {
        self.bytes.fill(0);
        for (j, &bit) in bits.iter().enumerate().take(self.size) {
            self.bytes[j / 8] |= u8::from(bit) << (7 - j % 8);
        }
        self.add_digest(u64::from(weight));
    }

    /// Adds the digest in `self.bytes` with weight `weight`.
    fn add_digest(&mut self, weight: u64) {
        if weight == 0 {
            return;
        }
        self.features += 1;
        self.total += u128::from(weight);
        for (word, bytes) in self.digest.iter_mut().zip(self.bytes.chunks_exact(8)) {
            let mut le = [0u8; 8];
            le.copy_from_slice(bytes);
            *word = u64::from_le_bytes(le);
        }
        let mut rest = weight;
        while rest != 0 {
            let s = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let words = self.words;
            let plane = self.planes[s].get_or_insert_with(|| Plane {
                lanes: vec![0; 8 * words],
                adds: 0,
            });
            if plane.adds == LANE_LIMIT {
                flush(plane, s, words, &mut self.set);
            }
            for (k, lanes) in plane.lanes.chunks_exact_mut(words).enumerate() {
                for (lane, &word) in lanes.iter_mut().zip(&self.digest) {
                    *lane += (word >> k) & LOW_BIT_OF_EACH_BYTE;
                }
            }
            plane.adds += 1;
        }
    }

    /// The signed sums so far (a sum beyond the range of i64 is clamped).
    pub(crate) fn sums(&mut self) -> &[i64] {
        for (s, plane) in self.planes.iter_mut().enumerate() {
            if let Some(plane) = plane {
                flush(plane, s, self.words, &mut self.set);
            }
        }
        let total = self.total as i128;
        self.sums.clear();
        self.sums.extend(self.set[..self.size].iter().map(|&set| {
            let sum = 2 * set as i128 - total;
            sum.clamp(i64::MIN.into(), i64::MAX.into()) as i64
        }));
        &self.sums
    }

    /// Features added with a weight above zero.
    pub(crate) fn features(&self) -> u64 {
        self.features
    }
}

/// Moves the byte counters of plane `s` into `set`, times 2^s.
fn flush(plane: &mut Plane, s: usize, words: usize, set: &mut [u128]) {
    if plane.adds == 0 {
        return;
    }
    for (k, lanes) in plane.lanes.chunks_exact_mut(words).enumerate() {
        for (w, lane) in lanes.iter_mut().enumerate() {
            for b in 0..8 {
                let count = (*lane >> (8 * b)) & 0xFF;
                // Bit k of digest byte 8w + b is bit 8 (8w + b) + 7 - k.
                set[64 * w + 8 * b + 7 - k] += u128::from(count) << s;
            }
            *lane = 0;
        }
    }
    plane.adds = 0;
}

/// The indices of the `active` largest sums, ascending; among equal sums
/// the lower index wins.
pub(crate) fn select_top(sums: &[i64], active: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..sums.len()).collect();
    order.sort_by(|&a, &b| sums[b].cmp(&sums[a]).then(a.cmp(&b)));
    order.truncate(active);
    order.sort_unstable();
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn bits(text: &str) -> Vec<bool> {
        text.split_whitespace().map(|b| b == "1").collect()
    }

    fn dense(indices: &[usize], size: usize) -> Vec<u8> {
        (0..size).map(|i| u8::from(indices.contains(&i))).collect()
    }

    // Seed 000, "Example when tokenSimilarity is OFF": injected 9-bit hashes.
    #[test]
    fn htm_core_example_without_token_similarity() {
        let mut sums = SdrSums::new(9);
        for hash in [
            "0 1 0 1 0 1 0 1 1",
            "0 0 0 1 0 0 1 0 0",
            "1 0 0 1 0 1 0 1 0",
        ] {
            sums.add_bits(&bits(hash), 1);
        }
        assert_eq!(sums.sums(), [-1, -1, -3, 3, -3, 1, -1, 1, -1]);
        let chosen = select_top(sums.sums(), 3);
        assert_eq!(dense(&chosen, 9), [0, 0, 0, 1, 0, 1, 0, 1, 0]);
    }

    // Seed 000, "Example when tokenSimilarity ON": tokens and their characters.
    // Token weights are 1 * 1.5 truncated = 1, as in htm.core.
    #[test]
    fn htm_core_example_with_token_similarity() {
        let (h, e, l, o) = (
            "1 0 1 1 0 1 0 0 1",
            "0 1 0 1 1 0 0 0 1",
            "1 1 0 1 1 0 1 0 0",
            "1 1 1 0 0 0 0 0 0",
        );
        let (t, r, w) = (
            "1 1 1 0 1 0 1 0 1",
            "0 0 0 1 1 0 0 0 0",
            "0 0 0 0 1 1 1 0 1",
        );
        // The example's "world" spells its r and d with these hashes.
        let (r2, d) = ("0 0 1 1 0 0 0 1 1", "0 1 0 0 1 0 0 0 0");
        let features = [
            "0 1 0 1 0 1 0 1 1",
            h,
            e,
            l,
            l,
            o,
            "0 0 0 1 0 0 1 0 0",
            t,
            h,
            e,
            r,
            e,
            "1 0 0 1 0 1 0 1 0",
            w,
            o,
            r2,
            l,
            d,
        ];
        let mut sums = SdrSums::new(9);
        for hash in features {
            sums.add_bits(&bits(hash), 1);
        }
        // The seed prints [+0 +2 -6 +8 -2 -8 -6 -12 +0] (so does htm.core's
        // README); its own hash table gives +4 and +2 for bits 1 and 4, and
        // agrees with every other printed sum.
        assert_eq!(sums.sums(), [0, 4, -6, 8, 2, -8, -6, -12, 0]);
        // The selection, from the sums as printed, gives the printed bits.
        let printed = [0, 2, -6, 8, -2, -8, -6, -12, 0];
        assert_eq!(
            dense(&select_top(&printed, 4), 9),
            [1, 1, 0, 1, 0, 0, 0, 0, 1]
        );
        // Zero sums are selected here: top-N is not the dense rule (sum > 0).
        assert_eq!(
            dense(&select_top(sums.sums(), 4), 9),
            [1, 1, 0, 1, 1, 0, 0, 0, 0]
        );
    }

    #[test]
    fn ties_go_to_the_lower_index() {
        assert_eq!(select_top(&[0, 2, 0, 0], 2), [0, 1]);
        assert_eq!(select_top(&[5, 5, 5], 1), [0]);
    }

    #[test]
    fn shape_parses_and_rejects() {
        assert_eq!(
            "400:21".parse::<SdrShape>().unwrap(),
            SdrShape {
                size: 400,
                active: 21
            }
        );
        for bad in ["400", "400:0", "400:400", "x:2", "99999999:3"] {
            let message = bad.parse::<SdrShape>().unwrap_err().to_string();
            assert!(
                message.contains(bad) && message.contains("SIZE:ACTIVE"),
                "{message}"
            );
        }
    }

    #[test]
    fn feature_bits_are_read_most_significant_first() {
        let mut sums = SdrSums::new(9);
        sums.add_feature(b"", 1);
        // SHAKE256("") starts 0x46 = 0100_0110, then 0xb9 = 1011_1001.
        assert_eq!(sums.sums(), [-1, 1, -1, -1, -1, 1, 1, -1, 1]);
    }

    /// The definition: SIZE sums of +w (bit set) or -w (bit clear).
    fn naive_sums(size: usize, features: &[(Vec<bool>, u32)]) -> Vec<i64> {
        let mut sums = vec![0i64; size];
        for (bits, weight) in features {
            for (sum, &bit) in sums.iter_mut().zip(bits) {
                let w = i64::from(*weight);
                *sum += if bit { w } else { -w };
            }
        }
        sums
    }

    /// Bits of SIZE from random words (cheaper to generate than bools).
    fn to_bits(words: &[u64], size: usize) -> Vec<bool> {
        (0..size)
            .map(|j| (words[j / 64] >> (j % 64)) & 1 == 1)
            .collect()
    }

    fn features_strategy() -> impl Strategy<Value = (usize, Vec<(Vec<bool>, u32)>)> {
        (1usize..200).prop_flat_map(|size| {
            let weight = prop_oneof![
                4 => Just(1u32),
                2 => 0u32..6,
                1 => 0u32..=1_000_000,
            ];
            let bits = proptest::collection::vec(any::<u64>(), size.div_ceil(64))
                .prop_map(move |words| to_bits(&words, size));
            (
                Just(size),
                proptest::collection::vec((bits, weight), 0..700),
            )
        })
    }

    proptest! {
        // Up to 700 features: the byte counters of a plane are flushed.
        #[test]
        fn sums_equal_the_naive_signed_sums((size, features) in features_strategy()) {
            let mut sums = SdrSums::new(size);
            for (bits, weight) in &features {
                sums.add_bits(bits, *weight);
            }
            let naive = naive_sums(size, &features);
            prop_assert_eq!(sums.sums(), naive.as_slice());
            let counted = features.iter().filter(|(_, w)| *w > 0).count() as u64;
            prop_assert_eq!(sums.features(), counted);
        }

        #[test]
        fn one_feature_with_weight_c_is_c_features(
            words in proptest::collection::vec(any::<u64>(), 5),
            size in 1usize..300,
            c in 1u32..600,
        ) {
            let bits = to_bits(&words, size);
            let mut once = SdrSums::new(size);
            once.add_bits(&bits, c);
            let mut repeated = SdrSums::new(size);
            for _ in 0..c {
                repeated.add_bits(&bits, 1);
            }
            prop_assert_eq!(once.sums(), repeated.sums());
        }
    }

    #[test]
    fn sums_are_read_again_after_more_features() {
        let mut sums = SdrSums::new(70);
        sums.add_feature(b"a", 2);
        let first = sums.sums().to_vec();
        sums.add_feature(b"a", 3);
        let scaled: Vec<i64> = first.iter().map(|s| s / 2 * 5).collect();
        assert_eq!(sums.sums(), scaled.as_slice());
    }
}
