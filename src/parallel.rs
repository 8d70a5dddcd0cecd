//! Parallel work, consumed in input order: the one way the stages run
//! per-document work on every core while output stays deterministic.
//!
//! Workers (rayon) compute results and send them, tagged with their index,
//! to the calling thread, which hands them on strictly in input order. So
//! messages, ids and output are the same whatever the thread count, and
//! workers never print; a slow item only delays consumption, not the work.
//! The consumer can stop the whole run (say, its reader closed the pipe):
//! items not yet started are then skipped.

use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, mpsc};

use rayon::iter::ParallelBridge;
use rayon::prelude::*;

/// Items started but not yet consumed, per worker thread: enough to keep
/// every worker busy while the consumer waits for a slow item, few enough
/// that results waiting for their turn cost little memory. An item is a
/// block of a megabyte of records, four or five megabytes once parsed and
/// measured: where the consumer is the slower (identical lines, measured
/// once), 8 a thread held 16 of them (dedup of 10^7 identical lines: 137
/// MB peak, 64 MB with 2).
const AHEAD_PER_THREAD: usize = 2;

/// Runs `work` on every item in parallel and calls `consume(index,
/// result)` on this thread in input order, until `consume` breaks.
///
/// Items are pulled from `items` as workers become free, so the work
/// starts with the first item, and the stream itself (a directory walk,
/// say) runs on the workers too. No more than a few items per thread are
/// ever ahead of the consumer, so a slow consumer slows the workers
/// instead of piling up results. Once `consume` breaks, no more items are
/// pulled and items already pulled are not worked on.
pub(crate) fn for_each_ordered<I, R, W, C>(items: I, work: W, mut consume: C)
where
    I: Iterator + Send,
    I::Item: Send,
    R: Send,
    W: Fn(I::Item) -> R + Sync,
    C: FnMut(usize, R) -> ControlFlow<()>,
{
    let (sender, receiver) = mpsc::channel();
    let stopped = AtomicBool::new(false);
    let window = Window::new(AHEAD_PER_THREAD * rayon::current_num_threads().max(1));
    std::thread::scope(|scope| {
        let (work, stopped, window) = (&work, &stopped, &window);
        scope.spawn(move || {
            items
                .enumerate()
                .take_while(|&(index, _)| window.wait_for(index, stopped))
                .par_bridge()
                .for_each_with(sender, |sender, (index, item)| {
                    if stopped.load(Ordering::Relaxed) {
                        return;
                    }
                    let _stop = StopOnPanic { stopped, window };
                    // A failed send means the consumer stopped: nobody waits.
                    let _ = sender.send((index, work(item)));
                });
        });
        let _stop = StopOnPanic { stopped, window };
        let mut waiting = BTreeMap::new();
        let mut next = 0;
        'receive: for (index, result) in receiver {
            waiting.insert(index, result);
            while let Some(result) = waiting.remove(&next) {
                if consume(next, result).is_break() {
                    stopped.store(true, Ordering::Relaxed);
                    window.consumed(usize::MAX);
                    break 'receive;
                }
                next += 1;
                window.consumed(next);
            }
        }
    });
}

/// Files a worker takes at once from a walk: handing one over costs a few
/// lock and wake-up system calls, as much as opening and reading a small
/// file, so small files go in batches.
pub(crate) const FILES_PER_TASK: usize = 64;

/// How far the stream may run ahead of the workers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ahead {
    /// A few batches: enough to keep every worker fed.
    Few,
    /// Up to `FAR_AHEAD` batches (about 13 MB of paths at most), for a run
    /// whose workers start late (a scan cache still loading): the walk
    /// gets on meanwhile.
    Far,
}

/// Batches the stream may hold for the workers with [`Ahead::Far`].
const FAR_AHEAD: usize = 1024;

/// Bytes (by the items' weight) after which a batch closes before it has
/// `chunk` items: larger files go in smaller batches, so a few large
/// files still spread over every worker.
const BATCH_BYTES: u64 = 1 << 20;

