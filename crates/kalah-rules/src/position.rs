//! Positions, moves, sowing and the end of the game.

use std::fmt;

use crate::error::PlayError;
use crate::rules::{Capture, Direction, GameEnd, Leftover, Rules, Sowing, MAX_HOUSES, NO_PROGRESS_LIMIT};
use crate::side::{ByPlayer, Side};

/// The number of cells of the largest board: 2 × 12 houses and 2 stores.
const CELLS: usize = 2 * MAX_HOUSES as usize + 2;

/// A sowing of one of the mover's houses.
///
/// Houses are numbered 1..m from the mover's house farthest from its own store, the convention of the
/// tournament protocols; inside, a move keeps the 0-based index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u8);

impl Move {
    /// Returns the move that sows house `number` (1-based), or `None` outside 1..=12.
    pub fn from_number(number: u32) -> Option<Move> {
        (1..=u32::from(MAX_HOUSES)).contains(&number).then(|| Move(number as u8 - 1))
    }

    /// Returns the move that sows the house with 0-based index `index`.
    ///
    /// # Panics
    /// Panics if `index` is 12 or more.
    #[inline]
    pub fn from_index(index: usize) -> Move {
        assert!(index < MAX_HOUSES as usize, "house index {index} out of range");
        Move(index as u8)
    }

    /// Returns the 1-based house number.
    #[inline]
    pub fn number(self) -> u8 {
        self.0 + 1
    }

    /// Returns the 0-based house index, counted from the mover's house farthest from its store.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

/// The set of legal moves of a position, as a bit set over the mover's houses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MoveSet(u16);

impl MoveSet {
    /// Returns the set of the houses whose bits (bit i: 0-based house i) are set.
    #[inline]
    pub(crate) fn from_bits(bits: u16) -> MoveSet {
        MoveSet(bits)
    }

    /// Returns the number of moves in the set.
    #[inline]
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Tells whether there is no move.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Tells whether `mv` is in the set.
    #[inline]
    pub fn contains(self, mv: Move) -> bool {
        self.0 & (1 << mv.0) != 0
    }
}

impl Iterator for MoveSet {
    type Item = Move;

    #[inline]
    fn next(&mut self) -> Option<Move> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Move(index))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }

    /// Skips `n` moves and returns the next, from a table on boards of up to 8 houses: a
    /// random playout picks its move this way, and a loop of random length would cost a
    /// mispredicted branch.
    #[inline]
    fn nth(&mut self, n: usize) -> Option<Move> {
        let index = match (SELECT.get(usize::from(self.0)), n) {
            (Some(row), 0..8) => row[n],
            _ => {
                let mut bits = self.0;
                for _ in 0..n.min(16) {
                    bits &= bits.wrapping_sub(1);
                }
                if bits == 0 {
                    NONE
                } else {
                    bits.trailing_zeros() as u8
                }
            }
        };
        if index == NONE {
            self.0 = 0;
            return None;
        }
        // The moves up to the one returned are taken.
        self.0 &= !((2u32 << index) - 1) as u16;
        Some(Move(index))
    }
}

/// No house: the entry of [`SELECT`] past the last move of a set.
const NONE: u8 = u8::MAX;

/// `SELECT[bits][k]`: the index of the `k`-th (0-based) set bit of `bits`, or [`NONE`].
const SELECT: [[u8; 8]; 256] = {
    let mut table = [[NONE; 8]; 256];
    let mut bits = 0;
    while bits < 256 {
        let (mut k, mut i) = (0, 0);
        while i < 8 {
            if bits & (1 << i) != 0 {
                table[bits][k] = i as u8;
                k += 1;
            }
            i += 1;
        }
        bits += 1;
    }
    table
};

impl ExactSizeIterator for MoveSet {}

/// What a sowing did, for announcing it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// The last seed landed in the mover's store: the mover moves again.
    pub extra_move: bool,
    /// Seeds put into the mover's store by a capture (the last seed included), 0 if none.
    pub captured: u16,
    /// Houses lifted by relay sowing after the first.
    pub relays: u16,
    /// The sowing ended the game.
    pub ended: bool,
}

