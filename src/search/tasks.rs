//! Running independent sorting tasks (block tables, rotations) on the rayon
//! pool, each thread reusing one sort buffer, and never more at once than
//! memory allows.

use std::sync::Mutex;

use rayon::prelude::*;

use super::sort::SortBuffers;

/// Memory the concurrent sort buffers may take together (8 bytes per
/// fingerprint each): at 10^7 fingerprints 13 tables fit, at 10^8 one.
const BUFFER_MEMORY: usize = 1 << 30;

/// Runs `work` on every task over `len` fingerprints and merges the
/// results; the merge must not depend on the order of results.
pub(crate) fn run<T, R>(
    len: usize,
    tasks: &[T],
    identity: impl Fn() -> R + Sync + Send,
    work: impl Fn(&T, &mut SortBuffers<u64>) -> R + Sync + Send,
    merge: impl Fn(R, R) -> R + Sync + Send,
) -> R
where
    T: Sync,
    R: Send,
{
    let allowed = (BUFFER_MEMORY / (8 * len.max(1))).max(1);
    let threads = rayon::current_num_threads().min(tasks.len());
    if threads <= 1 || allowed == 1 {
        let mut buffers = SortBuffers::default();
        return tasks
            .iter()
            .fold(identity(), |acc, task| merge(acc, work(task, &mut buffers)));
    }
    let on_pool = || {
        let buffers: Vec<Mutex<SortBuffers<u64>>> = (0..rayon::current_num_threads())
            .map(|_| Mutex::default())
            .collect();
        tasks
            .par_iter()
            .with_max_len(1)
            .map(|task| {
                // Each thread takes its own buffer: the lock is never contended.
                let slot = rayon::current_thread_index().unwrap_or(0) % buffers.len();
                let mut buffer = buffers[slot].lock().unwrap_or_else(|e| e.into_inner());
                work(task, &mut buffer)
            })
            .reduce(&identity, &merge)
    };
    if allowed >= threads {
        return on_pool();
    }
    match rayon::ThreadPoolBuilder::new().num_threads(allowed).build() {
        Ok(pool) => pool.install(on_pool),
        // No smaller pool: stay within memory on one thread.
        Err(_) => {
            let mut buffers = SortBuffers::default();
            tasks
                .iter()
                .fold(identity(), |acc, task| merge(acc, work(task, &mut buffers)))
        }
    }
}
