//! The SimHash accumulator: 64 weighted bit sums, the final bits, and the
//! feature digest of the same features.
//!
//! Bit i of the fingerprint is 1 exactly when the sum over features of
//! (+w if the feature hash has bit i set, -w otherwise) is greater than 0,
//! that is when 2 * (weight of features with bit i set) > (total weight).
//!
//! Unit weights, the common case, are counted without a branch (nor table)
//! per bit, in two stages. A carry-save adder tree (as in Harley-Seal
//! population counts) adds eight hashes at a time into bit-sliced
//! counters: `ones`, `twos` and `fours` hold bit 0, 1 and 2 of each of the
//! 64 counts, and every eight hashes give one word of carries, `eights`.
//! Those are counted eight bits at a time: a shift and a mask put bits k,
//! k+8, ..., k+56 of the word in the low bits of the eight bytes of a u64,
//! so one addition bumps eight byte-wide counters (of eights). The byte
//! counters are flushed into wide sums before they can overflow. Other
//! weights take a plain loop the compiler unrolls. A document too small
//! to fill the byte counters (most records, under about 2,000 features)
//! never needs the wide sums: its bits are read from the counters
//! themselves, and the sums, a kilobyte, are not even allocated.
//!
//! The feature digest is the wrapping sum of `hash::digest_term` of every
//! hash added with a weight above zero, whatever the weight: unit hashes
//! are summed a batch at a time, in a loop of their own.

use super::hash::digest_term;

/// Bit 0 of every byte: `(hash >> k) & LOW_BIT_OF_EACH_BYTE` has, in byte
/// j, bit 8j + k of the hash.
const LOW_BIT_OF_EACH_BYTE: u64 = 0x0101_0101_0101_0101;

/// Additions a byte counter can take before it must be flushed.
const LANE_LIMIT: u32 = 255;

/// Unit hashes buffered before they are counted in one tight loop (with
/// the counters in registers rather than memory); a multiple of 8.
const BATCH: usize = 64;

/// Carry-save addition of three words, bit by bit: (carries, sums).
#[inline(always)]
fn csa(a: u64, b: u64, c: u64) -> (u64, u64) {
    let u = a ^ b;
    ((a & b) | (u & c), u ^ c)
}

/// A document's SimHash, feature digest and feature count.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Outcome {
    /// The fingerprint (0 without features).
    pub(crate) simhash: u64,
    /// The feature digest.
    pub(crate) digest: u64,
    /// The features counted.
    pub(crate) features: u64,
}

/// Accumulates weighted feature hashes into a 64-bit SimHash and a
/// feature digest.
#[derive(Clone, Debug)]
pub struct Accumulator {
    /// Unit-weight hashes not yet counted.
    batch: [u64; BATCH],
    batch_len: usize,
    /// Bit i of `ones`, `twos` and `fours` is bit 0, 1 and 2 of the count of
    /// unit hashes with bit i set, less eight times those in `lanes`.
    ones: u64,
    twos: u64,
    fours: u64,
    /// Byte j of `lanes[k]` counts the eights of unit hashes with bit
    /// 8j+k set.
    lanes: [u64; 8],
    /// Words of eights added to `lanes` since the last flush.
    in_lanes: u32,
    /// Weight of the features with bit i set, less what the counters
    /// above hold; absent until a weighted feature comes or the byte
    /// counters fill (boxed: moving an accumulator is then cheap).
    set_weight: Option<Box<[u128; 64]>>,
    /// Weight of all features.
    total_weight: u128,
    /// Wrapping sum of the digest terms of the counted hashes.
    digest: u64,
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator {
            batch: [0; BATCH],
            batch_len: 0,
            ones: 0,
            twos: 0,
            fours: 0,
            lanes: [0; 8],
            in_lanes: 0,
            set_weight: None,
            total_weight: 0,
            digest: 0,
        }
    }
}

impl Accumulator {
    /// An empty accumulator.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a feature hash with weight 1.
    #[inline(always)]
    pub fn add_unit(&mut self, hash: u64) {
        self.batch[self.batch_len] = hash;
        self.batch_len += 1;
        if self.batch_len == BATCH {
            self.count_batch();
        }
    }

