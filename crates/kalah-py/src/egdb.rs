//! `kalah.Egdb`: endgame databases, the exact value of every position with few seeds left in
//! the houses: opened from a folder or built there, for an engine or solver to use.

use std::path::PathBuf;
use std::sync::Arc;

use kalah_engine::egdb::{Egdb, MAX_SEEDS};
use kalah_rules::Rules;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::adapter;
use crate::error;
use crate::game::PyGame;
use crate::interrupt;
use crate::number::Int;
use crate::rules::{rules_of, PyRules, RuleWords};

/// Bytes in a MiB.
const MIB: u64 = 1 << 20;

/// The keywords the database functions take besides the rule keywords.
const OWN_KEYWORDS: [&str; 6] = ["dir", "max_seeds", "memory_mb", "threads", "progress", "seeds"];

/// Returns the folder given, or the default one.
fn folder(dir: Option<PathBuf>) -> PyResult<PathBuf> {
    dir.or_else(adapter::default_folder)
        .ok_or_else(|| error::egdb("no folder for endgame databases: give dir=, or set HOME or XDG_CACHE_HOME"))
}

/// An endgame database of one rule set: the exact value of every position with up to
/// `max_seeds` seeds in the houses.
///
/// Egdb.open(rules=None, *, dir=None, max_seeds=None, memory_mb=None, **rule keywords) opens the
/// layers found in `dir` (default: the user's cache folder, kalah/egdb, where `kalah egdb build`
/// writes); Egdb.build(seeds, rules=None, *, dir=None, threads=None, progress=None, **rule
/// keywords) builds the missing layers up to `seeds` there and opens them. Pass one to
/// Engine(egdb=...) or Solver(egdb=...).
#[pyclass(frozen, module = "kalah", name = "Egdb")]
pub struct PyEgdb {
    /// The database.
    pub db: Arc<Egdb>,
    /// The rules it was opened for.
    rules: Rules,
}

#[pymethods]
impl PyEgdb {
    /// Opens the database of the rules in `dir`, layers up to `max_seeds` seeds (all by default)
    /// and within `memory_mb` of memory. Raises EgdbError when there is none or it is damaged.
    #[staticmethod]
    #[pyo3(signature = (rules=None, *, dir=None, max_seeds=None, memory_mb=None, **flags))]
    fn open(
        py: Python<'_>,
        rules: Option<&Bound<'_, PyAny>>,
        dir: Option<PathBuf>,
        max_seeds: Option<Int>,
        memory_mb: Option<Int>,
        flags: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyEgdb> {
        let rules = rules_of(rules, &RuleWords::from_kwargs(flags, &OWN_KEYWORDS)?, None)?;
        let dir = folder(dir)?;
        let max_seeds = match max_seeds {
            None => MAX_SEEDS,
            Some(m) => m.within(0, MAX_SEEDS, "max_seeds", format!("0 to {MAX_SEEDS}"))?,
        };
        let memory_mb = memory_mb.map(|m| m.within(0, u64::MAX, "memory_mb", "a number of MiB")).transpose()?;
        let bytes = memory_mb.map_or(u64::MAX, |m| m.saturating_mul(MIB));
        let db = py.detach(|| adapter::open_database(&dir, &rules, max_seeds, bytes)).map_err(error::egdb)?;
        Ok(PyEgdb { db: Arc::new(db), rules })
    }

    /// Builds the layers 0 to `seeds` of the rules in `dir`, keeping the layers already there
    /// that pass every check, and opens the database. `progress(layer, done, positions)` hears
    /// the work; Ctrl-C stops the build after the layer in progress is written (the next build
    /// keeps the layers done) and raises KeyboardInterrupt.
    #[staticmethod]
    #[pyo3(signature = (seeds, rules=None, *, dir=None, threads=None, progress=None, **flags))]
    fn build(
        py: Python<'_>,
        seeds: Int,
        rules: Option<&Bound<'_, PyAny>>,
        dir: Option<PathBuf>,
        threads: Option<Int>,
        progress: Option<Py<PyAny>>,
        flags: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyEgdb> {
        // The layers' own limit (the build's error says it) is below u32::MAX.
        let seeds = seeds.within(0, u32::MAX, "seeds", "a number of seeds left in the houses")?;
        let rules = rules_of(rules, &RuleWords::from_kwargs(flags, &OWN_KEYWORDS)?, None)?;
        let dir = folder(dir)?;
        let threads = match threads {
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
            Some(t) => t.within(1, 64, "threads", "1 to 64 threads")?,
        };
        let wants = progress.is_some();
        let built = interrupt::run(
            py,
            |stop, tell| {
                adapter::build_database(&dir, &rules, seeds, threads, stop, |step| {
                    // The answer is the stop flag's to give: a build stops between layers.
                    if wants {
                        tell(step);
                    }
                })
            },
            |py, step: Option<adapter::BuildProgress>| {
                if let (Some(progress), Some(step)) = (&progress, step) {
                    progress.bind(py).call1(step)?;
                }
                Ok(true)
            },
        )?;
        match built.map_err(error::egdb)? {
            Some(db) => Ok(PyEgdb { db: Arc::new(db), rules }),
            // Only a stop ends a build without a database, and a stop raised its exception.
            None => Err(error::egdb("the build was stopped")),
        }
    }

    /// The rules the database was opened for.
    #[getter]
    fn rules(&self) -> PyRules {
        PyRules { rules: self.rules }
    }

    /// The most seeds in the houses of a position the database holds.
    #[getter]
    fn max_seeds(&self) -> u32 {
        self.db.max_seeds()
    }

    /// The bytes the database takes in memory.
    #[getter]
    fn memory_bytes(&self) -> usize {
        self.db.memory_bytes()
    }

    /// Why loading stopped below a layer that is on disk, if it did (a damaged layer, say).
    #[getter]
    fn issue(&self) -> Option<String> {
        self.db.issue().map(ToString::to_string)
    }

    /// The exact value of the game's position for the side to move: its final store difference
    /// with perfect play. None if the position has more seeds in the houses than the database
    /// holds. Raises EgdbError for a game of other rules.
    fn value(&self, game: PyRef<'_, PyGame>) -> PyResult<Option<i32>> {
        let (position, rules) = (game.game.position(), game.game.rules());
        if !self.db.matches(rules) {
            return Err(error::egdb(format!("this database is for {}, not {rules}", self.rules)));
        }
        let mover = position.mover();
        Ok(self.db.probe(position).map(|gain| position.store_difference() * mover.sign() + gain))
    }

    fn __repr__(&self) -> String {
        format!("<kalah.Egdb {} up to {} seeds>", self.rules, self.db.max_seeds())
    }
}

/// The default folder of the endgame databases (the user's cache folder, kalah/egdb), or None.
#[pyfunction]
pub fn egdb_dir() -> Option<PathBuf> {
    adapter::default_folder()
}

/// Registers the classes and functions of this module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyEgdb>()?;
    m.add_function(wrap_pyfunction!(egdb_dir, m)?)?;
    Ok(())
}
