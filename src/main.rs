//! The `simdup` binary: parse the command line, run it, turn how it ended
//! into an exit code. The work is in the library; the command line is in
//! `cli`.

mod cli;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};

fn main() -> ExitCode {
    // The matches say which options came from the command line, so that
    // the config file fills only the others.
    let matches = cli::Cli::command().get_matches();
    let cli = cli::Cli::from_arg_matches(&matches).unwrap_or_else(|error| error.exit());
    let ended = cli::run(cli, &matches);
    if let Err(error) = &ended
        && !is_broken_pipe(error)
    {
        simdup::diag::print_stderr(format_args!("simdup: {error:#}"));
    }
    ExitCode::from(exit_code(&ended))
}

/// The one exit policy: 0 ran fine; 1 near-duplicates remained after
/// every filter and the user asked to fail on them; 2 anything failed (an
/// incomplete run certifies nothing), be it one input or the whole run. A
/// closed pipe (`simdup ... | head`) is not a failure: the reader has what
/// it wanted.
fn exit_code(ended: &anyhow::Result<cli::Finished>) -> u8 {
    match ended {
        Err(error) if is_broken_pipe(error) => 0,
        Err(_) => 2,
        Ok(finished) if finished.errored => 2,
        Ok(finished) if finished.failed_on_duplicates => 1,
        Ok(_) => 0,
    }
}

/// Whether a closed pipe caused the error, anywhere in its chain.
fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            || cause
                .downcast_ref::<simdup::Error>()
                .is_some_and(simdup::Error::is_broken_pipe)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use cli::Finished;

    #[test]
    fn errors_win_then_duplicates() {
        let finished = |errored, failed_on_duplicates| {
            Ok(Finished {
                errored,
                failed_on_duplicates,
            })
        };
        assert_eq!(exit_code(&finished(false, false)), 0);
        assert_eq!(exit_code(&finished(false, true)), 1);
        assert_eq!(exit_code(&finished(true, true)), 2);
        assert_eq!(exit_code(&finished(true, false)), 2);
        assert_eq!(exit_code(&Err(anyhow::anyhow!("bad argument"))), 2);
        let pipe = std::io::Error::from(std::io::ErrorKind::BrokenPipe);
        assert_eq!(exit_code(&Err(anyhow::Error::from(pipe))), 0);
        let wrapped = simdup::Error::io_named("stdout", std::io::ErrorKind::BrokenPipe.into());
        assert_eq!(exit_code(&Err(anyhow::Error::from(wrapped))), 0);
    }
}
