//! The proof search's board: the houses alone, as bytes, the mover's side first.
//!
//! Most nodes of a proof are small positions near the end of the game, and there a node costs
//! little more than its sowings and one table lookup. The rules crate's `Position` serves every
//! rule (clockwise sowing and its no-progress count, store majorities, the first-move rule) and
//! carries the stores; the proof search needs none of that below its root for the common rules,
//! where the value of the rest of the game depends only on the houses and who moves. So it
//! sows bytes in four words instead: a 32-byte copy per child and a key that is a hash of two
//! or three words. Seen from the mover, a position and its mirror image (the same houses with the other
//! player to move) are one board and share one table entry.
//!
//! Boards of up to 7 houses a side under single-lap sowing (every Kalah(m,n) with m ≤ 7 under
//! any capture, end and leftover rule) keep each side in a word of its own, as
//! `kalah_rules::CompactPosition` does: a move adds a run of ones to each word instead of
//! dropping seeds one by one, the turn passes by swapping the words, and the counts that decide
//! the end come from a multiplication and the parent's count. Larger boards and relay sowing
//! keep the cells in sowing order and are sown by the endgame database's byte-level sowing
//! ([`kalah_egdb::board`]). A narrow board's key folds the product of its two side words (two
//! multiplications, where mixing the cells in sowing order word by word had taken a tenth of a
//! proof's instructions); the others' key is a hash of their cells in sowing order. A board is
//! one kind or the other for a whole solve, so a position always has the same key.
//!
//! The tests check every sowing against `Position::play_unchecked` under every rule this board
//! plays.

use kalah_egdb::board::{Variant, CELLS};
// `RUN[k]`: a one in each of bytes 0..k, the compact position's table (indices masked to 0..16).
use kalah_rules::compact::RUN;
use kalah_rules::{Capture, GameEnd, Position, Rules, Sowing};

/// The most houses a side of a board kept a side a word: its houses and the store fill 8 bytes.
const NARROW_HOUSES: usize = 7;

/// A one in every byte of a word.
const ONES: u64 = 0x0101_0101_0101_0101;

/// Byte h is h, for h < 8: the numbers of the houses, to take from m in every byte.
const RUN_UP: u64 = 0x0706_0504_0302_0100;

/// The rules a [`Board`] plays: everything the value of the rest of a game depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The database's sowing, for boards of more than [`NARROW_HOUSES`] and relay sowing.
    variant: Variant,
    /// Houses a side.
    houses: u8,
    /// Each side is a word of its own and a move sows a single lap: [`Layout::sow`]'s fast path.
    narrow: bool,
    /// The bytes of a word that are the mover's houses (all of them from 8 houses on).
    mask: u64,
    /// Byte h is m - h for each house h: the seeds that end a house's sowing in the store.
    again: u64,
    capture: Capture,
    end: GameEnd,
}

/// What a move leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The position after the move with its mover's side first (not a position when the game ended).
    pub board: Board,
    /// What the move put into the mover's store minus the opponent's, the seeds dealt out at the
    /// end of the game included.
    pub gain: i32,
    /// The mover moves again (false when the game ended).
    pub again: bool,
    /// The move ended the game.
    pub over: bool,
    /// Seeds left in the houses (0 when the game ended).
    pub seeds: u32,
}

/// The houses of a position, the mover's first, a byte a house in four words. Under a narrow
/// layout (see the module's text) word 0 holds the mover's houses (bytes 0..m) and word 1 the
/// opponent's; otherwise the words hold the cells in sowing order, 8 to a word: the mover's
/// houses at 0..m, the mover's store at m (empty between moves), the opponent's houses at
/// m + 1..=2m. Either way the mover's house h is byte h, and the bytes left over are zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    words: [u64; 4],
}

impl Layout {
    /// Returns the layout of `rules` for games from `position` on, or `None` when a board cannot
    /// play them: clockwise sowing (its no-progress count is part of a position), an end on a
    /// store majority (it depends on the stores), the first move of a game whose first move
    /// gives no extra turn, or more than 255 seeds in the houses (a byte holds a house).
    pub fn of(rules: &Rules, position: &Position) -> Option<Layout> {
        let variant = Variant::of(rules).ok()?;
        let supported = (rules.first_move_extra || !rules.is_first_move(position))
            && position.seeds_in_houses() <= u16::from(u8::MAX);
        let narrow = usize::from(rules.houses()) <= NARROW_HOUSES && rules.sowing == Sowing::Single;
        supported.then_some(Layout {
            variant,
            houses: rules.houses(),
            narrow,
            mask: first_bytes(u64::MAX, usize::from(rules.houses())),
            again: (0..rules.houses().min(8)).fold(0, |word, h| word | u64::from(rules.houses() - h) << (8 * h)),
            capture: rules.capture,
            end: rules.end,
        })
    }

