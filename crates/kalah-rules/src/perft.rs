//! Perft: counting the move sequences of a fixed number of sowings, to test the rules.
//!
//! A sequence is `depth` sowings from the given position; an extra move is a sowing of its own. A
//! position reached at exactly `depth` counts even when the game is over there; a sequence that
//! ends the game earlier counts nothing (the definition two independent implementations, one in C
//! and one in Python, agree on for every count of `tests/data/kalah.perft`).

use crate::position::Position;
use crate::rules::Rules;

/// Returns the number of sequences of exactly `depth` sowings from `position`.
///
/// At depth 1 the legal moves are counted without playing them (bulk counting).
///
/// ```
/// use kalah_rules::{perft, Position, Rules};
/// let rules = Rules::standard(6, 4).unwrap();
/// assert_eq!(perft(&Position::start(&rules), &rules, 4), 942);
/// ```
pub fn perft(position: &Position, rules: &Rules, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if position.is_over(rules) {
        return 0;
    }
    if depth == 1 {
        return position.legal_moves().len() as u64;
    }
    position.legal_moves().map(|mv| perft(&position.play_unchecked(rules, mv), rules, depth - 1)).sum()
}

/// Returns the perft count below each legal move ("divide"), in move order.
pub fn divide(position: &Position, rules: &Rules, depth: u32) -> Vec<(crate::Move, u64)> {
    if depth == 0 || position.is_over(rules) {
        return Vec::new();
    }
    position.legal_moves().map(|mv| (mv, perft(&position.play_unchecked(rules, mv), rules, depth - 1))).collect()
}
