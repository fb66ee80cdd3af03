//! The path of a sowing seed by seed, for the page to animate.
//!
//! The library sows whole laps at once and reports only the result; a page that draws each seed
//! needs the cells in the order the seeds reach them. The path is worked out here from the
//! position before the move, and a test checks it against the library's sowing under every rule
//! variant.
//!
//! Cells are numbered counter-clockwise as the position notation reads: South's houses 1..m are
//! cells 0..m-1, South's store is cell m, North's houses 1..m are cells m+1..2m and North's store
//! is cell 2m+1.

use kalah_rules::{Direction, Move, Position, Rules, Side, Sowing};
use serde::Serialize;

/// The longest path worked out; every real sowing is far shorter (a relay passes the mover's store
/// each lap and leaves a seed there), so this only guards against a mistake looping for ever.
const MAX_STEPS: usize = 100_000;

/// One step of a sowing: seeds lifted from a cell, or one seed dropped into a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase", tag = "kind", content = "cell")]
pub enum Step {
    /// Every seed of the cell is taken into the hand.
    Lift(usize),
    /// One seed from the hand goes into the cell.
    Drop(usize),
}

/// Returns the cells of `position` in the order described in the module documentation.
pub fn cells(position: &Position) -> Vec<u16> {
    let mut cells = Vec::with_capacity(2 * usize::from(position.houses()) + 2);
    for side in Side::BOTH {
        cells.extend_from_slice(position.row(side));
        cells.push(position.store(side));
    }
    cells
}

/// Returns the steps of sowing `mv` from `before`, a position where `mv` is legal: the lift of the
/// house, a drop per seed, and a lift for each relay. Captures and the sweep at the end of the game
/// are not steps: the page shows them by going on to the position after the move.
pub fn path(before: &Position, rules: &Rules, mv: Move) -> Vec<Step> {
    let m = usize::from(before.houses());
    let len = 2 * m + 2;
    let mut cells = cells(before);
    let mover = before.mover();
    let base = if mover == Side::South { 0 } else { m + 1 };
    let own_store = base + m;
    let other_store = (own_store + m + 1) % len;
    let mut cursor = base + mv.index();
    let mut steps = Vec::new();
    if mv.index() >= m {
        return steps;
    }
    let mut hand = std::mem::take(&mut cells[cursor]);
    steps.push(Step::Lift(cursor));
    while hand > 0 && steps.len() < MAX_STEPS {
        cursor = match rules.direction {
            Direction::CounterClockwise => (cursor + 1) % len,
            Direction::Clockwise => (cursor + len - 1) % len,
        };
        if cursor == other_store {
            continue;
        }
        cells[cursor] += 1;
        hand -= 1;
        steps.push(Step::Drop(cursor));
        if hand == 0 && rules.sowing == Sowing::Relay && cursor != own_store && cells[cursor] > 1 {
            hand = std::mem::take(&mut cells[cursor]);
            steps.push(Step::Lift(cursor));
        }
    }
    steps
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_rules::rules::{CAPTURE_WORDS, DIRECTION_WORDS, SOWING_WORDS};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// Follows the steps on the cells before the move.
    fn replay(before: &Position, steps: &[Step]) -> Vec<u16> {
        let mut cells = cells(before);
        let mut hand = 0;
        for step in steps {
            match *step {
                Step::Lift(c) => hand += std::mem::take(&mut cells[c]),
                Step::Drop(c) => {
                    cells[c] += 1;
                    hand -= 1;
                }
            }
        }
        assert_eq!(hand, 0, "every lifted seed is dropped");
        cells
    }

    #[test]
    fn the_path_ends_where_the_library_sows_under_every_variant() {
        let mut rng = StdRng::seed_from_u64(7);
        let mut checked = 0;
        for &(_, capture) in &CAPTURE_WORDS {
            for &(_, direction) in &DIRECTION_WORDS {
                for &(_, sowing) in &SOWING_WORDS {
                    for houses in [1, 2, 3, 6] {
                        let mut rules = Rules::standard(houses, 4).unwrap();
                        rules.capture = capture;
                        rules.direction = direction;
                        rules.sowing = sowing;
                        for _ in 0..200 {
                            let mut position = Position::start(&rules);
                            for _ in 0..rng.gen_range(0..20) {
                                let moves: Vec<Move> = position.legal_moves().collect();
                                if moves.is_empty() {
                                    break;
                                }
                                position = position.play_unchecked(&rules, moves[rng.gen_range(0..moves.len())]);
                            }
                            for mv in position.legal_moves() {
                                let (after, outcome) = position.play(&rules, mv).unwrap();
                                let mut expected = cells(&after);
                                let mut walked = replay(&position, &path(&position, &rules, mv));
                                if outcome.ended {
                                    // The sweep empties the houses; the stores show it.
                                    continue;
                                }
                                if outcome.captured > 0 {
                                    // A capture empties the last house and its opposite into the store.
                                    let last = path(&position, &rules, mv).last().copied();
                                    let Some(Step::Drop(cell)) = last else { panic!("a capture ends with a drop") };
                                    let opposite = 2 * usize::from(houses) - cell;
                                    let store = if position.mover() == Side::South { houses } else { 2 * houses + 1 };
                                    walked[usize::from(store)] += walked[cell] + walked[opposite];
                                    walked[cell] = 0;
                                    walked[opposite] = 0;
                                    expected = cells(&after);
                                }
                                assert_eq!(walked, expected, "{rules} {position} move {mv}");
                                checked += 1;
                            }
                        }
                    }
                }
            }
        }
        assert!(checked > 10_000, "only {checked} sowings checked");
    }

    #[test]
    fn a_long_sowing_passes_its_own_house_and_skips_the_other_store() {
        let rules = Rules::standard(2, 1).unwrap();
        let before: Position = "6,0:0/0,1:0/S".parse().unwrap();
        let drops: Vec<Step> = path(&before, &rules, Move::from_number(1).unwrap());
        let cells: Vec<usize> = drops
            .iter()
            .map(|s| match s {
                Step::Lift(c) | Step::Drop(c) => *c,
            })
            .collect();
        // Cells 0,1 South's houses, 2 South's store, 3,4 North's houses, 5 North's store (skipped).
        assert_eq!(cells, [0, 1, 2, 3, 4, 0, 1]);
    }
}
