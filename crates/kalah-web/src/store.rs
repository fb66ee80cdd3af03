//! Where games are kept: every game's start and every change ([`Event`]) is written before the
//! server answers the request that made it, so that a game survives the server's end (even
//! `kill -9`) and is rebuilt by replaying its events.
//!
//! The database is SQLite ([`rusqlite`], in WAL mode: a write is safe from a killed process as
//! soon as it returns), a file by default or in memory for tests and load runs. The schema is
//! made and brought up to date by the program ([`MIGRATIONS`], counted in `PRAGMA user_version`).
//! Several processes share their games in PostgreSQL instead ([`crate::postgres`]).

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;
use thiserror::Error;

use crate::event::{Event, Moment};
use crate::holder::{self, Holder};
use crate::postgres::{self, Notice, Postgres};

/// Where a server keeps its games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Database {
    /// In memory: the games end with the process (tests, load runs).
    Memory,
    /// An SQLite file, made if it does not exist.
    Sqlite(PathBuf),
    /// A PostgreSQL database, shared by several servers.
    Postgres(postgres::Address),
}

impl Database {
    /// Reads a `--db` value: a PostgreSQL address (`postgres://…` or `postgresql://…`) or else an
    /// SQLite file.
    pub fn parse(text: &std::ffi::OsStr) -> Result<Database, StoreError> {
        match text.to_str() {
            Some(url) if postgres::Address::is_meant(url) => postgres::Address::parse(url).map(Database::Postgres),
            _ => Ok(Database::Sqlite(PathBuf::from(text))),
        }
    }
}

impl std::fmt::Display for Database {
    /// Writes where the games are: `in memory`, the file, or the address without its password.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Database::Memory => f.write_str("memory"),
            Database::Sqlite(path) => write!(f, "{}", path.display()),
            Database::Postgres(address) => write!(f, "{address}"),
        }
    }
}

/// A storage failure.
#[derive(Debug, Error)]
pub enum StoreError {
    /// SQLite refused or failed.
    #[error("the game database failed: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// A stored game that cannot be read back.
    #[error("the stored game {id} cannot be read: {why}")]
    Damaged {
        /// The game's id.
        id: String,
        /// What is wrong.
        why: String,
    },
    /// PostgreSQL refused or failed (the message with its causes).
    #[error("the game database failed: {0}")]
    Postgres(String),
    /// A `--db` address that cannot be read.
    #[error("{0}")]
    Address(String),
    /// Another server stored a change of game `0` at the place this change was to take.
    #[error("the game {0} changed through another server meanwhile")]
    Conflict(String),
    /// The game `0` is not in the database any more.
    #[error("the game {0} was deleted")]
    Gone(String),
    /// A database made by a newer kalah.
    #[error("the game database {0} was made by a newer kalah (schema {1}, this one knows up to {2}): use that kalah or another --db")]
    Newer(String, i64, i64),
    /// Another server holds the SQLite file ([`crate::holder`]).
    #[error(
        "the game database {} is held by another kalah serve ({}): one server at a time on an SQLite file; stop that one, give another --db, or share a PostgreSQL database between servers",
        database.display(),
        match holder { Some(holder) => holder.to_string(), None => "it has not written itself down yet".to_string() }
    )]
    Held {
        /// The SQLite file.
        database: PathBuf,
        /// Who holds it, if it wrote itself down yet.
        holder: Option<Box<Holder>>,
    },
    /// The database can be read but not written by this process.
    #[error("the game database {database} cannot be written: {why}; give a database this user may write (an SQLite file in a folder it may write, or a PostgreSQL user with INSERT, UPDATE and DELETE on its tables)")]
    Unwritable {
        /// The SQLite file or the PostgreSQL address.
        database: String,
        /// What failed.
        why: String,
    },
    /// The lock file beside an SQLite file cannot be locked (a file system without locks).
    #[error("the lock file {} cannot be locked: {why}; give a --db on a local file system", file.display())]
    Lock {
        /// The lock file.
        file: PathBuf,
        /// What failed.
        why: String,
    },
}

pub use kalah_table::Start;

/// A finished game as the archive lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Archived {
    /// The game's id.
    pub id: String,
    /// The rules' text.
    pub rules: String,
    /// The first and the second player's seats.
    pub seats: [String; 2],
    /// One line: the result.
    pub result: String,
    /// When it began and when it last changed (milliseconds since 1970).
    pub started: Moment,
    /// When it last changed.
    pub ended: Moment,
}

