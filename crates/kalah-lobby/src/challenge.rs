//! Open challenges: a player offers a game (its rules, its clock, rated or not, the side they
//! want), anyone else accepts it, and the two are paired in a new game between them. A
//! challenge no one takes expires after [`LIFETIME`]; a name has at most [`MOST_OPEN`] open at
//! once, so that no name floods the lobby; a guest offers and accepts unrated games only.
//! Quick pairing ([`Lobby::quick`]) accepts, among the open challenges of the same game, the
//! one whose maker's rating is nearest, within [`QUICK_WINDOW`].

use std::time::Duration;

use kalah_rules::{Game, Rules, Side};
use kalah_table::form::ClockRequest;
use kalah_table::Player;
use kalah_table::{Access, Moment, Seating, Table};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::family::Family;
use crate::glicko::Rating;
use crate::name::Name;

/// How long a challenge waits for someone to accept it.
pub const LIFETIME: Duration = Duration::from_secs(10 * 60);

/// The most challenges one name has open at once.
pub const MOST_OPEN: usize = 3;

/// The largest rating difference quick pairing accepts.
pub const QUICK_WINDOW: f64 = 300.0;

/// The rules a challenge that names none is played under.
pub const DEFAULT_RULES: &str = "kalah(6,4) standard";

/// The side the maker of a challenge wants.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    /// Either, drawn when the challenge is accepted.
    #[default]
    Random,
    /// South, who moves first.
    South,
    /// North.
    North,
}

/// A challenge as offered: the body of `POST /api/lobby/challenges`, every field optional.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Offer {
    /// The rules' text (default [`DEFAULT_RULES`]).
    #[serde(default)]
    pub rules: Option<String>,
    /// A clock for each player: `{"seconds": 300, "increment": 3}`; none for an untimed game,
    /// which is casual ([`LobbyError::Untimed`]).
    #[serde(default)]
    pub clock: Option<ClockRequest>,
    /// Whether the game counts for both players' ratings (default not).
    #[serde(default)]
    pub rated: bool,
    /// The side the maker wants (default random).
    #[serde(default)]
    pub colour: Colour,
}

/// An open challenge in the lobby: its JSON is what the API shows, what the database keeps and
/// what servers sharing a database tell each other.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Challenge {
    /// Its id.
    pub id: String,
    /// Who made it.
    pub by: Name,
    /// The maker's rating in the game's family when it was made.
    pub rating: Rating,
    /// The rules' text, as the rules write it.
    pub rules: String,
    /// The board family the game is rated in.
    pub family: Family,
    /// The clock: seconds for the game and added a move; none for an untimed game.
    pub clock: Option<[u64; 2]>,
    /// Whether the game counts for the ratings.
    pub rated: bool,
    /// The side the maker wants.
    pub colour: Colour,
    /// When it was made (milliseconds since 1970).
    pub made: Moment,
    /// When it expires unless accepted.
    pub expires: Moment,
}

/// A rated game against the engine: the body of `POST /api/lobby/engine`. The engine plays at
/// a level as a player with a rating of its own (its name `engine-LEVEL`), so that a player with
/// no one to meet has a rating too.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineOffer {
    /// The engine's level, 1 to 5.
    pub level: u8,
    /// The rules' text (default [`DEFAULT_RULES`]).
    #[serde(default)]
    pub rules: Option<String>,
    /// A clock for each player: a rated game always has one ([`LobbyError::Untimed`]).
    #[serde(default)]
    pub clock: Option<ClockRequest>,
    /// The side the player wants (default random).
    #[serde(default)]
    pub colour: Colour,
}

