//! Who follows a game between friends: a player is here while a page of theirs holds the game's
//! live channel open (with the seat's token), away otherwise. Kept in memory, never stored: after
//! a restart everyone is away until their page reconnects, which it does by itself.
//!
//! Servers that share their games in PostgreSQL share presence too: each tells the others when a
//! player of a game comes to it or leaves it ([`Presence::told`] hands these changes to whoever
//! sends them, [`Presence::heard`] takes the others'), and a player counts as here while a page
//! of theirs is open on any server. A server that ends, even killed, stops counting: its
//! players leave with it ([`Presence::forget_process`]).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use kalah_rules::Seat;
use tokio::sync::{mpsc, watch};

/// Another server, as the shared database names it (the id of its listening connection there).
pub type Process = u32;

/// Whether each player of a game (first, second) is here.
pub type Here = [bool; 2];

/// How many pages follow each player's seat of a game (first, second): the live channels open
/// through this server, and one for each other server through which the player is here (the
/// others tell whether, not how many). More than one: the player has the game open twice.
pub type Pages = [usize; 2];

/// A change of who is here through this server: a game's id and its players here now.
pub type Change = (String, Here);

/// The live channels of each game open now, counted by seat, with what other servers told.
#[derive(Default)]
pub struct Presence {
    games: Mutex<HashMap<String, Game>>,
    /// Where this server's changes go to be told to the others (none: no other servers).
    outbox: Option<mpsc::UnboundedSender<Change>>,
}

/// One game's players' open channels here and elsewhere, and the channel that tells who is here.
struct Game {
    /// Open live channels here of the first player, then of the second.
    open: [usize; 2],
    /// Who is here through each other server that says anyone is.
    elsewhere: HashMap<Process, Here>,
    /// How many pages follow each player (first, second) on every server.
    tell: watch::Sender<Pages>,
}

impl Game {
    fn new() -> Game {
        Game { open: [0, 0], elsewhere: HashMap::new(), tell: watch::channel([0, 0]).0 }
    }

    /// Who is here through this server.
    fn local(&self) -> Here {
        self.open.map(|n| n > 0)
    }

    /// Who is here through any server.
    fn now(&self) -> Here {
        self.pages().map(|n| n > 0)
    }

    /// How many pages follow each player through any server.
    fn pages(&self) -> Pages {
        self.elsewhere.values().fold(self.open, |[a, b], &[c, d]| [a + usize::from(c), b + usize::from(d)])
    }

    /// Tells the followers when who is here, or how many pages, changed.
    fn update(&self) {
        let now = self.pages();
        self.tell.send_if_modified(|was| std::mem::replace(was, now) != now);
    }

    /// Tells whether nothing need be kept: nobody here, nobody following.
    fn is_idle(&self) -> bool {
        self.open == [0, 0] && self.elsewhere.is_empty() && self.tell.receiver_count() == 0
    }
}

/// A player's open live channel: the player counts as here until it is dropped.
pub struct Attending {
    presence: Arc<Presence>,
    id: String,
    seat: Seat,
}

impl Drop for Attending {
    fn drop(&mut self) {
        self.presence.count(&self.id, self.seat, false);
    }
}

