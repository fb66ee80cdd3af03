//! A game with the line ahead of it: actions taken back can be replayed, and any ply of the
//! whole line can be shown. The terminal game and the web server both take back and replay
//! through it, so "a person's last decision" means the same in both.

use thiserror::Error;

use crate::game::{Action, Game};
use crate::position::Outcome;
use crate::PlayError;

/// Why a step through the history was refused; the history is left as it was.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum HistoryError {
    /// Undo at the start of the game.
    #[error("nothing to undo: the game is at its start")]
    NothingToUndo,
    /// Redo with nothing taken back.
    #[error("nothing to redo: no action was taken back")]
    NothingToRedo,
    /// More plies asked back than were played.
    #[error("cannot take back {asked} plies: {can} were played")]
    TooManyUndone {
        /// Plies asked for.
        asked: usize,
        /// Plies that could be taken back.
        can: usize,
    },
    /// More plies asked forward than were taken back.
    #[error("cannot replay {asked} plies: {can} were taken back")]
    TooManyRedone {
        /// Plies asked for.
        asked: usize,
        /// Plies that could be replayed.
        can: usize,
    },
    /// A ply past the end of the whole line.
    #[error("there is no ply {ply}: the game has plies 0 to {last}")]
    NoSuchPly {
        /// Ply asked for.
        ply: usize,
        /// The last ply of the whole line.
        last: usize,
    },
    /// Zero plies asked for.
    #[error("plies must be at least 1")]
    ZeroPlies,
}

/// A game and the actions taken back from it, the next one to replay last.
///
/// ```
/// use kalah_rules::{Game, History, Rules};
/// let mut history = History::new(Game::new(Rules::standard(6, 4).unwrap()));
/// for text in ["1", "3"] {
///     let action = history.game().parse_action(text).unwrap();
///     history.act(action).unwrap();
/// }
/// history.goto(0).unwrap();
/// assert_eq!(history.game().actions().len(), 0);
/// assert_eq!(history.plies(), 2, "the line is kept to replay");
/// history.redo(1).unwrap();
/// assert_eq!(history.game().actions().len(), 1);
/// assert!(history.undo(2).is_err(), "one ply is played: two cannot be taken back");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct History {
    game: Game,
    redo: Vec<Action>,
}

impl History {
    /// Starts a history at `game`, with nothing to replay.
    pub fn new(game: Game) -> History {
        History { game, redo: Vec::new() }
    }

    /// Returns the game up to the ply shown.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Returns how many plies can be replayed.
    pub fn redo_len(&self) -> usize {
        self.redo.len()
    }

    /// Returns the number of plies of the whole line, played and taken back.
    pub fn plies(&self) -> usize {
        self.game.actions().len() + self.redo.len()
    }

    /// Takes an action. Playing the action that was taken back keeps the rest of the line to
    /// replay; another action starts a new line. A refused action changes nothing.
    pub fn act(&mut self, action: Action) -> Result<Option<Outcome>, PlayError> {
        let outcome = self.game.act(action)?;
        if self.redo.last() == Some(&action) {
            self.redo.pop();
        } else {
            self.redo.clear();
        }
        Ok(outcome)
    }

    /// Takes back `plies` actions (at least one, at most those played).
    pub fn undo(&mut self, plies: usize) -> Result<(), HistoryError> {
        let can = self.game.actions().len();
        match plies {
            0 => return Err(HistoryError::ZeroPlies),
            _ if can == 0 => return Err(HistoryError::NothingToUndo),
            n if n > can => return Err(HistoryError::TooManyUndone { asked: n, can }),
            _ => {}
        }
        for _ in 0..plies {
            let action = self.game.undo().expect("fewer plies than were played");
            self.redo.push(action);
        }
        Ok(())
    }

    /// Replays `plies` taken-back actions (at least one, at most those taken back).
    pub fn redo(&mut self, plies: usize) -> Result<(), HistoryError> {
        let can = self.redo.len();
        match plies {
            0 => return Err(HistoryError::ZeroPlies),
            _ if can == 0 => return Err(HistoryError::NothingToRedo),
            n if n > can => return Err(HistoryError::TooManyRedone { asked: n, can }),
            _ => {}
        }
        for _ in 0..plies {
            self.replay_one();
        }
        Ok(())
    }

    fn replay_one(&mut self) {
        let action = self.redo.pop().expect("a ply to replay");
        // The line was played from this very position before, so it plays again.
        self.game.act(action).expect("a taken-back action replays");
    }

    /// Shows the position after `ply` actions of the whole line (played and taken back).
    pub fn goto(&mut self, ply: usize) -> Result<(), HistoryError> {
        let played = self.game.actions().len();
        let last = self.plies();
        if ply > last {
            return Err(HistoryError::NoSuchPly { ply, last });
        }
        for _ in ply..played {
            let action = self.game.undo().expect("a ply before the one shown");
            self.redo.push(action);
        }
        for _ in played..ply {
            self.replay_one();
        }
        Ok(())
    }

