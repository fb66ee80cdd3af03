//! Players that choose actions: the baselines (random, greedy) and the searches at a set strength.
//!
//! Every player but the random one decides through [`kalah_engine::decide`], so the pie rule's
//! opening and swap and the handicap follow the same rules for all; what differs is the search
//! behind the decision (the greedy look one sowing ahead, the course's classic searches, the
//! strong engine) and its strength.

use std::fmt;
use std::ops::ControlFlow;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use kalah_rules::{Action, Game, Position, Rules};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::classic::{Algorithm, Classic};
use kalah_engine::databases::Databases;
use kalah_engine::decide::{decide, Decision, Searched, Searcher};
use kalah_engine::eval::{evaluate, Weights};
use kalah_engine::score::Score;
use kalah_engine::search::{Engine, Info, Options};
use kalah_engine::time::{now, GameClock, Instant, Limits};

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

impl Strength {
    /// Returns the limits of one move at this strength; a clock is taken as full.
    pub fn limits(self) -> Limits {
        match self {
            Strength::Depth(d) => Limits::depth(d),
            Strength::Time(t) => Limits::time(t),
            Strength::Clock { total, increment } => Limits::clock(GameClock::new(total, increment).clock()),
        }
    }
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
/// difference (extra moves and captures count through the stores); it answers the pie rule and
/// the handicap by [`decide`]'s rules on that same look ahead.
#[derive(Clone, Copy, Debug, Default)]
pub struct GreedyPlayer;

impl Player for GreedyPlayer {
    fn name(&self) -> String {
        "greedy".to_string()
    }

    fn choose(&mut self, game: &Game) -> Action {
        decide(self, game, Limits::depth(1), None).expect("the game is not over").action
    }
}

impl Searcher for GreedyPlayer {
    /// Looks one sowing ahead, whatever the limits: a search that completes depth 1 only.
    fn search(
        &self,
        position: &Position,
        rules: &Rules,
        _limits: Limits,
        _stop: Option<&AtomicBool>,
        heard: &mut dyn FnMut(&Searched) -> ControlFlow<()>,
    ) -> Searched {
        let me = position.mover();
        let value = |child: &Position| evaluate(child, rules, me, &Weights::STORE);
        let best = position.legal_moves().max_by_key(|&mv| {
            let child = position.play_unchecked(rules, mv);
            // An extra move is worth a little more than the seed it adds: the turn goes on.
            let bonus = i32::from(child.mover() == me && !child.is_over(rules));
            2 * value(&child) + bonus
        });
        let score = match best {
            Some(mv) => Score::estimate(value(&position.play_unchecked(rules, mv))),
            None => Score::new(value(position), true),
        };
        let nodes = 1 + position.legal_moves().count() as u64;
        let found = Searched { depth: 1, score, best, nodes };
        // One depth only: nothing is left for the listener to stop.
        let _ = heard(&found);
        found
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
    /// This player's clock (when its strength is a clock).
    clock: Timer,
}

impl SearchPlayer {
    /// Returns a player with the tuned evaluation.
    pub fn new(algorithm: Algorithm, strength: Strength) -> SearchPlayer {
        SearchPlayer { algorithm, strength, weights: Weights::TUNED, clock: Timer::default() }
    }

    /// Returns the search the player's decisions rest on: its algorithm with its weights.
    pub fn searcher(&self) -> Classic {
        Classic { algorithm: self.algorithm, weights: self.weights }
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
        now()
    }

    /// Ends a move begun at `started`: the time it took comes off the clock, the increment goes on.
    fn stop(&mut self, started: Instant) {
        if let Some(clock) = &mut self.clock {
            clock.charge(started.elapsed());
        }
    }

