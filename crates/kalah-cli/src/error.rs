//! Errors of the command line: bad input (exit status 2) apart from everything else (status 1).

use std::fmt;

/// An error caused by what the user gave: a flag, a position, a move, a file's contents.
#[derive(Debug)]
pub struct BadInput(pub String);

impl fmt::Display for BadInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadInput {}

/// Wraps any error message as bad input.
pub fn bad(error: impl fmt::Display) -> anyhow::Error {
    anyhow::Error::new(BadInput(error.to_string()))
}

/// Returns the exit status for an error: 2 for bad input, 0 for a closed output pipe, 1 otherwise.
pub fn exit_status(error: &anyhow::Error) -> i32 {
    if error.chain().any(|e| e.is::<BadInput>()) {
        2
    } else if error
        .chain()
        .any(|e| e.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe))
    {
        0
    } else {
        1
    }
}
