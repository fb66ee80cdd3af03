//! The three searches agree on the value at every depth, under every rule variant, and are deterministic.

use kalah_course::classic::{search, Algorithm};
use kalah_course::compare::sample_positions;
use kalah_engine::eval::Weights;
use kalah_rules::{Position, Rules};
use proptest::prelude::*;

/// Every variant of the rules on boards up to Kalah(6,5), except the two that only the game's
/// first move or its stores can change (`first_move_extra`, `majority_ends`).
fn any_rules() -> impl Strategy<Value = Rules> {
    (2u8..=6, 1u8..=5, any::<prop::sample::Index>()).prop_map(|(m, n, which)| {
        let all: Vec<Rules> =
            Rules::variants(m, n).unwrap().into_iter().filter(|r| r.first_move_extra && !r.majority_ends).collect();
        all[which.index(all.len())]
    })
}

fn walk(rules: &Rules, choices: &[usize]) -> Position {
    let mut p = Position::start(rules);
    for &c in choices {
        let moves: Vec<_> = p.legal_moves().collect();
        if moves.is_empty() {
            break;
        }
        p = p.play_unchecked(rules, moves[c % moves.len()]);
    }
    p
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn the_three_searches_agree(
        rules in any_rules(),
        choices in prop::collection::vec(0usize..12, 0..30),
        depth in 1u32..=5,
        tuned in any::<bool>(),
    ) {
        let p = walk(&rules, &choices);
        let weights = if tuned { Weights::TUNED } else { Weights::STORE };
        let values: Vec<i32> = Algorithm::ALL.iter().map(|&a| search(&p, &rules, depth, a, &weights).value).collect();
        prop_assert!(values.iter().all(|&v| v == values[0]), "{} at depth {}: {:?}", p, depth, values);
    }

    #[test]
    fn searches_are_deterministic(rules in any_rules(), choices in prop::collection::vec(0usize..12, 0..20), depth in 1u32..=5) {
        let p = walk(&rules, &choices);
        for algorithm in Algorithm::ALL {
            prop_assert_eq!(search(&p, &rules, depth, algorithm, &Weights::TUNED), search(&p, &rules, depth, algorithm, &Weights::TUNED));
        }
    }
}

#[test]
fn the_searches_agree_on_positions_from_real_games_to_depth_7() {
    for preset in ["standard", "empty-capture", "assignment"] {
        let rules = Rules::preset(preset, 6, 6).unwrap();
        for p in sample_positions(&rules, 25, 11) {
            for depth in 1..=7 {
                let values: Vec<i32> =
                    Algorithm::ALL.iter().map(|&a| search(&p, &rules, depth, a, &Weights::TUNED).value).collect();
                assert!(values.iter().all(|&v| v == values[0]), "{preset} {p} depth {depth}: {values:?}");
            }
        }
    }
}
