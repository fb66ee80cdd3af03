//! The games in a SQLite file: agents (by the hash of their token), games with their record in
//! kalah's record format, every move with its comment and time, and verify runs. Kept until
//! deleted.
//!
//! One thread writes. Writes that arrive together are committed in one transaction, and each
//! caller hears back only after the commit: a move is in the file before the game goes on. The
//! file is in WAL mode with `synchronous=NORMAL`: a commit survives the server's crash or kill;
//! a power cut may lose the last moments. Another thread copies the log into the file
//! (checkpoints, which wait for the disk) every second, so that no write waits for them.
//! Readers ([`Reader`]) open their own connections and never wait for the writer.
//!
//! The schema is migrated in the program ([`MIGRATIONS`], counted in `PRAGMA user_version`); a
//! file from a newer program is refused rather than changed. Games left ongoing by a server that
//! stopped are marked aborted when the file is opened again.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::{SystemTime, UNIX_EPOCH};

use rusqlite::{params, Connection, OptionalExtension};
use sha2::{Digest, Sha256};
use tokio::sync::oneshot;

/// The schema, one migration a step; `PRAGMA user_version` counts those applied.
pub const MIGRATIONS: [&str; 3] = [
    "
    CREATE TABLE agents (
        id INTEGER PRIMARY KEY,
        token_hash TEXT UNIQUE,
        bot INTEGER NOT NULL DEFAULT 0,
        name TEXT NOT NULL,
        authors TEXT,
        description TEXT,
        created INTEGER NOT NULL,
        seen INTEGER NOT NULL
    );
    CREATE INDEX agents_by_name ON agents (bot, name);
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        south INTEGER NOT NULL REFERENCES agents (id),
        north INTEGER NOT NULL REFERENCES agents (id),
        rules TEXT NOT NULL,
        started INTEGER NOT NULL,
        ended INTEGER,
        state TEXT NOT NULL,
        reason TEXT,
        south_store INTEGER,
        north_store INTEGER,
        record TEXT NOT NULL
    );
    CREATE INDEX games_by_south ON games (south);
    CREATE INDEX games_by_north ON games (north);
    CREATE TABLE moves (
        game INTEGER NOT NULL REFERENCES games (id),
        ply INTEGER NOT NULL,
        side TEXT NOT NULL,
        house INTEGER NOT NULL,
        how TEXT NOT NULL,
        comment TEXT,
        millis INTEGER NOT NULL,
        PRIMARY KEY (game, ply)
    );
    CREATE TABLE verify_runs (
        id INTEGER PRIMARY KEY,
        agent INTEGER NOT NULL REFERENCES agents (id),
        started INTEGER NOT NULL,
        ended INTEGER NOT NULL,
        right INTEGER NOT NULL,
        wrong INTEGER NOT NULL,
        first_wrong TEXT
    );
",
    // Tournaments (kalah kgp tournament): a game of one names it; a freeplay game has none.
    "
    CREATE TABLE tournaments (
        id INTEGER PRIMARY KEY,
        started INTEGER NOT NULL,
        ended INTEGER,
        boards TEXT NOT NULL,
        rounds INTEGER NOT NULL
    );
    ALTER TABLE games ADD COLUMN tournament INTEGER REFERENCES tournaments (id);
    CREATE INDEX games_by_tournament ON games (tournament);
",
    // A tournament's stages (go-kgp's sanity check, round robins with a cut between them), who
    // entered each and who went on; a game's stage and why it was given up; why a move was
    // played for its agent (kalah kgp report counts them).
    "
    CREATE TABLE stages (
        tournament INTEGER NOT NULL REFERENCES tournaments (id),
        number INTEGER NOT NULL,
        kind TEXT NOT NULL,
        boards TEXT NOT NULL,
        cut TEXT,
        PRIMARY KEY (tournament, number)
    );
    CREATE TABLE stage_entrants (
        tournament INTEGER NOT NULL,
        stage INTEGER NOT NULL,
        agent INTEGER NOT NULL REFERENCES agents (id),
        went_on INTEGER,
        PRIMARY KEY (tournament, stage, agent),
        FOREIGN KEY (tournament, stage) REFERENCES stages (tournament, number)
    );
    ALTER TABLE games ADD COLUMN stage INTEGER;
    ALTER TABLE games ADD COLUMN cause TEXT;
    ALTER TABLE moves ADD COLUMN why TEXT;
",
];

/// Why the database failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite refused.
    #[error("database {path}: {source}")]
    Sqlite {
        /// The file.
        path: PathBuf,
        /// What SQLite said.
        source: rusqlite::Error,
    },
    /// The file's schema is newer than this program's.
    #[error(
        "database {path} has schema version {found}; this program knows versions up to {known}: use a newer kalah"
    )]
    Newer {
        /// The file.
        path: PathBuf,
        /// Its schema version.
        found: i64,
        /// The newest this program knows.
        known: usize,
    },
    /// The transaction that held the write could not be committed.
    #[error("database {path}: the write was not committed: {message}")]
    Commit {
        /// The file.
        path: PathBuf,
        /// What SQLite said.
        message: String,
    },
    /// The writer thread has stopped.
    #[error("the database writer has stopped")]
    Stopped,
}

