//! Matches between two players: single games, seeded openings, game pairs, and the Elo difference.
//!
//! A match is played in game pairs. Both games of a pair start from the same opening (a few random
//! sowings chosen by a generator seeded from the match seed and the pair's number), and each player
//! takes South once, so neither the opening nor the first move favours a player over the pair.
//! Every game builds its players afresh from a seed of its own, and results are gathered by game
//! number, so a match between players that search to a fixed depth gives the same result for the
//! same seed however its games are spread over threads.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Mutex;

use kalah_rules::{Action, Game, Phase, PlayError, Rules};
use rand::seq::IteratorRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::player::Player;

/// A player that may be moved to another thread.
pub type BoxedPlayer = Box<dyn Player + Send>;

/// Builds a fresh player for one game from that game's seed (random players draw their moves from it).
pub type PlayerFactory<'a> = &'a (dyn Fn(u64) -> BoxedPlayer + Sync);

/// Attempts at drawing an opening that does not end the game before falling back to the plain start.
const OPENING_ATTEMPTS: u32 = 64;

/// Why a game or a match could not be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ArenaError {
    /// A player chose an action the game does not allow.
    #[error("{player} chose {action}, which is not allowed: {reason}")]
    IllegalAction {
        /// The player's name.
        player: String,
        /// The action, as records write it.
        action: String,
        /// Why the game refused it.
        reason: PlayError,
    },
    /// A match was asked for with no games.
    #[error("a match needs at least one game")]
    NoGames,
}

/// How a match is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchConfig {
    /// The rules of every game.
    pub rules: Rules,
    /// The number of games; an odd last game has the first player as South.
    pub games: u32,
    /// The seed of the openings and of the players' own generators.
    pub seed: u64,
    /// Random sowings in each opening (fewer under the pie rule, see [`open`]).
    pub opening_plies: u32,
    /// Threads playing games at the same time (at least 1 is used).
    pub threads: usize,
}

impl MatchConfig {
    /// Returns a one-thread match of `games` games with 4-sowing openings.
    pub fn new(rules: Rules, games: u32, seed: u64) -> MatchConfig {
        MatchConfig { rules, games, seed, opening_plies: 4, threads: 1 }
    }
}

/// One finished game of a match, from the first player's view.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct GameSummary {
    /// The game's number in the match, from 0.
    pub index: u32,
    /// Whether the match's first player started the game as South.
    pub first_started_south: bool,
    /// Whether the players swapped sides under the pie rule.
    pub swapped: bool,
    /// The actions of the opening, as records write them, separated by spaces.
    pub opening: String,
    /// All actions of the game, the opening included.
    pub actions: usize,
    /// The first player's final store.
    pub first_store: u16,
    /// The second player's final store.
    pub second_store: u16,
}

impl GameSummary {
    /// Returns the first player's final store minus the second player's.
    pub fn difference(&self) -> i32 {
        i32::from(self.first_store) - i32::from(self.second_store)
    }

    /// Returns the first player's score: 1 for a win, ½ for a draw, 0 for a loss.
    pub fn score(&self) -> f64 {
        match self.first_store.cmp(&self.second_store) {
            std::cmp::Ordering::Greater => 1.0,
            std::cmp::Ordering::Equal => 0.5,
            std::cmp::Ordering::Less => 0.0,
        }
    }
}

/// The result of a match, from the first player's view.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct MatchResult {
    /// Games the first player won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games the first player lost.
    pub losses: u32,
    /// The sum over all games of the first player's final store minus the second's.
    pub difference_sum: i64,
    /// Every game, in the order of their numbers.
    pub games: Vec<GameSummary>,
}

impl MatchResult {
    /// Gathers the summaries of a match's games, in the order given.
    pub fn from_games(games: Vec<GameSummary>) -> MatchResult {
        let mut result = MatchResult::default();
        for game in &games {
            match game.first_store.cmp(&game.second_store) {
                std::cmp::Ordering::Greater => result.wins += 1,
                std::cmp::Ordering::Equal => result.draws += 1,
                std::cmp::Ordering::Less => result.losses += 1,
            }
            result.difference_sum += i64::from(game.difference());
        }
        result.games = games;
        result
    }

    /// Returns the number of games played.
    pub fn played(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Returns the first player's points: a win is 1, a draw ½.
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }

