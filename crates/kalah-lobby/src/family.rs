//! The board families a player has a rating in: the two boards most people play, Kalah(6,4)
//! and Kalah(6,6), each its own, and every other board together. A rule variant (empty
//! capture, leftover seeds, the pie rule) plays on its board's family: the skill is the same.

use std::fmt;
use std::str::FromStr;

use kalah_rules::Rules;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A board family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    /// Six houses of four seeds.
    Kalah64,
    /// Six houses of six seeds.
    Kalah66,
    /// Every other board.
    Other,
}

impl Family {
    /// Every family, in the order the pages list them.
    pub const ALL: [Family; 3] = [Family::Kalah64, Family::Kalah66, Family::Other];

    /// The family of a game under `rules`.
    pub fn of(rules: &Rules) -> Family {
        match (rules.houses(), rules.seeds()) {
            (6, 4) => Family::Kalah64,
            (6, 6) => Family::Kalah66,
            _ => Family::Other,
        }
    }

    /// The family's name in the API and the database: `kalah(6,4)`, `kalah(6,6)` or `other`.
    pub fn as_str(self) -> &'static str {
        match self {
            Family::Kalah64 => "kalah(6,4)",
            Family::Kalah66 => "kalah(6,6)",
            Family::Other => "other",
        }
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Family {
    type Err = String;

    fn from_str(text: &str) -> Result<Family, String> {
        Family::ALL
            .into_iter()
            .find(|family| family.as_str().eq_ignore_ascii_case(text))
            .ok_or_else(|| format!("unknown board family {text:?}: write kalah(6,4), kalah(6,6) or other"))
    }
}

impl Serialize for Family {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Family {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Family, D::Error> {
        String::deserialize(deserializer)?.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_fall_into_their_families() {
        let family = |text: &str| Family::of(&text.parse::<Rules>().unwrap());
        assert_eq!(family("kalah(6,4) standard"), Family::Kalah64);
        assert_eq!(family("kalah(6,4) empty-capture"), Family::Kalah64);
        assert_eq!(family("kalah(6,6) standard"), Family::Kalah66);
        assert_eq!(family("kalah(4,3) standard"), Family::Other);
        for f in Family::ALL {
            assert_eq!(f.as_str().parse::<Family>(), Ok(f));
        }
        assert!("kalah(5,5)".parse::<Family>().unwrap_err().contains("kalah(6,4), kalah(6,6) or other"));
    }
}
