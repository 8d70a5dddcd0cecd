//! The progress bar: documents and bytes done, rate, and an ETA once the
//! total is known. It is drawn only when stderr is a terminal, so pipes,
//! files and CI logs never see it. Messages on stderr go through
//! [`suspend`], which clears the bar while they are written.

use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// The bar on the terminal now, if any (one at a time: stages follow each
/// other).
static SHOWN: Mutex<Option<ProgressBar>> = Mutex::new(None);

/// Runs `write` (which writes to stderr) with the bar cleared, then draws
/// the bar again.
pub fn suspend<R>(write: impl FnOnce() -> R) -> R {
    let shown = SHOWN.lock().unwrap_or_else(|e| e.into_inner()).clone();
    match shown {
        Some(bar) => bar.suspend(write),
        None => write(),
    }
}

/// Makes `bar` the one that messages clear.
fn show(bar: ProgressBar) -> Progress {
    *SHOWN.lock().unwrap_or_else(|e| e.into_inner()) = Some(bar.clone());
    Progress { bar: Some(bar) }
}

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
        let bar = ProgressBar::with_draw_target(total, ProgressDrawTarget::stderr());
        bar.set_style(match total {
            Some(_) => counted_style(),
            None => uncounted_style(),
        });
        bar.enable_steady_tick(Duration::from_millis(120));
        show(bar)
    }

    /// Passes `items` through, counting them; when they end, the count
    /// becomes the bar's total, so an ETA appears once the total is known
    /// (a rate shows before).
    pub fn counting<I: Iterator>(&self, items: I) -> Counting<I> {
        Counting {
            items,
            bar: self.bar.clone(),
            count: 0,
        }
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
        show(bar)
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

    /// Removes the bar from the terminal.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
            let mut shown = SHOWN.lock().unwrap_or_else(|e| e.into_inner());
            if shown.as_ref().is_some_and(|s| s.is_finished()) {
                *shown = None;
            }
        }
    }
}

fn counted_style() -> ProgressStyle {
    ProgressStyle::with_template(
        "{spinner} {pos}/{len} documents, {msg} [{elapsed_precise}, ETA {eta}]",
    )
    .unwrap_or_else(|_| ProgressStyle::default_bar())
}

fn uncounted_style() -> ProgressStyle {
    ProgressStyle::with_template("{spinner} {pos} documents, {msg} [{elapsed_precise}]")
        .unwrap_or_else(|_| ProgressStyle::default_spinner())
}

/// See [`Progress::counting`].
#[derive(Debug)]
pub struct Counting<I> {
    items: I,
    bar: Option<ProgressBar>,
    count: u64,
}

impl<I: Iterator> Iterator for Counting<I> {
    type Item = I::Item;

    fn next(&mut self) -> Option<I::Item> {
        let item = self.items.next();
        match (&item, &self.bar) {
            (Some(_), _) => self.count += 1,
            (None, Some(bar)) if bar.length().is_none() => {
                bar.set_length(self.count);
                bar.set_style(counted_style());
            }
            (None, _) => {}
        }
        item
    }
}
