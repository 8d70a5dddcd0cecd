//! `simdup completions SHELL` and `simdup man`: generated from the same
//! clap definitions, so they never drift from `--help`. The files in
//! completions/ are their output (a test checks they are current).

use std::io::{self, Write};
use std::process::ExitCode;

use clap::CommandFactory;

use super::Cli;

/// Prints completions for `shell`.
pub fn completions(shell: clap_complete::Shell) -> anyhow::Result<ExitCode> {
    let mut out = io::stdout().lock();
    clap_complete::generate(shell, &mut Cli::command(), "simdup", &mut out);
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// Prints the man page.
pub fn man() -> anyhow::Result<ExitCode> {
    let mut out = io::stdout().lock();
    clap_mangen::Man::new(Cli::command()).render(&mut out)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
