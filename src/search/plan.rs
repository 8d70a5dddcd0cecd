//! The cost model of the exact search: how many blocks to cut the 64 bits
//! into, or whether brute force is cheaper.
//!
//! With m blocks and distance k there are C(m, k) tables; a table whose key
//! has b bits costs one sorting pass over the n fingerprints plus, on
//! uniformly random fingerprints, C(n, 2) / 2^b comparisons inside buckets of
//! equal keys. Brute force costs C(n, 2) comparisons. The model picks the
//! cheapest, in units of one comparison (docs/SEARCH.md has the figures).

use super::blocks;

/// Cost of putting one fingerprint through one table (permute, count,
/// scatter, scan), in comparisons: about 7.5 ns a fingerprint against 0.35
/// ns a comparison with POPCNT (docs/SEARCH.md).
const PASS_COST: f64 = 22.0;

/// The same for a table run in two levels (`blocks::search_two_level`):
/// the scatter by the first key block is shared, and inside a partition
/// the fingerprints are grouped by the rest of the key without being
/// permuted: about 3 ns a fingerprint at 10^6 (one thread, k = 9).
const PASS_COST_TWO_LEVEL: f64 = 9.0;

/// The same past `LARGE_N` fingerprints, where a table's buffers leave the
/// cache and the scatter is narrower, so buckets are sorted: 14.5 ns a
/// fingerprint at 10^7 (one thread, k = 6).
const PASS_COST_LARGE: f64 = 41.0;

/// See `PASS_COST_LARGE` (the sort's own threshold, `sort::LARGE`).
const LARGE_N: usize = 1 << 22;

/// The cost of one table pass per fingerprint, for `n` fingerprints and
/// `m` blocks at distance `k`.
fn pass_cost(n: usize, k: u32, m: u32) -> f64 {
    if n > LARGE_N {
        PASS_COST_LARGE
    } else if blocks::groups_partitions_cheaply(n, k, m) {
        PASS_COST_TWO_LEVEL
    } else {
        PASS_COST
    }
}

/// Tables beyond this are never planned (their list takes 8 bytes each);
/// so many tables cost more than brute force below n of about 10^8.
pub(crate) const MAX_TABLES: f64 = 1e6;

/// What the exact search will do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Plan {
    /// Nothing to search: k = 0 or fewer than two distinct fingerprints.
    Nothing,
    /// Compare all pairs.
    Brute,
    /// Permuted block tables with this many blocks.
    Blocks(u32),
}

/// The cheapest plan for `n` distinct fingerprints and distance `k`.
pub(crate) fn choose(n: usize, k: u32) -> Plan {
    if k == 0 || n < 2 {
        return Plan::Nothing;
    }
    let pairs = n as f64 * (n as f64 - 1.0) / 2.0;
    let mut best = (pairs, Plan::Brute);
    for m in k + 1..=64 {
        let Some(cost) = blocks_cost(n, k, m) else {
            continue;
        };
        if cost < best.0 {
            best = (cost, Plan::Blocks(m));
        }
    }
    best.1
}

/// The modelled cost of `m` blocks, or `None` if it needs too many tables.
pub(crate) fn blocks_cost(n: usize, k: u32, m: u32) -> Option<f64> {
    blocks_cost_where(n, k, m, &uniform_agreement)
}

/// [`blocks_cost`] for fingerprints of which a share `agree(b)` of pairs
/// agree on a key of b bits.
pub(crate) fn blocks_cost_where(
    n: usize,
    k: u32,
    m: u32,
    agree: &dyn Fn(u32) -> f64,
) -> Option<f64> {
    let tables = binomial(m, k);
    if tables > MAX_TABLES {
        return None;
    }
    let pairs = n as f64 * (n as f64 - 1.0) / 2.0;
    let collisions = key_collisions(m, k, pairs, agree);
    Some(tables * n as f64 * pass_cost(n, k, m) + collisions)
}

/// For each b, the share of fingerprint pairs that agree on a given key of
/// b bits, from the share of pairs at each distance d (`at_distance[d]`):
/// a pair d bits apart does with probability C(64 - d, b) / C(64, b).
pub(crate) fn agreement_by_key_bits(at_distance: &[f64; 65]) -> [f64; 65] {
    let mut agreement = [0.0; 65];
    for (bits, share) in (0u32..).zip(agreement.iter_mut()) {
        *share = (0u32..)
            .zip(at_distance)
            .map(|(d, &at)| at * binomial(64 - d, bits) / binomial(64, bits))
            .sum();
    }
    agreement
}

/// The share of pairs of uniformly random fingerprints that agree on a
/// key of `bits` bits: 2^-bits.
pub(crate) fn uniform_agreement(bits: u32) -> f64 {
    2f64.powi(-(bits as i32))
}

/// Cost of probing one table with one fingerprint in a search against new
/// fingerprints (permute, find the bucket, check its keys), in comparisons.
const PROBE_COST: f64 = 6.0;

/// Cost of putting one new fingerprint in one probe table, in comparisons.
const ENTRY_COST: f64 = 10.0;

