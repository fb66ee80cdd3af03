//! The commands of README.md, CONTRIBUTING.md and docs/ run as written and print what the pages
//! say they print.
//!
//! How a page marks its commands (CONTRIBUTING.md tells writers the same):
//!
//! * A ```` ```console ```` block is run. Each `$ ` line is a command (a line ending in `\` goes on
//!   to the next, which may start with `> `); the lines under it, up to the next command, are what it prints, standard output
//!   and standard error together. `...` alone on a line stands for any number of lines and `[..]`
//!   for any text within a line. A command with no lines under it is checked for its exit status
//!   alone, which must be 0 unless its last line is `[exit status: N]`. A block runs in a fresh
//!   empty folder with this build's `kalah` first on the PATH, a cache folder of its own (so no
//!   endgame database of the machine is used), nothing on standard input, and a time limit.
//! * A block whose first command is `kalah serve` keeps the server running while the block's other
//!   commands run (`curl` against it); the page is fetched once, then the server gets Ctrl-C and
//!   must stop with status 0.
//! * A block whose first command is `kalah kgp serve` keeps that server running, once it prints
//!   that it listens, while the block's other commands run (their `kalah kgp` clients play on
//!   it); then it gets Ctrl-C and must stop with status 0.
//! * Before a `kalah kgp` command the checker starts a KGP server of its own on loopback, at the
//!   port the command names (2671 by default): it greets, accepts the mode, sends one board (a
//!   `problem` in verify mode), waits for the answer, stops the search and says goodbye. Such a
//!   command must name a loopback host (or none) and use `--once`.
//! * Any other fenced block is shown, not run. One that shows a `kalah` command must come right
//!   after a line `<!-- not run: REASON -->`, so that every exception is deliberate and says why.
//! * Inline code that is a whole `kalah` command (no placeholder in capitals such as `N` or
//!   `POSITION`, no shell operator) is parsed: with `--help` added it must exit with status 0,
//!   which the argument parser does only when every flag and value before `--help` is accepted.
//!
//! Every relative link of these pages and of CHANGELOG.md must name a file that exists.

#![cfg(unix)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The longest a documented command may take (the machine may be busy; the examples take seconds).
const LIMIT: Duration = Duration::from_secs(300);

