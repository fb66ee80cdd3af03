//! Tuning the evaluation weights by self-play: a seeded coordinate search.
//!
//! Each iteration changes one weight of the best weights so far (the weight and the step drawn from
//! a generator seeded by the tuning seed) and plays the candidate against the best in a match of
//! game pairs from seeded openings, both searching with ordered alpha-beta to the same fixed depth.
//! The candidate replaces the best when it scores more than 50% by the margin. Fixed-depth search
//! and seeded openings make every match, and so the whole run, the same for the same settings.
//! The store weight stays at [`SEED`], so the other weights read as hundredths of a seed.

use kalah_rules::Rules;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::arena::{derive_seed, play_match, ArenaError, BoxedPlayer, GameSummary, MatchConfig, MatchResult};
use crate::classic::Algorithm;
use crate::player::{SearchPlayer, Strength};
use kalah_engine::eval::{Weights, SEED};

/// The weights the tuner changes, by name (the store weight stays at [`SEED`]).
pub const TUNED_FEATURES: [&str; 4] = ["houses", "extra_moves", "captures", "tempo"];

/// No weight goes beyond this many hundredths of a seed either way, so no feature outweighs many seeds.
pub const WEIGHT_LIMIT: i32 = 400;

/// The smallest step span late in a run, so the search still moves at the end.
const MIN_SPAN: i32 = 4;

/// Streams of [`derive_seed`] for the iterations' matches and the final check.
const ITERATION_STREAM: u64 = 11;
const CHECK_STREAM: u64 = 12;

/// Why a tuning run could not be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TuneError {
    /// The search depth is outside 1..=64.
    #[error("tuning depth {0} is out of range: use 1 to 64")]
    Depth(u32),
    /// A match of the run failed.
    #[error(transparent)]
    Arena(#[from] ArenaError),
}

/// How a tuning run is made.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TuneConfig {
    /// The rules of every game.
    pub rules: Rules,
    /// The seed of the steps and of every match's openings.
    pub seed: u64,
    /// Games in each iteration's match (best in pairs, so even).
    pub games: u32,
    /// Candidates to try.
    pub iterations: u32,
    /// The fixed depth of both players' ordered alpha-beta.
    pub depth: u32,
    /// Random sowings in each opening.
    pub opening_plies: u32,
    /// How far above ½ a candidate's score must be to replace the best (0.03: more than 53%).
    pub margin: f64,
    /// The largest step in the first iteration, in hundredths of a seed; it shrinks towards the end.
    pub max_step: i32,
    /// Threads playing each match's games.
    pub threads: usize,
    /// The weights the search starts from.
    pub start: Weights,
}

impl TuneConfig {
    /// Returns a run of `iterations` matches of `games` games at depth 4, starting from [`Weights::STORE`].
    pub fn new(rules: Rules, seed: u64, games: u32, iterations: u32) -> TuneConfig {
        TuneConfig {
            rules,
            seed,
            games,
            iterations,
            depth: 4,
            opening_plies: 4,
            margin: 0.03,
            max_step: 60,
            threads: 1,
            start: Weights::STORE,
        }
    }

    fn match_config(&self, games: u32, seed: u64) -> MatchConfig {
        MatchConfig { rules: self.rules, games, seed, opening_plies: self.opening_plies, threads: self.threads }
    }

    fn check(&self) -> Result<(), TuneError> {
        if !(1..=64).contains(&self.depth) {
            return Err(TuneError::Depth(self.depth));
        }
        if self.games == 0 {
            return Err(ArenaError::NoGames.into());
        }
        Ok(())
    }
}

/// One iteration: the candidate tried, its match against the best, and whether it replaced the best.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// The iteration, from 1.
    pub iteration: u32,
    /// The weight changed (one of [`TUNED_FEATURES`]).
    pub feature: &'static str,
    /// Its value in the best weights.
    pub from: i32,
    /// Its value in the candidate.
    pub to: i32,
    /// The candidate's match against the best, from the candidate's view.
    pub result: MatchResult,
    /// Whether the candidate became the best.
    pub accepted: bool,
    /// The best weights after this iteration.
    pub best: Weights,
}

