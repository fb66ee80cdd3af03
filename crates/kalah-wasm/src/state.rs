//! What the page draws: a game's state as JSON, in the shape of `kalah serve`'s game state
//! (docs/web.md), so that the page draws a game it holds and a game a server holds alike; and
//! the sizes, presets, rule words and levels the new-game form offers.

use std::cmp::Ordering;
use std::time::Duration;

use kalah_engine::level::Level;
use kalah_engine::time::Instant;
use kalah_rules::rules::{
    word_of, CAPTURE_WORDS, DIRECTION_WORDS, END_WORDS, LEFTOVER_WORDS, MAX_HOUSES, MAX_SEEDS, MIN_HOUSES, MIN_SEEDS,
    PRESETS, SOWING_WORDS,
};
use kalah_rules::{Action, Game, Outcome, Phase, Position, Rules, Side, Step};
use serde::Serialize;
use serde_json::json;

use crate::session::Session;

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

/// One step of a sowing as the page animates it: `{"kind": "lift", "cell": 2}`. Cells are
/// numbered as [`Step`] numbers them: South's houses 0..m-1, South's store m, North's houses
/// m+1..2m, North's store 2m+1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase", tag = "kind", content = "cell")]
pub enum PathStep {
    /// Every seed of the cell is taken into the hand.
    Lift(u8),
    /// One seed from the hand goes into the cell.
    Drop(u8),
}

/// Returns the lifts and drops of sowing `mv` from `before`. A capture and the sweep at the end
/// are not steps: the page shows them by going on to the position after the move.
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
    /// The side whose player ran out of time, when that ended the game.
    pub lost_on_time: Option<&'static str>,
}

/// The clocks of a timed game, by the side each player holds now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ClockState {
    /// Milliseconds on South's clock.
    pub south_ms: u64,
    /// Milliseconds on North's clock.
    pub north_ms: u64,
    /// The side whose clock runs: `null` once the game is over, and while the page shows the
    /// move before.
    pub running: Option<&'static str>,
    /// Milliseconds added after each action.
    pub increment_ms: u64,
}

/// Who holds each side.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Players {
    /// South's player.
    pub south: String,
    /// North's player.
    pub north: String,
}

/// A game as the page draws it.
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
    /// The engine decides now.
    pub engine_to_move: bool,
    /// An engine move is being searched (the page says so: the game itself does not know).
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
    /// What loading a record warned of.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
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

/// Builds the state of a session's game at `now` (for its clocks).
pub fn state(session: &Session, now: Instant) -> GameState {
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
    let flagged =
        session.lost_on_time().map(|seat| if game.seat_of(Side::South) == seat { Side::South } else { Side::North });
    let result = match flagged {
        Some(side) => Some(Finish {
            south: position.store(Side::South),
            north: position.store(Side::North),
            winner: Some((!side).name()),
            lost_on_time: Some(side.name()),
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
        }),
    };
    let clock = session.time_left(now).map(|left| {
        let of = |side: Side| left[game.seat_of(side).index()].as_millis() as u64;
        ClockState {
            south_ms: of(Side::South),
            north_ms: of(Side::North),
            running: decider.filter(|_| session.clock_runs()).map(|(side, _)| side.name()),
            increment_ms: session.increment().unwrap_or(Duration::ZERO).as_millis() as u64,
        }
    });
    GameState {
        id: session.id().to_string(),
        version: session.version(),
        rules: rules.to_string(),
        houses: rules.houses(),
        seeds: rules.seeds(),
        position: position.to_string(),
        start: game.start().to_string(),
        board: Board::of(position),
        phase: if flagged.is_some() { "over" } else { phase_word(game.phase()) },
        to_move: decider.map(|(side, _)| side.name()),
        engine_to_move: decider.is_some_and(|(_, player)| !player.is_human()),
        thinking: false,
        players: Players {
            south: session.seat_of(Side::South).to_string(),
            north: session.seat_of(Side::North).to_string(),
        },
        seats: session.seats().map(|player| player.to_string()),
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
        warnings: session.warnings().iter().map(ToString::to_string).collect(),
    }
}

/// Names a side with its player as people read it: `North (engine level 3)` for the engine, the
/// side alone for a person (`South to move`), word for word as `kalah serve`'s API says it
/// (kalah-web's api.rs).
fn who(session: &Session, side: Side) -> String {
    match session.seat_of(side) {
        crate::session::Player::Engine(level) => format!("{side} (engine level {level})"),
        crate::session::Player::Human => side.to_string(),
    }
}

fn status(session: &Session, result: Option<&Finish>) -> String {
    if let Some(side) = result.and_then(|r| r.lost_on_time) {
        let side = if side == "South" { Side::South } else { Side::North };
        return format!("Game over: {} ran out of time; {} wins.", who(session, side), who(session, !side));
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

/// Returns the variant fields of `rules` as a JSON object of their words.
fn fields(rules: &Rules) -> serde_json::Value {
    json!({
        "capture": word_of(&CAPTURE_WORDS, rules.capture),
        "end": word_of(&END_WORDS, rules.end),
        "leftover": word_of(&LEFTOVER_WORDS, rules.leftover),
        "direction": word_of(&DIRECTION_WORDS, rules.direction),
        "sowing": word_of(&SOWING_WORDS, rules.sowing),
        "majority_ends": rules.majority_ends,
    })
}

/// The sizes, presets with their fields, rule words and engine levels the new-game form offers:
/// what `kalah serve`'s `GET /api/variants` answers.
pub fn variants() -> serde_json::Value {
    fn words<T>(table: &[(&'static str, T)]) -> Vec<&'static str> {
        table.iter().map(|(w, _)| *w).collect()
    }
    let presets: Vec<_> = PRESETS
        .iter()
        .filter_map(|(name, about)| {
            let rules = Rules::preset(name, 6, 4).ok()?;
            Some(json!({ "name": name, "about": about, "fields": fields(&rules) }))
        })
        .collect();
    json!({
        "houses": [MIN_HOUSES, MAX_HOUSES],
        "seeds": [MIN_SEEDS, MAX_SEEDS],
        "presets": presets,
        "capture": words(&CAPTURE_WORDS),
        "end": words(&END_WORDS),
        "leftover": words(&LEFTOVER_WORDS),
        "direction": words(&DIRECTION_WORDS),
        "sowing": words(&SOWING_WORDS),
        "levels": Level::ALL.map(|level| json!({ "level": level.number(), "about": level.about() })),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_engine::time::now;

    fn status_of(request: &str, actions: &[&str]) -> String {
        let mut session = Session::from_json("g", request).unwrap();
        for action in actions {
            session.act(action, now()).unwrap();
        }
        state(&session, now()).status
    }

    #[test]
    fn the_status_names_the_players_as_people_read_them() {
        // The same words as kalah serve's API (kalah-web's tests): a person is the side alone,
        // the engine is named with its level.
        let engine = r#"{"rules": "kalah(4,3)", "south": "human", "north": "engine:2"}"#;
        assert_eq!(status_of(engine, &[]), "South to move");
        assert_eq!(status_of(engine, &["1"]), "North (engine level 2) to move");
        let pie = r#"{"rules": "kalah(4,3) standard pie", "south": "human", "north": "human"}"#;
        assert_eq!(status_of(pie, &["1"]), "North to move: sow a house, or swap sides");
        let handicap = r#"{"rules": "kalah(4,3) standard handicap", "south": "human", "north": "human"}"#;
        assert_eq!(status_of(handicap, &[]), "North decides the handicap: keep the board, or move one seed");
    }
}
