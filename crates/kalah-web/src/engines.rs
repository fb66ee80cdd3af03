//! The engine's work for the server: strength levels, a small pool of engines shared by all
//! games, and the searches behind engine moves, hints and analysis.
//!
//! A search blocks a thread for up to the time limit, so it runs on tokio's blocking threads,
//! never on the async executor. At most `searches` run at once (each engine's table takes
//! memory; more searches than cores would only slow each other); more requests wait their turn.
//! Every search watches its game's stop flag, which is set when the game is undone, replaced or
//! closed. The engine's moves and hints are the decisions of [`kalah_engine::decide`], as for
//! every other player.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use kalah_engine::egdb;
use kalah_engine::search::{Engine, Info, Options};
use kalah_engine::time::Limits;
use kalah_rules::{Position, Rules};
use tokio::sync::Semaphore;

/// The strength levels the new-game form offers: a depth limit in sowings (`None`: only the
/// time limit), and the words the form shows.
pub const LEVELS: [(u8, Option<u32>, &str); 5] = [
    (1, Some(1), "1: looks one sowing ahead"),
    (2, Some(3), "2: three sowings"),
    (3, Some(6), "3: six sowings"),
    (4, Some(12), "4: twelve sowings"),
    (5, None, "5: as deep as the time limit allows"),
];

/// The level of an engine named without one.
pub const DEFAULT_LEVEL: u8 = 3;

/// Returns the limits of an engine move at `level` (1-5), always within `time`.
pub fn level_limits(level: u8, time: Duration) -> Limits {
    let depth = LEVELS.iter().find(|(l, _, _)| *l == level).and_then(|(_, depth, _)| *depth);
    Limits { depth, time: Some(time), ..Limits::default() }
}

/// The engines of the server and the limit on searches at once.
pub struct Engines {
    /// Idle engines, each with the id of the game whose positions its table holds.
    idle: Mutex<Vec<(Engine, String)>>,
    permits: Semaphore,
    table_bytes: usize,
    egdb_dir: Option<PathBuf>,
}

/// A search that could not run to an answer.
#[derive(Debug)]
pub struct Failed;

impl Engines {
    /// Returns a pool of at most `searches` engines of `table_bytes` each, using the endgame
    /// databases in `egdb_dir` when there are some for a game's rules.
    pub fn new(searches: usize, table_bytes: usize, egdb_dir: Option<PathBuf>) -> Engines {
        Engines { idle: Mutex::new(Vec::new()), permits: Semaphore::new(searches), table_bytes, egdb_dir }
    }

    /// Runs `job` with an engine for game `game_id` under `rules` on a blocking thread.
    pub async fn run<T: Send + 'static>(
        self: &Arc<Self>,
        game_id: &str,
        rules: Rules,
        job: impl FnOnce(&Engine) -> T + Send + 'static,
    ) -> Result<T, Failed> {
        let _permit = self.permits.acquire().await.map_err(|_| Failed)?;
        let engines = Arc::clone(self);
        let game_id = game_id.to_string();
        tokio::task::spawn_blocking(move || {
            let engine = engines.take(&game_id, &rules);
            let out = job(&engine);
            engines.idle.lock().unwrap_or_else(|e| e.into_inner()).push((engine, game_id));
            out
        })
        .await
        .map_err(|_| Failed)
    }

    /// Takes an idle engine, preferably the one that last searched this game (its table is still
    /// good); another game's table is cleared, as positions alone do not say which rules apply.
    fn take(&self, game_id: &str, rules: &Rules) -> Engine {
        let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = idle.iter().position(|(_, id)| id == game_id) {
            return idle.swap_remove(i).0;
        }
        let reused = idle.pop();
        drop(idle);
        let mut engine = match reused {
            Some((engine, _)) => {
                engine.clear();
                engine
            }
            None => Engine::new(Options { table_bytes: self.table_bytes, ..Options::default() }),
        };
        let oracle = self.egdb_dir.as_deref().and_then(|dir| egdb::shared(dir, rules)).filter(|db| db.matches(rules));
        engine.set_oracle(oracle.map(|db| db as Arc<dyn kalah_engine::search::Oracle>));
        engine
    }
}

/// Searches `position` within `limits` until stopped.
pub fn analyse(engine: &Engine, position: &Position, rules: &Rules, limits: Limits, stop: &AtomicBool) -> Info {
    engine.search(position, rules, limits, Some(stop), |_| {})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_limit_the_depth_and_always_the_time() {
        let time = Duration::from_millis(300);
        assert_eq!(level_limits(1, time).depth, Some(1));
        assert_eq!(level_limits(5, time).depth, None);
        for (level, _, _) in LEVELS {
            assert_eq!(level_limits(level, time).time, Some(time));
        }
    }
}
