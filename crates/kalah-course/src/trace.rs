//! The assignment's searches, drawn: a search of [`classic`] that records every
//! call of Max and Min in the order they were made, and the report the page draws from it (the
//! tree, the three searches' call counts side by side, and their averages over a game).
//!
//! The traced search is the very search [`classic::search`] runs (the same code, with a recorder
//! that keeps each call instead of one that does nothing), so its counts are the search's counts.
//! A trace is bounded: at most [`MAX_DEPTH`] sowings deep and [`MAX_NODES`] calls, past which it
//! is refused with a [`TraceError`] that names the limit.

use kalah_engine::eval::Weights;
use kalah_rules::{Game, Move, Position, Rules};

use crate::classic::{self, Algorithm, Bound, Counts, End, Recorder};
use crate::compare::{compare_at, Disagreement};

/// The deepest search that is drawn, in sowings: minimax to depth 6 on Kalah(6,6) makes tens of
/// thousands of calls, more than a page can show, and its counts over a game stay under a second.
pub const MAX_DEPTH: u32 = 6;

/// The most calls a drawn search records: a tree of this many nodes is about 1 MB of JSON and
/// still opens at once in a browser's list.
pub const MAX_NODES: usize = 5_000;

/// One call of Max or Min, as the search made it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Node {
    /// Its place in the visit order (the root is 0); a node's number is its index in [`Trace::nodes`].
    pub id: usize,
    /// The node that called it (`None` for the root).
    pub parent: Option<usize>,
    /// The house (1 to the number of houses, the mover's own) sown to reach it from its parent.
    pub house: Option<u8>,
    /// `true` for Max (the root player to move), `false` for Min.
    pub max: bool,
    /// The sowings left to search below it.
    pub depth: u32,
    /// Alpha on entry, in hundredths of a seed for the root player (`None` for minimax);
    /// `-INFINITY` ([`classic::INFINITY`]) for no bound yet.
    pub alpha: Option<i32>,
    /// Beta on entry, as alpha; `INFINITY` for no bound yet.
    pub beta: Option<i32>,
    /// The value it returned, in hundredths of a seed for the root player.
    pub value: i32,
    /// How it ended: children searched, evaluated at depth 0, or a finished game.
    pub end: End,
    /// Its children, in the order searched.
    pub children: Vec<usize>,
    /// The children it did not search, and why.
    pub cut: Option<Cut>,
}

/// The children of a node left unsearched once alpha reached beta.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Cut {
    /// Which bound cut them: beta at a Max node, alpha at a Min node.
    pub bound: Bound,
    /// Alpha when they were cut (at a Max node, the value of the child just searched).
    pub alpha: i32,
    /// Beta when they were cut (at a Min node, the value of the child just searched).
    pub beta: i32,
    /// The houses not sown, in the order they would have been searched.
    pub houses: Vec<u8>,
}

/// A search with every call it made.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Trace {
    /// The search.
    pub search: Algorithm,
    /// The depth searched, in sowings.
    pub depth: u32,
    /// The value for the root player, in hundredths of a seed.
    pub value: i32,
    /// The first best house (`None` if the game is over).
    pub best: Option<u8>,
    /// The Max and Min calls: as many as [`Trace::nodes`] holds of each.
    pub counts: Counts,
    /// Every call, in the order made (the root first): a node's children come after it.
    pub nodes: Vec<Node>,
}

/// Why a search is not drawn.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TraceError {
    /// The depth is 0 or deeper than [`MAX_DEPTH`].
    #[error("depth {depth} is out of range: a drawn search goes 1 to {max} sowings deep")]
    Depth {
        /// The depth asked for.
        depth: u32,
        /// [`MAX_DEPTH`].
        max: u32,
    },
    /// The search makes more calls than [`MAX_NODES`].
    #[error(
        "{search} to depth {depth} makes more than {limit} calls of Max and Min, the most a drawn search keeps: \
         choose a smaller depth or a search that prunes"
    )]
    TooManyNodes {
        /// The search.
        search: Algorithm,
        /// The depth asked for.
        depth: u32,
        /// [`MAX_NODES`].
        limit: usize,
    },
    /// The three searches found different values: a bug, never expected.
    #[error(transparent)]
    Disagreement(#[from] Disagreement),
}

