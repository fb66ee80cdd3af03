//! `kalah.Engine` and `kalah.Solver`: the strong engine's analysis and decisions, and exact
//! solves, with the GIL released and Ctrl-C stopping them cleanly.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use kalah_engine::score::Score;
use kalah_engine::search::{Info, MAX_DEPTH};
use kalah_engine::time::Limits;
use kalah_rules::{Action, Game, Move};
use pyo3::exceptions::{PyRuntimeWarning, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyString, PyType};

use crate::adapter::{self, Databases, Prepared, Prover, Searcher, Settings, Solved};
use crate::egdb::PyEgdb;
use crate::error::{self, GameOverError};
use crate::game::{side_arg, PyGame, PySide};
use crate::interrupt;
use crate::number::Int;
use crate::rules::type_name;
use crate::Reduce;

/// How often a solve's progress callback hears how far it has got.
const PROGRESS_EVERY: Duration = Duration::from_millis(250);

/// The default analysis when no limit is given: two seconds, as `kalah analyze`.
const ANALYSIS_DEFAULT: Duration = Duration::from_secs(2);
/// The default decision time when no limit is given, and level 5's time: a second, as `kalah serve`.
const DECISION_DEFAULT: Duration = Duration::from_secs(1);

/// The `egdb` argument of an engine or solver: None or False (no database), True or "auto" (the
/// default folder), a folder (str or path), or a `kalah.Egdb`.
pub struct EgdbArg {
    /// Where the databases come from.
    databases: Databases,
    /// The folder was named by the caller, not the default one.
    named: bool,
}

impl EgdbArg {
    /// The databases of the default folder, or none when the environment names no folder.
    pub fn auto() -> EgdbArg {
        EgdbArg::of(adapter::default_folder().map_or(Databases::Off, Databases::Folder))
    }

    /// The databases given, not from a folder the caller named.
    fn of(databases: Databases) -> EgdbArg {
        EgdbArg { databases, named: false }
    }
}

impl<'a, 'py> FromPyObject<'a, 'py> for EgdbArg {
    type Error = PyErr;

    fn extract(value: Borrowed<'a, 'py, PyAny>) -> PyResult<EgdbArg> {
        if value.is_none() {
            return Ok(EgdbArg::of(Databases::Off));
        }
        if let Ok(flag) = value.cast::<PyBool>() {
            return Ok(if flag.is_true() { EgdbArg::auto() } else { EgdbArg::of(Databases::Off) });
        }
        if let Ok(db) = value.cast::<PyEgdb>() {
            return Ok(EgdbArg::of(Databases::Open(Arc::clone(&db.get().db))));
        }
        if value.cast::<PyString>().is_ok_and(|s| s == "auto") {
            return Ok(EgdbArg::auto());
        }
        match value.extract::<PathBuf>() {
            Ok(dir) => Ok(EgdbArg { databases: Databases::Folder(dir), named: true }),
            Err(_) => Err(PyTypeError::new_err(format!(
                "egdb takes None, True, \"auto\", a folder or a kalah.Egdb, not {}",
                type_name(&value.to_owned())
            ))),
        }
    }
}

/// Reads the engine settings of a constructor.
fn settings(hash_mb: Int, threads: Int, egdb: EgdbArg, memory_mb: Option<Int>) -> PyResult<Settings> {
    let hash_mib = hash_mb.within(0, usize::MAX, "hash_mb", "the table takes 1 to 65536 MiB")?;
    let threads = threads.within(0, usize::MAX, "threads", "1 to 64 threads")?;
    let memory_mib = memory_mb.map(|m| m.within(0, usize::MAX, "memory_mb", "a number of MiB")).transpose()?;
    if let Databases::Folder(dir) = &egdb.databases {
        // A folder named outright must be there: a typo would otherwise mean no database, silently.
        // The default folder ("auto") may be missing: then there is simply no database yet.
        if egdb.named && !dir.is_dir() {
            return Err(error::egdb(format!(
                "egdb={}: no such folder; give the folder Egdb.build or `kalah egdb build --dir` wrote, \"auto\" or None",
                dir.display()
            )));
        }
    }
    let settings = Settings { hash_mib, threads, databases: egdb.databases, memory_mib };
    settings.check().map_err(error::bad)?;
    Ok(settings)
}