impl Presence {
    /// Returns the presence of a server that shares it with others, and the receiver of the
    /// changes to tell them, in order.
    pub fn shared() -> (Presence, mpsc::UnboundedReceiver<Change>) {
        let (outbox, changes) = mpsc::unbounded_channel();
        (Presence { games: Mutex::default(), outbox: Some(outbox) }, changes)
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, Game>> {
        // The map holds counts only: a panic elsewhere leaves it usable.
        self.games.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Counts a channel of `seat`'s player of game `id` as opened or closed.
    fn count(&self, id: &str, seat: Seat, opened: bool) {
        let mut games = self.lock();
        let game = games.entry(id.to_string()).or_insert_with(Game::new);
        let was = game.local();
        let open = &mut game.open[seat.index()];
        *open = if opened { *open + 1 } else { open.saturating_sub(1) };
        let local = game.local();
        game.update();
        if local != was {
            if let Some(outbox) = &self.outbox {
                // Sent while the map is held, so that the changes of one game go out in order.
                let _ = outbox.send((id.to_string(), local));
            }
        }
    }

    /// Returns a receiver that holds how many pages follow each player of game `id` (first,
    /// second; none: away), and changes when that does.
    pub fn follow(&self, id: &str) -> watch::Receiver<Pages> {
        self.lock().entry(id.to_string()).or_insert_with(Game::new).tell.subscribe()
    }

    /// Counts `seat`'s player of game `id` as here until the answer is dropped.
    pub fn attend(self: &Arc<Presence>, id: &str, seat: Seat) -> Attending {
        self.count(id, seat, true);
        Attending { presence: Arc::clone(self), id: id.to_string(), seat }
    }

    /// Forgets the games nobody follows any more.
    pub fn forget_unfollowed(&self) {
        self.lock().retain(|_, game| !game.is_idle());
    }

    /// Returns whether each player of game `id` (first, second) is here.
    pub fn here(&self, id: &str) -> Here {
        self.lock().get(id).map_or([false, false], Game::now)
    }

    /// Returns every game with a player here through this server, to tell a server that asks.
    pub fn told(&self) -> Vec<Change> {
        self.lock()
            .iter()
            .filter(|(_, game)| game.open != [0, 0])
            .map(|(id, game)| (id.clone(), game.local()))
            .collect()
    }

    /// Takes what server `from` told: who of each game is here through it now.
    pub fn heard(&self, from: Process, changes: Vec<Change>) {
        let mut games = self.lock();
        for (id, here) in changes {
            let game = games.entry(id).or_insert_with(Game::new);
            if here == [false, false] {
                game.elsewhere.remove(&from);
            } else {
                game.elsewhere.insert(from, here);
            }
            game.update();
        }
    }

    /// Returns the other servers that say someone is here through them.
    pub fn processes(&self) -> Vec<Process> {
        let mut processes: Vec<Process> =
            self.lock().values().flat_map(|game| game.elsewhere.keys().copied()).collect();
        processes.sort_unstable();
        processes.dedup();
        processes
    }

    /// Forgets what server `from` told, when it ended: its players leave with it.
    pub fn forget_process(&self, from: Process) {
        for game in self.lock().values_mut() {
            if game.elsewhere.remove(&from).is_some() {
                game.update();
            }
        }
    }

    /// Forgets what every other server told: when notices may have been missed, each is asked
    /// again.
    pub fn forget_elsewhere(&self) {
        for game in self.lock().values_mut() {
            if !game.elsewhere.is_empty() {
                game.elsewhere.clear();
                game.update();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_player_is_here_while_a_channel_of_theirs_is_open() {
        let presence = Arc::new(Presence::default());
        let mut told = presence.follow("g");
        assert_eq!(*told.borrow_and_update(), [0, 0]);
        let first = presence.attend("g", Seat::First);
        assert_eq!(*told.borrow_and_update(), [1, 0]);
        let again = presence.attend("g", Seat::First);
        assert!(told.has_changed().unwrap(), "a second page of the first player is counted");
        assert_eq!(*told.borrow_and_update(), [2, 0]);
        assert_eq!(presence.here("g"), [true, false]);
        drop(first);
        assert_eq!(*told.borrow_and_update(), [1, 0], "a second page of the first player is still open");
        drop(again);
        assert_eq!(*told.borrow_and_update(), [0, 0]);
        assert_eq!(presence.here("g"), [false, false]);
        drop(told);
        presence.forget_unfollowed();
        assert!(presence.lock().is_empty());
    }

    #[test]
    fn a_player_here_through_another_server_is_here_until_it_says_otherwise_or_ends() {
        let (presence, mut changes) = Presence::shared();
        let presence = Arc::new(presence);
        let mut told = presence.follow("g");
        // This server tells the others of its own players only, when they come and go.
        let first = presence.attend("g", Seat::First);
        assert_eq!(changes.try_recv().unwrap(), ("g".to_string(), [true, false]));
        let again = presence.attend("g", Seat::First);
        assert!(changes.try_recv().is_err(), "no change to tell: the first player was here already");
        assert_eq!(presence.told(), vec![("g".to_string(), [true, false])]);
        // The second player follows the game on server 7, then also on server 9.
        presence.heard(7, vec![("g".to_string(), [false, true])]);
        assert_eq!(*told.borrow_and_update(), [2, 1]);
        presence.heard(9, vec![("g".to_string(), [false, true])]);
        assert_eq!(*told.borrow_and_update(), [2, 2], "a page on each of two servers");
        presence.heard(7, vec![("g".to_string(), [false, false])]);
        assert_eq!(*told.borrow_and_update(), [2, 1], "still here through server 9");
        assert_eq!(presence.here("g"), [true, true]);
        assert_eq!(presence.processes(), vec![9]);
        presence.forget_process(9);
        assert_eq!(*told.borrow_and_update(), [2, 0], "server 9 ended: its player left with it");
        drop((first, again));
        assert_eq!(changes.try_recv().unwrap(), ("g".to_string(), [false, false]));
        assert_eq!(*told.borrow_and_update(), [0, 0]);
        // What other servers told is kept for games nobody follows here yet.
        presence.heard(7, vec![("h".to_string(), [true, true])]);
        drop(told);
        presence.forget_unfollowed();
        assert_eq!(presence.here("h"), [true, true]);
        presence.forget_elsewhere();
        assert_eq!(presence.here("h"), [false, false]);
        presence.forget_unfollowed();
        assert!(presence.lock().is_empty());
    }
}