    /// Returns the first player's share of the points, from 0 to 1 (½ for no games).
    pub fn score(&self) -> f64 {
        match self.played() {
            0 => 0.5,
            n => self.points() / f64::from(n),
        }
    }

    /// Returns the average final store difference, first player minus second (0 for no games).
    pub fn average_difference(&self) -> f64 {
        match self.played() {
            0 => 0.0,
            n => self.difference_sum as f64 / f64::from(n),
        }
    }

    /// Returns the first player's Elo advantage with its 95% margin, from the per-game scores.
    pub fn elo(&self) -> Elo {
        Elo::from_scores(&self.games.iter().map(GameSummary::score).collect::<Vec<_>>())
    }
}

/// An Elo difference estimated from game scores, with the half-width of its 95% interval.
///
/// With per-game scores s₁…sₙ (1, ½ or 0), the mean score is p = Σsᵢ/n and the per-game variance
/// σ² = Σ(sᵢ − p)²/n. The difference is E(p) = −400·log₁₀(1/p − 1), the Elo gap at which the
/// logistic model expects the score p. The mean's standard error is σ/√n, so the 95% interval of
/// the score is p ± 1.96·σ/√n, and the margin is half the Elo width of that interval:
/// (E(p + 1.96·σ/√n) − E(p − 1.96·σ/√n)) / 2. A score of 0 or 1 has no finite Elo, and an
/// interval reaching 0 or 1 has no finite margin; both are then infinite.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Elo {
    /// The Elo difference (positive: the first player is stronger); infinite after a clean sweep.
    pub difference: f64,
    /// Half the width of the 95% interval; infinite when the interval reaches a score of 0 or 1.
    pub margin: f64,
}

impl Elo {
    /// The score quantile of the two-sided 95% interval of a normal distribution.
    pub const Z95: f64 = 1.959_964;

    /// Estimates the Elo difference from per-game scores (1 a win, ½ a draw, 0 a loss).
    ///
    /// ```
    /// use kalah_course::arena::Elo;
    /// let elo = Elo::from_scores(&[1.0, 1.0, 1.0, 0.0]);
    /// assert!((elo.difference - 190.85).abs() < 0.01);
    /// assert!(elo.margin > 100.0, "4 games say little");
    /// ```
    pub fn from_scores(scores: &[f64]) -> Elo {
        if scores.is_empty() {
            return Elo { difference: 0.0, margin: f64::INFINITY };
        }
        let n = scores.len() as f64;
        let p = scores.iter().sum::<f64>() / n;
        let variance = scores.iter().map(|s| (s - p) * (s - p)).sum::<f64>() / n;
        let half_width = Elo::Z95 * (variance / n).sqrt();
        let (low, high) = (p - half_width, p + half_width);
        let margin =
            if low <= 0.0 || high >= 1.0 { f64::INFINITY } else { (elo_of_score(high) - elo_of_score(low)) / 2.0 };
        Elo { difference: elo_of_score(p), margin }
    }
}

/// Returns the Elo difference at which the logistic model expects `score` (0 to 1): −400·log₁₀(1/score − 1).
///
/// ```
/// use kalah_course::arena::elo_of_score;
/// assert_eq!(elo_of_score(0.5), 0.0);
/// assert!((elo_of_score(0.75) - 190.85).abs() < 0.01);
/// assert_eq!(elo_of_score(1.0), f64::INFINITY);
/// ```
pub fn elo_of_score(score: f64) -> f64 {
    if score >= 1.0 {
        f64::INFINITY
    } else if score <= 0.0 {
        f64::NEG_INFINITY
    } else {
        // Adding +0 turns the −0 of an even score into 0, which prints without a sign.
        -400.0 * (1.0 / score - 1.0).log10() + 0.0
    }
}

/// Returns the seat (0: the game's first player, who started as South; 1: the second) that acts
/// now ([`Game::decider`]: the second player decides the handicap and the swap); the first
/// player's once the game is over.
fn seat_to_act(game: &Game) -> usize {
    game.decider().map_or(0, |side| game.seat_of(side).index())
}

/// Asks the seat to act for an action and plays it, refusing an illegal one.
fn act(game: &mut Game, players: &mut [&mut dyn Player; 2]) -> Result<(), ArenaError> {
    let player = &mut players[seat_to_act(game)];
    let action = player.choose(game);
    game.act(action).map(|_| ()).map_err(|reason| ArenaError::IllegalAction {
        player: player.name(),
        action: action.to_string(),
        reason,
    })
}