/// The board the checker's KGP server sends: the Kalah(6,6) start.
const KGP_BOARD: &str = "<6,0,0,6,6,6,6,6,6,6,6,6,6,6,6>";

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The pages checked: the README, CONTRIBUTING.md and every page of docs/.
fn pages() -> Vec<PathBuf> {
    let root = root();
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/ is there")
        .map(|entry| entry.expect("docs/ reads").path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    let mut pages = vec![root.join("README.md"), root.join("CONTRIBUTING.md")];
    pages.extend(docs);
    pages
}

/// One command of a console block and what it should print.
#[derive(Debug)]
struct Step {
    line: usize,
    command: String,
    expected: Vec<String>,
    status: i32,
}

/// What a page holds that the checker looks at.
#[derive(Debug)]
enum Item {
    /// A ```console block: run.
    Console(Vec<Step>),
    /// Another fenced block that shows a `kalah` command, and the reason it is not run, if given.
    Shown { line: usize, reason: Option<String> },
    /// Inline code that is a whole `kalah` command.
    Inline { line: usize, words: Vec<String> },
}

/// Counts of what was checked, for the summary line.
#[derive(Debug, Default)]
struct Tally {
    pages: usize,
    blocks: usize,
    commands: usize,
    shown: usize,
    inline: usize,
}

/// Reads a page into the items the checker looks at; a malformed console block is a failure.
fn parse(text: &str, failures: &mut Vec<String>, file: &str) -> Vec<Item> {
    let lines: Vec<&str> = text.lines().collect();
    let mut items = Vec::new();
    let mut i = 0;
    let mut before = ""; // the last non-blank line before the current one
    let mut paragraph: Vec<(usize, &str)> = Vec::new(); // lines of prose, for code spans across lines
    while i < lines.len() {
        let line = lines[i];
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || line.trim().is_empty() {
            inline_commands(&paragraph, &mut items);
            paragraph.clear();
        }
        if let Some(info) = trimmed.strip_prefix("```") {
            let info = info.trim().to_string();
            let start = i + 1;
            let mut end = start;
            while end < lines.len() && lines[end].trim() != "```" {
                end += 1;
            }
            let body = &lines[start..end.min(lines.len())];
            if info == "console" {
                match console_steps(body, start + 1) {
                    Ok(steps) => items.push(Item::Console(steps)),
                    Err(why) => failures.push(format!("{file}:{start}: {why}")),
                }
            } else if body.iter().any(|l| shows_command(l)) {
                let reason = before
                    .trim()
                    .strip_prefix("<!-- not run:")
                    .and_then(|r| r.strip_suffix("-->"))
                    .map(|r| r.trim().to_string())
                    .filter(|r| !r.is_empty());
                items.push(Item::Shown { line: start, reason });
            }
            i = end + 1;
            before = "";
            continue;
        }
        if !line.trim().is_empty() {
            paragraph.push((i + 1, line));
            before = line;
        }
        i += 1;
    }
    inline_commands(&paragraph, &mut items);
    items
}

/// Finds the inline commands of a paragraph, whose code spans may run across its lines.
fn inline_commands(paragraph: &[(usize, &str)], items: &mut Vec<Item>) {
    let mut in_code = false;
    let mut span = String::new();
    let mut start = 0;
    for &(number, line) in paragraph {
        for (k, piece) in line.split('`').enumerate() {
            if k > 0 {
                if in_code {
                    if let Some(words) = inline_command(&span) {
                        items.push(Item::Inline { line: start, words });
                    }
                    span.clear();
                } else {
                    start = number;
                }
                in_code = !in_code;
            }
            if in_code {
                if k == 0 {
                    span.push(' ');
                }
                span.push_str(piece);
            }
        }
    }
}

/// Splits a console block into commands and what each prints. `first` is the line number of the
/// block's first line.
fn console_steps(body: &[&str], first: usize) -> Result<Vec<Step>, String> {
    let mut steps: Vec<Step> = Vec::new();
    let mut continued = false;
    for (k, line) in body.iter().enumerate() {
        if continued {
            let step = steps.last_mut().expect("a continued line follows a command");
            step.command.push('\n');
            step.command.push_str(line.strip_prefix("> ").unwrap_or(line));
            continued = line.ends_with('\\');
        } else if let Some(command) = line.strip_prefix("$ ") {
            steps.push(Step { line: first + k, command: command.to_string(), expected: Vec::new(), status: 0 });
            continued = command.ends_with('\\');
        } else if let Some(step) = steps.last_mut() {
            step.expected.push(line.trim_end().to_string());
        } else {
            return Err(format!("a console block must start with a `$ ` command, not {line:?}"));
        }
    }
    if steps.is_empty() {
        return Err("an empty console block".into());
    }
    for step in &mut steps {
        while step.expected.last().is_some_and(|l| l.is_empty()) {
            step.expected.pop();
        }
        if let Some(status) = step
            .expected
            .last()
            .and_then(|l| l.strip_prefix("[exit status: "))
            .and_then(|l| l.strip_suffix(']'))
            .map(|n| n.parse::<i32>().map_err(|_| format!("bad exit status line in {:?}", step.command)))
        {
            step.status = status?;
            step.expected.pop();
        }
    }
    Ok(steps)
}

/// Tells whether a line of a shown block is a `kalah` command (and not output such as
/// `kalah serve: play at …`).
fn shows_command(line: &str) -> bool {
    let line = line.trim_start();
    let line = line.strip_prefix("$ ").unwrap_or(line);
    let mut words = line.split_whitespace();
    // Output names its command before a colon: `kalah serve: …`, `kalah kgp serve: …`.
    words.next() == Some("kalah") && words.take(2).all(|w| !w.ends_with(':'))
}

/// Returns the words of inline code that is a whole `kalah` command, or `None` for anything else
/// (prose, a synopsis with placeholders, a pipeline).
fn inline_command(span: &str) -> Option<Vec<String>> {
    if (span != "kalah" && !span.starts_with("kalah "))
        || span.split_whitespace().nth(1).is_some_and(|w| w.ends_with(':'))
    {
        return None;
    }
    if span.contains(['|', '>', '<', ';', '&', '$', '[', ']', '…', '{', '}', '*', '(', ')']) || span.contains("...") {
        return None;
    }
    let words = split_words(span)?;
    let placeholder = |word: &str| {
        let value = word.rsplit('=').next().unwrap_or(word);
        value.chars().any(|c| c.is_ascii_uppercase())
            && value.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || "_,:+.-".contains(c))
    };
    if words.iter().any(|w| placeholder(w)) {
        return None;
    }
    Some(words)
}

