//! The names of a run's documents (paths, record ids, saved names), kept
//! in one arena instead of a string each: in memory up to a budget, then
//! in an anonymous temporary file, so memory does not grow with the names
//! of a large corpus. Records named by their line number keep no name at
//! all: only the places where the numbering skips. Names are read back
//! only for the listing, the groups and verification.

use std::borrow::Cow;
use std::fs::File;
use std::io::{self, Write};

/// Bytes of names kept in memory before the rest goes to a file.
const MEMORY_BYTES: usize = 64 << 20;

/// Bytes gathered before each write to the file.
const WRITE_BYTES: usize = 1 << 20;

/// Names between two recorded start offsets.
const CHECKPOINT: usize = 32;

/// An append-only list of names, numbered from 0.
#[derive(Debug)]
pub struct Names {
    /// Names that are numbers (record lines): `(index, number)` wherever
    /// a name is not the previous one plus one.
    numbers: Vec<(u64, u64)>,
    numbered: u64,
    /// The first names' bytes.
    memory: Vec<u8>,
    /// The rest: written out, and not yet written.
    file: Option<File>,
    written: u64,
    pending: Vec<u8>,
    /// The length of each name, and where every `CHECKPOINT`-th name
    /// starts (as if all bytes were one array): about 4 bytes per name
    /// instead of 8 for a start each.
    lengths: Vec<u32>,
    checkpoints: Vec<u64>,
    total: u64,
    budget: usize,
}

impl Default for Names {
    fn default() -> Self {
        Names::with_budget(MEMORY_BYTES)
    }
}

impl Names {
    /// Names with at most `budget` bytes in memory.
    pub fn with_budget(budget: usize) -> Names {
        Names {
            numbers: Vec::new(),
            numbered: 0,
            memory: Vec::new(),
            file: None,
            written: 0,
            pending: Vec::new(),
            lengths: Vec::new(),
            checkpoints: Vec::new(),
            total: 0,
            budget,
        }
    }

    /// Appends a name that is a number (a record's line), which costs
    /// nothing while numbers follow each other and no other name came
    /// first (then it is stored as its digits).
    pub fn push_number(&mut self, number: u64) -> io::Result<()> {
        if !self.lengths.is_empty() {
            return self.push(number.to_string().as_bytes());
        }
        let index = self.numbered;
        let follows = self
            .numbers
            .last()
            .is_some_and(|&(at, first)| first + (index - at) == number);
        if !follows {
            self.numbers.push((index, number));
        }
        self.numbered += 1;
        Ok(())
    }

