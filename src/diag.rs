//! Diagnostics: error and skip accounting, and messages on stderr.
//!
//! Every input ends up either fingerprinted or counted here, with its
//! reason, so the summary and the JSON `stats` account for all of them.
//! Messages are written by the one thread that drives a run (workers return
//! values, never print), so their order is the input order. A progress bar
//! on the terminal is cleared while a message is written, so the two never
//! share a line.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt::Display;
use std::io::{self, Write};

use serde::Serialize;

use crate::input::SkipReason;

/// Counts of what happened to the inputs of one run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    /// Inputs seen: files, records or fingerprint lines.
    #[serde(rename = "inputs")]
    pub seen: u64,
    /// Inputs that produced a fingerprint with enough features.
    pub fingerprinted: u64,
    /// Inputs with no features at all (never paired).
    pub empty: u64,
    /// Inputs with fewer than the minimum features (matched by exact content only).
    pub too_short: u64,
    /// Inputs passed over, by reason.
    pub skipped: BTreeMap<SkipReason, u64>,
    /// Inputs that could not be read, or arguments that failed.
    pub errors: u64,
    /// Documents fingerprinted (or stored) that could not be read again
    /// to verify their pairs: already counted as inputs, so kept apart
    /// from `errors` for `inputs` to stay the sum of the outcomes.
    pub verify_errors: u64,
    /// Bytes read from documents.
    pub bytes: u64,
}

impl Tally {
    /// Counts one skipped input.
    pub fn skip(&mut self, reason: SkipReason) {
        *self.skipped.entry(reason).or_insert(0) += 1;
    }

    /// The skipped inputs as a summary says them, `2 skipped (binary 1,
    /// hidden 1)`; `None` when nothing was skipped.
    pub fn skipped_summary(&self) -> Option<String> {
        let skipped: u64 = self.skipped.values().sum();
        if skipped == 0 {
            return None;
        }
        let reasons: Vec<String> = self
            .skipped
            .iter()
            .map(|(reason, count)| format!("{reason} {count}"))
            .collect();
        Some(format!("{skipped} skipped ({})", reasons.join(", ")))
    }
}

/// Writes diagnostics to stderr and remembers whether any error happened.
#[derive(Debug, Default)]
pub struct Diagnostics {
    /// The counts so far.
    pub tally: Tally,
    /// Whether to print notes (skips); errors are always printed.
    pub verbose: bool,
}

impl Diagnostics {
    /// Diagnostics that print errors, and skip notes when `verbose`.
    pub fn new(verbose: bool) -> Self {
        Diagnostics {
            tally: Tally::default(),
            verbose,
        }
    }

    /// Reports an error about one input and counts it; the run goes on.
    pub fn error(&mut self, error: impl Display) {
        self.tally.errors += 1;
        print_stderr(format_args!("simdup: {error}"));
    }

    /// Reports a document that could not be read again for verification
    /// and counts it apart from the inputs' errors; the run goes on.
    pub fn verify_error(&mut self, error: impl Display) {
        self.tally.verify_errors += 1;
        print_stderr(format_args!("simdup: {error} (while verifying)"));
    }

    /// A note that does not change the exit code (printed when verbose).
    pub fn note(&self, message: impl Display) {
        if self.verbose {
            print_stderr(format_args!("simdup: {message}"));
        }
    }

    /// Says that an input was skipped: always when something went wrong
    /// with it (its converter failed), otherwise as a note.
    pub fn skip_note(&self, name: &str, reason: SkipReason) {
        if reason.is_failure() {
            print_stderr(format_args!("simdup: {name}: skipped ({reason})"));
        } else {
            self.note(format_args!("{name}: skipped ({reason})"));
        }
    }

    /// A warning, always printed, that does not change the exit code.
    pub fn warn(&self, message: impl Display) {
        print_stderr(format_args!("simdup: warning: {message}"));
    }

    /// Whether any error was reported.
    pub fn errored(&self) -> bool {
        self.tally.errors > 0 || self.tally.verify_errors > 0
    }
}

/// Writes one line to stderr, clearing the progress bar around it. A
/// closed stderr is ignored: there is nowhere left to report it, and the
/// exit code still says what happened.
pub fn print_stderr(message: std::fmt::Arguments<'_>) {
    let message = message.to_string();
    let line = one_line(&message);
    crate::progress::suspend(|| {
        let stderr = io::stderr();
        let mut lock = stderr.lock();
        let _ = writeln!(lock, "{line}");
    });
}

/// `message` with what could break its line or rewrite the terminal
/// escaped (`\n`, `\r`, `\t`, other control and invisible format
/// characters as `\u{..}`, as in the table's snippets): a file name that
/// holds a newline or an escape sequence cannot forge a line of its own.
fn one_line(message: &str) -> Cow<'_, str> {
    use crate::report::snippet::invisible;
    if !message.chars().any(invisible) {
        return Cow::Borrowed(message);
    }
    let mut line = String::with_capacity(message.len() + 8);
    for c in message.chars() {
        match c {
            '\n' => line.push_str("\\n"),
            '\r' => line.push_str("\\r"),
            '\t' => line.push_str("\\t"),
            c if invisible(c) => line.extend(c.escape_unicode()),
            c => line.push(c),
        }
    }
    Cow::Owned(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_stays_on_one_line_and_cannot_rewrite_the_terminal() {
        assert_eq!(
            one_line("a.txt: skipped (binary)"),
            "a.txt: skipped (binary)"
        );
        assert_eq!(
            one_line("evil\nsimdup: fake.txt: skipped"),
            "evil\\nsimdup: fake.txt: skipped"
        );
        assert_eq!(
            one_line("a\r\tb \u{1b}[2Jc \u{202e}d é"),
            "a\\r\\tb \\u{1b}[2Jc \\u{202e}d é"
        );
    }
}
