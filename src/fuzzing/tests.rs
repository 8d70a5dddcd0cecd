//! The stable smoke pass: a few thousand seeded pseudo-random and mutated
//! inputs through every fuzz entry point, so `cargo test` checks the
//! fuzzers' invariants without a nightly toolchain.

/// Inputs per entry point; the fingerprint pipeline is the slowest in a
/// debug build, so it gets fewer.
const CASES: usize = 3000;
const FINGERPRINT_CASES: usize = 1500;

/// A small deterministic generator (xorshift64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Fragments worth splicing into any input: delimiters, JSON, UTF-8 edge
/// cases, header lines and option words.
const FRAGMENTS: &[&[u8]] = &[
    b"\n",
    b"\r\n",
    b"\0",
    b" ",
    b"{",
    b"}",
    b"\"text\":",
    b"\"id\":",
    b"\"t\":",
    b"\"\":",
    b"\"a b\"",
    b"12",
    b"-1.5e3",
    b"null",
    b"[1,2]",
    b"\\u00e9",
    b"\\n",
    b"\\\\",
    b"\\",
    b"\xc3\xa9",
    b"e\xcc\x81",
    b"\xef\xac\x81",
    b"\xf0\x9f\x98\x80",
    b"\xff",
    b"\xe2\x82",
    b"0123456789abcdef  ",
    b"# simdup fingerprint options=words:3 digest=ab",
    b"digest=cd",
    b"{\"path\":\"p\",\"simhash\":\"0123456789abcdef\"}",
    b"\"simhash\":null",
    b"words:3",
    b"chars:5",
    b"10M",
    b"512k",
    b"400:21",
    b"**/",
    b"*.md",
    b"!",
    b"[a-",
    b"{a,b}",
    b"rotate",
    b"the quick brown fox ",
    b"THE Quick",
    b"caf\xc3\xa9 ",
    b"x",
    b"<",
    b">",
    b"</",
    b"<!--",
    b"-->",
    b"&amp;",
    b"&#x",
    b";",
    b"[",
    b"](",
    b")",
    b"`",
    b"```",
    b"---",
    b".. ",
    b"::",
    b"====",
    b"<<",
];

/// Valid inputs the mutations start from, per entry point.
fn seeds(target: &str) -> Vec<Vec<u8>> {
    let texts: &[&[u8]] = match target {
        "fingerprint" => &[
            b"\x00\x00\x07\x10the quick brown fox jumps over the lazy dog",
            b"\x04\x05\x03\x02Stra\xc3\x9fe caf\xc3\xa9 \xef\xac\x81ne \xe2\x84\xab",
        ],
        "records" => &[
            b"\x00\x10\xff\x08\x01\x05one\ntwo\r\n\nthree",
            b"\x01\x10\x08\x08\x02\x03a\0bb\0\0ccccccccccc\0",
            b"\x02\x04\xff\x10\x03\x07{\"text\":\"a\",\"id\":7}\n\n{\"id\":\"x\",\"text\":\"b\"}\n[1]\n",
            b"\x02\x64\xff\x10\x03\x07{\"m\":{\"text\":\"a\",\"id\":7}}\n{\"m\":{\"id\":\"x\"},\"m\":{\"text\":\"b\",\"id\":1}}\n",
            b"\x02\x2a\xff\x10\x03\x07{\"a.b\":\"x\",\"a\":{\"b\":\"y\"},\"t\":1}\n{\"a\":{\"b\":\"z\"},\"t\":\"i\"}\n",
        ],
        "path_list" => &[b"\x00\x01\x03a.txt\n\nb c\r\n", b"\x01\x02\x05a\nb\0\0c\0"],
        "fingerprint_file" => &[
            b"\x00\x07# simdup fingerprint options=words:3 digest=ab\n0123456789abcdef  a.txt\n\\00000000000000ff  a\\\\b\\nc\n",
            b"\x01\x03{\"path\":\"a\",\"simhash\":\"0123456789abcdef\",\"digest\":\"ab\",\"features\":3}\n{\"path\":\"b\",\"simhash\":null}\n",
        ],
        "baseline" => &[
            b"\x00\x07# simdup baseline v1\n# features words:3 digest=ab\na.txt\tb.txt\t0123456789abcdef:0123456789abcdef\t0123456789abcdef:0123456789abcdef\n",
            b"\x01\x02# simdup baseline v1\r\n\\#x\ty\\tz\t1:2\t3:4\n",
        ],
        "markup" => &[
            b"\x00\x01\x07---\ntitle: x\n---\n# Head *a* #\n> [l](u \"t\") ![i](j) `c*d`\n```py\nx = 1\n```\n[r]: u\n<!-- c\n-->&amp; <b>b</b>\n",
            b"\x01\x02\x03Head\n====\n.. note:: n\n   :class: c\n\n   `a <u>`_ :ref:`x <y>` ``l`` w_ [1]_\n.. c\n   d\n",
            b"\x02\x03\x05= T\n:a: b\n[source]\n----\nx\n----\n////\nc\n////\nlink:u[t] https://u[v] <<i,t>> {a} *b* image:i[a]\n",
            b"\x03\x04\x09<!DOCTYPE html><p class=\"a\nb\">caf&eacute; &#x41;<script>if (a<b) {}</script></p>\n<!--\n-->",
        ],
        "allowlist" => &[
            b"docs/*.md licences/**\na.md\tb/*.md\n\nroot/docs/a.md\nroot/licences/x/y\n/cwd/root/a.md\nb/c.md\n../a",
        ],
        _ => &[b"10M", b"words:3", b"chars:5", b"400:21", b"*.md\n!docs/**\n/a/b", b"the 2\nof 0\n# x\n"],
    };
    texts.iter().map(|text| text.to_vec()).collect()
}