    /// Returns the board of `position`, which must be a position of these rules with at most
    /// 255 seeds in its houses.
    #[inline]
    pub fn board(&self, position: &Position) -> Board {
        let m = self.houses();
        let me = position.mover();
        let mut cells = [0; CELLS];
        for (cell, &seeds) in cells[..m].iter_mut().zip(position.row(me)) {
            *cell = seeds as u8;
        }
        for (cell, &seeds) in cells[m + 1..2 * m + 1].iter_mut().zip(position.row(!me)) {
            *cell = seeds as u8;
        }
        self.from_cells(&cells)
    }

    /// Returns the board of the endgame database's cells (a position of these rules).
    #[inline]
    pub fn from_cells(&self, cells: &kalah_egdb::board::Board) -> Board {
        let mut bytes = [0; 32];
        bytes[..CELLS].copy_from_slice(cells);
        let word = |i: usize| {
            let mut w = [0; 8];
            w.copy_from_slice(&bytes[8 * i..8 * i + 8]);
            u64::from_le_bytes(w)
        };
        let words = [word(0), word(1), word(2), word(3)];
        if self.narrow {
            let (mine, theirs) = self.split(words[0], words[1]);
            Board { words: [mine, theirs, 0, 0] }
        } else {
            Board { words }
        }
    }

    /// Returns the cells of `board` in sowing order: the endgame database's board of the same
    /// position.
    #[inline]
    pub fn cells(&self, board: &Board) -> kalah_egdb::board::Board {
        let words = self.sowing_order(board);
        let mut bytes = [0; 32];
        for (chunk, word) in bytes.chunks_exact_mut(8).zip(words) {
            chunk.copy_from_slice(&word.to_le_bytes());
        }
        let mut cells = [0; CELLS];
        cells.copy_from_slice(&bytes[..CELLS]);
        cells
    }

    /// Returns the table key of `board`: a hash of its cells in sowing order, the same for the
    /// same houses seen from the mover whichever player that is.
    #[inline]
    pub fn key(&self, board: &Board) -> u64 {
        self.key_in::<0>(board)
    }

    /// [`Layout::key`] for a search compiled for this layout's kind: `M` is its houses a side when
    /// it is narrow, 0 when it is not (see [`Layout::compiled`]), so that nothing branches on the
    /// layout's kind.
    #[inline(always)]
    pub(crate) fn key_in<const M: usize>(&self, board: &Board) -> u64 {
        if M > 0 || self.narrow {
            // The two side words as they are: two folded 128-bit products (wyhash's mix), a
            // fifth of the instructions of the cells put in sowing order and mixed word by word.
            let [mine, theirs, ..] = board.words;
            return fold(
                fold(mine ^ 0x2D35_8DCC_AA6C_78A5, theirs ^ 0x8BB8_4B93_962E_ACC9) ^ 0x4B33_A62E_D433_D4A3,
                0x4D5A_2DA5_1DE1_AA47,
            );
        }
        let [w0, w1, w2, w3] = self.sowing_order(board);
        // The last cell (the first byte of the last word) can only hold seeds on a board of
        // 12 houses a side.
        let h = mix(w0 ^ 0x5851_F42D_4C95_7F2D);
        let h = mix(h ^ w1);
        mix(h ^ w2 ^ (w3 & 0xFF) << 56)
    }

    /// Returns the words of `board`'s cells in sowing order (see [`Board`]).
    #[inline]
    fn sowing_order(&self, board: &Board) -> [u64; 4] {
        if self.narrow {
            // The opponent's houses start at cell m + 1, byte s / 8 with s at most 64.
            let [mine, theirs, ..] = board.words;
            let s = 8 * (self.houses() as u32 + 1);
            [mine | theirs << (s - 1) << 1, theirs >> (64 - s), 0, 0]
        } else {
            board.words
        }
    }

