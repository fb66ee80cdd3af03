//! `kalah completions SHELL`: a completion script generated from the same argument definitions as
//! the parser, so it always knows every command and flag of this build.

use std::io::Write;

use anyhow::{Context, Result};
use clap::Args;
use clap_complete::Shell;

/// Flags of `kalah completions`.
#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell to complete for
    #[arg(value_enum)]
    pub shell: Shell,
}

/// Prints the completion script of `command` for the shell asked.
pub fn run(args: CompletionsArgs, mut command: clap::Command) -> Result<()> {
    // clap_complete panics when its writer fails; a buffer cannot, and a closed pipe is then an
    // ordinary error (exit status 0, like every other command's output).
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "kalah", &mut script);
    let mut out = std::io::stdout().lock();
    out.write_all(&script).and_then(|()| out.flush()).context("cannot write the completion script")
}
