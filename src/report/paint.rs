//! Colour for people at a terminal: a few styles, and whether to use
//! them. The caller decides once (`--color`, `NO_COLOR`, whether the
//! stream is a terminal); the writers only ask.

use std::fmt::Display;

use anstyle::{AnsiColor, Style};

/// Whether a writer colours its output.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Paint {
    on: bool,
}

impl Paint {
    /// Colours on or off.
    pub fn new(on: bool) -> Paint {
        Paint { on }
    }

    /// No colour.
    pub fn none() -> Paint {
        Paint { on: false }
    }

    fn styled(self, style: Style, text: impl Display) -> String {
        if self.on {
            format!("{}{text}{}", style.render(), style.render_reset())
        } else {
            text.to_string()
        }
    }

    /// A column header.
    pub fn header(self, text: impl Display) -> String {
        self.styled(Style::new().bold(), text)
    }

    /// A figure that matters (a Jaccard, a count of pairs).
    pub fn figure(self, text: impl Display) -> String {
        self.styled(
            Style::new().fg_color(Some(AnsiColor::Green.into())).bold(),
            text,
        )
    }

    /// A figure of less weight (a distance).
    pub fn quiet(self, text: impl Display) -> String {
        self.styled(Style::new().dimmed(), text)
    }

    /// A warning word.
    pub fn warning(self, text: impl Display) -> String {
        self.styled(
            Style::new().fg_color(Some(AnsiColor::Yellow.into())).bold(),
            text,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn off_is_plain_text_and_on_wraps_it_in_escapes() {
        assert_eq!(Paint::none().figure("0.9"), "0.9");
        let on = Paint::new(true).figure("0.9");
        assert!(
            on.starts_with('\u{1b}') && on.contains("0.9") && on.ends_with('m'),
            "{on:?}"
        );
    }
}
