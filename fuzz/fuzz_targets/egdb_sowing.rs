//! The endgame database's byte-level sowing (shared with the proof search) against the rules
//! crate: for any position reached under any rule set the database supports, every move gives
//! the same end, store gain, next mover, seeds left and houses as `Position::play_unchecked`.

#![no_main]

use kalah_egdb::board::{Board, Step, Variant, CELLS};
use kalah_rules::{Position, Side};
use libfuzzer_sys::{arbitrary, fuzz_target};

#[path = "common.rs"]
mod common;

#[derive(Debug, arbitrary::Arbitrary)]
struct Input {
    houses: u8,
    seeds: u8,
    variant: u16,
    moves: Vec<u8>,
}

/// Mover's store minus the opponent's.
fn own(p: &Position, mover: Side) -> i32 {
    i32::from(p.store(mover)) - i32::from(p.store(!mover))
}

fuzz_target!(|input: Input| {
    let rules = common::rules(input.houses, input.seeds, input.variant, 0);
    let Ok(variant) = Variant::of(&rules) else { return };
    let position = common::reached(&rules, &input.moves);
    // The first move where it gives no extra turn depends on n, which the board does not know.
    if !rules.first_move_extra && rules.is_first_move(&position) {
        return;
    }
    let m = variant.houses();
    let me = position.mover();
    let mut board: Board = [0; CELLS];
    for i in 0..m {
        board[i] = position.row(me)[i] as u8;
        board[m + 1 + i] = position.row(!me)[i] as u8;
    }
    let settled = position.is_over(&rules).then(|| position.final_difference(&rules) * me.sign() - own(&position, me));
    assert_eq!(variant.settled(&board), settled, "{rules} {position}");
    if settled.is_some() {
        return;
    }
    for mv in position.legal_moves() {
        let child = position.play_unchecked(&rules, mv);
        let mut b = board;
        let step = variant.play(&mut b, mv.index());
        let now = own(&position, me);
        if child.is_over(&rules) {
            let end = child.final_difference(&rules) * me.sign() - now;
            assert_eq!(step, Step::Over(end), "{rules} {position} {mv}");
            continue;
        }
        let next = child.mover();
        let expected =
            Step::Next { gain: own(&child, me) - now, again: next == me, seeds: u32::from(child.seeds_in_houses()) };
        assert_eq!(step, expected, "{rules} {position} {mv}");
        for i in 0..m {
            assert_eq!(u16::from(b[i]), child.row(next)[i], "{rules} {position} {mv}");
            assert_eq!(u16::from(b[m + 1 + i]), child.row(!next)[i], "{rules} {position} {mv}");
        }
        assert_eq!(b[m], 0, "the mover's store cell is emptied between moves");
    }
});
