//! An engine turn for a host whose engine runs elsewhere (the static site's Web Worker): the
//! game as text the worker rebuilds ([`Snapshot`]), the engine's clock ([`ClockLeft`]) and the
//! turn the table lets begin ([`EngineTurn`]).

use std::time::Duration;

use kalah_engine::time::Clock;
use kalah_rules::{Action, Game, Position, Rules};
use serde::{Deserialize, Serialize};

use crate::event::Moment;
use crate::refused::Refused;
use crate::table::{Actor, Table};

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

impl From<Clock> for ClockLeft {
    fn from(clock: Clock) -> ClockLeft {
        ClockLeft { remaining_ms: clock.remaining.as_millis() as u64, increment_ms: clock.increment.as_millis() as u64 }
    }
}

/// An engine move the table lets begin: the game to decide, the version it is for, the seat's
/// level and its clock.
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

impl Table {
    /// Lets the engine's move begin, asked by `by` at `now` ([`Table::begin_engine_move`]), and
    /// returns it as a worker is asked it.
    pub fn engine_turn(&mut self, by: Actor, now: Moment) -> Result<EngineTurn, Refused> {
        let begun = self.begin_engine_move(by, now)?;
        Ok(EngineTurn {
            version: begun.snapshot.version,
            game: Snapshot::of(&begun.snapshot.game),
            level: begun.level.number(),
            clock: begun.clock.map(ClockLeft::from),
        })
    }
}
