//! Which value should a pie-rule swap rest on: the last completed depth of the search, or the mean
//! of the last two? (docs/engine.md, "One decision for every player").
//!
//! For every pie offer of small boards under many counter-clockwise rule sets (each position South's first turn can
//! end in, North to move), the exact value from the solver is the truth: North should swap when
//! it is below 0. The example searches each offer depth by depth and counts, for both rules and
//! each depth, the wrong decisions and the seeds they cost North.
//!
//! ```text
//! cargo run --release -p kalah-engine --example settle [-- MAX_DEPTH]
//! ```

use std::collections::HashSet;

use kalah_engine::search::{Engine, Limits, Options};
use kalah_engine::solver::Solver;
use kalah_rules::{Direction, Position, Rules, Side};

/// Every position South's first turn from the start can end in with North to move.
fn offers(rules: &Rules) -> Vec<Position> {
    let mut ends = HashSet::new();
    let mut stack = vec![Position::start(rules)];
    while let Some(p) = stack.pop() {
        for mv in p.legal_moves() {
            let next = p.play_unchecked(rules, mv);
            if next.is_over(rules) {
                continue;
            }
            if next.mover() == Side::South {
                stack.push(next);
            } else {
                ends.insert(next);
            }
        }
    }
    let mut ends: Vec<Position> = ends.into_iter().collect();
    ends.sort_by_key(|p| p.to_string());
    ends
}

fn main() {
    let max_depth: u32 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(10);
    // (wrong decisions, seeds lost) by depth, for the last depth and for the mean of two.
    let mut last = vec![(0u32, 0i64); max_depth as usize + 1];
    let mut mean = last.clone();
    let mut cases = 0u32;
    for (m, n, stride) in [(3, 3, 1), (4, 3, 2), (4, 4, 8), (5, 3, 8)] {
        let started = kalah_engine::time::now();
        let all = Rules::variants(m, n).expect("sizes in range");
        // Clockwise rule sets are left out: seeds reach the opponent's row before one's own store,
        // games run long, and their exact solve takes minutes from Kalah(4,2) on.
        let counter: Vec<&Rules> = all.iter().filter(|r| r.direction == Direction::CounterClockwise).collect();
        for &rules in counter.iter().step_by(stride) {
            // One solver a rule set: its proofs of one offer serve the others.
            let solver = Solver::new(Options { table_bytes: 16 << 20, ..Options::default() });
            let one = kalah_engine::time::now();
            if std::env::var_os("SETTLE_TRACE").is_some() {
                eprintln!("  {rules} ...");
            }
            for offer in offers(rules) {
                let Ok(exact) = solver.solve(&offer, rules, None, Limits::default(), None, |_, _| {}) else { continue };
                let truth = exact.score.hundredths();
                let engine = Engine::new(Options { table_bytes: 1 << 20, ..Options::default() });
                let mut scores = Vec::new();
                engine.search(&offer, rules, Limits::depth(max_depth), None, |info| {
                    scores.push((info.depth, info.score));
                });
                cases += 1;
                // Choosing to swap when the truth is v costs North |v| if the choice was wrong.
                let judge = |value: i32, tally: &mut (u32, i64)| {
                    let swap = value < 0;
                    if swap != (truth < 0) && truth != 0 {
                        tally.0 += 1;
                        tally.1 += i64::from(truth.abs());
                    }
                };
                for (i, &(depth, score)) in scores.iter().enumerate() {
                    let depth = depth as usize;
                    if depth > max_depth as usize {
                        continue;
                    }
                    judge(score.hundredths(), &mut last[depth]);
                    let settled = match i.checked_sub(1).map(|j| scores[j].1) {
                        Some(before) if !score.is_exact() => (before.hundredths() + score.hundredths()) / 2,
                        _ => score.hundredths(),
                    };
                    judge(settled, &mut mean[depth]);
                }
                // A search that proved its value early decides the same at every deeper depth.
                if let Some(&(reached, score)) = scores.last() {
                    for depth in reached as usize + 1..=max_depth as usize {
                        judge(score.hundredths(), &mut last[depth]);
                        judge(score.hundredths(), &mut mean[depth]);
                    }
                }
            }
            if one.elapsed().as_secs() >= 5 {
                eprintln!("  {rules}: {:.0} s", one.elapsed().as_secs_f64());
            }
        }
        eprintln!("Kalah({m},{n}): {cases} offers so far, {:.0} s", started.elapsed().as_secs_f64());
        table(cases, &last, &mean);
    }
}

/// Prints the wrong decisions and seeds lost by depth so far.
fn table(cases: u32, last: &[(u32, i64)], mean: &[(u32, i64)]) {
    println!("{cases} pie offers, exact values from the solver");
    println!("depth  last depth: wrong, seeds lost   mean of two: wrong, seeds lost");
    for depth in 1..last.len() {
        println!(
            "{depth:>5}  {:>17} {:>12.2}   {:>18} {:>12.2}",
            last[depth].0,
            last[depth].1 as f64 / 100.0,
            mean[depth].0,
            mean[depth].1 as f64 / 100.0
        );
    }
}
