//! The Manchester "MKAgent" protocol (the ManKalah referee): Kalah(7,7) with the pie rule, one
//! message a line over the agent's standard input and output.
//!
//! * [`message`]: the referee's messages and the agent's replies, read and written.
//! * [`session`]: one game as the agent follows it: lines in, what to do next out.

pub mod message;
pub mod session;

pub use message::{Board, Change, MessageError, Reply, Turn};
pub use session::{Disagreement, Ignored, Next, OutOfTurn, Session, Unanswerable};

/// The longest line read from the referee: its longest message is under 100 bytes.
pub const MAX_LINE: usize = 64 << 10;
