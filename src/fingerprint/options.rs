//! The feature options: every choice that changes a fingerprint, how it is
//! parsed from text, validated, described and digested.
//!
//! This module only holds and checks the choices; the engine that applies
//! them lives in the other files of `fingerprint/`.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use super::weights::{TokenSet, Vocabulary};
use crate::input::View;
use crate::{Error, Result};

/// Largest N accepted in `words:N` / `chars:N`; bounds the shingle buffer.
pub const MAX_SHINGLE: usize = 256;

/// How a document is cut into features.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shingle {
    /// N consecutive word tokens.
    Words(usize),
    /// N consecutive characters.
    Chars(usize),
}

impl Shingle {
    /// The N of the shingle mode.
    pub fn size(self) -> usize {
        match self {
            Shingle::Words(n) | Shingle::Chars(n) => n,
        }
    }
}

impl fmt::Display for Shingle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Shingle::Words(n) => write!(f, "words:{n}"),
            Shingle::Chars(n) => write!(f, "chars:{n}"),
        }
    }
}

impl FromStr for Shingle {
    type Err = Error;

    /// Parses `words:N` or `chars:N` with 1 <= N <= [`MAX_SHINGLE`].
    fn from_str(value: &str) -> Result<Self> {
        let bad = |why: &str| {
            Error::Usage(format!(
                "invalid shingle '{value}': {why}; expected words:N or chars:N with N from 1 to {MAX_SHINGLE}"
            ))
        };
        let (kind, count) = value.split_once(':').ok_or_else(|| bad("missing ':'"))?;
        let n: usize = count.parse().map_err(|_| bad("N is not a whole number"))?;
        if n == 0 || n > MAX_SHINGLE {
            return Err(bad("N is out of range"));
        }
        match kind {
            "words" => Ok(Shingle::Words(n)),
            "chars" => Ok(Shingle::Chars(n)),
            _ => Err(bad("unknown kind")),
        }
    }
}

/// Which 64-bit hash turns a feature into bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FeatureHash {
    /// xxh3-64, seed 0.
    Xxh3,
    /// SHAKE256, first 8 bytes little-endian.
    Sha3,
}

/// How much each feature counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Weighting {
    /// Term frequency in the document.
    Tf,
    /// Every distinct feature counts once.
    Binary,
}

/// Whether text is brought to Unicode NFKC before tokenising.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnicodeForm {
    /// Compatibility composition (NFKC): ligatures, full-width forms and
    /// composed/decomposed accents all become one spelling.
    Nfkc,
    /// The decoded text as it is.
    AsIs,
}

/// Whether letter case matters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Case {
    /// Tokens are lower-cased (Unicode default lower-case mapping).
    Lower,
    /// Tokens keep their case.
    Sensitive,
}

/// What punctuation and symbols are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Punctuation {
    /// Only letters, digits and combining marks make tokens; everything
    /// else separates them.
    Separate,
    /// Only whitespace and control characters separate tokens.
    Keep,
}

/// Every option that changes a fingerprint.
#[derive(Clone, Debug)]
pub struct FeatureOptions {
    /// The shingle mode.
    pub shingle: Shingle,
    /// The feature hash.
    pub hash: FeatureHash,
    /// The weighting.
    pub weighting: Weighting,
    /// Unicode normalisation.
    pub unicode: UnicodeForm,
    /// Case folding.
    pub case: Case,
    /// Punctuation handling.
    pub punctuation: Punctuation,
    /// htm.core's token similarity: each word's characters are also
    /// features (words mode only).
    pub token_similarity: bool,
    /// Token weights; without `encode_orphans`, also a whitelist.
    pub vocabulary: Option<Arc<Vocabulary>>,
    /// Keep tokens missing from the vocabulary, with weight 1.
    pub encode_orphans: bool,
    /// Tokens to drop before shingling.
    pub exclude: Option<Arc<TokenSet>>,
    /// Drop the first `frequency_floor` occurrences of each token (0: off).
    pub frequency_floor: u32,
    /// Keep at most this many occurrences of each token (and, with token
    /// similarity, of each character within a token).
    pub frequency_ceiling: Option<u32>,
    /// How a file's bytes become its text: the markup view of Markdown,
    /// reStructuredText, AsciiDoc and HTML files, or an external converter.
    /// Records and standard input are read as they are.
    pub view: View,
}

