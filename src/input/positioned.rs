//! Positioned reads of a shared file, so several threads can read it at
//! once.

use std::fs::File;
use std::io::{self, Read};

/// Reads a shared file from a position with positioned reads, so several
/// threads can read it at once.
pub struct Positioned<'a> {
    /// The file.
    pub file: &'a File,
    /// Where the next read starts.
    pub at: u64,
}

impl Read for Positioned<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        #[cfg(unix)]
        let n = std::os::unix::fs::FileExt::read_at(self.file, buf, self.at)?;
        #[cfg(windows)]
        let n = std::os::windows::fs::FileExt::seek_read(self.file, buf, self.at)?;
        self.at += n as u64;
        Ok(n)
    }
}
