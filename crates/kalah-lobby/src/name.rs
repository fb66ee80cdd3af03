//! A player's name: 3 to 20 letters, digits, `-` or `_`, beginning with a letter. Names that
//! differ only in case are one name ([`Name::key`]): `Alice` cannot be taken once `alice` is.
//! A guest plays under a name the server makes (`guest-` and six hex digits), which no one may
//! pick; nor may anyone pick the engine's names, or the one a removed player's games show.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize};
use thiserror::Error;

/// The shortest name.
pub const SHORTEST: usize = 3;
/// The longest name.
pub const LONGEST: usize = 20;

/// Names no person may pick: the beginnings of guests' and the engine's names, and what the
/// games of a removed name show.
const RESERVED: [&str; 6] = ["guest", "engine", "removed", "admin", "kalah", "anonymous"];

/// A name that cannot be picked.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum NameError {
    /// Too short or too long, or a character a name may not have.
    #[error(
        "the name {0:?} cannot be a name: a name is 3 to 20 letters (a to z), digits, - or _, beginning with a letter"
    )]
    Malformed(String),
    /// A name kept for guests, the engine or removed players.
    #[error("the name {0:?} is kept for the server (names beginning with guest, engine, removed, admin, kalah or anonymous): pick another")]
    Reserved(String),
}

/// A player's name, as they wrote it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct Name(String);

impl Name {
    /// Reads a name a person picks.
    ///
    /// # Errors
    /// [`NameError`]: the name is malformed or kept for the server.
    pub fn parse(text: &str) -> Result<Name, NameError> {
        let name = Name::read(text)?;
        if RESERVED.iter().any(|reserved| name.key().starts_with(reserved)) {
            return Err(NameError::Reserved(text.to_string()));
        }
        Ok(name)
    }

    /// Reads a name as it is kept (a person's, a guest's or the engine's): the form of a name,
    /// with the reserved beginnings allowed.
    ///
    /// # Errors
    /// [`NameError::Malformed`].
    pub fn read(text: &str) -> Result<Name, NameError> {
        let well_formed = (SHORTEST..=LONGEST).contains(&text.len())
            && text.starts_with(|c: char| c.is_ascii_alphabetic())
            && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if !well_formed {
            return Err(NameError::Malformed(text.to_string()));
        }
        Ok(Name(text.to_string()))
    }

    /// A guest's name from 24 random bits: `guest-` and six hex digits.
    pub fn guest(bits: u32) -> Name {
        Name(format!("guest-{:06x}", bits & 0xff_ffff))
    }

    /// The engine's name at `level`: `engine-3`. The engine plays rated games as a player does,
    /// so its levels have ratings too.
    pub fn engine(level: kalah_engine::level::Level) -> Name {
        Name(format!("engine-{}", level.number()))
    }

    /// The engine's level, if this is the engine's name.
    pub fn engine_level(&self) -> Option<kalah_engine::level::Level> {
        self.key().strip_prefix("engine-")?.parse().ok()
    }

    /// Tells whether this is a guest's name: a guest plays unrated games only.
    pub fn is_guest(&self) -> bool {
        self.key().starts_with("guest-")
    }

    /// The key two names that differ only in case share: the name in lower case.
    pub fn key(&self) -> String {
        self.0.to_ascii_lowercase()
    }

    /// The name as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl<'de> Deserialize<'de> for Name {
    /// Reads a name as it is kept ([`Name::read`]).
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Name, D::Error> {
        let text = String::deserialize(deserializer)?;
        Name::read(&text).map_err(serde::de::Error::custom)
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_read_with_their_rules() {
        assert_eq!(Name::parse("Alice_2").unwrap().key(), "alice_2");
        for bad in ["al", "a".repeat(21).as_str(), "2alice", "al ice", "ålice", "al.ice", ""] {
            assert!(matches!(Name::parse(bad), Err(NameError::Malformed(_))), "{bad}");
        }
        for kept in ["guest-12ab34", "Engine", "removed", "KalahBot"] {
            assert!(matches!(Name::parse(kept), Err(NameError::Reserved(_))), "{kept}");
        }
        let guest = Name::guest(0x1234_5678);
        assert_eq!(guest.as_str(), "guest-345678");
        assert!(guest.is_guest() && !Name::parse("alice").unwrap().is_guest());
        assert_eq!(Name::read("guest-345678"), Ok(guest));
        let engine = Name::engine(kalah_engine::level::Level::new(4).unwrap());
        assert_eq!((engine.as_str(), engine.engine_level().map(|l| l.number())), ("engine-4", Some(4)));
        assert_eq!(Name::parse("alice").unwrap().engine_level(), None);
        assert!(NameError::Malformed("x".into()).to_string().contains("3 to 20 letters"));
    }
}
