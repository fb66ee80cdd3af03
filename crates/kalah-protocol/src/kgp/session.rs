//! One connection of a KGP client, as a state machine without I/O: the version handshake, the
//! mode, every command the server may send, and the answers of the search.
//!
//! The program feeds it the server's lines ([`Session::receive`]) and what its search reports
//! ([`Session::progress`]: a depth completed, the search ended); it returns [`Action`]s and
//! lines: lines to send, a search to start or stop, notices to log, the end of the session. The
//! session writes every line itself, the search's answers too (`set info:comment`, `move`,
//! `eval`, `yield`), so the program only moves bytes and runs the search. It never blocks and
//! never reads a clock, so the same input always gives the same actions.
//!
//! What it guarantees, whatever the server sends:
//! * every line it sends carries a fresh odd id, larger than the one before (the reference server
//!   numbers its own lines with even ids), so no id is used twice on a connection;
//! * an `ok` or an `error`, well formed or not, is never answered with an `error`, so the two
//!   sides never trade errors;
//! * once a `stop` (or a newer `state`) is handled, nothing more answers the state it ends;
//! * every `move` it sends is legal on the board of the state it answers;
//! * at most one search runs: a [`Action::Think`] comes after the [`Action::Stop`] of the search
//!   before it;
//! * a server whose first line is not `kgp MAJOR MINOR PATCH` is no KGP server: the session ends
//!   at once ([`Fatal::NotKgp`]) and answers nothing;
//! * nothing follows [`Action::End`].
//!
//! The reference server (go-kgp) records a state only after sending it, so an answer that comes
//! back within microseconds is refused with `error "No state associated with id"`. The session
//! sends its best move again when that happens to an answer of the current state, and the
//! search's last answers are its best move once more and then `yield`.
//!
//! ```
//! use std::time::Duration;
//! use kalah_protocol::kgp::{Action, Config, Mode, Progress, Session};
//! use kalah_rules::Score;
//! use kalah_protocol::Frame;
//! use kalah_rules::Move;
//!
//! let time = Duration::from_secs(1);
//! let config = Config { name: "me".into(), authors: None, token: None, mode: Mode::Freeplay, time };
//! let mut session = Session::new(config);
//! let line = |text: &str| Frame::Line(text.as_bytes().to_vec());
//! let greeting = session.receive(&line("kgp 1 0 1"));
//! assert_eq!(greeting.last(), Some(&Action::Send("5 mode freeplay".parse().unwrap())));
//! let actions = session.receive(&line("4 state <6,0,0,6,6,6,6,6,6,6,6,6,6,6,6>"));
//! let Some(Action::Think(think)) = actions.first() else { panic!("a search to start") };
//! // The program searches; after each depth it tells the session the best move so far.
//! let best = Move::from_number(3).unwrap();
//! let depth = Progress::Depth { depth: 1, best, value: Score::new(88, false), nodes: 7 };
//! let lines: Vec<String> = session.progress(think.search, depth).iter().map(|m| m.to_string()).collect();
//! assert_eq!(lines, ["7 set info:comment \"depth 1, value +0.88, 7 nodes\"", "9@4 move 3"]);
//! // The server stops the search: what it reports later is dropped.
//! assert_eq!(session.receive(&line("6@4 stop")), [Action::Stop(think.search)]);
//! assert_eq!(session.progress(think.search, depth), []);
//! assert_eq!(session.progress(think.search, Progress::Ended), []);
//! ```

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use kalah_rules::{Move, Position, PositionError, Rules, RulesError, Side};

use super::message::{Arg, Message, MessageError};
use super::progress::Progress;
use crate::line::Frame;

/// How often a refused answer of one state is sent again, at most: a server that refuses every
/// answer must not start an endless exchange.
pub const MAX_RESENDS: u32 = 3;

/// What the reference server says when an answer comes before it has recorded the state.
const NO_STATE: &str = "no state associated with id";

/// How much of a malformed line a notice quotes.
const QUOTED: usize = 80;

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
    /// Returns the word `mode` sends.
    pub fn word(self) -> &'static str {
        match self {
            Mode::Freeplay => "freeplay",
            Mode::Verify => "verify",
            Mode::Eval => "eval",
        }
    }
}

impl fmt::Display for Mode {
    /// Writes the mode's word.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// A word that names no mode.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a mode: freeplay, verify or eval")]
pub struct UnknownMode(pub String);

impl FromStr for Mode {
    type Err = UnknownMode;

    /// Reads a mode's word.
    fn from_str(word: &str) -> Result<Mode, UnknownMode> {
        [Mode::Freeplay, Mode::Verify, Mode::Eval]
            .into_iter()
            .find(|m| m.word() == word)
            .ok_or_else(|| UnknownMode(word.to_string()))
    }
}

/// What the client says about itself and how it plays.
#[derive(Clone, Debug, PartialEq, Eq)]
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
}

/// Names one search the session asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SearchId(u64);

/// What a search answers its state with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Answer {
    /// `move` after each depth, then the best move again and `yield` when the search ends by
    /// itself (freeplay).
    Moves,
    /// `eval` after each depth: the value for the player to move, in seeds (eval mode).
    Evals,
}

/// A search to start: think about `position` and report through [`Session::progress`].
#[derive(Clone, Debug, PartialEq)]
pub struct Think {
    /// The search, to name it in [`Session::progress`].
    pub search: SearchId,
    /// The id of the `state` command, which every answer references.
    pub state: Option<u64>,
    /// The board, the client's side to move.
    pub position: Position,
    /// The rules to search it under.
    pub rules: Rules,
    /// The time to search it.
    pub time: Duration,
    /// The time left on the client's clock, if the server gave it (`time:clock`).
    pub clock: Option<Duration>,
}

/// A KGP version: `kgp MAJOR MINOR PATCH`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Version {
    /// Changes that break clients.
    pub major: i64,
    /// Additions.
    pub minor: i64,
    /// Fixes.
    pub patch: i64,
}

impl fmt::Display for Version {
    /// Writes `MAJOR.MINOR.PATCH`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)
    }
}

/// Why the session cannot go on with this server.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Fatal {
    /// The server's first line is not the `kgp` greeting: it speaks another protocol.
    #[error(
        "not a KGP server: it began with {start:?}{}, where a KGP server says kgp MAJOR MINOR PATCH",
        if *.cut { "…" } else { "" }
    )]
    NotKgp {
        /// The first characters of its first line.
        start: String,
        /// Whether the line is longer than `start`.
        cut: bool,
    },
    /// The server speaks another major version.
    #[error("the server speaks KGP {0}; this client speaks KGP 1.x")]
    Version(Version),
    /// The server refused the mode.
    #[error("the server refused mode {mode}: {text}")]
    ModeRefused {
        /// The mode asked for.
        mode: Mode,
        /// The server's error text.
        text: String,
    },
}

