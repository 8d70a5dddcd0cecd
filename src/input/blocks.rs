//! Cutting a stream into blocks of whole records, on the reading thread,
//! with nothing but a search for the delimiter (memchr): parsing and
//! fingerprinting the records of a block is the workers' job.
//!
//! A block holds whole records only, each ending with the delimiter but
//! perhaps the last of the stream. A record longer than the limit is never
//! buffered whole: the reader reports it at its number and skips to the
//! next delimiter. Record numbers count from 1; a delimiter at the very end
//! does not start another, empty record.

use std::io::{self, Read};

/// Bytes read per block: large enough that a block is worth a worker's
/// time, small enough that a few in flight cost little memory.
pub(crate) const BLOCK_BYTES: usize = 1 << 20;

/// What the reader produces, in stream order.
#[derive(Debug)]
pub(crate) enum Piece {
    /// Whole records; `first` is the number of the first one, `offset`
    /// where `bytes` start in the stream (counted from where it was when
    /// reading began).
    Block {
        bytes: Vec<u8>,
        first: u64,
        offset: u64,
    },
    /// Record `number` is longer than the limit (its bytes were skipped).
    TooLong { number: u64 },
    /// Reading failed; nothing follows.
    Failed(io::Error),
}

/// Splits a stream into [`Piece`]s.
pub(crate) struct Blocks<R> {
    reader: R,
    delimiter: u8,
    limit: usize,
    block_bytes: usize,
    /// The start of the next record, carried over from the last read.
    carry: Vec<u8>,
    /// Where each read of an eager stream lands before it is appended.
    scratch: Vec<u8>,
    /// Records started so far.
    started: u64,
    /// Where `carry` starts in the stream.
    at: u64,
    /// Inside a record that is too long: drop bytes up to its delimiter.
    skipping: bool,
    done: bool,
    /// Hand on the whole records read so far as soon as a read comes back
    /// short (the stream has nothing more for now), not only once a block
    /// is full: a slow stream (`tail -f`) is not held back.
    eager: bool,
    /// The last read returned less than it asked for.
    short_read: bool,
}

impl<R: Read> Blocks<R> {
    /// Blocks of about `block_bytes`; records longer than `limit` bytes
    /// (delimiter excluded) are reported as [`Piece::TooLong`].
    pub(crate) fn with_block_bytes(
        reader: R,
        delimiter: u8,
        limit: usize,
        block_bytes: usize,
    ) -> Self {
        Blocks {
            reader,
            delimiter,
            limit,
            block_bytes: block_bytes.max(1),
            carry: Vec::new(),
            scratch: Vec::new(),
            started: 0,
            at: 0,
            skipping: false,
            done: false,
            eager: false,
            short_read: false,
        }
    }

    /// Also ends a block at a short read: see the `eager` field.
    pub(crate) fn eager(mut self) -> Self {
        self.eager = true;
        self
    }

    /// Reads more bytes into `buf`; `Ok(0)` at the end of the stream.
    ///
    /// A stream read whole lands straight in `buf`'s spare room (std's
    /// `read_to_end` needs no zeroing): copying each read from a scratch
    /// buffer cost 3% of a JSON Lines scan. An eager stream needs one
    /// `read` a call, which may come back short, so its reads go through
    /// `scratch`, zeroed once: growing `buf` for each read would zero a
    /// whole block per read, however few bytes it returns (a pipe returns
    /// at most 64 KiB).
    fn fill(&mut self, buf: &mut Vec<u8>) -> io::Result<usize> {
        let want = self.block_bytes.clamp(4096, 1 << 20);
        if !self.eager {
            // Room for the whole read at once: no reallocation copies.
            buf.reserve(want);
            return (&mut self.reader).take(want as u64).read_to_end(buf);
        }
        if self.scratch.len() < want {
            self.scratch = vec![0; want];
        }
        loop {
            match self.reader.read(&mut self.scratch[..want]) {
                Ok(n) => {
                    buf.extend_from_slice(&self.scratch[..n]);
                    return Ok(n);
                }
                Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                Err(error) => return Err(error),
            }
        }
    }
}

impl<R: Read> Iterator for Blocks<R> {
    type Item = Piece;

