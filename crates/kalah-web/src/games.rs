//! The games being played: each with its own id, its seats, undo and redo, a version that
//! counts its changes and a stop flag for the engine's searches; idle games expire.
//!
//! A [`Session`] says who may act on its game now: a request to act names its [`Actor`], and
//! the session refuses with a [`Refused`] what the game's state, the seat's holder or the
//! engine's thinking does not allow. The HTTP layer only translates requests and refusals.

use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use thiserror::Error;

use kalah_engine::level::Level;
use kalah_engine::time::{Clock, GameClock};
use kalah_rules::{Action, Game, History, HistoryError, PlayError, Side};

use crate::api::Analysis;

/// Who holds a seat: a person at the page, or the engine at a level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    /// A person, who moves by clicking.
    Human,
    /// The engine at a strength level.
    Engine(Level),
}

impl Seat {
    /// Tells whether a person holds the seat.
    pub fn is_human(self) -> bool {
        self == Seat::Human
    }

    /// Tells whether `actor` may act for this seat: the one place where a seat's holder is
    /// checked (a person holds a person's seat, the engine the engine's).
    pub fn admits(self, actor: Actor) -> bool {
        matches!((self, actor), (Seat::Human, Actor::Person) | (Seat::Engine(_), Actor::Engine))
    }
}

/// A player text that is not `human`, `engine` or `engine:LEVEL`.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown player {0:?}: write human, engine, or engine:LEVEL with a level from 1 to {max}", max = Level::MAX)]
pub struct SeatError(pub String);

impl FromStr for Seat {
    type Err = SeatError;

    /// Reads `human`, `engine` (level 3) or `engine:LEVEL`.
    fn from_str(text: &str) -> Result<Seat, SeatError> {
        let bad = || SeatError(text.to_string());
        match text.split_once(':') {
            None if text == "human" => Ok(Seat::Human),
            None if text == "engine" => Ok(Seat::Engine(Level::DEFAULT)),
            Some(("engine", level)) => level.parse::<Level>().map(Seat::Engine).map_err(|_| bad()),
            _ => Err(bad()),
        }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Seat::Human => f.write_str("human"),
            Seat::Engine(level) => write!(f, "engine:{level}"),
        }
    }
}

/// Who asks to act on a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Actor {
    /// A person at the page.
    Person,
    /// The server's engine, for the seat it holds.
    Engine,
}

/// Why a session refused a request; the game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum Refused {
    /// The game is over (by the rules, or on time): nobody acts any more.
    #[error("the game is over")]
    Over,
    /// The side to decide is the engine's, and a person asked.
    #[error("{0} is played by the engine")]
    EnginesSeat(Side),
    /// The side to decide is a person's, and the engine was asked.
    #[error("{0} is played by a person")]
    PersonsSeat(Side),
    /// The engine is searching its move: nobody else acts until it has.
    #[error("the engine is thinking")]
    Thinking,
    /// The game changed (a move, an undo, a close) since the search began.
    #[error("the game changed while the engine was thinking")]
    Changed,
    /// The rules do not allow the action.
    #[error(transparent)]
    Illegal(#[from] PlayError),
}

/// The players' clocks of a timed game: each player's own (they follow the player across a swap),
/// when the player to decide started, and who ran out of time.
#[derive(Clone, Debug)]
struct Clocks {
    /// The first player's clock, then the second player's.
    seats: [GameClock; 2],
    /// When the player to decide now began to think.
    since: Instant,
    /// The player whose time ran out: the game is over, lost by that player.
    lost: Option<kalah_rules::Seat>,
}

/// The game as a search sees it: the game shown, its version, and the stop flag of its searches.
#[derive(Clone, Debug)]
pub struct Snapshot {
    /// The game up to the move shown.
    pub game: Game,
    /// The version of the game.
    pub version: u64,
    /// Set when the game changes: the search is no longer wanted.
    pub stop: Arc<AtomicBool>,
}

/// An engine move the session has let begin: the game to decide, at the seat's level and on
/// its clock.
#[derive(Clone, Debug)]
pub struct EngineMove {
    /// The game, its version and stop flag.
    pub snapshot: Snapshot,
    /// The level of the engine's seat.
    pub level: Level,
    /// The engine's clock in a timed game.
    pub clock: Option<Clock>,
}

