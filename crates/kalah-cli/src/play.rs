//! `kalah play`: a game in the terminal between people, the engine and the baselines.
//!
//! Commands are read line by line from standard input and everything is printed to standard
//! output, so a game plays the same from a keyboard and from a script piped in.

use std::cmp::Ordering;
use std::io::{self, BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result};
use clap::Args;
use kalah_course::player::{Player, Strength, StrongPlayer};
use kalah_engine::databases::{Databases, Memory};
use kalah_engine::decide::{Decision, Reason};
use kalah_engine::search::{Options, DEFAULT_TABLE_BYTES};
use kalah_rules::chain::{longest_chain, DEFAULT_POSITION_LIMIT};
use kalah_rules::game::ActionError;
use kalah_rules::record::{self, RecordWarning};
use kalah_rules::{Action, Game, History, Phase, Record, Side};

use crate::args::RuleArgs;
use crate::board;
use crate::chain;
use crate::engine::{egdb_folder, shared_databases};
use crate::error::bad;
use crate::files;
use crate::input::{self, Line, MAX_LINE_BYTES, MAX_RECORD_BYTES};
use crate::players::{strength_from_flags, PlayerSpec};

/// The commands accepted at the prompt, for `help` and for `kalah play --help`.
const COMMANDS: &str = "\
Commands at the prompt:
  N          sow your house N (each player's houses count from 1 at that player's left)
  swap       pie rule: on North's first turn, take over South's side instead of sowing
  keep       handicap rule: before the first move North leaves the board as it is
  S3>N2      handicap rule: North moves one seed, here from South's house 3 to North's house 2
  undo       take back your last decision (and the engine's reply to it)
  hint       ask the engine for the best move and its value in seeds
  chain      the longest run of extra moves you can make now (sowings that end in your store)
  save FILE  write the game record to FILE
  load FILE  continue the game recorded in FILE
  help       show this list
  quit       stop playing (the end of the input stops too)";

/// How long the engine thinks per move when neither `--depth` nor `--time` is given.
const DEFAULT_TIME: Duration = Duration::from_millis(1000);

/// Flags of `kalah play`.
#[derive(Args, Debug)]
#[command(after_help = COMMANDS)]
pub struct PlayArgs {
    /// South, the first player (who plays North after a pie-rule swap): human, random, greedy,
    /// engine, minimax, alphabeta or ordered; a search may add :depth=N or :time=MS
    #[arg(long, value_name = "PLAYER", default_value = "human")]
    pub south: String,
    /// North, the second player (who may swap or make the handicap move): the same choices as --south
    #[arg(long, value_name = "PLAYER", default_value = "engine")]
    pub north: String,
    /// Search depth in sowings (1-64) for engines without a strength of their own, and for the engine's hints
    #[arg(long, value_name = "N")]
    pub depth: Option<u32>,
    /// Thinking time a move in milliseconds (1-3600000), instead of a depth [default: 1000]
    #[arg(long, value_name = "MS")]
    pub time: Option<u64>,
    /// A clock for each engine's whole game instead: milliseconds for the game and, after a +, added a move
    #[arg(long, value_name = "MS[+MS]")]
    pub clock: Option<String>,
    /// Seed of the random players [default: taken from the clock]
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Start position in the position notation, e.g. 4,4,4:0/4,4,4:0/S [default: the rules' start]
    #[arg(long, value_name = "TEXT")]
    pub position: Option<String>,
    /// Continue the game saved in FILE; the record's rules apply, so rule flags and --position are refused with it
    #[arg(long, value_name = "FILE")]
    pub load: Option<PathBuf>,
    /// Folder of the endgame databases the engine uses [default: the user's cache folder, kalah/egdb]
    #[arg(long, value_name = "DIR")]
    pub egdb_dir: Option<PathBuf>,
    /// The engine uses no endgame database even if one is there
    #[arg(long, conflicts_with = "egdb_dir")]
    pub no_egdb: bool,
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// Returns the endgame databases the engine players and the hints use, the folder checked:
/// `None` with `--no-egdb` or when there is no cache folder.
fn databases(args: &PlayArgs) -> Result<Option<Arc<Databases>>> {
    if let Some(dir) = args.egdb_dir.as_ref().filter(|dir| !dir.is_dir()) {
        return Err(bad(format!(
            "--egdb-dir {}: no such folder; give the folder `kalah egdb build --dir` wrote",
            dir.display()
        )));
    }
    // Two engine players and the hints' engine, each with a table of the default size.
    let tables = Memory::bytes(3 * DEFAULT_TABLE_BYTES as u64);
    Ok(shared_databases(egdb_folder(args.egdb_dir.as_ref(), args.no_egdb), tables))
}

/// Runs `kalah play`.
pub fn run(args: PlayArgs) -> Result<()> {
    let strength = strength_from_flags(args.depth, args.time, args.clock.as_deref(), Strength::Time(DEFAULT_TIME))?;
    let seed = args.seed.unwrap_or_else(clock_seed);
    let databases = databases(&args)?;
    let seats = [
        Seat::new("south", &args.south, strength, seed, databases.as_ref())?,
        Seat::new("north", &args.north, strength, seed.wrapping_add(1), databases.as_ref())?,
    ];
    let (game, warnings) = starting_game(&args)?;
    if let Some(path) = &args.load {
        for warning in warnings {
            eprintln!("kalah: warning: {}: {warning}", path.display());
        }
    }
    let stdin = io::stdin();
    let mut session = Session {
        game,
        seats,
        // Hints are the strong engine's decisions at the command's strength, as its moves are.
        adviser: StrongPlayer::new(Options::default(), strength).with_databases(databases),
        // Typed lines are on the screen already; piped ones are echoed so a transcript reads well.
        echo: !stdin.is_terminal(),
        input: stdin.lock(),
        out: io::stdout().lock(),
    };
    session.play()
}

/// Returns a seed that differs from run to run, for random players without `--seed`.
fn clock_seed() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
}

/// Builds the game to start with: a loaded record (with what its reading warns of), or the
/// rules' start or `--position`.
fn starting_game(args: &PlayArgs) -> Result<(Game, Vec<RecordWarning>)> {
    let Some(path) = &args.load else {
        let (rules, position) = args.rules.rules_and_position(args.position.as_deref())?;
        return Ok((Game::from_position(rules, position), Vec::new()));
    };
    if args.position.is_some() {
        return Err(bad("--load continues the saved game from its own start: leave out --position"));
    }
    if args.rules.any_given() {
        return Err(bad(
            "--load takes the rules from the record: leave out the rule flags (--size, --rules, --pie, ...)",
        ));
    }
    read_game(path).map_err(bad)
}

/// What `save` may write over: a game record, told by its tag pairs.
const RECORD: files::Kind<'static> = files::Kind { name: "a kalah record", recognise: Some(&is_record) };

/// Tells whether a file's first bytes are the start of a game record: tag pairs (after blank
/// lines and `;` comments), one of them `Rules`. A record with a damaged move list is still one.
fn is_record(head: &[u8]) -> bool {
    let text = String::from_utf8_lossy(head);
    let mut tags = text
        .lines()
        .map(|line| line.trim().trim_start_matches('\u{feff}'))
        .filter(|line| !line.is_empty() && !line.starts_with(';'))
        .take_while(|line| line.starts_with('['));
    tags.any(|tag| tag[1..].trim_start().strip_prefix("Rules").is_some_and(|rest| rest.starts_with([' ', '\t', '"'])))
}

/// Reads the game of a saved record (at most [`MAX_RECORD_BYTES`]) and what its reading warns of;
/// the error is one line that names the file and the line.
fn read_game(path: &Path) -> Result<(Game, Vec<RecordWarning>), String> {
    let cannot = |e: &dyn std::fmt::Display| format!("cannot load {}: {e}", path.display());
    let text = input::read_text(path, MAX_RECORD_BYTES).map_err(|e| cannot(&e))?;
    let parsed = Record::parse(&text).map_err(|e| cannot(&e))?;
    Ok((parsed.record.game, parsed.warnings))
}

/// One of the two seats at the board, held by a person or by a computer player.
struct Seat {
    /// The player's word as given on the command line, such as `human` or `engine`.
    label: String,
    /// The computer player, or `None` for a person at the keyboard.
    player: Option<Box<dyn Player + Send>>,
}

impl Seat {
    /// Builds the seat from the text of the `--south` or `--north` flag.
    fn new(flag: &str, text: &str, strength: Strength, seed: u64, databases: Option<&Arc<Databases>>) -> Result<Seat> {
        let spec: PlayerSpec = text.parse().map_err(|e| bad(format!("--{flag}: {e}")))?;
        let label = text.split(':').next().unwrap_or(text).to_string();
        Ok(Seat { label, player: spec.build(strength, seed, databases) })
    }

    fn is_human(&self) -> bool {
        self.player.is_none()
    }

    /// Describes the player for a record's South and North tags.
    fn description(&self) -> String {
        self.player.as_ref().map_or_else(|| "human".to_string(), |player| player.name())
    }
}

/// Describes `action` after a side's name, in the present ("sows house 3") or the past tense.
fn describe(action: Action, past: bool) -> String {
    let (present, past_form, object) = match action {
        Action::Sow(mv) => ("sows", "sowed", format!("house {mv}")),
        Action::Swap => ("swaps", "swapped", "sides".to_string()),
        Action::Keep => ("keeps", "kept", "the board as it is (no handicap move)".to_string()),
        Action::Handicap { from, to } => ("moves", "moved", format!("one seed from {from} to {to} (handicap)")),
    };
    format!("{} {object}", if past { past_form } else { present })
}

/// Writes a count of seeds with its noun.
fn seeds(count: impl Into<i64>) -> String {
    let count = count.into();
    format!("{count} seed{}", if count.abs() == 1 { "" } else { "s" })
}

/// Lists what the prompt accepts now, for the message after a line that cannot be read.
fn accepted(game: &Game) -> String {
    let m = game.rules().houses();
    let actions = match game.phase() {
        Phase::Handicap => "keep, a seed move like S3>N2, ".to_string(),
        Phase::PieOffer => format!("a house 1-{m}, swap, "),
        Phase::PieOpening | Phase::Play => format!("a house 1-{m}, "),
        Phase::Over => String::new(),
    };
    let hint = if game.is_over() { "" } else { "hint, chain, " };
    format!("{actions}undo, {hint}save FILE, load FILE, help or quit")
}

/// A line typed at the prompt.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Command {
    Act(Action),
    Undo,
    Hint,
    Chain,
    Help,
    Quit,
    Save(PathBuf),
    Load(PathBuf),
}

/// Reads a line typed at the prompt; the error is a one-line message that says what is accepted.
fn parse_command(line: &str, game: &Game) -> Result<Command, String> {
    let (word, rest) = line.split_once(char::is_whitespace).map_or((line, ""), |(w, r)| (w, r.trim()));
    let word = word.to_ascii_lowercase();
    match (word.as_str(), rest.is_empty()) {
        ("undo", true) => Ok(Command::Undo),
        ("hint", true) => Ok(Command::Hint),
        ("chain", true) => Ok(Command::Chain),
        ("help", true) => Ok(Command::Help),
        ("quit", true) => Ok(Command::Quit),
        ("save" | "load", true) => Err(format!("{word} needs a file name: {word} FILE")),
        ("save", false) => Ok(Command::Save(PathBuf::from(rest))),
        ("load", false) => Ok(Command::Load(PathBuf::from(rest))),
        _ => parse_action(line, game).map(Command::Act),
    }
}

/// Reads a house number, `swap`, `keep` or a handicap move.
fn parse_action(line: &str, game: &Game) -> Result<Action, String> {
    if line.is_empty() {
        return Err(format!("type {}", accepted(game)));
    }
    game.parse_action(line).map_err(|error| match error {
        // Echoed as typed: a number past the rules' counter would read back as another one.
        ActionError::NoSuchHouse { houses, .. } if line.bytes().all(|b| b.is_ascii_digit()) => {
            format!("there is no house {line}: houses are numbered 1 to {houses}")
        }
        ActionError::NoSuchHouse { .. } => error.to_string(),
        ActionError::Syntax(_) => format!("cannot read {line:?}: type {}", accepted(game)),
    })
}

/// Writes a decision as a hint: the action, what it is worth to the side it leaves the player
/// with, the depth, and why when it is not simply the best move.
fn hint_line(decision: &Decision) -> String {
    let (value, side, depth) = (decision.score, decision.side, decision.depth);
    match (decision.action, decision.reason) {
        (Action::Swap, _) => {
            format!("hint: swap ({side}'s side is worth {value} seeds to you, depth {depth})")
        }
        (Action::Sow(mv), Reason::BestMove) => {
            format!("hint: house {mv} (worth {value} seeds to {side}, depth {depth})")
        }
        (Action::Sow(mv), reason) => {
            format!("hint: house {mv} ({reason}; worth {value} seeds to {side}, depth {depth})")
        }
        (action, reason) => format!("hint: {action} ({reason}; worth {value} seeds to {side}, depth {depth})"),
    }
}

/// Whether the session goes on after a command.
enum Flow {
    Continue,
    Stop,
}

/// A game being played: the board, the two seats, and the terminal.
struct Session<R, W> {
    game: Game,
    /// The first player's seat (given by `--south`), then the second player's.
    seats: [Seat; 2],
    /// The engine that answers `hint`.
    adviser: StrongPlayer,
    input: R,
    out: W,
    /// Repeat each line read after its prompt.
    echo: bool,
}

impl<R: BufRead, W: Write> Session<R, W> {
    /// Plays until the game is over (or, with a person at the board, until they quit or the input ends).
    fn play(&mut self) -> Result<()> {
        self.show(true)?;
        loop {
            let over = self.game.is_over();
            if over && !self.seats.iter().any(Seat::is_human) {
                return Ok(());
            }
            if self.seat_to_decide().is_some_and(|seat| !seat.is_human()) {
                self.engine_turn()?;
                continue;
            }
            self.prompt()?;
            let Some(line) = self.read_line()? else {
                return Ok(self.end_of_input()?);
            };
            if let Flow::Stop = self.obey(&line)? {
                return Ok(());
            }
        }
    }

    /// Returns the seat of the player who decides now, or `None` once the game is over.
    fn seat_to_decide(&self) -> Option<&Seat> {
        let side = self.game.decider()?;
        Some(&self.seats[self.game.seat_of(side).index()])
    }

    /// Names the side with the player who holds it now, e.g. `North (engine)`.
    fn who(&self, side: Side) -> String {
        format!("{side} ({})", self.seats[self.game.seat_of(side).index()].label)
    }

    /// Lets the computer player whose turn it is act, and shows the result.
    fn engine_turn(&mut self) -> Result<()> {
        let side = self.game.decider().context("the game is over: nobody decides")?;
        let who = self.who(side);
        let seat = &mut self.seats[self.game.seat_of(side).index()];
        let player = seat.player.as_mut().context("a person's seat has no computer player")?;
        let action = player.choose(&self.game);
        writeln!(self.out, "{who} {}", describe(action, false))?;
        self.game.act(action).with_context(|| format!("{who} chose {action}, which is not allowed here"))?;
        self.show(false)?;
        Ok(())
    }

    /// Prints the last action (its own line when `with_action`, then what it did), the board and whose turn it is.
    fn show(&mut self, with_action: bool) -> io::Result<()> {
        let mut lines = Vec::new();
        if let Some(last) = self.game.actions().len().checked_sub(1) {
            if let Some((side, _)) = self.game.actor(last).filter(|_| with_action) {
                lines.push(format!("{side} {}", describe(self.game.actions()[last], true)));
            }
            lines.extend(self.consequences(last));
        }
        lines.push(String::new());
        let position = self.game.position();
        let mover = [position.mover()];
        let numbered: &[Side] = match self.game.phase() {
            Phase::Over => &[],
            Phase::Handicap => &Side::BOTH,
            Phase::PieOpening | Phase::PieOffer | Phase::Play => &mover,
        };
        lines.push(board::draw(position, numbered).trim_end().to_string());
        lines.extend(self.status());
        for line in lines {
            writeln!(self.out, "{line}")?;
        }
        Ok(())
    }

    /// Announces what the last action, number `last`, did besides itself: relays, a capture, an
    /// extra move, a swap.
    fn consequences(&self, last: usize) -> Vec<String> {
        let Some((side, _)) = self.game.actor(last) else { return Vec::new() };
        match (self.game.actions()[last], self.game.last_outcome()) {
            (Action::Sow(_), Some(outcome)) => {
                let mut lines = Vec::new();
                if outcome.relays > 0 {
                    let houses = if outcome.relays == 1 { "house" } else { "houses" };
                    lines.push(format!("relay sowing: {side} sowed on from {} more {houses}", outcome.relays));
                }
                if outcome.captured > 0 {
                    lines.push(format!("{side} captures {}", seeds(outcome.captured)));
                }
                if outcome.extra_move && !outcome.ended {
                    lines.push(format!("extra move: {side} moves again"));
                }
                lines
            }
            (Action::Swap, _) => vec![format!(
                "the first player ({}) now plays North, the second player ({}) plays South",
                self.seats[0].label, self.seats[1].label
            )],
            _ => Vec::new(),
        }
    }

    /// Says whose turn it is and what they may do, or the final score.
    fn status(&self) -> Vec<String> {
        match self.game.phase() {
            Phase::Over => {
                let mut lines = vec![self.final_score()];
                if self.seats.iter().any(Seat::is_human) {
                    lines.push("Type save FILE to keep the record, undo to take back, or quit.".to_string());
                }
                lines
            }
            Phase::Handicap => {
                vec![format!("{} decides the handicap: keep, or move one seed like S3>N2", self.who(Side::North))]
            }
            Phase::PieOffer => {
                vec![format!("{} to move: sow a house, or swap to take over South's side", self.who(Side::North))]
            }
            Phase::PieOpening | Phase::Play => vec![format!("{} to move", self.who(self.game.position().mover()))],
        }
    }

    fn final_score(&self) -> String {
        let stores = self.game.position().final_stores(self.game.rules());
        let score = format!("Game over: South {}, North {}.", stores.south, stores.north);
        let margin = i64::from(stores.south) - i64::from(stores.north);
        match margin.cmp(&0) {
            Ordering::Greater => format!("{score} {} wins by {}.", self.who(Side::South), seeds(margin)),
            Ordering::Less => format!("{score} {} wins by {}.", self.who(Side::North), seeds(-margin)),
            Ordering::Equal => format!("{score} The game is a draw."),
        }
    }

    fn prompt(&mut self) -> io::Result<()> {
        let name = self.game.decider().map_or("game over", Side::name);
        write!(self.out, "{name}> ")?;
        self.out.flush()
    }

    /// Reads the next line, trimmed; `None` at the end of the input.
    ///
    /// A line over [`MAX_LINE_BYTES`] is skipped with a one-line message and the prompt is shown
    /// again, so no line, however long, is held in memory.
    fn read_line(&mut self) -> io::Result<Option<String>> {
        loop {
            // Bytes that are not UTF-8 make a line that matches no command, not an error.
            let line = match input::read_line(&mut self.input, MAX_LINE_BYTES)? {
                Line::End => return Ok(None),
                Line::Text(line) => line.trim().to_string(),
                Line::TooLong { limit } => {
                    if self.echo {
                        // The prompt's line is still open: a person's Enter closed it on a terminal.
                        writeln!(self.out)?;
                    }
                    writeln!(self.out, "the line is longer than {limit} bytes: it was skipped")?;
                    self.prompt()?;
                    continue;
                }
            };
            if self.echo {
                writeln!(self.out, "{line}")?;
            }
            return Ok(Some(line));
        }
    }

    fn end_of_input(&mut self) -> io::Result<()> {
        // The prompt's line is still open.
        writeln!(self.out)?;
        if !self.game.is_over() {
            writeln!(self.out, "End of input: the game stops unfinished.")?;
        }
        Ok(())
    }

    /// Carries out one line typed at the prompt.
    fn obey(&mut self, line: &str) -> io::Result<Flow> {
        let command = match parse_command(line, &self.game) {
            Ok(command) => command,
            Err(message) => {
                writeln!(self.out, "{message}")?;
                return Ok(Flow::Continue);
            }
        };
        match command {
            Command::Act(action) => match self.game.act(action) {
                Ok(_) => self.show(true)?,
                Err(error) => writeln!(self.out, "{error}")?,
            },
            Command::Undo => self.undo()?,
            Command::Hint => {
                let hint = match self.adviser.decision(&self.game) {
                    Some(decision) => hint_line(&decision),
                    None => "the game is over: there is no move to hint".to_string(),
                };
                writeln!(self.out, "{hint}")?;
            }
            Command::Chain => {
                let chain = self.chain();
                writeln!(self.out, "{chain}")?;
            }
            Command::Help => writeln!(self.out, "{COMMANDS}")?,
            Command::Save(path) => self.save(&path)?,
            Command::Load(path) => self.load(&path)?,
            Command::Quit => {
                writeln!(self.out, "Game abandoned.")?;
                return Ok(Flow::Stop);
            }
        }
        Ok(Flow::Continue)
    }

    /// Takes back every action since, and including, the last one a person made: one action
    /// between people, a move and the engine's reply against the engine.
    fn undo(&mut self) -> io::Result<()> {
        // The terminal keeps no line to replay, so the history lives only for this step.
        let mut history = History::new(self.game.clone());
        let people = [0, 1].map(|i| self.seats[i].is_human());
        let Some(count) = people.contains(&true).then(|| history.undo_turn(people).ok()).flatten() else {
            return writeln!(self.out, "nothing to undo: no move of a person is on the board");
        };
        self.game = history.game().clone();
        writeln!(self.out, "Took back {count} action{}.", if count == 1 { "" } else { "s" })?;
        self.show(true)
    }

    /// Finds the longest run of extra moves the player to move can make now.
    fn chain(&self) -> String {
        match self.game.phase() {
            Phase::Over => "the game is over: there is no chain".to_string(),
            Phase::Handicap => "chain: North decides the handicap first; then South sows".to_string(),
            Phase::PieOpening | Phase::PieOffer | Phase::Play => {
                let position = self.game.position();
                let chain = longest_chain(position, self.game.rules(), DEFAULT_POSITION_LIMIT);
                format!("chain: {}", chain::describe(&chain, position.mover()))
            }
        }
    }

    /// Returns the game as a record, with the players as seated at the start.
    fn record(&self) -> Record {
        let mut record = Record::new(self.game.clone());
        record.tags = vec![
            ("Event".to_string(), "Casual game".to_string()),
            ("Date".to_string(), record::today()),
            ("South".to_string(), self.seats[0].description()),
            ("North".to_string(), self.seats[1].description()),
        ];
        record
    }

    /// Writes the record to a new file or over a kalah record; anything else is refused with one
    /// line, and the prompt stays.
    fn save(&mut self, path: &Path) -> io::Result<()> {
        let text = self.record().to_text();
        match files::replace(path, &RECORD, text.as_bytes()) {
            Ok(()) => writeln!(self.out, "Saved the game to {}.", path.display()),
            Err(error @ files::Refused::Io { .. }) => writeln!(self.out, "cannot save: {error}"),
            Err(refused) => {
                writeln!(self.out, "cannot save: {refused}: save to a new file or over a kalah record")
            }
        }
    }

    /// Replaces the game by the one in a record; a record that cannot be read leaves the game as it is.
    fn load(&mut self, path: &Path) -> io::Result<()> {
        match read_game(path) {
            Ok((game, warnings)) => {
                self.game = game;
                writeln!(
                    self.out,
                    "Loaded {}: {}, {} actions.",
                    path.display(),
                    self.game.rules(),
                    self.game.actions().len()
                )?;
                for warning in warnings {
                    writeln!(self.out, "warning: {warning}")?;
                }
                self.show(true)
            }
            Err(message) => writeln!(self.out, "{message}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_rules::{Move, Rules};

    #[test]
    fn today_is_written_as_records_write_dates() {
        let date = record::today();
        assert_eq!(date.len(), "YYYY.MM.DD".len());
        assert_eq!((date.as_bytes()[4], date.as_bytes()[7]), (b'.', b'.'));
    }

    #[test]
    fn records_are_told_from_other_files_by_their_tags() {
        let written = Record::new(Game::new(Rules::standard(6, 4).unwrap())).to_text();
        assert!(is_record(written.as_bytes()), "{written}");
        assert!(is_record(b"\xef\xbb\xbf; my game\n\n[Event \"x\"]\n[Rules \"kalah(6,4) standard\"]\n1. 3 *"));
        for other in [
            &b""[..],
            b"my notes\n[Rules \"kalah(6,4) standard\"]",
            b"[Event \"x\"]\n1. 3\n[Rules \"x\"]",
            b"[Ruleset \"x\"]",
        ] {
            assert!(!is_record(other), "{}", String::from_utf8_lossy(other));
        }
    }

    #[test]
    fn prompt_lines_read_as_commands_or_say_what_is_accepted() {
        let game = Game::new(Rules::standard(6, 4).unwrap());
        assert_eq!(parse_command("3", &game), Ok(Command::Act(Action::Sow(Move::from_number(3).unwrap()))));
        assert_eq!(parse_command("UNDO", &game), Ok(Command::Undo));
        assert_eq!(parse_command("chain", &game), Ok(Command::Chain));
        assert_eq!(parse_command("save my game.txt", &game), Ok(Command::Save(PathBuf::from("my game.txt"))));
        assert_eq!(parse_command("load", &game), Err("load needs a file name: load FILE".to_string()));
        for (line, says) in [
            ("0", "there is no house 0"),
            ("7", "there is no house 7"),
            ("99", "there is no house 99"),
            ("99999999999999999999", "there is no house 99999999999999999999: houses are numbered 1 to 6"),
            ("S300>N1", "cannot read \"S300>N1\": type a house 1-6"),
            ("foo", "cannot read \"foo\": type a house 1-6, undo, hint"),
            ("", "type a house 1-6"),
            ("undo now", "cannot read"),
        ] {
            let message = parse_command(line, &game).unwrap_err();
            assert!(message.starts_with(says), "{line:?} gave {message:?}");
            assert!(!message.contains('\n'));
        }
    }
}