/// Plays `game` to its end: `players[0]` is the game's first player (South at the start), `players[1]` the second.
///
/// Under the pie rule a swap hands the first player North, as [`Game::swapped`] tells.
pub fn play_game(mut game: Game, mut players: [&mut dyn Player; 2]) -> Result<Game, ArenaError> {
    while !game.is_over() {
        act(&mut game, &mut players)?;
    }
    Ok(game)
}

/// Starts a game with a random opening: up to `plies` sowings drawn from `rng`, none of which ends the game.
///
/// Decisions the rules give a player stay the players': the handicap choice comes first and is
/// asked of the second player, and under the pie rule the opening stops at the offer, so the
/// second player decides on the position the game is really played from. An opening that would
/// end the game is drawn again; after `OPENING_ATTEMPTS` failures the game starts without one.
pub fn open(
    rules: Rules,
    plies: u32,
    rng: &mut ChaCha8Rng,
    mut players: [&mut dyn Player; 2],
) -> Result<Game, ArenaError> {
    let mut base = Game::new(rules);
    if base.phase() == Phase::Handicap {
        act(&mut base, &mut players)?;
    }
    for _ in 0..OPENING_ATTEMPTS {
        let mut game = base.clone();
        for _ in 0..plies {
            // South's first turn under the pie rule is drawn too; the offer after it is not.
            if !matches!(game.phase(), Phase::Play | Phase::PieOpening) {
                break;
            }
            let Some(mv) = game.position().legal_moves().choose(rng) else { break };
            // A move drawn from the legal moves in the play phase is always accepted.
            game.act(Action::Sow(mv)).expect("a legal sowing");
        }
        if !game.is_over() {
            return Ok(game);
        }
    }
    Ok(base)
}

/// Mixes a seed with a stream number and an index into a well-spread 64-bit seed (SplitMix64).
pub fn derive_seed(seed: u64, stream: u64, index: u64) -> u64 {
    let mut z = seed ^ stream.wrapping_mul(0xD6E8_FEB8_6659_FD93) ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    for _ in 0..2 {
        z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
    }
    z
}

/// Streams of [`derive_seed`], so openings and players never share a generator.
const OPENING_STREAM: u64 = 1;
const PLAYER_STREAM: u64 = 2;

/// Plays game `index` of a match: pair `index / 2`, the first player South in even games.
pub fn play_match_game(
    config: &MatchConfig,
    index: u32,
    first: PlayerFactory<'_>,
    second: PlayerFactory<'_>,
) -> Result<GameSummary, ArenaError> {
    let pair = u64::from(index / 2);
    let first_started_south = index % 2 == 0;
    let mut a = first(derive_seed(config.seed, PLAYER_STREAM, 2 * u64::from(index)));
    let mut b = second(derive_seed(config.seed, PLAYER_STREAM, 2 * u64::from(index) + 1));
    let (south, north): (&mut dyn Player, &mut dyn Player) =
        if first_started_south { (a.as_mut(), b.as_mut()) } else { (b.as_mut(), a.as_mut()) };
    let mut rng = ChaCha8Rng::seed_from_u64(derive_seed(config.seed, OPENING_STREAM, pair));
    let game = open(config.rules, config.opening_plies, &mut rng, [&mut *south, &mut *north])?;
    let opening = game.actions().iter().map(ToString::to_string).collect::<Vec<_>>().join(" ");
    let game = play_game(game, [south, north])?;
    let stores = game.position().final_stores(game.rules());
    let first_side = if first_started_south { game.first_player_side() } else { game.first_player_side().opponent() };
    Ok(GameSummary {
        index,
        first_started_south,
        swapped: game.swapped(),
        opening,
        actions: game.actions().len(),
        first_store: stores[first_side],
        second_store: stores[first_side.opponent()],
    })
}

