//! The JSON of the API: the request bodies, their refusals and the game's state are the crate
//! kalah-table's, the same JSON the static site's page reads and writes (documented in
//! docs/web.md); what the page draws of a game, a hint and an analysis is kalah-table's.

pub use kalah_table::request::{Accepts, ActionText, Goto, MoveRequest, Plies, Shown, TakebackRequest};
pub use kalah_table::GameState;

use kalah_table::Moment;

use crate::games::Session;

/// Builds the state of game `id`, a held game, now.
pub fn state(id: &str, session: &Session) -> GameState {
    session.state(id, Moment::now())
}
