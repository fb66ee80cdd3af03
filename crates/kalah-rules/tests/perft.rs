//! Reproduces the perft counts of `data/kalah.perft`, on which two independent implementations
//! (one in C, one in Python) agree.

use kalah_rules::{perft, Position, Rules};

/// Counts above this are left to `kalah perft` and the ignored test, so the suite stays fast.
const NODE_LIMIT: u64 = 30_000_000;

struct Case {
    line: usize,
    rules: Rules,
    position: Position,
    depth: u32,
    count: u64,
}

fn cases() -> Vec<Case> {
    let text = include_str!("data/kalah.perft");
    let mut rules = None;
    let mut position = None;
    let mut cases = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line.split_once(' ').expect("key value");
        match key {
            "rules" => {
                let r: Rules = value.parse().expect("rules");
                rules = Some(r);
                position = Some(Position::start(&r));
            }
            "position" if value == "start" => position = Some(Position::start(&rules.unwrap())),
            "position" => position = Some(Position::parse(value, &rules.unwrap()).expect("position")),
            "perft" => {
                let (d, c) = value.split_once(' ').expect("perft DEPTH COUNT");
                cases.push(Case {
                    line: i + 1,
                    rules: rules.unwrap(),
                    position: position.unwrap(),
                    depth: d.parse().unwrap(),
                    count: c.parse().unwrap(),
                });
            }
            other => panic!("line {}: unknown key {other}", i + 1),
        }
    }
    cases
}

fn check(deep: bool) {
    let mut ran = 0;
    for case in cases().into_iter().filter(|c| (c.count <= NODE_LIMIT) != deep) {
        assert_eq!(
            perft(&case.position, &case.rules, case.depth),
            case.count,
            "line {}: {} perft {}",
            case.line,
            case.rules,
            case.depth
        );
        ran += 1;
    }
    assert!(ran > 0);
}

#[test]
fn perft_counts_under_the_node_limit() {
    check(false);
}

#[test]
#[ignore = "deep counts take a few seconds; run with --ignored"]
fn perft_counts_over_the_node_limit() {
    check(true);
}
