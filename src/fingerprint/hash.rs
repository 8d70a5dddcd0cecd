//! Feature hashes: a feature's bytes to 64 bits (xxh3 or SHAKE256), the
//! longer SHAKE256 digests of the sparse (SDR) output, and the mix that
//! turns a feature hash into its term of the feature digest.
//!
//! Nothing here knows what a feature is; callers hand over bytes. SHAKE256
//! comes from the `sha3` crate (FIPS 202), xxh3 from `xxhash-rust`.

use sha3::Shake256;
use sha3::digest::{ExtendableOutput, Update, XofReader};
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
            shake256(bytes, &mut out);
            u64::from_le_bytes(out)
        }
    }
}

/// Fills `out` with the first `out.len()` bytes of SHAKE256 of `bytes`.
#[inline]
pub(crate) fn shake256(bytes: &[u8], out: &mut [u8]) {
    let mut hasher = Shake256::default();
    hasher.update(bytes);
    hasher.finalize_xof().read(out);
}

/// The term a feature hash adds to `Fingerprint::feature_digest`: the
/// splitmix64 output function of `hash` (add the golden-ratio increment,
/// then the finaliser). A bijection whose every output bit depends on
/// every input bit, so wrapping sums of these terms, unlike sums of raw
/// hashes, have no simple linear relations between documents.
#[inline(always)]
pub(crate) fn digest_term(hash: u64) -> u64 {
    let mut z = hash.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
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

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    // FIPS 202 example values (NIST's SHAKE256 examples), also what OpenSSL
    // gives: the empty message read past one 136-byte block (two squeezes),
    // "abc", and 200 bytes of 0xA3 (more than one block absorbed).
    #[test]
    fn shake256_matches_published_vectors() {
        let mut long = [0u8; 256];
        shake256(b"", &mut long);
        assert_eq!(
            hex(&long[..32]),
            "46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762f"
        );
        assert_eq!(
            hex(&long[192..]),
            "aaae314ed9083dab4b099f8e300f01b8650f1f4b1d8fcf3f3cb53fb8e9eb2ea2\
             03bdc970f50ae55428a91f7f53ac266b28419c3778a15fd248d339ede785fb7f"
        );
        let mut abc = [0u8; 64];
        shake256(b"abc", &mut abc);
        assert_eq!(
            hex(&abc),
            "483366601360a8771c6863080cc4114d8db44530f8f1e1ee4f94ea37e78b5739\
             d5a15bef186a5386c75744c0527e1faa9f8726e462a12a4feb06bd8801e751e4"
        );
        let mut a3 = [0u8; 32];
        shake256(&[0xA3; 200], &mut a3);
        assert_eq!(
            hex(&a3),
            "cd8a920ed141aa0407a22d59288652e9d9f1a7ee0c1e7c1ca699424da84a904d"
        );
    }

    // SplitMix64 seeded with 0 outputs e220a8397b1dcdaf, 6e789e6aa1b965f4,
    // 06c45d188009454f, ...: its n-th output is the term of (n - 1) times
    // the increment.
    #[test]
    fn digest_term_is_the_splitmix64_output_function() {
        let step = 0x9E37_79B9_7F4A_7C15u64;
        assert_eq!(digest_term(0), 0xe220_a839_7b1d_cdaf);
        assert_eq!(digest_term(step), 0x6e78_9e6a_a1b9_65f4);
        assert_eq!(digest_term(step.wrapping_mul(2)), 0x06c4_5d18_8009_454f);
    }

    #[test]
    fn xxh3_uses_seed_zero() {
        // Reference value of XXH3_64bits("") from the xxHash project.
        assert_eq!(feature_hash(FeatureHash::Xxh3, b""), 0x2d06_8005_38d3_94c2);
    }
}
