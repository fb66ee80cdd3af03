//! The game a page holds when it plays with no server: the history (undo, redo, goto), who holds
//! each seat, a version that counts the changes, and the players' clocks.
//!
//! It says who may act as a server's game does: a person's action is refused while the side to
//! decide is the engine's, and the engine's move is played only for the version it was asked
//! for, so that a move searched before an undo never lands after it. A timed game's clock runs
//! for the player to decide from the moment the page has *shown* the position they decide in
//! ([`Session::shown`]): neither player pays for the other's sowing being animated.
//!
//! What the page draws of the game (its state's JSON, the status line) and the record it saves
//! are kalah-view's, built from [`Session::facts`] as `kalah serve` builds them from its games.

use std::time::Duration;

use kalah_engine::time::{Clock, GameClock, Instant};
use kalah_rules::{Action, Game, History, HistoryError, PlayError, Position, Record, RecordWarning, Rules, Seat, Side};
use kalah_view::{Facts, GameState, NewGame, Player};
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Why a request cannot be done; the game is unchanged. The message is the one line the page
/// shows.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum Refused {
    /// The request's text cannot be read.
    #[error("{0}")]
    Bad(String),
    /// The game is over (by the rules, or on time): nobody acts any more.
    #[error("the game is over: no more moves can be played")]
    Over,
    /// A person asked to act for the engine's side.
    #[error("{0} is played by the engine")]
    EnginesSeat(Side),
    /// The engine was asked to act for a person's side.
    #[error("{0} is played by a person")]
    PersonsSeat(Side),
    /// The game changed since the engine's search began.
    #[error("the game changed while the engine was thinking")]
    Changed,
    /// The rules do not allow the action.
    #[error(transparent)]
    Illegal(#[from] PlayError),
    /// The step through the history cannot be taken.
    #[error(transparent)]
    History(#[from] HistoryError),
}

/// The players' clocks of a timed game: each player's own (they follow the player across a swap),
/// since when the player to decide has been thinking, and who ran out of time.
#[derive(Clone, Copy, Debug)]
struct Clocks {
    /// The first player's clock, then the second player's.
    seats: [GameClock; 2],
    /// The time each player had for the whole game.
    total: Duration,
    /// When the page showed the position the player to decide decides in; `None` until it has.
    since: Option<Instant>,
    /// The player whose time ran out: the game is over, lost by that player.
    lost: Option<Seat>,
}

/// The game as the engine's worker rebuilds it: the rules, the start and the actions played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Snapshot {
    /// The rules' text.
    pub rules: String,
    /// The start position in the position notation.
    pub start: String,
    /// The actions played, as records write them.
    pub actions: Vec<String>,
}

impl Snapshot {
    /// Returns the snapshot of `game`.
    pub fn of(game: &Game) -> Snapshot {
        Snapshot {
            rules: game.rules().to_string(),
            start: game.start().to_string(),
            actions: game.actions().iter().map(Action::to_string).collect(),
        }
    }

    /// Rebuilds the game by replaying its actions.
    ///
    /// # Errors
    ///
    /// If the rules, the start or an action cannot be read or played.
    pub fn game(&self) -> Result<Game, Refused> {
        let rules: Rules = self.rules.parse().map_err(|e| Refused::Bad(format!("bad rules {:?}: {e}", self.rules)))?;
        let start = Position::parse(&self.start, &rules).map_err(|e| Refused::Bad(e.to_string()))?;
        let mut game = Game::from_position(rules, start);
        for text in &self.actions {
            let action = game.parse_action(text).map_err(|e| Refused::Bad(e.to_string()))?;
            game.act(action)?;
        }
        Ok(game)
    }
}

/// The time left on a clock when a move begins: what the engine plans its move with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockLeft {
    /// Milliseconds left for the rest of the game.
    pub remaining_ms: u64,
    /// Milliseconds added after each action.
    pub increment_ms: u64,
}

impl From<ClockLeft> for Clock {
    fn from(left: ClockLeft) -> Clock {
        Clock {
            remaining: Duration::from_millis(left.remaining_ms),
            increment: Duration::from_millis(left.increment_ms),
        }
    }
}

/// An engine move the session lets begin: the game to decide, the version it is for, the
/// seat's level and its clock. The worker's request ([`crate::engine::MoveTask`] without the
/// page's time).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EngineTurn {
    /// The version of the game the move is for.
    pub version: u64,
    /// The game up to the position shown.
    pub game: Snapshot,
    /// The level of the engine's seat.
    pub level: u8,
    /// The engine's clock in a timed game.
    pub clock: Option<ClockLeft>,
}

