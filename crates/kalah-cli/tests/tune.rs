//! `kalah tune`'s refusals, run as a user runs them.

use std::process::Command;

/// Runs `kalah tune ARGS`, which must fail with status 2 and one line; returns that line.
fn refused(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_kalah")).arg("tune").args(args).output().expect("kalah starts");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
    stderr
}

#[test]
fn a_refused_margin_is_echoed_as_typed() {
    // As a float this rounds to 50, which the message must not show instead of what was typed.
    for text in ["49.9999999999999999999", "50", "-1", "nan", "inf", "three", ""] {
        let message = refused(&["--margin", text]);
        assert!(message.contains(&format!("--margin {text} is out of range")), "{text}: {message}");
        assert!(message.contains("from 0 to below 50"), "{message}");
    }
}

#[test]
fn threads_are_bounded() {
    for text in ["0", "65"] {
        let message = refused(&["--threads", text]);
        assert!(message.contains("1 to 64"), "{message}");
    }
}