    /// Adds a feature hash with weight 1 when `new`, without a branch on
    /// it (whether a feature is new is up to chance).
    #[inline(always)]
    pub fn add_unit_if(&mut self, hash: u64, new: bool) {
        self.batch[self.batch_len] = hash;
        self.batch_len += usize::from(new);
        if self.batch_len == BATCH {
            self.count_batch();
        }
    }

    /// Counts the buffered unit hashes.
    #[inline(never)]
    fn count_batch(&mut self) {
        // At most BATCH / 8 words of eights from whole groups, and one per
        // hash of the rest.
        if self.in_lanes + (BATCH / 8 + 8) as u32 > LANE_LIMIT {
            self.flush_lanes();
        }
        let batch = &self.batch[..self.batch_len];
        let (mut ones, mut twos, mut fours) = (self.ones, self.twos, self.fours);
        let mut lanes = self.lanes;
        let groups = batch.chunks_exact(8);
        let rest = groups.remainder();
        for h in groups {
            let (twos_a, ones_a) = csa(ones, h[0], h[1]);
            let (twos_b, ones_b) = csa(ones_a, h[2], h[3]);
            let (fours_a, twos_c) = csa(twos, twos_a, twos_b);
            let (twos_a, ones_c) = csa(ones_b, h[4], h[5]);
            let (twos_b, ones_d) = csa(ones_c, h[6], h[7]);
            let (fours_b, twos_d) = csa(twos_c, twos_a, twos_b);
            let (eights, fours_c) = csa(fours, fours_a, fours_b);
            (ones, twos, fours) = (ones_d, twos_d, fours_c);
            for (k, lane) in lanes.iter_mut().enumerate() {
                *lane += (eights >> k) & LOW_BIT_OF_EACH_BYTE;
            }
        }
        self.in_lanes += (batch.len() / 8) as u32;
        // The last few hashes of a document, one by one (a ripple carry).
        for &hash in rest {
            let carry = ones & hash;
            ones ^= hash;
            let carry_fours = twos & carry;
            twos ^= carry;
            let eights = fours & carry_fours;
            fours ^= carry_fours;
            for (k, lane) in lanes.iter_mut().enumerate() {
                *lane += (eights >> k) & LOW_BIT_OF_EACH_BYTE;
            }
            self.in_lanes += 1;
        }
        (self.ones, self.twos, self.fours) = (ones, twos, fours);
        self.lanes = lanes;
        self.total_weight += batch.len() as u128;
        // A loop of its own: 64-bit multiplies would keep the one above
        // from being vectorised.
        self.digest = batch.iter().fold(self.digest, |digest, &hash| {
            digest.wrapping_add(digest_term(hash))
        });
        self.batch_len = 0;
    }

    /// Adds a feature hash with weight `weight`.
    #[inline]
    pub fn add(&mut self, hash: u64, weight: u32) {
        if weight == 1 {
            return self.add_unit(hash);
        }
        if weight == 0 {
            return;
        }
        self.digest = self.digest.wrapping_add(digest_term(hash));
        self.add_weight(hash, weight);
    }

    /// Adds `extra` weight to a hash added before with a weight above
    /// zero: the sums grow, its digest term is not added again.
    #[inline]
    pub fn add_weight(&mut self, hash: u64, extra: u32) {
        let extra = u128::from(extra);
        for (i, sum) in self.wide().iter_mut().enumerate() {
            *sum += u128::from((hash >> i) & 1) * extra;
        }
        self.total_weight += extra;
    }

    /// The wide sums, allocated (zero) on first use.
    #[inline]
    fn wide(&mut self) -> &mut [u128; 64] {
        self.set_weight.get_or_insert_with(|| Box::new([0; 64]))
    }

    /// Counts everything buffered into the wide sums.
    fn flush(&mut self) {
        self.count_batch();
        self.flush_lanes();
        let (ones, twos, fours) = (self.ones, self.twos, self.fours);
        for (i, set) in self.wide().iter_mut().enumerate() {
            let bit = |word: u64| u128::from((word >> i) & 1);
            *set += bit(ones) + 2 * bit(twos) + 4 * bit(fours);
        }
        (self.ones, self.twos, self.fours) = (0, 0, 0);
    }

