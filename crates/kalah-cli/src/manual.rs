//! `kalah man`: manual pages in roff, generated from the same argument definitions as the parser.
//!
//! `kalah man` prints the page of `kalah` itself, `kalah man play` (or `kalah man egdb build`) the
//! page of one command, and `kalah man --dir DIR` writes every page into a folder, named as `man`
//! looks them up: `kalah.1`, `kalah-play.1`, `kalah-egdb-build.1`, …

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::Args;
use clap_mangen::Man;

use crate::error::bad;
use crate::files::{self, Kind};

/// Flags of `kalah man`.
#[derive(Args, Debug)]
pub struct ManArgs {
    /// The command whose page to print, e.g. `play` or `egdb build` [default: kalah itself]
    #[arg(value_name = "COMMAND", conflicts_with = "dir")]
    pub command: Vec<String>,
    /// Write the page of kalah and of every command into this folder instead (it must exist)
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// Prints one page, or writes them all.
pub fn run(args: ManArgs, command: clap::Command) -> Result<()> {
    // Building names each subcommand as man expects (`kalah-play`) and adds the help flags.
    let mut command = command.disable_help_subcommand(true);
    command.build();
    if let Some(dir) = args.dir {
        return write_all(&command, &dir);
    }
    let mut page = &command;
    for (depth, name) in args.command.iter().enumerate() {
        page = page.find_subcommand(name).ok_or_else(|| {
            let known: Vec<&str> = page.get_subcommands().map(clap::Command::get_name).collect();
            let under = args.command[..depth].join(" ");
            let whose = if under.is_empty() { "kalah".to_string() } else { format!("kalah {under}") };
            bad(format!("{whose} has no command {name:?}; its commands are {}", known.join(", ")))
        })?;
    }
    let text = render(page)?;
    let mut out = std::io::stdout().lock();
    out.write_all(&text).and_then(|()| out.flush()).context("cannot write the manual page")
}

/// Returns the roff text of one command's page.
fn render(command: &clap::Command) -> Result<Vec<u8>> {
    let mut text = Vec::new();
    // Every page names the program and its version, not the command's own name ("build 0.1.0").
    let source = format!("kalah {}", env!("CARGO_PKG_VERSION"));
    Man::new(command.clone()).source(source).render(&mut text).context("cannot render the manual page")?;
    Ok(text)
}

/// Writes the page of `command` and of each of its subcommands into `dir`, each atomically.
fn write_all(command: &clap::Command, dir: &Path) -> Result<()> {
    if !dir.is_dir() {
        return Err(bad(format!("{} is not a folder: give an existing folder for the pages", dir.display())));
    }
    let mut pages = Vec::new();
    collect(command, &mut pages);
    const ADVICE: &str = "remove it or choose another folder";
    // Check every name first, so that a refusal leaves the folder as it was.
    for page in &pages {
        let recognise = |head: &[u8]| is_page_of(head, page);
        let kind = Kind { name: "a page kalah wrote", recognise: Some(&recognise) };
        files::check(&dir.join(file_name(page)), &kind).map_err(|e| e.into_error(ADVICE))?;
    }
    let mut out = std::io::stdout().lock();
    for page in &pages {
        let path = dir.join(file_name(page));
        let recognise = |head: &[u8]| is_page_of(head, page);
        let kind = Kind { name: "a page kalah wrote", recognise: Some(&recognise) };
        files::replace(&path, &kind, &render(page)?).map_err(|e| e.into_error(ADVICE))?;
        writeln!(out, "{}", path.display())?;
    }
    out.flush()?;
    Ok(())
}

/// Gathers a command and its subcommands, depth first.
fn collect<'a>(command: &'a clap::Command, pages: &mut Vec<&'a clap::Command>) {
    pages.push(command);
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        collect(sub, pages);
    }
}

/// The name `man` looks a page up by: `kalah-play` for `kalah play`.
fn page_name(command: &clap::Command) -> &str {
    command.get_display_name().unwrap_or_else(|| command.get_name())
}

/// The page's file: its name in section 1.
fn file_name(command: &clap::Command) -> String {
    format!("{}.1", page_name(command))
}

/// Tells whether a file's first bytes are this command's page as kalah writes it (so replacing
/// it loses nothing the user wrote): its title line is among the first four.
fn is_page_of(head: &[u8], command: &clap::Command) -> bool {
    let title = format!(".TH {} 1 ", page_name(command));
    String::from_utf8_lossy(head).lines().take(4).any(|line| line.starts_with(&title))
}