/// The outcome of a tuning run.
#[derive(Clone, Debug, PartialEq)]
pub struct Tuned {
    /// The best weights at the end.
    pub weights: Weights,
    /// Every iteration, in order.
    pub steps: Vec<Step>,
}

impl Tuned {
    /// Returns the number of candidates that replaced the best.
    pub fn accepted(&self) -> usize {
        self.steps.iter().filter(|s| s.accepted).count()
    }
}

/// Returns a weight by its name in [`TUNED_FEATURES`] (0 for any other name).
fn get(weights: &Weights, feature: &str) -> i32 {
    weights.named().iter().find(|(name, _)| *name == feature).map_or(0, |(_, v)| *v)
}

/// Returns the weights with one of [`TUNED_FEATURES`] set to `value`.
fn with(mut weights: Weights, feature: &str, value: i32) -> Weights {
    match feature {
        "houses" => weights.houses = value,
        "extra_moves" => weights.extra_moves = value,
        "captures" => weights.captures = value,
        "tempo" => weights.tempo = value,
        _ => {}
    }
    weights
}

/// Returns a player factory: ordered alpha-beta to `depth` with `weights`.
fn searcher(weights: Weights, depth: u32) -> impl Fn(u64) -> BoxedPlayer + Sync {
    move |_| {
        let mut player = SearchPlayer::new(Algorithm::Ordered, Strength::Depth(depth));
        player.weights = weights;
        Box::new(player)
    }
}

/// Plays `first` against `second` (both ordered alpha-beta at the run's depth) on the run's rules.
pub fn weights_match(
    config: &TuneConfig,
    first: Weights,
    second: Weights,
    games: u32,
    seed: u64,
    on_game: &(dyn Fn(&GameSummary) + Sync),
) -> Result<MatchResult, TuneError> {
    config.check()?;
    let (a, b) = (searcher(first, config.depth), searcher(second, config.depth));
    Ok(play_match(&config.match_config(games, seed), &a, &b, on_game)?)
}

/// Tunes the weights, calling `on_step` after every iteration.
///
/// The step span falls linearly from `max_step` in the first iteration to a few hundredths of a
/// seed in the last, so early steps explore and late ones refine.
pub fn tune(config: &TuneConfig, on_step: &mut dyn FnMut(&Step)) -> Result<Tuned, TuneError> {
    config.check()?;
    let mut rng = ChaCha8Rng::seed_from_u64(config.seed);
    let mut best = Weights { store: SEED, ..config.start };
    let mut steps = Vec::with_capacity(config.iterations as usize);
    for iteration in 1..=config.iterations {
        let remaining = i64::from(config.iterations - iteration + 1);
        let span = (i64::from(config.max_step.max(1)) * remaining / i64::from(config.iterations)) as i32;
        let span = span.max(MIN_SPAN.min(config.max_step.max(1)));
        let feature = TUNED_FEATURES[rng.gen_range(0..TUNED_FEATURES.len())];
        let from = get(&best, feature);
        let delta = rng.gen_range(1..=span) * if rng.gen_bool(0.5) { 1 } else { -1 };
        // At the limit the step turns back instead of trying the same weights again.
        let to = match (from + delta).clamp(-WEIGHT_LIMIT, WEIGHT_LIMIT) {
            same if same == from => (from - delta).clamp(-WEIGHT_LIMIT, WEIGHT_LIMIT),
            to => to,
        };
        let candidate = with(best, feature, to);
        let seed = derive_seed(config.seed, ITERATION_STREAM, u64::from(iteration));
        let result = weights_match(config, candidate, best, config.games, seed, &|_| {})?;
        let accepted = result.score() > 0.5 + config.margin;
        if accepted {
            best = candidate;
        }
        let step = Step { iteration, feature, from, to, result, accepted, best };
        on_step(&step);
        steps.push(step);
    }
    Ok(Tuned { weights: best, steps })
}