/// The schema, one step a version: step i brings `user_version` from i to i + 1.
pub const MIGRATIONS: &[&str] = &[
    "CREATE TABLE games (
        id TEXT PRIMARY KEY,
        start TEXT NOT NULL,
        created INTEGER NOT NULL,
        updated INTEGER NOT NULL,
        finished INTEGER NOT NULL DEFAULT 0,
        result TEXT NOT NULL DEFAULT ''
    );
    CREATE TABLE events (
        game TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        event TEXT NOT NULL,
        PRIMARY KEY (game, seq)
    );
    CREATE INDEX games_finished ON games (finished, updated);",
    // Who holds the file (crate::holder): one row, written by the server that holds the lock.
    "CREATE TABLE holder (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        pid INTEGER NOT NULL,
        address TEXT,
        since INTEGER NOT NULL
    );",
    // The lobby's players, ratings and paired games (crate::players), as in PostgreSQL.
    crate::players::SCHEMA,
];

/// The games' database.
pub struct Store {
    backend: Backend,
    /// The lock of an SQLite file ([`crate::holder`]), held while the store lives. Declared after
    /// `backend` so that it is released after the connection is closed.
    lock: Option<std::fs::File>,
}

/// The database a store keeps its games in.
enum Backend {
    Sqlite(Mutex<Connection>),
    Postgres(Postgres),
}

impl Store {
    /// Opens (making it, and its schema, if needed) the database.
    pub fn open(database: &Database) -> Result<Store, StoreError> {
        let (connection, lock) = match database {
            Database::Memory => (Connection::open_in_memory()?, None),
            Database::Sqlite(path) => {
                // Locked first: a second server does not even open the file, let alone migrate it.
                let lock = holder::lock(path)?;
                (Connection::open(path).map_err(|e| unwritable(path, e))?, Some(lock))
            }
            Database::Postgres(address) => {
                return Ok(Store { backend: Backend::Postgres(Postgres::open(address)?), lock: None })
            }
        };
        connection.busy_timeout(std::time::Duration::from_secs(5))?;
        if let Database::Sqlite(path) = database {
            let sqlite = |e| unwritable(path, e);
            // WAL: a write is in the log when it returns, safe from a killed process; NORMAL
            // syncs at checkpoints, so only a machine's crash could lose the last writes.
            connection.pragma_update(None, "journal_mode", "WAL").map_err(sqlite)?;
            connection.pragma_update(None, "synchronous", "NORMAL").map_err(sqlite)?;
            connection.pragma_update(None, "foreign_keys", "ON")?;
            migrate(&connection, &name(database)).map_err(|e| match e {
                StoreError::Sqlite(e) => unwritable(path, e),
                e => e,
            })?;
            // SQLite opens a file it may not write read-only, without a word; its first write
            // would fail only at the first move.
            if connection.is_readonly(rusqlite::MAIN_DB)? {
                return Err(StoreError::Unwritable {
                    database: path.display().to_string(),
                    why: "the file is read-only to this user".to_string(),
                });
            }
            holder::record(&connection).map_err(sqlite)?;
        } else {
            connection.pragma_update(None, "foreign_keys", "ON")?;
            migrate(&connection, &name(database))?;
        }
        Ok(Store { backend: Backend::Sqlite(Mutex::new(connection)), lock })
    }

    /// Writes down the address this server listens on, for a second server on the same SQLite
    /// file to name ([`crate::holder`]); nothing for a database in memory or PostgreSQL.
    pub fn serving(&self, address: &str) -> Result<(), StoreError> {
        match (&self.backend, &self.lock) {
            (Backend::Sqlite(connection), Some(_)) => Ok(holder::serving(&locked(connection), address)?),
            _ => Ok(()),
        }
    }

    /// Returns the notices of the changes stored by every process sharing the database, once
    /// (PostgreSQL only: with SQLite this process is the only one).
    pub fn notices(&self) -> Option<tokio::sync::mpsc::UnboundedReceiver<Notice>> {
        self.shared().and_then(Postgres::notices)
    }

    /// Tells whether other processes share the database (PostgreSQL).
    pub fn is_shared(&self) -> bool {
        self.shared().is_some()
    }

    /// Returns the SQLite connection, if the database is SQLite's.
    pub(crate) fn sqlite(&self) -> Option<&Mutex<Connection>> {
        match &self.backend {
            Backend::Sqlite(connection) => Some(connection),
            Backend::Postgres(_) => None,
        }
    }

    /// Returns the database other processes share, if it is shared (PostgreSQL).
    pub fn shared(&self) -> Option<&Postgres> {
        match &self.backend {
            Backend::Sqlite(_) => None,
            Backend::Postgres(postgres) => Some(postgres),
        }
    }

