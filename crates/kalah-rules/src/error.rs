//! Typed errors of the rules library; each message says what is wrong and what is accepted.

use std::fmt;

use thiserror::Error;

use crate::rules::{MAX_HOUSES, MAX_SEEDS, MIN_HOUSES, MIN_SEEDS, PRESETS};
use crate::side::Side;

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
    #[error("unknown rules preset {0:?}: the presets are {presets}", presets = preset_names())]
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

/// Returns the names of the presets, as the message of [`RulesError::Preset`] lists them.
fn preset_names() -> String {
    PRESETS.iter().map(|(name, _)| *name).collect::<Vec<_>>().join(", ")
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

/// Why a position, read from text or given as a [`Setup`](crate::Setup), is refused.
///
/// ```
/// use kalah_rules::{ByPlayer, Position, PositionError, Rules, Setup, Side};
/// let rules = Rules::standard(3, 2).unwrap();
/// let mut setup = Setup::from(Position::start(&rules));
/// setup.houses.north.push(2);
/// assert_eq!(
///     Position::from_setup(setup, &rules),
///     Err(PositionError::Uneven { south: 3, north: 4 })
/// );
/// let err = "4,4:0/4,4:0/X".parse::<Position>().unwrap_err();
/// assert!(err.to_string().starts_with("cannot read position \"4,4:0/4,4:0/X\": the side to move is \"X\", not S or N"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    /// The text does not read as a position.
    #[error("cannot read position {text:?}: {problem}; write SOUTH_HOUSES:STORE/NORTH_HOUSES:STORE/SIDE, e.g. 4,4,4,4,4,4:0/4,4,4,4,4,4:0/S, or a KGP board <m,s_store,n_store,s_1..s_m,n_1..n_m>")]
    Syntax {
        /// The text given.
        text: String,
        /// What is wrong with it.
        problem: NotationError,
    },
    /// The two sides have different numbers of houses.
    #[error("South has {south} houses but North has {north}: both sides need the same number of houses")]
    Uneven {
        /// South's houses.
        south: usize,
        /// North's houses.
        north: usize,
    },
    /// The number of houses a side is outside the sizes of Kalah(m,n).
    #[error("the position has {found} houses a side; {MIN_HOUSES} to {MAX_HOUSES} are allowed")]
    HouseCount {
        /// Houses a side found.
        found: usize,
    },
    /// The number of houses a side differs from the rules' board.
    #[error(
        "the position has {found} houses a side but the rules are for Kalah({houses},{seeds}) with {houses} houses"
    )]
    WrongSize {
        /// Houses a side found.
        found: u8,
        /// The rules' houses a side.
        houses: u8,
        /// The rules' seeds a house.
        seeds: u8,
    },
    /// Too many seeds on the board, stores included.
    #[error("the position holds {total} seeds; at most {limit} are allowed")]
    TooManySeeds {
        /// The seeds found.
        total: u32,
        /// The most allowed.
        limit: u16,
    },
    /// A no-progress count under rules that do not count sowings without progress.
    #[error("the position has a no-progress count of {count}, but only clockwise sowing counts sowings without progress: leave out the /{count}")]
    NoProgressCount {
        /// The count given.
        count: u8,
    },
}

/// What is wrong with the text of a position (see [`crate::notation`]).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum NotationError {
    /// Not three (or four) fields separated by `/`.
    #[error("expected three fields separated by '/': South, North, side to move (and a no-progress count under clockwise sowing), found {found}")]
    Fields {
        /// The number of fields found.
        found: usize,
    },
    /// A side's field without the `:` before its store.
    #[error("{side}'s part {field:?} has no ':' before its store")]
    NoStore {
        /// Whose field.
        side: Side,
        /// The field given.
        field: String,
    },
    /// A number of seeds that does not read.
    #[error("{cell} is {text:?}, not a number of seeds (0 to {max})", max = u16::MAX)]
    Count {
        /// Which house, store or KGP field.
        cell: Cell,
        /// The text given.
        text: String,
    },
    /// The side to move is not `S` or `N`.
    #[error("the side to move is {0:?}, not S or N")]
    SideToMove(String),
    /// A no-progress count that is not a number from 0 to 255.
    #[error("the no-progress count {0:?} is not a number from 0 to 255")]
    NoProgress(String),
    /// A KGP board without its angle brackets.
    #[error("a KGP board starts with '<' and ends with '>'")]
    KgpBrackets,
    /// A KGP board whose first field, the number of houses, is out of range.
    #[error("a KGP board with {0:?} houses: m must be {MIN_HOUSES} to {MAX_HOUSES}")]
    KgpHouses(String),
    /// A KGP board with the wrong number of fields for its houses.
    #[error("a KGP board of {houses} houses has {expected} numbers, not {found}")]
    KgpLength {
        /// The houses a side the board names.
        houses: u8,
        /// The numbers it should have: 3 + 2m.
        expected: usize,
        /// The numbers found.
        found: usize,
    },
}

/// A place on the board named in a [`NotationError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// A side's house, numbered from 1.
    House {
        /// Whose house.
        side: Side,
        /// Its number, from 1.
        number: usize,
    },
    /// A side's store.
    Store(Side),
    /// A field of a KGP board, numbered from 1.
    KgpField(usize),
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cell::House { side, number } => write!(f, "{side}'s house {number}"),
            Cell::Store(side) => write!(f, "{side}'s store"),
            Cell::KgpField(number) => write!(f, "KGP field {number}"),
        }
    }
}