/// The recorder of a traced search: the nodes so far and the path of calls still open.
struct Recording {
    nodes: Vec<Node>,
    open: Vec<usize>,
    house: Option<u8>,
    limit: usize,
}

impl Recorder for Recording {
    const ACTIVE: bool = true;

    fn child(&mut self, house: Move) {
        self.house = Some(house.number());
    }

    fn enter(&mut self, max: bool, depth: u32, window: Option<(i32, i32)>) {
        let id = self.nodes.len();
        let parent = self.open.last().copied();
        if let Some(parent) = parent {
            self.nodes[parent].children.push(id);
        }
        self.nodes.push(Node {
            id,
            parent,
            house: self.house.take(),
            max,
            depth,
            alpha: window.map(|w| w.0),
            beta: window.map(|w| w.1),
            value: 0,
            end: End::Inner,
            children: Vec::new(),
            cut: None,
        });
        self.open.push(id);
    }

    fn leave(&mut self, value: i32, end: End) {
        if let Some(id) = self.open.pop() {
            self.nodes[id].value = value;
            self.nodes[id].end = end;
        }
    }

    fn cut(&mut self, bound: Bound, alpha: i32, beta: i32, houses: &mut dyn Iterator<Item = Move>) {
        if let Some(&id) = self.open.last() {
            let houses = houses.map(|m| m.number()).collect();
            self.nodes[id].cut = Some(Cut { bound, alpha, beta, houses });
        }
    }

    fn full(&self) -> bool {
        self.nodes.len() > self.limit
    }
}

/// Runs `search` on `position` to `depth` and records every call of Max and Min.
///
/// # Errors
/// [`TraceError::Depth`] for a depth outside 1 to [`MAX_DEPTH`]; [`TraceError::TooManyNodes`]
/// when the search makes more than [`MAX_NODES`] calls.
///
/// ```
/// use kalah_course::classic::{search, Algorithm};
/// use kalah_course::trace::trace;
/// use kalah_engine::eval::Weights;
/// use kalah_rules::{Position, Rules};
/// let rules = Rules::standard(6, 6).unwrap();
/// let start = Position::start(&rules);
/// let drawn = trace(&start, &rules, 3, Algorithm::AlphaBeta, &Weights::TUNED).unwrap();
/// let found = search(&start, &rules, 3, Algorithm::AlphaBeta, &Weights::TUNED);
/// assert_eq!((drawn.counts, drawn.value), (found.counts, found.value));
/// assert_eq!(drawn.nodes.len() as u64, found.counts.total());
/// ```
pub fn trace(
    position: &Position,
    rules: &Rules,
    depth: u32,
    search: Algorithm,
    weights: &Weights,
) -> Result<Trace, TraceError> {
    if !(1..=MAX_DEPTH).contains(&depth) {
        return Err(TraceError::Depth { depth, max: MAX_DEPTH });
    }
    let mut recording = Recording { nodes: Vec::new(), open: Vec::new(), house: None, limit: MAX_NODES };
    let found = classic::run(position, rules, depth, search, weights, None, &mut recording)
        .ok_or(TraceError::TooManyNodes { search, depth, limit: MAX_NODES })?;
    Ok(Trace {
        search,
        depth,
        value: found.value,
        best: found.best.map(|m| m.number()),
        counts: found.counts,
        nodes: recording.nodes,
    })
}

/// The evaluation at the leaves, as `kalah compare --eval` names it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Eval {
    /// The tuned evaluation ([`Weights::TUNED`]), `kalah compare`'s default.
    #[default]
    Tuned,
    /// The store difference alone ([`Weights::STORE`]).
    Store,
}

impl Eval {
    /// Returns its weights.
    pub fn weights(self) -> Weights {
        match self {
            Eval::Tuned => Weights::TUNED,
            Eval::Store => Weights::STORE,
        }
    }
}

/// An evaluation's name that is neither `tuned` nor `store`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown evaluation {0:?}: the evaluations are tuned, store")]
pub struct UnknownEval(pub String);

