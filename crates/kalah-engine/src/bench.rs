//! The benchmarks: fixed positions searched to a fixed depth on one thread, the table cleared
//! before each, so the node total is a signature of the search's behaviour; and fixed positions
//! solved exactly on one thread without a database, whose node total is the solver's signature.

use std::time::Duration;

use kalah_rules::{Position, Rules};

use crate::search::{Engine, Info, Limits, Options};
use crate::solver::Solver;
use crate::time::now;

/// The benchmark positions: (rules, position), starts and positions from engine games.
pub const POSITIONS: [(&str, &str); 12] = [
    ("kalah(6,6) standard", "6,6,6,6,6,6:0/6,6,6,6,6,6:0/S"),
    ("kalah(6,6) standard", "1,3,10,9,8,1:3/9,7,0,8,1,10:2/S"),
    ("kalah(6,6) standard", "1,3,0,10,9,2:4/10,8,1,9,2,11:2/N"),
    ("kalah(6,6) standard", "0,2,1,1,17,1:14/0,11,1,2,1,1:20/S"),
    ("kalah(6,6) empty-capture", "6,6,6,6,6,6:0/6,6,6,6,6,6:0/S"),
    ("kalah(6,4) standard", "4,4,4,4,4,4:0/4,4,4,4,4,4:0/S"),
    ("kalah(6,4) standard", "1,4,1,1,10,0:9/1,8,0,0,1,1:11/S"),
    ("kalah(6,4) standard", "1,3,1,8,8,0:4/0,7,1,7,0,0:8/S"),
    ("kalah(6,4) empty-capture", "4,4,4,4,4,4:0/4,4,4,4,4,4:0/S"),
    ("kalah(6,5) standard", "1,4,1,9,0,10:5/0,1,9,8,7,1:4/S"),
    ("kalah(6,5) standard", "1,3,6,1,1,0:27/2,6,1,1,0,5:6/N"),
    ("kalah(8,8) kgp", "8,8,8,8,8,8,8,8:0/8,8,8,8,8,8,8,8:0/S"),
];

/// The depth the benchmark searches to, in sowings.
pub const DEPTH: u32 = 13;

/// The node total of the benchmark at [`DEPTH`]: its signature. A change of the search that
/// changes it must change this too, on purpose (`kalah bench` prints the new total).
pub const SIGNATURE: u64 = 20_006_262;

/// The table size of the benchmark: fixed, so the signature does not depend on a flag.
pub const TABLE_BYTES: usize = 16 << 20;

/// The result of the whole benchmark.
#[derive(Clone, Debug)]
pub struct Summary {
    /// Nodes of all positions: the signature.
    pub nodes: u64,
    /// Time of all searches.
    pub elapsed: Duration,
}

impl Summary {
    /// Returns nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)) as u64
    }
}

/// Runs the benchmark to `depth` on `threads` threads, calling `each` with every position's index
/// and result. Only one thread gives the signature; more measure the time to the same depth.
pub fn run(depth: u32, threads: usize, mut each: impl FnMut(usize, &Info)) -> Summary {
    let engine = Engine::new(Options { table_bytes: TABLE_BYTES, threads, ..Options::default() });
    let mut nodes = 0;
    let started = now();
    for (i, (rules, position)) in POSITIONS.iter().enumerate() {
        let rules: Rules = rules.parse().expect("benchmark rules are valid");
        let position = Position::parse(position, &rules).expect("benchmark positions are valid");
        engine.clear();
        let info = engine.search(&position, &rules, Limits::depth(depth), None, |_| {});
        nodes += info.nodes;
        each(i, &info);
    }
    Summary { nodes, elapsed: started.elapsed() }
}

/// The solver benchmark: (rules, position) solved from scratch, one thread, no database. Small
/// boards under several variants and a Kalah(6,4) middle game, about a second in all.
pub const SOLVER_POSITIONS: [(&str, &str); 8] = [
    ("kalah(4,4) standard", "4,4,4,4:0/4,4,4,4:0/S"),
    ("kalah(4,4) empty-capture", "4,4,4,4:0/4,4,4,4:0/S"),
    ("kalah(5,3) standard", "3,3,3,3,3:0/3,3,3,3,3:0/S"),
    ("kalah(6,2) standard", "2,2,2,2,2,2:0/2,2,2,2,2,2:0/S"),
    ("kalah(3,2) clockwise", "2,2,2:0/2,2,2:0/S"),
    ("kalah(4,3) seed-on", "3,3,3,3:0/3,3,3,3:0/S"),
    ("kalah(4,4) leftover=emptier", "4,4,4,4:0/4,4,4,4:0/S"),
    ("kalah(6,4) standard", "1,4,1,1,10,0:9/1,8,0,0,1,1:11/S"),
];

/// The node total of the solver benchmark: the solver's signature. A change of the solver that
/// changes it must change this too, on purpose (`kalah bench --solver` prints the new total).
pub const SOLVER_SIGNATURE: u64 = 1_078_414;

/// Solves every position of [`SOLVER_POSITIONS`] with a fresh solver (tables of [`TABLE_BYTES`],
/// one thread, no database), calling `each` with every position's index and result.
pub fn run_solver(mut each: impl FnMut(usize, &Info)) -> Summary {
    let mut nodes = 0;
    let started = now();
    for (i, (rules, position)) in SOLVER_POSITIONS.iter().enumerate() {
        let rules: Rules = rules.parse().expect("benchmark rules are valid");
        let position = Position::parse(position, &rules).expect("benchmark positions are valid");
        let solver = Solver::new(Options { table_bytes: TABLE_BYTES, ..Options::default() });
        let info =
            solver.solve(&position, &rules, None, Limits::default(), None, |_, _| {}).expect("nothing stops the solve");
        nodes += info.nodes;
        each(i, &info);
    }
    Summary { nodes, elapsed: started.elapsed() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_positions_are_valid_and_unfinished() {
        for (rules, position) in POSITIONS {
            let rules: Rules = rules.parse().unwrap();
            assert!(!Position::parse(position, &rules).unwrap().is_over(&rules));
        }
    }

    #[test]
    fn the_node_total_is_the_signature() {
        assert_eq!(run(DEPTH, 1, |_, _| {}).nodes, SIGNATURE);
    }

    #[test]
    fn the_solver_node_total_is_the_solver_signature() {
        assert_eq!(run_solver(|_, _| {}).nodes, SOLVER_SIGNATURE);
    }

    #[test]
    fn the_same_benchmark_gives_the_same_nodes() {
        assert_eq!(run(6, 1, |_, _| {}).nodes, run(6, 1, |_, _| {}).nodes);
    }
}