/// A game kept to be taken up again (the page keeps it in the browser's storage): the whole line
/// as a record, the ply shown, the seats and the clocks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Saved {
    /// The game's id.
    pub id: String,
    /// The whole line, played and taken back, as a game record.
    pub record: String,
    /// The ply shown.
    pub ply: usize,
    /// The first and the second player: `human` or `engine:LEVEL`.
    pub seats: [String; 2],
    /// The clocks of a timed game.
    pub clock: Option<SavedClock>,
}

/// The clocks of a saved game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedClock {
    /// Milliseconds for the whole game.
    pub total_ms: u64,
    /// Milliseconds added after each action.
    pub increment_ms: u64,
    /// Milliseconds left on the first and the second player's clock.
    pub left_ms: [u64; 2],
    /// The player who ran out of time (0: the first, 1: the second), if one did.
    pub lost: Option<u8>,
}

/// One game the page holds.
#[derive(Clone, Debug)]
pub struct Session {
    id: String,
    history: History,
    /// The first player's seat (South at the start), then the second player's.
    seats: [Player; 2],
    version: u64,
    clocks: Option<Clocks>,
    /// What loading a record warned of.
    warnings: Vec<RecordWarning>,
}

/// Reads the player of a saved seat.
fn player(text: &str, which: &str) -> Result<Player, Refused> {
    text.parse().map_err(|e| Refused::Bad(format!("{which}: {e}")))
}

impl Session {
    /// Starts the game `request` asks for, under the id `id`: from the rules and a position, or
    /// from a record with the players its tags name, as `kalah serve` starts it (kalah-view's
    /// [`NewGame`]). A record decided before its moves ended it (a loss on time, a resignation)
    /// goes on from its last position: this page keeps no resignation.
    ///
    /// # Errors
    ///
    /// [`Refused::Bad`] saying what is wrong with the request; a game against a friend is
    /// refused, as the page with no server has no one to hold the other seat.
    pub fn new(id: &str, request: &NewGame) -> Result<Session, Refused> {
        for (field, given) in [("friend", request.friend.is_some()), ("side", request.side.is_some())] {
            if given {
                return Err(Refused::Bad(format!(
                    "cannot read the new game: unknown field `{field}`: games against a friend need kalah serve"
                )));
            }
        }
        let bad = |e: kalah_view::NewGameError| Refused::Bad(e.to_string());
        let opening = request.opening().map_err(bad)?;
        let seats = request.players(opening.named).map_err(bad)?;
        let mut session = Session {
            id: id.to_string(),
            history: History::new(opening.game),
            seats,
            version: 0,
            clocks: None,
            warnings: opening.warnings,
        };
        if let Some(clock) = request.clock {
            let (total, increment) = clock.times().map_err(bad)?;
            let clock = GameClock::new(total, increment);
            session.clocks = Some(Clocks { seats: [clock; 2], total, since: None, lost: None });
        }
        Ok(session)
    }

    /// Reads the JSON of a new-game request and starts the game.
    ///
    /// # Errors
    ///
    /// [`Refused::Bad`] saying what is wrong with the request.
    pub fn from_json(id: &str, request: &str) -> Result<Session, Refused> {
        let request: NewGame = if request.trim().is_empty() {
            NewGame::default()
        } else {
            serde_json::from_str(request).map_err(|e| Refused::Bad(format!("cannot read the new game: {e}")))?
        };
        Session::new(id, &request)
    }

    /// Returns the game's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Returns the game up to the ply shown.
    pub fn game(&self) -> &Game {
        self.history.game()
    }

    /// Returns the game with the actions taken back.
    pub fn history(&self) -> &History {
        &self.history
    }

    /// Returns who holds the first player's seat (South at the start), then the second player's.
    pub fn seats(&self) -> [Player; 2] {
        self.seats
    }

    /// Returns the number of changes of the game so far.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Returns what loading the game's record warned of.
    pub fn warnings(&self) -> &[RecordWarning] {
        &self.warnings
    }

    /// Returns the seat that plays `side` now.
    pub fn seat_of(&self, side: Side) -> Player {
        self.seats[self.game().seat_of(side).index()]
    }

    /// Returns the player who ran out of time, ending the game, if one did.
    pub fn lost_on_time(&self) -> Option<Seat> {
        self.clocks.as_ref().and_then(|c| c.lost)
    }

