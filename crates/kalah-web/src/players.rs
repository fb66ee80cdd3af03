//! Players' names, their ratings and the games the lobby paired, kept in the games' database
//! (SQLite or PostgreSQL, through [`crate::sql`]): a name and the SHA-256 of its secret (the
//! only thing a player proves a name with), a Glicko-2 rating per board family, and each paired
//! game's players, result and the ratings before and after it.
//!
//! The open challenges are kept there too, so that every server sharing the database offers the
//! same ones and only one of them hands a challenge to the player who accepts it.
//!
//! A rated game is settled once, when its end is stored: the game's row and both players'
//! ratings change in one transaction, and only if nothing changed them meanwhile (another
//! server settling another game of one of the players retries). A server that stopped between
//! storing a game's end and settling it settles it when it starts again ([`Store::unsettled`]).

use kalah_lobby::{Family, Name, Outcome, Rating};
use kalah_rules::Seat;
use kalah_table::Moment;
use serde::Serialize;

use crate::passwords::Memory;
use crate::sql::{Statement, Value};
use crate::store::{Store, StoreError};

/// The lobby's tables: the same step in both databases' migrations.
pub const SCHEMA: &str = "CREATE TABLE players (
        key TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        secret TEXT UNIQUE,
        salt TEXT,
        wrapped TEXT,
        created BIGINT NOT NULL,
        removed BIGINT NOT NULL DEFAULT 0
    );
    CREATE TABLE ratings (
        player TEXT NOT NULL REFERENCES players(key) ON DELETE CASCADE,
        family TEXT NOT NULL,
        rating DOUBLE PRECISION NOT NULL,
        deviation DOUBLE PRECISION NOT NULL,
        volatility DOUBLE PRECISION NOT NULL,
        games BIGINT NOT NULL,
        updated BIGINT NOT NULL,
        PRIMARY KEY (player, family)
    );
    CREATE INDEX ratings_board ON ratings (family, rating);
    CREATE TABLE paired (
        game TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        family TEXT NOT NULL,
        rules TEXT NOT NULL,
        rated BIGINT NOT NULL,
        first TEXT NOT NULL,
        second TEXT NOT NULL,
        first_name TEXT NOT NULL,
        second_name TEXT NOT NULL,
        started BIGINT NOT NULL,
        outcome TEXT,
        ended BIGINT,
        first_before DOUBLE PRECISION,
        first_after DOUBLE PRECISION,
        second_before DOUBLE PRECISION,
        second_after DOUBLE PRECISION
    );
    CREATE TABLE challenges (
        id TEXT PRIMARY KEY,
        maker TEXT NOT NULL,
        body TEXT NOT NULL,
        expires BIGINT NOT NULL
    );
    CREATE INDEX challenges_maker ON challenges (maker);
    CREATE INDEX paired_first ON paired (first, started);
    CREATE INDEX paired_second ON paired (second, started);
    CREATE INDEX paired_playing ON paired (outcome, started)";

/// How a paired game ended, as kept: `first`, `second` (the winner), `draw` or `aborted`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The first player (South at the start) won.
    First,
    /// The second player won.
    Second,
    /// A draw.
    Draw,
    /// Aborted before it began: no result, not rated.
    Aborted,
}

impl Ending {
    /// The word kept.
    pub fn word(self) -> &'static str {
        match self {
            Ending::First => "first",
            Ending::Second => "second",
            Ending::Draw => "draw",
            Ending::Aborted => "aborted",
        }
    }

    /// The ending whose winner is `seat`, or a draw.
    pub fn won_by(seat: Option<Seat>) -> Ending {
        match seat {
            Some(Seat::First) => Ending::First,
            Some(Seat::Second) => Ending::Second,
            None => Ending::Draw,
        }
    }

    /// The first player's outcome, unless aborted.
    fn first(self) -> Option<Outcome> {
        match self {
            Ending::First => Some(Outcome::Win),
            Ending::Second => Some(Outcome::Loss),
            Ending::Draw => Some(Outcome::Draw),
            Ending::Aborted => None,
        }
    }
}

/// A player's rating in one family, as the pages show it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FamilyRating {
    /// The board family.
    pub family: Family,
    /// The rating now (its deviation grown for the days since the last rated game).
    pub rating: Rating,
    /// Shown: rounded, `?` while provisional.
    pub shown: String,
    /// Whether it is still provisional.
    pub provisional: bool,
    /// The rated games played in the family.
    pub games: i64,
}

