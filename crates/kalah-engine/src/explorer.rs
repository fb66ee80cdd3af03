//! The perfect-play explorer: every legal move of a position with its exact value for the side
//! to move, a best line, and the moves that throw away a win or a draw.
//!
//! [`explore`] solves the position each move leads to with one [`Solver`], whose proof table the
//! moves share: what one move's solve proves serves the others (they meet the same positions a few
//! sowings down). A move that gives another turn keeps the mover, so its value is the child's own;
//! after any other move the child's value is negated. Within a budget (nodes, time, a stop flag)
//! the moves are solved in rounds of growing node slices, each round going on from the bounds the
//! last one proved, so a budget spent leaves every move with the bounds proven for it, never a
//! guess.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use kalah_rules::{Move, Position, Rules};

use crate::score::{Bounds, Seeds};
use crate::search::Limits;
use crate::solver::Solver;

/// The nodes of the first round's slice for each move; each round doubles it.
const FIRST_SLICE: u64 = 1 << 16;

/// Win, draw or loss for one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// The player ends with more seeds.
    Win,
    /// Equal stores.
    Draw,
    /// The player ends with fewer seeds.
    Loss,
}

impl Verdict {
    /// Returns the verdict of a final store difference for the player it is counted for.
    pub fn of(value: Seeds) -> Verdict {
        match value.0 {
            v if v > 0 => Verdict::Win,
            0 => Verdict::Draw,
            _ => Verdict::Loss,
        }
    }

    /// Returns the verdict's name: `win`, `draw` or `loss`.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Win => "win",
            Verdict::Draw => "draw",
            Verdict::Loss => "loss",
        }
    }
}

/// One legal move and what is proven of its value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveValue {
    /// The move.
    pub mv: Move,
    /// The move gives the mover another turn.
    pub again: bool,
    /// The proven bounds on the final store difference for the side to move after this move and
    /// perfect play by both; they meet when the move is settled.
    pub bounds: Bounds,
    /// A perfect line beginning with this move, when its value is proven and a line was kept.
    pub line: Vec<Move>,
}

impl MoveValue {
    /// Returns the move's exact value, when it is proven.
    pub fn value(&self) -> Option<Seeds> {
        self.bounds.is_exact().then_some(self.bounds.lower)
    }

    /// Returns the move's verdict for the mover, when its bounds decide it (an unsettled move's
    /// bounds may still decide it: a lower bound above zero is a win).
    pub fn verdict(&self) -> Option<Verdict> {
        let (lower, upper) = (Verdict::of(self.bounds.lower), Verdict::of(self.bounds.upper));
        (lower == upper).then_some(lower)
    }
}

/// Every legal move of a position with its value: what [`explore`] returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exploration {
    /// The legal moves in house order (none when the game is over).
    pub moves: Vec<MoveValue>,
    /// The proven bounds on the position's value for the side to move: the best of the moves'.
    pub bounds: Bounds,
    /// A perfect line from the position, when its value is proven and a best move is settled.
    pub line: Vec<Move>,
    /// Nodes searched (0 for an answer read from a book).
    pub nodes: u64,
}

impl Exploration {
    /// Returns the answer for a finished game: no moves, the final difference for the mover.
    pub fn over(position: &Position, rules: &Rules) -> Exploration {
        let value = Seeds(position.final_difference(rules) * position.mover().sign());
        Exploration { moves: Vec::new(), bounds: Bounds::exact(value), line: Vec::new(), nodes: 0 }
    }

    /// Returns the exploration of these moves: the position's bounds are the best move's, and
    /// its line is that of a settled move worth the position's proven value.
    pub fn of_moves(moves: Vec<MoveValue>, nodes: u64) -> Exploration {
        let lower = moves.iter().map(|m| m.bounds.lower).max().unwrap_or(Seeds(0));
        let upper = moves.iter().map(|m| m.bounds.upper).max().unwrap_or(Seeds(0));
        let bounds = Bounds::new(lower, upper);
        let line = if bounds.is_exact() {
            moves
                .iter()
                .find(|m| m.value() == Some(lower) && !m.line.is_empty())
                .map_or_else(Vec::new, |m| m.line.clone())
        } else {
            Vec::new()
        };
        Exploration { moves, bounds, line, nodes }
    }

