//! How a game began, as it is kept ([`Start`]), and the seats' secret tokens, kept as their
//! SHA-256 only.

use kalah_rules::Seat;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::event::Moment;

/// How a game began: with its events ([`crate::event::Event`]) it rebuilds the game exactly
/// ([`crate::Table::rebuild`]). A server stores it as JSON; the static site keeps it in the
/// browser the same way.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Start {
    /// The rules' text.
    pub rules: String,
    /// The start position in the position notation.
    pub position: String,
    /// The actions a loaded record brought, as records write them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<String>,
    /// The first and the second player's seats (`human`, `engine:LEVEL`).
    pub seats: [String; 2],
    /// The clocks of a timed game: milliseconds for the game and added a move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<[u64; 2]>,
    /// In a game between friends, the SHA-256 (hex) of each seat's secret token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens: Option<[String; 2]>,
    /// In any other game a server holds, the SHA-256 (hex) of its creator's token, which holds
    /// every seat a person plays. A game with neither (kept by an earlier kalah, or the static
    /// site's, which only its own page reaches) has no token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    /// In a game between friends, the creator's seat: the other player has not come until their
    /// token is first used. Games kept before this was written have none: both came.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "optional_seat")]
    pub creator: Option<Seat>,
    /// In a game the lobby paired, the first and the second player's names.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub names: Option<[String; 2]>,
    /// In a game the lobby paired, whether it counts for the players' ratings.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// When the game began.
    pub at: Moment,
}

/// Returns the SHA-256 of a seat's token, in hex, as games keep it.
pub fn token_hash(token: &str) -> String {
    Sha256::digest(token.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// Serialises an optional [`Seat`] as `first`, `second` or nothing.
mod optional_seat {
    use kalah_rules::Seat;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(seat: &Option<Seat>, serializer: S) -> Result<S::Ok, S::Error> {
        match seat {
            Some(seat) => crate::event::player::serialize(seat, serializer),
            None => serializer.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Seat>, D::Error> {
        let word = Option::<String>::deserialize(deserializer)?;
        match word.as_deref() {
            None => Ok(None),
            Some("first") => Ok(Some(Seat::First)),
            Some("second") => Ok(Some(Seat::Second)),
            Some(other) => Err(serde::de::Error::custom(format!("unknown player {other:?}: write first or second"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_start_of_an_earlier_kalah_reads_with_no_owner_and_no_creator() {
        let text =
            r#"{"rules":"kalah(4,3) standard","position":"3,3,3,3:0/3,3,3,3:0/S","seats":["human","engine:3"],"at":5}"#;
        let start: Start = serde_json::from_str(text).unwrap();
        assert_eq!((&start.owner, start.creator, &start.tokens), (&None, None, &None));
        let mut start = start;
        start.creator = Some(Seat::Second);
        let back: Start = serde_json::from_str(&serde_json::to_string(&start).unwrap()).unwrap();
        assert_eq!(back, start);
        assert_eq!(token_hash("a").len(), 64);
    }
}
