//! The practice bots, weakest to strongest: a random mover, a greedy one, go-kgp's depth-limited
//! minimax bots `MinMax-D` as go-kgp plays them (optionally with some moves random, as go-kgp's
//! "tainted" bots), and kalah's engine at its levels 1-5.

use std::fmt;
use std::str::FromStr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use kalah_engine::decide::{SwapPolicy, Turn};
use kalah_engine::level::Level;
use kalah_engine::search::Options;
use kalah_engine::GameEngine;
use kalah_rules::{Action, Move, Position, Rules};
use rand::Rng;
use tokio::sync::Semaphore;

/// The deepest minimax bot, in go-kgp's depth (`minimax-12` looks 13 sowings ahead): go-kgp's
/// practice server plays up to `MinMax-12`, and its bots have no table, so each step deeper
/// multiplies their time (the engine's levels go deeper).
pub const MAX_MINIMAX_DEPTH: u8 = 12;

/// A practice bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bot {
    /// A random legal move.
    Random,
    /// The move that leaves the best store difference after it (an extra move's follow-up
    /// included), the first such in house order.
    Greedy,
    /// go-kgp's `MinMax-D` ([`minimax`]): alpha-beta on the store difference to go-kgp's depth
    /// `depth`, which is `depth + 1` sowings; with `percent` below 100 only that share of moves
    /// is searched and the rest are random.
    Minimax {
        /// go-kgp's depth: the search looks `depth + 1` sowings ahead.
        depth: u8,
        /// The share of moves searched, in percent.
        percent: u8,
    },
    /// kalah's engine at a strength level (1-5).
    Level(Level),
}

impl fmt::Display for Bot {
    /// Writes the bot's name as [`Bot::from_str`] reads it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Bot::Random => f.write_str("random"),
            Bot::Greedy => f.write_str("greedy"),
            Bot::Minimax { depth, percent: 100 } => write!(f, "minimax-{depth}"),
            Bot::Minimax { depth, percent } => write!(f, "minimax-{depth}:{percent}"),
            Bot::Level(level) => write!(f, "level-{level}"),
        }
    }
}

/// A name that is no bot.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{0:?} is not a bot: random, greedy, minimax-D (go-kgp's MinMax-D, D = 1 to {MAX_MINIMAX_DEPTH}: D+1 sowings \
     ahead), minimax-D:P (P% of moves searched, the rest random) or level-L (kalah's engine, L = 1 to 5)"
)]
pub struct UnknownBot(pub String);

impl FromStr for Bot {
    type Err = UnknownBot;

    /// Reads `random`, `greedy`, `minimax-D`, `minimax-D:P` or `level-L`.
    fn from_str(text: &str) -> Result<Bot, UnknownBot> {
        let bad = || UnknownBot(text.to_string());
        let word = text.trim().to_ascii_lowercase();
        if let Some(rest) = word.strip_prefix("minimax-") {
            let (depth, percent) = rest.split_once(':').unwrap_or((rest, "100"));
            let depth: u8 = depth.parse().map_err(|_| bad())?;
            let percent: u8 = percent.parse().map_err(|_| bad())?;
            if !(1..=MAX_MINIMAX_DEPTH).contains(&depth) || !(1..=100).contains(&percent) {
                return Err(bad());
            }
            return Ok(Bot::Minimax { depth, percent });
        }
        if let Some(level) = word.strip_prefix("level-") {
            let level: u8 = level.parse().map_err(|_| bad())?;
            return Level::new(level).map(Bot::Level).ok_or_else(bad);
        }
        match word.as_str() {
            "random" => Ok(Bot::Random),
            "greedy" => Ok(Bot::Greedy),
            _ => Err(bad()),
        }
    }
}

/// The engines the level bots share: at most one search a core, each engine with a small table
/// and bound to the rules of the games it played last.
pub struct Engines {
    idle: Mutex<Vec<GameEngine>>,
    searches: Semaphore,
    table_bytes: usize,
    time: Duration,
}

impl Engines {
    /// Returns a pool of at most `searches` engines of `table_bytes` each; level 5 thinks for
    /// `time` a move.
    pub fn new(searches: usize, table_bytes: usize, time: Duration) -> Engines {
        Engines { idle: Mutex::new(Vec::new()), searches: Semaphore::new(searches.max(1)), table_bytes, time }
    }

    /// Takes an idle engine of `rules` (its table holds their positions, good for any game of
    /// them), else renews another for them, else makes one.
    fn take(&self, rules: Rules) -> GameEngine {
        let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = idle.iter().position(|engine| *engine.rules() == rules) {
            return idle.swap_remove(i);
        }
        let reused = idle.pop();
        drop(idle);
        match reused {
            Some(mut engine) => {
                engine.renew(rules, None);
                engine
            }
            None => GameEngine::new(rules, Options { table_bytes: self.table_bytes, ..Options::default() }),
        }
    }

