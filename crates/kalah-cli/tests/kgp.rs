//! `kalah kgp` against a KGP server written here from the specification (KWARC/kalah-game,
//! `spec/`, 1.0.1 and the 1.1.0 draft) and from what the reference server does: boards from the
//! mover's side, moves counted from 1 but verify pits from 0, the game over as soon as a store
//! holds more than half of all seeds, positions with one legal move played without asking.
//!
//! The server's board is its own, independent of `kalah-rules`, so the client's rules are
//! checked against a second implementation. Deadlines are generous hang guards (shared machines).
//!
//! The same server speaks over TCP and over WebSocket, with or without TLS, as go-kgp does
//! (`web/manage.go`: the route `/socket`, the text messages read as one stream of lines, each
//! line it sends one text message). Its certificates are made here: a certificate authority the
//! client is told to trust (`--ca`, or the system's roots through `SSL_CERT_FILE`) and one it is
//! not.

mod common;
use common::Authority;
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rustls::pki_types::PrivateKeyDer;
use tungstenite::Message;

/// How long eval mode's values are collected after the first one came.
const DEADLINE: Duration = Duration::from_secs(3);
/// The longest any single step of a test may take before it counts as hung.
const HANG: Duration = Duration::from_secs(60);

// ---------------------------------------------------------------------------------------------
// The server's board, after the reference server's `Board` (game/board.go).

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    South,
    North,
}

impl Side {
    fn other(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Board {
    south: u32,
    north: u32,
    /// South's pits from left to right (towards South's store).
    south_pits: Vec<u32>,
    /// North's pits, index i opposite South's pit size-1-i.
    north_pits: Vec<u32>,
}

impl Board {
    fn new(size: usize, seeds: u32) -> Board {
        Board { south: 0, north: 0, south_pits: vec![seeds; size], north_pits: vec![seeds; size] }
    }

    fn size(&self) -> usize {
        self.south_pits.len()
    }

    fn pits(&mut self, side: Side) -> &mut Vec<u32> {
        match side {
            Side::South => &mut self.south_pits,
            Side::North => &mut self.north_pits,
        }
    }

    fn store(&mut self, side: Side) -> &mut u32 {
        match side {
            Side::South => &mut self.south,
            Side::North => &mut self.north,
        }
    }

    fn legal(&self, side: Side, pit: usize) -> bool {
        let pits = if side == Side::South { &self.south_pits } else { &self.north_pits };
        pit < pits.len() && pits[pit] > 0
    }

    fn moves(&self, side: Side) -> Vec<usize> {
        (0..self.size()).filter(|&p| self.legal(side, p)).collect()
    }

    fn total(&self) -> u32 {
        self.south + self.north + self.south_pits.iter().sum::<u32>() + self.north_pits.iter().sum::<u32>()
    }

    fn over(&self) -> bool {
        let half = self.total() / 2;
        self.south > half
            || self.north > half
            || self.south_pits.iter().all(|&p| p == 0)
            || self.north_pits.iter().all(|&p| p == 0)
    }

    fn collect(&mut self) {
        self.south += self.south_pits.iter().sum::<u32>();
        self.north += self.north_pits.iter().sum::<u32>();
        self.south_pits.fill(0);
        self.north_pits.fill(0);
    }

    /// Sows `pit` (from 0) for `me`; returns whether `me` moves again.
    fn sow(&mut self, me: Side, pit: usize) -> bool {
        assert!(self.legal(me, pit), "the server sows only legal moves");
        let size = self.size();
        let mut stones = std::mem::take(&mut self.pits(me)[pit]);
        let (mut side, mut pos) = (me, pit + 1);
        while stones > 0 {
            if pos == size {
                if side == me {
                    *self.store(me) += 1;
                    stones -= 1;
                }
                side = side.other();
                pos = 0;
            } else {
                self.pits(side)[pos] += 1;
                pos += 1;
                stones -= 1;
            }
        }
        let repeat = pos == 0 && side != me;
        if !repeat && side == me && pos > 0 {
            let last = pos - 1;
            let opposite = size - 1 - last;
            if self.pits(me)[last] == 1 && self.pits(me.other())[opposite] > 0 {
                let taken = std::mem::take(&mut self.pits(me.other())[opposite]) + 1;
                self.pits(me)[last] = 0;
                *self.store(me) += taken;
            }
        }
        if self.over() {
            self.collect();
        }
        repeat
    }

    /// The board as `side` sees it: its own pits and store first.
    fn seen_by(&self, side: Side) -> Board {
        match side {
            Side::South => self.clone(),
            Side::North => Board {
                south: self.north,
                north: self.south,
                south_pits: self.north_pits.clone(),
                north_pits: self.south_pits.clone(),
            },
        }
    }

    fn kgp(&self) -> String {
        let mut numbers = vec![self.size() as u32, self.south, self.north];
        numbers.extend(&self.south_pits);
        numbers.extend(&self.north_pits);
        format!("<{}>", numbers.iter().map(u32::to_string).collect::<Vec<_>>().join(","))
    }

    fn parse(text: &str) -> Option<Board> {
        let inner = text.strip_prefix('<')?.strip_suffix('>')?;
        let numbers: Vec<u32> = inner.split(',').map(|n| n.parse().ok()).collect::<Option<_>>()?;
        let size = *numbers.first()? as usize;
        (numbers.len() == 3 + 2 * size).then(|| Board {
            south: numbers[1],
            north: numbers[2],
            south_pits: numbers[3..3 + size].to_vec(),
            north_pits: numbers[3 + size..].to_vec(),
        })
    }
}

/// A small seeded generator, so every run plays the same games.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

// ---------------------------------------------------------------------------------------------
// Lines as the server reads them.

#[derive(Debug, Clone, PartialEq)]
struct Line {
    id: Option<u64>,
    reference: Option<u64>,
    command: String,
    /// The arguments, strings unquoted and unescaped.
    args: Vec<String>,
    raw: String,
}

fn read_command(raw: &str) -> Line {
    let text = raw.trim();
    let mut tokens = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c == '"' {
            chars.next();
            let mut s = String::new();
            loop {
                match chars.next() {
                    Some('"') => break,
                    Some('\\') => match chars.next() {
                        Some('n') => s.push('\n'),
                        Some('t') => s.push('\t'),
                        Some(other) => s.push(other),
                        None => panic!("unterminated string in {raw:?}"),
                    },
                    Some(other) => s.push(other),
                    None => panic!("unterminated string in {raw:?}"),
                }
            }
            tokens.push(s);
        } else {
            let mut s = String::new();
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() {
                    break;
                }
                s.push(c);
                chars.next();
            }
            tokens.push(s);
        }
    }
    assert!(!tokens.is_empty(), "an empty line from the client");
    let (mut id, mut reference) = (None, None);
    if tokens[0].starts_with(|c: char| c.is_ascii_digit() || c == '@') {
        let first = tokens.remove(0);
        let (i, r) = first.split_once('@').map_or((first.as_str(), None), |(i, r)| (i, Some(r)));
        id = (!i.is_empty()).then(|| i.parse().expect("a numeric id"));
        reference = r.map(|r| r.parse().expect("a numeric reference"));
    }
    let command = tokens.remove(0);
    assert!(command.chars().all(|c| c.is_ascii_alphanumeric()), "command name {command:?} in {raw:?}");
    Line { id, reference, command, args: tokens, raw: raw.to_string() }
}

