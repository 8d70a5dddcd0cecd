//! Criterion benchmarks of what `simdup dedup` measures of each short
//! record on its worker threads (src/jobs/dedup/filter.rs): the whole
//! measure of a one-line record (its word fingerprint, and as a short
//! text its character-pair fingerprint, sketch and MinHash band keys),
//! and each part alone (the sketch as the default, binary weighting,
//! takes it: its size from the fingerprint's count), per 10,000
//! address-like lines of about 45 bytes (as benches/gen-records.py makes
//! for benches/dedup.sh).
//!
//! Run briefly: `cargo bench --bench records -- --warm-up-time 1
//! --measurement-time 3`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use simdup::fingerprint::{FeatureOptions, Fingerprinter, Shingle};
use simdup::jobs::dedup::filter::Measure;
use simdup::verify::bands::band_keys;
use simdup::verify::sketch::Sketch;
use xxhash_rust::xxh3::xxh3_64;

/// Lines measured per iteration.
const LINES: usize = 10_000;

/// Address-like lines, `LINES` of them, from a fixed seed.
fn address_lines() -> Vec<Vec<u8>> {
    const NAMES: [&str; 12] = [
        "Green", "Golden", "Silver", "Iris", "Stone", "Willow", "Maple", "Royal", "Ruby", "Coral",
        "Amber", "Cedar",
    ];
    const KINDS: [&str; 10] = [
        "Cafe", "Bakery", "Books", "Diner", "Inn", "Cycles", "Florist", "Deli", "Garage", "Salon",
    ];
    const STREETS: [&str; 10] = [
        "High St",
        "Main Rd",
        "Elm Lane",
        "Water St",
        "Albert Ct",
        "Madison Rd",
        "Bridge Avenue",
        "Park Pl",
        "Oak Drive",
        "King St",
    ];
    const TOWNS: [&str; 8] = [
        "Manchester",
        "Centerville",
        "Vernon",
        "Hudson",
        "Shelby",
        "Springfield",
        "Fairview",
        "Clinton",
    ];
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move |bound: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % bound as u64) as usize
    };
    (0..LINES)
        .map(|_| {
            format!(
                "{} {} {} {} {} {} {}",
                NAMES[next(NAMES.len())],
                NAMES[next(NAMES.len())],
                KINDS[next(KINDS.len())],
                1000 + next(9000),
                STREETS[next(STREETS.len())],
                TOWNS[next(TOWNS.len())],
                10000 + next(90000)
            )
            .into_bytes()
        })
        .collect()
}

fn records(c: &mut Criterion) {
    let lines = address_lines();
    let bytes: usize = lines.iter().map(|line| line.len() + 1).sum();
    let measure = Measure::new(Fingerprinter::new(FeatureOptions::default()), true, 1);
    let words = Fingerprinter::new(FeatureOptions::default());
    let chars = Fingerprinter::new(FeatureOptions {
        shingle: Shingle::Chars(2),
        ..FeatureOptions::default()
    });
    // Each line's content hash, as the reader takes it before measuring.
    let content_hashes: Vec<u64> = lines.iter().map(|line| xxh3_64(line)).collect();
    // Each line's character-pair hashes (repeats included) and how many
    // distinct ones its binary fingerprint counted.
    let sets: Vec<(Vec<u64>, u64)> = lines
        .iter()
        .map(|line| {
            let (fingerprint, hashes) = chars.fingerprint_and_hashes_bytes(line);
            (hashes, fingerprint.features)
        })
        .collect();

    let mut group = c.benchmark_group("records_10000");
    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function("measure", |b| {
        b.iter(|| {
            for (line, &hash) in lines.iter().zip(&content_hashes) {
                black_box(measure.measure_text(line, hash));
            }
        })
    });
    group.bench_function("words-fingerprint", |b| {
        b.iter(|| {
            for line in &lines {
                black_box(words.fingerprint_bytes(line));
            }
        })
    });
    group.bench_function("chars-fingerprint-and-hashes", |b| {
        b.iter(|| {
            for line in &lines {
                black_box(chars.fingerprint_and_hashes_bytes(line));
            }
        })
    });
    group.bench_function("band-keys", |b| {
        b.iter(|| {
            for (set, _) in &sets {
                black_box(band_keys(set));
            }
        })
    });
    group.bench_function("sketch", |b| {
        b.iter(|| {
            for (set, distinct) in &sets {
                black_box(Sketch::of_hashes_counted(set, *distinct));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, records);
criterion_main!(benches);
