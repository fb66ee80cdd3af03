//! Sowing on the houses alone, as bytes, with the mover's side first: the database build's and
//! the engine's proof search's one byte-level sowing.
//!
//! A build sows every move of hundreds of millions of positions, and most nodes of a proof are
//! small positions near the end where a node costs little more than its sowings. The rules
//! crate's `Position` carries what neither needs (stores, side sums kept up to date, the
//! no-progress count, the first-move rule, wider cells); the same sowing on a bare array of
//! bytes makes a build take about half the CPU time. A property test (and the fuzz target
//! `egdb_sowing`) checks it against `Position::play_unchecked` under every supported rule, so
//! the two cannot drift, and the database tests check the values against a search that uses
//! `Position`.

use kalah_rules::{Capture, GameEnd, Leftover, Rules, Sowing};

use crate::EgdbError;
use kalah_rules::rules::MAX_HOUSES;

/// Cells of the largest board in sowing order: 12 houses, the mover's store, 12 houses.
pub const CELLS: usize = 2 * MAX_HOUSES as usize + 1;

/// The houses of a database position in sowing order: the mover's houses at 0..m, the mover's
/// store at m (empty between moves), the opponent's houses at m + 1..=2m.
pub type Board = [u8; CELLS];

/// The store-independent rules a [`Board`] is sown under: everything the value of the rest of a
/// game depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    /// Houses a side.
    pub(crate) houses: u8,
    pub(crate) capture: Capture,
    pub(crate) end: GameEnd,
    pub(crate) leftover: Leftover,
    pub(crate) sowing: Sowing,
}

/// What a move leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The game ended: the mover's gain from the position before the move to the end.
    Over(i32),
    /// The game goes on; the board now holds the child with its mover's side first.
    Next {
        /// Seeds the move put into the mover's store.
        gain: i32,
        /// The mover moves again (else the opponent is the child's mover).
        again: bool,
        /// Seeds left in the houses: the child's layer.
        seeds: u32,
    },
}

impl Variant {
    /// Returns the variant of `rules`, or why a byte board cannot play them (clockwise sowing,
    /// whose no-progress count is part of a position; an end on a store majority).
    pub fn of(rules: &Rules) -> Result<Variant, EgdbError> {
        let why = if rules.direction != kalah_rules::Direction::CounterClockwise {
            Some("clockwise sowing counts sowings without progress, so a position's value depends on more than its houses")
        } else if rules.majority_ends {
            Some("majority-ends makes the end of the game depend on the stores")
        } else {
            None
        };
        if let Some(why) = why {
            return Err(EgdbError::Unsupported { rules: *rules, why });
        }
        Ok(Variant {
            houses: rules.houses(),
            capture: rules.capture,
            end: rules.end,
            leftover: rules.leftover,
            sowing: rules.sowing,
        })
    }

    /// Returns the mover's gain when the game is over with `mine` and `theirs` seeds left on the
    /// mover's and the opponent's side, under the leftover rule (the proof search's byte board
    /// ends its games with it too).
    #[inline]
    pub fn sweep(&self, mine: u32, theirs: u32) -> i32 {
        let (mine, theirs) = (mine as i32, theirs as i32);
        match self.leftover {
            Leftover::Owner => mine - theirs,
            Leftover::Emptier if mine == 0 => theirs,
            Leftover::Emptier if theirs == 0 => -mine,
            Leftover::Emptier => mine - theirs,
            Leftover::Discard => 0,
        }
    }

    /// Returns the mover's gain to the end if the game is already over at `board`, else `None`.
    #[inline]
    pub fn settled(&self, board: &Board) -> Option<i32> {
        let m = self.houses as usize;
        let mine: u32 = board[..m].iter().map(|&c| u32::from(c)).sum();
        let theirs: u32 = board[m + 1..2 * m + 1].iter().map(|&c| u32::from(c)).sum();
        self.over(mine, theirs).then(|| self.sweep(mine, theirs))
    }

    /// Tells whether the game is over with `to_move` seeds on the side of the player to move and
    /// `other` on the other side.
    #[inline]
    fn over(&self, to_move: u32, other: u32) -> bool {
        to_move == 0 || (self.end == GameEnd::EitherSideEmpty && other == 0)
    }

    /// Returns the number of houses a side.
    #[inline]
    pub fn houses(&self) -> usize {
        usize::from(self.houses)
    }