    /// Stores a new game `id`.
    pub async fn create(&self, id: &str, start: &Start) -> Result<(), StoreError> {
        let connection = match &self.backend {
            Backend::Sqlite(connection) => locked(connection),
            Backend::Postgres(postgres) => return postgres.create(id, start).await,
        };
        let text = serde_json::to_string(start).map_err(|e| damaged(id, e))?;
        let at = start.at.0 as i64;
        connection.execute(
            "INSERT INTO games (id, start, created, updated) VALUES (?1, ?2, ?3, ?3)",
            params![id, text, at],
        )?;
        Ok(())
    }

    /// Appends `events` to game `id` after its first `seq` events, and marks the game finished
    /// (with its result line) or not, in one transaction.
    pub async fn append(&self, id: &str, seq: u64, events: &[Event], finished: Option<&str>) -> Result<(), StoreError> {
        let mut connection = match &self.backend {
            Backend::Sqlite(connection) => locked(connection),
            Backend::Postgres(postgres) => return postgres.append(id, seq, events, finished).await,
        };
        let transaction = connection.transaction()?;
        let mut at = None;
        for (i, event) in events.iter().enumerate() {
            let text = serde_json::to_string(event).map_err(|e| damaged(id, e))?;
            // Prepared once a connection (rusqlite's cache): preparing it for every move took
            // about a tenth of the server's samples under the load example (perf).
            transaction
                .prepare_cached("INSERT INTO events (game, seq, event) VALUES (?1, ?2, ?3)")?
                .execute(params![id, (seq + i as u64 + 1) as i64, text])?;
            at = Some(event.at);
        }
        let updated = at.unwrap_or_else(Moment::now).0 as i64;
        transaction
            .prepare_cached("UPDATE games SET updated = ?2, finished = ?3, result = ?4 WHERE id = ?1")?
            .execute(params![id, updated, finished.is_some(), finished.unwrap_or("")])?;
        transaction.commit()?;
        Ok(())
    }

    /// Returns the start and the events of game `id`, or `None` if there is none.
    pub async fn load(&self, id: &str) -> Result<Option<(Start, Vec<Event>)>, StoreError> {
        let connection = match &self.backend {
            Backend::Sqlite(connection) => locked(connection),
            Backend::Postgres(postgres) => return postgres.load(id).await,
        };
        let start: Option<String> =
            connection.query_row("SELECT start FROM games WHERE id = ?1", [id], |row| row.get(0)).optional()?;
        let Some(start) = start else { return Ok(None) };
        let start: Start = serde_json::from_str(&start).map_err(|e| damaged(id, e))?;
        let mut statement = connection.prepare("SELECT event FROM events WHERE game = ?1 ORDER BY seq")?;
        let rows = statement.query_map([id], |row| row.get::<_, String>(0))?;
        let mut events = Vec::new();
        for row in rows {
            events.push(serde_json::from_str(&row?).map_err(|e| damaged(id, e))?);
        }
        Ok(Some((start, events)))
    }

    /// Deletes game `id` and its events; returns whether there was one.
    pub async fn delete(&self, id: &str) -> Result<bool, StoreError> {
        let connection = match &self.backend {
            Backend::Sqlite(connection) => locked(connection),
            Backend::Postgres(postgres) => return postgres.delete(id).await,
        };
        Ok(connection.execute("DELETE FROM games WHERE id = ?1", [id])? > 0)
    }

    /// Returns the finished games, the last finished first, at most `limit`.
    pub async fn archive(&self, limit: usize) -> Result<Vec<Archived>, StoreError> {
        let connection = match &self.backend {
            Backend::Sqlite(connection) => locked(connection),
            Backend::Postgres(postgres) => return postgres.archive(limit).await,
        };
        let mut statement = connection.prepare(
            "SELECT id, start, result, created, updated FROM games WHERE finished = 1 ORDER BY updated DESC LIMIT ?1",
        )?;
        let rows = statement.query_map([limit as i64], |row| {
            Ok((
                row.get::<_, String>(0)?,
                row.get::<_, String>(1)?,
                row.get::<_, String>(2)?,
                row.get::<_, i64>(3)?,
                row.get::<_, i64>(4)?,
            ))
        })?;
        let mut games = Vec::new();
        for row in rows {
            let (id, start, result, created, updated) = row?;
            let start: Start = serde_json::from_str(&start).map_err(|e| damaged(&id, e))?;
            games.push(Archived {
                id,
                rules: start.rules,
                seats: start.seats,
                result,
                started: Moment(created as u64),
                ended: Moment(updated as u64),
            });
        }
        Ok(games)
    }
}

