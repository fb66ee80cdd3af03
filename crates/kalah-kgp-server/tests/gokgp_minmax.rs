//! `minimax-D` against go-kgp's own `MinMax-D`: the table `data/gokgp-minmax.txt` holds, for 400
//! boards reached by random play on Kalah(6,6), (4,4) and (8,8) and for D = 1 to 6, the value
//! go-kgp's search gives and every move of that value (its header says how it was made). Where
//! go-kgp has one best move `minimax-D` must play it; everywhere it must expect go-kgp's value
//! and, among equal moves, take go-kgp's (the first in house order).

use kalah_kgp_server::bot::minimax;
use kalah_rules::{Position, Rules, Side};

/// One line of the table: a board, go-kgp's depth, and what go-kgp's search found there.
struct Case {
    line: usize,
    text: &'static str,
    rules: Rules,
    position: Position,
    depth: u8,
    value: i32,
    /// Every move of go-kgp's best value, as 1-based houses in house order.
    best: Vec<u8>,
}

/// Reads the table, failing on any line it cannot read: a line skipped would be a check lost.
fn cases() -> Vec<Case> {
    let table = include_str!("data/gokgp-minmax.txt");
    let mut cases = Vec::new();
    for (i, text) in table.lines().enumerate() {
        if text.starts_with('#') || text.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = text.split_whitespace().collect();
        let [houses, seeds, side, board, depth, value, best] = fields[..] else {
            panic!("line {}: 7 fields expected: {text}", i + 1);
        };
        let number = |field: &str| field.parse::<i32>().unwrap_or_else(|_| panic!("line {}: {field}", i + 1));
        let rules = Rules::preset("kgp", number(houses) as u8, number(seeds) as u8).unwrap();
        let side = match side {
            "S" => Side::South,
            "N" => Side::North,
            _ => panic!("line {}: side {side}", i + 1),
        };
        // go-kgp writes its board as it stands, South's side first; a KGP board literal reads
        // the same way, with South to move.
        let position = board.parse::<Position>().unwrap_or_else(|e| panic!("line {}: {e}", i + 1)).with_mover(side);
        assert_eq!(position.houses(), rules.houses(), "line {}", i + 1);
        assert!(!position.is_over(&rules), "line {}: the game is over", i + 1);
        let best: Vec<u8> = best.split(',').map(|house| number(house) as u8).collect();
        assert!(best.windows(2).all(|w| w[0] < w[1]), "line {}: moves in house order", i + 1);
        cases.push(Case { line: i + 1, text, rules, position, depth: number(depth) as u8, value: number(value), best });
    }
    // 400 boards at each of the depths 1 to 6, on the three boards: nothing lost on the way.
    for depth in 1..=6 {
        assert_eq!(cases.iter().filter(|c| c.depth == depth).count(), 400, "boards at depth {depth}");
    }
    for houses in [4, 6, 8] {
        assert!(cases.iter().any(|c| c.rules.houses() == houses), "Kalah({houses},{houses})");
    }
    assert_eq!(cases.len(), 6 * 400);
    cases
}

/// The lines of `cases` where `wrong` holds, written out for a failure's message.
fn failures(cases: &[Case], wrong: impl Fn(&Case, u8, i32) -> bool) -> Vec<String> {
    cases
        .iter()
        .filter_map(|c| {
            let (mv, value) = minimax(&c.position, &c.rules, c.depth);
            wrong(c, mv.number(), value)
                .then(|| format!("line {}: {} -> minimax-{} plays {} (value {value})", c.line, c.text, c.depth, mv))
        })
        .collect()
}

#[test]
fn minimax_d_plays_go_kgps_minmax_d_wherever_its_move_is_unique() {
    let cases = cases();
    let unique: Vec<Case> = cases.into_iter().filter(|c| c.best.len() == 1).collect();
    // Most boards have one best move at every depth: enough to tell one depth from the next.
    for depth in 1..=6 {
        assert!(unique.iter().filter(|c| c.depth == depth).count() >= 200, "unique moves at depth {depth}");
    }
    let wrong = failures(&unique, |c, mv, _| mv != c.best[0]);
    assert!(wrong.is_empty(), "{} of {} unique moves differ:\n{}", wrong.len(), unique.len(), wrong.join("\n"));
}

#[test]
fn minimax_d_values_and_breaks_ties_as_go_kgps_minmax_d() {
    let cases = cases();
    let wrong = failures(&cases, |c, mv, value| value != c.value || mv != c.best[0]);
    assert!(wrong.is_empty(), "{} of {} lines differ:\n{}", wrong.len(), cases.len(), wrong.join("\n"));
}