    /// Sows the mover's house `house` (0-based, non-empty) of `board` in place and says what
    /// followed. When the game ends the board is left as the sowing left it (no longer a position).
    #[inline]
    pub fn play(&self, board: &mut Board, house: usize) -> Step {
        let m = self.houses as usize;
        let len = 2 * m + 1;
        let store = m;
        let mut cursor = house;
        let mut hand = board[house];
        debug_assert!(hand > 0, "sowing an empty house");
        board[house] = 0;
        loop {
            // Whole laps first: every cell of the ring gets one seed a lap.
            if usize::from(hand) > len {
                let laps = (hand - 1) / len as u8;
                for cell in &mut board[..len] {
                    *cell += laps;
                }
                hand -= laps * len as u8;
            }
            while hand > 0 {
                cursor += 1;
                if cursor == len {
                    cursor = 0;
                }
                board[cursor] += 1;
                hand -= 1;
            }
            // Relay: every lap passes the store, so this ends.
            if self.sowing == Sowing::Relay && cursor != store && board[cursor] > 1 {
                hand = board[cursor];
                board[cursor] = 0;
                continue;
            }
            break;
        }
        let again = cursor == store;
        if cursor < m && board[cursor] == 1 {
            let opposite = 2 * m - cursor;
            let take = match self.capture {
                Capture::Standard => board[opposite] > 0,
                Capture::Empty => true,
                Capture::Never => false,
            };
            if take {
                board[store] += board[opposite] + 1;
                board[opposite] = 0;
                board[cursor] = 0;
            }
        }
        let gain = i32::from(board[store]);
        board[store] = 0;
        // The cells after the opponent's houses are empty, so the opponent holds the rest.
        let mine = row_seeds(board, m);
        let theirs = board_seeds(board) - mine;
        let over = if again { self.over(mine, theirs) } else { self.over(theirs, mine) };
        if over {
            return Step::Over(gain + self.sweep(mine, theirs));
        }
        if !again {
            let (own, rest) = board.split_at_mut(m);
            own.swap_with_slice(&mut rest[1..m + 1]);
        }
        Step::Next { gain, again, seeds: mine + theirs }
    }
}

// The sums below read the cells as three words and a byte.
const _: () = assert!(CELLS == 25);

/// Reads the 8 cells from `at` (at most 17) as a word, the first cell in the lowest byte.
#[inline]
pub fn word(board: &Board, at: usize) -> u64 {
    let mut bytes = [0; 8];
    bytes.copy_from_slice(&board[at..at + 8]);
    u64::from_le_bytes(bytes)
}

/// Returns the sum of the 8 bytes of `w`: adjacent bytes are added into 16-bit lanes, which a
/// multiplication then adds up without a carry between lanes (each sum is at most 2,040).
#[inline]
fn byte_sum(w: u64) -> u32 {
    const EVEN: u64 = 0x00FF_00FF_00FF_00FF;
    let pairs = (w & EVEN) + ((w >> 8) & EVEN);
    (pairs.wrapping_mul(0x0001_0001_0001_0001) >> 48) as u32
}

/// Returns the word of the first `n` (at most 8) bytes of `w`.
#[inline]
fn first_bytes(w: u64, n: usize) -> u64 {
    if n >= 8 {
        w
    } else {
        w & ((1 << (8 * n)) - 1)
    }
}

/// Returns the seeds in the first `m` cells: the mover's houses. A sum a word at a time: the
/// sowing counts both sides after every move, and a byte at a time that was a sixth of a proof's time.
#[inline]
pub fn row_seeds(board: &Board, m: usize) -> u32 {
    if m <= 8 {
        byte_sum(first_bytes(word(board, 0), m))
    } else {
        byte_sum(word(board, 0)) + byte_sum(first_bytes(word(board, 8), m - 8))
    }
}

/// Returns the seeds in every cell of `board`.
#[inline]
pub fn board_seeds(board: &Board) -> u32 {
    byte_sum(word(board, 0)) + byte_sum(word(board, 8)) + byte_sum(word(board, 16)) + u32::from(board[24])
}

