//! One connection of a KGP server, as a state machine without I/O: the greeting, the client's
//! `set`s and `mode`, the boards sent for moves in freeplay and the problems of verify mode, the
//! time-outs, and what the reference server (go-kgp) does with everything a client may send.
//!
//! The program feeds it the client's lines ([`Session::receive`]), the boards its games want moves
//! for ([`Session::request`]), the timers it was asked to arm when they run out
//! ([`Session::expire`]), and the end of the connection ([`Session::close`]); it returns
//! [`Action`]s: lines to send, timers to arm, the agent to schedule, the answer to a board, a
//! verified solution, notices to log, the end of the connection. It never blocks and never reads
//! a clock: a time-out is an event like a line, so the same input always gives the same actions.
//!
//! What it guarantees, whatever the client sends:
//! * every line it sends carries a fresh even id, larger than the one before (go-kgp numbers its
//!   lines 2, 4, 6, …), except the last `goodbye`, which go-kgp sends without one;
//! * an `ok` or an `error` from the client is never answered, so the two sides never trade errors;
//! * every [`Session::request`] is answered exactly once by an [`Action::Answer`], and a move in
//!   it is legal on the board asked about unless it is [`Outcome::Illegal`]; after the answer the
//!   board's `stop` goes out (unless the connection is gone) and nothing more answers it;
//! * every solution judged right or wrong is judged by `kalah-rules`' sowing under the reference
//!   server's rules;
//! * nothing follows [`Action::Close`], and nothing is sent after `goodbye`.
//!
//! What go-kgp does, and so this session:
//! * It greets with `2 kgp 1 0 1` and waits 20 s for a `mode`; without one it says
//!   `error "Requested no mode"` and `goodbye`. It offers `freeplay` and `verify` (also spelled
//!   `go-kgp:verify`); another mode gets `error "Unsupported mode …"` (here then `goodbye` at once,
//!   as the specification asks; go-kgp waits for the 20 s to run out), and a second `mode`
//!   `error "Duplicate \"mode\" request"` and `goodbye`.
//! * In freeplay it sends `state` (the board as the mover sees it) and takes `move N` (houses counted
//!   from 1) and `yield` referencing it; the last move sent counts. A move or yield that references no
//!   board sent gets `error "No state associated with id"`; one that references a board already
//!   stopped is ignored. At `yield` or when the time is up the move is played and `stop` goes
//!   out. When the time is up it first pings the client: a `pong` lets the move stand (a random
//!   one if none came); none within 20 s gives the game up, `error "received no pong"` and
//!   `goodbye`. An illegal move loses the game (here the client also hears why at once, and a
//!   later legal move still replaces it).
//! * A connection that ends during a board plays its last move (or a random one); asked again it
//!   gives the game up.
//! * Lines are read up to 64 KiB (go-kgp's line scanner gives up on a longer one and drops the
//!   connection: here `error` and `goodbye`); a line over the specification's 16384 characters
//!   but within that is answered with `error` and ignored. go-kgp ignores lines it cannot read;
//!   here they get `error` saying what is wrong, and so does an unknown command.
//! * In verify mode it sends `problem BOARD PIT` (a random board of 6 to 11 houses, the pit
//!   counted from 0) and answers each `solution BOARD REPEAT` with `ok` or with an `error` naming
//!   what was expected, then sends the next problem.

use std::collections::VecDeque;
use std::fmt;
use std::time::Duration;

use kalah_rules::{Move, Position, Rules, Side};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::message::{Arg, Message, MessageError, MAX_LINE};
use crate::line::Frame;

/// The longest line read, line end not counted: a longer one ends the connection, as go-kgp's
/// line scanner (64 KiB) does. Feed the session from a [`crate::LineReader`] of this limit.
pub const MAX_READ: usize = 64 << 10;

/// The version the server greets with.
pub const VERSION: (i64, i64, i64) = (1, 0, 1);

/// How much of a malformed line a notice quotes.
const QUOTED: usize = 80;

/// How many answered boards are remembered, so that a late move for one is ignored rather than
/// refused; go-kgp remembers all of a connection's boards, but a move that late is a bug anyway.
const REMEMBERED: usize = 64;

/// What go-kgp answers a move for a board it did not send.
const NO_STATE: &str = "No state associated with id";

/// How the server runs each connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ServerConfig {
    /// The time a client has for each board (go-kgp: 5 s).
    pub move_time: Duration,
    /// The time a client has to ask for a mode after the greeting (go-kgp: 20 s).
    pub mode_wait: Duration,
    /// The time a client has to answer a `ping` (go-kgp: 20 s).
    pub pong_wait: Duration,
    /// Whether a client out of time is pinged before its move is played (go-kgp: yes); without,
    /// its move is played at once.
    pub ping: bool,
    /// Verify mode: how many problems before the server reports and says `goodbye`; `None` for
    /// as many as the client answers (go-kgp).
    pub problems: Option<u32>,
    /// The seed of the random problems and the random moves of a client out of time.
    pub seed: u64,
}

impl Default for ServerConfig {
    /// go-kgp's times, problems without end, seed 0.
    fn default() -> ServerConfig {
        ServerConfig {
            move_time: Duration::from_secs(5),
            mode_wait: Duration::from_secs(20),
            pong_wait: Duration::from_secs(20),
            ping: true,
            problems: None,
            seed: 0,
        }
    }
}

/// A timer the program arms for the session and reports with [`Session::expire`] when it runs
/// out. Arming a timer of the same kind replaces the one before; a timer reported late (after
/// its business was done) is ignored, so the program need not cancel timers exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Timer {
    /// The client has not asked for a mode.
    Mode,
    /// The time for the board of this `state` id is up.
    Move(u64),
    /// The `ping` of this id has had no `pong`.
    Pong(u64),
}

impl Timer {
    /// Returns the kind of timer: a new timer of a kind replaces the one before.
    pub fn kind(self) -> usize {
        match self {
            Timer::Mode => 0,
            Timer::Move(_) => 1,
            Timer::Pong(_) => 2,
        }
    }
}

/// The activity a client asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activity {
    /// Games: boards to answer with moves.
    Freeplay,
    /// Problems of the rules to answer with solutions.
    Verify,
}

impl fmt::Display for Activity {
    /// Writes the mode's word.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Activity::Freeplay => "freeplay",
            Activity::Verify => "verify",
        })
    }
}

/// What a client said about itself with `set info:*` and `set auth:token`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Identity {
    /// `info:name`.
    pub name: Option<String>,
    /// `info:authors` (or go-kgp's `info:author`).
    pub authors: Option<String>,
    /// `info:description`.
    pub description: Option<String>,
    /// `auth:token`: the same token is the same agent across connections.
    pub token: Option<String>,
}

/// A board the program's game wants a move for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// The position, with the client's side to move; it is sent as that side sees it.
    pub position: Position,
    /// The rules the game is played under (the board's size, go-kgp's end).
    pub rules: Rules,
    /// The game, if the program names it: sent as `set game:id` (and `game:opponent`) before
    /// its first board.
    pub game: Option<GameInfo>,
}

/// The game a board belongs to, as `set game:*` tells the client.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameInfo {
    /// `game:id`.
    pub id: String,
    /// `game:opponent`: the other side's name.
    pub opponent: String,
}

/// Why a move was played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// The client yielded.
    Yield,
    /// The time was up (and the client answered the ping, if there was one).
    Deadline,
    /// The connection ended.
    Left,
}

/// How the client gave up a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Forfeit {
    /// Out of time, it did not answer the ping.
    NoPong,
    /// The connection has ended.
    Gone,
}

/// The answer to a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A legal move; `random` when the client sent none, so the server chose it.
    Move {
        /// The move.
        mv: Move,
        /// The server chose it.
        random: bool,
        /// Why it was played now.
        why: Why,
    },
    /// The client's last move is not legal on the board: it loses the game.
    Illegal {
        /// The house number it sent.
        number: i64,
        /// Why it was played now.
        why: Why,
    },
    /// The client gave the game up.
    Forfeit(Forfeit),
}

