//! One connection to a KGP server: the version handshake, the mode, and every command the server
//! may send, answered while the search thread works.
//!
//! A reader thread turns the socket into lines; this thread answers them in order, so `ping` and
//! `stop` are handled at once even while a search runs.

use std::io::{BufRead, BufReader};
use std::net::{Shutdown, TcpStream};
use std::sync::atomic::AtomicBool;
use std::sync::{mpsc, Arc};
use std::time::Duration;

use anyhow::{anyhow, Result};
use kalah_engine::search::{Clock, Limits};
use kalah_rules::{Move, Position, Rules, Side};

use super::message::{Arg, Message, MessageError, MAX_LINE};
use super::notice;
use super::worker::{Answer, Job, Outbox, Worker};

/// The activity asked for with `mode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Play: answer each `state` with `move`s.
    Freeplay,
    /// Check the rules: answer each `problem` with its `solution`.
    Verify,
    /// Evaluate: answer each `state` with `eval`s.
    Eval,
}

impl Mode {
    /// The word `mode` sends.
    pub fn word(self) -> &'static str {
        match self {
            Mode::Freeplay => "freeplay",
            Mode::Verify => "verify",
            Mode::Eval => "eval",
        }
    }
}

/// What the client says about itself and how it plays.
pub struct Config {
    /// `info:name`.
    pub name: String,
    /// `info:authors`, if given.
    pub authors: Option<String>,
    /// `auth:token`, if given.
    pub token: Option<String>,
    /// The activity.
    pub mode: Mode,
    /// Time to search each `state`.
    pub time: Duration,
    /// Echo every line sent and received.
    pub verbose: bool,
}

/// How a session ended, when not by a fatal error.
#[derive(Debug, PartialEq, Eq)]
pub enum End {
    /// The server said `goodbye`.
    Goodbye,
    /// The connection closed or failed without a `goodbye`.
    Dropped(String),
}

/// The result of a session that ended without a fatal error.
#[derive(Debug)]
pub struct Report {
    /// How it ended.
    pub end: End,
    /// The server sent work (a `state` or a `problem`): the connection was good, so the back-off
    /// starts again from its shortest delay.
    pub worked: bool,
}

enum Incoming {
    Line(String, Result<Message, MessageError>),
    Closed(String),
}

/// Why a line cannot be answered as asked: sent back to the server as `error`.
struct Refusal(String);

struct Running {
    state: Option<u64>,
    stop: Arc<AtomicBool>,
}

/// One connection's state.
pub struct Session<'a> {
    config: &'a Config,
    worker: &'a Worker,
    out: Arc<Outbox>,
    mode_id: Option<u64>,
    greeted: bool,
    running: Option<Running>,
    clock: Option<Duration>,
    worked: bool,
}

impl<'a> Session<'a> {
    /// Runs a session on a connected stream until `goodbye`, the end of the connection, or a
    /// fatal error (a protocol version or mode the two sides do not share).
    pub fn run(stream: TcpStream, config: &'a Config, worker: &'a Worker) -> Result<Report> {
        // Moves are small and late moves are lost moves: send each at once.
        let _ = stream.set_nodelay(true);
        let reading = stream.try_clone()?;
        let out = Arc::new(Outbox::new(stream.try_clone()?, config.verbose));
        let (lines, incoming) = mpsc::channel();
        let reader = std::thread::spawn(move || read_lines(reading, &lines));
        let mut session =
            Session { config, worker, out, mode_id: None, greeted: false, running: None, clock: None, worked: false };
        let result = session.serve(&incoming);
        session.stop_search();
        // Ends the reader thread, which may still wait for a line.
        let _ = stream.shutdown(Shutdown::Both);
        let _ = reader.join();
        result.map(|end| Report { end, worked: session.worked })
    }

    fn serve(&mut self, incoming: &mpsc::Receiver<Incoming>) -> Result<End> {
        for event in incoming {
            match event {
                Incoming::Closed(why) => return Ok(End::Dropped(why)),
                Incoming::Line(raw, parsed) => {
                    if self.config.verbose {
                        notice(&format!("< {raw}"));
                    }
                    let outcome = match parsed {
                        Ok(message) => self.handle(&message),
                        Err(error) => self.malformed(&raw, &error),
                    };
                    match outcome {
                        Ok(Some(end)) => return Ok(end),
                        Ok(None) => {}
                        Err(e) if is_io(&e) => return Ok(End::Dropped(format!("cannot write to the server: {e}"))),
                        Err(e) => return Err(e),
                    }
                }
            }
        }
        Ok(End::Dropped("the connection closed".into()))
    }