impl std::str::FromStr for Eval {
    type Err = UnknownEval;
    fn from_str(s: &str) -> Result<Eval, UnknownEval> {
        match s {
            "tuned" => Ok(Eval::Tuned),
            "store" => Ok(Eval::Store),
            _ => Err(UnknownEval(s.to_string())),
        }
    }
}

/// One search's Max and Min calls, on one position or averaged over several.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Calls {
    /// The search.
    pub search: Algorithm,
    /// Max calls (on average, over several positions).
    pub max_calls: f64,
    /// Min calls.
    pub min_calls: f64,
    /// Max and Min calls together.
    pub total: f64,
}

/// The averages of the three searches over the positions of a game (the assignment's part (f)).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct GameCalls {
    /// The positions averaged over: every position of the game so far where it is not over.
    pub positions: usize,
    /// The three searches, in the assignment's order (empty when there is no position).
    pub searches: Vec<Calls>,
}

/// What the page draws: one search's tree on a position, the three searches' counts on it side
/// by side, and their averages over the game so far.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Searches {
    /// The rules.
    pub rules: String,
    /// The position searched, in the position notation.
    pub position: String,
    /// The evaluation at the leaves.
    pub eval: Eval,
    /// The depth, in sowings.
    pub depth: u32,
    /// The drawn search's tree, unless it makes more calls than [`MAX_NODES`].
    pub tree: Option<Trace>,
    /// Why there is no tree ([`TraceError::TooManyNodes`]'s message), when there is none.
    pub untraced: Option<String>,
    /// The three searches on the position, in the assignment's order.
    pub searches: Vec<Calls>,
    /// The three searches averaged over the game.
    pub game: GameCalls,
}

/// What a request for the drawn searches asks: `search=minimax|alphabeta|ordered` (alpha-beta by
/// default), `depth=1..=6` (3 by default) and `eval=tuned|store` (tuned by default), as in the
/// query of `GET /api/games/{id}/searches`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Query {
    /// The search whose tree is drawn.
    pub search: Algorithm,
    /// The depth, in sowings.
    pub depth: u32,
    /// The evaluation at the leaves.
    pub eval: Eval,
}

impl Default for Query {
    fn default() -> Query {
        Query { search: Algorithm::AlphaBeta, depth: 3, eval: Eval::Tuned }
    }
}

/// A query that cannot be read: the message says what is wrong and what is accepted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct QueryError(String);

impl Query {
    /// Reads a query string (`search=ordered&depth=4`; the part after `?`, which may be empty).
    ///
    /// # Errors
    /// [`QueryError`] for an unknown parameter, search or evaluation, or a depth that is not a
    /// whole number from 1 to [`MAX_DEPTH`].
    pub fn parse(query: &str) -> Result<Query, QueryError> {
        let mut asked = Query::default();
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            match key {
                "search" => {
                    asked.search =
                        value.parse().map_err(|e: crate::classic::UnknownAlgorithm| QueryError(e.to_string()))?
                }
                "eval" => asked.eval = value.parse().map_err(|e: UnknownEval| QueryError(e.to_string()))?,
                "depth" => {
                    asked.depth = value.parse().ok().filter(|d| (1..=MAX_DEPTH).contains(d)).ok_or_else(|| {
                        QueryError(format!(
                            "depth {value:?} is out of range: a drawn search goes 1 to {MAX_DEPTH} sowings deep"
                        ))
                    })?;
                }
                _ => {
                    return Err(QueryError(format!(
                        "unknown parameter {key:?}: the parameters are search, depth, eval"
                    )))
                }
            }
        }
        Ok(asked)
    }
}

/// Returns the positions of `game` (the start to the current position) where it is not over,
/// each once, in order: the positions a search could be asked for.
pub fn game_positions(game: &Game) -> Vec<Position> {
    let rules = game.rules();
    let mut positions: Vec<Position> = Vec::new();
    for position in game.positions() {
        // A swap or keeping the board leaves the same position to search.
        if !position.is_over(rules) && positions.last() != Some(position) {
            positions.push(*position);
        }
    }
    positions
}

