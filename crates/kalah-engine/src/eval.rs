//! The evaluation function: how good a position is for one side, in hundredths of a seed.
//!
//! The features are those the Kalah literature uses (store difference, seeds kept on each side,
//! extra moves and captures on offer), each counted for the side to move minus the opponent:
//!
//! | feature | what it counts |
//! |---|---|
//! | `store` | seeds in one's store minus the opponent's (always weight 100: a seed is 100) |
//! | `houses` | seeds in one's houses minus the opponent's (seeds that may still be won) |
//! | `extra_moves` | houses whose sowing ends in one's store, minus the opponent's |
//! | `captures` | the largest capture on offer to one, minus the opponent's |
//! | `tempo` | a bonus for being the side to move |
//!
//! The tuned weights were found by self-play with `kalah tune` (see docs/matches.md); the tuning is
//! seeded, so running the same command gives the same weights.

use kalah_rules::{Capture, Direction, Position, Rules, Side, Sowing};

/// Hundredths in a seed: evaluations and [`Score`](crate::score::Score)s are in hundredths, so
/// that the evaluation can tell positions apart by less than a seed.
pub use kalah_rules::score::SEED;

/// The weights of the evaluation features, in hundredths of a seed per unit of the feature.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Weights {
    /// Per seed of store difference (fixed at [`SEED`] by the tuner, so values read as seeds).
    pub store: i32,
    /// Per seed of difference in the houses.
    pub houses: i32,
    /// Per extra move on offer, mover's minus opponent's.
    pub extra_moves: i32,
    /// Per seed of the largest capture on offer, mover's minus opponent's.
    pub captures: i32,
    /// For being the side to move.
    pub tempo: i32,
}

impl Weights {
    /// The store difference alone: the plain evaluation of the assignment and of the reference counts.
    pub const STORE: Weights = Weights { store: SEED, houses: 0, extra_moves: 0, captures: 0, tempo: 0 };

    /// The weights tuned by self-play at depth 4 on Kalah(6,6) (`kalah tune --seed 1 --games 800
    /// --iterations 200 --depth 4 --margin 3 --step 60`, see docs/matches.md).
    pub const TUNED: Weights = Weights { store: SEED, houses: 13, extra_moves: 50, captures: 27, tempo: 51 };

    /// Returns the weights as a list of (name, value), the order `kalah tune` prints them.
    pub fn named(&self) -> [(&'static str, i32); 5] {
        [
            ("store", self.store),
            ("houses", self.houses),
            ("extra_moves", self.extra_moves),
            ("captures", self.captures),
            ("tempo", self.tempo),
        ]
    }
}

impl Default for Weights {
    fn default() -> Weights {
        Weights::TUNED
    }
}

/// Features of one side: (extra moves on offer, largest capture on offer).
fn tactics(position: &Position, rules: &Rules, side: Side) -> (i32, i32) {
    let simple = rules.direction == Direction::CounterClockwise && rules.sowing == Sowing::Single;
    if simple {
        tactics_by_counting(position, rules, side)
    } else {
        tactics_by_sowing(position, rules, side)
    }
}

/// The features found by sowing each house: right under every rule, but slow.
fn tactics_by_sowing(position: &Position, rules: &Rules, side: Side) -> (i32, i32) {
    let to_move = position.with_mover(side);
    let mut extra = 0;
    let mut capture = 0;
    for mv in to_move.legal_moves() {
        let mut child = to_move;
        let outcome = child.sow(rules, mv);
        extra += i32::from(outcome.extra_move);
        capture = capture.max(i32::from(outcome.captured));
    }
    (extra, capture)
}

/// The same features by arithmetic on the counts, for single counter-clockwise sowing: the
/// evaluation runs at every leaf, and sowing twelve copies there was most of the search's time.
fn tactics_by_counting(position: &Position, rules: &Rules, side: Side) -> (i32, i32) {
    let m = position.houses() as usize;
    let ring = 2 * m + 1;
    let own = position.row(side);
    let other = position.row(side.opponent());
    let mut extra = 0;
    let mut capture = 0;
    for (i, &seeds) in own.iter().enumerate() {
        let seeds = seeds as usize;
        if seeds == 0 {
            continue;
        }
        if seeds >= ring {
            // Whole laps change every count: rare enough to leave to the slow way.
            return tactics_by_sowing(position, rules, side);
        }
        // Cells from the house on: own houses i+1..m, the store (m), the opponent's 0..m, own again.
        let land = (i + seeds) % ring;
        if land == m {
            extra += 1;
        } else if land < m && own[land] == 0 {
            let wrapped = land < i;
            let opposite = usize::from(other[m - 1 - land]) + usize::from(wrapped);
            let taken = match rules.capture {
                Capture::Standard => opposite > 0,
                Capture::Empty => true,
                Capture::Never => false,
            };
            if taken {
                capture = capture.max(opposite as i32 + 1);
            }
        }
    }
    (extra, capture)
}

/// Evaluates `position` for `side`, in hundredths of a seed; a finished game gets its exact final difference.
///
/// ```
/// use kalah_engine::eval::{evaluate, Weights, SEED};
/// use kalah_rules::{Capture, Direction, Position, Rules, Side, Sowing};
/// let rules = Rules::standard(6, 4).unwrap();
/// let start = Position::start(&rules);
/// assert_eq!(evaluate(&start, &rules, Side::South, &Weights::STORE), 0);
/// let done = Position::parse("0,0,0,0,0,0:30/0,0,0,0,0,0:18/N", &rules).unwrap();
/// assert_eq!(evaluate(&done, &rules, Side::North, &Weights::TUNED), -12 * SEED);
/// ```
pub fn evaluate(position: &Position, rules: &Rules, side: Side, weights: &Weights) -> i32 {
    if position.is_over(rules) {
        return position.final_difference(rules) * side.sign() * SEED;
    }
    let other = side.opponent();
    let store = i32::from(position.store(side)) - i32::from(position.store(other));
    let mut rest = 0;
    if weights.houses != 0 {
        rest += weights.houses * (i32::from(position.seeds_on(side)) - i32::from(position.seeds_on(other)));
    }
    if weights.extra_moves != 0 || weights.captures != 0 {
        let (my_extra, my_capture) = tactics(position, rules, side);
        let (their_extra, their_capture) = tactics(position, rules, other);
        rest += weights.extra_moves * (my_extra - their_extra) + weights.captures * (my_capture - their_capture);
    }
    if weights.tempo != 0 {
        rest += if position.mover() == side { weights.tempo } else { -weights.tempo };
    }
    // No one can gain more than the seeds still in the houses: keeping the estimate inside that
    // range keeps it consistent with the bounds the searches cut on.
    let left = i32::from(position.seeds_in_houses()) * SEED;
    weights.store * store + rest.clamp(-left, left)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_rules::Move;

    #[test]
    fn counting_finds_what_sowing_finds() {
        // Positions along pseudo-random games under each capture rule, both sides' features.
        for preset in ["standard", "empty-capture", "seed-on"] {
            let mut rules = Rules::preset(preset, 6, 5).unwrap();
            rules.sowing = Sowing::Single;
            for game in 0..40u64 {
                let mut p = Position::start(&rules);
                let mut step = game;
                while !p.is_over(&rules) {
                    for side in Side::BOTH {
                        assert_eq!(tactics_by_counting(&p, &rules, side), tactics_by_sowing(&p, &rules, side), "{p}");
                    }
                    let moves: Vec<Move> = p.legal_moves().collect();
                    step = step.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    p = p.play_unchecked(&rules, moves[(step >> 33) as usize % moves.len()]);
                }
            }
        }
    }
}
