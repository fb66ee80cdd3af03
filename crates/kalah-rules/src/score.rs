//! The value of a position or a decision: the final store difference a player can expect, in
//! hundredths of a seed, and whether it is proven.
//!
//! Values are kept in hundredths so that the evaluation can tell positions apart by less than a
//! seed; a proven value rests only on finished games and exact databases, so it is a whole number
//! of seeds, the game-theoretic value.
//!
//! ```
//! use kalah_rules::score::Score;
//! let estimate = Score::estimate(-48);
//! assert_eq!(estimate.to_string(), "-0.48");
//! assert_eq!(format!("{:#}", Score::exact(600)), "+6.00 exact");
//! assert_eq!(format!("{:#}", -estimate), "+0.48", "the other side's view");
//! ```

use std::fmt;
use std::ops::Neg;

/// Hundredths in a seed: the unit of [`Score`] (and of the engine's evaluation).
pub const SEED: i32 = 100;

/// A value for one player: hundredths of a seed of final store difference, proven or estimated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Score {
    hundredths: i32,
    exact: bool,
}

impl Score {
    /// Returns a value of `hundredths` of a seed, proven when `exact`.
    pub const fn new(hundredths: i32, exact: bool) -> Score {
        Score { hundredths, exact }
    }

    /// Returns an estimated value of `hundredths` of a seed.
    pub const fn estimate(hundredths: i32) -> Score {
        Score::new(hundredths, false)
    }

    /// Returns a proven value of `hundredths` of a seed.
    pub const fn exact(hundredths: i32) -> Score {
        Score::new(hundredths, true)
    }

    /// Returns a proven value of a whole number of seeds, such as a finished game's difference.
    pub const fn exact_seeds(seeds: i32) -> Score {
        Score::exact(seeds * SEED)
    }

    /// Returns the value in hundredths of a seed.
    pub const fn hundredths(self) -> i32 {
        self.hundredths
    }

    /// Returns the value in seeds.
    pub fn seeds(self) -> f64 {
        f64::from(self.hundredths) / f64::from(SEED)
    }

    /// Tells whether the value is proven: the game-theoretic value, not an estimate.
    pub const fn is_exact(self) -> bool {
        self.exact
    }
}

impl Neg for Score {
    type Output = Score;

    /// Returns the same value from the other player's side.
    fn neg(self) -> Score {
        Score { hundredths: -self.hundredths, exact: self.exact }
    }
}

impl fmt::Display for Score {
    /// Writes the value in seeds with its sign and two decimals (`+0.70`, `-1.25`), padded to the
    /// width asked for; the alternate form (`{:#}`) adds ` exact` to a proven value.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = format!("{:+.2}", self.seeds());
        if f.alternate() && self.exact {
            text.push_str(" exact");
        }
        f.pad(&text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_write_as_signed_seeds() {
        assert_eq!(Score::estimate(70).to_string(), "+0.70");
        assert_eq!(Score::estimate(0).to_string(), "+0.00");
        assert_eq!(Score::estimate(-125).to_string(), "-1.25");
        assert_eq!(Score::exact_seeds(-6).to_string(), "-6.00");
        assert_eq!(format!("{:>7}", Score::estimate(5)), "  +0.05");
        assert_eq!(format!("{:#}", Score::estimate(5)), "+0.05");
        assert_eq!(format!("{:#}", Score::exact(-300)), "-3.00 exact");
    }

    #[test]
    fn the_other_sides_view_keeps_the_proof() {
        let proven = Score::exact(400);
        assert_eq!(-proven, Score::exact(-400));
        assert_eq!((-proven).seeds(), -4.0);
        assert!(!(-Score::estimate(1)).is_exact());
    }
}