    /// Returns the exploration with the position's value `value` (for the side to move) proven
    /// elsewhere, such as a fair start's draw: no move is worth more than the position, so every
    /// upper bound comes down to it, and when every other move is proven worse, the one move
    /// left is worth it. A value the moves' bounds contradict changes nothing.
    pub fn knowing(self, value: Seeds) -> Exploration {
        let contradicted = self.moves.iter().any(|m| m.bounds.lower > value) || self.bounds.upper < value;
        if contradicted || self.moves.is_empty() {
            return self;
        }
        let mut moves = self.moves;
        for m in &mut moves {
            m.bounds = m.bounds.and(Bounds::new(m.bounds.lower, value));
        }
        let reaching: Vec<usize> = (0..moves.len()).filter(|&i| moves[i].bounds.upper == value).collect();
        if let [only] = reaching[..] {
            moves[only].bounds = Bounds::exact(value);
        }
        let mut known = Exploration::of_moves(moves, self.nodes);
        known.bounds = Bounds::exact(value);
        known
    }

    /// Returns the position's value for the side to move, when it is proven.
    pub fn value(&self) -> Option<Seeds> {
        self.bounds.is_exact().then_some(self.bounds.lower)
    }

    /// Tells whether every move is settled.
    pub fn is_complete(&self) -> bool {
        self.moves.iter().all(|m| m.bounds.is_exact())
    }

    /// Returns the moves proven best: settled at the position's proven value.
    pub fn best(&self) -> Vec<Move> {
        match self.value() {
            Some(value) => self.moves.iter().filter(|m| m.value() == Some(value)).map(|m| m.mv).collect(),
            None => Vec::new(),
        }
    }

    /// Returns what `mv` throws away, when that is proven: [`Verdict::Win`] when some move is
    /// proven to win and `mv` is proven not to, [`Verdict::Draw`] when some move is proven to
    /// draw at least and `mv` is proven to lose. `None` for a move that keeps the best result or
    /// whose bounds do not tell yet.
    pub fn throws_away(&self, mv: Move) -> Option<Verdict> {
        let bounds = self.moves.iter().find(|m| m.mv == mv)?.bounds;
        if self.bounds.lower > Seeds(0) && bounds.upper <= Seeds(0) {
            Some(Verdict::Win)
        } else if self.bounds.lower >= Seeds(0) && bounds.upper < Seeds(0) {
            Some(Verdict::Draw)
        } else {
            None
        }
    }
}

/// The budget of an exploration: nodes in all (`None`: no limit), time in all, and a flag that
/// another thread may set to stop it.
#[derive(Clone, Copy, Debug, Default)]
pub struct Budget<'a> {
    /// Stop after about this many nodes, all moves together.
    pub nodes: Option<u64>,
    /// Stop after about this long.
    pub time: Option<Duration>,
    /// Stop when this is set.
    pub stop: Option<&'a AtomicBool>,
}

