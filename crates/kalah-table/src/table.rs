//! One game at its table ([`Table`]): the history (undo, redo, goto), who holds each seat and with
//! which token, a version that counts the changes, a stop flag for the engine's searches, the
//! players' clocks, resignations, takebacks and rematches, and the log of its changes, which
//! rebuilds it exactly.
//!
//! A request to act names its [`Actor`], and the table refuses with a [`Refused`] what the game's
//! state, the seat's holder or the engine's thinking does not allow.
//!
//! One function changes a table: `apply`. A command ([`Table::handle`], [`Table::resign`],
//! [`Table::check_time`] and the rest) checks what it is asked, decides the [`Change`] (the time a
//! move cost, the plies a takeback takes back) and makes it through `apply`; a kept game is
//! rebuilt by making its changes through `apply` again ([`Table::rebuild`]), so that it equals
//! the live game (`==`: see the `PartialEq`). Time is passed in as a
//! [`Moment`]: the table reads no clock, so the same calls give the same table anywhere.
//!
//! A timed game's clocks are fair to both players:
//! - No clock runs until each player has made a first action (the first player's clock starts
//!   when the second player's first action is made). In a game between friends (and a rated
//!   game against the engine) the first actions are waited for at most [`FIRST_MOVE`] each once
//!   both players are here (the invited friend's arrival, [`Table::arrive`]), and the friend at
//!   most [`INVITATION_WAIT`]; a first action that does not come aborts the game, with no
//!   result.
//! - The clock of the player to decide runs from the move before, or from when that player's
//!   screen has shown it ([`Table::shown`]): the page animates a sowing seed by seed. What a
//!   screen may claim is bounded: at most [`MOST_SHOWING`] a move, and no more than the
//!   player's credit, which starts at [`SHOWING_CREDIT`] and grows by [`SHOWING_REFILL`] with
//!   each of the player's actions, up to [`MOST_SHOWING`]: an honest page's animations fit in
//!   it, a page that claims to animate while its player thinks gains little.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::analysis::Analysis;
use crate::clock::Clocks;
use crate::player::{Player, PlayerError};
use crate::view::Facts;
use kalah_engine::level::Level;
use kalah_engine::time::Clock;
use kalah_rules::{
    Action, ActionError, Game, History, HistoryError, PlayError, Position, PositionError, Rules, RulesError, Seat, Side,
};
use thiserror::Error;

use crate::event::{Change, Event, Moment};
use crate::refused::{Ended, Refused, Takeback};
use crate::start::{token_hash, Start};

pub use crate::clock::{MOST_SHOWING, SHOWING_CREDIT, SHOWING_REFILL};

/// How long a timed game between friends waits for a player's first action once both are here;
/// then it is aborted, with no result.
pub const FIRST_MOVE: Duration = Duration::from_secs(60);

/// How long a timed game between friends waits for the invited friend to come; then it is
/// aborted, with no result.
pub const INVITATION_WAIT: Duration = Duration::from_secs(24 * 3600);

/// The most request ids a game remembers.
const RECENT: usize = 64;

/// Who asks to act on a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Actor {
    /// A person at the page: the holder of the creator's token (a game against the engine or at
    /// one page), or the static site's own page.
    Person,
    /// The engine, for the seat it holds.
    Engine,
    /// The holder of a seat's token in a game between friends.
    Holder(Seat),
    /// Anyone else: a spectator, who may watch and not change the game.
    Spectator,
}

impl Actor {
    /// Tells whether this actor may act for a seat `player` holds: a person holds a person's
    /// seat, the engine the engine's.
    pub fn may_act_for(self, player: Player) -> bool {
        matches!((player, self), (Player::Human, Actor::Person | Actor::Holder(_)) | (Player::Engine(_), Actor::Engine))
    }
}

/// The engine's help a page may ask for at a table: see [`Table::may_help`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Help {
    /// The engine's choice for the player to decide.
    Hint,
    /// The value of the position and the best action.
    Analysis,
    /// Every move's exact value.
    Explorer,
    /// The course's searches drawn on the position.
    Searches,
}

/// Who may change a game: its tokens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Access {
    /// Whoever reaches it: the static site's games, which only their own page reaches, and the
    /// games an earlier `kalah serve` kept with no token (a server lets nobody change those).
    Open,
    /// The holder of the creator's token (its SHA-256 kept): every seat a person plays.
    Owner(String),
    /// A game between friends: each seat held by its token (SHA-256s, first player first), and
    /// the creator's seat (none: both players came long ago).
    Friends {
        /// The SHA-256 of each seat's token.
        tokens: [String; 2],
        /// The creator's seat.
        creator: Option<Seat>,
    },
}

/// Where a table is held, which decides who may change a game with no token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Host {
    /// The static site: the page is the table's only client.
    Page,
    /// A server that anyone may reach: a game changes only with a token.
    Server,
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

/// An engine move the table has let begin: the game to decide, at the seat's level and on its
/// clock.
#[derive(Clone, Debug)]
pub struct EngineMove {
    /// The game, its version and stop flag.
    pub snapshot: Snapshot,
    /// The level of the engine's seat.
    pub level: Level,
    /// The engine's clock in a timed game.
    pub clock: Option<Clock>,
}

/// One game and everything kept about it.
#[derive(Debug)]
pub struct Table {
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
    /// The changes made and not yet stored.
    unsaved: Vec<Event>,
    /// The number of changes stored.
    saved: u64,
    /// Who may change the game.
    access: Access,
    /// How the game ended before the rules' end, if it did: resigned, on time or aborted.
    stopped: Option<End>,
    /// The player who asks to take back its last turn, until the opponent answers.
    takeback: Option<Seat>,
    /// The ids of the last requests that changed the game, so that one sent again is answered
    /// and not played again.
    recent: VecDeque<String>,
    /// The id of the request being made, for its change.
    request: Option<String>,
    /// The player who offers a rematch, once the game is over.
    rematch_offer: Option<Seat>,
    /// The rematch both players wanted: the new game's id.
    rematch: Option<String>,
    /// When the game began.
    began: Moment,
    /// When the invited friend came, in a game between friends whose creator is known.
    joined: Option<Moment>,
    /// The players' names, in a game the lobby paired.
    seating: Option<Seating>,
}

/// Who plays a game the lobby paired (crate kalah-lobby): each seat's name, and whether the
/// game counts for their ratings. A rated game has no takebacks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seating {
    /// The first player's name (South at the start), then the second's.
    pub names: [String; 2],
    /// The game counts for the players' ratings.
    pub rated: bool,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// By the rules: the side to move had no seeds to sow (or the store of one holds more than
    /// half); the board says who won.
    Rules,
    /// The player resigned: the other won.
    Resigned(Seat),
    /// The player's clock ran out: the other won.
    OnTime(Seat),
    /// The player's first action did not come in time: no result.
    Aborted(Seat),
}

