//! A position packed into two machine words, with a sowing specialised for the common variants:
//! the fast path of random playouts.
//!
//! [`CompactPosition`] takes the rules whose sowing is one counter-clockwise lap (every capture
//! rule, game end, leftover rule, `majority_ends` and `first_move_extra`) on boards of at most 7
//! houses a side and 255 seeds. Each side is one `u64`, a byte a house and its store in byte m,
//! the mover's side first: a sowing adds a run of ones to each word instead of dropping seed by
//! seed, the legal moves and the seeds of a side come from a few word operations, and the turn
//! passes by swapping the words. It plays exactly the games of [`Position::sow`] (the crate's
//! tests compare them position by position); other rules and boards have no compact form.

use crate::position::{Move, MoveSet, Outcome, Position};
use crate::rules::{Capture, Direction, GameEnd, Leftover, Rules, Sowing};
use crate::side::{ByPlayer, Side};

/// The most houses a side of a compact position has: a side's houses and store fill one `u64`.
pub const MAX_COMPACT_HOUSES: u8 = 7;

/// The most seeds a compact position holds: every cell, and every sum of cells, fits in a byte.
pub const MAX_COMPACT_SEEDS: u16 = 255;

/// A one in every byte.
const ONES: u64 = 0x0101_0101_0101_0101;

/// `RUN[k]`: a one in each of bytes 0..k (k ≤ 8; the table is 16 long so that an index masked
/// to 0..16, as `run` masks it, needs no check; entries 9 to 15 are 0). The engine's byte board
/// sows with the same table.
pub const RUN: [u64; 16] = {
    let mut run = [0u64; 16];
    let mut k = 1;
    while k < 9 {
        run[k] = run[k - 1] | 1 << (8 * (k - 1));
        k += 1;
    }
    run
};

/// Returns a one in each of bytes 0..k, for k ≤ 8.
#[inline(always)]
fn run(k: usize) -> u64 {
    debug_assert!(k <= 8);
    RUN[k & 15]
}

/// Returns byte `i` of `word`.
#[inline(always)]
fn byte(word: u64, i: usize) -> u64 {
    (word >> (8 * i)) & 0xFF
}

/// A position of a counter-clockwise single-lap game in two words (see the module's text),
/// with its rules. A small `Copy` value that sows in place.
///
/// ```
/// use kalah_rules::{CompactPosition, Move, Position, Rules};
/// let rules = Rules::standard(6, 4).unwrap();
/// let start = Position::start(&rules);
/// let mut compact = CompactPosition::new(&start, &rules).unwrap();
/// let mut position = start;
/// let mv = Move::from_number(3).unwrap();
/// assert_eq!(compact.sow(mv), position.sow(&rules, mv));
/// assert_eq!(compact.to_position(), position);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CompactPosition {
    /// The mover's houses (bytes 0..m) and store (byte m).
    mine: u64,
    /// The other side's houses and store, laid out the same way.
    theirs: u64,
    /// Who moves: the owner of `mine`.
    mover: Side,
    /// Houses a side (m).
    houses: u8,
    /// The no-progress count, kept as it was: counter-clockwise sowing does not count it.
    quiet: u8,
    /// Seeds on the board, stores included: constant until the sweep.
    total: u16,
    rules: Rules,
}

impl CompactPosition {
    /// Packs `position`, or returns `None` where the rules or the board have no compact form:
    /// clockwise or relay sowing, more than [`MAX_COMPACT_HOUSES`] houses a side, more than
    /// [`MAX_COMPACT_SEEDS`] seeds, or a board of another size than the rules'.
    pub fn new(position: &Position, rules: &Rules) -> Option<CompactPosition> {
        let m = position.houses();
        let total = position.total_seeds();
        if rules.direction != Direction::CounterClockwise
            || rules.sowing != Sowing::Single
            || m > MAX_COMPACT_HOUSES
            || m != rules.houses()
            || total > MAX_COMPACT_SEEDS
        {
            return None;
        }
        let pack = |side: Side| {
            let cells = position.row(side).iter().copied().chain([position.store(side)]);
            cells.enumerate().fold(0u64, |word, (i, seeds)| word | u64::from(seeds) << (8 * i))
        };
        let mover = position.mover();
        Some(CompactPosition {
            mine: pack(mover),
            theirs: pack(mover.opponent()),
            mover,
            houses: m,
            quiet: position.quiet(),
            total,
            rules: *rules,
        })
    }

    /// Returns the position as the rules crate's [`Position`].
    pub fn to_position(&self) -> Position {
        let m = usize::from(self.houses);
        let unpack = |word: u64| -> [u16; 8] { std::array::from_fn(|i| byte(word, i) as u16) };
        let (south, north) = match self.mover {
            Side::South => (unpack(self.mine), unpack(self.theirs)),
            Side::North => (unpack(self.theirs), unpack(self.mine)),
        };
        Position::from_parts(
            ByPlayer { south: &south[..m], north: &north[..m] },
            ByPlayer { south: south[m], north: north[m] },
            self.mover,
            self.quiet,
        )
    }

