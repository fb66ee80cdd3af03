//! The JSON of the API: what requests carry and what the server answers (documented in docs/web.md).

use std::cmp::Ordering;
use std::time::Duration;

use kalah_rules::{Action, Game, Outcome, Phase, Position, Rules, Side, Step};
use serde::{Deserialize, Serialize};

use crate::games::Session;

/// `POST /api/games`: a new game from rules and a position, or from a record.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// The rules' text, e.g. `kalah(6,4) standard pie`.
    pub rules: Option<String>,
    /// A start position in the position notation.
    pub position: Option<String>,
    /// A game record to continue (its own rules and start apply).
    pub record: Option<String>,
    /// The first player: `human`, `engine` or `engine:LEVEL`.
    pub south: Option<String>,
    /// The second player.
    pub north: Option<String>,
    /// A clock for each player, for the whole game: `{"seconds": 300, "increment": 3}`.
    pub clock: Option<ClockRequest>,
    /// A game against a friend: both seats are people, each held by a secret token; the
    /// answer gives the creator's token and the invitation (the other seat's token).
    #[serde(default)]
    pub friend: bool,
    /// In a game against a friend, the side the creator plays: `south` (default) or `north`.
    pub side: Option<String>,
}

/// A game clock asked for: seconds for the whole game, and seconds added after each action.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockRequest {
    /// Seconds for the whole game (1 to 86400).
    pub seconds: u64,
    /// Seconds added after each of the player's actions (0 to 3600).
    #[serde(default)]
    pub increment: u64,
}

/// The clocks of a timed game, by the side each player holds now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ClockState {
    /// Milliseconds on South's clock.
    pub south_ms: u64,
    /// Milliseconds on North's clock.
    pub north_ms: u64,
    /// The side whose clock runs (`null` once the game is over).
    pub running: Option<&'static str>,
    /// Milliseconds added after each action.
    pub increment_ms: u64,
}

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

/// The board: each side's houses from its own house 1, and the stores.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Board {
    /// South's houses 1..m.
    pub south: Vec<u16>,
    /// North's houses 1..m.
    pub north: Vec<u16>,
    /// South's store.
    pub south_store: u16,
    /// North's store.
    pub north_store: u16,
}

impl Board {
    fn of(position: &Position) -> Board {
        Board {
            south: position.row(Side::South).to_vec(),
            north: position.row(Side::North).to_vec(),
            south_store: position.store(Side::South),
            north_store: position.store(Side::North),
        }
    }
}

/// What a sowing did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Sowed {
    /// The last seed fell in the mover's store: the mover moves again.
    pub extra_move: bool,
    /// Seeds captured into the mover's store (the last seed included), 0 if none.
    pub captured: u16,
    /// Houses lifted again by relay sowing.
    pub relays: u16,
    /// The sowing ended the game.
    pub ended: bool,
}

impl From<Outcome> for Sowed {
    fn from(o: Outcome) -> Sowed {
        Sowed { extra_move: o.extra_move, captured: o.captured, relays: o.relays, ended: o.ended }
    }
}

/// One action of the move list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveEntry {
    /// The ply after this action, counted from 1.
    pub ply: usize,
    /// The side that took it.
    pub side: &'static str,
    /// The action as records write it.
    pub action: String,
    /// What the sowing did (`null` for swap and handicap decisions).
    pub sowed: Option<Sowed>,
    /// Played (up to the position shown), or taken back and ready to redo.
    pub played: bool,
}

/// The last action played, for the page to animate and highlight.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Last {
    /// The side that took it.
    pub side: &'static str,
    /// The action as records write it.
    pub action: String,
    /// The board before it.
    pub before: Board,
    /// What the sowing did (`null` for swap and handicap decisions).
    pub sowed: Option<Sowed>,
    /// The sowing seed by seed; empty for other actions.
    pub path: Vec<PathStep>,
}

