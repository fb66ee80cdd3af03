//! An MKAgent session fed any lines: never a panic; a line it ignores leaves it as it was.

#![no_main]

use kalah_protocol::mkagent::Session;
use kalah_rules::Rules;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let mut session = Session::new(Rules::mkagent());
    for line in text.lines() {
        let before = format!("{session:?}");
        if let Err(ignored) = session.receive_line(line) {
            let message = ignored.to_string();
            assert!(!message.contains('\n'), "{message:?}");
            assert_eq!(format!("{session:?}"), before, "an ignored line {line:?} changed the session");
        }
    }
});