/// Splits a command into words as the shell does for plain words and quotes; `None` when a quote
/// is left open.
fn split_words(text: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' | '"' => {
                in_word = true;
                loop {
                    match chars.next()? {
                        q if q == c => break,
                        '\\' if c == '"' => word.push(chars.next()?),
                        other => word.push(other),
                    }
                }
            }
            '\\' => {
                in_word = true;
                word.push(chars.next()?);
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Some(words)
}

/// Tells whether `actual` (lines) is what `expected` describes, with `...` lines and `[..]`.
fn matches(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first == "..." => (0..=actual.len()).any(|skip| matches(rest, &actual[skip..])),
        Some((first, rest)) => {
            actual.split_first().is_some_and(|(line, others)| line_matches(first, line) && matches(rest, others))
        }
    }
}

/// Tells whether one line matches a pattern where `[..]` stands for any text.
fn line_matches(pattern: &str, line: &str) -> bool {
    let pieces: Vec<&str> = pattern.split("[..]").collect();
    let (head, tail) = (pieces[0], pieces[pieces.len() - 1]);
    if pieces.len() == 1 {
        return pattern == line;
    }
    if line.len() < head.len() + tail.len() || !line.starts_with(head) || !line.ends_with(tail) {
        return false;
    }
    let mut rest = &line[head.len()..line.len() - tail.len()];
    for piece in &pieces[1..pieces.len() - 1] {
        match rest.find(piece) {
            Some(at) => rest = &rest[at + piece.len()..],
            None => return false,
        }
    }
    true
}

/// The output's lines as compared: trailing spaces and trailing blank lines dropped.
fn output_lines(output: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = output.lines().map(str::trim_end).collect();
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
}

/// A fresh folder for a block: `work` where its commands run, and a home and cache of its own.
struct Sandbox {
    _dir: tempfile::TempDir,
    work: PathBuf,
    home: PathBuf,
}

impl Sandbox {
    fn new() -> Sandbox {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let work = dir.path().join("work");
        let home = dir.path().join("home");
        std::fs::create_dir_all(&work).expect("the work folder");
        std::fs::create_dir_all(&home).expect("the home folder");
        Sandbox { _dir: dir, work, home }
    }

    /// A shell running `script` in the work folder, standard error into standard output, in a
    /// process group of its own (so a timeout can end its whole pipeline).
    fn shell(&self, script: &str) -> Command {
        let bin = Path::new(env!("CARGO_BIN_EXE_kalah")).parent().expect("the binary's folder").to_path_buf();
        let path = std::env::join_paths(
            std::iter::once(bin).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())),
        )
        .expect("a PATH");
        let mut command = Command::new("sh");
        command
            .arg("-c")
            .arg(format!("exec 2>&1\n{script}"))
            .current_dir(&self.work)
            .env("PATH", path)
            .env("HOME", &self.home)
            .env("XDG_CACHE_HOME", self.home.join(".cache"))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .process_group(0);
        command
    }
}