// ---------------------------------------------------------------------------------------------
// The client process and one connection to it.

struct Client {
    child: Child,
    stderr: Arc<Mutex<String>>,
    /// The thread that drains standard error; it ends when the client's stderr closes.
    drain: Option<std::thread::JoinHandle<()>>,
}

impl Client {
    fn start(port: u16, args: &[&str]) -> Client {
        Client::at(&format!("127.0.0.1:{port}"), args, &[])
    }

    /// Starts the client on `address` with `env` set (and the system's certificate folders unset).
    fn at(address: &str, args: &[&str], env: &[(&str, &Path)]) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kalah"))
            .arg("kgp")
            .arg(address)
            .args(["--hash", "4"])
            .args(args)
            .env_remove("SSL_CERT_FILE")
            .env_remove("SSL_CERT_DIR")
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the kalah binary starts");
        let stderr = Arc::new(Mutex::new(String::new()));
        let mut pipe = child.stderr.take().expect("stderr is piped");
        let sink = stderr.clone();
        // Drained all along, so the client never blocks on a full pipe.
        let drain = std::thread::spawn(move || {
            let mut buffer = [0u8; 4096];
            while let Ok(n) = pipe.read(&mut buffer) {
                if n == 0 {
                    break;
                }
                sink.lock().unwrap().push_str(&String::from_utf8_lossy(&buffer[..n]));
            }
        });
        Client { child, stderr, drain: Some(drain) }
    }

    fn log(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    fn wait(&mut self) -> ExitStatus {
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                // The last words are in the log once the drain thread has read to the end.
                if let Some(drain) = self.drain.take() {
                    drain.join().expect("the drain thread ends");
                }
                return status;
            }
            assert!(started.elapsed() < HANG, "the client did not end; its log:\n{}", self.log());
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn wait_for_log(&self, text: &str) {
        let started = Instant::now();
        while !self.log().contains(text) {
            assert!(started.elapsed() < HANG, "the client never logged {text:?}; its log:\n{}", self.log());
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        // Ends only the process this test started, by its handle.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn listen() -> (TcpListener, u16) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a free loopback port");
    let port = listener.local_addr().unwrap().port();
    (listener, port)
}

enum Got {
    Line(Line),
    Timeout,
    Closed,
}

/// Waits for the client's next TCP connection.
fn accept_tcp(listener: &TcpListener) -> TcpStream {
    listener.set_nonblocking(true).unwrap();
    let started = Instant::now();
    let stream = loop {
        match listener.accept() {
            Ok((stream, _)) => break stream,
            Err(e) if e.kind() == ErrorKind::WouldBlock => {
                assert!(started.elapsed() < HANG, "the client never connected");
                std::thread::sleep(Duration::from_millis(10));
            }
            Err(e) => panic!("accept failed: {e}"),
        }
    };
    stream.set_nonblocking(false).unwrap();
    stream
}

/// A byte stream a WebSocket runs over: TCP, or TLS over TCP.
trait Duplex: Read + Write + Send {}
impl<T: Read + Write + Send> Duplex for T {}

/// How the server's lines travel.
enum Wire {
    /// Over TCP, read line by line.
    Tcp(BufReader<TcpStream>),
    /// In WebSocket text messages.
    WebSocket(Box<tungstenite::WebSocket<Box<dyn Duplex>>>),
}

struct Conn {
    /// The TCP connection under the wire, for read timeouts and shutdown.
    stream: TcpStream,
    wire: Wire,
    partial: Vec<u8>,
    next_id: u64,
}

impl Conn {
    fn accept(listener: &TcpListener) -> Conn {
        let stream = accept_tcp(listener);
        let reader = BufReader::new(stream.try_clone().unwrap());
        Conn { stream, wire: Wire::Tcp(reader), partial: Vec::new(), next_id: 2 }
    }

    /// Accepts a WebSocket connection at `/socket`, behind TLS when `tls` is given.
    // The handshake's callback returns tungstenite's own large error type.
    #[allow(clippy::result_large_err)]
    fn accept_websocket(listener: &TcpListener, tls: Option<&Arc<rustls::ServerConfig>>) -> Conn {
        let stream = accept_tcp(listener);
        stream.set_read_timeout(Some(HANG)).unwrap();
        let under: Box<dyn Duplex> = match tls {
            Some(config) => Box::new(rustls::StreamOwned::new(
                rustls::ServerConnection::new(config.clone()).unwrap(),
                stream.try_clone().unwrap(),
            )),
            None => Box::new(stream.try_clone().unwrap()),
        };
        let mut path = String::new();
        let socket = tungstenite::accept_hdr(under, |request: &tungstenite::handshake::server::Request, response| {
            path = request.uri().to_string();
            Ok(response)
        })
        .expect("the client opens a WebSocket");
        assert_eq!(path, "/socket");
        Conn { stream, wire: Wire::WebSocket(Box::new(socket)), partial: Vec::new(), next_id: 2 }
    }

    /// Sends bytes: over a WebSocket as one message (text when they are UTF-8), as go-kgp sends
    /// each line.
    fn raw(&mut self, bytes: &[u8]) {
        match &mut self.wire {
            Wire::Tcp(_) => {
                self.stream.write_all(bytes).unwrap();
                self.stream.flush().unwrap();
            }
            Wire::WebSocket(socket) => {
                let message = match std::str::from_utf8(bytes) {
                    Ok(text) => Message::text(text),
                    Err(_) => Message::binary(bytes.to_vec()),
                };
                socket.send(message).unwrap();
            }
        }
    }

    /// Sends `body` with a new (even) id, as the reference server numbers its lines.
    fn send(&mut self, reference: Option<u64>, body: &str) -> u64 {
        let id = self.next_id;
        self.next_id += 2;
        let prefix = reference.map_or(format!("{id}"), |r| format!("{id}@{r}"));
        self.raw(format!("{prefix} {body}\r\n").as_bytes());
        id
    }

    fn get(&mut self, until: Instant) -> Got {
        loop {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Got::Timeout;
            }
            self.stream.set_read_timeout(Some(left)).unwrap();
            let reader = match &mut self.wire {
                Wire::Tcp(reader) => reader,
                Wire::WebSocket(socket) => match socket.read() {
                    Ok(Message::Text(text)) => {
                        // As go-kgp's clients send them: one line a message, with its line end.
                        let line = text.as_str();
                        assert!(
                            line.ends_with("\r\n") && line.matches('\n').count() == 1,
                            "one line a message, ending in CRLF: {line:?}"
                        );
                        return Got::Line(read_command(line));
                    }
                    Ok(Message::Close(_)) => return Got::Closed,
                    Ok(Message::Binary(data)) => panic!("the client sends text messages, not {data:?}"),
                    Ok(_) => continue,
                    Err(tungstenite::Error::Io(e))
                        if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) =>
                    {
                        continue
                    }
                    Err(_) => return Got::Closed,
                },
            };
            match reader.read_until(b'\n', &mut self.partial) {
                Ok(0) => return Got::Closed,
                Ok(_) if self.partial.ends_with(b"\n") => {
                    let raw = String::from_utf8(std::mem::take(&mut self.partial)).expect("the client writes UTF-8");
                    assert!(raw.ends_with("\r\n"), "lines end in CRLF: {raw:?}");
                    return Got::Line(read_command(&raw));
                }
                Ok(_) => return Got::Closed,
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
                Err(_) => return Got::Closed,
            }
        }
    }

    /// The next line, which must come within the hang guard.
    fn next(&mut self) -> Line {
        match self.get(Instant::now() + HANG) {
            Got::Line(line) => line,
            Got::Timeout => panic!("the client sent nothing"),
            Got::Closed => panic!("the client closed the connection"),
        }
    }

    /// The next line that is not a comment (`set info:comment` comes with every move).
    fn next_but_comments(&mut self) -> Line {
        loop {
            let line = self.next();
            if !(line.command == "set" && line.args.first().is_some_and(|a| a == "info:comment")) {
                return line;
            }
        }
    }

    /// Sends `ping` and reads up to its `pong`: every line before it (but comments) must be a
    /// `command` answering `state`. Nothing the client sent before it read the ping is left unread.
    fn through_pong(&mut self, command: &str, state: Option<u64>) {
        let ping = self.send(None, "ping");
        loop {
            let line = self.next_but_comments();
            if line.command == "pong" {
                assert_eq!(line.reference, Some(ping));
                return;
            }
            assert_eq!((line.command.as_str(), line.reference), (command, state), "{}", line.raw);
        }
    }

    /// Sends `kgp`, reads the client's `set`s up to its `mode`, and accepts the mode.
    fn handshake(&mut self, version: &str) -> (Vec<Line>, Line) {
        self.raw(format!("kgp {version}\r\n").as_bytes());
        let mut sets = Vec::new();
        loop {
            let line = self.next();
            match line.command.as_str() {
                "set" => sets.push(line),
                "mode" => {
                    self.send(line.id, "ok");
                    return (sets, line);
                }
                other => panic!("expected set or mode, got {other}: {}", line.raw),
            }
        }
    }

    /// Asks for a move on `board` (the mover's view), sends `also` after it, and collects the
    /// answers until `yield`, which the client sends when its own time (`--time`) is up, and the
    /// answer to `also` (in either order: a short search may end before a stalled reader answers),
    /// then sends `stop`. Returns the last move (from 1) and every line that came. Waiting for
    /// `yield` rather than for a deadline of the server's keeps the test from depending on how fast
    /// the machine searches.
    fn ask(&mut self, board: &Board, also: Option<&str>) -> (Option<usize>, Vec<Line>) {
        let id = self.send(None, &format!("state {}", board.kgp()));
        let extra = also.map(|body| self.send(None, body));
        let until = Instant::now() + HANG;
        let (mut last, mut lines) = (None, Vec::new());
        let (mut yielded, mut answered) = (false, extra.is_none());
        while let Got::Line(line) = self.get(until) {
            match line.command.as_str() {
                "move" => {
                    assert_eq!(line.reference, Some(id), "a move answers its state: {}", line.raw);
                    let pit: usize = line.args[0].parse().expect("a move is an integer");
                    assert!((1..=board.size()).contains(&pit), "move {pit} is off the board {}", board.kgp());
                    assert!(board.legal(Side::South, pit - 1), "move {pit} is illegal on {}", board.kgp());
                    last = Some(pit);
                }
                "yield" => {
                    assert_eq!(line.reference, Some(id));
                    yielded = true;
                }
                "set" | "pong" => {}
                other => panic!("unexpected {other} while thinking: {}", line.raw),
            }
            if line.reference.is_some() && line.reference == extra {
                assert_eq!(line.command, "pong");
                answered = true;
            }
            lines.push(line);
            if yielded && answered {
                break;
            }
        }
        self.send(Some(id), "stop");
        (last, lines)
    }
}

