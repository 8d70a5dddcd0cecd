//! Human-readable byte sizes such as `10M`, as `--max-filesize` takes them.

use crate::{Error, Result};

/// Parses a size: a whole number of bytes with an optional binary suffix
/// `K`, `M`, `G` or `T` (any case; powers of 1024, as ripgrep reads them).
///
/// `123` is 123 bytes, `512K` is 524288, `10M` is 10485760.
pub fn parse_size(text: &str) -> Result<u64> {
    let invalid = |why: &str| {
        Error::Usage(format!(
            "invalid size '{text}': {why} (expected e.g. 123, 512K, 10M or 1G)"
        ))
    };
    let trimmed = text.trim();
    let (digits, shift) = match trimmed.as_bytes().last() {
        None => return Err(invalid("empty")),
        Some(b'k' | b'K') => (&trimmed[..trimmed.len() - 1], 10),
        Some(b'm' | b'M') => (&trimmed[..trimmed.len() - 1], 20),
        Some(b'g' | b'G') => (&trimmed[..trimmed.len() - 1], 30),
        Some(b't' | b'T') => (&trimmed[..trimmed.len() - 1], 40),
        Some(_) => (trimmed, 0),
    };
    // `u64::from_str` accepts a leading `+`; a size is digits only.
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(invalid("not a whole number of bytes"));
    }
    let number: u64 = digits.parse().map_err(|_| invalid("too large"))?;
    number
        .checked_mul(1 << shift)
        .ok_or_else(|| invalid("too large"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn suffixes_are_powers_of_1024() {
        assert_eq!(parse_size("123").unwrap(), 123);
        assert_eq!(parse_size("0").unwrap(), 0);
        assert_eq!(parse_size("512K").unwrap(), 512 * 1024);
        assert_eq!(parse_size("512k").unwrap(), 512 * 1024);
        assert_eq!(parse_size("10M").unwrap(), 10 << 20);
        assert_eq!(parse_size("1G").unwrap(), 1 << 30);
        assert_eq!(parse_size("2t").unwrap(), 2 << 40);
        assert_eq!(parse_size(" 7K ").unwrap(), 7 << 10);
    }

    #[test]
    fn rejects_what_is_not_a_size() {
        for bad in [
            "",
            "K",
            "-1",
            "+1",
            "1.5M",
            "10MB",
            "ten",
            "1 M",
            "99999999999999999999",
        ] {
            let error = parse_size(bad).unwrap_err().to_string();
            assert!(error.contains("invalid size"), "{bad}: {error}");
        }
        assert!(parse_size("17179869184G").is_err(), "2^64 bytes overflows");
    }

    proptest! {
        #[test]
        fn plain_numbers_round_trip(n: u64) {
            prop_assert_eq!(parse_size(&n.to_string()).unwrap(), n);
        }

        #[test]
        fn kilobytes_are_1024_bytes(n in 0u64..(u64::MAX >> 10)) {
            prop_assert_eq!(parse_size(&format!("{n}K")).unwrap(), n * 1024);
        }
    }
}