/// Sends a signal to a process group, through `kill(1)` (the tests use no libc).
fn signal(child: &Child, name: &str) {
    let _ = Command::new("kill").arg(format!("-{name}")).arg("--").arg(format!("-{}", child.id())).status();
}

/// Reads a child's standard output line by line on a thread of its own.
fn lines_of(child: &mut Child) -> mpsc::Receiver<String> {
    let stdout = child.stdout.take().expect("standard output is piped");
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if send.send(line).is_err() {
                break;
            }
        }
    });
    receive
}

/// Waits for a child until `deadline`; on timeout ends its process group and says so.
fn wait_until(child: &mut Child, deadline: Instant) -> Result<i32, String> {
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                return status.code().ok_or_else(|| format!("ended by a signal ({status})"));
            }
            Ok(None) if Instant::now() >= deadline => {
                signal(child, "KILL");
                let _ = child.wait();
                return Err(format!("still running after {} s; stopped", LIMIT.as_secs()));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(format!("cannot wait for it: {e}")),
        }
    }
}

/// Runs one command to its end and returns its output and exit status.
fn run(sandbox: &Sandbox, command: &str) -> Result<(String, i32), String> {
    let mut child = sandbox.shell(command).spawn().map_err(|e| format!("sh does not start: {e}"))?;
    let lines = lines_of(&mut child);
    let status = wait_until(&mut child, Instant::now() + LIMIT);
    let output: Vec<String> = lines.iter().collect();
    Ok((output.join("\n"), status?))
}

/// Compares what a command printed and its status with what the page says.
fn verdict(file: &str, step: &Step, output: &str, status: i32) -> Option<String> {
    let actual = output_lines(output);
    let printed_ok = step.expected.is_empty() || matches(&step.expected, &actual);
    if printed_ok && status == step.status {
        return None;
    }
    let mut why = format!("{file}:{}: `{}`", step.line, step.command);
    if status != step.status {
        why += &format!(" exited with status {status}, not {}", step.status);
    }
    if !printed_ok {
        why += &format!("\n--- the page says:\n{}\n--- it printed:", step.expected.join("\n"));
    } else {
        why += "\n--- it printed:";
    }
    let shown: Vec<&str> = actual.iter().copied().take(60).collect();
    why += &format!("\n{}", shown.join("\n"));
    if actual.len() > shown.len() {
        why += &format!("\n[{} lines more]", actual.len() - shown.len());
    }
    Some(why)
}

/// The words of a `kalah kgp` client command after `kgp`, or `None` for another command (the
/// server's `kalah kgp serve`, `tournament`, `games`, `record`, `standings` and `report` too).
fn kgp_words(command: &str) -> Option<Vec<String>> {
    let words = split_words(command)?;
    let server_side = words
        .get(2)
        .is_some_and(|w| matches!(w.as_str(), "serve" | "tournament" | "games" | "record" | "standings" | "report"));
    (words.len() >= 2 && words[0] == "kalah" && words[1] == "kgp" && !server_side).then(|| words[2..].to_vec())
}

/// Finds the loopback port a `kalah kgp` command connects to.
fn kgp_port(words: &[String]) -> Result<u16, String> {
    const SWITCHES: &[&str] = &["--once", "--verbose", "-v", "--no-egdb"];
    if !words.iter().any(|w| w == "--once") {
        return Err("a kgp command that the checker runs must use --once".into());
    }
    let mut host = None;
    let mut takes_value = false;
    for word in words {
        if takes_value {
            takes_value = false;
        } else if word.starts_with('-') {
            takes_value = !SWITCHES.contains(&word.as_str()) && !word.contains('=');
        } else {
            host = Some(word.as_str());
        }
    }
    let host = host.unwrap_or("localhost");
    let (name, port) = match host.rsplit_once(':') {
        Some((name, port)) => (name, port.parse().map_err(|_| format!("bad port in {host:?}"))?),
        None => (host, 2671),
    };
    if name != "localhost" && name != "127.0.0.1" {
        return Err(format!("a kgp command that the checker runs must connect to loopback, not {name:?}"));
    }
    Ok(port)
}

