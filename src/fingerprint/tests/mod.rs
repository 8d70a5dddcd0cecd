//! Behaviour of the whole fingerprint stage, by subject: the feature
//! digest (`digest`), what documents give (`documents`), what exact
//! Jaccard is computed on (`feature_set`), the htm.core options and the
//! SDR (`options`), agreement with a naive reference (`reference`),
//! streaming against whole buffers (`streaming`) and the published test
//! vectors (`vectors`). This file holds the helpers they share.

mod digest;
mod documents;
mod feature_set;
mod options;
mod reference;
mod streaming;
mod vectors;

use std::io::Read;

use super::*;

/// A reader that hands out at most `size` bytes per read.
struct Chunked<'a> {
    data: &'a [u8],
    size: usize,
}

impl Read for Chunked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.size.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

fn fingerprinter(shingle: Shingle) -> Fingerprinter {
    Fingerprinter::new(FeatureOptions {
        shingle,
        ..FeatureOptions::default()
    })
}

/// A small deterministic generator (xorshift), so tests need no seed files.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn random_words(seed: u64, count: usize) -> Vec<String> {
    let mut rng = Rng(seed | 1);
    (0..count)
        .map(|_| {
            let len = 2 + rng.next() % 7;
            (0..len)
                .map(|_| (b'a' + (rng.next() % 26) as u8) as char)
                .collect()
        })
        .collect()
}
