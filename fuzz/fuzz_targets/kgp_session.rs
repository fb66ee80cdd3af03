//! A KGP session fed any lines: never a panic; every line it sends is one line; a search it
//! starts is on a legal board; after its end it does nothing more.

#![no_main]

use std::time::Duration;

use kalah_protocol::kgp::{Action, Config, Mode, Session};
use kalah_protocol::Frame;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, lines)) = data.split_first() else { return };
    let mode = [Mode::Freeplay, Mode::Verify, Mode::Eval][usize::from(mode) % 3];
    let config = Config { name: "fuzz".into(), authors: None, token: None, mode, time: Duration::from_millis(100) };
    let mut session = Session::new(config);
    for line in lines.split(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let was_over = session.is_over();
        let actions = session.receive(&Frame::Line(line.to_vec()));
        if was_over {
            assert!(actions.is_empty(), "a session that ended answered {actions:?}");
        }
        for action in actions {
            match action {
                Action::Send(message) => {
                    let text = message.to_string();
                    assert!(!text.contains('\n') && !text.contains('\r'), "{text:?}");
                }
                Action::Think(think) => {
                    assert!(
                        !think.position.legal_moves().collect::<Vec<_>>().is_empty()
                            || think.position.is_over(&think.rules)
                    );
                }
                _ => {}
            }
        }
    }
});