/// An agent's row.
pub type AgentId = i64;

/// A game's row.
pub type GameId = i64;

/// A tournament's row.
pub type TournamentId = i64;

/// Who an agent is, to find or make its row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentKey {
    /// The `auth:token`, hashed before it is stored; without one the agent is known by its name.
    pub token: Option<String>,
    /// A bot of the server.
    pub bot: bool,
    /// The name shown.
    pub name: String,
    /// `info:authors`.
    pub authors: Option<String>,
    /// `info:description`.
    pub description: Option<String>,
}

/// How a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameState {
    /// Being played.
    Ongoing,
    /// South has more seeds at the end.
    SouthWon,
    /// North has more seeds at the end.
    NorthWon,
    /// Equal seeds.
    Draw,
    /// South gave up or played an illegal move.
    SouthResigned,
    /// North gave up or played an illegal move.
    NorthResigned,
    /// The server stopped during the game.
    Aborted,
}

impl GameState {
    /// The word stored.
    pub fn word(self) -> &'static str {
        match self {
            GameState::Ongoing => "ongoing",
            GameState::SouthWon => "south-won",
            GameState::NorthWon => "north-won",
            GameState::Draw => "draw",
            GameState::SouthResigned => "south-resigned",
            GameState::NorthResigned => "north-resigned",
            GameState::Aborted => "aborted",
        }
    }
}

/// A move to store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRow {
    /// The game.
    pub game: GameId,
    /// Its number in the game, from 1.
    pub ply: u32,
    /// `south` or `north`.
    pub side: &'static str,
    /// The house, from 1.
    pub house: u8,
    /// `agent`, `random` (out of time), `auto` (the only move) or `bot`.
    pub how: &'static str,
    /// The agent's `info:comment`.
    pub comment: Option<String>,
    /// The time the mover took, in milliseconds.
    pub millis: u64,
    /// Why a random move was played for the mover ([`crate::program::Lost::word`], or `time`
    /// for an agent out of time); `None` for a move it chose.
    pub why: Option<&'static str>,
    /// The game's record after the move.
    pub record: String,
}

/// A game's end to store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnd {
    /// The game.
    pub game: GameId,
    /// How it ended.
    pub state: GameState,
    /// Why, in words (a resignation's cause).
    pub reason: Option<String>,
    /// Why a side gave the game up, in one word: `illegal` (an illegal move), `no-pong`, `gone`
    /// (its connection ended), `grace` (it did not come back in time, [`crate::tournament`]).
    pub cause: Option<&'static str>,
    /// The final stores, South first, of a game played out.
    pub stores: Option<(u16, u16)>,
    /// The game's record.
    pub record: String,
}

/// A verify run to store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyRun {
    /// The agent.
    pub agent: AgentId,
    /// When it began, in milliseconds since 1970.
    pub started: i64,
    /// Solutions right.
    pub right: u32,
    /// Solutions wrong.
    pub wrong: u32,
    /// The first wrong one, in words.
    pub first_wrong: Option<String>,
}

/// A stored game, as a reader sees it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct GameRow {
    /// Its id.
    pub id: GameId,
    /// South's agent.
    pub south_id: AgentId,
    /// North's agent.
    pub north_id: AgentId,
    /// South's name.
    pub south: String,
    /// North's name.
    pub north: String,
    /// The tournament it was played in, if any.
    pub tournament: Option<TournamentId>,
    /// Its stage in the tournament (0 the sanity check, then the round robins from 1), if stored.
    pub stage: Option<u32>,
    /// When it began, in milliseconds since 1970.
    pub started: i64,
    /// The final stores, South first, of a game played out.
    pub stores: Option<(u16, u16)>,
    /// The rules' text.
    pub rules: String,
    /// Its state's word.
    pub state: String,
    /// Why it ended so, if said.
    pub reason: Option<String>,
    /// Why a side gave it up, in one word ([`GameEnd::cause`]).
    pub cause: Option<String>,
    /// Its moves stored; `move_count` in JSON, so that a game with its moves (`moves`, the page's
    /// `/api/games/ID`) has each key once.
    #[serde(rename = "move_count")]
    pub moves: u32,
    /// Its record.
    pub record: String,
}

/// A stored move, as a reader sees it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct StoredMove {
    /// Its number in the game, from 1.
    pub ply: u32,
    /// `south` or `north`.
    pub side: String,
    /// The house, from 1.
    pub house: u8,
    /// How it was chosen: `agent`, `random`, `auto`, `bot` or `program`.
    pub how: String,
    /// The agent's `info:comment`.
    pub comment: Option<String>,
    /// The time the mover took, in milliseconds.
    pub millis: u64,
    /// Why a random move was played for the mover ([`MoveRow::why`]).
    pub why: Option<String>,
}

