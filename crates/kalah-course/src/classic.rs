//! The assignment's three searches: depth-limited minimax written as Max and Min, alpha-beta, and
//! alpha-beta with a move-ordering heuristic, each counting its Max and Min calls.
//!
//! Max plays for the side to move at the root, Min for the other side. An extra move means the
//! same player moves again one level deeper: Max calls Max (or Min calls Min), never the other,
//! so the value is never negated there. A finished game is worth its exact final store
//! difference; at depth 0 the evaluation function decides. Values are in hundredths of a seed
//! ([`kalah_engine::eval::SEED`]) from the root player's side.

use std::fmt;
use std::ops::ControlFlow;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};

use kalah_rules::{Move, Outcome, Position, Rules, Side};

use kalah_engine::decide::{self, Searched};
use kalah_engine::eval::{evaluate, Weights};
use kalah_engine::score::Score;
use kalah_engine::time::{now, Instant, Limits};

/// Larger than any value a position can have.
pub const INFINITY: i32 = 1_000_000;

/// One of the assignment's three searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Algorithm {
    /// Plain minimax: every move at every level.
    Minimax,
    /// Minimax with alpha-beta pruning, moves in house order.
    AlphaBeta,
    /// Alpha-beta with moves ordered: extra moves first, then captures by size, then houses nearest the store.
    Ordered,
}

impl Algorithm {
    /// All three, in the assignment's order.
    pub const ALL: [Algorithm; 3] = [Algorithm::Minimax, Algorithm::AlphaBeta, Algorithm::Ordered];

    /// Returns the name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Minimax => "minimax",
            Algorithm::AlphaBeta => "alphabeta",
            Algorithm::Ordered => "ordered",
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A search name that is not one of the three.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown search {0:?}: the searches are minimax, alphabeta, ordered")]
pub struct UnknownAlgorithm(pub String);

impl FromStr for Algorithm {
    type Err = UnknownAlgorithm;
    fn from_str(s: &str) -> Result<Algorithm, UnknownAlgorithm> {
        Algorithm::ALL.into_iter().find(|a| a.name() == s).ok_or_else(|| UnknownAlgorithm(s.to_string()))
    }
}

/// How many times Max and Min were called.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Counts {
    /// Calls of Max (positions where the root player moves, the root included).
    pub max_calls: u64,
    /// Calls of Min.
    pub min_calls: u64,
}

impl Counts {
    /// Returns Max and Min calls together: the positions visited.
    pub fn total(&self) -> u64 {
        self.max_calls + self.min_calls
    }
}

/// The result of a search to a fixed depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    /// The value for the root player, in hundredths of a seed.
    pub value: i32,
    /// The first best move in the order the search tried them (`None` if the game is over).
    pub best: Option<Move>,
    /// The Max and Min calls made.
    pub counts: Counts,
}

/// Searches `position` to `depth` sowings with `algorithm`, evaluating leaves with `weights`.
///
/// ```
/// use kalah_course::classic::{search, Algorithm};
/// use kalah_engine::eval::Weights;
/// use kalah_rules::{Position, Rules};
/// let rules = Rules::standard(6, 4).unwrap();
/// let start = Position::start(&rules);
/// let plain = search(&start, &rules, 4, Algorithm::Minimax, &Weights::STORE);
/// let fast = search(&start, &rules, 4, Algorithm::Ordered, &Weights::STORE);
/// assert_eq!(plain.value, fast.value);
/// assert_eq!(plain.counts.total(), 1_169); // every position to depth 4, the root included
/// assert!(fast.counts.total() <= 102);
/// ```
pub fn search(position: &Position, rules: &Rules, depth: u32, algorithm: Algorithm, weights: &Weights) -> Found {
    search_until(position, rules, depth, algorithm, weights, None).expect("no deadline, so never stopped")
}

/// Like [`search`], but gives up and returns `None` once `deadline` has passed.
pub fn search_until(
    position: &Position,
    rules: &Rules,
    depth: u32,
    algorithm: Algorithm,
    weights: &Weights,
    deadline: Option<Instant>,
) -> Option<Found> {
    run(position, rules, depth, algorithm, weights, deadline, &mut ())
}