/// The client's answer to a [`Request`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The id of the `state` line, or 0 for a board never sent (the connection was gone).
    pub state: u64,
    /// The answer.
    pub outcome: Outcome,
    /// The last `set info:comment` before the move, for the record.
    pub comment: Option<String>,
}

/// A verify-mode solution and its judgement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The problem's board, as sent.
    pub board: String,
    /// The pit, from 0.
    pub pit: usize,
    /// The board after the move, by `kalah-rules`.
    pub expected: String,
    /// Whether the mover moves again, by `kalah-rules`.
    pub repeat: bool,
    /// The board the client sent.
    pub answer: String,
    /// The repeat flag the client sent.
    pub answer_repeat: bool,
}

impl Verdict {
    /// Tells whether the client's solution is right.
    pub fn right(&self) -> bool {
        self.answer == self.expected && self.answer_repeat == self.repeat
    }
}

impl fmt::Display for Verdict {
    /// Writes the problem, and what was expected and sent when they differ.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "problem {} pit {}: ", self.board, self.pit)?;
        if self.right() {
            write!(f, "right ({} {})", self.expected, self.repeat)
        } else {
            write!(f, "expected {} {}, got {} {}", self.expected, self.repeat, self.answer, self.answer_repeat)
        }
    }
}

/// Why the connection ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Close {
    /// The client said `goodbye`.
    Goodbye,
    /// The connection ended (the program told [`Session::close`]).
    Dropped,
    /// No `mode` within the time.
    NoMode,
    /// A mode the server does not offer.
    UnsupportedMode(String),
    /// A second `mode`.
    DuplicateMode,
    /// A line longer than [`MAX_READ`].
    TooLong(usize),
    /// No `pong` within the time.
    NoPong,
    /// The server ended the connection ([`Session::goodbye`]), or verify mode's problems are done.
    Done,
    /// The server refused what the client asked for ([`Session::reject`]).
    Rejected(String),
}

impl fmt::Display for Close {
    /// Writes why, as a log line's end.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Close::Goodbye => f.write_str("the client said goodbye"),
            Close::Dropped => f.write_str("the connection ended"),
            Close::NoMode => f.write_str("no mode was requested in time"),
            Close::UnsupportedMode(mode) => write!(f, "unsupported mode {mode:?}"),
            Close::DuplicateMode => f.write_str("a second mode request"),
            Close::TooLong(length) => write!(f, "a line of {length} bytes, over the {MAX_READ} read"),
            Close::NoPong => f.write_str("no pong to the ping"),
            Close::Done => f.write_str("the server said goodbye"),
            Close::Rejected(why) => write!(f, "refused: {why}"),
        }
    }
}

/// Something worth a line in the server's log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// A line that is not a command.
    Malformed {
        /// What is wrong with it.
        error: MessageError,
        /// Its first characters.
        start: String,
        /// Whether the line is longer than `start`.
        cut: bool,
    },
    /// A command refused with an `error`.
    Refused {
        /// The command (its first characters).
        line: String,
        /// The error's text.
        why: String,
    },
    /// The client reports an error.
    ClientError {
        /// The id of the server's line it is about, if any.
        reference: Option<u64>,
        /// Its text.
        text: String,
    },
    /// The client's mode was accepted.
    Mode(Activity),
}

impl fmt::Display for Notice {
    /// Writes the notice as one line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Notice::Malformed { error, start, cut } => {
                write!(f, "malformed line ({error}): {start:?}{}", if *cut { "…" } else { "" })
            }
            Notice::Refused { line, why } => write!(f, "refused {line:?}: {why}"),
            Notice::ClientError { reference: Some(r), text } => {
                write!(f, "the client reports an error about line {r}: {text:?}")
            }
            Notice::ClientError { reference: None, text } => write!(f, "the client reports an error: {text:?}"),
            Notice::Mode(activity) => write!(f, "mode {activity}"),
        }
    }
}

/// What the program does next.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Send this line.
    Send(Message),
    /// Arm this timer to run out after this long (replacing the timer of its kind).
    Arm(Timer, Duration),
    /// The client asked for freeplay: schedule it for games, as the identity it gave so far.
    Join(Identity),
    /// The answer to the board of the last [`Session::request`].
    Answer(Answer),
    /// A verify-mode solution judged.
    Verified(Verdict),
    /// Log this.
    Notice(Notice),
    /// Close the connection (after sending what came before).
    Close(Close),
}

/// A board sent and waiting for its answer.
#[derive(Clone, Debug)]
struct Pending {
    state: u64,
    position: Position,
    rules: Rules,
    /// The last `move` the client sent for it.
    last: Option<i64>,
    /// The id of the ping sent when its time was up.
    ping: Option<u64>,
}

/// A problem sent and waiting for its solution.
#[derive(Clone, Debug)]
struct Problem {
    id: u64,
    board: String,
    pit: usize,
    expected: Vec<u32>,
    repeat: bool,
}

/// A verify run's tally.
#[derive(Clone, Debug, Default)]
struct Tally {
    right: u32,
    wrong: u32,
    first_wrong: Option<Verdict>,
}

/// One connection's state, from the server's side.
#[derive(Clone, Debug)]
pub struct Session {
    config: ServerConfig,
    last_id: u64,
    identity: Identity,
    activity: Option<Activity>,
    pending: Option<Pending>,
    /// The ids of the last boards sent and answered: a late move for one is ignored.
    answered: VecDeque<u64>,
    game: Option<String>,
    comment: Option<String>,
    problem: Option<Problem>,
    tally: Tally,
    rng: ChaCha8Rng,
    /// `goodbye` has gone out or the connection is gone: nothing more is sent.
    closed: bool,
}

impl Session {
    /// Returns a session and its first actions: the greeting and the timer for the mode.
    pub fn new(config: ServerConfig) -> (Session, Vec<Action>) {
        let mut session = Session {
            config,
            last_id: 0,
            identity: Identity::default(),
            activity: None,
            pending: None,
            answered: VecDeque::new(),
            game: None,
            comment: None,
            problem: None,
            tally: Tally::default(),
            rng: ChaCha8Rng::seed_from_u64(config.seed),
            closed: false,
        };
        let mut out = Vec::new();
        let (major, minor, patch) = VERSION;
        session.send(Message::new("kgp", vec![Arg::Int(major), Arg::Int(minor), Arg::Int(patch)]), &mut out);
        out.push(Action::Arm(Timer::Mode, config.mode_wait));
        (session, out)
    }

    /// Returns what the client said about itself so far.
    pub fn identity(&self) -> &Identity {
        &self.identity
    }

    /// Returns the mode the client asked for, once accepted.
    pub fn activity(&self) -> Option<Activity> {
        self.activity
    }

    /// Tells whether the session has ended: nothing more is sent.
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// Returns how many verify solutions were right and wrong.
    pub fn tally(&self) -> (u32, u32) {
        (self.tally.right, self.tally.wrong)
    }

    /// Returns the first wrong verify solution, if any.
    pub fn first_wrong(&self) -> Option<&Verdict> {
        self.tally.first_wrong.as_ref()
    }

    /// Takes in one line from the client and says what to do.
    pub fn receive(&mut self, frame: &Frame) -> Vec<Action> {
        let mut out = Vec::new();
        if self.closed {
            return out;
        }
        match frame {
            Frame::TooLong { start, length } => {
                let raw = String::from_utf8_lossy(start);
                out.push(Action::Notice(malformed_notice(&raw, true, MessageError::TooLong(*length))));
                if !Message::is_response(&raw) {
                    let text = format!("line of {length} bytes is longer than the {MAX_READ} this server reads");
                    self.send(error(Message::id_of_malformed(&raw), text), &mut out);
                }
                self.end(Close::TooLong(*length), &mut out);
            }
            Frame::Line(bytes) => match std::str::from_utf8(bytes) {
                Err(_) => self.malformed(&String::from_utf8_lossy(bytes), MessageError::NotText, &mut out),
                Ok(text) => match text.parse::<Message>() {
                    Ok(message) => self.handle(&message, &mut out),
                    Err(MessageError::Empty) => {}
                    Err(e) => self.malformed(text, e, &mut out),
                },
            },
        }
        out
    }

