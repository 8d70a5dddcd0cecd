//! A small seeded random number generator (xoshiro256**, seeded by
//! SplitMix64).
//!
//! Written out here rather than taken from a crate so that a corpus is
//! reproducible byte for byte across dependency upgrades: the stream of
//! numbers for a seed is fixed by this file alone.

/// xoshiro256** by Blackman and Vigna: fast, good quality, 256-bit state.
#[derive(Clone, Debug)]
pub struct Rng {
    state: [u64; 4],
}

/// One SplitMix64 step: spreads any seed, even 0, over the whole state.
fn splitmix64(x: &mut u64) -> u64 {
    *x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Derives an independent seed for item `index` of stream `seed`, so that
/// items can be generated in any order (and in parallel) with the same result.
pub fn derive_seed(seed: u64, stream: u64, index: u64) -> u64 {
    let mut x = seed ^ stream.rotate_left(32);
    let a = splitmix64(&mut x);
    let mut y = a ^ index;
    splitmix64(&mut y)
}

impl Rng {
    /// A generator for this seed.
    pub fn new(seed: u64) -> Rng {
        let mut x = seed;
        Rng {
            state: [
                splitmix64(&mut x),
                splitmix64(&mut x),
                splitmix64(&mut x),
                splitmix64(&mut x),
            ],
        }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.state;
        let result = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// A uniform float in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A uniform integer in [0, n); 0 when n is 0.
    pub fn below(&mut self, n: usize) -> usize {
        // Lemire's multiply-shift: unbiased enough for a corpus generator
        // (bias below 2^-32 for n < 2^32) and branch-free.
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }

    /// A uniform integer in [lo, hi] (inclusive).
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    /// True with probability p.
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    /// A standard normal deviate (Box-Muller).
    pub fn normal(&mut self) -> f64 {
        let u1 = 1.0 - self.unit(); // in (0, 1]: ln is finite
        let u2 = self.unit();
        (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
    }

    /// Shuffles a slice in place (Fisher-Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream_and_different_seeds_differ() {
        let a: Vec<u64> = (0..8)
            .scan(Rng::new(7), |r, _| Some(r.next_u64()))
            .collect();
        let b: Vec<u64> = (0..8)
            .scan(Rng::new(7), |r, _| Some(r.next_u64()))
            .collect();
        let c: Vec<u64> = (0..8)
            .scan(Rng::new(8), |r, _| Some(r.next_u64()))
            .collect();
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut rng = Rng::new(1);
        let mut seen = [false; 7];
        for _ in 0..1000 {
            let x = rng.below(7);
            assert!(x < 7);
            seen[x] = true;
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(rng.below(0), 0);
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut rng = Rng::new(3);
        let mut v: Vec<u32> = (0..100).collect();
        rng.shuffle(&mut v);
        assert_ne!(v, (0..100).collect::<Vec<_>>());
        v.sort_unstable();
        assert_eq!(v, (0..100).collect::<Vec<_>>());
    }

    #[test]
    fn derived_seeds_differ_by_index_and_stream() {
        assert_ne!(derive_seed(1, 0, 0), derive_seed(1, 0, 1));
        assert_ne!(derive_seed(1, 0, 0), derive_seed(1, 1, 0));
        assert_eq!(derive_seed(5, 2, 9), derive_seed(5, 2, 9));
    }
}
