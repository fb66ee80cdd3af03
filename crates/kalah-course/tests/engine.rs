//! The strong engine's searches and its solver agree with the assignment's plain minimax, the
//! reference they are checked against, on positions from real games under several rule sets.

use kalah_course::classic::{search as classic_search, Algorithm};
use kalah_course::compare::sample_positions;
use kalah_engine::board::Layout;
use kalah_engine::eval::Weights;
use kalah_engine::score::Score;
use kalah_engine::search::{Engine, Limits, Options};
use kalah_engine::solver::Solver;
use kalah_rules::{Position, Rules};

/// A solver whose estimate is a single ply, so that even small games are solved by the proofs.
fn solver() -> Solver {
    Solver::new(Options { table_bytes: 4 << 20, ..Options::default() }).with_estimate_depth(1)
}

#[test]
fn without_a_table_the_search_agrees_with_plain_minimax() {
    // The table grafts deeper results into shallower searches, which is why engines use one;
    // without it every cut here (alpha-beta, ordering, seed bounds) must leave the value alone.
    for preset in ["standard", "empty-capture", "assignment", "seed-on"] {
        let rules = Rules::preset(preset, 6, 4).unwrap();
        for p in sample_positions(&rules, 8, 3) {
            for depth in 1..=6 {
                let engine = Engine::new(Options { table_bytes: 0, ..Options::default() });
                let info = engine.search(&p, &rules, Limits::depth(depth), None, |_| {});
                let plain = classic_search(&p, &rules, info.depth, Algorithm::Minimax, &Weights::TUNED);
                if !info.score.is_exact() {
                    assert_eq!(info.score.hundredths(), plain.value, "{preset} {p} depth {depth}");
                }
            }
        }
    }
}

#[test]
fn proven_values_agree_with_minimax_to_the_end() {
    let rules = Rules::standard(4, 2).unwrap();
    for p in sample_positions(&rules, 30, 9) {
        let engine = Engine::new(Options { table_bytes: 1 << 16, ..Options::default() });
        let info = engine.search(&p, &rules, Limits::default(), None, |_| {});
        let plain = classic_search(&p, &rules, 64, Algorithm::Minimax, &Weights::STORE);
        assert_eq!(info.score, Score::exact(plain.value), "{p}");
    }
}

#[test]
fn solved_values_agree_with_plain_minimax_to_the_end() {
    for (m, n) in [(3, 2), (3, 3), (4, 2), (2, 4)] {
        let rules = Rules::standard(m, n).unwrap();
        for position in sample_positions(&rules, 12, 5) {
            let exact = classic_search(&position, &rules, 200, Algorithm::Minimax, &Weights::STORE).value;
            let solved = solver().solve(&position, &rules, None, Limits::default(), None, |_, _| {}).unwrap();
            assert_eq!(solved.score.hundredths(), exact, "{rules} {position}");
        }
    }
}

#[test]
fn the_byte_board_proves_the_values_of_plain_minimax_under_every_rule_it_plays() {
    let mut boards = 0;
    for (m, n) in [(3, 2), (2, 3)] {
        // The byte board's rules: the others (clockwise sowing, store majorities) stay on
        // `Position`, which the tests above check.
        let played = |r: &Rules| r.direction == kalah_rules::Direction::CounterClockwise && !r.majority_ends;
        for rules in Rules::variants(m, n).unwrap().into_iter().filter(played) {
            let mut positions = sample_positions(&rules, 3, 17);
            positions.push(Position::start(&rules));
            for position in positions {
                let exact = classic_search(&position, &rules, 200, Algorithm::Minimax, &Weights::STORE).value;
                let solved = solver().solve(&position, &rules, None, Limits::default(), None, |_, _| {}).unwrap();
                assert_eq!(solved.score.hundredths(), exact, "{rules} {position}");
                boards += usize::from(Layout::of(&rules, &position).is_some());
            }
        }
    }
    assert!(boards > 200, "only {boards} solves on the byte board");
}

#[test]
fn two_threads_prove_the_same_values() {
    let rules = Rules::standard(4, 4).unwrap();
    let two = Solver::new(Options { table_bytes: 4 << 20, threads: 2, ..Options::default() }).with_estimate_depth(1);
    for position in sample_positions(&rules, 6, 9) {
        let exact = two.solve(&position, &rules, None, Limits::default(), None, |_, _| {}).unwrap().score;
        let single = solver().solve(&position, &rules, None, Limits::default(), None, |_, _| {}).unwrap().score;
        assert_eq!(exact, single, "{position}");
    }
}
