//! The assignment's comparison: average Max and Min calls of the three searches on positions from real games.

use kalah_rules::{Position, Rules};
#[cfg(feature = "games")]
use {
    crate::player::{Player, SearchPlayer, Strength},
    kalah_rules::{Action, Game},
    rand::seq::SliceRandom,
    rand::{Rng, SeedableRng},
    rand_chacha::ChaCha8Rng,
};

use crate::classic::{search, Algorithm, Counts};
use kalah_engine::eval::Weights;
use kalah_engine::time::now;

/// Random sowings that open each sample game, so the games differ.
#[cfg(feature = "games")]
const OPENING_SOWINGS: u32 = 4;

/// Returns `count` positions from games of ordered alpha-beta (depth 4) against itself, each game
/// opened by a few random sowings; the same seed gives the same positions.
///
/// Only positions where the game is not over are taken, and no two alike.
#[cfg(feature = "games")]
pub fn sample_positions(rules: &Rules, count: usize, seed: u64) -> Vec<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut player = SearchPlayer::new(Algorithm::Ordered, Strength::Depth(4));
    let mut pool: Vec<Position> = Vec::new();
    let mut plain = *rules;
    plain.pie = false;
    plain.handicap = false;
    // Plenty of games for the pool, but a bound, in case a tiny board has few positions at all.
    for _ in 0..count.max(1) * 4 {
        if pool.len() >= count * 3 {
            break;
        }
        let mut game = Game::new(plain);
        for _ in 0..OPENING_SOWINGS {
            let moves: Vec<_> = game.position().legal_moves().collect();
            if let Some(&mv) = moves.choose(&mut rng) {
                game.act(Action::Sow(mv)).expect("a legal move");
            }
        }
        while !game.is_over() {
            pool.push(*game.position());
            // A little noise so that games from one opening do not repeat.
            let action = if rng.gen_ratio(1, 10) {
                *game.legal_actions().choose(&mut rng).expect("not over")
            } else {
                player.choose(&game)
            };
            game.act(action).expect("a legal action");
        }
    }
    pool.sort_by_key(|p| p.key());
    pool.dedup();
    pool.shuffle(&mut rng);
    pool.truncate(count);
    pool
}

/// One line of the comparison: one search at one depth, averaged over the positions.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Row {
    /// The depth in sowings.
    pub depth: u32,
    /// The search.
    pub algorithm: Algorithm,
    /// Average Max calls a position.
    pub max_calls: f64,
    /// Average Min calls a position.
    pub min_calls: f64,
    /// Average Max and Min calls together.
    pub total: f64,
    /// The total as a fraction of minimax's at the same depth.
    pub ratio_to_minimax: f64,
    /// Average time a position, in milliseconds.
    pub millis: f64,
}

/// Runs each search at `depth` on every position, checks they agree on every value, and averages the counts.
///
/// The searches found different values for one position: a bug, never expected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the searches disagree at depth {depth} on {position}")]
pub struct Disagreement {
    /// The depth searched.
    pub depth: u32,
    /// The position whose values differ.
    pub position: Position,
}

/// Runs each search at `depth` on every position, checks they agree on every value, and averages the counts.
///
/// # Errors
/// [`Disagreement`] if the searches disagree on a position's value.
pub fn compare_at(
    positions: &[Position],
    rules: &Rules,
    depth: u32,
    weights: &Weights,
) -> Result<Vec<Row>, Disagreement> {
    let mut rows: Vec<Row> = Vec::new();
    let mut values: Vec<Vec<i32>> = Vec::new();
    for algorithm in Algorithm::ALL {
        let mut sum = Counts::default();
        let started = now();
        let mut found_values = Vec::with_capacity(positions.len());
        for position in positions {
            let found = search(position, rules, depth, algorithm, weights);
            sum.max_calls += found.counts.max_calls;
            sum.min_calls += found.counts.min_calls;
            found_values.push(found.value);
        }
        let n = positions.len().max(1) as f64;
        let total = sum.total() as f64 / n;
        let minimax_total = rows.first().map_or(total, |r| r.total);
        rows.push(Row {
            depth,
            algorithm,
            max_calls: sum.max_calls as f64 / n,
            min_calls: sum.min_calls as f64 / n,
            total,
            ratio_to_minimax: total / minimax_total,
            millis: started.elapsed().as_secs_f64() * 1000.0 / n,
        });
        values.push(found_values);
    }
    for (i, position) in positions.iter().enumerate() {
        if values.iter().any(|v| v[i] != values[0][i]) {
            return Err(Disagreement { depth, position: *position });
        }
    }
    Ok(rows)
}

#[cfg(all(test, feature = "games"))]
mod tests {
    use super::*;

    #[test]
    fn samples_are_reproducible_and_unfinished() {
        let rules = Rules::standard(6, 4).unwrap();
        let a = sample_positions(&rules, 20, 5);
        assert_eq!(a.len(), 20);
        assert_eq!(a, sample_positions(&rules, 20, 5));
        assert_ne!(a, sample_positions(&rules, 20, 6));
        assert!(a.iter().all(|p| !p.is_over(&rules)));
    }

    #[test]
    fn pruning_never_visits_more_and_agrees() {
        let rules = Rules::standard(6, 6).unwrap();
        let positions = sample_positions(&rules, 10, 1);
        let rows = compare_at(&positions, &rules, 4, &Weights::TUNED).unwrap();
        assert_eq!(rows[0].ratio_to_minimax, 1.0);
        assert!(rows[1].total <= rows[0].total);
        assert!(rows[2].total <= rows[1].total);
    }
}