    /// Sends the board of `request` and waits for the client's move. A board asked for while
    /// another waits answers that one first, as if its time were up without a ping; a board
    /// asked of a connection that has ended is given up at once ([`Forfeit::Gone`]).
    pub fn request(&mut self, request: Request) -> Vec<Action> {
        let mut out = Vec::new();
        if self.closed {
            out.push(Action::Answer(Answer { state: 0, outcome: Outcome::Forfeit(Forfeit::Gone), comment: None }));
            return out;
        }
        if self.pending.is_some() {
            self.decide(Why::Deadline, &mut out);
        }
        if let Some(game) = request.game.as_ref().filter(|g| self.game.as_ref() != Some(&g.id)) {
            self.game = Some(game.id.clone());
            self.send(set("game:id", &game.id), &mut out);
            self.send(set("game:opponent", &game.opponent), &mut out);
        }
        let board = Arg::Board(board_numbers(&request.position, request.position.mover()));
        let state = self.send(Message::new("state", vec![board]), &mut out);
        self.comment = None;
        self.pending =
            Some(Pending { state, position: request.position, rules: request.rules, last: None, ping: None });
        out.push(Action::Arm(Timer::Move(state), self.config.move_time));
        out
    }

    /// Takes a timer that ran out.
    pub fn expire(&mut self, timer: Timer) -> Vec<Action> {
        let mut out = Vec::new();
        if self.closed {
            return out;
        }
        match timer {
            Timer::Mode => {
                if self.activity.is_none() {
                    self.send(error(None, "Requested no mode".into()), &mut out);
                    self.end(Close::NoMode, &mut out);
                }
            }
            Timer::Move(state) => {
                let Some(pending) = self.pending.as_ref().filter(|p| p.state == state) else {
                    return out;
                };
                if self.config.ping && pending.ping.is_none() {
                    let ping = self.send(Message::new("ping", vec![]), &mut out);
                    if let Some(pending) = self.pending.as_mut() {
                        pending.ping = Some(ping);
                    }
                    out.push(Action::Arm(Timer::Pong(ping), self.config.pong_wait));
                } else if !self.config.ping {
                    self.decide(Why::Deadline, &mut out);
                }
            }
            Timer::Pong(ping) => {
                if self.pending.as_ref().is_some_and(|p| p.ping == Some(ping)) {
                    let pending = self.pending.take().expect("checked");
                    self.remember(pending.state);
                    out.push(Action::Answer(Answer {
                        state: pending.state,
                        outcome: Outcome::Forfeit(Forfeit::NoPong),
                        comment: self.comment.take(),
                    }));
                    self.send(error(Some(ping), "received no pong".into()), &mut out);
                    self.end(Close::NoPong, &mut out);
                }
            }
        }
        out
    }

    /// Takes the end of the connection: a board waiting is answered with the client's last move
    /// (or a random one), and nothing more is sent.
    pub fn close(&mut self) -> Vec<Action> {
        let mut out = Vec::new();
        if self.closed {
            return out;
        }
        self.closed = true;
        self.decide(Why::Left, &mut out);
        out.push(Action::Close(Close::Dropped));
        out
    }

    /// Ends the session from the server's side (shutdown, enough games): `goodbye`, and a board
    /// waiting is answered as if its time were up.
    pub fn goodbye(&mut self) -> Vec<Action> {
        let mut out = Vec::new();
        if !self.closed {
            self.end(Close::Done, &mut out);
        }
        out
    }

    /// Refuses what the client asked for (a wish its name carries that the server cannot grant):
    /// `error` with `why`, then `goodbye`.
    pub fn reject(&mut self, why: &str) -> Vec<Action> {
        let mut out = Vec::new();
        if !self.closed {
            self.send(error(None, why.to_string()), &mut out);
            self.end(Close::Rejected(why.to_string()), &mut out);
        }
        out
    }

    fn send(&mut self, mut message: Message, out: &mut Vec<Action>) -> u64 {
        self.last_id += 2;
        message.id = Some(self.last_id);
        out.push(Action::Send(message));
        self.last_id
    }

    /// Sends `goodbye` (after answering a board that waits) and closes.
    fn end(&mut self, why: Close, out: &mut Vec<Action>) {
        // The server's own goodbye plays the move as if the time were up; every other end is the
        // client's doing, and the client has left.
        self.decide(if why == Close::Done { Why::Deadline } else { Why::Left }, out);
        out.push(Action::Send(Message::new("goodbye", vec![])));
        self.closed = true;
        out.push(Action::Close(why));
    }

    /// Answers the board waiting with the client's last move, or a random one.
    fn decide(&mut self, why: Why, out: &mut Vec<Action>) {
        let Some(pending) = self.pending.take() else { return };
        self.remember(pending.state);
        let outcome = match pending.last {
            Some(number) => match u32::try_from(number).ok().and_then(Move::from_number) {
                Some(mv) if pending.position.play(&pending.rules, mv).is_ok() => {
                    Outcome::Move { mv, random: false, why }
                }
                _ => Outcome::Illegal { number, why },
            },
            None => {
                let moves: Vec<Move> = pending.position.legal_moves().collect();
                match moves.len() {
                    0 => Outcome::Illegal { number: 0, why },
                    n => Outcome::Move { mv: moves[self.rng.gen_range(0..n)], random: true, why },
                }
            }
        };
        out.push(Action::Answer(Answer { state: pending.state, outcome, comment: self.comment.take() }));
        if !self.closed {
            self.send(Message::new("stop", vec![]).answering(Some(pending.state)), out);
        }
    }

    fn remember(&mut self, state: u64) {
        if self.answered.len() == REMEMBERED {
            self.answered.pop_front();
        }
        self.answered.push_back(state);
    }

    /// Reports a line that is not a command and answers it with `error`, referencing its id
    /// when one can be read; an `ok` or `error` is not answered, so two sides never trade errors.
    fn malformed(&mut self, raw: &str, error_kind: MessageError, out: &mut Vec<Action>) {
        let text = format!("malformed line: {error_kind}");
        out.push(Action::Notice(malformed_notice(raw, false, error_kind)));
        if !Message::is_response(raw) {
            self.send(error(Message::id_of_malformed(raw), text), out);
        }
    }

    fn refuse(&mut self, message: &Message, why: String, out: &mut Vec<Action>) {
        let line: String = message.to_string().chars().take(QUOTED).collect();
        out.push(Action::Notice(Notice::Refused { line, why: why.clone() }));
        self.send(error(message.id, why), out);
    }

    fn handle(&mut self, message: &Message, out: &mut Vec<Action>) {
        let refusal = match message.command.as_str() {
            "mode" => self.mode(message, out),
            "ok" | "pong" => {
                if message.command == "pong" && self.pending.as_ref().is_some_and(|p| p.ping.is_some()) {
                    self.decide(Why::Deadline, out);
                }
                None
            }
            "error" => {
                let text = message.text(0).unwrap_or("(no message)").to_string();
                out.push(Action::Notice(Notice::ClientError { reference: message.reference, text }));
                None
            }
            "ping" => {
                self.send(Message::new("pong", vec![]).answering(message.id), out);
                None
            }
            "set" => self.set(message),
            "goodbye" => {
                self.end(Close::Goodbye, out);
                None
            }
            "move" | "yield" if self.activity == Some(Activity::Freeplay) => self.answer(message, out),
            "solution" if self.activity == Some(Activity::Verify) => self.solution(message, out),
            "move" | "yield" | "solution" => Some(format!(
                "{} is not part of {}",
                message.command,
                self.activity.map_or("the session before a mode".to_string(), |a| format!("{a} mode"))
            )),
            other => Some(format!("Unknown command {other:?}")),
        };
        if let Some(why) = refusal {
            self.refuse(message, why, out);
        }
    }