/// How a session ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// The server said `goodbye`.
    Goodbye,
    /// The two sides cannot work together; reconnecting would not help.
    Fatal(Fatal),
}

/// The types of a command's arguments, for messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgKinds(pub Vec<&'static str>);

impl ArgKinds {
    fn of(message: &Message) -> ArgKinds {
        ArgKinds(message.args.iter().map(Arg::kind).collect())
    }
}

impl fmt::Display for ArgKinds {
    /// Writes the kinds separated by commas, or "no arguments".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            f.write_str("no arguments")
        } else {
            f.write_str(&self.0.join(", "))
        }
    }
}

/// Why a command cannot be answered as asked: sent back to the server as `error`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// A command this client does not know.
    #[error("unknown command {0:?}")]
    UnknownCommand(String),
    /// `kgp` without its three numbers.
    #[error("kgp needs three integers: MAJOR MINOR PATCH")]
    KgpArgs,
    /// `state` in verify mode.
    #[error("state is not part of verify mode")]
    StateInVerify,
    /// `problem` outside verify mode.
    #[error("problem is part of verify mode, not {0}")]
    ProblemOutsideVerify(Mode),
    /// `state` without a board.
    #[error("state needs a board argument, got {0}")]
    StateArgs(ArgKinds),
    /// `problem` without a board and a pit.
    #[error("problem needs a board and a pit, got {0}")]
    ProblemArgs(ArgKinds),
    /// A board that is not a position.
    #[error("bad board {board}: {error}")]
    BadBoard {
        /// The board as sent.
        board: String,
        /// What is wrong with it.
        error: PositionError,
    },
    /// A board where the side to move has no move.
    #[error("no legal move on {0}: the houses of the side to move are empty")]
    NoMove(String),
    /// A verify pit off the board.
    #[error("pit {pit} is not on the board: pits count from 0 to {}", i64::from(*houses) - 1)]
    PitOffBoard {
        /// The pit asked for.
        pit: i64,
        /// Houses a side.
        houses: u8,
    },
    /// A verify pit without seeds.
    #[error("pit {0} is empty: no move to sow")]
    EmptyPit(i64),
    /// A board size the rules do not take.
    #[error(transparent)]
    Rules(#[from] RulesError),
}

/// Something worth a line in the client's log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// The server greeted with this version.
    ServerVersion(Version),
    /// The server sent `kgp` again.
    KgpTwice,
    /// The server accepted the mode.
    ModeAccepted(Mode),
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
        /// The command, written back.
        line: String,
        /// Why.
        why: Refusal,
    },
    /// The server reports an error.
    ServerError {
        /// The id of the client's line it is about, if any.
        reference: Option<u64>,
        /// Its text.
        text: String,
    },
    /// The server refused an answer of the current state because it had not recorded the state
    /// yet; the best move goes out again.
    Resent {
        /// The id of the refused line.
        refused: u64,
        /// The move sent again.
        best: Option<Move>,
        /// Whether `yield` goes out again too (the search had ended).
        yielded: bool,
    },
    /// An `info:` option of the server.
    ServerInfo {
        /// The key without `info:`.
        key: String,
        /// Its value.
        value: String,
    },
    /// A `time:clock` that is not a number of seconds.
    BadClock(String),
}

impl fmt::Display for Notice {
    /// Writes the notice as one line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Notice::ServerVersion(version) => write!(f, "connected to a KGP {version} server"),
            Notice::KgpTwice => f.write_str("the server sent kgp twice; the second is ignored"),
            Notice::ModeAccepted(mode) => write!(f, "the server accepted mode {mode}"),
            Notice::Malformed { error, start, cut } => {
                write!(f, "malformed line from the server ({error}): {start:?}{}", if *cut { "…" } else { "" })
            }
            Notice::Refused { line, why } => write!(f, "cannot answer {line:?}: {why}"),
            Notice::ServerError { reference: Some(r), text } => {
                write!(f, "the server reports an error about our line {r}: {text}")
            }
            Notice::ServerError { reference: None, text } => write!(f, "the server reports an error: {text}"),
            Notice::Resent { refused, best, yielded } => {
                write!(f, "the server refused our line {refused} before it had recorded the state; sending ")?;
                match (best, yielded) {
                    (Some(best), true) => write!(f, "move {best} and yield again"),
                    (Some(best), false) => write!(f, "move {best} again"),
                    (None, _) => f.write_str("yield again"),
                }
            }
            Notice::ServerInfo { key, value } => write!(f, "server {key}: {value}"),
            Notice::BadClock(value) => write!(f, "time:clock {value:?} is not a number of seconds; ignored"),
        }
    }
}

/// What the program does next.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Send this line (its id is set).
    Send(Message),
    /// Start this search; it reports through [`Session::progress`].
    Think(Think),
    /// Stop this search (its answers are dropped from now on, whenever they come).
    Stop(SearchId),
    /// Log this.
    Notice(Notice),
    /// The session is over: close the connection.
    End(End),
}

/// The newest state the server sent and the answers to it.
#[derive(Clone, Debug)]
struct Current {
    search: SearchId,
    state: Option<u64>,
    /// The board, to check the moves sent for it.
    position: Position,
    answer: Answer,
    /// The search runs: it has neither ended nor been stopped.
    running: bool,
    /// The server stopped it (or sent a newer state): nothing more answers it.
    stopped: bool,
    /// `yield` has gone out.
    yielded: bool,
    best: Option<Move>,
    /// The ids of the `move` and `yield` lines sent for it.
    answers: Vec<u64>,
    /// The id of the last move sent again after a refusal.
    resent: Option<u64>,
    resends: u32,
}

/// One connection's state.
#[derive(Clone, Debug)]
pub struct Session {
    config: Config,
    next_id: u64,
    mode_id: Option<u64>,
    greeted: bool,
    clock: Option<Duration>,
    worked: bool,
    searches: u64,
    current: Option<Current>,
    ended: bool,
}

impl Session {
    /// Returns a session waiting for the server's `kgp` greeting.
    pub fn new(config: Config) -> Session {
        Session {
            config,
            next_id: 1,
            mode_id: None,
            greeted: false,
            clock: None,
            worked: false,
            searches: 0,
            current: None,
            ended: false,
        }
    }

    /// Tells whether the server sent work (a `state` or a `problem`): the connection was good.
    pub fn worked(&self) -> bool {
        self.worked
    }

    /// Tells whether the session has ended.
    pub fn is_over(&self) -> bool {
        self.ended
    }

