//! The games being played: each a [`Table`] (kalah-table's: the game, its seats and tokens,
//! clocks, versions and who may act, the same table the static site holds) with what only a
//! server keeps beside it: when it was last used, and a channel telling those who follow it live
//! how many of its changes are stored. Idle games leave memory and stay in the database.

use std::collections::HashMap;
use std::ops::{Deref, DerefMut};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tokio::sync::watch;

use kalah_table::{Event, Moment, Table};

use crate::postgres::Notice;
use crate::store::{Archived, Database, Store, StoreError};

/// Returns a new secret token: 128 random bits in hex.
pub fn new_token() -> String {
    format!("{:032x}", rand::random::<u128>())
}

/// One game held by the server: its table, and what the server keeps beside it.
#[derive(Debug)]
pub struct Session {
    table: Table,
    last_used: Instant,
    /// Tells whoever follows the game (the live channel) how many changes are stored.
    changes: watch::Sender<u64>,
}

// A held game is used as its table: the server adds no rules of its own.
impl Deref for Session {
    type Target = Table;

    fn deref(&self) -> &Table {
        &self.table
    }
}

impl DerefMut for Session {
    fn deref_mut(&mut self) -> &mut Table {
        &mut self.table
    }
}

impl Session {
    /// Holds `table`, as used now.
    pub fn new(table: Table) -> Session {
        let saved = table.saved();
        Session { table, last_used: Instant::now(), changes: watch::channel(saved).0 }
    }

    /// Returns a receiver told the number of changes stored, each time it grows.
    pub fn follow(&self) -> watch::Receiver<u64> {
        self.changes.subscribe()
    }

    /// Marks the changes not yet stored as stored, and tells those who follow the game.
    pub fn mark_saved(&mut self) {
        self.table.mark_saved();
        self.changes.send_replace(self.table.saved());
    }

    /// Plays the events another server stored after the ones held (see [`Table::catch_up`]),
    /// and tells those who follow the game.
    pub fn catch_up(&mut self, events: &[Event]) -> Result<(), kalah_table::ReplayError> {
        self.table.catch_up(events)?;
        self.changes.send_replace(self.table.saved());
        Ok(())
    }
}

/// Why a game could not be had.
#[derive(Debug)]
pub enum Missing {
    /// No game has the id (never had, or deleted).
    Unknown,
    /// The server holds its most games in memory already.
    Full,
    /// The database failed.
    Store(StoreError),
    /// Another server (sharing a PostgreSQL database) changed the game first: the change was not
    /// stored, and the game is as the other server left it, at this version.
    Changed(u64),
}

impl PartialEq for Missing {
    fn eq(&self, other: &Missing) -> bool {
        match (self, other) {
            (Missing::Changed(a), Missing::Changed(b)) => a == b,
            _ => matches!((self, other), (Missing::Unknown, Missing::Unknown) | (Missing::Full, Missing::Full)),
        }
    }
}

impl From<StoreError> for Missing {
    fn from(e: StoreError) -> Missing {
        match e {
            StoreError::Gone(_) => Missing::Unknown,
            e => Missing::Store(e),
        }
    }
}

/// A game held in memory. Its lock is asynchronous: a request holds it while the change it made
/// is stored, awaiting the database without holding a thread.
pub type Held = Arc<tokio::sync::Mutex<Session>>;

/// All games: those being played in memory, by id, and every game in the database.
pub struct Games {
    games: Mutex<HashMap<String, Held>>,
    store: Store,
    max: usize,
    idle: Duration,
    /// Told of each game the lobby paired as it ends ([`crate::lobby`]).
    ended: tokio::sync::broadcast::Sender<Ended>,
}

/// A game the lobby paired, ended and settled: its id, and the players' ratings after it if it
/// was rated.
#[derive(Clone, Debug)]
pub struct Ended {
    /// The game's id.
    pub id: String,
    /// The first and the second player's ratings after it, if it was rated.
    pub ratings: Option<[kalah_lobby::Rating; 2]>,
}

