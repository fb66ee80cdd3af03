//! The games being played: each with its own id, its seats, undo and redo, a version that
//! counts its changes and a stop flag for the engine's searches; idle games expire.

use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use kalah_rules::{Action, Game, Side};

use super::engines::{DEFAULT_LEVEL, LEVELS};

/// Who holds a seat: a person at the page, or the engine at a level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    /// A person, who moves by clicking.
    Human,
    /// The engine at a strength level (see [`LEVELS`]).
    Engine(u8),
}

impl Seat {
    /// Tells whether a person holds the seat.
    pub fn is_human(self) -> bool {
        self == Seat::Human
    }
}

impl FromStr for Seat {
    type Err = String;

    /// Reads `human`, `engine` (level 3) or `engine:LEVEL`.
    fn from_str(text: &str) -> Result<Seat, String> {
        let levels = LEVELS.len();
        let bad =
            || format!("unknown player {text:?}: write human, engine, or engine:LEVEL with a level from 1 to {levels}");
        match text.split_once(':') {
            None if text == "human" => Ok(Seat::Human),
            None if text == "engine" => Ok(Seat::Engine(DEFAULT_LEVEL)),
            Some(("engine", level)) => level
                .parse::<u8>()
                .ok()
                .filter(|l| LEVELS.iter().any(|(known, _, _)| known == l))
                .map(Seat::Engine)
                .ok_or_else(bad),
            _ => Err(bad()),
        }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Seat::Human => f.write_str("human"),
            Seat::Engine(level) => write!(f, "engine:{level}"),
        }
    }
}

/// One game and everything the server keeps about it.
pub struct Session {
    /// The game up to the move shown.
    pub game: Game,
    /// The first player's seat (South at the start), then the second player's.
    pub seats: [Seat; 2],
    /// Actions taken back, the next one to redo last.
    pub redo: Vec<Action>,
    /// Counts the changes of the game, so that a search's answer is used only for the game it searched.
    pub version: u64,
    /// Set to stop the searches of this version of the game.
    pub stop: Arc<AtomicBool>,
    /// An engine move is being searched.
    pub thinking: bool,
    /// The last analysis, with the version it belongs to.
    pub analysis: Option<(u64, super::api::Analysis)>,
    last_used: Instant,
}

impl Session {
    /// Starts a session of `game` with its seats.
    pub fn new(game: Game, seats: [Seat; 2]) -> Session {
        Session {
            game,
            seats,
            redo: Vec::new(),
            version: 0,
            stop: Arc::new(AtomicBool::new(false)),
            thinking: false,
            analysis: None,
            last_used: Instant::now(),
        }
    }

    /// Returns the side that decides now and its seat, or `None` once the game is over.
    pub fn decider(&self) -> Option<(Side, Seat)> {
        let side = self.game.decider()?;
        Some((side, self.seat_of(side)))
    }

    /// Returns the seat that plays `side` now.
    pub fn seat_of(&self, side: Side) -> Seat {
        self.seats[self.game.seat_of(side).index()]
    }

    /// Marks a change: stops the searches of the old version and starts a new one.
    fn changed(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.stop = Arc::new(AtomicBool::new(false));
        self.version += 1;
        self.thinking = false;
    }

    /// Stops every search of the game (it is being closed).
    pub fn close(&mut self) {
        self.changed();
    }

    /// Takes an action; an illegal one is refused with a message and changes nothing.
    pub fn act(&mut self, action: Action) -> Result<(), String> {
        self.game.act(action).map_err(|e| e.to_string())?;
        // Playing the action that was taken back keeps the rest of the line to redo.
        if self.redo.last() == Some(&action) {
            self.redo.pop();
        } else {
            self.redo.clear();
        }
        self.changed();
        Ok(())
    }

    /// Takes back `plies` actions, or with `None` every action back to, and including, the last
    /// one a person took (one action when no person plays); returns how many were taken back.
    pub fn undo(&mut self, plies: Option<usize>) -> usize {
        let count = match plies {
            Some(n) => n.min(self.game.actions().len()),
            None => {
                let actions = self.game.actions().len();
                let last_human = (0..actions)
                    .rev()
                    .find(|&i| self.game.actor(i).is_some_and(|(_, seat)| self.seats[seat.index()].is_human()));
                match last_human {
                    Some(i) if self.seats.iter().any(|s| s.is_human()) => actions - i,
                    _ => actions.min(1),
                }
            }
        };
        for _ in 0..count {
            if let Some(action) = self.game.undo() {
                self.redo.push(action);
            }
        }
        if count > 0 {
            self.changed();
        }
        count
    }