    /// Takes in one line from the server and says what to do.
    pub fn receive(&mut self, frame: &Frame) -> Vec<Action> {
        let mut out = Vec::new();
        if self.ended {
            return out;
        }
        if !self.greeted {
            if let Some(fatal) = not_kgp(frame) {
                self.end(End::Fatal(fatal), &mut out);
                return out;
            }
        }
        match frame {
            Frame::TooLong { start, length } => {
                self.malformed(&String::from_utf8_lossy(start), true, MessageError::TooLong(*length), &mut out)
            }
            Frame::Line(bytes) => match std::str::from_utf8(bytes) {
                Err(_) => self.malformed(&String::from_utf8_lossy(bytes), false, MessageError::NotText, &mut out),
                Ok(text) => match text.parse::<Message>() {
                    Ok(message) => self.handle(&message, &mut out),
                    Err(error) => self.malformed(text, false, error, &mut out),
                },
            },
        }
        out
    }

    /// Takes what search `search` reports and returns the lines to send for it, with their ids:
    /// after a depth, `set info:comment` (depth, value, nodes) and the best `move` in freeplay, or
    /// `eval` (the value in seeds) in eval mode; at its end in freeplay, the best move once more
    /// and `yield`. Nothing once the search has ended or been stopped, and no move that is not
    /// legal on the state's board.
    pub fn progress(&mut self, search: SearchId, progress: Progress) -> Vec<Message> {
        let Some(current) = self.current.as_ref().filter(|c| c.search == search && c.running && !self.ended) else {
            return Vec::new();
        };
        let (state, answer, position) = (current.state, current.answer, current.position);
        match progress {
            Progress::Depth { depth, best, value, nodes } => match answer {
                Answer::Moves if position.legal_moves().contains(best) => {
                    let comment = format!("depth {depth}, value {value:#}, {nodes} nodes");
                    // The reference server files the comment with the next move.
                    let comment = Message::new("set", vec![Arg::Word("info:comment".into()), Arg::Str(comment)]);
                    self.answer(search, comment)
                        .into_iter()
                        .chain(self.answer(search, move_line(best, state)))
                        .collect()
                }
                Answer::Moves => Vec::new(),
                Answer::Evals => {
                    let eval = Message::new("eval", vec![Arg::Real(value.seeds())]).answering(state);
                    self.answer(search, eval).into_iter().collect()
                }
            },
            Progress::Ended => self.finish(search),
        }
    }

    /// Gives a line of search `search` for its state its id and records it, or returns `None`
    /// when that search has been stopped.
    fn answer(&mut self, search: SearchId, mut message: Message) -> Option<Message> {
        if self.ended {
            return None;
        }
        let id = self.next_id;
        let current = self.current.as_mut().filter(|c| c.search == search && !c.stopped)?;
        match message.command.as_str() {
            "move" => {
                current.best = message.int(0).and_then(|n| u32::try_from(n).ok()).and_then(Move::from_number);
                current.answers.push(id);
            }
            "yield" => {
                current.yielded = true;
                current.answers.push(id);
            }
            _ => {}
        }
        self.next_id += 2;
        message.id = Some(id);
        Some(message)
    }

    /// Takes the end of search `search` by itself and returns its last lines: in freeplay its best
    /// move once more, then `yield`; nothing if it was stopped.
    fn finish(&mut self, search: SearchId) -> Vec<Message> {
        let Some(current) = self.current.as_mut().filter(|c| c.search == search && c.running) else {
            return Vec::new();
        };
        current.running = false;
        if current.stopped || current.answer == Answer::Evals || self.ended {
            return Vec::new();
        }
        let (state, best) = (current.state, current.best);
        let mut lines = Vec::new();
        if let Some(best) = best {
            lines.extend(self.answer(search, move_line(best, state)));
        }
        lines.extend(self.answer(search, Message::new("yield", vec![]).answering(state)));
        lines
    }

    /// Takes the end of the connection: stops the search, and nothing more is sent.
    pub fn close(&mut self) -> Vec<Action> {
        let mut out = Vec::new();
        self.stop_current(&mut out);
        self.ended = true;
        out
    }

    fn send(&mut self, mut message: Message, out: &mut Vec<Action>) -> u64 {
        let id = self.next_id;
        self.next_id += 2;
        message.id = Some(id);
        out.push(Action::Send(message));
        id
    }

    /// Sends an answer of the current state through [`Session::answer`], so that it is recorded.
    fn send_answer(&mut self, message: Message, out: &mut Vec<Action>) {
        if let Some(search) = self.current.as_ref().map(|c| c.search) {
            out.extend(self.answer(search, message).map(Action::Send));
        }
    }

    fn end(&mut self, end: End, out: &mut Vec<Action>) {
        self.stop_current(out);
        self.ended = true;
        out.push(Action::End(end));
    }

    /// Ends the current state: nothing more answers it, and its search stops.
    fn stop_current(&mut self, out: &mut Vec<Action>) {
        if let Some(current) = &mut self.current {
            current.stopped = true;
            if std::mem::take(&mut current.running) {
                out.push(Action::Stop(current.search));
            }
        }
    }

    /// Reports a line that is not a command and answers it with `error`, referencing its id
    /// when one can be read; an `ok` or `error` is not answered, so two sides never trade errors.
    fn malformed(&mut self, raw: &str, long: bool, error: MessageError, out: &mut Vec<Action>) {
        if error == MessageError::Empty {
            return;
        }
        let start: String = raw.chars().take(QUOTED).collect();
        let cut = long || raw.chars().nth(QUOTED).is_some();
        let answer = !Message::is_response(raw);
        let text = format!("malformed line: {error}");
        out.push(Action::Notice(Notice::Malformed { error, start, cut }));
        if answer {
            let reference = Message::id_of_malformed(raw);
            self.send(Message::new("error", vec![Arg::Str(text)]).answering(reference), out);
        }
    }

    fn handle(&mut self, message: &Message, out: &mut Vec<Action>) {
        let answer = match message.command.as_str() {
            "kgp" => self.greet(message, out),
            "init" => Ok(()),
            "ping" => {
                self.send(Message::new("pong", vec![]).answering(message.id), out);
                Ok(())
            }
            "goodbye" => {
                self.end(End::Goodbye, out);
                Ok(())
            }
            "ok" => {
                if message.reference.is_some() && message.reference == self.mode_id {
                    out.push(Action::Notice(Notice::ModeAccepted(self.config.mode)));
                }
                Ok(())
            }
            "error" => {
                self.server_error(message, out);
                Ok(())
            }
            "set" => {
                self.set(message, out);
                Ok(())
            }
            "state" => self.state(message, out),
            "stop" => {
                let current = self.current.as_ref().map(|c| c.state);
                if message.reference.is_none() || current.is_some_and(|state| message.reference == state) {
                    self.stop_current(out);
                }
                Ok(())
            }
            "problem" => self.problem(message, out),
            other => Err(Refusal::UnknownCommand(other.to_string())),
        };
        if let Err(why) = answer {
            out.push(Action::Notice(Notice::Refused { line: message.to_string(), why: why.clone() }));
            self.send(Message::new("error", vec![Arg::Str(why.to_string())]).answering(message.id), out);
        }
    }

