//! The games' database in PostgreSQL, so that several `kalah serve` processes behind one address
//! share their games: each stores every change as it does in SQLite ([`crate::store`]), and
//! learns of the changes the others store by PostgreSQL's `LISTEN`/`NOTIFY` ([`Notice`]). They
//! tell each other who follows which game through them the same way ([`crate::presence`]),
//! each named by its listening connection's process id in PostgreSQL, so that a server that
//! ends, even killed, is seen gone ([`Postgres::alive`]) when that connection's process is.
//!
//! The store runs its own small runtime, which drives a few connections and the one that
//! listens; a call's query runs there and the caller's task awaits its outcome, holding no thread
//! (a request that stores a move holds its game's lock, an asynchronous one, meanwhile). Only
//! [`Postgres::open`] blocks. The changes of games waiting to be stored at the same time are
//! appended together, in one statement (`APPEND`). Two processes that change one game
//! at once both try to store the change after the same number of events: the second finds the
//! number moved on and is refused with [`StoreError::Conflict`].

use std::fmt;
use std::future::Future;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::StreamExt;
use tokio::runtime::{Handle, Runtime};
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};
use tokio::sync::oneshot;
use tokio_postgres::error::SqlState;
use tokio_postgres::{AsyncMessage, Client, Config, Statement};
use tokio_postgres_rustls::MakeRustlsConnect;

use crate::event::{Event, Moment};
use crate::presence::{Change, Process};
use crate::sql::{self, Value};
use crate::store::{Archived, Start, StoreError};
use crate::tls::{SslMode, Tls};

/// The form of a PostgreSQL address, for messages.
pub const FORM: &str =
    "postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE, with ?sslmode=verify-full&sslrootcert=FILE for TLS";

/// The channel the processes notify each other of stored changes on.
const CHANNEL: &str = "kalah_events";

/// The channel the processes tell each other who follows which game through them on.
const PRESENCE: &str = "kalah_presence";

/// The channel the processes tell each other of the lobby's changes on ([`crate::lobby`]).
const LOBBY: &str = "kalah_lobby";

/// Connections a process queries on (besides the one that listens).
const CONNECTIONS: usize = 8;

/// The schema, one step a version, as [`crate::store::MIGRATIONS`] for SQLite: step i brings
/// the version kept in the table `kalah_schema` from i to i + 1.
pub const MIGRATIONS: &[&str] = &[
    "CREATE TABLE games (
        id TEXT PRIMARY KEY,
        start TEXT NOT NULL,
        created BIGINT NOT NULL,
        updated BIGINT NOT NULL,
        finished BOOLEAN NOT NULL DEFAULT FALSE,
        result TEXT NOT NULL DEFAULT ''
    );
    CREATE TABLE events (
        game TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seq BIGINT NOT NULL,
        event TEXT NOT NULL,
        PRIMARY KEY (game, seq)
    );
    CREATE INDEX games_finished ON games (finished, updated);",
    // The number of events each game has, checked and moved on under the game's row lock when
    // changes are appended (see APPEND): several games' changes go in one statement.
    "ALTER TABLE games ADD COLUMN stored BIGINT NOT NULL DEFAULT 0;
    UPDATE games g SET stored = (SELECT count(*) FROM events e WHERE e.game = g.id);",
    // The lobby's players, ratings and paired games (crate::players), as in SQLite.
    crate::players::SCHEMA,
];

/// Appends the changes of several games in one statement (one round trip, one transaction, one
/// commit): each row of the arrays is a game (`$1`), its number of events before the change
/// (`$2`), the new events (`$3`, a JSON array), whether the notice carries them (`$4`), when it
/// was changed (`$5`), whether it is finished (`$6`) and its result (`$7`). A game's row is
/// marked only if it still has that number of events (checked under the row's lock, so of two
/// processes storing a change of one game at once the second finds the number moved on), and
/// only a marked game's events are inserted and noticed. The notice names the game, its number
/// of events and the process that stored them (`$8`, so that it passes its own notices by), and
/// carries the new events when they fit in a notice. A row of the answer for each game: its id,
/// whether it was stored, and whether it exists.
///
/// One transaction for many changes is what keeps the tail short with several processes:
/// PostgreSQL lets one transaction that notifies commit at a time, and a transaction per move
/// queued the moves behind each other's commits.
const APPEND: &str = "WITH r AS (
        SELECT * FROM unnest($1::TEXT[], $2::BIGINT[], $3::TEXT[], $4::BOOLEAN[], $5::BIGINT[],
            $6::BOOLEAN[], $7::TEXT[]) AS r(game, seq, events, noticed, updated, finished, result)
    ), marked AS (
        UPDATE games g SET stored = r.seq + json_array_length(r.events::JSON), updated = r.updated,
            finished = r.finished, result = r.result
        FROM r WHERE g.id = r.game AND g.stored = r.seq
        RETURNING g.id, g.stored
    ), added AS (
        INSERT INTO events (game, seq, event)
        SELECT r.game, r.seq + t.n, t.event FROM r JOIN marked m ON m.id = r.game,
            json_array_elements_text(r.events::JSON) WITH ORDINALITY AS t(event, n)
    )
    SELECT r.game, m.id IS NOT NULL, EXISTS (SELECT 1 FROM games WHERE id = r.game),
        CASE WHEN m.id IS NOT NULL THEN pg_notify('kalah_events', r.game || ' ' || m.stored::TEXT
            || ' ' || $8::BIGINT::TEXT || ' ' || CASE WHEN r.noticed THEN r.events ELSE '' END) END
    FROM r LEFT JOIN marked m ON m.id = r.game";

/// The most games' changes appended in one statement.
const MOST_BATCHED: usize = 256;

/// The most bytes of events a notice carries (PostgreSQL takes payloads under 8000 bytes).
const MOST_NOTICED: usize = 7000;

