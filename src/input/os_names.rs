//! File names as bytes and back. On Unix a name is any bytes but `/` and
//! NUL, UTF-8 or not, so simdup keeps names as bytes wherever it stores
//! or writes them, and turns them into paths only to open a file. JSON
//! strings are Unicode: there a name that is not UTF-8 also travels as
//! base64 (as ripgrep's JSON output carries such names).

use std::path::{Path, PathBuf};

/// The bytes of a path, as [`path_from_bytes`] reads them back.
pub fn path_bytes(path: &Path) -> &[u8] {
    path.as_os_str().as_encoded_bytes()
}

/// The path a name kept as bytes stands for: on Unix exactly those bytes;
/// elsewhere names are Unicode, and bytes that are not UTF-8 are replaced.
#[cfg(unix)]
pub fn path_from_bytes(bytes: &[u8]) -> PathBuf {
    use std::os::unix::ffi::OsStrExt;
    std::ffi::OsStr::from_bytes(bytes).into()
}

/// The path a name kept as bytes stands for: on Unix exactly those bytes;
/// elsewhere names are Unicode, and bytes that are not UTF-8 are replaced.
#[cfg(not(unix))]
pub fn path_from_bytes(bytes: &[u8]) -> PathBuf {
    PathBuf::from(String::from_utf8_lossy(bytes).into_owned())
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// A name's bytes percent-encoded for the path of a URI: all but ASCII
/// letters, digits, `-._~` and `/`, so a name that is not UTF-8 keeps its
/// bytes and `?`, `#` or `%` stay part of it (SARIF locations, SQLite URIs).
pub fn percent_encoded(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for &byte in bytes {
        if byte.is_ascii_alphanumeric() || b"-._~/".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// Standard base64 (RFC 4648, padded).
pub fn to_base64(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let group = chunk.iter().enumerate().fold(0u32, |group, (i, &byte)| {
            group | u32::from(byte) << (16 - 8 * i)
        });
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(group >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The bytes of standard, padded base64; `None` if `text` is not that.
pub fn from_base64(text: &str) -> Option<Vec<u8>> {
    let text = text.as_bytes();
    if !text.len().is_multiple_of(4) {
        return None;
    }
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    for (at, quad) in text.chunks(4).enumerate() {
        let last = at + 1 == text.len() / 4;
        let padding = quad.iter().rev().take_while(|&&c| c == b'=').count();
        if padding > 2 || (padding > 0 && !last) {
            return None;
        }
        let mut group = 0u32;
        for &c in &quad[..4 - padding] {
            let value = ALPHABET.iter().position(|&a| a == c)?;
            group = group << 6 | value as u32;
        }
        group <<= 6 * padding as u32;
        let bytes = group.to_be_bytes();
        out.extend_from_slice(&bytes[1..4 - padding]);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_rfc_4648_vectors() {
        let vectors = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ];
        for (plain, encoded) in vectors {
            assert_eq!(to_base64(plain.as_bytes()), encoded);
            assert_eq!(from_base64(encoded).as_deref(), Some(plain.as_bytes()));
        }
        assert_eq!(to_base64(b"a\xff.txt"), "Yf8udHh0");
    }

    #[test]
    fn malformed_base64_is_refused() {
        for bad in ["Zg", "Zg=", "Z===", "Zg==Zg==", "Zm9*", "Zm 9"] {
            assert_eq!(from_base64(bad), None, "{bad}");
        }
    }

    proptest::proptest! {
        #[test]
        fn base64_round_trips(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..40)) {
            proptest::prop_assert_eq!(from_base64(&to_base64(&bytes)), Some(bytes));
        }
    }

    #[cfg(unix)]
    #[test]
    fn any_unix_name_survives_bytes() {
        let bytes = b"dir/a\xff\xfe name\n.txt";
        assert_eq!(path_bytes(&path_from_bytes(bytes)), bytes);
    }
}
