//! Splitting a stream at a delimiter byte with a cap on what is kept, so a
//! record or line of any length costs bounded memory.

use std::io::{self, BufRead};

/// How a chunk read by [`Delimited::next_into`] ended up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Chunk {
    /// The whole chunk is in the buffer.
    Whole,
    /// The chunk was longer than the limit; the buffer is empty and the
    /// stream has moved past the chunk.
    TooLong,
}

/// Reads chunks ending at `delimiter` (or at the end of the stream).
pub(crate) struct Delimited<R> {
    reader: R,
    delimiter: u8,
    limit: usize,
}

impl<R: BufRead> Delimited<R> {
    /// Chunks longer than `limit` bytes (delimiter excluded) are passed over.
    pub(crate) fn new(reader: R, delimiter: u8, limit: usize) -> Self {
        Delimited {
            reader,
            delimiter,
            limit,
        }
    }

    /// Reads the next chunk into `buf` (cleared first), without its
    /// delimiter. `None` at the end of the stream: a delimiter at the very
    /// end does not start another, empty chunk.
    pub(crate) fn next_into(&mut self, buf: &mut Vec<u8>) -> io::Result<Option<Chunk>> {
        buf.clear();
        let mut started = false;
        let mut too_long = false;
        loop {
            let available = match self.reader.fill_buf() {
                Ok(available) => available,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                Err(error) => return Err(error),
            };
            if available.is_empty() {
                return Ok(started.then_some(if too_long {
                    Chunk::TooLong
                } else {
                    Chunk::Whole
                }));
            }
            started = true;
            let found = memchr::memchr(self.delimiter, available);
            let content = &available[..found.unwrap_or(available.len())];
            if !too_long {
                if buf.len() + content.len() <= self.limit {
                    buf.extend_from_slice(content);
                } else {
                    too_long = true;
                    buf.clear();
                }
            }
            let used = content.len() + usize::from(found.is_some());
            self.reader.consume(used);
            if found.is_some() {
                return Ok(Some(if too_long {
                    Chunk::TooLong
                } else {
                    Chunk::Whole
                }));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::io::BufReader;

    fn chunks(input: &[u8], limit: usize, capacity: usize) -> Vec<Option<Vec<u8>>> {
        let mut reader = Delimited::new(BufReader::with_capacity(capacity, input), b'\n', limit);
        let mut buf = Vec::new();
        let mut out = Vec::new();
        while let Some(chunk) = reader.next_into(&mut buf).unwrap() {
            out.push((chunk == Chunk::Whole).then(|| buf.clone()));
        }
        out
    }

    #[test]
    fn splits_at_the_delimiter() {
        let whole = |s: &str| Some(s.as_bytes().to_vec());
        assert_eq!(
            chunks(b"a\n\nbc\n", 10, 4),
            vec![whole("a"), whole(""), whole("bc")]
        );
        assert_eq!(chunks(b"a\nbc", 10, 4), vec![whole("a"), whole("bc")]);
        assert_eq!(chunks(b"", 10, 4), Vec::<Option<Vec<u8>>>::new());
        assert_eq!(chunks(b"\n", 10, 4), vec![whole("")]);
    }

    #[test]
    fn passes_over_long_chunks() {
        let whole = |s: &str| Some(s.as_bytes().to_vec());
        assert_eq!(
            chunks(b"abc\nabcd\nab", 3, 2),
            vec![whole("abc"), None, whole("ab")]
        );
    }

    proptest! {
        /// Same chunks as a plain split, whatever the buffer capacity.
        #[test]
        fn matches_a_plain_split(
            input in proptest::collection::vec(prop_oneof![Just(b'\n'), Just(b'x'), any::<u8>()], 0..200),
            limit in 0usize..20,
            capacity in 1usize..16,
        ) {
            let mut expected: Vec<Option<Vec<u8>>> = input
                .split(|&b| b == b'\n')
                .map(|c| (c.len() <= limit).then(|| c.to_vec()))
                .collect();
            if input.last().is_none_or(|&b| b == b'\n') {
                expected.pop();
            }
            prop_assert_eq!(chunks(&input, limit, capacity), expected);
        }
    }
}
