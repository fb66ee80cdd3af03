//! The web API's request bodies: a new-game body, then move, undo, redo and goto bodies applied
//! to the game it starts. Never a panic; every refusal is a one-line message with a 4xx status
//! and leaves the game as it was; an accepted request keeps the seeds, and the game's state
//! serialises as the JSON the API sends.
//!
//! Input: byte 0 separates the bodies; the first is the new-game body, each later one starts with
//! its kind (`m` move, `u` undo, `r` redo, `g` goto, anything else a move).

#![no_main]

use kalah_rules::Leftover;
use kalah_web::games::Session;
use libfuzzer_sys::fuzz_target;

fn refused(e: &kalah_web::ApiError) {
    assert!(e.status().is_client_error(), "{e}");
    assert!(!e.message().is_empty() && !e.message().contains('\n'), "{e}");
}

fn state_is_json(session: &Session) {
    let state = kalah_web::api::state("fuzz", session);
    let text = serde_json::to_string(&state).expect("the state serialises");
    serde_json::from_str::<serde_json::Value>(&text).expect("as JSON");
}

fuzz_target!(|data: &[u8]| {
    let mut bodies = data.split(|&b| b == 0);
    let first = bodies.next().unwrap_or_default();
    let mut session = match kalah_web::start(first) {
        Ok((session, warnings)) => {
            assert!(warnings.iter().all(|w| !w.to_string().contains('\n')));
            session
        }
        Err(e) => return refused(&e),
    };
    state_is_json(&session);
    let total = session.game().position().total_seeds();
    for body in bodies.take(32) {
        let (kind, body) = body.split_first().map_or((b'm', body), |(&k, rest)| (k, rest));
        let (history, version) = (session.history().clone(), session.version());
        let result = match kind {
            b'u' => kalah_web::undo(&mut session, body),
            b'r' => kalah_web::redo(&mut session, body),
            b'g' => kalah_web::goto(&mut session, body),
            _ => kalah_web::person_move(&mut session, "fuzz", body),
        };
        match result {
            Err(e) => {
                refused(&e);
                assert_eq!(session.history(), &history, "a refused request changed the game: {e}");
                assert_eq!(session.version(), version);
            }
            Ok(()) => {
                assert!(session.version() > version);
                let game = session.game();
                let now = game.position().total_seeds();
                let discarded = game.is_over() && game.rules().leftover == Leftover::Discard;
                assert!(now == total || (discarded && now < total), "{total} seeds became {now}");
                assert_eq!(session.history().whole_line().actions().len(), session.history().plies());
            }
        }
    }
    state_is_json(&session);
});
