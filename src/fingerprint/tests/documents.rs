//! What documents give: empty ones, invalid UTF-8, raw-input fields,
//! normalisation, and similarity behaviour on real-looking texts.

use super::*;
use xxhash_rust::xxh3::xxh3_64;

#[test]
fn fingerprinter_is_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<Fingerprinter>();
}

#[test]
fn empty_and_separator_only_documents_have_no_features() {
    let fp = Fingerprinter::new(FeatureOptions::default());
    for text in [&b""[..], b"  ,,; \n\t--", b"\xC2"] {
        let got = fp.fingerprint_bytes(text);
        assert_eq!((got.simhash, got.features), (0, 0), "{text:?}");
    }
    // U+FFFD is a symbol, so replaced bytes separate; kept punctuation keeps it.
    let keep = Fingerprinter::new(FeatureOptions {
        punctuation: Punctuation::Keep,
        ..FeatureOptions::default()
    });
    assert_eq!(keep.fingerprint_bytes(b"\xFF").features, 1);
}

#[test]
fn invalid_utf8_is_replaced_never_an_error() {
    let fp = Fingerprinter::new(FeatureOptions::default());
    let got = fp
        .fingerprint_reader(&b"caf\xC3 is \xFF\xFE open late tonight"[..])
        .unwrap();
    // Tokens caf, is, open, late, tonight (each U+FFFD separates): 3 shingles.
    assert_eq!(got.features, 3);
}

#[test]
fn bytes_and_content_hash_describe_the_raw_input() {
    let fp = Fingerprinter::new(FeatureOptions::default());
    let text = b"The quick brown fox";
    let got = fp.fingerprint_bytes(text);
    assert_eq!(got.bytes, text.len() as u64);
    assert_eq!(got.content_hash, xxh3_64(text));
}

/// A buffer's content hash is taken in one call, a stream's chunk by
/// chunk: they agree across xxh3's size classes (16, 128 and 240 bytes,
/// then stripes of 64 and blocks of 1,024).
#[test]
fn a_buffer_and_a_stream_have_the_same_content_hash_at_every_size() {
    let fp = Fingerprinter::new(FeatureOptions::default());
    let text: Vec<u8> = (0..3000u32)
        .map(|i| b"ab cd\n\xff"[(i * 3 % 7) as usize])
        .collect();
    for len in (0..=300).chain([1023, 1024, 1025, 2048, 2049, 3000]) {
        let whole = fp.fingerprint_bytes(&text[..len]);
        assert_eq!(whole.content_hash, xxh3_64(&text[..len]), "{len} bytes");
        for size in [1, 7, 64, 100] {
            let chunks = Chunked {
                data: &text[..len],
                size,
            };
            let streamed = fp.fingerprint_reader(chunks).unwrap();
            assert_eq!(whole, streamed, "{len} bytes in chunks of {size}");
        }
    }
}

#[test]
fn case_and_compatibility_forms_do_not_matter_by_default() {
    let fp = Fingerprinter::new(FeatureOptions::default());
    let a = fp.fingerprint_bytes("The ﬁnal CAFÉ opens at noon".as_bytes());
    let b = fp.fingerprint_bytes("the final cafe\u{301} opens, at noon!".as_bytes());
    assert_eq!(
        a,
        Fingerprint {
            bytes: a.bytes,
            content_hash: a.content_hash,
            ..b
        }
    );
    let sensitive = Fingerprinter::new(FeatureOptions {
        case: Case::Sensitive,
        ..FeatureOptions::default()
    });
    assert_ne!(
        sensitive.fingerprint_bytes(b"The cat sat down").simhash,
        sensitive.fingerprint_bytes(b"the cat sat down").simhash
    );
}

#[test]
fn a_one_word_edit_in_a_long_text_moves_few_bits() {
    let fp = Fingerprinter::new(FeatureOptions::default());
    let words = random_words(7, 5000);
    let mut edited = words.clone();
    edited[2500] = "zzzzzz".into();
    let a = fp.fingerprint_bytes(words.join(" ").as_bytes()).simhash;
    let b = fp.fingerprint_bytes(edited.join(" ").as_bytes()).simhash;
    let other = fp
        .fingerprint_bytes(random_words(8, 5000).join(" ").as_bytes())
        .simhash;
    assert!(
        (a ^ b).count_ones() <= 4,
        "edit moved {} bits",
        (a ^ b).count_ones()
    );
    assert!(
        (a ^ other).count_ones() >= 16,
        "unrelated texts only {} bits apart",
        (a ^ other).count_ones()
    );
}

#[test]
fn chinese_text_is_tokenised_per_ideograph() {
    let fp = Fingerprinter::new(FeatureOptions::default());
    let base = "北京是中华人民共和国的首都，也是全国的政治和文化中心，有三千多年的历史。";
    let near = "北京是中华人民共和国的首都，也是全国的政治、文化和国际交往中心，有三千多年的历史。";
    let far = "东京是日本的首都，位于本州岛关东平原南端，人口超过一千万，是世界上最大的都市之一。";
    let [a, b, c] = [base, near, far].map(|t| fp.fingerprint_bytes(t.as_bytes()));
    assert_eq!(a.features, 31); // 33 ideographs -> 31 word 3-shingles
    assert!((a.simhash ^ b.simhash).count_ones() < (a.simhash ^ c.simhash).count_ones());
}

// Seed 003: the lecture's address cases, character bigrams.
#[test]
fn address_bigrams_match_the_lecture() {
    let fp = fingerprinter(Shingle::Chars(2));
    let set = |text: &str| fp.feature_set_bytes(text.as_bytes());
    let sim = |text: &str| fp.fingerprint_bytes(text.as_bytes()).simhash;
    let (case2a, case2b) = (
        "One Stop Bakery, 1304 High St Rd, Wantirna, VIC, 3152",
        "One Stop Bakery, 1304 High Street Rd, Wantirna South, VIC, 3152",
    );
    let (case1a, case1b) = (
        "Burra Hotel, 5 Market Sq, Burra, SA, 5417",
        "Camping Country Superstore, 401 Pacific Hwy, Belmont North, NSW, 2280",
    );
    let j2 = jaccard(&set(case2a), &set(case2b));
    assert!((j2 - 0.807).abs() < 0.06, "case 2 Jaccard {j2}");
    let j1 = jaccard(&set(case1a), &set(case1b));
    assert!(j1 < 0.15, "case 1 Jaccard {j1}");
    let d2 = (sim(case2a) ^ sim(case2b)).count_ones();
    let d1 = (sim(case1a) ^ sim(case1b)).count_ones();
    assert!(d2 * 2 < d1, "case 2 distance {d2}, case 1 distance {d1}");
}
