//! The JSON of the API: what requests carry and what the server answers (documented in docs/web.md).
//!
//! What the page draws of a game, a hint, an analysis and the new-game body are kalah-view's, the
//! same JSON the static site's page builds; this module adds what only a server has: the
//! bodies of its other requests, and the state of a game between friends.

use serde::{Deserialize, Serialize};

use crate::event::Moment;
use crate::games::Session;

/// `POST /api/games/{id}/move`: an action as records write it, a house number or text.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// `3`, `"3"`, `"swap"`, `"keep"` or `"S3>N2"`.
    pub action: ActionText,
    /// The version of the game the move was made on: a move on another version is refused.
    pub version: Option<u64>,
    /// The client's id of the request: a request sent again with the same id is answered,
    /// not played again.
    pub request: Option<String>,
}

/// `POST /api/games/{id}/takeback`: without `answer`, ask; with it, answer the opponent's.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TakebackRequest {
    /// `accept` or `refuse`.
    pub answer: Option<String>,
}

/// An action written as a number or as text.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum ActionText {
    /// A house number.
    Number(u64),
    /// Any action's text.
    Text(String),
}

/// `POST /api/games/{id}/shown`: the version of the game the page has shown.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shown {
    /// The game's version as shown.
    pub version: u64,
}

/// `POST /api/games/{id}/undo` and `/redo`: how many actions (optional).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Plies {
    /// The number of actions; without it, back to (or on to) a person's decision.
    pub plies: Option<usize>,
}

/// `POST /api/games/{id}/goto`: the ply to show.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Goto {
    /// Actions of the whole line to have played, 0 for the start.
    pub ply: usize,
}

/// A game as the page draws it: `GET /api/games/{id}` and the answer of every change. The fields
/// of every game (kalah-view's) and those of a game between friends make one JSON object.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameState {
    /// The board, the moves, the players, the clocks, the status: what the static site's page
    /// sends too.
    #[serde(flatten)]
    pub view: kalah_view::GameState,
    /// A game against a friend: each seat is held by a secret token.
    pub friends: bool,
    /// The side whose player asks to take back its last turn, if one does.
    pub takeback: Option<&'static str>,
    /// The number of changes stored: the live channel's event id.
    pub seq: u64,
    /// The side whose player offers a rematch, once the game is over.
    pub rematch_offer: Option<&'static str>,
    /// The rematch's game id, once both players wanted it (the sides are swapped there).
    pub rematch: Option<String>,
    /// In the answer that creates a game against a friend: the creator's token (kept by the
    /// creator's browser, sent as `Authorization: Bearer TOKEN`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    /// In the answer that creates a game against a friend: the other seat's token, for the
    /// invitation link.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
}

/// Builds the state of game `id`, a session's game, now.
pub fn state(id: &str, session: &Session) -> GameState {
    let facts = session.facts(id, Moment::now());
    let side = |seat: kalah_rules::Seat| facts.side_of(seat).name();
    GameState {
        view: facts.state(),
        friends: session.is_friends(),
        takeback: session.takeback().map(side),
        seq: session.saved() + session.unsaved().1.len() as u64,
        rematch_offer: session.rematch().0.map(side),
        rematch: session.rematch().1.map(str::to_string),
        token: None,
        invite: None,
    }
}

/// A request body: what it accepts, said in a refusal of a body that cannot be read.
pub trait Accepts {
    /// The fields the body takes and their values, in one line.
    const ACCEPTS: &'static str;
}

impl Accepts for kalah_view::NewGame {
    const ACCEPTS: &'static str = "a new game takes a JSON object with any of rules (text), position (text), \
        record (text), south and north (\"human\", \"engine\" or \"engine:LEVEL\"), clock \
        ({\"seconds\": 1 to 86400, \"increment\": 0 to 3600}), friend (true or false) and side (\"south\" or \"north\")";
}

impl Accepts for MoveRequest {
    const ACCEPTS: &'static str = "a move is {\"action\": A} with A a house number (3) or an action's text \
        (\"3\", \"swap\", \"keep\", \"S3>N2\"), and optionally \"version\" (a whole number) and \"request\" (text)";
}

impl Accepts for TakebackRequest {
    const ACCEPTS: &'static str = "a takeback is {} to ask, or {\"answer\": \"accept\"} or {\"answer\": \"refuse\"}";
}

impl Accepts for Shown {
    const ACCEPTS: &'static str = "write {\"version\": V} with V the version of the game shown (a whole number)";
}

impl Accepts for Plies {
    const ACCEPTS: &'static str = "write {} or {\"plies\": N} with N a whole number of actions, 1 or more";
}

impl Accepts for Goto {
    const ACCEPTS: &'static str = "write {\"ply\": N} with N the number of actions to have played, 0 for the start";
}
