//! One large search, timed: the 10^6 and 10^7 figures of docs/SEARCH.md.
//!
//! Run under `/usr/bin/time -v` for peak memory, for example
//! `SIMDUP_N=10000000 SIMDUP_K=3 cargo bench --bench search_scale`.
//! Settings come from the environment so that cargo's own arguments pass
//! through: SIMDUP_N (fingerprints, default 1,000,000), SIMDUP_K (default 3),
//! SIMDUP_METHOD (exact, rotate or brute), SIMDUP_WINDOW (rotate's window),
//! SIMDUP_RECALL=1 (also run exact and report the method's recall).
//! Input: random fingerprints, 1% of them copies of another with 1..=k
//! random bits flipped.

use std::time::Instant;

use simdup::search::{self, Method, SearchOptions};

fn setting(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.replace('_', "").parse().ok())
        .unwrap_or(default)
}

/// splitmix64: fast, deterministic, no dependency.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// `n` fingerprints, 1% planted within 1..=k of an earlier one.
fn planted(n: usize, k: u32, seed: u64) -> Vec<(u32, u64)> {
    let mut state = seed;
    let mut out: Vec<(u32, u64)> = Vec::with_capacity(n);
    for id in 0..n {
        let r = splitmix(&mut state);
        let fp = if id > 0 && r % 100 == 0 && k > 0 {
            let mut fp = out[(splitmix(&mut state) % id as u64) as usize].1;
            let flips = 1 + (splitmix(&mut state) % u64::from(k)) as u32;
            let mut flipped = 0u64;
            while flipped.count_ones() < flips {
                flipped |= 1 << (splitmix(&mut state) % 64);
            }
            fp ^= flipped;
            fp
        } else {
            splitmix(&mut state)
        };
        out.push((id as u32, fp));
    }
    out
}

fn main() {
    let n = setting("SIMDUP_N", 1_000_000) as usize;
    let k = setting("SIMDUP_K", 3) as u32;
    let window = setting("SIMDUP_WINDOW", search::DEFAULT_WINDOW as u64) as usize;
    let method = match std::env::var("SIMDUP_METHOD").as_deref() {
        Ok("rotate") => Method::Rotate,
        Ok("brute") => Method::Brute,
        _ => Method::Exact,
    };
    let input = planted(n, k, 42);
    let options = SearchOptions {
        max_distance: k,
        method,
        window,
        max_pairs: 1_000_000,
    };
    let start = Instant::now();
    let outcome = match search::search(&input, &options) {
        Ok(outcome) => outcome,
        Err(e) => {
            eprintln!("search_scale: {e}");
            std::process::exit(2);
        }
    };
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "n={n} k={k} method={method:?} window={window} threads={} seconds={seconds:.3} \
         pairs={} groups={} {:?}",
        rayon::current_num_threads(),
        outcome.total_pairs,
        outcome.groups.len(),
        outcome.stats
    );
    if std::env::var("SIMDUP_RECALL").is_ok_and(|v| v == "1") && method != Method::Exact {
        let exact = search::search(
            &input,
            &SearchOptions {
                method: Method::Exact,
                ..options
            },
        )
        .unwrap_or_default();
        let found: std::collections::HashSet<_> = outcome.pairs.iter().collect();
        let hits = exact.pairs.iter().filter(|p| found.contains(p)).count();
        println!(
            "recall={:.4} ({hits} of {} exact pairs)",
            hits as f64 / exact.pairs.len().max(1) as f64,
            exact.pairs.len()
        );
    }
}
