//! The agent's view of one game: its side, the board, whose turn it is, and the pie offer.
//!
//! The referee's board is the truth: every `CHANGE` carries the whole board and whose turn it is,
//! so the session takes both from the message. It also replays the reported move on its own
//! board and says so when the two disagree (a referee with other rules, or a message lost), but
//! plays on from the referee's board.

use kalah_rules::{Move, Position, Rules, Side};

use super::protocol::{Board, Change, Message, Reply, Turn};

/// What the agent has to do after a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// Answer: sow a house, or (when `may_swap`) swap sides instead.
    Move {
        /// North's first turn: `SWAP` is allowed.
        may_swap: bool,
    },
    /// Wait for the next message.
    Wait,
    /// The game is over; wait for `END`.
    Over,
    /// `END`: stop.
    Stop,
}

/// A message that does not fit the game so far, with what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutOfTurn(pub String);

/// One game as the agent follows it.
#[derive(Clone, Debug)]
pub struct Session {
    rules: Rules,
    /// The agent's side now (it changes on a swap); `None` before `START`.
    side: Option<Side>,
    /// The board as the referee last gave it, with the player to move.
    position: Position,
    /// Moves made so far, a swap included (the referee's count, less one).
    moves: u32,
    swapped: bool,
    over: bool,
    /// The house the agent last answered, until the referee reports a sowing.
    answer: Option<Move>,
    /// Set when the referee's board or turn differed from the agent's replay of the move.
    pub disagreement: Option<String>,
}

impl Session {
    /// Returns a session waiting for `START`.
    pub fn new(rules: Rules) -> Session {
        Session {
            rules,
            side: None,
            position: Position::start(&rules),
            moves: 0,
            swapped: false,
            over: false,
            answer: None,
            disagreement: None,
        }
    }

    /// Returns the agent's side, once the game has started.
    pub fn side(&self) -> Option<Side> {
        self.side
    }

    /// Returns the position, with the player to move.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Returns the moves made so far (sowings and a swap, by both players).
    pub fn moves(&self) -> u32 {
        self.moves
    }

    /// Tells whether the game has started.
    pub fn started(&self) -> bool {
        self.side.is_some()
    }

    /// Tells whether the last `CHANGE` ended the game.
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// Takes in a message from the referee and says what to do next; a message that does not fit
    /// the game leaves the session unchanged.
    pub fn receive(&mut self, message: &Message) -> Result<Next, OutOfTurn> {
        self.disagreement = None;
        match message {
            Message::End => Ok(Next::Stop),
            Message::Start(side) => {
                if self.started() {
                    return Err(OutOfTurn(format!("START;{} in the middle of a game", side.name())));
                }
                self.side = Some(*side);
                Ok(if *side == Side::South { Next::Move { may_swap: false } } else { Next::Wait })
            }
            Message::Change { change, board, turn } => {
                let Some(me) = self.side else {
                    return Err(OutOfTurn("CHANGE before START".to_string()));
                };
                if self.over {
                    return Err(OutOfTurn("CHANGE after the end of the game".to_string()));
                }
                let mut disagreement = None;
                let (side, mover) = match change {
                    Change::Swap => {
                        // Only North's first turn allows it, and the referee tells the old South.
                        if me != Side::South || self.moves != 1 || self.swapped || *turn != Turn::You {
                            return Err(OutOfTurn(
                                "CHANGE;SWAP here: only the first player hears of a swap, after its first move, \
                                 and moves next"
                                    .to_string(),
                            ));
                        }
                        let expected = Board::of(&self.position);
                        if *board != expected {
                            disagreement = Some(format!(
                                "a swap changed the board from {expected} to {board}; playing on {board}"
                            ));
                        }
                        (Side::North, Side::North)
                    }
                    Change::Sow(mv) => {
                        if let Some(answer) = self.answer.filter(|answer| answer != mv) {
                            disagreement = Some(format!("the agent answered house {answer}, the referee reports {mv}"));
                        }
                        let mover = match turn {
                            Turn::You => me,
                            Turn::Opp => me.opponent(),
                            // The mover of a finished game does not matter.
                            Turn::End => self.position.mover(),
                        };
                        match self.position.play(&self.rules, *mv) {
                            Ok((replayed, _)) => {
                                let expected = Board::of(&replayed);
                                if *board != expected {
                                    disagreement = Some(format!(
                                        "{} sowing house {mv} gives {expected} here, the referee says {board}; \
                                         playing on the referee's board",
                                        self.position.mover()
                                    ));
                                } else if *turn != Turn::End && replayed.mover() != mover {
                                    disagreement = Some(format!(
                                        "after house {mv} {} moves here, the referee says {}; playing on",
                                        replayed.mover(),
                                        mover
                                    ));
                                }
                            }
                            Err(e) => {
                                disagreement = Some(format!(
                                    "house {mv} cannot be sown here ({e}); playing on the referee's board {board}"
                                ))
                            }
                        }
                        (me, mover)
                    }
                };
                let position = board.position(mover, &self.rules).map_err(OutOfTurn)?;
                if *turn == Turn::You && position.is_over(&self.rules) {
                    return Err(OutOfTurn(format!("CHANGE asks for a move on a finished board {board}")));
                }
                self.position = position;
                self.side = Some(side);
                self.swapped |= *change == Change::Swap;
                self.moves += 1;
                self.answer = None;
                self.over = *turn == Turn::End;
                self.disagreement = disagreement;
                Ok(match turn {
                    Turn::You => Next::Move { may_swap: self.may_swap() },
                    Turn::Opp => Next::Wait,
                    Turn::End => Next::Over,
                })
            }
        }
    }