/// A KGP server for one connection on 127.0.0.1:`port`: greets, accepts the mode, sends one board,
/// waits for the answer, stops the search and says goodbye. Returns what went wrong, if anything.
fn kgp_server(port: u16) -> Result<JoinHandle<Result<(), String>>, String> {
    let listener = TcpListener::bind(("127.0.0.1", port))
        .map_err(|e| format!("the checker's KGP server cannot listen on {port}: {e}"))?;
    Ok(std::thread::spawn(move || {
        listener.set_nonblocking(true).map_err(|e| e.to_string())?;
        let deadline = Instant::now() + LIMIT;
        let stream = loop {
            match listener.accept() {
                Ok((stream, _)) => break stream,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock && Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(20));
                }
                Err(e) => return Err(format!("no client connected to the KGP server: {e}")),
            }
        };
        stream.set_nonblocking(false).map_err(|e| e.to_string())?;
        stream.set_read_timeout(Some(LIMIT)).map_err(|e| e.to_string())?;
        let mut out = stream.try_clone().map_err(|e| e.to_string())?;
        let mut input = BufReader::new(stream);
        let mut say = |line: &str| out.write_all(format!("{line}\r\n").as_bytes()).map_err(|e| e.to_string());
        // Reads lines until one whose command (after its id) is `word`; returns that line.
        let mut wait_for = |word: &str| -> Result<String, String> {
            loop {
                let mut line = String::new();
                if input.read_line(&mut line).map_err(|e| e.to_string())? == 0 {
                    return Err(format!("the client closed the connection before sending {word}"));
                }
                let mut parts = line.split_whitespace();
                if parts.next().is_some() && parts.next() == Some(word) {
                    return Ok(line.trim_end().to_string());
                }
            }
        };
        say("kgp 1 0 1")?;
        let mode_line = wait_for("mode")?;
        let id = mode_line.split_whitespace().next().unwrap_or("0").to_string();
        let mode = mode_line.split_whitespace().nth(2).unwrap_or("").to_string();
        say(&format!("2@{id} ok"))?;
        match mode.as_str() {
            "freeplay" => {
                say(&format!("4 state {KGP_BOARD}"))?;
                wait_for("yield")?;
                say("6@4 stop")?;
            }
            "eval" => {
                say(&format!("4 state {KGP_BOARD}"))?;
                wait_for("eval")?;
                say("6@4 stop")?;
            }
            "verify" => {
                say(&format!("4 problem {KGP_BOARD} 0"))?;
                wait_for("solution")?;
            }
            other => return Err(format!("the client asked for mode {other:?}")),
        }
        say("goodbye")?;
        // Read what the client still sends until it closes: closing a socket with unread lines
        // in it resets the connection, and the client could lose the goodbye.
        let mut rest = Vec::new();
        let _ = input.read_to_end(&mut rest);
        Ok(())
    }))
}

/// Runs a block whose first command is `kalah kgp serve`: the server stays up, once it listens,
/// while the other commands run (their `kalah kgp` clients connect to it), then gets Ctrl-C.
fn kgp_serve_block(file: &str, steps: &[Step], sandbox: &Sandbox, failures: &mut Vec<String>, tally: &mut Tally) {
    let server = &steps[0];
    tally.commands += 1;
    let mut child = match sandbox.shell(&format!("exec {}", server.command)).spawn() {
        Ok(child) => child,
        Err(e) => return failures.push(format!("{file}:{}: sh does not start: {e}", server.line)),
    };
    let lines = lines_of(&mut child);
    let mut printed = Vec::new();
    loop {
        match lines.recv_timeout(LIMIT) {
            Ok(line) => {
                let listening = line.contains("listening for KGP over");
                printed.push(line);
                if listening {
                    break;
                }
            }
            Err(_) => {
                signal(&child, "KILL");
                let _ = child.wait();
                return failures
                    .push(format!("{file}:{}: `{}` printed no listening line", server.line, server.command));
            }
        }
    }
    for step in &steps[1..] {
        step_block_with(file, step, sandbox, failures, tally, false);
    }
    signal(&child, "INT");
    let status = wait_until(&mut child, Instant::now() + Duration::from_secs(30));
    printed.extend(lines.iter());
    match status {
        Ok(status) => failures.extend(verdict(file, server, &printed.join("\n"), status)),
        Err(e) => failures.push(format!("{file}:{}: `{}` did not stop at Ctrl-C: {e}", server.line, server.command)),
    }
}