    /// Replays `plies` taken-back actions, or with `None` up to the next point where a person
    /// decides (one action when no person plays); returns how many were replayed.
    pub fn redo(&mut self, plies: Option<usize>) -> usize {
        let limit = plies.unwrap_or(usize::MAX).min(self.redo.len());
        let mut count = 0;
        while count < limit {
            let Some(&action) = self.redo.last() else { break };
            if self.game.act(action).is_err() {
                // Cannot happen: the line was played before. Drop a line that no longer fits.
                self.redo.clear();
                break;
            }
            self.redo.pop();
            count += 1;
            let person_decides = self.decider().is_some_and(|(_, seat)| seat.is_human());
            if plies.is_none() && (person_decides || !self.seats.iter().any(|s| s.is_human())) {
                break;
            }
        }
        if count > 0 {
            self.changed();
        }
        count
    }

    /// Goes to the position after `ply` actions of the whole line (played and taken back).
    pub fn goto(&mut self, ply: usize) -> Result<(), String> {
        let played = self.game.actions().len();
        let total = played + self.redo.len();
        if ply > total {
            return Err(format!("there is no ply {ply}: the game has plies 0 to {total}"));
        }
        if ply < played {
            self.undo(Some(played - ply));
        } else {
            self.redo(Some(ply - played));
        }
        Ok(())
    }

    /// Returns the whole line, played and taken back, as a game with every action played.
    pub fn whole_line(&self) -> Game {
        let mut game = self.game.clone();
        for &action in self.redo.iter().rev() {
            if game.act(action).is_err() {
                break;
            }
        }
        game
    }
}

/// Why a game could not be had.
#[derive(Debug, PartialEq, Eq)]
pub enum Missing {
    /// No game has the id (never had, closed or expired).
    Unknown,
    /// The server holds its most games already.
    Full,
}

/// All games, by id.
pub struct Games {
    games: Mutex<HashMap<String, Arc<Mutex<Session>>>>,
    max: usize,
    idle: Duration,
}

impl Games {
    /// Returns an empty store of at most `max` games, each closed after `idle` without a request.
    pub fn new(max: usize, idle: Duration) -> Games {
        Games { games: Mutex::new(HashMap::new()), max, idle }
    }

    /// Returns how long a game may stay idle.
    pub fn idle(&self) -> Duration {
        self.idle
    }

    /// Returns the most games held at once.
    pub fn max(&self) -> usize {
        self.max
    }

    fn map(&self) -> MutexGuard<'_, HashMap<String, Arc<Mutex<Session>>>> {
        self.games.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Adds a game and returns its new id, closing expired games first if the store is full.
    pub fn add(&self, session: Session) -> Result<String, Missing> {
        if self.map().len() >= self.max {
            self.expire(Instant::now());
        }
        let mut games = self.map();
        if games.len() >= self.max {
            return Err(Missing::Full);
        }
        let id = loop {
            let id = format!("{:016x}", rand::random::<u64>());
            if !games.contains_key(&id) {
                break id;
            }
        };
        games.insert(id.clone(), Arc::new(Mutex::new(session)));
        Ok(id)
    }

    /// Returns the game `id`, marked as used now.
    pub fn get(&self, id: &str) -> Result<Arc<Mutex<Session>>, Missing> {
        let game = self.map().get(id).cloned().ok_or(Missing::Unknown)?;
        lock(&game).last_used = Instant::now();
        Ok(game)
    }

    /// Closes the game `id`, stopping its searches.
    pub fn remove(&self, id: &str) -> Result<(), Missing> {
        let game = self.map().remove(id).ok_or(Missing::Unknown)?;
        lock(&game).close();
        Ok(())
    }

