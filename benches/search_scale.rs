//! One large search, timed: the 10^6 and 10^7 figures of docs/SEARCH.md.
//!
//! Run under `/usr/bin/time -v` for peak memory, for example
//! `SIMDUP_N=10000000 SIMDUP_K=3 cargo bench --bench search_scale`.
//! Settings come from the environment so that cargo's own arguments pass
//! through: SIMDUP_N (fingerprints, default 1,000,000), SIMDUP_K (default 3),
//! SIMDUP_METHOD (exact, rotate or brute), SIMDUP_WINDOW (rotate's window),
//! SIMDUP_RECALL=1 (also run exact, timed, and report the method's recall),
//! SIMDUP_FLIPS (planted pairs differ in 1..=FLIPS bits; default k, 0 for
//! purely random fingerprints). Input: random fingerprints, 1% of them
//! copies of an earlier one with 1..=FLIPS random bits flipped.

use std::time::Instant;

use simdup::search::{self, Method, SearchOptions};

mod search_data;
use search_data::planted;

fn setting(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.replace('_', "").parse().ok())
        .unwrap_or(default)
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
    let flips = setting("SIMDUP_FLIPS", u64::from(k)) as u32;
    let input = planted(n, flips, 42);
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
        "n={n} k={k} flips={flips} method={method:?} window={window} threads={} seconds={seconds:.3} \
         pairs={} groups={} {:?}",
        rayon::current_num_threads(),
        outcome.total_pairs,
        outcome.groups.len(),
        outcome.stats
    );
    if std::env::var("SIMDUP_RECALL").is_ok_and(|v| v == "1") && method != Method::Exact {
        let start = Instant::now();
        let exact = search::search(
            &input,
            &SearchOptions {
                method: Method::Exact,
                ..options
            },
        )
        .unwrap_or_default();
        let exact_seconds = start.elapsed().as_secs_f64();
        let found: std::collections::HashSet<_> = outcome.pairs.iter().collect();
        let hits = exact.pairs.iter().filter(|p| found.contains(p)).count();
        println!(
            "recall={:.4} ({hits} of {} exact pairs) exact_seconds={exact_seconds:.3}",
            hits as f64 / exact.pairs.len().max(1) as f64,
            exact.pairs.len()
        );
    }
}
