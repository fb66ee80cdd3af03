//! The messages of the Manchester "MKAgent" protocol, read and written as pure functions.
//!
//! One message a line, fields separated by `;`, as the reference referee (ManKalah's
//! `Protocol.java`) writes them:
//!
//! * to the agent: `START;South` or `START;North`; `CHANGE;MOVE;BOARD;TURN` where MOVE is the
//!   house just sown (1..m) or `SWAP`, BOARD is North's houses 1..m, North's store, South's
//!   houses 1..m, South's store (each side's houses from the one farthest from its store), and
//!   TURN is `YOU` (the agent moves next, also after its own extra move), `OPP` or `END`;
//!   and `END` when the match is over.
//! * from the agent: `MOVE;k` or `SWAP`.

use std::fmt;

use kalah_rules::{Move, Position, PositionError, Rules, Side};

/// How much of a field an error quotes.
const QUOTED: usize = 40;

/// Returns the start of a field for an error message, so that a long line gives a short error.
fn quoted(text: &str) -> String {
    match text.char_indices().nth(QUOTED) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

/// Why a line from the referee is not a message; each says what is accepted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MessageError {
    /// Not one of the messages.
    #[error("unknown message: expected START;South, START;North, CHANGE;MOVE;BOARD;TURN or END")]
    Unknown,
    /// `START` with another word than a side.
    #[error("START names the side {0:?}: expected South or North")]
    Side(String),
    /// `CHANGE` without its three fields.
    #[error("CHANGE has {0} fields after CHANGE, expected 3: MOVE;BOARD;TURN")]
    Fields(usize),
    /// The move field is neither a house nor `SWAP`.
    #[error("CHANGE reports the move {text:?}: expected SWAP or a house from 1 to {houses}")]
    Move {
        /// The field (its start, if long).
        text: String,
        /// Houses a side.
        houses: u8,
    },
    /// The board holds something other than numbers.
    #[error("the board {0:?} holds something other than seed counts from 0 to 65535")]
    Cells(String),
    /// The board has the wrong number of cells.
    #[error(
        "the board {text:?} has {found} numbers, expected {}: North's {houses} houses and store, then South's",
        2 * (usize::from(*houses) + 1)
    )]
    Length {
        /// The field (its start, if long).
        text: String,
        /// The numbers found.
        found: usize,
        /// Houses a side.
        houses: u8,
    },
    /// The turn field is not one of the three words.
    #[error("CHANGE gives the turn {0:?}: expected YOU, OPP or END")]
    Turn(String),
}

/// What the last `CHANGE` reports was done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// A player sowed this house (numbered from the mover's house farthest from its store).
    Sow(Move),
    /// North took South's side under the pie rule.
    Swap,
}

/// Who moves after a `CHANGE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// The agent that reads the message.
    You,
    /// Its opponent.
    Opp,
    /// Nobody: the game is over.
    End,
}

/// The seeds on the board as a `CHANGE` gives them (the message does not say who is to move).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// South's houses from its house 1, then North's from its house 1.
    pub rows: [Vec<u16>; 2],
    /// South's store, then North's.
    pub stores: [u16; 2],
}

impl Board {
    /// Returns the board of `position`.
    pub fn of(position: &Position) -> Board {
        Board {
            rows: [position.row(Side::South).to_vec(), position.row(Side::North).to_vec()],
            stores: [position.store(Side::South), position.store(Side::North)],
        }
    }

    /// Returns the position of this board with `mover` to move, checked against the rules' size.
    pub fn position(&self, mover: Side, rules: &Rules) -> Result<Position, PositionError> {
        let row = |side: Side| self.rows[side.index()].iter().map(u16::to_string).collect::<Vec<_>>().join(",");
        let text = format!(
            "{}:{}/{}:{}/{}",
            row(Side::South),
            self.stores[0],
            row(Side::North),
            self.stores[1],
            mover.letter()
        );
        Position::parse(&text, rules)
    }
}

impl fmt::Display for Board {
    /// Writes North's houses, North's store, South's houses, South's store, separated by commas.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cells = self.rows[1]
            .iter()
            .chain([&self.stores[1]])
            .chain(&self.rows[0])
            .chain([&self.stores[0]])
            .map(u16::to_string)
            .collect::<Vec<_>>();
        f.write_str(&cells.join(","))
    }
}

/// A message from the referee to the agent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// The game starts and the agent plays this side (South moves first).
    Start(Side),
    /// Something happened on the board.
    Change {
        /// The sowing or swap that was made.
        change: Change,
        /// The board after it.
        board: Board,
        /// Who moves next.
        turn: Turn,
    },
    /// The match is over.
    End,
}

impl fmt::Display for Message {
    /// Writes the message as the referee sends it, without the line end.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Message::Start(side) => write!(f, "START;{}", side.name()),
            Message::Change { change, board, turn } => {
                let change = match change {
                    Change::Sow(mv) => mv.to_string(),
                    Change::Swap => "SWAP".to_string(),
                };
                let turn = match turn {
                    Turn::You => "YOU",
                    Turn::Opp => "OPP",
                    Turn::End => "END",
                };
                write!(f, "CHANGE;{change};{board};{turn}")
            }
            Message::End => f.write_str("END"),
        }
    }
}

/// The agent's answer when it is to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reply {
    /// Sow this house.
    Move(Move),
    /// Take the opponent's side (North's first turn only).
    Swap,
}

impl fmt::Display for Reply {
    /// Writes the answer as the referee reads it, without the line end.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Move(mv) => write!(f, "MOVE;{mv}"),
            Reply::Swap => f.write_str("SWAP"),
        }
    }
}