impl FamilyRating {
    fn new(family: Family, rating: Rating, games: i64) -> FamilyRating {
        FamilyRating { family, shown: rating.shown(), provisional: rating.is_provisional(), rating, games }
    }
}

/// A game the lobby paired, as a player's page and the list of games being played show it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairedGame {
    /// The game's id.
    pub id: String,
    /// The rules' text.
    pub rules: String,
    /// Its board family.
    pub family: String,
    /// Whether it counted for the ratings.
    pub rated: bool,
    /// The first player's name (South at the start), then the second's.
    pub names: [String; 2],
    /// `first`, `second`, `draw`, `aborted`, or `null` while it is played.
    pub outcome: Option<String>,
    /// When it began (milliseconds since 1970).
    pub started: i64,
    /// When it ended.
    pub ended: Option<i64>,
    /// The first and the second player's ratings before and after it, once a rated game ended.
    pub ratings: Option<[[f64; 2]; 2]>,
}

/// The shortest password.
pub const SHORTEST_PASSWORD: usize = 8;

/// The longest password.
pub const LONGEST_PASSWORD: usize = 200;

/// A name's optional password, as kept: the name's secret XORed with the key Argon2id derives
/// from the password and a random salt. The password itself is kept nowhere, and the secret
/// only through it: signing in with the password gives back the same secret, so the seats of
/// the name's games stay its own on the new device.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wrapped {
    /// The salt, in hex.
    pub salt: String,
    /// The secret XORed with the key, in hex.
    pub wrapped: String,
}

/// XORs the 32 hex digits of `text` with `key`; `None` if `text` is not 32 hex digits.
fn xor(text: &str, key: &[u8; 16]) -> Option<String> {
    if text.len() != 32 {
        return None;
    }
    let mut out = String::with_capacity(32);
    for (i, k) in key.iter().enumerate() {
        let byte = u8::from_str_radix(text.get(2 * i..2 * i + 2)?, 16).ok()?;
        out.push_str(&format!("{:02x}", byte ^ k));
    }
    Some(out)
}

impl Wrapped {
    /// Keeps `secret` (32 hex digits, [`crate::games::new_token`]'s) under `password`, the
    /// Argon2id worked in `memory` (slow by design: [`crate::passwords`] runs it).
    pub fn new(secret: &str, password: &str, memory: &mut Memory) -> Option<Wrapped> {
        let salt: [u8; 16] = rand::random();
        let wrapped = xor(secret, &memory.key(password, &salt))?;
        Some(Wrapped { salt: salt.iter().map(|b| format!("{b:02x}")).collect(), wrapped })
    }

    /// The secret kept under `password`, if it is the password (its SHA-256 is the name's), the
    /// Argon2id worked in `memory`.
    pub fn open(&self, password: &str, hash: &str, memory: &mut Memory) -> Option<String> {
        let salt: Vec<u8> = (0..self.salt.len() / 2)
            .map(|i| u8::from_str_radix(&self.salt[2 * i..2 * i + 2], 16))
            .collect::<Result<_, _>>()
            .ok()?;
        let secret = xor(&self.wrapped, &memory.key(password, &salt))?;
        (kalah_table::start::token_hash(&secret) == hash).then_some(secret)
    }
}

/// A line of the leaderboard.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Leader {
    /// The player's name.
    pub name: String,
    /// The rating.
    pub rating: FamilyRating,
}

/// Milliseconds in a day: a rating period of a player who does not play.
const DAY_MS: f64 = 86_400_000.0;

/// Reads a kept rating, aged to `now`.
fn kept_rating(row: &[Value], now: Moment) -> Rating {
    let rating = Rating { rating: row[0].real(), deviation: row[1].real(), volatility: row[2].real() };
    rating.aged((now.0 as f64 - row[3].real()).max(0.0) / DAY_MS)
}

/// Reads a row of `game, rules, family, rated, first_name, second_name, outcome, started, ended,
/// first_before, first_after, second_before, second_after`.
fn paired_game(row: &[Value]) -> PairedGame {
    PairedGame {
        id: row[0].text().to_string(),
        rules: row[1].text().to_string(),
        family: row[2].text().to_string(),
        rated: row[3].int() != 0,
        names: [row[4].text().to_string(), row[5].text().to_string()],
        outcome: (!row[6].is_null()).then(|| row[6].text().to_string()),
        started: row[7].int(),
        ended: (!row[8].is_null()).then(|| row[8].int()),
        ratings: (!row[9].is_null()).then(|| [[row[9].real(), row[10].real()], [row[11].real(), row[12].real()]]),
    }
}

