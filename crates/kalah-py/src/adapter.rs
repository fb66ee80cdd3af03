//! The one place this crate calls the engine library: searches, decisions, levels, solves and
//! endgame databases, behind small types of its own, so that a change of the engine's API is an
//! edit here and nowhere else. Nothing here knows Python.
//!
//! The policies are the engine's, as every kalah front end uses them: which layers of a database
//! an engine uses within a memory budget ([`kalah_engine::databases`]), the strength levels
//! ([`kalah_engine::level`]) and the decision ([`kalah_engine::decide`]). What is the front
//! end's to say is here: how much memory there is, and the checks of the arguments.

use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use kalah_engine::databases::{self, spare_memory, Memory};
use kalah_engine::decide::Decision;
use kalah_engine::egdb::{self, Egdb, EgdbError};
use kalah_engine::level::Level;
use kalah_engine::search::{Info, Options, Oracle, MAX_DEPTH};
use kalah_engine::solver::{Solver, Stopped};
use kalah_engine::time::Limits;
use kalah_engine::{GameEngine, OtherRules};
use kalah_rules::score::Bounds;
use kalah_rules::{Game, Position, Rules};

/// Bytes in a MiB.
const MIB: usize = 1 << 20;

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
    /// only the layers that fit in what this machine can spare.
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
        if let Some(limit) = self.memory_mib {
            if self.hash_mib > limit {
                return Err(format!(
                    "the table alone (hash_mb={}) is over the memory limit (memory_mb={limit}): lower hash_mb or raise memory_mb",
                    self.hash_mib
                ));
            }
        }
        // A table larger than the free memory would have the machine swap, or fail to allocate.
        if let Some((spare, available)) = spare_memory().filter(|(spare, _)| self.table() > *spare) {
            return Err(format!(
                "hash_mb={} is more than this machine can spare now ({spare} of {available} available): lower hash_mb",
                self.hash_mib
            ));
        }
        Ok(())
    }

    /// The memory of the table.
    fn table(&self) -> Memory {
        Memory::mib(self.hash_mib as u64)
    }

    /// The engine options without a database.
    fn options(&self) -> Options {
        Options { table_bytes: self.hash_mib * MIB, threads: self.threads, ..Options::default() }
    }

    /// Returns where the databases of these settings come from: the engine's policy
    /// ([`databases::Databases`]) over the folder, within the memory limit less the table (or,
    /// without a limit, what this machine can spare now less the table), as `kalah`'s flags do.
    fn source(&self) -> Source {
        match &self.databases {
            Databases::Off => Source::Off,
            Databases::Open(db) => Source::Open(Arc::clone(db)),
            Databases::Folder(dir) => {
                let limit = self.memory_mib.map(|mib| Memory::mib(mib as u64));
                Source::Folder(databases::Databases::new(dir, databases::budget(limit, self.table())))
            }
        }
    }
}

/// Where an engine or solver takes the database of each rule set from.
enum Source {
    /// No database.
    Off,
    /// The databases of a folder, each variant's opened once, within one budget.
    Folder(databases::Databases),
    /// One database the caller opened.
    Open(Arc<Egdb>),
}

impl Source {
    /// Returns the database for `rules`, if there is one to use, and a note to show when the
    /// database could not be used in full.
    fn attach(&self, rules: &Rules) -> (Option<Arc<dyn Oracle>>, Option<String>) {
        match self {
            Source::Off => (None, None),
            Source::Open(db) if db.matches(rules) => (Some(Arc::clone(db) as Arc<dyn Oracle>), None),
            // A database of other rules would give wrong values.
            Source::Open(_) if egdb::supports(rules).is_err() => (None, None),
            Source::Open(_) => (None, Some(format!("the endgame database given was not built for {rules}: not used"))),
            Source::Folder(databases) => {
                let attached = databases.attach(rules);
                (attached.engine_oracle(), attached.unused.map(|unused| unused.to_string()))
            }
        }
    }
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

/// Returns the limits of a move at `level` (1 to 5) within `time`, as every kalah front end plays
/// the levels ([`Level::limits`]).
pub fn level_limits(level: u8, time: Duration) -> Result<Limits, String> {
    let level = Level::new(level).ok_or_else(|| {
        format!("level={level} is out of range: the levels are {} to {}", Level::MIN.number(), Level::MAX.number())
    })?;
    Ok(level.limits(time))
}

/// The strong engine for one rule set at a time: bound to the rules of the game asked about last
/// ([`GameEngine`]), renewed with their database for a game of others.
pub struct Searcher {
    /// `None` until the first game: the table is made for its rules.
    engine: Option<GameEngine>,
    options: Options,
    databases: Source,
}

/// The engine prepared for one game's rules ([`Searcher::prepare`]).
pub struct Prepared<'a>(&'a GameEngine);