    /// Returns the number of games held.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.map().len()
    }

    /// Closes the games idle since before `now` minus the idle time; returns how many.
    pub fn expire(&self, now: Instant) -> usize {
        let mut games = self.map();
        let before = games.len();
        games.retain(|_, game| {
            let mut session = lock(game);
            let keep = now.saturating_duration_since(session.last_used) < self.idle;
            if !keep {
                session.close();
            }
            keep
        });
        before - games.len()
    }
}

/// Locks a session; a session is never left half changed, so a poisoned lock is still good.
pub fn lock(session: &Mutex<Session>) -> MutexGuard<'_, Session> {
    session.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_rules::Rules;

    fn session(seats: [Seat; 2]) -> Session {
        Session::new(Game::new(Rules::standard(4, 3).unwrap()), seats)
    }

    fn play(session: &mut Session, actions: &[&str]) {
        for action in actions {
            session.act(action.parse().unwrap()).unwrap();
        }
    }

    #[test]
    fn seats_read_and_refuse() {
        assert_eq!("human".parse(), Ok(Seat::Human));
        assert_eq!("engine".parse(), Ok(Seat::Engine(DEFAULT_LEVEL)));
        assert_eq!("engine:5".parse(), Ok(Seat::Engine(5)));
        for bad in ["", "engine:0", "engine:6", "engine:x", "robot", "human:1"] {
            assert!(bad.parse::<Seat>().is_err(), "{bad}");
        }
        assert_eq!(Seat::Engine(2).to_string().parse(), Ok(Seat::Engine(2)));
    }

    #[test]
    fn undo_goes_back_to_the_persons_last_decision_and_redo_forward_to_the_next() {
        let mut s = session([Seat::Human, Seat::Engine(1)]);
        play(&mut s, &["1", "1"]);
        let version = s.version;
        let stop = Arc::clone(&s.stop);
        assert_eq!(s.undo(None), 2, "the engine's reply and the person's move");
        assert!(stop.load(Ordering::Relaxed), "the old version's searches are stopped");
        assert!(s.version > version);
        assert_eq!(s.game.actions().len(), 0);
        assert_eq!(s.redo(None), 2, "up to the person's next decision");
        assert_eq!(s.game.actions().len(), 2);
        s.goto(1).unwrap();
        assert_eq!(s.whole_line().actions().len(), 2);
        assert!(s.goto(3).is_err());
        // A different action drops the line taken back; the same one keeps it.
        s.goto(0).unwrap();
        play(&mut s, &["1"]);
        assert_eq!(s.redo.len(), 1);
        play(&mut s, &["2"]);
        assert!(s.redo.is_empty());
        assert_eq!(s.undo(Some(99)), 2);
        assert_eq!(s.undo(None), 0, "nothing left to take back");
    }

    #[test]
    fn an_illegal_action_is_refused_and_changes_nothing() {
        let mut s = session([Seat::Human, Seat::Human]);
        play(&mut s, &["1"]);
        let (game, version) = (s.game.clone(), s.version);
        for bad in ["9", "swap", "keep", "S1>N1"] {
            assert!(s.act(bad.parse().unwrap()).is_err(), "{bad}");
        }
        assert_eq!(s.game, game);
        assert_eq!(s.version, version);
    }

    #[test]
    fn idle_games_expire_and_a_full_store_refuses() {
        let games = Games::new(2, Duration::from_secs(60));
        let a = games.add(session([Seat::Human; 2])).unwrap();
        let b = games.add(session([Seat::Human; 2])).unwrap();
        assert_ne!(a, b);
        assert_eq!(games.add(session([Seat::Human; 2])), Err(Missing::Full));
        let stop = Arc::clone(&lock(&games.get(&a).unwrap()).stop);
        assert_eq!(games.expire(Instant::now()), 0);
        assert_eq!(games.expire(Instant::now() + Duration::from_secs(61)), 2);
        assert!(stop.load(Ordering::Relaxed), "an expired game's searches stop");
        assert_eq!(games.get(&a).err(), Some(Missing::Unknown));
        assert_eq!(games.len(), 0);
        let c = games.add(session([Seat::Human; 2])).unwrap();
        games.remove(&c).unwrap();
        assert_eq!(games.remove(&c), Err(Missing::Unknown));
    }
}
