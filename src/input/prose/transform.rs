//! `--transform CMD`: an external converter (pandoc, pdftotext, ...) run
//! on each file, in the manner of fclones: the command is split into words
//! like a shell would (quotes, backslashes) but run without a shell; a word
//! holding `$IN` gets the file's path there and the converter reads the
//! file itself, otherwise the file is written to its standard input. What
//! it writes to standard output is the text compared.

use std::ffi::OsString;
use std::fmt;
use std::io::{self, Read};
use std::path::Path;
use std::process::{Command, Stdio};
use std::str::FromStr;

use crate::Error;

/// The most a converter may write when no `--max-filesize` bounds it.
pub const DEFAULT_OUTPUT_LIMIT: u64 = 256 * 1024 * 1024;

/// How much of a failed converter's standard error is shown.
const STDERR_SHOWN: usize = 4096;

/// An external converter, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transform {
    command: String,
    words: Vec<String>,
}

/// Why a converter gave no text.
#[derive(Debug)]
pub(crate) enum TransformError {
    /// It could not be started.
    Start(String, io::Error),
    /// It ended with a failure.
    Failed(String, String),
    /// It wrote more than the limit.
    TooLarge(String, u64),
    /// Its output could not be read.
    Io(String, io::Error),
}

impl fmt::Display for TransformError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TransformError::Start(program, error) => {
                write!(f, "cannot run the transform '{program}': {error}")
            }
            TransformError::Failed(command, why) => {
                write!(f, "the transform '{command}' failed: {why}")
            }
            TransformError::TooLarge(command, limit) => {
                write!(f, "the transform '{command}' wrote more than {limit} bytes")
            }
            TransformError::Io(command, error) => {
                write!(
                    f,
                    "reading the output of the transform '{command}': {error}"
                )
            }
        }
    }
}

impl FromStr for Transform {
    type Err = Error;

    fn from_str(command: &str) -> crate::Result<Transform> {
        let words = split(command)
            .map_err(|why| Error::Usage(format!("invalid --transform '{command}': {why}")))?;
        if words.is_empty() {
            return Err(Error::Usage(
                "invalid --transform '': give a command, e.g. 'pandoc -t plain $IN'".into(),
            ));
        }
        Ok(Transform {
            command: command.to_string(),
            words,
        })
    }
}

impl Transform {
    /// The command as given.
    pub fn command(&self) -> &str {
        &self.command
    }

