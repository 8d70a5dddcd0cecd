//! Scanning a long run of fingerprints for those within k bits of one:
//! the inner loop of dedup's index, whose buckets hold hundreds to
//! thousands of kept fingerprints.
//!
//! The run is checked 32 at a time without a branch inside (hits are
//! rare), so the check vectorises; a chunk with a hit is then walked one by
//! one. The same loop is compiled again for two CPU features and chosen
//! at run time. Where the CPU has AVX-512 with its 64-bit population count
//! (VPOPCNTQ: AMD Zen 4 and later, Intel Ice Lake and later): eight
//! comparisons an instruction instead of one POPCNT each (`cargo bench
//! --bench dedup_index`). Else, with AVX2: four at a time, counted by
//! nibble lookups (VPSHUFB) rather than POPCNT, which runs one an
//! instruction; dedup of 10^6 address lines, whose time is mostly this
//! loop, took 0.91 of the time with POPCNT alone. The answer is the same
//! either way.

/// Fingerprints checked at once before looking at them one by one.
const CHUNK: usize = 32;

/// Whether [`for_each_within`] runs on AVX-512's population count here,
/// where a comparison costs about half what it costs with POPCNT alone.
pub fn wide_popcount() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512vpopcntdq")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Calls `hit(index, distance)` for every fingerprint of `run` within
/// `max_distance` bits of `target`, in order. Chooses the loop for the CPU
/// on each call, and pays for the chunks: for long runs (dedup's buckets,
/// hundreds to thousands). The scan's buckets are a few fingerprints
/// compared pairwise, where a plain loop was faster (the exact search of
/// 10^6 fingerprints took 1.04 times as long at k = 9 and 1.31 at k = 12
/// through this, even compiled for AVX-512 a table at a time).
#[multiversion::multiversion(targets("x86_64+avx512f+avx512vpopcntdq", "x86_64+avx2"))]
pub fn for_each_within(
    run: &[u64],
    target: u64,
    max_distance: u32,
    mut hit: impl FnMut(usize, u32),
) {
    for (chunk, values) in run.chunks(CHUNK).enumerate() {
        let near = values.iter().fold(false, |near, &other| {
            near | ((other ^ target).count_ones() <= max_distance)
        });
        if !near {
            continue;
        }
        for (at, &other) in values.iter().enumerate() {
            let distance = (other ^ target).count_ones();
            if distance <= max_distance {
                hit(chunk * CHUNK + at, distance);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn finds_exactly_the_fingerprints_within_k(
            run in proptest::collection::vec(any::<u64>(), 0..200),
            flips in proptest::collection::vec((0usize..200, 0u32..64, 0u32..12), 0..40),
            target in any::<u64>(),
            k in 0u32..=32,
        ) {
            // Some entries near the target: copies with a few bits flipped.
            let mut run = run;
            for (at, seed, bits) in flips {
                if let Some(value) = run.get_mut(at) {
                    *value = target;
                    for bit in 0..bits {
                        *value ^= 1 << ((seed + bit * 7) % 64);
                    }
                }
            }
            let mut found = Vec::new();
            for_each_within(&run, target, k, |at, distance| found.push((at, distance)));
            let expected: Vec<(usize, u32)> = run
                .iter()
                .enumerate()
                .map(|(at, &value)| (at, (value ^ target).count_ones()))
                .filter(|&(_, distance)| distance <= k)
                .collect();
            prop_assert_eq!(found, expected);
        }
    }
}