/// Reads a depth limit, in sowings (the range is checked with the other limits).
fn depth_arg(depth: Option<Int>) -> PyResult<Option<u32>> {
    depth.map(|d| d.within(0, u32::MAX, "depth", format!("1 to {MAX_DEPTH} sowings"))).transpose()
}

/// Reads a node budget (the range is checked with the other limits).
fn nodes_arg(nodes: Option<Int>) -> PyResult<Option<u64>> {
    nodes.map(|n| n.within(0, u64::MAX, "nodes", "give at least 1 node")).transpose()
}

/// Shows a note about the database as a RuntimeWarning, as the command line prints it.
fn note(py: Python<'_>, note: Option<String>) -> PyResult<()> {
    if let Some(note) = note {
        PyErr::warn(py, &py.get_type::<PyRuntimeWarning>(), &std::ffi::CString::new(note)?, 1)?;
    }
    Ok(())
}

/// Returns a line of sowings as action numbers.
fn line(moves: &[Move]) -> Vec<usize> {
    moves.iter().map(|m| m.index()).collect()
}

/// Writes a line of sowings as house numbers, as the command line prints it.
fn line_text(line: &[usize]) -> String {
    line.iter().map(|i| (i + 1).to_string()).collect::<Vec<_>>().join(" ")
}

/// Writes an optional number as Python writes it.
fn py_option(value: Option<usize>) -> String {
    value.map_or("None".to_string(), |v| v.to_string())
}

/// Writes a value in seeds with its sign, as the command line prints it.
fn seeds_text(value: f64) -> String {
    format!("{:+.2}", value)
}

/// What the engine found: the value of the position for the side to move, the best action, the
/// line it expects, and the search behind it.
#[pyclass(frozen, get_all, module = "kalah", name = "Analysis")]
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The value for the side to move, in seeds: the final store difference it can expect.
    value: f64,
    /// True when the value is proven: the game-theoretic value, not an estimate.
    exact: bool,
    /// The side to move, whose value this is.
    side: PySide,
    /// The best action (a sowing's number), or None when the game is over.
    best: Option<usize>,
    /// The line the engine expects, as action numbers.
    line: Vec<usize>,
    /// The depth completed, in sowings.
    depth: u32,
    /// Nodes searched.
    nodes: u64,
    /// Seconds the search took.
    seconds: f64,
}

impl Analysis {
    fn of(info: &Info, side: PySide) -> Analysis {
        Analysis {
            value: info.score.seeds(),
            exact: info.score.is_exact(),
            side,
            best: info.best.map(|m| m.index()),
            line: line(&info.pv),
            depth: info.depth,
            nodes: info.nodes,
            seconds: info.elapsed.as_secs_f64(),
        }
    }
}

#[pymethods]
impl Analysis {
    fn __repr__(&self) -> String {
        format!(
            "kalah.Analysis(value={}, exact={}, best={}, depth={}, nodes={})",
            self.value,
            if self.exact { "True" } else { "False" },
            py_option(self.best),
            self.depth,
            self.nodes
        )
    }

    fn __str__(&self) -> String {
        let best = self.best.map_or("none".to_string(), |b| (b + 1).to_string());
        let side = kalah_rules::Side::from(self.side);
        let exact = if self.exact { " exact" } else { "" };
        format!(
            "best move: {best}\nvalue: {} seeds for {side}{exact} (depth {})\nline: {}",
            seeds_text(self.value),
            self.depth,
            line_text(&self.line)
        )
    }

    /// Pickles an analysis as its fields, read back by `_from_state`.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> Reduce<'py, (AnalysisState,)> {
        let a = slf.get().clone();
        let state = (a.value, a.exact, a.side, a.best, a.line, a.depth, a.nodes, a.seconds);
        Ok((slf.get_type().getattr("_from_state")?, (state,)))
    }

    /// Builds an analysis from the fields `__reduce__` gave: pickle's way back, not an API.
    #[classmethod]
    fn _from_state(_cls: &Bound<'_, PyType>, state: AnalysisState) -> Analysis {
        let (value, exact, side, best, line, depth, nodes, seconds) = state;
        Analysis { value, exact, side, best, line, depth, nodes, seconds }
    }
}

/// An analysis's fields in the order `Analysis.__reduce__` gives them.
type AnalysisState = (f64, bool, PySide, Option<usize>, Vec<usize>, u32, u64, f64);

/// A decision's fields in the order `Decision.__reduce__` gives them.
type DecisionState = (usize, String, f64, PySide, bool, u32, u64, String);