/// Reads one line from the referee (without its line end) for a board of `houses` houses a side.
pub fn parse_message(line: &str, houses: u8) -> Result<Message, MessageError> {
    if line == "END" {
        return Ok(Message::End);
    }
    if let Some(side) = line.strip_prefix("START;") {
        return match side {
            "South" => Ok(Message::Start(Side::South)),
            "North" => Ok(Message::Start(Side::North)),
            _ => Err(MessageError::Side(quoted(side))),
        };
    }
    let Some(rest) = line.strip_prefix("CHANGE;") else {
        return Err(MessageError::Unknown);
    };
    let fields: Vec<&str> = rest.split(';').collect();
    let [change, board, turn] = fields[..] else {
        return Err(MessageError::Fields(fields.len()));
    };
    let change = match change {
        "SWAP" => Change::Swap,
        text => text
            .parse::<u32>()
            .ok()
            .filter(|&k| (1..=u32::from(houses)).contains(&k))
            .and_then(Move::from_number)
            .map(Change::Sow)
            .ok_or_else(|| MessageError::Move { text: quoted(text), houses })?,
    };
    let board = parse_board(board, houses)?;
    let turn = match turn {
        "YOU" => Turn::You,
        "OPP" => Turn::Opp,
        "END" => Turn::End,
        other => return Err(MessageError::Turn(quoted(other))),
    };
    Ok(Message::Change { change, board, turn })
}

/// Reads an agent's reply (without its line end), as the referee does: `MOVE;k` for a house k
/// from 1 to `houses`, or `SWAP`.
pub fn parse_reply(line: &str, houses: u8) -> Option<Reply> {
    if line == "SWAP" {
        return Some(Reply::Swap);
    }
    let number = line.strip_prefix("MOVE;")?;
    if !number.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    number
        .parse::<u32>()
        .ok()
        .filter(|&k| (1..=u32::from(houses)).contains(&k))
        .and_then(Move::from_number)
        .map(Reply::Move)
}

/// Reads the board field: 2(m+1) seed counts, North's side first.
fn parse_board(text: &str, houses: u8) -> Result<Board, MessageError> {
    let m = usize::from(houses);
    let cells: Vec<u16> = text
        .split(',')
        .map(|cell| cell.parse::<u16>())
        .collect::<Result<_, _>>()
        .map_err(|_| MessageError::Cells(quoted(text)))?;
    if cells.len() != 2 * (m + 1) {
        return Err(MessageError::Length { text: quoted(text), found: cells.len(), houses });
    }
    Ok(Board { rows: [cells[m + 1..2 * m + 1].to_vec(), cells[..m].to_vec()], stores: [cells[2 * m + 1], cells[m]] })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_reply(line: &str) -> Option<Reply> {
        super::parse_reply(line, 7)
    }

    fn board(text: &str) -> Board {
        parse_board(text, 7).unwrap()
    }

    #[test]
    fn every_message_round_trips_through_its_line() {
        for line in [
            "START;South",
            "START;North",
            "CHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;YOU",
            "CHANGE;SWAP;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;YOU",
            "CHANGE;7;8,8,8,8,8,8,7,0,7,7,7,7,7,7,0,1;OPP",
            "CHANGE;3;0,0,0,0,0,0,0,50,0,0,0,0,0,0,0,48;END",
            "END",
        ] {
            let message = parse_message(line, 7).unwrap();
            assert_eq!(message.to_string(), line);
        }
        for reply in ["MOVE;1", "MOVE;7", "SWAP"] {
            assert_eq!(parse_reply(reply).unwrap().to_string(), reply);
        }
    }

    #[test]
    fn the_board_lists_north_first_and_each_side_from_its_house_1() {
        let b = board("1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16");
        assert_eq!(b.rows[1], [1, 2, 3, 4, 5, 6, 7]);
        assert_eq!(b.stores[1], 8);
        assert_eq!(b.rows[0], [9, 10, 11, 12, 13, 14, 15]);
        assert_eq!(b.stores[0], 16);
        let rules = Rules::mkagent();
        let p = b.position(Side::North, &rules).unwrap();
        assert_eq!(p.to_string(), "9,10,11,12,13,14,15:16/1,2,3,4,5,6,7:8/N");
        assert_eq!(Board::of(&p), b);
    }

    #[test]
    fn malformed_lines_are_refused_with_a_reason() {
        for (line, why) in [
            ("", "unknown message"),
            ("START;East", "expected South or North"),
            ("START;south", "expected South or North"),
            ("HELLO", "unknown message"),
            ("end", "unknown message"),
            ("END;", "unknown message"),
            ("CHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1", "expected 3"),
            ("CHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;YOU;", "expected 3"),
            ("CHANGE;8;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;YOU", "a house from 1 to 7"),
            ("CHANGE;0;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;YOU", "a house from 1 to 7"),
            ("CHANGE;swap;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;YOU", "expected SWAP"),
            ("CHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8;YOU", "has 15 numbers, expected 16"),
            ("CHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,-8,1;YOU", "seed counts"),
            ("CHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,x,1;YOU", "seed counts"),
            ("CHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;ME", "expected YOU, OPP or END"),
        ] {
            let error = parse_message(line, 7).unwrap_err().to_string();
            assert!(error.contains(why), "{line:?}: {error}");
        }
        for bad in ["MOVE;0", "MOVE;8", "MOVE; 3", "MOVE;+3", "move;3", "SWAP ", "MOVE;"] {
            assert!(parse_reply(bad).is_none(), "{bad}");
        }
    }
}