/// One input: random bytes, or a seed mutated a few times.
fn input(rng: &mut Rng, seeds: &[Vec<u8>]) -> Vec<u8> {
    if rng.below(4) == 0 {
        let len = rng.below(200);
        return (0..len).map(|_| rng.next() as u8).collect();
    }
    let mut bytes = seeds[rng.below(seeds.len())].clone();
    for _ in 0..1 + rng.below(6) {
        let at = rng.below(bytes.len() + 1);
        match rng.below(4) {
            0 if at < bytes.len() => bytes[at] = rng.next() as u8,
            1 if at < bytes.len() => {
                let end = (at + 1 + rng.below(8)).min(bytes.len());
                bytes.drain(at..end);
            }
            2 => {
                let copy = bytes[rng.below(bytes.len() + 1)..].to_vec();
                bytes.splice(at..at, copy.into_iter().take(16));
            }
            _ => {
                let fragment = FRAGMENTS[rng.below(FRAGMENTS.len())];
                bytes.splice(at..at, fragment.iter().copied());
            }
        }
    }
    bytes
}

fn smoke(target: &str, cases: usize, run: fn(&[u8])) {
    let seeds = seeds(target);
    let mut rng = Rng(0x5EED_0000 + target.len() as u64);
    for seed in &seeds {
        run(seed);
    }
    for _ in 0..cases {
        let bytes = input(&mut rng, &seeds);
        if let Err(panic) = std::panic::catch_unwind(|| run(&bytes)) {
            eprintln!("{target} failed on {bytes:?}");
            std::panic::resume_unwind(panic);
        }
    }
}

#[test]
fn smoke_fingerprint() {
    smoke("fingerprint", FINGERPRINT_CASES, super::fingerprint);
}

#[test]
fn smoke_records() {
    smoke("records", CASES, super::records);
}

#[test]
fn smoke_path_list() {
    smoke("path_list", CASES, super::path_list);
}

#[test]
fn smoke_fingerprint_file() {
    smoke("fingerprint_file", CASES, super::fingerprint_file);
}

#[test]
fn smoke_options() {
    smoke("options", CASES, super::options);
}

#[test]
fn smoke_baseline() {
    smoke("baseline", CASES, super::baseline);
}

#[test]
fn smoke_markup() {
    smoke("markup", CASES, super::markup);
}

#[test]
fn smoke_allowlist() {
    smoke("allowlist", CASES, super::allowlist);
}

/// Inputs the fuzz targets once failed on, replayed.
#[test]
fn regressions() {
    // `records`: JSON Lines, text field `id` and id field `id`
    // (every record was rejected for a missing id).
    super::records(b"\x02\x05\xff\x08\x01\x05{\"id\":\"x\",\"text\":\"b\"}\n");
    // `records`: bytes that are not UTF-8 in a field that is not read.
    super::records(
        b"\x02\x04\xff\x10\x03\x07{\"text\":\"a\",\"id\":\"x\",\"text\":\"\",\"tt\":\"\xff\xff\xff\xe8\"}\n[1]\n",
    );
    // `markup`: `&#xA;` in HTML decoded to a line break, which moved the
    // lines after it.
    super::markup(b"\x03\x04\x09iJQ\x01\x00\xd8 &#xA;;<\nip\xe7> f \"\xf4");
}

/// A features line ending in several carriage returns lost one on each
/// write and read (the `baseline` target's first run).
#[test]
fn baseline_features_ending_in_carriage_returns() {
    super::baseline(&[
        0, 7, 35, 32, 115, 105, 109, 100, 117, 112, 32, 98, 97, 115, 101, 108, 105, 110, 101, 32,
        118, 49, 10, 35, 32, 102, 101, 97, 116, 117, 114, 101, 115, 32, 97, 46, 116, 35, 32, 102,
        64, 97, 110, 118, 49, 46, 97, 98, 0, 7, 35, 32, 115, 105, 109, 100, 117, 13, 13, 120, 116,
        59, 98, 9, 35, 46, 101, 35, 0, 13, 13, 13, 13,
    ]);
}

/// A lone surrogate escape in a field that is not read: taken by the
/// reader, rejected by a full parse (the `records` target, second run).
#[test]
fn records_lone_surrogate_in_an_unread_field() {
    super::records(b"\x02\x18\xff\x10\x03\x07{\"id\":\"x\\ud800\",\"text\":\"b\"}\n");
}
