//! The Kalah engine: what every front end asks when it needs a move, a value or a proof.
//!
//! It holds the evaluation, the strong heuristic search (iterative deepening principal-variation
//! search with a transposition table, proofs of exact values and threads), the exact solver
//! (MTD(f) over null-window proofs, with endgame databases), [`decide`], the one decision
//! every player makes through: a move, the pie rule's swap and opening, the handicap, and the
//! policies every front end shares: which endgame databases an engine uses within what memory
//! ([`databases`]) and the strength levels a person chooses from ([`level`]). The rules
//! come from `kalah-rules` and the endgame databases from `kalah-egdb`; the course's searches and
//! experiments (`kalah-course`) and solves on a cluster (`kalah-cluster`) build on this crate,
//! never the other way round.
//!
//! * [`eval`]: the evaluation function and its weights.
//! * [`search`]: the strong engine: iterative deepening PVS, table, proofs, threads.
//! * [`time`]: the one clock every search and solve reads, and time management: the limits of a
//!   search, a move's budget, a player's game clock.
//! * [`score`]: a value for one player, in hundredths of a seed, proven or estimated; whole
//!   seeds and proven bounds, the solver's unit (from `kalah-rules`, re-exported: protocols and
//!   front ends share them).
//! * [`decide`]: one decision for every player: a move, the pie swap and opening, the handicap,
//!   by the engine or any other [`decide::Searcher`].
//! * [`game_engine`]: [`GameEngine`], the engine bound to one rule set that every host holds for
//!   a game: its table, database and settings; moves, hints, the analysis and solves.
//! * [`databases`]: the one policy for attaching endgame databases to engines within a memory budget.
//! * [`level`]: the strength levels 1 to 5 of the browser game and the bots.
//! * [`solver`]: the exact solver: MTD(f) over null-window proofs to the end of the game, and the
//!   perfect line.
//! * [`proof`]: the solver's proof table: proven bounds of positions, shared by its threads.
//! * [`stop`]: how a host ends a search or a solve: its callback's answer, a flag, node and time budgets.
//! * `order` (private): move ordering, shared by the search and the solver.
//! * [`tt`]: the transposition table shared by the search threads.
//! * [`busy`]: the threads' table of nodes being searched now, shared by the search and the solver.
//! * [`board`]: the solver's byte board for the common rules: sowing and table keys seen from the mover.
//! * [`bench`](mod@bench): fixed positions at a fixed depth: the node signature and the speed.
//! * [`egdb`]: endgame databases (the `kalah-egdb` crate, re-exported: engines and the
//!   [`search::Oracle`] take them): the exact value of every position with up to K seeds in the houses.
//!
//! # Features and targets
//!
//! All features are on by default, for the `kalah` binary and every native host:
//!
//! * `threads`: searches (Lazy SMP) and solves (ABDADA) on [`search::Options::threads`] threads.
//!   Without it everything runs on the calling thread, and more threads asked for are one
//!   ([`search::MAX_THREADS`]): a clamp, not an error, so a host's settings work on every build.
//! * `fs`: endgame database folders (opened, built, checked: kalah-egdb's `fs`).
//! * `mmap` (implies `fs`): database files mapped into memory, and huge pages for the tables.
//!
//! With none (`--no-default-features`) the crate builds for `wasm32-unknown-unknown`: one thread,
//! no file system, no memory mapping, a database opened from bytes ([`egdb::Egdb::from_bytes`]),
//! and the clock of [`time::now`], which reads `performance.now()` there. The crate never owns
//! the process: no signal handler, no exit.

pub mod bench;
pub mod board;
pub mod book;
pub mod busy;
#[cfg(feature = "fs")]
pub mod databases;
pub mod decide;
pub mod eval;
pub mod explorer;
pub mod fairness;
pub mod game_engine;
pub mod level;
mod order;
pub mod proof;
pub mod search;
pub mod solver;
pub mod stop;
pub mod time;
pub mod tt;

/// The engine bound to one rule set, from [`game_engine`]: what hosts hold for a game.
pub use game_engine::{GameEngine, OtherRules};

/// Endgame databases, from the `kalah-egdb` crate: the engine's players open them and its searches
/// read them through [`search::Oracle`].
pub use kalah_egdb as egdb;

/// Values for one player in hundredths of a seed, from the `kalah-rules` crate, which the
/// protocols and front ends share with the engine.
pub use kalah_rules::score;
