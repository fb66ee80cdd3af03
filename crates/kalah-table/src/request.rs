//! The requests a page sends a table, as `kalah serve`'s API takes them (documented in the
//! repository's docs/web.md): their JSON bodies, which a host reads with [`read`] (or
//! [`Command::read`]) so that a body refused by one host is refused by all with the same words;
//! a new game ([`create`]); and the [`Command`]s that change a game, which
//! [`Table::handle`] checks and makes.

use std::time::Duration;

use crate::form::{Decided, NewGame, NewGameError};
use kalah_rules::{RecordWarning, Seat};
use serde::de::DeserializeOwned;
use serde::Deserialize;

use crate::event::{Moment, MAX_REQUEST_ID};
use crate::refused::{one_line, Refused};
use crate::route::Route;
use crate::start::token_hash;
use crate::table::{Access, Actor, Table};

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

/// Reads a JSON body; an empty body is the request's defaults when it has some. A body that
/// cannot be read is refused with what is wrong and what the request accepts, in words of the
/// API (never the names of the program's own types).
pub fn read<T: DeserializeOwned + Accepts>(body: &[u8], empty: Option<T>) -> Result<T, Refused> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return empty.ok_or_else(|| Refused::Bad(format!("the request needs a JSON body: {}", T::ACCEPTS)));
    }
    serde_json::from_slice(body).map_err(|e| Refused::Bad(one_line(format!("{}; {}", plain(&e), T::ACCEPTS))))
}

/// Says in the API's words what is wrong with a JSON body serde could not read.
fn plain(e: &serde_json::Error) -> String {
    use serde_json::error::Category;
    let text = e.to_string();
    // "... at line 1 column 12": the body is one short object; the place says little.
    let text = match text.rfind(" at line ") {
        Some(at) => text[..at].to_string(),
        None => text,
    };
    match e.classify() {
        Category::Syntax | Category::Eof | Category::Io => {
            format!("cannot read the JSON body: it is not valid JSON ({text})")
        }
        Category::Data => {
            if text.contains("untagged enum") {
                return "cannot read the JSON body: the action is not a house number or an action's text".to_string();
            }
            let mut text = text;
            for number in ["usize", "u64", "u32", "u16", "u8"] {
                text = text.replace(&format!("expected {number}"), "expected a whole number, 0 or more");
            }
            // "expected struct Plies", "expected struct ClockRequest": an object.
            while let Some(at) = text.find("struct ") {
                let end = text[at + 7..].find(|c: char| !c.is_alphanumeric()).map_or(text.len(), |n| at + 7 + n);
                text.replace_range(at..end, "a JSON object");
            }
            format!("cannot read the JSON body: {text}")
        }
    }
}

/// A new game as a host starts it: the table, what loading its record warned of, and the
/// tokens its creator is given (none at the static site's page).
#[derive(Debug)]
pub struct Created {
    /// The game.
    pub table: Table,
    /// What loading its record warned of.
    pub warnings: Vec<RecordWarning>,
    /// The creator's token: the seat they hold in a game between friends, else every seat a
    /// person plays.
    pub token: Option<String>,
    /// The other seat's token in a game between friends, for the invitation link.
    pub invite: Option<String>,
}

/// Starts the game a new-game request body asks for (empty: the defaults) at `now`. A host
/// that others reach gives tokens: `mint` makes a new secret token (128 random bits); the
/// static site's page, the game's only client, gives none (`None`), and refuses a game
/// against a friend.
pub fn create(body: &[u8], now: Moment, mint: Option<&mut dyn FnMut() -> String>) -> Result<Created, Refused> {
    let request: NewGame = read(body, Some(NewGame::default()))?;
    let bad = |e: NewGameError| Refused::Bad(e.to_string());
    let opening = request.opening().map_err(bad)?;
    let friend = request.friend == Some(true);
    if friend && (request.south.is_some() || request.north.is_some()) {
        return Err(Refused::Bad("a game against a friend has two people: leave out south and north".to_string()));
    }
    // `"side": null` says no side, as no `side` does.
    let side = request.side.clone().flatten();
    if !friend && side.is_some() {
        return Err(Refused::Bad(
            "side is the creator's side in a game against a friend: add \"friend\": true".to_string(),
        ));
    }
    let seats = request.players(opening.named).map_err(bad)?;
    let mut table = Table::new(opening.game, seats, now);
    if let Some(clock) = request.clock {
        let (total, increment) = clock.times().map_err(bad)?;
        table = table.with_clocks(total, increment);
    }
    let (mut token, mut invite) = (None, None);
    match mint {
        None if friend => return Err(Refused::NoFriends),
        None => {}
        Some(mint) if friend => {
            let creator = match side.as_deref() {
                None | Some("south") => Seat::First,
                Some("north") => Seat::Second,
                Some(other) => return Err(Refused::Bad(format!("side {other:?}: write south or north"))),
            };
            let (mine, theirs) = (mint(), mint());
            let mut tokens = [token_hash(&mine), token_hash(&theirs)];
            if creator == Seat::Second {
                tokens.swap(0, 1);
            }
            table = table.with_access(Access::Friends { tokens, creator: Some(creator) });
            (token, invite) = (Some(mine), Some(theirs));
        }
        Some(mint) => {
            let mine = mint();
            table = table.with_access(Access::Owner(token_hash(&mine)));
            token = Some(mine);
        }
    }
    if let Some(decided) = opening.decided {
        end_as_recorded(&mut table, decided, now);
    }
    Ok(Created { table, warnings: opening.warnings, token, invite })
}

