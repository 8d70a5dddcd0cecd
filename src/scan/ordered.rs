//! Parallel work, consumed in input order.
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
use std::sync::mpsc;

use rayon::prelude::*;

/// Runs `work` on every item in parallel and calls `consume(index, item,
/// result)` on this thread in input order, until `consume` breaks.
pub fn for_each_ordered<T, R, W, C>(items: &[T], work: W, mut consume: C)
where
    T: Sync,
    R: Send,
    W: Fn(&T) -> R + Sync,
    C: FnMut(usize, &T, R) -> ControlFlow<()>,
{
    let (sender, receiver) = mpsc::channel();
    let stopped = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let (work, stopped) = (&work, &stopped);
        scope.spawn(move || {
            items
                .par_iter()
                .enumerate()
                .for_each_with(sender, |sender, (index, item)| {
                    if stopped.load(Ordering::Relaxed) {
                        return;
                    }
                    // A failed send means the consumer stopped: nobody waits.
                    let _ = sender.send((index, work(item)));
                });
        });
        let mut waiting = BTreeMap::new();
        let mut next = 0;
        'receive: for (index, result) in receiver {
            waiting.insert(index, result);
            while let Some(result) = waiting.remove(&next) {
                if consume(next, &items[next], result).is_break() {
                    stopped.store(true, Ordering::Relaxed);
                    break 'receive;
                }
                next += 1;
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_arrive_in_input_order() {
        let items: Vec<u64> = (0..2000).collect();
        let mut seen = Vec::new();
        for_each_ordered(
            &items,
            |&x| {
                // Uneven work so results finish out of order.
                let spins = (x * 7919) % 5000;
                let junk = (0..spins).fold(x, |acc, i| acc.wrapping_mul(31).wrapping_add(i));
                (x, junk)
            },
            |index, &item, (echo, _junk)| {
                assert_eq!(index as u64, item);
                assert_eq!(echo, item);
                seen.push(index);
                ControlFlow::Continue(())
            },
        );
        assert_eq!(seen, (0..2000).collect::<Vec<_>>());
    }

    #[test]
    fn empty_input_calls_nothing() {
        let items: Vec<u8> = Vec::new();
        for_each_ordered(&items, |_| 0, |_, _, _: i32| panic!("no items"));
    }

    #[test]
    fn breaking_stops_the_run() {
        let items: Vec<u32> = (0..100_000).collect();
        let worked = std::sync::atomic::AtomicUsize::new(0);
        let mut consumed = 0;
        for_each_ordered(
            &items,
            |_| {
                // Slow enough that all the items would take seconds.
                std::thread::sleep(std::time::Duration::from_micros(50));
                worked.fetch_add(1, Ordering::Relaxed)
            },
            |index, _, _| {
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
}
