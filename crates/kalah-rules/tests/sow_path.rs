//! The seed-by-seed path of a sowing ([`Position::sow_path`]) against the sowing that plays the
//! move, under every combination of rule variants.

use kalah_rules::{Move, Position, Rules, Side, Step};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Returns the cells of `position` in the order [`Step`] numbers them.
fn cells(position: &Position) -> Vec<u16> {
    let mut cells = Vec::new();
    for side in Side::BOTH {
        cells.extend_from_slice(position.row(side));
        cells.push(position.store(side));
    }
    cells
}

/// Follows the steps on the cells before the move; every lifted seed must be dropped.
fn replay(before: &Position, steps: &[Step]) -> Vec<u16> {
    let mut cells = cells(before);
    let mut hand = 0;
    for step in steps {
        match *step {
            Step::Lift(c) => {
                assert_eq!(hand, 0, "a lift with seeds still in the hand");
                hand = std::mem::take(&mut cells[usize::from(c)]);
                assert!(hand > 0, "a lift of an empty cell");
            }
            Step::Drop(c) => {
                assert!(hand > 0, "a drop from an empty hand");
                cells[usize::from(c)] += 1;
                hand -= 1;
            }
            Step::Capture { house, opposite, store } => {
                assert_eq!(hand, 0, "a capture before the last seed fell");
                let taken =
                    std::mem::take(&mut cells[usize::from(house)]) + std::mem::take(&mut cells[usize::from(opposite)]);
                cells[usize::from(store)] += taken;
            }
        }
    }
    assert_eq!(hand, 0, "every lifted seed is dropped");
    cells
}

#[test]
fn the_path_ends_where_the_sowing_does_under_every_variant() {
    let mut rng = StdRng::seed_from_u64(7);
    let mut checked = 0;
    let mut ended = 0;
    for (houses, seeds) in [(1, 3), (2, 4), (3, 2), (6, 4)] {
        for rules in Rules::variants(houses, seeds).unwrap() {
            for _ in 0..16 {
                let mut position = Position::start(&rules);
                for _ in 0..rng.gen_range(0..30) {
                    let moves: Vec<Move> = position.legal_moves().collect();
                    if moves.is_empty() || position.is_over(&rules) {
                        break;
                    }
                    position = position.play_unchecked(&rules, moves[rng.gen_range(0..moves.len())]);
                }
                if position.is_over(&rules) {
                    continue;
                }
                for mv in position.legal_moves() {
                    let (after, outcome) = position.play(&rules, mv).unwrap();
                    let path = position.sow_path(&rules, mv).unwrap();
                    assert_eq!(
                        path[0],
                        Step::Lift(mv.index() as u8 + if position.mover() == Side::South { 0 } else { houses + 1 })
                    );
                    let lifts = path.iter().filter(|s| matches!(s, Step::Lift(_))).count();
                    assert_eq!(lifts, 1 + usize::from(outcome.relays), "{rules} {position} move {mv}");
                    let captures = path.iter().filter(|s| matches!(s, Step::Capture { .. })).count();
                    assert_eq!(captures, usize::from(outcome.captured > 0), "{rules} {position} move {mv}");
                    let walked = replay(&position, &path);
                    if outcome.ended {
                        // The sweep deals out the houses; every seed is still on the board before it.
                        assert_eq!(walked.iter().sum::<u16>(), position.total_seeds());
                        ended += 1;
                        continue;
                    }
                    assert_eq!(walked, cells(&after), "{rules} {position} move {mv}");
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 20_000 && ended > 100, "only {checked} sowings checked, {ended} ending the game");
}

#[test]
fn an_illegal_move_has_no_path() {
    let rules = Rules::standard(2, 1).unwrap();
    let position: Position = "0,1:0/1,1:0/S".parse().unwrap();
    let first = Move::from_number(1).unwrap();
    assert_eq!(position.sow_path(&rules, first), position.play(&rules, first).map(|_| Vec::new()));
    assert!(position.sow_path(&rules, Move::from_number(3).unwrap()).is_err());
}