impl EngineOffer {
    /// The table of the rated game `by` plays against the engine, its person's seat held by the
    /// token hash `token`, begun at `now`; `coin` draws the sides of `random` (true: the player
    /// plays South).
    ///
    /// # Errors
    /// [`LobbyError::Bad`] for a level, rules or clock that cannot be played;
    /// [`LobbyError::GuestRated`] for a guest.
    pub fn table(&self, by: &Name, token: String, coin: bool, now: Moment) -> Result<Table, LobbyError> {
        let level = kalah_engine::level::Level::new(self.level).ok_or_else(|| {
            LobbyError::Bad(format!("there is no level {}: the engine's levels are 1 to 5", self.level))
        })?;
        if by.is_guest() {
            return Err(LobbyError::GuestRated);
        }
        let offer = Offer { rules: self.rules.clone(), clock: self.clock, rated: true, colour: self.colour };
        let (rules, _, clock) = Lobby::read(&offer)?;
        let rules: Rules = rules.parse().map_err(|e| LobbyError::Bad(format!("{e}")))?;
        let south = match self.colour {
            Colour::South => true,
            Colour::North => false,
            Colour::Random => coin,
        };
        let (person, engine) = (by.as_str().to_string(), Name::engine(level).as_str().to_string());
        let (seats, names) = if south {
            ([Player::Human, Player::Engine(level)], [person, engine])
        } else {
            ([Player::Engine(level), Player::Human], [engine, person])
        };
        let mut table = Table::new(Game::new(rules), seats, now)
            .with_access(Access::Owner(token))
            .with_seating(Seating { names, rated: true });
        if let Some([seconds, increment]) = clock {
            table = table.with_clocks(Duration::from_secs(seconds), Duration::from_secs(increment));
        }
        Ok(table)
    }
}

/// Two players paired by an accepted challenge.
#[derive(Clone, Debug, PartialEq)]
pub struct Pairing {
    /// The challenge accepted.
    pub challenge: Challenge,
    /// Who accepted it.
    pub by: Name,
    /// The first player (South at the start), then the second.
    pub names: [Name; 2],
}

/// Why the lobby refuses a request.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LobbyError {
    /// The offer cannot be read or played: what is wrong, and what is accepted.
    #[error("{0}")]
    Bad(String),
    /// No open challenge has this id (taken, withdrawn or expired).
    #[error("no open challenge {0}: it was accepted, withdrawn or expired")]
    Unknown(String),
    /// A challenge's own maker accepted it.
    #[error("this challenge is yours: another player accepts it (withdraw it instead)")]
    Own,
    /// Another player's challenge withdrawn.
    #[error("this challenge is another player's: only its maker withdraws it")]
    NotYours,
    /// A guest offered or accepted a rated game.
    #[error("a guest plays unrated games only: pick a name to play rated")]
    GuestRated,
    /// A name with [`MOST_OPEN`] challenges open offered another.
    #[error("you have 3 challenges open already: withdraw one, or wait until one is accepted or expires")]
    TooMany,
    /// A rated game offered with no clock: a rated game always has one, so that no player can
    /// stall it (as on lichess, where an unlimited game is casual).
    #[error("a rated game has a clock: give one, e.g. \"clock\": {{\"seconds\": 300, \"increment\": 3}}, or play it unrated")]
    Untimed,
}

impl LobbyError {
    /// The HTTP status a server answers with.
    pub fn status(&self) -> u16 {
        match self {
            LobbyError::Bad(_) | LobbyError::Untimed => 400,
            LobbyError::NotYours | LobbyError::GuestRated => 403,
            LobbyError::Unknown(_) => 404,
            LobbyError::Own => 409,
            LobbyError::TooMany => 429,
        }
    }
}