/// One step of a sowing, seed by seed, for a page that animates it ([`Position::sow_path`]).
///
/// Cells are numbered counter-clockwise as the position notation reads: South's houses 1..m are
/// cells 0..m-1, South's store is cell m, North's houses 1..m are cells m+1..2m and North's store
/// is cell 2m+1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// Every seed of the cell goes into the hand: the house sown first, then each house a relay lifts.
    Lift(u8),
    /// One seed from the hand goes into the cell.
    Drop(u8),
    /// The last seed, in `house`, and the seeds of the house opposite go into the mover's store.
    Capture {
        /// The cell where the last seed fell.
        house: u8,
        /// The cell opposite it, on the other side.
        opposite: u8,
        /// The mover's store.
        store: u8,
    },
}

/// Hears the steps of a sowing. The sowing is written once, generic over this: the search's
/// [`NoSteps`] compiles every step away and lets whole laps be sown at once.
trait Steps {
    /// Whether the steps are heard; when not, a sowing may drop whole laps in one go.
    const HEARD: bool;
    /// Hears one step.
    fn step(&mut self, step: Step);
}

/// The listener of the fast path: hears nothing.
struct NoSteps;

impl Steps for NoSteps {
    const HEARD: bool = false;
    #[inline(always)]
    fn step(&mut self, _: Step) {}
}

impl Steps for Vec<Step> {
    const HEARD: bool = true;
    fn step(&mut self, step: Step) {
        self.push(step);
    }
}

/// A position: the seeds in every house and store, the player to move, and (under clockwise
/// sowing only) the count of sowings since a seed last reached a store.
///
/// Positions are small `Copy` values: a search copies one per move instead of undoing moves.
///
/// ```
/// use kalah_rules::{Move, Position, Rules, Side};
/// let rules = Rules::standard(6, 4).unwrap();
/// let start = Position::start(&rules);
/// assert_eq!(start.legal_moves().count(), 6);
/// // House 3 holds 4 seeds and ends in South's store: South moves again.
/// let (next, outcome) = start.play(&rules, Move::from_number(3).unwrap()).unwrap();
/// assert!(outcome.extra_move);
/// assert_eq!(next.mover(), Side::South);
/// assert_eq!(next.to_string(), "4,4,0,5,5,5:1/4,4,4,4,4,4:0/S");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// South's houses 0..m, South's store at m, North's houses m+1..=2m, North's store at 2m+1.
    cells: [u16; CELLS],
    /// Seeds in each side's houses, kept with the cells because searches ask for them at every node.
    sums: [u16; 2],
    houses: u8,
    mover: Side,
    quiet: u8,
}

impl Position {
    /// Returns the start position of the rules' Kalah(m,n), South to move.
    pub fn start(rules: &Rules) -> Position {
        let m = rules.houses() as usize;
        let mut cells = [0; CELLS];
        for side in Side::BOTH {
            let base = side.index() * (m + 1);
            cells[base..base + m].fill(u16::from(rules.seeds()));
        }
        Position { cells, sums: [0; 2], houses: rules.houses(), mover: Side::South, quiet: 0 }.summed()
    }

    /// Builds a position from each side's houses (numbered from the side's own house 1) and stores.
    ///
    /// The caller checks sizes; [`crate::notation`] is the checked way in from text.
    pub(crate) fn from_parts(houses: ByPlayer<&[u16]>, stores: ByPlayer<u16>, mover: Side, quiet: u8) -> Position {
        let m = houses.south.len();
        debug_assert_eq!(m, houses.north.len());
        let mut cells = [0; CELLS];
        for side in Side::BOTH {
            let base = side.index() * (m + 1);
            cells[base..base + m].copy_from_slice(houses[side]);
            cells[base + m] = stores[side];
        }
        Position { cells, sums: [0; 2], houses: m as u8, mover, quiet }.summed()
    }

