//! `kalah man` prints roff pages that `man` renders, and `--dir` writes them all without
//! replacing a file it did not write.

use std::path::Path;
use std::process::{Command, Output, Stdio};

fn kalah(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kalah")).args(args).output().expect("the kalah binary starts")
}

fn page(args: &[&str]) -> String {
    let mut all = vec!["man"];
    all.extend_from_slice(args);
    let output = kalah(&all);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).expect("a page is text")
}

/// The page's `.TH` line.
fn title(page: &str) -> &str {
    page.lines().find(|l| l.starts_with(".TH ")).expect("a page has a .TH line")
}

#[test]
fn the_pages_are_roff_with_their_titles() {
    let main = page(&[]);
    assert!(title(&main).starts_with(".TH kalah 1 "), "{}", title(&main));
    assert!(title(&main).contains("kalah 0."), "the source names the program and version: {}", title(&main));
    assert!(main.contains("kalah\\-play(1)"), "the main page lists the commands' pages");
    let play = page(&["play"]);
    assert!(title(&play).starts_with(".TH kalah-play 1 "), "{}", title(&play));
    assert!(play.contains("\\-\\-south"));
    let build = page(&["egdb", "build"]);
    assert!(title(&build).starts_with(".TH kalah-egdb-build 1 "), "{}", title(&build));
}

#[test]
fn man_renders_the_page_when_it_is_installed() {
    let Ok(mut man) = Command::new("man")
        .args(["-l", "-"])
        .env("MANWIDTH", "100")
        .env("MANPAGER", "cat")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    else {
        // No man on this machine: the roff is checked by the test above.
        return;
    };
    use std::io::Write;
    man.stdin.take().expect("piped").write_all(page(&["solve"]).as_bytes()).expect("man reads the page");
    let output = man.wait_with_output().expect("man ends");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(text.contains("kalah-solve") && text.contains("--checkpoint"), "{text}");
}

#[test]
fn an_unknown_command_is_refused_with_the_commands() {
    let output = kalah(&["man", "egdb", "nope"]);
    assert_eq!(output.status.code(), Some(2));
    let message = String::from_utf8_lossy(&output.stderr);
    assert!(
        message.contains("kalah egdb has no command \"nope\"") && message.contains("build, info, probe"),
        "{message}"
    );
}

#[test]
fn dir_writes_every_page_and_replaces_only_its_own() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let d = dir.path().to_str().expect("a UTF-8 path");
    let output = kalah(&["man", "--dir", d]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    for name in ["kalah.1", "kalah-play.1", "kalah-serve.1", "kalah-egdb-build.1", "kalah-man.1"] {
        assert!(dir.path().join(name).is_file(), "{name} missing");
    }
    assert!(!dir.path().join("kalah-help.1").exists(), "no page for the help command");
    // Its own pages are replaced on a second run.
    assert!(kalah(&["man", "--dir", d]).status.success());
    // A file it did not write is kept, and nothing is written.
    let foreign = dir.path().join("kalah-play.1");
    std::fs::write(&foreign, "my own notes\n").expect("a file of the user's");
    std::fs::remove_file(dir.path().join("kalah.1")).expect("kalah.1 removed");
    let output = kalah(&["man", "--dir", d]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("is not a page kalah wrote"));
    assert_eq!(std::fs::read_to_string(&foreign).expect("still there"), "my own notes\n");
    assert!(!Path::new(&dir.path().join("kalah.1")).exists(), "a refusal writes nothing");
    // A folder that does not exist is refused.
    let output = kalah(&["man", "--dir", &format!("{d}/missing")]);
    assert_eq!(output.status.code(), Some(2));
}
