//! The changes of a game as they are stored and sent: each [`Event`] is one change ([`Change`])
//! with the version it made, the time it was made ([`Moment`], wall-clock milliseconds, so that
//! clocks survive a restart and agree between processes) and the client's request id, if it
//! gave one. A game is its start and its events: replaying them rebuilds it exactly.

use std::time::Duration;

use web_time::{SystemTime, UNIX_EPOCH};

use kalah_rules::Seat as Player;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Milliseconds since 1970-01-01 UTC: when a change was made, by the wall clock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Moment(pub u64);

impl Moment {
    /// Returns the moment now.
    pub fn now() -> Moment {
        Moment(SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64))
    }

    /// Returns the moment `duration` later.
    pub fn plus(self, duration: Duration) -> Moment {
        Moment(self.0.saturating_add(duration.as_millis() as u64))
    }

    /// Returns the time from `earlier` to this moment, zero if `earlier` is later.
    pub fn since(self, earlier: Moment) -> Duration {
        Duration::from_millis(self.0.saturating_sub(earlier.0))
    }
}

/// The longest client request id, in bytes.
pub const MAX_REQUEST_ID: usize = 64;

/// One change of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Change {
    /// The player to decide took an action (a sowing, `swap`, `keep`, a handicap move); in a
    /// timed game `spent` milliseconds were charged to its clock.
    Act {
        /// The action as records write it.
        action: String,
        /// Milliseconds charged to the player's clock (timed games).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        spent: Option<u64>,
    },
    /// Actions taken back (games at one page, or against the engine).
    Undo {
        /// How many.
        plies: usize,
    },
    /// Taken-back actions replayed.
    Redo {
        /// How many.
        plies: usize,
    },
    /// The position after `ply` actions of the whole line shown.
    Goto {
        /// Actions of the whole line played.
        ply: usize,
    },
    /// The invited friend came (their seat's token was first used): in a timed game the first
    /// moves are waited for from now (see [`crate::table::FIRST_MOVE`]).
    Joined,
    /// A timed game between friends whose first moves did not come in time ended with no result
    /// (see [`crate::table::FIRST_MOVE`] and [`crate::table::INVITATION_WAIT`]).
    Aborted,
    /// The player to decide has shown the last move: its clock starts now (see
    /// [`crate::table::Table::shown`]).
    Shown,
    /// A player asks to take back its last turn.
    TakebackAsked {
        /// Who asks.
        #[serde(with = "player")]
        by: Player,
    },
    /// The opponent refused the takeback.
    TakebackRefused,
    /// The opponent accepted the takeback: `plies` actions were taken back.
    TakebackAccepted {
        /// How many actions.
        plies: usize,
    },
    /// A player resigned: the other wins.
    Resigned {
        /// Who resigned.
        #[serde(with = "player")]
        by: Player,
    },
    /// A player's clock ran out: the other wins.
    TimedOut {
        /// Whose clock.
        #[serde(with = "player")]
        player: Player,
    },
    /// A player offers a rematch with the sides swapped.
    RematchOffered {
        /// Who offers.
        #[serde(with = "player")]
        by: Player,
    },
    /// Both players wanted a rematch: it is the game `game`.
    Rematched {
        /// The new game's id.
        game: String,
    },
}

impl Change {
    /// Tells whether the change alters the board, the turn or the result, so that a move made
    /// on an earlier version is stale. A clock that starts, a takeback asked or refused and a
    /// rematch offered do not.
    pub fn moves_the_game(&self) -> bool {
        !matches!(
            self,
            Change::Shown
                | Change::Joined
                | Change::TakebackAsked { .. }
                | Change::TakebackRefused
                | Change::RematchOffered { .. }
        )
    }
}

/// A change with its version, time and the client's request id.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    /// The game's version after the change: the first event makes version 1.
    pub version: u64,
    /// When it was made.
    pub at: Moment,
    /// What changed.
    pub change: Change,
    /// The id the client gave the request, so that a retried request is answered, not played again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request: Option<String>,
}

/// Returns the word of a player: `first` or `second`.
pub fn player_word(player: Player) -> &'static str {
    match player {
        Player::First => "first",
        Player::Second => "second",
    }
}

/// Serialises a [`Player`] as `first` or `second`.
pub mod player {
    use super::*;

    /// Writes `first` or `second`.
    pub fn serialize<S: Serializer>(player: &Player, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(player_word(*player))
    }

    /// Reads `first` or `second`.
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Player, D::Error> {
        let word = String::deserialize(deserializer)?;
        match word.as_str() {
            "first" => Ok(Player::First),
            "second" => Ok(Player::Second),
            _ => Err(serde::de::Error::custom(format!("unknown player {word:?}: write first or second"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_read_back_as_written() {
        let events = [
            Change::Act { action: "3".into(), spent: Some(1200) },
            Change::Act { action: "swap".into(), spent: None },
            Change::Undo { plies: 2 },
            Change::Joined,
            Change::Aborted,
            Change::Shown,
            Change::TakebackAsked { by: Player::Second },
            Change::TakebackAccepted { plies: 3 },
            Change::Resigned { by: Player::First },
            Change::TimedOut { player: Player::Second },
            Change::Rematched { game: "0123456789abcdef".into() },
        ];
        for (i, change) in events.into_iter().enumerate() {
            let event = Event { version: i as u64 + 1, at: Moment(1_700_000_000_000), change, request: None };
            let text = serde_json::to_string(&event).unwrap();
            assert_eq!(serde_json::from_str::<Event>(&text).unwrap(), event, "{text}");
        }
        let text = r#"{"version":1,"at":5,"change":{"kind":"act","action":"3"},"request":"r1"}"#;
        let event: Event = serde_json::from_str(text).unwrap();
        assert_eq!(event.change, Change::Act { action: "3".into(), spent: None });
        assert_eq!(event.request.as_deref(), Some("r1"));
    }

    #[test]
    fn moments_count_milliseconds() {
        let t = Moment(1000);
        assert_eq!(t.plus(Duration::from_millis(1500)), Moment(2500));
        assert_eq!(Moment(2500).since(t), Duration::from_millis(1500));
        assert_eq!(t.since(Moment(2500)), Duration::ZERO);
    }
}
