//! The solver reproduces the solved values of `data/values.txt` (Irving, Donkers and Uiterwijk 2000;
//! Rawlings 2015; an independent re-computation: the file's header names each).

use kalah_engine::search::{Limits, Options};
use kalah_engine::solver::Solver;
use kalah_rules::{Position, Rules};

struct Case {
    rules: Rules,
    value: i32,
    line: usize,
}

fn cases() -> Vec<Case> {
    include_str!("data/values.txt")
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let rules = Rules::preset(f[0], f[1].parse().unwrap(), f[2].parse().unwrap()).unwrap();
            Case { rules, value: f[3].parse().unwrap(), line: i + 1 }
        })
        .collect()
}

/// The boards that solve in a few seconds here without an endgame database: with fastest-first
/// order Kalah(5,4) standard, the slowest of them, takes 6.8 s in a release build.
fn quick(rules: &Rules) -> bool {
    let seeds = rules.total_seeds();
    seeds <= 40 || (rules.houses() <= 4 && seeds <= 48)
}

fn check(selected: impl Fn(&Rules) -> bool) {
    let mut ran = 0;
    for case in cases().into_iter().filter(|c| selected(&c.rules)) {
        let solver = Solver::new(Options { table_bytes: 64 << 20, ..Options::default() });
        let info =
            solver.solve(&Position::start(&case.rules), &case.rules, None, Limits::default(), None, |_, _| {}).unwrap();
        assert_eq!(info.score.hundredths(), case.value * 100, "line {}: {}", case.line, case.rules);
        ran += 1;
    }
    assert!(ran > 0);
}

#[test]
fn small_boards_solve_to_their_published_values() {
    check(quick);
}

#[test]
#[ignore = "minutes to hours without an endgame database; docs/solver.md's figures come from these"]
fn large_boards_solve_to_their_published_values() {
    check(|r| !quick(r));
}
