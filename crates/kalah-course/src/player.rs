//! Players that choose actions: the baselines (random, greedy) and the searches at a set strength.

use std::fmt;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use kalah_rules::{Action, Game, Phase, Position, Rules, Side};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::classic::{search, search_until, Algorithm, Found};
use kalah_engine::decide::decide;
use kalah_engine::eval::{evaluate, Weights};
use kalah_engine::search::{Engine, Info, Options};
use kalah_engine::time::{GameClock, Limits};

/// How hard a search player thinks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strength {
    /// A fixed depth in sowings.
    Depth(u32),
    /// Iterative deepening for this long per move.
    Time(Duration),
    /// A clock for the whole game: the time for all of a player's moves, and what each move adds.
    Clock {
        /// Time for the whole game.
        total: Duration,
        /// Time added after each move.
        increment: Duration,
    },
}

impl fmt::Display for Strength {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Strength::Depth(d) => write!(f, "depth {d}"),
            Strength::Time(t) => write!(f, "{} ms a move", t.as_millis()),
            Strength::Clock { total, increment } if increment.is_zero() => {
                write!(f, "{} ms a game", total.as_millis())
            }
            Strength::Clock { total, increment } => {
                write!(f, "{} ms a game + {} ms a move", total.as_millis(), increment.as_millis())
            }
        }
    }
}

/// Something that chooses an action in a game.
pub trait Player {
    /// Returns a short name for tables and records.
    fn name(&self) -> String;
    /// Returns an action allowed in `game` (the game is not over).
    fn choose(&mut self, game: &Game) -> Action;
}

/// A player that picks uniformly among the allowed actions, from a seeded generator.
#[derive(Clone, Debug)]
pub struct RandomPlayer {
    rng: ChaCha8Rng,
}

impl RandomPlayer {
    /// Returns a random player whose choices follow from `seed`.
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer { rng: ChaCha8Rng::seed_from_u64(seed) }
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> String {
        "random".to_string()
    }

    fn choose(&mut self, game: &Game) -> Action {
        *game.legal_actions().choose(&mut self.rng).expect("the game is not over")
    }
}

/// A player that looks one sowing ahead and takes the move that leaves it best off by store
/// difference (extra moves and captures count through the stores); never swaps, keeps the board.
#[derive(Clone, Copy, Debug, Default)]
pub struct GreedyPlayer;

impl Player for GreedyPlayer {
    fn name(&self) -> String {
        "greedy".to_string()
    }

    fn choose(&mut self, game: &Game) -> Action {
        if game.phase() == Phase::Handicap {
            return Action::Keep;
        }
        let rules = game.rules();
        let position = game.position();
        let me = position.mover();
        position
            .legal_moves()
            .max_by_key(|&mv| {
                let child = position.play_unchecked(rules, mv);
                // An extra move is worth a little more than the seed it adds: the turn goes on.
                let bonus = i32::from(child.mover() == me && !child.is_over(rules));
                2 * evaluate(&child, rules, me, &Weights::STORE) + bonus
            })
            .map(Action::Sow)
            .expect("the game is not over")
    }
}

/// A player that searches with one of the assignment's algorithms.
#[derive(Clone, Debug)]
pub struct SearchPlayer {
    /// The search used.
    pub algorithm: Algorithm,
    /// How deep or how long it searches.
    pub strength: Strength,
    /// The evaluation weights at the leaves.
    pub weights: Weights,
    /// What the last search found: value, depth reached, and counts.
    pub last: Option<(Found, u32)>,
    /// This player's clock (when its strength is a clock).
    clock: Timer,
}

impl SearchPlayer {
    /// Returns a player with the tuned evaluation.
    pub fn new(algorithm: Algorithm, strength: Strength) -> SearchPlayer {
        SearchPlayer { algorithm, strength, weights: Weights::TUNED, last: None, clock: Timer::default() }
    }

    /// Searches `position` at this player's strength: the result and the depth it comes from.
    pub fn think(&self, position: &Position, rules: &Rules) -> (Found, u32) {
        self.think_for(position, rules, self.strength)
    }

