//! `kalah kgp serve` on loopback ports it picks, played by kalah's own client (`kalah kgp`) and
//! by an independent client written in Python's standard library (`tests/data/kgp_client.py`,
//! TCP and a WebSocket written from RFC 6455), in freeplay and verify; bad clients; games that
//! survive a restart. Every wait is on a printed line; the deadlines are hang guards only.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// The longest any step may take before the test counts as hung.
const HANG: Duration = Duration::from_secs(120);

fn kalah() -> Command {
    Command::new(env!("CARGO_BIN_EXE_kalah"))
}

/// A running `kalah kgp serve` and the lines it prints.
struct Served {
    child: Child,
    lines: mpsc::Receiver<String>,
    seen: Vec<String>,
    tcp: SocketAddr,
    websocket: SocketAddr,
}

impl Served {
    fn start(db: &Path, flags: &[&str]) -> Served {
        Served::launch("serve", db, flags)
    }

    /// Starts `kalah kgp COMMAND` (`serve` or `tournament`) on free loopback ports.
    fn launch(command: &str, db: &Path, flags: &[&str]) -> Served {
        let mut child = kalah()
            .args(["kgp", command, "--tcp", "127.0.0.1:0", "--websocket", "127.0.0.1:0", "--db"])
            .arg(db)
            .args(flags)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the kalah binary starts");
        let (send, lines) = mpsc::channel();
        let stdout = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        let mut served = Served {
            child,
            lines,
            seen: Vec::new(),
            tcp: ([0, 0, 0, 0], 0).into(),
            websocket: ([0, 0, 0, 0], 0).into(),
        };
        let tcp = served.wait_for("listening for KGP over TCP on ");
        served.tcp = tcp.rsplit(' ').next().unwrap().parse().unwrap();
        let ws = served.wait_for("listening for KGP over WebSocket on ");
        let address = ws.rsplit("://").next().unwrap().trim_end_matches("/socket");
        served.websocket = address.parse().unwrap();
        served
    }

    /// Waits for a line that contains `text` (lines before it are kept) and returns it.
    fn wait_for(&mut self, text: &str) -> String {
        self.wait_until(text, |line| line.contains(text))
    }

    /// Waits for a line for which `done` holds (lines before it are kept) and returns it; `what`
    /// names it if none comes.
    fn wait_until(&mut self, what: &str, done: impl Fn(&str) -> bool) -> String {
        if let Some(line) = self.seen.iter().find(|l| done(l)) {
            return line.clone();
        }
        loop {
            let line =
                self.lines.recv_timeout(HANG).unwrap_or_else(|_| panic!("no line with {what:?}; saw {:#?}", self.seen));
            self.seen.push(line.clone());
            if done(&line) {
                return line;
            }
        }
    }

    /// Stops the server as Ctrl-C does and checks that it stops cleanly.
    fn stop(mut self) -> Vec<String> {
        let status = Command::new("kill").args(["-INT", &self.child.id().to_string()]).status().unwrap();
        assert!(status.success());
        self.wait_for("kalah kgp serve: stopped");
        let status = self.child.wait().unwrap();
        assert!(status.success(), "{status}");
        let rest: Vec<String> = self.lines.try_iter().collect();
        self.seen.extend(rest);
        std::mem::take(&mut self.seen)
    }
}