/// Solves every legal move of `position` under `rules` with `solver` within `budget`: the moves
/// in house order with their values for the side to move (bounds where the budget ran out), a
/// perfect line, and the nodes. A finished game has no moves and its final value.
///
/// ```
/// use kalah_engine::explorer::{explore, Budget, Verdict};
/// use kalah_engine::search::Options;
/// use kalah_engine::solver::Solver;
/// use kalah_rules::{Move, Position, Rules};
/// let rules = Rules::standard(4, 3).unwrap();
/// let solver = Solver::new(Options { table_bytes: 8 << 20, ..Options::default() });
/// let explored = explore(&solver, &Position::start(&rules), &rules, Budget::default());
/// assert!(explored.is_complete());
/// assert_eq!(explored.value().map(|v| v.0), Some(6)); // Kalah(4,3) is +6 for South
/// assert_eq!(explored.line.len() > 1, true);
/// ```
pub fn explore(solver: &Solver, position: &Position, rules: &Rules, budget: Budget<'_>) -> Exploration {
    if position.is_over(rules) {
        return Exploration::over(position, rules);
    }
    let started = crate::time::now();
    let me = position.mover();
    // Each move's child, and the child's bounds for its own mover (the trivial ones at first).
    let mut moves: Vec<(MoveValue, Position, Bounds)> = position
        .legal_moves()
        .into_iter()
        .map(|mv| {
            let child = position.play_unchecked(rules, mv);
            let again = child.mover() == me && !child.is_over(rules);
            let frame = child.store_difference() * child.mover().sign();
            let left = i32::from(child.seeds_in_houses());
            let known = Bounds::new(Seeds(frame - left), Seeds(frame + left));
            let value =
                MoveValue { mv, again, bounds: Bounds::new(Seeds(i32::MIN), Seeds(i32::MAX)), line: Vec::new() };
            (value, child, known)
        })
        .collect();
    let mut nodes = 0u64;
    let spent = |nodes: u64| {
        budget.nodes.is_some_and(|n| nodes >= n)
            || budget.time.is_some_and(|t| started.elapsed() >= t)
            || budget.stop.is_some_and(|s| s.load(Ordering::Relaxed))
    };
    let sliced = budget.nodes.is_some() || budget.time.is_some();
    let mut slice = FIRST_SLICE;
    loop {
        let mut open = false;
        for (value, child, known) in moves.iter_mut().filter(|(_, _, known)| !known.is_exact()) {
            if spent(nodes) {
                break;
            }
            // With no nodes or time to share, each move is solved whole in one go.
            let limits = Limits {
                nodes: sliced.then(|| budget.nodes.map_or(slice, |n| slice.min(n.saturating_sub(nodes)))),
                time: budget.time.map(|t| t.saturating_sub(started.elapsed())),
                ..Limits::default()
            };
            match solver.solve(child, rules, Some(*known), limits, budget.stop, |_, _| {}) {
                Ok(info) => {
                    nodes += info.nodes;
                    *known = Bounds::exact(info.score.whole_seeds());
                    value.line = std::iter::once(value.mv).chain(info.pv).collect();
                }
                Err(stopped) => {
                    nodes += stopped.nodes;
                    *known = known.and(stopped.bounds);
                    open = true;
                }
            }
        }
        if !open || spent(nodes) {
            break;
        }
        slice = slice.saturating_mul(2);
    }
    let moves = moves
        .into_iter()
        .map(|(mut value, child, known)| {
            value.bounds = if child.mover() == me { known } else { -known };
            value
        })
        .collect();
    Exploration::of_moves(moves, nodes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Options;

    fn solver() -> Solver {
        Solver::new(Options { table_bytes: 16 << 20, ..Options::default() })
    }

    #[test]
    fn every_move_agrees_with_a_solve_of_its_child() {
        let rules = Rules::standard(4, 3).unwrap();
        let start = Position::start(&rules);
        let explored = explore(&solver(), &start, &rules, Budget::default());
        assert!(explored.is_complete());
        for m in &explored.moves {
            let child = start.play_unchecked(&rules, m.mv);
            let info = solver().solve(&child, &rules, None, Limits::default(), None, |_, _| {}).unwrap();
            let value = info.score.whole_seeds();
            let expected = if child.mover() == start.mover() { value } else { -value };
            assert_eq!(m.value(), Some(expected), "move {}", m.mv);
            assert_eq!(m.line.first(), Some(&m.mv));
        }
        let root = solver().solve(&start, &rules, None, Limits::default(), None, |_, _| {}).unwrap();
        assert_eq!(explored.value(), Some(root.score.whole_seeds()));
        assert!(!explored.best().is_empty());
    }

    #[test]
    fn a_spent_budget_leaves_bounds_not_guesses() {
        let rules = Rules::standard(6, 3).unwrap();
        let start = Position::start(&rules);
        let explored = explore(&solver(), &start, &rules, Budget { nodes: Some(1000), ..Budget::default() });
        assert_eq!(explored.moves.len(), 6);
        for m in &explored.moves {
            assert!(m.bounds.lower <= m.bounds.upper);
            // Within the seeds on the board.
            assert!(m.bounds.lower.0 >= -36 && m.bounds.upper.0 <= 36, "{:?}", m.bounds);
        }
        assert!(!explored.is_complete());
        let stop = AtomicBool::new(true);
        let stopped = explore(&solver(), &start, &rules, Budget { stop: Some(&stop), ..Budget::default() });
        assert!(stopped.moves.iter().all(|m| !m.bounds.is_exact() || m.line.is_empty()));
        assert_eq!(stopped.value(), None);
    }

    #[test]
    fn a_finished_game_has_no_moves_and_its_final_value() {
        let rules = Rules::standard(2, 1).unwrap();
        let over: Position = "0,0:2/1,0:1/S".parse().unwrap();
        let explored = explore(&solver(), &over, &rules, Budget::default());
        assert!(explored.moves.is_empty());
        assert_eq!(explored.value(), Some(Seeds(0)));
    }

    #[test]
    fn a_value_proven_elsewhere_bounds_every_move() {
        let m = |n, lower, upper| MoveValue {
            mv: Move::from_number(n).unwrap(),
            again: false,
            bounds: Bounds::new(Seeds(lower), Seeds(upper)),
            line: Vec::new(),
        };
        // A fair start: a draw. Nothing is settled in the time, but no move is worth more than 0.
        let open = Exploration::of_moves(vec![m(1, -46, 48), m(2, -40, 30), m(3, -5, -1)], 7);
        let known = open.clone().knowing(Seeds(0));
        assert_eq!((known.value(), known.nodes), (Some(Seeds(0)), 7));
        assert_eq!(known.moves.iter().map(|m| m.bounds.upper.0).collect::<Vec<_>>(), [0, 0, -1]);
        assert_eq!(known.moves[0].bounds.lower, Seeds(-46));
        assert_eq!(known.throws_away(Move::from_number(3).unwrap()), Some(Verdict::Draw));
        assert!(known.best().is_empty(), "which move keeps the draw is not proven yet");
        // Every other move proven worse: the one left keeps the draw.
        let one = Exploration::of_moves(vec![m(1, -8, -2), m(2, -9, 5)], 0).knowing(Seeds(0));
        assert_eq!(one.moves[1].bounds, Bounds::exact(Seeds(0)));
        assert_eq!(one.best(), vec![Move::from_number(2).unwrap()]);
        // A value the bounds contradict is not taken.
        let contradicted = Exploration::of_moves(vec![m(1, 2, 4)], 0);
        assert_eq!(contradicted.clone().knowing(Seeds(0)), contradicted);
    }

    #[test]
    fn moves_that_throw_away_a_win_or_a_draw_are_marked() {
        let m = |n, lower, upper| MoveValue {
            mv: Move::from_number(n).unwrap(),
            again: false,
            bounds: Bounds::new(Seeds(lower), Seeds(upper)),
            line: Vec::new(),
        };
        let win = Exploration::of_moves(vec![m(1, 2, 2), m(2, 0, 0), m(3, -4, 1), m(4, -5, -1)], 0);
        assert_eq!(win.value(), Some(Seeds(2)));
        let throws = |e: &Exploration, n| e.throws_away(Move::from_number(n).unwrap());
        assert_eq!(throws(&win, 1), None);
        assert_eq!(throws(&win, 2), Some(Verdict::Win));
        assert_eq!(throws(&win, 3), None, "not proven either way");
        assert_eq!(throws(&win, 4), Some(Verdict::Win));
        let draw = Exploration::of_moves(vec![m(1, 0, 0), m(2, -3, -3)], 0);
        assert_eq!(throws(&draw, 2), Some(Verdict::Draw));
        assert_eq!(draw.moves[1].verdict(), Some(Verdict::Loss));
    }
}