    /// Moves the byte counters (of eights) into the wide sums.
    #[cold]
    fn flush_lanes(&mut self) {
        let lanes = std::mem::take(&mut self.lanes);
        let wide = self.wide();
        for (k, lane) in lanes.iter().enumerate() {
            for j in 0..8 {
                wide[8 * j + k] += 8 * u128::from((lane >> (8 * j)) & 0xFF);
            }
        }
        self.in_lanes = 0;
    }

    /// [`Accumulator::simhash`] from the counters alone, while the wide
    /// sums hold nothing. Bit i's count is 8e + c, e a byte of `lanes` and
    /// c the three-bit number in `ones`, `twos` and `fours`; it passes
    /// half the total when it reaches m = total / 2 + 1, that is when
    /// e > m / 8, or e = m / 8 and c >= m % 8. The bytes are compared
    /// eight at a time, in a word (a loop over the 64 counts took a fifth
    /// of a one-line record's fingerprint).
    fn narrow_simhash(&self) -> u64 {
        const HIGH: u64 = 0x8080_8080_8080_8080;
        const LOW: u64 = !HIGH;
        let least = (self.total_weight / 2 + 1) as u64;
        let (eights, rest) = (least >> 3, least & 7);
        if eights > 0xFF {
            return 0; // a byte counter holds at most 255
        }
        let wide_eights = eights * LOW_BIT_OF_EACH_BYTE;
        let (mut above, mut equal) = (0u64, 0u64);
        for (k, &lane) in self.lanes.iter().enumerate() {
            // Bit 7 of each byte: the low seven bits of `eights` are at
            // least the lane's (no borrow crosses a byte).
            let low_at_least = (wide_eights | HIGH).wrapping_sub(lane & LOW);
            let greater = ((lane & !wide_eights) | (!(lane ^ wide_eights) & !low_at_least)) & HIGH;
            let diff = lane ^ wide_eights;
            let same = !(((diff & LOW) + LOW) | diff) & HIGH;
            // Byte j of lane k counts bit 8j + k.
            above |= (greater >> 7) << k;
            equal |= (same >> 7) << k;
        }
        // c >= rest, bit-sliced, from the lowest bit up.
        let at_least = [self.ones, self.twos, self.fours].iter().enumerate().fold(
            u64::MAX,
            |at_least, (bit, &word)| {
                if (rest >> bit) & 1 == 1 {
                    word & at_least
                } else {
                    word | at_least
                }
            },
        );
        above | (equal & at_least)
    }

    /// The feature digest: the wrapping sum of the digest terms of the
    /// hashes added with a weight above zero.
    pub fn feature_digest(&mut self) -> u64 {
        self.count_batch();
        self.digest
    }

    /// The signed sum of bit i: (set weight) - (unset weight).
    pub fn sum(&mut self, i: usize) -> i128 {
        self.flush();
        let set = self.wide()[i % 64] as i128;
        2 * set - self.total_weight as i128
    }

    /// What `features` counted features come to: the fingerprint (0
    /// without features) and the feature digest. Read in place, so an
    /// accumulator (some 650 bytes) is not moved out to be read: three
    /// such moves took a tenth of a one-line record's fingerprint.
    pub(crate) fn outcome(&mut self, features: u64) -> Outcome {
        let digest = self.feature_digest();
        let simhash = if features == 0 { 0 } else { self.simhash() };
        Outcome {
            simhash,
            digest,
            features,
        }
    }

