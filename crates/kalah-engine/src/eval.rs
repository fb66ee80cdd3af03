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
//! The tuned weights were found by self-play with `kalah tune` (see the README); the tuning is
//! seeded, so running the same command gives the same weights.

use kalah_rules::{Position, Rules, Side};

/// One seed, in evaluation units.
pub const SEED: i32 = 100;

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

    /// The weights tuned by self-play (`kalah tune --seed 1`, see the README).
    pub const TUNED: Weights = Weights { store: SEED, houses: 10, extra_moves: 40, captures: 30, tempo: 20 };

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

/// Features of one side: (extra moves on offer, largest capture on offer), under single-lap rules
/// approximated by sowing each house once.
fn tactics(position: &Position, rules: &Rules, side: Side) -> (i32, i32) {
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

/// Evaluates `position` for `side`, in hundredths of a seed; a finished game gets its exact final difference.
///
/// ```
/// use kalah_engine::eval::{evaluate, Weights, SEED};
/// use kalah_rules::{Position, Rules, Side};
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
