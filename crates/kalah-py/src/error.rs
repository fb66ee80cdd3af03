//! The package's exceptions: every error of the rules, the engine and the databases becomes one
//! of these, with the library's one-line message.
//!
//! All derive from `kalah.KalahError`, itself a `ValueError`, so that `except ValueError` catches
//! bad input as Python code expects; each kind of bad input has its own class to catch.

use std::fmt::Display;

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

create_exception!(kalah, KalahError, PyValueError, "Every error the kalah package raises on bad input.");
create_exception!(kalah, RulesError, KalahError, "A board size, rules preset or rule option that is not known.");
create_exception!(kalah, PositionError, KalahError, "A position that does not read, or does not fit the rules.");
create_exception!(kalah, ActionError, KalahError, "An action that does not read or is not allowed now.");
create_exception!(kalah, GameOverError, ActionError, "An action asked of a game that is over.");
create_exception!(kalah, RecordError, KalahError, "A game record that cannot be read.");
create_exception!(kalah, EgdbError, KalahError, "An endgame database that cannot be built, opened or used.");

/// Returns a `KalahError` with `message`: a bad argument (a limit out of range, a wrong size).
pub fn bad(message: impl Display) -> PyErr {
    KalahError::new_err(message.to_string())
}

/// Returns a `RulesError` with the error's message.
pub fn rules(error: impl Display) -> PyErr {
    RulesError::new_err(error.to_string())
}

/// Returns a `PositionError` with the error's message.
pub fn position(error: impl Display) -> PyErr {
    PositionError::new_err(error.to_string())
}

/// Returns an `ActionError` with the error's message, or a `GameOverError` when the game is over.
pub fn action(error: kalah_rules::PlayError) -> PyErr {
    match error {
        kalah_rules::PlayError::GameOver => GameOverError::new_err(error.to_string()),
        _ => ActionError::new_err(error.to_string()),
    }
}

/// Returns an `EgdbError` with the error's message.
pub fn egdb(error: impl Display) -> PyErr {
    EgdbError::new_err(error.to_string())
}

/// Adds the exception classes to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("KalahError", py.get_type::<KalahError>())?;
    m.add("RulesError", py.get_type::<RulesError>())?;
    m.add("PositionError", py.get_type::<PositionError>())?;
    m.add("ActionError", py.get_type::<ActionError>())?;
    m.add("GameOverError", py.get_type::<GameOverError>())?;
    m.add("RecordError", py.get_type::<RecordError>())?;
    m.add("EgdbError", py.get_type::<EgdbError>())?;
    Ok(())
}