/// A game's start and its events in order (none for a game without events).
const LOAD: &str = "SELECT g.start, e.event FROM games g LEFT JOIN events e ON e.game = g.id WHERE g.id = $1
    ORDER BY e.seq";

/// Deletes a game (its events go with it) and tells the other processes.
const DELETE: &str = "WITH gone AS (DELETE FROM games WHERE id = $1 RETURNING id)
    SELECT pg_notify('kalah_events', id || ' -') FROM gone";

/// The address of a PostgreSQL database, `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`
/// (or `postgresql://`), with libpq's `sslmode` and `sslrootcert` for TLS ([`crate::tls`]);
/// shown without its password.
#[derive(Clone, PartialEq, Eq)]
pub struct Address {
    /// Boxed: a `Database` that is not PostgreSQL stays small.
    config: Box<Config>,
    /// Whether the connections are encrypted and what is checked of the server.
    tls: Box<Tls>,
}

impl Address {
    /// Tells whether `text` is meant as a PostgreSQL address rather than a file: it begins
    /// with `postgres:` or `postgresql:`.
    pub fn is_meant(text: &str) -> bool {
        let lower = text.to_ascii_lowercase();
        lower.starts_with("postgres:") || lower.starts_with("postgresql:")
    }

    /// Reads an address; a connection waits at most 10 seconds unless it says otherwise
    /// (`?connect_timeout=SECONDS`).
    pub fn parse(text: &str) -> Result<Address, StoreError> {
        let bad = |why: String| StoreError::Address(format!("{why}: write {FORM}"));
        if !(text.starts_with("postgres://") || text.starts_with("postgresql://")) {
            return Err(bad(format!("{:?} is not a PostgreSQL URL", hide_password(text))));
        }
        // tokio-postgres knows sslmode's first three words and not sslrootcert: both are read
        // here, the rest by tokio-postgres.
        let (rest, tls) = take_tls(text).map_err(bad)?;
        let mut config: Config =
            rest.parse().map_err(|e| bad(format!("cannot read {:?}: {}", hide_password(text), describe(&e))))?;
        config.ssl_mode(tls.negotiated());
        if config.get_hosts().is_empty() {
            return Err(bad(format!("{:?} names no host", hide_password(text))));
        }
        if config.get_user().is_none() {
            return Err(bad(format!("{:?} names no user", hide_password(text))));
        }
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(Duration::from_secs(10));
        }
        Ok(Address { config: Box::new(config), tls: Box::new(tls) })
    }
}

/// Takes `sslmode` and `sslrootcert` out of an address's query: returns the address without
/// them and the TLS settings they say.
fn take_tls(text: &str) -> Result<(String, Tls), String> {
    let Some((base, query)) = text.split_once('?') else { return Ok((text.to_string(), Tls::default())) };
    let mut tls = Tls::default();
    let mut kept = Vec::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let value = percent_encoding::percent_decode_str(value).decode_utf8_lossy();
        match key {
            "sslmode" => {
                tls.mode = SslMode::parse(&value).ok_or_else(|| {
                    let words: Vec<&str> = SslMode::WORDS.iter().map(|(w, _)| *w).collect();
                    format!("sslmode {value:?} is not one of {}", words.join(", "))
                })?;
            }
            "sslrootcert" => tls.root = Some(PathBuf::from(value.as_ref())),
            _ => kept.push(pair),
        }
    }
    let rest = if kept.is_empty() { base.to_string() } else { format!("{base}?{}", kept.join("&")) };
    Ok((rest, tls))
}

impl fmt::Display for Address {
    /// Writes `postgres://USER@HOST:PORT/DATABASE`, without the password.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let user = self.config.get_user().unwrap_or("");
        write!(f, "postgres://{user}@")?;
        for (i, host) in self.config.get_hosts().iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            match host {
                tokio_postgres::config::Host::Tcp(name) => f.write_str(name)?,
                #[cfg(unix)]
                tokio_postgres::config::Host::Unix(path) => write!(f, "{}", path.display())?,
            }
            if let Some(port) = self.config.get_ports().get(i).or(self.config.get_ports().first()) {
                write!(f, ":{port}")?;
            }
        }
        write!(f, "/{}", self.config.get_dbname().unwrap_or(user))?;
        if self.tls.mode != SslMode::Prefer {
            write!(f, "?sslmode={}", self.tls.mode)?;
        }
        Ok(())
    }
}

impl fmt::Debug for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Address({self})")
    }
}

/// Returns a URL with its password, if it has one, written `***`.
fn hide_password(text: &str) -> String {
    let Some((scheme, rest)) = text.split_once("://") else { return text.to_string() };
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    match rest[..authority_end].rfind('@') {
        Some(at) => match rest[..at].split_once(':') {
            Some((user, _)) => format!("{scheme}://{user}:***{}", &rest[at..]),
            None => text.to_string(),
        },
        None => text.to_string(),
    }
}

/// Returns an error's message with its causes (tokio-postgres's own says only "db error").
fn describe(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        text.push_str(": ");
        text.push_str(&c.to_string());
        cause = c.source();
    }
    text
}

/// Translates a failure: a change stored at a place taken is a [`StoreError::Conflict`], one
/// of a game that is not there [`StoreError::Gone`].
fn failed(id: &str, e: tokio_postgres::Error) -> StoreError {
    failed_with(id, e.code(), &describe(&e))
}

/// [`failed`] from a failure's code and message.
fn failed_with(id: &str, code: Option<&SqlState>, text: &str) -> StoreError {
    match code {
        Some(code) if *code == SqlState::UNIQUE_VIOLATION => StoreError::Conflict(id.to_string()),
        Some(code) if *code == SqlState::FOREIGN_KEY_VIOLATION => StoreError::Gone(id.to_string()),
        _ => StoreError::Postgres(text.to_string()),
    }
}