/// One step of a sowing as the page animates it: `{"kind": "lift", "cell": 2}`.
///
/// Cells are numbered as [`Step`] numbers them: South's houses 1..m are cells 0..m-1, South's
/// store is cell m, North's houses 1..m are cells m+1..2m and North's store is cell 2m+1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase", tag = "kind", content = "cell")]
pub enum PathStep {
    /// Every seed of the cell is taken into the hand.
    Lift(u8),
    /// One seed from the hand goes into the cell.
    Drop(u8),
}

/// Returns the lifts and drops of sowing `mv` from `before`, as the rules crate sows it. A capture
/// and the sweep at the end of the game are not steps: the page shows them by going on to the
/// position after the move.
fn path(before: &Position, rules: &Rules, mv: kalah_rules::Move) -> Vec<PathStep> {
    let steps = before.sow_path(rules, mv).unwrap_or_default();
    steps
        .into_iter()
        .filter_map(|step| match step {
            Step::Lift(cell) => Some(PathStep::Lift(cell)),
            Step::Drop(cell) => Some(PathStep::Drop(cell)),
            Step::Capture { .. } => None,
        })
        .collect()
}

/// The end of the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finish {
    /// South's final store.
    pub south: u16,
    /// North's final store.
    pub north: u16,
    /// `South`, `North`, or `null` for a draw.
    pub winner: Option<&'static str>,
    /// The side whose player ran out of time, when that ended the game (the stores are then
    /// those of the position, and the other side wins).
    pub lost_on_time: Option<&'static str>,
    /// The side whose player resigned, when that ended the game.
    pub resigned: Option<&'static str>,
}

/// A game as the page draws it: `GET /api/games/{id}` and the answer of every change.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameState {
    /// The game's id.
    pub id: String,
    /// Counts the game's changes.
    pub version: u64,
    /// The rules' text.
    pub rules: String,
    /// Houses a side (m).
    pub houses: u8,
    /// Seeds a house at the start (n).
    pub seeds: u8,
    /// The position in the position notation.
    pub position: String,
    /// The start position in the position notation.
    pub start: String,
    /// The board.
    pub board: Board,
    /// `handicap`, `pie`, `play` or `over`.
    pub phase: &'static str,
    /// The side that decides now (`null` once over).
    pub to_move: Option<&'static str>,
    /// The engine decides now: `POST /api/games/{id}/engine` lets it.
    pub engine_to_move: bool,
    /// An engine move is being searched.
    pub thinking: bool,
    /// Who holds each side now: `human` or `engine:LEVEL`.
    pub players: Players,
    /// Who holds the first and the second player's seat (the first starts as South).
    pub seats: [String; 2],
    /// The players have swapped sides under the pie rule.
    pub swapped: bool,
    /// Every action allowed now, as records write them.
    pub legal: Vec<String>,
    /// Actions played up to the position shown.
    pub ply: usize,
    /// The whole line: actions played and actions taken back.
    pub moves: Vec<MoveEntry>,
    /// The last action played.
    pub last: Option<Last>,
    /// The final stores and the winner, once the game is over.
    pub result: Option<Finish>,
    /// The clocks, in a timed game.
    pub clock: Option<ClockState>,
    /// One line saying whose turn it is, or how the game ended.
    pub status: String,
    /// What loading a record warns of (only in the answer to a new game from a record).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
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

/// Who holds each side.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Players {
    /// South's player.
    pub south: String,
    /// North's player.
    pub north: String,
}

/// `GET /api/games/{id}/analysis`: the engine's view of the position shown.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Analysis {
    /// The version of the game analysed.
    pub version: u64,
    /// The expected final store difference, South minus North, in seeds.
    pub value: f64,
    /// The value is proven (the position is solved).
    pub exact: bool,
    /// The depth searched, in sowings (0 for a finished game).
    pub depth: u32,
    /// The side that decides now: the side to move, or North while it decides the pie offer or
    /// the handicap opening.
    pub side: &'static str,
    /// The best house to sow, when the decision is a sowing.
    pub best: Option<u8>,
    /// The best action for `side`, as records write it (a house, `swap`, `keep`, `N4>S3`), if
    /// the game goes on.
    pub action: Option<String>,
    /// The expected line, as house numbers.
    pub line: Vec<u8>,
    /// Nodes searched.
    pub nodes: u64,
    /// Time searched in milliseconds.
    pub millis: u64,
}