/// Returns the averages of the three searches at `depth` over `positions`, in the assignment's order.
///
/// # Errors
/// [`Disagreement`] if the searches disagree on a value (a bug).
pub fn averages(
    positions: &[Position],
    rules: &Rules,
    depth: u32,
    weights: &Weights,
) -> Result<Vec<Calls>, Disagreement> {
    if positions.is_empty() {
        return Ok(Vec::new());
    }
    Ok(compare_at(positions, rules, depth, weights)?
        .into_iter()
        .map(|row| Calls {
            search: row.algorithm,
            max_calls: row.max_calls,
            min_calls: row.min_calls,
            total: row.total,
        })
        .collect())
}

/// Draws `search` on `game`'s current position to `depth` with the counts of all three searches
/// there and over the game so far, evaluating leaves with `eval`.
///
/// # Errors
/// [`TraceError::Depth`] for a depth outside 1 to [`MAX_DEPTH`]; [`TraceError::Disagreement`] if
/// the searches disagree (a bug). A search of more calls than [`MAX_NODES`] is answered with its
/// counts and no tree ([`Searches::untraced`] says why).
pub fn searches(game: &Game, depth: u32, search: Algorithm, eval: Eval) -> Result<Searches, TraceError> {
    let weights = &eval.weights();
    let rules = game.rules();
    let position = game.position();
    let (tree, untraced) = match trace(position, rules, depth, search, weights) {
        Ok(tree) => (Some(tree), None),
        // The counts are still worth showing.
        Err(e @ TraceError::TooManyNodes { .. }) => (None, Some(e.to_string())),
        Err(e) => return Err(e),
    };
    let here = averages(std::slice::from_ref(position), rules, depth, weights)?;
    let positions = game_positions(game);
    let over_game = averages(&positions, rules, depth, weights)?;
    Ok(Searches {
        rules: rules.to_string(),
        position: position.to_string(),
        eval,
        depth,
        tree,
        untraced,
        searches: here,
        game: GameCalls { positions: positions.len(), searches: over_game },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classic::{search, INFINITY};
    use proptest::prelude::*;

    fn positions66() -> (Rules, Vec<Position>) {
        let rules = Rules::standard(6, 6).unwrap();
        let mut game = Game::new(rules);
        for house in [3, 1, 4, 6, 2, 5, 1] {
            let mv = Move::from_number(house).unwrap();
            if game.position().legal_moves().any(|m| m == mv) {
                game.act(kalah_rules::Action::Sow(mv)).unwrap();
            }
        }
        (rules, game_positions(&game))
    }

    /// Checks the trace's shape: the counts, the parents and children, the windows and cuts.
    fn check(trace: &Trace, found: &classic::Found) {
        assert_eq!(trace.counts, found.counts);
        assert_eq!(trace.value, found.value);
        assert_eq!(trace.best, found.best.map(|m| m.number()));
        let max = trace.nodes.iter().filter(|n| n.max).count() as u64;
        assert_eq!((max, trace.nodes.len() as u64 - max), (found.counts.max_calls, found.counts.min_calls));
        assert_eq!(trace.nodes[0].parent, None);
        assert_eq!(trace.nodes[0].value, found.value);
        for node in &trace.nodes {
            for &c in &node.children {
                assert_eq!(trace.nodes[c].parent, Some(node.id));
                assert_eq!(trace.nodes[c].depth + 1, node.depth);
                assert!(c > node.id, "children come after their parent");
            }
            assert_eq!(node.children.is_empty(), node.end != End::Inner);
            assert_eq!(node.alpha.is_none(), trace.search == Algorithm::Minimax);
            if let Some(cut) = &node.cut {
                assert!(cut.alpha >= cut.beta && !cut.houses.is_empty());
                assert_eq!(cut.bound, if node.max { Bound::Beta } else { Bound::Alpha });
            }
        }
    }

    #[test]
    fn a_trace_counts_what_the_search_counts() {
        let (rules, positions) = positions66();
        for position in positions.iter().step_by(2) {
            for depth in 1..=4 {
                for algorithm in Algorithm::ALL {
                    let found = search(position, &rules, depth, algorithm, &Weights::TUNED);
                    match trace(position, &rules, depth, algorithm, &Weights::TUNED) {
                        Ok(trace) => check(&trace, &found),
                        Err(TraceError::TooManyNodes { .. }) => assert!(found.counts.total() > MAX_NODES as u64),
                        Err(e) => panic!("{e}"),
                    }
                }
            }
        }
    }

    #[test]
    fn alpha_beta_cuts_and_minimax_does_not() {
        let rules = Rules::standard(6, 6).unwrap();
        let start = Position::start(&rules);
        let ab = trace(&start, &rules, 3, Algorithm::AlphaBeta, &Weights::TUNED).unwrap();
        assert!(ab.nodes.iter().any(|n| n.cut.is_some()));
        let mm = trace(&start, &rules, 3, Algorithm::Minimax, &Weights::TUNED).unwrap();
        assert!(mm.nodes.iter().all(|n| n.cut.is_none()));
        assert_eq!((ab.nodes[0].alpha, ab.nodes[0].beta), (Some(-INFINITY), Some(INFINITY)));
    }

    #[test]
    fn limits_are_named() {
        let rules = Rules::standard(6, 6).unwrap();
        let start = Position::start(&rules);
        let deep = trace(&start, &rules, MAX_DEPTH + 1, Algorithm::Ordered, &Weights::TUNED).unwrap_err();
        assert_eq!(deep.to_string(), "depth 7 is out of range: a drawn search goes 1 to 6 sowings deep");
        let wide = trace(&start, &rules, 6, Algorithm::Minimax, &Weights::TUNED).unwrap_err();
        assert!(matches!(wide, TraceError::TooManyNodes { limit: MAX_NODES, .. }), "{wide}");
        assert!(wide.to_string().contains("5000"), "{wide}");
    }

    #[test]
    fn queries_are_read_and_refused_with_what_is_accepted() {
        assert_eq!(Query::parse(""), Ok(Query::default()));
        let q = Query::parse("search=ordered&depth=5&eval=store").unwrap();
        assert_eq!(q, Query { search: Algorithm::Ordered, depth: 5, eval: Eval::Store });
        for (bad, says) in [
            ("depth=7", "1 to 6"),
            ("depth=x", "1 to 6"),
            ("search=bfs", "minimax, alphabeta, ordered"),
            ("eval=x", "tuned, store"),
            ("colour=red", "search, depth, eval"),
        ] {
            let e = Query::parse(bad).unwrap_err().to_string();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn a_game_is_drawn_with_its_averages() {
        let rules = Rules::standard(6, 6).unwrap();
        let mut game = Game::new(rules);
        game.act(kalah_rules::Action::Sow(Move::from_number(3).unwrap())).unwrap();
        let drawn = searches(&game, 3, Algorithm::AlphaBeta, Eval::Tuned).unwrap();
        assert_eq!(drawn.game.positions, 2);
        let names: Vec<_> = drawn.searches.iter().map(|c| c.search).collect();
        assert_eq!(names, Algorithm::ALL);
        assert_eq!(drawn.searches[1].total, drawn.tree.unwrap().counts.total() as f64);
        let wide = searches(&game, 6, Algorithm::Minimax, Eval::Tuned).unwrap();
        assert!(wide.tree.is_none() && wide.untraced.unwrap().contains("5000"));
        assert!(wide.searches[0].total > MAX_NODES as f64);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        #[test]
        fn traces_agree_with_searches_on_random_games(houses in proptest::collection::vec(1u32..=6, 0..24), depth in 1u32..=3) {
            let rules = Rules::standard(6, 4).unwrap();
            let mut game = Game::new(rules);
            for house in houses {
                let mv = Move::from_number(house).unwrap();
                if game.position().legal_moves().any(|m| m == mv) {
                    game.act(kalah_rules::Action::Sow(mv)).unwrap();
                }
            }
            for algorithm in Algorithm::ALL {
                let found = search(game.position(), &rules, depth, algorithm, &Weights::TUNED);
                check(&trace(game.position(), &rules, depth, algorithm, &Weights::TUNED).unwrap(), &found);
            }
        }
    }
}