    /// Answers `kgp MAJOR MINOR PATCH`: introduces the client and asks for the mode.
    fn greet(&mut self, message: &Message, out: &mut Vec<Action>) -> Result<(), Refusal> {
        let (Some(major), Some(minor), Some(patch), 3) =
            (message.int(0), message.int(1), message.int(2), message.args.len())
        else {
            return Err(Refusal::KgpArgs);
        };
        let version = Version { major, minor, patch };
        if major != 1 {
            let fatal = Fatal::Version(version);
            self.send(Message::new("error", vec![Arg::Str(fatal.to_string())]), out);
            self.send(Message::new("goodbye", vec![]), out);
            self.end(End::Fatal(fatal), out);
            return Ok(());
        }
        if self.greeted {
            out.push(Action::Notice(Notice::KgpTwice));
            return Ok(());
        }
        self.greeted = true;
        out.push(Action::Notice(Notice::ServerVersion(version)));
        let set = |key: &str, value: &str| Message::new("set", vec![Arg::Word(key.into()), Arg::Str(value.into())]);
        let mut lines = vec![set("info:name", &self.config.name)];
        lines.extend(self.config.authors.as_deref().map(|authors| set("info:authors", authors)));
        lines.push(set(
            "info:description",
            "iterative-deepening principal-variation search with a transposition table (kalah)",
        ));
        lines.extend(self.config.token.as_deref().map(|token| set("auth:token", token)));
        for line in lines {
            self.send(line, out);
        }
        let mode = Message::new("mode", vec![Arg::Word(self.config.mode.word().into())]);
        self.mode_id = Some(self.send(mode, out));
        Ok(())
    }

    fn server_error(&mut self, message: &Message, out: &mut Vec<Action>) {
        let text = message.text(0).unwrap_or("(no message)").to_string();
        let reference = message.reference;
        if reference.is_some() && reference == self.mode_id {
            self.end(End::Fatal(Fatal::ModeRefused { mode: self.config.mode, text }), out);
            return;
        }
        out.push(Action::Notice(Notice::ServerError { reference, text: text.clone() }));
        if let Some(refused) = reference.filter(|_| text.to_lowercase().contains(NO_STATE)) {
            self.resend(refused, out);
        }
    }

    /// Sends the best move (and `yield`, if it went out) again after the server refused `refused`,
    /// an answer of the current state, because it had not recorded the state yet. A refusal of a
    /// line sent before the last resending is answered by that resending already.
    fn resend(&mut self, refused: u64, out: &mut Vec<Action>) {
        let Some(current) = self.current.as_mut() else { return };
        if current.stopped
            || !current.answers.contains(&refused)
            || current.resent.is_some_and(|last| refused < last)
            || current.resends >= MAX_RESENDS
        {
            return;
        }
        current.resends += 1;
        let (state, best, yielded) = (current.state, current.best, current.yielded);
        out.push(Action::Notice(Notice::Resent { refused, best, yielded }));
        let first = self.next_id;
        if let Some(best) = best {
            self.send_answer(move_line(best, state), out);
        }
        if yielded {
            self.send_answer(Message::new("yield", vec![]).answering(state), out);
        }
        if let Some(current) = self.current.as_mut() {
            current.resent = Some(first);
        }
    }

    fn set(&mut self, message: &Message, out: &mut Vec<Action>) {
        let key = message.text(0).unwrap_or("");
        let value = match message.args.get(1) {
            Some(Arg::Int(n)) => n.to_string(),
            Some(other) => message.text(1).map_or_else(|| other.to_string(), str::to_string),
            None => String::new(),
        };
        match key {
            "time:clock" => match message.int(1).and_then(|seconds| u64::try_from(seconds).ok()) {
                Some(seconds) => self.clock = Some(Duration::from_secs(seconds)),
                None => out.push(Action::Notice(Notice::BadClock(value))),
            },
            "info:name" | "info:authors" | "info:description" | "info:comment" => {
                out.push(Action::Notice(Notice::ServerInfo { key: key["info:".len()..].to_string(), value }));
            }
            // Other options are hints a client may ignore (the specification forbids ending the
            // connection over an unknown one).
            _ => {}
        }
    }

    /// Starts searching a `state` (freeplay and eval).
    fn state(&mut self, message: &Message, out: &mut Vec<Action>) -> Result<(), Refusal> {
        let answer = match self.config.mode {
            Mode::Freeplay => Answer::Moves,
            Mode::Eval => Answer::Evals,
            Mode::Verify => return Err(Refusal::StateInVerify),
        };
        let Some(board) = message.board(0) else {
            return Err(Refusal::StateArgs(ArgKinds::of(message)));
        };
        let position = board.parse::<Position>().map_err(|error| Refusal::BadBoard { board: board.clone(), error })?;
        let moves = position.legal_moves();
        if moves.is_empty() {
            return Err(Refusal::NoMove(board));
        }
        let rules = kgp_rules(&position)?;
        self.worked = true;
        self.stop_current(out);
        self.searches += 1;
        let search = SearchId(self.searches);
        let only = moves.into_iter().next().filter(|_| answer == Answer::Moves && moves.len() == 1);
        self.current = Some(Current {
            search,
            state: message.id,
            position,
            answer,
            running: only.is_none(),
            stopped: false,
            yielded: false,
            best: None,
            answers: Vec::new(),
            resent: None,
            resends: 0,
        });
        if let Some(only) = only {
            // Nothing to think about (the reference server does not even ask).
            self.send_answer(move_line(only, message.id), out);
            self.send_answer(Message::new("yield", vec![]).answering(message.id), out);
            return Ok(());
        }
        out.push(Action::Think(Think {
            search,
            state: message.id,
            position,
            rules,
            time: self.config.time,
            clock: self.clock,
        }));
        Ok(())
    }

    /// Answers a verify-mode `problem BOARD PIT` with the board after the move and whether the
    /// mover moves again. The reference server counts the pit from 0 here (moves count from 1).
    fn problem(&mut self, message: &Message, out: &mut Vec<Action>) -> Result<(), Refusal> {
        if self.config.mode != Mode::Verify {
            return Err(Refusal::ProblemOutsideVerify(self.config.mode));
        }
        let (Some(board), Some(pit), 2) = (message.board(0), message.int(1), message.args.len()) else {
            return Err(Refusal::ProblemArgs(ArgKinds::of(message)));
        };
        self.worked = true;
        let position =
            Position::parse_kgp_any_total(&board).map_err(|error| Refusal::BadBoard { board: board.clone(), error })?;
        let houses = position.houses();
        let Some(index) = usize::try_from(pit).ok().filter(|&p| p < usize::from(houses)) else {
            return Err(Refusal::PitOffBoard { pit, houses });
        };
        if position.house(Side::South, index) == 0 {
            return Err(Refusal::EmptyPit(pit));
        }
        let rules = kgp_rules(&position)?;
        let mut after = position;
        // Sown even on a board that is already over by the rules: the server asks for it.
        let outcome = after.sow(&rules, Move::from_index(index));
        let repeat = if outcome.extra_move { "true" } else { "false" };
        let solution = Message::new("solution", vec![Arg::Board(kgp_numbers(&after)), Arg::Word(repeat.into())]);
        self.send(solution.answering(message.id), out);
        Ok(())
    }
}