impl Analysis {
    /// Returns the analysis of `game` at `version` when no search is needed: its final store
    /// difference when it is over (exact, depth 0), else nothing known yet (0, inexact).
    pub fn unsearched(game: &Game, version: u64) -> Analysis {
        let position = game.position();
        let over = game.is_over();
        Analysis {
            version,
            value: if over { f64::from(position.final_difference(game.rules())) } else { 0.0 },
            exact: over,
            depth: 0,
            side: position.mover().name(),
            best: None,
            action: None,
            line: Vec::new(),
            nodes: 0,
            millis: 0,
        }
    }
}

/// `GET /api/games/{id}/hint`: what the engine would do for the player to decide.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Hint {
    /// The version of the game.
    pub version: u64,
    /// The side that decides.
    pub side: &'static str,
    /// The action, as records write it.
    pub action: String,
    /// The final store difference that side can expect, in seeds.
    pub value: f64,
    /// The value is proven.
    pub exact: bool,
    /// The depth searched, in sowings.
    pub depth: u32,
}

fn phase_word(phase: Phase) -> &'static str {
    match phase {
        Phase::Handicap => "handicap",
        Phase::PieOffer => "pie",
        // South's first turn under the pie rule is play as far as the page is concerned.
        Phase::PieOpening | Phase::Play => "play",
        Phase::Over => "over",
    }
}

/// Returns the name of the side that took action `i`.
fn actor_name(game: &Game, i: usize) -> &'static str {
    game.actor(i).map_or("", |(side, _)| side.name())
}

/// Returns what the sowing of action `i` did, if it was a sowing.
fn sowed(game: &Game, i: usize) -> Option<Sowed> {
    let Action::Sow(mv) = game.actions()[i] else { return None };
    game.positions()[i].play(game.rules(), mv).ok().map(|(_, outcome)| outcome.into())
}