/// Runs a block whose first command is `kalah serve`: the server stays up for the other commands.
fn serve_block(file: &str, steps: &[Step], sandbox: &Sandbox, failures: &mut Vec<String>, tally: &mut Tally) {
    let server = &steps[0];
    tally.commands += 1;
    let mut child = match sandbox.shell(&format!("exec {}", server.command)).spawn() {
        Ok(child) => child,
        Err(e) => return failures.push(format!("{file}:{}: sh does not start: {e}", server.line)),
    };
    let lines = lines_of(&mut child);
    let mut printed = Vec::new();
    match lines.recv_timeout(LIMIT) {
        Ok(line) => printed.push(line),
        Err(_) => {
            signal(&child, "KILL");
            let _ = child.wait();
            return failures.push(format!("{file}:{}: `{}` printed no address", server.line, server.command));
        }
    }
    let address = printed[0]
        .split_whitespace()
        .find_map(|w| w.strip_prefix("http://"))
        .map(|a| a.trim_end_matches('/').to_string());
    match address.as_deref().map(|a| fetch(a, "/")) {
        Some(Ok(page)) if page.starts_with("HTTP/1.1 200") && page.contains("<html") => {}
        Some(Ok(page)) => failures.push(format!(
            "{file}:{}: the page of `{}` is not HTML: {}",
            server.line,
            server.command,
            page.lines().next().unwrap_or("")
        )),
        Some(Err(e)) => {
            failures.push(format!("{file}:{}: cannot fetch the page of `{}`: {e}", server.line, server.command))
        }
        None => failures.push(format!("{file}:{}: no address in {:?}", server.line, printed[0])),
    }
    for step in &steps[1..] {
        step_block(file, step, sandbox, failures, tally);
    }
    signal(&child, "INT");
    let status = wait_until(&mut child, Instant::now() + Duration::from_secs(30));
    printed.extend(lines.iter());
    match status {
        Ok(status) => failures.extend(verdict(file, server, &printed.join("\n"), status)),
        Err(e) => failures.push(format!("{file}:{}: `{}` did not stop at Ctrl-C: {e}", server.line, server.command)),
    }
}

/// Sends `GET path` to a server and returns the whole answer.
fn fetch(address: &str, path: &str) -> Result<String, String> {
    let mut stream = TcpStream::connect(address).map_err(|e| e.to_string())?;
    stream.set_read_timeout(Some(Duration::from_secs(30))).map_err(|e| e.to_string())?;
    write!(stream, "GET {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n").map_err(|e| e.to_string())?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer).map_err(|e| e.to_string())?;
    Ok(answer)
}

/// Runs one command of a console block (with a KGP server first when it needs one) and checks it.
fn step_block(file: &str, step: &Step, sandbox: &Sandbox, failures: &mut Vec<String>, tally: &mut Tally) {
    step_block_with(file, step, sandbox, failures, tally, true);
}