/// A solution's fields in the order `Solution.__reduce__` gives them.
type SolutionState = (Option<i32>, bool, i32, i32, PySide, Option<usize>, Vec<usize>, u64, f64);

/// An action chosen, what it is worth to the player who takes it, and why.
#[pyclass(frozen, module = "kalah", name = "Decision")]
#[derive(Clone, Debug)]
pub struct Decision {
    /// The action to play (an int for Game.play).
    #[pyo3(get)]
    action: usize,
    /// The action as records write it: "3", "swap", "keep", "S3>N2".
    #[pyo3(get)]
    text: String,
    /// What the action is worth to the player taking it, in seeds: the final store difference
    /// they can expect as `side`.
    #[pyo3(get)]
    value: f64,
    /// The side the player holds after the action, whose value `value` is (South after a swap).
    #[pyo3(get)]
    side: PySide,
    /// True when the value is proven.
    #[pyo3(get)]
    exact: bool,
    /// The depth the decision rests on, in sowings.
    #[pyo3(get)]
    depth: u32,
    /// Nodes searched.
    #[pyo3(get)]
    nodes: u64,
    /// Why this action: "best move", "swap: the position is better for South", ...
    #[pyo3(get)]
    reason: String,
}

#[pymethods]
impl Decision {
    /// What the decision is worth to `side` (a Side, 0/1 or "south"/"north"), in seeds: the
    /// final store difference, that side's minus the other's.
    fn value_for(&self, side: &Bound<'_, PyAny>) -> PyResult<f64> {
        // One side's final store difference is minus the other's (the engine's `value_for`);
        // computed from the fields so that a pickled decision answers the same.
        let same = side_arg(side)? == kalah_rules::Side::from(self.side);
        Ok(if same { self.value } else { -self.value })
    }

    fn __repr__(&self) -> String {
        format!(
            "kalah.Decision(action={}, text={:?}, value={}, exact={}, reason={:?})",
            self.action,
            self.text,
            self.value,
            if self.exact { "True" } else { "False" },
            self.reason
        )
    }

    /// Pickles a decision as its fields, read back by `_from_state`.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> Reduce<'py, (DecisionState,)> {
        let d = slf.get().clone();
        let state = (d.action, d.text, d.value, d.side, d.exact, d.depth, d.nodes, d.reason);
        Ok((slf.get_type().getattr("_from_state")?, (state,)))
    }

    /// Builds a decision from the fields `__reduce__` gave: pickle's way back, not an API.
    #[classmethod]
    fn _from_state(_cls: &Bound<'_, PyType>, state: DecisionState) -> Decision {
        let (action, text, value, side, exact, depth, nodes, reason) = state;
        Decision { action, text, value, side, exact, depth, nodes, reason }
    }
}

/// The strong engine: iterative-deepening search with a transposition table, endgame databases
/// and threads, and `decide`, the one decision every kalah front end makes (moves, the pie
/// rule's swap and opening, the handicap).
///
/// Engine(*, hash_mb=64, threads=1, egdb="auto", memory_mb=None), as `kalah analyze`'s
/// `--hash`, `--threads`, `--egdb-dir`/`--no-egdb` and `--memory`. egdb: "auto" or True uses
/// the databases in the default folder (`kalah egdb build` writes there) when there are some
/// for the rules; a folder; a `kalah.Egdb`; None or False for none.
///
/// The table follows the rules of the game asked about: a game of other rules empties it.
/// Searches release the GIL; Ctrl-C stops one and raises KeyboardInterrupt.
#[pyclass(frozen, module = "kalah", name = "Engine")]
pub struct PyEngine {
    searcher: Mutex<Searcher>,
}