/// The cheapest plan for pairs of `fresh` new fingerprints with any of
/// `n` (new ones included) within distance `k`: `Brute` compares each
/// new one with all, `Blocks(m)` probes tables of the new ones.
pub(crate) fn choose_against(n: usize, fresh: usize, k: u32) -> Plan {
    if k == 0 || n < 2 || fresh == 0 {
        return Plan::Nothing;
    }
    let mut best = (against_pairs(n, fresh), Plan::Brute);
    for m in k + 1..=64 {
        let Some(cost) = probe_cost(n, fresh, k, m) else {
            continue;
        };
        if cost < best.0 {
            best = (cost, Plan::Blocks(m));
        }
    }
    best.1
}

/// Pairs with at least one of `fresh` new fingerprints among `n`.
pub(crate) fn against_pairs(n: usize, fresh: usize) -> f64 {
    let (n, t) = (n as f64, fresh as f64);
    t * (n - t) + t * (t - 1.0) / 2.0
}

/// The modelled cost of probing tables of `m` blocks, or `None` if it
/// needs too many tables.
pub(crate) fn probe_cost(n: usize, fresh: usize, k: u32, m: u32) -> Option<f64> {
    probe_cost_where(n, fresh, k, m, &uniform_agreement)
}

/// [`probe_cost`] for fingerprints of which a share `agree(b)` of pairs
/// agree on a key of b bits.
pub(crate) fn probe_cost_where(
    n: usize,
    fresh: usize,
    k: u32,
    m: u32,
    agree: &dyn Fn(u32) -> f64,
) -> Option<f64> {
    let tables = binomial(m, k);
    if tables > MAX_TABLES {
        return None;
    }
    let collisions = key_collisions(m, k, against_pairs(n, fresh), agree);
    Some(tables * (n as f64 * PROBE_COST + fresh as f64 * ENTRY_COST) + collisions)
}

/// Pairs, out of `pairs`, that share the key of some table of `m` blocks
/// at distance `k` (summed over the tables), when a share `agree(b)` of
/// them agree on a key of b bits (2^-b for uniformly random fingerprints).
fn key_collisions(m: u32, k: u32, pairs: f64, agree: &dyn Fn(u32) -> f64) -> f64 {
    // `wide` blocks have one bit more than the others; a table choosing i of
    // them has a key of (m - k) * narrow + i bits.
    let narrow = 64 / m;
    let wide = 64 % m;
    let chosen = m - k;
    let mut collisions = 0.0;
    for i in 0..=chosen.min(wide) {
        let ways = binomial(wide, i) * binomial(m - wide, chosen - i);
        collisions += ways * pairs * agree(chosen * narrow + i);
    }
    collisions
}

/// C(n, k) as a float (exact below 2^53).
pub(crate) fn binomial(n: u32, k: u32) -> f64 {
    if k > n {
        return 0.0;
    }
    let k = k.min(n - k);
    (0..k).fold(1.0, |acc, i| acc * f64::from(n - i) / f64::from(i + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uniform_distances_agree_on_b_bits_once_in_2_to_the_b() {
        // Distances of uniformly random fingerprints: Binomial(64, 1/2).
        let mut at_distance = [0.0; 65];
        for (d, share) in (0u32..).zip(at_distance.iter_mut()) {
            *share = binomial(64, d) / 2f64.powi(64);
        }
        let agreement = agreement_by_key_bits(&at_distance);
        for bits in [0, 8, 16, 24] {
            let ratio = agreement[bits as usize] / uniform_agreement(bits);
            assert!((ratio - 1.0).abs() < 1e-9, "{bits}: {ratio}");
        }
    }

    #[test]
    fn binomials() {
        assert_eq!(binomial(5, 2), 10.0);
        assert_eq!(binomial(64, 0), 1.0);
        assert_eq!(binomial(3, 4), 0.0);
        assert_eq!(binomial(40, 8), 76_904_685.0);
        assert!((binomial(64, 32) / 1.832_624_140_942_590_5e18 - 1.0).abs() < 1e-12);
    }

    #[test]
    fn trivial_runs_need_no_search() {
        assert_eq!(choose(1_000, 0), Plan::Nothing);
        assert_eq!(choose(1, 5), Plan::Nothing);
    }

    #[test]
    fn tiny_runs_use_brute_force() {
        assert_eq!(choose(2, 3), Plan::Brute);
        assert_eq!(choose(50, 3), Plan::Brute);
    }

    #[test]
    fn large_runs_use_more_blocks_than_k() {
        for (n, k) in [
            (1_000_000, 3),
            (10_000_000, 3),
            (1_000_000, 6),
            (1_000_000, 10),
        ] {
            match choose(n, k) {
                Plan::Blocks(m) => assert!(m > k, "n={n} k={k} m={m}"),
                other => panic!("n={n} k={k}: {other:?}"),
            }
        }
    }

    #[test]
    fn chosen_plan_is_no_costlier_than_any_layout() {
        for n in [100, 10_000, 1_000_000] {
            for k in 1..=12 {
                let best = match choose(n, k) {
                    Plan::Blocks(m) => blocks_cost(n, k, m).unwrap(),
                    _ => n as f64 * (n as f64 - 1.0) / 2.0,
                };
                for m in k + 1..=64 {
                    if let Some(cost) = blocks_cost(n, k, m) {
                        assert!(best <= cost, "n={n} k={k} m={m}");
                    }
                }
            }
        }
    }
}
