//! Kalah solves at scale: a long solve that survives being stopped, and a solve spread over a
//! batch system's tasks.
//!
//! The exact solver lives in `kalah-engine`; this crate keeps what a solve of hours or days needs
//! around it: a checkpoint file of the proof table and the bounds reached, written atomically and
//! checked when read, and the split of a solve into independent tasks (a manifest of positions
//! and the null-window questions asked of them), their checksummed answers, and the merge that
//! backs the answers up to the root and asks the next round's questions. It does the files'
//! formats and the logic; the `kalah` binary does the processes and the signals.
//!
//! * [`checkpoint`]: saving and resuming a long solve.
//! * [`cluster`]: a solve split into tasks for a batch system, and the merge of their answers.

pub mod checkpoint;
pub mod cluster;
