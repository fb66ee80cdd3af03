//! Why a table refuses a request ([`Refused`]), and the one mapping of each refusal to the status
//! a host answers with ([`Refused::status`]): `kalah serve` sends it as the HTTP status, the
//! static site's page reads it as the same number.

use kalah_rules::{HistoryError, PlayError, Side};
use thiserror::Error;

/// Why a request was refused; the game is unchanged. The message is the one line a person reads.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum Refused {
    /// The request's text cannot be read: what is wrong, and what it accepts.
    #[error("{0}")]
    Bad(String),
    /// The game is over (by the rules, on time, by a resignation or aborted): nobody acts any more.
    #[error("the game is over: no more moves can be played")]
    Over,
    /// The side to decide is the engine's, and a person asked.
    #[error("{0} is played by the engine: ask the engine to move (POST …/engine)")]
    EnginesSeat(Side),
    /// The side to decide is a person's, and the engine was asked.
    #[error("{0} is played by a person: it moves when its player does")]
    PersonsSeat(Side),
    /// In a game between friends, the side to decide is held by the other player.
    #[error("{0} is the other player's seat: only its holder moves for it")]
    NotYours(Side),
    /// Only a player of the game may change it, with their seat's token.
    #[error("only the players of this game may change it: this page watches it (a player's link holds their seat)")]
    NotAPlayer,
    /// The token sent holds no seat of this game.
    #[error("the token holds no seat of this game: use the link you were given")]
    WrongToken,
    /// A game a server kept with no token (an earlier kalah's): nobody can prove a seat of it.
    #[error("this game was kept by an earlier kalah without seat tokens: it can be watched and its record loaded into a new game, not changed")]
    Unowned,
    /// There is no takeback or rematch to ask for, or to answer: why.
    #[error("{0}")]
    Takeback(&'static str),
    /// The engine is searching its move: nobody else acts until it has.
    #[error("the engine is thinking")]
    Thinking,
    /// The game changed (a move, an undo, a close) while the engine searched.
    #[error("the game changed while the engine was thinking (a move, an undo, or it was closed): ask again")]
    Changed,
    /// A move made on another version of the game than its own.
    #[error("the move was made on version {made} of the game, which is at version {now} now: look again")]
    Stale {
        /// The version the move was made on.
        made: u64,
        /// The game's version.
        now: u64,
    },
    /// The rules do not allow the action.
    #[error(transparent)]
    Illegal(#[from] PlayError),
    /// The step through the history cannot be taken.
    #[error(transparent)]
    History(#[from] HistoryError),
    /// A game lost on time, by resigning or aborted keeps its moves as they were played.
    #[error("the game was {0}: its moves stay as they were played; start a new game or load its record")]
    Ended(&'static str),
    /// Undo, redo and goto in a game between friends.
    #[error("a game between friends steps back only by a takeback the opponent accepts")]
    FriendsStep,
    /// The engine's help (a hint, an analysis) in a game between friends that goes on.
    #[error("a game between friends gets no hint or analysis while it goes on: ask once it is over")]
    NoHelp,
    /// Undo, redo, goto or the engine's help in a rated game that goes on.
    #[error("a rated game is played as it goes: no undo or redo, and no hint or analysis until it is over")]
    Rated,
    /// A finished game between friends is deleted by neither player alone.
    #[error("a finished game between friends belongs to both players: it stays in the archive")]
    Kept,
    /// A game between friends whose both players have moved is not deleted: it is resigned.
    #[error("both players have moved: resign instead (a game between friends is deleted only before it begins)")]
    Begun,
    /// A game against a friend asked of a host that has no one to hold the other seat.
    #[error("games against a friend need kalah serve: this page plays with no server")]
    NoFriends,
}

impl Refused {
    /// Returns the status a host answers with: 400 for a request that cannot be done as asked,
    /// 403 for one its sender may not make, 409 for one the game's state refuses now.
    pub fn status(&self) -> u16 {
        match self {
            Refused::Bad(_)
            | Refused::Over
            | Refused::EnginesSeat(_)
            | Refused::PersonsSeat(_)
            | Refused::Illegal(_)
            | Refused::History(_)
            | Refused::NoFriends => 400,
            Refused::NotYours(_)
            | Refused::NotAPlayer
            | Refused::WrongToken
            | Refused::Unowned
            | Refused::FriendsStep
            | Refused::NoHelp
            | Refused::Rated
            | Refused::Kept => 403,
            Refused::Takeback(_)
            | Refused::Thinking
            | Refused::Changed
            | Refused::Stale { .. }
            | Refused::Ended(_)
            | Refused::Begun => 409,
        }
    }
}

/// Returns `message` on one line: a control character (a line break in a JSON key a client
/// sent, which the JSON reader's message repeats) is written as its escape.
pub fn one_line(message: impl Into<String>) -> String {
    let message = message.into();
    if !message.chars().any(char::is_control) {
        return message;
    }
    message.chars().map(|c| if c.is_control() { c.escape_debug().to_string() } else { c.to_string() }).collect()
}