fn damaged(id: &str, why: impl ToString) -> StoreError {
    StoreError::Damaged { id: id.to_string(), why: why.to_string() }
}

/// What another process (or this one) stored, as the listening connection hears it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// Game `game` has `count` events now.
    Appended {
        /// The game's id.
        game: String,
        /// Its number of events.
        count: u64,
        /// The events stored, the last ones up to `count`, or none when they did not fit.
        events: Vec<Event>,
        /// The process that stored them (none from a kalah that did not say).
        from: Option<Process>,
    },
    /// Game `game` was deleted.
    Deleted {
        /// The game's id.
        game: String,
    },
    /// The listening connection was (re)made: notices may have been missed, every game held
    /// is to be compared with the database, and the other processes asked who is here.
    Missed,
    /// Process `from` tells who of some games is here through it now.
    Here {
        /// The process that tells.
        from: Process,
        /// Games and who of each (first player, second) is here through it.
        changes: Vec<Change>,
    },
    /// Process `from` (re)began listening and asks the others who is here through them.
    Asked {
        /// The process that asks.
        from: Process,
    },
    /// The lobby changed through another process: an event of its live channel
    /// ([`crate::lobby`]) and its JSON.
    Lobby {
        /// The event's name: `challenge`, `gone`, `paired` or `ended`.
        event: String,
        /// Its JSON.
        data: String,
    },
}

impl Notice {
    /// Reads a notice's payload, `ID COUNT PROCESS EVENTS` (EVENTS a JSON array, empty when
    /// they did not fit; an earlier kalah wrote no PROCESS) or `ID -`.
    fn parse(payload: &str) -> Option<Notice> {
        let (game, what) = payload.split_once(' ')?;
        let game = game.to_string();
        if what == "-" {
            return Some(Notice::Deleted { game });
        }
        let (count, rest) = what.split_once(' ').unwrap_or((what, ""));
        let count = count.parse().ok()?;
        let (from, events) = match rest.split_once(' ').unwrap_or((rest, "")) {
            (from, events) if !from.is_empty() && from.bytes().all(|b| b.is_ascii_digit()) => {
                (Some(from.parse().ok()?), events)
            }
            _ => (None, rest),
        };
        // Events that cannot be read are read from the database instead.
        let events = serde_json::from_str(events).unwrap_or_default();
        Some(Notice::Appended { game, count, events, from })
    }

    /// Reads a lobby notice's payload, `PROCESS EVENT JSON`; returns it with its process.
    fn parse_lobby(payload: &str) -> Option<(Process, Notice)> {
        let (from, rest) = payload.split_once(' ')?;
        let (event, data) = rest.split_once(' ')?;
        Some((from.parse().ok()?, Notice::Lobby { event: event.to_string(), data: data.to_string() }))
    }

    /// Reads a presence notice's payload, `PROCESS ?` (a question) or `PROCESS GAME BITS …`
    /// with BITS `1` or `0` for the first and the second player (e.g. `10`).
    fn parse_presence(payload: &str) -> Option<Notice> {
        let mut words = payload.split(' ');
        let from = words.next()?.parse().ok()?;
        let rest: Vec<&str> = words.collect();
        if rest == ["?"] {
            return Some(Notice::Asked { from });
        }
        if rest.len() % 2 != 0 {
            return None;
        }
        let changes = rest
            .chunks(2)
            .map(|pair| {
                let here = match pair[1] {
                    "00" => [false, false],
                    "10" => [true, false],
                    "01" => [false, true],
                    "11" => [true, true],
                    _ => return None,
                };
                Some((pair[0].to_string(), here))
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Notice::Here { from, changes })
    }
}

/// Writes presence payloads (each under [`MOST_NOTICED`] bytes) telling `changes` as process
/// `from`.
fn presence_payloads(from: Process, changes: &[Change]) -> Vec<String> {
    let mut payloads = Vec::new();
    let mut payload = String::new();
    for (game, [first, second]) in changes {
        if !payload.is_empty() && payload.len() + game.len() + 4 > MOST_NOTICED {
            payloads.push(std::mem::take(&mut payload));
        }
        if payload.is_empty() {
            payload = from.to_string();
        }
        payload.push_str(&format!(" {game} {}{}", u8::from(*first), u8::from(*second)));
    }
    if !payload.is_empty() {
        payloads.push(payload);
    }
    payloads
}

/// A connection with its statements prepared.
struct Connection {
    client: Client,
    append: Statement,
    load: Statement,
    delete: Statement,
}

/// What the store's tasks share: the address and the connections, each made when first needed
/// and made again when it was lost.
struct Shared {
    config: Config,
    /// Makes the TLS sessions, as the address's sslmode says.
    tls: MakeRustlsConnect,
    connections: Vec<tokio::sync::Mutex<Option<Connection>>>,
    /// The connection changes are appended on ([`append_waiting`]), apart from the others so
    /// that a statement appending never waits for another query.
    appending: tokio::sync::Mutex<Option<Connection>>,
    next: AtomicUsize,
    /// This process's name to the others: its listening connection's process id (0 until it
    /// listens).
    me: AtomicU32,
}

impl Shared {
    /// Returns a connection, made if need be; connections are taken in turn.
    async fn connection(&self) -> Result<tokio::sync::MappedMutexGuard<'_, Connection>, StoreError> {
        let i = self.next.fetch_add(1, Ordering::Relaxed) % self.connections.len();
        self.made(&self.connections[i]).await
    }

