//! The course's alpha-beta and ordered alpha-beta at depths 1 to 3 against plain minimax on
//! positions reached under any rule set: the same value, and never more calls.

#![no_main]

use kalah_course::classic::{search, Algorithm};
use kalah_engine::eval::Weights;
use libfuzzer_sys::{arbitrary, fuzz_target};

#[path = "common.rs"]
mod common;

#[derive(Debug, arbitrary::Arbitrary)]
struct Input {
    houses: u8,
    seeds: u8,
    variant: u16,
    depth: u8,
    moves: Vec<u8>,
}

fuzz_target!(|input: Input| {
    let rules = common::rules(input.houses, input.seeds, input.variant, 0);
    let position = common::reached(&rules, &input.moves);
    let depth = 1 + u32::from(input.depth % 3);
    let plain = search(&position, &rules, depth, Algorithm::Minimax, &Weights::default());
    for algorithm in [Algorithm::AlphaBeta, Algorithm::Ordered] {
        let found = search(&position, &rules, depth, algorithm, &Weights::default());
        assert_eq!(found.value, plain.value, "{algorithm:?} {rules} {position} depth {depth}");
        assert!(found.counts.total() <= plain.counts.total(), "{algorithm:?} {rules} {position}");
    }
});
