//! Player specifications on the command line: `human`, `random`, `greedy`, or a search with a strength.
//!
//! A search is written `ALGORITHM[:depth=N|:time=MS|:clock=MS[+MS]]`, where ALGORITHM is `engine` (the strong
//! engine of [`kalah_engine::search`]) or one of the assignment's `minimax`, `alphabeta`,
//! `ordered`. Without a strength a search uses the command's `--depth`, `--time` or `--clock`.

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use kalah_course::classic::Algorithm;
use kalah_course::player::{GreedyPlayer, Player, RandomPlayer, SearchPlayer, Strength, StrongPlayer};
use kalah_engine::databases::Databases;
use kalah_engine::search::Options;

/// What a seat at the board holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    /// A person typing moves.
    Human,
    /// Uniformly random moves.
    Random,
    /// The one-sowing greedy baseline.
    Greedy,
    /// One of the assignment's searches, with its own strength or the command's default.
    Search(Algorithm, Option<Strength>),
    /// The strong engine, with its own strength or the command's default.
    Engine(Option<Strength>),
}

/// The words accepted as players, for messages.
pub const ACCEPTED: &str =
    "human, random, greedy, engine, minimax, alphabeta, ordered (a search may add :depth=N, :time=MS or :clock=MS[+MS])";

impl FromStr for PlayerSpec {
    type Err = String;

    fn from_str(text: &str) -> Result<PlayerSpec, String> {
        let (name, strength) = match text.split_once(':') {
            Some((name, strength)) => (name, Some(strength)),
            None => (text, None),
        };
        let unknown = || format!("unknown player {text:?}: accepted are {ACCEPTED}");
        let algorithm = match name {
            "human" | "random" | "greedy" if strength.is_some() => {
                return Err(format!("player {name:?} takes no strength: only searches do ({ACCEPTED})"))
            }
            "human" => return Ok(PlayerSpec::Human),
            "random" => return Ok(PlayerSpec::Random),
            "greedy" => return Ok(PlayerSpec::Greedy),
            "engine" => None,
            other => Some(other.parse::<Algorithm>().map_err(|_| unknown())?),
        };
        let strength = strength.map(parse_strength).transpose()?;
        Ok(match algorithm {
            Some(algorithm) => PlayerSpec::Search(algorithm, strength),
            None => PlayerSpec::Engine(strength),
        })
    }
}

/// Reads `depth=N` (1-64), `time=MS` (1-3600000) a move, or `clock=MS[+MS]`: a clock for the
/// whole game (1 ms to 24 hours), with an optional increment a move (up to an hour).
pub fn parse_strength(text: &str) -> Result<Strength, String> {
    let bad = || {
        format!(
            "bad strength {text:?}: write depth=N (1 to 64), time=MS (1 to 3600000 milliseconds a move) \
             or clock=MS[+MS] (milliseconds for the game, 1 to 86400000, and a move's increment, 0 to 3600000)"
        )
    };
    match text.split_once('=') {
        Some(("depth", n)) => {
            n.parse::<u32>().ok().filter(|d| (1..=64).contains(d)).map(Strength::Depth).ok_or_else(bad)
        }
        Some(("time", ms)) => ms
            .parse::<u64>()
            .ok()
            .filter(|t| (1..=3_600_000).contains(t))
            .map(|t| Strength::Time(Duration::from_millis(t)))
            .ok_or_else(bad),
        Some(("clock", text)) => {
            let (total, increment) = text.split_once('+').unwrap_or((text, "0"));
            let total = total.parse::<u64>().ok().filter(|t| (1..=86_400_000).contains(t)).ok_or_else(bad)?;
            let increment = increment.parse::<u64>().ok().filter(|t| *t <= 3_600_000).ok_or_else(bad)?;
            Ok(Strength::Clock { total: Duration::from_millis(total), increment: Duration::from_millis(increment) })
        }
        _ => Err(bad()),
    }
}

/// Reads the flags `--depth`, `--time` and `--clock` (at most one of them) into the strength of
/// searches that have none of their own, `default` when none is given; they accept what
/// `engine:depth=N`, `engine:time=MS` and `engine:clock=MS[+MS]` accept.
pub fn strength_from_flags(
    depth: Option<u32>,
    time: Option<u64>,
    clock: Option<&str>,
    default: Strength,
) -> anyhow::Result<Strength> {
    let read = |flag: &str, text: String| {
        parse_strength(&format!("{flag}={text}")).map_err(|e| crate::error::bad(format!("--{flag} {text}: {e}")))
    };
    match (depth, time, clock) {
        (Some(d), None, None) => read("depth", d.to_string()),
        (None, Some(t), None) => read("time", t.to_string()),
        (None, None, Some(c)) => read("clock", c.to_string()),
        (None, None, None) => Ok(default),
        _ => Err(crate::error::bad("give one of --depth, --time and --clock, not more")),
    }
}

impl PlayerSpec {
    /// Builds the player, or `None` for a human; `default` is the strength when the spec has none,
    /// `databases` the endgame databases the engine may use (none: no database).
    pub fn build(
        &self,
        default: Strength,
        seed: u64,
        databases: Option<&Arc<Databases>>,
    ) -> Option<Box<dyn Player + Send>> {
        match self {
            PlayerSpec::Human => None,
            PlayerSpec::Random => Some(Box::new(RandomPlayer::new(seed))),
            PlayerSpec::Greedy => Some(Box::new(GreedyPlayer)),
            PlayerSpec::Search(algorithm, strength) => {
                Some(Box::new(SearchPlayer::new(*algorithm, strength.unwrap_or(default))))
            }
            PlayerSpec::Engine(strength) => {
                let player = StrongPlayer::new(Options::default(), strength.unwrap_or(default));
                Some(Box::new(player.with_databases(databases.cloned())))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_read_and_refuse() {
        assert_eq!("human".parse(), Ok(PlayerSpec::Human));
        assert_eq!("engine".parse(), Ok(PlayerSpec::Engine(None)));
        assert_eq!("minimax:depth=4".parse(), Ok(PlayerSpec::Search(Algorithm::Minimax, Some(Strength::Depth(4)))));
        let clock = Strength::Clock { total: Duration::from_millis(60_000), increment: Duration::from_millis(500) };
        assert_eq!("engine:clock=60000+500".parse(), Ok(PlayerSpec::Engine(Some(clock))));
        assert_eq!(
            "alphabeta:time=250".parse(),
            Ok(PlayerSpec::Search(Algorithm::AlphaBeta, Some(Strength::Time(Duration::from_millis(250)))))
        );
        for bad in [
            "robot",
            "human:depth=3",
            "ordered:depth=0",
            "ordered:depth=65",
            "ordered:time=x",
            "ordered:speed=1",
            "engine:clock=0",
            "engine:clock=5+x",
            "engine:clock=+5",
        ] {
            assert!(bad.parse::<PlayerSpec>().is_err(), "{bad}");
        }
    }
}