    /// Splits the first two words of cells in sowing order of a narrow board into its sides.
    #[inline]
    fn split(&self, w0: u64, w1: u64) -> (u64, u64) {
        let m = self.houses() as u32;
        let s = 8 * (m + 1);
        let mine = w0 & self.mask;
        let theirs = (w0 >> (s - 1) >> 1 | w1 << (64 - s)) & self.mask;
        (mine, theirs)
    }

    /// Returns the number of houses a side.
    #[inline]
    pub fn houses(&self) -> usize {
        usize::from(self.houses)
    }

    /// Tells whether each side is a word of its own and moves sow a single lap (see the module's
    /// text).
    #[inline]
    pub fn is_narrow(&self) -> bool {
        self.narrow
    }

    /// Returns the `M` of the proof search compiled for this layout: its houses a side when it is
    /// narrow, 0 when it is not. The search is compiled once for each number of houses of a
    /// narrow board, so that the shifts, masks and runs of its sowing are constants (a tenth of a
    /// node's instructions went to loading and applying them), and once for the other boards.
    #[inline]
    pub(crate) fn compiled(&self) -> usize {
        if self.narrow {
            self.houses()
        } else {
            0
        }
    }

    /// The bytes of a narrow board's word that are the mover's houses, for a search compiled for
    /// `M` houses ([`Layout::compiled`]; the layout's own mask when `M` is 0).
    #[inline(always)]
    fn mask_in<const M: usize>(&self) -> u64 {
        if M > 0 {
            (1 << (8 * (M & 7))) - 1
        } else {
            self.mask
        }
    }

    /// [`Layout::moves`] for a search compiled for this layout's kind, as [`Layout::key_in`]: (the
    /// moves, bit h for house h).
    #[inline(always)]
    pub(crate) fn moves_in<const M: usize>(&self, board: &Board) -> u32 {
        if M > 0 {
            gather(nonzero(board.words[0] & self.mask_in::<M>()))
        } else {
            self.moves(board)
        }
    }

    /// The number of moves, as [`Layout::moves_in`].
    #[inline(always)]
    pub(crate) fn count_moves_in<const M: usize>(&self, board: &Board) -> u32 {
        if M > 0 {
            ((nonzero(board.words[0] & self.mask_in::<M>()) >> 7).wrapping_mul(ONES) >> 56) as u32
        } else {
            self.count_moves(board)
        }
    }

    /// The sowing, as [`Layout::moves_in`].
    #[inline(always)]
    pub(crate) fn sow_in<const M: usize>(&self, board: &Board, house: usize, left: u32) -> Step {
        if M > 0 {
            self.sow_narrow_in(board, house, left, M, self.mask_in::<M>())
        } else {
            self.sow(board, house, left)
        }
    }

    /// [`Layout::first_again`] for a search compiled for this layout's kind, as
    /// [`Layout::key_in`].
    #[inline(always)]
    pub(crate) fn first_again_in<const M: usize>(&self, board: &Board) -> usize {
        if M > 0 {
            // Byte h of m·ONES - RUN_UP is m - h below byte m, the mover's houses.
            self.first_again_of(board, M, self.mask_in::<M>(), (ONES * M as u64).wrapping_sub(RUN_UP))
        } else {
            self.first_again(board)
        }
    }

    /// Returns how many moves the mover of `board` has.
    #[inline]
    pub fn count_moves(&self, board: &Board) -> u32 {
        let m = self.houses();
        let low = nonzero(board.words[0] & self.mask);
        let count = |nonzero: u64| ((nonzero >> 7).wrapping_mul(ONES) >> 56) as u32;
        if m <= 8 {
            count(low)
        } else {
            count(low) + count(nonzero(first_bytes(board.words[1], m - 8)))
        }
    }

    /// Returns the house nearest the store whose move gives another turn without a whole lap
    /// (its seeds end in the store), or `usize::MAX` when there is none, when a house holds a lap
    /// or more (such a move may come first in the proofs' order: it puts more in the store), or
    /// on a board that is not narrow. It is the move the proofs try first when the table has
    /// none, found without sowing.
    #[inline]
    pub fn first_again(&self, board: &Board) -> usize {
        if !self.narrow {
            return usize::MAX;
        }
        self.first_again_of(board, self.houses(), self.mask, self.again)
    }