/// Runs one command of a console block, with the checker's KGP server first if `checker_kgp` and
/// the command needs one (in a `kalah kgp serve` block the block's own server answers).
fn step_block_with(
    file: &str,
    step: &Step,
    sandbox: &Sandbox,
    failures: &mut Vec<String>,
    tally: &mut Tally,
    checker_kgp: bool,
) {
    tally.commands += 1;
    let words = kgp_words(&step.command).filter(|_| checker_kgp);
    let server = match words.map(|words| kgp_port(&words).and_then(kgp_server)) {
        None => None,
        Some(Ok(server)) => Some(server),
        Some(Err(e)) => return failures.push(format!("{file}:{}: `{}`: {e}", step.line, step.command)),
    };
    match run(sandbox, &step.command) {
        Ok((output, status)) => failures.extend(verdict(file, step, &output, status)),
        Err(e) => failures.push(format!("{file}:{}: `{}`: {e}", step.line, step.command)),
    }
    if let Some(server) = server {
        match server.join() {
            Ok(Ok(())) => {}
            Ok(Err(e)) => failures.push(format!("{file}:{}: `{}`: {e}", step.line, step.command)),
            Err(_) => failures.push(format!("{file}:{}: the checker's KGP server panicked", step.line)),
        }
    }
}

/// Checks `kalah ARGS --help` exits with status 0: every flag and value of ARGS parses.
fn parses(words: &[String]) -> Result<(), String> {
    let sandbox = Sandbox::new();
    let output = Command::new(env!("CARGO_BIN_EXE_kalah"))
        .args(&words[1..])
        .arg("--help")
        .current_dir(&sandbox.work)
        .env("HOME", &sandbox.home)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("kalah does not start: {e}"))?;
    if output.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&output.stderr).lines().next().unwrap_or("no message").to_string())
    }
}

/// Checks one page and returns its failures.
fn check_page(file: &str, text: &str, tally: &mut Tally) -> Vec<String> {
    let mut failures = Vec::new();
    tally.pages += 1;
    for item in parse(text, &mut failures, file) {
        match item {
            Item::Console(steps) => {
                tally.blocks += 1;
                let sandbox = Sandbox::new();
                let first = split_words(&steps[0].command).unwrap_or_default();
                if first.len() >= 2 && first[0] == "kalah" && first[1] == "serve" {
                    serve_block(file, &steps, &sandbox, &mut failures, tally);
                } else if first.len() >= 3 && first[..3] == ["kalah", "kgp", "serve"] {
                    kgp_serve_block(file, &steps, &sandbox, &mut failures, tally);
                } else {
                    for step in &steps {
                        step_block(file, step, &sandbox, &mut failures, tally);
                    }
                }
            }
            Item::Shown { line, reason } => {
                tally.shown += 1;
                if reason.is_none() {
                    failures.push(format!(
                        "{file}:{line}: a block that shows a kalah command is either a ```console block (run) \
                         or follows a line <!-- not run: REASON -->"
                    ));
                }
            }
            Item::Inline { line, words } => {
                tally.inline += 1;
                if let Err(e) = parses(&words) {
                    failures.push(format!("{file}:{line}: `{}` does not parse: {e}", words.join(" ")));
                }
            }
        }
    }
    failures
}

#[test]
fn every_documented_command_runs_as_written() {
    let mut tally = Tally::default();
    let mut failures = Vec::new();
    for path in pages() {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let file = path.strip_prefix(root()).unwrap_or(&path).display().to_string();
        failures.extend(check_page(&file, &text, &mut tally));
    }
    println!(
        "docs: {} pages, {} commands run in {} console blocks, {} inline commands parsed, {} blocks shown and not run",
        tally.pages, tally.commands, tally.blocks, tally.inline, tally.shown
    );
    assert!(tally.commands > 0 && tally.inline > 0, "the pages hold no commands: is the checker reading them?");
    assert!(failures.is_empty(), "{} failures:\n\n{}", failures.len(), failures.join("\n\n"));
}

