//! Criterion benchmarks of the exact join of short texts (src/verify/join/):
//! one-line texts of 4 to 10 words from a vocabulary of 5,000 made-up
//! words, one in five a near-copy of an earlier one with a word changed,
//! compared by character pairs at Jaccard 0.8 as the scan and dedup
//! compare short texts.
//!
//! Also the MinHash band keys of the same sets, and the ranking of
//! document-sized sets that `scan --method join` ranks.
//!
//! Run briefly: `cargo bench --bench join -- --warm-up-time 1
//! --measurement-time 3`.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use simdup::fingerprint::{FeatureOptions, Fingerprinter, Shingle};
use simdup::verify::join::{JoinScratch, Postings, Ranker, SelfJoin, TokenOrder};

/// `n` short texts' character-pair sets, from a fixed seed.
fn short_text_sets(n: usize) -> Vec<Vec<u64>> {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        state >> 33
    };
    let words: Vec<String> = (0..5_000)
        .map(|_| {
            let len = 3 + next() % 7;
            (0..len)
                .map(|_| char::from(b'a' + (next() % 26) as u8))
                .collect()
        })
        .collect();
    let mut texts: Vec<Vec<usize>> = Vec::with_capacity(n);
    for _ in 0..n {
        let text = if !texts.is_empty() && next() % 5 == 0 {
            let mut copy = texts[next() as usize % texts.len()].clone();
            let at = next() as usize % copy.len();
            copy[at] = next() as usize % words.len();
            copy
        } else {
            let len = 4 + next() as usize % 7;
            (0..len).map(|_| next() as usize % words.len()).collect()
        };
        texts.push(text);
    }
    let chars = Fingerprinter::new(FeatureOptions {
        shingle: Shingle::Chars(2),
        ..FeatureOptions::default()
    });
    texts
        .iter()
        .map(|text| {
            let line: Vec<&str> = text.iter().map(|&word| words[word].as_str()).collect();
            chars.feature_set_bytes(line.join(" ").as_bytes())
        })
        .collect()
}

/// The scan's join: rank, index and probe every set, on every core.
fn self_join(c: &mut Criterion) {
    let mut group = c.benchmark_group("self_join_0.8");
    group.sample_size(10);
    for n in [20_000usize, 100_000] {
        let sets = short_text_sets(n);
        group.bench_with_input(BenchmarkId::from_parameter(n), &sets, |b, sets| {
            b.iter(|| {
                let mut ranker = Ranker::new();
                for set in sets {
                    ranker.push(set);
                }
                let ranked = ranker.finish();
                let join = SelfJoin::new(&ranked, 0.8);
                black_box(join.run(u64::MAX).map(|join| join.pairs.len()))
            })
        });
    }
    group.finish();
}

/// `n` documents' feature sets of about 700 hashes each, sorted: a third
/// drawn from 200,000 shared shingles (the lower ones far more often,
/// as common phrases are), the rest each document's own.
fn document_sets(n: usize) -> Vec<Vec<u64>> {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..n)
        .map(|_| {
            let mut set: Vec<u64> = (0..700)
                .map(|i| {
                    if i % 3 == 0 {
                        // The least of two draws: skewed towards the low ones.
                        let shared = (next() % 200_000).min(next() % 200_000);
                        shared.wrapping_mul(0x9e37_79b9_7f4a_7c15)
                    } else {
                        next()
                    }
                })
                .collect();
            set.sort_unstable();
            set.dedup();
            set
        })
        .collect()
}

/// The ranking of `scan --method join`: every distinct hash by how many
/// sets hold it (5,000 documents, 3.5 million hashes).
fn rank_documents(c: &mut Criterion) {
    let mut group = c.benchmark_group("rank_documents");
    group.sample_size(10);
    let n = 5_000usize;
    let sets = document_sets(n);
    group.bench_with_input(BenchmarkId::from_parameter(n), &sets, |b, sets| {
        b.iter(|| {
            let mut ranker = Ranker::new();
            for set in sets {
                ranker.push(set);
            }
            black_box(ranker.finish().len())
        })
    });
    group.finish();
}

/// dedup's join: each set probes the sets before it, then is added.
fn incremental(c: &mut Criterion) {
    let mut group = c.benchmark_group("incremental_join_0.8");
    group.sample_size(10);
    let n = 20_000usize;
    let sets = short_text_sets(n);
    group.bench_with_input(BenchmarkId::from_parameter(n), &sets, |b, sets| {
        b.iter(|| {
            let mut order = TokenOrder::new(0.8);
            let mut postings = Postings::new(0.8);
            let mut scratch = JoinScratch::default();
            let mut proposed = 0usize;
            for (number, set) in sets.iter().enumerate() {
                let ranked = order.ranked(set);
                proposed += postings.candidates(set, &ranked, &mut scratch).len();
                order.learn(set);
                postings.add(set, &order, number as u32);
            }
            black_box(proposed)
        })
    });
    group.finish();
}

/// The MinHash band keys that find dedup's short texts past the join
/// (src/verify/bands.rs), per 10,000 sets.
fn band_keys(c: &mut Criterion) {
    let sets = short_text_sets(10_000);
    c.bench_function("band_keys_10000", |b| {
        b.iter(|| {
            sets.iter()
                .map(|set| simdup::verify::bands::band_keys(set)[0])
                .fold(0u32, |all, key| all ^ key)
        })
    });
}

criterion_group!(benches, self_join, incremental, band_keys, rank_documents);
criterion_main!(benches);