    /// Reports a line that is not a command and answers it with `error`, referencing its id
    /// when one can be read; an `ok` or `error` is not answered, so two sides never trade errors.
    fn malformed(&mut self, raw: &str, error: &MessageError) -> Result<Option<End>> {
        if *error == MessageError::Empty {
            return Ok(None);
        }
        let shown: String = raw.chars().take(80).collect();
        let ellipsis = if raw.chars().count() > 80 { "…" } else { "" };
        notice(&format!("malformed line from the server ({error}): {shown:?}{ellipsis}"));
        let word = raw.split_whitespace().find(|w| !w.starts_with(|c: char| c.is_ascii_digit() || c == '@'));
        if matches!(word, Some("ok" | "error")) {
            return Ok(None);
        }
        let reference = Message::id_of_malformed(raw);
        self.out
            .send(Message::new("error", vec![Arg::Str(format!("malformed line: {error}"))]).answering(reference))?;
        Ok(None)
    }

    fn handle(&mut self, message: &Message) -> Result<Option<End>> {
        let answer = match message.command.as_str() {
            "kgp" => self.greet(message)?,
            "init" => Ok(()),
            "ping" => {
                self.out.send(Message::new("pong", vec![]).answering(message.id))?;
                Ok(())
            }
            "goodbye" => return Ok(Some(End::Goodbye)),
            "ok" => {
                if message.reference.is_some() && message.reference == self.mode_id {
                    notice(&format!("the server accepted mode {}", self.config.mode.word()));
                }
                Ok(())
            }
            "error" => self.server_error(message)?,
            "set" => {
                self.set(message);
                Ok(())
            }
            "state" => self.state(message)?,
            "stop" => {
                if let Some(running) = &self.running {
                    if message.reference.is_none() || message.reference == running.state {
                        self.stop_search();
                    }
                }
                Ok(())
            }
            "problem" => self.problem(message)?,
            other => Err(Refusal(format!("unknown command {other:?}"))),
        };
        if let Err(Refusal(why)) = answer {
            notice(&format!("cannot answer {:?}: {why}", message.to_string()));
            self.out.send(Message::new("error", vec![Arg::Str(why)]).answering(message.id))?;
        }
        Ok(None)
    }

    /// Answers `kgp MAJOR MINOR PATCH`: introduces the client and asks for the mode.
    fn greet(&mut self, message: &Message) -> Result<Result<(), Refusal>> {
        let version: Vec<i64> = (0..3).map_while(|i| message.int(i)).collect();
        if version.len() != 3 || message.args.len() != 3 {
            return Ok(Err(Refusal("kgp needs three integers: MAJOR MINOR PATCH".into())));
        }
        if version[0] != 1 {
            let why = format!(
                "the server speaks KGP {}.{}.{}; this client speaks KGP 1.x",
                version[0], version[1], version[2]
            );
            self.out.send(Message::new("error", vec![Arg::Str(why.clone())]))?;
            self.out.send(Message::new("goodbye", vec![]))?;
            return Err(anyhow!(why));
        }
        if self.greeted {
            notice("the server sent kgp twice; the second is ignored");
            return Ok(Ok(()));
        }
        self.greeted = true;
        notice(&format!("connected to a KGP {}.{}.{} server", version[0], version[1], version[2]));
        let set = |key: &str, value: &str| Message::new("set", vec![Arg::Word(key.into()), Arg::Str(value.into())]);
        self.out.send(set("info:name", &self.config.name))?;
        if let Some(authors) = &self.config.authors {
            self.out.send(set("info:authors", authors))?;
        }
        self.out.send(set(
            "info:description",
            "iterative-deepening principal-variation search with a transposition table (kalah)",
        ))?;
        if let Some(token) = &self.config.token {
            self.out.send(set("auth:token", token))?;
        }
        let mode = Message::new("mode", vec![Arg::Word(self.config.mode.word().into())]);
        self.mode_id = Some(self.out.send(mode)?);
        Ok(Ok(()))
    }

    fn server_error(&mut self, message: &Message) -> Result<Result<(), Refusal>> {
        let text = message.text(0).unwrap_or("(no message)");
        if message.reference.is_some() && message.reference == self.mode_id {
            return Err(anyhow!("the server refused mode {}: {text}", self.config.mode.word()));
        }
        match message.reference {
            Some(r) => notice(&format!("the server reports an error about our line {r}: {text}")),
            None => notice(&format!("the server reports an error: {text}")),
        }
        Ok(Ok(()))
    }

    fn set(&mut self, message: &Message) {
        let key = message.text(0).unwrap_or("");
        let value = match message.args.get(1) {
            Some(Arg::Int(n)) => n.to_string(),
            Some(other) => message.text(1).map_or_else(|| other.to_string(), str::to_string),
            None => String::new(),
        };
        match key {
            "time:clock" => match message.int(1) {
                Some(seconds) if seconds >= 0 => self.clock = Some(Duration::from_secs(seconds as u64)),
                _ => notice(&format!("time:clock {value:?} is not a number of seconds; ignored")),
            },
            "info:name" | "info:authors" | "info:description" | "info:comment" => {
                notice(&format!("server {}: {value}", &key[5..]));
            }
            // Other options are hints a client may ignore (the specification forbids ending the
            // connection over an unknown one); the verbose log shows them anyway.
            _ => {}
        }
    }