    /// Returns the time added after each action in a timed game.
    pub fn increment(&self) -> Option<Duration> {
        self.clocks.as_ref().map(|c| c.seats[0].clock().increment)
    }

    /// Returns the side that decides now and its player, or `None` once the game is over (by the
    /// rules, or on time).
    pub fn decider(&self) -> Option<(Side, Player)> {
        if self.lost_on_time().is_some() {
            return None;
        }
        let side = self.game().decider()?;
        Some((side, self.seat_of(side)))
    }

    /// Tells whether the clock of the player to decide is running (the page has shown the
    /// position, the game is timed and goes on).
    pub fn clock_runs(&self) -> bool {
        self.decider().is_some() && self.clocks.as_ref().is_some_and(|c| c.since.is_some())
    }

    /// Returns the time on each player's clock at `now` (the player to decide is charged for the
    /// time since the page showed the position), first player first, or `None` in an untimed game.
    pub fn time_left(&self, now: Instant) -> Option<[Duration; 2]> {
        let clocks = self.clocks.as_ref()?;
        let mut left = clocks.seats.map(|c| c.left());
        if let Some(seat) = clocks.lost {
            left[seat.index()] = Duration::ZERO;
        } else if let (Some(side), Some(since)) = (self.game().decider(), clocks.since) {
            let seat = self.game().seat_of(side).index();
            left[seat] = left[seat].saturating_sub(now.saturating_duration_since(since));
        }
        Some(left)
    }

    /// The page has shown the position: the clock of the player to decide runs from `now`, if it
    /// was not running already.
    pub fn shown(&mut self, now: Instant) {
        if let Some(clocks) = &mut self.clocks {
            clocks.since.get_or_insert(now);
        }
    }

    /// Ends the game if the player to decide has run out of time by `now`; returns whether it did.
    pub fn check_time(&mut self, now: Instant) -> bool {
        let (Some(left), Some(side)) = (self.time_left(now), self.decider().map(|(side, _)| side)) else {
            return false;
        };
        let seat = self.game().seat_of(side);
        if !left[seat.index()].is_zero() {
            return false;
        }
        if let Some(clocks) = &mut self.clocks {
            clocks.lost = Some(seat);
        }
        self.version += 1;
        true
    }

    /// Returns the side a person may act for now, or why not.
    fn may_act(&self, human: bool) -> Result<Side, Refused> {
        let (side, player) = self.decider().ok_or(Refused::Over)?;
        match (player.is_human(), human) {
            (true, true) | (false, false) => Ok(side),
            (false, true) => Err(Refused::EnginesSeat(side)),
            (true, false) => Err(Refused::PersonsSeat(side)),
        }
    }

    /// Plays a person's action, written as records write it, at `now`.
    ///
    /// # Errors
    ///
    /// If the text is not an action of this board, the side to decide is the engine's, the game
    /// is over or the rules refuse the action; nothing changes then.
    pub fn act(&mut self, text: &str, now: Instant) -> Result<(), Refused> {
        let action = self.game().parse_action(text).map_err(|e| Refused::Bad(e.to_string()))?;
        self.may_act(true)?;
        self.play(action, now)
    }

    /// Returns the engine move the page's worker is to search now, or why there is none.
    ///
    /// # Errors
    ///
    /// If the game is over or the side to decide is a person's.
    pub fn engine_turn(&self, now: Instant) -> Result<EngineTurn, Refused> {
        let side = self.may_act(false)?;
        let Player::Engine(level) = self.seat_of(side) else { return Err(Refused::PersonsSeat(side)) };
        let clock = self.time_left(now).map(|left| {
            let seat = self.game().seat_of(side).index();
            ClockLeft {
                remaining_ms: left[seat].as_millis() as u64,
                increment_ms: self.increment().unwrap_or_default().as_millis() as u64,
            }
        });
        Ok(EngineTurn { version: self.version, game: Snapshot::of(self.game()), level: level.number(), clock })
    }

    /// Plays the action the engine decided for the game at `version`, at `now`.
    ///
    /// # Errors
    ///
    /// [`Refused::Changed`] if the game changed since, or as the rules refuse the action.
    pub fn play_engine(&mut self, version: u64, text: &str, now: Instant) -> Result<(), Refused> {
        if version != self.version {
            return Err(Refused::Changed);
        }
        let action = self.game().parse_action(text).map_err(|e| Refused::Bad(e.to_string()))?;
        self.may_act(false)?;
        self.play(action, now)
    }

