//! Fingerprint throughput on generated English-like text, against a
//! baseline that only splits on whitespace and hashes word 3-shingles with
//! xxh3 (no normalisation, no SimHash): the cost floor of the hot loop,
//! which tf weighting measures (one 4 MiB document). Binary weighting, the
//! default, also gathers each document's distinct features: it is measured
//! on the same text cut into 4 KiB documents, as a corpus of pages is,
//! beside tf. Also tf through a reader (64 KiB chunks, as files are read)
//! and on text with typographic (non-ASCII) punctuation. The `sdr`
//! group measures htm.core's sparse output (`--sdr 2048:40`) on 2 MB of the
//! same text, with tf and binary weighting.
//!
//! Run briefly: `cargo bench --bench fingerprint -- --warm-up-time 1 --measurement-time 3`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use simdup::fingerprint::{FeatureHash, FeatureOptions, Fingerprinter, Shingle, Weighting};
use std::hint::black_box;
use xxhash_rust::xxh3::xxh3_64;

/// Bytes of text per benchmark iteration.
const TEXT_BYTES: usize = 4 << 20;

/// English-like text: Zipf-distributed words from a list of common English
/// words, capitalised after a full stop, with commas and full stops, in
/// lines of about 80 characters. Seeded, so every run measures the same text.
fn english_text(bytes: usize) -> Vec<u8> {
    const WORDS: &str = "the of and to a in is you that it he was for on are as with his they i at be this have \
        from or one had by word but not what all were we when your can said there use an each which she do how \
        their if will up other about out many then them these so some her would make like him into time has look \
        two more write go see number no way could people my than first water been call who oil its now find long \
        down day did get come made may part over new sound take only little work know place year live me back \
        give most very after thing our just name good sentence man think say great where help through much before \
        line right too mean old any same tell boy follow came want show also around form three small set put end \
        does another well large must big even such because turn here why ask went men read need land different \
        home us move try kind hand picture again change off play spell air away animal house point page letter \
        mother answer found study still learn should america world";
    let words: Vec<&str> = WORDS.split_whitespace().collect();
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut text = Vec::with_capacity(bytes + 100);
    let (mut line, mut capital) = (0, true);
    while text.len() < bytes {
        // Zipf-like: the square of a uniform number favours the first words.
        let u = (next() % 1000) as f64 / 1000.0;
        let word = words[((u * u) * words.len() as f64) as usize];
        if capital {
            let mut chars = word.chars();
            if let Some(first) = chars.next() {
                text.extend(first.to_uppercase().to_string().bytes());
                text.extend(chars.as_str().bytes());
            }
        } else {
            text.extend(word.bytes());
        }
        capital = false;
        match next() % 20 {
            0 => {
                text.push(b'.');
                capital = true;
            }
            1 => text.push(b','),
            _ => {}
        }
        line += word.len() + 1;
        if line > 80 {
            text.push(b'\n');
            line = 0;
        } else {
            text.push(b' ');
        }
    }
    text
}

/// The same text with typographic punctuation: commas become em dashes and
/// a closing curly quote follows each full stop.
fn typographic(text: &[u8]) -> Vec<u8> {
    String::from_utf8_lossy(text)
        .replace(',', " \u{2014}")
        .replace(". ", ".\u{201D} ")
        .into_bytes()
}

/// The baseline: split on ASCII whitespace, xxh3 of each word 3-shingle.
fn baseline(text: &[u8]) -> u64 {
    let mut buffer: Vec<u8> = Vec::with_capacity(256);
    let mut starts = [0usize; 3];
    let mut count = 0usize;
    let mut acc = 0u64;
    for word in text
        .split(|b| b.is_ascii_whitespace())
        .filter(|w| !w.is_empty())
    {
        if count >= 3 {
            // Drop the oldest word from the window.
            let cut = starts[1];
            buffer.drain(..cut);
            starts = [0, starts[2] - cut, buffer.len() + 1];
        } else {
            starts[count] = if buffer.is_empty() {
                0
            } else {
                buffer.len() + 1
            };
        }
        if !buffer.is_empty() {
            buffer.push(b' ');
        }
        buffer.extend_from_slice(word);
        count += 1;
        if count >= 3 {
            acc = acc.wrapping_add(xxh3_64(&buffer));
        }
    }
    acc
}

/// The default options with `weighting`.
fn weighted(weighting: Weighting) -> Fingerprinter {
    Fingerprinter::new(FeatureOptions {
        weighting,
        ..FeatureOptions::default()
    })
}

fn throughput(c: &mut Criterion) {
    let text = english_text(TEXT_BYTES);
    let mut group = c.benchmark_group("fingerprint");
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.sample_size(10);
    group.bench_function("baseline-split-xxh3-words3", |b| {
        b.iter(|| baseline(black_box(&text)))
    });
    for (name, shingle, hash) in [
        ("words3-xxh3", Shingle::Words(3), FeatureHash::Xxh3),
        ("words3-sha3", Shingle::Words(3), FeatureHash::Sha3),
        ("chars5-xxh3", Shingle::Chars(5), FeatureHash::Xxh3),
        ("chars5-sha3", Shingle::Chars(5), FeatureHash::Sha3),
    ] {
        let fingerprinter = Fingerprinter::new(FeatureOptions {
            shingle,
            hash,
            weighting: Weighting::Tf,
            ..FeatureOptions::default()
        });
        group.bench_function(name, |b| {
            b.iter(|| fingerprinter.fingerprint_bytes(black_box(&text)))
        });
    }
    // Pages of a corpus: the weightings side by side.
    for (name, weighting) in [
        ("pages4k-words3-xxh3-tf", Weighting::Tf),
        ("pages4k-words3-xxh3-binary", Weighting::Binary),
    ] {
        let fingerprinter = weighted(weighting);
        group.bench_function(name, |b| {
            b.iter(|| {
                black_box(&text)
                    .chunks(4 << 10)
                    .map(|page| fingerprinter.fingerprint_bytes(page).simhash)
                    .fold(0, |all, simhash| all ^ simhash)
            })
        });
    }
    // Files are read in chunks, and real English text has typographic
    // punctuation (non-ASCII) every few dozen bytes.
    let tf = weighted(Weighting::Tf);
    group.bench_function("words3-xxh3-reader", |b| {
        b.iter(|| tf.fingerprint_reader(black_box(&text[..])))
    });
    let typographic = typographic(&text);
    group.throughput(Throughput::Bytes(typographic.len() as u64));
    group.bench_function("words3-xxh3-typographic", |b| {
        b.iter(|| tf.fingerprint_bytes(black_box(&typographic)))
    });
    group.finish();
}

/// Bytes of text per SDR iteration (the size of the document the speed
/// target was set on).
const SDR_TEXT_BYTES: usize = 2 << 20;

fn sdr(c: &mut Criterion) {
    let text = english_text(SDR_TEXT_BYTES);
    let mut group = c.benchmark_group("sdr");
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.sample_size(10);
    for (name, weighting) in [
        ("words3-tf-2048:40", Weighting::Tf),
        ("words3-binary-2048:40", Weighting::Binary),
    ] {
        let fingerprinter = weighted(weighting);
        group.bench_function(name, |b| {
            b.iter(|| fingerprinter.sdr_reader(black_box(&text[..]), 2048, 40))
        });
    }
    group.finish();
}

criterion_group!(benches, throughput, sdr);
criterion_main!(benches);
