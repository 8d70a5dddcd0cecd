//! The SimHash accumulator: 64 weighted bit sums, the final bits, and the
//! feature digest of the same features.
//!
//! Bit i of the fingerprint is 1 exactly when the sum over features of
//! (+w if the feature hash has bit i set, -w otherwise) is greater than 0,
//! that is when 2 * (weight of features with bit i set) > (total weight).
//! Unit weights, the common case, are counted eight bits at a time: a
//! shift and a mask put bits k, k+8, ..., k+56 of the hash in the low bits
//! of the eight bytes of a u64, so one addition bumps eight byte-wide
//! counters, with no branch (nor table) per bit. The byte counters are
//! flushed into wide sums before they can overflow. Other weights take a
//! plain loop the compiler unrolls.
//!
//! The feature digest is the wrapping sum of `hash::digest_term` of every
//! hash added with a weight above zero, whatever the weight: unit hashes
//! are summed a batch at a time, in a loop of their own.

use super::hash::digest_term;

/// Bit 0 of every byte: `(hash >> k) & LOW_BIT_OF_EACH_BYTE` has, in byte
/// j, bit 8j + k of the hash.
const LOW_BIT_OF_EACH_BYTE: u64 = 0x0101_0101_0101_0101;

/// Unit additions a byte counter can take before it must be flushed.
const LANE_LIMIT: u32 = 255;

/// Unit hashes buffered before they are counted in one tight loop (with
/// the counters in registers rather than memory).
const BATCH: usize = 64;

/// Accumulates weighted feature hashes into a 64-bit SimHash and a
/// feature digest.
#[derive(Clone, Debug)]
pub struct Accumulator {
    /// Unit-weight hashes not yet counted.
    batch: [u64; BATCH],
    batch_len: usize,
    /// Byte j of `lanes[k]` counts unit features with bit 8j+k set.
    lanes: [u64; 8],
    /// Unit features added to `lanes` since the last flush.
    in_lanes: u32,
    /// Weight of the features with bit i set.
    set_weight: [u128; 64],
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
            lanes: [0; 8],
            in_lanes: 0,
            set_weight: [0; 64],
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

    /// Counts the buffered unit hashes into the byte counters.
    #[inline(never)]
    fn count_batch(&mut self) {
        if self.in_lanes + BATCH as u32 > LANE_LIMIT {
            self.flush_lanes();
        }
        let batch = &self.batch[..self.batch_len];
        let mut lanes = self.lanes;
        for &hash in batch {
            for (k, lane) in lanes.iter_mut().enumerate() {
                *lane += (hash >> k) & LOW_BIT_OF_EACH_BYTE;
            }
        }
        self.lanes = lanes;
        // A loop of its own: 64-bit multiplies would keep the one above
        // from being vectorised.
        self.digest = batch.iter().fold(self.digest, |digest, &hash| {
            digest.wrapping_add(digest_term(hash))
        });
        self.in_lanes += self.batch_len as u32;
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
        let weight = u128::from(weight);
        for (i, sum) in self.set_weight.iter_mut().enumerate() {
            *sum += u128::from((hash >> i) & 1) * weight;
        }
        self.total_weight += weight;
    }

    /// Counts everything buffered into the wide sums.
    fn flush(&mut self) {
        self.count_batch();
        self.flush_lanes();
    }

    /// Moves the byte counters into the wide sums.
    fn flush_lanes(&mut self) {
        for (k, lane) in self.lanes.iter_mut().enumerate() {
            for j in 0..8 {
                self.set_weight[8 * j + k] += u128::from((*lane >> (8 * j)) & 0xFF);
            }
            *lane = 0;
        }
        self.total_weight += u128::from(self.in_lanes);
        self.in_lanes = 0;
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
        let set = self.set_weight[i % 64] as i128;
        2 * set - self.total_weight as i128
    }

    /// The fingerprint: bit i is 1 when its sum is greater than 0.
    pub fn simhash(&mut self) -> u64 {
        self.flush();
        let mut bits = 0u64;
        for (i, set) in self.set_weight.iter().enumerate() {
            if 2 * set > self.total_weight {
                bits |= 1 << i;
            }
        }
        bits
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The textbook definition: 64 signed sums, bit set when positive.
    fn naive(features: &[(u64, u32)]) -> u64 {
        let mut sums = [0i128; 64];
        for &(hash, weight) in features {
            for (i, sum) in sums.iter_mut().enumerate() {
                let w = i128::from(weight);
                *sum += if (hash >> i) & 1 == 1 { w } else { -w };
            }
        }
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

    proptest! {
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