    /// Returns the position with its per-side sums recounted from the cells.
    #[inline]
    fn summed(mut self) -> Position {
        let m = self.houses as usize;
        self.sums = [self.cells[..m].iter().sum(), self.cells[m + 1..2 * m + 1].iter().sum()];
        self
    }

    /// Returns the number of houses a side (m).
    #[inline]
    pub fn houses(&self) -> u8 {
        self.houses
    }

    /// Returns the player to move.
    #[inline]
    pub fn mover(&self) -> Side {
        self.mover
    }

    /// Returns the position with `side` to move and nothing else changed.
    pub fn with_mover(mut self, side: Side) -> Position {
        self.mover = side;
        self
    }

    /// Returns the number of sowings in a row that put no seed in a store (counted only under clockwise sowing).
    #[inline]
    pub fn quiet(&self) -> u8 {
        self.quiet
    }

    #[inline]
    fn base(&self, side: Side) -> usize {
        side.index() * (self.houses as usize + 1)
    }

    #[inline]
    fn store_cell(&self, side: Side) -> usize {
        self.base(side) + self.houses as usize
    }

    /// Returns the seeds in `side`'s house with 0-based `index` (counted from its farthest house).
    #[inline]
    pub fn house(&self, side: Side, index: usize) -> u16 {
        debug_assert!(index < self.houses as usize);
        self.cells[self.base(side) + index]
    }

    /// Returns `side`'s houses, from its house 1 to its house m.
    #[inline]
    pub fn row(&self, side: Side) -> &[u16] {
        let base = self.base(side);
        &self.cells[base..base + self.houses as usize]
    }

    /// Returns the seeds in `side`'s store.
    #[inline]
    pub fn store(&self, side: Side) -> u16 {
        self.cells[self.store_cell(side)]
    }

    /// Returns the seeds in `side`'s houses.
    #[inline]
    pub fn seeds_on(&self, side: Side) -> u16 {
        self.sums[side.index()]
    }

    /// Returns the seeds still in the houses of both sides.
    #[inline]
    pub fn seeds_in_houses(&self) -> u16 {
        self.seeds_on(Side::South) + self.seeds_on(Side::North)
    }

    /// Returns the seeds on the whole board, stores included.
    pub fn total_seeds(&self) -> u16 {
        self.cells[..2 * self.houses as usize + 2].iter().sum()
    }

    /// Returns South's store minus North's store.
    #[inline]
    pub fn store_difference(&self) -> i32 {
        i32::from(self.store(Side::South)) - i32::from(self.store(Side::North))
    }

    /// Returns the mover's legal moves: its non-empty houses (none once the game is over).
    #[inline]
    pub fn legal_moves(&self) -> MoveSet {
        let mut bits = 0u16;
        for (i, &seeds) in self.row(self.mover).iter().enumerate() {
            bits |= u16::from(seeds != 0) << i;
        }
        MoveSet(bits)
    }

    /// Tells whether the game is over under `rules`.
    ///
    /// Positions reached by [`Position::play`] are swept at the end, so then all houses are empty;
    /// this also recognises an end in a position set up by hand.
    #[inline]
    pub fn is_over(&self, rules: &Rules) -> bool {
        let mover = self.seeds_on(self.mover);
        if mover == 0 {
            return true;
        }
        (rules.end == GameEnd::EitherSideEmpty && self.seeds_on(self.mover.opponent()) == 0)
            || (rules.majority_ends && self.has_majority())
            || (rules.counts_no_progress() && self.quiet >= NO_PROGRESS_LIMIT)
    }

    fn has_majority(&self) -> bool {
        let total = self.total_seeds();
        Side::BOTH.iter().any(|&side| 2 * self.store(side) > total)
    }

    /// Returns the final stores of a finished game: the position with the leftover seeds dealt out.
    ///
    /// For a game that is not over this returns the stores as they are.
    pub fn final_stores(&self, rules: &Rules) -> ByPlayer<u16> {
        let mut settled = *self;
        if settled.is_over(rules) {
            settled.sweep(rules);
        }
        ByPlayer::new_with(|side| settled.store(side))
    }