    fn think_for(&self, position: &Position, rules: &Rules, strength: Strength) -> (Found, u32) {
        match strength {
            Strength::Depth(depth) => (search(position, rules, depth, self.algorithm, &self.weights), depth),
            Strength::Clock { .. } => {
                let target = self.clock.limits(strength).budget().map_or(Duration::ZERO, |b| b.target);
                self.think_for(position, rules, Strength::Time(target.max(Duration::from_millis(1))))
            }
            Strength::Time(budget) => {
                let deadline = Instant::now() + budget;
                let mut done = (search(position, rules, 1, self.algorithm, &self.weights), 1);
                for depth in 2..=MAX_DEPTH {
                    match search_until(position, rules, depth, self.algorithm, &self.weights, Some(deadline)) {
                        Some(found) => {
                            // The same count twice means the whole game tree fitted: deeper adds nothing.
                            let complete = found.counts == done.0.counts;
                            done = (found, depth);
                            if complete {
                                break;
                            }
                        }
                        None => break,
                    }
                }
                done
            }
        }
    }

    /// Chooses among the handicap openings (North's choice) by a shallow search of each.
    fn choose_handicap(&self, game: &Game) -> Action {
        let rules = game.rules();
        let shallow = match self.strength {
            Strength::Depth(d) => Strength::Depth((d / 2).max(1)),
            Strength::Time(t) => Strength::Depth(if t >= Duration::from_millis(500) { 4 } else { 2 }),
            Strength::Clock { .. } => Strength::Depth(2),
        };
        let options = game.legal_actions();
        let value_for_south = |action: &Action| {
            let mut trial = game.clone();
            trial.act(*action).expect("a legal action");
            self.think_for(trial.position(), rules, shallow).0.value
        };
        // North wants the start that is worst for South; on a tie keep the board as it is.
        let mut best = (value_for_south(&Action::Keep), Action::Keep);
        for action in options.iter().filter(|a| **a != Action::Keep) {
            let value = value_for_south(action);
            if value < best.0 {
                best = (value, *action);
            }
        }
        best.1
    }
}

/// A player's timing over the games it plays: its game clock (when its strength is a clock),
/// set back to full when a new game begins.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Timer {
    clock: Option<GameClock>,
    /// Turns of the game at this player's last move, to tell a new game from the same one.
    turns: usize,
}

impl Timer {
    /// Starts a move in `game`: a game with fewer turns than last time is a new one, with a full clock.
    fn start(&mut self, game: &Game, strength: Strength) -> Instant {
        let turns = game.turns().len();
        if let Strength::Clock { total, increment } = strength {
            match &mut self.clock {
                Some(_) if turns >= self.turns => {}
                Some(clock) => clock.restart(),
                None => self.clock = Some(GameClock::new(total, increment)),
            }
        }
        self.turns = turns;
        Instant::now()
    }

    /// Ends a move begun at `started`: the time it took comes off the clock, the increment goes on.
    fn stop(&mut self, started: Instant) {
        if let Some(clock) = &mut self.clock {
            clock.charge(started.elapsed());
        }
    }

    /// Returns the limits of a move at `strength`, on this player's clock.
    fn limits(&self, strength: Strength) -> Limits {
        match strength {
            Strength::Depth(d) => Limits::depth(d),
            Strength::Time(t) => Limits::time(t),
            Strength::Clock { total, increment } => {
                Limits::clock(self.clock.unwrap_or_else(|| GameClock::new(total, increment)).clock())
            }
        }
    }
}

/// A player driven by the strong engine ([`kalah_engine::search`]): iterative deepening with the table,
/// proofs and, if given, the endgame database.
pub struct StrongPlayer {
    engine: Engine,
    strength: Strength,
    clock: Timer,
    /// Where to look for an endgame database on the first move, once the rules are known.
    egdb_dir: Option<PathBuf>,
}