/// Locks the SQLite connection. A call runs to its end or its transaction is rolled back, so a
/// poisoned lock is still good; a call holds it without awaiting anything (SQLite's calls are
/// synchronous and short).
pub(crate) fn locked(connection: &Mutex<Connection>) -> MutexGuard<'_, Connection> {
    connection.lock().unwrap_or_else(|e| e.into_inner())
}

/// Reads an SQLite failure while opening `path`: one that says the file or its folder may not be
/// written (read-only, cannot be opened or made, permission denied) is [`StoreError::Unwritable`].
fn unwritable(path: &Path, error: rusqlite::Error) -> StoreError {
    use rusqlite::ErrorCode::{CannotOpen, PermissionDenied, ReadOnly};
    match error.sqlite_error_code() {
        Some(ReadOnly | CannotOpen | PermissionDenied) => {
            StoreError::Unwritable { database: path.display().to_string(), why: error.to_string() }
        }
        _ => StoreError::Sqlite(error),
    }
}

/// Writes a consistent copy of the SQLite file `database` to `into`, which must not exist or be
/// empty, while a server may be writing it: SQLite's `VACUUM INTO` copies one snapshot (a read
/// transaction), so the copy holds every change committed before it began and none after.
///
/// # Errors
/// The database cannot be read, or the copy cannot be written.
pub fn backup(database: &Path, into: &Path) -> Result<(), StoreError> {
    // Read-only, and never made: a backup of a mistyped name must not leave an empty database.
    let flags = rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let connection = Connection::open_with_flags(database, flags)?;
    connection.busy_timeout(std::time::Duration::from_secs(5))?;
    let into = into.to_str().ok_or_else(|| {
        StoreError::Address(format!("{} is not UTF-8: give a backup file whose path is", into.display()))
    })?;
    connection.execute("VACUUM INTO ?1", [into])?;
    Ok(())
}

fn damaged(id: &str, why: impl ToString) -> StoreError {
    StoreError::Damaged { id: id.to_string(), why: why.to_string() }
}

fn name(database: &Database) -> String {
    match database {
        Database::Memory => "in memory".to_string(),
        other => other.to_string(),
    }
}

/// Brings the schema up to date, one step a transaction.
fn migrate(connection: &Connection, name: &str) -> Result<(), StoreError> {
    let known = MIGRATIONS.len() as i64;
    let version: i64 = connection.pragma_query_value(None, "user_version", |row| row.get(0))?;
    if version > known {
        return Err(StoreError::Newer(name.to_string(), version, known));
    }
    for (i, step) in MIGRATIONS.iter().enumerate().skip(version as usize) {
        connection.execute_batch(&format!("BEGIN; {step}; PRAGMA user_version = {}; COMMIT;", i + 1))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::Change;

    fn start() -> Start {
        Start {
            rules: "kalah(4,3) standard".into(),
            position: "3,3,3,3:0/3,3,3,3:0/S".into(),
            actions: Vec::new(),
            seats: ["human".into(), "human".into()],
            clock: None,
            tokens: None,
            owner: None,
            creator: None,
            names: None,
            rated: false,
            at: Moment(1000),
        }
    }

    #[tokio::test]
    async fn games_and_events_survive_reopening_and_the_schema_is_made_once() {
        let dir = tempfile::tempdir().unwrap();
        let database = Database::Sqlite(dir.path().join("games.db"));
        let store = Store::open(&database).unwrap();
        store.create("a", &start()).await.unwrap();
        let event = |version| Event {
            version,
            at: Moment(2000 + version),
            change: Change::Act { action: "1".into(), spent: None },
            request: None,
        };
        store.append("a", 0, &[event(1), event(2)], None).await.unwrap();
        assert!(store.append("a", 1, &[event(2)], None).await.is_err(), "an event's place is taken once");
        store.append("a", 2, &[event(3)], Some("South 4, North 8")).await.unwrap();
        drop(store);
        let store = Store::open(&database).unwrap();
        let (back, events) = store.load("a").await.unwrap().unwrap();
        assert_eq!(back, start());
        assert_eq!(events, vec![event(1), event(2), event(3)]);
        let archive = store.archive(10).await.unwrap();
        assert_eq!(archive.len(), 1);
        assert_eq!(archive[0].result, "South 4, North 8");
        assert!(store.delete("a").await.unwrap());
        assert!(store.load("a").await.unwrap().is_none());
        assert!(!store.delete("a").await.unwrap());
        // A database from a newer kalah is refused, not changed.
        let Backend::Sqlite(connection) = &store.backend else { unreachable!("an SQLite store") };
        locked(connection).pragma_update(None, "user_version", 99).unwrap();
        drop(store);
        let newer = Store::open(&database).err().unwrap();
        assert!(newer.to_string().contains("newer kalah"), "{newer}");
    }
}
