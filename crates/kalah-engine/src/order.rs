//! Move ordering: which of a node's moves the searches try first. A node is cut off by one move
//! good enough, and the sooner that move comes the fewer nodes the node costs.
//!
//! Both searches give each child an order, higher first, and [`sort`] them, keeping the moves'
//! own order among equals:
//!
//! * the heuristic search ([`crate::search`]): the table's move, then moves that give another
//!   turn (the house nearest the store first, which leaves the other such houses as they are),
//!   then captures by their size, then the [`History`] of cut-offs ([`heuristic`]);
//! * the solver's proofs of `Position`s ([`crate::solver`]): children whose value is known exactly
//!   (finished games, database positions: they cost nothing), the table's move, then the
//!   evaluation after the move less [`REPLY_COST`] for each reply it leaves the opponent
//!   ([`fastest`]): a proof needs one refutation, and one with fewer replies is cheaper to prove,
//!   since each of them must be searched.
//!
//! The proofs on the byte board ([`crate::board`]) order with the same pieces, by design without
//! the evaluation (nearly every node there is small and cheap, and evaluating had cost more time
//! than the nodes it saved): the table's move, moves that give another turn ([`again`]), then
//! [`fastest`] of what the move puts in the store. They sort by insertion as the children are
//! sown, since their moves are sown nearest the store first and that is the order kept among
//! equals.

use kalah_rules::{Move, Outcome, Side};

use crate::eval::SEED;

/// The order of a move to try before all others (the table's move; in the proofs, second to
/// children whose value is known).
pub(crate) const TABLE_MOVE: i32 = i32::MAX - 1;

/// The order of a child whose value is known exactly before any search: first of all.
pub(crate) const KNOWN: i32 = i32::MAX;

/// What each reply left to the opponent costs a child in the proofs' order, in hundredths of a
/// seed (fastest first). One thread, Kalah(6,4) with the 25-seed database: 44.6 M nodes without
/// it, 24.4 M at 25, 22.4 M at 50, 25.2 M at 75, 42.9 M at 150; empty-capture 42.7 M without,
/// 19.7 M at 30, 17.1 M at 50, 18.3 M at 100.
pub(crate) const REPLY_COST: i32 = 50;

/// The order of a move that gives another turn on the byte board: before every move that does
/// not, the larger store gain first.
const AGAIN: i32 = 100_000;

/// The heuristic search's history of cut-offs: for each side and house, a score that grows with
/// the square of the depth of each cut-off the move made.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct History {
    cells: [[i32; 12]; 2],
}

impl History {
    /// Counts a cut-off by `side`'s move `mv` with `depth` sowings left.
    #[inline]
    pub(crate) fn reward(&mut self, side: Side, mv: Move, depth: i32) {
        // Deep (and solving) searches would overflow a square of the depth: cap it.
        let bonus = depth.min(24);
        let cell = &mut self.cells[side.index()][mv.index()];
        *cell = (*cell + bonus * bonus).min(1 << 26);
    }

    /// Returns the score of `side`'s move `mv`.
    #[inline]
    fn score(&self, side: Side, mv: Move) -> i32 {
        self.cells[side.index()][mv.index()]
    }
}

/// The heuristic search's order of `side`'s move `mv`, whose sowing had `outcome`: moves that give
/// another turn (nearest the store first), then captures by size, then by history.
#[inline]
pub(crate) fn heuristic(side: Side, mv: Move, outcome: &Outcome, history: &History) -> i32 {
    if outcome.extra_move {
        1 << 29 | mv.index() as i32
    } else if outcome.captured > 0 {
        1 << 28 | i32::from(outcome.captured) << 8
    } else {
        history.score(side, mv).min((1 << 27) - 1)
    }
}

/// The proofs' order of a child worth `value` (hundredths of a seed, for the mover at the parent)
/// that leaves the opponent `replies` replies: fastest first.
#[inline]
pub(crate) fn fastest(value: i32, replies: u32) -> i32 {
    value - REPLY_COST * replies as i32
}

/// The byte board's order of a move that gives another turn and puts `gain` seeds in the store.
#[inline]
pub(crate) fn again(gain: i32) -> i32 {
    AGAIN + gain * SEED
}

/// Sorts `children` by `order`, higher first; stable, so equal orders keep the order of the moves.
#[inline]
pub(crate) fn sort<T>(children: &mut [T], order: impl Fn(&T) -> i32) {
    children.sort_by_key(|child| std::cmp::Reverse(order(child)));
}