impl Searcher {
    /// Returns an engine with checked `settings` (see [`Settings::check`]); its table is made on
    /// the first search.
    pub fn new(settings: &Settings) -> Searcher {
        Searcher { engine: None, options: settings.options(), databases: settings.source() }
    }

    /// Returns the engine bound to `rules`: the one of the last game when they are its rules,
    /// else renewed (its table emptied) with their database. The note says when the database
    /// could not be used in full.
    pub fn prepare(&mut self, rules: &Rules) -> (Prepared<'_>, Option<String>) {
        let mut note = None;
        if self.engine.as_ref().is_none_or(|engine| engine.rules() != rules) {
            let (oracle, told) = self.databases.attach(rules);
            note = told;
            match &mut self.engine {
                Some(engine) => engine.renew(*rules, oracle),
                None => self.engine = Some(GameEngine::new(*rules, Options { oracle, ..self.options.clone() })),
            }
        }
        (Prepared(self.engine.as_ref().expect("bound just above")), note)
    }

    /// Empties the table.
    pub fn clear(&self) {
        if let Some(engine) = &self.engine {
            engine.clear();
        }
    }
}

impl Prepared<'_> {
    /// Searches `position` (under the prepared rules) within `limits`; `heard` hears each
    /// completed depth and may stop the search there by returning false.
    pub fn analyse(
        &self,
        position: &Position,
        limits: Limits,
        stop: &AtomicBool,
        mut heard: impl FnMut(&Info) -> bool,
    ) -> Info {
        self.0.search(position, limits, Some(stop), |info| flow(heard(info)))
    }

    /// Decides what the player to decide in `game` does, as every front end decides
    /// ([`GameEngine::decide`]); `None` once the game is over.
    ///
    /// # Errors
    ///
    /// [`OtherRules`] when `game` is not of the prepared rules.
    pub fn decide(&self, game: &Game, limits: Limits, stop: &AtomicBool) -> Result<Option<Decision>, OtherRules> {
        self.0.decide(game, limits, Some(stop))
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
    options: Options,
    databases: Source,
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
    pub fn new(settings: &Settings) -> Prover {
        Prover { solver: None, rules: None, options: settings.options(), databases: settings.source() }
    }

    /// Makes the solver ready for `rules`: new tables and the rules' database for a new rule set.
    /// Returns a note to show when the database could not be used in full.
    pub fn prepare(&mut self, rules: &Rules) -> Option<String> {
        if self.rules.as_ref() == Some(rules) && self.solver.is_some() {
            return None;
        }
        // The old tables go before the new ones are made, so two never take memory at once.
        self.solver = None;
        let (oracle, note) = self.databases.attach(rules);
        self.solver = Some(Arc::new(Solver::new(Options { oracle, ..self.options.clone() })));
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
        let mut searcher = Searcher::new(&settings);
        let stop = AtomicBool::new(false);
        for (text, value) in [("kalah(4,3) standard", 6), ("kalah(4,4) standard", 2), ("kalah(4,3) standard", 6)] {
            let rules: Rules = text.parse().unwrap();
            let (engine, note) = searcher.prepare(&rules);
            assert!(note.is_none());
            let info = engine.analyse(&Position::start(&rules), Limits::default(), &stop, |_| true);
            assert_eq!(info.score.hundredths(), value * 100, "{text}");
        }
    }

    #[test]
    fn a_callback_that_says_no_stops_the_search_after_its_depth() {
        let settings = Settings { hash_mib: 1, threads: 1, databases: Databases::Off, memory_mib: None };
        let mut searcher = Searcher::new(&settings);
        let rules = Rules::standard(6, 6).unwrap();
        let (engine, _) = searcher.prepare(&rules);
        let stop = AtomicBool::new(false);
        let info = engine.analyse(&Position::start(&rules), Limits::depth(30), &stop, |info| info.depth < 3);
        assert_eq!(info.depth, 3);
    }
}