    /// Takes back a person's last decision: every action since, and including, the last one a
    /// player in a seat marked in `people` took, so that against the engine its reply goes too.
    /// With no person at the board, one action. Returns how many were taken back.
    pub fn undo_turn(&mut self, people: [bool; 2]) -> Result<usize, HistoryError> {
        let count = self.undo_turn_plies(people)?;
        self.undo(count)?;
        Ok(count)
    }

    /// Returns how many actions [`History::undo_turn`] would take back, changing nothing.
    pub fn undo_turn_plies(&self, people: [bool; 2]) -> Result<usize, HistoryError> {
        let played = self.game.actions().len();
        if played == 0 {
            return Err(HistoryError::NothingToUndo);
        }
        if !people.contains(&true) {
            return Ok(1);
        }
        let last = (0..played).rev().find(|&i| self.game.actor(i).is_some_and(|(_, seat)| people[seat.index()]));
        last.map(|i| played - i).ok_or(HistoryError::NothingToUndo)
    }

    /// Replays up to the next point where a player in a seat marked in `people` decides (one
    /// action with no person at the board). Returns how many were replayed.
    pub fn redo_turn(&mut self, people: [bool; 2]) -> Result<usize, HistoryError> {
        let count = self.redo_turn_plies(people)?;
        self.redo(count)?;
        Ok(count)
    }

    /// Returns how many actions [`History::redo_turn`] would replay, changing nothing.
    pub fn redo_turn_plies(&self, people: [bool; 2]) -> Result<usize, HistoryError> {
        if self.redo.is_empty() {
            return Err(HistoryError::NothingToRedo);
        }
        if !people.contains(&true) {
            return Ok(1);
        }
        let mut game = self.game.clone();
        for (count, &action) in self.redo.iter().rev().enumerate() {
            game.act(action).expect("a taken-back action replays");
            if game.decider().is_some_and(|side| people[game.seat_of(side).index()]) {
                return Ok(count + 1);
            }
        }
        Ok(self.redo.len())
    }

    /// Returns the whole line, played and taken back, as a game with every action played.
    pub fn whole_line(&self) -> Game {
        let mut game = self.game.clone();
        for &action in self.redo.iter().rev() {
            game.act(action).expect("a taken-back action replays");
        }
        game
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rules;

    fn played(texts: &[&str]) -> History {
        let mut history = History::new(Game::new(Rules::standard(6, 4).unwrap()));
        for text in texts {
            let action = history.game().parse_action(text).unwrap();
            history.act(action).unwrap();
        }
        history
    }

    #[test]
    fn undo_goes_back_to_the_persons_last_decision_and_redo_forward_to_the_next() {
        // South (a person) sows 3 (an extra move) then 1; North (the engine) answers 2.
        let mut h = played(&["3", "1", "2"]);
        let person_south = [true, false];
        assert_eq!(h.undo_turn(person_south), Ok(2), "South's 1 and North's reply");
        assert_eq!(h.game().actions().len(), 1);
        assert_eq!(h.redo_turn(person_south), Ok(2), "up to the person's next decision");
        assert_eq!(h.game().actions().len(), 3);
        assert_eq!(h.redo_turn(person_south), Err(HistoryError::NothingToRedo));
        // Between people, or with none, one ply at a time.
        assert_eq!(h.undo_turn([true, true]), Ok(1));
        assert_eq!(h.undo_turn([false, false]), Ok(1));
        assert_eq!(h.redo_turn([false, false]), Ok(1));
        assert_eq!(h.redo_len(), 1);
    }

    #[test]
    fn overshoots_are_refused_and_change_nothing() {
        let mut h = played(&["3", "1", "2"]);
        let before = h.clone();
        assert_eq!(h.undo(4), Err(HistoryError::TooManyUndone { asked: 4, can: 3 }));
        assert_eq!(h.undo(0), Err(HistoryError::ZeroPlies));
        assert_eq!(h.redo(1), Err(HistoryError::NothingToRedo));
        assert_eq!(h.goto(4), Err(HistoryError::NoSuchPly { ply: 4, last: 3 }));
        assert_eq!(h, before);
        h.undo(2).unwrap();
        let before = h.clone();
        assert_eq!(h.redo(3), Err(HistoryError::TooManyRedone { asked: 3, can: 2 }));
        assert_eq!(h, before);
        for e in [HistoryError::NothingToUndo, HistoryError::TooManyRedone { asked: 3, can: 2 }] {
            assert!(!e.to_string().contains('\n'));
        }
    }

    #[test]
    fn goto_walks_the_whole_line_and_a_new_action_starts_a_new_one() {
        let mut h = played(&["3", "1", "2"]);
        let whole = h.whole_line();
        for ply in [0, 3, 1, 2, 0] {
            h.goto(ply).unwrap();
            assert_eq!(h.game().actions().len(), ply);
            assert_eq!(h.whole_line(), whole);
        }
        // Replaying the taken-back action keeps the line; another drops it.
        h.goto(0).unwrap();
        h.act(h.game().parse_action("3").unwrap()).unwrap();
        assert_eq!(h.plies(), 3);
        h.act(h.game().parse_action("2").unwrap()).unwrap();
        assert_eq!(h.plies(), 2);
        assert_eq!(h.redo_len(), 0);
    }
}