/// Like [`for_each_ordered`], but workers take up to `chunk` items at a
/// time (fewer at first, and once their `weight`, bytes to read say,
/// reaches a megabyte): for many small items (files of a walk), where handing each
/// one over alone costs more in locks and wake-ups than working on it.
/// The stream runs on a thread of its own, a few batches ahead of the
/// workers; `consume` still sees every item in input order.
pub(crate) fn for_each_ordered_chunked<I, R, W, C>(
    items: I,
    chunk: usize,
    ahead: Ahead,
    weight: impl Fn(&I::Item) -> u64 + Send,
    work: W,
    mut consume: C,
) where
    I: Iterator + Send,
    I::Item: Send,
    R: Send,
    W: Fn(I::Item) -> R + Sync,
    C: FnMut(usize, R) -> ControlFlow<()>,
{
    let threads = rayon::current_num_threads().max(1);
    // Set once the workers are done: the stream stops at its next item
    // rather than at its next whole batch (a walk through ignored trees).
    let finished = AtomicBool::new(false);
    let items = items.take_while(|_| !finished.load(Ordering::Relaxed));
    let chunks = batches(items, chunk, threads, weight);
    // A walk is mostly system calls: a worker that pulled it would hold
    // the others back on its lock while it walks.
    let bound = match ahead {
        Ahead::Few => 2 * threads,
        Ahead::Far => FAR_AHEAD,
    };
    let (batches, received) = mpsc::sync_channel(bound);
    let mut next = 0;
    std::thread::scope(|scope| {
        scope.spawn(move || {
            for batch in chunks {
                // A failed send means the workers stopped: nobody waits.
                if batches.send(batch).is_err() {
                    break;
                }
            }
        });
        for_each_ordered(
            received.into_iter(),
            |batch| batch.into_iter().map(&work).collect::<Vec<R>>(),
            |_, results| {
                for result in results {
                    consume(next, result)?;
                    next += 1;
                }
                ControlFlow::Continue(())
            },
        );
        finished.store(true, Ordering::Relaxed);
    });
}

/// Cuts `items` into batches of up to `chunk` items, closing one early
/// once its `weight` reaches `BATCH_BYTES`. Batches grow with the items
/// seen (one item each at first, `chunk` from `4 * chunk * threads`), so
/// a short run of large items (ten files of a gigabyte, whose weight may
/// be unknown) still spreads over every worker.
fn batches<I: Iterator>(
    mut items: I,
    chunk: usize,
    threads: usize,
    weight: impl Fn(&I::Item) -> u64,
) -> impl Iterator<Item = Vec<I::Item>> {
    let chunk = chunk.max(1);
    let mut taken = 0usize;
    std::iter::from_fn(move || {
        let limit = (taken / (4 * threads.max(1))).clamp(1, chunk);
        let mut batch: Vec<I::Item> = Vec::new();
        let mut bytes = 0u64;
        while batch.len() < limit && bytes < BATCH_BYTES {
            let Some(item) = items.next() else { break };
            bytes = bytes.saturating_add(weight(&item));
            batch.push(item);
        }
        taken += batch.len();
        (!batch.is_empty()).then_some(batch)
    })
}

/// Stops a run when dropped by a panic (a bug: the work and the
/// consumer return errors): the items' thread, waiting for the consumer
/// or for the item that panicked, then ends and the panic reaches the
/// caller, rather than every thread waiting on another for ever.
struct StopOnPanic<'a> {
    stopped: &'a AtomicBool,
    window: &'a Window,
}

impl Drop for StopOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.stopped.store(true, Ordering::Relaxed);
            self.window.consumed(usize::MAX);
        }
    }
}

/// How far ahead of the consumer the workers may start items.
struct Window {
    size: usize,
    /// Items consumed so far.
    consumed: Mutex<usize>,
    moved: Condvar,
}

impl Window {
    fn new(size: usize) -> Window {
        Window {
            size: size.max(1),
            consumed: Mutex::new(0),
            moved: Condvar::new(),
        }
    }

