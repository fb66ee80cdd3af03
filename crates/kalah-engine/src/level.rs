//! The engine's strength levels 1 to 5, as a front end offers them to a person: each a depth
//! limit in sowings and a time budget for a move, within the time the host allows.
//!
//! The browser game, a Python host and a KGP server's bots all play at these levels, so a level
//! means the same everywhere.
//!
//! ```
//! use std::time::Duration;
//! use kalah_engine::level::Level;
//! let level: Level = "2".parse().unwrap();
//! let limits = level.limits(Duration::from_secs(1));
//! assert_eq!(limits.depth, Some(3));
//! assert_eq!(limits.time, Some(Duration::from_millis(100)));
//! assert_eq!(Level::MAX.limits(Duration::from_secs(1)).time, Some(Duration::from_secs(1)));
//! ```

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use crate::time::Limits;

/// A strength level from 1 (looks one sowing ahead) to 5 (as deep as the time allows).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

/// What each level is: its depth limit (`None`: only the time limit), its own time budget in
/// milliseconds (`None`: the host's whole time) and the words a form shows.
///
/// A depth-limited level needs little time, and a small budget keeps a busy server's queue short.
const TABLE: [(Option<u32>, Option<u64>, &str); 5] = [
    (Some(1), Some(50), "1: looks one sowing ahead"),
    (Some(3), Some(100), "2: three sowings"),
    (Some(6), Some(250), "3: six sowings"),
    (Some(12), Some(1000), "4: twelve sowings"),
    (None, None, "5: as deep as the time limit allows"),
];

/// A level number that is not 1 to 5.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("there is no level {0:?}: the levels are 1 to {max}", max = Level::MAX.0)]
pub struct LevelError(pub String);

impl Level {
    /// The weakest level, 1.
    pub const MIN: Level = Level(1);
    /// The strongest level, 5.
    pub const MAX: Level = Level(TABLE.len() as u8);
    /// The level of an engine named without one, 3.
    pub const DEFAULT: Level = Level(3);
    /// Every level, weakest first.
    pub const ALL: [Level; TABLE.len()] = [Level(1), Level(2), Level(3), Level(4), Level(5)];

    /// Returns level `number`, or `None` if it is not 1 to 5.
    pub fn new(number: u8) -> Option<Level> {
        (Level::MIN.0..=Level::MAX.0).contains(&number).then_some(Level(number))
    }

    /// Returns the level's number, 1 to 5.
    pub fn number(self) -> u8 {
        self.0
    }

    fn row(self) -> (Option<u32>, Option<u64>, &'static str) {
        TABLE[usize::from(self.0 - 1)]
    }

    /// Returns the deepest iteration of a move at this level, in sowings (`None`: no depth limit).
    pub fn depth(self) -> Option<u32> {
        self.row().0
    }

    /// Returns the most time a move at this level takes of its own (`None`: the host's whole time).
    pub fn budget(self) -> Option<Duration> {
        self.row().1.map(Duration::from_millis)
    }

    /// Returns the words that describe the level, e.g. `2: three sowings`.
    pub fn about(self) -> &'static str {
        self.row().2
    }

    /// Returns the limits of a move at this level when the host allows `time` a move: the
    /// level's depth, and its own budget within `time`.
    pub fn limits(self, time: Duration) -> Limits {
        let time = self.budget().map_or(time, |budget| budget.min(time));
        Limits { depth: self.depth(), time: Some(time), ..Limits::default() }
    }
}

impl Default for Level {
    fn default() -> Level {
        Level::DEFAULT
    }
}

impl fmt::Display for Level {
    /// Writes the level's number.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for Level {
    type Err = LevelError;

    /// Reads a level number, `1` to `5`.
    fn from_str(text: &str) -> Result<Level, LevelError> {
        text.parse::<u8>().ok().and_then(Level::new).ok_or_else(|| LevelError(text.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_limit_the_depth_and_always_the_time() {
        let time = Duration::from_millis(300);
        assert_eq!(Level::MIN.limits(time).depth, Some(1));
        assert_eq!(Level::MAX.limits(time).depth, None);
        assert_eq!(Level::MIN.limits(time).time, Some(Duration::from_millis(50)), "a level's own budget");
        for level in Level::ALL {
            assert!(level.limits(time).time.unwrap() <= time, "always within the host's time");
        }
        assert_eq!(Level::MAX.limits(time).time, Some(time));
    }

    #[test]
    fn levels_read_their_numbers_only() {
        assert_eq!(Level::ALL.map(Level::number), [1, 2, 3, 4, 5]);
        for level in Level::ALL {
            assert_eq!(level.to_string().parse(), Ok(level));
            assert!(level.about().starts_with(&format!("{level}: ")));
        }
        for bad in ["0", "6", "", "x", "-1", "256", " 3"] {
            assert_eq!(bad.parse::<Level>(), Err(LevelError(bad.to_string())), "{bad:?}");
        }
        assert_eq!(LevelError("9".into()).to_string(), "there is no level \"9\": the levels are 1 to 5");
        assert_eq!(Level::default(), Level::new(3).unwrap());
    }

    #[test]
    fn deeper_levels_search_deeper_and_longer() {
        for pair in Level::ALL.windows(2) {
            let (weaker, stronger) = (pair[0], pair[1]);
            assert!(stronger.depth().is_none_or(|d| weaker.depth().is_some_and(|w| w < d)));
            assert!(stronger.budget().is_none_or(|b| weaker.budget().is_some_and(|w| w < b)));
        }
    }
}