impl Default for FeatureOptions {
    fn default() -> Self {
        FeatureOptions {
            shingle: Shingle::Words(3),
            hash: FeatureHash::Xxh3,
            weighting: Weighting::Binary,
            unicode: UnicodeForm::Nfkc,
            case: Case::Lower,
            punctuation: Punctuation::Separate,
            token_similarity: false,
            vocabulary: None,
            encode_orphans: false,
            exclude: None,
            frequency_floor: 0,
            frequency_ceiling: None,
            view: View::default(),
        }
    }
}

/// Version of the fingerprint definition (docs/FINGERPRINT.md); part of
/// every digest so that an intended change of definition changes digests.
const DEFINITION_VERSION: &str = "simdup-fingerprint-1";

impl FeatureOptions {
    /// Checks that the options can be used together; the message names the
    /// option and says what is accepted.
    pub fn validate(&self) -> Result<()> {
        let n = self.shingle.size();
        if n == 0 || n > MAX_SHINGLE {
            return Err(Error::Usage(format!(
                "invalid shingle '{}': N must be from 1 to {MAX_SHINGLE}",
                self.shingle
            )));
        }
        if self.token_similarity && matches!(self.shingle, Shingle::Chars(_)) {
            return Err(Error::Usage(
                "--token-similarity adds each word's characters, so it needs words:N shingles"
                    .into(),
            ));
        }
        if self.view.decompress && self.view.transform.is_some() {
            return Err(Error::Usage(
                "--decompress and --transform do not go together: the converter reads the file \
                 itself (give it the decompressed text, e.g. 'sh -c \"zcat $IN | pandoc -t plain\"')"
                    .into(),
            ));
        }
        if self.encode_orphans && self.vocabulary.is_none() {
            return Err(Error::Usage(
                "--encode-orphans needs --vocabulary FILE".into(),
            ));
        }
        if let Some(ceiling) = self.frequency_ceiling {
            if ceiling == 0 {
                return Err(Error::Usage(
                    "--frequency-ceiling must be at least 1 (it keeps that many occurrences)"
                        .into(),
                ));
            }
            if ceiling <= self.frequency_floor {
                return Err(Error::Usage(format!(
                    "--frequency-ceiling ({ceiling}) must be greater than --frequency-floor ({}), or no token is kept",
                    self.frequency_floor
                )));
            }
        }
        Ok(())
    }

    /// A short, stable description, e.g. `words:3,xxh3,tf,nfkc,lower,punct-sep`.
    pub fn describe(&self) -> String {
        let mut parts = vec![
            self.shingle.to_string(),
            match self.hash {
                FeatureHash::Xxh3 => "xxh3",
                FeatureHash::Sha3 => "sha3",
            }
            .to_string(),
            match self.weighting {
                Weighting::Tf => "tf",
                Weighting::Binary => "binary",
            }
            .to_string(),
            match self.unicode {
                UnicodeForm::Nfkc => "nfkc",
                UnicodeForm::AsIs => "no-nfkc",
            }
            .to_string(),
            match self.case {
                Case::Lower => "lower",
                Case::Sensitive => "case-sensitive",
            }
            .to_string(),
            match self.punctuation {
                Punctuation::Separate => "punct-sep",
                Punctuation::Keep => "punct-keep",
            }
            .to_string(),
        ];
        if self.token_similarity {
            parts.push("token-sim".into());
        }
        if let Some(vocabulary) = &self.vocabulary {
            let orphans = if self.encode_orphans { "+orphans" } else { "" };
            parts.push(format!("vocab:{}{orphans}", vocabulary.len()));
        }
        if let Some(exclude) = &self.exclude {
            parts.push(format!("exclude:{}", exclude.len()));
        }
        if self.frequency_floor > 0 {
            parts.push(format!("floor:{}", self.frequency_floor));
        }
        if let Some(ceiling) = self.frequency_ceiling {
            parts.push(format!("ceiling:{ceiling}"));
        }
        parts.extend(self.view.describe().into_iter().map(String::from));
        parts.join(",")
    }

