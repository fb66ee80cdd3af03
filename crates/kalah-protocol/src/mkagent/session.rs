//! The agent's view of one game: its side, the board, whose turn it is, and the pie offer.
//!
//! The referee's board is the truth: every `CHANGE` carries the whole board and whose turn it is,
//! so the session takes both from the message. It also replays the reported move on its own
//! board and says so when the two disagree (a referee with other rules, or a message lost), but
//! plays on from the referee's board.
//!
//! The agent's answer goes through the session too ([`Session::answer`]): it takes the engine's
//! decision, checks that it answers the turn asked for, and returns the line to write.
//!
//! ```
//! use kalah_protocol::mkagent::{Next, Session};
//! use kalah_rules::{Action, Rules};
//!
//! let mut game = Session::new(Rules::mkagent());
//! assert_eq!(game.receive_line("START;South"), Ok(Next::Move { may_swap: false }));
//! assert!(game.answer(Action::Swap).is_err(), "South has no swap to make");
//! let reply = game.answer("1".parse().unwrap()).unwrap();
//! assert_eq!(reply.to_string(), "MOVE;1");
//! let next = game.receive_line("CHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;OPP");
//! assert_eq!(next, Ok(Next::Wait));
//! assert!(game.receive_line("START;North").is_err(), "ignored: the game has started");
//! assert_eq!(game.receive_line("END"), Ok(Next::Stop));
//! ```

use std::fmt;

use kalah_rules::{Action, Move, PlayError, Position, PositionError, Rules, Side};

use super::message::{parse_message, Board, Change, Message, MessageError, Reply, Turn};

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

/// A message that does not fit the game so far.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OutOfTurn {
    /// `START` once the game has started.
    #[error("START;{} in the middle of a game", .0.name())]
    StartAgain(Side),
    /// `CHANGE` before `START`.
    #[error("CHANGE before START")]
    ChangeBeforeStart,
    /// `CHANGE` after the one that ended the game.
    #[error("CHANGE after the end of the game")]
    ChangeAfterEnd,
    /// `CHANGE;SWAP` to another agent than the first player after its first move, or not
    /// giving it the turn.
    #[error("CHANGE;SWAP here: only the first player hears of a swap, after its first move, and moves next")]
    Swap,
    /// A board the rules do not take.
    #[error("the board {board} is not a position here: {error}")]
    Board {
        /// The board.
        board: Board,
        /// What is wrong with it.
        error: PositionError,
    },
    /// `YOU` on a board where the game is over.
    #[error("CHANGE asks for a move on a finished board {0}")]
    Finished(Board),
}

/// A line the session does not take: it leaves the session unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Ignored {
    /// The line is not a message.
    #[error(transparent)]
    Malformed(#[from] MessageError),
    /// The message does not fit the game.
    #[error(transparent)]
    OutOfTurn(#[from] OutOfTurn),
}

/// An answer the agent cannot give now: the session is left as it was.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unanswerable {
    /// The referee has not asked the agent to move, or it has answered already.
    #[error("the referee has not asked for a move")]
    NotAsked,
    /// A swap where the turn allows none.
    #[error("a swap is allowed only on North's first turn")]
    Swap,
    /// A house that cannot be sown on the board.
    #[error("house {0} cannot be sown on {1}")]
    Illegal(Move, Position),
    /// An action the MKAgent game does not have (the handicap).
    #[error("{0} is no answer in the MKAgent game: it has no handicap")]
    Action(Action),
}

/// Where the referee's report differs from the agent's own replay of the game; the agent plays
/// on from the referee's board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Disagreement {
    /// The agent answered one house, the referee reports another.
    Answer {
        /// The agent's answer.
        answered: Move,
        /// The house the referee reports.
        reported: Move,
    },
    /// A swap came with another board than the one before it.
    SwapBoard {
        /// The board before the swap.
        expected: Board,
        /// The board the referee gives.
        board: Board,
    },
    /// The reported sowing gives another board here.
    Board {
        /// Who sowed, by the agent's replay.
        mover: Side,
        /// The house sown.
        house: Move,
        /// The board by the agent's replay.
        expected: Board,
        /// The board the referee gives.
        board: Board,
    },
    /// The reported sowing gives the turn to the other player here.
    Turn {
        /// The house sown.
        house: Move,
        /// Who moves next by the agent's replay.
        expected: Side,
        /// Who moves next by the referee.
        mover: Side,
    },
    /// The reported house cannot be sown here.
    Illegal {
        /// The house sown.
        house: Move,
        /// Why not.
        error: PlayError,
        /// The board the referee gives.
        board: Board,
    },
}