/// Runs `algorithm` on `position` to `depth`, telling `recorder` of every call; `None` if the
/// deadline passed or the recorder was full. [`search`] and the traced search
/// (`crate::trace`) are this one search, the first with a recorder that does nothing.
pub(crate) fn run<R: Recorder>(
    position: &Position,
    rules: &Rules,
    depth: u32,
    algorithm: Algorithm,
    weights: &Weights,
    deadline: Option<Instant>,
    recorder: &mut R,
) -> Option<Found> {
    let mut searcher = Searcher {
        rules,
        weights,
        root: position.mover(),
        counts: Counts::default(),
        ordered: algorithm == Algorithm::Ordered,
        deadline,
        stopped: false,
        best: None,
        recorder,
    };
    let value = match algorithm {
        Algorithm::Minimax => searcher.minimax_max(position, depth, true),
        Algorithm::AlphaBeta | Algorithm::Ordered => searcher.max_value(position, depth, -INFINITY, INFINITY, true),
    };
    (!searcher.stopped).then_some(Found { value, best: searcher.best, counts: searcher.counts })
}

/// How a call of Max or Min ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum End {
    /// It called Max or Min for its children and returned the best of their values.
    Inner,
    /// At depth 0 with the game going on: the evaluation function's value.
    Evaluated,
    /// The game is over: its exact final store difference.
    Finished,
}

/// Which bound cut a node's remaining children.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Bound {
    /// At a Max node: a child's value reached beta, the best Min above already has.
    Beta,
    /// At a Min node: a child's value fell to alpha, the best Max above already has.
    Alpha,
}

/// What a search tells as it goes. `()` is told nothing, and the search compiles to what it was
/// without a recorder ([`Recorder::ACTIVE`] is false); the traced search records every call.
pub(crate) trait Recorder {
    /// Whether anything is recorded: when false, the search computes nothing for the recorder.
    const ACTIVE: bool = false;
    /// The next call is for the child reached by sowing `house`.
    fn child(&mut self, _house: Move) {}
    /// Max (`max`) or Min was called with `depth` left and, for alpha-beta, `window` (alpha, beta).
    fn enter(&mut self, _max: bool, _depth: u32, _window: Option<(i32, i32)>) {}
    /// The call returns `value`, having ended as `end`.
    fn leave(&mut self, _value: i32, _end: End) {}
    /// The call's remaining children, `houses`, are cut by `bound` with `alpha` and `beta` as they are now.
    fn cut(&mut self, _bound: Bound, _alpha: i32, _beta: i32, _houses: &mut dyn Iterator<Item = Move>) {}
    /// Whether the recorder holds all it may: the search then stops as at a deadline.
    fn full(&self) -> bool {
        false
    }
}

impl Recorder for () {}

/// The deepest iteration a classic search with no depth limit tries. Below the engine's
/// [`kalah_engine::search::MAX_DEPTH`]: a classic search has no table and no proofs, so its time
/// grows as the branching factor to the depth's power and no clock reaches this depth; the limit
/// only bounds the loop.
pub const MAX_CLASSIC_DEPTH: u32 = 64;