/// Builds the state of a session's game.
pub fn state(id: &str, session: &Session) -> GameState {
    let game = session.game();
    let rules = game.rules();
    let position = game.position();
    let line = session.history().whole_line();
    let played = game.actions().len();
    let moves = (0..line.actions().len())
        .map(|i| MoveEntry {
            ply: i + 1,
            side: actor_name(&line, i),
            action: line.actions()[i].to_string(),
            sowed: sowed(&line, i),
            played: i < played,
        })
        .collect();
    let last = played.checked_sub(1).map(|i| {
        let before = &game.positions()[i];
        let action = game.actions()[i];
        Last {
            side: actor_name(game, i),
            action: action.to_string(),
            before: Board::of(before),
            sowed: sowed(game, i),
            path: match action {
                Action::Sow(mv) => path(before, rules, mv),
                _ => Vec::new(),
            },
        }
    });
    let decider = session.decider();
    let side_of = |seat: kalah_rules::Seat| if game.seat_of(Side::South) == seat { Side::South } else { Side::North };
    let timed_out = session.lost_on_time().map(side_of);
    let resigned = session.resigned().map(side_of);
    let flagged = timed_out.or(resigned);
    let result = match flagged {
        Some(side) => Some(Finish {
            south: position.store(Side::South),
            north: position.store(Side::North),
            winner: Some((!side).name()),
            lost_on_time: timed_out.map(Side::name),
            resigned: resigned.map(Side::name),
        }),
        None => game.result().map(|stores| Finish {
            south: stores.south,
            north: stores.north,
            winner: match stores.south.cmp(&stores.north) {
                Ordering::Greater => Some("South"),
                Ordering::Less => Some("North"),
                Ordering::Equal => None,
            },
            lost_on_time: None,
            resigned: None,
        }),
    };
    let clock = session.time_left(crate::event::Moment::now()).map(|left| {
        let of = |side: Side| left[game.seat_of(side).index()].as_millis() as u64;
        let increment = session.increment().unwrap_or(Duration::ZERO);
        ClockState {
            south_ms: of(Side::South),
            north_ms: of(Side::North),
            running: decider.map(|(side, _)| side.name()),
            increment_ms: increment.as_millis() as u64,
        }
    });
    GameState {
        id: id.to_string(),
        version: session.version(),
        rules: rules.to_string(),
        houses: rules.houses(),
        seeds: rules.seeds(),
        position: position.to_string(),
        start: game.start().to_string(),
        board: Board::of(position),
        phase: if flagged.is_some() { "over" } else { phase_word(game.phase()) },
        to_move: decider.map(|(side, _)| side.name()),
        engine_to_move: decider.is_some_and(|(_, seat)| !seat.is_human()),
        thinking: session.is_thinking(),
        players: Players {
            south: session.seat_of(Side::South).to_string(),
            north: session.seat_of(Side::North).to_string(),
        },
        seats: session.seats().map(|seat| seat.to_string()),
        swapped: game.swapped(),
        legal: if flagged.is_some() {
            Vec::new()
        } else {
            game.legal_actions().iter().map(Action::to_string).collect()
        },
        ply: played,
        moves,
        last,
        status: status(session, result.as_ref()),
        result,
        clock,
        warnings: Vec::new(),
        friends: session.is_friends(),
        takeback: session.takeback().map(|seat| side_of(seat).name()),
        seq: session.saved() + session.unsaved().1.len() as u64,
        rematch_offer: session.rematch().0.map(|seat| side_of(seat).name()),
        rematch: session.rematch().1.map(str::to_string),
        token: None,
        invite: None,
    }
}

/// Names a side with its player as people read it: `North (engine level 3)` for the engine, the
/// side alone for a person (`South to move`: the page's words elsewhere name the players, and
/// "human" is the API's word, not a player's). The static site's copy (kalah-wasm's state.rs)
/// says the same.
fn who(session: &Session, side: Side) -> String {
    match session.seat_of(side) {
        crate::games::Seat::Engine(level) => format!("{side} (engine level {level})"),
        crate::games::Seat::Human => side.to_string(),
    }
}

fn status(session: &Session, result: Option<&Finish>) -> String {
    if let Some(side) = result.and_then(|r| r.lost_on_time) {
        let side = if side == "South" { Side::South } else { Side::North };
        return format!("Game over: {} ran out of time; {} wins.", who(session, side), who(session, !side));
    }
    if let Some(side) = result.and_then(|r| r.resigned) {
        let side = if side == "South" { Side::South } else { Side::North };
        return format!("Game over: {} resigned; {} wins.", who(session, side), who(session, !side));
    }
    if let Some(r) = result {
        let score = format!("Game over: South {}, North {}.", r.south, r.north);
        let margin = i32::from(r.south) - i32::from(r.north);
        let winner = if margin > 0 { Side::South } else { Side::North };
        let seeds = |n: i32| format!("{n} seed{}", if n == 1 { "" } else { "s" });
        return match margin {
            0 => format!("{score} The game is a draw."),
            _ => format!("{score} {} wins by {}.", who(session, winner), seeds(margin.abs())),
        };
    }
    let side = session.decider().map_or(Side::South, |(side, _)| side);
    match session.game().phase() {
        Phase::Handicap => format!("{} decides the handicap: keep the board, or move one seed", who(session, side)),
        Phase::PieOffer => format!("{} to move: sow a house, or swap sides", who(session, side)),
        _ => format!("{} to move", who(session, side)),
    }
}

/// A request body: what it accepts, said in a refusal of a body that cannot be read.
pub trait Accepts {
    /// The fields the body takes and their values, in one line.
    const ACCEPTS: &'static str;
}

impl Accepts for NewGame {
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
