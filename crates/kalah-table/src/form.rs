//! The new-game form: the choices it offers ([`variants`], `GET /api/variants`) and the body it
//! sends ([`NewGame`], `POST /api/games`, docs/web.md), and the game such a body starts: from the
//! rules and a start position, or from a record with the players its tags name.

use std::time::Duration;

use kalah_engine::level::Level;
use kalah_rules::rules::{
    word_of, CAPTURE_WORDS, DIRECTION_WORDS, END_WORDS, LEFTOVER_WORDS, MAX_HOUSES, MAX_SEEDS, MIN_HOUSES, MIN_SEEDS,
    PRESETS, SOWING_WORDS,
};
use kalah_rules::{Game, Position, PositionError, Record, RecordError, RecordWarning, Rules, RulesError, Side};
use serde::{Deserialize, Deserializer};
use serde_json::json;
use thiserror::Error;

use crate::player::{Player, PlayerError};

/// The most seconds a clock may hold for the whole game.
pub const MAX_CLOCK_SECONDS: u64 = 86_400;

/// The most seconds a clock may gain after an action.
pub const MAX_INCREMENT_SECONDS: u64 = 3600;

/// A new game: the body of `POST /api/games`, every field optional.
///
/// `friend` and `side` are for a game against a friend, which only `kalah serve` hosts; they are
/// `Some` whenever the body names them, so that a host without such games refuses them whatever
/// their value, as an unknown field.
#[derive(Clone, Debug, Default, Deserialize)]
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
    /// A game against a friend: both seats are people, each held by a secret token; the answer
    /// gives the creator's token and the invitation (the other seat's token). `null` is refused.
    #[serde(default, deserialize_with = "given")]
    pub friend: Option<bool>,
    /// In a game against a friend, the side the creator plays: `south` (default) or `north`;
    /// `Some(None)` for `null`.
    #[serde(default, deserialize_with = "given")]
    pub side: Option<Option<String>>,
}

/// Reads a field the body names (a missing one is `None` by `default`).
fn given<'de, D: Deserializer<'de>, T: Deserialize<'de>>(deserializer: D) -> Result<Option<T>, D::Error> {
    T::deserialize(deserializer).map(Some)
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

/// Why a new game cannot start: its message is the one line a host answers with.
#[derive(Debug, Error)]
pub enum NewGameError {
    /// A record was given with rules or a position.
    #[error("a record brings its own rules and start: leave out rules and position")]
    RecordAndStart,
    /// The record cannot be read.
    #[error("cannot load the record: {0}")]
    Record(RecordError),
    /// The rules' text cannot be read.
    #[error("bad rules {text:?}: {source}")]
    Rules {
        /// The text given.
        text: String,
        /// Why it cannot be read.
        source: RulesError,
    },
    /// The size a position alone gives is not a board of the rules.
    #[error(transparent)]
    Size(RulesError),
    /// The position cannot be read, or does not fit the rules.
    #[error(transparent)]
    Position(PositionError),
    /// A player's text cannot be read.
    #[error("{seat}: {source}")]
    Player {
        /// `south` or `north`.
        seat: &'static str,
        /// Why it cannot be read.
        source: PlayerError,
    },
    /// The clock asked for is out of range.
    #[error(
        "clock: {seconds} seconds + {increment} a move is out of range: 1 to {MAX_CLOCK_SECONDS} seconds for the game, \
         0 to {MAX_INCREMENT_SECONDS} added a move"
    )]
    Clock {
        /// Seconds for the game asked for.
        seconds: u64,
        /// Seconds a move asked for.
        increment: u64,
    },
}

/// How a loaded record was decided before its moves ended it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decided {
    /// The side that won, as the record's result says.
    pub winner: Side,
    /// The record's `Termination` says the loser ran out of time (else: resigned, or not said).
    pub on_time: bool,
}

/// The game a new-game request starts, before its host seats the players.
#[derive(Clone, Debug)]
pub struct Opening {
    /// The game: a record's, or the rules' from the start position.
    pub game: Game,
    /// The players a record's `South` and `North` tags name (the players as the game started,
    /// the first player South), each if the record names it.
    pub named: [Option<Player>; 2],
    /// What loading the record warned of.
    pub warnings: Vec<RecordWarning>,
    /// How a record decided before its moves ended it was decided.
    pub decided: Option<Decided>,
}

