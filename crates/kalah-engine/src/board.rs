//! The proof search's board: the houses alone, as bytes, the mover's side first, sown by the
//! endgame database's byte-level sowing ([`kalah_egdb::board`]).
//!
//! Most nodes of a proof are small positions near the end of the game, and there a node costs
//! little more than its sowings and one table lookup. The rules crate's `Position` serves every
//! rule (clockwise sowing and its no-progress count, store majorities, the first-move rule) and
//! carries the stores; the proof search needs none of that below its root for the common rules,
//! where the value of the rest of the game depends only on the houses and who moves. So it
//! sows these bytes instead: a 25-byte copy per child, a sowing without a rule lookup per
//! seed, and a key that is a hash of three words. Seen from the mover, a position and its
//! mirror image (the same houses with the other player to move) are one board and share one
//! table entry.
//!
//! The tests check every sowing against `Position::play_unchecked` under every rule this board
//! plays.

use kalah_egdb::board::{Variant, CELLS};
use kalah_rules::{Position, Rules};

/// The rules a [`Board`] plays: everything the value of the rest of a game depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    variant: Variant,
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

/// The houses of a position in sowing order: the mover's houses at 0..m, the mover's store at m
/// (empty between moves), the opponent's houses at m + 1..=2m, zeros after.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    cells: [u8; CELLS],
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
        supported.then_some(Layout { variant })
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
        Board { cells }
    }

    /// Returns the number of houses a side.
    #[inline]
    pub fn houses(&self) -> usize {
        self.variant.houses()
    }

    /// Returns how many moves the mover of `board` has.
    #[inline]
    pub fn count_moves(&self, board: &Board) -> u32 {
        kalah_egdb::board::row_moves(&board.cells, self.houses())
    }

    /// Sows the mover's house `house` (0-based from the mover's house 1; it must hold seeds).
    #[inline]
    pub fn play(&self, board: &Board, house: usize) -> Step {
        let mut next = *board;
        match self.variant.play(&mut next.cells, house) {
            kalah_egdb::board::Step::Over(gain) => Step { board: next, gain, again: false, over: true, seeds: 0 },
            kalah_egdb::board::Step::Next { gain, again, seeds } => {
                Step { board: next, gain, again, over: false, seeds }
            }
        }
    }
}

impl Step {
    /// A step to nowhere (every cell empty, the game over): fills a list before its steps are
    /// known, and as all zeros it is cheaper to lay down than a copy of a board.
    pub(crate) const BLANK: Step =
        Step { board: Board { cells: [0; CELLS] }, gain: 0, again: false, over: true, seeds: 0 };
}

impl Board {
    /// Returns the seeds in the houses.
    #[inline]
    pub fn seeds(&self) -> i32 {
        kalah_egdb::board::board_seeds(&self.cells) as i32
    }

    /// Returns the table key of the board: a hash of all its cells, the same for the same houses
    /// seen from the mover whichever player that is.
    #[inline]
    pub fn key(&self) -> u64 {
        let word = |i: usize| kalah_egdb::board::word(&self.cells, 8 * i);
        // The last cell can only hold seeds on a board of 12 houses a side.
        let h = mix(word(0) ^ 0x5851_F42D_4C95_7F2D);
        let h = mix(h ^ word(1));
        mix(h ^ word(2) ^ u64::from(self.cells[24]) << 56)
    }

    /// Returns the cells: the endgame database's board of the same position.
    #[inline]
    pub fn cells(&self) -> &kalah_egdb::board::Board {
        &self.cells
    }

    /// Returns the seeds in the mover's house `house` (0-based from the mover's house 1).
    #[inline]
    pub fn house(&self, house: usize) -> u8 {
        self.cells[house]
    }
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
                            assert_eq!(step.board.key(), layout.board(&child).key(), "{what}");
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
            let key = layout.board(p).key();
            if let Some(other) = seen.insert(key, houses.clone()) {
                assert_eq!(other, houses, "two boards with one key");
            }
        }
        let south = Position::parse("1,2,3,0,0,4:5/0,6,0,1,1,1:24/S", &rules).unwrap();
        let north = Position::parse("0,6,0,1,1,1:7/1,2,3,0,0,4:22/N", &rules).unwrap();
        assert_eq!(layout.board(&south).key(), layout.board(&north).key());
        assert_ne!(layout.board(&south).key(), layout.board(&south.with_mover(!south.mover())).key());
    }
}