/// One of the assignment's searches with its evaluation weights, as a [`decide::Searcher`] that
/// decisions ([`kalah_engine::decide`]) rest on, so that the course's players decide by the
/// same rules as the engine.
///
/// With only a depth limit, that depth is searched, as [`search`] does: the classic searches keep
/// nothing from one depth to the next, so shallower iterations would add nothing but time. With
/// a time or node limit or a stop flag it deepens from depth 1 (never cut short) and keeps the
/// deepest depth completed: the time limit cuts a depth short (its target is the deadline, as a
/// move's time was for these searches), and nodes and the stop flag are looked at between
/// depths, as is the listener's answer. It stops deepening once a depth visits no more positions than the one before: the
/// whole game tree fitted. A value is proven only for a finished game.
///
/// ```
/// use kalah_course::classic::{Algorithm, Classic};
/// use kalah_engine::decide::decide;
/// use kalah_engine::eval::Weights;
/// use kalah_engine::time::Limits;
/// use kalah_rules::{Action, Game, Rules};
/// let mut rules = Rules::standard(4, 3).unwrap();
/// rules.pie = true;
/// let mut game = Game::new(rules);
/// game.act("1".parse().unwrap()).unwrap();
/// // North's pie offer, decided by the engine's rules on an ordered alpha-beta search.
/// let classic = Classic { algorithm: Algorithm::Ordered, weights: Weights::TUNED };
/// let decision = decide(&classic, &game, Limits::depth(6), None).unwrap();
/// assert_eq!(decision.action == Action::Swap, decision.value_for(kalah_rules::Side::North).hundredths() < 0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Classic {
    /// The search.
    pub algorithm: Algorithm,
    /// The evaluation weights at the leaves.
    pub weights: Weights,
}

impl decide::Searcher for Classic {
    fn search(
        &self,
        position: &Position,
        rules: &Rules,
        limits: Limits,
        stop: Option<&AtomicBool>,
        heard: &mut dyn FnMut(&Searched) -> ControlFlow<()>,
    ) -> Searched {
        let started = now();
        let deadline = limits.budget().map(|budget| started + budget.target);
        let exact = position.is_over(rules);
        let searched = |found: Found, depth: u32| Searched {
            depth,
            score: Score::new(found.value, exact),
            best: found.best,
            nodes: found.counts.total(),
        };
        let cut = deadline.is_some() || limits.nodes.is_some() || stop.is_some();
        if let (Some(depth), false) = (limits.depth, cut) {
            let depth = depth.max(1);
            let done = searched(search(position, rules, depth, self.algorithm, &self.weights), depth);
            // One depth only: nothing is left for the listener to stop.
            let _ = heard(&done);
            return done;
        }
        let max_depth = limits.depth.unwrap_or(MAX_CLASSIC_DEPTH).clamp(1, MAX_CLASSIC_DEPTH);
        let first = search(position, rules, 1, self.algorithm, &self.weights);
        let (mut counts, mut nodes) = (first.counts, first.counts.total());
        let mut done = searched(first, 1);
        let mut told = heard(&done).is_break();
        // With a depth limit and a time limit, the deepest depth is tried next, as above.
        let depths = if limits.depth.is_some() { max_depth..=max_depth } else { 2..=max_depth };
        for depth in depths.filter(|&d| d > 1) {
            let stopped = stop.is_some_and(|s| s.load(Ordering::Relaxed));
            if told || exact || stopped || limits.nodes.is_some_and(|n| nodes >= n) {
                break;
            }
            let Some(found) = search_until(position, rules, depth, self.algorithm, &self.weights, deadline) else {
                break;
            };
            // The same count twice means the whole game tree fitted: deeper adds nothing.
            let complete = found.counts == counts;
            counts = found.counts;
            nodes += found.counts.total();
            done = Searched { nodes, ..searched(found, depth) };
            told = heard(&done).is_break();
            if complete {
                break;
            }
        }
        done
    }
}

struct Searcher<'a, R> {
    rules: &'a Rules,
    weights: &'a Weights,
    root: Side,
    counts: Counts,
    ordered: bool,
    deadline: Option<Instant>,
    stopped: bool,
    best: Option<Move>,
    recorder: &'a mut R,
}

