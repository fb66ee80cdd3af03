//! The perfect-play explorer against the solver: every move of every position of the first
//! three plies of Kalah(4,4) agrees with a solve of the position it leads to, and the committed
//! Kalah(6,4) opening book agrees with itself from ply to ply (each move's value is the value of
//! the position it leads to) and, with `--ignored`, with the solver.

use kalah_engine::book::{self, Book};
use kalah_engine::explorer::{explore, Budget};
use kalah_engine::search::{Limits, Options};
use kalah_engine::solver::Solver;
use kalah_rules::{Position, Rules};

/// The committed opening book of Kalah(6,4), 4 plies (`kalah solve book`, docs/solver.md).
const BOOK_6_4: &str = include_str!("../../../books/kalah-6-4-standard.book");

fn solver() -> Solver {
    Solver::new(Options { table_bytes: 64 << 20, ..Options::default() })
}

/// The value of `child` (reached by a move from `parent`) for `parent`'s mover, by a solve.
fn solved_for_mover(solver: &Solver, parent: &Position, child: &Position, rules: &Rules) -> i32 {
    let info = solver.solve(child, rules, None, Limits::default(), None, |_, _| {}).unwrap();
    let value = info.score.whole_seeds().0;
    if child.mover() == parent.mover() {
        value
    } else {
        -value
    }
}

#[test]
fn every_move_of_the_first_three_plies_of_kalah_4_4_agrees_with_the_solver() {
    let rules = Rules::standard(4, 4).unwrap();
    // One table for the explorer, another for the solves it is checked against.
    let (explorer, checker) = (solver(), solver());
    let positions = book::positions(&rules, 3);
    assert!(positions.len() > 10, "{} positions", positions.len());
    let mut moves = 0;
    for position in &positions {
        let explored = explore(&explorer, position, &rules, Budget::default());
        assert!(explored.is_complete(), "{position}");
        assert_eq!(explored.moves.len(), position.legal_moves().len());
        for m in &explored.moves {
            let child = position.play_unchecked(&rules, m.mv);
            let expected = solved_for_mover(&checker, position, &child, &rules);
            assert_eq!(m.value().map(|v| v.0), Some(expected), "{position} move {}", m.mv);
            assert_eq!(m.again, child.mover() == position.mover() && !child.is_over(&rules));
            moves += 1;
        }
        let root = checker.solve(position, &rules, None, Limits::default(), None, |_, _| {}).unwrap();
        assert_eq!(explored.value(), Some(root.score.whole_seeds()), "{position}");
        // The line is perfect: played out, it ends with the position's value.
        let mut end = *position;
        for &mv in &explored.line {
            end = end.play(&rules, mv).unwrap().0;
        }
        assert!(end.is_over(&rules), "{position}: the line does not end the game");
        let sign = position.mover().sign();
        assert_eq!(Some(end.final_difference(&rules) * sign), explored.value().map(|v| v.0), "{position}");
    }
    assert!(moves > 40, "{moves} moves checked");
}

#[test]
fn the_kalah_6_4_book_holds_every_position_of_its_plies_and_agrees_with_itself() {
    let rules = Rules::standard(6, 4).unwrap();
    let book = Book::from_bytes(BOOK_6_4.as_bytes(), Some(&rules)).unwrap();
    let positions = book::positions(&rules, book.plies());
    assert_eq!(book.entries().map(|(p, _)| *p).collect::<Vec<_>>(), positions);
    let mut checked = 0;
    for (position, explored) in book.entries() {
        assert!(explored.is_complete(), "{position}");
        assert_eq!(explored.moves.len(), position.legal_moves().len(), "{position}");
        for m in &explored.moves {
            let child = position.play_unchecked(&rules, m.mv);
            let Some(below) = book.get(&rules, &child).unwrap() else { continue };
            let value = below.value().unwrap().0;
            let expected = if child.mover() == position.mover() { value } else { -value };
            assert_eq!(m.value().map(|v| v.0), Some(expected), "{position} move {}", m.mv);
            checked += 1;
        }
        // The line is a line of legal moves whose first is a best move.
        let mut end = *position;
        for &mv in &explored.line {
            end = end.play(&rules, mv).unwrap().0;
        }
        assert!(end.is_over(&rules));
        assert_eq!(Some(end.final_difference(&rules) * position.mover().sign()), explored.value().map(|v| v.0));
    }
    assert!(checked > 200, "{checked} moves checked against the positions they lead to");
    // Kalah(6,4) is +8 for South (tests/data/values.txt).
    let start = book.get(&rules, &Position::start(&rules)).unwrap().unwrap();
    assert_eq!(start.value().map(|v| v.0), Some(8));
}

#[test]
#[ignore = "solves every move of plies 0-2 of Kalah(6,4) with no database: hours (the start alone took 9 minutes)"]
fn the_kalah_6_4_book_agrees_with_the_solver() {
    let rules = Rules::standard(6, 4).unwrap();
    let book = Book::from_bytes(BOOK_6_4.as_bytes(), Some(&rules)).unwrap();
    let checker = Solver::new(Options { table_bytes: 512 << 20, ..Options::default() });
    for position in book::positions(&rules, 3) {
        let explored = book.get(&rules, &position).unwrap().unwrap();
        for m in &explored.moves {
            let child = position.play_unchecked(&rules, m.mv);
            let expected = solved_for_mover(&checker, &position, &child, &rules);
            assert_eq!(m.value().map(|v| v.0), Some(expected), "{position} move {}", m.mv);
        }
    }
}