impl Games {
    /// Returns the games of `database`, at most `max` in memory at once, each put away after
    /// `idle` without a request (it stays in the database).
    pub fn open(database: &Database, max: usize, idle: Duration) -> Result<Games, StoreError> {
        let ended = tokio::sync::broadcast::channel(1024).0;
        Ok(Games { games: Mutex::new(HashMap::new()), store: Store::open(database)?, max, idle, ended })
    }

    /// Returns an empty store in memory of at most `max` games.
    pub fn new(max: usize, idle: Duration) -> Games {
        Games::open(&Database::Memory, max, idle).expect("an SQLite database in memory opens")
    }

    /// Returns the database the games are kept in.
    pub(crate) fn store(&self) -> &Store {
        &self.store
    }

    /// Returns a receiver told of each game the lobby paired as it ends and is settled.
    pub fn ended(&self) -> tokio::sync::broadcast::Receiver<Ended> {
        self.ended.subscribe()
    }

    /// Settles the paired games whose end was stored but not settled (the server stopped in
    /// between): each is read again and settled as it ended.
    pub async fn settle_unsettled(&self) -> Result<usize, Missing> {
        let ids = self.store.unsettled().await?;
        for id in &ids {
            let game = self.get(id).await?;
            let session = game.lock().await;
            self.settle(id, &session).await?;
        }
        Ok(ids.len())
    }

    /// Settles game `id` if the lobby paired it and it is over ([`Store::settle`]), and tells
    /// the lobby.
    async fn settle(&self, id: &str, session: &Session) -> Result<(), StoreError> {
        if session.seating().is_none() || session.decider().is_some() {
            return Ok(());
        }
        let facts = session.facts(id, Moment::now());
        let ending = match facts.finish() {
            None => crate::players::Ending::Aborted,
            Some(finish) => crate::players::Ending::won_by(finish.winner.map(|side| session.game().seat_of(side))),
        };
        let ratings = self.store.settle(id, ending, Moment::now()).await?;
        let _ = self.ended.send(Ended { id: id.to_string(), ratings });
        Ok(())
    }

    /// Returns how long a game may stay idle.
    pub fn idle(&self) -> Duration {
        self.idle
    }

    /// Returns the most games held at once.
    pub fn max(&self) -> usize {
        self.max
    }

    fn map(&self) -> MutexGuard<'_, HashMap<String, Held>> {
        self.games.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Makes room for one more game in memory, putting away idle games first if it is full.
    fn room(&self) -> Result<(), Missing> {
        if self.map().len() >= self.max {
            self.expire(Instant::now());
        }
        if self.map().len() >= self.max {
            return Err(Missing::Full);
        }
        Ok(())
    }

    /// Stores a new game and returns its new id.
    pub async fn add(&self, table: Table) -> Result<String, Missing> {
        let mut session = Session::new(table);
        self.room()?;
        let id = loop {
            let id = format!("{:016x}", rand::random::<u64>());
            let held = self.map().contains_key(&id);
            if !held && self.store.load(&id).await?.is_none() {
                break id;
            }
        };
        let start = session.start();
        self.store.create(&id, &start).await?;
        self.store.paired(&id, &start).await?;
        // The changes made as it began (a loaded record's end) are stored as its first events.
        self.save(&id, &mut session).await?;
        self.map().insert(id.clone(), Arc::new(tokio::sync::Mutex::new(session)));
        Ok(id)
    }

    /// Returns the game `id`, marked as used now (read from the database if it is not in
    /// memory); a clock that ran out meanwhile ends it, and that is stored.
    pub async fn get(&self, id: &str) -> Result<Held, Missing> {
        let held = self.map().get(id).cloned();
        let game = match held.clone() {
            Some(game) => game,
            None => {
                let (start, events) = self.store.load(id).await?.ok_or(Missing::Unknown)?;
                let session = Table::rebuild(&start, &events)
                    .map(Session::new)
                    .map_err(|why| Missing::Store(StoreError::Damaged { id: id.to_string(), why: why.to_string() }))?;
                self.room()?;
                // Another request may have read it meanwhile: the first one read is kept.
                let mut games = self.map();
                Arc::clone(games.entry(id.to_string()).or_insert_with(|| Arc::new(tokio::sync::Mutex::new(session))))
            }
        };
        let mut session = game.lock().await;
        if held.is_none() && self.store.is_shared() {
            // A change another server stored while the game was being read was noticed before
            // the game was held here, and passed by: read it again now that it is held.
            self.refresh(id, &mut session).await?;
        }
        session.last_used = Instant::now();
        session.check_time(Moment::now());
        self.save(id, &mut session).await?;
        drop(session);
        Ok(game)
    }

