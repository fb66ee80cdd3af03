//! Kalah for Python: the rules, the engine and the solver of the kalah workspace as the Python
//! package `kalah`, built with pyo3 and maturin (`pyproject.toml` beside this crate).
//!
//! This crate is the extension module `kalah._kalah`; the package's Python part
//! (`python/kalah/`) re-exports it and adds the Gymnasium, PettingZoo and OpenSpiel
//! environments. What each module holds:
//!
//! * [`rules`]: `kalah.Rules`, from the command line's rule words given as keywords;
//! * [`actions`]: the integer actions of a rule set (sowings, swap, keep, handicap moves);
//! * [`game`]: `kalah.Game`: play, undo, the phase and the score, observations, records, perft;
//! * [`batch`]: many games stepped or played out in one call;
//! * [`engine`]: `kalah.Engine` (analysis, `decide`, levels) and `kalah.Solver`;
//! * [`egdb`]: endgame databases, opened and built;
//! * [`adapter`]: the one place that calls the engine library, so that its API changes here only;
//! * [`interrupt`]: long work on a thread of its own with the GIL released, stopped by Ctrl-C;
//! * [`number`]: whole-number arguments of any size, checked with a one-line error;
//! * [`error`]: the exceptions, one class for each kind of bad input.
//!
//! No panic reaches Python on bad input: every argument is checked and every library error is an
//! exception with the library's one-line message. The package installs no signal handler and
//! never ends the process.

pub mod actions;
pub mod adapter;
pub mod batch;
pub mod egdb;
pub mod engine;
pub mod error;
pub mod game;
pub mod interrupt;
pub mod number;
pub mod rules;

use pyo3::prelude::*;

/// What a `__reduce__` returns to pickle: a callable that rebuilds the value, and its arguments.
pub type Reduce<'py, A> = PyResult<(Bound<'py, PyAny>, A)>;

/// The benchmark positions of `kalah bench`: (rules, position) pairs.
#[pyfunction]
fn bench_positions() -> Vec<(&'static str, &'static str)> {
    kalah_engine::bench::POSITIONS.to_vec()
}

/// The positions of `kalah bench --solver`: (rules, position) pairs.
#[pyfunction]
fn solver_bench_positions() -> Vec<(&'static str, &'static str)> {
    kalah_engine::bench::SOLVER_POSITIONS.to_vec()
}

/// The extension module `kalah._kalah`.
#[pymodule]
#[pyo3(name = "_kalah")]
fn extension(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("BENCH_DEPTH", kalah_engine::bench::DEPTH)?;
    m.add("BENCH_SIGNATURE", kalah_engine::bench::SIGNATURE)?;
    m.add("SOLVER_SIGNATURE", kalah_engine::bench::SOLVER_SIGNATURE)?;
    m.add_function(wrap_pyfunction!(bench_positions, m)?)?;
    m.add_function(wrap_pyfunction!(solver_bench_positions, m)?)?;
    error::register(m)?;
    m.add_class::<rules::PyRules>()?;
    game::register(m)?;
    batch::register(m)?;
    engine::register(m)?;
    egdb::register(m)?;
    Ok(())
}
