//! One game table for every host of the browser game: `kalah serve` (crate kalah-web) and the
//! static site (crate kalah-wasm, this crate compiled to WebAssembly and run in the page) hold
//! their games as the same [`Table`], read the same request bodies and refuse with the same
//! [`Refused`], so that the two agree by construction. The crate has no I/O, no threads and
//! reads no clock: time is passed in as a [`Moment`]. It builds for `wasm32-unknown-unknown`.
//!
//! * [`table`]: a game at its table ([`Table`]): seats and their tokens, clocks, versions, who
//!   may act, resign, takeback, rematch, undo, redo and goto, engine turns, and the log of its
//!   changes, which rebuilds it.
//! * [`clock`]: the players' clocks of a timed game ([`clock::Clocks`]): charges, increments,
//!   the showing credit.
//! * [`event`]: the changes as they are kept and sent ([`Event`], [`Change`]) and the wall
//!   clock's [`Moment`].
//! * [`start`]: how a game began ([`Start`]) and the tokens' hashes.
//! * [`kept`]: a game kept whole with no database (the static site's), in a numbered format.
//! * [`request`]: the requests' JSON bodies, a new game ([`request::create`]) and the commands
//!   that change one ([`request::Command`], [`Table::handle`]).
//! * [`state`]: the game's state as every host sends it ([`GameState`]).
//! * [`route`]: the routes of the API as data, which the server's router and the page's local
//!   backend both read.
//! * [`turn`]: an engine turn for a host whose engine runs elsewhere (a Web Worker).
//! * [`refused`]: why a request was refused, and the status each refusal is answered with.
//!
//! What a page shows of a game, built once for both hosts:
//!
//! * [`player`]: who holds a seat ([`Player`]: a person, or the engine at a level), as requests
//!   and records write it.
//! * [`view`]: a game's board, moves, players, clocks and status as the page draws them
//!   ([`view::View`], flattened into [`GameState`]), built from the [`view::Facts`] a table
//!   knows; the status line; the game's record with the players' tags.
//! * [`analysis`]: the engine's view of a position ([`Analysis`]) and a hint ([`Hint`]), from the
//!   engine's decision or search.
//! * [`explored`]: the explorer's answer as the page draws it ([`Explored`]).
//! * [`form`]: the new-game form: what it offers ([`form::variants`]) and what it sends
//!   ([`NewGame`], [`form::ClockRequest`]), and the game such a request starts.
//! * [`fair`]: the fair starts the form offers, as `kalah solve fair` found them.
//!
//! The JSON is documented in the repository's docs/web.md.

pub mod analysis;
pub mod clock;
pub mod event;
pub mod explored;
pub mod fair;
pub mod form;
pub mod kept;
pub mod player;
pub mod refused;
pub mod request;
pub mod route;
pub mod start;
pub mod state;
pub mod table;
pub mod turn;
pub mod view;

pub use analysis::{Analysis, Hint};
pub use explored::{Explored, ExploredMove};
pub use form::{NewGame, NewGameError};
pub use player::{Player, PlayerError};

pub use event::{Change, Event, Moment};
pub use refused::{Ended, Refused, Said, SaidArg, Takeback};
pub use start::Start;
pub use state::GameState;
pub use table::{Access, Actor, End, Help, Host, RebuildError, ReplayError, Seating, Table, Unfit};