/// A stored tournament, as a reader sees it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct TournamentRow {
    /// Its id.
    pub id: TournamentId,
    /// When it began, in milliseconds since 1970.
    pub started: i64,
    /// When it ended, if it did.
    pub ended: Option<i64>,
    /// Its boards, `M,N` each, separated by spaces.
    pub boards: String,
    /// How many times each side of each pairing was played on each board.
    pub rounds: u32,
    /// Its games stored.
    pub games: u32,
}

/// A stage of a stored tournament, as a reader sees it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct StageRow {
    /// Its number: 0 the sanity check, then the round robins from 1.
    pub number: u32,
    /// `sanity` or `round-robin`.
    pub kind: String,
    /// Its boards, `M,N` each, separated by spaces.
    pub boards: String,
    /// The rule that chose who went on after it, in words; `None` after the last stage.
    pub cut: Option<String>,
    /// Who entered it, in the order they were given.
    pub entrants: Vec<StageEntrant>,
}

/// An entrant of a stage.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct StageEntrant {
    /// The agent.
    pub agent: AgentId,
    /// Its name.
    pub name: String,
    /// Whether it went on to the next stage; `None` when nothing was decided (the last stage, or
    /// a tournament cut short).
    pub went_on: Option<bool>,
}

/// An agent's moves in a tournament, added up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct MoveTally {
    /// The agent.
    pub agent: AgentId,
    /// Its moves, but those it had no choice in (`auto`).
    pub moves: u32,
    /// The moves played for it at random: out of time, or a program that wrote no legal move.
    pub random: u32,
    /// The random moves of a program that wrote houses, none of them legal.
    pub illegal: u32,
    /// The time its moves took, in milliseconds.
    pub millis: u64,
    /// Its longest move, in milliseconds.
    pub longest: u64,
}

/// A write sent to the writer and not yet known to be committed ([`Store::send_move`]).
#[must_use = "a write is known to be stored only once `committed` says so"]
pub struct Unsaved(Result<oneshot::Receiver<Result<(), StoreError>>, StoreError>);

impl Unsaved {
    /// Waits until the write is committed, or says why it was not.
    pub async fn committed(self) -> Result<(), StoreError> {
        match self.0 {
            Ok(answer) => answer.await.map_err(|_| StoreError::Stopped)?,
            Err(error) => Err(error),
        }
    }
}

/// What answers a job once its transaction is committed (or failed, with the failure).
type Reply = Box<dyn FnOnce(Option<&StoreError>)>;

/// A stored verify run, as a reader sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyRow {
    /// The agent's name.
    pub agent: String,
    /// Solutions right.
    pub right: u32,
    /// Solutions wrong.
    pub wrong: u32,
    /// The first wrong one, in words.
    pub first_wrong: Option<String>,
}

enum Job {
    Agent(AgentKey, oneshot::Sender<Result<AgentId, StoreError>>),
    Start {
        south: AgentId,
        north: AgentId,
        rules: String,
        record: String,
        tournament: Option<(TournamentId, u32)>,
        reply: oneshot::Sender<Result<GameId, StoreError>>,
    },
    Stage {
        tournament: TournamentId,
        number: u32,
        kind: &'static str,
        boards: String,
        cut: Option<String>,
        entrants: Vec<AgentId>,
        reply: oneshot::Sender<Result<(), StoreError>>,
    },
    WentOn {
        tournament: TournamentId,
        stage: u32,
        agents: Vec<AgentId>,
        reply: oneshot::Sender<Result<(), StoreError>>,
    },
    Tournament {
        boards: String,
        rounds: u32,
        reply: oneshot::Sender<Result<TournamentId, StoreError>>,
    },
    TournamentEnd(TournamentId, oneshot::Sender<Result<(), StoreError>>),
    Move(MoveRow, oneshot::Sender<Result<(), StoreError>>),
    End(GameEnd, oneshot::Sender<Result<(), StoreError>>),
    Verify(VerifyRun, oneshot::Sender<Result<(), StoreError>>),
}

/// How often the log is copied into the file.
const CHECKPOINT: std::time::Duration = std::time::Duration::from_secs(1);

/// The database's writer.
pub struct Store {
    jobs: Option<mpsc::Sender<Job>>,
    thread: Option<JoinHandle<()>>,
    /// Dropped to stop the checkpoints.
    checkpoints: Option<mpsc::Sender<()>>,
    checkpointer: Option<JoinHandle<()>>,
    path: PathBuf,
}

/// Milliseconds since 1970.
pub fn now_millis() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

