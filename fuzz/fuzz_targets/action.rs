//! Actions typed into a game (`3`, `N4>S3`, `swap`, `keep`, …) in any rule set and any position
//! reached: never a panic; a refused text or action leaves the game as it was; an accepted one
//! keeps the seeds on the board and can be undone.

#![no_main]

use kalah_rules::{Game, Leftover};
use libfuzzer_sys::{arbitrary, fuzz_target};

#[path = "common.rs"]
mod common;

#[derive(Debug, arbitrary::Arbitrary)]
struct Input<'a> {
    houses: u8,
    seeds: u8,
    variant: u16,
    extra: u8,
    /// Legal actions played first, by index.
    before: Vec<u8>,
    text: &'a str,
}

fuzz_target!(|input: Input| {
    let rules = common::rules(input.houses, input.seeds, input.variant, input.extra);
    let mut game = Game::new(rules);
    for &choice in input.before.iter().take(40) {
        let actions = game.legal_actions();
        if actions.is_empty() {
            break;
        }
        game.act(actions[usize::from(choice) % actions.len()]).expect("a legal action plays");
    }
    let total = game.position().total_seeds();
    let before = game.clone();
    match game.parse_action(input.text) {
        Err(e) => {
            common::one_line(&e.to_string());
            assert_eq!(game, before);
        }
        Ok(action) => match game.act(action) {
            Err(e) => {
                common::one_line(&e.to_string());
                assert_eq!(game, before, "a refused {action} changed the game");
            }
            Ok(_) => {
                assert!(game.legal_actions().len() <= 2 * 12 + 2);
                // Seeds leave the board only when the game ends under the leftover rule `discard`.
                let discarded = game.is_over() && rules.leftover == Leftover::Discard;
                let now = game.position().total_seeds();
                assert!(now == total || (discarded && now < total), "{action}: {total} seeds became {now}");
                assert_eq!(game.undo(), Some(action));
                assert_eq!(game, before, "undoing {action} did not give the game back");
            }
        },
    }
});
