//! The one place this crate calls the engine library: searches, decisions, levels, solves and
//! endgame databases, behind small types of its own, so that a change of the engine's API is an
//! edit here and nowhere else. Nothing here knows Python.
//!
//! Where the engine library is still to grow what this needs (the levels and the attaching of
//! databases move into `kalah-engine`), the stand-in here says so.

use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use kalah_engine::decide::{self, Decision};
use kalah_engine::egdb::{self, Egdb, EgdbError};
use kalah_engine::search::{Engine, Info, Options, Oracle};
use kalah_engine::solver::{Solver, Stopped};
use kalah_engine::time::Limits;
use kalah_rules::score::Bounds;
use kalah_rules::{Game, Position, Rules};

/// Bytes in a MiB.
const MIB: usize = 1 << 20;

/// The deepest search, in sowings, as `kalah analyze --depth` takes it.
pub const MAX_DEPTH: u32 = 120;

/// The longest search, in seconds, as `kalah analyze --time` takes it (a day).
pub const MAX_SECONDS: f64 = 86_400.0;

/// Where an engine's endgame databases come from.
#[derive(Clone, Debug)]
pub enum Databases {
    /// No database.
    Off,
    /// The folder the databases of each rule set are opened from (`kalah egdb build` writes there).
    Folder(PathBuf),
    /// One database, opened already, used for the rules it was built for.
    Open(Arc<Egdb>),
}

/// How an engine or solver is set up: as `kalah`'s `--hash`, `--threads`, `--egdb-dir`/`--no-egdb`
/// and `--memory` flags set it up.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The table, in MiB (1 to 65536).
    pub hash_mib: usize,
    /// Search threads (1 to 64).
    pub threads: usize,
    /// The endgame databases.
    pub databases: Databases,
    /// The most memory the table and databases may take, in MiB; without it, the databases load
    /// only the layers that fit in the memory available.
    pub memory_mib: Option<usize>,
}

impl Settings {
    /// Checks the settings; the error says what is accepted.
    pub fn check(&self) -> Result<(), String> {
        if !(1..=65536).contains(&self.hash_mib) {
            return Err(format!("hash_mb={} is out of range: the table takes 1 to 65536 MiB", self.hash_mib));
        }
        if !(1..=64).contains(&self.threads) {
            return Err(format!("threads={} is out of range: 1 to 64 threads", self.threads));
        }
        // A table larger than the free memory would have the machine swap, or fail to allocate.
        if let Some(free) = available_mib().filter(|&free| self.hash_mib > free * 9 / 10) {
            return Err(format!(
                "hash_mb={} is more than this machine can spare now ({} MiB of {free} MiB available): lower hash_mb",
                self.hash_mib,
                free * 9 / 10
            ));
        }
        if let Some(limit) = self.memory_mib {
            if self.hash_mib > limit {
                return Err(format!(
                    "the table alone (hash_mb={}) is over the memory limit (memory_mb={limit}): lower hash_mb or raise memory_mb",
                    self.hash_mib
                ));
            }
        }
        Ok(())
    }

    /// Returns the engine options for `rules`, with the database attached, and a note when the
    /// database could not be used in full.
    ///
    /// The same policy as `kalah`'s engine flags; to be replaced by the engine library's one
    /// function that attaches databases within a memory budget once it lands (issue 26).
    fn options(&self, rules: &Rules) -> (Options, Option<String>) {
        let (oracle, note) = self.database(rules);
        let options = Options {
            table_bytes: self.hash_mib * MIB,
            threads: self.threads,
            oracle: oracle.map(|db| db as Arc<dyn Oracle>),
            ..Options::default()
        };
        (options, note)
    }