impl StrongPlayer {
    /// Returns a strong player with its own engine built from `options`.
    pub fn new(options: Options, strength: Strength) -> StrongPlayer {
        StrongPlayer { engine: Engine::new(options), strength, clock: Timer::default(), egdb_dir: None }
    }

    /// Returns the player set to use the endgame database of the game's rules in `dir`, if
    /// there is one (opened once per process and shared between players).
    pub fn with_egdb_dir(mut self, dir: Option<PathBuf>) -> StrongPlayer {
        self.egdb_dir = dir;
        self
    }

    /// Searches `position` at this player's strength.
    pub fn think(&self, position: &Position, rules: &Rules) -> Info {
        self.engine.search(position, rules, self.clock.limits(self.strength), None, |_| {})
    }
}

impl Player for StrongPlayer {
    fn name(&self) -> String {
        format!("engine {}", self.strength)
    }

    fn choose(&mut self, game: &Game) -> Action {
        let started = self.clock.start(game, self.strength);
        let action = self.choose_on_clock(game);
        self.clock.stop(started);
        action
    }
}

impl StrongPlayer {
    /// Chooses an action; [`Player::choose`] times it on the game clock.
    fn choose_on_clock(&mut self, game: &Game) -> Action {
        let rules = game.rules();
        if let Some(dir) = self.egdb_dir.take() {
            if let Some(db) = kalah_engine::egdb::shared(&dir, rules).filter(|db| db.matches(rules)) {
                self.engine.set_oracle(Some(db));
            }
        }
        let decision = decide(&self.engine, game, self.clock.limits(self.strength), None);
        decision.expect("the game is not over").action
    }
}

/// The deepest iteration a timed search tries.
pub const MAX_DEPTH: u32 = 64;

impl Player for SearchPlayer {
    fn name(&self) -> String {
        format!("{} {}", self.algorithm, self.strength)
    }

    fn choose(&mut self, game: &Game) -> Action {
        let started = self.clock.start(game, self.strength);
        let action = self.choose_on_clock(game);
        self.clock.stop(started);
        action
    }
}