impl PyEngine {
    /// Runs `job` with the engine prepared for `game`'s rules, interruptibly, and shows the note
    /// about its database, if any.
    fn with_engine<T: Send, M: Send>(
        &self,
        py: Python<'_>,
        game: &Game,
        job: impl FnOnce(&Prepared<'_>, &AtomicBool, &(dyn Fn(M) -> bool + Sync)) -> T + Send,
        tick: impl FnMut(Python<'_>, Option<M>) -> PyResult<bool> + Send,
    ) -> PyResult<T> {
        let rules = *game.rules();
        // The lock is taken on the work thread, with the GIL released: a search of another
        // Python thread may hold it, and it needs the GIL to look at signals.
        let (out, told) = interrupt::run(
            py,
            |stop, tell| {
                let mut searcher = self.searcher.lock().unwrap_or_else(|e| e.into_inner());
                let (engine, told) = searcher.prepare(&rules);
                (job(&engine, stop, tell), told)
            },
            tick,
        )?;
        note(py, told)?;
        Ok(out)
    }
}

#[pymethods]
impl PyEngine {
    #[new]
    #[pyo3(signature = (*, hash_mb=Int::of(64), threads=Int::of(1), egdb=EgdbArg::auto(), memory_mb=None))]
    #[pyo3(text_signature = "(*, hash_mb=64, threads=1, egdb='auto', memory_mb=None)")]
    fn new(hash_mb: Int, threads: Int, egdb: EgdbArg, memory_mb: Option<Int>) -> PyResult<PyEngine> {
        let settings = settings(hash_mb, threads, egdb, memory_mb)?;
        Ok(PyEngine { searcher: Mutex::new(Searcher::new(&settings)) })
    }

    /// Searches the game's position within the limits: depth in sowings (1 to 120), time in
    /// seconds, nodes; two seconds when none is given. `callback(analysis)` hears each completed
    /// depth; returning False stops the search there. Returns the Analysis of the last depth.
    #[pyo3(signature = (game, *, depth=None, time=None, nodes=None, callback=None))]
    fn analyse(
        &self,
        py: Python<'_>,
        game: PyRef<'_, PyGame>,
        depth: Option<Int>,
        time: Option<f64>,
        nodes: Option<Int>,
        callback: Option<Py<PyAny>>,
    ) -> PyResult<Analysis> {
        let (depth, nodes) = (depth_arg(depth)?, nodes_arg(nodes)?);
        let limits = adapter::limits(depth, time, nodes, Limits::time(ANALYSIS_DEFAULT)).map_err(error::bad)?;
        let game = game.game.clone();
        let (position, rules) = (*game.position(), *game.rules());
        let side = PySide::from(position.mover());
        if position.is_over(&rules) {
            let value = position.final_difference(&rules) * position.mover().sign();
            let info = Info {
                depth: 0,
                score: Score::exact_seeds(value),
                best: None,
                pv: Vec::new(),
                nodes: 0,
                elapsed: Duration::ZERO,
            };
            return Ok(Analysis::of(&info, side));
        }
        let wants = callback.is_some();
        let info = self.with_engine(
            py,
            &game,
            |engine, stop, tell| {
                engine.analyse(&position, limits, stop, |info| !wants || tell(Analysis::of(info, side)))
            },
            |py, told: Option<Analysis>| match (&callback, told) {
                (Some(callback), Some(analysis)) => {
                    let answer = callback.bind(py).call1((analysis,))?;
                    Ok(answer.is_none() || answer.is_truthy()?)
                }
                _ => Ok(true),
            },
        )?;
        Ok(Analysis::of(&info, side))
    }

    /// The same as analyse (American spelling, as `kalah analyze`).
    #[pyo3(signature = (game, *, depth=None, time=None, nodes=None, callback=None))]
    fn analyze(
        &self,
        py: Python<'_>,
        game: PyRef<'_, PyGame>,
        depth: Option<Int>,
        time: Option<f64>,
        nodes: Option<Int>,
        callback: Option<Py<PyAny>>,
    ) -> PyResult<Analysis> {
        self.analyse(py, game, depth, time, nodes, callback)
    }

    /// Decides what the player to decide in `game` should do, as every kalah front end decides:
    /// the best move, the pie rule's swap or the opening closest to even, the handicap. Give a
    /// level (1 to 5, the browser game's: 1, 3, 6 and 12 sowings, then as deep as the time
    /// allows) with an optional time cap in seconds (1 by default), or limits: depth, time,
    /// nodes. With none, one second. Raises GameOverError once the game is over.
    #[pyo3(signature = (game, *, level=None, depth=None, time=None, nodes=None))]
    fn decide(
        &self,
        py: Python<'_>,
        game: PyRef<'_, PyGame>,
        level: Option<Int>,
        depth: Option<Int>,
        time: Option<f64>,
        nodes: Option<Int>,
    ) -> PyResult<Decision> {
        let level = level.map(|l| l.within(0, u8::MAX, "level", "the levels are 1 to 5")).transpose()?;
        let (depth, nodes) = (depth_arg(depth)?, nodes_arg(nodes)?);
        let limits = match level {
            Some(_) if depth.is_some() || nodes.is_some() => {
                return Err(error::bad("give a level (with a time cap if you like) or depth/nodes limits, not both"))
            }
            Some(level) => {
                let cap = adapter::limits(None, time, None, Limits::time(DECISION_DEFAULT)).map_err(error::bad)?;
                adapter::level_limits(level, cap.time.unwrap_or(DECISION_DEFAULT)).map_err(error::bad)?
            }
            None => adapter::limits(depth, time, nodes, Limits::time(DECISION_DEFAULT)).map_err(error::bad)?,
        };
        let space = game.space;
        let game = game.game.clone();
        if game.is_over() {
            return Err(GameOverError::new_err("the game is over: there is nothing to decide"));
        }
        let decision = self.with_engine(
            py,
            &game,
            |engine, stop, _: &(dyn Fn(()) -> bool + Sync)| engine.decide(&game, limits, stop),
            |_, _| Ok(true),
        )?;
        let decision = decision
            .map_err(error::bad)?
            .ok_or_else(|| GameOverError::new_err("the game is over: there is nothing to decide"))?;
        let action: Action = decision.action;
        Ok(Decision {
            action: space.encode(action).expect("a decision is a legal action"),
            text: action.to_string(),
            value: decision.score.seeds(),
            side: PySide::from(decision.side),
            exact: decision.score.is_exact(),
            depth: decision.depth,
            nodes: decision.nodes,
            reason: decision.reason.to_string(),
        })
    }

    /// Empties the transposition table (a clean start, or a benchmark).
    fn clear(&self, py: Python<'_>) {
        py.detach(|| self.searcher.lock().unwrap_or_else(|e| e.into_inner()).clear());
    }
}

/// The exact value of a position with perfect play, a best move and a perfect line; or, for a
/// solve stopped at its node budget, the bounds proven so far.
#[pyclass(frozen, get_all, module = "kalah", name = "Solution")]
#[derive(Clone, Debug)]
pub struct Solution {
    /// The exact value for the side to move, in seeds (the final store difference with perfect
    /// play), or None when the solve stopped at its node budget.
    value: Option<i32>,
    /// True when the solve is complete (`value` is set).
    complete: bool,
    /// The proven lower bound on the value (equal to it when complete).
    lower: i32,
    /// The proven upper bound on the value (equal to it when complete).
    upper: i32,
    /// The side to move, whose value this is.
    side: PySide,
    /// A best action, or None (game over, or stopped).
    best: Option<usize>,
    /// A perfect line to the end of the game, as action numbers (empty when stopped).
    line: Vec<usize>,
    /// Nodes searched.
    nodes: u64,
    /// Seconds the solve took.
    seconds: f64,
}

#[pymethods]
impl Solution {
    fn __repr__(&self) -> String {
        format!(
            "kalah.Solution(value={}, best={}, nodes={})",
            self.value.map_or("None".to_string(), |v| v.to_string()),
            py_option(self.best),
            self.nodes
        )
    }

    fn __str__(&self) -> String {
        let side = kalah_rules::Side::from(self.side);
        match self.value {
            Some(value) => format!(
                "value: {value:+} for {side} with perfect play\nbest move: {}\nline: {}",
                self.best.map_or("none".to_string(), |b| (b + 1).to_string()),
                line_text(&self.line)
            ),
            None => format!("stopped: the value is between {:+} and {:+} for {side}", self.lower, self.upper),
        }
    }

    /// Pickles a solution as its fields, read back by `_from_state`.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> Reduce<'py, (SolutionState,)> {
        let s = slf.get().clone();
        let state = (s.value, s.complete, s.lower, s.upper, s.side, s.best, s.line, s.nodes, s.seconds);
        Ok((slf.get_type().getattr("_from_state")?, (state,)))
    }

    /// Builds a solution from the fields `__reduce__` gave: pickle's way back, not an API.
    #[classmethod]
    fn _from_state(_cls: &Bound<'_, PyType>, state: SolutionState) -> Solution {
        let (value, complete, lower, upper, side, best, line, nodes, seconds) = state;
        Solution { value, complete, lower, upper, side, best, line, nodes, seconds }
    }
}

/// The exact solver: the game-theoretic value of a position, a best move and a perfect line
/// (MTD(f) over null-window proofs, with endgame databases).
///
/// Solver(*, hash_mb=64, threads=1, egdb="auto", memory_mb=None), as `kalah solve`'s flags.
/// Its tables follow the rules of the game asked about. Solves release the GIL; Ctrl-C stops
/// one and raises KeyboardInterrupt.
#[pyclass(frozen, module = "kalah", name = "Solver")]
pub struct PySolver {
    prover: Mutex<Prover>,
}

#[pymethods]
impl PySolver {
    #[new]
    #[pyo3(signature = (*, hash_mb=Int::of(64), threads=Int::of(1), egdb=EgdbArg::auto(), memory_mb=None))]
    #[pyo3(text_signature = "(*, hash_mb=64, threads=1, egdb='auto', memory_mb=None)")]
    fn new(hash_mb: Int, threads: Int, egdb: EgdbArg, memory_mb: Option<Int>) -> PyResult<PySolver> {
        let settings = settings(hash_mb, threads, egdb, memory_mb)?;
        Ok(PySolver { prover: Mutex::new(Prover::new(&settings)) })
    }