    /// Plays the action of the player to decide, charging their clock.
    fn play(&mut self, action: Action, now: Instant) -> Result<(), Refused> {
        let seat = self.game().decider().map(|side| self.game().seat_of(side));
        self.history.act(action)?;
        if let (Some(clocks), Some(seat)) = (&mut self.clocks, seat) {
            let spent = clocks.since.map_or(Duration::ZERO, |since| now.saturating_duration_since(since));
            clocks.seats[seat.index()].charge(spent);
        }
        self.changed();
        Ok(())
    }

    /// Marks a change: a new version, and the clock of the player to decide waits until the page
    /// has shown the position.
    fn changed(&mut self) {
        if let Some(clocks) = &mut self.clocks {
            clocks.since = None;
        }
        self.version += 1;
    }

    /// Which seats a person holds, first player first.
    fn people(&self) -> [bool; 2] {
        self.seats.map(Player::is_human)
    }

    /// Takes back `plies` actions, or with `None` every action back to, and including, the last
    /// one a person took (one action when no person plays). Stepping back gives no time back.
    ///
    /// # Errors
    ///
    /// If there are fewer actions to take back; nothing changes then.
    pub fn undo(&mut self, plies: Option<usize>) -> Result<(), Refused> {
        match plies {
            Some(n) => self.history.undo(n)?,
            None => drop(self.history.undo_turn(self.people())?),
        }
        self.changed();
        Ok(())
    }

    /// Replays `plies` taken-back actions, or with `None` up to the next point where a person
    /// decides (one action when no person plays).
    ///
    /// # Errors
    ///
    /// If there are fewer actions to replay; nothing changes then.
    pub fn redo(&mut self, plies: Option<usize>) -> Result<(), Refused> {
        match plies {
            Some(n) => self.history.redo(n)?,
            None => drop(self.history.redo_turn(self.people())?),
        }
        self.changed();
        Ok(())
    }

    /// Shows the position after `ply` actions of the whole line.
    ///
    /// # Errors
    ///
    /// If the line has fewer plies; nothing changes then.
    pub fn goto(&mut self, ply: usize) -> Result<(), Refused> {
        self.history.goto(ply)?;
        self.changed();
        Ok(())
    }

