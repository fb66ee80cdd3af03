//! What an agent asks for through its name: `info:name "NAME vs BOT on M,N"`. Both parts are
//! optional and in either order after the name: `alice vs level-3`, `alice on 8,8`,
//! `alice vs minimax-6 on 10,10`. The agent is stored as `NAME`; course templates can set a name
//! but no other option, so the name carries the wish.

use std::fmt;

use crate::bot::{Bot, UnknownBot};

/// The smallest and largest boards the server plays: go-kgp's stages run from (6,6) to (12,12).
pub const HOUSES: std::ops::RangeInclusive<u8> = 6..=12;

/// A board size: houses a side and seeds a house.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// Houses a side.
    pub houses: u8,
    /// Seeds a house at the start.
    pub seeds: u8,
}

impl fmt::Display for Board {
    /// Writes `M,N`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.houses, self.seeds)
    }
}

/// A board that the server does not play.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a board: M,N with 6 to 12 houses a side and 1 to 12 seeds a house, e.g. 6,6 or 8,8")]
pub struct BadBoard(pub String);

impl std::str::FromStr for Board {
    type Err = BadBoard;

    /// Reads `M,N` (6 to 12 houses, 1 to 12 seeds).
    fn from_str(text: &str) -> Result<Board, BadBoard> {
        let bad = || BadBoard(text.to_string());
        let (houses, seeds) = text.trim().split_once(',').ok_or_else(bad)?;
        let houses: u8 = houses.trim().parse().map_err(|_| bad())?;
        let seeds: u8 = seeds.trim().parse().map_err(|_| bad())?;
        (HOUSES.contains(&houses) && (1..=12).contains(&seeds)).then_some(Board { houses, seeds }).ok_or_else(bad)
    }
}

/// An agent's name with what it asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wish {
    /// The name without the wishes.
    pub name: String,
    /// The bot asked for, if any.
    pub opponent: Option<Bot>,
    /// The board asked for, if any.
    pub board: Option<Board>,
}

/// A wish that cannot be granted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BadWish {
    /// `vs` names no bot.
    #[error(transparent)]
    Bot(#[from] UnknownBot),
    /// `on` names no board.
    #[error(transparent)]
    Board(#[from] BadBoard),
    /// `vs` or `on` without a word after it.
    #[error("{0:?} needs a word after it: \"NAME vs BOT on M,N\", e.g. \"alice vs level-3 on 8,8\"")]
    Missing(&'static str),
}

impl Wish {
    /// Reads a name: the words up to the first `vs` or `on` are the name, then `vs BOT` and
    /// `on M,N` in either order. A name without either is the whole name.
    pub fn parse(text: &str) -> Result<Wish, BadWish> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let cut = words.iter().position(|w| matches!(*w, "vs" | "on")).unwrap_or(words.len());
        let mut wish = Wish { name: words[..cut].join(" "), opponent: None, board: None };
        let mut rest = words[cut..].iter();
        while let Some(&key) = rest.next() {
            match key {
                "vs" => wish.opponent = Some(rest.next().ok_or(BadWish::Missing("vs"))?.parse()?),
                "on" => wish.board = Some(rest.next().ok_or(BadWish::Missing("on"))?.parse()?),
                other => wish.name = format!("{} {other}", wish.name),
            }
        }
        Ok(wish)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_carries_the_bot_and_the_board_asked_for() {
        let wish = Wish::parse("alice vs level-3 on 8,8").unwrap();
        assert_eq!(wish.name, "alice");
        assert_eq!(wish.opponent, Some(Bot::Level(kalah_engine::level::Level::DEFAULT)));
        assert_eq!(wish.board, Some(Board { houses: 8, seeds: 8 }));
        let wish = Wish::parse("Team Rocket on 10,10 vs minimax-6:75").unwrap();
        assert_eq!((wish.name.as_str(), wish.opponent), ("Team Rocket", Some(Bot::Minimax { depth: 6, percent: 75 })));
        assert_eq!(Wish::parse("bob").unwrap(), Wish { name: "bob".into(), opponent: None, board: None });
        assert_eq!(Wish::parse("").unwrap().name, "");
    }

    #[test]
    fn a_wish_that_cannot_be_granted_says_what_is_accepted() {
        for (name, want) in [
            ("alice vs", "needs a word after it"),
            ("alice vs carol", "is not a bot: random, greedy"),
            ("alice on 5,5", "6 to 12 houses"),
            ("alice on 13,1", "6 to 12 houses"),
            ("alice on 6", "is not a board"),
        ] {
            let e = Wish::parse(name).unwrap_err().to_string();
            assert!(e.contains(want), "{name}: {e}");
        }
    }
}
