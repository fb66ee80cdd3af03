//! The two players, and data kept once for each.

use std::fmt;
use std::ops::{Index, IndexMut, Not};

/// One of the two players. South moves first and owns the bottom row and the right-hand store.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// The first player: the bottom row, the store on the right.
    South = 0,
    /// The second player: the top row, the store on the left.
    North = 1,
}

impl Side {
    /// Both sides, South first.
    pub const BOTH: [Side; 2] = [Side::South, Side::North];

    /// Returns the other side.
    #[inline]
    pub fn opponent(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }

    /// Returns 0 for South and 1 for North.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// Returns +1 for South and -1 for North: the sign that turns a South-minus-North value into the side's own.
    #[inline]
    pub fn sign(self) -> i32 {
        match self {
            Side::South => 1,
            Side::North => -1,
        }
    }

    /// Returns the side's name as a word.
    pub fn name(self) -> &'static str {
        match self {
            Side::South => "South",
            Side::North => "North",
        }
    }

    /// Returns the side's one-letter code, as the position notation writes it.
    pub fn letter(self) -> char {
        match self {
            Side::South => 'S',
            Side::North => 'N',
        }
    }
}

impl Not for Side {
    type Output = Side;
    fn not(self) -> Side {
        self.opponent()
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A value for each side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByPlayer<T> {
    /// South's value.
    pub south: T,
    /// North's value.
    pub north: T,
}

impl<T> ByPlayer<T> {
    /// Builds a pair from a function of the side.
    pub fn new_with(mut f: impl FnMut(Side) -> T) -> ByPlayer<T> {
        ByPlayer { south: f(Side::South), north: f(Side::North) }
    }
}

impl<T> Index<Side> for ByPlayer<T> {
    type Output = T;
    fn index(&self, side: Side) -> &T {
        match side {
            Side::South => &self.south,
            Side::North => &self.north,
        }
    }
}

impl<T> IndexMut<Side> for ByPlayer<T> {
    fn index_mut(&mut self, side: Side) -> &mut T {
        match side {
            Side::South => &mut self.south,
            Side::North => &mut self.north,
        }
    }
}