    /// Opens the endgame database for `rules`, within what the memory limit leaves.
    fn database(&self, rules: &Rules) -> (Option<Arc<Egdb>>, Option<String>) {
        if egdb::supports(rules).is_err() {
            return (None, None);
        }
        let dir = match &self.databases {
            Databases::Off => return (None, None),
            Databases::Open(db) if db.matches(rules) => return (Some(Arc::clone(db)), None),
            Databases::Open(_) => {
                return (None, Some(format!("the endgame database given was not built for {rules}: not used")))
            }
            Databases::Folder(dir) => dir,
        };
        let room = self
            .memory_mib
            .or_else(|| available_mib().map(|free| free * 9 / 10))
            .map_or(u64::MAX, |limit| (limit.saturating_sub(self.hash_mib) * MIB) as u64);
        match Egdb::open_within(dir, rules, egdb::MAX_SEEDS, room) {
            Ok(db) => {
                let note =
                    db.issue().map(|e| format!("endgame database: {e}; using layers up to {} seeds", db.max_seeds()));
                (Some(Arc::new(db)), note)
            }
            // No database yet is normal: the engine works without one.
            Err(EgdbError::NoDatabase { .. }) => (None, None),
            Err(e) => (None, Some(format!("endgame database not used: {e}"))),
        }
    }
}

/// Returns the memory available to new processes now, in MiB (`MemAvailable` on Linux), if known.
fn available_mib() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

/// Returns the default folder of the endgame databases, if the environment names one.
pub fn default_folder() -> Option<PathBuf> {
    egdb::default_dir()
}

/// The limits of a search, checked: the depth 1 to 120 sowings, the time over 0 up to a day, at
/// least one node. With none given, `default` applies.
pub fn limits(depth: Option<u32>, seconds: Option<f64>, nodes: Option<u64>, default: Limits) -> Result<Limits, String> {
    if let Some(d) = depth {
        if !(1..=MAX_DEPTH).contains(&d) {
            return Err(format!("depth={d} is out of range: 1 to {MAX_DEPTH} sowings"));
        }
    }
    let time = match seconds {
        None => None,
        Some(s) if s.is_finite() && s > 0.0 && s <= MAX_SECONDS => Some(Duration::from_secs_f64(s)),
        Some(s) => return Err(format!("time={s} is out of range: more than 0 and at most {MAX_SECONDS} seconds")),
    };
    if nodes == Some(0) {
        return Err("nodes=0 is out of range: give at least 1 node".to_string());
    }
    if depth.is_none() && time.is_none() && nodes.is_none() {
        return Ok(default);
    }
    Ok(Limits { depth, nodes, time, clock: None })
}

/// The strength levels of the browser game, 1 to 5: a depth in sowings (level 5: none) and the
/// most time a move at that level takes, in milliseconds (level 5: the whole time given).
///
/// A copy of `kalah_web::engines::LEVELS` and its times until the levels move into the engine
/// library (issue 26); the web server is not a dependency this package should pull in.
const LEVELS: [(Option<u32>, u64); 5] =
    [(Some(1), 50), (Some(3), 100), (Some(6), 250), (Some(12), 1000), (None, u64::MAX)];

/// Returns the limits of a move at `level` (1 to 5) within `time`, as the browser game plays it.
pub fn level_limits(level: u8, time: Duration) -> Result<Limits, String> {
    let Some(&(depth, millis)) = usize::from(level).checked_sub(1).and_then(|i| LEVELS.get(i)) else {
        return Err(format!("level={level} is out of range: the levels are 1 to 5"));
    };
    Ok(Limits { depth, time: Some(Duration::from_millis(millis).min(time)), ..Limits::default() })
}

/// The strong engine for one rule set at a time: its table and its database follow the rules of
/// the position asked about (a table of another game's rules would give wrong values).
pub struct Searcher {
    engine: Engine,
    rules: Option<Rules>,
    settings: Settings,
}

impl Searcher {
    /// Returns an engine with checked `settings` (see [`Settings::check`]).
    pub fn new(settings: Settings) -> Searcher {
        let engine = Engine::new(Options {
            table_bytes: settings.hash_mib * MIB,
            threads: settings.threads,
            ..Options::default()
        });
        Searcher { engine, rules: None, settings }
    }

    /// Makes the engine ready for `rules`: a new rule set empties the table and attaches its
    /// database. Returns a note to show when the database could not be used in full.
    pub fn prepare(&mut self, rules: &Rules) -> Option<String> {
        if self.rules.as_ref() == Some(rules) {
            return None;
        }
        self.engine.clear();
        let (options, note) = self.settings.options(rules);
        self.engine.set_oracle(options.oracle);
        self.rules = Some(*rules);
        note
    }

