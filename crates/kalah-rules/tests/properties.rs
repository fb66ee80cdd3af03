//! Invariants of the rules under every combination of variants, on random games.

use kalah_rules::{Game, Leftover, Position, Record, Rules, Setup, Side};
use proptest::prelude::*;

fn any_rules() -> impl Strategy<Value = Rules> {
    (1u8..=7, 1u8..=6, any::<prop::sample::Index>()).prop_map(|(m, n, which)| {
        let all = Rules::variants(m, n).unwrap();
        all[which.index(all.len())]
    })
}

/// Sowings after which a game counts as never ending: far above any real game on these boards.
const LONGEST: usize = 20_000;

/// Plays a game by the choices (taken modulo the number of legal moves); returns every position.
fn play_out(rules: &Rules, choices: &[usize]) -> Vec<Position> {
    let mut position = Position::start(rules);
    let mut seen = vec![position];
    let mut i = 0;
    while !position.is_over(rules) && seen.len() < LONGEST {
        let moves: Vec<_> = position.legal_moves().collect();
        let mv = moves[choices[i % choices.len()] % moves.len()];
        i += 1;
        position = position.play(rules, mv).expect("a listed move is legal").0;
        seen.push(position);
    }
    seen
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn seeds_are_conserved_and_games_end(rules in any_rules(), choices in prop::collection::vec(0usize..12, 1..40)) {
        let positions = play_out(&rules, &choices);
        let last = positions.last().unwrap();
        prop_assert!(last.is_over(&rules), "a game of {} did not end in {LONGEST} sowings", rules);
        for p in &positions[..positions.len() - 1] {
            prop_assert_eq!(p.total_seeds(), rules.total_seeds());
        }
        if rules.leftover != Leftover::Discard {
            prop_assert_eq!(last.total_seeds(), rules.total_seeds());
        }
        prop_assert_eq!(last.seeds_in_houses(), 0, "the end deals out the leftover seeds");
    }

    #[test]
    fn listed_moves_are_exactly_the_legal_ones(rules in any_rules(), choices in prop::collection::vec(0usize..12, 1..40)) {
        for p in play_out(&rules, &choices) {
            let listed = p.legal_moves();
            for number in 1..=12 {
                let mv = kalah_rules::Move::from_number(number).unwrap();
                let legal = p.play(&rules, mv).is_ok();
                prop_assert_eq!(legal, listed.contains(mv) && !p.is_over(&rules), "{} house {}", p, number);
            }
            if !p.is_over(&rules) {
                prop_assert!(!listed.is_empty());
            }
        }
    }

    #[test]
    fn stores_never_lose_seeds(rules in any_rules(), choices in prop::collection::vec(0usize..12, 1..40)) {
        let positions = play_out(&rules, &choices);
        for pair in positions.windows(2) {
            for side in Side::BOTH {
                prop_assert!(pair[1].store(side) >= pair[0].store(side));
            }
        }
    }

    #[test]
    fn the_notation_and_the_setup_round_trip(rules in any_rules(), choices in prop::collection::vec(0usize..12, 1..40)) {
        for p in play_out(&rules, &choices) {
            prop_assert_eq!(Position::parse(&p.to_string(), &rules).unwrap(), p);
            prop_assert_eq!(Position::from_setup(Setup::from(p), &rules), Ok(p));
            if p.quiet() == 0 {
                let kgp = Position::parse(&p.to_kgp(), &rules).unwrap();
                // A KGP board is the mover's view, read back with the mover as South.
                prop_assert_eq!(kgp.to_kgp(), p.to_kgp());
                if p.mover() == Side::South {
                    prop_assert_eq!(kgp, p);
                }
            }
        }
    }

    #[test]
    fn only_the_start_of_a_game_counts_as_the_first_move(rules in any_rules(), choices in prop::collection::vec(0usize..12, 1..40)) {
        // What the first-move variant and the search's table keys rely on (Rules::is_first_move).
        let positions = play_out(&rules, &choices);
        prop_assert!(rules.is_first_move(&positions[0]));
        for p in &positions[1..] {
            prop_assert!(!rules.is_first_move(p), "{} under {}", p, rules);
        }
    }

    #[test]
    fn records_round_trip(rules in any_rules(), pie in any::<bool>(), choices in prop::collection::vec(0usize..400, 1..40)) {
        let mut rules = rules;
        rules.pie = pie;
        rules.handicap = choices[0] % 2 == 0;
        let mut game = Game::new(rules);
        let mut i = 0;
        while !game.is_over() && game.actions().len() < 300 {
            let actions = game.legal_actions();
            game.act(actions[choices[i % choices.len()] % actions.len()]).unwrap();
            i += 1;
        }
        let text = Record::new(game.clone()).to_text();
        prop_assert_eq!(Record::parse(&text).map(|p| p.record.game), Ok(game), "{}", text);
    }
}

#[test]
fn clockwise_positions_repeat_already_in_kalah_2_1_and_the_no_progress_rule_ends_the_game() {
    let rules = Rules::preset("clockwise", 2, 1).unwrap();
    // South's house 1 goes to North's house 2, North's house 1 to South's house 2, and back: a cycle.
    let mut p = Position::start(&rules);
    let board = |p: &Position| format!("{:?}{:?}{:?}", p.row(Side::South), p.row(Side::North), p.mover());
    let mut boards = std::collections::HashSet::new();
    let mut repeated = false;
    while !p.is_over(&rules) {
        repeated |= !boards.insert(board(&p));
        // Always the house that keeps seeds out of the stores, if there is one.
        let mv = p
            .legal_moves()
            .find(|&mv| {
                let c = p.play_unchecked(&rules, mv);
                c.store(Side::South) + c.store(Side::North) == 0
            })
            .unwrap_or_else(|| p.legal_moves().next().unwrap());
        p = p.play_unchecked(&rules, mv);
    }
    assert!(repeated, "the board repeated");
    assert_eq!(p.seeds_in_houses(), 0);
    assert_eq!(p.store(Side::South) + p.store(Side::North), 4);
}

#[test]
fn relay_sowing_always_ends_on_small_boards() {
    // Every position of up to 6 seeds on 3 houses a side, every move: the relay stops (the bound
    // in the sowing is a lap per seed in the mover's store, so a loop here would hang the test).
    let rules = Rules::preset("seed-on", 3, 1).unwrap();
    let mut count = 0;
    for code in 0..7usize.pow(6) {
        let mut cells = [0u16; 6];
        let mut c = code;
        for cell in &mut cells {
            *cell = (c % 7) as u16;
            c /= 7;
        }
        if cells.iter().sum::<u16>() > 6 {
            continue;
        }
        let text = format!("{},{},{}:0/{},{},{}:0/S", cells[0], cells[1], cells[2], cells[3], cells[4], cells[5]);
        let p = Position::parse(&text, &rules).unwrap();
        if p.is_over(&rules) {
            continue;
        }
        for mv in p.legal_moves() {
            let (next, _) = p.play(&rules, mv).unwrap();
            assert_eq!(next.total_seeds(), p.total_seeds());
            count += 1;
        }
    }
    assert!(count > 1000);
}
