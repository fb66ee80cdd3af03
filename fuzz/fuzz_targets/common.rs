//! What several targets share: rule sets and positions chosen by the fuzzer's bytes.

#![allow(dead_code)]

use kalah_rules::{Position, Rules};

/// A rule set of Kalah(1..=6, 1..=4) under any variant, with the pie rule or handicap at times.
pub fn rules(houses: u8, seeds: u8, variant: u16, extra: u8) -> Rules {
    let all = Rules::variants(1 + houses % 6, 1 + seeds % 4).expect("sizes in range");
    let mut rules = all[usize::from(variant) % all.len()];
    match extra % 4 {
        1 => rules.pie = true,
        2 => rules.handicap = true,
        _ => {}
    }
    rules
}

/// The position after the sowings `choices` pick from the start (each a legal move, by index).
pub fn reached(rules: &Rules, choices: &[u8]) -> Position {
    let mut position = Position::start(rules);
    for &choice in choices {
        if position.is_over(rules) {
            break;
        }
        let moves: Vec<_> = position.legal_moves().collect();
        position = position.play_unchecked(rules, moves[usize::from(choice) % moves.len()]);
    }
    position
}

/// Panics unless an error message is one line that is not empty.
pub fn one_line(message: &str) {
    assert!(!message.is_empty() && !message.contains('\n'), "not one line: {message:?}");
}