/// Plays `weights` against the run's start weights on openings no iteration used: the check that tuning helped.
pub fn check_against_start(
    config: &TuneConfig,
    weights: Weights,
    games: u32,
    on_game: &(dyn Fn(&GameSummary) + Sync),
) -> Result<MatchResult, TuneError> {
    weights_match(config, weights, config.start, games, derive_seed(config.seed, CHECK_STREAM, 0), on_game)
}

/// Writes weights as the Rust constant that `eval.rs` holds, ready to paste.
///
/// ```
/// use kalah_engine::eval::Weights;
/// use kalah_course::tune::as_rust;
/// assert_eq!(
///     as_rust(&Weights::STORE),
///     "Weights { store: SEED, houses: 0, extra_moves: 0, captures: 0, tempo: 0 }"
/// );
/// ```
pub fn as_rust(weights: &Weights) -> String {
    let store = if weights.store == SEED { "SEED".to_string() } else { weights.store.to_string() };
    format!(
        "Weights {{ store: {store}, houses: {}, extra_moves: {}, captures: {}, tempo: {} }}",
        weights.houses, weights.extra_moves, weights.captures, weights.tempo
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> TuneConfig {
        let mut config = TuneConfig::new(Rules::standard(4, 3).unwrap(), 7, 4, 2);
        config.depth = 2;
        config
    }

    #[test]
    fn the_same_settings_give_the_same_weights() {
        let config = tiny();
        let mut seen = 0;
        let first = tune(&config, &mut |_| seen += 1).unwrap();
        assert_eq!(seen, 2);
        assert_eq!(first.steps.len(), 2);
        let again = tune(&TuneConfig { threads: 2, ..config }, &mut |_| {}).unwrap();
        assert_eq!(first, again);
    }

    #[test]
    fn a_step_changes_one_tuned_weight_within_the_limits() {
        let mut config = tiny();
        config.iterations = 6;
        config.margin = -1.0; // accept everything, so each step starts from the last
        let tuned = tune(&config, &mut |_| {}).unwrap();
        let mut best = Weights::STORE;
        for step in &tuned.steps {
            assert!(step.accepted);
            assert_ne!(step.from, step.to);
            assert!(step.to.abs() <= WEIGHT_LIMIT && (step.to - step.from).abs() <= config.max_step);
            assert_eq!(step.best, with(best, step.feature, step.to));
            assert_eq!(step.best.store, SEED);
            best = step.best;
        }
        assert_eq!(tuned.weights, best);
        assert_eq!(tuned.accepted(), 6);
    }

    #[test]
    fn a_candidate_needs_the_margin() {
        let mut config = tiny();
        config.margin = 0.5; // no score is above 100%
        let tuned = tune(&config, &mut |_| {}).unwrap();
        assert_eq!(tuned.weights, Weights::STORE);
        assert_eq!(tuned.accepted(), 0);
    }

    #[test]
    fn bad_settings_are_errors() {
        assert_eq!(tune(&TuneConfig { depth: 0, ..tiny() }, &mut |_| {}), Err(TuneError::Depth(0)));
        assert_eq!(tune(&TuneConfig { games: 0, ..tiny() }, &mut |_| {}), Err(TuneError::Arena(ArenaError::NoGames)));
    }

    #[test]
    fn weights_round_trip_through_their_names() {
        let w = Weights { store: SEED, houses: 1, extra_moves: 2, captures: 3, tempo: 4 };
        for (i, feature) in TUNED_FEATURES.iter().enumerate() {
            assert_eq!(get(&w, feature), i as i32 + 1);
            assert_eq!(get(&with(w, feature, -9), feature), -9);
        }
        assert_eq!(as_rust(&w), "Weights { store: SEED, houses: 1, extra_moves: 2, captures: 3, tempo: 4 }");
    }
}
