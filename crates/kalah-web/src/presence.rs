//! Who follows a game between friends: a player is here while a page of theirs holds the game's
//! live channel open (with the seat's token), away otherwise. Kept in this process's memory,
//! never stored: after a restart everyone is away until their page reconnects, which it does by
//! itself.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use kalah_rules::Seat;
use tokio::sync::watch;

/// The live channels of each game open now, counted by seat.
#[derive(Default)]
pub struct Presence {
    games: Mutex<HashMap<String, Here>>,
}

/// One game's players' open channels, and the channel that tells who is here.
struct Here {
    /// Open live channels of the first player, then of the second.
    open: [usize; 2],
    /// Whether each player (first, second) is here.
    tell: watch::Sender<[bool; 2]>,
}

impl Here {
    fn new() -> Here {
        Here { open: [0, 0], tell: watch::channel([false, false]).0 }
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
        let mut games = self.presence.lock();
        if let Some(here) = games.get_mut(&self.id) {
            let open = &mut here.open[self.seat.index()];
            *open = open.saturating_sub(1);
            let now = here.open.map(|n| n > 0);
            here.tell.send_if_modified(|was| std::mem::replace(was, now) != now);
        }
    }
}

impl Presence {
    fn lock(&self) -> MutexGuard<'_, HashMap<String, Here>> {
        // The map holds counts only: a panic elsewhere leaves it usable.
        self.games.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Returns a receiver that holds whether each player of game `id` (first, second) is here,
    /// and changes when that does.
    pub fn follow(&self, id: &str) -> watch::Receiver<[bool; 2]> {
        self.lock().entry(id.to_string()).or_insert_with(Here::new).tell.subscribe()
    }

    /// Counts `seat`'s player of game `id` as here until the answer is dropped.
    pub fn attend(self: &Arc<Presence>, id: &str, seat: Seat) -> Attending {
        let mut games = self.lock();
        let here = games.entry(id.to_string()).or_insert_with(Here::new);
        here.open[seat.index()] += 1;
        let now = here.open.map(|n| n > 0);
        here.tell.send_if_modified(|was| std::mem::replace(was, now) != now);
        Attending { presence: Arc::clone(self), id: id.to_string(), seat }
    }

    /// Forgets the games nobody follows any more.
    pub fn forget_unfollowed(&self) {
        self.lock().retain(|_, here| here.open != [0, 0] || here.tell.receiver_count() > 0);
    }

    /// Returns whether each player of game `id` (first, second) is here.
    pub fn here(&self, id: &str) -> [bool; 2] {
        self.lock().get(id).map_or([false, false], |here| here.open.map(|n| n > 0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_player_is_here_while_a_channel_of_theirs_is_open() {
        let presence = Arc::new(Presence::default());
        let mut told = presence.follow("g");
        assert_eq!(*told.borrow_and_update(), [false, false]);
        let first = presence.attend("g", Seat::First);
        let again = presence.attend("g", Seat::First);
        assert!(told.has_changed().unwrap());
        assert_eq!(*told.borrow_and_update(), [true, false]);
        drop(first);
        assert!(!told.has_changed().unwrap(), "a second page of the first player is still open");
        drop(again);
        assert_eq!(*told.borrow_and_update(), [false, false]);
        assert_eq!(presence.here("g"), [false, false]);
        drop(told);
        presence.forget_unfollowed();
        assert!(presence.lock().is_empty());
    }
}
