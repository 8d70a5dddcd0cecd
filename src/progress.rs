//! The progress bar: documents and bytes done, rate, and an ETA once the
//! total is known. It is drawn only when stderr is a terminal, so pipes,
//! files and CI logs never see it.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A progress bar that may be hidden.
#[derive(Debug)]
pub struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// A bar over `total` documents (unknown when `None`), shown only if
    /// `wanted` and stderr is a terminal.
    pub fn new(wanted: bool, total: Option<u64>) -> Self {
        if !wanted || !std::io::stderr().is_terminal() {
            return Progress { bar: None };
        }
        let bar = match total {
            Some(total) => ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
                .with_style(
                    ProgressStyle::with_template(
                        "{spinner} {pos}/{len} documents, {msg} [{elapsed_precise}, ETA {eta}]",
                    )
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
                ),
            None => ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()).with_style(
                ProgressStyle::with_template(
                    "{spinner} {pos} documents, {msg} [{elapsed_precise}]",
                )
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            ),
        };
        bar.enable_steady_tick(Duration::from_millis(120));
        Progress { bar: Some(bar) }
    }

    /// A spinner with a message, for a stage without a count (walking,
    /// searching); shown only if `wanted` and stderr is a terminal.
    pub fn spinner(wanted: bool, message: &str) -> Self {
        if !wanted || !std::io::stderr().is_terminal() {
            return Progress { bar: None };
        }
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()).with_style(
            ProgressStyle::with_template("{spinner} {msg} [{elapsed_precise}]")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        bar.set_message(message.to_string());
        bar.enable_steady_tick(Duration::from_millis(120));
        Progress { bar: Some(bar) }
    }

    /// One more document done; `bytes_so_far` is the running byte count.
    pub fn document_done(&self, bytes_so_far: u64) {
        if let Some(bar) = &self.bar {
            bar.inc(1);
            // Formatting the message costs more than the bar: refresh it
            // every few hundred documents, which is still many times a second.
            if bar.position() % 256 != 1 {
                return;
            }
            let elapsed = bar.elapsed().as_secs_f64().max(1e-3);
            bar.set_message(format!(
                "{:.1} MB, {:.1} MB/s",
                bytes_so_far as f64 / 1e6,
                bytes_so_far as f64 / 1e6 / elapsed
            ));
        }
    }

    /// Shows what the run is doing now (for stages without a count).
    pub fn stage(&self, message: &str) {
        if let Some(bar) = &self.bar {
            bar.set_message(message.to_string());
        }
    }

    /// Removes the bar from the terminal.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