impl SearchPlayer {
    /// Chooses an action; [`Player::choose`] times it on the game clock.
    fn choose_on_clock(&mut self, game: &Game) -> Action {
        let phase = game.phase();
        if phase == Phase::Handicap {
            return self.choose_handicap(game);
        }
        let (found, depth) = self.think(game.position(), game.rules());
        self.last = Some((found, depth));
        // Pie rule: after a swap this player is South with North to move, worth minus the value for
        // North; swap when that beats North's best move.
        if phase == Phase::PieOffer && found.value < 0 {
            debug_assert_eq!(game.position().mover(), Side::North);
            return Action::Swap;
        }
        Action::Sow(found.best.expect("the game is not over"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finish(mut game: Game, players: &mut [Box<dyn Player>; 2]) -> Game {
        while !game.is_over() {
            let side = game.position().mover();
            // After a swap the first player (players[0]) plays North.
            let seat = usize::from((side == Side::North) != game.swapped());
            let action = players[seat].choose(&game);
            game.act(action).expect("players choose legal actions");
        }
        game
    }

    #[test]
    fn every_player_finishes_games_under_pie_and_handicap() {
        let mut rules = Rules::standard(4, 3).unwrap();
        rules.pie = true;
        rules.handicap = true;
        let mut players: [Box<dyn Player>; 2] =
            [Box::new(SearchPlayer::new(Algorithm::Ordered, Strength::Depth(3))), Box::new(RandomPlayer::new(7))];
        let game = finish(Game::new(rules), &mut players);
        assert!(game.result().is_some());
        let mut players: [Box<dyn Player>; 2] = [Box::new(GreedyPlayer), Box::new(RandomPlayer::new(8))];
        assert!(finish(Game::new(rules), &mut players).is_over());
    }

    #[test]
    fn a_timed_search_returns_a_move_and_deepens_while_it_has_time() {
        // However busy the machine, the first iteration completes and gives a move.
        let rules = Rules::standard(6, 6).unwrap();
        let player = SearchPlayer::new(Algorithm::Ordered, Strength::Time(Duration::from_millis(50)));
        let (found, depth) = player.think(&Position::start(&rules), &rules);
        assert!(found.best.is_some());
        assert!(depth >= 1);
        // A game tree that fits in milliseconds, with a minute to search it: the search deepens
        // until a depth adds nothing, and ends by that, not by the clock.
        let rules = Rules::standard(2, 1).unwrap();
        let player = SearchPlayer::new(Algorithm::Ordered, Strength::Time(Duration::from_secs(60)));
        let (found, depth) = player.think(&Position::start(&rules), &rules);
        let whole = search(&Position::start(&rules), &rules, MAX_DEPTH, Algorithm::Ordered, &Weights::TUNED);
        assert!(depth > 2 && depth < MAX_DEPTH, "{depth}");
        assert_eq!((found.value, found.best), (whole.value, whole.best));
    }

    #[test]
    fn the_strong_player_finishes_games_and_swaps_when_it_pays() {
        let mut rules = Rules::standard(4, 3).unwrap();
        rules.pie = true;
        let strong =
            || Box::new(StrongPlayer::new(Options { table_bytes: 1 << 20, ..Options::default() }, Strength::Depth(6)));
        let mut players: [Box<dyn Player>; 2] = [strong(), Box::new(GreedyPlayer)];
        let game = finish(Game::new(rules), &mut players);
        assert!(game.is_over());
        // Kalah(4,3) is a first-player win (+6): the strong player as North swaps.
        let mut players: [Box<dyn Player>; 2] = [Box::new(GreedyPlayer), strong()];
        let mut game = Game::new(rules);
        game.act(players[0].choose(&game)).unwrap();
        while game.phase() == Phase::Play {
            game.act(players[0].choose(&game)).unwrap();
        }
        assert_eq!(game.phase(), Phase::PieOffer);
        assert_eq!(players[1].choose(&game), Action::Swap);
    }

    /// The processor time this thread has used, from `/proc/thread-self/stat` (in clock ticks of
    /// 10 ms); `None` where there is no such file.
    fn thread_cpu() -> Option<Duration> {
        let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
        let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
        let ticks = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
        Some(Duration::from_millis(ticks * 10))
    }

    #[test]
    fn players_on_a_clock_keep_within_it_and_start_each_game_afresh() {
        let rules = Rules::standard(6, 6).unwrap();
        let clock = Strength::Clock { total: Duration::from_millis(1500), increment: Duration::from_millis(10) };
        let engine = StrongPlayer::new(Options { table_bytes: 1 << 20, ..Options::default() }, clock);
        let mut players: [Box<dyn Player>; 2] =
            [Box::new(engine), Box::new(SearchPlayer::new(Algorithm::Ordered, clock))];
        // Both search on this thread (one search thread each); its processor time is what they
        // spent thinking on any machine, where the wall time grows when the machine is busy.
        let Some(_) = thread_cpu() else { return };
        for _ in 0..2 {
            let mut game = Game::new(rules);
            let mut spent = [Duration::ZERO; 2];
            let mut moves = [0u32; 2];
            while !game.is_over() {
                let seat = game.position().mover().index();
                let started = thread_cpu().expect("read before");
                let action = players[seat].choose(&game);
                spent[seat] += thread_cpu().expect("read before").saturating_sub(started);
                moves[seat] += 1;
                game.act(action).unwrap();
            }
            for seat in 0..2 {
                // Each move plans on a small share of what is left, so a game ends far inside the
                // clock; each reading may be a tick (10 ms) short.
                let allowed = Duration::from_millis(1500) + moves[seat] * Duration::from_millis(10 + 10);
                assert!(spent[seat] < allowed, "{:?} of processor time in {} moves", spent[seat], moves[seat]);
            }
        }
    }

    #[test]
    fn greedy_takes_the_extra_move() {
        let rules = Rules::standard(6, 4).unwrap();
        let action = GreedyPlayer.choose(&Game::new(rules));
        assert_eq!(action.to_string(), "3", "house 3 ends in the store");
    }
}
