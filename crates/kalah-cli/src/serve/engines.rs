//! The engine's work for the server: strength levels, a small pool of engines shared by all
//! games, and the searches behind engine moves, hints and analysis.
//!
//! A search blocks a thread for up to the time limit, so it runs on tokio's blocking threads,
//! never on the async executor. At most `searches` run at once (each engine's table takes
//! memory; more searches than cores would only slow each other); more requests wait their turn.
//! Every search watches its game's stop flag, which is set when the game is undone, replaced or
//! closed.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use kalah_engine::egdb;
use kalah_engine::eval::SEED;
use kalah_engine::search::{Engine, Info, Limits, Options};
use kalah_rules::{Action, Game, Phase, Position, Rules};
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

/// What the engine decided: the action and what it is worth to the player who takes it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decision {
    /// The action to take.
    pub action: Action,
    /// The final store difference the deciding player can expect, in seeds.
    pub value: f64,
    /// The value is proven.
    pub exact: bool,
    /// The depth searched, in sowings.
    pub depth: u32,
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

/// Returns a search value (hundredths of a seed) in seeds.
pub fn seeds(value: i32) -> f64 {
    f64::from(value) / f64::from(SEED)
}

/// Searches `position` within `limits` until stopped.
pub fn analyse(engine: &Engine, position: &Position, rules: &Rules, limits: Limits, stop: &AtomicBool) -> Info {
    engine.search(position, rules, limits, Some(stop), |_| {})
}

/// Decides what the player to decide in `game` should do, or `None` when the game is over.
pub fn decide(engine: &Engine, game: &Game, limits: Limits, stop: &AtomicBool) -> Option<Decision> {
    let rules = game.rules();
    match game.phase() {
        Phase::Over => None,
        Phase::Handicap => Some(choose_handicap(engine, game, limits, stop)),
        phase => {
            let info = analyse(engine, game.position(), rules, limits, stop);
            let best = info.best?;
            // After a swap the swapper holds South with North to move: worth minus North's value.
            if phase == Phase::PieOffer && info.score < 0 {
                return Some(Decision {
                    action: Action::Swap,
                    value: seeds(-info.score),
                    exact: info.exact,
                    depth: info.depth,
                });
            }
            Some(Decision { action: Action::Sow(best), value: seeds(info.score), exact: info.exact, depth: info.depth })
        }
    }
}

/// North picks the handicap opening worst for South by a short search of each, within the time.
fn choose_handicap(engine: &Engine, game: &Game, limits: Limits, stop: &AtomicBool) -> Decision {
    let started = Instant::now();
    let depth = limits.depth.map_or(6, |d| (d / 2).clamp(1, 6));
    let mut best = Decision { action: Action::Keep, value: f64::NEG_INFINITY, exact: false, depth };
    for action in game.legal_actions() {
        let mut trial = game.clone();
        if trial.act(action).is_err() {
            continue;
        }
        let position = trial.position();
        let info = engine.search(position, game.rules(), Limits::depth(depth), Some(stop), |_| {});
        // The score is for the side to move after the decision; North wants it low for South.
        let for_north = -seeds(info.score * position.mover().sign());
        if for_north > best.value {
            best = Decision { action, value: for_north, exact: info.exact, depth: info.depth };
        }
        let out_of_time = limits.time.is_some_and(|t| started.elapsed() >= t);
        if out_of_time || stop.load(Ordering::Relaxed) {
            break;
        }
    }
    best
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

    #[test]
    fn the_engine_swaps_exactly_when_souths_side_is_better() {
        let engine = Engine::new(Options { table_bytes: 1 << 20, ..Options::default() });
        let stop = AtomicBool::new(false);
        let mut rules = Rules::standard(4, 3).unwrap();
        rules.pie = true;
        let mut swaps = 0;
        for first in 1..=4u32 {
            let mut game = Game::new(rules);
            game.act(first.to_string().parse().unwrap()).unwrap();
            while game.phase() == Phase::Play {
                let mv = game.position().legal_moves().next().unwrap();
                game.act(Action::Sow(mv)).unwrap();
            }
            if game.phase() != Phase::PieOffer {
                continue;
            }
            let for_north = analyse(&engine, game.position(), &rules, Limits::default(), &stop);
            assert!(for_north.exact, "Kalah(4,3) is small enough to prove");
            let decision = decide(&engine, &game, Limits::default(), &stop).unwrap();
            assert_eq!(decision.action == Action::Swap, for_north.score < 0, "{decision:?} after {first}");
            assert_eq!(decision.value, seeds(for_north.score.abs()));
            swaps += usize::from(decision.action == Action::Swap);
        }
        // Kalah(4,3) is +6 for South: its best first turn leaves North worse off than swapping.
        assert!(swaps > 0);
    }

    #[test]
    fn the_handicap_decision_is_a_legal_one() {
        let engine = Engine::new(Options { table_bytes: 1 << 20, ..Options::default() });
        let mut rules = Rules::standard(4, 3).unwrap();
        rules.handicap = true;
        let game = Game::new(rules);
        let decision = decide(&engine, &game, Limits::depth(4), &AtomicBool::new(false)).unwrap();
        assert!(game.legal_actions().contains(&decision.action));
    }

    #[test]
    fn a_stopped_search_still_answers_at_depth_one() {
        let engine = Engine::new(Options { table_bytes: 1 << 20, ..Options::default() });
        let stop = AtomicBool::new(true);
        let game = Game::new(Rules::default());
        let decision = decide(&engine, &game, Limits::default(), &stop).unwrap();
        assert!(game.legal_actions().contains(&decision.action));
    }
}
