//! The proof search's byte board against the rules crate: for any position reached under any
//! rule set the board plays, every move gives the same houses, store gain, extra move and end.

#![no_main]

use kalah_engine::board::Layout;
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

fuzz_target!(|input: Input| {
    let rules = common::rules(input.houses, input.seeds, input.variant, 0);
    let position = common::reached(&rules, &input.moves);
    let Some(layout) = Layout::of(&rules, &position) else { return };
    if position.is_over(&rules) {
        return;
    }
    let board = layout.board(&position);
    let me = position.mover();
    for mv in position.legal_moves() {
        let step = layout.play(&board, usize::from(mv.number()) - 1);
        let after = position.play_unchecked(&rules, mv);
        let gain = |p: &kalah_rules::Position| i32::from(p.store(me)) - i32::from(p.store(!me));
        assert_eq!(step.gain, gain(&after) - gain(&position), "{rules} {position} {mv}");
        assert_eq!(step.over, after.is_over(&rules), "{rules} {position} {mv}");
        if !step.over {
            assert_eq!(step.again, after.mover() == me, "{rules} {position} {mv}");
            assert_eq!(step.board, layout.board(&after), "{rules} {position} {mv}");
        }
    }
});