/// Plays a whole game of Kalah(`size`,`seeds`) with the client on `client`'s side and random
/// moves on the other; returns the final board.
fn play_game(conn: &mut Conn, size: usize, seeds: u32, client: Side, rng: &mut Rng) -> Board {
    let mut board = Board::new(size, seeds);
    let total = board.total();
    let mut side = Side::South;
    let mut asked = 0;
    while !board.over() {
        let moves = board.moves(side);
        let pit = if moves.len() == 1 {
            moves[0]
        } else if side == client {
            asked += 1;
            // A ping in the middle of the first search is answered (that it is answered during
            // the search is checked in every_message_kind_is_understood, with a long search).
            let ping = (asked == 1).then_some("ping");
            let (pit, lines) = conn.ask(&board.seen_by(client), ping);
            if ping.is_some() {
                assert!(lines.iter().any(|l| l.command == "pong"), "no pong: {lines:?}");
            }
            pit.expect("the client moved before the deadline") - 1
        } else {
            moves[rng.below(moves.len())]
        };
        if !board.sow(side, pit) {
            side = side.other();
        }
        assert_eq!(board.total(), total, "seeds are never lost");
    }
    assert!(asked > 3, "the client played a real part of the game");
    board
}

// ---------------------------------------------------------------------------------------------

