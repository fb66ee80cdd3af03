//! Rule texts (`kalah(6,4) empty-capture pie`, `capture=none …`): never a panic, one-line
//! errors, and rules read are written as a text that reads as the same rules.

#![no_main]

use kalah_rules::Rules;
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|text: &str| {
    match text.parse::<Rules>() {
        Ok(rules) => {
            let written = rules.to_string();
            assert_eq!(written.parse::<Rules>().as_ref(), Ok(&rules), "{text:?} -> {written:?}");
        }
        Err(e) => common::one_line(&e.to_string()),
    }
});
