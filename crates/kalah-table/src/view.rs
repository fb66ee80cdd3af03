//! A game's state as the page draws it (`GET /api/games/{id}` and the answer of every change,
//! docs/web.md), the status line, and the game's record: built from the [`Facts`] a host knows.
//!
//! The game itself (a [`History`]) says the board, the moves and who is to decide by the rules;
//! the host says the rest: who holds each seat, whether a player lost on time or resigned (the
//! game is then over whatever the board says), the clocks and whether the engine is thinking.

use std::cmp::Ordering;
use std::time::Duration;

use kalah_rules::{Action, Game, History, Outcome, Phase, Position, Record, Rules, Seat, Side, Step};
use serde::Serialize;

use crate::player::Player;

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
    /// Returns the board of `position`.
    pub fn of(position: &Position) -> Board {
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
    #[serde(serialize_with = "side::option")]
    pub winner: Option<Side>,
    /// The side whose player ran out of time, when that ended the game (the stores are then
    /// those of the position, and the other side wins).
    #[serde(serialize_with = "side::option")]
    pub lost_on_time: Option<Side>,
    /// The side whose player resigned, when that ended the game (as for a loss on time).
    #[serde(serialize_with = "side::option")]
    pub resigned: Option<Side>,
}

/// The clocks of a timed game, by the side each player holds now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ClockState {
    /// Milliseconds on South's clock.
    pub south_ms: u64,
    /// Milliseconds on North's clock.
    pub north_ms: u64,
    /// The side whose clock runs: `null` once the game is over, and while the host waits for
    /// the page to show the move before (see [`Clocks::running`]).
    #[serde(serialize_with = "side::option")]
    pub running: Option<Side>,
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

/// A game as the page draws it: every field both hosts send, in this order. A host with more to
/// say puts it into its own state with `#[serde(flatten)]`, which writes the same JSON object.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct View {
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
    #[serde(serialize_with = "side::option")]
    pub to_move: Option<Side>,
    /// The engine decides now: the page asks its host for the engine's move.
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
    /// The side whose first move did not come in time, when that aborted a timed game between
    /// friends: the game is over with no result.
    #[serde(serialize_with = "side::option")]
    pub aborted: Option<Side>,
    /// The clocks, in a timed game.
    pub clock: Option<ClockState>,
    /// One line saying whose turn it is, or how the game ended.
    pub status: String,
    /// What loading a record warned of: left empty by [`Facts::state`], for the host to fill in
    /// the answers it gives them in; not written when empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// The clocks of a timed game as its host keeps them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clocks {
    /// The time left on the first player's clock, then the second player's, at the moment the
    /// state is for (the player to decide charged for the time since their clock started).
    pub left: [Duration; 2],
    /// The time added after each action.
    pub increment: Duration,
    /// The clock of the player to decide runs now. A host whose clock waits for the page to show
    /// the move before (the static site) says `false` until it has; the game's state then names
    /// no running clock.
    pub running: bool,
}

/// What a host knows of a game: the game itself and what the game does not say.
#[derive(Clone, Copy, Debug)]
pub struct Facts<'a> {
    /// The game's id.
    pub id: &'a str,
    /// Counts the game's changes.
    pub version: u64,
    /// The game up to the position shown, with the actions taken back.
    pub history: &'a History,
    /// Who holds the first player's seat (South at the start), then the second player's.
    pub seats: [Player; 2],
    /// The player who ran out of time, ending the game, if one did.
    pub lost_on_time: Option<Seat>,
    /// The player who resigned, ending the game, if one did.
    pub resigned: Option<Seat>,
    /// The player whose first move (or arrival) did not come in time, ending a timed game
    /// between friends with no result, if that happened.
    pub aborted: Option<Seat>,
    /// The clocks, in a timed game.
    pub clocks: Option<Clocks>,
    /// An engine move is being searched.
    pub thinking: bool,
    /// The players' names, first player first, in a game the lobby paired.
    pub names: Option<&'a [String; 2]>,
    /// The game counts for its players' ratings.
    pub rated: bool,
    /// A timed game's time control: the time for the game and the time added a move.
    pub time_control: Option<[Duration; 2]>,
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

/// Writes sides as the JSON names them: `"South"`, `"North"`, and reads them back.
pub mod side {
    use kalah_rules::Side;
    use serde::{Deserialize, Deserializer, Serializer};

    /// Writes a side's name.
    pub fn name<S: Serializer>(side: &Side, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(side.name())
    }

    /// Writes a side's name (the name `#[serde(with = "side")]` looks for).
    pub fn serialize<S: Serializer>(side: &Side, serializer: S) -> Result<S::Ok, S::Error> {
        name(side, serializer)
    }

