//! The web API's request bodies: a new-game body, then move, undo, redo and goto bodies applied
//! to the game it starts. Never a panic; every refusal is a one-line message with a 4xx status
//! and leaves the game as it was; an accepted request keeps the seeds, the game rebuilt from how
//! it began and its events equals the live one, and the game's state serialises as the JSON the
//! API sends.
//!
//! Input: byte 0 separates the bodies; the first is the new-game body, each later one starts with
//! its kind (`m` move, `u` undo, `r` redo, `g` goto, anything else a move).

#![no_main]

use kalah_rules::Leftover;
use kalah_table::request::{self, Command};
use kalah_table::route::Route;
use kalah_table::{Actor, Moment, Refused, Table};
use libfuzzer_sys::fuzz_target;

fn refused(e: &Refused) {
    assert!((400..500).contains(&e.status()), "{e}");
    let message = e.to_string();
    assert!(!message.is_empty() && !message.contains('\n'), "{e}");
}

fn state_is_json(session: &Table) {
    let state = session.state("fuzz", Moment(0));
    let text = serde_json::to_string(&state).expect("the state serialises");
    serde_json::from_str::<serde_json::Value>(&text).expect("as JSON");
}

fuzz_target!(|data: &[u8]| {
    let mut bodies = data.split(|&b| b == 0);
    let first = bodies.next().unwrap_or_default();
    let mut token = || "fuzz".to_string();
    let mut session = match request::create(first, Moment(0), Some(&mut token)) {
        Ok(created) => {
            assert!(created.warnings.iter().all(|w| !w.to_string().contains('\n')));
            created.table
        }
        Err(e) => return refused(&e),
    };
    state_is_json(&session);
    let start = session.start();
    let total = session.game().position().total_seeds();
    for body in bodies.take(32) {
        let (kind, body) = body.split_first().map_or((b'm', body), |(&k, rest)| (k, rest));
        let (history, version) = (session.history().clone(), session.version());
        let route = match kind {
            b'u' => Route::Undo,
            b'r' => Route::Redo,
            b'g' => Route::Goto,
            _ => Route::Move,
        };
        let command = Command::read(route, body).expect("a route with a body");
        let result = command.and_then(|command| session.handle(Actor::Person, command, Moment(0)));
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
                let rebuilt = Table::rebuild(&start, session.unsaved().1).expect("a live game's log rebuilds it");
                assert!(rebuilt == session, "the game rebuilt from its events is not the live one");
            }
        }
    }
    state_is_json(&session);
});