impl fmt::Display for Disagreement {
    /// Writes what differs and that the agent plays on, as one line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Disagreement::Answer { answered, reported } => {
                write!(f, "the agent answered house {answered}, the referee reports {reported}")
            }
            Disagreement::SwapBoard { expected, board } => {
                write!(f, "a swap changed the board from {expected} to {board}; playing on {board}")
            }
            Disagreement::Board { mover, house, expected, board } => write!(
                f,
                "{mover} sowing house {house} gives {expected} here, the referee says {board}; playing on the \
                 referee's board"
            ),
            Disagreement::Turn { house, expected, mover } => {
                write!(f, "after house {house} {expected} moves here, the referee says {mover}; playing on")
            }
            Disagreement::Illegal { house, error, board } => {
                write!(f, "house {house} cannot be sown here ({error}); playing on the referee's board {board}")
            }
        }
    }
}

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
    disagreement: Option<Disagreement>,
    /// The referee asked the agent to move and it has not answered yet; whether it may swap.
    asked: Option<bool>,
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
            asked: None,
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

    /// Returns how the last `CHANGE` differed from the agent's replay of the game, if it did.
    pub fn disagreement(&self) -> Option<&Disagreement> {
        self.disagreement.as_ref()
    }

    /// Tells whether the last `CHANGE` ended the game.
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// Takes in a line from the referee (without its line end) and says what to do next; a line
    /// that is not a message or does not fit the game leaves the session unchanged.
    pub fn receive_line(&mut self, line: &str) -> Result<Next, Ignored> {
        let message = parse_message(line, self.rules.houses())?;
        Ok(self.receive(&message)?)
    }

    /// Takes in a message from the referee and says what to do next; a message that does not fit
    /// the game leaves the session unchanged.
    pub fn receive(&mut self, message: &Message) -> Result<Next, OutOfTurn> {
        let next = self.follow(message)?;
        self.asked = match next {
            Next::Move { may_swap } => Some(may_swap),
            _ => None,
        };
        Ok(next)
    }

    fn follow(&mut self, message: &Message) -> Result<Next, OutOfTurn> {
        match message {
            Message::End => {
                self.disagreement = None;
                Ok(Next::Stop)
            }
            Message::Start(side) => {
                if self.started() {
                    return Err(OutOfTurn::StartAgain(*side));
                }
                self.side = Some(*side);
                self.disagreement = None;
                Ok(if *side == Side::South { Next::Move { may_swap: false } } else { Next::Wait })
            }
            Message::Change { change, board, turn } => {
                let Some(me) = self.side else {
                    return Err(OutOfTurn::ChangeBeforeStart);
                };
                if self.over {
                    return Err(OutOfTurn::ChangeAfterEnd);
                }
                let mut disagreement = None;
                let (side, mover) = match change {
                    Change::Swap => {
                        // Only North's first turn allows it, and the referee tells the old South.
                        if me != Side::South || self.moves != 1 || self.swapped || *turn != Turn::You {
                            return Err(OutOfTurn::Swap);
                        }
                        let expected = Board::of(&self.position);
                        if *board != expected {
                            disagreement = Some(Disagreement::SwapBoard { expected, board: board.clone() });
                        }
                        (Side::North, Side::North)
                    }
                    Change::Sow(mv) => {
                        if let Some(answered) = self.answer.filter(|answer| answer != mv) {
                            disagreement = Some(Disagreement::Answer { answered, reported: *mv });
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
                                    disagreement = Some(Disagreement::Board {
                                        mover: self.position.mover(),
                                        house: *mv,
                                        expected,
                                        board: board.clone(),
                                    });
                                } else if *turn != Turn::End && replayed.mover() != mover {
                                    disagreement =
                                        Some(Disagreement::Turn { house: *mv, expected: replayed.mover(), mover });
                                }
                            }
                            Err(error) => {
                                disagreement = Some(Disagreement::Illegal { house: *mv, error, board: board.clone() })
                            }
                        }
                        (me, mover)
                    }
                };
                let position = board
                    .position(mover, &self.rules)
                    .map_err(|error| OutOfTurn::Board { board: board.clone(), error })?;
                if *turn == Turn::You && position.is_over(&self.rules) {
                    return Err(OutOfTurn::Finished(board.clone()));
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

    /// Takes the agent's decision on the turn the referee asked for and returns the reply to
    /// write, or says why it is no answer now (the session is then unchanged). A move comes back
    /// in the next `CHANGE`; a swap does not (the referee tells only the other agent), so it
    /// changes sides here: the agent becomes South and North, the other agent, moves next on the
    /// same board.
    pub fn answer(&mut self, action: Action) -> Result<Reply, Unanswerable> {
        let may_swap = self.asked.ok_or(Unanswerable::NotAsked)?;
        let reply = match action {
            Action::Swap if may_swap => Reply::Swap,
            Action::Swap => return Err(Unanswerable::Swap),
            Action::Sow(mv) if self.position.legal_moves().contains(mv) => Reply::Move(mv),
            Action::Sow(mv) => return Err(Unanswerable::Illegal(mv, self.position)),
            other => return Err(Unanswerable::Action(other)),
        };
        self.asked = None;
        self.record(reply);
        Ok(reply)
    }

    fn record(&mut self, reply: Reply) {
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
    use super::super::message::parse_message;
    use super::*;
    use crate::testing::Rng;

    fn receive(session: &mut Session, line: &str) -> Next {
        session.receive(&parse_message(line, 7).unwrap()).unwrap()
    }

    #[test]
    fn south_moves_first_and_hears_both_moves() {
        let mut s = Session::new(Rules::mkagent());
        assert_eq!(receive(&mut s, "START;South"), Next::Move { may_swap: false });
        assert_eq!(
            s.answer(Action::Sow(Move::from_number(1).unwrap())),
            Ok(Reply::Move(Move::from_number(1).unwrap()))
        );
        // South's first move ends in the store but passes the turn (the MKAgent variant).
        assert_eq!(receive(&mut s, "CHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;OPP"), Next::Wait);
        assert_eq!(s.disagreement(), None);
        assert_eq!(s.position().mover(), Side::North);
        // North's house 1 ends in North's store: North moves again.
        assert_eq!(receive(&mut s, "CHANGE;1;0,8,8,8,8,8,8,1,0,8,8,8,8,8,8,1;OPP"), Next::Wait);
        assert_eq!(s.disagreement(), None);
        assert_eq!(receive(&mut s, "CHANGE;2;0,0,9,9,9,9,9,2,1,9,8,8,8,8,8,1;YOU"), Next::Move { may_swap: false });
        assert_eq!(s.disagreement(), None);
        assert_eq!(s.position().to_string(), "1,9,8,8,8,8,8:1/0,0,9,9,9,9,9:2/S");
        assert_eq!(receive(&mut s, "END"), Next::Stop);
    }

    #[test]
    fn only_an_answer_to_the_turn_asked_for_is_given() {
        let mut s = Session::new(Rules::mkagent());
        let house = |n: u32| Action::Sow(Move::from_number(n).unwrap());
        assert_eq!(s.answer(house(1)), Err(Unanswerable::NotAsked));
        receive(&mut s, "START;North");
        assert_eq!(s.answer(house(1)), Err(Unanswerable::NotAsked), "South moves first");
        receive(&mut s, "CHANGE;2;8,7,7,7,7,7,7,0,7,0,8,8,8,8,8,1;YOU");
        let handicap = Action::Keep;
        let refused = s.answer(handicap).unwrap_err().to_string();
        assert_eq!(refused, format!("{handicap} is no answer in the MKAgent game: it has no handicap"));
        assert_eq!(s.answer(house(3)), Ok(Reply::Move(Move::from_number(3).unwrap())));
        receive(&mut s, "CHANGE;3;8,7,0,8,8,8,8,1,8,1,8,8,8,8,8,1;YOU");
        assert_eq!(s.answer(Action::Swap), Err(Unanswerable::Swap));
        let refused = s.answer(house(3)).unwrap_err().to_string();
        assert!(refused.starts_with("house 3 cannot be sown on"), "{refused}");
    }

    #[test]
    fn a_move_other_than_the_answer_is_reported() {
        let mut s = Session::new(Rules::mkagent());
        receive(&mut s, "START;South");
        s.answer(Action::Sow(Move::from_number(4).unwrap())).unwrap();
        assert_eq!(receive(&mut s, "CHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;OPP"), Next::Wait);
        let disagreement = s.disagreement().map(ToString::to_string);
        assert_eq!(disagreement.as_deref(), Some("the agent answered house 4, the referee reports 1"));
    }

    #[test]
    fn north_may_swap_on_its_first_turn_only() {
        let mut s = Session::new(Rules::mkagent());
        assert_eq!(receive(&mut s, "START;North"), Next::Wait);
        assert_eq!(receive(&mut s, "CHANGE;2;8,7,7,7,7,7,7,0,7,0,8,8,8,8,8,1;YOU"), Next::Move { may_swap: true });
        assert_eq!(s.answer(Action::Swap), Ok(Reply::Swap));
        assert_eq!(s.side(), Some(Side::South));
        assert_eq!(s.position().mover(), Side::North);
        // The other agent, North now, sows its house 2 (7 seeds: houses 3-7, store, South's house 1).
        assert_eq!(receive(&mut s, "CHANGE;2;8,0,8,8,8,8,8,1,8,0,8,8,8,8,8,1;YOU"), Next::Move { may_swap: false });
        assert_eq!(s.disagreement(), None);
    }

    #[test]
    fn the_first_player_hears_of_a_swap_and_moves_as_north() {
        let mut s = Session::new(Rules::mkagent());
        receive(&mut s, "START;South");
        receive(&mut s, "CHANGE;7;8,8,8,8,8,8,7,0,7,7,7,7,7,7,0,1;OPP");
        assert_eq!(receive(&mut s, "CHANGE;SWAP;8,8,8,8,8,8,7,0,7,7,7,7,7,7,0,1;YOU"), Next::Move { may_swap: false });
        assert_eq!(s.side(), Some(Side::North));
        assert_eq!(s.position().mover(), Side::North);
        assert_eq!(s.disagreement(), None);
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
        let said = s.disagreement().map(ToString::to_string).unwrap_or_default();
        assert!(said.contains("North moves here"), "{said}");
        assert_eq!(s.position().mover(), Side::South);
        assert_eq!(receive(&mut s, "CHANGE;2;7,7,7,7,7,7,7,0,0,0,9,9,9,9,9,3;YOU"), Next::Move { may_swap: false });
        assert!(matches!(s.disagreement(), Some(Disagreement::Board { .. })), "{:?}", s.disagreement());
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

    /// Random lines, well formed or not, in any order: the session never panics, a line it
    /// ignores changes nothing, and when it says to move, the agent is to move on a board that
    /// has a move.
    #[test]
    fn random_lines_keep_the_guarantees() {
        let rules = Rules::mkagent();
        let mut rng = Rng(0x6d6b_6167);
        let mut seen = [0usize; 3];
        for _ in 0..300 {
            let mut s = Session::new(rules);
            for _ in 0..40 {
                let line = match rng.below(8) {
                    0 => ["START;South", "START;North"][rng.below(2)].to_string(),
                    1 => ["END", "", "MOVE;3", "CHANGE;1;2;3;4", "START;", "SWAP"][rng.below(6)].to_string(),
                    _ => {
                        let change = match rng.below(9) {
                            0 => "SWAP".to_string(),
                            1 => "x".to_string(),
                            k => k.to_string(),
                        };
                        let cells = 16 - usize::from(rng.below(10) == 0);
                        let most = [3, 9, 30][rng.below(3)];
                        let board: Vec<String> = (0..cells).map(|_| rng.below(most).to_string()).collect();
                        let turn = ["YOU", "OPP", "END", "ME"][rng.below(4)];
                        format!("CHANGE;{change};{};{turn}", board.join(","))
                    }
                };
                let before = format!("{s:?}");
                match s.receive_line(&line) {
                    Err(why) => {
                        seen[0] += 1;
                        assert_eq!(format!("{s:?}"), before, "{line:?} was ignored ({why}) but changed the session");
                        assert!(!why.to_string().contains('\n'));
                    }
                    Ok(Next::Move { may_swap }) => {
                        seen[1] += 1;
                        let p = *s.position();
                        assert_eq!(Some(p.mover()), s.side(), "{line:?}: the agent moves for its own side");
                        assert!(!p.is_over(&rules) && !p.legal_moves().is_empty(), "{line:?}: no move on {p}");
                        assert!(!may_swap || s.side() == Some(Side::North));
                        // Now and then an answer that is not one here, refused without a change.
                        let wrong = match rng.below(4) {
                            0 if !may_swap => Some(Action::Swap),
                            1 => (1..=7)
                                .map(|n| Move::from_number(n).unwrap())
                                .find(|&mv| !p.legal_moves().contains(mv))
                                .map(Action::Sow),
                            _ => None,
                        };
                        if let Some(wrong) = wrong {
                            let before = format!("{s:?}");
                            assert!(s.answer(wrong).is_err(), "{wrong} answered on {p}");
                            assert_eq!(format!("{s:?}"), before);
                        }
                        let action = match (may_swap, rng.below(2)) {
                            (true, 0) => Action::Swap,
                            _ => Action::Sow(p.legal_moves().into_iter().next().unwrap()),
                        };
                        let reply = s.answer(action).expect("a legal answer");
                        assert_eq!(reply == Reply::Swap, action == Action::Swap);
                        assert_eq!(s.answer(action), Err(Unanswerable::NotAsked), "answered twice");
                    }
                    Ok(_) => seen[2] += 1,
                }
            }
        }
        assert!(seen.iter().all(|&n| n > 200), "ignored, moves, other: {seen:?}");
    }
}