/// Ends a loaded game as its record's result says it ended before its moves did: lost on time by
/// the player to decide (the clocks show no time left, as when it was played), or resigned by the
/// loser.
fn end_as_recorded(table: &mut Table, decided: Decided, now: Moment) {
    let Some((to_decide, _)) = table.decider() else { return };
    let loser = table.game().seat_of(!decided.winner);
    if decided.on_time && to_decide == !decided.winner {
        let game = table.game().clone();
        let (seats, access) = (table.seats(), table.access().clone());
        *table = Table::new(game, seats, now).with_access(access).with_clocks(Duration::ZERO, Duration::ZERO);
        table.time_out(now);
        return;
    }
    // The game is not over (a decider was found), so the resignation is taken.
    let _ = table.resign(loser, now);
}

/// A request to change a game, its body read by the host: what [`Table::handle`] does.
#[derive(Debug)]
pub enum Command {
    /// `POST …/move`.
    Move(MoveRequest),
    /// `POST …/undo`.
    Undo(Plies),
    /// `POST …/redo`.
    Redo(Plies),
    /// `POST …/goto`.
    Goto(Goto),
    /// `POST …/shown`.
    Shown(Shown),
    /// `POST …/takeback`.
    Takeback(TakebackRequest),
}

impl Command {
    /// Reads the body of a request of `route` (an empty body is the request's defaults where it
    /// has some), for a host that takes its bodies as bytes; `None` for a route that changes no
    /// game by a body of its own.
    pub fn read(route: Route, body: &[u8]) -> Option<Result<Command, Refused>> {
        Some(match route {
            Route::Move => read(body, None).map(Command::Move),
            Route::Undo => read(body, Some(Plies::default())).map(Command::Undo),
            Route::Redo => read(body, Some(Plies::default())).map(Command::Redo),
            Route::Goto => read(body, None).map(Command::Goto),
            Route::Shown => read(body, None).map(Command::Shown),
            Route::Takeback => read(body, Some(TakebackRequest::default())).map(Command::Takeback),
            _ => return None,
        })
    }
}

impl Table {
    /// Does what `command` asks for `actor` at `now`, or refuses it and changes nothing:
    /// - a move is played if [`Table::act`] lets it; a request whose id the game has seen is
    ///   answered without playing again, and a move made on another version than the game's is
    ///   refused;
    /// - an undo (with no plies: back to a person's last decision), a redo (up to a person's
    ///   next one) and a goto, if [`Table::may_step`] lets the actor step;
    /// - a screen's "shown" starts the clock of the player to decide ([`Table::shown`]) if that
    ///   player is `actor`; anyone else's screen changes nothing;
    /// - a takeback is asked for, or the opponent's answered, by the holder of a seat of a game
    ///   between friends.
    pub fn handle(&mut self, actor: Actor, command: Command, now: Moment) -> Result<(), Refused> {
        match command {
            Command::Move(request) => {
                if request.request.as_ref().is_some_and(|r| r.len() > MAX_REQUEST_ID) {
                    return Err(Refused::Bad(format!("request ids are at most {MAX_REQUEST_ID} bytes")));
                }
                if !self.begin_request(request.request.as_deref()) {
                    return Ok(());
                }
                if let Some(made) = request.version {
                    if made != self.version() {
                        return Err(Refused::Stale { made, now: self.version() });
                    }
                }
                let text = match &request.action {
                    ActionText::Number(n) => n.to_string(),
                    ActionText::Text(t) => t.clone(),
                };
                let action = self.game().parse_action(&text).map_err(|e| Refused::Bad(e.to_string()))?;
                self.act(actor, action, now)
            }
            Command::Undo(request) => {
                self.may_step(actor)?;
                self.undo(request.plies, now).map(drop)
            }
            Command::Redo(request) => {
                self.may_step(actor)?;
                self.redo(request.plies, now).map(drop)
            }
            Command::Goto(request) => {
                self.may_step(actor)?;
                self.goto(request.ply, now)
            }
            Command::Shown(request) => {
                if self.may_act(actor).is_ok() {
                    self.shown(request.version, now);
                }
                Ok(())
            }
            Command::Takeback(request) => {
                let seat = self.holder_of(actor)?;
                match request.answer.as_deref() {
                    None => self.ask_takeback(seat, now),
                    Some("accept") => self.answer_takeback(seat, true, now),
                    Some("refuse") => self.answer_takeback(seat, false, now),
                    Some(other) => Err(Refused::Bad(format!("answer {other:?}: write accept or refuse"))),
                }
            }
        }
    }

    /// Returns the seat `actor` holds in a game between friends, or refuses.
    pub fn holder_of(&self, actor: Actor) -> Result<Seat, Refused> {
        match actor {
            Actor::Holder(seat) => Ok(seat),
            _ => Err(Refused::NotAPlayer),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_body_that_cannot_be_read_is_refused_in_one_line() {
        // A JSON key with a line break: the reader's message repeats it.
        let refused = create(b"{\"r\\nx\": 1}", Moment(0), None).unwrap_err();
        assert_eq!(refused.status(), 400);
        let message = refused.to_string();
        assert!(message.contains("unknown field `r\\nx`") && !message.contains('\n'), "{message}");
    }
}