impl Served {
    /// Waits until a tournament has printed its report and stopped by itself, checks that it
    /// stopped cleanly, and returns every line it printed.
    fn finish(mut self) -> Vec<String> {
        self.wait_for("kalah kgp tournament: stopped");
        let status = self.child.wait().unwrap();
        assert!(status.success(), "{status}");
        let rest: Vec<String> = self.lines.try_iter().collect();
        self.seen.extend(rest);
        std::mem::take(&mut self.seen)
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn python(transport: &str, address: SocketAddr, options: &[&str]) -> Child {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/kgp_client.py");
    Command::new("python3")
        .arg(script)
        .args([transport, &address.ip().to_string(), &address.port().to_string()])
        .args(options)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 runs (the test's independent client)")
}

fn finished(child: Child) -> (bool, String) {
    let Output { status, stdout, stderr } = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&stdout).to_string() + &String::from_utf8_lossy(&stderr);
    (status.success(), text)
}

fn db(dir: &tempfile::TempDir) -> PathBuf {
    dir.path().join("kgp.sqlite")
}

#[test]
fn kalahs_own_client_plays_freeplay_and_verify() {
    let dir = tempfile::tempdir().unwrap();
    let mut served = Served::start(&db(&dir), &["--games", "1", "--problems", "25", "--wait", "0"]);
    let address = served.tcp.to_string();
    let out = kalah()
        .args(["kgp", &address, "--once", "--time", "50", "--name", "kalah vs minimax-2 on 8,8"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && err.contains("the server said goodbye"), "{err}");
    let game = served.wait_for("(north), kalah(8,8) kgp");
    assert!(game.contains("kalah (") && game.contains("minimax-2 ("), "{game}");
    served.wait_for(" after ");
    let out = kalah().args(["kgp", &address, "--once", "--mode", "verify", "--verbose"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("server comment: verify: 25 problems, 25 right, 0 wrong"), "{err}");
    served.wait_for("verified 25 solutions, 25 right, 0 wrong");
    // Over WebSocket too.
    let url = format!("ws://{}/socket", served.websocket);
    let out = kalah().args(["kgp", &url, "--once", "--time", "50", "--name", "kalah-ws vs random"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && err.contains("the server said goodbye"), "{err}");
    served.wait_for("kalah-ws (agent");
    // A mode the server does not offer is refused, and the client ends with status 1.
    let out = kalah().args(["kgp", &address, "--once", "--mode", "eval"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("Unsupported mode"), "{err}");
    served.stop();
}

#[test]
fn an_independent_client_plays_over_tcp_and_websocket() {
    let dir = tempfile::tempdir().unwrap();
    let mut served = Served::start(&db(&dir), &["--games", "2", "--problems", "40", "--wait", "600000"]);
    for transport in ["tcp", "ws"] {
        let address = if transport == "tcp" { served.tcp } else { served.websocket };
        let name = format!("py-{transport} vs random on 6,4");
        let (ok, out) = finished(python(transport, address, &["--name", &name]));
        assert!(ok && out.contains("errors, even rising ids True, goodbye True") && out.contains(" 0 errors"), "{out}");
        served.wait_for(&format!("py-{transport} (agent"));
        // Verify: one answer deliberately wrong, reported, and the report at the end names it.
        let (ok, out) =
            finished(python(transport, address, &["--mode", "verify", "--wrong", "1", "--name", "checker"]));
        assert!(ok, "{out}");
        assert!(
            out.contains("client: error \"Was") && out.contains("39 right, 1 wrong; the first wrong: problem <"),
            "{out}"
        );
    }
    // Two agents that ask for no bot play each other, one over each transport.
    let a = python("tcp", served.tcp, &["--name", "ann", "--token", "t-ann"]);
    let b = python("ws", served.websocket, &["--name", "bob", "--token", "t-bob"]);
    for child in [a, b] {
        let (ok, out) = finished(child);
        assert!(ok && out.contains(" 0 errors"), "{out}");
    }
    let seen = served.stop();
    let pairings: Vec<&String> = seen.iter().filter(|l| l.contains("ann (") && l.contains("bob (")).collect();
    assert_eq!(pairings.len(), 2, "two games of ann and bob: {seen:#?}");
    let out = kalah().args(["kgp", "games", "--agent", "ann", "--db"]).arg(db(&dir)).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 3, "a header and two games");
}

/// The lines of a results table as `kalah kgp tournament` and `kalah kgp standings` print it: the
/// table's rows (name, games, points) and the cross table's lines.
fn table(lines: &[String]) -> (Vec<(String, u32, f64)>, Vec<String>) {
    let start = lines.iter().position(|l| l.starts_with("rank  agent")).expect("a table");
    let cross = lines.iter().position(|l| l.starts_with("who beat whom")).expect("a cross table");
    let rows = lines[start + 1..cross]
        .iter()
        .map(|line| {
            // rank, name (which may hold spaces), games, points, wins, draws, losses, Elo ± margin
            let words: Vec<&str> = line.split_whitespace().collect();
            let n = words.len();
            let name = words[1..n - 8].join(" ");
            (name, words[n - 8].parse().unwrap(), words[n - 7].parse().unwrap())
        })
        .collect::<Vec<_>>();
    let crosses = lines[cross + 2..cross + 2 + rows.len()].to_vec();
    (rows, crosses)
}

#[test]
fn a_tournament_of_bots_a_program_and_an_agent_prints_and_stores_its_table() {
    let dir = tempfile::tempdir().unwrap();
    // A program as kgpc runs one: the board on standard input (houses, stores, the mover's houses
    // first), a house counted from 0 on standard output; the words before it are skipped.
    let program = dir.path().join("first.py");
    std::fs::write(
        &program,
        "import sys\nw = [int(x) for x in sys.stdin.read().split()]\nm = w[0]\n\
         print('thinking', flush=True)\nprint(next(i for i in range(m) if w[3 + i] > 0))\n",
    )
    .unwrap();
    let command = format!("python3 '{}'", program.display());
    let flags = [
        "--bot",
        "level-1",
        "--bot",
        "level-2",
        "--bot",
        "random",
        "--bot",
        "minimax-2",
        "--program",
        &command,
        "--agents",
        "1",
        // The program's time: it is started for every move, so a slow machine needs a long one.
        "--time",
        "60000",
        "--parallel",
        "2",
    ];
    let mut served = Served::launch("tournament", &db(&dir), &flags);
    served.wait_for("tournament: waiting for 1 agent to connect");
    let address = served.tcp.to_string();
    let out = kalah()
        .args(["kgp", &address, "--once", "--time", "50", "--name", "student", "--token", "t-s"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && err.contains("the server said goodbye"), "{err}");
    served.wait_for("kalah kgp tournament: stopped");
    let status = served.child.wait().unwrap();
    assert!(status.success(), "{status}");
    let seen = std::mem::take(&mut served.seen);
    assert!(seen.iter().any(|l| l.contains("tournament 1: 6 entrants, 30 games")), "{seen:#?}");
    assert!(seen.iter().any(|l| l.contains("tournament 1: every game played")), "{seen:#?}");
    assert!(!seen.iter().any(|l| l.contains("no legal move") || l.contains("resigned")), "{seen:#?}");
    let (rows, crosses) = table(&seen);
    let mut names: Vec<&str> = rows.iter().map(|r| r.0.as_str()).collect();
    names.sort();
    // A program is named by its command line's words.
    let named = format!("python3 {}", program.display());
    assert_eq!(names, ["level-1", "level-2", "minimax-2", named.as_str(), "random", "student"]);
    // Each entrant played each other one from both sides: 10 games, 30 points in all.
    assert!(rows.iter().all(|r| r.1 == 10), "{rows:?}");
    assert_eq!(rows.iter().map(|r| r.2).sum::<f64>(), 30.0);
    assert!(rows.windows(2).all(|w| w[0].2 >= w[1].2), "by points: {rows:?}");
    // Each line of the cross table adds up to its row's games.
    for line in &crosses {
        let games: u32 = line
            .split_whitespace()
            .filter(|w| w.split('-').count() == 3)
            .flat_map(|w| w.split('-').map(|n| n.parse::<u32>().unwrap()).collect::<Vec<_>>())
            .sum();
        assert_eq!(games, 10, "{line}");
    }
    // The same table from the database, and the games with it.
    let out = kalah().args(["kgp", "standings", "--db"]).arg(db(&dir)).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stored: Vec<String> = String::from_utf8_lossy(&out.stdout).lines().map(String::from).collect();
    assert_eq!(stored[0], "tournament 1:");
    assert_eq!(table(&stored), (rows, crosses));
    let out = kalah().args(["kgp", "games", "--db"]).arg(db(&dir)).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 31, "a header and 30 games");
    let out = kalah().args(["kgp", "standings", "--tournament", "2", "--db"]).arg(db(&dir)).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("there is no tournament 2"), "{err}");
}

#[test]
fn a_tournament_without_two_entrants_or_with_one_twice_is_refused() {
    for (flags, says) in [
        (&["--bot", "random"][..], "needs 2 entrants or more, and this one has 1"),
        (&["--bot", "random", "--bot", "random"][..], "\"random\" is given twice"),
        (&["--bot", "random", "--bot", "carol"][..], "is not a bot"),
        (&["--bot", "random", "--program", "a 'b"][..], "unclosed quote"),
        (&["--bot", "random", "--agents", "1", "--rounds", "0"][..], "--rounds 0 plays nothing"),
        (&["--bot", "random", "--bot", "greedy", "--cut", "2"][..], "--cut chooses who goes on between stages"),
        (
            &["--bot", "random", "--bot", "greedy", "--stage", "6,6", "--stage", "8,8", "--cut", "best"][..],
            "is not a cut",
        ),
        (&["--bot", "random", "--bot", "greedy", "--stage", "5,5"][..], "--stage: \"5,5\" is not a board"),
        (&["--bot", "random", "--bot", "greedy", "--stage", "6,6", "--board", "8,8"][..], "cannot be used with"),
        (&["--bot", "random", "--bot", "greedy", "--sanity-games", "2"][..], "--sanity"),
        (&["--bot", "random", "--bot", "greedy", "--sanity", "--sanity-games", "0"][..], "--sanity-games 0 plays no"),
    ] {
        let out =
            kalah().args(["kgp", "tournament", "--tcp", "off", "--websocket", "off"]).args(flags).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && err.contains(says), "{flags:?}: {err}");
    }
}

/// Sends raw bytes and reads what comes back until the server closes the connection.
fn raw(address: SocketAddr, send: &[u8]) -> String {
    let mut stream = TcpStream::connect(address).unwrap();
    stream.set_read_timeout(Some(HANG)).unwrap();
    let _ = stream.write_all(send);
    let mut back = Vec::new();
    let _ = stream.read_to_end(&mut back);
    String::from_utf8_lossy(&back).to_string()
}

#[test]
fn bad_clients_never_stop_the_server_or_another_game() {
    let dir = tempfile::tempdir().unwrap();
    let mut served = Served::start(&db(&dir), &["--games", "3", "--wait", "0", "--time", "2000"]);
    // A good agent plays three games while the others misbehave.
    let good = python("tcp", served.tcp, &["--name", "good vs greedy"]);
    // Garbage: each line gets an error, the session goes on; then goodbye.
    let back =
        raw(served.tcp, b"1 st@te <1>\nhello there\n\xff\xfe\n7 move 3\nok \"unanswered\nmode freeplay\ngoodbye\n");
    assert!(back.starts_with("2 kgp 1 0 1\r\n"), "{back}");
    for text in [
        "@1 error \"malformed line: the command name",
        "error \"Unknown command \\\"hello\\\"\"",
        "not UTF-8",
        "@7 error \"move is not part of",
    ] {
        assert!(back.contains(text), "{text:?} in {back}");
    }
    assert!(back.trim_end().ends_with("goodbye"), "{back}");
    // A line longer than the server reads: error, goodbye, closed.
    let mut long = vec![b'x'; 100_000];
    long.push(b'\n');
    let back = raw(served.tcp, &long);
    assert!(
        back.contains("error \"line of 100000 bytes is longer than the 65536 this server reads\"\r\ngoodbye"),
        "{back}"
    );
    // Leaving in the middle of a game: the game ends and is stored as given up.
    let (ok, out) = finished(python("ws", served.websocket, &["--name", "quitter vs random", "--leave-after", "3"]));
    assert!(!ok && out.contains("leaving in the middle of a game"), "{out}");
    // The game's first line names it (the connection's line, which also names the quitter, comes
    // before it); the quitter's is not the only game given up (the garbage connection's is too).
    let started = served.wait_until("the quitter's game", |l| l.contains(": game ") && l.contains("quitter ("));
    let game = started.split("game ").nth(1).and_then(|rest| rest.split(':').next()).expect("a game's line");
    let prefix = format!("game {game}: ");
    let ended = served.wait_until("the quitter's game's end", |l| l.contains(&prefix) && !l.contains(" against "));
    assert!(ended.contains("resigned: the connection ended"), "{ended}");
    // A name that asks for a bot the server has not.
    let (ok, out) = finished(python("tcp", served.tcp, &["--name", "carol vs deep-blue"]));
    assert!(ok && out.contains("is not a bot: random, greedy"), "{out}");
    let (ok, out) = finished(good);
    assert!(ok && out.contains(" 0 errors") && out.contains("goodbye True"), "{out}");
    let seen = served.stop();
    let games: Vec<&String> = seen.iter().filter(|l| l.contains("good (") && l.contains("greedy (")).collect();
    assert_eq!(games.len(), 3, "{seen:#?}");
    for text in ["closed: a line of 100000 bytes", "malformed line", "closed: refused: info:name"] {
        assert!(seen.iter().any(|l| l.contains(text)), "{text:?} in {seen:#?}");
    }
    // Nothing at all: no mode in time. A server of its own, so that no other client has to ask
    // for its mode within the short wait.
    let mut served = Served::start(&db(&dir), &["--mode-wait", "300"]);
    let back = raw(served.tcp, b"");
    assert!(back.contains("error \"Requested no mode\"\r\ngoodbye"), "{back}");
    served.wait_for("closed: no mode was requested in time");
    served.stop();
}

#[test]
fn a_server_stopped_as_soon_as_it_listens_stops_cleanly() {
    // Ctrl-C is listened for before the first line: one that comes at once stops the server as
    // any other does (exit status 0, "stopped"), rather than ending the process.
    let dir = tempfile::tempdir().unwrap();
    for _ in 0..3 {
        let seen = Served::start(&db(&dir), &[]).stop();
        assert!(seen.iter().any(|l| l.contains("stopping: goodbye to every connection")), "{seen:#?}");
    }
}

#[test]
fn games_survive_a_restart_and_a_game_cut_by_the_stop_is_aborted() {
    let dir = tempfile::tempdir().unwrap();
    let path = db(&dir);
    let mut served = Served::start(&path, &["--games", "1", "--wait", "0"]);
    let (ok, out) = finished(python("tcp", served.tcp, &["--name", "first vs level-1"]));
    assert!(ok, "{out}");
    served.wait_for(" after ");
    // A client that stops answering: the server stops during its game.
    let silent = python("tcp", served.tcp, &["--name", "silent vs random", "--silent-after", "1"]);
    // The game's own line, not the connection's ("silent (agent 3) plays …"), which comes
    // before the game starts: a stop between the two has no game to abort.
    served.wait_for("game 2: ");
    let seen = served.stop();
    assert!(seen.iter().any(|l| l.contains("aborted: the server stopped during the game")), "{seen:#?}");
    let (_, out) = finished(silent);
    assert!(out.contains("goodbye True"), "{out}");
    let mut served = Served::start(&path, &["--games", "1", "--wait", "0"]);
    let (ok, out) = finished(python("ws", served.websocket, &["--name", "second vs greedy"]));
    assert!(ok, "{out}");
    served.wait_for(" after ");
    served.stop();
    let out = kalah().args(["kgp", "games", "--db"]).arg(&path).output().unwrap();
    let list = String::from_utf8_lossy(&out.stdout).to_string();
    let rows: Vec<&str> = list.lines().skip(1).collect();
    assert_eq!(rows.len(), 3, "{list}");
    assert!(rows[1].contains("aborted"), "{list}");
    // The first game's record replays: kalah play loads it.
    let out = kalah().args(["kgp", "record", "1", "--db"]).arg(&path).output().unwrap();
    let record = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(record.contains("[South \"") && record.contains("[Rules \"kalah(6,6) kgp\"]"), "{record}");
    let file = dir.path().join("game1.txt");
    std::fs::write(&file, &record).unwrap();
    let mut play =
        kalah().args(["play", "--load"]).arg(&file).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    play.stdin.take().unwrap().write_all(b"quit\n").unwrap();
    let shown = String::from_utf8_lossy(&play.wait_with_output().unwrap().stdout).to_string();
    assert!(shown.contains("Game over"), "{shown}");
}

#[test]
fn kalahs_client_plays_over_tls_with_the_servers_own_certificate() {
    let dir = tempfile::tempdir().unwrap();
    let names = vec!["localhost".to_string(), "127.0.0.1".to_string()];
    let certified = rcgen::generate_simple_self_signed(names).unwrap();
    let (cert, key) = (dir.path().join("cert.pem"), dir.path().join("key.pem"));
    std::fs::write(&cert, certified.cert.pem()).unwrap();
    std::fs::write(&key, certified.signing_key.serialize_pem()).unwrap();
    let (cert_text, key_text) = (cert.to_str().unwrap(), key.to_str().unwrap());
    let mut served = Served::start(&db(&dir), &["--games", "1", "--wait", "0", "--cert", cert_text, "--key", key_text]);
    served.wait_for("over WebSocket on wss://");
    let url = format!("wss://localhost:{}/socket", served.websocket.port());
    let out = kalah()
        .args(["kgp", &url, "--ca", cert_text, "--once", "--time", "50", "--name", "kalah-wss vs greedy"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && err.contains("the server said goodbye"), "{err}");
    served.wait_for("kalah-wss (agent");
    served.wait_for(" after ");
    // Without the certificate the client refuses the server, and the server goes on.
    let out = kalah().args(["kgp", &url, "--once"]).output().unwrap();
    assert!(!out.status.success());
    // The failed handshake's line comes from a task the stop does not wait for.
    served.wait_for("TLS handshake with");
    served.stop();
}

/// Runs `kalah ARGS` with its standard output a socket whose other end is closed before it starts
/// (the reader gone, as `| head` leaves it after its lines: every write fails with a broken
/// pipe), and returns its exit status and standard error.
#[cfg(unix)]
fn with_closed_output(args: &[&std::ffi::OsStr]) -> (Option<i32>, String) {
    let (ours, theirs) = std::os::unix::net::UnixStream::pair().unwrap();
    drop(ours);
    let out = kalah()
        .args(args)
        .stdout(Stdio::from(std::os::fd::OwnedFd::from(theirs)))
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[cfg(unix)]
#[test]
fn every_printing_command_survives_a_closed_pipe_and_the_log_has_times() {
    let dir = tempfile::tempdir().unwrap();
    let db = db(&dir);
    let tournament = ["kgp", "tournament", "--tcp", "off", "--websocket", "off", "--bot", "random", "--bot", "greedy"];
    let os = |words: &[&str]| -> Vec<std::ffi::OsString> {
        words.iter().map(Into::into).chain([db.clone().into_os_string()]).collect()
    };
    // The tournament's log and table, then the listings of what it stored, each with no reader:
    // status 0, no panic, no "Broken pipe".
    for words in [
        &[&tournament[..], &["--db"]].concat()[..],
        &["kgp", "games", "--db"],
        &["kgp", "standings", "--db"],
        &["kgp", "standings", "--all", "--db"],
        &["kgp", "record", "1", "--db"],
    ] {
        let args = os(words);
        let args: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
        let (status, err) = with_closed_output(&args);
        assert!(status == Some(0) && err.is_empty(), "kalah {words:?}: {status:?} {err}");
    }
    // The other commands that print a page or a listing.
    for words in [&["man"][..], &["man", "kgp"], &["completions", "bash"], &["--help"], &["kgp", "--help"]] {
        let args: Vec<&std::ffi::OsStr> = words.iter().map(std::ffi::OsStr::new).collect();
        let (status, err) = with_closed_output(&args);
        assert!(status == Some(0) && err.is_empty(), "kalah {words:?}: {status:?} {err}");
    }
    // The log, read: each of its lines begins with its UTC time (RFC 3339, to the second); the
    // table is not the log's.
    let out = kalah().args(os(&[&tournament[..], &["--db"]].concat())).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    let log: Vec<&str> = text.lines().filter(|l| l.contains("kalah kgp tournament: ")).collect();
    assert!(log.len() >= 4, "{text}");
    for line in &log {
        let (time, rest) = line.split_once(' ').unwrap();
        let digits: String = time.chars().map(|c| if c.is_ascii_digit() { '0' } else { c }).collect();
        assert_eq!(digits, "0000-00-00T00:00:00Z", "{line}");
        assert!(rest.starts_with("kalah kgp tournament: "), "{line}");
    }
    assert!(text.lines().any(|l| l.starts_with("rank  agent")), "{text}");
}

/// Every results table in `lines` (a report holds one a stage, then the final one): each row's
/// name, games and points.
fn tables(lines: &[String]) -> Vec<Vec<(String, u32, f64)>> {
    let mut found = Vec::new();
    for (start, _) in lines.iter().enumerate().filter(|(_, l)| l.starts_with("rank  agent")) {
        found.push(table(&lines[start..]).0);
    }
    found
}

/// Runs `kalah kgp report` on the database and returns its lines.
fn report(db: &Path) -> Vec<String> {
    let out = kalah().args(["kgp", "report", "--db"]).arg(db).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).lines().map(String::from).collect()
}

/// An agent's line of a report's last table: its games, forfeits, illegal moves, random moves,
/// moves, and its longest move in milliseconds.
fn agent_line(lines: &[String], name: &str) -> [u64; 6] {
    let header =
        lines.iter().position(|l| l.starts_with("agent ") && l.contains("forfeits")).expect("the agents' table");
    let line = lines[header + 1..]
        .iter()
        .find(|l| l.strip_prefix(name).is_some_and(|rest| rest.starts_with("  ")))
        .unwrap_or_else(|| panic!("no line of {name:?} in {lines:#?}"));
    // games forfeits illegal random moves TIME UNIT LONGEST UNIT, after the name (which may hold spaces).
    let words: Vec<&str> = line.split_whitespace().collect();
    let n = words.len();
    let number = |i: usize| words[i].parse::<u64>().unwrap_or_else(|_| panic!("{line}"));
    let longest = match (words[n - 2].parse::<f64>(), words[n - 1]) {
        (Ok(x), "ms") => x as u64,
        (Ok(x), "s") => (x * 1000.0) as u64,
        _ => panic!("{line}"),
    };
    [number(n - 9), number(n - 8), number(n - 7), number(n - 6), number(n - 5), longest]
}

/// Starts the test's client as `python` does, and returns it once it has printed `line`.
fn python_until(address: SocketAddr, options: &[&str], line: &str) -> Child {
    let mut child = python("tcp", address, options);
    let stdout = child.stdout.take().unwrap();
    let (send, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if send.send(line).is_err() {
                break;
            }
        }
    });
    loop {
        match lines.recv_timeout(HANG) {
            Ok(seen) if seen == line => return child,
            Ok(_) => {}
            Err(_) => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("the client printed no {line:?}");
            }
        }
    }
}

#[test]
fn an_agent_killed_in_a_tournaments_game_and_restarted_within_the_grace_finishes_its_games() {
    let dir = tempfile::tempdir().unwrap();
    // A long move time, so that the agent that stops answering is killed in its game rather
    // than played for; and a grace far longer than a restart takes.
    let flags = [
        "--bot",
        "random",
        "--bot",
        "greedy",
        "--bot",
        "minimax-1",
        "--agents",
        "1",
        "--time",
        "60000",
        "--parallel",
        "2",
        "--grace",
        "600",
    ];
    let mut served = Served::launch("tournament", &db(&dir), &flags);
    served.wait_for("tournament: waiting for 1 agent to connect");
    // The student's agent stops answering at its third board, in the middle of a game, and is
    // killed there (SIGKILL: its connection ends as a crashed kgpc's does).
    let options = ["--name", "student", "--token", "t-s"];
    let mut first = python_until(served.tcp, &[&options[..], &["--silent-after", "3"]].concat(), "client: state 3");
    first.kill().unwrap();
    first.wait().unwrap();
    served.wait_for("student left during a game, which is played again from the start once it is back");
    let (ok, out) = finished(python("tcp", served.tcp, &options));
    assert!(ok && out.contains("goodbye True") && out.contains(" 0 errors"), "{out}");
    let seen = served.finish();
    assert!(seen.iter().any(|l| l.contains("student is back after")), "{seen:#?}");
    // Nothing given up: the game it left was played again, its other games waited.
    assert!(!seen.iter().any(|l| l.contains("resigned") || l.contains("given up")), "{seen:#?}");
    let (rows, _) = table(&seen);
    // 4 entrants, each pairing from both sides: 6 games each, and every one counted.
    assert_eq!(rows.len(), 4, "{rows:?}");
    assert!(rows.iter().all(|r| r.1 == 6), "{rows:?}");
    let lines = report(&db(&dir));
    let [games, forfeits, illegal, random, moves, _] = agent_line(&lines, "student");
    assert_eq!((games, forfeits, illegal, random), (6, 0, 0, 0), "{lines:#?}");
    assert!(moves > 0);
    // The game it left is stored as aborted, beside the 12 that count.
    let out = kalah().args(["kgp", "games", "--db"]).arg(db(&dir)).output().unwrap();
    let list = String::from_utf8_lossy(&out.stdout).to_string();
    assert_eq!(list.lines().count(), 1 + 12 + 1, "{list}");
    assert_eq!(list.lines().filter(|l| l.contains(" aborted ")).count(), 1, "{list}");
}

#[test]
fn an_agent_gone_for_longer_than_the_grace_gives_up_its_games_and_the_report_counts_them() {
    let dir = tempfile::tempdir().unwrap();
    let flags =
        ["--bot", "random", "--bot", "greedy", "--agents", "1", "--time", "60000", "--parallel", "1", "--grace", "1"];
    let mut served = Served::launch("tournament", &db(&dir), &flags);
    served.wait_for("tournament: waiting for 1 agent to connect");
    let options = ["--name", "student", "--token", "t-s", "--silent-after", "2"];
    let mut agent = python_until(served.tcp, &options, "client: state 2");
    agent.kill().unwrap();
    agent.wait().unwrap();
    // It does not come back: once the grace is over its games are given up, and a line says so.
    let line = served.wait_for("student did not come back within the grace of 1 s: ");
    let given_up: u64 = line.split(": ").last().unwrap().split(' ').next().unwrap().parse().unwrap();
    let seen = served.finish();
    let (rows, _) = table(&seen);
    let student = rows.iter().find(|r| r.0 == "student").expect("student's row");
    // Its 4 games count: those played before it left, and those given up, as losses.
    assert_eq!(student.1, 4, "{rows:?}");
    assert!(given_up >= 1 && student.2 <= (4 - given_up) as f64, "{line} {rows:?}");
    let lines = report(&db(&dir));
    let [games, forfeits, ..] = agent_line(&lines, "student");
    assert_eq!((games, forfeits), (4, given_up), "{lines:#?}");
    let resigned = seen.iter().filter(|l| l.contains("resigned: it did not come back within the grace of 1 s")).count();
    assert_eq!(resigned as u64, given_up, "{seen:#?}");
}

/// Tells whether process `pid` is running `sleep 987654` (a zombie, dead, does not count).
#[cfg(target_os = "linux")]
fn sleeping(pid: u32) -> bool {
    let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let state = stat.rsplit(')').next().unwrap_or("").split_whitespace().next().unwrap_or("");
    cmdline == b"sleep\x00987654\x00" && state != "Z"
}

#[cfg(target_os = "linux")]
#[test]
fn a_programs_children_do_not_outlive_its_move() {
    let dir = tempfile::tempdir().unwrap();
    let pids = dir.path().join("pids");
    // A shell that leaves a child behind, holding the output open, and writes its pid; then
    // names every house (the last legal one counts).
    let command = format!("sh -c 'sleep 987654 & echo $! >> \"{}\"; echo 0 1 2 3 4 5'", pids.display());
    let flags = ["--bot", "greedy", "--program", &command, "--board", "6,2", "--time", "60000"];
    let served = Served::launch("tournament", &db(&dir), &flags);
    let seen = served.finish();
    assert!(!seen.iter().any(|l| l.contains("a random move was played")), "{seen:#?}");
    let started: Vec<u32> =
        std::fs::read_to_string(&pids).unwrap().lines().map(|l| l.trim().parse().unwrap()).collect();
    assert!(!started.is_empty());
    let left: Vec<u32> = started.iter().copied().filter(|&pid| sleeping(pid)).collect();
    for &pid in &left {
        let _ = Command::new("kill").args(["-KILL", &pid.to_string()]).status();
    }
    assert!(left.is_empty(), "{} of {} children outlived their moves: {left:?}", left.len(), started.len());
    // Each move ended when the shell did, not when its time (60 s) ran out.
    let lines = report(&db(&dir));
    let [_, _, _, random, moves, longest] = agent_line(&lines, &command_name(&command));
    assert_eq!((random as usize, moves as usize), (0, started.len()), "{lines:#?}");
    assert!(longest < 30_000, "{lines:#?}");
}

/// A program's name: its command line's words, joined by spaces.
fn command_name(command: &str) -> String {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quote = None;
    for c in command.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => quote = Some(c),
            (None, ' ') => words.push(std::mem::take(&mut word)),
            (None, c) => word.push(c),
        }
    }
    words.push(word);
    words.join(" ")
}