    /// Returns the connection in `slot`, made if there is none or it was lost.
    async fn made<'a>(
        &self,
        slot: &'a tokio::sync::Mutex<Option<Connection>>,
    ) -> Result<tokio::sync::MappedMutexGuard<'a, Connection>, StoreError> {
        let mut slot = slot.lock().await;
        if slot.as_ref().is_none_or(|c| c.client.is_closed()) {
            let client = connect(&self.config, &self.tls).await?;
            // The statements are few and run over and over with the same plan: planning each
            // run anew (PostgreSQL's choice for a prepared statement's first runs, and for any
            // whose generic plan it deems dearer) was a third of its CPU under load. A server
            // older than PostgreSQL 12 does not know the setting and plans as it does.
            let _ = client.batch_execute("SET plan_cache_mode = force_generic_plan").await;
            let prepare = |sql| client.prepare(sql);
            let (append, load, delete) = (prepare(APPEND).await, prepare(LOAD).await, prepare(DELETE).await);
            let fail = |e: tokio_postgres::Error| StoreError::Postgres(describe(&e));
            *slot = Some(Connection {
                append: append.map_err(fail)?,
                load: load.map_err(fail)?,
                delete: delete.map_err(fail)?,
                client,
            });
        }
        Ok(tokio::sync::MutexGuard::map(slot, |c| c.as_mut().expect("made above")))
    }
}

/// The failure of a call whose work the store's runtime dropped (it stopped).
fn stopped() -> StoreError {
    StoreError::Postgres("the database's runtime stopped".to_string())
}

/// Connects, driving the connection on the current runtime.
async fn connect(config: &Config, tls: &MakeRustlsConnect) -> Result<Client, StoreError> {
    let (client, connection) = config.connect(tls.clone()).await.map_err(|e| StoreError::Postgres(describe(&e)))?;
    // A connection that fails ends here; the client then reports it closed and is made again.
    tokio::spawn(connection);
    Ok(client)
}

/// The games' database in PostgreSQL.
pub struct Postgres {
    runtime: Option<Runtime>,
    shared: Arc<Shared>,
    notices: Mutex<Option<UnboundedReceiver<Notice>>>,
    /// The changes to store, to the task that appends them ([`append_waiting`]).
    appends: UnboundedSender<Append>,
}

/// A change of one game waiting to be stored, and where its outcome goes.
struct Append {
    game: String,
    /// The game's number of events before the change.
    seq: i64,
    /// The new events, a JSON array.
    events: String,
    /// Whether the notice carries the events (they fit in one).
    noticed: bool,
    /// When the game changed (milliseconds since 1970).
    updated: i64,
    finished: bool,
    result: String,
    outcome: oneshot::Sender<Result<(), StoreError>>,
}

/// Stores the changes sent to it: each statement appends all the changes waiting when the one
/// before it ended (at most [`MOST_BATCHED`]), so that under load many moves share a commit.
async fn append_waiting(shared: Arc<Shared>, mut waiting: UnboundedReceiver<Append>) {
    // A second change of a game already in the statement waits for the next one: one statement
    // marks each game once. (A process stores one change of a game at a time: a safeguard.)
    let mut held = None;
    loop {
        let first = match held.take() {
            Some(append) => append,
            None => match waiting.recv().await {
                Some(append) => append,
                None => return,
            },
        };
        let mut batch = vec![first];
        while batch.len() < MOST_BATCHED {
            match waiting.try_recv() {
                Ok(append) if batch.iter().any(|a: &Append| a.game == append.game) => {
                    held = Some(append);
                    break;
                }
                Ok(append) => batch.push(append),
                Err(_) => break,
            }
        }
        append_batch(&shared, batch).await;
    }
}

/// Appends the changes of `batch` and sends each its outcome. A statement the database refuses
/// (nothing of it is stored) is tried again a change at a time, so that only the change that
/// made it fail fails.
async fn append_batch(shared: &Shared, batch: Vec<Append>) {
    match append_together(shared, &batch).await {
        Ok(outcomes) => {
            for (append, outcome) in batch.into_iter().zip(outcomes) {
                let _ = append.outcome.send(outcome);
            }
        }
        Err(Ok(refused)) if batch.len() > 1 && refused.code().is_some() => {
            for append in batch {
                let outcome = match append_together(shared, std::slice::from_ref(&append)).await {
                    Ok(mut outcomes) => outcomes.pop().expect("one outcome a change"),
                    Err(Ok(e)) => Err(failed(&append.game, e)),
                    Err(Err(e)) => Err(e),
                };
                let _ = append.outcome.send(outcome);
            }
        }
        Err(failure) => {
            let (code, text) = match failure {
                Ok(e) => (e.code().cloned(), describe(&e)),
                Err(StoreError::Postgres(why)) => (None, why),
                Err(e) => (None, e.to_string()),
            };
            for append in batch {
                let _ = append.outcome.send(Err(failed_with(&append.game, code.as_ref(), &text)));
            }
        }
    }
}

/// Appends the changes of `batch` in one statement: returns each change's outcome, or the
/// statement's failure (`Ok`) or the connection's (`Err`).
async fn append_together(
    shared: &Shared,
    batch: &[Append],
) -> Result<Vec<Result<(), StoreError>>, Result<tokio_postgres::Error, StoreError>> {
    let c = shared.made(&shared.appending).await.map_err(Err)?;
    let games: Vec<&str> = batch.iter().map(|a| a.game.as_str()).collect();
    let seqs: Vec<i64> = batch.iter().map(|a| a.seq).collect();
    let events: Vec<&str> = batch.iter().map(|a| a.events.as_str()).collect();
    let noticed: Vec<bool> = batch.iter().map(|a| a.noticed).collect();
    let updated: Vec<i64> = batch.iter().map(|a| a.updated).collect();
    let finished: Vec<bool> = batch.iter().map(|a| a.finished).collect();
    let results: Vec<&str> = batch.iter().map(|a| a.result.as_str()).collect();
    let me = i64::from(shared.me.load(Ordering::Relaxed));
    let params: [&(dyn tokio_postgres::types::ToSql + Sync); 8] =
        [&games, &seqs, &events, &noticed, &updated, &finished, &results, &me];
    let rows = c.client.query(&c.append, &params).await.map_err(Ok)?;
    let answers: std::collections::HashMap<&str, (bool, bool)> =
        rows.iter().map(|row| (row.get::<_, &str>(0), (row.get(1), row.get(2)))).collect();
    Ok(batch
        .iter()
        .map(|append| match answers.get(append.game.as_str()) {
            Some((true, _)) => Ok(()),
            Some((false, true)) => Err(StoreError::Conflict(append.game.clone())),
            Some((false, false)) | None => Err(StoreError::Gone(append.game.clone())),
        })
        .collect())
}

