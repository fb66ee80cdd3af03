//! What a search tells the session about the state it thinks about, in the protocol's own types.
//!
//! The crate does not depend on an engine: a front end turns its engine's reports into a
//! [`Progress`] and hands it to [`Session::progress`](super::Session::progress), which writes
//! the protocol's lines (`set info:comment`, `move`, `eval`, `yield`). So every front end sends
//! the same lines for the same search, and none writes them itself.

use kalah_rules::{Move, Score};

/// What a search reports to the session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// A depth of the search is complete.
    Depth {
        /// The depth, in sowings.
        depth: u32,
        /// The best move found so far.
        best: Move,
        /// Its value for the player to move.
        value: Score,
        /// Nodes searched so far for this state.
        nodes: u64,
    },
    /// The search ended by itself: its time is up, or its value is proven.
    Ended,
}
