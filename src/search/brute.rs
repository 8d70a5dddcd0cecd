//! Brute force: every pair of distinct fingerprints. The reference the
//! other methods are tested against, and the cheapest method for tiny runs.

use rayon::prelude::*;

use super::sink::{Found, Shared, Sink};

/// Emits every pair of distinct fingerprints within `max_distance`.
pub(crate) fn search(shared: &Shared, max_distance: u32) -> Found {
    let fingerprints = &shared.collapsed.fingerprints;
    let n = fingerprints.len();
    let mut found = (0..n)
        .into_par_iter()
        // Rows shrink as i grows; small leaves keep the threads balanced.
        .with_max_len(64)
        .fold(
            || shared.sink(),
            |mut sink, i| {
                let x = fingerprints[i];
                for (j, &y) in fingerprints.iter().enumerate().skip(i + 1) {
                    let distance = (x ^ y).count_ones();
                    if distance <= max_distance {
                        sink.emit(i as u32, j as u32, distance);
                    }
                }
                sink.found.comparisons += (n - i - 1) as u64;
                sink
            },
        )
        .map(Sink::finish)
        .reduce(|| shared.nothing(), Found::merge);
    found.largest_bucket = n as u64;
    found
}