impl Postgres {
    /// Connects to the database at `address`, makes or brings its schema up to date, and
    /// begins listening for the changes other processes store.
    pub fn open(address: &Address) -> Result<Postgres, StoreError> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("kalah-postgres")
            .enable_all()
            .build()
            .map_err(|e| StoreError::Postgres(format!("cannot start its runtime: {e}")))?;
        let shared = Arc::new(Shared {
            config: (*address.config).clone(),
            tls: address.tls.connector()?,
            connections: (0..CONNECTIONS).map(|_| tokio::sync::Mutex::new(None)).collect(),
            appending: tokio::sync::Mutex::new(None),
            next: AtomicUsize::new(0),
            me: AtomicU32::new(0),
        });
        let (sender, receiver) = unbounded_channel();
        let (appends, waiting) = unbounded_channel();
        runtime.spawn(append_waiting(Arc::clone(&shared), waiting));
        let store = Postgres { runtime: Some(runtime), shared, notices: Mutex::new(Some(receiver)), appends };
        let (config, tls, name) = ((*address.config).clone(), store.shared.tls.clone(), address.to_string());
        store.block(async move {
            migrate(&config, &tls, name.clone()).await?;
            probe(&config, &tls, name).await
        })?;
        // Listening begins before the first request is served: no change is missed.
        let (ready, listening) = std::sync::mpsc::sync_channel(1);
        store.handle().spawn(listen(Arc::clone(&store.shared), sender, ready));
        match listening.recv() {
            Ok(Ok(())) => Ok(store),
            Ok(Err(e)) => Err(e),
            Err(_) => Err(StoreError::Postgres("the listening connection ended".to_string())),
        }
    }

    fn handle(&self) -> &Handle {
        self.runtime.as_ref().expect("the runtime lives as long as the store").handle()
    }

    /// Runs `future` on the store's runtime and waits for it, blocking the thread (for
    /// [`Postgres::open`], which is not asynchronous).
    fn block<T: Send + 'static>(
        &self,
        future: impl Future<Output = Result<T, StoreError>> + Send + 'static,
    ) -> Result<T, StoreError> {
        let (sender, receiver) = std::sync::mpsc::sync_channel(1);
        self.handle().spawn(async move {
            let _ = sender.send(future.await);
        });
        receiver.recv().unwrap_or_else(|_| Err(stopped()))
    }

    /// Runs `future` on the store's runtime; the caller's task awaits its outcome. The future
    /// runs to its end even if the caller goes meanwhile.
    async fn run<T: Send + 'static>(
        &self,
        future: impl Future<Output = Result<T, StoreError>> + Send + 'static,
    ) -> Result<T, StoreError> {
        let (sender, receiver) = oneshot::channel();
        self.handle().spawn(async move {
            let _ = sender.send(future.await);
        });
        receiver.await.unwrap_or_else(|_| Err(stopped()))
    }

    /// Returns the notices of changes stored (by any process), once: the caller follows them.
    pub fn notices(&self) -> Option<UnboundedReceiver<Notice>> {
        self.notices.lock().unwrap_or_else(|e| e.into_inner()).take()
    }

    /// Stores a new game `id`.
    pub async fn create(&self, id: &str, start: &Start) -> Result<(), StoreError> {
        let text = serde_json::to_string(start).map_err(|e| damaged(id, e))?;
        let (id, at, shared) = (id.to_string(), start.at.0 as i64, Arc::clone(&self.shared));
        self.run(async move {
            let c = shared.connection().await?;
            let sql = "INSERT INTO games (id, start, created, updated) VALUES ($1, $2, $3, $3)";
            c.client.execute(sql, &[&id, &text, &at]).await.map_err(|e| failed(&id, e))?;
            Ok(())
        })
        .await
    }

    /// Appends `events` to game `id` after its first `seq` events, marks the game finished or
    /// not and tells the other processes, in one transaction (with the changes of other games
    /// waiting at the same time).
    pub async fn append(&self, id: &str, seq: u64, events: &[Event], finished: Option<&str>) -> Result<(), StoreError> {
        let texts = events
            .iter()
            .map(|event| serde_json::to_string(event).map_err(|e| damaged(id, e)))
            .collect::<Result<Vec<_>, _>>()?;
        let events_text = format!("[{}]", texts.join(","));
        let (outcome, receiver) = oneshot::channel();
        let append = Append {
            game: id.to_string(),
            seq: seq as i64,
            noticed: events_text.len() <= MOST_NOTICED,
            events: events_text,
            updated: events.last().map_or_else(Moment::now, |e| e.at).0 as i64,
            finished: finished.is_some(),
            result: finished.unwrap_or("").to_string(),
            outcome,
        };
        self.appends.send(append).map_err(|_| stopped())?;
        receiver.await.unwrap_or_else(|_| Err(stopped()))
    }

    /// Returns the start and the events of game `id`, or `None` if there is none.
    pub async fn load(&self, id: &str) -> Result<Option<(Start, Vec<Event>)>, StoreError> {
        let (id, shared) = (id.to_string(), Arc::clone(&self.shared));
        self.run(async move {
            let c = shared.connection().await?;
            let rows = c.client.query(&c.load, &[&id]).await.map_err(|e| failed(&id, e))?;
            let Some(first) = rows.first() else { return Ok(None) };
            let start: Start = serde_json::from_str(first.get::<_, &str>(0)).map_err(|e| damaged(&id, e))?;
            let mut events = Vec::with_capacity(rows.len());
            for row in &rows {
                if let Some(text) = row.get::<_, Option<&str>>(1) {
                    events.push(serde_json::from_str(text).map_err(|e| damaged(&id, e))?);
                }
            }
            Ok(Some((start, events)))
        })
        .await
    }

    /// Deletes game `id` and its events, and tells the other processes; returns whether there
    /// was one.
    pub async fn delete(&self, id: &str) -> Result<bool, StoreError> {
        let (id, shared) = (id.to_string(), Arc::clone(&self.shared));
        self.run(async move {
            let c = shared.connection().await?;
            Ok(!c.client.query(&c.delete, &[&id]).await.map_err(|e| failed(&id, e))?.is_empty())
        })
        .await
    }

    /// Returns the finished games, the last finished first, at most `limit`.
    pub async fn archive(&self, limit: usize) -> Result<Vec<Archived>, StoreError> {
        let shared = Arc::clone(&self.shared);
        self.run(async move {
            let c = shared.connection().await?;
            let sql = "SELECT id, start, result, created, updated FROM games WHERE finished
                ORDER BY updated DESC LIMIT $1";
            let rows = c.client.query(sql, &[&(limit as i64)]).await.map_err(|e| failed("", e))?;
            rows.iter()
                .map(|row| {
                    let id: String = row.get(0);
                    let start: Start = serde_json::from_str(row.get::<_, &str>(1)).map_err(|e| damaged(&id, e))?;
                    Ok(Archived {
                        rules: start.rules,
                        seats: start.seats,
                        result: row.get(2),
                        started: Moment(row.get::<_, i64>(3) as u64),
                        ended: Moment(row.get::<_, i64>(4) as u64),
                        id,
                    })
                })
                .collect()
        })
        .await
    }
}

