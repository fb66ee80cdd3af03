//! KGP board literals of any seed total: never a panic, one-line errors, and a board read is
//! written back (seen from the player to move) as the same board.

#![no_main]

use kalah_rules::Position;
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|text: &str| {
    match Position::parse_kgp_any_total(text) {
        Ok(position) => {
            let written = position.to_kgp();
            let again = Position::parse_kgp_any_total(&written).expect("a written board reads");
            assert_eq!(again, position, "{text:?} -> {written:?}");
            assert_eq!(again.total_seeds(), position.total_seeds());
        }
        Err(e) => common::one_line(&e.to_string()),
    }
});
