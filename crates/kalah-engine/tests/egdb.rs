//! The engine with an endgame database: the database as the searches' oracle changes no value.

use std::path::PathBuf;
use std::sync::Arc;

use kalah_engine::egdb::{self, BuildOptions};
use kalah_engine::search::{Limits, Options, Oracle};
use kalah_engine::solver::Solver;
use kalah_rules::{Position, Rules};
use rand::seq::IteratorRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Returns `count` positions of games played by random sowings from the start, at random points
/// of their course; the same seed gives the same positions.
fn positions(rules: &Rules, count: usize, seed: u64) -> Vec<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut found = Vec::new();
    while found.len() < count {
        let mut position = Position::start(rules);
        let mut walk = Vec::new();
        while let Some(mv) = position.legal_moves().choose(&mut rng) {
            walk.push(position);
            position = position.play_unchecked(rules, mv);
        }
        if let Some(&p) = walk.iter().choose(&mut rng) {
            found.push(p);
        }
    }
    found
}

/// A folder under the system's temporary folder, removed when dropped.
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn the_solver_with_a_database_finds_the_values_it_finds_without() {
    let dir = TempDir(std::env::temp_dir().join(format!("kalah-engine-egdb-test-{}", std::process::id())));
    let mut no_first_extra = Rules::preset("standard", 4, 4).unwrap();
    no_first_extra.first_move_extra = false;
    let rule_sets =
        [Rules::preset("standard", 4, 4).unwrap(), Rules::preset("empty-capture", 4, 4).unwrap(), no_first_extra];
    for rules in rule_sets {
        let db = egdb::build(&dir.0, &rules, 10, &BuildOptions { threads: 2 }, &mut |_| {}).unwrap();
        let db: Arc<dyn Oracle> = Arc::new(db);
        let (mut searched_plain, mut searched_with_db) = (0, 0);
        for position in positions(&rules, 8, 3) {
            // A one-ply estimate, so that the proofs (and their database probes) do the work.
            let plain = Solver::new(Options { table_bytes: 1 << 20, ..Options::default() }).with_estimate_depth(1);
            let oracle = Some(Arc::clone(&db));
            let with_db =
                Solver::new(Options { table_bytes: 1 << 20, oracle, ..Options::default() }).with_estimate_depth(1);
            let solve = |s: &Solver| s.solve(&position, &rules, None, Limits::default(), None, |_, _| {}).unwrap();
            let (a, b) = (solve(&with_db), solve(&plain));
            assert_eq!(a.score, b.score, "{rules} {position}");
            searched_with_db += a.nodes;
            searched_plain += b.nodes;
        }
        // The database was read, not only present.
        assert!(
            searched_with_db < searched_plain,
            "{rules}: {searched_with_db} nodes with the database, {searched_plain} without"
        );
    }
}