impl NewGame {
    /// Builds the game the request asks for: from its record, or from its rules and position
    /// (the rules of a position alone are the standard ones of its size; none: Kalah(6,6)).
    ///
    /// # Errors
    ///
    /// If the record, the rules or the position cannot be read, or a record comes with rules or
    /// a position.
    pub fn opening(&self) -> Result<Opening, NewGameError> {
        if let Some(text) = &self.record {
            if self.rules.is_some() || self.position.is_some() {
                return Err(NewGameError::RecordAndStart);
            }
            let parsed = Record::parse(text).map_err(NewGameError::Record)?;
            let tags = &parsed.record.tags;
            let tag = |name: &str| tags.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v);
            let decided = parsed.record.decided.map(|winner| Decided {
                winner,
                on_time: tag("Termination").is_some_and(|v| v.contains("ran out of time")),
            });
            return Ok(Opening {
                named: [tag("South"), tag("North")].map(|v| v.map(|v| Player::from_tag(v))),
                game: parsed.record.game,
                warnings: parsed.warnings,
                decided,
            });
        }
        let parsed = match &self.position {
            Some(text) => Some(text.parse::<Position>().map_err(NewGameError::Position)?),
            None => None,
        };
        let rules = match (&self.rules, parsed) {
            (Some(text), _) => {
                text.parse::<Rules>().map_err(|source| NewGameError::Rules { text: text.clone(), source })?
            }
            // A position alone gives the size; the seeds a house started with only name the game.
            (None, Some(p)) => {
                let m = u16::from(p.houses()).max(1);
                let n = (p.total_seeds() / (2 * m)).clamp(u16::from(MIN_SEEDS), u16::from(MAX_SEEDS)) as u8;
                Rules::standard(p.houses(), n).map_err(NewGameError::Size)?
            }
            (None, None) => Rules::default(),
        };
        let start = match &self.position {
            Some(text) => Position::parse(text, &rules).map_err(NewGameError::Position)?,
            None => Position::start(&rules),
        };
        Ok(Opening {
            game: Game::from_position(rules, start),
            named: [None, None],
            warnings: Vec::new(),
            decided: None,
        })
    }

    /// Returns the players, first player first: the request's, else those a record names
    /// (`named`), else a person against the engine at its default level.
    ///
    /// # Errors
    ///
    /// If a player's text cannot be read.
    pub fn players(&self, named: [Option<Player>; 2]) -> Result<[Player; 2], NewGameError> {
        let player = |text: &Option<String>, default: Player, seat| match text {
            None => Ok(default),
            Some(text) => text.parse::<Player>().map_err(|source| NewGameError::Player { seat, source }),
        };
        Ok([
            player(&self.south, named[0].unwrap_or(Player::Human), "south")?,
            player(&self.north, named[1].unwrap_or(Player::Engine(Level::DEFAULT)), "north")?,
        ])
    }
}

