//! The `simdup` binary: parse the command line, run it, turn the outcome
//! into an exit code. All the work is in the library.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = simdup::cli::Cli::parse();
    match simdup::cli::run(cli) {
        Ok(code) => code,
        Err(error) if is_broken_pipe(&error) => {
            // `simdup ... | head`: the reader has what it wanted.
            ExitCode::SUCCESS
        }
        Err(error) => {
            simdup::diag::print_stderr(format_args!("simdup: {error:#}"));
            ExitCode::from(2)
        }
    }
}

/// Whether a closed pipe caused the error, anywhere in its chain.
fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