fn hash(token: &str) -> String {
    Sha256::digest(token.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// Opens `path` (creating it), sets WAL mode and migrates the schema.
fn open(path: &Path) -> Result<Connection, StoreError> {
    let sqlite = |source| StoreError::Sqlite { path: path.to_path_buf(), source };
    let connection = Connection::open(path).map_err(sqlite)?;
    connection.busy_timeout(std::time::Duration::from_secs(10)).map_err(sqlite)?;
    connection.pragma_update(None, "journal_mode", "WAL").map_err(sqlite)?;
    connection.pragma_update(None, "synchronous", "NORMAL").map_err(sqlite)?;
    connection.pragma_update(None, "foreign_keys", "ON").map_err(sqlite)?;
    Ok(connection)
}

fn migrate(connection: &mut Connection, path: &Path) -> Result<(), StoreError> {
    let sqlite = |source| StoreError::Sqlite { path: path.to_path_buf(), source };
    let version: i64 = connection.pragma_query_value(None, "user_version", |row| row.get(0)).map_err(sqlite)?;
    if version > MIGRATIONS.len() as i64 {
        return Err(StoreError::Newer { path: path.to_path_buf(), found: version, known: MIGRATIONS.len() });
    }
    for (i, migration) in MIGRATIONS.iter().enumerate().skip(version as usize) {
        let transaction = connection.transaction().map_err(sqlite)?;
        transaction.execute_batch(migration).map_err(sqlite)?;
        transaction.pragma_update(None, "user_version", i as i64 + 1).map_err(sqlite)?;
        transaction.commit().map_err(sqlite)?;
    }
    // A server that stopped left these games without an end.
    connection
        .execute(
            "UPDATE games SET state = 'aborted', reason = 'the server stopped during the game', ended = ?1 \
             WHERE state = 'ongoing'",
            params![now_millis()],
        )
        .map_err(sqlite)?;
    Ok(())
}

impl Store {
    /// Opens the database at `path`, creating it and its schema if needed, and starts the writer.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let mut connection = open(path)?;
        migrate(&mut connection, path)?;
        // The writer never checkpoints: the checkpointer does, on a connection of its own.
        connection
            .pragma_update(None, "wal_autocheckpoint", 0)
            .map_err(|source| StoreError::Sqlite { path: path.to_path_buf(), source })?;
        let checkpoint = open(path)?;
        let (jobs, queue) = mpsc::channel();
        let owned = path.to_path_buf();
        let thread = std::thread::Builder::new()
            .name("kgp-store".into())
            .spawn(move || write(connection, &owned, &queue))
            .map_err(|_| StoreError::Stopped)?;
        let (checkpoints, stop) = mpsc::channel::<()>();
        let checkpointer = std::thread::Builder::new()
            .name("kgp-checkpoint".into())
            .spawn(move || {
                // A passive checkpoint never blocks the writer; the last one, at the end, empties the log.
                while let Err(mpsc::RecvTimeoutError::Timeout) = stop.recv_timeout(CHECKPOINT) {
                    let _ = checkpoint.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()));
                }
                let _ = checkpoint.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()));
            })
            .map_err(|_| StoreError::Stopped)?;
        Ok(Store {
            jobs: Some(jobs),
            thread: Some(thread),
            checkpoints: Some(checkpoints),
            checkpointer: Some(checkpointer),
            path: path.to_path_buf(),
        })
    }

    /// Returns the file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    async fn ask<T>(&self, job: impl FnOnce(oneshot::Sender<Result<T, StoreError>>) -> Job) -> Result<T, StoreError> {
        let (reply, answer) = oneshot::channel();
        self.jobs.as_ref().ok_or(StoreError::Stopped)?.send(job(reply)).map_err(|_| StoreError::Stopped)?;
        answer.await.map_err(|_| StoreError::Stopped)?
    }

    /// Finds or makes the agent's row (by its token's hash, else a bot's or a token-less agent's
    /// name) and updates its name and description.
    pub async fn agent(&self, key: AgentKey) -> Result<AgentId, StoreError> {
        self.ask(|reply| Job::Agent(key, reply)).await
    }

    /// Stores a new game, ongoing, of a tournament and its stage, or of none.
    pub async fn start(
        &self,
        south: AgentId,
        north: AgentId,
        rules: String,
        record: String,
        tournament: Option<(TournamentId, u32)>,
    ) -> Result<GameId, StoreError> {
        self.ask(|reply| Job::Start { south, north, rules, record, tournament, reply }).await
    }

    /// Stores a tournament's stage: its number, kind (`sanity` or `round-robin`), boards, the
    /// rule of the cut after it (`None` for the last) and its entrants.
    pub async fn stage(
        &self,
        tournament: TournamentId,
        number: u32,
        kind: &'static str,
        boards: String,
        cut: Option<String>,
        entrants: Vec<AgentId>,
    ) -> Result<(), StoreError> {
        self.ask(|reply| Job::Stage { tournament, number, kind, boards, cut, entrants, reply }).await
    }

    /// Stores who of a stage's entrants went on to the next stage (the others were dropped).
    pub async fn went_on(&self, tournament: TournamentId, stage: u32, agents: Vec<AgentId>) -> Result<(), StoreError> {
        self.ask(|reply| Job::WentOn { tournament, stage, agents, reply }).await
    }

    /// Stores a new tournament on `boards` (their text), `rounds` times round.
    pub async fn tournament(&self, boards: String, rounds: u32) -> Result<TournamentId, StoreError> {
        self.ask(|reply| Job::Tournament { boards, rounds, reply }).await
    }

    /// Stores a tournament's end.
    pub async fn tournament_end(&self, id: TournamentId) -> Result<(), StoreError> {
        self.ask(|reply| Job::TournamentEnd(id, reply)).await
    }

    /// Stores a move and the game's record after it.
    pub async fn record_move(&self, row: MoveRow) -> Result<(), StoreError> {
        self.send_move(row).committed().await
    }

    /// Sends a move to be stored (as [`Store::record_move`]) and returns at once: the write is
    /// awaited later, so that a bot's reply can be chosen while the move before it is written, and
    /// both commit together. Writes are committed in the order they are sent.
    pub fn send_move(&self, row: MoveRow) -> Unsaved {
        let (reply, answer) = oneshot::channel();
        let sent = match &self.jobs {
            Some(jobs) => jobs.send(Job::Move(row, reply)).map_err(|_| StoreError::Stopped),
            None => Err(StoreError::Stopped),
        };
        Unsaved(sent.map(|()| answer))
    }

    /// Stores a game's end.
    pub async fn end(&self, end: GameEnd) -> Result<(), StoreError> {
        self.ask(|reply| Job::End(end, reply)).await
    }

    /// Stores a verify run.
    pub async fn verify(&self, run: VerifyRun) -> Result<(), StoreError> {
        self.ask(|reply| Job::Verify(run, reply)).await
    }
}

