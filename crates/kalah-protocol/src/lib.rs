//! The tournament protocols of Kalah as state machines without I/O: no sockets, no standard
//! input, no threads, no clocks. The program reads and writes; these modules say what the lines
//! mean and what to do next, the same way every time for the same input.
//!
//! * [`line`](mod@line): lines out of a byte stream, each kept to a limit however long it is.
//! * [`kgp`]: the Kalah Game Protocol: [`kgp::message`] reads and writes a line,
//!   [`kgp::session`] (the client) takes the server's lines and what the search reports
//!   ([`kgp::Progress`]) and returns the lines to send, its answers included, the search to start
//!   or stop, notices and the end; [`kgp::server`] (the server) takes a client's lines, the boards
//!   its games ask about and its timers, and returns the lines to send, the timers to arm, the
//!   client's moves and verified solutions.
//! * [`mkagent`]: the Manchester referee's protocol: [`mkagent::message`] reads the referee's
//!   lines and writes the agent's replies, [`mkagent::session`] follows the game, says when the
//!   agent is to move, and turns the engine's decision into the reply.
//!
//! The program does the rest: it connects, reads lines with [`line::LineReader`], runs the engine
//! when a session asks for a move, and writes what the session returns.

pub mod kgp;
pub mod line;
pub mod mkagent;
#[cfg(test)]
mod testing;

pub use line::{Frame, LineReader};