    /// Stores the changes of game `id` not yet stored. If that fails the game is dropped from
    /// memory (it is read again as stored), and the request that made them fails.
    pub async fn save(&self, id: &str, session: &mut Session) -> Result<(), Missing> {
        let (seq, events) = session.unsaved();
        if events.is_empty() {
            return Ok(());
        }
        let finished = session.decider().is_none().then(|| session.facts(id, Moment::now()).status());
        match self.store.append(id, seq, events, finished.as_deref()).await {
            Ok(()) => {
                session.mark_saved();
                if finished.is_some() {
                    // Stored first: a server that stops now settles it when it starts again.
                    self.settle(id, session).await?;
                }
                Ok(())
            }
            Err(StoreError::Conflict(_)) => {
                // Another server stored a change first: this one is dropped, and the game is
                // read as stored (the live channel shows it), for the client to look again.
                match self.refresh(id, session).await {
                    Ok(()) => Err(Missing::Changed(session.version())),
                    Err(e) => {
                        session.close();
                        self.map().remove(id);
                        Err(e)
                    }
                }
            }
            Err(e) => {
                session.close();
                self.map().remove(id);
                Err(Missing::Store(e))
            }
        }
    }

    /// Reads game `id` again as stored, if it changed there (another server stored changes of
    /// it): the session becomes the game rebuilt, and those who follow it live are told. Changes
    /// not stored are dropped.
    pub async fn refresh(&self, id: &str, session: &mut Session) -> Result<(), Missing> {
        let (start, events) = self.store.load(id).await?.ok_or(Missing::Unknown)?;
        if events.len() as u64 == session.saved() && session.unsaved().1.is_empty() {
            return Ok(());
        }
        let fresh = Table::rebuild(&start, &events)
            .map_err(|why| Missing::Store(StoreError::Damaged { id: id.to_string(), why: why.to_string() }))?;
        // The followers keep following: the held game keeps its channel.
        session.close();
        session.table = fresh;
        let saved = session.saved();
        session.changes.send_replace(saved);
        Ok(())
    }

    /// Returns the database other servers share, if it is shared (PostgreSQL).
    pub fn shared(&self) -> Option<&crate::postgres::Postgres> {
        self.store.shared()
    }

    /// Returns the notices of the changes other servers store, once, for [`Games::follow`]
    /// (only when the database is shared: PostgreSQL).
    pub fn notices(&self) -> Option<tokio::sync::mpsc::UnboundedReceiver<Notice>> {
        self.store.notices()
    }

    /// Brings the games held in memory up to date with a notice of a change stored (by this
    /// server or another): a game changed elsewhere is read again and its followers told; a
    /// game deleted elsewhere leaves memory.
    pub async fn follow(&self, notice: Notice) {
        match notice {
            Notice::Appended { game: id, count, events, .. } => {
                let held = self.map().get(&id).cloned();
                if let Some(game) = held {
                    let mut session = game.lock().await;
                    // The notice carries the new events when they fit: they are played on the
                    // game held, without reading it again.
                    let fits = session.saved() + events.len() as u64 == count && !events.is_empty();
                    if session.saved() < count && !(fits && session.catch_up(&events).is_ok()) {
                        drop(session);
                        self.reread(&id, &game).await;
                    }
                }
            }
            Notice::Deleted { game: id } => {
                let held = self.map().remove(&id);
                if let Some(game) = held {
                    game.lock().await.close();
                }
            }
            Notice::Missed => {
                let games: Vec<_> = self.map().iter().map(|(id, game)| (id.clone(), Arc::clone(game))).collect();
                for (id, game) in games {
                    self.reread(&id, &game).await;
                }
            }
            // Who follows the games is the server's presence's, not the games'.
            Notice::Here { .. } | Notice::Asked { .. } | Notice::Lobby { .. } => {}
        }
    }

