//! Parallel work, consumed in input order.
//!
//! Workers (rayon) compute results and send them, tagged with their index,
//! to the calling thread, which hands them on strictly in input order. So
//! messages, ids and output are the same whatever the thread count, and
//! workers never print; a slow item only delays consumption, not the work.

use std::collections::BTreeMap;
use std::sync::mpsc;

use rayon::prelude::*;

/// Runs `work` on every item in parallel and calls `consume(index, item,
/// result)` on this thread in input order.
pub fn for_each_ordered<T, R, W, C>(items: &[T], work: W, mut consume: C)
where
    T: Sync,
    R: Send,
    W: Fn(&T) -> R + Sync,
    C: FnMut(usize, &T, R),
{
    let (sender, receiver) = mpsc::channel();
    std::thread::scope(|scope| {
        let work = &work;
        scope.spawn(move || {
            items
                .par_iter()
                .enumerate()
                .for_each_with(sender, |sender, (index, item)| {
                    // The receiver lives until every result is in; a failed
                    // send can only mean it is gone, and then nobody waits.
                    let _ = sender.send((index, work(item)));
                });
        });
        let mut waiting = BTreeMap::new();
        let mut next = 0;
        for (index, result) in receiver {
            waiting.insert(index, result);
            while let Some(result) = waiting.remove(&next) {
                consume(next, &items[next], result);
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
            },
        );
        assert_eq!(seen, (0..2000).collect::<Vec<_>>());
    }

    #[test]
    fn empty_input_calls_nothing() {
        let items: Vec<u8> = Vec::new();
        for_each_ordered(&items, |_| 0, |_, _, _: i32| panic!("no items"));
    }
}