impl Store {
    /// Keeps the name `name` with its secret's SHA-256 at `now`; `false` if the name (in any
    /// case) is taken, or was removed.
    pub async fn register(&self, name: &Name, secret: &str, now: Moment) -> Result<bool, StoreError> {
        let sql = "INSERT INTO players (key, name, secret, created) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING";
        let params = vec![name.key().into(), name.as_str().into(), secret.into(), (now.0 as i64).into()];
        self.write(vec![Statement::exactly(sql, params, 1)]).await
    }

    /// Returns the name whose secret has the SHA-256 `secret`, unless removed.
    pub async fn signed_in(&self, secret: &str) -> Result<Option<Name>, StoreError> {
        let rows = self.rows("SELECT name FROM players WHERE secret = $1 AND removed = 0", vec![secret.into()]).await?;
        Ok(rows.first().and_then(|row| Name::read(row[0].text()).ok()))
    }

    /// Keeps an open challenge.
    pub async fn keep_challenge(&self, challenge: &kalah_lobby::Challenge) -> Result<(), StoreError> {
        let body = serde_json::to_string(challenge).expect("a challenge is JSON");
        let sql = "INSERT INTO challenges (id, maker, body, expires) VALUES ($1, $2, $3, $4)";
        let params = vec![
            challenge.id.as_str().into(),
            challenge.by.key().into(),
            body.into(),
            (challenge.expires.0 as i64).into(),
        ];
        self.write(vec![Statement::exactly(sql, params, 1)]).await.map(drop)
    }

    /// Returns the challenges open at `now`, the oldest first.
    pub async fn open_challenges(&self, now: Moment) -> Result<Vec<kalah_lobby::Challenge>, StoreError> {
        let sql = "SELECT body FROM challenges WHERE expires > $1";
        let rows = self.rows(sql, vec![(now.0 as i64).into()]).await?;
        let mut open: Vec<kalah_lobby::Challenge> =
            rows.iter().filter_map(|row| serde_json::from_str(row[0].text()).ok()).collect();
        open.sort_by_key(|c| c.made);
        Ok(open)
    }

    /// Returns challenge `id` if it is open at `now`.
    pub async fn challenge(&self, id: &str, now: Moment) -> Result<Option<kalah_lobby::Challenge>, StoreError> {
        let sql = "SELECT body FROM challenges WHERE id = $1 AND expires > $2";
        let rows = self.rows(sql, vec![id.into(), (now.0 as i64).into()]).await?;
        Ok(rows.first().and_then(|row| serde_json::from_str(row[0].text()).ok()))
    }

    /// Returns how many challenges the name `key` has open at `now`.
    pub async fn challenges_of(&self, key: &str, now: Moment) -> Result<usize, StoreError> {
        let sql = "SELECT count(*) FROM challenges WHERE maker = $1 AND expires > $2";
        let rows = self.rows(sql, vec![key.into(), (now.0 as i64).into()]).await?;
        Ok(rows.first().map_or(0, |row| row[0].int() as usize))
    }

    /// Takes challenge `id` out (accepted, or withdrawn by `maker` if given); returns whether
    /// this call took it: of two servers taking one challenge at once, one does.
    pub async fn take_challenge(&self, id: &str, maker: Option<&str>) -> Result<bool, StoreError> {
        let (sql, params) = match maker {
            Some(maker) => ("DELETE FROM challenges WHERE id = $1 AND maker = $2", vec![id.into(), maker.into()]),
            None => ("DELETE FROM challenges WHERE id = $1", vec![id.into()]),
        };
        self.write(vec![Statement::exactly(sql, params, 1)]).await
    }

    /// Deletes the challenges expired by `now`, and every challenge of the name `key` if given
    /// (a name removed).
    pub async fn drop_challenges(&self, now: Moment, key: Option<&str>) -> Result<(), StoreError> {
        let mut statements =
            vec![Statement::any("DELETE FROM challenges WHERE expires <= $1", vec![(now.0 as i64).into()])];
        if let Some(key) = key {
            statements.push(Statement::any("DELETE FROM challenges WHERE maker = $1", vec![key.into()]));
        }
        self.write(statements).await.map(drop)
    }