/// One game and everything the server keeps about it.
pub struct Session {
    /// The game up to the move shown, and the actions taken back.
    history: History,
    /// The first player's seat (South at the start), then the second player's.
    seats: [Seat; 2],
    /// Counts the changes of the game, so that a search's answer is used only for the game it searched.
    version: u64,
    /// Set to stop the searches of this version of the game.
    stop: Arc<AtomicBool>,
    /// An engine move is being searched.
    thinking: bool,
    /// The last analysis, with the version it belongs to.
    analysis: Option<(u64, Analysis)>,
    /// The clocks, in a timed game.
    clocks: Option<Clocks>,
    last_used: Instant,
}

impl Session {
    /// Starts a session of `game` with its seats.
    pub fn new(game: Game, seats: [Seat; 2]) -> Session {
        Session {
            history: History::new(game),
            seats,
            version: 0,
            stop: Arc::new(AtomicBool::new(false)),
            thinking: false,
            analysis: None,
            clocks: None,
            last_used: Instant::now(),
        }
    }

    /// Returns the session with a clock for each player: `total` for the game and `increment`
    /// added after each of the player's actions. The player to decide starts thinking now.
    pub fn with_clocks(mut self, total: Duration, increment: Duration) -> Session {
        let clock = GameClock::new(total, increment);
        self.clocks = Some(Clocks { seats: [clock; 2], since: Instant::now(), lost: None });
        self
    }

    /// Returns the game up to the move shown.
    pub fn game(&self) -> &Game {
        self.history.game()
    }

    /// Returns the game with the actions taken back.
    pub fn history(&self) -> &History {
        &self.history
    }

    /// Returns who holds the first player's seat (South at the start), then the second player's.
    pub fn seats(&self) -> [Seat; 2] {
        self.seats
    }

    /// Returns the number of changes of the game so far.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Tells whether an engine move is being searched.
    pub fn is_thinking(&self) -> bool {
        self.thinking
    }

    /// Returns the time added after each action in a timed game.
    pub fn increment(&self) -> Option<Duration> {
        self.clocks.as_ref().map(|c| c.seats[0].clock().increment)
    }

    /// Returns the player who ran out of time, ending the game, if one did.
    pub fn lost_on_time(&self) -> Option<kalah_rules::Seat> {
        self.clocks.as_ref().and_then(|c| c.lost)
    }

    /// Returns the time on each player's clock at `now` (the player to decide is charged for
    /// the time since they began), first player first, or `None` in an untimed game.
    pub fn time_left(&self, now: Instant) -> Option<[Duration; 2]> {
        let clocks = self.clocks.as_ref()?;
        let mut left = clocks.seats.map(|c| c.left());
        if let Some(seat) = clocks.lost {
            left[seat.index()] = Duration::ZERO;
        } else if let Some(side) = self.game().decider() {
            let seat = self.game().seat_of(side).index();
            left[seat] = left[seat].saturating_sub(now.saturating_duration_since(clocks.since));
        }
        Some(left)
    }

    /// Ends the game if the player to decide has run out of time by `now`; stops its searches then.
    pub fn check_time(&mut self, now: Instant) {
        let Some(left) = self.time_left(now) else { return };
        let Some(side) = self.game().decider() else { return };
        if self.lost_on_time().is_none() && left[self.game().seat_of(side).index()].is_zero() {
            if let Some(clocks) = &mut self.clocks {
                clocks.lost = Some(self.history.game().seat_of(side));
            }
            self.changed();
        }
    }

    /// Returns the clock the engine plans its move with when it decides now in a timed game.
    fn engine_clock(&self, now: Instant) -> Option<Clock> {
        let side = self.game().decider()?;
        let seat = self.game().seat_of(side).index();
        let remaining = self.time_left(now)?[seat];
        let increment = self.clocks.as_ref()?.seats[seat].clock().increment;
        Some(Clock { remaining, increment })
    }

    /// Returns the side that decides now and its seat, or `None` once the game is over (by the
    /// rules, or on time).
    pub fn decider(&self) -> Option<(Side, Seat)> {
        if self.lost_on_time().is_some() {
            return None;
        }
        let side = self.game().decider()?;
        Some((side, self.seat_of(side)))
    }