    /// Returns the final store difference, South minus North, of a finished game.
    pub fn final_difference(&self, rules: &Rules) -> i32 {
        let stores = self.final_stores(rules);
        i32::from(stores.south) - i32::from(stores.north)
    }

    /// Plays `mv` after checking it, returning the new position and what the sowing did.
    ///
    /// On an illegal move the error says why; `self` is never changed.
    pub fn play(&self, rules: &Rules, mv: Move) -> Result<(Position, Outcome), PlayError> {
        self.check_move(rules, mv)?;
        let mut next = *self;
        let outcome = next.sow(rules, mv);
        Ok((next, outcome))
    }

    /// Returns why `mv` cannot be played here, if it cannot.
    fn check_move(&self, rules: &Rules, mv: Move) -> Result<(), PlayError> {
        if self.is_over(rules) {
            return Err(PlayError::GameOver);
        }
        if mv.index() >= self.houses as usize {
            return Err(PlayError::NoSuchHouse { house: mv.number().into(), houses: self.houses });
        }
        if self.house(self.mover, mv.index()) == 0 {
            return Err(PlayError::EmptyHouse { house: mv.number() });
        }
        Ok(())
    }

    /// Returns the sowing of `mv`, checked as [`Position::play`] checks it, seed by seed: the lift
    /// of the house, a drop for each seed, a lift for each relay, and the capture if there is one.
    ///
    /// The steps come from the very sowing that plays the move. The end of the game's sweep of the
    /// leftover seeds is not a step: the position after the move shows it.
    ///
    /// ```
    /// use kalah_rules::{Move, Position, Rules, Step};
    /// let rules = Rules::standard(2, 1).unwrap();
    /// let before: Position = "6,0:0/0,1:0/S".parse().unwrap();
    /// let path = before.sow_path(&rules, Move::from_number(1).unwrap()).unwrap();
    /// // Cells 0,1: South's houses; 2: South's store; 3,4: North's houses; 5: North's store, skipped.
    /// let drops = [1, 2, 3, 4, 0, 1].map(Step::Drop);
    /// assert_eq!(path[0], Step::Lift(0));
    /// assert_eq!(path[1..], drops);
    /// ```
    pub fn sow_path(&self, rules: &Rules, mv: Move) -> Result<Vec<Step>, PlayError> {
        self.check_move(rules, mv)?;
        let mut steps = Vec::new();
        let mut next = *self;
        next.sow_heard(rules, mv, &mut steps);
        Ok(steps)
    }

    /// Plays a legal move without checking it: the search's fast path.
    #[inline]
    pub fn play_unchecked(&self, rules: &Rules, mv: Move) -> Position {
        let mut next = *self;
        next.sow(rules, mv);
        next
    }

    /// Sows the mover's house `mv` in place: captures, extra moves, the end of the game and the sweep.
    #[inline]
    pub fn sow(&mut self, rules: &Rules, mv: Move) -> Outcome {
        self.sow_heard(rules, mv, &mut NoSteps)
    }