impl Postgres {
    /// Runs the query `sql` with `params` ([`crate::sql`]); returns its rows.
    pub async fn rows(&self, sql: &'static str, params: Vec<Value>) -> Result<Vec<Vec<Value>>, StoreError> {
        let shared = Arc::clone(&self.shared);
        self.run(async move {
            let c = shared.connection().await?;
            let rows = c.client.query(sql, &sql::bound(&params)).await.map_err(|e| failed("", e))?;
            Ok(rows.iter().map(sql::values).collect())
        })
        .await
    }

    /// Runs `statements` in one transaction ([`crate::sql`]); commits and returns `true` if each
    /// changed the rows it must, else rolls back and returns `false`.
    pub async fn write(&self, statements: Vec<sql::Statement>) -> Result<bool, StoreError> {
        let shared = Arc::clone(&self.shared);
        self.run(async move {
            let mut c = shared.connection().await?;
            let transaction = c.client.transaction().await.map_err(|e| failed("", e))?;
            for statement in &statements {
                let changed = transaction
                    .execute(statement.sql, &sql::bound(&statement.params))
                    .await
                    .map_err(|e| failed("", e))?;
                if statement.changes.is_some_and(|n| n != changed) {
                    // Dropped uncommitted: rolled back.
                    return Ok(false);
                }
            }
            transaction.commit().await.map_err(|e| failed("", e))?;
            Ok(true)
        })
        .await
    }

    /// Tells the other processes of a change of the lobby: an event of its live channel and
    /// its JSON (under PostgreSQL's 8000 bytes: a challenge, a pairing, an end).
    pub async fn tell_lobby(&self, event: &str, data: &str) -> Result<(), StoreError> {
        let payload = format!("{} {event} {data}", self.shared.me.load(Ordering::Relaxed));
        let shared = Arc::clone(&self.shared);
        self.run(async move {
            let c = shared.connection().await?;
            c.client.execute("SELECT pg_notify($1, $2)", &[&LOBBY, &payload]).await.map_err(|e| failed("", e))?;
            Ok(())
        })
        .await
    }

    /// Tells the other processes who of these games is here through this one now (in order:
    /// a call returns once its notices are sent).
    pub async fn tell(&self, changes: &[Change]) -> Result<(), StoreError> {
        let me = self.shared.me.load(Ordering::Relaxed);
        self.notify(presence_payloads(me, changes)).await
    }

    /// Asks the other processes who is here through them; each answers with a [`Notice::Here`].
    pub async fn ask(&self) -> Result<(), StoreError> {
        let me = self.shared.me.load(Ordering::Relaxed);
        self.notify(vec![format!("{me} ?")]).await
    }

    /// Sends presence notices, one after the other on one connection.
    async fn notify(&self, payloads: Vec<String>) -> Result<(), StoreError> {
        if payloads.is_empty() {
            return Ok(());
        }
        let shared = Arc::clone(&self.shared);
        self.run(async move {
            let c = shared.connection().await?;
            for payload in &payloads {
                c.client.execute("SELECT pg_notify($1, $2)", &[&PRESENCE, payload]).await.map_err(|e| failed("", e))?;
            }
            Ok(())
        })
        .await
    }