    /// Reads `South` or `North`.
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Side, D::Error> {
        match String::deserialize(deserializer)?.as_str() {
            "South" => Ok(Side::South),
            "North" => Ok(Side::North),
            other => Err(serde::de::Error::custom(format!("unknown side {other:?}: write South or North"))),
        }
    }

    /// Writes a side's name, or `null`.
    pub fn option<S: Serializer>(side: &Option<Side>, serializer: S) -> Result<S::Ok, S::Error> {
        match side {
            Some(side) => name(side, serializer),
            None => serializer.serialize_none(),
        }
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

impl Facts<'_> {
    /// Returns the game up to the position shown.
    pub fn game(&self) -> &Game {
        self.history.game()
    }

    /// Returns the side the player in `seat` holds now.
    pub fn side_of(&self, seat: Seat) -> Side {
        if self.game().seat_of(Side::South) == seat {
            Side::South
        } else {
            Side::North
        }
    }

    /// Returns who holds `side` now.
    pub fn player_of(&self, side: Side) -> Player {
        self.seats[self.game().seat_of(side).index()]
    }

    /// Returns the side that decides now and its player, or `None` once the game is over (by the
    /// rules, on time or by a resignation).
    pub fn decider(&self) -> Option<(Side, Player)> {
        if self.lost_on_time.is_some() || self.resigned.is_some() || self.aborted.is_some() {
            return None;
        }
        let side = self.game().decider()?;
        Some((side, self.player_of(side)))
    }

    /// Returns how the game ended, once it is over: on time or by a resignation (the stores are
    /// those of the position, and the other side wins), else by the rules.
    pub fn finish(&self) -> Option<Finish> {
        // An aborted game has no result.
        if self.aborted.is_some() {
            return None;
        }
        let timed_out = self.lost_on_time.map(|seat| self.side_of(seat));
        let resigned = self.resigned.map(|seat| self.side_of(seat));
        let position = self.game().position();
        match timed_out.or(resigned) {
            Some(loser) => Some(Finish {
                south: position.store(Side::South),
                north: position.store(Side::North),
                winner: Some(!loser),
                lost_on_time: timed_out,
                resigned,
            }),
            None => self.game().result().map(|stores| Finish {
                south: stores.south,
                north: stores.north,
                winner: match stores.south.cmp(&stores.north) {
                    Ordering::Greater => Some(Side::South),
                    Ordering::Less => Some(Side::North),
                    Ordering::Equal => None,
                },
                lost_on_time: None,
                resigned: None,
            }),
        }
    }

    /// Returns the game's state as the page draws it.
    pub fn state(&self) -> View {
        let game = self.game();
        let rules = game.rules();
        let position = game.position();
        let line = self.history.whole_line();
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
        let decider = self.decider();
        // Lost on time or resigned: over whatever the board says.
        let ended = self.lost_on_time.is_some() || self.resigned.is_some() || self.aborted.is_some();
        let result = self.finish();
        let clock = self.clocks.map(|clocks| {
            let of = |side: Side| clocks.left[game.seat_of(side).index()].as_millis() as u64;
            ClockState {
                south_ms: of(Side::South),
                north_ms: of(Side::North),
                running: decider.filter(|_| clocks.running).map(|(side, _)| side),
                increment_ms: clocks.increment.as_millis() as u64,
            }
        });
        View {
            id: self.id.to_string(),
            version: self.version,
            rules: rules.to_string(),
            houses: rules.houses(),
            seeds: rules.seeds(),
            position: position.to_string(),
            start: game.start().to_string(),
            board: Board::of(position),
            phase: if ended { "over" } else { phase_word(game.phase()) },
            to_move: decider.map(|(side, _)| side),
            engine_to_move: decider.is_some_and(|(_, player)| !player.is_human()),
            thinking: self.thinking,
            players: Players {
                south: self.player_of(Side::South).to_string(),
                north: self.player_of(Side::North).to_string(),
            },
            seats: self.seats.map(|player| player.to_string()),
            swapped: game.swapped(),
            legal: if ended { Vec::new() } else { game.legal_actions().iter().map(Action::to_string).collect() },
            ply: played,
            moves,
            last,
            status: self.status_of(result.as_ref()),
            result,
            aborted: self.aborted.map(|seat| self.side_of(seat)),
            clock,
            warnings: Vec::new(),
        }
    }

    /// Returns the status line: whose turn it is (`South to move`, `North (engine level 3) to
    /// move`, the pie offer, the handicap), or how the game ended.
    pub fn status(&self) -> String {
        self.status_of(self.finish().as_ref())
    }

    /// Names a side with its player as people read it: `North (engine level 3)` for the engine,
    /// the side alone for a person (`South to move`: the page's words elsewhere name the
    /// players, and "human" is the API's word, not a player's).
    fn who(&self, side: Side) -> String {
        match self.player_of(side) {
            Player::Engine(level) => format!("{side} (engine level {level})"),
            Player::Human => side.to_string(),
        }
    }

    fn status_of(&self, result: Option<&Finish>) -> String {
        if let Some(seat) = self.aborted {
            return format!("Game aborted: {} did not make a first move in time. No result.", self.side_of(seat));
        }
        if let Some(side) = result.and_then(|r| r.lost_on_time) {
            return format!("Game over: {} ran out of time; {} wins.", self.who(side), self.who(!side));
        }
        if let Some(side) = result.and_then(|r| r.resigned) {
            return format!("Game over: {} resigned; {} wins.", self.who(side), self.who(!side));
        }
        if let Some(r) = result {
            let score = format!("Game over: South {}, North {}.", r.south, r.north);
            let margin = i32::from(r.south) - i32::from(r.north);
            let winner = if margin > 0 { Side::South } else { Side::North };
            let seeds = |n: i32| format!("{n} seed{}", if n == 1 { "" } else { "s" });
            return match margin {
                0 => format!("{score} The game is a draw."),
                _ => format!("{score} {} wins by {}.", self.who(winner), seeds(margin.abs())),
            };
        }
        let side = self.decider().map_or(Side::South, |(side, _)| side);
        match self.game().phase() {
            Phase::Handicap => format!("{} decides the handicap: keep the board, or move one seed", self.who(side)),
            Phase::PieOffer => format!("{} to move: sow a house, or swap sides", self.who(side)),
            _ => format!("{} to move", self.who(side)),
        }
    }

    /// Returns the game record of the game up to the position shown, dated `date` (`YYYY.MM.DD`),
    /// with the players' tags (which loading it reads back: [`Player::from_tag`]) and, for a game
    /// lost on time or by a resignation, its `Termination` and its winner.
    ///
    /// A game the lobby paired names its players: a person by their name (which loading reads as
    /// a person), the engine by its level; says whether it was rated; and a timed game gives its
    /// time control as PGN does (`TimeControl "300+3"`, seconds).
    pub fn record(&self, date: &str) -> Record {
        let mut record = Record::new(self.game().clone());
        let player = |seat: usize| match (self.names, self.seats[seat]) {
            (Some(names), Player::Human) => names[seat].clone(),
            (_, player) => player.tag(),
        };
        let event = if self.rated { "Rated game" } else { "Casual game" };
        record.tags = vec![
            ("Event".to_string(), event.to_string()),
            ("Date".to_string(), date.to_string()),
            ("South".to_string(), player(0)),
            ("North".to_string(), player(1)),
        ];
        if let Some([total, increment]) = self.time_control {
            let control = format!("{}+{}", total.as_secs(), increment.as_secs());
            record.tags.push(("TimeControl".to_string(), control));
        }
        if let Some(seat) = self.aborted {
            let side = self.side_of(seat);
            record.tags.push(("Termination".to_string(), format!("aborted: {side} made no first move in time")));
        }
        let ended = match (self.lost_on_time, self.resigned) {
            (Some(seat), _) => Some((seat, "ran out of time")),
            (None, Some(seat)) => Some((seat, "resigned")),
            (None, None) => None,
        };
        if let Some((seat, how)) = ended {
            let loser = self.side_of(seat);
            record.tags.push(("Termination".to_string(), format!("{loser} {how}")));
            record.decided = Some(!loser);
        }
        record
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_engine::level::Level;
    use serde_json::{json, Value};

    /// A game of `rules` with `actions` played, then `undone` of them taken back.
    fn history(rules: &str, actions: &[&str], undone: usize) -> History {
        let mut history = History::new(Game::new(rules.parse().unwrap()));
        for text in actions {
            let action = history.game().parse_action(text).unwrap();
            history.act(action).unwrap();
        }
        if undone > 0 {
            history.undo(undone).unwrap();
        }
        history
    }

    fn facts(history: &History, seats: [Player; 2]) -> Facts<'_> {
        Facts {
            id: "g",
            version: 7,
            history,
            seats,
            lost_on_time: None,
            resigned: None,
            aborted: None,
            clocks: None,
            thinking: false,
            names: None,
            rated: false,
            time_control: None,
        }
    }

    fn engine(level: u8) -> Player {
        Player::Engine(Level::new(level).unwrap())
    }

    #[test]
    fn a_short_game_with_an_extra_move_and_a_capture_is_drawn_as_the_page_reads_it() {
        // Kalah(4,3): South's 2 ends in its store (an extra move), then South's 3; North's 4; South's
        // 2 ends in its empty house 3 and captures North's house 2 (4 seeds) with it; North's 1
        // ends in its store, and is taken back.
        let history = history("kalah(4,3) standard", &["2", "3", "4", "2", "1"], 1);
        let state = facts(&history, [Player::Human, engine(2)]).state();
        let json = serde_json::to_value(&state).unwrap();
        let sowed = |extra_move: bool, captured: u16| json!({"extra_move": extra_move, "captured": captured, "relays": 0, "ended": false});
        assert_eq!(
            json["moves"],
            json!([
                {"ply": 1, "side": "South", "action": "2", "sowed": sowed(true, 0), "played": true},
                {"ply": 2, "side": "South", "action": "3", "sowed": sowed(false, 0), "played": true},
                {"ply": 3, "side": "North", "action": "4", "sowed": sowed(false, 0), "played": true},
                {"ply": 4, "side": "South", "action": "2", "sowed": sowed(false, 5), "played": true},
                {"ply": 5, "side": "North", "action": "1", "sowed": sowed(true, 0), "played": false},
            ])
        );
        // The capture is not a step of the path: the page shows it with the board after the move.
        assert_eq!(
            json["last"],
            json!({
                "side": "South",
                "action": "2",
                "before": {"south": [4, 1, 0, 5], "north": [4, 4, 3, 0], "south_store": 2, "north_store": 1},
                "sowed": sowed(false, 5),
                "path": [{"kind": "lift", "cell": 1}, {"kind": "drop", "cell": 2}],
            })
        );
        assert_eq!(
            json["board"],
            json!({"south": [4, 0, 0, 5], "north": [4, 0, 3, 0], "south_store": 7, "north_store": 1})
        );
        assert_eq!(json["position"], "4,0,0,5:7/4,0,3,0:1/N");
        assert_eq!((json["to_move"].as_str(), json["engine_to_move"].as_bool()), (Some("North"), Some(true)));
        assert_eq!(json["players"], json!({"south": "human", "north": "engine:2"}));
        assert_eq!(json["seats"], json!(["human", "engine:2"]));
        assert_eq!(json["legal"], json!(["1", "3"]));
        assert_eq!((json["ply"].as_u64(), json["phase"].as_str()), (Some(4), Some("play")));
        assert_eq!(json["status"], "North (engine level 2) to move");
        // Null where the game says nothing yet; no warnings written when there are none.
        assert_eq!((&json["result"], &json["clock"]), (&Value::Null, &Value::Null));
        let keys: Vec<&str> = json.as_object().unwrap().keys().map(String::as_str).collect();
        assert!(!keys.contains(&"warnings"), "{keys:?}");
        // The fields in the order the hosts have always sent them.
        let text = serde_json::to_string(&state).unwrap();
        let at = |key: &str| text.find(&format!("\"{key}\":")).unwrap_or_else(|| panic!("{key}"));
        let order = ["id", "version", "rules", "houses", "seeds", "position", "start", "board", "phase", "to_move"];
        let order = order.iter().chain(&["engine_to_move", "thinking", "players", "seats", "swapped", "legal", "ply"]);
        let order: Vec<_> = order.chain(&["moves", "last", "result", "clock", "status"]).map(|key| at(key)).collect();
        assert!(order.windows(2).all(|pair| pair[0] < pair[1]), "{text}");
    }

    #[test]
    fn a_game_lost_on_time_is_over_with_its_board_as_it_stood() {
        let history = history("kalah(4,3) standard", &["2", "1"], 0);
        let facts = Facts {
            lost_on_time: Some(Seat::Second),
            clocks: Some(Clocks {
                left: [Duration::from_millis(41_500), Duration::ZERO],
                increment: Duration::from_secs(2),
                running: true,
            }),
            ..facts(&history, [Player::Human, engine(3)])
        };
        let json = serde_json::to_value(facts.state()).unwrap();
        assert_eq!(json["phase"], "over");
        assert_eq!((&json["to_move"], &json["legal"]), (&Value::Null, &json!([])));
        assert_eq!(
            json["result"],
            json!({"south": 1, "north": 0, "winner": "South", "lost_on_time": "North", "resigned": null})
        );
        assert_eq!(json["clock"], json!({"south_ms": 41500, "north_ms": 0, "running": null, "increment_ms": 2000}));
        assert_eq!(json["status"], "Game over: North (engine level 3) ran out of time; South wins.");
        let record = facts.record("2026.01.02").to_text();
        assert!(
            record.contains("[North \"engine level 3\"]") && record.contains("[Termination \"North ran out of time\"]")
        );
        assert!(record.contains("[Result \"south-wins\"]"), "{record}");
    }

    #[test]
    fn a_clock_runs_only_when_the_host_says_so() {
        let history = history("kalah(4,3) standard", &[], 0);
        let clocks = Clocks { left: [Duration::from_secs(60); 2], increment: Duration::ZERO, running: false };
        let waiting = Facts { clocks: Some(clocks), ..facts(&history, [Player::Human; 2]) };
        assert_eq!(waiting.state().clock.unwrap().running, None);
        let running = Facts { clocks: Some(Clocks { running: true, ..clocks }), ..waiting };
        assert_eq!(running.state().clock.unwrap().running, Some(Side::South));
    }

    #[test]
    fn the_status_names_the_players_as_people_read_them() {
        let status = |rules: &str, actions: &[&str], seats| facts(&history(rules, actions, 0), seats).status();
        let people = [Player::Human; 2];
        assert_eq!(status("kalah(4,3)", &[], [Player::Human, engine(2)]), "South to move");
        assert_eq!(status("kalah(4,3)", &["1"], [Player::Human, engine(2)]), "North (engine level 2) to move");
        assert_eq!(status("kalah(4,3) standard pie", &["1"], people), "North to move: sow a house, or swap sides");
        assert_eq!(
            status("kalah(4,3) standard handicap", &[], people),
            "North decides the handicap: keep the board, or move one seed"
        );
        // After a swap the first player holds North: the status names who holds the side now.
        assert_eq!(
            status("kalah(4,3) standard pie", &["1", "swap"], [engine(1), Player::Human]),
            "North (engine level 1) to move"
        );
        // A whole game of Kalah(4,3), 11 to 13; Kalah(1,1), whose one sowing ends it 1 to 1, or 1
        // to 0 when the seed left over is discarded.
        let line = ["4", "3", "3", "1", "2", "4", "2", "2", "4", "3", "3", "1", "1", "3", "4", "1", "2", "4", "2"];
        let line: Vec<&str> = line.into_iter().chain(["2", "4", "1", "4", "3", "4"]).collect();
        assert_eq!(
            status("kalah(4,3)", &line, [Player::Human, engine(4)]),
            "Game over: South 11, North 13. North (engine level 4) wins by 2 seeds."
        );
        assert_eq!(status("kalah(1,1)", &["1"], people), "Game over: South 1, North 1. The game is a draw.");
        assert_eq!(
            status("kalah(1,1) leftover=discard", &["1"], [engine(4), Player::Human]),
            "Game over: South 1, North 0. South (engine level 4) wins by 1 seed."
        );
        let history = history("kalah(4,3)", &["1"], 0);
        let resigned = Facts { resigned: Some(Seat::First), ..facts(&history, people) };
        assert_eq!(resigned.status(), "Game over: South resigned; North wins.");
        assert_eq!(resigned.state().result.unwrap().resigned, Some(Side::South));
        assert!(resigned.record("2026.01.02").to_text().contains("[Termination \"South resigned\"]"));
    }

    #[test]
    fn a_lobby_games_record_names_its_players_its_rating_and_its_clock() {
        let history = history("kalah(4,3)", &["1"], 0);
        let names = ["ann".to_string(), "engine-2".to_string()];
        let control = [Duration::from_secs(300), Duration::from_secs(3)];
        let rated = Facts {
            names: Some(&names),
            rated: true,
            time_control: Some(control),
            ..facts(&history, [Player::Human, engine(2)])
        };
        let text = rated.record("2026.01.02").to_text();
        for tag in
            ["[Event \"Rated game\"]", "[South \"ann\"]", "[North \"engine level 2\"]", "[TimeControl \"300+3\"]"]
        {
            assert!(text.contains(tag), "{tag} in {text}");
        }
        // Read back, the name is a person's seat and the engine keeps its level.
        let back = kalah_rules::Record::parse(&text).unwrap().record;
        let tag = |name: &str| back.tags.iter().find(|(n, _)| n == name).map(|(_, v)| Player::from_tag(v));
        assert_eq!((tag("South"), tag("North")), (Some(Player::Human), Some(engine(2))));
        let casual = facts(&history, [Player::Human; 2]).record("2026.01.02").to_text();
        assert!(casual.contains("[Event \"Casual game\"]") && !casual.contains("TimeControl"), "{casual}");
    }
}
