//! Typed errors of the rules library; each message says what is wrong and what is accepted.

use thiserror::Error;

use crate::rules::{MAX_HOUSES, MAX_SEEDS, MAX_TOTAL_SEEDS, MIN_HOUSES, MIN_SEEDS};

/// An invalid board size, preset or rule option.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RulesError {
    /// The number of houses a side is out of range.
    #[error("{0} houses a side is out of range: Kalah(m,n) takes m from {MIN_HOUSES} to {MAX_HOUSES}")]
    Houses(u32),
    /// The number of seeds a house is out of range.
    #[error("{0} seeds a house is out of range: Kalah(m,n) takes n from {MIN_SEEDS} to {MAX_SEEDS}")]
    Seeds(u32),
    /// A board size that does not read as `M,N`.
    #[error(
        "cannot read the board size {0:?}: write it as M,N (houses a side, seeds a house), e.g. 6,4 or kalah(6,4)"
    )]
    Size(String),
    /// An unknown preset name.
    #[error(
        "unknown rules preset {0:?}: the presets are standard, empty-capture, assignment, seed-on, clockwise, kgp"
    )]
    Preset(String),
    /// An unknown `key=value` option.
    #[error("unknown rules option {0:?}: the options are capture=, end=, leftover=, direction=, sowing=")]
    Option(String),
    /// An unknown value of a rules option.
    #[error("unknown {what} {word:?}: accepted are {accepted}")]
    Word {
        /// Which option.
        what: &'static str,
        /// The word given.
        word: String,
        /// The words accepted.
        accepted: String,
    },
}

/// Why a move cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum PlayError {
    /// The house number is not on this board.
    #[error("there is no house {house}: houses are numbered 1 to {houses}")]
    NoSuchHouse {
        /// The house number asked for.
        house: u32,
        /// The number of houses a side.
        houses: u8,
    },
    /// The house holds no seeds.
    #[error("house {house} is empty: play a house that holds seeds")]
    EmptyHouse {
        /// The house number asked for.
        house: u8,
    },
    /// The game is over.
    #[error("the game is over: no more moves can be played")]
    GameOver,
    /// A swap (pie rule) where none is allowed.
    #[error("a swap is allowed only under the pie rule, as the second player's first action")]
    SwapNotAllowed,
    /// A handicap move where none is allowed.
    #[error("a handicap move is allowed only under the handicap rule, before the first move")]
    HandicapNotAllowed,
    /// A handicap move that does not move one seed between two different houses.
    #[error("a handicap moves one seed from a non-empty house to another house")]
    BadHandicap,
    /// A sowing while a pie or handicap decision is pending.
    #[error("the second player must first decide: {0}")]
    DecisionPending(&'static str),
}

/// A position text that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    /// The text has the wrong shape.
    #[error("cannot read position {text:?}: {why}; write SOUTH_HOUSES:STORE/NORTH_HOUSES:STORE/SIDE, e.g. 4,4,4,4,4,4:0/4,4,4,4,4,4:0/S, or a KGP board <m,s_store,n_store,s_1..s_m,n_1..n_m>")]
    Syntax {
        /// The text given.
        text: String,
        /// What is wrong with it.
        why: String,
    },
    /// The two sides have different numbers of houses.
    #[error("South has {south} houses but North has {north}: both sides need the same number of houses")]
    Uneven {
        /// South's houses.
        south: usize,
        /// North's houses.
        north: usize,
    },
    /// The number of houses is out of range or differs from the rules.
    #[error("the position has {found} houses a side but {expected}")]
    Houses {
        /// Houses found.
        found: usize,
        /// What was expected, in words.
        expected: String,
    },
    /// Too many seeds.
    #[error("the position holds {0} seeds; at most {MAX_TOTAL_SEEDS} are allowed")]
    TooManySeeds(u32),
}