#[test]
fn freeplay_games_are_played_to_the_end() {
    let (listener, port) = listen();
    let mut client = Client::start(
        port,
        &["--once", "--time", "100", "--name", "test client", "--authors", "A. \"Quote\" B", "--token", "s3cret"],
    );
    let mut conn = Conn::accept(&listener);
    let (sets, mode) = conn.handshake("1 0 1");
    let option = |key: &str| sets.iter().find(|l| l.args[0] == key).map(|l| l.args[1].clone());
    assert_eq!(option("info:name").as_deref(), Some("test client"));
    assert_eq!(option("info:authors").as_deref(), Some("A. \"Quote\" B"));
    assert_eq!(option("auth:token").as_deref(), Some("s3cret"));
    assert_eq!((mode.args.as_slice(), mode.reference), (&["freeplay".to_string()][..], None));
    assert!(mode.id.is_some_and(|id| id % 2 == 1), "the client numbers its lines: {}", mode.raw);
    conn.send(None, "set info:name \"test server\"");
    conn.send(None, "set game:id \"1\"");

    let mut rng = Rng(0x5eed);
    for (size, seeds, side) in [(6, 6, Side::South), (8, 8, Side::North)] {
        let end = play_game(&mut conn, size, seeds, side, &mut rng);
        assert!(end.over());
    }
    conn.raw(b"goodbye\r\n");
    let status = client.wait();
    assert!(status.success(), "{status:?}; log:\n{}", client.log());
    let log = client.log();
    assert!(log.contains("server name: test server"), "{log}");
    assert!(!log.contains("panicked"), "{log}");
}

#[test]
fn every_message_kind_is_understood() {
    let (listener, port) = listen();
    let mut client = Client::start(port, &["--once", "--time", "3000"]);
    let mut conn = Conn::accept(&listener);
    let (_, mode) = conn.handshake("1 1 0");
    conn.send(None, "init");
    for body in [
        "set time:mode relative",
        "set time:clock 30",
        "set game:id \"g1\"",
        "set game:opponent \"bot\"",
        "set unknown:option 5",
        "set info:comment \"hello\\tthere\"",
        "ok",
        "error \"nothing in particular\"",
    ] {
        conn.send(None, body);
    }
    conn.send(mode.id, "ok");
    conn.raw(b"@1 error \"an error about the client's first line\"\r\n");

    // ping with and without an id.
    let ping = conn.send(None, "ping");
    let pong = conn.next();
    assert_eq!((pong.command.as_str(), pong.reference), ("pong", Some(ping)));
    conn.raw(b"ping\r\n");
    let pong = conn.next();
    assert_eq!((pong.command.as_str(), pong.reference), ("pong", None));

    // Unknown commands and other modes' commands get an error referencing them.
    let unknown = conn.send(None, "frobnicate 1 2");
    let error = conn.next();
    assert_eq!((error.command.as_str(), error.reference), ("error", Some(unknown)), "{}", error.raw);
    let problem = conn.send(None, "problem <6,0,0,1,1,1,1,1,1,1,1,1,1,1,1> 0");
    let error = conn.next();
    assert_eq!((error.command.as_str(), error.reference), ("error", Some(problem)), "{}", error.raw);

    // A stop ends the search: nothing more answers that state once stop is handled.
    let board = Board::new(12, 12);
    let state = conn.send(None, &format!("state {}", board.kgp()));
    let first = conn.next_but_comments();
    assert_eq!((first.command.as_str(), first.reference), ("move", Some(state)), "{}", first.raw);
    // A ping during the search is answered before the search ends (it has 3 s; the pong needs
    // only the reading thread, not the search): moves may come before the pong, a yield may not.
    conn.through_pong("move", Some(state));
    conn.send(Some(state), "stop");
    conn.through_pong("move", Some(state));
    // Quiet until the hang guard would be too long; a second of silence shows the search stopped.
    match conn.get(Instant::now() + Duration::from_secs(1)) {
        Got::Timeout => {}
        Got::Line(line) => panic!("an answer after stop: {}", line.raw),
        Got::Closed => panic!("the client closed the connection"),
    }

    // A board with one legal move is answered at once, without a search.
    let mut single = Board::new(6, 0);
    single.south_pits[2] = 3;
    single.north_pits = vec![1; 6];
    let state = conn.send(None, &format!("state {}", single.kgp()));
    let (answer, done) = (conn.next(), conn.next());
    assert_eq!((answer.command.as_str(), answer.reference, answer.args[0].as_str()), ("move", Some(state), "3"));
    assert_eq!((done.command.as_str(), done.reference), ("yield", Some(state)));

    conn.raw(b"goodbye\r\n");
    assert!(client.wait().success(), "{}", client.log());
}