    /// Returns the seat that plays `side` now.
    pub fn seat_of(&self, side: Side) -> Seat {
        self.seats[self.game().seat_of(side).index()]
    }

    /// Returns the side `actor` may act for now and its seat, or why it may not: the game is
    /// over, the side to decide is held by another, or the engine is thinking.
    pub fn may_act(&self, actor: Actor) -> Result<(Side, Seat), Refused> {
        let (side, seat) = self.decider().ok_or(Refused::Over)?;
        if !seat.admits(actor) {
            return Err(match seat {
                Seat::Human => Refused::PersonsSeat(side),
                Seat::Engine(_) => Refused::EnginesSeat(side),
            });
        }
        if self.thinking {
            return Err(Refused::Thinking);
        }
        Ok((side, seat))
    }

    /// Which seats a person holds, first player first.
    fn people(&self) -> [bool; 2] {
        self.seats.map(Seat::is_human)
    }

    /// Marks a change: stops the searches of the old version and starts a new one.
    fn changed(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.stop = Arc::new(AtomicBool::new(false));
        self.version += 1;
        self.thinking = false;
    }

    /// Stops every search of the game (it is being closed).
    pub fn close(&mut self) {
        self.changed();
    }

    /// Takes `actor`'s action, if [`Session::may_act`] lets it and the rules allow it; a refused
    /// action changes nothing. In a timed game the player who took it is charged the time since
    /// they began, and gets the increment.
    pub fn act(&mut self, actor: Actor, action: Action) -> Result<(), Refused> {
        self.may_act(actor)?;
        self.play(action)
    }

    /// Plays an action of the player to decide, with its time.
    fn play(&mut self, action: Action) -> Result<(), Refused> {
        let now = Instant::now();
        let seat = self.game().decider().map(|side| self.game().seat_of(side));
        self.history.act(action)?;
        if let (Some(clocks), Some(seat)) = (&mut self.clocks, seat) {
            clocks.seats[seat.index()].charge(now.saturating_duration_since(clocks.since));
            clocks.since = now;
        }
        self.changed();
        Ok(())
    }

    /// Returns the game as a search sees it now.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot { game: self.game().clone(), version: self.version, stop: Arc::clone(&self.stop) }
    }

    /// Returns the side a hint is for (the side to decide) and the game to search, or
    /// [`Refused::Over`]. Anyone may ask, whoever holds the seat.
    pub fn hint(&self) -> Result<(Side, Snapshot), Refused> {
        let (side, _) = self.decider().ok_or(Refused::Over)?;
        Ok((side, self.snapshot()))
    }

    /// Lets the engine begin its move if [`Session::may_act`] lets it (at `now`, for its
    /// clock): the session is then thinking until the move is played, the game changes or
    /// [`Session::stop_thinking`] is called.
    pub fn begin_engine_move(&mut self, now: Instant) -> Result<EngineMove, Refused> {
        let (side, seat) = self.may_act(Actor::Engine)?;
        // The engine is admitted to its own seats only.
        let Seat::Engine(level) = seat else { return Err(Refused::PersonsSeat(side)) };
        self.thinking = true;
        Ok(EngineMove { snapshot: self.snapshot(), level, clock: self.engine_clock(now) })
    }

    /// Ends the thinking of the engine move begun at `version` however it ended, if the game has
    /// not changed since (a change ended it already).
    pub fn stop_thinking(&mut self, version: u64) {
        if self.version == version {
            self.thinking = false;
        }
    }

    /// Plays the action the engine decided on for the move begun at `version`: refused with
    /// [`Refused::Changed`] if the game changed since, or as the rules refuse it.
    pub fn play_engine_move(&mut self, version: u64, action: Action) -> Result<(), Refused> {
        self.unchanged_since(version)?;
        self.play(action)
    }

    /// Returns [`Refused::Changed`] if the game changed since `version`.
    pub fn unchanged_since(&self, version: u64) -> Result<(), Refused> {
        if self.version == version {
            Ok(())
        } else {
            Err(Refused::Changed)
        }
    }

    /// Returns the analysis kept for the game as it is now, if there is one.
    pub fn analysis(&self) -> Option<&Analysis> {
        self.analysis.as_ref().filter(|(version, _)| *version == self.version).map(|(_, analysis)| analysis)
    }

    /// Keeps `analysis` of the game at `version`: refused with [`Refused::Changed`] if the game
    /// changed since.
    pub fn keep_analysis(&mut self, version: u64, analysis: Analysis) -> Result<(), Refused> {
        self.unchanged_since(version)?;
        self.analysis = Some((version, analysis));
        Ok(())
    }

    /// In a timed game, the player to decide after a step through the history begins now: the
    /// clocks keep what they held (stepping back gives no time back).
    fn stepped(&mut self) {
        if let Some(clocks) = &mut self.clocks {
            clocks.since = Instant::now();
        }
        self.changed();
    }

    /// Takes back `plies` actions, or with `None` every action back to, and including, the last
    /// one a person took (one action when no person plays); returns how many were taken back.
    /// Asking for more than was played is refused and changes nothing. Anyone may step through
    /// the history at any time: a search of the old position is stopped.
    pub fn undo(&mut self, plies: Option<usize>) -> Result<usize, HistoryError> {
        let count = match plies {
            Some(n) => self.history.undo(n).map(|()| n)?,
            None => self.history.undo_turn(self.people())?,
        };
        self.stepped();
        Ok(count)
    }

    /// Replays `plies` taken-back actions, or with `None` up to the next point where a person
    /// decides (one action when no person plays); returns how many were replayed. Asking for more
    /// than was taken back is refused and changes nothing.
    pub fn redo(&mut self, plies: Option<usize>) -> Result<usize, HistoryError> {
        let count = match plies {
            Some(n) => self.history.redo(n).map(|()| n)?,
            None => self.history.redo_turn(self.people())?,
        };
        self.stepped();
        Ok(count)
    }

    /// Goes to the position after `ply` actions of the whole line (played and taken back).
    pub fn goto(&mut self, ply: usize) -> Result<(), HistoryError> {
        self.history.goto(ply)?;
        self.stepped();
        Ok(())
    }
}