/// Why a change does not follow from the table it is made at: a live command checks before it
/// makes one, so this is met in a damaged or foreign log, or said as a command's refusal.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum Unfit {
    /// The action's text cannot be read in the game's rules.
    #[error(transparent)]
    Unreadable(#[from] ActionError),
    /// The rules do not allow the action.
    #[error(transparent)]
    Illegal(#[from] PlayError),
    /// The step through the history cannot be taken.
    #[error(transparent)]
    History(#[from] HistoryError),
    /// The game is over: it takes no action, resignation or time-out.
    #[error("the game is over")]
    Over,
    /// An abort with no first action awaited.
    #[error("no first action was awaited")]
    NotAwaited,
    /// A time-out of a player who is not to decide, or in a game with no clocks.
    #[error("no clock of that player runs")]
    NoClock,
    /// A takeback answered with none asked.
    #[error("no takeback is asked for")]
    NoTakeback,
}

impl From<Unfit> for Refused {
    fn from(unfit: Unfit) -> Refused {
        match unfit {
            Unfit::Unreadable(e) => Refused::Bad(e.to_string()),
            Unfit::Illegal(e) => Refused::Illegal(e),
            Unfit::History(e) => Refused::History(e),
            Unfit::Over | Unfit::NotAwaited | Unfit::NoClock => Refused::Over,
            Unfit::NoTakeback => Refused::Takeback(Takeback::None),
        }
    }
}

/// Why a kept game cannot be rebuilt from its start and events.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RebuildError {
    /// The start's rules cannot be read.
    #[error("bad rules: {0}")]
    Rules(#[from] RulesError),
    /// The start's position cannot be read.
    #[error("bad start position: {0}")]
    Position(#[from] PositionError),
    /// An action of the start's record cannot be read.
    #[error("bad action in the start: {0}")]
    Action(#[from] ActionError),
    /// An action of the start's record is not legal.
    #[error("illegal action in the start: {0}")]
    Illegal(#[from] PlayError),
    /// A seat's player cannot be read.
    #[error("bad seat: {}", .0 .0)]
    Seat(#[from] PlayerError),
    /// An event does not follow.
    #[error(transparent)]
    Event(#[from] ReplayError),
}

/// An event that does not follow from the game before it.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ReplayError {
    /// The change cannot be made.
    #[error("event {version}: {reason}")]
    Unfit {
        /// The event's version.
        version: u64,
        /// Why.
        reason: Unfit,
    },
    /// The change makes another version than the event's.
    #[error("event {version} makes version {made}")]
    Version {
        /// The event's version.
        version: u64,
        /// The version it made.
        made: u64,
    },
    /// Events to catch up with while changes of this table are not stored.
    #[error("changes not stored")]
    Unstored,
}

impl Table {
    /// Starts a table of `game` with its seats at `now`, with no token ([`Access::Open`]).
    pub fn new(game: Game, seats: [Player; 2], now: Moment) -> Table {
        Table {
            history: History::new(game),
            seats,
            version: 0,
            stop: Arc::new(AtomicBool::new(false)),
            thinking: false,
            analysis: None,
            clocks: None,
            unsaved: Vec::new(),
            saved: 0,
            access: Access::Open,
            stopped: None,
            takeback: None,
            recent: VecDeque::new(),
            request: None,
            rematch_offer: None,
            rematch: None,
            began: now,
            joined: None,
            seating: None,
        }
    }

    /// Returns the table with clocks for each player: `total` for the game and `increment` added
    /// after each of the player's actions.
    pub fn with_clocks(mut self, total: Duration, increment: Duration) -> Table {
        self.clocks = Some(Clocks::new(total, increment, self.began));
        self
    }

    /// Returns the table with its access: who may change it.
    pub fn with_access(mut self, access: Access) -> Table {
        if let Access::Friends { .. } = access {
            self.seats = [Player::Human; 2];
        }
        self.access = access;
        self
    }

    /// Returns the table with its players' names, for a game the lobby paired.
    pub fn with_seating(mut self, seating: Seating) -> Table {
        self.seating = Some(seating);
        self
    }

    /// Returns the players' names and whether the game is rated, in a game the lobby paired.
    pub fn seating(&self) -> Option<&Seating> {
        self.seating.as_ref()
    }

    /// Tells whether the game counts for its players' ratings.
    pub fn is_rated(&self) -> bool {
        self.seating.as_ref().is_some_and(|s| s.rated)
    }

    /// Returns who may change the game.
    pub fn access(&self) -> &Access {
        &self.access
    }

    /// Tells whether this is a game between friends, each seat held by a token.
    pub fn is_friends(&self) -> bool {
        matches!(self.access, Access::Friends { .. })
    }

    /// Returns the seat `token` holds in a game between friends, if it holds one.
    pub fn holder(&self, token: &str) -> Option<Seat> {
        let Access::Friends { tokens, .. } = &self.access else { return None };
        let hash = token_hash(token);
        Seat::BOTH.into_iter().find(|seat| tokens[seat.index()] == hash)
    }

    /// Returns who a request with `token` (or none) acts as at a table held by `host`: a token
    /// that holds no seat of the game is refused, and no token watches, except at the static
    /// site's own page.
    pub fn actor(&self, token: Option<&str>, host: Host) -> Result<Actor, Refused> {
        match (&self.access, token) {
            (Access::Open, _) if host == Host::Page => Ok(Actor::Person),
            (Access::Open, Some(_)) => Err(Refused::Unowned),
            (Access::Owner(hash), Some(token)) if token_hash(token) == *hash => Ok(Actor::Person),
            (Access::Friends { .. }, Some(token)) => self.holder(token).map(Actor::Holder).ok_or(Refused::WrongToken),
            (_, Some(_)) => Err(Refused::WrongToken),
            (_, None) => Ok(Actor::Spectator),
        }
    }

    /// Refuses an actor who may not change the game at all: a spectator (or, at a server, anyone
    /// at a game kept with no token).
    fn player(&self, actor: Actor) -> Result<(), Refused> {
        match actor {
            Actor::Spectator if self.access == Access::Open => Err(Refused::Unowned),
            Actor::Spectator => Err(Refused::NotAPlayer),
            _ => Ok(()),
        }
    }

    /// The holder of a seat, `actor`, has come to the game at `now`: in a timed game the invited
    /// friend's first coming is noted, as the first moves are waited for from then (an untimed
    /// game waits for nobody, and stores nothing). Returns whether that changed the table.
    pub fn arrive(&mut self, actor: Actor, now: Moment) -> bool {
        let Access::Friends { creator: Some(creator), .. } = self.access else { return false };
        if self.clocks.is_none() {
            return false;
        }
        match actor {
            Actor::Holder(seat) if seat != creator && self.joined.is_none() => self.make(Change::Joined, now).is_ok(),
            _ => false,
        }
    }

    /// Returns how the game ended, or `None` while it goes on.
    pub fn end(&self) -> Option<End> {
        self.stopped.or_else(|| self.game().is_over().then_some(End::Rules))
    }

    /// Returns the player who resigned, if one did.
    pub fn resigned(&self) -> Option<Seat> {
        match self.stopped {
            Some(End::Resigned(seat)) => Some(seat),
            _ => None,
        }
    }

    /// Returns the player whose first action did not come in time, if that aborted the game.
    pub fn aborted(&self) -> Option<Seat> {
        match self.stopped {
            Some(End::Aborted(seat)) => Some(seat),
            _ => None,
        }
    }

    /// Returns the player who asks for a takeback, if one does.
    pub fn takeback(&self) -> Option<Seat> {
        self.takeback
    }

    /// Returns the number of changes stored.
    pub fn saved(&self) -> u64 {
        self.saved
    }

    /// Names the request being made (its changes carry the id); returns `false` if a request of
    /// that id already changed the game: it is answered as the game is, not made again.
    pub fn begin_request(&mut self, id: Option<&str>) -> bool {
        self.request = id.map(str::to_string);
        !id.is_some_and(|id| self.recent.iter().any(|seen| seen == id))
    }

    /// Returns the player who offers a rematch and the rematch's id once both wanted one.
    pub fn rematch(&self) -> (Option<Seat>, Option<&str>) {
        (self.rematch_offer, self.rematch.as_deref())
    }

    /// The player `by` offers a rematch of the finished game; returns `true` when the opponent
    /// offered one already: the host then starts [`Table::rematch_table`] and notes its id with
    /// [`Table::rematched`].
    pub fn offer_rematch(&mut self, by: Seat, now: Moment) -> Result<bool, Refused> {
        if self.decider().is_some() {
            return Err(Refused::Takeback(Takeback::NotOver));
        }
        if self.rematch.is_some() {
            return Err(Refused::Takeback(Takeback::RematchBegun));
        }
        match self.rematch_offer {
            Some(other) if other != by => Ok(true),
            Some(_) => Ok(false),
            None => {
                self.make(Change::RematchOffered { by }, now)?;
                Ok(false)
            }
        }
    }

    /// Returns the rematch of this game between friends at `now`: the same rules, start and
    /// clocks, the sides swapped (each player keeps its token, for the other seat); both players
    /// are here.
    pub fn rematch_table(&self, now: Moment) -> Table {
        let line = self.history.whole_line();
        let game = Game::from_position(*line.rules(), *line.start());
        let mut table = Table::new(game, [self.seats[1], self.seats[0]], now);
        if let Some(clocks) = &self.clocks {
            table = table.with_clocks(clocks.total(), clocks.increment());
        }
        table.access = match &self.access {
            Access::Friends { tokens: [a, b], .. } => Access::Friends { tokens: [b.clone(), a.clone()], creator: None },
            other => other.clone(),
        };
        table.seating =
            self.seating.as_ref().map(|s| Seating { names: [s.names[1].clone(), s.names[0].clone()], rated: s.rated });
        table
    }

    /// Notes that the rematch is the game `id`.
    pub fn rematched(&mut self, id: &str, now: Moment) {
        // A rematch changes nothing that could refuse it.
        let _ = self.make(Change::Rematched { game: id.to_string() }, now);
    }

    /// The player `by` resigns: the game is over and the other player wins.
    pub fn resign(&mut self, by: Seat, now: Moment) -> Result<(), Refused> {
        self.decider().ok_or(Refused::Over)?;
        self.make(Change::Resigned { by }, now)
    }

    /// The player `by` asks to take back its last turn; the opponent accepts or refuses.
    pub fn ask_takeback(&mut self, by: Seat, now: Moment) -> Result<(), Refused> {
        self.decider().ok_or(Refused::Over)?;
        if self.is_rated() {
            return Err(Refused::Takeback(Takeback::Rated));
        }
        let game = self.game();
        if !(0..game.actions().len()).any(|i| game.actor(i).is_some_and(|(_, seat)| seat == by)) {
            return Err(Refused::Takeback(Takeback::NoMove));
        }
        if self.takeback.is_some() {
            return Err(Refused::Takeback(Takeback::Asked));
        }
        self.make(Change::TakebackAsked { by }, now)
    }

    /// The player `by` answers the opponent's takeback: `accept` takes back every action since,
    /// and including, the asker's last one.
    pub fn answer_takeback(&mut self, by: Seat, accept: bool, now: Moment) -> Result<(), Refused> {
        let asker = self.takeback.ok_or(Refused::Takeback(Takeback::None))?;
        if asker == by {
            return Err(Refused::Takeback(Takeback::Yours));
        }
        if !accept {
            return self.make(Change::TakebackRefused, now);
        }
        let mut mask = [false; 2];
        mask[asker.index()] = true;
        let plies = self.history.undo_turn_plies(mask).map_err(|_| Refused::Takeback(Takeback::Nothing))?;
        self.make(Change::TakebackAccepted { plies }, now)
    }

    /// Returns how the game began, for the store: a host takes it when it first keeps the game,
    /// as the line's actions are those of a loaded record only until the first change.
    pub fn start(&self) -> Start {
        let line = self.history.whole_line();
        let (tokens, owner, creator) = match &self.access {
            Access::Open => (None, None, None),
            Access::Owner(hash) => (None, Some(hash.clone()), None),
            Access::Friends { tokens, creator } => (Some(tokens.clone()), None, *creator),
        };
        Start {
            rules: line.rules().to_string(),
            position: line.start().to_string(),
            actions: line.actions().iter().map(Action::to_string).collect(),
            seats: self.seats.map(|seat| seat.to_string()),
            clock: self.clocks.as_ref().map(|c| [c.total().as_millis() as u64, c.increment().as_millis() as u64]),
            tokens,
            owner,
            creator,
            names: self.seating.as_ref().map(|s| s.names.clone()),
            rated: self.is_rated(),
            at: self.began,
        }
    }

    /// Rebuilds a kept game from its start and its events, as it was when the last was kept.
    pub fn rebuild(start: &Start, events: &[Event]) -> Result<Table, RebuildError> {
        let rules: Rules = start.rules.parse()?;
        let position = Position::parse(&start.position, &rules)?;
        let mut game = Game::from_position(rules, position);
        for text in &start.actions {
            let action = game.parse_action(text)?;
            game.act(action)?;
        }
        let seats = [start.seats[0].parse::<Player>()?, start.seats[1].parse::<Player>()?];
        let mut table = Table::new(game, seats, start.at);
        if let Some([total, increment]) = start.clock {
            table = table.with_clocks(Duration::from_millis(total), Duration::from_millis(increment));
        }
        table.access = match (&start.tokens, &start.owner) {
            (Some(tokens), _) => Access::Friends { tokens: tokens.clone(), creator: start.creator },
            (None, Some(owner)) => Access::Owner(owner.clone()),
            (None, None) => Access::Open,
        };
        table.seating = start.names.clone().map(|names| Seating { names, rated: start.rated });
        for event in events {
            table.replay(event)?;
        }
        table.unsaved.clear();
        table.saved = events.len() as u64;
        Ok(table)
    }

    /// Makes one kept event again and checks the version it made.
    fn replay(&mut self, event: &Event) -> Result<(), ReplayError> {
        self.request = event.request.clone();
        let version = event.version;
        self.apply(&event.change, event.at).map_err(|reason| ReplayError::Unfit { version, reason })?;
        if self.version != version {
            return Err(ReplayError::Version { version, made: self.version });
        }
        Ok(())
    }

    /// Plays the events another server stored after the ones this table has (they follow them):
    /// the table is then as if it had read them. On an error the table is left half changed:
    /// the caller reads it again.
    pub fn catch_up(&mut self, events: &[Event]) -> Result<(), ReplayError> {
        if !self.unsaved.is_empty() {
            return Err(ReplayError::Unstored);
        }
        for event in events {
            self.replay(event)?;
        }
        self.unsaved.clear();
        self.saved += events.len() as u64;
        Ok(())
    }

    /// Makes a change a command decided on, at `now`: a change that does not follow is refused,
    /// as [`Table::apply`] leaves the table as it was then.
    fn make(&mut self, change: Change, now: Moment) -> Result<(), Refused> {
        self.apply(&change, now).map_err(Refused::from)
    }

    /// Makes `change` at `at` and logs it: the one code that changes a table's game, seats'
    /// clocks, end, takeback, rematch and log, for live play ([`Table::make`]) and replay
    /// ([`Table::rebuild`], [`Table::catch_up`]) alike. A change that does not follow from the
    /// table is refused, and leaves it as it was.
    fn apply(&mut self, change: &Change, at: Moment) -> Result<(), Unfit> {
        let over = self.decider().is_none();
        match change {
            Change::Act { action, spent } => {
                // A game over by the rules is refused by the rules themselves, as a person sees.
                if self.stopped.is_some() {
                    return Err(Unfit::Over);
                }
                // The log's own text (`Action`'s): the rules judge the action, as a person sees.
                let action: Action = action.parse()?;
                let seat = self.decider_seat();
                self.history.act(action)?;
                self.takeback = None;
                if let (Some(clocks), Some(seat)) = (&mut self.clocks, seat) {
                    clocks.charge(seat, Duration::from_millis(spent.unwrap_or(0)), at);
                }
                self.changed();
            }
            Change::Undo { plies } => {
                self.history.undo(*plies)?;
                self.stepped(at);
            }
            Change::Redo { plies } => {
                self.history.redo(*plies)?;
                self.stepped(at);
            }
            Change::Goto { ply } => {
                self.history.goto(*ply)?;
                self.stepped(at);
            }
            Change::Shown => {
                let seat = self.decider_seat();
                if let (Some(clocks), Some(seat)) = (&mut self.clocks, seat) {
                    clocks.shown(seat, at);
                }
            }
            Change::Joined => self.joined = Some(at),
            Change::Aborted => {
                let (seat, _) = self.first_move_deadline().ok_or(Unfit::NotAwaited)?;
                self.stopped = Some(End::Aborted(seat));
                self.changed();
            }
            Change::TimedOut { player } => {
                if over {
                    return Err(Unfit::Over);
                }
                if self.clocks.is_none() || self.decider_seat() != Some(*player) {
                    return Err(Unfit::NoClock);
                }
                self.stopped = Some(End::OnTime(*player));
                self.changed();
            }
            Change::Resigned { by } => {
                if over {
                    return Err(Unfit::Over);
                }
                self.stopped = Some(End::Resigned(*by));
                self.takeback = None;
                self.changed();
            }
            Change::TakebackAsked { by } => {
                if over {
                    return Err(Unfit::Over);
                }
                self.takeback = Some(*by);
            }
            Change::RematchOffered { by } => self.rematch_offer = Some(*by),
            Change::Rematched { game } => self.rematch = Some(game.clone()),
            Change::TakebackRefused => {
                self.takeback.take().ok_or(Unfit::NoTakeback)?;
            }
            Change::TakebackAccepted { plies } => {
                if self.takeback.is_none() {
                    return Err(Unfit::NoTakeback);
                }
                self.history.undo(*plies)?;
                self.takeback = None;
                self.stepped(at);
            }
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

    /// Tells whether the game is timed.
    pub fn is_timed(&self) -> bool {
        self.clocks.is_some()
    }

    /// Returns the time added after each action in a timed game.
    pub fn increment(&self) -> Option<Duration> {
        self.clocks.as_ref().map(Clocks::increment)
    }

    /// Returns the player who ran out of time, ending the game, if one did.
    pub fn lost_on_time(&self) -> Option<Seat> {
        match self.stopped {
            Some(End::OnTime(seat)) => Some(seat),
            _ => None,
        }
    }

    /// Tells whether each player has made a first action in the game shown: until then no clock
    /// runs.
    pub fn clocks_run(&self) -> bool {
        let game = self.game();
        let mut acted = [false; 2];
        for i in 0..game.actions().len() {
            if let Some((_, seat)) = game.actor(i) {
                acted[seat.index()] = true;
            }
        }
        acted == [true; 2]
    }

    /// Returns the time on each player's clock at `now` (the player to decide is charged for
    /// the time since they began, once the clocks run), first player first, or `None` in an
    /// untimed game.
    pub fn time_left(&self, now: Moment) -> Option<[Duration; 2]> {
        let clocks = self.clocks.as_ref()?;
        let mut left = clocks.left(self.decider_seat().filter(|_| self.clocks_run()), now);
        if let Some(seat) = self.lost_on_time() {
            left[seat.index()] = Duration::ZERO;
        }
        Some(left)
    }

    /// Returns the player whose first action a timed game between friends waits for, and the
    /// moment the game is aborted if it has not come: [`INVITATION_WAIT`] after the start while
    /// the friend has not come, [`FIRST_MOVE`] after the later of the move before and the
    /// friend's coming once they have. `None` once the clocks run, and in other games.
    pub fn first_move_deadline(&self) -> Option<(Seat, Moment)> {
        let clocks = self.clocks.as_ref()?;
        // A rated game against the engine waits for its player's first action as a game the
        // lobby paired between two people does: both players are there from the start.
        let creator = match &self.access {
            Access::Friends { creator, .. } => creator,
            Access::Owner(_) if self.is_rated() => &None,
            _ => return None,
        };
        if self.clocks_run() {
            return None;
        }
        let seat = self.decider_seat()?;
        match (creator, self.joined) {
            (Some(creator), None) => Some((other(*creator), self.began.plus(INVITATION_WAIT))),
            (_, joined) => Some((seat, clocks.since().max(joined.unwrap_or(self.began)).plus(FIRST_MOVE))),
        }
    }

    /// Ends the game at `now` if the player to decide has run out of time, or if a first action
    /// awaited has not come in time (the game is aborted); stops its searches then.
    pub fn check_time(&mut self, now: Moment) {
        if self.decider().is_none() {
            return;
        }
        if let Some((_, deadline)) = self.first_move_deadline() {
            if now >= deadline {
                // A first action is awaited: the abort follows.
                let _ = self.apply(&Change::Aborted, now);
            }
            return;
        }
        let (Some(left), Some(seat)) = (self.time_left(now), self.decider_seat()) else { return };
        if self.clocks_run() && left[seat.index()].is_zero() {
            // The player to decide has a clock: the time-out follows.
            let _ = self.apply(&Change::TimedOut { player: seat }, now);
        }
    }

    /// Ends the game at `now` as lost on time by the player to decide, whatever their clock
    /// says (a record loaded that ended so).
    pub(crate) fn time_out(&mut self, now: Moment) {
        let Some(seat) = self.decider_seat() else { return };
        // Refused only in an untimed game, which no record ends on time.
        let _ = self.apply(&Change::TimedOut { player: seat }, now);
    }

    /// Returns the clock the engine plans its move with when it decides now in a timed game.
    fn engine_clock(&self, now: Moment) -> Option<Clock> {
        let seat = self.decider_seat()?;
        let remaining = self.time_left(now)?[seat.index()];
        Some(self.clocks.as_ref()?.plan(seat, remaining))
    }

    /// Returns the side that decides now and its seat, or `None` once the game is over (by the
    /// rules, on time, by a resignation or aborted).
    pub fn decider(&self) -> Option<(Side, Player)> {
        if self.stopped.is_some() {
            return None;
        }
        let side = self.game().decider()?;
        Some((side, self.seat_of(side)))
    }

    /// Returns the seat of the player to decide, if the game goes on.
    fn decider_seat(&self) -> Option<Seat> {
        self.decider().map(|(side, _)| self.game().seat_of(side))
    }

    /// Returns what a page shows of game `id` at `now` (for its clocks): the facts its state,
    /// status line and record are built from ([`crate::view`]).
    pub fn facts<'a>(&'a self, id: &'a str, now: Moment) -> Facts<'a> {
        Facts {
            id,
            version: self.version,
            history: &self.history,
            seats: self.seats,
            lost_on_time: self.lost_on_time(),
            resigned: self.resigned(),
            aborted: self.aborted(),
            clocks: self.time_left(now).map(|left| crate::view::Clocks {
                left,
                increment: self.increment().unwrap_or(Duration::ZERO),
                running: self.clocks_run(),
            }),
            thinking: self.thinking,
            names: self.seating.as_ref().map(|s| &s.names),
            rated: self.is_rated(),
            time_control: self.clocks.as_ref().map(|c| [c.total(), c.increment()]),
        }
    }

    /// Returns when the game began.
    pub fn began(&self) -> Moment {
        self.began
    }

    /// Returns the seat that plays `side` now.
    pub fn seat_of(&self, side: Side) -> Player {
        self.seats[self.game().seat_of(side).index()]
    }

    /// Returns the side `actor` may act for now and its seat, or why it may not: the game is
    /// over, the side to decide is held by another, or the engine is thinking.
    pub fn may_act(&self, actor: Actor) -> Result<(Side, Player), Refused> {
        let (side, seat) = self.decider().ok_or(Refused::Over)?;
        self.player(actor)?;
        if !actor.may_act_for(seat) {
            return Err(match seat {
                Player::Human => Refused::PersonsSeat(side),
                Player::Engine(_) => Refused::EnginesSeat(side),
            });
        }
        if self.is_friends() {
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

    /// Takes `actor`'s action at `now`, if [`Table::may_act`] lets it and the rules allow it; a
    /// refused action changes nothing. In a timed game whose clocks run, the player who took it
    /// is charged the time since they began, and gets the increment.
    pub fn act(&mut self, actor: Actor, action: Action, now: Moment) -> Result<(), Refused> {
        self.may_act(actor)?;
        self.play(action, now)
    }

    /// The screen of the player to decide has shown the game at `version` (the page has
    /// animated the move before) at `now`: in a timed game whose clocks run, the player's clock
    /// starts then rather than when that move was made, but at most [`MOST_SHOWING`] after it
    /// and by no more than the player's showing credit, once a move. Returns whether the clock
    /// was moved: a stale version, a second call or a game without running clocks change nothing.
    pub fn shown(&mut self, version: u64, now: Moment) -> bool {
        if version != self.version || !self.clocks_run() {
            return false;
        }
        let Some(seat) = self.decider_seat() else { return false };
        let Some(since) = self.clocks.as_ref().and_then(|c| c.shown_at(seat, now)) else { return false };
        // `apply` moves the clock and charges the credit.
        self.apply(&Change::Shown, since).is_ok()
    }

    /// Plays an action of the player to decide at `now`, charging its time.
    fn play(&mut self, action: Action, now: Moment) -> Result<(), Refused> {
        let spent = match &self.clocks {
            Some(clocks) if self.clocks_run() => Some(clocks.spent(now).as_millis() as u64),
            _ => None,
        };
        self.make(Change::Act { action: action.to_string(), spent }, now)
    }

    /// Returns the game as a search sees it now.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot { game: self.game().clone(), version: self.version, stop: Arc::clone(&self.stop) }
    }

    /// Returns the side a hint is for (the side to decide) and the game to search, or why none
    /// is given: the game is over, or [`Table::may_help`] refuses a hint.
    pub fn hint(&self) -> Result<(Side, Snapshot), Refused> {
        self.may_help(Help::Hint)?;
        let (side, _) = self.decider().ok_or(Refused::Over)?;
        Ok((side, self.snapshot()))
    }

    /// Refuses the engine's `help` while a game goes on where a person is at stake: a rated
    /// game (its players' ratings), and a game between friends (a player, or a spectator who
    /// passes it on, would play with the engine). Every kind of help is refused alike: a hint,
    /// an analysis, the explorer's exact values, the drawn searches.
    pub fn may_help(&self, help: Help) -> Result<(), Refused> {
        // Every kind of help tells a player what to play: none is let through while a person is
        // at stake (a new kind is decided here).
        let (Help::Hint | Help::Analysis | Help::Explorer | Help::Searches) = help;
        if self.is_rated() && self.decider().is_some() {
            return Err(Refused::Rated);
        }
        if self.is_friends() && self.decider().is_some() {
            return Err(Refused::NoHelp);
        }
        Ok(())
    }

    /// Tells whether the host owes the engine's move now, unasked: in a rated game (the lobby's)
    /// the engine's seat is to move and no search of it runs, so that a player who leaves
    /// cannot make the engine lose on time.
    pub fn engine_due(&self) -> bool {
        self.is_rated() && !self.thinking && matches!(self.decider(), Some((_, Player::Engine(_))))
    }

    /// Lets the engine begin its move, asked by `by` at `now` (for its clock), if
    /// [`Table::may_act`] lets it: the table is then thinking until the move is played, the
    /// game changes or [`Table::stop_thinking`] is called. The engine's clock starts when it is
    /// asked (the page asks once it has shown the move before), as [`Table::shown`].
    pub fn begin_engine_move(&mut self, by: Actor, now: Moment) -> Result<EngineMove, Refused> {
        self.player(by)?;
        let (side, seat) = self.may_act(Actor::Engine)?;
        // The engine is admitted to its own seats only.
        let Player::Engine(level) = seat else { return Err(Refused::PersonsSeat(side)) };
        self.shown(self.version, now);
        self.thinking = true;
        Ok(EngineMove { snapshot: self.snapshot(), level, clock: self.engine_clock(now) })
    }

    /// Ends the thinking of the engine move begun at `version` however it ended, if the game
    /// has not changed since (a change ended it already).
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

    /// In a timed game, the player to decide after a step through the history begins at `at`:
    /// the clocks keep what they held (stepping back gives no time back).
    fn stepped(&mut self, at: Moment) {
        if let Some(clocks) = &mut self.clocks {
            clocks.restart(at);
        }
        self.changed();
    }

    /// Refuses a step through the history (undo, redo, goto) by `actor`: only a person at a
    /// game against the engine or at one page steps, and not through a game that ended other
    /// than by the rules.
    pub fn may_step(&self, actor: Actor) -> Result<(), Refused> {
        // Its moves are those its ratings were settled on, before its end and after.
        if self.is_rated() {
            return Err(Refused::Rated);
        }
        if self.is_friends() {
            return Err(Refused::FriendsStep);
        }
        self.player(actor)?;
        // The board of a game lost on time, by resigning or aborted stays as it ended: stepping
        // back would show a position to play on under a game that is over.
        match self.stopped {
            Some(End::OnTime(_)) => Err(Refused::Ended(Ended::OnTime)),
            Some(End::Resigned(_)) => Err(Refused::Ended(Ended::Resigned)),
            Some(End::Aborted(_)) => Err(Refused::Ended(Ended::Aborted)),
            Some(End::Rules) | None => Ok(()),
        }
    }

    /// Takes back `plies` actions at `now`, or with `None` every action back to, and including,
    /// the last one a person took (one action when no person plays); returns how many were
    /// taken back. Asking for more than was played is refused and changes nothing. A search of
    /// the old position is stopped.
    pub fn undo(&mut self, plies: Option<usize>, now: Moment) -> Result<usize, Refused> {
        let count = match plies {
            Some(n) => n,
            None => self.history.undo_turn_plies(self.people())?,
        };
        self.make(Change::Undo { plies: count }, now)?;
        Ok(count)
    }

    /// Replays `plies` taken-back actions at `now`, or with `None` up to the next point where a
    /// person decides (one action when no person plays); returns how many were replayed.
    pub fn redo(&mut self, plies: Option<usize>, now: Moment) -> Result<usize, Refused> {
        let count = match plies {
            Some(n) => n,
            None => self.history.redo_turn_plies(self.people())?,
        };
        self.make(Change::Redo { plies: count }, now)?;
        Ok(count)
    }

    /// Goes at `now` to the position after `ply` actions of the whole line (played and taken back).
    pub fn goto(&mut self, ply: usize, now: Moment) -> Result<(), Refused> {
        self.make(Change::Goto { ply }, now)
    }

    /// Refuses the deletion of the game by `actor`: only a player may delete it, and a game
    /// between friends only before both players have moved (a finished one neither deletes
    /// alone: it is both players' record).
    ///
    /// A rated game, against a person or the engine, counts from the first moves of both
    /// players on: it ends by the rules, on time or by a resignation, and is never deleted. Before
    /// both have made a first action either player may still abort it (delete it, with no
    /// result), as on lichess.
    pub fn may_delete(&self, actor: Actor) -> Result<(), Refused> {
        self.player(actor)?;
        if self.is_rated() && (self.decider().is_none() || self.clocks_run()) {
            return Err(Refused::RatedKept);
        }
        match actor {
            Actor::Holder(_) if self.decider().is_none() => Err(Refused::Kept),
            Actor::Holder(_) if self.clocks_run() => Err(Refused::Begun),
            _ => Ok(()),
        }
    }

    /// Returns the seat `actor` resigns for: a seat's holder its own; a person at a game against
    /// the engine the one seat a person plays, and at one page where people play both sides
    /// the seat of the side to decide.
    pub fn resigner(&self, actor: Actor) -> Result<Seat, Refused> {
        self.player(actor)?;
        match actor {
            Actor::Holder(seat) => Ok(seat),
            Actor::Person => match self.people() {
                [true, false] => Ok(Seat::First),
                [false, true] => Ok(Seat::Second),
                [true, true] => self.decider_seat().ok_or(Refused::Over),
                [false, false] => Err(Refused::NotAPlayer),
            },
            Actor::Engine | Actor::Spectator => Err(Refused::NotAPlayer),
        }
    }
}

/// Two tables are equal when they hold the same game: its history, seats, version, clocks,
/// access, end, takeback, rematch, the friend's coming, the players' names and the request ids
/// it remembers. What its searches hold (the stop flag, the engine thinking, the analysis kept)
/// and which of its changes are stored are not compared: a game rebuilt from its events equals
/// the live one.
impl PartialEq for Table {
    fn eq(&self, other: &Table) -> bool {
        self.history == other.history
            && self.seats == other.seats
            && self.version == other.version
            && self.clocks == other.clocks
            && self.access == other.access
            && self.stopped == other.stopped
            && self.takeback == other.takeback
            && self.recent == other.recent
            && self.rematch_offer == other.rematch_offer
            && self.rematch == other.rematch
            && self.began == other.began
            && self.joined == other.joined
            && self.seating == other.seating
    }
}

/// Returns the other seat.
fn other(seat: Seat) -> Seat {
    match seat {
        Seat::First => Seat::Second,
        Seat::Second => Seat::First,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_rules::{HistoryError, Rules};

    const T0: Moment = Moment(1_000_000);

    fn at(ms: u64) -> Moment {
        T0.plus(Duration::from_millis(ms))
    }

    fn table(seats: [Player; 2]) -> Table {
        Table::new(Game::new(Rules::standard(4, 3).unwrap()), seats, T0)
    }

    /// Plays `actions` for whoever holds the seats.
    fn play(table: &mut Table, actions: &[&str]) {
        for action in actions {
            table.play(action.parse().unwrap(), T0).unwrap();
        }
    }

    #[test]
    fn undo_goes_back_to_the_persons_last_decision_and_redo_forward_to_the_next() {
        let mut s = table([Player::Human, Player::Engine(Level::MIN)]);
        play(&mut s, &["1", "1"]);
        let version = s.version;
        let stop = Arc::clone(&s.stop);
        assert_eq!(s.undo(None, T0), Ok(2), "the engine's reply and the person's move");
        assert!(stop.load(Ordering::Relaxed), "the old version's searches are stopped");
        assert!(s.version > version);
        assert_eq!(s.game().actions().len(), 0);
        assert_eq!(s.redo(None, T0), Ok(2), "up to the person's next decision");
        assert_eq!(s.game().actions().len(), 2);
        s.goto(1, T0).unwrap();
        assert_eq!(s.history().whole_line().actions().len(), 2);
        let version = s.version;
        assert!(s.goto(3, T0).is_err());
        assert!(s.undo(Some(2), T0).is_err(), "one ply is played: two are refused");
        assert!(s.redo(Some(2), T0).is_err(), "one ply was taken back: two are refused");
        assert_eq!(s.version, version, "a refused step changes nothing");
        assert_eq!(s.undo(Some(1), T0), Ok(1));
        assert_eq!(s.undo(None, T0), Err(Refused::History(HistoryError::NothingToUndo)));
    }

    #[test]
    fn an_illegal_action_is_refused_and_changes_nothing() {
        let mut s = table([Player::Human, Player::Human]);
        play(&mut s, &["1"]);
        let (history, version) = (s.history().clone(), s.version());
        for bad in ["9", "swap", "keep", "S1>N1"] {
            assert!(matches!(s.act(Actor::Person, bad.parse().unwrap(), T0), Err(Refused::Illegal(_))), "{bad}");
        }
        assert_eq!(s.history(), &history);
        assert_eq!(s.version(), version);
    }

    /// Plays the first legal action for whoever decides until the engine is to move.
    fn to_the_engine(s: &mut Table) {
        while s.decider().is_some_and(|(_, seat)| seat.is_human()) {
            let action = s.game().legal_actions()[0];
            s.play(action, T0).unwrap();
        }
    }

    #[test]
    fn the_table_says_who_may_act() {
        let mut s = table([Player::Human, Player::Engine(Level::MIN)]);
        let engine_turn = s.begin_engine_move(Actor::Person, T0).map(|_| ());
        assert_eq!(engine_turn, Err(Refused::PersonsSeat(Side::South)));
        assert_eq!(s.act(Actor::Engine, "1".parse().unwrap(), T0), Err(Refused::PersonsSeat(Side::South)));
        assert_eq!(s.may_act(Actor::Person), Ok((Side::South, Player::Human)));
        s.act(Actor::Person, "1".parse().unwrap(), T0).unwrap();
        // North is the engine's: a person is refused, the engine may begin.
        assert_eq!(s.act(Actor::Person, "1".parse().unwrap(), T0), Err(Refused::EnginesSeat(Side::North)));
        let begun = s.begin_engine_move(Actor::Person, T0).unwrap();
        assert_eq!((begun.level, begun.snapshot.version, begun.clock), (Level::MIN, s.version(), None));
        assert!(s.is_thinking());
        assert_eq!(s.begin_engine_move(Actor::Person, T0).map(|_| ()), Err(Refused::Thinking));
        assert_eq!(s.may_act(Actor::Engine), Err(Refused::Thinking));
        // The engine's answer is played only for the game it searched.
        let answer = s.game().legal_actions()[0];
        s.play_engine_move(begun.snapshot.version, answer, T0).unwrap();
        assert!(!s.is_thinking());
        assert_eq!(s.play_engine_move(begun.snapshot.version, answer, T0), Err(Refused::Changed));
        // An undo while the engine thinks stops its search; a stale end of thinking changes nothing.
        to_the_engine(&mut s);
        let begun = s.begin_engine_move(Actor::Person, T0).unwrap();
        s.undo(Some(1), T0).unwrap();
        assert!(begun.snapshot.stop.load(Ordering::Relaxed) && !s.is_thinking());
        assert_eq!(s.play_engine_move(begun.snapshot.version, answer, T0), Err(Refused::Changed));
        to_the_engine(&mut s);
        let begun = s.begin_engine_move(Actor::Person, T0).unwrap();
        s.stop_thinking(begun.snapshot.version - 1);
        assert!(s.is_thinking(), "an old version's end leaves the new thinking");
        s.stop_thinking(begun.snapshot.version);
        assert!(!s.is_thinking());
        // Once the game is over nobody acts, and no hint is given.
        while !s.game().is_over() {
            let action = s.game().legal_actions()[0];
            s.play(action, T0).unwrap();
        }
        assert_eq!(s.may_act(Actor::Person), Err(Refused::Over));
        assert_eq!(s.begin_engine_move(Actor::Person, T0).map(|_| ()), Err(Refused::Over));
        assert_eq!(s.hint().map(|_| ()), Err(Refused::Over));
    }

    #[test]
    fn at_a_server_only_a_token_changes_a_game_and_a_stranger_watches() {
        let owner = Access::Owner(token_hash("mine"));
        let mut s = table([Player::Human, Player::Engine(Level::MIN)]).with_access(owner);
        assert_eq!(s.actor(Some("mine"), Host::Server), Ok(Actor::Person));
        assert_eq!(s.actor(Some("theirs"), Host::Server), Err(Refused::WrongToken));
        let stranger = s.actor(None, Host::Server).unwrap();
        assert_eq!(stranger, Actor::Spectator);
        assert_eq!(s.act(stranger, "1".parse().unwrap(), T0), Err(Refused::NotAPlayer));
        assert_eq!(s.may_step(stranger), Err(Refused::NotAPlayer), "no undo from the archive");
        assert_eq!(s.may_delete(stranger), Err(Refused::NotAPlayer));
        assert_eq!(s.begin_engine_move(stranger, T0).map(|_| ()), Err(Refused::NotAPlayer));
        assert_eq!(s.may_delete(Actor::Person), Ok(()));
        s.act(Actor::Person, "1".parse().unwrap(), T0).unwrap();
        // A game kept with no token by an earlier kalah: watched at a server, never changed.
        let old = table([Player::Human, Player::Human]);
        assert_eq!(old.actor(Some("any"), Host::Server), Err(Refused::Unowned));
        assert_eq!(old.may_delete(old.actor(None, Host::Server).unwrap()), Err(Refused::Unowned));
        // The static site's page is its game's only client.
        assert_eq!(old.actor(None, Host::Page), Ok(Actor::Person));
    }

    /// A timed game between friends of 60 s each, created by South.
    fn friends() -> Table {
        let tokens = [token_hash("south"), token_hash("north")];
        table([Player::Human; 2])
            .with_clocks(Duration::from_secs(60), Duration::ZERO)
            .with_access(Access::Friends { tokens, creator: Some(Seat::First) })
    }

    #[test]
    fn a_finished_game_between_friends_is_kept_and_a_begun_one_is_resigned() {
        let mut s = friends();
        let (south, north) =
            (s.actor(Some("south"), Host::Server).unwrap(), s.actor(Some("north"), Host::Server).unwrap());
        assert_eq!((south, north), (Actor::Holder(Seat::First), Actor::Holder(Seat::Second)));
        assert_eq!(s.may_delete(south), Ok(()), "before both have moved it is an abort");
        assert_eq!(s.may_step(south), Err(Refused::FriendsStep));
        s.arrive(north, T0);
        s.act(south, "1".parse().unwrap(), T0).unwrap();
        s.act(north, "1".parse().unwrap(), T0).unwrap();
        assert_eq!(s.may_delete(south), Err(Refused::Begun));
        s.resign(Seat::First, T0).unwrap();
        assert_eq!(s.may_delete(north), Err(Refused::Kept));
    }

    /// A rated game against the engine at level 1, its person South holding token `me`.
    fn rated_against_the_engine() -> Table {
        table([Player::Human, Player::Engine(Level::MIN)])
            .with_clocks(Duration::from_secs(60), Duration::ZERO)
            .with_access(Access::Owner(token_hash("me")))
            .with_seating(Seating { names: ["ann".into(), "engine-1".into()], rated: true })
    }

    #[test]
    fn a_rated_game_is_aborted_only_before_both_have_moved_and_is_resigned_against_the_engine_too() {
        let mut s = rated_against_the_engine();
        let me = s.actor(Some("me"), Host::Server).unwrap();
        assert_eq!(me, Actor::Person);
        assert_eq!(s.may_delete(me), Ok(()), "an abort: no result");
        assert_eq!(s.resigner(Actor::Spectator), Err(Refused::NotAPlayer));
        assert_eq!(s.resigner(me), Ok(Seat::First), "the person's one seat");
        s.act(me, "1".parse().unwrap(), T0).unwrap();
        assert_eq!(s.may_delete(me), Ok(()), "the engine has not moved yet");
        s.play_engine_move(s.version(), "1".parse().unwrap(), T0).unwrap();
        assert!(s.clocks_run());
        assert_eq!(s.may_delete(me), Err(Refused::RatedKept));
        assert_eq!(Refused::RatedKept.status(), 409);
        s.resign(s.resigner(me).unwrap(), T0).unwrap();
        assert_eq!(s.resigned(), Some(Seat::First));
        assert_eq!(s.may_delete(me), Err(Refused::RatedKept), "over: kept as played");
        // Two people at one page: the side to decide resigns.
        let mut hot = table([Player::Human, Player::Human]);
        play(&mut hot, &["1"]);
        assert_eq!(hot.resigner(Actor::Person), Ok(Seat::Second));
        // The first action awaited in a rated game against the engine aborts it when it does not
        // come within a minute, as between people.
        let mut s = rated_against_the_engine();
        assert_eq!(s.first_move_deadline(), Some((Seat::First, T0.plus(FIRST_MOVE))));
        s.check_time(T0.plus(FIRST_MOVE));
        assert_eq!((s.aborted(), s.decider()), (Some(Seat::First), None));
        let back = Table::rebuild(&s.start(), s.unsaved().1).unwrap();
        assert_eq!(back.aborted(), s.aborted());
        // An unrated game against the engine waits for nobody.
        let casual = table([Player::Human, Player::Engine(Level::MIN)])
            .with_clocks(Duration::from_secs(60), Duration::ZERO)
            .with_access(Access::Owner(token_hash("me")));
        assert_eq!(casual.first_move_deadline(), None);
    }

    #[test]
    fn no_clock_runs_before_the_friend_comes_and_first_moves_not_made_abort_the_game() {
        // The friend opens the link 66 s after the game was made: nothing was charged, and the
        // game waits (before, South had lost on time).
        let mut s = friends();
        s.check_time(at(66_000));
        assert_eq!((s.lost_on_time(), s.aborted()), (None, None));
        assert_eq!(s.time_left(at(66_000)), Some([Duration::from_secs(60); 2]));
        assert!(s.facts("g", at(66_000)).state().clock.unwrap().running.is_none());
        // The friend comes; South's first move is made within a minute, and costs nothing.
        assert!(s.arrive(Actor::Holder(Seat::Second), at(100_000)));
        assert!(!s.arrive(Actor::Holder(Seat::Second), at(101_000)), "once");
        assert!(!s.arrive(Actor::Holder(Seat::First), at(101_000)), "the creator came with the game");
        s.check_time(at(159_000));
        assert_eq!(s.aborted(), None);
        s.act(Actor::Holder(Seat::First), "1".parse().unwrap(), at(159_000)).unwrap();
        assert_eq!(s.time_left(at(159_000)), Some([Duration::from_secs(60); 2]));
        // North's first move does not come within a minute: the game is aborted, no result.
        s.check_time(at(218_999));
        assert_eq!(s.aborted(), None);
        s.check_time(at(219_000));
        assert_eq!(s.aborted(), Some(Seat::Second));
        assert_eq!(s.decider(), None);
        let state = s.facts("g", at(219_000)).state();
        assert_eq!((state.result, state.aborted, state.phase), (None, Some(Side::North), "over"));
        assert_eq!(state.status, "Game aborted: North did not make a first move in time. No result.");
        assert_eq!(s.act(Actor::Holder(Seat::Second), "1".parse().unwrap(), at(219_000)), Err(Refused::Over));
        // A friend who never comes: aborted after a day, with no result.
        let mut s = friends();
        s.check_time(T0.plus(INVITATION_WAIT).plus(Duration::from_millis(1)));
        assert_eq!(s.aborted(), Some(Seat::Second));
        // Both rebuild from their events as they were.
        let back = Table::rebuild(&s.start(), s.unsaved().1).unwrap();
        assert_eq!(back.aborted(), s.aborted());
    }

    #[test]
    fn the_clocks_run_once_both_players_have_moved() {
        let mut s = table([Player::Human, Player::Human]).with_clocks(Duration::from_secs(60), Duration::ZERO);
        // Thirty seconds for the first move, ten for the second: neither is charged.
        s.act(Actor::Person, "1".parse().unwrap(), at(30_000)).unwrap();
        s.act(Actor::Person, "1".parse().unwrap(), at(40_000)).unwrap();
        assert_eq!(s.time_left(at(40_000)), Some([Duration::from_secs(60); 2]));
        // South's clock runs from North's first move.
        assert_eq!(s.time_left(at(45_000)).unwrap()[0], Duration::from_secs(55));
        s.check_time(at(100_000));
        assert_eq!(s.lost_on_time(), Some(Seat::First));
        assert_eq!(s.act(Actor::Person, "2".parse().unwrap(), at(100_000)), Err(Refused::Over));
    }

    /// Both players of a timed game at one page make their first moves at `T0`: the clocks run.
    /// Returns the game and how it began.
    fn running() -> (Table, Start) {
        let mut s = table([Player::Human, Player::Human]).with_clocks(Duration::from_secs(600), Duration::ZERO);
        let start = s.start();
        s.act(Actor::Person, "1".parse().unwrap(), T0).unwrap();
        s.act(Actor::Person, "1".parse().unwrap(), T0).unwrap();
        (s, start)
    }

    #[test]
    fn a_screen_that_says_it_animated_while_its_player_thought_gains_little() {
        // An honest page: the move shows 1.5 s after it was made (the animation), the player then
        // thinks 3 s; it pays for the 3 s alone, every move.
        let (mut s, _) = running();
        let mut t = T0;
        while s.decider().is_some() && s.game().actions().len() < 20 {
            let seat = s.decider_seat().unwrap().index();
            let before = s.time_left(t).unwrap()[seat];
            let (shown, moved) = (t.plus(Duration::from_millis(1500)), t.plus(Duration::from_millis(4500)));
            s.shown(s.version(), shown);
            let action = s.game().legal_actions()[0];
            s.act(Actor::Person, action, moved).unwrap();
            assert_eq!(before - s.time_left(moved).unwrap()[seat], Duration::from_secs(3), "pays its thinking alone");
            t = moved;
        }
        // A lying page: the player thinks 10 s and the page says the move showed 10 s after it
        // was made. Before, the move cost 0 s (10 s at most were taken on the page's word); now
        // the page's word is worth its credit: three seconds, then two a move.
        let (mut s, start) = running();
        let mut t = T0;
        let mut costs = Vec::new();
        while s.decider().is_some() && s.game().actions().len() < 20 {
            let seat = s.decider_seat().unwrap().index();
            let before = s.time_left(t).unwrap()[seat];
            let moved = t.plus(Duration::from_secs(10));
            s.shown(s.version(), moved);
            let action = s.game().legal_actions()[0];
            s.act(Actor::Person, action, moved).unwrap();
            costs.push((seat, before - s.time_left(moved).unwrap()[seat]));
            t = moved;
        }
        for (i, &(seat, cost)) in costs.iter().enumerate() {
            assert!(cost >= Duration::from_secs(5), "move {i} of seat {seat} cost {cost:?}: {costs:?}");
        }
        assert!(costs.iter().skip(4).all(|&(_, cost)| cost >= Duration::from_secs(8)), "{costs:?}");
        // The credit is kept with the game: rebuilt, it holds what it held.
        let back = Table::rebuild(&start, s.unsaved().1).unwrap();
        assert_eq!(back.clocks.as_ref().unwrap().credit(), s.clocks.as_ref().unwrap().credit());
    }

    #[test]
    fn an_analysis_is_kept_for_its_version_only() {
        let mut s = table([Player::Human, Player::Human]);
        let analysis = |version| Analysis::unsearched(&Game::new(Rules::standard(4, 3).unwrap()), version);
        let version = s.version();
        s.keep_analysis(version, analysis(version)).unwrap();
        assert_eq!(s.analysis().map(|a| a.version), Some(version));
        play(&mut s, &["1"]);
        assert!(s.analysis().is_none(), "the game changed");
        assert_eq!(s.keep_analysis(version, analysis(version)), Err(Refused::Changed));
    }

    #[test]
    fn a_kept_game_is_rebuilt_exactly_from_its_events() {
        let mut s = table([Player::Human, Player::Engine(Level::MIN)])
            .with_clocks(Duration::from_secs(60), Duration::from_secs(1));
        let start = s.start();
        s.act(Actor::Person, "1".parse().unwrap(), at(700)).unwrap();
        let begun = s.begin_engine_move(Actor::Person, at(2000)).unwrap();
        let answer = s.game().legal_actions()[0];
        s.play_engine_move(begun.snapshot.version, answer, at(2100)).unwrap();
        s.shown(s.version(), at(3000));
        s.act(Actor::Person, s.game().legal_actions()[0], at(4000)).unwrap();
        s.undo(Some(1), at(4100)).unwrap();
        s.redo(Some(1), at(4200)).unwrap();
        s.goto(1, at(4300)).unwrap();
        s.goto(3, at(4400)).unwrap();
        s.check_time(at(3_600_000));
        assert!(s.lost_on_time().is_some());
        let events = s.unsaved().1.to_vec();
        let back = Table::rebuild(&start, &events).unwrap();
        assert_eq!(back.history(), s.history());
        assert_eq!(back.version(), s.version());
        assert_eq!(back.lost_on_time(), s.lost_on_time());
        let later = at(4_000_000);
        assert_eq!(back.time_left(later), s.time_left(later));
        assert_eq!(back.clocks, s.clocks, "the clocks, their credit and when the player to decide began");
        // A damaged log is refused, not half read.
        let mut bad = events.clone();
        bad[0].change = Change::Act { action: "9".into(), spent: None };
        assert!(Table::rebuild(&start, &bad).is_err());
    }
}
