//! One game table for every host of the browser game: `kalah serve` (crate kalah-web) and the
//! static site (crate kalah-wasm, this crate compiled to WebAssembly and run in the page) hold
//! their games as the same [`Table`], read the same request bodies and refuse with the same
//! [`Refused`], so that the two agree by construction. The crate has no I/O, no threads and
//! reads no clock: time is passed in as a [`Moment`]. It builds for `wasm32-unknown-unknown`.
//!
//! * [`table`]: a game at its table ([`Table`]): seats and their tokens, clocks, versions, who
//!   may act, resign, takeback, rematch, undo, redo and goto, engine turns, and the log of its
//!   changes, which rebuilds it.
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

pub mod event;
pub mod kept;
pub mod refused;
pub mod request;
pub mod route;
pub mod start;
pub mod state;
pub mod table;
pub mod turn;

pub use event::{Change, Event, Moment};
pub use refused::{Ended, Refused, Said, SaidArg, Takeback};
pub use start::Start;
pub use state::GameState;
pub use table::{Access, Actor, End, Help, Host, RebuildError, ReplayError, Seating, Table, Unfit};
