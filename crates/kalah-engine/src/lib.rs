//! The Kalah engine: evaluation, the assignment's three searches, players and matches.
//!
//! * [`eval`]: the evaluation function and its weights.
//! * [`classic`]: depth-limited minimax (Max and Min), alpha-beta, and alpha-beta with move ordering,
//!   each counting its Max and Min calls.
//! * [`compare`]: the assignment's comparison of the three searches on positions from real games.
//! * [`player`]: players that choose moves: random, greedy, and the searches at a set strength.

pub mod classic;
pub mod compare;
pub mod eval;
pub mod player;