    /// Returns those of `processes` that still listen: a process killed has lost its connection,
    /// and PostgreSQL ends that connection's process at once.
    pub async fn alive(&self, processes: &[Process]) -> Result<Vec<Process>, StoreError> {
        let ids: Vec<i32> = processes.iter().filter_map(|&p| i32::try_from(p).ok()).collect();
        let shared = Arc::clone(&self.shared);
        self.run(async move {
            let c = shared.connection().await?;
            let sql = "SELECT pid FROM pg_stat_activity WHERE pid = ANY($1)";
            let rows = c.client.query(sql, &[&ids]).await.map_err(|e| failed("", e))?;
            Ok(rows.iter().map(|row| row.get::<_, i32>(0) as Process).collect())
        })
        .await
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        // The store may be dropped inside the server's runtime, where a runtime cannot wait
        // for its tasks: they are left to end with the process.
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// Brings the schema up to date, under a lock that lets one process at a time do it.
async fn migrate(config: &Config, tls: &MakeRustlsConnect, name: String) -> Result<(), StoreError> {
    let fail = |e: tokio_postgres::Error| refused(&name, e);
    let mut client = connect(config, tls).await?;
    let transaction = client.transaction().await.map_err(fail)?;
    // Any number, the same in every kalah: processes starting together migrate one by one.
    transaction.execute("SELECT pg_advisory_xact_lock(5265442)", &[]).await.map_err(fail)?;
    transaction
        .batch_execute("CREATE TABLE IF NOT EXISTS kalah_schema (version INTEGER NOT NULL)")
        .await
        .map_err(fail)?;
    let version = match transaction.query_opt("SELECT version FROM kalah_schema", &[]).await.map_err(fail)? {
        Some(row) => row.get::<_, i32>(0) as i64,
        None => {
            transaction.execute("INSERT INTO kalah_schema (version) VALUES (0)", &[]).await.map_err(fail)?;
            0
        }
    };
    let known = MIGRATIONS.len() as i64;
    if version > known {
        return Err(StoreError::Newer(name, version, known));
    }
    for (i, step) in MIGRATIONS.iter().enumerate().skip(version as usize) {
        transaction.batch_execute(step).await.map_err(fail)?;
        transaction.execute("UPDATE kalah_schema SET version = $1", &[&(i as i32 + 1)]).await.map_err(fail)?;
    }
    transaction.commit().await.map_err(fail)
}

/// Refuses a database this user may read but not write (no INSERT, UPDATE or DELETE on the
/// tables, a read-only replica, `default_transaction_read_only`), at the start rather than at the
/// first move: a game and an event are written, changed and deleted in a transaction rolled back.
async fn probe(config: &Config, tls: &MakeRustlsConnect, name: String) -> Result<(), StoreError> {
    let mut client = connect(config, tls).await?;
    let transaction = client.transaction().await.map_err(|e| StoreError::Postgres(describe(&e)))?;
    // An id no game has (ids are letters and digits): nothing else can take it meanwhile.
    transaction
        .batch_execute(
            "INSERT INTO games (id, start, created, updated) VALUES ('kalah write probe', '{}', 0, 0);
            INSERT INTO events (game, seq, event) VALUES ('kalah write probe', 1, '{}');
            UPDATE games SET stored = 1 WHERE id = 'kalah write probe';
            DELETE FROM games WHERE id = 'kalah write probe';",
        )
        .await
        .map_err(|e| match refused(&name, e) {
            // Whatever fails a write this user is to make refuses the database.
            StoreError::Postgres(why) => StoreError::Unwritable { database: name.clone(), why },
            e => e,
        })?;
    transaction.rollback().await.map_err(|e| StoreError::Postgres(describe(&e)))
}

/// Reads a failure of the start: one that says this user may not write (no privilege, a read-only
/// transaction or server) is [`StoreError::Unwritable`].
fn refused(name: &str, error: tokio_postgres::Error) -> StoreError {
    use tokio_postgres::error::SqlState;
    match error.code() {
        Some(code) if [SqlState::INSUFFICIENT_PRIVILEGE, SqlState::READ_ONLY_SQL_TRANSACTION].contains(code) => {
            StoreError::Unwritable { database: name.to_string(), why: describe(&error) }
        }
        _ => StoreError::Postgres(describe(&error)),
    }
}

/// Listens for the notices of changes stored and passes them on; a lost connection is made
/// again (after a second, then every second) and [`Notice::Missed`] passed on. The first
/// connection's outcome goes to `ready`.
async fn listen(
    shared: Arc<Shared>,
    notices: UnboundedSender<Notice>,
    ready: std::sync::mpsc::SyncSender<Result<(), StoreError>>,
) {
    let mut ready = Some(ready);
    loop {
        let heard = listen_once(&shared, &notices, &mut ready).await;
        if let (Err(e), Some(ready)) = (heard, ready.take()) {
            let _ = ready.send(Err(e));
            return;
        }
        if notices.is_closed() {
            return;
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

/// Listens on one connection until it ends.
async fn listen_once(
    shared: &Shared,
    notices: &UnboundedSender<Notice>,
    ready: &mut Option<std::sync::mpsc::SyncSender<Result<(), StoreError>>>,
) -> Result<(), StoreError> {
    let fail = |e: tokio_postgres::Error| StoreError::Postgres(describe(&e));
    let (client, mut connection) = shared.config.connect(shared.tls.clone()).await.map_err(fail)?;
    let (heard, mut hearing) = unbounded_channel();
    let mut messages = futures_util::stream::poll_fn(move |cx| connection.poll_message(cx));
    let driving = tokio::spawn(async move {
        while let Some(Ok(message)) = messages.next().await {
            if let AsyncMessage::Notification(notification) = message {
                let heard_one = (notification.channel().to_string(), notification.payload().to_string());
                if heard.send(heard_one).is_err() {
                    break;
                }
            }
        }
    });
    client.batch_execute(&format!("LISTEN {CHANNEL}; LISTEN {PRESENCE}; LISTEN {LOBBY}")).await.map_err(fail)?;
    let me = client.query_one("SELECT pg_backend_pid()", &[]).await.map_err(fail)?.get::<_, i32>(0) as Process;
    shared.me.store(me, Ordering::Relaxed);
    if let Some(ready) = ready.take() {
        let _ = ready.send(Ok(()));
    }
    let _ = notices.send(Notice::Missed);
    while let Some((channel, payload)) = hearing.recv().await {
        if channel == LOBBY {
            let heard = Notice::parse_lobby(&payload).filter(|(from, _)| *from != me);
            if let Some((_, notice)) = heard {
                if notices.send(notice).is_err() {
                    break;
                }
            }
            continue;
        }
        let notice = if channel == PRESENCE { Notice::parse_presence(&payload) } else { Notice::parse(&payload) };
        // This process hears its own notices too; they tell it nothing (its games have the
        // changes it stored). Passing its stored changes by here also keeps the games from
        // being locked for them while the request that stored them still holds the lock.
        let own = matches!(notice, Some(Notice::Here { from, .. } | Notice::Asked { from }) if from == me)
            || matches!(notice, Some(Notice::Appended { from: Some(from), .. }) if from == me);
        if let Some(notice) = notice.filter(|_| !own) {
            if notices.send(notice).is_err() {
                break;
            }
        }
    }
    driving.abort();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_read_and_shown_without_their_password() {
        assert!(Address::is_meant("postgres://a@b/c") && Address::is_meant("PostgreSQL:x"));
        assert!(!Address::is_meant("games.sqlite") && !Address::is_meant("./postgres://x"));
        let address = Address::parse("postgres://kalah:secret@127.0.0.1:5433/games").unwrap();
        assert_eq!(address.to_string(), "postgres://kalah@127.0.0.1:5433/games");
        assert_eq!(
            Address::parse("postgresql://kalah@db.example/kalah").unwrap().to_string(),
            "postgres://kalah@db.example:5432/kalah"
        );
        for (bad, why) in [
            ("postgres:games", "is not a PostgreSQL URL"),
            ("postgres://kalah:secret@host:port/db", "cannot read"),
            ("postgres:///db", "names no host"),
            ("postgres://host/db", "names no user"),
            ("postgres://kalah:secret@host/db?sslmode=verify", "sslmode \"verify\" is not one of disable, prefer"),
        ] {
            let message = Address::parse(bad).unwrap_err().to_string();
            assert!(message.contains(why) && message.contains(FORM), "{bad}: {message}");
            assert!(!message.contains("secret"), "{message}");
        }
    }

    #[test]
    fn tls_settings_are_read_from_the_query_as_libpq_reads_them() {
        let address = Address::parse(
            "postgres://kalah@db.example/games?sslmode=verify-full&sslrootcert=%2Fetc%2Fca.pem&connect_timeout=3",
        )
        .unwrap();
        assert_eq!(address.to_string(), "postgres://kalah@db.example:5432/games?sslmode=verify-full");
        assert_eq!(*address.tls, Tls { mode: SslMode::VerifyFull, root: Some(PathBuf::from("/etc/ca.pem")) });
        assert_eq!(address.config.get_ssl_mode(), tokio_postgres::config::SslMode::Require);
        assert_eq!(address.config.get_connect_timeout(), Some(&Duration::from_secs(3)));
        let plain = Address::parse("postgres://kalah@db.example/games").unwrap();
        assert_eq!(*plain.tls, Tls::default());
        assert_eq!(plain.config.get_ssl_mode(), tokio_postgres::config::SslMode::Prefer);
        let off = Address::parse("postgres://kalah@db.example/games?sslmode=disable").unwrap();
        assert_eq!(off.config.get_ssl_mode(), tokio_postgres::config::SslMode::Disable);
        assert_eq!(off.to_string(), "postgres://kalah@db.example:5432/games?sslmode=disable");
    }

    #[test]
    fn notices_are_read() {
        let appended = |events, from| Some(Notice::Appended { game: "ab".into(), count: 12, events, from });
        assert_eq!(Notice::parse("ab 12 7"), appended(vec![], Some(7)));
        assert_eq!(Notice::parse("ab 12 7 "), appended(vec![], Some(7)));
        let event = r#"{"version":12,"at":5,"change":{"kind":"act","action":"3"}}"#;
        let read: Event = serde_json::from_str(event).unwrap();
        assert_eq!(Notice::parse(&format!("ab 12 7 [{event}]")), appended(vec![read.clone()], Some(7)));
        // As an earlier kalah wrote them, without the process.
        assert_eq!(Notice::parse("ab 12"), appended(vec![], None));
        assert_eq!(Notice::parse("ab 12 "), appended(vec![], None));
        assert_eq!(Notice::parse(&format!("ab 12 [{event}]")), appended(vec![read], None));
        assert_eq!(Notice::parse("ab -"), Some(Notice::Deleted { game: "ab".into() }));
        assert_eq!(Notice::parse("ab"), None);
        assert_eq!(Notice::parse("ab x"), None);
    }

    #[test]
    fn presence_notices_are_written_and_read() {
        let changes: Vec<Change> = vec![("ab".into(), [true, false]), ("cd".into(), [false, false])];
        let payloads = presence_payloads(42, &changes);
        assert_eq!(payloads, ["42 ab 10 cd 00"]);
        assert_eq!(Notice::parse_presence(&payloads[0]), Some(Notice::Here { from: 42, changes }));
        assert_eq!(Notice::parse_presence("42 ?"), Some(Notice::Asked { from: 42 }));
        for bad in ["", "x ?", "42 ab", "42 ab 12", "42 ab 10 cd"] {
            assert_eq!(Notice::parse_presence(bad), None, "{bad:?}");
        }
        // Many games go in several notices, each small enough for PostgreSQL.
        let many: Vec<Change> = (0..1000).map(|i| (format!("{i:016x}"), [true, true])).collect();
        let payloads = presence_payloads(7, &many);
        assert!(payloads.len() > 1 && payloads.iter().all(|p| p.len() <= MOST_NOTICED));
        let read: Vec<Change> = payloads
            .iter()
            .flat_map(|p| match Notice::parse_presence(p) {
                Some(Notice::Here { from: 7, changes }) => changes,
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(read, many);
    }
}