    /// Appends a name (of at most 4 GiB). Numbers pushed before it are
    /// stored as their digits from then on.
    pub fn push(&mut self, name: &[u8]) -> io::Result<()> {
        if self.numbered > 0 {
            let numbers: Vec<Vec<u8>> = (0..self.numbered as usize)
                .map(|index| self.get(index).map(|digits| digits.into_owned()))
                .collect::<io::Result<_>>()?;
            self.numbered = 0;
            self.numbers.clear();
            for digits in numbers {
                self.push(&digits)?;
            }
        }
        let length = u32::try_from(name.len())
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "name longer than 4 GiB"))?;
        if self.lengths.len().is_multiple_of(CHECKPOINT) {
            self.checkpoints.push(self.total);
        }
        self.lengths.push(length);
        self.total += name.len() as u64;
        if self.file.is_none() && self.memory.len() + name.len() <= self.budget {
            self.memory.extend_from_slice(name);
            return Ok(());
        }
        if self.file.is_none() {
            self.file = Some(tempfile::tempfile()?);
        }
        self.pending.extend_from_slice(name);
        if self.pending.len() >= WRITE_BYTES {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        if let Some(file) = self.file.as_mut() {
            file.write_all(&self.pending)?;
            self.written += self.pending.len() as u64;
            self.pending.clear();
        }
        Ok(())
    }

    /// How many names.
    pub fn len(&self) -> usize {
        self.lengths.len() + self.numbered as usize
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Name `index` as bytes.
    pub fn get(&self, index: usize) -> io::Result<Cow<'_, [u8]>> {
        if self.numbered > 0 {
            let at = self
                .numbers
                .partition_point(|&(start, _)| start <= index as u64)
                - 1;
            let (start, first) = self.numbers[at];
            return Ok(Cow::Owned(
                (first + index as u64 - start).to_string().into_bytes(),
            ));
        }
        let checkpoint = index / CHECKPOINT;
        let start = self.checkpoints[checkpoint]
            + self.lengths[checkpoint * CHECKPOINT..index]
                .iter()
                .map(|&length| u64::from(length))
                .sum::<u64>();
        let end = start + u64::from(self.lengths[index]);
        let in_memory = self.memory.len() as u64;
        if end <= in_memory {
            return Ok(Cow::Borrowed(&self.memory[start as usize..end as usize]));
        }
        // Past the memory: in the file, or still in the write buffer.
        let (start, end) = (start - in_memory, end - in_memory);
        if start >= self.written {
            let from = (start - self.written) as usize;
            let to = (end - self.written) as usize;
            return Ok(Cow::Borrowed(&self.pending[from..to]));
        }
        let file = self
            .file
            .as_ref()
            .expect("names past memory are in the file");
        let mut bytes = vec![0u8; (end - start) as usize];
        let held = self.written.min(end) - start;
        read_exact_at(file, &mut bytes[..held as usize], start)?;
        bytes[held as usize..].copy_from_slice(&self.pending[..(end - start - held) as usize]);
        Ok(Cow::Owned(bytes))
    }

    /// Name `index` as text (invalid UTF-8 replaced); a name that cannot
    /// be read back says so instead.
    pub fn text(&self, index: usize) -> String {
        match self.get(index) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(error) => format!("<name {index} unreadable: {error}>"),
        }
    }
}

#[cfg(unix)]
fn read_exact_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
}

#[cfg(windows)]
fn read_exact_at(file: &File, mut buf: &mut [u8], mut offset: u64) -> io::Result<()> {
    use std::os::windows::fs::FileExt;
    while !buf.is_empty() {
        let n = file.seek_read(buf, offset)?;
        if n == 0 {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        buf = &mut buf[n..];
        offset += n as u64;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn every_name_reads_back_whatever_the_budget(
            names in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..40), 0..200),
            budget in prop_oneof![Just(0usize), 1usize..200, Just(usize::MAX)],
        ) {
            let mut store = Names::with_budget(budget);
            for name in &names {
                store.push(name).unwrap();
            }
            prop_assert_eq!(store.len(), names.len());
            for (index, name) in names.iter().enumerate() {
                prop_assert_eq!(&*store.get(index).unwrap(), name.as_slice());
            }
        }
    }

    #[test]
    fn numbers_cost_only_where_they_skip() {
        let mut store = Names::default();
        for number in [1, 2, 3, 7, 8, 20] {
            store.push_number(number).unwrap();
        }
        assert_eq!(store.numbers, [(0, 1), (3, 7), (5, 20)]);
        let names: Vec<String> = (0..store.len()).map(|i| store.text(i)).collect();
        assert_eq!(names, ["1", "2", "3", "7", "8", "20"]);
    }

    #[test]
    fn numbers_and_names_mix_in_either_order() {
        let mut store = Names::default();
        store.push(b"stored").unwrap();
        store.push_number(4).unwrap();
        store.push_number(5).unwrap();
        let names: Vec<String> = (0..store.len()).map(|i| store.text(i)).collect();
        assert_eq!(names, ["stored", "4", "5"]);
        let mut store = Names::default();
        store.push_number(9).unwrap();
        store.push_number(10).unwrap();
        store.push(b"named").unwrap();
        store.push_number(11).unwrap();
        let names: Vec<String> = (0..store.len()).map(|i| store.text(i)).collect();
        assert_eq!(names, ["9", "10", "named", "11"]);
    }

    #[test]
    fn names_past_the_budget_go_to_the_file() {
        let mut store = Names::with_budget(10);
        store.push(b"0123456789").unwrap();
        store.push(b"spilled").unwrap();
        assert!(store.file.is_some());
        assert_eq!(store.memory.len(), 10);
        assert_eq!(store.text(1), "spilled");
    }
}
