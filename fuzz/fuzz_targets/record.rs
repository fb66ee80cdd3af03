//! Game records: never a panic; an error names its line in one line; a record read is written
//! as a text that reads as the same game.

#![no_main]

use kalah_rules::Record;
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|text: &str| {
    match Record::parse(text) {
        Ok(parsed) => {
            let written = parsed.record.to_text();
            let again = Record::parse(&written).expect("a written record reads");
            assert!(again.warnings.is_empty(), "{written:?}: {:?}", again.warnings);
            assert_eq!(again.record.game, parsed.record.game, "{text:?} -> {written:?}");
        }
        Err(e) => {
            common::one_line(&e.to_string());
            assert!(e.line >= 1 && e.line <= text.lines().count().max(1) + 1, "line {} of {text:?}", e.line);
        }
    }
});