#[test]
fn malformed_lines_are_reported_and_the_session_goes_on() {
    let (listener, port) = listen();
    let mut client = Client::start(port, &["--once", "--time", "100"]);
    let mut conn = Conn::accept(&listener);
    conn.handshake("1 0 1");
    // (line, the reference the error must carry)
    let long = format!("30 set info:name \"{}\"\r\n", "x".repeat(20_000));
    // Far over the limit: read through, never held whole.
    let huge = format!("32 set info:name \"{}\"\r\n", "y".repeat(4 << 20));
    let lines: Vec<(Vec<u8>, Option<u64>)> = vec![
        (b"4 state <6,0,0,1,2>\r\n".to_vec(), Some(4)),
        (b"6 state <13,0,0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1>\r\n".to_vec(), Some(6)),
        (b"8 state\r\n".to_vec(), Some(8)),
        (b"10 state \"text\"\r\n".to_vec(), Some(10)),
        (b"12 st@te <1>\r\n".to_vec(), Some(12)),
        (b"14 set info:name \"open\r\n".to_vec(), Some(14)),
        (b"@@ ping\r\n".to_vec(), None),
        (b"16 move 1.\r\n".to_vec(), Some(16)),
        (b"18 ping \xff\xfe\r\n".to_vec(), Some(18)),
        (b"20 state <6,0,0,0,0,0,0,0,0,1,1,1,1,1,1>\r\n".to_vec(), Some(20)),
        (long.into_bytes(), Some(30)),
        (huge.into_bytes(), Some(32)),
        (b"24 state <6,200,200,1,1,1,1,1,1,1,1,1,1,1,1>\r\n".to_vec(), Some(24)),
    ];
    for (line, _) in &lines {
        conn.raw(line);
    }
    // A malformed error is reported but never answered: two sides must not trade errors.
    conn.raw(b"error \"unterminated\r\n");
    conn.send(None, "ping");
    let mut errors = Vec::new();
    loop {
        let line = conn.next_but_comments();
        match line.command.as_str() {
            "pong" => break,
            "error" => errors.push(line.reference),
            other => panic!("unexpected {other}: {}", line.raw),
        }
    }
    let expected: Vec<Option<u64>> = lines.iter().map(|(_, r)| *r).collect();
    for reference in &expected {
        assert!(errors.contains(reference), "no error about {reference:?}; got {errors:?}");
    }
    assert_eq!(errors.len(), expected.len(), "{errors:?}");
    // Still playing.
    let (pit, _) = conn.ask(&Board::new(6, 6), None);
    assert!(pit.is_some());
    conn.raw(b"goodbye\r\n");
    assert!(client.wait().success());
    let log = client.log();
    assert!(log.matches("malformed line from the server").count() >= 7, "{log}");
    assert!(log.contains("not UTF-8") && log.contains("16384"), "{log}");
    assert!(!log.contains("panicked"), "{log}");
}

#[test]
fn verify_mode_solves_the_servers_problems() {
    let (listener, port) = listen();
    let mut client = Client::start(port, &["--once", "--mode", "verify"]);
    let mut conn = Conn::accept(&listener);
    let (_, mode) = conn.handshake("1 1 0");
    assert_eq!(mode.args, vec!["verify".to_string()]);
    let mut rng = Rng(0xb0a2d);
    let (mut repeats, mut large) = (0, 0);
    for _ in 0..300 {
        // Random boards as the reference server makes them: 6 to 11 pits, up to 2s-1 seeds a pit.
        let size = 6 + rng.below(6);
        let mut board = Board::new(size, 0);
        for p in 0..size {
            board.south_pits[p] = rng.below(2 * size) as u32;
            board.north_pits[p] = rng.below(2 * size) as u32;
        }
        board.south = rng.below(4 * size) as u32;
        board.north = rng.below(4 * size) as u32;
        let moves = board.moves(Side::South);
        if moves.is_empty() {
            continue;
        }
        let pit = moves[rng.below(moves.len())];
        large += usize::from(board.total() > 288);
        let id = conn.send(None, &format!("problem {} {pit}", board.kgp()));
        let mut expected = board.clone();
        let repeat = expected.sow(Side::South, pit);
        repeats += usize::from(repeat);
        let answer = conn.next();
        assert_eq!((answer.command.as_str(), answer.reference), ("solution", Some(id)), "{}", answer.raw);
        let solved = Board::parse(&answer.args[0]).expect("a board");
        assert_eq!(solved, expected, "problem {} pit {pit}", board.kgp());
        assert_eq!(answer.args[1], repeat.to_string(), "{}", answer.raw);
        conn.send(answer.id, "ok");
    }
    assert!(repeats > 10 && large > 10, "the problems cover extra moves ({repeats}) and big boards ({large})");
    // A pit that cannot be sown is refused.
    for pit in ["0", "6", "-1"] {
        let id = conn.send(None, &format!("problem <6,0,0,0,1,1,1,1,1,1,1,1,1,1,1> {pit}"));
        let answer = conn.next();
        assert_eq!((answer.command.as_str(), answer.reference), ("error", Some(id)), "{}", answer.raw);
    }
    conn.raw(b"goodbye\r\n");
    assert!(client.wait().success(), "{}", client.log());
}

