//! An unchecked position ([`Setup`]) and the checks that turn it into a [`Position`].
//!
//! Every way into a position from outside goes through here: the position notation and the KGP
//! board literals ([`crate::notation`]) read text into a `Setup`, and [`Position::from_setup`]
//! checks it against the rules. The way back is [`Setup::from`] a position.

use crate::error::PositionError;
use crate::notation::MAX_SOWABLE_SEEDS;
use crate::position::Position;
use crate::rules::{Rules, MAX_HOUSES, MAX_TOTAL_SEEDS, MIN_HOUSES};
use crate::side::{ByPlayer, Side};

/// A position as given, not yet checked: each side's houses and store, the side to move, and the
/// no-progress count.
///
/// Any values fit in a `Setup`; [`Position::from_setup`] says what is wrong with them.
///
/// ```
/// use kalah_rules::{ByPlayer, Position, PositionError, Rules, Setup, Side};
/// let rules = Rules::standard(3, 2).unwrap();
/// let setup = Setup {
///     houses: ByPlayer { south: vec![0, 2, 3], north: vec![2, 2, 1] },
///     stores: ByPlayer { south: 1, north: 1 },
///     mover: Side::North,
///     quiet: 0,
/// };
/// let position = Position::from_setup(setup.clone(), &rules).unwrap();
/// assert_eq!(position.to_string(), "0,2,3:1/2,2,1:1/N");
/// assert_eq!(Setup::from(position), setup);
///
/// let big = Rules::standard(4, 2).unwrap();
/// assert_eq!(
///     Position::from_setup(setup, &big),
///     Err(PositionError::WrongSize { found: 3, houses: 4, seeds: 2 })
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// Each side's houses, from its own house 1 (the one farthest from its store) to house m.
    pub houses: ByPlayer<Vec<u16>>,
    /// Each side's store.
    pub stores: ByPlayer<u16>,
    /// The player to move.
    pub mover: Side,
    /// Sowings in a row that put no seed in a store; only clockwise sowing counts them.
    pub quiet: u8,
}

impl Setup {
    /// Returns the seeds on the board, stores included, without any limit.
    pub fn total_seeds(&self) -> u32 {
        Side::BOTH
            .iter()
            .map(|&side| self.houses[side].iter().map(|&n| u32::from(n)).sum::<u32>() + u32::from(self.stores[side]))
            .sum()
    }

    /// Checks the board's shape and seed total (at most `limit`), not the rules, and builds the position.
    pub(crate) fn check(&self, limit: u16) -> Result<Position, PositionError> {
        let (south, north) = (self.houses.south.len(), self.houses.north.len());
        if south != north {
            return Err(PositionError::Uneven { south, north });
        }
        if !(usize::from(MIN_HOUSES)..=usize::from(MAX_HOUSES)).contains(&south) {
            return Err(PositionError::HouseCount { found: south });
        }
        let total = self.total_seeds();
        if total > u32::from(limit) {
            return Err(PositionError::TooManySeeds { total, limit });
        }
        let houses = ByPlayer { south: self.houses.south.as_slice(), north: self.houses.north.as_slice() };
        Ok(Position::from_parts(houses, self.stores, self.mover, self.quiet))
    }
}

impl From<Position> for Setup {
    /// Returns the setup of a position: the way back from [`Position::from_setup`].
    fn from(position: Position) -> Setup {
        Setup {
            houses: ByPlayer::new_with(|side| position.row(side).to_vec()),
            stores: ByPlayer::new_with(|side| position.store(side)),
            mover: position.mover(),
            quiet: position.quiet(),
        }
    }
}