    fn give_back(&self, engine: GameEngine) {
        self.idle.lock().unwrap_or_else(|e| e.into_inner()).push(engine);
    }
}

impl Bot {
    /// Chooses a move in `position` (not over, its mover to move) under `rules`. The searching
    /// bots think on a blocking thread, the level bots with an engine of `engines`.
    pub async fn choose(self, position: Position, rules: Rules, engines: &Arc<Engines>) -> Move {
        let moves: Vec<Move> = position.legal_moves().collect();
        // The generator is not kept across the awaits below (it is not `Send`).
        let (random, roll) = {
            let mut rng = rand::thread_rng();
            (moves[rng.gen_range(0..moves.len())], rng.gen_range(0..100u8))
        };
        match self {
            Bot::Random => random,
            Bot::Greedy => greedy(&position, &rules),
            Bot::Minimax { percent, .. } if roll >= percent => random,
            Bot::Minimax { depth, .. } => {
                tokio::task::spawn_blocking(move || minimax(&position, &rules, depth).0).await.unwrap_or(random)
            }
            Bot::Level(level) => {
                let Ok(_permit) = engines.searches.acquire().await else { return random };
                let engines = Arc::clone(engines);
                tokio::task::spawn_blocking(move || {
                    let engine = engines.take(rules);
                    let limits = level.limits(engines.time);
                    let turn = Turn::at(rules, position, false);
                    let decision = engine.decide_turn(&turn, SwapPolicy::Auto, limits, None, |_| {});
                    engines.give_back(engine);
                    match decision.ok().flatten().map(|d| d.action) {
                        Some(Action::Sow(mv)) if moves.contains(&mv) => mv,
                        _ => random,
                    }
                })
                .await
                .unwrap_or(random)
            }
        }
    }
}

/// The store difference for `side`'s opponent's opponent: the mover of `root`.
fn value(position: &Position, rules: &Rules, me: kalah_rules::Side) -> i32 {
    let stores = position.final_stores(rules);
    i32::from(stores[me]) - i32::from(stores[!me])
}

/// The greedy move: the best store difference for the mover after the move and, when it gives an
/// extra move, after the best follow-up.
pub fn greedy(position: &Position, rules: &Rules) -> Move {
    minimax_to(position, rules, 1, true).0
}

/// go-kgp's `MinMax-depth` (its bot/minmax.go): alpha-beta minimax valued by the store difference
/// for the mover, the leftover seeds dealt to their owners when the game ends within the search
/// (under the `kgp` rules also when a store holds more than half of the seeds, as go-kgp's board
/// ends it). Returns the first best move in house order, go-kgp's choice among equal values, and
/// its value.
///
/// go-kgp tests for its depth limit after each sowing and counts down to 0 before it stops, so
/// `MinMax-D` sows D + 1 times along a line: this searches `depth + 1` sowings. An extra move
/// (the last seed in one's store) is a sowing like any other, searched for the same player.
pub fn minimax(position: &Position, rules: &Rules, depth: u8) -> (Move, i32) {
    minimax_to(position, rules, depth.saturating_add(1), false)
}

/// Alpha-beta to `sowings` sowings (at least 1) from `position`, for its mover; with
/// `follow_extra`, a line that ends on the mover's extra move goes on to its best follow-up.
fn minimax_to(position: &Position, rules: &Rules, sowings: u8, follow_extra: bool) -> (Move, i32) {
    let me = position.mover();
    let mut best = (position.legal_moves().next().expect("a position with a move"), i32::MIN);
    let (mut alpha, beta) = (i32::MIN, i32::MAX);
    for mv in position.legal_moves() {
        let child = position.play_unchecked(rules, mv);
        let v = search(&child, rules, me, sowings - 1, alpha, beta, follow_extra);
        if v > best.1 {
            best = (mv, v);
        }
        alpha = alpha.max(v);
    }
    best
}