#[test]
fn eval_mode_values_boards_for_the_side_to_move() {
    let (listener, port) = listen();
    let mut client = Client::start(port, &["--once", "--mode", "eval", "--time", "100"]);
    let mut conn = Conn::accept(&listener);
    let (_, mode) = conn.handshake("1 0 1");
    assert_eq!(mode.args, vec!["eval".to_string()]);
    for (ahead, sign) in [(true, 1.0), (false, -1.0)] {
        let mut board = Board::new(6, 2);
        *board.store(if ahead { Side::South } else { Side::North }) = 20;
        let id = conn.send(None, &format!("state {}", board.kgp()));
        // The first value is waited for (eval mode sends no yield); more are taken for a while.
        let first = conn.next();
        let until = Instant::now() + DEADLINE;
        let mut values = Vec::new();
        for line in std::iter::once(first).chain(std::iter::from_fn(|| match conn.get(until) {
            Got::Line(line) => Some(line),
            _ => None,
        })) {
            assert_eq!((line.command.as_str(), line.reference), ("eval", Some(id)), "{}", line.raw);
            let value: f64 = line.args[0].parse().expect("a real number");
            assert!(line.args[0].contains('.'), "a real is written with a point: {}", line.raw);
            values.push(value);
        }
        conn.send(Some(id), "stop");
        // Values sent before the stop was read may still come: read up to a pong, so that none
        // is taken for the next board's.
        conn.through_pong("eval", Some(id));
        assert!(!values.is_empty(), "no evaluation");
        assert!(values.iter().all(|v| v * sign > 10.0), "20 seeds ahead or behind: {values:?}");
    }
    conn.raw(b"goodbye\r\n");
    assert!(client.wait().success(), "{}", client.log());
}

#[test]
fn a_dropped_connection_is_reconnected_with_back_off() {
    let (listener, port) = listen();
    let client = Client::start(port, &["--time", "100", "--retry-delay", "100"]);
    // Two connections that do no work: the wait doubles.
    for _ in 0..2 {
        let mut conn = Conn::accept(&listener);
        conn.handshake("1 0 1");
        conn.stream.shutdown(Shutdown::Both).unwrap();
    }
    // A connection that plays: the wait starts again from the shortest.
    let mut conn = Conn::accept(&listener);
    conn.handshake("1 0 1");
    let (pit, _) = conn.ask(&Board::new(6, 6), None);
    assert!(pit.is_some());
    drop(conn);
    let mut conn = Conn::accept(&listener);
    conn.handshake("1 0 1");
    conn.raw(b"goodbye\r\n");
    client.wait_for_log("the server said goodbye; reconnecting");
    let log = client.log();
    let waits: Vec<&str> = log.lines().filter_map(|l| l.split("reconnecting in ").nth(1)).collect();
    assert_eq!(waits, ["0.1 s", "0.2 s", "0.1 s", "0.2 s"], "{log}");
    assert!(log.contains("the server closed the connection"), "{log}");
}

#[test]
fn the_client_gives_up_after_max_retries() {
    // A port nothing listens on any more.
    let port = listen().1;
    let mut client = Client::start(port, &["--max-retries", "2", "--retry-delay", "10"]);
    let status = client.wait();
    assert_eq!(status.code(), Some(1));
    let log = client.log();
    assert!(log.contains("giving up after 2 failed connections in a row"), "{log}");
    assert_eq!(log.matches("reconnecting in").count(), 1, "{log}");
}

#[test]
fn a_server_of_another_major_version_is_refused() {
    let (listener, port) = listen();
    let mut client = Client::start(port, &[]);
    let mut conn = Conn::accept(&listener);
    conn.raw(b"kgp 2 0 0\r\n");
    let error = conn.next();
    assert_eq!(error.command, "error");
    assert!(error.args[0].contains("2.0.0"), "{}", error.raw);
    assert_eq!(conn.next().command, "goodbye");
    let status = client.wait();
    assert_eq!(status.code(), Some(1), "no reconnecting to a server that cannot be understood");
    assert!(client.log().contains("KGP 1.x"), "{}", client.log());
}

#[test]
fn a_refused_mode_ends_the_client() {
    let (listener, port) = listen();
    let mut client = Client::start(port, &["--mode", "verify"]);
    let mut conn = Conn::accept(&listener);
    conn.raw(b"kgp 1 0 1\r\n");
    let mode = loop {
        let line = conn.next();
        if line.command == "mode" {
            break line;
        }
    };
    conn.send(mode.id, "error \"Unsupported mode \\\"verify\\\"\"");
    conn.raw(b"goodbye\r\n");
    assert_eq!(client.wait().code(), Some(1));
    assert!(client.log().contains("the server refused mode verify: Unsupported mode \"verify\""), "{}", client.log());
}

#[test]
fn a_slow_server_is_waited_for() {
    let (listener, port) = listen();
    let mut client = Client::start(port, &["--once", "--time", "100"]);
    let mut conn = Conn::accept(&listener);
    // The greeting arrives in pieces.
    conn.raw(b"kg");
    std::thread::sleep(Duration::from_millis(300));
    conn.raw(b"p 1 0");
    std::thread::sleep(Duration::from_millis(300));
    conn.raw(b" 1\r");
    std::thread::sleep(Duration::from_millis(100));
    conn.raw(b"\n");
    let mode = loop {
        let line = conn.next();
        if line.command == "mode" {
            break line;
        }
    };
    // The mode is accepted late.
    std::thread::sleep(Duration::from_secs(1));
    conn.send(mode.id, "ok");
    // A state in pieces; then no stop for a long while: the client ends its search by itself
    // and says so with yield, and sends nothing more.
    let board = Board::new(6, 6);
    let line = format!("40 state {}\r\n", board.kgp());
    let (a, b) = line.as_bytes().split_at(15);
    conn.raw(a);
    std::thread::sleep(Duration::from_millis(300));
    conn.raw(b);
    let mut moved = false;
    loop {
        let line = conn.next_but_comments();
        match line.command.as_str() {
            "move" => moved = true,
            "yield" => break,
            other => panic!("unexpected {other}: {}", line.raw),
        }
        assert_eq!(line.reference, Some(40));
    }
    assert!(moved);
    match conn.get(Instant::now() + Duration::from_secs(1)) {
        Got::Timeout => {}
        Got::Line(line) => panic!("a line after yield: {}", line.raw),
        Got::Closed => panic!("the client closed the connection"),
    }
    conn.raw(b"42@40 stop\r\ngoodbye\r\n");
    assert!(client.wait().success(), "{}", client.log());
}