    /// Reads game `id` held as `game` again as stored ([`Games::refresh`]); a game deleted
    /// meanwhile leaves memory.
    async fn reread(&self, id: &str, game: &tokio::sync::Mutex<Session>) {
        let mut session = game.lock().await;
        if let Err(Missing::Unknown) = self.refresh(id, &mut session).await {
            session.close();
            drop(session);
            self.map().remove(id);
        }
    }

    /// Deletes the game `id`, stopping its searches.
    pub async fn remove(&self, id: &str) -> Result<(), Missing> {
        let held = self.map().remove(id);
        if let Some(game) = &held {
            game.lock().await.close();
        }
        if self.store.delete(id).await? || held.is_some() {
            Ok(())
        } else {
            Err(Missing::Unknown)
        }
    }

    /// Ends the timed games in memory whose running clock ran out by `now`, and stores that.
    pub async fn check_clocks(&self, now: Moment) {
        let games: Vec<_> = self.map().iter().map(|(id, game)| (id.clone(), Arc::clone(game))).collect();
        for (id, game) in games {
            let mut session = game.lock().await;
            if session.is_timed() && session.decider().is_some() {
                session.check_time(now);
                // A failure drops the game from memory; it is read back as stored.
                let _ = self.save(&id, &mut session).await;
            }
        }
    }

    /// Returns the finished games, the last finished first, at most `limit`.
    pub async fn archive(&self, limit: usize) -> Result<Vec<Archived>, StoreError> {
        self.store.archive(limit).await
    }

    /// Returns the number of games held in memory.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.map().len()
    }

    /// Puts away the games idle since before `now` minus the idle time (they stay in the
    /// database); returns how many.
    pub fn expire(&self, now: Instant) -> usize {
        let mut games = self.map();
        let before = games.len();
        games.retain(|_, game| {
            // The map is held here, so a session is only tried: one locked is in use (and a
            // request that holds a session may wait for the map, on a store's failure).
            let Ok(mut session) = game.try_lock() else { return true };
            // A game someone follows live, or with changes not stored, stays.
            let keep = now.saturating_duration_since(session.last_used) < self.idle
                || !session.unsaved().1.is_empty()
                || session.changes.receiver_count() > 0;
            if !keep {
                session.close();
            }
            keep
        });
        before - games.len()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::Ordering;

    use super::*;
    use kalah_rules::{Game, Rules};
    use kalah_table::Actor;
    use kalah_table::Player;

    fn table() -> Table {
        Table::new(Game::new(Rules::standard(4, 3).unwrap()), [Player::Human; 2], Moment::now())
    }

    #[tokio::test]
    async fn idle_games_are_put_away_and_come_back_and_a_full_store_refuses() {
        let games = Games::new(2, Duration::from_secs(60));
        let a = games.add(table()).await.unwrap();
        let b = games.add(table()).await.unwrap();
        assert_ne!(a, b);
        assert_eq!(games.add(table()).await, Err(Missing::Full));
        {
            let game = games.get(&a).await.unwrap();
            let mut s = game.lock().await;
            s.act(Actor::Person, "1".parse().unwrap(), Moment::now()).unwrap();
            games.save(&a, &mut s).await.unwrap();
        }
        let stop = games.get(&a).await.unwrap().lock().await.snapshot().stop;
        assert_eq!(games.expire(Instant::now()), 0);
        assert_eq!(games.expire(Instant::now() + Duration::from_secs(61)), 2);
        assert!(stop.load(Ordering::Relaxed), "a game put away stops its searches");
        assert_eq!(games.len(), 0);
        let back = games.get(&a).await.unwrap();
        assert_eq!(back.lock().await.game().actions().len(), 1, "read back from the database with its move");
        let c = games.add(table()).await.unwrap();
        games.remove(&c).await.unwrap();
        assert_eq!(games.remove(&c).await, Err(Missing::Unknown));
        assert_eq!(games.get(&c).await.err(), Some(Missing::Unknown));
    }
}