impl Challenge {
    /// The table of the game this challenge pairs, between the first and the second player of
    /// `pairing`, whose seats the token hashes `tokens` (first, second) hold, begun at `now`:
    /// both players are here, so a timed game's first moves are awaited at once.
    ///
    /// # Errors
    /// [`LobbyError::Bad`]: the rules or the clock cannot be played (checked when offered).
    pub fn table(&self, pairing: &Pairing, tokens: [String; 2], now: Moment) -> Result<Table, LobbyError> {
        let rules: Rules = self.rules.parse().map_err(|e| LobbyError::Bad(format!("{e}")))?;
        let game = Game::new(rules);
        let mut table = Table::new(game, [Player::Human; 2], now)
            .with_access(Access::Friends { tokens, creator: None })
            .with_seating(Seating {
                names: pairing.names.clone().map(|name| name.as_str().to_string()),
                rated: self.rated,
            });
        if let Some([seconds, increment]) = self.clock {
            table = table.with_clocks(Duration::from_secs(seconds), Duration::from_secs(increment));
        }
        Ok(table)
    }
}

/// The open challenges.
#[derive(Clone, Debug, Default)]
pub struct Lobby {
    /// In the order they were made.
    challenges: Vec<Challenge>,
}

impl Lobby {
    /// Returns the open challenges, the oldest first.
    pub fn challenges(&self) -> &[Challenge] {
        &self.challenges
    }

    /// Reads an offer: its rules (as the rules write them), its family and its clock.
    ///
    /// # Errors
    /// [`LobbyError::Bad`]; [`LobbyError::Untimed`] for a rated offer with no clock.
    pub fn read(offer: &Offer) -> Result<(String, Family, Option<[u64; 2]>), LobbyError> {
        let text = offer.rules.as_deref().unwrap_or(DEFAULT_RULES);
        let rules: Rules = text.parse().map_err(|e| LobbyError::Bad(format!("{e}")))?;
        let clock = match offer.clock {
            Some(clock) => {
                clock.times().map_err(|e| LobbyError::Bad(e.to_string()))?;
                Some([clock.seconds, clock.increment])
            }
            None if offer.rated => return Err(LobbyError::Untimed),
            None => None,
        };
        Ok((rules.to_string(), Family::of(&rules), clock))
    }

    /// `by`, rated `rating` in the offer's family, offers a challenge with id `id` at `now`.
    ///
    /// # Errors
    /// [`LobbyError::Bad`], [`LobbyError::GuestRated`], [`LobbyError::TooMany`].
    pub fn offer(
        &mut self,
        id: String,
        by: &Name,
        rating: Rating,
        offer: &Offer,
        now: Moment,
    ) -> Result<Challenge, LobbyError> {
        let (rules, family, clock) = Lobby::read(offer)?;
        if offer.rated && by.is_guest() {
            return Err(LobbyError::GuestRated);
        }
        if self.challenges.iter().filter(|c| c.by.key() == by.key()).count() >= MOST_OPEN {
            return Err(LobbyError::TooMany);
        }
        let challenge = Challenge {
            id,
            by: by.clone(),
            rating,
            rules,
            family,
            clock,
            rated: offer.rated,
            colour: offer.colour,
            made: now,
            expires: now.plus(LIFETIME),
        };
        self.challenges.push(challenge.clone());
        Ok(challenge)
    }

    /// `by` withdraws their challenge `id`.
    ///
    /// # Errors
    /// [`LobbyError::Unknown`], [`LobbyError::NotYours`].
    pub fn withdraw(&mut self, id: &str, by: &Name) -> Result<Challenge, LobbyError> {
        let at = self.find(id)?;
        if self.challenges[at].by.key() != by.key() {
            return Err(LobbyError::NotYours);
        }
        Ok(self.challenges.remove(at))
    }

    /// Withdraws every challenge of `by` (a name removed by the host); returns them.
    pub fn withdraw_all(&mut self, by: &Name) -> Vec<Challenge> {
        let (gone, kept) = std::mem::take(&mut self.challenges).into_iter().partition(|c| c.by.key() == by.key());
        self.challenges = kept;
        gone
    }