    fn next(&mut self) -> Option<Piece> {
        if self.done {
            return None;
        }
        let mut buf = std::mem::take(&mut self.carry);
        loop {
            if self.skipping {
                // Drop the rest of a too-long record.
                match memchr::memchr(self.delimiter, &buf) {
                    Some(end) => {
                        buf.drain(..=end);
                        self.at += end as u64 + 1;
                        self.skipping = false;
                    }
                    None => {
                        self.at += buf.len() as u64;
                        buf.clear();
                    }
                }
            }
            if !self.skipping {
                // Whole records are the bytes up to the last delimiter.
                if (buf.len() >= self.block_bytes || (self.eager && self.short_read))
                    && let Some(last) = memchr::memrchr(self.delimiter, &buf)
                {
                    self.carry = buf.split_off(last + 1);
                    return Some(self.block(buf));
                }
                // The record being read has outgrown the limit.
                let open = memchr::memrchr(self.delimiter, &buf).map_or(0, |last| last + 1);
                if buf.len() - open > self.limit {
                    if open > 0 {
                        // The records before it come first; the long one is
                        // met again on the next call.
                        self.carry = buf.split_off(open);
                        return Some(self.block(buf));
                    }
                    self.skipping = true;
                    self.started += 1;
                    // Its bytes so far are dropped with `buf`.
                    self.at += buf.len() as u64;
                    return Some(Piece::TooLong {
                        number: self.started,
                    });
                }
            }
            match self.fill(&mut buf) {
                Ok(0) => {
                    self.done = true;
                    if self.skipping || buf.is_empty() {
                        return None;
                    }
                    return Some(self.block(buf));
                }
                Ok(n) => self.short_read = n < self.block_bytes.clamp(4096, 1 << 20),
                Err(error) => {
                    self.done = true;
                    return Some(Piece::Failed(error));
                }
            }
        }
    }
}

impl<R: Read> Blocks<R> {
    /// Bytes held between calls (for tests of the memory bound).
    #[cfg(test)]
    pub(crate) fn buffered(&self) -> usize {
        self.carry.capacity()
    }

    /// Numbers the records of `bytes` (the bytes before `carry`) and
    /// makes them a block.
    fn block(&mut self, bytes: Vec<u8>) -> Piece {
        let first = self.started + 1;
        let delimiters = memchr::memchr_iter(self.delimiter, &bytes).count() as u64;
        // A final record without its delimiter is a record too.
        let unterminated = u64::from(bytes.last().is_some_and(|&b| b != self.delimiter));
        self.started += delimiters + unterminated;
        let offset = self.at;
        self.at += bytes.len() as u64;
        Piece::Block {
            bytes,
            first,
            offset,
        }
    }
}

