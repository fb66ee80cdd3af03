//! The Kalah engine: evaluation, the assignment's three searches, players and matches.
//!
//! * [`eval`]: the evaluation function and its weights.
//! * [`classic`]: depth-limited minimax (Max and Min), alpha-beta, and alpha-beta with move ordering,
//!   each counting its Max and Min calls.
//! * [`compare`]: the assignment's comparison of the three searches on positions from real games.
//! * [`player`]: players that choose moves: random, greedy, and the searches at a set strength.
//! * [`search`]: the strong engine: iterative deepening PVS, table, proofs, threads.
//! * [`time`]: time management: the limits of a search, a move's budget, a player's game clock.
//! * [`score`]: a value for one player, in hundredths of a seed, proven or estimated.
//! * [`decide`]: one decision for every player: a move, the pie swap and opening, the handicap.
//! * [`solver`]: the exact solver: MTD(f) over null-window proofs to the end of the game.
//! * [`tt`]: the transposition table shared by the search threads.
//! * [`busy`]: the threads' table of nodes being searched now, shared by the search and the solver.
//! * [`board`]: the solver's byte board for the common rules: sowing and table keys seen from the mover.
//! * [`bench`](mod@bench): fixed positions at a fixed depth: the node signature and the speed.
//! * [`chain`]: chains of extra moves: the rows one turn can clear (Tchoukaillon), and the longest chain from a position.
//! * [`checkpoint`]: saving and resuming a long solve.
//! * [`cluster`]: a solve split into tasks for a batch system, and the merge of their answers.
//! * [`arena`]: games and matches between two players, with seeded openings and the Elo difference.
//! * [`tune`]: tuning the evaluation weights by seeded self-play.
//! * [`egdb`]: endgame databases (the `kalah-egdb` crate, re-exported: players and the [`search::Oracle`]
//!   take them): the exact value of every position with up to K seeds in the houses.

pub mod arena;
pub mod bench;
pub mod board;
pub mod busy;
pub mod chain;
pub mod checkpoint;
pub mod classic;
pub mod cluster;
pub mod compare;
pub mod decide;
pub mod eval;
pub mod player;
pub mod score;
pub mod search;
pub mod solver;
pub mod time;
pub mod tt;
pub mod tune;

/// Endgame databases, from the `kalah-egdb` crate: the engine's players open them and its searches
/// read them through [`search::Oracle`].
pub use kalah_egdb as egdb;
