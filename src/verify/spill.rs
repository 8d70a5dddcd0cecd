//! Verifying a component whose feature sets do not fit the memory budget:
//! the sets are computed once, in parallel chunks that fit, and written to
//! an anonymous temporary file; each pair then reads its two sets back.

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

/// Verifies one large component through a spill file.
pub(super) fn verify_component<L>(
    plan: &Components,
    component: usize,
    load: &L,
    threshold: f64,
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
    let read = |item: u32| -> Option<Vec<u64>> {
        let position = items.binary_search(&item).ok()?;
        match stored[position] {
            Stored::At { offset, len } => read_set(&file, offset, len).ok(),
            Stored::Failed => None,
        }
    };
    let pairs = plan.pairs(component);
    let decided: Vec<Verdict> = pairs
        .par_iter()
        .map(|&index| {
            let (a, b) = plan.pair(index);
            match (read(a), read(b)) {
                (Some(a), Some(b)) => decide(&a, &b, threshold),
                _ => Verdict::Unverified,
            }
        })
        .collect();
    for (&index, verdict) in pairs.iter().zip(decided) {
        verified.verdicts[index] = verdict;
    }
}

/// Appends a set as little-endian u64s; returns the bytes written.
fn append(file: &mut File, set: &[u64]) -> crate::Result<u64> {
    let bytes: Vec<u8> = set.iter().flat_map(|v| v.to_le_bytes()).collect();
    file.write_all(&bytes)
        .map_err(|e| crate::Error::io_named("a temporary file for verification", e))?;
    Ok(bytes.len() as u64)
}

/// Reads `len` u64s at `offset` (positioned reads: safe from any thread).
fn read_set(file: &File, offset: u64, len: usize) -> std::io::Result<Vec<u64>> {
    let mut bytes = vec![0u8; len * 8];
    read_exact_at(file, &mut bytes, offset)?;
    Ok(bytes
        .chunks_exact(8)
        .map(|chunk| u64::from_le_bytes(chunk.try_into().expect("8 bytes")))
        .collect())
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