    fn mode(&mut self, message: &Message, out: &mut Vec<Action>) -> Option<String> {
        if self.activity.is_some() {
            self.send(error(message.id, "Duplicate \"mode\" request".into()), out);
            self.end(Close::DuplicateMode, out);
            return None;
        }
        let (Some(word), 1) = (message.text(0), message.args.len()) else {
            return Some("mode needs one argument: freeplay or verify".into());
        };
        let activity = match word {
            "freeplay" => Activity::Freeplay,
            "verify" | "go-kgp:verify" => Activity::Verify,
            other => {
                let other = other.to_string();
                self.send(
                    error(message.id, format!("Unsupported mode {other:?}: this server offers freeplay and verify")),
                    out,
                );
                self.end(Close::UnsupportedMode(other), out);
                return None;
            }
        };
        self.activity = Some(activity);
        out.push(Action::Notice(Notice::Mode(activity)));
        self.send(Message::new("ok", vec![]).answering(message.id), out);
        match activity {
            Activity::Freeplay => out.push(Action::Join(self.identity.clone())),
            Activity::Verify => self.next_problem(out),
        }
        None
    }

    /// Takes `set KEY VALUE`: the client's identity and comments; other options are ignored,
    /// as the specification asks.
    fn set(&mut self, message: &Message) -> Option<String> {
        let Some(key) = message.text(0) else {
            return Some("set needs an option and a value".into());
        };
        let value = match message.args.get(1) {
            Some(Arg::Word(w) | Arg::Str(w)) => w.clone(),
            Some(other) => other.to_string(),
            None => return Some(format!("set {key} needs a value")),
        };
        match key {
            "info:name" => self.identity.name = Some(value),
            "info:authors" | "info:author" => self.identity.authors = Some(value),
            "info:description" => self.identity.description = Some(value),
            "info:comment" => self.comment = Some(value),
            "auth:token" if value.is_empty() => return Some("auth:token must not be empty".into()),
            "auth:token" => self.identity.token = Some(value),
            _ => {}
        }
        None
    }

    /// Takes `move N` or `yield` referencing a board.
    fn answer(&mut self, message: &Message, out: &mut Vec<Action>) -> Option<String> {
        let current = self.pending.as_ref().map(|p| p.state);
        let reference = message.reference;
        if reference.is_none_or(|r| Some(r) != current) {
            // A board already answered: the specification has late moves ignored.
            if reference.is_some_and(|r| self.answered.contains(&r)) {
                return None;
            }
            return Some(format!("{NO_STATE} (a {} must reference the id of the state it answers)", message.command));
        }
        if message.command == "yield" {
            self.decide(Why::Yield, out);
            return None;
        }
        let (Some(number), 1) = (message.int(0), message.args.len()) else {
            return Some("move needs one integer: the house, from 1".into());
        };
        let pending = self.pending.as_mut().expect("the current board");
        pending.last = Some(number);
        let legal = u32::try_from(number)
            .ok()
            .and_then(Move::from_number)
            .ok_or_else(|| {
                format!("there is no house {number}: houses are numbered 1 to {}", pending.position.houses())
            })
            .and_then(|mv| pending.position.play(&pending.rules, mv).map_err(|e| e.to_string()));
        match legal {
            Ok(_) => None,
            Err(why) => {
                Some(format!("illegal move {number} ({why}): it loses the game unless a legal move replaces it"))
            }
        }
    }

    /// Sends a random problem: go-kgp's boards of 6 to 11 houses, up to 2m-1 seeds a house and
    /// 4m-1 a store, with a pit of South that holds seeds.
    fn next_problem(&mut self, out: &mut Vec<Action>) {
        if let Some(limit) = self.config.problems {
            if self.tally.right + self.tally.wrong >= limit {
                self.report(out);
                return;
            }
        }
        let houses: u32 = self.rng.gen_range(6..12);
        let (numbers, pit) = loop {
            let mut numbers = vec![houses, self.rng.gen_range(0..4 * houses), self.rng.gen_range(0..4 * houses)];
            numbers.extend((0..2 * houses).map(|_| self.rng.gen_range(0..2 * houses)));
            let south = &numbers[3..3 + houses as usize];
            let full: Vec<usize> = (0..south.len()).filter(|&i| south[i] > 0).collect();
            if !full.is_empty() {
                let pit = full[self.rng.gen_range(0..full.len())];
                break (numbers, pit);
            }
        };
        let board = Arg::Board(numbers.clone()).to_string();
        let (expected, repeat) = solve(&board, pit).expect("a problem within the rules' limits");
        let id = self.send(Message::new("problem", vec![Arg::Board(numbers), Arg::Int(pit as i64)]), out);
        self.problem = Some(Problem { id, board, pit, expected, repeat });
    }

    /// Sends the verify run's report and `goodbye`.
    fn report(&mut self, out: &mut Vec<Action>) {
        let Tally { right, wrong, first_wrong } = &self.tally;
        let mut text = format!("verify: {} problems, {right} right, {wrong} wrong", right + wrong);
        if let Some(first) = first_wrong {
            text.push_str(&format!("; the first wrong: {first}"));
        }
        self.send(set("info:comment", &text), out);
        self.end(Close::Done, out);
    }

    /// Takes `solution BOARD REPEAT` referencing a problem.
    fn solution(&mut self, message: &Message, out: &mut Vec<Action>) -> Option<String> {
        if self.problem.as_ref().is_none_or(|p| message.reference != Some(p.id)) {
            return Some("Invalid reference (a solution must reference the id of the problem it solves)".into());
        }
        let repeat = match message.args.get(1) {
            Some(Arg::Word(w) | Arg::Str(w)) => match w.to_lowercase().as_str() {
                "true" | "t" | "yes" => Some(true),
                "false" | "f" | "no" => Some(false),
                _ => None,
            },
            Some(Arg::Int(n)) => Some(*n != 0),
            _ => None,
        };
        let (Some(Arg::Board(answer)), Some(answer_repeat), 2) = (message.args.first(), repeat, message.args.len())
        else {
            return Some("solution needs a board and whether the move repeats: true or false".into());
        };
        let problem = self.problem.take().expect("checked");
        let verdict = Verdict {
            board: problem.board.clone(),
            pit: problem.pit,
            expected: Arg::Board(problem.expected.clone()).to_string(),
            repeat: problem.repeat,
            answer: Arg::Board(answer.clone()).to_string(),
            answer_repeat,
        };
        if verdict.right() {
            self.tally.right += 1;
            self.send(Message::new("ok", vec![]).answering(message.id), out);
        } else {
            self.tally.wrong += 1;
            let what = if verdict.answer != verdict.expected {
                format!("Expected state {}", verdict.expected)
            } else if verdict.repeat {
                "Was a repeat move".to_string()
            } else {
                "Was not a repeat move".to_string()
            };
            let text = format!("{what} ({verdict})");
            self.tally.first_wrong.get_or_insert_with(|| verdict.clone());
            self.send(error(message.id, text), out);
        }
        out.push(Action::Verified(verdict));
        self.next_problem(out);
        None
    }
}

fn malformed_notice(raw: &str, long: bool, error: MessageError) -> Notice {
    let start: String = raw.chars().take(QUOTED).collect();
    let cut = long || raw.chars().nth(QUOTED).is_some();
    Notice::Malformed { error, start, cut }
}

fn error(reference: Option<u64>, text: String) -> Message {
    Message::new("error", vec![Arg::Str(text)]).answering(reference)
}