    /// Keeps the name `key`'s secret under a password (`Some`), or forgets the password (`None`).
    pub async fn set_password(&self, key: &str, wrapped: Option<&Wrapped>) -> Result<bool, StoreError> {
        let sql = "UPDATE players SET salt = $2, wrapped = $3 WHERE key = $1 AND removed = 0";
        let params = match wrapped {
            Some(w) => vec![key.into(), w.salt.as_str().into(), w.wrapped.as_str().into()],
            None => vec![key.into(), Value::Null, Value::Null],
        };
        self.write(vec![Statement::exactly(sql, params, 1)]).await
    }

    /// Returns the name `key` as written, the SHA-256 of its secret and its secret as kept under
    /// its password, if it has one (and is not removed).
    pub async fn wrapped(&self, key: &str) -> Result<Option<(Name, String, Wrapped)>, StoreError> {
        let sql =
            "SELECT name, secret, salt, wrapped FROM players WHERE key = $1 AND removed = 0 AND wrapped IS NOT NULL";
        let rows = self.rows(sql, vec![key.into()]).await?;
        Ok(rows.first().and_then(|row| {
            let wrapped = Wrapped { salt: row[2].text().to_string(), wrapped: row[3].text().to_string() };
            Some((Name::read(row[0].text()).ok()?, row[1].text().to_string(), wrapped))
        }))
    }

    /// Returns the SHA-256 of the secret of the name `key`, unless removed: it holds the seat of
    /// the name's player in a game the lobby pairs.
    pub async fn secret_of(&self, key: &str) -> Result<Option<String>, StoreError> {
        let rows = self.rows("SELECT secret FROM players WHERE key = $1 AND removed = 0", vec![key.into()]).await?;
        Ok(rows.first().map(|row| row[0].text().to_string()))
    }

    /// Returns the name kept under `key` (a name in lower case) and when it was made, or `None`
    /// (also once removed).
    pub async fn player(&self, key: &str) -> Result<Option<(Name, i64)>, StoreError> {
        let rows =
            self.rows("SELECT name, created FROM players WHERE key = $1 AND removed = 0", vec![key.into()]).await?;
        Ok(rows.first().and_then(|row| Some((Name::read(row[0].text()).ok()?, row[1].int()))))
    }

    /// Returns the rating of the player `key` in `family` at `now` (a newcomer's if none).
    pub async fn rating(&self, key: &str, family: Family, now: Moment) -> Result<Rating, StoreError> {
        let sql = "SELECT rating, deviation, volatility, updated, games FROM ratings WHERE player = $1 AND family = $2";
        let rows = self.rows(sql, vec![key.into(), family.as_str().into()]).await?;
        Ok(rows.first().map_or_else(Rating::default, |row| kept_rating(row, now)))
    }

    /// Returns the ratings of the player `key` at `now`, in every family (a newcomer's where
    /// they have played no rated game).
    pub async fn ratings(&self, key: &str, now: Moment) -> Result<Vec<FamilyRating>, StoreError> {
        let sql = "SELECT rating, deviation, volatility, updated, games, family FROM ratings WHERE player = $1";
        let rows = self.rows(sql, vec![key.into()]).await?;
        Ok(Family::ALL
            .into_iter()
            .map(|family| match rows.iter().find(|row| row[5].text() == family.as_str()) {
                Some(row) => FamilyRating::new(family, kept_rating(row, now), row[4].int()),
                None => FamilyRating::new(family, Rating::default(), 0),
            })
            .collect())
    }

    /// Notes that game `id`, kept with `start`, was paired by the lobby.
    pub async fn paired(&self, id: &str, start: &kalah_table::Start) -> Result<(), StoreError> {
        let Some(names) = &start.names else { return Ok(()) };
        let rules: kalah_rules::Rules = start
            .rules
            .parse()
            .map_err(|e| StoreError::Damaged { id: id.to_string(), why: format!("bad rules: {e}") })?;
        let key = |name: &str| name.to_ascii_lowercase();
        let sql = "INSERT INTO paired (game, family, rules, rated, first, second, first_name, second_name, started)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)";
        let params = vec![
            id.into(),
            Family::of(&rules).as_str().into(),
            start.rules.as_str().into(),
            i64::from(start.rated).into(),
            key(&names[0]).into(),
            key(&names[1]).into(),
            names[0].as_str().into(),
            names[1].as_str().into(),
            (start.at.0 as i64).into(),
        ];
        let mut statements = vec![Statement::exactly(sql, params, 1)];
        // The engine plays as a player with a name of its own, which no secret proves.
        for name in names.iter().filter(|name| key(name).starts_with("engine-")) {
            let engine =
                "INSERT INTO players (key, name, secret, created) VALUES ($1, $1, NULL, $2) ON CONFLICT DO NOTHING";
            statements.push(Statement::any(engine, vec![key(name).into(), (start.at.0 as i64).into()]));
        }
        self.write(statements).await.map(drop)
    }