    /// Returns the player to move.
    #[inline]
    pub fn mover(&self) -> Side {
        self.mover
    }

    /// The bytes of a word that are houses.
    #[inline(always)]
    fn house_mask(&self) -> u64 {
        (1u64 << (8 * u32::from(self.houses))) - 1
    }

    /// Returns the seeds in the houses of `word`'s side.
    #[inline(always)]
    fn seeds_of(&self, word: u64) -> u64 {
        // The product's top byte is the sum of the bytes: no sum exceeds 255, so nothing carries.
        (word & self.house_mask()).wrapping_mul(ONES) >> 56
    }

    /// Returns the seeds in the store of `word`'s side.
    #[inline(always)]
    fn store_of(&self, word: u64) -> u64 {
        byte(word, usize::from(self.houses))
    }

    /// Returns the mover's legal moves: its non-empty houses (none once the game is over).
    #[inline]
    pub fn legal_moves(&self) -> MoveSet {
        const LOW: u64 = 0x7F7F_7F7F_7F7F_7F7F;
        let houses = self.mine & self.house_mask();
        // The top bit of each byte: set where the byte is not zero.
        let nonzero = ((houses & LOW).wrapping_add(LOW) | houses) & !LOW;
        // Gathers bit 8k + 7 into bit 56 + k: the shifts 56 - 7k never meet.
        let bits = (nonzero >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56;
        MoveSet::from_bits(bits as u16)
    }

    /// Tells whether the game is over, as [`Position::is_over`] does.
    #[inline]
    pub fn is_over(&self) -> bool {
        let mask = self.house_mask();
        let total = u64::from(self.total);
        self.mine & mask == 0
            || (self.rules.end == GameEnd::EitherSideEmpty && self.theirs & mask == 0)
            || (self.rules.majority_ends
                && (2 * self.store_of(self.mine) > total || 2 * self.store_of(self.theirs) > total))
    }

    /// Tells whether a sowing from `(mine, theirs)`, the words before it, is the first move of
    /// the game (see [`Rules::is_first_move`]).
    #[cold]
    fn is_first_move(&self, (mine, theirs): (u64, u64)) -> bool {
        let start = run(usize::from(self.houses)) * u64::from(self.rules.seeds());
        let mask = self.house_mask();
        self.mover == Side::South && self.quiet == 0 && mine & mask == start && theirs & mask == start
    }

    /// Plays the game to its end, each move chosen by `choose` from the legal moves it is given
    /// (it must return one of them), and returns the final store difference, South minus North.
    ///
    /// One loop with the position in registers: the random playouts' fast path.
    #[inline]
    pub fn play_out(mut self, mut choose: impl FnMut(MoveSet) -> Move) -> i32 {
        if !self.is_over() {
            while !self.sow(choose(self.legal_moves())).ended {}
        }
        self.final_difference()
    }

    /// Sows the mover's house `mv` in place, exactly as [`Position::sow`] does: captures, extra
    /// moves, the end of the game and the sweep. `mv` must be a legal move.
    #[inline(always)]
    pub fn sow(&mut self, mv: Move) -> Outcome {
        let m = usize::from(self.houses);
        let ring = 2 * m + 1;
        let from = mv.index();
        let before = (self.mine, self.theirs);
        let mut hand = byte(self.mine, from) as usize;
        debug_assert!(from < m && hand > 0, "sowing an empty house");
        self.mine &= !(0xFF << (8 * from));
        if hand > ring {
            // Whole laps first: every cell but the other's store gets one seed per lap.
            let laps = (hand - 1) / ring;
            self.mine += run(m + 1) * laps as u64;
            self.theirs += run(m) * laps as u64;
            hand -= laps * ring;
        }
        // The seeds fall on cells from + 1 ..= last of the ring: the mover's houses and store
        // (0..=m), the other's houses (m+1..=2m), and past them the mover's houses again.
        let last = from + hand;
        self.mine += run(last.min(m) + 1) - run(from + 1);
        self.theirs += run(last.saturating_sub(m).min(m));
        self.mine += run(last.saturating_sub(2 * m));

        // Where the last seed fell decides the rest; random games make that a coin toss for
        // the branch predictor, so the capture and the turn are computed without branches.
        let house = if last > 2 * m { last - ring } else { last };
        let in_house = house < m;
        // Masked to 0..8 so that the shifts stay in range where the seed fell elsewhere.
        let (house, opposite) = (house & 7, m.wrapping_sub(1).wrapping_sub(house) & 7);
        let across = byte(self.theirs, opposite);
        let by_rule = match self.rules.capture {
            Capture::Standard => across > 0,
            Capture::Empty => true,
            Capture::Never => false,
        };
        let take = in_house & (byte(self.mine, house) == 1) & by_rule;
        let all = u64::from(take).wrapping_neg();
        let captured = (across + 1) & all;
        self.mine = self.mine - ((1 << (8 * house)) & all) + (captured << (8 * m));
        self.theirs &= !((0xFF << (8 * opposite)) & all);
        // Under the MKAgent variant the first move passes the turn even from the store.
        let extra_move = (last == m) & (self.rules.first_move_extra || !self.is_first_move(before));
        let outcome = Outcome { extra_move, captured: captured as u16, relays: 0, ended: false };
        let swap = (self.mine ^ self.theirs) & u64::from(!extra_move).wrapping_neg();
        self.mine ^= swap;
        self.theirs ^= swap;
        self.mover = if extra_move { self.mover } else { self.mover.opponent() };
        if self.is_over() {
            self.sweep();
            return Outcome { ended: true, ..outcome };
        }
        outcome
    }

    /// Deals out the seeds left in the houses under the leftover rule, as [`Position`]'s sweep does.
    fn sweep(&mut self) {
        let (mine, theirs) = (self.seeds_of(self.mine), self.seeds_of(self.theirs));
        let m = 8 * u32::from(self.houses);
        let (to_mine, to_theirs) = match self.rules.leftover {
            Leftover::Owner => (mine, theirs),
            // The player whose houses are empty takes the rest; with seeds on both sides each
            // keeps their own.
            Leftover::Emptier if mine == 0 => (theirs, 0),
            Leftover::Emptier if theirs == 0 => (0, mine),
            Leftover::Emptier => (mine, theirs),
            Leftover::Discard => (0, 0),
        };
        let mask = self.house_mask();
        self.mine = (self.mine & !mask) + (to_mine << m);
        self.theirs = (self.theirs & !mask) + (to_theirs << m);
    }

    /// Returns the final store difference, South minus North, of a finished game (with the
    /// leftover seeds dealt out), or the store difference of a game that is not over.
    pub fn final_difference(&self) -> i32 {
        let mut settled = *self;
        if settled.is_over() {
            settled.sweep();
        }
        let difference = settled.store_of(settled.mine) as i32 - settled.store_of(settled.theirs) as i32;
        difference * self.mover.sign()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// Plays random games with both sowings side by side and compares every position and outcome.
    fn compare(rules: &Rules, start: Position, games: u64) {
        let mut rng = rand::rngs::StdRng::seed_from_u64(u64::from(rules.houses()) << 8 | u64::from(rules.seeds()));
        for _ in 0..games {
            let mut position = start;
            let mut compact = CompactPosition::new(&position, rules).expect("a compact form");
            loop {
                assert_eq!(compact.to_position(), position, "{rules}");
                assert_eq!(compact.is_over(), position.is_over(rules), "{rules} {position}");
                assert_eq!(compact.final_difference(), position.final_difference(rules), "{rules} {position}");
                if position.is_over(rules) {
                    break;
                }
                assert_eq!(compact.legal_moves(), position.legal_moves(), "{rules} {position}");
                let moves = position.legal_moves();
                let mv = moves.into_iter().nth(rng.gen_range(0..moves.len())).unwrap();
                let before = position;
                assert_eq!(compact.sow(mv), position.sow(rules, mv), "{rules} {before} house {mv}");
            }
        }
    }

    #[test]
    fn every_compact_variant_plays_the_games_of_the_rules() {
        let mut compared = 0;
        for (m, n) in [(1, 1), (2, 5), (3, 3), (4, 4), (5, 2), (6, 4), (6, 6), (7, 7), (7, 9)] {
            for rules in Rules::variants(m, n).unwrap() {
                let compact = CompactPosition::new(&Position::start(&rules), &rules);
                let expected = rules.direction == Direction::CounterClockwise && rules.sowing == Sowing::Single;
                assert_eq!(compact.is_some(), expected, "{rules}");
                if expected {
                    compare(&rules, Position::start(&rules), 40);
                    compared += 1;
                }
            }
        }
        assert_eq!(compared, 9 * 72, "every capture, end, leftover, majority and first-move rule");
    }

    #[test]
    fn set_up_positions_with_long_laps_play_the_games_of_the_rules() {
        // Houses that hold more than a lap, seeds in the stores, North to move, an end already reached.
        for text in
            ["30,0,1:2/0,0,0:0/N", "0,0,0:4/17,0,2:1/S", "40,3:0/0,0:9/S", "1,0,20,0,3,0,0:100/2,0,0,0,0,0,60:40/N"]
        {
            let position: Position = text.parse().unwrap();
            for rules in Rules::variants(position.houses(), 3).unwrap() {
                if CompactPosition::new(&position, &rules).is_some() {
                    compare(&rules, position, 20);
                }
            }
        }
    }

    #[test]
    fn boards_without_a_compact_form_are_refused() {
        let big = Rules::standard(8, 4).unwrap();
        assert!(CompactPosition::new(&Position::start(&big), &big).is_none());
        let many = Rules::standard(7, 12).unwrap(); // 168 seeds fit
        assert!(CompactPosition::new(&Position::start(&many), &many).is_some());
        let over: Position = "200,0:30/30,0:0/S".parse().unwrap();
        assert!(CompactPosition::new(&over, &Rules::standard(2, 1).unwrap()).is_none(), "260 seeds");
        let six = Rules::standard(6, 4).unwrap();
        assert!(CompactPosition::new(&Position::start(&Rules::standard(5, 4).unwrap()), &six).is_none());
    }
}