/// The reference server (go-kgp) records a state only after sending it, so an answer that comes
/// back within microseconds is refused with `error "No state associated with id"`; when every
/// answer to a state is refused, the server plays a random move for the client. This server
/// records each state late: it reads all the client sends for it up to its first `yield`, then
/// refuses all of it, and only then takes answers. The client must send its best move again.
#[test]
fn answers_refused_before_the_server_records_the_state_are_sent_again() {
    let (listener, port) = listen();
    let mut client = Client::start(port, &["--once", "--time", "100"]);
    let mut conn = Conn::accept(&listener);
    conn.handshake("1 0 1");
    // A middle game, an endgame the search proves at once (all its answers come in one burst),
    // and another board size.
    let mut endgame = Board::new(6, 0);
    endgame.south_pits = vec![1, 0, 2, 0, 0, 1];
    endgame.north_pits = vec![0, 1, 0, 0, 3, 0];
    (endgame.south, endgame.north) = (30, 34);
    let mut middle = Board::new(6, 6);
    for pit in [2, 5, 0] {
        middle.sow(Side::South, pit);
    }
    for board in [Board::new(6, 6), endgame, middle, Board::new(8, 4)] {
        let state = conn.send(None, &format!("state {}", board.kgp()));
        let mut early = Vec::new();
        // Every answer up to the yield (the search has 100 ms): a pause is no sign that the answers
        // have ended, and one that came after the refusals would be read as the next board's.
        let until = Instant::now() + HANG;
        loop {
            match conn.get(until) {
                Got::Line(line) => {
                    if matches!(line.command.as_str(), "move" | "yield") {
                        assert_eq!(line.reference, Some(state), "{}", line.raw);
                        early.push(line.id);
                    }
                    if line.command == "yield" {
                        break;
                    }
                }
                Got::Timeout => panic!("no yield to {} in time; log:\n{}", board.kgp(), client.log()),
                Got::Closed => panic!("the client closed the connection"),
            }
        }
        assert!(!early.is_empty(), "the client sent no answer to {}", board.kgp());
        for id in &early {
            conn.send(*id, "error \"No state associated with id\"");
        }
        // The state is recorded: answers count from here on, up to the yield that the client sends
        // again, or at the end of its search if it had not yet.
        let until = Instant::now() + HANG;
        let mut held = None;
        while let Got::Line(line) = conn.get(until) {
            match line.command.as_str() {
                "move" => {
                    assert_eq!(line.reference, Some(state), "{}", line.raw);
                    let pit: usize = line.args[0].parse().expect("a move is an integer");
                    assert!(board.legal(Side::South, pit.wrapping_sub(1)), "move {pit} is illegal on {}", board.kgp());
                    held = Some(pit);
                }
                "yield" => break,
                "set" => {}
                other => panic!("unexpected {other}: {}", line.raw),
            }
        }
        conn.send(Some(state), "stop");
        assert!(
            held.is_some(),
            "all {} answers to {} were refused and none came again: the server would play a random move; log:\n{}",
            early.len(),
            board.kgp(),
            client.log()
        );
    }
    conn.raw(b"goodbye\r\n");
    assert!(client.wait().success(), "{}", client.log());
    let log = client.log();
    assert!(log.contains("before it had recorded the state; sending move"), "{log}");
    assert!(!log.contains("panicked"), "{log}");
}

// ---------------------------------------------------------------------------------------------
// Other addresses than plain TCP, and servers that are not KGP servers.

/// The TLS settings of a server on loopback with a certificate `authority` signed.
fn tls_server(authority: &Authority) -> Arc<rustls::ServerConfig> {
    let (certificate, key) = authority.server(&["127.0.0.1", "localhost"]);
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(vec![certificate.der().clone()], PrivateKeyDer::Pkcs8(key.serialize_der().into()))
        .unwrap();
    Arc::new(config)
}

#[test]
fn whole_games_are_played_over_websocket() {
    let (listener, port) = listen();
    let address = format!("ws://127.0.0.1:{port}/socket");
    let client = Client::at(&address, &["--time", "100", "--retry-delay", "100", "--verbose"], &[]);
    let mut conn = Conn::accept_websocket(&listener, None);
    // The messages are one stream of lines: a greeting in two messages, then two lines in one.
    conn.raw(b"kgp 1 ");
    conn.raw(b"0 1\r\n");
    let mode = loop {
        let line = conn.next();
        if line.command == "mode" {
            break line;
        }
    };
    conn.raw(format!("2@{} ok\r\n4 ping\r\n", mode.id.unwrap()).as_bytes());
    let pong = conn.next();
    assert_eq!((pong.command.as_str(), pong.reference), ("pong", Some(4)));
    conn.next_id = 6;
    let mut rng = Rng(0x3e65);
    for (size, seeds, side) in [(6, 6, Side::South), (8, 8, Side::North)] {
        assert!(play_game(&mut conn, size, seeds, side, &mut rng).over());
    }
    // A WebSocket closed without a goodbye is reconnected as a TCP connection is.
    drop(conn);
    let mut conn = Conn::accept_websocket(&listener, None);
    conn.handshake("1 0 1");
    conn.raw(b"goodbye\r\n");
    client.wait_for_log("the server said goodbye; reconnecting in 0.2 s");
    let log = client.log();
    assert_eq!(log.matches(&format!("connected to {address}, asking for mode freeplay")).count(), 2, "{log}");
    assert!(log.contains("; reconnecting in 0.1 s"), "{log}");
    assert!(log.contains("the server accepted mode freeplay") && !log.contains("panicked"), "{log}");
}