    /// Empties the table.
    pub fn clear(&self) {
        self.engine.clear();
    }

    /// Searches `position` (prepared for its rules) within `limits`; `heard` hears each completed
    /// depth and may stop the search there by returning false.
    pub fn analyse(
        &self,
        position: &Position,
        rules: &Rules,
        limits: Limits,
        stop: &AtomicBool,
        mut heard: impl FnMut(&Info) -> bool,
    ) -> Info {
        self.engine.search(position, rules, limits, Some(stop), |info| flow(heard(info)))
    }

    /// Decides what the player to decide in `game` does, as every front end decides
    /// ([`decide::decide`]); `None` once the game is over.
    pub fn decide(&self, game: &Game, limits: Limits, stop: &AtomicBool) -> Option<Decision> {
        decide::decide(&self.engine, game, limits, Some(stop))
    }
}

/// Returns the engine's answer for "go on": `true` continues, `false` stops.
fn flow(go_on: bool) -> ControlFlow<()> {
    if go_on {
        ControlFlow::Continue(())
    } else {
        ControlFlow::Break(())
    }
}

/// The exact solver for one rule set at a time (its tables hold one rule set's positions).
pub struct Prover {
    solver: Option<Arc<Solver>>,
    rules: Option<Rules>,
    settings: Settings,
}

/// How a solve ended.
pub enum Solved {
    /// The exact value, a best move and a perfect line.
    Exact(Info),
    /// Stopped: the bounds proven so far, in whole seeds for the side to move, and the nodes.
    Stopped {
        /// The proven lower bound.
        lower: i32,
        /// The proven upper bound.
        upper: i32,
        /// Nodes searched.
        nodes: u64,
    },
}

/// How far a solve under way has got, read from another thread.
pub struct Watch(Arc<Solver>);

impl Watch {
    /// Returns the nodes the solve under way has searched so far.
    pub fn nodes(&self) -> u64 {
        self.0.progress().nodes
    }
}

impl Prover {
    /// Returns a solver with checked `settings`; its tables are made on the first solve.
    pub fn new(settings: Settings) -> Prover {
        Prover { solver: None, rules: None, settings }
    }

    /// Makes the solver ready for `rules`: new tables and the rules' database for a new rule set.
    /// Returns a note to show when the database could not be used in full.
    pub fn prepare(&mut self, rules: &Rules) -> Option<String> {
        if self.rules.as_ref() == Some(rules) && self.solver.is_some() {
            return None;
        }
        // The old tables go before the new ones are made, so two never take memory at once.
        self.solver = None;
        let (options, note) = self.settings.options(rules);
        self.solver = Some(Arc::new(Solver::new(options)));
        self.rules = Some(*rules);
        note
    }

    /// Returns a handle that tells, from another thread, how far the solves of the rules
    /// prepared last have got.
    pub fn watch(&self) -> Option<Watch> {
        self.solver.as_ref().map(|s| Watch(Arc::clone(s)))
    }

    /// Solves `position` (prepared for its rules) within `nodes` (about; `None`: no budget),
    /// until `stop` is set; `heard` hears each proven pair of bounds (whole seeds for the side to
    /// move) as they close in, and may stop the solve there by returning false.
    pub fn solve(
        &self,
        position: &Position,
        rules: &Rules,
        nodes: Option<u64>,
        stop: &AtomicBool,
        mut heard: impl FnMut(i32, i32) -> bool,
    ) -> Solved {
        let solver = self.solver.as_ref().expect("prepare makes the solver");
        let limits = Limits { nodes, ..Limits::default() };
        let proven = solver.solve(position, rules, None, limits, Some(stop), |bounds: Bounds, _| {
            flow(heard(bounds.lower.0, bounds.upper.0))
        });
        match proven {
            Ok(info) => Solved::Exact(info),
            Err(Stopped { bounds, nodes }) => Solved::Stopped { lower: bounds.lower.0, upper: bounds.upper.0, nodes },
        }
    }
}