impl Position {
    /// Checks a setup against `rules` and returns the position.
    ///
    /// Refused are: sides of different lengths, a number of houses other than the rules', more
    /// than [`MAX_TOTAL_SEEDS`] seeds in all, and a no-progress count under rules that do not
    /// count one (only clockwise sowing does). The seed total is not required to be 2mn: problems
    /// and endgames may hold fewer seeds.
    ///
    /// ```
    /// use kalah_rules::{ByPlayer, Position, PositionError, Rules, Setup, Side};
    /// let rules = Rules::standard(2, 1).unwrap();
    /// let setup = |south: Vec<u16>, stores: u16| Setup {
    ///     houses: ByPlayer { south, north: vec![1, 1] },
    ///     stores: ByPlayer { south: stores, north: 0 },
    ///     mover: Side::South,
    ///     quiet: 0,
    /// };
    /// assert!(Position::from_setup(setup(vec![1, 1], 0), &rules).is_ok());
    /// assert_eq!(
    ///     Position::from_setup(setup(vec![1, 1], 300), &rules),
    ///     Err(PositionError::TooManySeeds { total: 304, limit: 288 })
    /// );
    /// let mut counted = setup(vec![1, 1], 0);
    /// counted.quiet = 3;
    /// assert_eq!(Position::from_setup(counted, &rules), Err(PositionError::NoProgressCount { count: 3 }));
    /// ```
    pub fn from_setup(setup: Setup, rules: &Rules) -> Result<Position, PositionError> {
        let found = setup.houses.south.len();
        if found == setup.houses.north.len() && found != usize::from(rules.houses()) {
            return Err(match u8::try_from(found) {
                Ok(found) if (MIN_HOUSES..=MAX_HOUSES).contains(&found) => {
                    PositionError::WrongSize { found, houses: rules.houses(), seeds: rules.seeds() }
                }
                _ => PositionError::HouseCount { found },
            });
        }
        let position = setup.check(MAX_TOTAL_SEEDS)?;
        if setup.quiet > 0 && !rules.counts_no_progress() {
            return Err(PositionError::NoProgressCount { count: setup.quiet });
        }
        Ok(position)
    }

    /// Checks a setup's shape but lets its seed total exceed [`MAX_TOTAL_SEEDS`], up to
    /// [`MAX_SOWABLE_SEEDS`]; see [`Position::parse_kgp_any_total`] for what such a position is for.
    pub fn from_setup_any_total(setup: Setup) -> Result<Position, PositionError> {
        setup.check(MAX_SOWABLE_SEEDS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(south: &[u16], north: &[u16]) -> Setup {
        Setup {
            houses: ByPlayer { south: south.to_vec(), north: north.to_vec() },
            stores: ByPlayer::default(),
            mover: Side::South,
            quiet: 0,
        }
    }

    #[test]
    fn every_reason_is_its_own_variant() {
        let rules = Rules::standard(2, 2).unwrap();
        let cases = [
            (setup(&[1, 1], &[1]), PositionError::Uneven { south: 2, north: 1 }),
            (setup(&[], &[]), PositionError::HouseCount { found: 0 }),
            (setup(&[1; 13], &[1; 13]), PositionError::HouseCount { found: 13 }),
            (setup(&[1; 3], &[1; 3]), PositionError::WrongSize { found: 3, houses: 2, seeds: 2 }),
            (setup(&[200, 0], &[0, 89]), PositionError::TooManySeeds { total: 289, limit: MAX_TOTAL_SEEDS }),
            (setup(&[u16::MAX, u16::MAX], &[1, 1]), PositionError::TooManySeeds { total: 131_072, limit: 288 }),
        ];
        for (given, expected) in cases {
            assert_eq!(Position::from_setup(given.clone(), &rules), Err(expected.clone()), "{given:?}");
            let message = expected.to_string();
            assert!(!message.contains('\n'), "{message}");
        }
        let mut clockwise = rules;
        clockwise.direction = crate::Direction::Clockwise;
        let mut counted = setup(&[1, 1], &[1, 1]);
        counted.quiet = 7;
        assert_eq!(Position::from_setup(counted.clone(), &rules), Err(PositionError::NoProgressCount { count: 7 }));
        assert_eq!(Position::from_setup(counted, &clockwise).unwrap().to_string(), "1,1:0/1,1:0/S/7");
    }

    #[test]
    fn a_setup_round_trips_through_a_position() {
        let rules = Rules::preset("clockwise", 3, 4).unwrap();
        let mut position = Position::start(&rules);
        for number in [2, 1, 3] {
            let mv = crate::Move::from_number(number).unwrap();
            if position.legal_moves().contains(mv) {
                position = position.play_unchecked(&rules, mv);
            }
        }
        assert_eq!(Position::from_setup(Setup::from(position), &rules), Ok(position));
    }

    #[test]
    fn the_any_total_check_takes_the_larger_limit() {
        let big = setup(&[1000, 1000], &[1000, 1000]);
        assert_eq!(Position::from_setup_any_total(big.clone()).unwrap().total_seeds(), 4000);
        assert!(Position::from_setup(big, &Rules::standard(2, 2).unwrap()).is_err());
        let over = setup(&[4000, 0], &[0, 97]);
        assert_eq!(
            Position::from_setup_any_total(over),
            Err(PositionError::TooManySeeds { total: 4097, limit: MAX_SOWABLE_SEEDS })
        );
    }
}