fn set(key: &str, value: &str) -> Message {
    Message::new("set", vec![Arg::Word(key.into()), Arg::Str(value.into())])
}

/// Returns the numbers of `position`'s KGP board literal as `side` sees it: the size, its
/// store, the other store, its houses, the other's houses.
pub fn board_numbers(position: &Position, side: Side) -> Vec<u32> {
    [u32::from(position.houses()), position.store(side).into(), position.store(!side).into()]
        .into_iter()
        .chain(position.row(side).iter().chain(position.row(!side)).map(|&n| u32::from(n)))
        .collect()
}

/// Solves a verify problem by `kalah-rules`: the board after South sows `pit` (from 0) under
/// go-kgp's rules, as South sees it, and whether South moves again.
pub fn solve(board: &str, pit: usize) -> Option<(Vec<u32>, bool)> {
    let position = Position::parse_kgp_any_total(board).ok()?;
    if pit >= usize::from(position.houses()) || position.house(Side::South, pit) == 0 {
        return None;
    }
    let rules = Rules::preset("kgp", position.houses(), 1).ok()?;
    let mut after = position;
    let outcome = after.sow(&rules, Move::from_index(pit));
    Some((board_numbers(&after, Side::South), outcome.extra_move))
}

/// A go-kgp board literal of `MAX_LINE` is far within [`MAX_READ`]: the reader's limit is the
/// larger one.
const _: () = assert!(MAX_LINE < MAX_READ);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Rng as TestRng;

    fn config() -> ServerConfig {
        ServerConfig { problems: Some(3), seed: 7, ..ServerConfig::default() }
    }

    fn line(session: &mut Session, text: &str) -> Vec<Action> {
        session.receive(&Frame::Line(text.as_bytes().to_vec()))
    }

    fn sent(actions: &[Action]) -> Vec<String> {
        actions
            .iter()
            .filter_map(|a| match a {
                Action::Send(m) => Some(m.to_string()),
                _ => None,
            })
            .collect()
    }

    fn answers(actions: &[Action]) -> Vec<Answer> {
        actions
            .iter()
            .filter_map(|a| match a {
                Action::Answer(answer) => Some(answer.clone()),
                _ => None,
            })
            .collect()
    }

    fn rules() -> Rules {
        Rules::preset("kgp", 6, 6).unwrap()
    }

    fn start_request() -> Request {
        let rules = rules();
        Request { position: Position::start(&rules), rules, game: None }
    }

    /// A session in freeplay, its greeting and mode done.
    fn freeplay() -> Session {
        let (mut session, _) = Session::new(config());
        line(&mut session, "1 mode freeplay");
        session
    }

    #[test]
    fn the_greeting_has_an_even_id_and_no_mode_in_time_ends_the_connection() {
        let (mut session, actions) = Session::new(config());
        assert_eq!(sent(&actions), ["2 kgp 1 0 1"]);
        assert_eq!(actions[1], Action::Arm(Timer::Mode, Duration::from_secs(20)));
        let actions = session.expire(Timer::Mode);
        assert_eq!(sent(&actions), ["4 error \"Requested no mode\"", "goodbye"]);
        assert_eq!(actions.last(), Some(&Action::Close(Close::NoMode)));
        assert!(session.is_closed());
        assert_eq!(line(&mut session, "mode freeplay"), []);
        assert_eq!(session.close(), []);
    }

    #[test]
    fn freeplay_joins_with_the_identity_and_plays_the_last_move_at_yield() {
        let (mut session, _) = Session::new(config());
        assert_eq!(line(&mut session, "1 set info:name \"alice vs random\""), []);
        assert_eq!(line(&mut session, "set \"auth:token\" \"s3cret\""), []);
        line(&mut session, "3 set info:author \"A. B\"");
        let actions = line(&mut session, "5 mode \"freeplay\"");
        assert_eq!(sent(&actions), ["4@5 ok"]);
        let identity = Identity {
            name: Some("alice vs random".into()),
            authors: Some("A. B".into()),
            description: None,
            token: Some("s3cret".into()),
        };
        assert!(actions.contains(&Action::Join(identity)));
        assert_eq!(session.expire(Timer::Mode), [], "the mode came in time");
        let mut request = start_request();
        request.game = Some(GameInfo { id: "17".into(), opponent: "random".into() });
        let actions = session.request(request.clone());
        assert_eq!(
            sent(&actions),
            ["6 set game:id \"17\"", "8 set game:opponent \"random\"", "10 state <6,0,0,6,6,6,6,6,6,6,6,6,6,6,6>"]
        );
        assert_eq!(actions.last(), Some(&Action::Arm(Timer::Move(10), Duration::from_secs(5))));
        assert_eq!(sent(&line(&mut session, "7@10 move 1")), Vec::<String>::new());
        line(&mut session, "set info:comment \"depth 3\"");
        line(&mut session, "9@10 move 3");
        let actions = line(&mut session, "11@10 yield");
        let mv = Move::from_number(3).unwrap();
        assert_eq!(
            answers(&actions),
            [Answer {
                state: 10,
                outcome: Outcome::Move { mv, random: false, why: Why::Yield },
                comment: Some("depth 3".into())
            }]
        );
        assert_eq!(sent(&actions), ["12@10 stop"]);
        // Late lines for the board answered are ignored; its timer is stale.
        assert_eq!(line(&mut session, "13@10 move 4"), []);
        assert_eq!(line(&mut session, "15@10 yield"), []);
        assert_eq!(session.expire(Timer::Move(10)), []);
        // The next board of the same game does not name the game again.
        let actions = session.request(request);
        assert_eq!(sent(&actions), ["14 state <6,0,0,6,6,6,6,6,6,6,6,6,6,6,6>"]);
    }

    #[test]
    fn a_board_is_sent_as_its_mover_sees_it() {
        let mut session = freeplay();
        let rules = rules();
        let position = Position::start(&rules).play(&rules, Move::from_number(2).unwrap()).unwrap().0;
        assert_eq!(position.mover(), Side::North);
        let actions = session.request(Request { position, rules, game: None });
        assert_eq!(sent(&actions), ["6 state <6,0,1,7,6,6,6,6,6,6,0,7,7,7,7>"]);
    }

    #[test]
    fn moves_that_answer_no_board_are_refused() {
        let mut session = freeplay();
        session.request(start_request());
        assert_eq!(
            sent(&line(&mut session, "1 move 3")),
            ["8@1 error \"No state associated with id (a move must reference the id of the state it answers)\""]
        );
        assert!(sent(&line(&mut session, "3@99 yield"))[0].contains("No state associated with id"));
        assert!(sent(&line(&mut session, "5@6 move x"))[0].contains("move needs one integer"));
        assert!(sent(&line(&mut session, "7@6 move 1 2"))[0].contains("move needs one integer"));
        assert!(sent(&line(&mut session, "9@6 solution <1,0,0,1,1> true"))[0].contains("not part of freeplay mode"));
    }

    #[test]
    fn an_illegal_move_is_told_at_once_and_loses_unless_replaced() {
        let mut session = freeplay();
        session.request(start_request());
        let actions = line(&mut session, "1@6 move 9");
        assert_eq!(
            sent(&actions),
            ["8@1 error \"illegal move 9 (there is no house 9: houses are numbered 1 to 6): it loses the game unless \
              a legal move replaces it\""]
        );
        assert_eq!(
            answers(&line(&mut session, "3@6 yield"))[0].outcome,
            Outcome::Illegal { number: 9, why: Why::Yield }
        );
        // A legal move after an illegal one replaces it; an empty house is illegal too.
        let rules = rules();
        let position: Position = "0,7,7,7,7,7:1/6,6,6,6,6,6:0/S".parse().unwrap();
        session.request(Request { position, rules, game: None });
        assert!(sent(&line(&mut session, "5@12 move 1"))[0].contains("house 1 is empty"));
        assert!(sent(&line(&mut session, "7@12 move 0"))[0].contains("there is no house 0"));
        assert_eq!(sent(&line(&mut session, "9@12 move 2")), Vec::<String>::new());
        let outcome = answers(&line(&mut session, "11@12 yield"))[0].outcome;
        assert_eq!(outcome, Outcome::Move { mv: Move::from_number(2).unwrap(), random: false, why: Why::Yield });
    }

    #[test]
    fn out_of_time_the_client_is_pinged_and_a_pong_lets_its_move_stand() {
        let mut session = freeplay();
        session.request(start_request());
        line(&mut session, "1@6 move 2");
        let actions = session.expire(Timer::Move(6));
        assert_eq!(sent(&actions), ["8 ping"]);
        assert_eq!(actions[1], Action::Arm(Timer::Pong(8), Duration::from_secs(20)));
        // A second report of the same timer changes nothing; a move may still come before the pong.
        assert_eq!(session.expire(Timer::Move(6)), []);
        line(&mut session, "3@6 move 4");
        let actions = line(&mut session, "5@8 pong");
        let mv = Move::from_number(4).unwrap();
        assert_eq!(answers(&actions)[0].outcome, Outcome::Move { mv, random: false, why: Why::Deadline });
        assert_eq!(sent(&actions), ["10@6 stop"]);
        assert_eq!(session.expire(Timer::Pong(8)), [], "the pong came");
        // No move at all: a random legal one.
        session.request(start_request());
        session.expire(Timer::Move(12));
        let outcome = answers(&line(&mut session, "pong"))[0].outcome;
        let Outcome::Move { mv, random: true, why: Why::Deadline } = outcome else { panic!("{outcome:?}") };
        assert!(Position::start(&rules()).legal_moves().contains(mv));
    }

    #[test]
    fn without_a_pong_the_game_is_given_up_and_the_connection_ends() {
        let mut session = freeplay();
        session.request(start_request());
        session.expire(Timer::Move(6));
        let actions = session.expire(Timer::Pong(8));
        assert_eq!(answers(&actions)[0].outcome, Outcome::Forfeit(Forfeit::NoPong));
        assert_eq!(sent(&actions), ["10@8 error \"received no pong\"", "goodbye"]);
        assert_eq!(actions.last(), Some(&Action::Close(Close::NoPong)));
        // Asked again, the connection gives the game up at once.
        let actions = session.request(start_request());
        assert_eq!(
            actions,
            [Action::Answer(Answer { state: 0, outcome: Outcome::Forfeit(Forfeit::Gone), comment: None })]
        );
    }

    #[test]
    fn without_pings_the_move_is_played_when_the_time_is_up() {
        let (mut session, _) = Session::new(ServerConfig { ping: false, ..config() });
        line(&mut session, "mode freeplay");
        session.request(start_request());
        let actions = session.expire(Timer::Move(6));
        assert!(matches!(answers(&actions)[0].outcome, Outcome::Move { random: true, why: Why::Deadline, .. }));
        assert_eq!(sent(&actions), ["8@6 stop"]);
    }

    #[test]
    fn a_connection_that_ends_during_a_board_plays_its_last_move() {
        let mut session = freeplay();
        session.request(start_request());
        line(&mut session, "1@6 move 5");
        let actions = session.close();
        let mv = Move::from_number(5).unwrap();
        assert_eq!(
            actions,
            [
                Action::Answer(Answer {
                    state: 6,
                    outcome: Outcome::Move { mv, random: false, why: Why::Left },
                    comment: None
                }),
                Action::Close(Close::Dropped)
            ]
        );
        assert_eq!(session.close(), []);
        assert_eq!(answers(&session.request(start_request()))[0].outcome, Outcome::Forfeit(Forfeit::Gone));
        // A goodbye during a board: the move is played, then goodbye.
        let mut session = freeplay();
        session.request(start_request());
        let actions = line(&mut session, "goodbye");
        assert!(matches!(answers(&actions)[0].outcome, Outcome::Move { random: true, why: Why::Left, .. }));
        assert_eq!(sent(&actions), ["8@6 stop", "goodbye"]);
        assert_eq!(actions.last(), Some(&Action::Close(Close::Goodbye)));
    }

    #[test]
    fn the_servers_goodbye_plays_a_waiting_move_as_if_the_time_were_up() {
        let mut session = freeplay();
        session.request(start_request());
        line(&mut session, "1@6 move 6");
        let actions = session.goodbye();
        let mv = Move::from_number(6).unwrap();
        assert_eq!(answers(&actions)[0].outcome, Outcome::Move { mv, random: false, why: Why::Deadline });
        assert_eq!(sent(&actions), ["8@6 stop", "goodbye"]);
        assert_eq!(actions.last(), Some(&Action::Close(Close::Done)));
        assert_eq!(session.goodbye(), []);
        assert_eq!(session.reject("late"), []);
        let mut session = freeplay();
        let actions = session.reject("\"carol\" is not a bot");
        assert_eq!(sent(&actions), ["6 error \"\\\"carol\\\" is not a bot\"", "goodbye"]);
        assert_eq!(actions.last(), Some(&Action::Close(Close::Rejected("\"carol\" is not a bot".into()))));
    }

    #[test]
    fn a_second_board_answers_the_first_as_if_its_time_were_up() {
        let mut session = freeplay();
        session.request(start_request());
        line(&mut session, "1@6 move 1");
        let actions = session.request(start_request());
        assert_eq!(answers(&actions)[0].state, 6);
        assert_eq!(sent(&actions), ["8@6 stop", "10 state <6,0,0,6,6,6,6,6,6,6,6,6,6,6,6>"]);
    }

    #[test]
    fn modes_other_than_freeplay_and_verify_end_the_connection() {
        let (mut session, _) = Session::new(config());
        let actions = line(&mut session, "3 mode eval");
        assert_eq!(
            sent(&actions),
            ["4@3 error \"Unsupported mode \\\"eval\\\": this server offers freeplay and verify\"", "goodbye"]
        );
        assert_eq!(actions.last(), Some(&Action::Close(Close::UnsupportedMode("eval".into()))));
        let (mut session, _) = Session::new(config());
        assert!(sent(&line(&mut session, "3 mode"))[0].contains("mode needs one argument"));
        assert!(sent(&line(&mut session, "5 mode freeplay verify"))[0].contains("mode needs one argument"));
        assert_eq!(sent(&line(&mut session, "7 mode freeplay")), ["8@7 ok"]);
        let actions = line(&mut session, "9 mode freeplay");
        assert_eq!(sent(&actions), ["10@9 error \"Duplicate \\\"mode\\\" request\"", "goodbye"]);
        assert_eq!(actions.last(), Some(&Action::Close(Close::DuplicateMode)));
    }

    #[test]
    fn garbage_gets_an_error_but_ok_and_error_are_never_answered() {
        let mut session = freeplay();
        let actions = line(&mut session, "12 st@te <1>");
        assert!(matches!(&actions[0], Action::Notice(Notice::Malformed { error: MessageError::BadName(_), .. })));
        assert!(sent(&actions)[0].starts_with("6@12 error \"malformed line: the command name"), "{:?}", sent(&actions));
        assert_eq!(sent(&line(&mut session, "error \"unterminated")), Vec::<String>::new());
        assert_eq!(sent(&line(&mut session, "14@3 ok <1,")), Vec::<String>::new());
        assert_eq!(sent(&line(&mut session, "16@3 ok")), Vec::<String>::new());
        // A command name may begin with a digit: "2mode" is the command, "ok" its argument.
        let unknown = sent(&line(&mut session, "1 2mode ok"));
        assert!(unknown[0].ends_with("@1 error \"Unknown command \\\"2mode\\\"\""), "{unknown:?}");
        let malformed = sent(&line(&mut session, "3 2mode ok <"));
        assert!(malformed[0].contains("@3 error \"malformed line: the board"), "{malformed:?}");
        let actions = line(&mut session, "18@3 error \"what\"");
        assert_eq!(actions, [Action::Notice(Notice::ClientError { reference: Some(3), text: "what".into() })]);
        assert_eq!(line(&mut session, "   \r"), []);
        assert!(sent(&session.receive(&Frame::Line(b"20 ping \xff".to_vec())))[0]
            .contains("@20 error \"malformed line: the line is not UTF-8 text\""));
        assert!(
            sent(&line(&mut session, "22 frobnicate"))[0].ends_with("@22 error \"Unknown command \\\"frobnicate\\\"\"")
        );
        assert_eq!(sent(&line(&mut session, "24 ping")), ["16@24 pong"]);
        assert!(sent(&line(&mut session, "set"))[0].contains("set needs an option"));
        assert!(sent(&line(&mut session, "set auth:token \"\""))[0].contains("must not be empty"));
        assert_eq!(line(&mut session, "set time:whatever 5"), [], "unknown options are ignored");
        // A line over the specification's length is refused and the session goes on.
        let long = format!("26 set info:comment \"{}\"", "x".repeat(MAX_LINE));
        assert!(
            sent(&line(&mut session, &long))[0].contains("@26 error \"malformed line: the line is 16406 bytes long")
        );
        assert!(!session.is_closed());
    }

    #[test]
    fn a_line_longer_than_the_server_reads_ends_the_connection() {
        let mut session = freeplay();
        session.request(start_request());
        let actions = session.receive(&Frame::TooLong { start: b"30 set info:name \"xxxx".to_vec(), length: 100_000 });
        let Action::Notice(notice) = &actions[0] else { panic!("a notice first") };
        assert!(notice.to_string().ends_with("\"30 set info:name \\\"xxxx\"…"), "{notice}");
        assert_eq!(
            sent(&actions),
            ["8@30 error \"line of 100000 bytes is longer than the 65536 this server reads\"", "10@6 stop", "goodbye"]
        );
        assert!(matches!(answers(&actions)[0].outcome, Outcome::Move { why: Why::Left, .. }));
        assert_eq!(actions.last(), Some(&Action::Close(Close::TooLong(100_000))));
        // An error that is too long is not answered (found by the fuzz target): only goodbye.
        let mut session = freeplay();
        let actions = session.receive(&Frame::TooLong { start: b"6 error \"xxxx".to_vec(), length: 100_000 });
        assert_eq!(sent(&actions), ["goodbye"]);
        assert_eq!(actions.last(), Some(&Action::Close(Close::TooLong(100_000))));
    }

    /// The verify problems' sowing written from go-kgp's description, independently of
    /// `kalah-rules`: counter-clockwise, the opponent's store skipped, a last seed in one's store
    /// repeats, a last seed in one's empty house captures the opposite seeds if there are any,
    /// and once a store holds more than half of the seeds or a side is empty the houses go to
    /// their owners.
    fn reference_sow(numbers: &[u32], pit: usize) -> (Vec<u32>, bool) {
        let m = numbers[0] as usize;
        let (mut south_store, mut north_store) = (numbers[1], numbers[2]);
        let mut south: Vec<u32> = numbers[3..3 + m].to_vec();
        let mut north: Vec<u32> = numbers[3 + m..].to_vec();
        let mut seeds = std::mem::take(&mut south[pit]);
        let (mut on_south, mut at) = (true, pit + 1);
        let mut last_in_store = false;
        while seeds > 0 {
            if at == m {
                if on_south {
                    south_store += 1;
                    seeds -= 1;
                    last_in_store = seeds == 0;
                }
                on_south = !on_south;
                at = 0;
                continue;
            }
            if on_south {
                south[at] += 1
            } else {
                north[at] += 1
            }
            seeds -= 1;
            last_in_store = false;
            if seeds == 0 && on_south && south[at] == 1 && north[m - 1 - at] > 0 {
                south_store += 1 + std::mem::take(&mut north[m - 1 - at]);
                south[at] = 0;
            }
            at += 1;
        }
        let total: u32 = south.iter().chain(&north).sum::<u32>() + south_store + north_store;
        let over = 2 * south_store > total
            || 2 * north_store > total
            || south.iter().all(|&s| s == 0)
            || north.iter().all(|&s| s == 0);
        if over {
            south_store += south.iter_mut().map(std::mem::take).sum::<u32>();
            north_store += north.iter_mut().map(std::mem::take).sum::<u32>();
        }
        let mut after = vec![m as u32, south_store, north_store];
        after.extend(south.iter().chain(&north));
        (after, last_in_store)
    }

    fn problem(actions: &[Action]) -> (u64, Vec<u32>, usize) {
        actions
            .iter()
            .find_map(|a| match a {
                Action::Send(m) if m.command == "problem" => {
                    let Some(Arg::Board(numbers)) = m.args.first() else { panic!("{m}") };
                    Some((m.id.unwrap(), numbers.clone(), m.int(1).unwrap() as usize))
                }
                _ => None,
            })
            .expect("a problem")
    }

    #[test]
    fn verify_problems_are_go_kgps_boards_solved_as_its_sowing_does() {
        let (mut session, _) = Session::new(ServerConfig { problems: None, ..config() });
        let mut actions = line(&mut session, "1 mode verify");
        assert_eq!(sent(&actions)[0], "4@1 ok");
        let mut repeats = 0;
        for n in 0..2000 {
            let (id, numbers, pit) = problem(&actions);
            let m = numbers[0];
            assert!((6..=11).contains(&m) && numbers.len() == 3 + 2 * m as usize);
            assert!(numbers[1] < 4 * m && numbers[2] < 4 * m && numbers[3..].iter().all(|&s| s < 2 * m));
            assert!(pit < m as usize && numbers[3 + pit] > 0);
            let (after, repeat) = reference_sow(&numbers, pit);
            repeats += usize::from(repeat);
            let answer = format!("{}@{id} solution {} {}", 2 * n + 3, Arg::Board(after), repeat);
            actions = line(&mut session, &answer);
            assert_eq!(sent(&actions)[0], format!("{}@{} ok", id + 2, 2 * n + 3), "{answer}");
        }
        assert_eq!(session.tally(), (2000, 0));
        assert!(repeats > 50, "{repeats} repeat moves");
    }

    #[test]
    fn a_wrong_solution_is_told_what_was_expected_and_the_report_names_the_first() {
        let (mut session, _) = Session::new(config());
        let actions = line(&mut session, "1 mode go-kgp:verify");
        let (id, numbers, pit) = problem(&actions);
        let (after, repeat) = reference_sow(&numbers, pit);
        // A wrong board.
        let mut wrong = after.clone();
        wrong[1] += 1;
        let actions = line(&mut session, &format!("3@{id} solution {} {repeat}", Arg::Board(wrong.clone())));
        let expected = Arg::Board(after.clone()).to_string();
        assert!(sent(&actions)[0].starts_with(&format!("{}@3 error \"Expected state {expected} (problem ", id + 2)));
        let Some(Action::Verified(first)) = actions.iter().find(|a| matches!(a, Action::Verified(_))) else {
            panic!("a verdict")
        };
        assert!(!first.right() && first.answer == Arg::Board(wrong).to_string());
        // A wrong repeat flag, given as the draft's integer.
        let (id, numbers, pit) = problem(&actions);
        let (after, repeat) = reference_sow(&numbers, pit);
        let actions = line(&mut session, &format!("5@{id} solution {} {}", Arg::Board(after), u8::from(!repeat)));
        let what = if repeat { "Was a repeat move" } else { "Was not a repeat move" };
        assert!(sent(&actions)[0].contains(&format!("error \"{what} (problem")), "{:?}", sent(&actions));
        // A solution that references no problem, or is malformed, is refused and the problem stands.
        let (id, numbers, pit) = problem(&actions);
        assert!(sent(&line(&mut session, &format!("7@{} solution <1,0,0,1,1> true", id - 2)))[0]
            .contains("Invalid reference"));
        assert!(sent(&line(&mut session, &format!("9@{id} solution <1,0,0,1,1> maybe")))[0].contains("true or false"));
        assert!(sent(&line(&mut session, &format!("11@{id} move 3")))[0].contains("not part of verify mode"));
        let (after, repeat) = reference_sow(&numbers, pit);
        let actions =
            line(&mut session, &format!("13@{id} solution {} {}", Arg::Board(after), if repeat { "t" } else { "no" }));
        let lines = sent(&actions);
        assert!(lines[0].ends_with("@13 ok"));
        // The third of three problems answered: the report, then goodbye.
        assert_eq!(session.tally(), (1, 2));
        assert!(
            lines[1].contains(&format!(
                "set info:comment \"verify: 3 problems, 1 right, 2 wrong; the first wrong: {first}\""
            )),
            "{lines:?}"
        );
        assert_eq!(lines[2], "goodbye");
        assert_eq!(actions.last(), Some(&Action::Close(Close::Done)));
    }

    /// What the random sessions' test knows of one session, to check its actions against.
    #[derive(Default)]
    struct Checker {
        last_id: u64,
        closed: bool,
        goodbye: bool,
        /// The board asked about and not yet answered.
        waiting: Option<Request>,
        answered: Vec<u64>,
        armed: Vec<Timer>,
        /// The last problem sent: its id, board and pit.
        problem: Option<(u64, Vec<u32>, usize)>,
        seen: [usize; 6],
    }

    impl Checker {
        fn check(&mut self, actions: Vec<Action>, incoming: Option<&str>) {
            assert!(
                !self.closed || actions.iter().all(|a| matches!(a, Action::Answer(_))),
                "{actions:?} after the end"
            );
            for action in actions {
                match action {
                    Action::Send(message) => {
                        self.seen[0] += 1;
                        assert!(!self.goodbye, "{message} after goodbye");
                        let text = message.to_string();
                        assert!(!text.contains(['\n', '\r']), "{text:?}");
                        if message.command == "goodbye" {
                            assert_eq!(message.id, None);
                            self.goodbye = true;
                            continue;
                        }
                        let id = message.id.expect("every line but goodbye has an id");
                        assert!(id % 2 == 0 && id > self.last_id, "id {id} after {}", self.last_id);
                        self.last_id = id;
                        if message.command == "error" {
                            let word = incoming.and_then(Message::command_word);
                            assert!(!matches!(word, Some("ok" | "error")), "{incoming:?} answered with {message}");
                        }
                        if message.command == "problem" {
                            let Some(Arg::Board(numbers)) = message.args.first() else { panic!("{message}") };
                            self.problem = Some((id, numbers.clone(), message.int(1).unwrap() as usize));
                        }
                        if message.command == "stop" {
                            assert!(self.answered.contains(&message.reference.unwrap()), "{message} before its answer");
                        }
                    }
                    Action::Answer(answer) => {
                        self.seen[1] += 1;
                        let request = self.waiting.take().expect("an answer to a board asked about");
                        assert!(answer.state == 0 || !self.answered.contains(&answer.state), "answered twice");
                        self.answered.push(answer.state);
                        if let Outcome::Move { mv, .. } = answer.outcome {
                            assert!(request.position.play(&request.rules, mv).is_ok(), "{mv} is illegal");
                        }
                    }
                    Action::Arm(timer, _) => {
                        self.seen[2] += 1;
                        self.armed.push(timer);
                    }
                    Action::Close(_) => {
                        self.seen[3] += 1;
                        assert!(!self.closed, "closed twice");
                        self.closed = true;
                    }
                    Action::Verified(verdict) => {
                        self.seen[4] += 1;
                        let numbers: Vec<u32> =
                            verdict.board.trim_matches(['<', '>']).split(',').map(|n| n.parse().unwrap()).collect();
                        let (after, repeat) = reference_sow(&numbers, verdict.pit);
                        assert_eq!((verdict.expected.clone(), verdict.repeat), (Arg::Board(after).to_string(), repeat));
                    }
                    Action::Join(_) | Action::Notice(_) => self.seen[5] += 1,
                }
            }
        }
    }

    /// Drives sessions with random lines, boards, timers and ends, and checks the guarantees of
    /// the module's documentation after every step.
    #[test]
    fn random_sessions_keep_the_guarantees() {
        let heads = ["", "1 ", "3@6 ", "5@8 ", "7@10 ", "9@12 ", "@6 ", "x "];
        let bodies = [
            "mode freeplay",
            "mode verify",
            "mode eval",
            "mode",
            "move 1",
            "move 3",
            "move 9",
            "move -1",
            "yield",
            "pong",
            "ping",
            "ok",
            "error \"x\"",
            "error \"open",
            "set info:name \"n\"",
            "set info:comment \"c\"",
            "solution <6,0,0,1,1,1,1,1,1,1,1,1,1,1,1> true",
            "goodbye",
            "st@te",
            "frobnicate",
        ];
        let mut rng = TestRng(0x5eed_5e77);
        let mut seen = [0usize; 6];
        for round in 0..400 {
            let ping = round % 2 == 0;
            let problems = (round % 3 == 0).then_some(3);
            let (mut session, first) = Session::new(ServerConfig { ping, problems, seed: round as u64, ..config() });
            let mut checker = Checker::default();
            checker.check(first, None);
            for _ in 0..50 {
                match rng.below(10) {
                    0 | 1 if session.activity() == Some(Activity::Freeplay) || session.is_closed() => {
                        let rules = rules();
                        let mut position = Position::start(&rules);
                        for _ in 0..rng.below(8) {
                            let moves: Vec<Move> = position.legal_moves().collect();
                            if position.is_over(&rules) || moves.is_empty() {
                                break;
                            }
                            position = position.play_unchecked(&rules, moves[rng.below(moves.len())]);
                        }
                        if position.is_over(&rules) {
                            continue;
                        }
                        let request = Request { position, rules, game: None };
                        let closed = session.is_closed();
                        if closed {
                            checker.waiting = Some(request.clone());
                        }
                        let actions = session.request(request.clone());
                        checker.check(actions, None);
                        if !closed {
                            assert!(checker.waiting.is_none(), "the board before is answered first");
                            checker.waiting = Some(request);
                        }
                    }
                    2 | 3 if !checker.armed.is_empty() => {
                        let timer = checker.armed[rng.below(checker.armed.len())];
                        checker.check(session.expire(timer), None);
                    }
                    4 if rng.below(8) == 0 => {
                        let actions = if rng.below(2) == 0 { session.close() } else { session.goodbye() };
                        checker.check(actions, None);
                    }
                    _ => {
                        let text =
                            if let Some((id, numbers, pit)) = checker.problem.clone().filter(|_| rng.below(3) == 0) {
                                // Right, or with the repeat flag wrong.
                                let (after, repeat) = reference_sow(&numbers, pit);
                                let repeat = repeat != (rng.below(4) == 0);
                                format!("{}@{id} solution {} {repeat}", rng.below(9) * 2 + 1, Arg::Board(after))
                            } else {
                                format!("{}{}", heads[rng.below(heads.len())], bodies[rng.below(bodies.len())])
                            };
                        let actions = line(&mut session, &text);
                        checker.check(actions, Some(&text));
                    }
                }
                assert_eq!(checker.closed, session.is_closed());
                assert!(!checker.closed || checker.waiting.is_none(), "a board waits on a closed session");
            }
            for (total, n) in seen.iter_mut().zip(checker.seen) {
                *total += n;
            }
        }
        assert!(seen.iter().all(|&n| n > 50), "sends, answers, timers, closes, verdicts, other: {seen:?}");
    }
}
