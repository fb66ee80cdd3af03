//! What a search tells the session about the state it thinks about, in the protocol's own types.
//!
//! The crate does not depend on an engine: a front end turns its engine's reports into a
//! [`Progress`] and hands it to [`Session::progress`](super::Session::progress), which writes
//! the protocol's lines (`set info:comment`, `move`, `eval`, `yield`). So every front end sends
//! the same lines for the same search, and none writes them itself.

use std::fmt;

use kalah_rules::Move;

/// A value for the player to move: the final store difference it can expect, in hundredths of a
/// seed, proven or estimated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Value {
    hundredths: i32,
    exact: bool,
}

impl Value {
    /// Returns a value of `hundredths` of a seed, proven when `exact`.
    pub const fn new(hundredths: i32, exact: bool) -> Value {
        Value { hundredths, exact }
    }

    /// Returns the value in hundredths of a seed.
    pub const fn hundredths(self) -> i32 {
        self.hundredths
    }

    /// Tells whether the value is proven rather than estimated.
    pub const fn is_exact(self) -> bool {
        self.exact
    }

    /// Returns the value in seeds, as `eval` sends it.
    pub fn seeds(self) -> f64 {
        f64::from(self.hundredths) / 100.0
    }
}

impl fmt::Display for Value {
    /// Writes the value in seeds with its sign and two decimals (`+0.88`, `-1.25`); the alternate
    /// form (`{:#}`) adds ` exact` to a proven value, as the engine's own reports read.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = format!("{:+.2}", self.seeds());
        if f.alternate() && self.exact {
            text.push_str(" exact");
        }
        f.pad(&text)
    }
}

/// What a search reports to the session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// A depth of the search is complete.
    Depth {
        /// The depth, in sowings.
        depth: u32,
        /// The best move found so far.
        best: Move,
        /// Its value for the player to move.
        value: Value,
        /// Nodes searched so far for this state.
        nodes: u64,
    },
    /// The search ended by itself: its time is up, or its value is proven.
    Ended,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_write_as_signed_seeds() {
        assert_eq!(Value::new(88, false).to_string(), "+0.88");
        assert_eq!(format!("{:#}", Value::new(88, false)), "+0.88");
        assert_eq!(format!("{:#}", Value::new(-600, true)), "-6.00 exact");
        assert_eq!(Value::new(-125, false).seeds(), -1.25);
        assert_eq!(format!("{:>6}", Value::new(5, false)), " +0.05");
    }
}