impl Drop for Store {
    /// Lets the writer finish what it was given, then waits for it.
    fn drop(&mut self) {
        self.jobs.take();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
        self.checkpoints.take();
        if let Some(thread) = self.checkpointer.take() {
            let _ = thread.join();
        }
    }
}

/// The writer thread: takes the jobs waiting, runs them in one transaction, then answers them.
fn write(mut connection: Connection, path: &Path, queue: &mpsc::Receiver<Job>) {
    while let Ok(first) = queue.recv() {
        let mut batch = vec![first];
        batch.extend(queue.try_iter());
        let mut replies: Vec<Reply> = Vec::with_capacity(batch.len());
        let committed = (|| -> Result<(), rusqlite::Error> {
            let transaction = connection.transaction()?;
            for job in batch {
                replies.push(run(&transaction, job));
            }
            transaction.commit()
        })();
        let error = committed.err().map(|source| StoreError::Sqlite { path: path.to_path_buf(), source });
        for reply in replies {
            reply(error.as_ref());
        }
    }
}

/// Runs one job in the open transaction; returns what answers it once the transaction is
/// committed (or failed).
fn run(db: &rusqlite::Transaction<'_>, job: Job) -> Reply {
    fn answer<T: Send + 'static>(
        result: Result<T, rusqlite::Error>,
        reply: oneshot::Sender<Result<T, StoreError>>,
        path: PathBuf,
    ) -> Reply {
        Box::new(move |failed: Option<&StoreError>| {
            let result = match (result, failed) {
                (Err(source), _) => Err(StoreError::Sqlite { path, source }),
                (Ok(_), Some(failed)) => Err(StoreError::Commit { path, message: failed.to_string() }),
                (Ok(value), None) => Ok(value),
            };
            let _ = reply.send(result);
        })
    }
    let path = db.path().map(PathBuf::from).unwrap_or_default();
    let now = now_millis();
    match job {
        Job::Agent(key, reply) => {
            let result = (|| {
                let hashed = key.token.as_deref().map(hash);
                let found: Option<i64> = match &hashed {
                    Some(h) => {
                        db.query_row("SELECT id FROM agents WHERE token_hash = ?1", [h], |r| r.get(0)).optional()?
                    }
                    None => db
                        .query_row(
                            "SELECT id FROM agents WHERE token_hash IS NULL AND bot = ?1 AND name = ?2",
                            params![key.bot, key.name],
                            |r| r.get(0),
                        )
                        .optional()?,
                };
                match found {
                    Some(id) => {
                        db.execute(
                            "UPDATE agents SET name = ?2, authors = coalesce(?3, authors), \
                             description = coalesce(?4, description), seen = ?5 WHERE id = ?1",
                            params![id, key.name, key.authors, key.description, now],
                        )?;
                        Ok(id)
                    }
                    None => {
                        db.execute(
                            "INSERT INTO agents (token_hash, bot, name, authors, description, created, seen) \
                             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6)",
                            params![hashed, key.bot, key.name, key.authors, key.description, now],
                        )?;
                        Ok(db.last_insert_rowid())
                    }
                }
            })();
            answer(result, reply, path)
        }
        Job::Start { south, north, rules, record, tournament, reply } => {
            let result = db
                .execute(
                    "INSERT INTO games (south, north, rules, started, state, record, tournament, stage) \
                     VALUES (?1, ?2, ?3, ?4, 'ongoing', ?5, ?6, ?7)",
                    params![south, north, rules, now, record, tournament.map(|t| t.0), tournament.map(|t| t.1)],
                )
                .map(|_| db.last_insert_rowid());
            answer(result, reply, path)
        }
        Job::Stage { tournament, number, kind, boards, cut, entrants, reply } => {
            let result = (|| {
                db.execute(
                    "INSERT INTO stages (tournament, number, kind, boards, cut) VALUES (?1, ?2, ?3, ?4, ?5)",
                    params![tournament, number, kind, boards, cut],
                )?;
                for agent in entrants {
                    db.execute(
                        "INSERT OR IGNORE INTO stage_entrants (tournament, stage, agent) VALUES (?1, ?2, ?3)",
                        params![tournament, number, agent],
                    )?;
                }
                Ok(())
            })();
            answer(result, reply, path)
        }
        Job::WentOn { tournament, stage, agents, reply } => {
            let result = (|| {
                db.execute(
                    "UPDATE stage_entrants SET went_on = 0 WHERE tournament = ?1 AND stage = ?2",
                    params![tournament, stage],
                )?;
                for agent in agents {
                    db.execute(
                        "UPDATE stage_entrants SET went_on = 1 WHERE tournament = ?1 AND stage = ?2 AND agent = ?3",
                        params![tournament, stage, agent],
                    )?;
                }
                Ok(())
            })();
            answer(result, reply, path)
        }
        Job::Tournament { boards, rounds, reply } => {
            let result = db
                .execute(
                    "INSERT INTO tournaments (started, boards, rounds) VALUES (?1, ?2, ?3)",
                    params![now, boards, rounds],
                )
                .map(|_| db.last_insert_rowid());
            answer(result, reply, path)
        }
        Job::TournamentEnd(id, reply) => {
            let result = db.execute("UPDATE tournaments SET ended = ?2 WHERE id = ?1", params![id, now]).map(drop);
            answer(result, reply, path)
        }
        Job::Move(row, reply) => {
            let result = db
                .execute(
                    "INSERT INTO moves (game, ply, side, house, how, comment, millis, why) \
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                    params![row.game, row.ply, row.side, row.house, row.how, row.comment, row.millis as i64, row.why],
                )
                .and_then(|_| db.execute("UPDATE games SET record = ?2 WHERE id = ?1", params![row.game, row.record]))
                .map(drop);
            answer(result, reply, path)
        }
        Job::End(end, reply) => {
            let result = db
                .execute(
                    "UPDATE games SET state = ?2, reason = ?3, south_store = ?4, north_store = ?5, record = ?6, \
                     ended = ?7, cause = ?8 WHERE id = ?1",
                    params![
                        end.game,
                        end.state.word(),
                        end.reason,
                        end.stores.map(|s| s.0),
                        end.stores.map(|s| s.1),
                        end.record,
                        now,
                        end.cause
                    ],
                )
                .map(drop);
            answer(result, reply, path)
        }
        Job::Verify(run, reply) => {
            let result = db
                .execute(
                    "INSERT INTO verify_runs (agent, started, ended, right, wrong, first_wrong) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                    params![run.agent, run.started, now, run.right, run.wrong, run.first_wrong],
                )
                .map(drop);
            answer(result, reply, path)
        }
    }
}