    /// Returns the limits of a move at `strength`, on this player's clock.
    fn limits(&self, strength: Strength) -> Limits {
        match (strength, self.clock) {
            (Strength::Clock { .. }, Some(clock)) => Limits::clock(clock.clock()),
            _ => strength.limits(),
        }
    }
}

/// A player driven by the strong engine ([`kalah_engine::search`]): iterative deepening with the table,
/// proofs and, if given, the endgame databases.
pub struct StrongPlayer {
    engine: Engine,
    strength: Strength,
    clock: Timer,
    /// The endgame databases the engine may use, shared with other players.
    databases: Option<Arc<Databases>>,
    /// The rules the engine's database was last attached for.
    attached: Option<Rules>,
}

impl StrongPlayer {
    /// Returns a strong player with its own engine built from `options`.
    pub fn new(options: Options, strength: Strength) -> StrongPlayer {
        StrongPlayer {
            engine: Engine::new(options),
            strength,
            clock: Timer::default(),
            databases: None,
            attached: None,
        }
    }

    /// Returns the player set to use the endgame database of each game's rules from `databases`
    /// (none: no database), attached when a game of those rules asks it to act.
    pub fn with_databases(mut self, databases: Option<Arc<Databases>>) -> StrongPlayer {
        self.databases = databases;
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
    /// Returns the player's decision in `game` at its strength (on its clock, which this does not
    /// charge), or `None` once the game is over: what it would play, and a hint's answer.
    pub fn decision(&mut self, game: &Game) -> Option<Decision> {
        let rules = *game.rules();
        // A game of other rules (a game loaded at the prompt) needs its own database, or none.
        if let Some(databases) = self.databases.as_ref().filter(|_| self.attached != Some(rules)) {
            self.engine.set_oracle(databases.attach(&rules).engine_oracle());
            self.attached = Some(rules);
        }
        decide(&self.engine, game, self.clock.limits(self.strength), None)
    }

    /// Chooses an action; [`Player::choose`] times it on the game clock.
    fn choose_on_clock(&mut self, game: &Game) -> Action {
        self.decision(game).expect("the game is not over").action
    }
}

impl Player for SearchPlayer {
    fn name(&self) -> String {
        format!("{} {}", self.algorithm, self.strength)
    }

    fn choose(&mut self, game: &Game) -> Action {
        let started = self.clock.start(game, self.strength);
        let limits = self.clock.limits(self.strength);
        let action = decide(&self.searcher(), game, limits, None).expect("the game is not over").action;
        self.clock.stop(started);
        action
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classic::MAX_CLASSIC_DEPTH;
    use kalah_rules::{Phase, Side};

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
        let mut depths = Vec::new();
        let limits = player.strength.limits();
        let found = player.searcher().search(&Position::start(&rules), &rules, limits, None, &mut |f| {
            depths.push(f.depth);
            ControlFlow::Continue(())
        });
        assert!(found.best.is_some());
        assert_eq!(depths.first(), Some(&1), "depth 1 is never cut short");
        assert!(depths.windows(2).all(|w| w[1] == w[0] + 1), "{depths:?}");
        assert_eq!(depths.last(), Some(&found.depth));
        // A game tree that fits in milliseconds, with a minute to search it: the search deepens
        // until a depth adds nothing, and ends by that, not by the clock.
        let rules = Rules::standard(2, 1).unwrap();
        let start = Position::start(&rules);
        let player = SearchPlayer::new(Algorithm::Ordered, Strength::Time(Duration::from_secs(60)));
        let found = player
            .searcher()
            .search(&start, &rules, player.strength.limits(), None, &mut |_| ControlFlow::Continue(()));
        let whole = crate::classic::search(&start, &rules, MAX_CLASSIC_DEPTH, Algorithm::Ordered, &Weights::TUNED);
        assert!(found.depth > 2 && found.depth < MAX_CLASSIC_DEPTH, "{}", found.depth);
        assert_eq!((found.score.hundredths(), found.best), (whole.value, whole.best));
    }

