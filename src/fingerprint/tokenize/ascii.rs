//! The ASCII fast path shared by word and character mode: up to 64 bytes
//! of ASCII text at once, put in their final case in one pass, with a bit
//! mask of their token bytes (no table or branch per byte).
//!
//! Which ASCII bytes are token bytes: alphanumerics, or with kept
//! punctuation every visible character. The general, character-by-character
//! rules in `words` and `chars` must give the same tokens for ASCII text; a
//! property test checks it.

use crate::fingerprint::normalize::Casing;

/// Bytes the ASCII fast path takes at a time (one bit each in a u64).
pub(super) const BLOCK: usize = 64;

/// Size of the fixed copies that move token bytes (padding after a block).
pub(super) const COPY: usize = 16;

/// True when an ASCII byte is part of tokens: alphanumerics, or with kept
/// punctuation every visible character.
pub(super) fn is_ascii_token(byte: u8, keep_punctuation: bool) -> bool {
    if keep_punctuation {
        byte.is_ascii_graphic()
    } else {
        byte.is_ascii_alphanumeric()
    }
}

/// For each ASCII byte: 0 if it separates, else the byte it becomes.
pub(super) fn ascii_table(keep_punctuation: bool, casing: Casing) -> [u8; 128] {
    let mut table = [0u8; 128];
    for (byte, slot) in (0u8..).zip(table.iter_mut()) {
        if is_ascii_token(byte, keep_punctuation) {
            *slot = casing.ascii(byte);
        }
    }
    table
}

/// Up to [`BLOCK`] bytes of ASCII text, ready for the fast paths.
#[derive(Clone, Copy)]
pub(super) struct AsciiBlock {
    /// The bytes in their final case; only the first `len` are meaningful.
    pub(super) bytes: [u8; BLOCK + COPY],
    /// Bit k set when byte k is a token byte (k < `len`).
    pub(super) tokens: u64,
    /// Number of ASCII bytes.
    pub(super) len: usize,
}

impl AsciiBlock {
    /// The next block of `text` (its first [`BLOCK`] bytes, padded for
    /// fixed-size copies) in its final case, with the mask of its token
    /// bytes and the length of its ASCII prefix, found in the same pass.
    #[inline]
    pub(super) fn read(text: &[u8], keep_punctuation: bool, casing: Casing) -> Self {
        let mut bytes = [0u8; BLOCK + COPY];
        match text.first_chunk::<BLOCK>() {
            Some(full) => bytes[..BLOCK].copy_from_slice(full),
            // Padding is NUL, a separator in every mode.
            None => bytes[..text.len()].copy_from_slice(text),
        }
        let non_ascii = byte_mask(&bytes, |byte| !byte.is_ascii());
        let len = (non_ascii.trailing_zeros() as usize).min(text.len());
        let tokens =
            byte_mask(&bytes, |byte| is_ascii_token(byte, keep_punctuation)) & low_bits(len);
        casing.ascii_in_place(&mut bytes);
        AsciiBlock { bytes, tokens, len }
    }
}

/// The `n` lowest bits (`n` <= 64).
fn low_bits(n: usize) -> u64 {
    u64::MAX.checked_shr((BLOCK - n) as u32).unwrap_or(0)
}

/// Bit k set when `test` holds for byte k of the first [`BLOCK`] bytes:
/// arithmetic the compiler vectorises, rather than a table per byte.
#[inline(always)]
fn byte_mask(bytes: &[u8; BLOCK + COPY], test: impl Fn(u8) -> bool) -> u64 {
    let flags: [u8; BLOCK] = std::array::from_fn(|k| u8::from(test(bytes[k])));
    mask_of_flags(&flags)
}

/// Bit k set when `flags[k]` is 1 (each flag 0 or 1, at most 64 of
/// them), packed eight at a time: for flags computed without branches,
/// which the compiler vectorises (the JSON Lines reader's too).
#[inline(always)]
pub(crate) fn mask_of_flags<const N: usize>(flags: &[u8; N]) -> u64 {
    let mut mask = 0u64;
    for (k, eight) in flags.chunks_exact(8).enumerate() {
        let mut word = [0u8; 8];
        word.copy_from_slice(eight);
        mask |= pack_flags(u64::from_le_bytes(word)) << (8 * k);
    }
    mask
}

/// Packs eight 0/1 bytes (little-endian in `flags`) into eight bits, byte k
/// to bit k: the multiplication moves each byte's bit into the top byte
/// without carries.
#[inline]
fn pack_flags(flags: u64) -> u64 {
    flags.wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// Appends `bytes[start..end]` to `buf` in [`COPY`]-byte pieces cut to
/// length: fixed-size copies are inlined, while a memcpy call costs more
/// than a short token.
#[inline(always)]
pub(super) fn append(buf: &mut Vec<u8>, bytes: &[u8; BLOCK + COPY], start: usize, end: usize) {
    let len = buf.len() + (end - start);
    for at in (start..end).step_by(COPY) {
        buf.extend_from_slice(&bytes[at..at + COPY]);
    }
    buf.truncate(len);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fingerprint::options::Case;

    #[test]
    fn pack_flags_moves_byte_k_to_bit_k() {
        for bits in 0u64..256 {
            let flags = (0..8).fold(0u64, |acc, k| acc | (((bits >> k) & 1) << (8 * k)));
            assert_eq!(pack_flags(flags), bits);
        }
    }

    #[test]
    fn a_block_stops_at_the_first_non_ascii_byte() {
        let text = "Ab c,D\u{E9}f".as_bytes();
        let block = AsciiBlock::read(text, false, Casing::new(Case::Lower));
        assert_eq!(block.len, 6);
        assert_eq!(&block.bytes[..6], b"ab c,d");
        assert_eq!(block.tokens, 0b10_1011);
        let kept = AsciiBlock::read(text, true, Casing::new(Case::Sensitive));
        assert_eq!(&kept.bytes[..6], b"Ab c,D");
        assert_eq!(kept.tokens, 0b11_1011);
    }

    #[test]
    fn append_copies_exactly_the_range() {
        let mut bytes = [b'x'; BLOCK + COPY];
        bytes[..BLOCK].copy_from_slice(&[b'a'; BLOCK]);
        bytes[3..40].copy_from_slice(&[b'b'; 37]);
        let mut buf = b"<".to_vec();
        append(&mut buf, &bytes, 3, 40);
        assert_eq!(buf.len(), 38);
        assert!(buf[1..].iter().all(|&b| b == b'b'));
    }
}