    /// Settles paired game `id`, which ended as `ending` at `now`: its result is kept and, if it
    /// is rated and not aborted, both players' ratings move. Returns the two ratings after it,
    /// or `None` if there was nothing to settle (not paired, settled already, or not rated).
    pub async fn settle(&self, id: &str, ending: Ending, now: Moment) -> Result<Option<[Rating; 2]>, StoreError> {
        // Tried again when another server changed a rating between the reads and the write.
        for _ in 0..16 {
            let sql = "SELECT family, rated, first, second FROM paired WHERE game = $1 AND outcome IS NULL";
            let rows = self.rows(sql, vec![id.into()]).await?;
            let Some(row) = rows.first() else { return Ok(None) };
            let (family, rated) = (row[0].text().to_string(), row[1].int() != 0);
            let keys = [row[2].text().to_string(), row[3].text().to_string()];
            let close = "UPDATE paired SET outcome = $2, ended = $3, first_before = $4, first_after = $5,
                second_before = $6, second_after = $7 WHERE game = $1 AND outcome IS NULL";
            let mut params = vec![id.into(), ending.word().into(), (now.0 as i64).into()];
            let (Some(first), true) = (ending.first(), rated) else {
                params.extend([Value::Null, Value::Null, Value::Null, Value::Null]);
                self.write(vec![Statement::exactly(close, params, 1)]).await?;
                return Ok(None);
            };
            let mut before = [Rating::default(); 2];
            let mut games = [0; 2];
            for (i, key) in keys.iter().enumerate() {
                let sql = "SELECT rating, deviation, volatility, updated, games FROM ratings WHERE player = $1 AND family = $2";
                let rows = self.rows(sql, vec![key.as_str().into(), family.as_str().into()]).await?;
                if let Some(row) = rows.first() {
                    before[i] = kept_rating(row, now);
                    games[i] = row[4].int();
                }
            }
            let after = [before[0].update(&[(before[1], first)]), before[1].update(&[(before[0], first.reversed())])];
            params.extend([before[0].rating, after[0].rating, before[1].rating, after[1].rating].map(Value::Real));
            let mut statements = vec![Statement::exactly(close, params, 1)];
            for i in 0..2 {
                // Inserted for a first rated game, else changed only if no other game changed it
                // since it was read.
                let upsert = "INSERT INTO ratings (player, family, rating, deviation, volatility, games, updated)
                    VALUES ($1, $2, $3, $4, $5, 1, $6)
                    ON CONFLICT (player, family) DO UPDATE SET rating = excluded.rating,
                    deviation = excluded.deviation, volatility = excluded.volatility,
                    games = ratings.games + 1, updated = excluded.updated WHERE ratings.games = $7";
                let params = vec![
                    keys[i].as_str().into(),
                    family.as_str().into(),
                    after[i].rating.into(),
                    after[i].deviation.into(),
                    after[i].volatility.into(),
                    (now.0 as i64).into(),
                    games[i].into(),
                ];
                statements.push(Statement::exactly(upsert, params, 1));
            }
            if self.write(statements).await? {
                return Ok(Some(after));
            }
        }
        Err(StoreError::Conflict(id.to_string()))
    }

    /// Returns the paired games whose end is stored but which are not settled (the server
    /// stopped in between).
    pub async fn unsettled(&self) -> Result<Vec<String>, StoreError> {
        let sql = "SELECT p.game FROM paired p JOIN games g ON g.id = p.game WHERE p.outcome IS NULL AND g.finished";
        Ok(self.rows(sql, vec![]).await?.into_iter().map(|row| row[0].text().to_string()).collect())
    }

    /// Returns the paired games of the player `key`, the last begun first, at most `limit`.
    pub async fn games_of(&self, key: &str, limit: usize) -> Result<Vec<PairedGame>, StoreError> {
        const SQL: &str = "SELECT game, rules, family, rated, first_name, second_name, outcome, started, ended,
            first_before, first_after, second_before, second_after
            FROM paired WHERE first = $1 OR second = $1 ORDER BY started DESC LIMIT $2";
        Ok(self.rows(SQL, vec![key.into(), (limit as i64).into()]).await?.iter().map(|r| paired_game(r)).collect())
    }

