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

/// Prints the man page: the top-level page, then a section for each
/// subcommand with its synopsis, options and examples.
pub fn man() -> anyhow::Result<ExitCode> {
    let mut out = io::stdout().lock();
    out.write_all(&man_page()?)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn man_page() -> io::Result<Vec<u8>> {
    let command = Cli::command();
    let mut page = Vec::new();
    let man = clap_mangen::Man::new(command.clone());
    man.render_title(&mut page)?;
    man.render_name_section(&mut page)?;
    man.render_synopsis_section(&mut page)?;
    man.render_description_section(&mut page)?;
    man.render_subcommands_section(&mut page)?;
    man.render_extra_section(&mut page)?;
    for subcommand in command.get_subcommands() {
        let name = format!("simdup {}", subcommand.get_name());
        writeln!(page, ".SH \"{}\"", name.to_uppercase())?;
        if let Some(about) = subcommand.get_about() {
            writeln!(page, "{about}")?;
        }
        // The subcommand's own sections become subsections of its section.
        let mut sections = Vec::new();
        let sub = clap_mangen::Man::new(subcommand.clone().bin_name(name));
        sub.render_synopsis_section(&mut sections)?;
        sub.render_options_section(&mut sections)?;
        sub.render_extra_section(&mut sections)?;
        for line in String::from_utf8_lossy(&sections).lines() {
            match line.strip_prefix(".SH ") {
                Some(title) => writeln!(page, ".SS {title}")?,
                None => writeln!(page, "{line}")?,
            }
        }
    }
    man.render_version_section(&mut page)?;
    Ok(page)
}
