//! Test data of the search benchmarks: random fingerprints with 1% planted
//! near pairs, generated deterministically without a dependency.

/// splitmix64: fast, deterministic, no dependency.
pub fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// `n` fingerprints with ids 0..n; 1% are copies of an earlier one with
/// 1..=`max_flips` random bits flipped (none when `max_flips` is 0).
pub fn planted(n: usize, max_flips: u32, seed: u64) -> Vec<(u32, u64)> {
    let mut state = seed;
    let mut out: Vec<(u32, u64)> = Vec::with_capacity(n);
    for id in 0..n {
        let r = splitmix(&mut state);
        let fp = if id > 0 && r.is_multiple_of(100) && max_flips > 0 {
            let original = out[(splitmix(&mut state) % id as u64) as usize].1;
            let flips = 1 + (splitmix(&mut state) % u64::from(max_flips)) as u32;
            let mut flipped = 0u64;
            while flipped.count_ones() < flips {
                flipped |= 1 << (splitmix(&mut state) % 64);
            }
            original ^ flipped
        } else {
            splitmix(&mut state)
        };
        out.push((id as u32, fp));
    }
    out
}