    /// `by` accepts challenge `id` at `now`; `coin` draws the sides of a challenge whose maker
    /// wants either (true: the maker plays South).
    ///
    /// # Errors
    /// [`LobbyError::Unknown`] (also once expired), [`LobbyError::Own`],
    /// [`LobbyError::GuestRated`].
    pub fn accept(&mut self, id: &str, by: &Name, coin: bool, now: Moment) -> Result<Pairing, LobbyError> {
        self.expire(now);
        let at = self.find(id)?;
        Lobby::may_accept(&self.challenges[at], by)?;
        let challenge = self.challenges.remove(at);
        Ok(Lobby::pair(challenge, by, coin))
    }

    /// Tells whether `by` may accept `challenge`.
    ///
    /// # Errors
    /// [`LobbyError::Own`], [`LobbyError::GuestRated`].
    pub fn may_accept(challenge: &Challenge, by: &Name) -> Result<(), LobbyError> {
        if challenge.by.key() == by.key() {
            return Err(LobbyError::Own);
        }
        if challenge.rated && by.is_guest() {
            return Err(LobbyError::GuestRated);
        }
        Ok(())
    }

    /// Pairs the maker of `challenge`, taken out of the lobby, with `by`, who accepted it;
    /// `coin` draws the sides of a challenge whose maker wants either (true: the maker plays
    /// South).
    pub fn pair(challenge: Challenge, by: &Name, coin: bool) -> Pairing {
        let maker_side = match challenge.colour {
            Colour::South => Side::South,
            Colour::North => Side::North,
            Colour::Random if coin => Side::South,
            Colour::Random => Side::North,
        };
        let names = match maker_side {
            Side::South => [challenge.by.clone(), by.clone()],
            Side::North => [by.clone(), challenge.by.clone()],
        };
        Pairing { challenge, by: by.clone(), names }
    }

    /// Adds a challenge made elsewhere (another server sharing the database), unless it is here.
    pub fn add(&mut self, challenge: Challenge) {
        if self.find(&challenge.id).is_err() {
            self.challenges.push(challenge);
        }
    }

    /// Removes challenge `id` (taken or withdrawn elsewhere); returns it if it was here.
    pub fn remove(&mut self, id: &str) -> Option<Challenge> {
        let at = self.find(id).ok()?;
        Some(self.challenges.remove(at))
    }

    /// Replaces every challenge by `challenges` (as the database holds them).
    pub fn replace(&mut self, challenges: Vec<Challenge>) {
        self.challenges = challenges;
    }

    /// Quick pairing: `by`, rated `rating`, wants a game as `offer` describes; accepts the open
    /// challenge of another name with the same rules, clock and ratedness whose maker's rating
    /// is nearest, within [`QUICK_WINDOW`]. `None` if there is none: the caller then offers it.
    ///
    /// # Errors
    /// [`LobbyError::Bad`], [`LobbyError::GuestRated`].
    pub fn quick(
        &mut self,
        by: &Name,
        rating: Rating,
        offer: &Offer,
        coin: bool,
        now: Moment,
    ) -> Result<Option<Pairing>, LobbyError> {
        self.expire(now);
        match self.nearest(by, rating, offer, now)? {
            Some(id) => self.accept(&id, by, coin, now).map(Some),
            None => Ok(None),
        }
    }