/// Why a game could not be had.
#[derive(Debug, PartialEq, Eq)]
pub enum Missing {
    /// No game has the id (never had, closed or expired).
    Unknown,
    /// The server holds its most games already.
    Full,
}

/// All games, by id.
pub struct Games {
    games: Mutex<HashMap<String, Arc<Mutex<Session>>>>,
    max: usize,
    idle: Duration,
}

impl Games {
    /// Returns an empty store of at most `max` games, each closed after `idle` without a request.
    pub fn new(max: usize, idle: Duration) -> Games {
        Games { games: Mutex::new(HashMap::new()), max, idle }
    }

    /// Returns how long a game may stay idle.
    pub fn idle(&self) -> Duration {
        self.idle
    }

    /// Returns the most games held at once.
    pub fn max(&self) -> usize {
        self.max
    }

    fn map(&self) -> MutexGuard<'_, HashMap<String, Arc<Mutex<Session>>>> {
        self.games.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Adds a game and returns its new id, closing expired games first if the store is full.
    pub fn add(&self, session: Session) -> Result<String, Missing> {
        if self.map().len() >= self.max {
            self.expire(Instant::now());
        }
        let mut games = self.map();
        if games.len() >= self.max {
            return Err(Missing::Full);
        }
        let id = loop {
            let id = format!("{:016x}", rand::random::<u64>());
            if !games.contains_key(&id) {
                break id;
            }
        };
        games.insert(id.clone(), Arc::new(Mutex::new(session)));
        Ok(id)
    }

    /// Returns the game `id`, marked as used now.
    pub fn get(&self, id: &str) -> Result<Arc<Mutex<Session>>, Missing> {
        let game = self.map().get(id).cloned().ok_or(Missing::Unknown)?;
        let mut session = lock(&game);
        let now = Instant::now();
        session.last_used = now;
        session.check_time(now);
        drop(session);
        Ok(game)
    }

    /// Closes the game `id`, stopping its searches.
    pub fn remove(&self, id: &str) -> Result<(), Missing> {
        let game = self.map().remove(id).ok_or(Missing::Unknown)?;
        lock(&game).close();
        Ok(())
    }

    /// Returns the number of games held.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.map().len()
    }

    /// Closes the games idle since before `now` minus the idle time; returns how many.
    pub fn expire(&self, now: Instant) -> usize {
        let mut games = self.map();
        let before = games.len();
        games.retain(|_, game| {
            let mut session = lock(game);
            let keep = now.saturating_duration_since(session.last_used) < self.idle;
            if !keep {
                session.close();
            }
            keep
        });
        before - games.len()
    }
}