    /// [`Layout::first_again`] of a narrow board of `m` houses a side whose houses are the bytes
    /// of `mask`, with `again`'s byte h m - h: constants in a search compiled for them.
    #[inline(always)]
    fn first_again_of(&self, board: &Board, m: usize, mask: u64, again: u64) -> usize {
        const HIGH: u64 = 0x8080_8080_8080_8080;
        const LOW: u64 = 0x7F7F_7F7F_7F7F_7F7F;
        let mine = board.words[0];
        // House h ends in the store with m - h seeds: the bytes equal to `again`'s. Most boards
        // have none, and then the laps need no look.
        let again = !nonzero(mine ^ again) & HIGH & mask;
        if again == 0 {
            return usize::MAX;
        }
        // A byte above 2m holds a lap: its high bit after adding 127 - 2m to its low bits, or
        // its own high bit (a byte of 128 or more).
        let ring = 2 * m as u64;
        if (((mine & LOW) + (0x7F - ring) * ONES) | mine) & HIGH & mask != 0 {
            return usize::MAX;
        }
        (63 - again.leading_zeros() as usize) / 8
    }

    /// Returns the mover's moves: bit h is set when the mover's house h (0-based) holds seeds.
    #[inline]
    pub fn moves(&self, board: &Board) -> u32 {
        let m = self.houses();
        let low = gather(nonzero(board.words[0] & self.mask));
        if m <= 8 {
            low
        } else {
            low | gather(nonzero(first_bytes(board.words[1], m - 8))) << 8
        }
    }

    /// Sows the mover's house `house` (0-based from the mover's house 1; it must hold seeds).
    #[inline]
    pub fn play(&self, board: &Board, house: usize) -> Step {
        self.sow(board, house, board.seeds() as u32)
    }

    /// [`Layout::play`] of a board whose houses hold `left` seeds: the counts that decide the
    /// end of the game come from it instead of a sum over the board.
    #[inline]
    pub(crate) fn sow(&self, board: &Board, house: usize, left: u32) -> Step {
        if self.narrow {
            self.sow_narrow_in(board, house, left, self.houses(), self.mask)
        } else {
            self.sow_bytes(board, house)
        }
    }

    /// The database's byte-level sowing, for the boards [`Layout::sow_narrow`] does not take.
    #[cold]
    #[inline(never)]
    fn sow_bytes(&self, board: &Board, house: usize) -> Step {
        let mut cells = self.cells(board);
        match self.variant.play(&mut cells, house) {
            kalah_egdb::board::Step::Over(gain) => {
                Step { board: self.from_cells(&cells), gain, again: false, over: true, seeds: 0 }
            }
            kalah_egdb::board::Step::Next { gain, again, seeds } => {
                Step { board: self.from_cells(&cells), gain, again, over: false, seeds }
            }
        }
    }

    /// Sows a narrow board (see the module's text): the seeds fall on a run of the mover's
    /// cells (houses and store), a run of the opponent's houses and, past them, a run of the
    /// mover's houses again; each run is a word of ones added at once (no sum exceeds 255, so
    /// nothing carries between bytes). `m` is the houses a side and `mask` their bytes: constants
    /// in a search compiled for them ([`Layout::compiled`]).
    #[inline(always)]
    fn sow_narrow_in(&self, board: &Board, house: usize, left: u32, m: usize, mask: u64) -> Step {
        let ring = 2 * m + 1;
        let [mut mine, mut theirs, ..] = board.words;
        // `house < m <= 7`: masked, the shifts and indices below stay in range without a check.
        let from = house & 7;
        let mut hand = byte(mine, from) as usize;
        mine &= !(0xFF << (8 * from));
        if hand > ring {
            // Whole laps first: every cell but the other's store, the emptied house too, gets
            // one seed a lap.
            let laps = (hand - 1) / ring;
            mine += RUN[(m + 1) & 15] * laps as u64;
            theirs += RUN[m & 15] * laps as u64;
            hand -= laps * ring;
        }
        // The seeds fall on cells from + 1 ..= last of the ring: the mover's houses and store
        // (0..=m), the opponent's houses (m + 1..=2m), and past them the mover's houses again.
        let last = from + hand;
        mine += RUN[(last.min(m) + 1) & 15] - RUN[(from + 1) & 15];
        theirs += RUN[last.saturating_sub(m).min(m) & 15];
        mine += RUN[last.saturating_sub(2 * m) & 15];
        let again = last == m;
        let cursor = if last > 2 * m { last - ring } else { last };
        let mut gain = 0;
        if cursor < m && byte(mine, cursor) == 1 {
            let opposite = (m - 1 - cursor) & 7;
            let across = byte(theirs, opposite);
            let take = match self.capture {
                Capture::Standard => across > 0,
                Capture::Empty => true,
                Capture::Never => false,
            };
            if take {
                gain = across + 1;
                mine &= !(0xFF << (8 * (cursor & 7)));
                theirs &= !(0xFF << (8 * opposite));
            }
        }
        // Take the store out: what is left on the mover's word are its houses.
        gain += byte(mine, m & 7);
        mine &= mask;
        let seeds = left - gain;
        let own = (mine.wrapping_mul(ONES) >> 56) as u32;
        let other = seeds - own;
        let over = if again { self.over(own, other) } else { self.over(other, own) };
        if over {
            let gain = gain as i32 + self.variant.sweep(own, other);
            return Step { board: Board { words: [mine, theirs, 0, 0] }, gain, again: false, over: true, seeds: 0 };
        }
        let words = if again { [mine, theirs, 0, 0] } else { [theirs, mine, 0, 0] };
        Step { board: Board { words }, gain: gain as i32, again, over: false, seeds }
    }