/// Opens the endgame database of `rules` in `dir`, up to `max_seeds` seeds and within
/// `max_bytes` of memory.
pub fn open_database(dir: &std::path::Path, rules: &Rules, max_seeds: u32, max_bytes: u64) -> Result<Egdb, EgdbError> {
    Egdb::open_within(dir, rules, max_seeds, max_bytes)
}

/// What a database build reports, for a progress callback: (layer, positions solved, positions).
pub type BuildProgress = (u32, u64, u64);

/// Builds the layers of `rules` up to `max_seeds` in `dir`, one layer at a time, so that `stop`
/// ends the build between layers (each layer is written when done; a new build keeps them).
/// Returns `Ok(None)` when stopped.
pub fn build_database(
    dir: &std::path::Path,
    rules: &Rules,
    max_seeds: u32,
    threads: usize,
    stop: &AtomicBool,
    mut progress: impl FnMut(BuildProgress),
) -> Result<Option<Egdb>, EgdbError> {
    egdb::supports(rules)?;
    if max_seeds > egdb::MAX_SEEDS {
        return Err(EgdbError::TooManySeeds { seeds: max_seeds });
    }
    let options = egdb::BuildOptions { threads };
    let mut built = None;
    for seeds in 0..=max_seeds {
        if stop.load(Ordering::Relaxed) {
            return Ok(None);
        }
        built = Some(egdb::build(dir, rules, seeds, &options, &mut |event| match event {
            egdb::BuildEvent::Progress { seeds, done, entries } => progress((seeds, done, entries)),
            egdb::BuildEvent::Finished { seeds, entries, .. } | egdb::BuildEvent::Kept { seeds, entries, .. } => {
                progress((seeds, entries, entries))
            }
            _ => {}
        })?);
    }
    Ok(built)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_follow_the_browser_game() {
        let second = Duration::from_secs(1);
        assert_eq!(level_limits(1, second).unwrap().depth, Some(1));
        assert_eq!(level_limits(1, second).unwrap().time, Some(Duration::from_millis(50)));
        assert_eq!(level_limits(5, second).unwrap().depth, None);
        assert_eq!(level_limits(5, second).unwrap().time, Some(second));
        assert!(level_limits(0, second).is_err() && level_limits(6, second).is_err());
    }

    #[test]
    fn limits_are_checked() {
        let default = Limits::depth(3);
        assert_eq!(limits(None, None, None, default), Ok(default));
        assert_eq!(limits(Some(5), None, None, default).unwrap().depth, Some(5));
        for bad in [limits(Some(0), None, None, default), limits(Some(121), None, None, default)] {
            assert!(bad.unwrap_err().contains("1 to 120"));
        }
        for seconds in [0.0, -1.0, f64::NAN, f64::INFINITY, 1e9] {
            assert!(limits(None, Some(seconds), None, default).is_err(), "{seconds}");
        }
        assert!(limits(None, None, Some(0), default).is_err());
    }

    #[test]
    fn an_engine_follows_the_rules_it_is_asked_about() {
        let settings = Settings { hash_mib: 1, threads: 1, databases: Databases::Off, memory_mib: None };
        let mut searcher = Searcher::new(settings);
        let stop = AtomicBool::new(false);
        for (text, value) in [("kalah(4,3) standard", 6), ("kalah(4,4) standard", 2), ("kalah(4,3) standard", 6)] {
            let rules: Rules = text.parse().unwrap();
            assert!(searcher.prepare(&rules).is_none());
            let info = searcher.analyse(&Position::start(&rules), &rules, Limits::default(), &stop, |_| true);
            assert_eq!(info.score.hundredths(), value * 100, "{text}");
        }
    }

    #[test]
    fn a_callback_that_says_no_stops_the_search_after_its_depth() {
        let settings = Settings { hash_mib: 1, threads: 1, databases: Databases::Off, memory_mib: None };
        let mut searcher = Searcher::new(settings);
        let rules = Rules::standard(6, 6).unwrap();
        searcher.prepare(&rules);
        let stop = AtomicBool::new(false);
        let info = searcher.analyse(&Position::start(&rules), &rules, Limits::depth(30), &stop, |info| info.depth < 3);
        assert_eq!(info.depth, 3);
    }
}
