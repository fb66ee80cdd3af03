//! Whole numbers from Python: an argument of any int, checked against its range in the call
//! that takes it, so that a negative or huge number gets the package's one-line error naming the
//! argument and what it accepts, not pyo3's bare `OverflowError` of an unsigned conversion.

use std::fmt::Display;

use pyo3::exceptions::PyOverflowError;
use pyo3::prelude::*;

use crate::error;

/// A Python int of any size, as given: read it with [`Int::within`]. A float, a bool or a str is
/// a `TypeError`, as for any int argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Int(i128);

impl Int {
    /// Zero, the default of the arguments that default to it.
    pub const ZERO: Int = Int(0);

    /// The number `n`, for a default.
    pub const fn of(n: i64) -> Int {
        Int(n as i128)
    }

    /// Returns the number as `T` when it is from `low` to `high`; else a `KalahError`
    /// "`name`=N is out of range: `accepted`".
    pub fn within<T>(self, low: T, high: T, name: &str, accepted: impl Display) -> PyResult<T>
    where
        T: TryFrom<i128> + Copy,
        i128: TryFrom<T>,
    {
        let (low, high) = (i128::try_from(low).unwrap_or(i128::MIN), i128::try_from(high).unwrap_or(i128::MAX));
        if (low..=high).contains(&self.0) {
            if let Ok(value) = T::try_from(self.0) {
                return Ok(value);
            }
        }
        Err(error::bad(format!("{name}={self} is out of range: {accepted}")))
    }
}

impl Display for Int {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            // Beyond i128 (see `extract`): the sign says which way.
            i128::MAX => f.write_str("a number too large"),
            i128::MIN => f.write_str("a number too small"),
            n => write!(f, "{n}"),
        }
    }
}

impl<'a, 'py> FromPyObject<'a, 'py> for Int {
    type Error = PyErr;

    fn extract(value: Borrowed<'a, 'py, PyAny>) -> PyResult<Int> {
        if value.is_instance_of::<pyo3::types::PyBool>() {
            // A bool is an int to Python, but True for a count or a depth is a mistake.
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "a whole number is an int, not {}",
                crate::rules::type_name(&value.to_owned())
            )));
        }
        match value.extract::<i128>() {
            Ok(n) => Ok(Int(n)),
            Err(e) if e.is_instance_of::<PyOverflowError>(value.py()) => {
                Ok(Int(if value.lt(0)? { i128::MIN } else { i128::MAX }))
            }
            Err(e) => Err(e),
        }
    }
}