/// The value for `me` of `position`, `sowings` more sowings deep, by fail-soft alpha-beta: a value
/// at or below `alpha` only bounds the true one from above, which is why the root takes a move
/// only when it is strictly better and so keeps the first best move.
fn search(
    position: &Position,
    rules: &Rules,
    me: kalah_rules::Side,
    sowings: u8,
    mut alpha: i32,
    mut beta: i32,
    follow_extra: bool,
) -> i32 {
    let extra = follow_extra && position.mover() == me;
    if position.is_over(rules) || (sowings == 0 && !extra) {
        return value(position, rules, me);
    }
    let maximising = position.mover() == me;
    let mut best = if maximising { i32::MIN } else { i32::MAX };
    for mv in position.legal_moves() {
        let child = position.play_unchecked(rules, mv);
        let v = search(&child, rules, me, sowings.saturating_sub(1), alpha, beta, follow_extra);
        if maximising {
            best = best.max(v);
            alpha = alpha.max(best);
        } else {
            best = best.min(v);
            beta = beta.min(best);
        }
        if alpha >= beta {
            break;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_rules::Side;

    fn kgp() -> Rules {
        Rules::preset("kgp", 6, 6).unwrap()
    }

    #[test]
    fn bot_names_read_back_and_bad_ones_say_what_is_accepted() {
        for name in ["random", "greedy", "minimax-1", "minimax-12", "minimax-6:75", "level-1", "level-5"] {
            assert_eq!(name.parse::<Bot>().unwrap().to_string(), name);
        }
        assert_eq!("Minimax-4:100".parse::<Bot>(), Ok(Bot::Minimax { depth: 4, percent: 100 }));
        for bad in
            ["", "minimax", "minimax-0", "minimax-13", "minimax-4:0", "minimax-4:101", "level-0", "level-6", "alice"]
        {
            let e = bad.parse::<Bot>().unwrap_err().to_string();
            assert!(e.contains("random, greedy, minimax-D") && !e.contains('\n'), "{e}");
        }
    }

    /// Plain minimax without pruning to `sowings` more sowings, to check the alpha-beta search
    /// against.
    fn plain(position: &Position, rules: &Rules, me: Side, sowings: u8) -> i32 {
        if position.is_over(rules) || sowings == 0 {
            return value(position, rules, me);
        }
        let values =
            position.legal_moves().map(|mv| plain(&position.play_unchecked(rules, mv), rules, me, sowings - 1));
        if position.mover() == me {
            values.max().unwrap()
        } else {
            values.min().unwrap()
        }
    }

    #[test]
    fn minimax_gives_plain_minimaxs_value_and_its_first_best_move() {
        let rules = Rules::preset("kgp", 4, 3).unwrap();
        let mut position = Position::start(&rules);
        let mut n = 0;
        while !position.is_over(&rules) {
            // go-kgp's depth D: after the first sowing, D more.
            for depth in 0..=4 {
                let (mv, v) = minimax(&position, &rules, depth);
                let me = position.mover();
                let children: Vec<(Move, i32)> = position
                    .legal_moves()
                    .map(|m| (m, plain(&position.play_unchecked(&rules, m), &rules, me, depth)))
                    .collect();
                let best = children.iter().map(|c| c.1).max().unwrap();
                assert_eq!(v, best);
                assert_eq!(mv, children.iter().find(|c| c.1 == best).unwrap().0);
            }
            let moves: Vec<Move> = position.legal_moves().collect();
            position = position.play_unchecked(&rules, moves[n % moves.len()]);
            n += 1;
        }
    }

    #[test]
    fn greedy_takes_the_extra_move_and_the_capture() {
        let rules = kgp();
        // House 1 (6 seeds) ends in the store: an extra move, then the best follow-up.
        assert_eq!(greedy(&Position::start(&rules), &rules).number(), 1);
        // South's house 1 holds 1 seed into an empty house 2 opposite 9 seeds: the capture.
        let position: Position = "1,0,3,3,3,3:0/3,3,3,3,9,3:0/S".parse().unwrap();
        let (_, gain) = minimax_to(&position, &rules, 1, true);
        assert!(gain >= 10, "{gain}");
        assert!(minimax(&position, &rules, 1).1 >= 10);
    }

    #[test]
    fn a_bot_s_engine_is_bound_to_the_rules_of_its_game() {
        let engines = Engines::new(1, 1 << 16, Duration::from_millis(20));
        let (big, small) = (kgp(), Rules::preset("kgp", 4, 3).unwrap());
        engines.give_back(engines.take(big));
        // The one idle engine played Kalah(6,6): a game of Kalah(4,3) gets it renewed for its rules.
        let engine = engines.take(small);
        assert_eq!(engine.rules(), &small);
        engines.give_back(engine);
        assert_eq!(engines.take(small).rules(), &small);
    }

    #[tokio::test]
    async fn every_bot_plays_legal_moves_to_the_end() {
        let engines = Arc::new(Engines::new(1, 1 << 16, Duration::from_millis(20)));
        for bot in ["random", "greedy", "minimax-3", "minimax-4:50", "level-1", "level-5"] {
            let bot: Bot = bot.parse().unwrap();
            let rules = kgp();
            let mut position = Position::start(&rules);
            while !position.is_over(&rules) {
                let mv = bot.choose(position, rules, &engines).await;
                position = position.play(&rules, mv).unwrap().0;
            }
        }
    }
}