/// Plays a match between the players `first` and `second` build, calling `on_game` as each game ends.
///
/// Games run on `config.threads` threads; `on_game` sees them in the order they finish, but the
/// result lists them by number, so it does not depend on the threads' timing.
pub fn play_match(
    config: &MatchConfig,
    first: PlayerFactory<'_>,
    second: PlayerFactory<'_>,
    on_game: &(dyn Fn(&GameSummary) + Sync),
) -> Result<MatchResult, ArenaError> {
    if config.games == 0 {
        return Err(ArenaError::NoGames);
    }
    let threads = config.threads.clamp(1, config.games as usize);
    let next = AtomicU32::new(0);
    let failed = AtomicBool::new(false);
    let slots: Mutex<Vec<Option<Result<GameSummary, ArenaError>>>> = Mutex::new(vec![None; config.games as usize]);
    let work = || {
        while !failed.load(Ordering::Relaxed) {
            let index = next.fetch_add(1, Ordering::Relaxed);
            if index >= config.games {
                break;
            }
            let outcome = play_match_game(config, index, first, second);
            match &outcome {
                Ok(summary) => on_game(summary),
                Err(_) => failed.store(true, Ordering::Relaxed),
            }
            // A poisoned lock only means another game's thread panicked; the slots are still sound.
            slots.lock().unwrap_or_else(|e| e.into_inner())[index as usize] = Some(outcome);
        }
    };
    if threads == 1 {
        work();
    } else {
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(work);
            }
        });
    }
    let slots = slots.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut games = Vec::with_capacity(slots.len());
    for slot in slots.into_iter().flatten() {
        games.push(slot?);
    }
    Ok(MatchResult::from_games(games))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classic::Algorithm;
    use crate::player::{GreedyPlayer, RandomPlayer, SearchPlayer, Strength};
    use kalah_rules::Side;

    fn random(seed: u64) -> BoxedPlayer {
        Box::new(RandomPlayer::new(seed))
    }

    fn greedy(_: u64) -> BoxedPlayer {
        Box::new(GreedyPlayer)
    }

    fn ordered3(_: u64) -> BoxedPlayer {
        Box::new(SearchPlayer::new(Algorithm::Ordered, Strength::Depth(3)))
    }

    fn no_report(_: &GameSummary) {}

    #[test]
    fn elo_of_even_and_three_quarter_scores() {
        assert_eq!(elo_of_score(0.5), 0.0);
        assert!((elo_of_score(0.75) - 190.849).abs() < 1e-3);
        assert!((elo_of_score(0.25) + 190.849).abs() < 1e-3);
        assert_eq!(elo_of_score(0.0), f64::NEG_INFINITY);
        let draws = Elo::from_scores(&[0.5; 10]);
        assert_eq!((draws.difference, draws.margin), (0.0, 0.0));
    }

    #[test]
    fn the_margin_follows_the_per_game_variance() {
        // 30 wins, 10 losses: p = 0.75, σ² = 0.1875, standard error √(0.1875/40) ≈ 0.0685.
        let scores: Vec<f64> = (0..40).map(|i| if i % 4 == 0 { 0.0 } else { 1.0 }).collect();
        let elo = Elo::from_scores(&scores);
        let se = (0.1875f64 / 40.0).sqrt();
        let expected = (elo_of_score(0.75 + Elo::Z95 * se) - elo_of_score(0.75 - Elo::Z95 * se)) / 2.0;
        assert!((elo.difference - 190.849).abs() < 1e-3);
        assert!((elo.margin - expected).abs() < 1e-9);
        assert!(elo.margin > 100.0 && elo.margin < 160.0, "{}", elo.margin);
        let sweep = Elo::from_scores(&[1.0; 5]);
        assert_eq!(sweep.difference, f64::INFINITY);
    }

    #[test]
    fn greedy_beats_random_on_kalah_6_4() {
        let config = MatchConfig::new(Rules::standard(6, 4).unwrap(), 40, 1);
        let result = play_match(&config, &greedy, &random, &no_report).unwrap();
        assert_eq!(result.played(), 40);
        assert!(result.score() > 0.75, "greedy scored only {}", result.score());
        assert!(result.average_difference() > 0.0);
        assert!(result.elo().difference > 0.0);
    }

    #[test]
    fn a_seed_gives_the_same_match_on_any_number_of_threads() {
        let mut config = MatchConfig::new(Rules::standard(6, 4).unwrap(), 12, 42);
        let one = play_match(&config, &ordered3, &random, &no_report).unwrap();
        config.threads = 2;
        let two = play_match(&config, &ordered3, &random, &no_report).unwrap();
        assert_eq!(one, two);
        config.seed = 43;
        let other = play_match(&config, &ordered3, &random, &no_report).unwrap();
        assert_ne!(one.games, other.games, "another seed gives other openings");
    }

    #[test]
    fn a_pair_shares_its_opening_and_alternates_colours() {
        let mut config = MatchConfig::new(Rules::standard(6, 4).unwrap(), 6, 5);
        config.opening_plies = 3;
        let result = play_match(&config, &greedy, &ordered3, &no_report).unwrap();
        for pair in result.games.chunks(2) {
            assert_eq!(pair[0].opening, pair[1].opening);
            assert!(!pair[0].opening.is_empty());
            assert!(pair[0].first_started_south && !pair[1].first_started_south);
        }
        let openings: std::collections::HashSet<_> = result.games.iter().map(|g| g.opening.clone()).collect();
        assert!(openings.len() > 1, "pairs get different openings");
    }

    #[test]
    fn no_opening_ends_the_game() {
        // Kalah(2,1) ends within a few sowings: every opening kept must leave the game going.
        let rules = Rules::standard(2, 1).unwrap();
        for seed in 0..50 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let (mut a, mut b) = (GreedyPlayer, GreedyPlayer);
            let game = open(rules, 6, &mut rng, [&mut a, &mut b]).unwrap();
            assert!(!game.is_over(), "seed {seed}: {:?}", game.actions());
        }
    }

    /// Swaps whenever offered, else sows its first legal house.
    struct Swapper;

    impl Player for Swapper {
        fn name(&self) -> String {
            "swapper".to_string()
        }

        fn choose(&mut self, game: &Game) -> Action {
            game.legal_actions()[0]
        }
    }

    #[test]
    fn after_a_swap_the_stores_are_credited_to_the_right_player() {
        let mut rules = Rules::standard(4, 3).unwrap();
        rules.pie = true;
        let mut config = MatchConfig::new(rules, 4, 9);
        config.opening_plies = 0;
        let swapper = |_: u64| -> BoxedPlayer { Box::new(Swapper) };
        let result = play_match(&config, &greedy, &swapper, &no_report).unwrap();
        for summary in &result.games {
            // The swapper is the second player: it swaps only when it is North at the offer.
            assert_eq!(summary.swapped, summary.first_started_south, "{summary:?}");
        }
        // Replay game 0 by hand: greedy is South, the swapper swaps and takes over South.
        let mut game = Game::new(rules);
        let (mut g, mut s) = (GreedyPlayer, Swapper);
        let game0 = loop {
            let side = game.position().mover();
            let action = if game.phase() == Phase::PieOffer || (side == Side::South) == game.swapped() {
                s.choose(&game)
            } else {
                g.choose(&game)
            };
            game.act(action).unwrap();
            if game.is_over() {
                break game;
            }
        };
        let stores = game0.result().unwrap();
        assert!(game0.swapped());
        assert_eq!(result.games[0].first_store, stores.north, "greedy ends up North");
        assert_eq!(result.games[0].second_store, stores.south);
    }

    #[test]
    fn pie_and_handicap_matches_finish() {
        let mut rules = Rules::standard(5, 3).unwrap();
        rules.pie = true;
        rules.handicap = true;
        let mut config = MatchConfig::new(rules, 8, 3);
        config.threads = 2;
        let result = play_match(&config, &ordered3, &random, &no_report).unwrap();
        assert_eq!(result.played(), 8);
        let total = u16::from(rules.houses()) * u16::from(rules.seeds()) * 2;
        for game in &result.games {
            assert_eq!(game.first_store + game.second_store, total);
            assert!(game.opening.contains('>') || game.opening.starts_with("keep"), "{}", game.opening);
        }
    }

    #[test]
    fn an_illegal_action_is_an_error_not_a_panic() {
        struct Cheat;
        impl Player for Cheat {
            fn name(&self) -> String {
                "cheat".to_string()
            }
            fn choose(&mut self, _: &Game) -> Action {
                Action::Swap
            }
        }
        let config = MatchConfig::new(Rules::standard(4, 3).unwrap(), 2, 1);
        let cheat = |_: u64| -> BoxedPlayer { Box::new(Cheat) };
        let error = play_match(&config, &cheat, &greedy, &no_report).unwrap_err();
        assert!(matches!(error, ArenaError::IllegalAction { ref player, .. } if player == "cheat"), "{error}");
        assert_eq!(
            play_match(&MatchConfig { games: 0, ..config }, &greedy, &greedy, &no_report),
            Err(ArenaError::NoGames)
        );
    }
}