/// Tells why `frame`, a line before the greeting, shows that the server is no KGP server: it is
/// neither blank nor `kgp MAJOR MINOR PATCH`.
fn not_kgp(frame: &Frame) -> Option<Fatal> {
    let (raw, long) = match frame {
        Frame::TooLong { start, .. } => (String::from_utf8_lossy(start), true),
        Frame::Line(bytes) => {
            let raw = String::from_utf8_lossy(bytes);
            match raw.parse::<Message>() {
                Err(MessageError::Empty) => return None,
                Ok(m) if m.command == "kgp" && m.args.len() == 3 && (0..3).all(|i| m.int(i).is_some()) => return None,
                _ => (raw, false),
            }
        }
    };
    let start: String = raw.chars().take(QUOTED).collect();
    let cut = long || raw.chars().nth(QUOTED).is_some();
    Some(Fatal::NotKgp { start, cut })
}

fn move_line(best: Move, state: Option<u64>) -> Message {
    Message::new("move", vec![Arg::Int(best.number().into())]).answering(state)
}

/// Returns the numbers of the KGP board literal of `position` as South sees it: the size, South's
/// store, North's store, South's houses, North's houses.
fn kgp_numbers(position: &Position) -> Vec<u32> {
    let (south, north) = (Side::South, Side::North);
    [u32::from(position.houses()), position.store(south).into(), position.store(north).into()]
        .into_iter()
        .chain(position.row(south).iter().chain(position.row(north)).map(|&n| u32::from(n)))
        .collect()
}