#[cfg(unix)]
#[test]
fn a_program_over_its_memory_limit_loses_its_move_not_the_machine() {
    let dir = tempfile::tempdir().unwrap();
    let first = dir.path().join("first.py");
    std::fs::write(
        &first,
        "import sys\nw = [int(x) for x in sys.stdin.read().split()]\nprint(next(i for i in range(w[0]) if w[3 + i] > 0))\n",
    )
    .unwrap();
    // The same, after allocating 256 MiB: four times its limit.
    let hog = dir.path().join("hog.py");
    std::fs::write(
        &hog,
        "import sys\nw = [int(x) for x in sys.stdin.read().split()]\ntry:\n    heap = bytearray(256 << 20)\n\
         except MemoryError:\n    sys.exit('hog: out of memory')\nprint(next(i for i in range(w[0]) if w[3 + i] > 0))\n",
    )
    .unwrap();
    let (first, hog) = (format!("python3 '{}'", first.display()), format!("python3 '{}'", hog.display()));
    let flags = ["--program", &first, "--program", &hog, "--board", "6,2", "--time", "60000", "--program-memory", "64"];
    let served = Served::launch("tournament", &db(&dir), &flags);
    let seen = served.finish();
    let lost = "exited with status 1 without a legal house (a crash, or an allocation over its memory limit of 64 MiB)";
    assert!(seen.iter().any(|l| l.contains(lost)), "{seen:#?}");
    // Both games were played out and count.
    let (rows, _) = table(&seen);
    assert!(rows.len() == 2 && rows.iter().all(|r| r.1 == 2), "{rows:?}");
    let lines = report(&db(&dir));
    // Every move of the hog was played for it, and counted; the other program, under the same
    // limit, chose all its own.
    let [_, forfeits, _, random, moves, _] = agent_line(&lines, &command_name(&hog));
    assert!(moves > 0 && random == moves && forfeits == 0, "{lines:#?}");
    let [_, _, _, random, moves, _] = agent_line(&lines, &command_name(&first));
    assert!(moves > 0 && random == 0, "{lines:#?}");
}