    /// Quick pairing's choice: among the open challenges of other names with the offer's rules,
    /// clock and ratedness, the id of the one whose maker's rating is nearest `rating`, within
    /// [`QUICK_WINDOW`].
    ///
    /// # Errors
    /// [`LobbyError::Bad`], [`LobbyError::GuestRated`].
    pub fn nearest(&self, by: &Name, rating: Rating, offer: &Offer, now: Moment) -> Result<Option<String>, LobbyError> {
        let (rules, _, clock) = Lobby::read(offer)?;
        if offer.rated && by.is_guest() {
            return Err(LobbyError::GuestRated);
        }
        Ok(self
            .challenges
            .iter()
            .filter(|c| c.expires > now && c.by.key() != by.key())
            .filter(|c| c.rules == rules && c.clock == clock && c.rated == offer.rated)
            .map(|c| (c, (c.rating.rating - rating.rating).abs()))
            .filter(|&(_, gap)| gap <= QUICK_WINDOW)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(c, _)| c.id.clone()))
    }

    /// Removes the challenges that expired by `now`; returns them.
    pub fn expire(&mut self, now: Moment) -> Vec<Challenge> {
        let (gone, kept) = std::mem::take(&mut self.challenges).into_iter().partition(|c| c.expires <= now);
        self.challenges = kept;
        gone
    }

    fn find(&self, id: &str) -> Result<usize, LobbyError> {
        self.challenges.iter().position(|c| c.id == id).ok_or_else(|| LobbyError::Unknown(id.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(text: &str) -> Name {
        Name::parse(text).unwrap()
    }

    fn offer(json: &str) -> Offer {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn a_challenge_is_made_accepted_once_and_pairs_the_sides_the_maker_wanted() {
        let mut lobby = Lobby::default();
        let (alice, bob, carol) = (name("alice"), name("Bob"), name("carol"));
        let made = lobby
            .offer(
                "c1".into(),
                &alice,
                Rating::default(),
                &offer(r#"{"rated":true,"colour":"north","clock":{"seconds":60}}"#),
                Moment(0),
            )
            .unwrap();
        assert_eq!(
            (made.rules.as_str(), made.family, made.clock),
            ("kalah(6,4) standard", Family::Kalah64, Some([60, 0]))
        );
        assert_eq!(made.expires, Moment(600_000));
        assert_eq!(lobby.accept("c1", &name("ALICE"), true, Moment(1)), Err(LobbyError::Own));
        assert_eq!(lobby.withdraw("c1", &bob), Err(LobbyError::NotYours));
        let pairing = lobby.accept("c1", &bob, true, Moment(1)).unwrap();
        assert_eq!(pairing.names, [bob.clone(), alice.clone()], "the maker plays North as asked");
        assert_eq!(lobby.accept("c1", &carol, true, Moment(2)), Err(LobbyError::Unknown("c1".into())));
        let table = pairing.challenge.table(&pairing, ["a".into(), "b".into()], Moment(3)).unwrap();
        assert!(table.is_rated() && table.is_friends());
        assert_eq!(table.seating().unwrap().names, ["Bob".to_string(), "alice".to_string()]);
        let start = table.start();
        assert_eq!((start.names.clone(), start.rated), (Some(["Bob".into(), "alice".into()]), true));
        let back = Table::rebuild(&start, &[]).unwrap();
        assert_eq!(back.seating(), table.seating());
        // The rematch swaps the sides and keeps the names with their tokens.
        assert_eq!(table.rematch_table(Moment(4)).seating().unwrap().names, ["alice".to_string(), "Bob".to_string()]);
    }

    #[test]
    fn limits_expiry_and_guests() {
        let mut lobby = Lobby::default();
        let alice = name("alice");
        for i in 0..MOST_OPEN {
            lobby.offer(format!("c{i}"), &alice, Rating::default(), &Offer::default(), Moment(0)).unwrap();
        }
        let more = lobby.offer("c9".into(), &alice, Rating::default(), &Offer::default(), Moment(0));
        assert_eq!(more, Err(LobbyError::TooMany));
        assert_eq!(lobby.withdraw("c0", &alice).unwrap().id, "c0");
        assert_eq!(lobby.expire(Moment(599_999)), vec![]);
        assert_eq!(lobby.expire(Moment(600_000)).len(), 2);
        assert!(lobby.challenges().is_empty());
        let guest = Name::guest(7);
        let rated = offer(r#"{"rated":true,"clock":{"seconds":300,"increment":3}}"#);
        assert_eq!(lobby.offer("g".into(), &guest, Rating::default(), &rated, Moment(0)), Err(LobbyError::GuestRated));
        lobby.offer("r".into(), &alice, Rating::default(), &rated, Moment(0)).unwrap();
        assert_eq!(lobby.accept("r", &guest, true, Moment(0)), Err(LobbyError::GuestRated));
        lobby.offer("u".into(), &guest, Rating::default(), &Offer::default(), Moment(0)).unwrap();
        assert_eq!(lobby.accept("u", &alice, false, Moment(0)).unwrap().names[1], guest, "random: the coin says North");
        assert_eq!(lobby.withdraw_all(&alice).len(), 1);
        let bad = |json: &str| Lobby::read(&offer(json)).unwrap_err().to_string();
        assert!(bad(r#"{"rules":"kalah(0,4)"}"#).contains("out of range"));
        assert!(bad(r#"{"clock":{"seconds":0}}"#).contains("second"));
        // A rated game always has a clock: nobody can stall it.
        assert_eq!(Lobby::read(&offer(r#"{"rated":true}"#)), Err(LobbyError::Untimed));
        assert!(Lobby::read(&offer(r#"{"rated":false}"#)).is_ok(), "a casual game may have none");
        assert!(serde_json::from_str::<Offer>(r#"{"colour":"green"}"#).is_err());
    }

    #[test]
    fn a_rated_game_against_the_engine_seats_its_level_by_name() {
        let untimed: EngineOffer = serde_json::from_str(r#"{"level":2}"#).unwrap();
        assert_eq!(untimed.table(&name("alice"), "hash".into(), true, Moment(0)).unwrap_err(), LobbyError::Untimed);
        let offer: EngineOffer =
            serde_json::from_str(r#"{"level":2,"colour":"north","clock":{"seconds":300,"increment":3}}"#).unwrap();
        let table = offer.table(&name("alice"), "hash".into(), true, Moment(0)).unwrap();
        assert_eq!(table.seating().unwrap().names, ["engine-2".to_string(), "alice".to_string()]);
        assert_eq!(table.seats()[0].to_string(), "engine:2");
        assert!(table.is_rated() && !table.is_friends());
        let bad: EngineOffer = serde_json::from_str(r#"{"level":9,"clock":{"seconds":60}}"#).unwrap();
        assert!(bad.table(&name("alice"), "h".into(), true, Moment(0)).unwrap_err().to_string().contains("1 to 5"));
        let guest = offer.table(&Name::guest(1), "h".into(), true, Moment(0));
        assert_eq!(guest.unwrap_err(), LobbyError::GuestRated);
    }

    #[test]
    fn quick_pairing_takes_the_nearest_rating_of_the_same_game() {
        let mut lobby = Lobby::default();
        let rated = |r| Rating { rating: r, ..Rating::default() };
        let timed = offer(r#"{"rated":true,"clock":{"seconds":300,"increment":2}}"#);
        lobby.offer("far".into(), &name("far"), rated(1900.0), &timed, Moment(0)).unwrap();
        lobby.offer("near".into(), &name("near"), rated(1600.0), &timed, Moment(0)).unwrap();
        let other = offer(r#"{"rated":true,"clock":{"seconds":600,"increment":5}}"#);
        lobby.offer("other".into(), &name("same"), rated(1500.0), &other, Moment(0)).unwrap();
        let me = name("meg");
        let paired = lobby.quick(&me, rated(1500.0), &timed, true, Moment(1)).unwrap().unwrap();
        assert_eq!(paired.challenge.id, "near");
        assert_eq!(lobby.quick(&me, rated(1500.0), &timed, true, Moment(1)).unwrap(), None, "1900 is too far");
        assert_eq!(lobby.challenges().len(), 2);
        // A challenge travels as JSON between servers, and comes back the same.
        let first = lobby.challenges()[0].clone();
        let back: Challenge = serde_json::from_str(&serde_json::to_string(&first).unwrap()).unwrap();
        assert_eq!(back, first);
        lobby.add(back.clone());
        assert_eq!(lobby.challenges().len(), 2, "added once");
        assert_eq!(lobby.remove(&back.id), Some(back));
        assert_eq!(lobby.challenges().len(), 1);
    }
}