    /// The fingerprint: bit i is 1 when its sum is greater than 0.
    pub fn simhash(&mut self) -> u64 {
        self.count_batch();
        if self.set_weight.is_none() {
            return self.narrow_simhash();
        }
        self.flush();
        let total = self.total_weight;
        let wide = self.wide();
        (0..64).fold(0, |bits, i| bits | u64::from(2 * wide[i] > total) << i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The 64 signed sums by their definition.
    fn naive_sums(features: &[(u64, u32)]) -> Vec<i128> {
        let mut sums = vec![0i128; 64];
        for &(hash, weight) in features {
            for (i, sum) in sums.iter_mut().enumerate() {
                let w = i128::from(weight);
                *sum += if (hash >> i) & 1 == 1 { w } else { -w };
            }
        }
        sums
    }

    /// The textbook definition: 64 signed sums, bit set when positive.
    fn naive(features: &[(u64, u32)]) -> u64 {
        let sums = naive_sums(features);
        (0..64)
            .filter(|&i| sums[i] > 0)
            .fold(0, |bits, i| bits | (1 << i))
    }

    #[test]
    fn ties_give_zero_bits() {
        let mut acc = Accumulator::new();
        acc.add_unit(0b01);
        acc.add_unit(0b10);
        assert_eq!(acc.sum(0), 0);
        assert_eq!(acc.simhash(), 0);
    }

    #[test]
    fn thousands_of_equal_hashes_do_not_overflow_the_byte_counters() {
        // Every word of eights is all ones: each byte counter is bumped each
        // time, so the counters must be flushed in time.
        let mut acc = Accumulator::new();
        for _ in 0..3001 {
            acc.add_unit(u64::MAX);
        }
        for _ in 0..1000 {
            acc.add_unit(0x8000_0000_0000_0001);
        }
        acc.add(u64::MAX, 2);
        assert_eq!(acc.sum(0), 3001 + 1000 + 2);
        assert_eq!(acc.sum(1), 3001 - 1000 + 2);
        assert_eq!(acc.sum(63), 3001 + 1000 + 2);
        assert_eq!(acc.simhash(), u64::MAX);
    }

    proptest! {
        // Beyond 255 words of eights (2040 unit hashes): the byte counters
        // are flushed, and the last hashes are not a whole group of eight.
        #[test]
        fn many_unit_hashes_equal_the_naive_signed_sums(
            hashes in proptest::collection::vec(any::<u64>(), 2000..2600),
            weighted in proptest::collection::vec((any::<u64>(), 2u32..5), 0..3),
        ) {
            let mut acc = Accumulator::new();
            let mut features: Vec<(u64, u32)> = hashes.iter().map(|&h| (h, 1)).collect();
            features.extend(&weighted);
            for &(hash, weight) in &features {
                acc.add(hash, weight);
            }
            let sums: Vec<i128> = (0..64).map(|i| acc.sum(i)).collect();
            prop_assert_eq!(sums, naive_sums(&features));
            prop_assert_eq!(acc.simhash(), naive(&features));
        }

        // Unit hashes alone, read without the wide sums while the byte
        // counters hold them all, and with them past about 2,000.
        #[test]
        fn unit_hashes_equal_the_naive_bits(
            hashes in proptest::collection::vec(any::<u64>(), 0..2300),
        ) {
            let mut acc = Accumulator::new();
            for &hash in &hashes {
                acc.add_unit(hash);
            }
            let features: Vec<(u64, u32)> = hashes.iter().map(|&h| (h, 1)).collect();
            prop_assert_eq!(acc.simhash(), naive(&features));
        }

        #[test]
        fn equals_the_naive_signed_sums(
            features in proptest::collection::vec((any::<u64>(), prop_oneof![Just(1u32), 0u32..5]), 0..700),
        ) {
            let mut acc = Accumulator::new();
            for &(hash, weight) in &features {
                acc.add(hash, weight);
            }
            prop_assert_eq!(acc.simhash(), naive(&features));
        }

        #[test]
        fn digest_sums_the_terms_of_counted_hashes_in_any_order(
            features in proptest::collection::vec((any::<u64>(), prop_oneof![Just(1u32), 0u32..5]), 0..700),
        ) {
            let expected = features
                .iter()
                .filter(|&&(_, weight)| weight > 0)
                .fold(0u64, |sum, &(hash, _)| sum.wrapping_add(digest_term(hash)));
            let mut forward = Accumulator::new();
            let mut backward = Accumulator::new();
            for &(hash, weight) in &features {
                forward.add(hash, weight);
            }
            for &(hash, weight) in features.iter().rev() {
                backward.add(hash, weight);
            }
            prop_assert_eq!(forward.feature_digest(), expected);
            prop_assert_eq!(backward.feature_digest(), expected);
            // Reading the digest does not disturb the sums.
            prop_assert_eq!(forward.simhash(), naive(&features));
        }
    }
}