#[test]
fn the_sanity_check_drops_an_agent_that_loses_to_random_and_the_stages_cut_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let flags = [
        "--bot",
        "level-2",
        "--bot",
        "level-1",
        "--bot",
        "minimax-2",
        "--bot",
        "greedy",
        "--agents",
        "1",
        "--sanity",
        "--stage",
        "6,3",
        "--stage",
        "7,3",
        "--cut",
        "2",
        "--time",
        "60000",
        "--parallel",
        "2",
    ];
    let mut served = Served::launch("tournament", &db(&dir), &flags);
    served.wait_for("tournament: waiting for 1 agent to connect");
    // An agent whose every move is illegal gives its sanity game up, and hears why it is out.
    let (ok, out) = finished(python("tcp", served.tcp, &["--name", "loser", "--token", "t-l", "--illegal", "yes"]));
    assert!(ok && out.contains("dropped after the sanity check: 0 won, 0 drawn, 1 lost"), "{out}");
    let seen = served.finish();
    let dropped = seen.iter().find(|l| l.contains("after the sanity check: on: ")).expect("the sanity check's cut");
    assert!(dropped.split("; dropped: ").nth(1).is_some_and(|d| d.contains("loser (0-0-1)")), "{dropped}");
    let lines = report(&db(&dir));
    let list = |prefix: &str, from: usize| -> (usize, Vec<String>) {
        let at = from + lines[from..].iter().position(|l| l.starts_with(prefix)).expect(prefix);
        let names = lines[at][prefix.len()..].split(", ").filter(|n| *n != "none").map(String::from).collect();
        (at, names)
    };
    let found = tables(&lines);
    // The sanity check's table, both round robins' and the final one.
    assert_eq!(found.len(), 4, "{lines:#?}");
    // Those that lost their game against random are out, the others on (random itself is the
    // sanity check's opponent, no entrant).
    let (at, on) = list("  went on: ", 0);
    let (_, off) = list("  dropped: ", at);
    let mut passed: Vec<String> =
        found[0].iter().filter(|r| r.0 != "random" && r.2 >= 0.5).map(|r| r.0.clone()).collect();
    let mut failed: Vec<String> =
        found[0].iter().filter(|r| r.0 != "random" && r.2 < 0.5).map(|r| r.0.clone()).collect();
    let sorted = |mut v: Vec<String>| {
        v.sort();
        v
    };
    passed.sort();
    failed.sort();
    assert_eq!((sorted(on.clone()), sorted(off)), (passed, failed.clone()), "{lines:#?}");
    assert!(failed.contains(&"loser".to_string()), "{lines:#?}");
    // Stage 1, a round robin of those that passed on 6,3; the best 2 by points go on, and those
    // level with the second.
    let stage1 = &found[1];
    assert_eq!(sorted(stage1.iter().map(|r| r.0.clone()).collect()), sorted(on.clone()), "{lines:#?}");
    let mut points: Vec<f64> = stage1.iter().map(|r| r.2).collect();
    points.sort_by(|a, b| b.total_cmp(a));
    let best: Vec<String> = stage1.iter().filter(|r| r.2 >= points[1]).map(|r| r.0.clone()).collect();
    let (at, on2) = list("  went on: ", at + 1);
    assert!(lines[at - 1].contains("the best 2 by points go on"), "{lines:#?}");
    assert_eq!(sorted(on2.clone()), sorted(best), "{lines:#?}");
    // Stage 2, on 7,3, between those alone.
    assert_eq!(sorted(found[2].iter().map(|r| r.0.clone()).collect()), sorted(on2.clone()), "{lines:#?}");
    let out = kalah().args(["kgp", "games", "--db"]).arg(db(&dir)).output().unwrap();
    let games = String::from_utf8_lossy(&out.stdout).to_string();
    let n = on2.len();
    assert_eq!(games.lines().filter(|l| l.ends_with("kalah(7,3) kgp")).count(), n * (n - 1), "{games}");
    // The agent played its sanity game alone, and gave it up with an illegal move.
    let [games, forfeits, illegal, ..] = agent_line(&lines, "loser");
    assert_eq!((games, forfeits, illegal), (1, 1, 1), "{lines:#?}");
}
