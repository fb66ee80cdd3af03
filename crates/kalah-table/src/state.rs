//! A game's state as every host sends it ([`GameState`]): the view's state of the board, the
//! moves, the players and the clocks, and what a table adds (a game between friends, its
//! takeback and rematch, the number of changes kept, the creator's tokens in the answer that
//! creates it).

use serde::Serialize;

use crate::event::Moment;
use crate::table::Table;

/// A game as the page draws it: `GET /api/games/{id}` and the answer of every change, at
/// `kalah serve` and at the static site's page alike. The fields of every game ([`crate::view::View`])
/// and those of a table make one JSON object.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameState {
    /// The board, the moves, the players, the clocks, the status.
    #[serde(flatten)]
    pub view: crate::view::View,
    /// A game against a friend: each seat is held by a secret token.
    pub friends: bool,
    /// The side whose player asks to take back its last turn, if one does.
    #[serde(serialize_with = "crate::view::side::option")]
    pub takeback: Option<kalah_rules::Side>,
    /// The number of changes kept: the live channel's event id.
    pub seq: u64,
    /// The side whose player offers a rematch, once the game is over.
    #[serde(serialize_with = "crate::view::side::option")]
    pub rematch_offer: Option<kalah_rules::Side>,
    /// The rematch's game id, once both players wanted it (the sides are swapped there).
    pub rematch: Option<String>,
    /// In a game the lobby paired, the players' names by the side each plays now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub names: Option<Names>,
    /// The game counts for its players' ratings.
    pub rated: bool,
    /// In the answer that creates a game at a server: the creator's token (kept by the
    /// creator's browser, sent as `Authorization: Bearer TOKEN`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    /// In the answer that creates a game against a friend: the other seat's token, for the
    /// invitation link.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
}

/// The players' names of a game the lobby paired, by side.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Names {
    /// South's player.
    pub south: String,
    /// North's player.
    pub north: String,
}

impl Table {
    /// Returns the state of this game, `id`, at `now`.
    pub fn state(&self, id: &str, now: Moment) -> GameState {
        let facts = self.facts(id, now);
        let side = |seat: kalah_rules::Seat| facts.side_of(seat);
        GameState {
            view: facts.state(),
            friends: self.is_friends(),
            takeback: self.takeback().map(side),
            seq: self.saved() + self.unsaved().1.len() as u64,
            rematch_offer: self.rematch().0.map(side),
            rematch: self.rematch().1.map(str::to_string),
            names: self.seating().map(|seating| {
                let name = |side| seating.names[self.game().seat_of(side).index()].clone();
                Names { south: name(kalah_rules::Side::South), north: name(kalah_rules::Side::North) }
            }),
            rated: self.is_rated(),
            token: None,
            invite: None,
        }
    }
}
