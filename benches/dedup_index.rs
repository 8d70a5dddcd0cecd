//! Criterion benchmarks of dedup's incremental index
//! (src/jobs/dedup/index.rs): the price of a table visit against a
//! fingerprint comparison, which its layout review weighs (`LOOKUP_COST`).
//!
//! The index holds 500,000 random fingerprints; each iteration asks 1,000
//! queries at k = 6 with 7 blocks (7 tables, 9-bit keys: few visits, long
//! buckets of about 1,000) and with 8 blocks (28 tables, 16-bit keys: many
//! visits, buckets of about 8). The difference of the two, per query, is
//! 21 visits against about 6,600 comparisons. Inserting 200,000 into an
//! empty index with each layout prices a visit that appends.
//!
//! Run briefly: `cargo bench --bench dedup_index -- --warm-up-time 1
//! --measurement-time 3`. Medians on a 2-core AMD EPYC with AVX-512
//! VPOPCNTQ: 1.63 ms with 7 tables and 1.55 ms with 28 (3.24 and 1.81
//! with POPCNT alone); inserts 12.7 ms and 1.15 s.
//!
//! The MinHash band tables of short texts (`band_index_*`): see
//! [`band_tables`].

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use simdup::jobs::dedup::band_index::BandIndex;
use simdup::jobs::dedup::index::{Index, Layout};
use simdup::verify::bands::{BANDS, BandKeys};

/// `n` random fingerprints from a fixed seed (SplitMix64).
fn random_fingerprints(n: usize, seed: u64) -> Vec<u64> {
    let mut state = seed;
    (0..n)
        .map(|_| {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        })
        .collect()
}

fn queries(c: &mut Criterion) {
    let kept = random_fingerprints(500_000, 1);
    let asked = random_fingerprints(1_000, 2);
    let mut group = c.benchmark_group("dedup_index_query_1000");
    for blocks in [7u32, 8] {
        let mut index = Index::with_layout(Layout::new(6, blocks));
        for (at, &fingerprint) in kept.iter().enumerate() {
            index.insert(fingerprint, at as u32);
        }
        group.bench_with_input(BenchmarkId::from_parameter(blocks), &index, |b, index| {
            let mut found = Vec::new();
            b.iter(|| {
                found.clear();
                for &fingerprint in &asked {
                    index.query(fingerprint, &mut found);
                }
                black_box(found.len())
            });
        });
    }
    group.finish();
}

fn inserts(c: &mut Criterion) {
    let kept = random_fingerprints(200_000, 3);
    let mut group = c.benchmark_group("dedup_index_insert_200000");
    group.sample_size(10);
    for blocks in [7u32, 8] {
        group.bench_with_input(
            BenchmarkId::from_parameter(blocks),
            &blocks,
            |b, &blocks| {
                b.iter(|| {
                    let mut index = Index::with_layout(Layout::new(6, blocks));
                    for (at, &fingerprint) in kept.iter().enumerate() {
                        index.insert(fingerprint, at as u32);
                    }
                    black_box(index.len())
                });
            },
        );
    }
    group.finish();
}

/// `n` texts' band keys, random (a key in each band, as
/// src/verify/bands.rs gives unrelated texts).
fn random_band_keys(n: usize, seed: u64) -> Vec<BandKeys> {
    let words = random_fingerprints(n * BANDS / 2, seed);
    words
        .chunks_exact(BANDS / 2)
        .map(|chunk| std::array::from_fn(|band| (chunk[band / 2] >> (32 * (band % 2))) as u32))
        .collect()
}

/// dedup's MinHash band tables (src/jobs/dedup/band_index.rs): 1,000
/// queries of unrelated texts against 10^6 kept ones (each reads one
/// bucket in each of the 16 tables), and 10^6 inserts into empty tables
/// (growing included). Medians on the machine above: 351 µs and 0.77 s
/// with buckets of a cache line, where slots probed one by one took 541
/// µs and 2.17 s.
fn band_tables(c: &mut Criterion) {
    let kept = random_band_keys(1_000_000, 4);
    let asked = random_band_keys(1_000, 5);
    let mut index = BandIndex::new();
    for (at, keys) in kept.iter().enumerate() {
        index.insert(keys, at as u32);
    }
    c.bench_function("band_index_query_1000", |b| {
        b.iter(|| {
            let mut found = 0u64;
            for keys in &asked {
                index.query(keys, |kept| found += u64::from(kept));
            }
            black_box(found)
        });
    });
    let mut group = c.benchmark_group("band_index_insert");
    group.sample_size(10);
    group.bench_function("1000000", |b| {
        b.iter(|| {
            let mut index = BandIndex::new();
            for (at, keys) in kept.iter().enumerate() {
                index.insert(keys, at as u32);
            }
            black_box(index)
        });
    });
    group.finish();
}

criterion_group!(benches, queries, inserts, band_tables);
criterion_main!(benches);
