//! What a page shows of a game of Kalah: the JSON of a game's state, an analysis, a hint and the
//! new-game form's choices.
//!
//! The browser game has two hosts that draw the same page from the same JSON: `kalah serve`
//! (crate kalah-web, a server) and the static site (crate kalah-wasm, the rules and the engine
//! compiled to WebAssembly and run in the browser). Both build that JSON here, so that a change to
//! the page's JSON or to its status line is made once. The crate has no I/O, no clock and no
//! threads, and builds for `wasm32-unknown-unknown`.
//!
//! * [`player`]: who holds a seat ([`Player`]: a person, or the engine at a level), as requests
//!   and records write it.
//! * [`state`]: a game's state as the page draws it ([`GameState`]), built from the [`Facts`] a
//!   host knows: the game (a [`kalah_rules::History`]), who holds each seat, a loss on time or a
//!   resignation, the clocks, whether the engine is thinking; the status line; the game's record
//!   with the players' tags. A host with more to say (kalah-web: games between friends) puts
//!   the state into its own with `#[serde(flatten)]`.
//! * [`analysis`]: the engine's view of a position ([`Analysis`]) and a hint ([`Hint`]), from the
//!   engine's decision or search.
//! * [`form`]: the new-game form: what it offers ([`variants`]) and what it sends ([`NewGame`],
//!   [`ClockRequest`]), and the game such a request starts.
//! * [`fair`]: the fair starts the form offers, as `kalah solve fair` found them.
//!
//! The JSON is documented in the repository's docs/web.md.

pub mod analysis;
pub mod explored;
pub mod fair;
pub mod form;
pub mod player;
pub mod state;

pub use analysis::{Analysis, Hint};
pub use explored::{Explored, ExploredMove};
pub use form::{variants, ClockRequest, NewGame, NewGameError};
pub use player::{Player, PlayerError};
pub use state::{Clocks, Facts, GameState};
