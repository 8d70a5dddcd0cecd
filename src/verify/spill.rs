//! Verifying a component whose feature sets do not fit the memory budget:
//! the sets are computed once, in parallel chunks that fit, and written to
//! an anonymous temporary file, in blocks of a quarter of the budget. The pairs are
//! then decided a pair of blocks at a time, each block read back in one
//! call: reading each pair's two sets back on their own took a fifth of a
//! crowded corpus's scan at k = 16 (a copy, two allocations and a system
//! call per set, for every pair).

use std::fs::File;
use std::io::Write;

use rayon::prelude::*;

use super::components::Components;
use super::{Verdict, Verified, decide};

/// Where each item's set lies in the spill file.
#[derive(Clone, Copy)]
enum Stored {
    At { offset: u64, len: usize },
    Failed,
}

/// Verifies one large component through a spill file, holding at most
/// two blocks of `budget / 4` hashes at once (an item larger than that is
/// a block of its own): within half the budget, as the blocks are read
/// again for each block they pair with.
pub(super) fn verify_component<L>(
    plan: &Components,
    component: usize,
    load: &L,
    threshold: f64,
    budget: u64,
    verified: &mut Verified,
) where
    L: Fn(u32) -> crate::Result<Vec<u64>> + Sync,
{
    let items = plan.items(component);
    let mut file = match tempfile::tempfile() {
        Ok(file) => file,
        Err(error) => {
            let error = crate::Error::io_named("a temporary file for verification", error);
            verified.failures.push((items[0], error));
            return;
        }
    };
    let mut stored = vec![Stored::Failed; items.len()];
    let mut written = 0u64;
    // Chunks of as many items as there are threads times a few; each set
    // is written out before the next chunk is read.
    let chunk = (rayon::current_num_threads() * 4).max(1);
    for (chunk_index, chunk_items) in items.chunks(chunk).enumerate() {
        let loaded: Vec<crate::Result<Vec<u64>>> =
            chunk_items.par_iter().map(|&item| load(item)).collect();
        verified.items_read += chunk_items.len() as u64;
        for (offset_in_chunk, (&item, set)) in chunk_items.iter().zip(loaded).enumerate() {
            let position = chunk_index * chunk + offset_in_chunk;
            match set.and_then(|set| append(&mut file, &set).map(|len| (set.len(), len))) {
                Ok((len, bytes)) => {
                    stored[position] = Stored::At {
                        offset: written,
                        len,
                    };
                    written += bytes;
                }
                Err(error) => verified.failures.push((item, error)),
            }
        }
    }
    let blocks = Blocks::new(&stored, (budget / 4).max(1));
    let position = |item: u32| {
        items
            .binary_search(&item)
            .expect("a component's pairs join its items")
    };
    // The pairs by the blocks of their two items, lower block first.
    // 16 bytes a pair: blocks number fewer than items, which are u32.
    let mut pairs: Vec<(u32, u32, usize)> = plan
        .pairs(component)
        .iter()
        .map(|&index| {
            let (a, b) = plan.pair(index);
            let (a, b) = (blocks.of[position(a)], blocks.of[position(b)]);
            (a.min(b), a.max(b), index)
        })
        .collect();
    pairs.sort_unstable();
    let mut row: Option<(u32, Block<'_>)> = None;
    for group in pairs.chunk_by(|x, y| (x.0, x.1) == (y.0, y.1)) {
        let (first, second) = (group[0].0, group[0].1);
        if row.as_ref().is_none_or(|(at, _)| *at != first) {
            row = Some((first, blocks.read(&file, first as usize, &stored)));
        }
        let Some((_, row_block)) = &row else {
            continue;
        };
        let column = (second != first).then(|| blocks.read(&file, second as usize, &stored));
        let set_of = |item: u32| {
            let at = position(item);
            if blocks.of[at] == first {
                row_block.set(at)
            } else {
                column.as_ref().and_then(|column| column.set(at))
            }
        };
        let decided: Vec<Verdict> = group
            .par_iter()
            .map(|&(_, _, index)| {
                let (a, b) = plan.pair(index);
                match (set_of(a), set_of(b)) {
                    (Some(a), Some(b)) => decide(a, b, threshold),
                    _ => Verdict::Unverified,
                }
            })
            .collect();
        for (&(_, _, index), verdict) in group.iter().zip(decided) {
            verified.verdicts[index] = verdict;
        }
    }
}

/// The spill file cut into blocks of consecutive items.
struct Blocks {
    /// The block of each item (by position in the component).
    of: Vec<u32>,
    /// Each block's first and last position plus one.
    bounds: Vec<(usize, usize)>,
}

impl Blocks {
    /// Blocks of at most `most` hashes, or of one item.
    fn new(stored: &[Stored], most: u64) -> Blocks {
        let mut of = Vec::with_capacity(stored.len());
        let mut bounds = Vec::new();
        let (mut start, mut held) = (0, 0u64);
        for (position, entry) in stored.iter().enumerate() {
            let len = match *entry {
                Stored::At { len, .. } => len as u64,
                Stored::Failed => 0,
            };
            if position > start && held + len > most {
                bounds.push((start, position));
                (start, held) = (position, 0);
            }
            held += len;
            of.push(bounds.len() as u32);
        }
        if start < stored.len() {
            bounds.push((start, stored.len()));
        }
        Blocks { of, bounds }
    }

    /// Reads block `block` back in one call; a failed read leaves its
    /// items unverified.
    fn read<'s>(&self, file: &File, block: usize, stored: &'s [Stored]) -> Block<'s> {
        let (start, end) = self.bounds[block];
        let at = |position: usize| match stored[position] {
            Stored::At { offset, len } => Some((offset, len)),
            Stored::Failed => None,
        };
        let first = (start..end).find_map(at).map(|(offset, _)| offset);
        let last = (start..end)
            .rev()
            .find_map(at)
            .map(|(offset, len)| offset + len as u64 * 8);
        let hashes = match (first, last) {
            (Some(first), Some(last)) => read_set(file, first, ((last - first) / 8) as usize).ok(),
            _ => None,
        };
        Block {
            start,
            first: first.unwrap_or(0),
            hashes,
            stored: &stored[start..end],
        }
    }
}

