//! Criterion benchmarks of the pair search on random fingerprints with 1%
//! planted near pairs (benches/search_data). The 10^7 figures come from the
//! search_scale target instead, run once under `/usr/bin/time -v`.
//!
//! Run briefly: `cargo bench --bench search -- --warm-up-time 1
//! --measurement-time 3 [FILTER]`.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use simdup::search::{DEFAULT_WINDOW, Method, SearchOptions, search};

mod search_data;
use search_data::planted;

fn options(method: Method, max_distance: u32, window: usize) -> SearchOptions {
    SearchOptions {
        max_distance,
        method,
        window,
        max_pairs: 1_000_000,
    }
}

/// Exact search, k = 3, as n grows: close to n log n.
fn exact_growth(c: &mut Criterion) {
    let mut group = c.benchmark_group("exact_k3");
    group.sample_size(10);
    for n in [100_000usize, 1_000_000] {
        let input = planted(n, 3, 1);
        group.bench_with_input(BenchmarkId::from_parameter(n), &input, |b, input| {
            b.iter(|| search(black_box(input), &options(Method::Exact, 3, 0)))
        });
    }
    group.finish();
}

/// Exact search at larger k, n = 10^6.
fn exact_larger_k(c: &mut Criterion) {
    let mut group = c.benchmark_group("exact_1m");
    group.sample_size(10);
    for k in [6u32, 10] {
        let input = planted(1_000_000, k, 2);
        group.bench_with_input(BenchmarkId::new("k", k), &input, |b, input| {
            b.iter(|| search(black_box(input), &options(Method::Exact, k, 0)))
        });
    }
    group.finish();
}

/// Rotate at window 1 and the default window, against exact, n = 10^6.
fn rotate(c: &mut Criterion) {
    let mut group = c.benchmark_group("rotate_k3_1m");
    group.sample_size(10);
    let input = planted(1_000_000, 3, 3);
    for window in [1usize, DEFAULT_WINDOW] {
        group.bench_with_input(BenchmarkId::new("window", window), &input, |b, input| {
            b.iter(|| search(black_box(input), &options(Method::Rotate, 3, window)))
        });
    }
    group.finish();
}

/// Brute force where it is the right tool: a few thousand fingerprints.
fn brute(c: &mut Criterion) {
    let input = planted(3_000, 3, 4);
    c.bench_function("brute_k3_3000", |b| {
        b.iter(|| search(black_box(&input), &options(Method::Brute, 3, 0)))
    });
}

/// The floor every table and rotation is measured against: one
/// `sort_unstable` of n random keys (one core; the copy it sorts is made
/// outside the timing).
fn sort_floor(c: &mut Criterion) {
    let mut group = c.benchmark_group("sort_unstable");
    group.sample_size(10);
    for n in [1_000_000usize, 10_000_000] {
        let keys: Vec<u64> = planted(n, 3, 5).into_iter().map(|(_, fp)| fp).collect();
        group.bench_with_input(BenchmarkId::from_parameter(n), &keys, |b, keys| {
            b.iter_batched_ref(
                || keys.clone(),
                |keys| keys.sort_unstable(),
                criterion::BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    exact_growth,
    exact_larger_k,
    rotate,
    brute,
    sort_floor
);
criterion_main!(benches);