    /// Tells whether the agent, to move now, may swap: North after South's first move, no swap yet.
    fn may_swap(&self) -> bool {
        self.rules.pie && self.side == Some(Side::North) && self.moves == 1 && !self.swapped
    }

    /// Records the agent's own answer. A move comes back in the next `CHANGE`; a swap does not
    /// (the referee tells only the other agent), so it changes sides here: the agent becomes
    /// South and North, the other agent, moves next on the same board.
    pub fn answered(&mut self, reply: Reply) {
        match reply {
            Reply::Move(mv) => self.answer = Some(mv),
            Reply::Swap => {
                self.side = Some(Side::South);
                self.swapped = true;
                self.moves += 1;
                self.position = self.position.with_mover(Side::North);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::protocol::parse_message;
    use super::*;

    fn receive(session: &mut Session, line: &str) -> Next {
        session.receive(&parse_message(line, 7).unwrap()).unwrap()
    }

    #[test]
    fn south_moves_first_and_hears_both_moves() {
        let mut s = Session::new(Rules::mkagent());
        assert_eq!(receive(&mut s, "START;South"), Next::Move { may_swap: false });
        s.answered(Reply::Move(Move::from_number(1).unwrap()));
        // South's first move ends in the store but passes the turn (the MKAgent variant).
        assert_eq!(receive(&mut s, "CHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;OPP"), Next::Wait);
        assert_eq!(s.disagreement, None);
        assert_eq!(s.position().mover(), Side::North);
        // North's house 1 ends in North's store: North moves again.
        assert_eq!(receive(&mut s, "CHANGE;1;0,8,8,8,8,8,8,1,0,8,8,8,8,8,8,1;OPP"), Next::Wait);
        assert_eq!(s.disagreement, None);
        assert_eq!(receive(&mut s, "CHANGE;2;0,0,9,9,9,9,9,2,1,9,8,8,8,8,8,1;YOU"), Next::Move { may_swap: false });
        assert_eq!(s.disagreement, None);
        assert_eq!(s.position().to_string(), "1,9,8,8,8,8,8:1/0,0,9,9,9,9,9:2/S");
        assert_eq!(receive(&mut s, "END"), Next::Stop);
    }

    #[test]
    fn a_move_other_than_the_answer_is_reported() {
        let mut s = Session::new(Rules::mkagent());
        receive(&mut s, "START;South");
        s.answered(Reply::Move(Move::from_number(4).unwrap()));
        assert_eq!(receive(&mut s, "CHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;OPP"), Next::Wait);
        assert_eq!(s.disagreement.as_deref(), Some("the agent answered house 4, the referee reports 1"));
    }

    #[test]
    fn north_may_swap_on_its_first_turn_only() {
        let mut s = Session::new(Rules::mkagent());
        assert_eq!(receive(&mut s, "START;North"), Next::Wait);
        assert_eq!(receive(&mut s, "CHANGE;2;8,7,7,7,7,7,7,0,7,0,8,8,8,8,8,1;YOU"), Next::Move { may_swap: true });
        s.answered(Reply::Swap);
        assert_eq!(s.side(), Some(Side::South));
        assert_eq!(s.position().mover(), Side::North);
        // The other agent, North now, sows its house 2 (7 seeds: houses 3-7, store, South's house 1).
        assert_eq!(receive(&mut s, "CHANGE;2;8,0,8,8,8,8,8,1,8,0,8,8,8,8,8,1;YOU"), Next::Move { may_swap: false });
        assert_eq!(s.disagreement, None);
    }

    #[test]
    fn the_first_player_hears_of_a_swap_and_moves_as_north() {
        let mut s = Session::new(Rules::mkagent());
        receive(&mut s, "START;South");
        receive(&mut s, "CHANGE;7;8,8,8,8,8,8,7,0,7,7,7,7,7,7,0,1;OPP");
        assert_eq!(receive(&mut s, "CHANGE;SWAP;8,8,8,8,8,8,7,0,7,7,7,7,7,7,0,1;YOU"), Next::Move { may_swap: false });
        assert_eq!(s.side(), Some(Side::North));
        assert_eq!(s.position().mover(), Side::North);
        assert_eq!(s.disagreement, None);
    }

    #[test]
    fn messages_out_of_turn_are_refused_and_change_nothing() {
        let mut s = Session::new(Rules::mkagent());
        let board = "7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1";
        assert!(s.receive(&parse_message(&format!("CHANGE;1;{board};YOU"), 7).unwrap()).is_err());
        receive(&mut s, "START;North");
        assert!(s.receive(&parse_message("START;South", 7).unwrap()).is_err());
        assert!(s.receive(&parse_message(&format!("CHANGE;SWAP;{board};YOU"), 7).unwrap()).is_err());
        let finished = "CHANGE;1;0,0,0,0,0,0,0,50,0,0,0,0,0,0,0,48;YOU";
        assert!(s.receive(&parse_message(finished, 7).unwrap()).is_err());
        assert_eq!(s.moves(), 0);
        assert_eq!(s.side(), Some(Side::North));
    }

    #[test]
    fn a_board_that_differs_from_the_replay_is_reported_and_followed() {
        let mut s = Session::new(Rules::mkagent());
        receive(&mut s, "START;North");
        // Under the standard rules South would move again; here the referee says so anyway.
        assert_eq!(receive(&mut s, "CHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;OPP"), Next::Wait);
        assert!(s.disagreement.as_deref().is_some_and(|d| d.contains("North moves here")), "{:?}", s.disagreement);
        assert_eq!(s.position().mover(), Side::South);
        assert_eq!(receive(&mut s, "CHANGE;2;7,7,7,7,7,7,7,0,0,0,9,9,9,9,9,3;YOU"), Next::Move { may_swap: false });
        assert!(s.disagreement.as_deref().is_some_and(|d| d.contains("the referee says")));
        assert_eq!(s.position().to_string(), "0,0,9,9,9,9,9:3/7,7,7,7,7,7,7:0/N");
    }

    #[test]
    fn the_end_of_the_game_comes_before_end() {
        let mut s = Session::new(Rules::mkagent());
        receive(&mut s, "START;South");
        assert_eq!(receive(&mut s, "CHANGE;1;0,0,0,0,0,0,0,48,0,0,0,0,0,0,0,50;END"), Next::Over);
        assert!(s.is_over());
        assert!(s.receive(&parse_message("CHANGE;1;0,0,0,0,0,0,0,48,0,0,0,0,0,0,0,50;END", 7).unwrap()).is_err());
        assert_eq!(receive(&mut s, "END"), Next::Stop);
    }
}
