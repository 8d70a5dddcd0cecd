//! Feature hashes: a feature's bytes to 64 bits (xxh3 or SHAKE256), and the
//! longer SHAKE256 digests of the sparse (SDR) output.
//!
//! Nothing here knows what a feature is; callers hand over bytes.

use shake::{ExtendableOutput, Shake256};
use xxhash_rust::xxh3::xxh3_64;

use super::options::FeatureHash;

/// The 64-bit hash of a feature: xxh3-64 with seed 0, or the first 8 bytes
/// of SHAKE256 read as a little-endian integer.
#[inline]
pub fn feature_hash(kind: FeatureHash, bytes: &[u8]) -> u64 {
    match kind {
        FeatureHash::Xxh3 => xxh3_64(bytes),
        FeatureHash::Sha3 => {
            let mut out = [0u8; 8];
            Shake256::digest_xof(bytes, &mut out);
            u64::from_le_bytes(out)
        }
    }
}

/// Fills `out` with the SHAKE256 output of `bytes` (for SDR bits).
pub(crate) fn shake256(bytes: &[u8], out: &mut [u8]) {
    Shake256::digest_xof(bytes, out);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shake256_matches_the_fips_202_empty_message_vector() {
        let mut out = [0u8; 8];
        shake256(b"", &mut out);
        assert_eq!(out, [0x46, 0xb9, 0xdd, 0x2b, 0x0b, 0xa8, 0x8d, 0x13]);
        assert_eq!(feature_hash(FeatureHash::Sha3, b""), 0x138d_a80b_2bdd_b946);
    }

    #[test]
    fn xxh3_uses_seed_zero() {
        // Reference value of XXH3_64bits("") from the xxHash project.
        assert_eq!(feature_hash(FeatureHash::Xxh3, b""), 0x2d06_8005_38d3_94c2);
    }
}