    /// Returns the paired games being played (not over, changed since `since`), the last begun
    /// first, at most `limit`.
    pub async fn playing(&self, since: Moment, limit: usize) -> Result<Vec<PairedGame>, StoreError> {
        const SQL: &str = "SELECT game, rules, family, rated, first_name, second_name, outcome, started, ended,
            first_before, first_after, second_before, second_after
            FROM paired p JOIN games g ON g.id = p.game
            WHERE p.outcome IS NULL AND NOT g.finished AND g.updated >= $1 ORDER BY p.started DESC LIMIT $2";
        let params = vec![(since.0 as i64).into(), (limit as i64).into()];
        Ok(self.rows(SQL, params).await?.iter().map(|r| paired_game(r)).collect())
    }

    /// Returns the best ratings of `family` no longer provisional, at most `limit`, at `now`.
    pub async fn leaderboard(&self, family: Family, limit: usize, now: Moment) -> Result<Vec<Leader>, StoreError> {
        let sql = "SELECT r.rating, r.deviation, r.volatility, r.updated, r.games, p.name
            FROM ratings r JOIN players p ON p.key = r.player
            WHERE r.family = $1 AND p.removed = 0 AND r.deviation <= $2 ORDER BY r.rating DESC LIMIT $3";
        let params = vec![family.as_str().into(), kalah_lobby::glicko::PROVISIONAL.into(), (limit as i64).into()];
        Ok(self
            .rows(sql, params)
            .await?
            .iter()
            .map(|row| Leader {
                name: row[5].text().to_string(),
                rating: FamilyRating::new(family, kept_rating(row, now), row[4].int()),
            })
            .collect())
    }

    /// Removes the name `key` at `now` (the host's decision): it cannot sign in or be picked
    /// again, its ratings are deleted, and its games show `removed` in its place. Returns
    /// whether there was such a name.
    pub async fn remove_player(&self, key: &str, now: Moment) -> Result<bool, StoreError> {
        let statements = vec![
            Statement::exactly(
                "UPDATE players SET name = 'removed', secret = NULL, salt = NULL, wrapped = NULL, removed = $2
                WHERE key = $1 AND removed = 0",
                vec![key.into(), (now.0 as i64).into()],
                1,
            ),
            Statement::any("DELETE FROM ratings WHERE player = $1", vec![key.into()]),
            Statement::any("DELETE FROM challenges WHERE maker = $1", vec![key.into()]),
            Statement::any("UPDATE paired SET first_name = 'removed' WHERE first = $1", vec![key.into()]),
            Statement::any("UPDATE paired SET second_name = 'removed' WHERE second = $1", vec![key.into()]),
        ];
        if !self.write(statements).await? {
            return Ok(false);
        }
        // The games' starts name their players too: each is written again with `removed`.
        let sql =
            "SELECT g.id, g.start FROM games g JOIN paired p ON p.game = g.id WHERE p.first = $1 OR p.second = $1";
        for row in self.rows(sql, vec![key.into()]).await? {
            let mut start: kalah_table::Start = serde_json::from_str(row[1].text())
                .map_err(|e| StoreError::Damaged { id: row[0].text().to_string(), why: e.to_string() })?;
            if let Some(names) = &mut start.names {
                for name in names.iter_mut().filter(|name| name.eq_ignore_ascii_case(key)) {
                    *name = "removed".to_string();
                }
            }
            let text = serde_json::to_string(&start).expect("a start is JSON");
            let update = "UPDATE games SET start = $2 WHERE id = $1";
            self.write(vec![Statement::any(update, vec![row[0].clone(), text.into()])]).await?;
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_gives_back_the_secret_it_keeps_and_no_other_does() {
        let memory = &mut Memory::new();
        let secret = crate::games::new_token();
        let hash = kalah_table::start::token_hash(&secret);
        let wrapped = Wrapped::new(&secret, "correct horse", memory).unwrap();
        assert_ne!(wrapped.wrapped, secret);
        assert_eq!(wrapped.open("correct horse", &hash, memory), Some(secret.clone()));
        assert_eq!(wrapped.open("correct horsf", &hash, memory), None);
        let again = Wrapped::new(&secret, "correct horse", memory).unwrap();
        assert_ne!(again.salt, wrapped.salt, "a salt of its own each time");
        assert!(Wrapped::new("not hex", "x", memory).is_none());
    }
}