    /// Starts searching a `state` (freeplay and eval).
    fn state(&mut self, message: &Message) -> Result<Result<(), Refusal>> {
        let answer = match self.config.mode {
            Mode::Freeplay => Answer::Moves,
            Mode::Eval => Answer::Evals,
            Mode::Verify => return Ok(Err(Refusal("state is not part of verify mode".into()))),
        };
        let Some(board) = message.board(0) else {
            return Ok(Err(Refusal(format!("state needs a board argument, got {}", describe_args(message)))));
        };
        let position = match board.parse::<Position>() {
            Ok(p) => p,
            Err(e) => return Ok(Err(Refusal(format!("bad board {board}: {e}")))),
        };
        let moves = position.legal_moves();
        if moves.is_empty() {
            return Ok(Err(Refusal(format!("no legal move on {board}: the houses of the side to move are empty"))));
        }
        self.worked = true;
        self.stop_search();
        let rules = kgp_rules(&position)?;
        let stop = Arc::new(AtomicBool::new(false));
        if answer == Answer::Moves && moves.len() == 1 {
            // Nothing to think about (the reference server does not even ask).
            let only = moves.into_iter().next().map_or(1, Move::number);
            self.out.send(Message::new("move", vec![Arg::Int(only.into())]).answering(message.id))?;
            self.out.send(Message::new("yield", vec![]).answering(message.id))?;
            return Ok(Ok(()));
        }
        let limits = Limits {
            time: Some(self.config.time),
            clock: self.clock.map(|remaining| Clock { remaining, increment: Duration::ZERO }),
            ..Limits::default()
        };
        self.running = Some(Running { state: message.id, stop: stop.clone() });
        self.worker.submit(Job { state: message.id, position, rules, limits, stop, out: self.out.clone(), answer });
        Ok(Ok(()))
    }

    /// Answers a verify-mode `problem BOARD PIT` with the board after the move and whether the
    /// mover moves again. The reference server counts the pit from 0 here (moves count from 1).
    fn problem(&mut self, message: &Message) -> Result<Result<(), Refusal>> {
        if self.config.mode != Mode::Verify {
            return Ok(Err(Refusal(format!("problem is part of verify mode, not {}", self.config.mode.word()))));
        }
        let (Some(board), Some(pit), 2) = (message.board(0), message.int(1), message.args.len()) else {
            return Ok(Err(Refusal(format!("problem needs a board and a pit, got {}", describe_args(message)))));
        };
        self.worked = true;
        let position = match Position::parse_kgp_any_total(&board) {
            Ok(p) => p,
            Err(e) => return Ok(Err(Refusal(format!("bad board {board}: {e}")))),
        };
        let m = i64::from(position.houses());
        if !(0..m).contains(&pit) {
            return Ok(Err(Refusal(format!("pit {pit} is not on the board: pits count from 0 to {}", m - 1))));
        }
        if position.house(Side::South, pit as usize) == 0 {
            return Ok(Err(Refusal(format!("pit {pit} is empty: no move to sow"))));
        }
        let rules = kgp_rules(&position)?;
        let mut after = position;
        // Sown even on a board that is already over by the rules: the server asks for it.
        let outcome = after.sow(&rules, Move::from_index(pit as usize));
        let solution = after.with_mover(Side::South).to_kgp();
        let numbers =
            solution.trim_matches(['<', '>']).split(',').map(|n| n.parse().expect("to_kgp writes numbers")).collect();
        let repeat = if outcome.extra_move { "true" } else { "false" };
        self.out.send(
            Message::new("solution", vec![Arg::Board(numbers), Arg::Word(repeat.into())]).answering(message.id),
        )?;
        Ok(Ok(()))
    }

    fn stop_search(&mut self) {
        if let Some(running) = self.running.take() {
            self.out.stop(&running.stop);
        }
    }
}

/// The reference server's rules for a board: the standard game, ended as soon as a store holds
/// more than half of all seeds, leftovers to their owner. A board that is already over by the
/// majority (the server never sends one to play) is searched under the standard end instead, so
/// the client still answers with a sensible move.
fn kgp_rules(position: &Position) -> Result<Rules> {
    let m = position.houses();
    let mut rules = Rules::preset("kgp", m, 1)?;
    if position.is_over(&rules) {
        rules.majority_ends = false;
    }
    Ok(rules)
}