/// The reference server's rules for a board: the standard game, ended as soon as a store holds
/// more than half of all seeds, leftovers to their owner. A board that is already over by the
/// majority (the server never sends one to play) is searched under the standard end instead, so
/// the client still answers with a sensible move.
pub fn kgp_rules(position: &Position) -> Result<Rules, RulesError> {
    let mut rules = Rules::preset("kgp", position.houses(), 1)?;
    if position.is_over(&rules) {
        rules.majority_ends = false;
    }
    Ok(rules)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Rng;
    use kalah_rules::Score;

    fn config(mode: Mode) -> Config {
        Config {
            name: "test".into(),
            authors: Some("A. B".into()),
            token: None,
            mode,
            time: Duration::from_millis(100),
        }
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

    fn think(actions: &[Action]) -> Think {
        actions
            .iter()
            .find_map(|a| match a {
                Action::Think(t) => Some(t.clone()),
                _ => None,
            })
            .expect("a search")
    }

    /// A session that has greeted and had its mode accepted.
    fn ready(mode: Mode) -> Session {
        let mut session = Session::new(config(mode));
        let greeting = line(&mut session, "kgp 1 0 1");
        let mode_id = session.mode_id.expect("mode sent");
        assert!(line(&mut session, &format!("2@{mode_id} ok")).contains(&Action::Notice(Notice::ModeAccepted(mode))));
        assert!(greeting.contains(&Action::Notice(Notice::ServerVersion(Version { major: 1, minor: 0, patch: 1 }))));
        session
    }

    /// A depth's report with move `n` (from 1).
    fn depth(n: u32) -> Progress {
        Progress::Depth { depth: 3, best: Move::from_number(n).unwrap(), value: Score::new(150, false), nodes: 40 }
    }

    /// Reports a depth with move `n` and returns the lines to send.
    fn report(session: &mut Session, search: &Think, n: u32) -> Vec<String> {
        session.progress(search.search, depth(n)).iter().map(ToString::to_string).collect()
    }

    /// Reports a depth with move `n` and returns the id of the move sent.
    fn move_id(session: &mut Session, search: &Think, n: u32) -> u64 {
        let lines = session.progress(search.search, depth(n));
        assert_eq!(lines.last().map(|m| m.command.as_str()), Some("move"), "{lines:?}");
        lines.last().unwrap().id.unwrap()
    }

    fn ended(session: &mut Session, search: &Think) -> Vec<String> {
        session.progress(search.search, Progress::Ended).iter().map(ToString::to_string).collect()
    }

    const BOARD: &str = "<6,0,0,6,6,6,6,6,6,6,6,6,6,6,6>";

    #[test]
    fn the_greeting_introduces_the_client_and_asks_for_the_mode() {
        let mut session = Session::new(config(Mode::Eval));
        let actions = line(&mut session, "kgp 1 1 0");
        assert_eq!(
            sent(&actions),
            [
                "1 set info:name \"test\"",
                "3 set info:authors \"A. B\"",
                "5 set info:description \"iterative-deepening principal-variation search with a transposition table \
                 (kalah)\"",
                "7 mode eval",
            ]
        );
        assert_eq!(sent(&line(&mut session, "kgp 1 1 0")), Vec::<String>::new());
        assert_eq!(sent(&line(&mut session, "4 ping")), ["9@4 pong"]);
        assert_eq!(sent(&line(&mut session, "kgp 1 0")), ["11 error \"kgp needs three integers: MAJOR MINOR PATCH\""]);
        assert!(!session.worked());
    }

    #[test]
    fn another_major_version_ends_the_session() {
        let mut session = Session::new(config(Mode::Freeplay));
        let actions = line(&mut session, "kgp 2 0 0");
        assert_eq!(
            sent(&actions),
            ["1 error \"the server speaks KGP 2.0.0; this client speaks KGP 1.x\"", "3 goodbye"]
        );
        assert_eq!(
            actions.last(),
            Some(&Action::End(End::Fatal(Fatal::Version(Version { major: 2, minor: 0, patch: 0 }))))
        );
        assert!(session.is_over());
        assert_eq!(line(&mut session, "ping"), []);
    }

    #[test]
    fn a_server_whose_first_line_is_not_kgp_is_no_kgp_server() {
        for (first, quoted) in [
            ("SSH-2.0-OpenSSH_9.2p1 Debian-2", "\"SSH-2.0-OpenSSH_9.2p1 Debian-2\""),
            ("HTTP/1.1 400 Bad Request", "\"HTTP/1.1 400 Bad Request\""),
            ("kgp 1 0", "\"kgp 1 0\""),
            ("4 state <6,0,0,6,6,6,6,6,6,6,6,6,6,6,6>", "\"4 state <6,0,0,6,6,6,6,6,6,6,6,6,6,6,6>\""),
        ] {
            let mut session = Session::new(config(Mode::Freeplay));
            assert_eq!(line(&mut session, ""), [], "a blank line is no verdict");
            let actions = line(&mut session, first);
            let [Action::End(End::Fatal(fatal))] = &actions[..] else { panic!("{first}: {actions:?}") };
            assert_eq!(
                fatal.to_string(),
                format!("not a KGP server: it began with {quoted}, where a KGP server says kgp MAJOR MINOR PATCH")
            );
            assert!(session.is_over());
        }
        let mut session = Session::new(config(Mode::Freeplay));
        let actions = session.receive(&Frame::TooLong { start: vec![b'<'; 100], length: 20_000 });
        let [Action::End(End::Fatal(fatal))] = &actions[..] else { panic!("{actions:?}") };
        assert!(fatal.to_string().contains(&format!("{:?}…", "<".repeat(80))), "{fatal}");
        // Once greeted, such lines are answered and the session goes on.
        let mut session = ready(Mode::Freeplay);
        assert!(sent(&line(&mut session, "SSH-2.0-OpenSSH_9.2p1"))[0].contains("error"));
        assert!(!session.is_over());
    }

    #[test]
    fn a_move_that_is_not_legal_on_the_board_is_not_sent() {
        let mut session = ready(Mode::Freeplay);
        let search = think(&line(&mut session, "4 state <6,0,0,0,0,3,0,2,0,1,1,1,1,1,1>"));
        assert_eq!(report(&mut session, &search, 1), Vec::<String>::new());
        assert_eq!(report(&mut session, &search, 3).len(), 2);
        assert_eq!(ended(&mut session, &search)[0], format!("{}@4 move 3", session.next_id - 4));
    }

    #[test]
    fn a_refused_mode_ends_the_session() {
        let mut session = Session::new(config(Mode::Verify));
        line(&mut session, "kgp 1 0 1");
        let mode_id = session.mode_id.unwrap();
        let actions = line(&mut session, &format!("4@{mode_id} error \"Unsupported mode\""));
        let fatal = Fatal::ModeRefused { mode: Mode::Verify, text: "Unsupported mode".into() };
        assert_eq!(fatal.to_string(), "the server refused mode verify: Unsupported mode");
        assert_eq!(actions, [Action::End(End::Fatal(fatal))]);
    }

    #[test]
    fn a_state_is_searched_and_its_answers_end_at_stop() {
        let mut session = ready(Mode::Freeplay);
        let actions = line(&mut session, &format!("4 state {BOARD}"));
        let search = think(&actions);
        assert_eq!((search.state, search.time), (Some(4), Duration::from_millis(100)));
        assert_eq!(search.position.to_kgp(), BOARD);
        assert!(session.worked());
        let id = session.next_id;
        assert_eq!(
            report(&mut session, &search, 3),
            [format!("{id} set info:comment \"depth 3, value +1.50, 40 nodes\""), format!("{}@4 move 3", id + 2)]
        );
        let exact =
            Progress::Depth { depth: 9, best: Move::from_number(2).unwrap(), value: Score::new(-600, true), nodes: 7 };
        let lines = session.progress(search.search, exact);
        assert_eq!(lines[0].text(1), Some("depth 9, value -6.00 exact, 7 nodes"));
        assert_eq!(line(&mut session, "6@4 stop"), [Action::Stop(search.search)]);
        assert_eq!(report(&mut session, &search, 4), Vec::<String>::new());
        assert_eq!(ended(&mut session, &search), Vec::<String>::new());
        // A second stop changes nothing.
        assert_eq!(line(&mut session, "8@4 stop"), []);
    }

    #[test]
    fn a_search_that_ends_by_itself_sends_its_best_move_again_and_yields() {
        let mut session = ready(Mode::Freeplay);
        let search = think(&line(&mut session, &format!("4 state {BOARD}")));
        move_id(&mut session, &search, 2);
        move_id(&mut session, &search, 5);
        let last = ended(&mut session, &search);
        let id = session.next_id;
        assert_eq!(last, [format!("{}@4 move 5", id - 4), format!("{}@4 yield", id - 2)]);
        assert_eq!(ended(&mut session, &search), Vec::<String>::new());
        // Nothing more comes from a search that has ended.
        assert_eq!(report(&mut session, &search, 1), Vec::<String>::new());
        // Then the server's stop has no search to stop.
        assert_eq!(line(&mut session, "6@4 stop"), []);
    }

    #[test]
    fn a_newer_state_stops_the_search_of_the_one_before() {
        let mut session = ready(Mode::Freeplay);
        let old = think(&line(&mut session, &format!("4 state {BOARD}")));
        let actions = line(&mut session, &format!("6 state {BOARD}"));
        let new = think(&actions);
        assert_eq!(actions[0], Action::Stop(old.search));
        assert_ne!(old.search, new.search);
        assert_eq!(report(&mut session, &old, 1), Vec::<String>::new());
        assert_eq!(ended(&mut session, &old), Vec::<String>::new());
        assert_eq!(report(&mut session, &new, 1).len(), 2);
    }

    #[test]
    fn a_board_with_one_move_is_answered_at_once() {
        let mut session = ready(Mode::Freeplay);
        let actions = line(&mut session, "4 state <6,0,0,0,0,3,0,0,0,1,1,1,1,1,1>");
        let id = session.next_id;
        assert_eq!(sent(&actions), [format!("{}@4 move 3", id - 4), format!("{}@4 yield", id - 2)]);
        assert!(!actions.iter().any(|a| matches!(a, Action::Think(_))));
    }

    #[test]
    fn eval_mode_sends_evaluations_and_no_yield() {
        let mut session = ready(Mode::Eval);
        let search = think(&line(&mut session, &format!("4 state {BOARD}")));
        let lines = report(&mut session, &search, 1);
        assert!(matches!(&lines[..], [eval] if eval.ends_with("@4 eval 1.500")), "{lines:?}");
        assert_eq!(ended(&mut session, &search), Vec::<String>::new());
        assert!(matches!(&sent(&line(&mut session, "6 problem <6,0,0,1,1,1,1,1,1,1,1,1,1,1,1> 0"))[..],
                [e] if e.contains("error")));
    }

    #[test]
    fn the_clock_and_the_servers_info_are_taken_in() {
        let mut session = ready(Mode::Freeplay);
        assert_eq!(line(&mut session, "set time:clock 30"), []);
        assert_eq!(line(&mut session, "set time:clock -3"), [Action::Notice(Notice::BadClock("-3".into()))]);
        let notice = &line(&mut session, "set info:name \"server\"")[0];
        assert_eq!(notice.clone(), Action::Notice(Notice::ServerInfo { key: "name".into(), value: "server".into() }));
        assert_eq!(line(&mut session, "set game:id 5"), []);
        let search = think(&line(&mut session, &format!("4 state {BOARD}")));
        assert_eq!(search.clock, Some(Duration::from_secs(30)));
    }

    #[test]
    fn verify_problems_are_solved_with_pits_from_0() {
        let mut session = ready(Mode::Verify);
        let actions = line(&mut session, "4 problem <3,0,0,1,2,3,4,5,6> 2");
        // Pit 2 (3 seeds): South's store, North's houses 1 and 2.
        assert!(sent(&actions)[0].ends_with("@4 solution <3,1,0,1,2,0,5,6,6> false"), "{:?}", sent(&actions));
        let actions = line(&mut session, "6 problem <3,0,0,1,2,1,4,5,6> 2");
        assert!(sent(&actions)[0].ends_with("@6 solution <3,1,0,1,2,0,4,5,6> true"), "{:?}", sent(&actions));
        for (pit, why) in [("3", "pits count from 0 to 2"), ("-1", "pits count from 0 to 2")] {
            let actions = line(&mut session, &format!("8 problem <3,0,0,1,2,1,4,5,6> {pit}"));
            assert!(sent(&actions)[0].contains(why), "{:?}", sent(&actions));
        }
        let actions = line(&mut session, "10 problem <3,0,0,0,2,1,4,5,6> 0");
        assert!(sent(&actions)[0].contains("pit 0 is empty"));
        let actions = line(&mut session, &format!("12 state {BOARD}"));
        assert!(sent(&actions)[0].ends_with("@12 error \"state is not part of verify mode\""), "{:?}", sent(&actions));
    }

    #[test]
    fn malformed_lines_are_answered_unless_they_are_ok_or_error() {
        let mut session = ready(Mode::Freeplay);
        let actions = line(&mut session, "12 st@te <1>");
        assert!(matches!(&actions[0], Action::Notice(Notice::Malformed { error: MessageError::BadName(_), .. })));
        assert!(sent(&actions)[0].contains("@12 error \"malformed line: the command name"), "{:?}", sent(&actions));
        assert_eq!(sent(&line(&mut session, "error \"unterminated")), Vec::<String>::new());
        assert_eq!(sent(&line(&mut session, "14@3 ok <1,")), Vec::<String>::new());
        // The command of "3 2mode ok <" is "2mode", not "ok": answered.
        let malformed = sent(&line(&mut session, "3 2mode ok <"));
        assert!(malformed[0].contains("@3 error \"malformed line: the board"), "{malformed:?}");
        assert_eq!(line(&mut session, "   "), []);
        let actions = session.receive(&Frame::Line(b"16 ping \xff".to_vec()));
        assert!(sent(&actions)[0].contains("@16 error \"malformed line: the line is not UTF-8 text\""));
        let actions = session.receive(&Frame::TooLong { start: b"18 set info:name \"xxxx".to_vec(), length: 20_000 });
        assert!(sent(&actions)[0].contains(
            "@18 error \"malformed line: the line is 20000 bytes long; a command is at most 16384 characters\""
        ));
        let Action::Notice(notice) = &actions[0] else { panic!("a notice first") };
        assert!(notice.to_string().ends_with("\"18 set info:name \\\"xxxx\"…"), "{notice}");
        let actions = line(&mut session, "20 frobnicate");
        assert_eq!(
            actions[0].clone(),
            Action::Notice(Notice::Refused {
                line: "20 frobnicate".into(),
                why: Refusal::UnknownCommand("frobnicate".into())
            })
        );
        assert!(sent(&actions)[0].ends_with("@20 error \"unknown command \\\"frobnicate\\\"\""));
        assert!(sent(&line(&mut session, "22 state <6,0,0,1,2>"))[0].contains("bad board"));
        assert!(sent(&line(&mut session, "24 state <6,0,0,0,0,0,0,0,0,1,1,1,1,1,1>"))[0].contains("no legal move"));
        assert!(sent(&line(&mut session, "26 state 5 \"x\""))[0].contains("got an integer, a string"));
        assert!(sent(&line(&mut session, "28 state"))[0].contains("got no arguments"));
        assert!(!session.worked());
    }

    /// The server's race: answers that come before the server has recorded the state are
    /// refused; the best move goes out again, and after the end of the search `yield` too.
    #[test]
    fn a_refused_answer_is_sent_again() {
        let mut session = ready(Mode::Freeplay);
        let search = think(&line(&mut session, &format!("4 state {BOARD}")));
        let first = move_id(&mut session, &search, 2);
        let second = move_id(&mut session, &search, 5);
        let refuse = |id: u64| format!("6@{id} error \"No state associated with id\"");
        let actions = line(&mut session, &refuse(first));
        let again = session.next_id - 2;
        assert_eq!(sent(&actions), [format!("{again}@4 move 5")]);
        assert!(actions.contains(&Action::Notice(Notice::Resent {
            refused: first,
            best: Move::from_number(5),
            yielded: false
        })));
        // The second refusal is about a line sent before the move went out again: that move answers it.
        assert_eq!(sent(&line(&mut session, &refuse(second))), Vec::<String>::new());
        // The search ends; its last lines are refused too.
        let last = session.progress(search.search, Progress::Ended);
        let yield_id = last[1].id.unwrap();
        let actions = line(&mut session, &refuse(yield_id));
        let id = session.next_id;
        assert_eq!(sent(&actions), [format!("{}@4 move 5", id - 4), format!("{}@4 yield", id - 2)]);
        // Sent again at most MAX_RESENDS times a state.
        let actions = line(&mut session, &refuse(id - 2));
        assert_eq!(sent(&actions).len(), 2);
        let last = session.next_id - 2;
        assert_eq!(sent(&line(&mut session, &refuse(last))), Vec::<String>::new());
        // Other errors, lines of no answer, and stopped states are not answered.
        let search = think(&line(&mut session, &format!("8 state {BOARD}")));
        let id = move_id(&mut session, &search, 1);
        assert_eq!(sent(&line(&mut session, &format!("10@{id} error \"Illegal move\""))), Vec::<String>::new());
        assert_eq!(sent(&line(&mut session, &refuse(1))), Vec::<String>::new());
        line(&mut session, "12@8 stop");
        assert_eq!(sent(&line(&mut session, &refuse(id))), Vec::<String>::new());
    }

    #[test]
    fn a_refused_answer_to_a_board_with_one_move_is_sent_again() {
        let mut session = ready(Mode::Freeplay);
        let actions = line(&mut session, "4 state <6,0,0,0,0,3,0,0,0,1,1,1,1,1,1>");
        let move_id = match &actions[0] {
            Action::Send(m) => m.id.unwrap(),
            other => panic!("{other:?}"),
        };
        let actions = line(&mut session, &format!("6@{move_id} error \"no state associated with ID\""));
        let id = session.next_id;
        assert_eq!(sent(&actions), [format!("{}@4 move 3", id - 4), format!("{}@4 yield", id - 2)]);
    }

    #[test]
    fn goodbye_and_the_end_of_the_connection_stop_the_search() {
        let mut session = ready(Mode::Freeplay);
        let search = think(&line(&mut session, &format!("4 state {BOARD}")));
        assert_eq!(line(&mut session, "goodbye"), [Action::Stop(search.search), Action::End(End::Goodbye)]);
        assert_eq!(report(&mut session, &search, 1), Vec::<String>::new());
        assert_eq!(line(&mut session, "ping"), []);
        let mut session = ready(Mode::Freeplay);
        let search = think(&line(&mut session, &format!("4 state {BOARD}")));
        assert_eq!(session.close(), [Action::Stop(search.search)]);
        assert_eq!(ended(&mut session, &search), Vec::<String>::new());
    }

    #[test]
    fn majority_boards_are_searched_under_the_standard_end() {
        let playing: Position = "<6,10,0,1,1,1,1,1,1,1,1,1,1,1,1>".parse().unwrap();
        assert!(kgp_rules(&playing).unwrap().majority_ends);
        let decided: Position = "<6,40,0,1,1,1,1,1,1,1,1,1,1,1,1>".parse().unwrap();
        let rules = kgp_rules(&decided).unwrap();
        assert!(!rules.majority_ends && !decided.is_over(&rules));
    }

    /// Drives sessions with random lines and random search answers and checks the guarantees of
    /// the module's documentation after every step.
    #[test]
    fn random_sessions_keep_the_guarantees() {
        let heads = ["", "2 ", "4 ", "6@1 ", "8@3 ", "10@5 ", "@7 ", "12@9 ", "x "];
        let bodies = [
            "kgp 1 0 1",
            "kgp 2 0 0",
            "ping",
            "ok",
            "error \"No state associated with id\"",
            "error \"x\"",
            "error \"open",
            "ok <1,",
            "state <6,0,0,6,6,6,6,6,6,6,6,6,6,6,6>",
            "state <6,0,0,0,0,3,0,0,0,1,1,1,1,1,1>",
            "state <6,0,0,1>",
            "stop",
            "set time:clock 5",
            "problem <3,0,0,1,2,3,4,5,6> 1",
            "goodbye",
            "st@te",
            "init",
        ];
        let mut rng = Rng(0x5eed_1234);
        // How often each kind of action came, so that the drive is seen to reach them all.
        let mut seen = [0usize; 7];
        for round in 0..600 {
            let mode = [Mode::Freeplay, Mode::Eval, Mode::Verify][round % 3];
            let mut session = Session::new(config(mode));
            let mut last_id = 0;
            // Searches stopped, and the one running.
            let mut stopped = Vec::new();
            let mut running: Option<Think> = None;
            let mut ended = false;
            for step in 0..60 {
                let mut actions = Vec::new();
                let mut incoming = None;
                match rng.below(4) {
                    // Most sessions start with the greeting; the others with any line.
                    _ if step == 0 && round % 5 != 0 => {
                        actions = line(&mut session, "kgp 1 0 1");
                        incoming = Some("kgp 1 0 1".to_string());
                    }
                    0 if running.is_some() => {
                        let search = running.clone().unwrap();
                        // Now and then a move that is not legal there, which the session must not send.
                        let mv = match rng.below(4) {
                            0 => Move::from_number(1 + rng.below(6) as u32).unwrap(),
                            _ => search.position.legal_moves().into_iter().next().unwrap(),
                        };
                        let value = Score::new(rng.below(400) as i32 - 200, rng.below(2) == 0);
                        let report = Progress::Depth { depth: 1, best: mv, value, nodes: 1 };
                        actions.extend(session.progress(search.search, report).into_iter().map(Action::Send));
                    }
                    1 if running.is_some() && rng.below(4) == 0 => {
                        let search = running.take().unwrap();
                        actions.extend(session.progress(search.search, Progress::Ended).into_iter().map(Action::Send));
                    }
                    _ => {
                        // Either a stopped search answers late, or the server sends a line.
                        if let Some(&old) = stopped.get(rng.below(stopped.len() + 4)) {
                            let old: SearchId = old;
                            seen[5] += 1;
                            assert_eq!(session.progress(old, depth(1)), []);
                            assert_eq!(session.progress(old, Progress::Ended), []);
                            continue;
                        }
                        // Half the lines answer the session's last line, as a refusal would.
                        let replies = ["error \"No state associated with id\"", "error \"x\"", "ok", "stop"];
                        let text = match rng.below(2) {
                            0 => format!("14@{last_id} {}", replies[rng.below(replies.len())]),
                            _ => format!("{}{}", heads[rng.below(heads.len())], bodies[rng.below(bodies.len())]),
                        };
                        actions = line(&mut session, &text);
                        incoming = Some(text);
                    }
                }
                assert!(!ended || actions.is_empty(), "{actions:?} after the end");
                for action in &actions {
                    seen[match action {
                        Action::Send(_) => 0,
                        Action::Think(_) => 1,
                        Action::Stop(_) => 2,
                        Action::Notice(Notice::Resent { .. }) => 3,
                        Action::Notice(_) => 0,
                        Action::End(_) => 4,
                    }] += 1;
                    match action {
                        Action::Send(message) => {
                            let id = message.id.expect("every line has an id");
                            assert!(id % 2 == 1 && id > last_id, "id {id} after {last_id}");
                            last_id = id;
                            if message.command == "error" {
                                let word = incoming.as_deref().and_then(Message::command_word);
                                assert!(!matches!(word, Some("ok" | "error")), "{incoming:?} answered with {message}");
                            }
                            if matches!(message.command.as_str(), "move" | "yield" | "eval") {
                                // Only the newest state is answered, and only until it is stopped.
                                let current = session.current.as_ref().expect("an answer to a state");
                                assert_eq!(message.reference, current.state, "{message}");
                                assert!(!current.stopped, "{message} answers a stopped state");
                            }
                            if message.command == "move" {
                                let mv = message.int(0).and_then(|n| Move::from_number(n as u32));
                                assert!(
                                    mv.is_some_and(|mv| session
                                        .current
                                        .as_ref()
                                        .unwrap()
                                        .position
                                        .legal_moves()
                                        .contains(mv)),
                                    "{message} is not legal"
                                );
                            }
                        }
                        Action::Think(think) => {
                            assert!(running.is_none(), "a second search while one runs");
                            assert!(!think.position.legal_moves().is_empty());
                            running = Some(think.clone());
                        }
                        Action::Stop(search) => {
                            assert_eq!(
                                running.as_ref().map(|r| r.search),
                                Some(*search),
                                "a stop of no running search"
                            );
                            stopped.push(*search);
                            running = None;
                        }
                        Action::Notice(notice) => assert!(!notice.to_string().contains('\n')),
                        Action::End(end) => {
                            ended = true;
                            if let End::Fatal(Fatal::NotKgp { .. }) = end {
                                seen[6] += 1;
                                assert_eq!(step, 0, "only the first line can show that the server is no KGP server");
                            }
                        }
                    }
                }
                assert_eq!(ended, session.is_over());
            }
        }
        assert!(seen.iter().all(|&n| n > 20), "sends, searches, stops, resends, ends, late answers, not KGP: {seen:?}");
    }
}