    /// Solves the game's position exactly. With `nodes`, the solve stops after about that many
    /// nodes and returns the bounds proven so far (`complete` False). `progress(nodes, lower,
    /// upper)` hears how far the solve has got, about every quarter of a second and at
    /// each proven bound (the value is between lower and upper; returning False stops the solve
    /// as a node budget does). Ctrl-C raises KeyboardInterrupt.
    #[pyo3(signature = (game, *, nodes=None, progress=None))]
    fn solve(
        &self,
        py: Python<'_>,
        game: PyRef<'_, PyGame>,
        nodes: Option<Int>,
        progress: Option<Py<PyAny>>,
    ) -> PyResult<Solution> {
        let nodes = nodes_arg(nodes)?;
        if nodes == Some(0) {
            return Err(error::bad("nodes=0 is out of range: give at least 1 node"));
        }
        let (position, rules) = (*game.game.position(), *game.game.rules());
        let side = PySide::from(position.mover());
        drop(game);
        if position.is_over(&rules) {
            let value = position.final_difference(&rules) * position.mover().sign();
            return Ok(Solution {
                value: Some(value),
                complete: true,
                lower: value,
                upper: value,
                side,
                best: None,
                line: Vec::new(),
                nodes: 0,
                seconds: 0.0,
            });
        }
        let started = std::time::Instant::now();
        let prover = &self.prover;
        let watch = std::sync::OnceLock::new();
        let houses = i32::from(position.seeds_in_houses());
        let base = position.store_difference() * position.mover().sign();
        let mut bounds = (base - houses, base + houses);
        let mut told_at: Option<std::time::Instant> = None;
        let (solved, told) = interrupt::run(
            py,
            |stop, tell| {
                let mut prover = prover.lock().unwrap_or_else(|e| e.into_inner());
                let told = prover.prepare(&rules);
                if let Some(handle) = prover.watch() {
                    let _ = watch.set(handle);
                }
                (prover.solve(&position, &rules, nodes, stop, |lower, upper| tell((lower, upper))), told)
            },
            |py, heard: Option<(i32, i32)>| {
                let (Some(progress), Some(handle)) = (&progress, watch.get()) else { return Ok(true) };
                let due = told_at.is_none_or(|at| at.elapsed() >= PROGRESS_EVERY);
                if heard.is_none() && !due {
                    return Ok(true);
                }
                if let Some(proven) = heard {
                    bounds = proven;
                }
                told_at = Some(std::time::Instant::now());
                let answer = progress.bind(py).call1((handle.nodes(), bounds.0, bounds.1))?;
                Ok(answer.is_none() || answer.is_truthy()?)
            },
        )?;
        note(py, told)?;
        let seconds = started.elapsed().as_secs_f64();
        Ok(match solved {
            Solved::Exact(info) => {
                let value = info.score.whole_seeds().0;
                Solution {
                    value: Some(value),
                    complete: true,
                    lower: value,
                    upper: value,
                    side,
                    best: info.best.map(|m| m.index()),
                    line: line(&info.pv),
                    nodes: info.nodes,
                    seconds,
                }
            }
            Solved::Stopped { lower, upper, nodes } => Solution {
                value: None,
                complete: false,
                lower,
                upper,
                side,
                best: None,
                line: Vec::new(),
                nodes,
                seconds,
            },
        })
    }
}

/// Registers the classes of this module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyEngine>()?;
    m.add_class::<PySolver>()?;
    m.add_class::<Analysis>()?;
    m.add_class::<Decision>()?;
    m.add_class::<Solution>()?;
    Ok(())
}