/// Returns the relative link targets of a page (`](target)`, without any `#anchor`) and their lines.
fn relative_links(text: &str) -> Vec<(usize, String)> {
    let mut links = Vec::new();
    for (i, line) in text.lines().enumerate() {
        for rest in line.match_indices("](").map(|(at, _)| &line[at + 2..]) {
            let Some(end) = rest.find(')') else { continue };
            let target = &rest[..end];
            let path = target.split('#').next().unwrap_or("");
            if !path.is_empty() && !path.contains("://") && !path.starts_with("mailto:") {
                links.push((i + 1, path.to_string()));
            }
        }
    }
    links
}

#[test]
fn every_relative_link_names_a_file() {
    let mut broken = Vec::new();
    let mut pages = pages();
    pages.push(root().join("CHANGELOG.md"));
    for path in pages {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let dir = path.parent().expect("a page is in a folder");
        for (line, target) in relative_links(&text) {
            if !dir.join(&target).exists() {
                broken.push(format!("{}:{line}: {target}", path.display()));
            }
        }
    }
    assert!(broken.is_empty(), "links to nothing:\n{}", broken.join("\n"));
    assert_eq!(
        relative_links("see [a](docs/a.md#x), [b](https://b.org) and [c](c.md)"),
        [(1, "docs/a.md".to_string()), (1, "c.md".to_string())]
    );
}

#[test]
fn a_page_with_wrong_commands_fails() {
    let page = "\
```console
$ kalah perft 2 --size 4,3
99
```

```console
$ kalah perft 2 --size 13,3
```

```sh
kalah play --north human
```

Prose with `kalah perft 3 --no-such-flag` in it.
";
    let mut tally = Tally::default();
    let failures = check_page("wrong.md", page, &mut tally);
    assert_eq!(failures.len(), 4, "{failures:#?}");
    assert!(failures[0].contains("wrong.md:2:") && failures[0].contains("--- the page says:\n99"), "{}", failures[0]);
    assert!(failures[1].contains("exited with status 2, not 0"), "{}", failures[1]);
    assert!(failures[2].contains("<!-- not run: REASON -->"), "{}", failures[2]);
    assert!(failures[3].contains("does not parse"), "{}", failures[3]);
}

#[test]
fn a_page_with_right_commands_passes() {
    let page = "\
```console
$ kalah perft 2 --size 4,3
[..]
$ kalah perft 2 --size 13,3
...
[exit status: 2]
$ printf 'quit\\n' | kalah play --size 2,1 \\
>   --depth 1
...
```

<!-- not run: it waits for a person -->
```sh
kalah play --north human
```

Prose with `kalah perft 3 --size 4,3`, a synopsis `kalah perft DEPTH` and `kalah serve: play at` output.
";
    let mut tally = Tally::default();
    let failures = check_page("right.md", page, &mut tally);
    assert_eq!(failures, Vec::<String>::new());
    assert_eq!((tally.commands, tally.inline, tally.shown), (3, 1, 1));
}

#[test]
fn patterns_match_lines_and_runs_of_lines() {
    let lines = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(line_matches("nodes: [..], [..] s", "nodes: 9032, 0.003 s"));
    assert!(!line_matches("nodes: [..], [..] s", "nodes: 9032 0.003 s"));
    assert!(line_matches("[..]", ""));
    assert!(!line_matches("ab[..]ba", "aba"));
    assert!(matches(&lines(&["a", "...", "z"]), &["a", "b", "c", "z"]));
    assert!(matches(&lines(&["a", "...", "z"]), &["a", "z"]));
    assert!(!matches(&lines(&["a", "...", "z"]), &["a", "b"]));
    assert!(!matches(&lines(&["a"]), &["a", "b"]));
    assert_eq!(
        split_words("kalah play --name 'a b' \"c\\\"d\""),
        Some(lines(&["kalah", "play", "--name", "a b", "c\"d"]))
    );
    assert_eq!(inline_command("kalah chain POSITION"), None);
    assert_eq!(inline_command("kalah play --size M,N"), None);
    assert!(inline_command("kalah analyze 4,4,0,5,5,5:1/4,4,4,4,4,4:0/S --depth 10").is_some());
}