/// Locks a session; a session is never left half changed, so a poisoned lock is still good.
pub fn lock(session: &Mutex<Session>) -> MutexGuard<'_, Session> {
    session.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_rules::Rules;

    fn session(seats: [Seat; 2]) -> Session {
        Session::new(Game::new(Rules::standard(4, 3).unwrap()), seats)
    }

    /// Plays `actions` for whoever holds the seats.
    fn play(session: &mut Session, actions: &[&str]) {
        for action in actions {
            session.play(action.parse().unwrap()).unwrap();
        }
    }

    #[test]
    fn seats_read_and_refuse() {
        assert_eq!("human".parse(), Ok(Seat::Human));
        assert_eq!("engine".parse(), Ok(Seat::Engine(Level::DEFAULT)));
        assert_eq!("engine:5".parse(), Ok(Seat::Engine(Level::MAX)));
        for bad in ["", "engine:0", "engine:6", "engine:x", "robot", "human:1"] {
            assert!(bad.parse::<Seat>().is_err(), "{bad}");
        }
        let two = Seat::Engine(Level::new(2).unwrap());
        assert_eq!(two.to_string().parse(), Ok(two));
        assert_eq!(
            "engine:9".parse::<Seat>().unwrap_err().to_string(),
            "unknown player \"engine:9\": write human, engine, or engine:LEVEL with a level from 1 to 5"
        );
    }

    #[test]
    fn undo_goes_back_to_the_persons_last_decision_and_redo_forward_to_the_next() {
        let mut s = session([Seat::Human, Seat::Engine(Level::MIN)]);
        play(&mut s, &["1", "1"]);
        let version = s.version;
        let stop = Arc::clone(&s.stop);
        assert_eq!(s.undo(None), Ok(2), "the engine's reply and the person's move");
        assert!(stop.load(Ordering::Relaxed), "the old version's searches are stopped");
        assert!(s.version > version);
        assert_eq!(s.game().actions().len(), 0);
        assert_eq!(s.redo(None), Ok(2), "up to the person's next decision");
        assert_eq!(s.game().actions().len(), 2);
        s.goto(1).unwrap();
        assert_eq!(s.history().whole_line().actions().len(), 2);
        let version = s.version;
        assert!(s.goto(3).is_err());
        assert!(s.undo(Some(2)).is_err(), "one ply is played: two are refused");
        assert!(s.redo(Some(2)).is_err(), "one ply was taken back: two are refused");
        assert_eq!(s.version, version, "a refused step changes nothing");
        assert_eq!(s.undo(Some(1)), Ok(1));
        assert_eq!(s.undo(None), Err(HistoryError::NothingToUndo));
    }

    #[test]
    fn an_illegal_action_is_refused_and_changes_nothing() {
        let mut s = session([Seat::Human, Seat::Human]);
        play(&mut s, &["1"]);
        let (history, version) = (s.history().clone(), s.version());
        for bad in ["9", "swap", "keep", "S1>N1"] {
            assert!(matches!(s.act(Actor::Person, bad.parse().unwrap()), Err(Refused::Illegal(_))), "{bad}");
        }
        assert_eq!(s.history(), &history);
        assert_eq!(s.version(), version);
    }

    /// Plays the first legal action for whoever decides until the engine is to move.
    fn to_the_engine(s: &mut Session) {
        while s.decider().is_some_and(|(_, seat)| seat.is_human()) {
            let action = s.game().legal_actions()[0];
            s.play(action).unwrap();
        }
    }

    #[test]
    fn the_session_says_who_may_act() {
        let mut s = session([Seat::Human, Seat::Engine(Level::MIN)]);
        let engine_turn = s.begin_engine_move(Instant::now()).map(|_| ());
        assert_eq!(engine_turn, Err(Refused::PersonsSeat(Side::South)));
        assert_eq!(s.act(Actor::Engine, "1".parse().unwrap()), Err(Refused::PersonsSeat(Side::South)));
        assert_eq!(s.may_act(Actor::Person), Ok((Side::South, Seat::Human)));
        s.act(Actor::Person, "1".parse().unwrap()).unwrap();
        // North is the engine's: a person is refused, the engine may begin.
        assert_eq!(s.act(Actor::Person, "1".parse().unwrap()), Err(Refused::EnginesSeat(Side::North)));
        let begun = s.begin_engine_move(Instant::now()).unwrap();
        assert_eq!((begun.level, begun.snapshot.version, begun.clock), (Level::MIN, s.version(), None));
        assert!(s.is_thinking());
        assert_eq!(s.begin_engine_move(Instant::now()).map(|_| ()), Err(Refused::Thinking));
        assert_eq!(s.may_act(Actor::Engine), Err(Refused::Thinking));
        // The engine's answer is played only for the game it searched.
        let answer = s.game().legal_actions()[0];
        s.play_engine_move(begun.snapshot.version, answer).unwrap();
        assert!(!s.is_thinking());
        assert_eq!(s.play_engine_move(begun.snapshot.version, answer), Err(Refused::Changed));
        // An undo while the engine thinks stops its search; a stale end of thinking changes nothing.
        to_the_engine(&mut s);
        let begun = s.begin_engine_move(Instant::now()).unwrap();
        s.undo(Some(1)).unwrap();
        assert!(begun.snapshot.stop.load(Ordering::Relaxed) && !s.is_thinking());
        assert_eq!(s.play_engine_move(begun.snapshot.version, answer), Err(Refused::Changed));
        to_the_engine(&mut s);
        let begun = s.begin_engine_move(Instant::now()).unwrap();
        s.stop_thinking(begun.snapshot.version - 1);
        assert!(s.is_thinking(), "an old version's end leaves the new thinking");
        s.stop_thinking(begun.snapshot.version);
        assert!(!s.is_thinking());
        // Once the game is over nobody acts, and no hint is given.
        while !s.game().is_over() {
            let action = s.game().legal_actions()[0];
            s.play(action).unwrap();
        }
        assert_eq!(s.may_act(Actor::Person), Err(Refused::Over));
        assert_eq!(s.begin_engine_move(Instant::now()).map(|_| ()), Err(Refused::Over));
        assert_eq!(s.hint().map(|_| ()), Err(Refused::Over));
    }

    #[test]
    fn a_timed_game_lost_on_time_is_over_for_everyone() {
        let mut s = session([Seat::Human, Seat::Human]).with_clocks(Duration::from_secs(1), Duration::ZERO);
        s.check_time(Instant::now() + Duration::from_secs(2));
        assert_eq!(s.lost_on_time(), Some(kalah_rules::Seat::First));
        assert_eq!(s.act(Actor::Person, "1".parse().unwrap()), Err(Refused::Over));
        assert_eq!(s.increment(), Some(Duration::ZERO));
    }

    #[test]
    fn an_analysis_is_kept_for_its_version_only() {
        let mut s = session([Seat::Human, Seat::Human]);
        let analysis = |version| Analysis::unsearched(&Game::new(Rules::standard(4, 3).unwrap()), version);
        let version = s.version();
        s.keep_analysis(version, analysis(version)).unwrap();
        assert_eq!(s.analysis().map(|a| a.version), Some(version));
        play(&mut s, &["1"]);
        assert!(s.analysis().is_none(), "the game changed");
        assert_eq!(s.keep_analysis(version, analysis(version)), Err(Refused::Changed));
    }

    #[test]
    fn idle_games_expire_and_a_full_store_refuses() {
        let games = Games::new(2, Duration::from_secs(60));
        let a = games.add(session([Seat::Human; 2])).unwrap();
        let b = games.add(session([Seat::Human; 2])).unwrap();
        assert_ne!(a, b);
        assert_eq!(games.add(session([Seat::Human; 2])), Err(Missing::Full));
        let stop = Arc::clone(&lock(&games.get(&a).unwrap()).stop);
        assert_eq!(games.expire(Instant::now()), 0);
        assert_eq!(games.expire(Instant::now() + Duration::from_secs(61)), 2);
        assert!(stop.load(Ordering::Relaxed), "an expired game's searches stop");
        assert_eq!(games.get(&a).err(), Some(Missing::Unknown));
        assert_eq!(games.len(), 0);
        let c = games.add(session([Seat::Human; 2])).unwrap();
        games.remove(&c).unwrap();
        assert_eq!(games.remove(&c), Err(Missing::Unknown));
    }
}