    #[test]
    fn a_depth_alone_is_searched_as_the_classic_search_does() {
        let rules = Rules::standard(6, 4).unwrap();
        let start = Position::start(&rules);
        let player = SearchPlayer::new(Algorithm::AlphaBeta, Strength::Depth(5));
        let found =
            player.searcher().search(&start, &rules, Limits::depth(5), None, &mut |_| ControlFlow::Continue(()));
        let classic = crate::classic::search(&start, &rules, 5, Algorithm::AlphaBeta, &Weights::TUNED);
        assert_eq!((found.best, found.score, found.depth), (classic.best, Score::estimate(classic.value), 5));
        assert_eq!(found.nodes, classic.counts.total());
        // A game's move is that search's best move.
        let action = SearchPlayer::new(Algorithm::AlphaBeta, Strength::Depth(5)).choose(&Game::new(rules));
        assert_eq!(Some(action), classic.best.map(Action::Sow));
    }

    #[test]
    fn the_course_players_swap_by_the_engines_rule_on_their_own_search() {
        // North's pie offer after each first sowing of Kalah(4,3): swap exactly when the player's
        // own search values the position below 0 for North.
        let mut rules = Rules::standard(4, 3).unwrap();
        rules.pie = true;
        let mut swaps = [0; 2];
        for first in 1..=4 {
            let mut game = Game::new(rules);
            game.act(Action::Sow(kalah_rules::Move::from_number(first).unwrap())).unwrap();
            if game.phase() != Phase::PieOffer {
                continue;
            }
            let position = game.position();
            let searcher = Classic { algorithm: Algorithm::Ordered, weights: Weights::TUNED };
            let value =
                searcher.search(position, &rules, Limits::depth(4), None, &mut |_| ControlFlow::Continue(())).score;
            let action = SearchPlayer::new(Algorithm::Ordered, Strength::Depth(4)).choose(&game);
            assert_eq!(action == Action::Swap, value.hundredths() < 0, "after house {first}: {value}");
            swaps[0] += usize::from(action == Action::Swap);
            let greedy =
                GreedyPlayer.search(position, &rules, Limits::depth(1), None, &mut |_| ControlFlow::Continue(())).score;
            let action = GreedyPlayer.choose(&game);
            assert_eq!(action == Action::Swap, greedy.hundredths() < 0, "greedy after house {first}: {greedy}");
            swaps[1] += usize::from(action == Action::Swap);
        }
        assert!(swaps[0] > 0, "some first sowings leave North worse off");
    }

    #[test]
    fn a_strong_player_attaches_the_database_of_each_games_rules() {
        let dir = tempfile::tempdir().unwrap();
        let three = Rules::standard(3, 2).unwrap();
        let options = kalah_engine::egdb::BuildOptions { threads: 1 };
        kalah_engine::egdb::build(dir.path(), &three, 4, &options, &mut |_| {}).unwrap();
        let databases = Arc::new(Databases::new(dir.path(), kalah_engine::databases::Memory::UNLIMITED));
        let options = Options { table_bytes: 1 << 20, ..Options::default() };
        let mut player = StrongPlayer::new(options, Strength::Depth(4)).with_databases(Some(Arc::clone(&databases)));
        player.choose(&Game::new(three));
        assert_eq!(player.attached, Some(three));
        let four = Rules::standard(4, 2).unwrap();
        player.choose(&Game::new(four));
        assert_eq!(player.attached, Some(four), "a game of other rules attaches again");
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
        // Kalah(4,3) is a first-player win (+6): after some first sowings the strong player as
        // North swaps.
        let mut swaps = 0;
        for first in 1..=4 {
            let mut game = Game::new(rules);
            game.act(Action::Sow(kalah_rules::Move::from_number(first).unwrap())).unwrap();
            while game.phase() == Phase::PieOpening {
                game.act(game.legal_actions()[0]).unwrap();
            }
            assert_eq!(game.phase(), Phase::PieOffer);
            swaps += usize::from(strong().choose(&game) == Action::Swap);
        }
        assert!(swaps > 0);
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
