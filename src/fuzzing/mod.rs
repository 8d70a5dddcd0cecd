//! Entry points for the fuzz targets in `fuzz/` and for the smoke pass
//! that `cargo test` runs: each takes arbitrary bytes, feeds them to one
//! family of parsers and panics if the parser panics or breaks one of the
//! invariants stated beside the entry point.
//!
//! Not part of the library's interface: it exists so that `fuzz/`, a crate
//! of its own, reaches crate-private parsers. The first bytes of the input
//! choose options (shingles, record formats, read sizes); the rest is the
//! document, stream or text under test.

mod baseline;
mod fingerprint;
mod fingerprint_file;
mod markup;
mod options;
mod records;
#[cfg(test)]
mod tests;

use std::io::{self, Read};

pub use baseline::{allowlist, baseline};
pub use fingerprint::fingerprint;
pub use fingerprint_file::fingerprint_file;
pub use markup::markup;
pub use options::options;
pub use records::{path_list, records};

/// Takes option choices from the front of a fuzz input; an exhausted
/// input yields zeros, so every input is a valid choice of options.
struct Choices<'a> {
    bytes: &'a [u8],
}

impl<'a> Choices<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Choices { bytes }
    }

    /// The next byte, or 0.
    fn byte(&mut self) -> u8 {
        match self.bytes.split_first() {
            Some((&first, rest)) => {
                self.bytes = rest;
                first
            }
            None => 0,
        }
    }

    /// What is left: the data under test.
    fn rest(self) -> &'a [u8] {
        self.bytes
    }
}

/// A reader over a buffer that returns short reads of pseudo-random
/// sizes from 1 to `longest`, and now and then `Interrupted`, as pipes
/// and signals do.
struct ShortReads<'a> {
    data: &'a [u8],
    state: u64,
    longest: usize,
    /// Bytes `fill_buf` offered and not yet consumed.
    offered: usize,
}

impl<'a> ShortReads<'a> {
    fn new(data: &'a [u8], seed: u8, longest: usize) -> Self {
        ShortReads {
            data,
            // xorshift must not start at 0.
            state: 0x9E37_79B9_7F4A_7C15 ^ u64::from(seed),
            longest: longest.max(1),
            offered: 0,
        }
    }

    fn next_random(&mut self) -> u64 {
        self.state ^= self.state << 13;
        self.state ^= self.state >> 7;
        self.state ^= self.state << 17;
        self.state
    }
}

impl Read for ShortReads<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let random = self.next_random();
        if random.is_multiple_of(16) && !self.data.is_empty() {
            return Err(io::ErrorKind::Interrupted.into());
        }
        let want = 1 + (random >> 8) as usize % self.longest;
        let n = want.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        self.offered = self.offered.saturating_sub(n);
        Ok(n)
    }
}

impl io::BufRead for ShortReads<'_> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.offered == 0 {
            let random = self.next_random();
            if random.is_multiple_of(16) && !self.data.is_empty() {
                return Err(io::ErrorKind::Interrupted.into());
            }
            let want = 1 + (random >> 8) as usize % self.longest;
            self.offered = want.min(self.data.len());
        }
        Ok(&self.data[..self.offered])
    }

    fn consume(&mut self, amount: usize) {
        let amount = amount.min(self.offered);
        self.offered -= amount;
        self.data = &self.data[amount..];
    }
}
