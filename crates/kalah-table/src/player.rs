//! Who holds a seat: a person, or the engine at a strength level, as a request writes it
//! (`human`, `engine`, `engine:LEVEL`) and as a game record's `South` and `North` tags do.

use std::fmt;
use std::str::FromStr;

use kalah_engine::level::Level;
use thiserror::Error;

/// Who holds a seat: a person at the page, or the engine at a level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// A person, who moves by clicking.
    Human,
    /// The engine at a strength level.
    Engine(Level),
}

impl Player {
    /// Tells whether a person holds the seat.
    pub fn is_human(self) -> bool {
        self == Player::Human
    }

    /// Reads the player a record's `South` or `North` tag names: `engine level N` (as records of
    /// the page write it), `engine:N` or `engine` the engine, anything else (`human`, a person's
    /// name) a person.
    pub fn from_tag(tag: &str) -> Player {
        let tag = tag.trim();
        if let Ok(player) = tag.parse::<Player>() {
            return player;
        }
        match tag.strip_prefix("engine level ").map(str::parse::<Level>) {
            Some(Ok(level)) => Player::Engine(level),
            _ => Player::Human,
        }
    }

    /// Returns the words a record's tag gives the player: `human`, `engine level 3`.
    pub fn tag(self) -> String {
        match self {
            Player::Human => "human".to_string(),
            Player::Engine(level) => format!("engine level {level}"),
        }
    }
}

/// A player text that is not `human`, `engine` or `engine:LEVEL`.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown player {0:?}: write human, engine, or engine:LEVEL with a level from 1 to {max}", max = Level::MAX)]
pub struct PlayerError(pub String);

impl FromStr for Player {
    type Err = PlayerError;

    /// Reads `human`, `engine` (level 3) or `engine:LEVEL`.
    fn from_str(text: &str) -> Result<Player, PlayerError> {
        let bad = || PlayerError(text.to_string());
        match text.split_once(':') {
            None if text == "human" => Ok(Player::Human),
            None if text == "engine" => Ok(Player::Engine(Level::DEFAULT)),
            Some(("engine", level)) => level.parse::<Level>().map(Player::Engine).map_err(|_| bad()),
            _ => Err(bad()),
        }
    }
}

impl fmt::Display for Player {
    /// Writes the player as a request does: `human` or `engine:LEVEL`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Player::Human => f.write_str("human"),
            Player::Engine(level) => write!(f, "engine:{level}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_read_and_refuse() {
        assert_eq!("human".parse(), Ok(Player::Human));
        assert_eq!("engine".parse(), Ok(Player::Engine(Level::DEFAULT)));
        assert_eq!("engine:5".parse(), Ok(Player::Engine(Level::MAX)));
        for bad in ["", "engine:0", "engine:6", "engine:x", "robot", "human:1", " human"] {
            assert!(bad.parse::<Player>().is_err(), "{bad}");
        }
        let two = Player::Engine(Level::new(2).unwrap());
        assert_eq!(two.to_string().parse(), Ok(two));
        assert_eq!(
            "engine:9".parse::<Player>().unwrap_err().to_string(),
            "unknown player \"engine:9\": write human, engine, or engine:LEVEL with a level from 1 to 5"
        );
    }

    #[test]
    fn a_records_tags_name_the_players_as_written_or_asked_for() {
        let level = |n| Player::Engine(Level::new(n).unwrap());
        for (tag, player) in [
            ("engine level 4", level(4)),
            (" engine:2 ", level(2)),
            ("engine", Player::Engine(Level::DEFAULT)),
            ("human", Player::Human),
            ("Alice", Player::Human),
            ("engine level 9", Player::Human),
        ] {
            assert_eq!(Player::from_tag(tag), player, "{tag:?}");
        }
        for player in [Player::Human, level(1), level(5)] {
            assert_eq!(Player::from_tag(&player.tag()), player);
        }
    }
}
