//! `kalah completions SHELL` prints a script the shell accepts, naming every command.

use std::process::{Command, Output};

fn kalah(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kalah")).args(args).output().expect("the kalah binary starts")
}

fn script(shell: &str) -> String {
    let output = kalah(&["completions", shell]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).expect("a script is text")
}

#[test]
fn the_bash_script_is_valid_bash_and_knows_the_commands() {
    let text = script("bash");
    for command in ["play", "serve", "analyze", "solve", "kgp", "mkagent", "completions", "man"] {
        assert!(text.contains(command), "{command} missing");
    }
    assert!(text.contains("--engine-time"), "serve's flags are completed");
    let path = tempfile::NamedTempFile::new().expect("a temporary file");
    std::fs::write(path.path(), &text).expect("the script is written");
    let checked = Command::new("bash").arg("-n").arg(path.path()).output().expect("bash runs");
    assert!(checked.status.success(), "bash -n: {}", String::from_utf8_lossy(&checked.stderr));
}

#[test]
fn zsh_fish_elvish_and_powershell_get_their_own_scripts() {
    assert!(script("zsh").starts_with("#compdef kalah"));
    assert!(script("fish").contains("complete -c kalah"));
    assert!(script("elvish").contains("edit:completion:arg-completer[kalah]"));
    assert!(script("powershell").contains("Register-ArgumentCompleter"));
}

#[test]
fn an_unknown_shell_is_refused_with_the_choices() {
    let output = kalah(&["completions", "tcsh"]);
    assert_eq!(output.status.code(), Some(2));
    let message = String::from_utf8_lossy(&output.stderr);
    assert!(message.contains("tcsh") && message.contains("bash") && message.contains("zsh"), "{message}");
}