impl ClockRequest {
    /// Returns the time for the whole game and the time added after each action.
    ///
    /// # Errors
    ///
    /// [`NewGameError::Clock`] unless the game has 1 to 86400 seconds and an action adds 0 to 3600.
    pub fn times(self) -> Result<(Duration, Duration), NewGameError> {
        if !(1..=MAX_CLOCK_SECONDS).contains(&self.seconds) || self.increment > MAX_INCREMENT_SECONDS {
            return Err(NewGameError::Clock { seconds: self.seconds, increment: self.increment });
        }
        Ok((Duration::from_secs(self.seconds), Duration::from_secs(self.increment)))
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

/// Returns the sizes, presets with their fields, rule words, engine levels and fair starts the
/// new-game form offers: what `GET /api/variants` answers.
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
        "fair_starts": crate::fair::fair_starts().iter().filter_map(|list| {
            let rules: Rules = list.rules.parse().ok()?;
            Some(json!({ "rules": list.rules, "size": list.size, "fields": fields(&rules), "starts": list.starts }))
        }).collect::<Vec<_>>(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(body: &str) -> NewGame {
        serde_json::from_str(body).unwrap()
    }

    fn refused(body: &str) -> String {
        let request = read(body);
        let opening = request.opening();
        let players = opening
            .as_ref()
            .map_err(ToString::to_string)
            .and_then(|o| request.players(o.named).map_err(|e| e.to_string()));
        let clock = request.clock.map(|c| c.times().map_err(|e| e.to_string())).transpose();
        players.and(clock).map(|_| ()).unwrap_err()
    }

    #[test]
    fn a_body_names_friend_and_side_when_it_gives_them_and_nothing_else() {
        let empty = read("{}");
        assert_eq!((empty.friend, &empty.side), (None, &None));
        let named = read(r#"{"friend": false, "side": null}"#);
        assert_eq!((named.friend, &named.side), (Some(false), &Some(None)));
        assert_eq!(read(r#"{"side": "north"}"#).side, Some(Some("north".to_string())));
        for (body, says) in [
            (r#"{"friend": null}"#, "invalid type: null, expected a boolean"),
            (r#"{"colour": "red"}"#, "unknown field `colour`"),
            (r#"{"clock": {"seconds": 5, "extra": 1}}"#, "unknown field `extra`"),
            (r#"{"rules": "kalah(4,3)", "rules": "kalah(5,3)"}"#, "duplicate field `rules`"),
        ] {
            let error = serde_json::from_str::<NewGame>(body).unwrap_err().to_string();
            assert!(error.contains(says), "{body}: {error}");
        }
    }

    #[test]
    fn a_game_starts_from_rules_a_position_or_a_record() {
        let opening = read("{}").opening().unwrap();
        assert_eq!(opening.game.rules().to_string(), "kalah(6,6) standard");
        let opening = read(r#"{"position": "0,0,1:5/2,0,0:4/N"}"#).opening().unwrap();
        assert_eq!(opening.game.rules().to_string(), "kalah(3,2) standard");
        assert_eq!(opening.game.position().to_string(), "0,0,1:5/2,0,0:4/N");
        let record = "[Rules \"kalah(4,3) standard\"]\n[south \" engine:3\"]\n[Termination \"South ran out of time\"]\n1. 2,1 3 north-wins\n";
        let request = NewGame { record: Some(record.to_string()), ..NewGame::default() };
        let opening = request.opening().unwrap();
        let three = Player::Engine(Level::new(3).unwrap());
        assert_eq!(opening.named, [Some(three), None]);
        assert_eq!(opening.decided, Some(Decided { winner: Side::North, on_time: true }));
        assert_eq!(opening.game.actions().len(), 3);
        // The request's players first, then the record's, then a person against the engine.
        assert_eq!(request.players(opening.named).unwrap(), [three, Player::Engine(Level::DEFAULT)]);
        let request = NewGame { north: Some("human".into()), ..request };
        assert_eq!(request.players([None, None]).unwrap(), [Player::Human, Player::Human]);
    }

    #[test]
    fn bad_requests_say_what_is_wrong() {
        for (body, says) in [
            (
                r#"{"rules": "kalah(13,4) standard"}"#,
                "bad rules \"kalah(13,4) standard\": 13 houses a side is out of range",
            ),
            (
                r#"{"rules": "kalah(6,4)", "position": "4,4,4:0/4,4,4:0/S"}"#,
                "the position has 3 houses a side but the rules are for Kalah(6,4) with 6 houses",
            ),
            (
                r#"{"record": "x", "rules": "kalah(4,3)"}"#,
                "a record brings its own rules and start: leave out rules and position",
            ),
            (r#"{"record": "[Event \"x\"]\n1. 3"}"#, "cannot load the record: line 1"),
            (r#"{"south": "robot"}"#, "south: unknown player \"robot\": write human, engine, or engine:LEVEL"),
            (r#"{"north": "engine:9"}"#, "north: unknown player \"engine:9\""),
            (
                r#"{"clock": {"seconds": 0}}"#,
                "clock: 0 seconds + 0 a move is out of range: 1 to 86400 seconds for the game, 0 to 3600 added a move",
            ),
            (r#"{"clock": {"seconds": 60, "increment": 3601}}"#, "clock: 60 seconds + 3601 a move is out of range"),
        ] {
            let message = refused(body);
            assert!(message.starts_with(says), "{body}: {message}");
        }
        assert_eq!(
            read(r#"{"clock": {"seconds": 86400, "increment": 3600}}"#).clock.unwrap().times().unwrap().1,
            Duration::from_secs(3600)
        );
    }

    #[test]
    fn the_form_offers_every_size_preset_word_and_level() {
        let variants = variants();
        assert_eq!(variants["houses"], json!([1, 12]));
        assert_eq!(variants["levels"].as_array().unwrap().len(), 5);
        assert_eq!(variants["presets"].as_array().unwrap().len(), PRESETS.len());
        assert!(variants["presets"][0]["fields"]["majority_ends"].as_bool().is_some());
        for key in ["capture", "end", "leftover", "direction", "sowing"] {
            assert!(!variants[key].as_array().unwrap().is_empty(), "{key}");
        }
    }
}