    /// Runs the converter on one file and returns its output, at most
    /// `limit` bytes. `input` is the file's content, written to the
    /// converter's standard input unless the command names `$IN`.
    pub(crate) fn run(
        &self,
        path: &Path,
        input: Box<dyn Read + Send>,
        limit: u64,
    ) -> Result<Vec<u8>, TransformError> {
        let names_input = self.words.iter().any(|word| word.contains("$IN"));
        let arguments: Vec<OsString> = self.words[1..]
            .iter()
            .map(|word| substitute(word, path))
            .collect();
        let program = &self.words[0];
        let mut child = Command::new(program)
            .args(&arguments)
            .stdin(if names_input {
                Stdio::null()
            } else {
                Stdio::piped()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|error| TransformError::Start(program.clone(), error))?;
        // Standard input and error are served by threads of their own, so a
        // converter that fills one pipe while we wait on another never
        // deadlocks.
        let writer = child.stdin.take().map(|mut stdin| {
            let mut input = input;
            std::thread::spawn(move || {
                // A converter may stop reading early; that is its business.
                let _ = io::copy(&mut input, &mut stdin);
            })
        });
        let errors = child.stderr.take().map(|stderr| {
            std::thread::spawn(move || {
                let mut shown = Vec::new();
                let mut stderr = stderr;
                let _ = (&mut stderr)
                    .take(STDERR_SHOWN as u64)
                    .read_to_end(&mut shown);
                let _ = io::copy(&mut stderr, &mut io::sink());
                shown
            })
        });
        let mut output = Vec::new();
        let read = match child.stdout.take() {
            Some(stdout) => stdout
                .take(limit.saturating_add(1))
                .read_to_end(&mut output),
            None => Ok(0),
        };
        let too_large = output.len() as u64 > limit;
        if too_large {
            let _ = child.kill();
        }
        let status = child.wait();
        if let Some(writer) = writer {
            let _ = writer.join();
        }
        let stderr = errors
            .and_then(|errors| errors.join().ok())
            .unwrap_or_default();
        if too_large {
            return Err(TransformError::TooLarge(self.command.clone(), limit));
        }
        if let Err(error) = read {
            return Err(TransformError::Io(self.command.clone(), error));
        }
        let status = status.map_err(|error| TransformError::Io(self.command.clone(), error))?;
        if !status.success() {
            let said = String::from_utf8_lossy(&stderr);
            let said = said.trim();
            let why = match said.lines().next() {
                Some(first) if !first.is_empty() => format!("{status}: {first}"),
                _ => status.to_string(),
            };
            return Err(TransformError::Failed(self.command.clone(), why));
        }
        Ok(output)
    }
}

/// A word with `$IN` replaced by the path.
fn substitute(word: &str, path: &Path) -> OsString {
    let mut out = OsString::new();
    let mut parts = word.split("$IN");
    if let Some(first) = parts.next() {
        out.push(first);
    }
    for part in parts {
        out.push(path.as_os_str());
        out.push(part);
    }
    out
}

/// Splits a command into words: blanks separate, `'...'` is literal,
/// `"..."` keeps blanks and takes `\"` and `\\`, a backslash outside quotes
/// takes the next character as it is.
fn split(command: &str) -> Result<Vec<String>, &'static str> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = command.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err("a single quote is not closed"),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err("a double quote is not closed"),
                        },
                        Some(c) => word.push(c),
                        None => return Err("a double quote is not closed"),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(c) => word.push(c),
                    None => return Err("it ends with a backslash"),
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// A reader of `bytes`, boxed as [`Transform::run`] takes it.
#[cfg(test)]
fn input(bytes: &'static [u8]) -> Box<dyn Read + Send> {
    Box::new(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_split_like_a_shell_would() {
        assert_eq!(
            split(r#"pandoc -t plain "$IN""#).unwrap(),
            ["pandoc", "-t", "plain", "$IN"]
        );
        assert_eq!(
            split(r#"sed 's/a b/c/' "x\"y" z\ w ''"#).unwrap(),
            ["sed", "s/a b/c/", "x\"y", "z w", ""]
        );
        assert!(split("a 'b").is_err());
        assert!("".parse::<Transform>().is_err());
        assert!("  ".parse::<Transform>().is_err());
        let error = "x \"y".parse::<Transform>().unwrap_err().to_string();
        assert!(error.contains("--transform"), "{error}");
    }

    #[test]
    fn in_is_replaced_by_the_path() {
        assert_eq!(
            substitute("--file=$IN.txt", Path::new("a b")),
            OsString::from("--file=a b.txt")
        );
    }

    #[cfg(unix)]
    #[test]
    fn output_failures_and_missing_programs() {
        let path = Path::new("doc.txt");
        let upper: Transform = "tr a-z A-Z".parse().unwrap();
        assert_eq!(upper.run(path, input(b"abc\n"), 100).unwrap(), b"ABC\n");
        let failing: Transform = "sh -c 'echo broken >&2; exit 3'".parse().unwrap();
        let error = failing.run(path, input(b""), 100).unwrap_err().to_string();
        assert!(
            error.contains("failed") && error.contains("broken"),
            "{error}"
        );
        let missing: Transform = "simdup-no-such-converter".parse().unwrap();
        let error = missing.run(path, input(b""), 100).unwrap_err().to_string();
        assert!(error.contains("cannot run"), "{error}");
        let large: Transform = "cat".parse().unwrap();
        let error = large.run(path, input(b"0123456789"), 5).unwrap_err();
        assert!(matches!(error, TransformError::TooLarge(_, 5)), "{error}");
    }
}
