//! The value of a position or a decision: the final store difference a player can expect, in
//! hundredths of a seed, and whether it is proven; and the whole seeds that proofs deal in.
//!
//! Values are kept in hundredths so that the evaluation can tell positions apart by less than a
//! seed; a proven value rests only on finished games and exact databases, so it is a whole number
//! of seeds, the game-theoretic value. The solver proves [`Bounds`] in [`Seeds`] and answers
//! questions asked in them; this module is the one place that converts between the two units.
//!
//! ```
//! use kalah_rules::score::{Bounds, Score, Seeds};
//! let estimate = Score::estimate(-48);
//! assert_eq!(estimate.to_string(), "-0.48");
//! assert_eq!(format!("{:#}", Score::exact(600)), "+6.00 exact");
//! assert_eq!(format!("{:#}", -estimate), "+0.48", "the other side's view");
//! let bounds = Bounds::new(Seeds(-2), Seeds(4));
//! assert!(bounds.decides(Seeds(5)) && !bounds.decides(Seeds(3)));
//! assert_eq!(format!("{:+} to {:+}", bounds.lower, bounds.upper), "-2 to +4");
//! assert_eq!(Seeds(6).exact(), Score::exact(600));
//! ```

use std::fmt;
use std::ops::Neg;

use crate::side::Side;

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

    /// Returns this value, which is `owner`'s, as `side`'s: the same for the same side, else the
    /// other side's view of it (one player's final store difference is minus the other's).
    ///
    /// ```
    /// use kalah_rules::score::Score;
    /// use kalah_rules::Side;
    /// let for_north = Score::estimate(-70);
    /// assert_eq!(for_north.for_side(Side::North, Side::South), Score::estimate(70));
    /// assert_eq!(for_north.for_side(Side::North, Side::North), for_north);
    /// ```
    pub fn for_side(self, owner: Side, side: Side) -> Score {
        if owner == side {
            self
        } else {
            -self
        }
    }

    /// Returns the value in whole seeds, its fraction dropped (towards zero): a proven value's
    /// exactly, since proven values are whole seeds.
    pub const fn whole_seeds(self) -> Seeds {
        Seeds(self.hundredths / SEED)
    }

    /// Returns the whole number of seeds nearest the value (halves away from zero): the best
    /// guess in whole seeds of an estimate.
    pub fn nearest_seeds(self) -> Seeds {
        Seeds((f64::from(self.hundredths) / f64::from(SEED)).round() as i32)
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

/// A value in whole seeds of final store difference for one player: a proven value, a bound on
/// one, or a threshold to prove. Writes as the number (`{:+}` gives the sign).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Seeds(pub i32);

impl Seeds {
    /// Returns the value in hundredths of a seed, the unit of [`Score`] and of the evaluation.
    pub const fn hundredths(self) -> i32 {
        self.0 * SEED
    }

    /// Returns the whole seeds `hundredths` hundredths of a seed make, or `None` when they are
    /// not a whole number of seeds (as in a file written in hundredths).
    pub const fn from_hundredths(hundredths: i32) -> Option<Seeds> {
        if hundredths % SEED == 0 {
            Some(Seeds(hundredths / SEED))
        } else {
            None
        }
    }

    /// Returns the value as a proven [`Score`].
    pub const fn exact(self) -> Score {
        Score::exact(self.hundredths())
    }
}

impl Neg for Seeds {
    type Output = Seeds;

    /// Returns the same value from the other player's side.
    fn neg(self) -> Seeds {
        Seeds(-self.0)
    }
}

impl fmt::Display for Seeds {
    /// Writes the number of seeds, with the flags asked for (`{:+}`: the sign).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// A proven range for a value, for one player: the value is at least `lower` and at most `upper`
/// (whole seeds, `lower <= upper`); the value is known when they meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bounds {
    /// The value is at least this.
    pub lower: Seeds,
    /// The value is at most this.
    pub upper: Seeds,
}

impl Bounds {
    /// Returns the range from `lower` to `upper`.
    pub const fn new(lower: Seeds, upper: Seeds) -> Bounds {
        Bounds { lower, upper }
    }

    /// Returns the range of one value: `value` proven.
    pub const fn exact(value: Seeds) -> Bounds {
        Bounds { lower: value, upper: value }
    }

    /// Tells whether the bounds have met: the value is proven.
    pub fn is_exact(self) -> bool {
        self.lower == self.upper
    }

    /// Tells whether the bounds answer "is the value at least `at_least`?": the lower bound
    /// reaches it (yes) or the upper bound is below it (no).
    pub fn decides(self, at_least: Seeds) -> bool {
        self.lower >= at_least || self.upper < at_least
    }

    /// Returns the bound that answers "is the value at least `at_least`?" when one does: the
    /// upper bound when it is below `at_least`, else the lower bound.
    pub fn answer(self, at_least: Seeds) -> Seeds {
        if self.upper < at_least {
            self.upper
        } else {
            self.lower
        }
    }

    /// Returns what both ranges prove together: the higher lower bound and the lower upper bound.
    pub fn and(self, other: Bounds) -> Bounds {
        Bounds { lower: self.lower.max(other.lower), upper: self.upper.min(other.upper) }
    }
}

impl Neg for Bounds {
    type Output = Bounds;

    /// Returns the same range from the other player's side.
    fn neg(self) -> Bounds {
        Bounds { lower: -self.upper, upper: -self.lower }
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

    #[test]
    fn whole_seeds_convert_once_each_way() {
        assert_eq!(Seeds(-3).hundredths(), -300);
        assert_eq!(Seeds::from_hundredths(-300), Some(Seeds(-3)));
        assert_eq!(Seeds::from_hundredths(250), None, "not a whole seed");
        assert_eq!(Score::exact_seeds(7).whole_seeds(), Seeds(7));
        assert_eq!(Score::estimate(-180).whole_seeds(), Seeds(-1), "towards zero");
        assert_eq!(Score::estimate(-180).nearest_seeds(), Seeds(-2));
        assert_eq!(Score::estimate(150).nearest_seeds(), Seeds(2), "halves away from zero");
        assert_eq!(Seeds(-4).exact(), -Score::exact_seeds(4));
        assert_eq!(format!("{:+}|{}|{:>3}", Seeds(5), Seeds(-5), Seeds(0)), "+5|-5|  0");
    }

    #[test]
    fn bounds_decide_a_question_and_turn_with_the_side() {
        let bounds = Bounds::new(Seeds(-2), Seeds(4));
        assert!(!bounds.is_exact() && Bounds::exact(Seeds(1)).is_exact());
        assert!(bounds.decides(Seeds(-2)) && bounds.decides(Seeds(5)));
        assert!(!bounds.decides(Seeds(-1)) && !bounds.decides(Seeds(4)));
        assert_eq!((bounds.answer(Seeds(-2)), bounds.answer(Seeds(5))), (Seeds(-2), Seeds(4)));
        assert_eq!(-bounds, Bounds::new(Seeds(-4), Seeds(2)));
        assert_eq!(bounds.and(Bounds::new(Seeds(0), Seeds(9))), Bounds::new(Seeds(0), Seeds(4)));
    }
}