fn describe_args(message: &Message) -> String {
    if message.args.is_empty() {
        "no arguments".into()
    } else {
        message.args.iter().map(Arg::kind).collect::<Vec<_>>().join(", ")
    }
}

fn is_io(error: &anyhow::Error) -> bool {
    error.chain().any(|e| e.is::<std::io::Error>())
}

/// Reads lines until the connection ends, each at most [`MAX_LINE`] bytes kept (a longer one is
/// reported whole as too long, without holding it in memory).
fn read_lines(stream: TcpStream, lines: &mpsc::Sender<Incoming>) {
    let mut reader = BufReader::new(stream);
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        let (length, ended) = match read_line(&mut reader, &mut buffer) {
            Ok(Some(found)) => found,
            Ok(None) => {
                let _ = lines.send(Incoming::Closed("the server closed the connection".into()));
                return;
            }
            Err(e) => {
                let _ = lines.send(Incoming::Closed(format!("the connection failed: {e}")));
                return;
            }
        };
        while buffer.last().is_some_and(|&b| b == b'\n' || b == b'\r') {
            buffer.pop();
        }
        let (raw, parsed) = if length > MAX_LINE + 2 {
            (String::from_utf8_lossy(&buffer).into_owned(), Err(MessageError::TooLong(length)))
        } else {
            match std::str::from_utf8(&buffer) {
                Ok(text) => (text.to_string(), text.parse()),
                Err(_) => (String::from_utf8_lossy(&buffer).into_owned(), Err(MessageError::NotText)),
            }
        };
        if lines.send(Incoming::Line(raw, parsed)).is_err() || ended {
            return;
        }
    }
}

/// Reads up to a line break, keeping at most `MAX_LINE + 2` bytes; returns the line's whole
/// length and whether the stream ended after it, or `None` at the end of the stream.
fn read_line(reader: &mut impl BufRead, buffer: &mut Vec<u8>) -> std::io::Result<Option<(usize, bool)>> {
    let mut length = 0;
    loop {
        let available = match reader.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok((length > 0).then_some((length, true)));
        }
        let (take, done) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (available.len(), false),
        };
        let room = (MAX_LINE + 2).saturating_sub(buffer.len());
        buffer.extend_from_slice(&available[..take.min(room)]);
        length += take;
        reader.consume(take);
        if done {
            return Ok(Some((length, false)));
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::Read;

    use super::*;

    fn lines_of(input: &[u8]) -> Vec<(usize, bool, Vec<u8>)> {
        let mut reader = BufReader::with_capacity(7, input);
        let mut found = Vec::new();
        let mut buffer = Vec::new();
        while let Some((length, ended)) = read_line(&mut reader, &mut buffer).unwrap() {
            found.push((length, ended, std::mem::take(&mut buffer)));
        }
        found
    }

    #[test]
    fn lines_are_split_across_reads_and_long_ones_are_cut() {
        let found = lines_of(b"kgp 1 0 1\r\n4 state <6,0,0,1,1,1,1,1,1,1,1,1,1,1,1>\nlast");
        assert_eq!(found.len(), 3);
        assert_eq!(found[0], (11, false, b"kgp 1 0 1\r\n".to_vec()));
        assert_eq!(found[1].0, 40);
        assert_eq!(found[2], (4, true, b"last".to_vec()));
        let mut long = vec![b'x'; 3 * MAX_LINE];
        long.extend_from_slice(b"\nping\n");
        let found = lines_of(&long);
        assert_eq!(found[0].0, 3 * MAX_LINE + 1);
        assert_eq!(found[0].2.len(), MAX_LINE + 2);
        assert_eq!(found[1].2, b"ping\n");
    }

    #[test]
    fn majority_boards_are_searched_under_the_standard_end() {
        let playing: Position = "<6,10,0,1,1,1,1,1,1,1,1,1,1,1,1>".parse().unwrap();
        assert!(kgp_rules(&playing).unwrap().majority_ends);
        let decided: Position = "<6,40,0,1,1,1,1,1,1,1,1,1,1,1,1>".parse().unwrap();
        let rules = kgp_rules(&decided).unwrap();
        assert!(!rules.majority_ends && !decided.is_over(&rules));
    }

    #[test]
    fn no_read_is_needed_beyond_the_line() {
        // A reader that fails after the first line: the line is still returned whole.
        struct Failing(Vec<u8>);
        impl Read for Failing {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                if self.0.is_empty() {
                    return Err(std::io::Error::other("gone"));
                }
                let n = self.0.len().min(buf.len());
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0.drain(..n);
                Ok(n)
            }
        }
        let mut reader = BufReader::new(Failing(b"ping\n".to_vec()));
        let mut buffer = Vec::new();
        assert_eq!(read_line(&mut reader, &mut buffer).unwrap(), Some((5, false)));
        assert!(read_line(&mut reader, &mut buffer).is_err());
    }
}
