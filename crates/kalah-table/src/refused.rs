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
    Takeback(Takeback),
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
    Ended(Ended),
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
    /// A rated game that has begun (both players have made a first action) or is over is never
    /// deleted: it counts for both players' ratings.
    #[error("a rated game counts once both players have moved: it is never deleted, only resigned (POST …/resign) or played to its end")]
    RatedKept,
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
            | Refused::Begun
            | Refused::RatedKept => 409,
        }
    }
}

/// What a refusal says to a person, by name: a message of the pages' catalogs (kalah-l10n's
/// `l10n/*.ftl`, section "Errors the API returns") and its arguments, so that a page shows it in
/// its player's language. A side is given as `north` or `south`, for the catalog to name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Said {
    /// The message's id, e.g. `error-over`.
    pub id: &'static str,
    /// The arguments: each name and its value.
    pub args: Vec<(&'static str, SaidArg)>,
}

/// A message's argument: text, or a number (which the catalog formats, and picks plurals by).
#[derive(Clone, Debug, PartialEq)]
pub enum SaidArg {
    /// Shown as it is.
    Text(String),
    /// Written as the language writes numbers.
    Number(f64),
}

impl Eq for SaidArg {}

impl From<&str> for SaidArg {
    fn from(text: &str) -> SaidArg {
        SaidArg::Text(text.to_string())
    }
}

impl From<String> for SaidArg {
    fn from(text: String) -> SaidArg {
        SaidArg::Text(text)
    }
}

impl From<u64> for SaidArg {
    fn from(n: u64) -> SaidArg {
        SaidArg::Number(n as f64)
    }
}

impl From<usize> for SaidArg {
    fn from(n: usize) -> SaidArg {
        SaidArg::Number(n as f64)
    }
}

impl Said {
    /// Message `id` with no arguments.
    pub fn new(id: &'static str) -> Said {
        Said { id, args: Vec::new() }
    }

    /// The arguments as a JSON object (numbers as numbers), as hosts send them beside `code`.
    pub fn args_json(&self) -> serde_json::Value {
        let object = self.args.iter().map(|(name, value)| {
            let value = match value {
                SaidArg::Number(n) => serde_json::Number::from_f64(*n).map_or(serde_json::Value::Null, Into::into),
                SaidArg::Text(text) => serde_json::Value::String(text.clone()),
            };
            (name.to_string(), value)
        });
        serde_json::Value::Object(object.collect())
    }

    /// The message with argument `name` set to `value`.
    pub fn with(mut self, name: &'static str, value: impl Into<SaidArg>) -> Said {
        self.args.push((name, value.into()));
        self
    }
}

fn side(side: Side) -> &'static str {
    match side {
        Side::South => "south",
        Side::North => "north",
    }
}

impl Refused {
    /// Returns the message a person reads for the refusal. Refusals of a request a page never
    /// sends as written (an illegal action, a step outside the history) are said in general
    /// terms; their English text ([`std::fmt::Display`]) says the detail to a program's author.
    /// A request that cannot be done as written (`Bad`: the new-game form's rules, position or
    /// record, from the rules' own English errors) gives its detail as the argument `detail`.
    pub fn said(&self) -> Said {
        match self {
            Refused::Bad(detail) => Said::new("error-bad").with("detail", detail.as_str()),
            Refused::Over => Said::new("error-over"),
            Refused::EnginesSeat(s) => Said::new("error-engines-seat").with("side", side(*s)),
            Refused::PersonsSeat(s) => Said::new("error-persons-seat").with("side", side(*s)),
            Refused::NotYours(s) => Said::new("error-not-yours").with("side", side(*s)),
            Refused::NotAPlayer => Said::new("error-not-a-player"),
            Refused::WrongToken => Said::new("error-wrong-token"),
            Refused::Unowned => Said::new("error-unowned"),
            Refused::Takeback(why) => Said::new(why.id()),
            Refused::Thinking => Said::new("error-thinking"),
            Refused::Changed => Said::new("error-changed"),
            Refused::Stale { made, now } => Said::new("error-stale").with("made", *made).with("now", *now),
            Refused::Illegal(_) => Said::new("error-illegal"),
            Refused::History(_) => Said::new("error-history"),
            Refused::Ended(how) => Said::new("error-ended").with("how", how.word()),
            Refused::FriendsStep => Said::new("error-friends-step"),
            Refused::NoHelp => Said::new("error-no-help"),
            Refused::Rated => Said::new("error-rated"),
            Refused::Kept => Said::new("error-kept"),
            Refused::Begun => Said::new("error-begun"),
            Refused::RatedKept => Said::new("error-rated-kept"),
            Refused::NoFriends => Said::new("error-no-friends"),
        }
    }
}

/// Why a takeback or a rematch cannot be asked for or answered; each names its message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum Takeback {
    /// A rematch offered before the game is over.
    #[error("the game is not over: a rematch follows its end")]
    NotOver,
    /// A rematch offered once it has begun.
    #[error("the rematch has begun already")]
    RematchBegun,
    /// A takeback in a rated game.
    #[error("a rated game has no takebacks: its moves count as played")]
    Rated,
    /// A takeback asked by a player who has not moved.
    #[error("you have no move to take back")]
    NoMove,
    /// A second takeback asked before the first is answered.
    #[error("a takeback is already asked for")]
    Asked,
    /// An answer with no takeback asked.
    #[error("no takeback is asked for")]
    None,
    /// The asker's own answer.
    #[error("the takeback is yours: your opponent answers it")]
    Yours,
    /// A takeback accepted that finds nothing to take back.
    #[error("there is nothing to take back")]
    Nothing,
}

impl Takeback {
    /// Returns the message's id in the pages' catalogs.
    pub fn id(self) -> &'static str {
        match self {
            Takeback::NotOver => "error-rematch-not-over",
            Takeback::RematchBegun => "error-rematch-begun",
            Takeback::Rated => "error-takeback-rated",
            Takeback::NoMove => "error-takeback-no-move",
            Takeback::Asked => "error-takeback-asked",
            Takeback::None => "error-takeback-none",
            Takeback::Yours => "error-takeback-yours",
            Takeback::Nothing => "error-takeback-nothing",
        }
    }
}

/// How a game ended that keeps its moves as they were played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum Ended {
    /// A player's clock ran out.
    #[error("lost on time")]
    OnTime,
    /// A player resigned.
    #[error("lost by resigning")]
    Resigned,
    /// A first action did not come in time.
    #[error("aborted")]
    Aborted,
}

impl Ended {
    /// Returns the word the catalogs' `error-ended` message chooses by.
    pub fn word(self) -> &'static str {
        match self {
            Ended::OnTime => "time",
            Ended::Resigned => "resigned",
            Ended::Aborted => "aborted",
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