    /// Returns what the page shows of the game at `now` (for its clocks): the facts its state,
    /// status line and record are built from.
    pub fn facts(&self, now: Instant) -> Facts<'_> {
        let clocks = self.time_left(now).map(|left| kalah_view::Clocks {
            left,
            increment: self.increment().unwrap_or(Duration::ZERO),
            // The clock waits until the page has shown the position.
            running: self.clock_runs(),
        });
        Facts { clocks, ..self.facts_untimed() }
    }

    /// Returns the facts of the game without its clocks (a record has none).
    fn facts_untimed(&self) -> Facts<'_> {
        Facts {
            id: &self.id,
            version: self.version,
            history: &self.history,
            seats: self.seats,
            lost_on_time: self.lost_on_time(),
            // This page has no resigning: a game it holds ends by the rules or on time.
            resigned: None,
            clocks: None,
            // The page knows when its worker thinks; the game does not.
            thinking: false,
        }
    }

    /// Returns the game's state as the page draws it at `now`, with what loading its record
    /// warned of.
    pub fn state(&self, now: Instant) -> GameState {
        let mut state = self.facts(now).state();
        state.warnings = self.warnings.iter().map(ToString::to_string).collect();
        state
    }

    /// Returns the game record of the game up to the ply shown, dated `date` (`YYYY.MM.DD`), with
    /// the players' tags, which loading it reads back, and for a game lost on time its
    /// `Termination` and winner.
    pub fn record(&self, date: &str) -> String {
        self.facts_untimed().record(date).to_text()
    }

    /// Returns the game as it is kept to be taken up again.
    pub fn save(&self, now: Instant) -> Saved {
        let clock = self.clocks.as_ref().map(|clocks| {
            let left = self.time_left(now).unwrap_or_default();
            SavedClock {
                total_ms: clocks.total.as_millis() as u64,
                increment_ms: clocks.seats[0].clock().increment.as_millis() as u64,
                left_ms: left.map(|d| d.as_millis() as u64),
                lost: clocks.lost.map(|seat| seat.index() as u8),
            }
        });
        Saved {
            id: self.id.clone(),
            record: Record::new(self.history.whole_line()).to_text(),
            ply: self.game().actions().len(),
            seats: self.seats.map(|p| p.to_string()),
            clock,
        }
    }

    /// Takes up a saved game again; its clocks hold what they held when it was saved.
    ///
    /// # Errors
    ///
    /// [`Refused::Bad`] if the saved game cannot be read.
    pub fn restore(saved: &Saved) -> Result<Session, Refused> {
        let parsed =
            Record::parse(&saved.record).map_err(|e| Refused::Bad(format!("cannot read the saved game: {e}")))?;
        let mut history = History::new(parsed.record.game);
        history.goto(saved.ply)?;
        let seats = [player(&saved.seats[0], "south")?, player(&saved.seats[1], "north")?];
        let clocks = saved.clock.map(|c| {
            let increment = Duration::from_millis(c.increment_ms);
            // A clock that starts with what was left runs on as the saved one would.
            let seats = c.left_ms.map(|left| GameClock::new(Duration::from_millis(left), increment));
            let lost = c.lost.map(|i| if i == 0 { Seat::First } else { Seat::Second });
            Clocks { seats, total: Duration::from_millis(c.total_ms), since: None, lost }
        });
        Ok(Session { id: saved.id.clone(), history, seats, version: 0, clocks, warnings: Vec::new() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_engine::level::Level;
    use kalah_engine::time::now;

    fn start(request: &str) -> Session {
        Session::from_json("g", request).unwrap()
    }

    #[test]
    fn a_person_and_the_engine_each_act_only_on_their_own_turn() {
        let mut s = start(r#"{"rules": "kalah(4,3)", "south": "human", "north": "engine:2"}"#);
        assert_eq!(s.engine_turn(now()), Err(Refused::PersonsSeat(Side::South)));
        s.act("1", now()).unwrap();
        assert_eq!(s.act("1", now()), Err(Refused::EnginesSeat(Side::North)));
        let turn = s.engine_turn(now()).unwrap();
        assert_eq!((turn.version, turn.level, turn.game.actions.len()), (1, 2, 1));
        // An undo while the engine thinks: its move, searched for version 1, does not land.
        s.undo(None).unwrap();
        assert_eq!(s.play_engine(turn.version, "2", now()), Err(Refused::Changed));
        assert_eq!(s.game().actions().len(), 0);
        s.redo(None).unwrap();
        let turn = s.engine_turn(now()).unwrap();
        s.play_engine(turn.version, "2", now()).unwrap();
        assert_eq!(s.game().actions().len(), 2);
        assert!(matches!(s.act("x", now()), Err(Refused::Bad(_))));
    }

    #[test]
    fn a_saved_game_comes_back_with_its_line_seats_and_clocks() {
        let mut s = start(r#"{"rules": "kalah(4,3)", "south": "human", "north": "human", "clock": {"seconds": 60}}"#);
        for action in ["1", "2", "3"] {
            s.act(action, now()).unwrap();
        }
        s.undo(Some(1)).unwrap();
        let saved = s.save(now());
        let back = Session::restore(&serde_json::from_str(&serde_json::to_string(&saved).unwrap()).unwrap()).unwrap();
        assert_eq!(back.game().actions(), s.game().actions());
        assert_eq!(back.history().whole_line().actions().len(), 3);
        assert_eq!(back.seats(), [Player::Human; 2]);
        assert_eq!(back.time_left(now()).map(|t| t[0] <= Duration::from_secs(60)), Some(true));
    }

    #[test]
    fn a_record_loads_with_the_players_its_tags_name() {
        let mut s = start(r#"{"rules": "kalah(4,3)", "south": "engine:4", "north": "human"}"#);
        let turn = s.engine_turn(now()).unwrap();
        s.play_engine(turn.version, "1", now()).unwrap();
        let record = s.record("2026.01.01");
        let loaded = Session::new("h", &NewGame { record: Some(record), ..NewGame::default() }).unwrap();
        assert_eq!(loaded.seats(), [Player::Engine(Level::new(4).unwrap()), Player::Human]);
        assert_eq!(loaded.game().actions(), s.game().actions());
    }

    #[test]
    fn bad_requests_say_what_is_wrong() {
        let refused = |request: &str| Session::from_json("g", request).unwrap_err().to_string();
        assert!(refused(r#"{"rules": "kalah(99,4)"}"#).starts_with("bad rules"));
        assert!(refused(r#"{"south": "robot"}"#).contains("write human, engine, or engine:LEVEL"));
        assert!(refused(r#"{"clock": {"seconds": 0}}"#).contains("out of range"));
        assert!(refused("{").starts_with("cannot read the new game"));
    }
}
