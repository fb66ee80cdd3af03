//! The Kalah engine: evaluation, the assignment's three searches, players and matches.
//!
//! * [`eval`]: the evaluation function and its weights.
//! * [`classic`]: depth-limited minimax (Max and Min), alpha-beta, and alpha-beta with move ordering,
//!   each counting its Max and Min calls.
//! * [`player`]: players that choose moves: random, greedy, and the searches at a set strength.

pub mod classic;
pub mod eval;
pub mod player;