    /// Tells whether the game is over with `to_move` seeds on the side of the player to move and
    /// `other` on the other side.
    #[inline]
    fn over(&self, to_move: u32, other: u32) -> bool {
        to_move == 0 || (self.end == GameEnd::EitherSideEmpty && other == 0)
    }
}

/// Returns byte `i` (below 8) of `word`.
#[inline(always)]
fn byte(word: u64, i: usize) -> u32 {
    u32::from((word >> (8 * (i & 7))) as u8)
}

/// Returns the word of the first `n` bytes of `w` (all of it from 8 on).
#[inline(always)]
fn first_bytes(w: u64, n: usize) -> u64 {
    if n >= 8 {
        w
    } else {
        w & ((1 << (8 * n)) - 1)
    }
}

/// Gathers the high bits of the bytes of `w` (its only bits set) into bits 0..8, byte k's in
/// bit k: bit 8k + 7 goes to bit 56 + k, and the shifts 56 - 7k never meet.
#[inline(always)]
fn gather(high: u64) -> u32 {
    ((high >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
}

/// Returns the high bit of each byte of `w` that is not zero.
#[inline(always)]
fn nonzero(w: u64) -> u64 {
    // A byte's high bit, after adding 0x7F to its low seven bits and or-ing in the byte, is set
    // exactly when the byte is not zero.
    const LOW: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    (((w & LOW) + LOW) | w) & !LOW
}

impl Board {
    /// The board with every cell empty.
    pub(crate) const EMPTY: Board = Board { words: [0; 4] };

    /// Returns the seeds in the houses.
    #[inline]
    pub fn seeds(&self) -> i32 {
        self.words.iter().map(|&w| byte_sum(w)).sum::<u32>() as i32
    }

    /// Returns the seeds in the mover's house `house` (0-based from the mover's house 1).
    #[inline]
    pub fn house(&self, house: usize) -> u8 {
        (self.words[(house / 8) & 3] >> (8 * (house % 8))) as u8
    }
}

/// Returns the sum of the 8 bytes of `w`: adjacent bytes are added into 16-bit lanes, which a
/// multiplication then adds up without a carry between lanes (each sum is at most 2,040).
#[inline]
fn byte_sum(w: u64) -> u32 {
    const EVEN: u64 = 0x00FF_00FF_00FF_00FF;
    let pairs = (w & EVEN) + ((w >> 8) & EVEN);
    (pairs.wrapping_mul(0x0001_0001_0001_0001) >> 48) as u32
}

/// Folds the 128-bit product of two words into one (wyhash's `mum`): each bit of the result
/// depends on every bit of both.
#[inline(always)]
fn fold(a: u64, b: u64) -> u64 {
    let product = u128::from(a) * u128::from(b);
    product as u64 ^ (product >> 64) as u64
}

/// Spreads the bits of a word (the finaliser of SplitMix64).
#[inline]
fn mix(mut h: u64) -> u64 {
    h = (h ^ (h >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h = (h ^ (h >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    h ^ (h >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_rules::{Move, Side};
    use rand::seq::SliceRandom;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// Mover's store minus the opponent's.
    fn own_difference(p: &Position, mover: Side) -> i32 {
        i32::from(p.store(mover)) - i32::from(p.store(!mover))
    }

    /// Random positions of `rules` met in random games, the start's first move skipped where it
    /// is special.
    fn positions(rules: &Rules, rng: &mut ChaCha8Rng, games: usize) -> Vec<Position> {
        let mut all = Vec::new();
        for _ in 0..games {
            let mut p = Position::start(rules);
            while !p.is_over(rules) {
                all.push(p);
                let moves: Vec<Move> = p.legal_moves().collect();
                p = p.play_unchecked(rules, *moves.choose(rng).unwrap());
            }
        }
        all
    }

    #[test]
    fn every_sowing_agrees_with_the_rules_crate() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut checked = 0;
        for (m, n) in [(1, 3), (2, 4), (3, 3), (4, 4), (5, 2), (6, 4), (7, 3), (12, 2), (6, 12)] {
            for rules in Rules::variants(m, n).unwrap() {
                for position in positions(&rules, &mut rng, 4) {
                    let Some(layout) = Layout::of(&rules, &position) else {
                        continue;
                    };
                    let board = layout.board(&position);
                    assert_eq!(board.seeds(), i32::from(position.seeds_in_houses()));
                    let me = position.mover();
                    assert_eq!(layout.count_moves(&board), position.legal_moves().count() as u32, "{rules} {position}");
                    for mv in position.legal_moves() {
                        let child = position.play_unchecked(&rules, mv);
                        let step = layout.play(&board, mv.index());
                        let what = format!("{rules} {position} move {mv}");
                        assert_eq!(step.over, child.is_over(&rules), "{what}");
                        assert_eq!(step.gain, own_difference(&child, me) - own_difference(&position, me), "{what}");
                        if !step.over {
                            assert_eq!(step.again, child.mover() == me, "{what}");
                            assert_eq!(step.board, layout.board(&child), "{what}");
                            assert_eq!(layout.key(&step.board), layout.key(&layout.board(&child)), "{what}");
                            assert_eq!(layout.cells(&step.board), layout.cells(&layout.board(&child)), "{what}");
                        }
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 100_000, "only {checked} sowings checked");
    }

    #[test]
    fn unsupported_rules_and_positions_have_no_layout() {
        let standard = Rules::standard(6, 4).unwrap();
        assert!(Layout::of(&standard, &Position::start(&standard)).is_some());
        for preset in ["clockwise", "mkagent"] {
            let rules = Rules::preset(preset, 6, 4).unwrap();
            assert!(Layout::of(&rules, &Position::start(&rules)).is_none(), "{preset}");
        }
        let mut majority = standard;
        majority.majority_ends = true;
        assert!(Layout::of(&majority, &Position::start(&majority)).is_none());
        let big = Rules::standard(12, 12).unwrap();
        assert!(Layout::of(&big, &Position::start(&big)).is_none(), "288 seeds do not fit in bytes");
        // After the first move the mkagent rules are plain rules.
        let mkagent = Rules::preset("mkagent", 6, 4).unwrap();
        let later = Position::start(&mkagent).play_unchecked(&mkagent, Move::from_index(0));
        assert!(Layout::of(&mkagent, &later).is_some());
    }

    #[test]
    fn a_position_and_its_mirror_share_a_key_and_different_houses_do_not() {
        let rules = Rules::standard(6, 4).unwrap();
        let layout = Layout::of(&rules, &Position::start(&rules)).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let all = positions(&rules, &mut rng, 40);
        let mut seen = std::collections::HashMap::new();
        for p in &all {
            let me = p.mover();
            let houses = (p.row(me).to_vec(), p.row(!me).to_vec());
            let key = layout.key(&layout.board(p));
            if let Some(other) = seen.insert(key, houses.clone()) {
                assert_eq!(other, houses, "two boards with one key");
            }
        }
        let south = Position::parse("1,2,3,0,0,4:5/0,6,0,1,1,1:24/S", &rules).unwrap();
        let north = Position::parse("0,6,0,1,1,1:7/1,2,3,0,0,4:22/N", &rules).unwrap();
        assert_eq!(layout.key(&layout.board(&south)), layout.key(&layout.board(&north)));
        assert_ne!(layout.key(&layout.board(&south)), layout.key(&layout.board(&south.with_mover(!south.mover()))));
    }
}
