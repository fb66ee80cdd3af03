//! Where players of the browser game meet: the lobby as data, with no I/O, no threads and no
//! clock (time is passed in as kalah-table's [`Moment`]), so that what it allows is tested
//! without a server. `kalah serve` (crate kalah-web) keeps the names and ratings in its
//! database, holds one [`Lobby`] and sends its changes live.
//!
//! * [`name`]: a player's [`Name`]: what a name may be, guests' names, and the key two names
//!   that differ only in case share.
//! * [`family`]: the board families each player has a rating in ([`Family`]).
//! * [`glicko`]: Glicko-2 ratings ([`Rating`]), updated after each rated game.
//! * [`challenge`]: open challenges ([`Challenge`]) in the [`Lobby`]: made, withdrawn, accepted,
//!   expired, within each name's limits, and quick pairing by rating.

pub mod challenge;
pub mod family;
pub mod glicko;
pub mod name;

pub use challenge::{Challenge, Colour, EngineOffer, Lobby, LobbyError, Offer};
pub use family::Family;
pub use glicko::{Outcome, Rating};
pub use kalah_table::Moment;
pub use name::{Name, NameError};
