//! A KGP session fed any lines: never a panic; every line it sends is one line; a search it
//! starts is on a legal board, and what the search reports (a legal move, a move that is not
//! legal there, its end) is answered only with legal moves; after its end it does nothing more.

#![no_main]

use std::time::Duration;

use kalah_protocol::kgp::{Action, Config, Message, Mode, Progress, Session};
use kalah_rules::Score;
use kalah_protocol::Frame;
use kalah_rules::Move;
use libfuzzer_sys::fuzz_target;

/// Checks a line sent: one line, and a move among `legal` when the legal moves are known.
fn check(message: &Message, legal: Option<&[Move]>) {
    let text = message.to_string();
    assert!(!text.contains('\n') && !text.contains('\r'), "{text:?}");
    if let (Some(legal), "move") = (legal, message.command.as_str()) {
        let mv = message.int(0).and_then(|n| u32::try_from(n).ok()).and_then(Move::from_number);
        assert!(mv.is_some_and(|mv| legal.contains(&mv)), "{text} is not legal");
    }
}

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
                // A board with one move is answered without a search, and resent moves answer
                // such boards too: only the lines for a search are checked against its board.
                Action::Send(message) => check(&message, None),
                Action::Think(think) => {
                    let legal: Vec<Move> = think.position.legal_moves().collect();
                    assert!(!legal.is_empty() || think.position.is_over(&think.rules));
                    // The search reports a move that is not legal there, then a legal one, then its end.
                    let illegal = (1..=12).filter_map(Move::from_number).find(|mv| !legal.contains(mv));
                    let reports = illegal.into_iter().chain(legal.first().copied()).map(|best| Progress::Depth {
                        depth: 1,
                        best,
                        value: Score::new(line.len() as i32 - 50, line.len() % 2 == 0),
                        nodes: 1,
                    });
                    for report in reports.chain([Progress::Ended]) {
                        for message in session.progress(think.search, report) {
                            check(&message, Some(&legal));
                        }
                    }
                }
                _ => {}
            }
        }
    }
});
