//! The position notation: whatever the text, reading it never panics; an error is one line; a
//! position read is written back as a text that reads as the same position.

#![no_main]

use kalah_rules::{Position, Setup};
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|text: &str| {
    match text.parse::<Position>() {
        Ok(position) => {
            let written = position.to_string();
            assert_eq!(written.parse::<Position>().as_ref(), Ok(&position), "{text:?} -> {written:?}");
            let setup: Setup = written.parse().expect("a written position reads as a setup");
            assert_eq!(setup.total_seeds(), u32::from(position.total_seeds()));
        }
        Err(e) => common::one_line(&e.to_string()),
    }
});