    /// Sows as [`Position::sow`] does, telling `steps` each seed's way.
    #[inline]
    fn sow_heard<S: Steps>(&mut self, rules: &Rules, mv: Move, steps: &mut S) -> Outcome {
        let m = self.houses as usize;
        let len = 2 * m + 2;
        let me = self.mover;
        let own_store = self.store_cell(me);
        let skip = self.store_cell(me.opponent());
        let own_base = self.base(me);
        let stores_before = self.store(Side::South) + self.store(Side::North);
        let clockwise = rules.direction == Direction::Clockwise;
        let first_move = !rules.first_move_extra && rules.is_first_move(self);
        let mut outcome = Outcome::default();

        let mut cursor = own_base + mv.index();
        let mut hand = self.cells[cursor];
        debug_assert!(hand > 0, "sowing an empty house");
        self.cells[cursor] = 0;
        steps.step(Step::Lift(cursor as u8));
        loop {
            // Whole laps first: every cell but the opponent's store gets one seed per lap (seed
            // by seed instead when the steps are heard).
            let ring = (len - 1) as u16;
            if !S::HEARD && hand > ring {
                let laps = (hand - 1) / ring;
                for (i, cell) in self.cells[..len].iter_mut().enumerate() {
                    if i != skip {
                        *cell += laps;
                    }
                }
                hand -= laps * ring;
            }
            while hand > 0 {
                cursor = if clockwise {
                    if cursor == 0 {
                        len - 1
                    } else {
                        cursor - 1
                    }
                } else if cursor + 1 == len {
                    0
                } else {
                    cursor + 1
                };
                if cursor == skip {
                    continue;
                }
                self.cells[cursor] += 1;
                hand -= 1;
                steps.step(Step::Drop(cursor as u8));
            }
            // Relay: a last seed in a house that held seeds lifts the house and sows on. Each lap
            // passes the mover's store and leaves a seed there, so a relay always ends.
            if rules.sowing == Sowing::Relay && cursor != own_store && self.cells[cursor] > 1 {
                hand = self.cells[cursor];
                self.cells[cursor] = 0;
                outcome.relays += 1;
                steps.step(Step::Lift(cursor as u8));
                continue;
            }
            break;
        }

        if cursor == own_store {
            // Under the MKAgent variant the first move passes the turn even from the store.
            outcome.extra_move = !first_move;
        } else if (own_base..own_base + m).contains(&cursor) && self.cells[cursor] == 1 {
            let opposite = 2 * m - cursor;
            let take = match rules.capture {
                Capture::Standard => self.cells[opposite] > 0,
                Capture::Empty => true,
                Capture::Never => false,
            };
            if take {
                steps.step(Step::Capture { house: cursor as u8, opposite: opposite as u8, store: own_store as u8 });
                outcome.captured = self.cells[opposite] + 1;
                self.cells[own_store] += outcome.captured;
                self.cells[opposite] = 0;
                self.cells[cursor] = 0;
            }
        }

        if rules.counts_no_progress() {
            let stores_after = self.store(Side::South) + self.store(Side::North);
            self.quiet = if stores_after == stores_before { self.quiet.saturating_add(1) } else { 0 };
        }
        self.mover = if outcome.extra_move { me } else { me.opponent() };
        *self = self.summed();
        if self.is_over(rules) {
            self.sweep(rules);
            outcome.ended = true;
        }
        outcome
    }

    /// Deals out the seeds left in the houses at the end of the game under the leftover rule.
    fn sweep(&mut self, rules: &Rules) {
        let left = ByPlayer::new_with(|side| self.seeds_on(side));
        let receiver = |side: Side| match rules.leftover {
            Leftover::Owner => Some(side),
            // The player whose houses are empty takes the rest; with seeds on both sides (an end
            // by majority or by no progress) nobody emptied a side, so each keeps their own.
            Leftover::Emptier if left.south == 0 => Some(Side::South),
            Leftover::Emptier if left.north == 0 => Some(Side::North),
            Leftover::Emptier => Some(side),
            Leftover::Discard => None,
        };
        for side in Side::BOTH {
            if let Some(to) = receiver(side) {
                let cell = self.store_cell(to);
                self.cells[cell] += left[side];
            }
            let base = self.base(side);
            self.cells[base..base + self.houses as usize].fill(0);
        }
        self.sums = [0; 2];
    }

    /// Returns a 64-bit key of the position (houses, stores, mover, no-progress count).
    pub fn key(&self) -> u64 {
        let stores = u64::from(self.store(Side::South)) | u64::from(self.store(Side::North)) << 16;
        mix(self.houses_key() ^ stores.wrapping_mul(0xD6E8_FEB8_6659_FD93))
    }

