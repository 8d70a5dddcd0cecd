//! `simdup completions SHELL` and `simdup man`: generated from the same
//! clap definitions, so they never drift from `--help`. The files in
//! completions/ are their output (a test checks they are current).

use clap::CommandFactory;
use std::io::{self, Write};

use super::{Cli, Finished};

/// Prints completions for `shell`.
pub fn completions(shell: clap_complete::Shell) -> anyhow::Result<Finished> {
    // clap_complete panics when its writer fails: generate into memory,
    // then write it out so a closed pipe or a full disk is an error.
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "simdup", &mut script);
    let mut out = io::stdout().lock();
    out.write_all(&script)?;
    out.flush()?;
    Ok(Finished::default())
}

/// Prints the man page: the top-level page, then a section for each
/// subcommand with its synopsis, options and examples.
pub fn man() -> anyhow::Result<Finished> {
    let mut out = io::stdout().lock();
    out.write_all(&man_page()?)?;
    out.flush()?;
    Ok(Finished::default())
}

fn man_page() -> io::Result<Vec<u8>> {
    let command = Cli::command();
    let mut page = Vec::new();
    let man = clap_mangen::Man::new(command.clone());
    man.render_title(&mut page)?;
    man.render_name_section(&mut page)?;
    man.render_synopsis_section(&mut page)?;
    man.render_description_section(&mut page)?;
    // One page holds every subcommand: name each with its section below,
    // not with a page of its own.
    writeln!(page, ".SH SUBCOMMANDS")?;
    for subcommand in command.get_subcommands().filter(|sub| !sub.is_hide_set()) {
        let name = format!("simdup {}", subcommand.get_name());
        writeln!(page, ".TP\n\\fB{}\\fR", roff(&name))?;
        if let Some(about) = subcommand.get_about() {
            writeln!(
                page,
                "{} (section {} below)",
                roff(&about.to_string()),
                name.to_uppercase()
            )?;
        }
    }
    write_after_help(&mut page, command.get_after_help(), ".SH")?;
    for subcommand in command.get_subcommands().filter(|sub| !sub.is_hide_set()) {
        let name = format!("simdup {}", subcommand.get_name());
        writeln!(page, ".SH \"{}\"", name.to_uppercase())?;
        if let Some(about) = subcommand.get_about() {
            writeln!(page, "{}", roff(&about.to_string()))?;
        }
        // The subcommand's own sections become subsections of its section.
        let mut sections = Vec::new();
        let sub = clap_mangen::Man::new(subcommand.clone().bin_name(name));
        sub.render_synopsis_section(&mut sections)?;
        sub.render_options_section(&mut sections)?;
        for line in String::from_utf8_lossy(&sections).lines() {
            match line.strip_prefix(".SH ") {
                Some(title) => writeln!(page, ".SS {title}")?,
                None => writeln!(page, "{line}")?,
            }
        }
        write_after_help(&mut page, subcommand.get_after_help(), ".SS")?;
    }
    man.render_version_section(&mut page)?;
    Ok(page)
}

/// Writes a help epilogue ("Examples:", "Exit codes:" blocks) as sections
/// titled by their headings, the text kept as laid out.
fn write_after_help(
    page: &mut Vec<u8>,
    after_help: Option<&clap::builder::StyledStr>,
    heading: &str,
) -> io::Result<()> {
    let Some(text) = after_help else {
        return Ok(());
    };
    let text = text.to_string();
    let mut open = false;
    for line in text.lines() {
        if let Some(title) = line.strip_suffix(':').filter(|t| !t.starts_with(' ')) {
            if open {
                writeln!(page, ".fi")?;
            }
            writeln!(page, "{heading} \"{}\"", title.to_uppercase())?;
            writeln!(page, ".nf")?;
            open = true;
        } else if open {
            writeln!(page, "{}", roff(line))?;
        }
    }
    if open {
        writeln!(page, ".fi")?;
    }
    Ok(())
}

/// Escapes text for roff: backslashes, hyphens that must stay hyphens, and
/// a leading dot or quote that would read as a request.
fn roff(text: &str) -> String {
    let escaped = text.replace('\\', "\\e").replace('-', "\\-");
    match escaped.chars().next() {
        Some('.' | '\'') => format!("\\&{escaped}"),
        _ => escaped,
    }
}