    /// A short hex digest (16 digits) of every option that changes a
    /// fingerprint, including the vocabulary and exclude-list contents and
    /// the version of the fingerprint definition.
    pub fn digest(&self) -> String {
        let mut hasher = xxhash_rust::xxh3::Xxh3Default::new();
        let mut field = |bytes: &[u8]| {
            // Length-prefixed, so no two option sets serialise alike.
            hasher.update(&(bytes.len() as u64).to_le_bytes());
            hasher.update(bytes);
        };
        field(DEFINITION_VERSION.as_bytes());
        field(self.describe().as_bytes());
        if let Some(vocabulary) = &self.vocabulary {
            for (token, weight) in vocabulary.entries() {
                field(token.as_bytes());
                field(&weight.to_le_bytes());
            }
        }
        field(b"exclude");
        if let Some(exclude) = &self.exclude {
            for token in exclude.tokens() {
                field(token.as_bytes());
            }
        }
        // The view changes the text of files, so their features.
        field(b"view");
        field(&self.view.digest_bytes());
        format!("{:016x}", hasher.digest())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shingle_parses_and_rejects_with_the_value_and_accepted_form() {
        assert_eq!("words:3".parse::<Shingle>().unwrap(), Shingle::Words(3));
        assert_eq!("chars:5".parse::<Shingle>().unwrap(), Shingle::Chars(5));
        for bad in [
            "words:0",
            "chars:x",
            "bytes:3",
            "words",
            "words:257",
            "words:-1",
        ] {
            let message = bad.parse::<Shingle>().unwrap_err().to_string();
            assert!(message.contains(bad), "{message}");
            assert!(message.contains("words:N or chars:N"), "{message}");
        }
    }

    #[test]
    fn describe_default_is_stable() {
        assert_eq!(
            FeatureOptions::default().describe(),
            "words:3,xxh3,binary,nfkc,lower,punct-sep"
        );
    }

    #[test]
    fn digest_changes_with_every_option_and_vocabulary_content() {
        let base = FeatureOptions::default();
        let vocab = |text: &str| Some(Arc::new(Vocabulary::parse("v", text).unwrap()));
        let variants = [
            FeatureOptions {
                shingle: Shingle::Chars(3),
                ..base.clone()
            },
            FeatureOptions {
                hash: FeatureHash::Sha3,
                ..base.clone()
            },
            FeatureOptions {
                weighting: Weighting::Tf,
                ..base.clone()
            },
            FeatureOptions {
                unicode: UnicodeForm::AsIs,
                ..base.clone()
            },
            FeatureOptions {
                case: Case::Sensitive,
                ..base.clone()
            },
            FeatureOptions {
                punctuation: Punctuation::Keep,
                ..base.clone()
            },
            FeatureOptions {
                token_similarity: true,
                ..base.clone()
            },
            FeatureOptions {
                vocabulary: vocab("a 1"),
                ..base.clone()
            },
            FeatureOptions {
                vocabulary: vocab("a 2"),
                ..base.clone()
            },
            FeatureOptions {
                frequency_floor: 1,
                ..base.clone()
            },
            FeatureOptions {
                frequency_ceiling: Some(2),
                ..base.clone()
            },
            FeatureOptions {
                view: View::raw(),
                ..base.clone()
            },
            FeatureOptions {
                view: View {
                    transform: Some(Arc::new("tr a-z A-Z".parse().unwrap())),
                    ..View::default()
                },
                ..base.clone()
            },
            FeatureOptions {
                view: View {
                    transform: Some(Arc::new("tr a-z B-Z".parse().unwrap())),
                    ..View::default()
                },
                ..base.clone()
            },
        ];
        let mut digests: Vec<String> = variants.iter().map(FeatureOptions::digest).collect();
        digests.push(base.digest());
        assert!(digests.iter().all(|d| d.len() == 16));
        let count = digests.len();
        digests.sort();
        digests.dedup();
        assert_eq!(digests.len(), count);
        assert_eq!(base.digest(), FeatureOptions::default().digest());
    }

    #[test]
    fn validate_names_the_conflicting_options() {
        let base = FeatureOptions::default();
        let cases = [
            (
                FeatureOptions {
                    encode_orphans: true,
                    ..base.clone()
                },
                "--vocabulary",
            ),
            (
                FeatureOptions {
                    token_similarity: true,
                    shingle: Shingle::Chars(2),
                    ..base.clone()
                },
                "words:N",
            ),
            (
                FeatureOptions {
                    frequency_floor: 3,
                    frequency_ceiling: Some(3),
                    ..base.clone()
                },
                "floor",
            ),
            (
                FeatureOptions {
                    frequency_ceiling: Some(0),
                    ..base.clone()
                },
                "at least 1",
            ),
            (
                FeatureOptions {
                    shingle: Shingle::Words(0),
                    ..base.clone()
                },
                "words:0",
            ),
        ];
        for (options, needle) in cases {
            let message = options.validate().unwrap_err().to_string();
            assert!(message.contains(needle), "{message}");
        }
        assert!(base.validate().is_ok());
    }
}