#[test]
fn whole_games_are_played_over_websocket_with_tls() {
    let folder = tempfile::tempdir().unwrap();
    let authority = Authority::new("kalah test authority");
    let ca = authority.write(folder.path(), "ca.pem");
    let tls = tls_server(&authority);
    let (listener, port) = listen();
    let address = format!("wss://127.0.0.1:{port}/socket");
    let mut client = Client::at(&address, &["--once", "--time", "100", "--ca", ca.to_str().unwrap()], &[]);
    let mut conn = Conn::accept_websocket(&listener, Some(&tls));
    conn.handshake("1 0 1");
    let mut rng = Rng(0x7715);
    assert!(play_game(&mut conn, 6, 6, Side::North, &mut rng).over());
    conn.raw(b"goodbye\r\n");
    assert!(client.wait().success(), "{}", client.log());
    // Without --ca the client trusts the system's roots, which SSL_CERT_FILE names here.
    let mut client = Client::at(&address, &["--once", "--time", "100"], &[("SSL_CERT_FILE", &ca)]);
    let mut conn = Conn::accept_websocket(&listener, Some(&tls));
    conn.handshake("1 0 1");
    let (pit, _) = conn.ask(&Board::new(6, 6), None);
    assert!(pit.is_some());
    conn.raw(b"goodbye\r\n");
    assert!(client.wait().success(), "{}", client.log());
}

#[test]
fn a_certificate_the_client_does_not_trust_is_refused() {
    let folder = tempfile::tempdir().unwrap();
    let trusted = Authority::new("trusted authority").write(folder.path(), "ca.pem");
    let tls = tls_server(&Authority::new("another authority"));
    let (listener, port) = listen();
    let address = format!("wss://127.0.0.1:{port}/socket");
    for (args, env) in
        [(vec!["--ca", trusted.to_str().unwrap()], vec![]), (vec![], vec![("SSL_CERT_FILE", trusted.as_path())])]
    {
        let mut client = Client::at(&address, &args, &env);
        let stream = accept_tcp(&listener);
        stream.set_read_timeout(Some(HANG)).unwrap();
        let under = rustls::StreamOwned::new(rustls::ServerConnection::new(tls.clone()).unwrap(), stream);
        assert!(tungstenite::accept(under).is_err(), "the client went on with a certificate it does not trust");
        // Trying again would not help: the client stops at once.
        assert_eq!(client.wait().code(), Some(1), "{}", client.log());
        let log = client.log();
        assert_eq!(log.lines().count(), 1, "{log}");
        assert!(log.starts_with(&format!("kalah: {address}: the server's certificate is refused (")), "{log}");
        assert!(log.contains("issuer") && log.contains("give its certificate authority with --ca FILE"), "{log}");
    }
}

#[test]
fn addresses_that_are_no_kgp_address_are_refused_at_once() {
    let (_listener, port) = listen();
    for address in [format!("http://127.0.0.1:{port}"), format!("tcp://127.0.0.1:{port}/socket")] {
        // With --max-retries a client that took the address would end too, after trying it.
        let mut client = Client::at(&address, &["--max-retries", "1", "--retry-delay", "1"], &[]);
        assert_eq!(client.wait().code(), Some(2), "{}", client.log());
        let log = client.log();
        assert_eq!(log.lines().count(), 1, "{log}");
        assert!(log.contains(&format!("{address:?}")) && log.contains("ws://HOST[:PORT]/PATH"), "{log}");
    }
    let mut client = Client::at("localhost", &["--ca", "ca.pem"], &[]);
    assert_eq!(client.wait().code(), Some(2), "{}", client.log());
    assert!(client.log().contains("--ca ca.pem applies to wss:// addresses"), "{}", client.log());
}

/// A TCP server that answers with something else than `kgp MAJOR MINOR PATCH` is no KGP server:
/// the client says so and stops, instead of trading errors with it and reconnecting for ever.
#[test]
fn a_server_that_does_not_greet_with_kgp_is_given_up() {
    for banner in ["SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u3\r\n", "HTTP/1.1 400 Bad Request\r\n\r\n"] {
        let (listener, port) = listen();
        let mut client = Client::at(&format!("127.0.0.1:{port}"), &["--retry-delay", "1"], &[]);
        let mut conn = Conn::accept(&listener);
        conn.raw(banner.as_bytes());
        // The server closes, as such servers do; the client must not come back.
        conn.stream.shutdown(Shutdown::Write).unwrap();
        match conn.get(Instant::now() + HANG) {
            Got::Closed => {}
            Got::Line(line) => panic!("the client answered {:?}", line.raw),
            Got::Timeout => panic!("the client kept the connection"),
        }
        let status = client.wait();
        assert!(listener.accept().is_err(), "the client connected again; its log:\n{}", client.log());
        assert_eq!(status.code(), Some(1), "{}", client.log());
        let first = banner.lines().next().unwrap();
        let log = client.log();
        assert!(
            log.contains(&format!(
                "kalah: 127.0.0.1:{port}: not a KGP server: it began with {first:?}, where a KGP server says kgp \
                 MAJOR MINOR PATCH"
            )),
            "{log}"
        );
    }
}

/// A WebSocket address that a web server answers without a WebSocket (a wrong path, or no
/// WebSocket at all) ends the client with what it answered.
#[test]
fn a_web_server_without_the_websocket_is_given_up() {
    let (listener, port) = listen();
    let mut client = Client::at(&format!("ws://127.0.0.1:{port}/kgp"), &["--retry-delay", "1"], &[]);
    let mut stream = accept_tcp(&listener);
    stream.set_read_timeout(Some(HANG)).unwrap();
    let mut request = Vec::new();
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    while !request.ends_with(b"\r\n\r\n") {
        assert!(reader.read_until(b'\n', &mut request).unwrap() > 0, "the request ended early");
    }
    let request = String::from_utf8(request).unwrap();
    assert!(request.starts_with("GET /kgp HTTP/1.1\r\n"), "{request}");
    stream.write_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\nConnection: close\r\n\r\nnot found").unwrap();
    drop(stream);
    assert_eq!(client.wait().code(), Some(1), "{}", client.log());
    listener.set_nonblocking(true).unwrap();
    assert!(listener.accept().is_err(), "the client connected again; its log:\n{}", client.log());
    let log = client.log();
    assert!(
        log.contains(&format!("ws://127.0.0.1:{port}/kgp answered HTTP 404 Not Found instead of opening a WebSocket")),
        "{log}"
    );
}
