//! The games being played: each with its own id, its seats, undo and redo, a version that
//! counts its changes and a stop flag for the engine's searches; idle games expire.
//!
//! A [`Session`] says who may act on its game now: a request to act names its [`Actor`], and
//! the session refuses with a [`Refused`] what the game's state, the seat's holder or the
//! engine's thinking does not allow. The HTTP layer only translates requests and refusals.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};
use thiserror::Error;
use tokio::sync::watch;

use kalah_engine::level::Level;
use kalah_engine::time::{Clock, GameClock};
use kalah_rules::{Action, Game, History, HistoryError, PlayError, Side};
use kalah_view::{Analysis, Facts, Player};

use crate::event::{Change, Event, Moment};
use crate::postgres::Notice;
use crate::store::{Archived, Database, Start, Store, StoreError};

/// Who asks to act on a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Actor {
    /// A person at the page.
    Person,
    /// The server's engine, for the seat it holds.
    Engine,
    /// The holder of a seat's secret token, in a game between friends.
    Holder(kalah_rules::Seat),
}

impl Actor {
    /// Tells whether this actor may act for a seat `player` holds: the one place where a seat's
    /// holder is checked (a person holds a person's seat, the engine the engine's).
    pub fn may_act_for(self, player: Player) -> bool {
        matches!((player, self), (Player::Human, Actor::Person | Actor::Holder(_)) | (Player::Engine(_), Actor::Engine))
    }
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
    /// In a game between friends, the side to decide is held by the other player.
    #[error("{0} is the other player's seat: only its holder moves for it")]
    NotYours(Side),
    /// Only the players of a game between friends may do this, with their seat's token.
    #[error("only the players of this game may do this (send the seat's token)")]
    NotAPlayer,
    /// There is no takeback to ask for, or to answer.
    #[error("{0}")]
    Takeback(&'static str),
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

/// The most time a player's clock waits, after the move before, for the player's screen to show
/// that move (the page animates a sowing seed by seed): see [`Session::shown`].
pub const MOST_SHOWING: Duration = Duration::from_secs(10);

/// The players' clocks of a timed game: each player's own (they follow the player across a swap),
/// when the player to decide started, and who ran out of time.
#[derive(Clone, Debug)]
struct Clocks {
    /// The first player's clock, then the second player's.
    seats: [GameClock; 2],
    /// When the player to decide now began to think: when the move before was made, until the
    /// player's screen has shown it (then when it did, at most [`MOST_SHOWING`] later).
    since: Moment,
    /// The move before was made at `since` and is not yet shown: a [`Session::shown`] may still
    /// start the clock later.
    showing: bool,
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
    seats: [Player; 2],
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
    /// The changes made and not yet stored ([`Games::save`] stores them).
    unsaved: Vec<Event>,
    /// The number of changes stored.
    saved: u64,
    /// In a game between friends, the SHA-256 (hex) of each seat's secret token.
    tokens: Option<[String; 2]>,
    /// The player who resigned: the game is over, lost by that player.
    resigned: Option<kalah_rules::Seat>,
    /// The player who asks to take back its last turn, until the opponent answers.
    takeback: Option<kalah_rules::Seat>,
    /// The ids of the last requests that changed the game, so that one sent again is answered
    /// and not played again.
    recent: VecDeque<String>,
    /// The id of the request being made, for its change.
    request: Option<String>,
    /// The player who offers a rematch, once the game is over.
    rematch_offer: Option<kalah_rules::Seat>,
    /// The rematch both players wanted: the new game's id.
    rematch: Option<String>,
    /// Tells whoever follows the game (the live channel) how many changes are stored.
    changes: watch::Sender<u64>,
}

/// The most request ids a game remembers.
const RECENT: usize = 64;

/// Returns the SHA-256 of a seat's token, in hex, as games keep it.
pub fn token_hash(token: &str) -> String {
    Sha256::digest(token.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// Returns a new secret token: 128 random bits in hex.
pub fn new_token() -> String {
    format!("{:032x}", rand::random::<u128>())
}

impl Session {
    /// Starts a session of `game` with its seats.
    pub fn new(game: Game, seats: [Player; 2]) -> Session {
        Session {
            history: History::new(game),
            seats,
            version: 0,
            stop: Arc::new(AtomicBool::new(false)),
            thinking: false,
            analysis: None,
            clocks: None,
            last_used: Instant::now(),
            unsaved: Vec::new(),
            saved: 0,
            tokens: None,
            resigned: None,
            takeback: None,
            recent: VecDeque::new(),
            request: None,
            rematch_offer: None,
            rematch: None,
            changes: watch::channel(0).0,
        }
    }

    /// Returns the session as a game between friends: each seat held by the token whose
    /// SHA-256 is given ([`token_hash`]).
    pub fn with_tokens(mut self, hashes: [String; 2]) -> Session {
        self.tokens = Some(hashes);
        self
    }

    /// Makes both seats people's (a game between friends).
    pub fn seat_people(&mut self) {
        self.seats = [Player::Human; 2];
    }

    /// Tells whether this is a game between friends, each seat held by a token.
    pub fn is_friends(&self) -> bool {
        self.tokens.is_some()
    }

    /// Returns the seat `token` holds, if it holds one.
    pub fn holder(&self, token: &str) -> Option<kalah_rules::Seat> {
        let hash = token_hash(token);
        let tokens = self.tokens.as_ref()?;
        kalah_rules::Seat::BOTH.into_iter().find(|seat| tokens[seat.index()] == hash)
    }

    /// Returns the player who resigned, if one did.
    pub fn resigned(&self) -> Option<kalah_rules::Seat> {
        self.resigned
    }

    /// Returns the player who asks for a takeback, if one does.
    pub fn takeback(&self) -> Option<kalah_rules::Seat> {
        self.takeback
    }

    /// Returns the number of changes stored, which the live channel counts by.
    pub fn saved(&self) -> u64 {
        self.saved
    }

    /// Returns a receiver told the number of changes stored, each time it grows.
    pub fn follow(&self) -> watch::Receiver<u64> {
        self.changes.subscribe()
    }

    /// Names the request being made (its changes carry the id); returns `false` if a request of
    /// that id already changed the game: it is answered as the game is, not made again.
    pub fn begin_request(&mut self, id: Option<&str>) -> bool {
        self.request = id.map(str::to_string);
        !id.is_some_and(|id| self.recent.iter().any(|seen| seen == id))
    }

    /// Returns the player who offers a rematch and the rematch's id once both wanted one.
    pub fn rematch(&self) -> (Option<kalah_rules::Seat>, Option<&str>) {
        (self.rematch_offer, self.rematch.as_deref())
    }

    /// The player `by` offers a rematch of the finished game; returns `true` when the opponent
    /// offered one already: the caller then starts [`Session::rematch_session`] and notes its
    /// id with [`Session::rematched`].
    pub fn offer_rematch(&mut self, by: kalah_rules::Seat, now: Moment) -> Result<bool, Refused> {
        if self.decider().is_some() {
            return Err(Refused::Takeback("the game is not over: a rematch follows its end"));
        }
        if self.rematch.is_some() {
            return Err(Refused::Takeback("the rematch has begun already"));
        }
        match self.rematch_offer {
            Some(other) if other != by => Ok(true),
            Some(_) => Ok(false),
            None => {
                self.rematch_offer = Some(by);
                self.log(Change::RematchOffered { by }, now);
                Ok(false)
            }
        }
    }

    /// Returns the rematch of this game between friends: the same rules, start and clocks, the
    /// sides swapped (each player keeps its token, for the other seat).
    pub fn rematch_session(&self) -> Session {
        let line = self.history.whole_line();
        let game = Game::from_position(*line.rules(), *line.start());
        let mut session = Session::new(game, [self.seats[1], self.seats[0]]);
        if let Some(clocks) = &self.clocks {
            let clock = clocks.seats[0];
            session = session.with_clocks(clock.total(), clock.clock().increment);
        }
        session.tokens = self.tokens.as_ref().map(|[a, b]| [b.clone(), a.clone()]);
        session
    }

    /// Notes that the rematch is the game `id`.
    pub fn rematched(&mut self, id: &str, now: Moment) {
        self.rematch = Some(id.to_string());
        self.log(Change::Rematched { game: id.to_string() }, now);
    }

    /// The player `by` resigns: the game is over and the other player wins.
    pub fn resign(&mut self, by: kalah_rules::Seat, now: Moment) -> Result<(), Refused> {
        self.decider().ok_or(Refused::Over)?;
        self.resigned = Some(by);
        self.takeback = None;
        self.changed();
        self.log(Change::Resigned { by }, now);
        Ok(())
    }

    /// The player `by` asks to take back its last turn; the opponent accepts or refuses.
    pub fn ask_takeback(&mut self, by: kalah_rules::Seat, now: Moment) -> Result<(), Refused> {
        self.decider().ok_or(Refused::Over)?;
        let game = self.game();
        if !(0..game.actions().len()).any(|i| game.actor(i).is_some_and(|(_, seat)| seat == by)) {
            return Err(Refused::Takeback("you have no move to take back"));
        }
        if self.takeback.is_some() {
            return Err(Refused::Takeback("a takeback is already asked for"));
        }
        self.takeback = Some(by);
        self.log(Change::TakebackAsked { by }, now);
        Ok(())
    }

    /// The player `by` answers the opponent's takeback: `accept` takes back every action since,
    /// and including, the asker's last one.
    pub fn answer_takeback(&mut self, by: kalah_rules::Seat, accept: bool, now: Moment) -> Result<(), Refused> {
        let asker = self.takeback.ok_or(Refused::Takeback("no takeback is asked for"))?;
        if asker == by {
            return Err(Refused::Takeback("the takeback is yours: your opponent answers it"));
        }
        self.takeback = None;
        if accept {
            let mut mask = [false; 2];
            mask[asker.index()] = true;
            let plies = self.history.undo_turn(mask).map_err(|_| Refused::Takeback("there is nothing to take back"))?;
            self.stepped(now);
            self.log(Change::TakebackAccepted { plies }, now);
        } else {
            self.log(Change::TakebackRefused, now);
        }
        Ok(())
    }

    /// Returns how the game began, at `at`, for the store.
    pub fn start(&self, at: Moment) -> Start {
        let line = self.history.whole_line();
        Start {
            rules: line.rules().to_string(),
            position: line.start().to_string(),
            actions: line.actions().iter().map(Action::to_string).collect(),
            seats: self.seats.map(|seat| seat.to_string()),
            clock: self.clocks.as_ref().map(|c| {
                let clock = c.seats[0];
                [clock.total().as_millis() as u64, clock.clock().increment.as_millis() as u64]
            }),
            tokens: self.tokens.clone(),
            at,
        }
    }

    /// Rebuilds a stored game from its start and its events, as it was when the last was stored.
    pub fn rebuild(start: &Start, events: &[Event]) -> Result<Session, String> {
        let rules: kalah_rules::Rules = start.rules.parse().map_err(|e| format!("bad rules: {e}"))?;
        let position = kalah_rules::Position::parse(&start.position, &rules).map_err(|e| e.to_string())?;
        let mut game = Game::from_position(rules, position);
        for text in &start.actions {
            let action = game.parse_action(text).map_err(|e| e.to_string())?;
            game.act(action).map_err(|e| e.to_string())?;
        }
        let seats = [start.seats[0].parse::<Player>(), start.seats[1].parse::<Player>()];
        let [Ok(first), Ok(second)] = seats else { return Err("bad seats".to_string()) };
        let mut session = Session::new(game, [first, second]);
        if let Some([total, increment]) = start.clock {
            session = session.with_clocks_at(Duration::from_millis(total), Duration::from_millis(increment), start.at);
        }
        if let Some(tokens) = &start.tokens {
            session.tokens = Some(tokens.clone());
        }
        for event in events {
            session.request = event.request.clone();
            session.apply(&event.change, event.at).map_err(|e| format!("event {}: {e}", event.version))?;
            if session.version != event.version {
                return Err(format!("event {} makes version {}", event.version, session.version));
            }
        }
        session.unsaved.clear();
        session.saved = events.len() as u64;
        Ok(session)
    }

    /// Plays the events another server stored after the ones this session has (they follow
    /// them): the session is then as if it had read them, and its followers are told. On an
    /// error the session is left half changed: the caller reads it again.
    pub fn catch_up(&mut self, events: &[Event]) -> Result<(), String> {
        if !self.unsaved.is_empty() {
            return Err("changes not stored".to_string());
        }
        for event in events {
            self.request = event.request.clone();
            self.apply(&event.change, event.at).map_err(|e| format!("event {}: {e}", event.version))?;
            if self.version != event.version {
                return Err(format!("event {} makes version {}", event.version, self.version));
            }
        }
        self.unsaved.clear();
        self.saved += events.len() as u64;
        self.changes.send_replace(self.saved);
        Ok(())
    }

    /// Makes a stored change again, as it was made at `at`.
    fn apply(&mut self, change: &Change, at: Moment) -> Result<(), String> {
        match change {
            Change::Act { action, spent } => {
                let action = self.game().parse_action(action).map_err(|e| e.to_string())?;
                let seat = self.game().decider().map(|side| self.game().seat_of(side));
                self.history.act(action).map_err(|e| e.to_string())?;
                if let (Some(clocks), Some(seat)) = (&mut self.clocks, seat) {
                    clocks.seats[seat.index()].charge(Duration::from_millis(spent.unwrap_or(0)));
                    clocks.since = at;
                    clocks.showing = true;
                }
                self.changed();
            }
            Change::Undo { plies } => {
                self.history.undo(*plies).map_err(|e| e.to_string())?;
                self.stepped(at);
            }
            Change::Redo { plies } => {
                self.history.redo(*plies).map_err(|e| e.to_string())?;
                self.stepped(at);
            }
            Change::Goto { ply } => {
                self.history.goto(*ply).map_err(|e| e.to_string())?;
                self.stepped(at);
            }
            Change::Shown => {
                if let Some(clocks) = &mut self.clocks {
                    clocks.since = at;
                    clocks.showing = false;
                }
            }
            Change::TimedOut { player } => {
                if let Some(clocks) = &mut self.clocks {
                    clocks.lost = Some(*player);
                }
                self.changed();
            }
            Change::Resigned { by } => {
                self.resigned = Some(*by);
                self.takeback = None;
                self.changed();
            }
            Change::TakebackAsked { by } => self.takeback = Some(*by),
            Change::RematchOffered { by } => self.rematch_offer = Some(*by),
            Change::Rematched { game } => self.rematch = Some(game.clone()),
            Change::TakebackRefused => self.takeback = None,
            Change::TakebackAccepted { plies } => {
                self.takeback = None;
                self.history.undo(*plies).map_err(|e| e.to_string())?;
                self.stepped(at);
            }
            other => return Err(format!("{other:?} is not a change of this kind of game")),
        }
        self.log(change.clone(), at);
        Ok(())
    }

    /// Notes a change made at `at`, to be stored.
    fn log(&mut self, change: Change, at: Moment) {
        let request = self.request.take();
        if let Some(id) = &request {
            if self.recent.len() == RECENT {
                self.recent.pop_front();
            }
            self.recent.push_back(id.clone());
        }
        self.unsaved.push(Event { version: self.version, at, change, request });
    }

    /// Returns the changes not yet stored and how many were stored before them.
    pub fn unsaved(&self) -> (u64, &[Event]) {
        (self.saved, &self.unsaved)
    }

    /// Marks the changes not yet stored as stored.
    pub fn mark_saved(&mut self) {
        self.saved += self.unsaved.len() as u64;
        self.unsaved.clear();
        self.changes.send_replace(self.saved);
    }

    /// Returns the session with a clock for each player: `total` for the game and `increment`
    /// added after each of the player's actions. The player to decide starts thinking now.
    pub fn with_clocks(self, total: Duration, increment: Duration) -> Session {
        self.with_clocks_at(total, increment, Moment::now())
    }

    /// Returns the session with clocks (see [`Session::with_clocks`]) started at `now`.
    pub fn with_clocks_at(mut self, total: Duration, increment: Duration, now: Moment) -> Session {
        let clock = GameClock::new(total, increment);
        self.clocks = Some(Clocks { seats: [clock; 2], since: now, showing: true, lost: None });
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
    pub fn seats(&self) -> [Player; 2] {
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
    pub fn time_left(&self, now: Moment) -> Option<[Duration; 2]> {
        let clocks = self.clocks.as_ref()?;
        let mut left = clocks.seats.map(|c| c.left());
        if let Some(seat) = clocks.lost {
            left[seat.index()] = Duration::ZERO;
        } else if let Some(side) = self.game().decider() {
            let seat = self.game().seat_of(side).index();
            left[seat] = left[seat].saturating_sub(now.since(clocks.since));
        }
        Some(left)
    }

    /// Ends the game if the player to decide has run out of time by `now`; stops its searches then.
    pub fn check_time(&mut self, now: Moment) {
        let Some(left) = self.time_left(now) else { return };
        let Some(side) = self.game().decider() else { return };
        if self.lost_on_time().is_none() && left[self.game().seat_of(side).index()].is_zero() {
            let player = self.history.game().seat_of(side);
            if let Some(clocks) = &mut self.clocks {
                clocks.lost = Some(player);
            }
            self.changed();
            self.log(Change::TimedOut { player }, now);
        }
    }

    /// Returns the clock the engine plans its move with when it decides now in a timed game.
    fn engine_clock(&self, now: Moment) -> Option<Clock> {
        let side = self.game().decider()?;
        let seat = self.game().seat_of(side).index();
        let remaining = self.time_left(now)?[seat];
        let increment = self.clocks.as_ref()?.seats[seat].clock().increment;
        Some(Clock { remaining, increment })
    }

    /// Returns the side that decides now and its seat, or `None` once the game is over (by the
    /// rules, or on time).
    pub fn decider(&self) -> Option<(Side, Player)> {
        if self.lost_on_time().is_some() || self.resigned.is_some() {
            return None;
        }
        let side = self.game().decider()?;
        Some((side, self.seat_of(side)))
    }

    /// Returns what the page shows of game `id` at `now` (for its clocks): the facts its state,
    /// status line and record are built from (kalah-view's, as for the static site's games).
    pub fn facts<'a>(&'a self, id: &'a str, now: Moment) -> Facts<'a> {
        Facts {
            id,
            version: self.version,
            history: &self.history,
            seats: self.seats,
            lost_on_time: self.lost_on_time(),
            resigned: self.resigned,
            // The player to decide is charged from the move before until the page has shown it
            // (see `shown`): the clock runs all along.
            clocks: self.time_left(now).map(|left| kalah_view::Clocks {
                left,
                increment: self.increment().unwrap_or(Duration::ZERO),
                running: true,
            }),
            thinking: self.thinking,
        }
    }

    /// Returns the seat that plays `side` now.
    pub fn seat_of(&self, side: Side) -> Player {
        self.seats[self.game().seat_of(side).index()]
    }

    /// Returns the side `actor` may act for now and its seat, or why it may not: the game is
    /// over, the side to decide is held by another, or the engine is thinking.
    pub fn may_act(&self, actor: Actor) -> Result<(Side, Player), Refused> {
        let (side, seat) = self.decider().ok_or(Refused::Over)?;
        if !actor.may_act_for(seat) {
            return Err(match seat {
                Player::Human => Refused::PersonsSeat(side),
                Player::Engine(_) => Refused::EnginesSeat(side),
            });
        }
        if self.tokens.is_some() {
            match actor {
                Actor::Holder(holder) if holder == self.game().seat_of(side) => {}
                Actor::Holder(_) => return Err(Refused::NotYours(side)),
                _ => return Err(Refused::NotAPlayer),
            }
        }
        if self.thinking {
            return Err(Refused::Thinking);
        }
        Ok((side, seat))
    }

    /// Which seats a person holds, first player first.
    fn people(&self) -> [bool; 2] {
        self.seats.map(Player::is_human)
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
        self.act_at(actor, action, Moment::now())
    }

    /// Takes `actor`'s action at `now` (see [`Session::act`]).
    pub fn act_at(&mut self, actor: Actor, action: Action, now: Moment) -> Result<(), Refused> {
        self.may_act(actor)?;
        self.play(action, now)
    }

    /// The screen of the player to decide has shown the game at `version` (the page has
    /// animated the move before) at `now`: in a timed game the player's clock starts now rather
    /// than when that move was made, but at most [`MOST_SHOWING`] after it, and once a move.
    /// Returns whether the clock was moved: a stale version, a second call or a game without
    /// clocks change nothing.
    pub fn shown(&mut self, version: u64, now: Moment) -> bool {
        if version != self.version || self.decider().is_none() {
            return false;
        }
        match &mut self.clocks {
            Some(clocks) if clocks.showing => {
                clocks.since = now.min(clocks.since.plus(MOST_SHOWING)).max(clocks.since);
                clocks.showing = false;
                let since = clocks.since;
                self.log(Change::Shown, since);
                true
            }
            _ => false,
        }
    }

    /// Plays an action of the player to decide at `now`, charging its time.
    fn play(&mut self, action: Action, now: Moment) -> Result<(), Refused> {
        let seat = self.game().decider().map(|side| self.game().seat_of(side));
        self.history.act(action)?;
        self.takeback = None;
        let mut spent = None;
        if let (Some(clocks), Some(seat)) = (&mut self.clocks, seat) {
            let time = now.since(clocks.since);
            clocks.seats[seat.index()].charge(time);
            clocks.since = now;
            clocks.showing = true;
            spent = Some(time.as_millis() as u64);
        }
        self.changed();
        self.log(Change::Act { action: action.to_string(), spent }, now);
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
    ///
    /// The engine's clock starts when it is asked to move (the page asks once it has shown the
    /// move before), at most [`MOST_SHOWING`] after that move: as [`Session::shown`].
    pub fn begin_engine_move(&mut self, now: Moment) -> Result<EngineMove, Refused> {
        let (side, seat) = self.may_act(Actor::Engine)?;
        // The engine is admitted to its own seats only.
        let Player::Engine(level) = seat else { return Err(Refused::PersonsSeat(side)) };
        self.shown(self.version, now);
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
    pub fn play_engine_move(&mut self, version: u64, action: Action, now: Moment) -> Result<(), Refused> {
        self.unchanged_since(version)?;
        self.play(action, now)
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
    fn stepped(&mut self, at: Moment) {
        if let Some(clocks) = &mut self.clocks {
            clocks.since = at;
            clocks.showing = true;
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
        let now = Moment::now();
        self.stepped(now);
        self.log(Change::Undo { plies: count }, now);
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
        let now = Moment::now();
        self.stepped(now);
        self.log(Change::Redo { plies: count }, now);
        Ok(count)
    }

    /// Goes to the position after `ply` actions of the whole line (played and taken back).
    pub fn goto(&mut self, ply: usize) -> Result<(), HistoryError> {
        self.history.goto(ply)?;
        let now = Moment::now();
        self.stepped(now);
        self.log(Change::Goto { ply }, now);
        Ok(())
    }
}

/// Why a game could not be had.
#[derive(Debug)]
pub enum Missing {
    /// No game has the id (never had, or deleted).
    Unknown,
    /// The server holds its most games in memory already.
    Full,
    /// The database failed.
    Store(StoreError),
    /// Another server (sharing a PostgreSQL database) changed the game first: the change was not
    /// stored, and the game is as the other server left it, at this version.
    Changed(u64),
}

impl PartialEq for Missing {
    fn eq(&self, other: &Missing) -> bool {
        match (self, other) {
            (Missing::Changed(a), Missing::Changed(b)) => a == b,
            _ => matches!((self, other), (Missing::Unknown, Missing::Unknown) | (Missing::Full, Missing::Full)),
        }
    }
}

impl From<StoreError> for Missing {
    fn from(e: StoreError) -> Missing {
        match e {
            StoreError::Gone(_) => Missing::Unknown,
            e => Missing::Store(e),
        }
    }
}

/// A game held in memory. Its lock is asynchronous: a request holds it while the change it made
/// is stored, awaiting the database without holding a thread.
pub type Held = Arc<tokio::sync::Mutex<Session>>;

/// All games: those being played in memory, by id, and every game in the database.
pub struct Games {
    games: Mutex<HashMap<String, Held>>,
    store: Store,
    max: usize,
    idle: Duration,
}

impl Games {
    /// Returns the games of `database`, at most `max` in memory at once, each put away after
    /// `idle` without a request (it stays in the database).
    pub fn open(database: &Database, max: usize, idle: Duration) -> Result<Games, StoreError> {
        Ok(Games { games: Mutex::new(HashMap::new()), store: Store::open(database)?, max, idle })
    }

    /// Returns an empty store in memory of at most `max` games.
    pub fn new(max: usize, idle: Duration) -> Games {
        Games::open(&Database::Memory, max, idle).expect("an SQLite database in memory opens")
    }

    /// Returns how long a game may stay idle.
    pub fn idle(&self) -> Duration {
        self.idle
    }

    /// Returns the most games held at once.
    pub fn max(&self) -> usize {
        self.max
    }

    fn map(&self) -> MutexGuard<'_, HashMap<String, Held>> {
        self.games.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Makes room for one more game in memory, putting away idle games first if it is full.
    fn room(&self) -> Result<(), Missing> {
        if self.map().len() >= self.max {
            self.expire(Instant::now());
        }
        if self.map().len() >= self.max {
            return Err(Missing::Full);
        }
        Ok(())
    }

    /// Stores a new game and returns its new id.
    pub async fn add(&self, mut session: Session) -> Result<String, Missing> {
        self.room()?;
        let id = loop {
            let id = format!("{:016x}", rand::random::<u64>());
            let held = self.map().contains_key(&id);
            if !held && self.store.load(&id).await?.is_none() {
                break id;
            }
        };
        self.store.create(&id, &session.start(Moment::now())).await?;
        session.unsaved.clear();
        self.map().insert(id.clone(), Arc::new(tokio::sync::Mutex::new(session)));
        Ok(id)
    }

    /// Returns the game `id`, marked as used now (read from the database if it is not in
    /// memory); a clock that ran out meanwhile ends it, and that is stored.
    pub async fn get(&self, id: &str) -> Result<Held, Missing> {
        let held = self.map().get(id).cloned();
        let game = match held.clone() {
            Some(game) => game,
            None => {
                let (start, events) = self.store.load(id).await?.ok_or(Missing::Unknown)?;
                let session = Session::rebuild(&start, &events)
                    .map_err(|why| Missing::Store(StoreError::Damaged { id: id.to_string(), why }))?;
                self.room()?;
                // Another request may have read it meanwhile: the first one read is kept.
                let mut games = self.map();
                Arc::clone(games.entry(id.to_string()).or_insert_with(|| Arc::new(tokio::sync::Mutex::new(session))))
            }
        };
        let mut session = game.lock().await;
        if held.is_none() && self.store.is_shared() {
            // A change another server stored while the game was being read was noticed before
            // the game was held here, and passed by: read it again now that it is held.
            self.refresh(id, &mut session).await?;
        }
        session.last_used = Instant::now();
        session.check_time(Moment::now());
        self.save(id, &mut session).await?;
        drop(session);
        Ok(game)
    }

    /// Stores the changes of game `id` not yet stored. If that fails the game is dropped from
    /// memory (it is read again as stored), and the request that made them fails.
    pub async fn save(&self, id: &str, session: &mut Session) -> Result<(), Missing> {
        let (seq, events) = session.unsaved();
        if events.is_empty() {
            return Ok(());
        }
        let finished = session.decider().is_none().then(|| session.facts(id, Moment::now()).status());
        match self.store.append(id, seq, events, finished.as_deref()).await {
            Ok(()) => {
                session.mark_saved();
                Ok(())
            }
            Err(StoreError::Conflict(_)) => {
                // Another server stored a change first: this one is dropped, and the game is
                // read as stored (the live channel shows it), for the client to look again.
                match self.refresh(id, session).await {
                    Ok(()) => Err(Missing::Changed(session.version())),
                    Err(e) => {
                        session.close();
                        self.map().remove(id);
                        Err(e)
                    }
                }
            }
            Err(e) => {
                session.close();
                self.map().remove(id);
                Err(Missing::Store(e))
            }
        }
    }

    /// Reads game `id` again as stored, if it changed there (another server stored changes of
    /// it): the session becomes the game rebuilt, and those who follow it live are told. Changes
    /// not stored are dropped.
    pub async fn refresh(&self, id: &str, session: &mut Session) -> Result<(), Missing> {
        let (start, events) = self.store.load(id).await?.ok_or(Missing::Unknown)?;
        if events.len() as u64 == session.saved && session.unsaved.is_empty() {
            return Ok(());
        }
        let mut fresh = Session::rebuild(&start, &events)
            .map_err(|why| Missing::Store(StoreError::Damaged { id: id.to_string(), why }))?;
        // The followers keep following: the new session takes the old one's channel.
        std::mem::swap(&mut fresh.changes, &mut session.changes);
        fresh.last_used = session.last_used;
        session.close();
        *session = fresh;
        session.changes.send_replace(session.saved);
        Ok(())
    }

    /// Returns the database other servers share, if it is shared (PostgreSQL).
    pub fn shared(&self) -> Option<&crate::postgres::Postgres> {
        self.store.shared()
    }

    /// Returns the notices of the changes other servers store, once, for [`Games::follow`]
    /// (only when the database is shared: PostgreSQL).
    pub fn notices(&self) -> Option<tokio::sync::mpsc::UnboundedReceiver<Notice>> {
        self.store.notices()
    }

    /// Brings the games held in memory up to date with a notice of a change stored (by this
    /// server or another): a game changed elsewhere is read again and its followers told; a
    /// game deleted elsewhere leaves memory.
    pub async fn follow(&self, notice: Notice) {
        match notice {
            Notice::Appended { game: id, count, events, .. } => {
                let held = self.map().get(&id).cloned();
                if let Some(game) = held {
                    let mut session = game.lock().await;
                    // The notice carries the new events when they fit: they are played on the
                    // game held, without reading it again.
                    let fits = session.saved + events.len() as u64 == count && !events.is_empty();
                    if session.saved < count && !(fits && session.catch_up(&events).is_ok()) {
                        drop(session);
                        self.reread(&id, &game).await;
                    }
                }
            }
            Notice::Deleted { game: id } => {
                let held = self.map().remove(&id);
                if let Some(game) = held {
                    game.lock().await.close();
                }
            }
            Notice::Missed => {
                let games: Vec<_> = self.map().iter().map(|(id, game)| (id.clone(), Arc::clone(game))).collect();
                for (id, game) in games {
                    self.reread(&id, &game).await;
                }
            }
            // Who follows the games is the server's presence's, not the games'.
            Notice::Here { .. } | Notice::Asked { .. } => {}
        }
    }

    /// Reads game `id` held as `game` again as stored ([`Games::refresh`]); a game deleted
    /// meanwhile leaves memory.
    async fn reread(&self, id: &str, game: &tokio::sync::Mutex<Session>) {
        let mut session = game.lock().await;
        if let Err(Missing::Unknown) = self.refresh(id, &mut session).await {
            session.close();
            drop(session);
            self.map().remove(id);
        }
    }

    /// Deletes the game `id`, stopping its searches.
    pub async fn remove(&self, id: &str) -> Result<(), Missing> {
        let held = self.map().remove(id);
        if let Some(game) = &held {
            game.lock().await.close();
        }
        if self.store.delete(id).await? || held.is_some() {
            Ok(())
        } else {
            Err(Missing::Unknown)
        }
    }

    /// Ends the timed games in memory whose running clock ran out by `now`, and stores that.
    pub async fn check_clocks(&self, now: Moment) {
        let games: Vec<_> = self.map().iter().map(|(id, game)| (id.clone(), Arc::clone(game))).collect();
        for (id, game) in games {
            let mut session = game.lock().await;
            if session.clocks.is_some() && session.lost_on_time().is_none() {
                session.check_time(now);
                // A failure drops the game from memory; it is read back as stored.
                let _ = self.save(&id, &mut session).await;
            }
        }
    }

    /// Returns the finished games, the last finished first, at most `limit`.
    pub async fn archive(&self, limit: usize) -> Result<Vec<Archived>, StoreError> {
        self.store.archive(limit).await
    }

    /// Returns the number of games held in memory.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.map().len()
    }

    /// Puts away the games idle since before `now` minus the idle time (they stay in the
    /// database); returns how many.
    pub fn expire(&self, now: Instant) -> usize {
        let mut games = self.map();
        let before = games.len();
        games.retain(|_, game| {
            // The map is held here, so a session is only tried: one locked is in use (and a
            // request that holds a session may wait for the map, on a store's failure).
            let Ok(mut session) = game.try_lock() else { return true };
            // A game someone follows live, or with changes not stored, stays.
            let keep = now.saturating_duration_since(session.last_used) < self.idle
                || !session.unsaved.is_empty()
                || session.changes.receiver_count() > 0;
            if !keep {
                session.close();
            }
            keep
        });
        before - games.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_rules::Rules;

    fn session(seats: [Player; 2]) -> Session {
        Session::new(Game::new(Rules::standard(4, 3).unwrap()), seats)
    }

    /// Plays `actions` for whoever holds the seats.
    fn play(session: &mut Session, actions: &[&str]) {
        for action in actions {
            session.play(action.parse().unwrap(), Moment::now()).unwrap();
        }
    }

    #[test]
    fn undo_goes_back_to_the_persons_last_decision_and_redo_forward_to_the_next() {
        let mut s = session([Player::Human, Player::Engine(Level::MIN)]);
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
        let mut s = session([Player::Human, Player::Human]);
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
            s.play(action, Moment::now()).unwrap();
        }
    }

    #[test]
    fn the_session_says_who_may_act() {
        let mut s = session([Player::Human, Player::Engine(Level::MIN)]);
        let engine_turn = s.begin_engine_move(Moment::now()).map(|_| ());
        assert_eq!(engine_turn, Err(Refused::PersonsSeat(Side::South)));
        assert_eq!(s.act(Actor::Engine, "1".parse().unwrap()), Err(Refused::PersonsSeat(Side::South)));
        assert_eq!(s.may_act(Actor::Person), Ok((Side::South, Player::Human)));
        s.act(Actor::Person, "1".parse().unwrap()).unwrap();
        // North is the engine's: a person is refused, the engine may begin.
        assert_eq!(s.act(Actor::Person, "1".parse().unwrap()), Err(Refused::EnginesSeat(Side::North)));
        let begun = s.begin_engine_move(Moment::now()).unwrap();
        assert_eq!((begun.level, begun.snapshot.version, begun.clock), (Level::MIN, s.version(), None));
        assert!(s.is_thinking());
        assert_eq!(s.begin_engine_move(Moment::now()).map(|_| ()), Err(Refused::Thinking));
        assert_eq!(s.may_act(Actor::Engine), Err(Refused::Thinking));
        // The engine's answer is played only for the game it searched.
        let answer = s.game().legal_actions()[0];
        s.play_engine_move(begun.snapshot.version, answer, Moment::now()).unwrap();
        assert!(!s.is_thinking());
        assert_eq!(s.play_engine_move(begun.snapshot.version, answer, Moment::now()), Err(Refused::Changed));
        // An undo while the engine thinks stops its search; a stale end of thinking changes nothing.
        to_the_engine(&mut s);
        let begun = s.begin_engine_move(Moment::now()).unwrap();
        s.undo(Some(1)).unwrap();
        assert!(begun.snapshot.stop.load(Ordering::Relaxed) && !s.is_thinking());
        assert_eq!(s.play_engine_move(begun.snapshot.version, answer, Moment::now()), Err(Refused::Changed));
        to_the_engine(&mut s);
        let begun = s.begin_engine_move(Moment::now()).unwrap();
        s.stop_thinking(begun.snapshot.version - 1);
        assert!(s.is_thinking(), "an old version's end leaves the new thinking");
        s.stop_thinking(begun.snapshot.version);
        assert!(!s.is_thinking());
        // Once the game is over nobody acts, and no hint is given.
        while !s.game().is_over() {
            let action = s.game().legal_actions()[0];
            s.play(action, Moment::now()).unwrap();
        }
        assert_eq!(s.may_act(Actor::Person), Err(Refused::Over));
        assert_eq!(s.begin_engine_move(Moment::now()).map(|_| ()), Err(Refused::Over));
        assert_eq!(s.hint().map(|_| ()), Err(Refused::Over));
    }

    #[test]
    fn a_timed_game_lost_on_time_is_over_for_everyone() {
        let mut s = session([Player::Human, Player::Human]).with_clocks(Duration::from_secs(1), Duration::ZERO);
        s.check_time(Moment::now().plus(Duration::from_secs(2)));
        assert_eq!(s.lost_on_time(), Some(kalah_rules::Seat::First));
        assert_eq!(s.act(Actor::Person, "1".parse().unwrap()), Err(Refused::Over));
        assert_eq!(s.increment(), Some(Duration::ZERO));
    }

    #[test]
    fn a_clock_runs_from_when_the_move_before_is_shown() {
        // The engine answers 50 ms after it is asked, 3 s after the person's move (the page
        // animated it meanwhile): it is charged 50 ms, not 3.05 s.
        let t0 = Moment(1_000_000);
        let ms = Duration::from_millis;
        let mut s = session([Player::Human, Player::Engine(Level::MIN)]).with_clocks_at(
            Duration::from_secs(60),
            Duration::ZERO,
            t0,
        );
        s.act_at(Actor::Person, "1".parse().unwrap(), t0).unwrap();
        let begun = s.begin_engine_move(t0.plus(ms(3000))).unwrap();
        let answer = s.game().legal_actions()[0];
        s.play_engine_move(begun.snapshot.version, answer, t0.plus(ms(3050))).unwrap();
        let left = s.time_left(t0.plus(ms(3050))).unwrap();
        assert_eq!(left[1], ms(60_000 - 50), "the engine's clock ran from when it was asked");
        // The person's screen shows the engine's move 4 s later, and the person moves 1 s after.
        let t1 = t0.plus(ms(3050));
        let version = s.version();
        assert!(!s.shown(version - 1, t1.plus(ms(4000))), "a stale version is not shown");
        assert!(s.shown(version, t1.plus(ms(4000))));
        assert!(!s.shown(version, t1.plus(ms(9000))), "once a move");
        s.act_at(Actor::Person, s.game().legal_actions()[0], t1.plus(ms(5000))).unwrap();
        assert_eq!(s.time_left(t1.plus(ms(5000))).unwrap()[0], ms(59_000));
        // A screen that takes longer than MOST_SHOWING gets MOST_SHOWING, no more.
        while s.decider().is_some_and(|(_, seat)| !seat.is_human()) {
            let begun = s.begin_engine_move(t1.plus(ms(5000))).unwrap();
            let answer = s.game().legal_actions()[0];
            s.play_engine_move(begun.snapshot.version, answer, t1.plus(ms(5000))).unwrap();
        }
        let t2 = t1.plus(ms(5000));
        let late = t2.plus(MOST_SHOWING).plus(ms(20_000));
        assert!(s.shown(s.version(), late));
        assert_eq!(s.time_left(late).unwrap()[0], ms(59_000 - 20_000));
    }

    #[test]
    fn an_analysis_is_kept_for_its_version_only() {
        let mut s = session([Player::Human, Player::Human]);
        let analysis = |version| Analysis::unsearched(&Game::new(Rules::standard(4, 3).unwrap()), version);
        let version = s.version();
        s.keep_analysis(version, analysis(version)).unwrap();
        assert_eq!(s.analysis().map(|a| a.version), Some(version));
        play(&mut s, &["1"]);
        assert!(s.analysis().is_none(), "the game changed");
        assert_eq!(s.keep_analysis(version, analysis(version)), Err(Refused::Changed));
    }

    #[tokio::test]
    async fn idle_games_are_put_away_and_come_back_and_a_full_store_refuses() {
        let games = Games::new(2, Duration::from_secs(60));
        let a = games.add(session([Player::Human; 2])).await.unwrap();
        let b = games.add(session([Player::Human; 2])).await.unwrap();
        assert_ne!(a, b);
        assert_eq!(games.add(session([Player::Human; 2])).await, Err(Missing::Full));
        {
            let game = games.get(&a).await.unwrap();
            let mut s = game.lock().await;
            s.act(Actor::Person, "1".parse().unwrap()).unwrap();
            games.save(&a, &mut s).await.unwrap();
        }
        let stop = Arc::clone(&games.get(&a).await.unwrap().lock().await.stop);
        assert_eq!(games.expire(Instant::now()), 0);
        assert_eq!(games.expire(Instant::now() + Duration::from_secs(61)), 2);
        assert!(stop.load(Ordering::Relaxed), "a game put away stops its searches");
        assert_eq!(games.len(), 0);
        let back = games.get(&a).await.unwrap();
        assert_eq!(back.lock().await.game().actions().len(), 1, "read back from the database with its move");
        let c = games.add(session([Player::Human; 2])).await.unwrap();
        games.remove(&c).await.unwrap();
        assert_eq!(games.remove(&c).await, Err(Missing::Unknown));
        assert_eq!(games.get(&c).await.err(), Some(Missing::Unknown));
    }

    #[test]
    fn a_stored_game_is_rebuilt_exactly_from_its_events() {
        let t0 = Moment(5_000_000);
        let ms = Duration::from_millis;
        let mut s = session([Player::Human, Player::Engine(Level::MIN)]).with_clocks_at(
            Duration::from_secs(60),
            Duration::from_secs(1),
            t0,
        );
        let start = s.start(t0);
        s.act_at(Actor::Person, "1".parse().unwrap(), t0.plus(ms(700))).unwrap();
        let begun = s.begin_engine_move(t0.plus(ms(2000))).unwrap();
        let answer = s.game().legal_actions()[0];
        s.play_engine_move(begun.snapshot.version, answer, t0.plus(ms(2100))).unwrap();
        s.shown(s.version(), t0.plus(ms(3000)));
        s.act_at(Actor::Person, s.game().legal_actions()[0], t0.plus(ms(4000))).unwrap();
        s.undo(Some(1)).unwrap();
        s.redo(Some(1)).unwrap();
        s.goto(1).unwrap();
        s.check_time(Moment::now().plus(Duration::from_secs(3600)));
        assert!(s.lost_on_time().is_some());
        let (_, events) = s.unsaved();
        let events = events.to_vec();
        let back = Session::rebuild(&start, &events).unwrap();
        assert_eq!(back.history(), s.history());
        assert_eq!(back.version(), s.version());
        assert_eq!(back.lost_on_time(), s.lost_on_time());
        let later = Moment::now();
        assert_eq!(back.time_left(later), s.time_left(later));
        assert_eq!(back.clocks.as_ref().unwrap().seats, s.clocks.as_ref().unwrap().seats);
        // A damaged log is refused, not half read.
        let mut bad = events.clone();
        bad[0].change = Change::Act { action: "9".into(), spent: None };
        assert!(Session::rebuild(&start, &bad).is_err());
    }
}