impl<R: Recorder> Searcher<'_, R> {
    /// Returns the value of a leaf: exact when the game is over, else the evaluation.
    fn leaf(&mut self, position: &Position) -> i32 {
        let value = evaluate(position, self.rules, self.root, self.weights);
        if R::ACTIVE {
            let end = if position.is_over(self.rules) { End::Finished } else { End::Evaluated };
            self.recorder.leave(value, end);
        }
        value
    }

    /// Tells the recorder that an inner call returns `value`.
    fn inner(&mut self, value: i32) -> i32 {
        if R::ACTIVE {
            self.recorder.leave(value, End::Inner);
        }
        value
    }

    /// Checks the clock every 4096 calls, and a recorder's room at every call; once stopped,
    /// every call returns at once.
    fn out_of_time(&mut self) -> bool {
        if R::ACTIVE && self.recorder.full() {
            self.stopped = true;
        }
        if !self.stopped && self.counts.total() % 4096 == 0 {
            if let Some(deadline) = self.deadline {
                self.stopped = now() >= deadline;
            }
        }
        self.stopped
    }

    /// Calls Max or Min for a child, as its player to move decides.
    fn minimax_child(&mut self, child: &Position, depth: u32) -> i32 {
        if child.mover() == self.root {
            self.minimax_max(child, depth, false)
        } else {
            self.minimax_min(child, depth)
        }
    }

    fn minimax_max(&mut self, position: &Position, depth: u32, root: bool) -> i32 {
        self.counts.max_calls += 1;
        if R::ACTIVE {
            self.recorder.enter(true, depth, None);
        }
        if self.out_of_time() {
            return 0;
        }
        if depth == 0 || position.is_over(self.rules) {
            return self.leaf(position);
        }
        let mut best = -INFINITY;
        for mv in position.legal_moves() {
            if R::ACTIVE {
                self.recorder.child(mv);
            }
            let value = self.minimax_child(&position.play_unchecked(self.rules, mv), depth - 1);
            if value > best {
                best = value;
                if root {
                    self.best = Some(mv);
                }
            }
        }
        self.inner(best)
    }

    fn minimax_min(&mut self, position: &Position, depth: u32) -> i32 {
        self.counts.min_calls += 1;
        if R::ACTIVE {
            self.recorder.enter(false, depth, None);
        }
        if self.out_of_time() {
            return 0;
        }
        if depth == 0 || position.is_over(self.rules) {
            return self.leaf(position);
        }
        let mut best = INFINITY;
        for mv in position.legal_moves() {
            if R::ACTIVE {
                self.recorder.child(mv);
            }
            best = best.min(self.minimax_child(&position.play_unchecked(self.rules, mv), depth - 1));
        }
        self.inner(best)
    }

    /// Returns the children in search order: house order, or ordered by the heuristic.
    fn children(&self, position: &Position) -> ([(Move, Position); 12], usize) {
        let mut list = [(Move::from_index(0), *position); 12];
        let mut keys = [0i32; 12];
        let mut n = 0;
        for mv in position.legal_moves() {
            let mut child = *position;
            let outcome = child.sow(self.rules, mv);
            list[n] = (mv, child);
            keys[n] = self.order_key(mv, &outcome);
            n += 1;
        }
        if self.ordered {
            // Insertion sort, stable, on at most 12 moves: higher keys first.
            for i in 1..n {
                let mut j = i;
                while j > 0 && keys[j - 1] < keys[j] {
                    keys.swap(j - 1, j);
                    list.swap(j - 1, j);
                    j -= 1;
                }
            }
        }
        (list, n)
    }

    /// The ordering heuristic: extra moves first, then captures by size, then houses nearest the store.
    fn order_key(&self, mv: Move, outcome: &Outcome) -> i32 {
        let nearness = mv.index() as i32; // house m is the nearest the store
        if outcome.extra_move {
            10_000 + nearness
        } else if outcome.captured > 0 {
            1_000 + 16 * i32::from(outcome.captured) + nearness
        } else {
            nearness
        }
    }

    fn child_value(&mut self, child: &Position, depth: u32, alpha: i32, beta: i32) -> i32 {
        if child.mover() == self.root {
            self.max_value(child, depth, alpha, beta, false)
        } else {
            self.min_value(child, depth, alpha, beta)
        }
    }

    fn max_value(&mut self, position: &Position, depth: u32, mut alpha: i32, beta: i32, root: bool) -> i32 {
        self.counts.max_calls += 1;
        if R::ACTIVE {
            self.recorder.enter(true, depth, Some((alpha, beta)));
        }
        if self.out_of_time() {
            return 0;
        }
        if depth == 0 || position.is_over(self.rules) {
            return self.leaf(position);
        }
        let (children, n) = self.children(position);
        let mut best = -INFINITY;
        for (i, (mv, child)) in children[..n].iter().enumerate() {
            if R::ACTIVE {
                self.recorder.child(*mv);
            }
            let value = self.child_value(child, depth - 1, alpha, beta);
            if value > best {
                best = value;
                if root {
                    self.best = Some(*mv);
                }
            }
            alpha = alpha.max(value);
            if alpha >= beta {
                if R::ACTIVE && i + 1 < n {
                    self.recorder.cut(Bound::Beta, alpha, beta, &mut children[i + 1..n].iter().map(|c| c.0));
                }
                break;
            }
        }
        self.inner(best)
    }

    fn min_value(&mut self, position: &Position, depth: u32, alpha: i32, mut beta: i32) -> i32 {
        self.counts.min_calls += 1;
        if R::ACTIVE {
            self.recorder.enter(false, depth, Some((alpha, beta)));
        }
        if self.out_of_time() {
            return 0;
        }
        if depth == 0 || position.is_over(self.rules) {
            return self.leaf(position);
        }
        let (children, n) = self.children(position);
        let mut best = INFINITY;
        for (i, (mv, child)) in children[..n].iter().enumerate() {
            if R::ACTIVE {
                self.recorder.child(*mv);
            }
            let value = self.child_value(child, depth - 1, alpha, beta);
            best = best.min(value);
            beta = beta.min(value);
            if alpha >= beta {
                if R::ACTIVE && i + 1 < n {
                    self.recorder.cut(Bound::Alpha, alpha, beta, &mut children[i + 1..n].iter().map(|c| c.0));
                }
                break;
            }
        }
        self.inner(best)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_rules::Rules;

    fn start64() -> (Rules, Position) {
        let rules = Rules::standard(6, 4).unwrap();
        (rules, Position::start(&rules))
    }

    #[test]
    fn minimax_visits_what_the_independent_implementation_visits() {
        // Kalah(6,4) start, store difference at the leaves, every position counted with the root.
        let (rules, start) = start64();
        for (depth, visited) in [(4, 1_169), (6, 29_092), (8, 706_577)] {
            let found = search(&start, &rules, depth, Algorithm::Minimax, &Weights::STORE);
            assert_eq!(found.counts.total(), visited, "depth {depth}");
        }
    }

    #[test]
    fn ordered_alpha_beta_does_at_least_as_well_as_the_reference() {
        let (rules, start) = start64();
        for (depth, visited) in [(4, 102), (6, 457), (8, 1_252), (12, 26_163)] {
            let found = search(&start, &rules, depth, Algorithm::Ordered, &Weights::STORE);
            assert!(found.counts.total() <= visited, "depth {depth}: {} > {visited}", found.counts.total());
        }
    }

    #[test]
    fn an_extra_move_is_not_negated() {
        // House 2 ends in South's store: at depth 1 that is +1 for South (the extra move is still
        // South's), house 1 is 0. At depth 2, house 1 wins: North's only reply empties North's side
        // and South keeps its 3 seeds (+3), while after house 2 South's extra move is worth +1.
        let rules = Rules::standard(2, 1).unwrap();
        let p = Position::parse("1,1:0/0,3:0/S", &rules).unwrap();
        for algorithm in Algorithm::ALL {
            let found = search(&p, &rules, 1, algorithm, &Weights::STORE);
            assert_eq!((found.value, found.best), (100, Move::from_number(2)), "{algorithm}");
            let found = search(&p, &rules, 2, algorithm, &Weights::STORE);
            assert_eq!((found.value, found.best), (300, Move::from_number(1)), "{algorithm}");
            assert!(found.counts.max_calls >= 2, "{algorithm}: the extra move is Max's again: {:?}", found.counts);
        }
    }

    #[test]
    fn a_passed_deadline_stops_the_search() {
        let (rules, start) = start64();
        let past = now();
        assert!(search_until(&start, &rules, 30, Algorithm::Minimax, &Weights::STORE, Some(past)).is_none());
    }
}