/// Returns how many of the first `m` cells (the mover's houses) hold seeds: the moves.
#[inline]
pub fn row_moves(board: &Board, m: usize) -> u32 {
    // A byte's high bit, after adding 0x7F to its low seven bits and or-ing in the byte, is set
    // exactly when the byte is not zero.
    let nonzero = |w: u64| {
        const LOW: u64 = 0x7F7F_7F7F_7F7F_7F7F;
        ((((w & LOW) + LOW) | w) & !LOW).count_ones()
    };
    if m <= 8 {
        nonzero(first_bytes(word(board, 0), m))
    } else {
        nonzero(word(board, 0)) + nonzero(first_bytes(word(board, 8), m - 8))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_rules::{Position, Side};
    use proptest::prelude::*;

    proptest! {
        /// The word-at-a-time counts agree with counting a cell at a time, on any bytes.
        #[test]
        fn counts_a_word_at_a_time_agree_with_a_cell_at_a_time(cells in prop::array::uniform25(any::<u8>()), m in 1usize..=12) {
            let total: u32 = cells.iter().map(|&c| u32::from(c)).sum();
            prop_assert_eq!(board_seeds(&cells), total);
            prop_assert_eq!(row_seeds(&cells, m), cells[..m].iter().map(|&c| u32::from(c)).sum::<u32>());
            prop_assert_eq!(row_moves(&cells, m), cells[..m].iter().filter(|&&c| c != 0).count() as u32);
        }
    }

    /// Mover's store minus the opponent's.
    fn own_difference(p: &Position, mover: Side) -> i32 {
        i32::from(p.store(mover)) - i32::from(p.store(!mover))
    }

    /// A random position under random rules a database supports: 1 to 12 houses a side, 0 to 7
    /// seeds a house, a few in the stores (the database's sowing must not depend on them), either
    /// side to move; one in eight is the start layout of the rules' Kalah(m,n), South to move.
    fn any_case() -> impl Strategy<Value = (Rules, Position)> {
        (1u8..=12, 1u8..=7, any::<prop::sample::Index>()).prop_flat_map(|(m, n, which)| {
            let all: Vec<Rules> =
                Rules::variants(m, n).unwrap().into_iter().filter(|r| crate::supports(r).is_ok()).collect();
            let rules = all[which.index(all.len())];
            let row = prop::collection::vec(0u16..8, m as usize);
            let start = prop::bool::weighted(0.125);
            (Just(rules), row.clone(), row, 0u16..5, 0u16..5, any::<bool>(), start).prop_map(
                move |(rules, mut south, mut north, south_store, north_store, south_moves, start)| {
                    if start {
                        (south, north) = (vec![u16::from(n); m as usize], vec![u16::from(n); m as usize]);
                    }
                    let join = |row: &[u16]| row.iter().map(u16::to_string).collect::<Vec<_>>().join(",");
                    let mover = if south_moves || start { Side::South } else { Side::North };
                    let text =
                        format!("{}:{south_store}/{}:{north_store}/{}", join(&south), join(&north), mover.letter());
                    (rules, text.parse::<Position>().expect("a well-formed position"))
                },
            )
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]

        /// The database's sowing agrees with the rules crate's on the end, and on every legal
        /// move's houses, next mover, store gain and end.
        #[test]
        fn sowing_agrees_with_the_rules_crate((rules, position) in any_case()) {
            // The first move of a game whose first move never gives an extra move: sowing here
            // does not know n, so the database leaves that one position out (see `Egdb::probe`).
            prop_assume!(rules.first_move_extra || !rules.is_first_move(&position));
            let variant = Variant::of(&rules).unwrap();
            let m = rules.houses() as usize;
            let mover = position.mover();
            let mut board: Board = [0; CELLS];
            for i in 0..m {
                board[i] = position.row(mover)[i] as u8;
                board[m + 1 + i] = position.row(!mover)[i] as u8;
            }
            let settled = position
                .is_over(&rules)
                .then(|| position.final_difference(&rules) * mover.sign() - own_difference(&position, mover));
            prop_assert_eq!(variant.settled(&board), settled, "{} {}", rules, position);
            if settled.is_none() {
                for mv in position.legal_moves() {
                    let child = position.play_unchecked(&rules, mv);
                    let mut b = board;
                    let step = variant.play(&mut b, mv.index());
                    let now = own_difference(&position, mover);
                    if child.is_over(&rules) {
                        let end = child.final_difference(&rules) * mover.sign() - now;
                        prop_assert_eq!(step, Step::Over(end), "{} {} move {}", rules, position, mv);
                    } else {
                        let next = child.mover();
                        let expected = Step::Next {
                            gain: own_difference(&child, mover) - now,
                            again: next == mover,
                            seeds: u32::from(child.seeds_in_houses()),
                        };
                        prop_assert_eq!(step, expected, "{} {} move {}", rules, position, mv);
                        for i in 0..m {
                            prop_assert_eq!(u16::from(b[i]), child.row(next)[i]);
                            prop_assert_eq!(u16::from(b[m + 1 + i]), child.row(!next)[i]);
                        }
                        prop_assert_eq!(b[m], 0);
                    }
                }
            }
        }
    }
}