/// One block's sets, read back.
struct Block<'s> {
    /// Its first position in the component.
    start: usize,
    /// The file offset its hashes start at.
    first: u64,
    /// Its hashes, or `None` if they could not be read.
    hashes: Option<Vec<u64>>,
    /// Where each of its items lies in the file.
    stored: &'s [Stored],
}

impl Block<'_> {
    /// The set of the item at `position` (in this block).
    fn set(&self, position: usize) -> Option<&[u64]> {
        let hashes = self.hashes.as_deref()?;
        match *self.stored.get(position.checked_sub(self.start)?)? {
            Stored::At { offset, len } => {
                let from = ((offset - self.first) / 8) as usize;
                hashes.get(from..from + len)
            }
            Stored::Failed => None,
        }
    }
}

/// Appends a set as little-endian u64s; returns the bytes written.
fn append(file: &mut File, set: &[u64]) -> crate::Result<u64> {
    let bytes: Vec<u8> = set.iter().flat_map(|v| v.to_le_bytes()).collect();
    file.write_all(&bytes)
        .map_err(|e| crate::Error::io_named("a temporary file for verification", e))?;
    Ok(bytes.len() as u64)
}

/// Reads `len` u64s at `offset` (positioned reads: safe from any thread),
/// a megabyte at a time, so a block costs no second copy of itself.
fn read_set(file: &File, mut offset: u64, len: usize) -> std::io::Result<Vec<u64>> {
    const PIECE: usize = 1 << 17;
    let mut hashes = Vec::with_capacity(len);
    let mut bytes = vec![0u8; PIECE.min(len) * 8];
    while hashes.len() < len {
        let piece = &mut bytes[..(len - hashes.len()).min(PIECE) * 8];
        read_exact_at(file, piece, offset)?;
        offset += piece.len() as u64;
        hashes.extend(
            piece
                .chunks_exact(8)
                .map(|chunk| u64::from_le_bytes(chunk.try_into().expect("8 bytes"))),
        );
    }
    Ok(hashes)
}

#[cfg(unix)]
fn read_exact_at(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
}

#[cfg(windows)]
fn read_exact_at(file: &File, mut buf: &mut [u8], mut offset: u64) -> std::io::Result<()> {
    use std::os::windows::fs::FileExt;
    while !buf.is_empty() {
        let n = file.seek_read(buf, offset)?;
        if n == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        buf = &mut buf[n..];
        offset += n as u64;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_longer_than_a_piece_reads_back_whole() {
        let mut file = tempfile::tempfile().unwrap();
        let before: Vec<u64> = (0..5).collect();
        let set: Vec<u64> = (0..300_000u64)
            .map(|i| i.wrapping_mul(0x9e37_79b9))
            .collect();
        let skip = append(&mut file, &before).unwrap();
        append(&mut file, &set).unwrap();
        assert_eq!(read_set(&file, skip, set.len()).unwrap(), set);
        assert_eq!(read_set(&file, 8, 3).unwrap(), [1, 2, 3]);
        assert!(read_set(&file, skip, set.len() + 1).is_err());
    }
}