    /// Waits until item `index` may start; false once the run stopped.
    fn wait_for(&self, index: usize, stopped: &AtomicBool) -> bool {
        let mut consumed = self.consumed.lock().unwrap_or_else(|e| e.into_inner());
        while index >= consumed.saturating_add(self.size) && !stopped.load(Ordering::Relaxed) {
            consumed = self.moved.wait(consumed).unwrap_or_else(|e| e.into_inner());
        }
        !stopped.load(Ordering::Relaxed)
    }

    /// Records that the consumer has taken the first `count` items.
    fn consumed(&self, count: usize) {
        *self.consumed.lock().unwrap_or_else(|e| e.into_inner()) = count;
        self.moved.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_arrive_in_input_order() {
        let items: Vec<u64> = (0..2000).collect();
        let mut seen = Vec::new();
        for_each_ordered(
            items.iter(),
            |&x| {
                // Uneven work so results finish out of order.
                let spins = (x * 7919) % 5000;
                let junk = (0..spins).fold(x, |acc, i| acc.wrapping_mul(31).wrapping_add(i));
                (x, junk)
            },
            |index, (echo, _junk)| {
                assert_eq!(index as u64, items[index]);
                assert_eq!(echo, items[index]);
                seen.push(index);
                ControlFlow::Continue(())
            },
        );
        assert_eq!(seen, (0..2000).collect::<Vec<_>>());
    }

    #[test]
    fn streams_arrive_in_order_whatever_the_work() {
        let mut seen = Vec::new();
        for_each_ordered(
            (0..3000u64).map(|x| x * 3),
            |x| {
                let spins = (x * 7919) % 4000;
                (0..spins).fold(x, |acc, i| acc.wrapping_mul(31).wrapping_add(i));
                x / 3
            },
            |index, value| {
                assert_eq!(index as u64, value);
                seen.push(value);
                ControlFlow::Continue(())
            },
        );
        assert_eq!(seen, (0..3000).collect::<Vec<_>>());
    }

    #[test]
    fn breaking_a_stream_stops_pulling_items() {
        let pulled = std::sync::atomic::AtomicUsize::new(0);
        let items = (0..1_000_000u32).inspect(|_| {
            pulled.fetch_add(1, Ordering::Relaxed);
        });
        let mut consumed = 0;
        for_each_ordered(
            items,
            |x| {
                std::thread::sleep(std::time::Duration::from_micros(20));
                x
            },
            |index, _| {
                consumed += 1;
                if index == 9 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            },
        );
        assert_eq!(consumed, 10);
        assert!(pulled.load(Ordering::Relaxed) < 1_000_000);
    }

    #[test]
    fn workers_never_run_far_ahead_of_a_slow_consumer() {
        let started = std::sync::atomic::AtomicUsize::new(0);
        let limit = AHEAD_PER_THREAD * rayon::current_num_threads().max(1);
        for_each_ordered(
            0..2000usize,
            |x| {
                started.fetch_add(1, Ordering::SeqCst);
                x
            },
            |index, _| {
                // Slow consumer: workers must wait for it.
                std::thread::sleep(std::time::Duration::from_micros(50));
                let ahead = started.load(Ordering::SeqCst) - index;
                assert!(ahead <= limit + 1, "{ahead} items ahead of {index}");
                ControlFlow::Continue(())
            },
        );
    }

    #[test]
    fn chunks_arrive_in_input_order_and_stop_on_break() {
        for (chunk, weight) in [(1, 0), (3, 0), (16, 0), (5000, 0), (64, 1 << 19)] {
            let mut seen = Vec::new();
            for_each_ordered_chunked(
                0..3000u64,
                chunk,
                if chunk == 3 { Ahead::Far } else { Ahead::Few },
                // Heavy items close a batch early.
                |&x| x % 2 * weight,
                |x| {
                    let spins = (x * 7919) % 3000;
                    (0..spins).fold(x, |acc, i| acc.wrapping_mul(31).wrapping_add(i));
                    x * 2
                },
                |index, value| {
                    assert_eq!(value, index as u64 * 2);
                    seen.push(index);
                    if index == 2500 {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                },
            );
            assert_eq!(seen, (0..=2500).collect::<Vec<_>>(), "chunk {chunk}");
        }
    }

    #[test]
    fn batches_grow_to_the_chunk_and_close_early_when_heavy() {
        let sizes = |n: u64, weight: u64| -> Vec<usize> {
            batches(0..n, 64, 2, |_| weight).map(|b| b.len()).collect()
        };
        // Ten items on two threads: one a batch, so both threads get work.
        assert_eq!(sizes(10, 0), [1; 10]);
        let light = sizes(100_000, 0);
        assert_eq!(light.iter().sum::<usize>(), 100_000);
        assert_eq!(light[..8], [1; 8]);
        let whole = &light[..light.len() - 1];
        assert!(whole.windows(2).all(|w| w[0] <= w[1]), "{whole:?}");
        assert_eq!(light[light.len() / 2], 64);
        // Items of half the byte budget: two a batch at most.
        assert!(sizes(1000, BATCH_BYTES / 2).iter().all(|&len| len <= 2));
        let items: Vec<u64> = batches(0..1000u64, 7, 1, |_| 0).flatten().collect();
        assert_eq!(items, (0..1000).collect::<Vec<_>>());
    }

    #[test]
    fn empty_input_calls_nothing() {
        let items: Vec<u8> = Vec::new();
        for_each_ordered(items.iter(), |_| 0, |_, _: i32| panic!("no items"));
    }

    #[test]
    fn breaking_stops_the_run() {
        let items: Vec<u32> = (0..100_000).collect();
        let worked = std::sync::atomic::AtomicUsize::new(0);
        let mut consumed = 0;
        for_each_ordered(
            items.iter(),
            |_| {
                // Slow enough that all the items would take seconds.
                std::thread::sleep(std::time::Duration::from_micros(50));
                worked.fetch_add(1, Ordering::Relaxed)
            },
            |index, _| {
                consumed += 1;
                if index == 9 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            },
        );
        assert_eq!(consumed, 10);
        // Workers run ahead of the consumer a little, never through it all.
        assert!(worked.load(Ordering::Relaxed) < items.len());
    }

    /// Runs `run` on a thread of its own: whether it panicked, or `None`
    /// when it has not ended after a minute (its threads wait on each
    /// other).
    fn panicked_within_a_minute(run: impl FnOnce() + Send + 'static) -> Option<bool> {
        let (done, ended) = mpsc::channel();
        std::thread::spawn(move || {
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(run));
            let _ = done.send(result.is_err());
        });
        ended.recv_timeout(std::time::Duration::from_secs(60)).ok()
    }

    // A bug that panics in the work or in the consumer ends the run with
    // its panic, rather than leaving the items' thread waiting for an item
    // that never comes, or for a consumer that is gone.
    #[test]
    fn a_panic_in_the_work_or_in_the_consumer_ends_the_run() {
        let in_the_work = panicked_within_a_minute(|| {
            for_each_ordered(
                0..100_000u32,
                |i| {
                    assert_ne!(i, 10, "a bug in the work");
                    i
                },
                |_, _| ControlFlow::Continue(()),
            );
        });
        assert_eq!(in_the_work, Some(true));
        let in_the_consumer = panicked_within_a_minute(|| {
            for_each_ordered(
                0..100_000u32,
                |i| i,
                |index, _| {
                    assert_ne!(index, 10, "a bug in the consumer");
                    ControlFlow::Continue(())
                },
            );
        });
        assert_eq!(in_the_consumer, Some(true));
        // The same in batches, the stream on a thread of its own.
        for (work_at, consumer_at, ahead) in [(5, u32::MAX, Ahead::Few), (u32::MAX, 5, Ahead::Far)]
        {
            let in_batches = panicked_within_a_minute(move || {
                for_each_ordered_chunked(
                    0..100_000u32,
                    16,
                    ahead,
                    |_| 0,
                    |i| {
                        assert_ne!(i, work_at, "a bug in the work");
                        i
                    },
                    |index, _| {
                        assert_ne!(index as u32, consumer_at, "a bug in the consumer");
                        ControlFlow::Continue(())
                    },
                );
            });
            assert_eq!(in_batches, Some(true), "{work_at} {consumer_at}");
        }
    }
}