    /// Returns a 64-bit key of the houses, the mover and the no-progress count, but not the stores.
    ///
    /// The rest of a game does not depend on the stores (unless the game ends on a store majority),
    /// so searches key their tables on this and share results between positions that differ only there.
    #[inline]
    pub fn houses_key(&self) -> u64 {
        // Pack the houses exactly, 9 bits each (at most 288 seeds) and 7 to a word, then mix
        // the words: equal keys then come only from true 64-bit collisions.
        let mut h = mix(self.mover as u64 | u64::from(self.quiet) << 1 | u64::from(self.houses) << 9);
        let mut word = 0u64;
        let mut filled = 0;
        for side in Side::BOTH {
            for &c in self.row(side) {
                word = word << 9 | u64::from(c);
                filled += 1;
                if filled == 7 {
                    h = mix(h ^ word);
                    word = 0;
                    filled = 0;
                }
            }
        }
        mix(h ^ word ^ (filled << 60))
    }
}

/// Spreads the bits of a hash (the finaliser of SplitMix64).
#[inline]
fn mix(mut h: u64) -> u64 {
    h = (h ^ (h >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h = (h ^ (h >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    h ^ (h >> 31)
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(text: &str) -> Position {
        text.parse().unwrap()
    }

    #[test]
    fn the_nth_move_of_a_set_is_the_nth_of_its_iteration() {
        for bits in 0..1 << 12 {
            for n in 0..14 {
                let mut fast = MoveSet(bits);
                let mut slow = MoveSet(bits);
                let expected =
                    (0..n).find_map(|_| slow.next().is_none().then_some(None)).unwrap_or_else(|| slow.next());
                assert_eq!(fast.nth(n), expected, "bits {bits:b} n {n}");
                assert_eq!(fast, slow, "what is left of {bits:b} after {n}");
            }
        }
    }

    #[test]
    fn extra_move_when_the_last_seed_lands_in_the_store() {
        let rules = Rules::standard(6, 4).unwrap();
        let (next, outcome) = Position::start(&rules).play(&rules, Move::from_number(3).unwrap()).unwrap();
        assert!(outcome.extra_move);
        assert_eq!(next.mover(), Side::South);
    }

    #[test]
    fn the_mkagent_first_move_never_gives_an_extra_move() {
        // Kalah(7,7): house 1's 7 seeds reach houses 2..7 and the store.
        let house1 = Move::from_number(1).unwrap();
        let standard = Rules::standard(7, 7).unwrap();
        let (p, o) = Position::start(&standard).play(&standard, house1).unwrap();
        assert!(o.extra_move);
        assert_eq!(p.to_string(), "0,8,8,8,8,8,8:1/7,7,7,7,7,7,7:0/S");
        let rules = Rules::mkagent();
        let (p, o) = Position::start(&rules).play(&rules, house1).unwrap();
        assert!(!o.extra_move);
        assert_eq!(p.to_string(), "0,8,8,8,8,8,8:1/7,7,7,7,7,7,7:0/N");
        // Later moves into the store still give one: North's house 1 ends in North's store.
        let (q, o) = p.play(&rules, house1).unwrap();
        assert!(o.extra_move);
        assert_eq!(q.to_string(), "0,8,8,8,8,8,8:1/0,8,8,8,8,8,8:1/N");
    }

    #[test]
    fn perft_counts_the_first_move_variant() {
        // From the Kalah(7,7) start only house 1 ends in the store (7 seeds, 6 houses to go).
        // Standard: house 1 lets South move again with 6 houses left, the 6 others give North
        // its 7 houses: 6 + 6 × 7 = 48. Without the extra move North answers house 1 too: 7 × 7 = 49.
        let standard = Rules::standard(7, 7).unwrap();
        let rules = Rules::mkagent();
        assert_eq!(crate::perft(&Position::start(&standard), &standard, 1), 7);
        assert_eq!(crate::perft(&Position::start(&rules), &rules, 1), 7);
        assert_eq!(crate::perft(&Position::start(&standard), &standard, 2), 48);
        assert_eq!(crate::perft(&Position::start(&rules), &rules, 2), 49);
    }

    #[test]
    fn the_wikipedia_example_turn() {
        // North 0 2 1 2 3 5 (as drawn, left to right = North's houses 6..1), South 4 3 0 1 2 2.
        let rules = Rules::standard(6, 4).unwrap();
        let start = pos("4,3,0,1,2,2:0/5,3,2,1,2,0:0/S");
        let (a, o) = start.play(&rules, Move::from_number(5).unwrap()).unwrap();
        assert!(o.extra_move);
        assert_eq!(a.to_string(), "4,3,0,1,0,3:1/5,3,2,1,2,0:0/S");
        let (b, o) = a.play(&rules, Move::from_number(1).unwrap()).unwrap();
        assert_eq!(o.captured, 4, "the last seed and the 3 seeds opposite");
        assert_eq!(b.to_string(), "0,4,1,2,0,3:5/5,0,2,1,2,0:0/N");
    }

    #[test]
    fn standard_capture_needs_seeds_opposite_but_empty_capture_does_not() {
        let text = "1,0,0,0:0/1,1,0,1:0/S";
        let mut rules = Rules::standard(4, 1).unwrap();
        let (p, o) = pos(text).play(&rules, Move::from_number(1).unwrap()).unwrap();
        assert_eq!(o.captured, 0);
        assert_eq!(p.to_string(), "0,1,0,0:0/1,1,0,1:0/N");
        rules.capture = Capture::Empty;
        let (p, o) = pos(text).play(&rules, Move::from_number(1).unwrap()).unwrap();
        assert_eq!(o.captured, 1);
        assert_eq!(p.to_string(), "0,0,0,0:1/0,0,0,0:3/N", "South's side is empty: North keeps its 3 seeds");
        assert!(p.is_over(&rules));
    }

    #[test]
    fn sowing_skips_the_opponents_store_but_not_the_starting_house() {
        let rules = Rules::standard(2, 1).unwrap();
        // 5 seeds from South's house 1: house 2, store, North 1, North 2, (skip) house 1, which was
        // emptied, so the last seed captures North's house 2 opposite.
        let (p, o) = pos("5,0:0/0,1:0/S").play(&rules, Move::from_number(1).unwrap()).unwrap();
        assert_eq!(o.captured, 3);
        assert_eq!(p.to_string(), "0,1:4/1,0:0/N");
        // 10 seeds make two whole laps of the 5 cells: house 1 got a seed on the first lap, so no capture.
        let (p, o) = pos("10,0:0/0,1:0/S").play(&rules, Move::from_number(1).unwrap()).unwrap();
        assert_eq!(o.captured, 0);
        assert_eq!(p.to_string(), "2,2:2/2,3:0/N");
    }

    #[test]
    fn clockwise_sowing_goes_through_the_opponents_houses_before_the_store() {
        let mut rules = Rules::standard(3, 1).unwrap();
        rules.direction = Direction::Clockwise;
        // South's house 2 with 5 seeds: house 1, North 3, North 2, North 1, South's store.
        let (p, o) = pos("0,5,0:0/0,0,1:0/S").play(&rules, Move::from_number(2).unwrap()).unwrap();
        assert!(o.extra_move);
        assert_eq!(p.to_string(), "1,0,0:1/1,1,2:0/S");
    }

    #[test]
    fn relay_sowing_lifts_the_last_house_and_sows_on() {
        let rules = Rules::preset("seed-on", 3, 1).unwrap();
        // House 1 (1 seed) lands in house 2 (now 2): lift, sow house 3 and the store: extra move.
        let (p, o) = pos("1,1,0:0/1,1,1:0/S").play(&rules, Move::from_number(1).unwrap()).unwrap();
        assert_eq!(o.relays, 1);
        assert!(o.extra_move);
        assert_eq!(p.to_string(), "0,0,1:1/1,1,1:0/S");
    }

    #[test]
    fn the_game_ends_when_either_side_is_empty_and_leftovers_go_to_their_owner() {
        let rules = Rules::standard(2, 1).unwrap();
        let (p, o) = pos("0,1:3/2,0:0/S").play(&rules, Move::from_number(2).unwrap()).unwrap();
        assert!(o.ended);
        assert_eq!(p.to_string(), "0,0:4/0,0:2/S");
        assert_eq!(p.final_difference(&rules), 2);
    }

    #[test]
    fn mover_stuck_ends_only_when_the_player_to_move_is_empty() {
        let rules = Rules::preset("assignment", 2, 1).unwrap();
        // South empties its side but does not move next: North plays on.
        let (p, o) = pos("0,1:0/1,1:0/S").play(&rules, Move::from_number(2).unwrap()).unwrap();
        assert!(o.extra_move && o.ended, "South moves again with no seeds: the game is over");
        assert_eq!(p.final_difference(&rules), -1);
        let (p, o) = pos("0,2:0/1,1:0/S").play(&rules, Move::from_number(2).unwrap()).unwrap();
        assert!(!o.ended);
        assert_eq!(p.to_string(), "0,0:1/2,1:0/N");
        let standard = Rules::standard(2, 1).unwrap();
        let (_, o) = pos("0,2:0/1,1:0/S").play(&standard, Move::from_number(2).unwrap()).unwrap();
        assert!(o.ended, "under the standard rule an empty side ends the game at once");
    }

    #[test]
    fn leftover_variants() {
        let text = "0,1:3/2,0:0/S";
        let mut rules = Rules::standard(2, 1).unwrap();
        rules.leftover = Leftover::Emptier;
        let (p, _) = pos(text).play(&rules, Move::from_number(2).unwrap()).unwrap();
        assert_eq!(p.to_string(), "0,0:6/0,0:0/S", "South emptied its side and takes North's 2");
        rules.leftover = Leftover::Discard;
        let (p, _) = pos(text).play(&rules, Move::from_number(2).unwrap()).unwrap();
        assert_eq!(p.to_string(), "0,0:4/0,0:0/S");
    }

    #[test]
    fn illegal_moves_are_refused() {
        let rules = Rules::standard(4, 1).unwrap();
        let p = pos("1,0,0,0:0/1,1,1,0:0/S");
        assert_eq!(p.play(&rules, Move::from_number(2).unwrap()), Err(PlayError::EmptyHouse { house: 2 }));
        assert_eq!(p.play(&rules, Move::from_number(5).unwrap()), Err(PlayError::NoSuchHouse { house: 5, houses: 4 }));
        let over = pos("0,0,0,0:4/0,0,0,0:4/S");
        assert_eq!(over.play(&rules, Move::from_number(1).unwrap()), Err(PlayError::GameOver));
    }

    #[test]
    fn keys_tell_apart_every_small_position() {
        // Every board of 3 houses a side with up to 5 seeds a house, either side to move.
        let mut keys = std::collections::HashSet::new();
        let mut full = std::collections::HashSet::new();
        for code in 0..6u32.pow(6) {
            let digits: Vec<u32> = (0..6).map(|i| code / 6u32.pow(i) % 6).collect();
            for side in ["S", "N"] {
                let text = format!(
                    "{},{},{}:0/{},{},{}:1/{side}",
                    digits[0], digits[1], digits[2], digits[3], digits[4], digits[5]
                );
                let p = pos(&text);
                assert!(keys.insert(p.houses_key()), "{text}");
                assert!(full.insert(p.key()), "{text}");
            }
        }
        let with_stores = pos("1,2,3:4/5,6,7:8/S");
        assert_eq!(with_stores.houses_key(), pos("1,2,3:0/5,6,7:0/S").houses_key());
        assert_ne!(with_stores.key(), pos("1,2,3:0/5,6,7:0/S").key());
    }

    #[test]
    fn majority_ends_the_game() {
        let mut rules = Rules::standard(2, 2).unwrap();
        assert!(!pos("1,1:5/1,0:0/S").is_over(&rules));
        rules.majority_ends = true;
        assert!(pos("1,1:5/1,0:0/S").is_over(&rules));
        assert_eq!(pos("1,1:5/1,0:0/S").final_difference(&rules), 6);
    }
}