/// The records of a block, without their delimiters. Delimiters are found
/// by memchr: a byte-by-byte split took 7% of a JSON Lines scan.
pub(crate) fn records(bytes: &[u8], delimiter: u8) -> impl Iterator<Item = &[u8]> {
    let body = bytes.strip_suffix(&[delimiter]).unwrap_or(bytes);
    let mut rest = (!bytes.is_empty()).then_some(body);
    std::iter::from_fn(move || {
        let left = rest?;
        match memchr::memchr(delimiter, left) {
            Some(end) => {
                rest = Some(&left[end + 1..]);
                Some(&left[..end])
            }
            None => {
                rest = None;
                Some(left)
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Each record as `number:text` or `number:long`, in order.
    fn split(input: &[u8], limit: usize, block_bytes: usize) -> Vec<String> {
        split_blocks(
            Blocks::with_block_bytes(input, b'\n', limit, block_bytes),
            limit,
        )
    }

    /// [`split`] of the pieces of `blocks`.
    fn split_blocks(blocks: Blocks<impl Read>, limit: usize) -> Vec<String> {
        let mut out = Vec::new();
        for piece in blocks {
            match piece {
                Piece::Block { bytes, first, .. } => {
                    for (i, record) in records(&bytes, b'\n').enumerate() {
                        let number = first + i as u64;
                        if record.len() > limit {
                            out.push(format!("{number}:long"));
                        } else {
                            out.push(format!("{number}:{}", String::from_utf8_lossy(record)));
                        }
                    }
                }
                Piece::TooLong { number } => out.push(format!("{number}:long")),
                Piece::Failed(error) => out.push(format!("error {error}")),
            }
        }
        out
    }

    /// A reader that hands out at most `most` bytes a read.
    struct Sips<'a> {
        rest: &'a [u8],
        most: usize,
    }

    impl Read for Sips<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.rest.len().min(self.most).min(buf.len());
            buf[..n].copy_from_slice(&self.rest[..n]);
            self.rest = &self.rest[n..];
            Ok(n)
        }
    }

    /// A reader whose every other read is interrupted (a signal).
    struct Interrupted<R> {
        reader: R,
        interrupt: bool,
    }

    impl<R: Read> Read for Interrupted<R> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.interrupt = !self.interrupt;
            if self.interrupt {
                return Err(io::ErrorKind::Interrupted.into());
            }
            self.reader.read(buf)
        }
    }

    /// A reader that hands out one chunk per read, like a slow pipe.
    struct Trickle(Vec<&'static [u8]>);

    impl Read for Trickle {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0.is_empty() {
                return Ok(0);
            }
            let chunk = self.0.remove(0);
            buf[..chunk.len()].copy_from_slice(chunk);
            Ok(chunk.len())
        }
    }

    proptest! {
        // Each block's offset is where its bytes are in the stream, past
        // the skipped bytes of too-long records.
        #[test]
        fn a_blocks_offset_is_where_its_bytes_are(
            input in proptest::collection::vec(prop_oneof![1 => Just(b'\n'), 8 => Just(b'a')], 0..400),
            limit in 1usize..20,
            block_bytes in 1usize..50,
            read_bytes in 1usize..30,
        ) {
            let reader = Sips { rest: &input[..], most: read_bytes };
            for piece in Blocks::with_block_bytes(reader, b'\n', limit, block_bytes) {
                if let Piece::Block { bytes, offset, .. } = piece {
                    let at = offset as usize;
                    prop_assert_eq!(&input[at..at + bytes.len()], &bytes[..]);
                    prop_assert!(at == 0 || input[at - 1] == b'\n');
                }
            }
        }
    }

    #[test]
    fn eager_blocks_end_at_a_short_read() {
        let chunks = vec![&b"a\nb"[..], b"c\n", b"d"];
        let blocks: Vec<(Vec<u8>, u64)> =
            Blocks::with_block_bytes(Trickle(chunks.clone()), b'\n', 100, 1 << 20)
                .eager()
                .map(|piece| match piece {
                    Piece::Block { bytes, first, .. } => (bytes, first),
                    other => panic!("{other:?}"),
                })
                .collect();
        assert_eq!(
            blocks,
            [
                (b"a\n".to_vec(), 1),
                (b"bc\n".to_vec(), 2),
                (b"d".to_vec(), 3)
            ]
        );
        // Without `eager`, the stream is one block.
        assert_eq!(
            Blocks::with_block_bytes(Trickle(chunks), b'\n', 100, 1 << 20).count(),
            1
        );
    }

    #[test]
    fn blocks_hold_whole_records() {
        assert_eq!(split(b"a\nbb\n\nc", 10, 1), ["1:a", "2:bb", "3:", "4:c"]);
        assert_eq!(split(b"a\n", 10, 1), ["1:a"]);
        assert!(split(b"", 10, 1).is_empty());
        assert_eq!(split(b"\n", 10, 1), ["1:"]);
    }

    #[test]
    fn long_records_are_skipped_at_their_number() {
        assert_eq!(
            split(b"abc\nabcdefgh\nab", 3, 2),
            ["1:abc", "2:long", "3:ab"]
        );
        assert_eq!(split(b"abcdefgh", 3, 2), ["1:long"]);
    }

    #[test]
    fn a_long_record_is_never_buffered_whole() {
        struct Endless(usize);
        impl Read for Endless {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                let n = buf.len().min(self.0);
                buf[..n].fill(b'x');
                self.0 -= n;
                Ok(n)
            }
        }
        let mut blocks = Blocks::with_block_bytes(Endless(64 << 20), b'\n', 1024, 4096);
        assert!(matches!(blocks.next(), Some(Piece::TooLong { number: 1 })));
        assert!(blocks.carry.capacity() <= 4 << 20);
        assert!(blocks.next().is_none());
    }

    proptest! {
        /// Same records as a plain split, whatever the block size.
        #[test]
        fn matches_a_plain_split(
            input in proptest::collection::vec(prop_oneof![Just(b'\n'), Just(b'x'), any::<u8>()], 0..300),
            limit in 0usize..20,
            block_bytes in 1usize..64,
            read_bytes in 1usize..40,
        ) {
            let mut parts: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
            if input.last().is_none_or(|&b| b == b'\n') {
                parts.pop();
            }
            let expected: Vec<String> = parts
                .iter()
                .enumerate()
                .map(|(i, part)| if part.len() > limit {
                    format!("{}:long", i + 1)
                } else {
                    format!("{}:{}", i + 1, String::from_utf8_lossy(part))
                })
                .collect();
            prop_assert_eq!(&split(&input, limit, block_bytes), &expected);
            // Reads that come back short or interrupted, on both ways of
            // reading (whole blocks, or a block per short read).
            for eager in [false, true] {
                let reader = Interrupted {
                    reader: Sips { rest: &input[..], most: read_bytes },
                    interrupt: false,
                };
                let mut blocks = Blocks::with_block_bytes(reader, b'\n', limit, block_bytes);
                if eager {
                    blocks = blocks.eager();
                }
                prop_assert_eq!(&split_blocks(blocks, limit), &expected);
            }
        }
    }
}
