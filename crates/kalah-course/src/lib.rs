//! The AI course's Kalah: the assignment's searches and the experiments around them.
//!
//! The course asks for an evaluation function, depth-limited minimax, alpha-beta and alpha-beta
//! with move ordering, a count of their Max and Min calls, and games against them ("who mostly
//! wins?"). This crate holds those searches as the assignment writes them, the players built on
//! them and on the strong engine (`kalah-engine`), matches between players with the Elo
//! difference, and the tuning of the evaluation's weights by self-play. Plain minimax is also the
//! reference the engine's searches and solver are checked against (this crate's tests).
//!
//! * [`classic`]: depth-limited minimax (Max and Min), alpha-beta, and alpha-beta with move ordering,
//!   each counting its Max and Min calls, and [`classic::Classic`], which lets the engine's
//!   decisions ([`kalah_engine::decide`]) rest on them.
//! * [`compare`]: the assignment's comparison of the three searches on positions from real games.
//! * [`trace`]: the searches drawn: every call of Max and Min recorded in order, with the
//!   counts of the three searches side by side and over a game.
//! * [`player`]: players that choose actions: random, greedy, the assignment's searches and the
//!   strong engine at a set strength; all but the random one decide by the engine's rules.
//! * [`arena`]: games and matches between two players, with seeded openings and the Elo difference.
//! * [`tune`]: tuning the evaluation weights by seeded self-play.

#[cfg(feature = "games")]
pub mod arena;
pub mod classic;
pub mod compare;
#[cfg(feature = "games")]
pub mod player;
pub mod trace;
#[cfg(feature = "games")]
pub mod tune;
