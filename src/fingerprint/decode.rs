//! Streaming UTF-8 decoding: bytes in, `&str` pieces out, never an error.
//!
//! Invalid sequences become U+FFFD exactly as `String::from_utf8_lossy` does
//! (one replacement per maximal invalid subpart). A sequence cut by a chunk
//! boundary is carried over, so chunking never changes the decoded text.
//! This module owns only decoding; normalisation comes after it.

/// The replacement for every invalid sequence.
const REPLACEMENT: &str = "\u{FFFD}";

/// Decodes a byte stream fed in arbitrary chunks.
#[derive(Debug, Default)]
pub(crate) struct Decoder {
    /// The start of a sequence the last chunk ended inside (at most 3 bytes).
    carry: [u8; 4],
    carry_len: usize,
}

impl Decoder {
    /// Decodes `input`, calling `out` with each piece of text in order.
    pub(crate) fn feed(&mut self, mut input: &[u8], out: &mut impl FnMut(&str)) {
        // Finish a sequence the previous chunk ended inside, one byte at a time.
        while self.carry_len > 0 {
            let Some(&byte) = input.first() else { return };
            let mut bytes = self.carry;
            bytes[self.carry_len] = byte;
            match std::str::from_utf8(&bytes[..=self.carry_len]) {
                Ok(text) => {
                    out(text);
                    self.carry_len = 0;
                    input = &input[1..];
                }
                Err(error) if error.error_len().is_none() => {
                    self.carry = bytes;
                    self.carry_len += 1;
                    input = &input[1..];
                }
                Err(_) => {
                    // The carried prefix is a maximal invalid subpart; `byte`
                    // starts afresh, so it is not consumed here.
                    out(REPLACEMENT);
                    self.carry_len = 0;
                }
            }
        }
        loop {
            match std::str::from_utf8(input) {
                Ok(text) => {
                    if !text.is_empty() {
                        out(text);
                    }
                    return;
                }
                Err(error) => {
                    let valid = error.valid_up_to();
                    if valid > 0 {
                        // from_utf8 said these bytes are valid.
                        out(std::str::from_utf8(&input[..valid]).unwrap_or_default());
                    }
                    match error.error_len() {
                        Some(len) => {
                            out(REPLACEMENT);
                            input = &input[valid + len..];
                        }
                        None => {
                            let tail = &input[valid..];
                            self.carry[..tail.len()].copy_from_slice(tail);
                            self.carry_len = tail.len();
                            return;
                        }
                    }
                }
            }
        }
    }

    /// Ends the stream: a sequence cut short by the end is one U+FFFD.
    pub(crate) fn finish(&mut self, out: &mut impl FnMut(&str)) {
        if self.carry_len > 0 {
            self.carry_len = 0;
            out(REPLACEMENT);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn decode_chunked(bytes: &[u8], chunk: usize) -> String {
        let mut text = String::new();
        let mut decoder = Decoder::default();
        for piece in bytes.chunks(chunk.max(1)) {
            decoder.feed(piece, &mut |s| text.push_str(s));
        }
        decoder.finish(&mut |s| text.push_str(s));
        text
    }

    #[test]
    fn invalid_bytes_are_replaced_like_from_utf8_lossy() {
        let bytes = b"ab\xE2\x82Ac\xFF\xF0\x9F\x98";
        assert_eq!(decode_chunked(bytes, 1000), "ab\u{FFFD}Ac\u{FFFD}\u{FFFD}");
        assert_eq!(decode_chunked(bytes, 1), String::from_utf8_lossy(bytes));
    }

    proptest! {
        #[test]
        fn chunked_decoding_equals_lossy(
            bytes in proptest::collection::vec(
                prop_oneof![any::<u8>(), Just(0xE2u8), Just(0x82u8), Just(0xF0u8), Just(0x9Fu8)],
                0..64,
            ),
            chunk in 1usize..9,
        ) {
            prop_assert_eq!(decode_chunked(&bytes, chunk), String::from_utf8_lossy(&bytes));
        }
    }
}
