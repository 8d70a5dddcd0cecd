//! htm.core's sparse output (SDR): SIZE signed sums from SIZE-bit feature
//! hashes, and the indices of the ACTIVE largest sums.
//!
//! A feature's SIZE-bit hash is the first ceil(SIZE / 8) bytes of SHAKE256
//! of its bytes, read most significant bit first (bit j is bit 7 - j % 8 of
//! byte j / 8), as htm.core's `bytesToBits_` reads them. The sums and the
//! selection take injected bits too, so htm.core's worked examples can be
//! checked with their 9-bit toy hashes. Ties between equal sums go to the
//! lower index (htm.core takes the first maximum, repeatedly).

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

/// SIZE signed sums of weighted feature hashes.
#[derive(Clone, Debug)]
pub(crate) struct SdrSums {
    sums: Vec<i64>,
    digest: Vec<u8>,
    features: u64,
}

impl SdrSums {
    /// Zero sums for `size` bits.
    pub(crate) fn new(size: usize) -> Self {
        SdrSums {
            sums: vec![0; size],
            digest: vec![0; size.div_ceil(8)],
            features: 0,
        }
    }

    /// Adds a feature: hashes its bytes with SHAKE256 to SIZE bits.
    pub(crate) fn add_feature(&mut self, bytes: &[u8], weight: u32) {
        self.features += u64::from(weight > 0);
        shake256(bytes, &mut self.digest);
        let weight = i64::from(weight);
        for (j, sum) in self.sums.iter_mut().enumerate() {
            let bit = (self.digest[j / 8] >> (7 - j % 8)) & 1;
            let term = if bit == 1 { weight } else { -weight };
            *sum = sum.saturating_add(term);
        }
    }

    /// Adds an already hashed feature given as bits (`true` = 1).
    #[cfg(test)]
    pub(crate) fn add_bits(&mut self, bits: &[bool], weight: u32) {
        let weight = i64::from(weight);
        for (sum, &bit) in self.sums.iter_mut().zip(bits) {
            *sum = sum.saturating_add(if bit { weight } else { -weight });
        }
    }

    /// The sums so far.
    pub(crate) fn sums(&self) -> &[i64] {
        &self.sums
    }

    /// Features added with a weight above zero, as `Fingerprint::features`
    /// counts them.
    pub(crate) fn features(&self) -> u64 {
        self.features
    }
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
}