/// Reads the database on a connection of its own.
pub struct Reader {
    connection: Connection,
    path: PathBuf,
}

impl Reader {
    /// Opens the database at `path` to read (it must exist and be migrated).
    pub fn open(path: &Path) -> Result<Reader, StoreError> {
        let sqlite = |source| StoreError::Sqlite { path: path.to_path_buf(), source };
        let connection =
            Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY).map_err(sqlite)?;
        connection.busy_timeout(std::time::Duration::from_secs(10)).map_err(sqlite)?;
        Ok(Reader { connection, path: path.to_path_buf() })
    }

    fn sqlite(&self, source: rusqlite::Error) -> StoreError {
        StoreError::Sqlite { path: self.path.clone(), source }
    }

    /// Returns the games, newest first, optionally only those of the agent named `agent` and
    /// only those of one tournament.
    pub fn games(&self, agent: Option<&str>, tournament: Option<TournamentId>) -> Result<Vec<GameRow>, StoreError> {
        self.select_games(
            "(?1 IS NULL OR s.name = ?1 OR n.name = ?1) AND (?2 IS NULL OR g.tournament = ?2)",
            params![agent, tournament],
        )
    }

    /// Returns game `id`, if there is one.
    pub fn game(&self, id: GameId) -> Result<Option<GameRow>, StoreError> {
        Ok(self.select_games("g.id = ?1", params![id])?.pop())
    }

    fn select_games(&self, filter: &str, values: &[&dyn rusqlite::ToSql]) -> Result<Vec<GameRow>, StoreError> {
        let mut statement = self
            .connection
            .prepare(&format!(
                "SELECT g.id, g.south, g.north, s.name, n.name, g.tournament, g.started, g.south_store, g.north_store, \
                 g.rules, g.state, g.reason, (SELECT count(*) FROM moves m WHERE m.game = g.id), g.record, \
                 g.stage, g.cause \
                 FROM games g JOIN agents s ON s.id = g.south JOIN agents n ON n.id = g.north \
                 WHERE {filter} ORDER BY g.id DESC"
            ))
            .map_err(|e| self.sqlite(e))?;
        let rows = statement
            .query_map(values, |r| {
                let stores: (Option<u16>, Option<u16>) = (r.get(7)?, r.get(8)?);
                Ok(GameRow {
                    id: r.get(0)?,
                    south_id: r.get(1)?,
                    north_id: r.get(2)?,
                    south: r.get(3)?,
                    north: r.get(4)?,
                    tournament: r.get(5)?,
                    stage: r.get(14)?,
                    started: r.get(6)?,
                    stores: stores.0.zip(stores.1),
                    rules: r.get(9)?,
                    state: r.get(10)?,
                    reason: r.get(11)?,
                    cause: r.get(15)?,
                    moves: r.get(12)?,
                    record: r.get(13)?,
                })
            })
            .map_err(|e| self.sqlite(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.sqlite(e))
    }

    /// Returns the moves of game `id`, in order.
    pub fn moves(&self, id: GameId) -> Result<Vec<StoredMove>, StoreError> {
        let mut statement = self
            .connection
            .prepare("SELECT ply, side, house, how, comment, millis, why FROM moves WHERE game = ?1 ORDER BY ply")
            .map_err(|e| self.sqlite(e))?;
        let rows = statement
            .query_map([id], |r| {
                Ok(StoredMove {
                    ply: r.get(0)?,
                    side: r.get(1)?,
                    house: r.get(2)?,
                    how: r.get(3)?,
                    comment: r.get(4)?,
                    millis: r.get(5)?,
                    why: r.get(6)?,
                })
            })
            .map_err(|e| self.sqlite(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.sqlite(e))
    }

    /// Returns the tournaments, newest first.
    pub fn tournaments(&self) -> Result<Vec<TournamentRow>, StoreError> {
        let mut statement = self
            .connection
            .prepare(
                "SELECT t.id, t.started, t.ended, t.boards, t.rounds, \
                 (SELECT count(*) FROM games g WHERE g.tournament = t.id) FROM tournaments t ORDER BY t.id DESC",
            )
            .map_err(|e| self.sqlite(e))?;
        let rows = statement
            .query_map([], |r| {
                Ok(TournamentRow {
                    id: r.get(0)?,
                    started: r.get(1)?,
                    ended: r.get(2)?,
                    boards: r.get(3)?,
                    rounds: r.get(4)?,
                    games: r.get(5)?,
                })
            })
            .map_err(|e| self.sqlite(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.sqlite(e))
    }

    /// Returns the stages of tournament `id` in order, each with its entrants; none for a
    /// tournament stored before stages were.
    pub fn stages(&self, id: TournamentId) -> Result<Vec<StageRow>, StoreError> {
        let mut statement = self
            .connection
            .prepare("SELECT number, kind, boards, cut FROM stages WHERE tournament = ?1 ORDER BY number")
            .map_err(|e| self.sqlite(e))?;
        let rows = statement
            .query_map([id], |r| {
                Ok(StageRow {
                    number: r.get(0)?,
                    kind: r.get(1)?,
                    boards: r.get(2)?,
                    cut: r.get(3)?,
                    entrants: Vec::new(),
                })
            })
            .map_err(|e| self.sqlite(e))?;
        let mut stages: Vec<StageRow> = rows.collect::<Result<_, _>>().map_err(|e| self.sqlite(e))?;
        let mut statement = self
            .connection
            .prepare(
                "SELECT e.stage, e.agent, a.name, e.went_on FROM stage_entrants e JOIN agents a ON a.id = e.agent \
                 WHERE e.tournament = ?1 ORDER BY e.stage, e.rowid",
            )
            .map_err(|e| self.sqlite(e))?;
        let rows = statement
            .query_map([id], |r| {
                let went_on: Option<i64> = r.get(3)?;
                Ok((
                    r.get::<_, u32>(0)?,
                    StageEntrant { agent: r.get(1)?, name: r.get(2)?, went_on: went_on.map(|w| w != 0) },
                ))
            })
            .map_err(|e| self.sqlite(e))?;
        for row in rows {
            let (stage, entrant) = row.map_err(|e| self.sqlite(e))?;
            if let Some(s) = stages.iter_mut().find(|s| s.number == stage) {
                s.entrants.push(entrant);
            }
        }
        Ok(stages)
    }

    /// Returns each agent's moves in the games of tournament `id` that count (not those aborted,
    /// such as a game played again after an agent left it), added up; agents without a move are
    /// left out.
    pub fn move_tallies(&self, id: TournamentId) -> Result<Vec<MoveTally>, StoreError> {
        let mut statement = self
            .connection
            .prepare(
                "SELECT CASE m.side WHEN 'south' THEN g.south ELSE g.north END AS agent, count(*), \
                 sum(m.how = 'random'), sum(m.why = 'illegal'), sum(m.millis), max(m.millis) \
                 FROM moves m JOIN games g ON g.id = m.game \
                 WHERE g.tournament = ?1 AND m.how != 'auto' AND g.state NOT IN ('aborted', 'ongoing') \
                 GROUP BY agent ORDER BY agent",
            )
            .map_err(|e| self.sqlite(e))?;
        let rows = statement
            .query_map([id], |r| {
                Ok(MoveTally {
                    agent: r.get(0)?,
                    moves: r.get(1)?,
                    random: r.get::<_, Option<u32>>(2)?.unwrap_or(0),
                    illegal: r.get::<_, Option<u32>>(3)?.unwrap_or(0),
                    millis: r.get::<_, Option<i64>>(4)?.unwrap_or(0) as u64,
                    longest: r.get::<_, Option<i64>>(5)?.unwrap_or(0) as u64,
                })
            })
            .map_err(|e| self.sqlite(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.sqlite(e))
    }

    /// Returns the agents' names and whether each is a bot, by id.
    pub fn agents(&self) -> Result<Vec<(AgentId, String, bool)>, StoreError> {
        let mut statement =
            self.connection.prepare("SELECT id, name, bot FROM agents ORDER BY id").map_err(|e| self.sqlite(e))?;
        let rows = statement.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))).map_err(|e| self.sqlite(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.sqlite(e))
    }

    /// Returns the record of game `id`, if there is one.
    pub fn record(&self, id: GameId) -> Result<Option<String>, StoreError> {
        self.connection
            .query_row("SELECT record FROM games WHERE id = ?1", [id], |r| r.get(0))
            .optional()
            .map_err(|e| self.sqlite(e))
    }

    /// Returns the verify runs, oldest first.
    pub fn verify_runs(&self) -> Result<Vec<VerifyRow>, StoreError> {
        let mut statement = self
            .connection
            .prepare(
                "SELECT a.name, v.right, v.wrong, v.first_wrong FROM verify_runs v JOIN agents a ON a.id = v.agent \
                 ORDER BY v.id",
            )
            .map_err(|e| self.sqlite(e))?;
        let rows = statement
            .query_map([], |r| {
                Ok(VerifyRow { agent: r.get(0)?, right: r.get(1)?, wrong: r.get(2)?, first_wrong: r.get(3)? })
            })
            .map_err(|e| self.sqlite(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.sqlite(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(name: &str, token: Option<&str>) -> AgentKey {
        AgentKey { token: token.map(str::to_string), bot: false, name: name.into(), authors: None, description: None }
    }

    #[tokio::test]
    async fn games_and_agents_survive_a_restart_and_ongoing_games_become_aborted() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("kgp.sqlite");
        let store = Store::open(&path).unwrap();
        let alice = store.agent(key("alice", Some("s3cret"))).await.unwrap();
        // The same token is the same agent, whatever its name now.
        assert_eq!(store.agent(key("alice2", Some("s3cret"))).await.unwrap(), alice);
        let bob = store.agent(key("bob", None)).await.unwrap();
        assert_eq!(store.agent(key("bob", None)).await.unwrap(), bob);
        let bot = store.agent(AgentKey { bot: true, ..key("bob", None) }).await.unwrap();
        assert_ne!(bot, bob, "a bot is not an agent of the same name");
        let done = store.start(alice, bob, "kalah(6,6) kgp".into(), "*".into(), None).await.unwrap();
        let row = MoveRow {
            game: done,
            ply: 1,
            side: "south",
            house: 3,
            how: "agent",
            comment: Some("depth 4".into()),
            millis: 12,
            why: None,
            record: "1. 3\n*".into(),
        };
        store.record_move(row).await.unwrap();
        let end = GameEnd {
            game: done,
            state: GameState::SouthWon,
            reason: None,
            cause: None,
            stores: Some((40, 32)),
            record: "final".into(),
        };
        store.end(end).await.unwrap();
        let open = store.start(bob, alice, "kalah(6,6) kgp".into(), "*".into(), None).await.unwrap();
        store
            .verify(VerifyRun { agent: bob, started: 0, right: 3, wrong: 1, first_wrong: Some("x".into()) })
            .await
            .unwrap();
        drop(store);
        // The hash is stored, never the token.
        let raw = std::fs::read(&path).unwrap();
        assert!(!raw.windows(6).any(|w| w == b"s3cret"));
        let store = Store::open(&path).unwrap();
        let reader = Reader::open(&path).unwrap();
        let games = reader.games(None, None).unwrap();
        assert_eq!(
            games.iter().map(|g| (g.id, g.state.as_str())).collect::<Vec<_>>(),
            [(open, "aborted"), (done, "south-won")]
        );
        assert_eq!((games[1].south.as_str(), games[1].north.as_str(), games[1].moves), ("alice2", "bob", 1));
        assert_eq!(reader.record(done).unwrap().as_deref(), Some("final"));
        assert_eq!(reader.games(Some("alice2"), None).unwrap().len(), 2);
        assert_eq!(reader.games(Some("carol"), None).unwrap().len(), 0);
        let runs = reader.verify_runs().unwrap();
        assert_eq!(runs, [VerifyRow { agent: "bob".into(), right: 3, wrong: 1, first_wrong: Some("x".into()) }]);
        drop(store);
    }

    #[test]
    fn a_file_from_a_newer_program_is_refused_unchanged() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("kgp.sqlite");
        let connection = Connection::open(&path).unwrap();
        connection.pragma_update(None, "user_version", 99).unwrap();
        drop(connection);
        let e = Store::open(&path).err().unwrap().to_string();
        assert!(e.contains("schema version 99; this program knows versions up to 3"), "{e}");
        let connection = Connection::open(&path).unwrap();
        let version: i64 = connection.pragma_query_value(None, "user_version", |r| r.get(0)).unwrap();
        assert_eq!(version, 99);
    }
}
