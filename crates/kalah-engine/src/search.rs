//! The strong search: iterative deepening principal-variation search with a transposition table,
//! move ordering, bounds from the seeds left, endgame databases, proofs of exact values and Lazy
//! SMP threads, within the limits of [`crate::time`].
//!
//! Scores inside the search are relative to the stores: what the side to move gains from here on,
//! in hundredths of a seed. The rest of a Kalah game does not depend on the stores, so the table and
//! the endgame databases share results between positions that differ only there, and a position
//! can never gain more than the seeds still in its houses, which cuts the search.
//!
//! A score is *proven* when it rests only on finished games and database values, never on the
//! evaluation; a proven score is good at any depth, and a proven exact score at the root is the
//! game-theoretic value.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use kalah_rules::{Move, Position, Rules, Side};

use crate::busy::Busy;
use crate::eval::{evaluate, Weights, SEED};
use crate::order::{self, History};
use crate::score::Score;
use crate::stop::{Flow, Watch};
use crate::tt::{Bound, Entry, Table};

/// Larger than any score.
pub const INFINITE: i32 = 30_000;
/// The deepest iteration.
pub const MAX_DEPTH: u32 = 120;
/// The least remaining depth at which threads mark nodes and put off each other's.
const SHARE_DEPTH: i32 = 3;
/// Nodes between looks at the clock and the stop flag.
const CHECK_EVERY: u64 = 2048;

/// A source of exact values for small positions, such as an endgame database.
pub trait Oracle: Send + Sync {
    /// Returns what the mover gains from here on with perfect play, in seeds, if known.
    fn probe(&self, position: &Position) -> Option<i32>;

    /// Starts bringing what [`Oracle::probe`] of `position` reads into the cache, and returns a
    /// ticket for [`Oracle::read`] if the oracle knows the position (by default nothing is
    /// fetched: the ticket is the value itself).
    fn prefetch(&self, position: &Position) -> Option<u64> {
        self.probe(position).map(|value| value as u64)
    }

    /// Returns the value of the position [`Oracle::prefetch`] gave `ticket` for, sparing the
    /// work of finding it again.
    fn read(&self, ticket: u64) -> i32 {
        ticket as i32
    }

    /// [`Oracle::prefetch`] of the proof search's byte board ([`crate::egdb::board::Board`], the
    /// mover's houses first) holding `seeds` seeds in its houses, for an oracle of the board's
    /// rules. By default the oracle knows no board: its positions are then searched.
    fn prefetch_board(&self, _board: &crate::egdb::board::Board, _seeds: u32) -> Option<u64> {
        None
    }

    /// Returns the most seeds a board [`Oracle::prefetch_board`] can know may hold (0: none).
    fn board_seeds(&self) -> u32 {
        0
    }
}

impl Oracle for crate::egdb::Egdb {
    #[inline]
    fn probe(&self, position: &Position) -> Option<i32> {
        crate::egdb::Egdb::probe(self, position)
    }

    #[inline]
    fn prefetch(&self, position: &Position) -> Option<u64> {
        crate::egdb::Egdb::prefetch_ticket(self, position)
    }

    #[inline]
    fn read(&self, ticket: u64) -> i32 {
        crate::egdb::Egdb::read_ticket(self, ticket)
    }

    #[inline]
    fn prefetch_board(&self, board: &crate::egdb::board::Board, seeds: u32) -> Option<u64> {
        crate::egdb::Egdb::prefetch_board(self, board, seeds)
    }

    fn board_seeds(&self) -> u32 {
        self.max_seeds()
    }
}

/// The limits a search takes, from [`crate::time`], where [`Engine::search`] is used.
pub use crate::time::{Clock, Limits};

/// What an iteration of the search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// The depth completed.
    pub depth: u32,
    /// The value for the side to move at the root: its final store difference, proven (the
    /// game-theoretic value) or estimated.
    pub score: Score,
    /// The best move (`None` when the game is over).
    pub best: Option<Move>,
    /// The principal variation, from the table.
    pub pv: Vec<Move>,
    /// Nodes searched by all threads so far.
    pub nodes: u64,
    /// Time since the search began.
    pub elapsed: Duration,
}

impl Info {
    /// Returns nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-6)) as u64
    }
}

/// Settings of an [`Engine`].
#[derive(Clone)]
pub struct Options {
    /// Size of the transposition table in bytes.
    pub table_bytes: usize,
    /// Search threads (Lazy SMP): 1 or more. Without the crate's `threads` feature every search
    /// runs on the calling thread: [`Engine::new`] takes more as [`MAX_THREADS`], one.
    pub threads: usize,
    /// Evaluation weights.
    pub weights: Weights,
    /// Exact values for small positions, if any.
    pub oracle: Option<Arc<dyn Oracle>>,
}

/// The most threads a search or a solve uses: any number with the crate's `threads` feature,
/// one without it (a build for a browser). More asked for are this many, not an error: a host
/// that asks for a machine's cores gets the one thread there is.
pub const MAX_THREADS: usize = if cfg!(feature = "threads") { usize::MAX } else { 1 };

/// The default table size: 16 MiB, which fits a game at a second a move; a larger table costs
/// short searches speed (more cache and TLB misses), so long analyses ask for more.
pub const DEFAULT_TABLE_BYTES: usize = 16 << 20;

impl Default for Options {
    fn default() -> Options {
        Options { table_bytes: DEFAULT_TABLE_BYTES, threads: 1, weights: Weights::TUNED, oracle: None }
    }
}

/// The strong engine: a transposition table and settings, kept between searches of one game.
///
/// ```
/// use kalah_engine::search::{Engine, Limits, Options};
/// use kalah_rules::{Position, Rules};
/// let rules = Rules::standard(4, 3).unwrap();
/// let engine = Engine::new(Options::default());
/// let info = engine.search(&Position::start(&rules), &rules, Limits::default(), None, |_| {});
/// assert!(info.score.is_exact()); // small enough to solve outright
/// assert_eq!(info.score.hundredths(), 6 * 100); // Kalah(4,3) is +6 for South (tests/data/values.txt)
/// ```
pub struct Engine {
    table: Table,
    options: Options,
    /// Nodes being searched now, for the threads to keep out of each other's way.
    busy: Busy,
}

/// What the threads of one search share: the deepest completed iteration and its result.
struct Race {
    completed: AtomicU32,
    result: Mutex<Option<RaceResult>>,
}

#[derive(Clone, Copy)]
struct RaceResult {
    depth: u32,
    score: i32,
    proven: bool,
    best: Option<Move>,
}

/// Per-thread search state.
struct Worker<'a> {
    rules: &'a Rules,
    table: &'a Table,
    options: &'a Options,
    stop: &'a AtomicBool,
    nodes: &'a AtomicU64,
    local_nodes: u64,
    history: History,
    /// Only the main thread watches the clock, the node budget and the caller's flag; helpers
    /// follow the stop flag.
    main: Option<Watch<'a>>,
    keys_by_stores: bool,
    /// The best move at the root of the current iteration.
    root_best: Option<Move>,
    /// Nodes this worker has visited, never reset: subtree sizes for the table.
    visited: u64,
    /// The engine's table of nodes being searched.
    busy: &'a Busy,
    /// More than one thread searches.
    parallel: bool,
    /// The threads' shared progress, and the depth this thread is on.
    race: Option<&'a Race>,
    iteration: u32,
    /// Another thread finished this thread's iteration first: drop it.
    superseded: bool,
}

impl Engine {
    /// Returns an engine with an empty table.
    pub fn new(mut options: Options) -> Engine {
        options.threads = options.threads.clamp(1, MAX_THREADS);
        Engine { table: Table::for_threads(options.table_bytes, options.threads), options, busy: Busy::new(true) }
    }

    /// Gives the engine a source of exact values (or takes it away).
    pub fn set_oracle(&mut self, oracle: Option<Arc<dyn Oracle>>) {
        self.options.oracle = oracle;
    }

    /// Returns the settings.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Empties the transposition table (a new game, or a clean benchmark).
    pub fn clear(&self) {
        self.table.clear();
    }

    /// Searches `position` within `limits`, calling `on_iteration` after each completed depth.
    ///
    /// The search ends early when its node budget (`limits.nodes`, looked at every 2048 nodes)
    /// or hard time is spent, when another thread sets `stop`, or when `on_iteration` answers
    /// `ControlFlow::Break(())` (see [`Flow`]; `()` goes on). The result is then that of the last
    /// completed depth (at least depth 1 is always completed). The table keeps what the search
    /// learnt, so a host can search in slices: a search of a node budget, then another from the
    /// same position, each going on from the table the last one left.
    pub fn search<F: Flow>(
        &self,
        position: &Position,
        rules: &Rules,
        limits: Limits,
        stop: Option<&AtomicBool>,
        mut on_iteration: impl FnMut(&Info) -> F,
    ) -> Info {
        let started = crate::time::now();
        let nodes = AtomicU64::new(0);
        let budget = limits.budget();
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let helpers = self.options.threads.max(1) - 1;
        // `halt` ends the main thread's search (time, nodes, or the caller's stop); `done` also
        // ends the helpers', once the main thread has its answer.
        let halt = AtomicBool::new(false);
        let done = AtomicBool::new(false);
        // Every thread deepens on its own; the first to finish a depth publishes it, and the
        // others give up that depth and go on to the next (time to depth is what 2 threads buy).
        let race = Race { completed: AtomicU32::new(0), result: Mutex::new(None) };
        std::thread::scope(|scope| {
            for id in 0..helpers {
                let (done, nodes, race) = (&done, &nodes, &race);
                scope.spawn(move || {
                    let mut worker = self.worker(rules, done, nodes, None);
                    worker.race = Some(race);
                    // Odd helpers start a depth ahead, so the threads spread over two iterations.
                    let mut depth = 1 + ((id as u32 + 1) % 2);
                    while depth <= max_depth && !done.load(Ordering::Relaxed) {
                        worker.race_root(position, depth);
                        depth = depth.max(race.completed.load(Ordering::Relaxed) + 1 + ((id as u32 + 1) % 2));
                    }
                });
            }
            let watch = Watch::new(started, &limits, stop);
            let mut worker = self.worker(rules, &halt, &nodes, Some(watch));
            worker.race = Some(&race);
            let mut last: Option<Info> = None;
            let mut depth = 1;
            while depth <= max_depth {
                worker.race_root(position, depth);
                let halted = halt.load(Ordering::Relaxed);
                let Some(result) = *race.result.lock().unwrap_or_else(|e| e.into_inner()) else { break };
                if halted && last.is_some() || last.as_ref().is_some_and(|l| l.depth >= result.depth) {
                    break;
                }
                let base = store_difference(position, position.mover());
                let info = Info {
                    depth: result.depth,
                    score: Score::new(base + result.score, result.proven),
                    best: result.best,
                    pv: self.principal_variation(position, rules, result.best, result.depth as usize + 8),
                    nodes: nodes.load(Ordering::Relaxed) + worker.local_nodes,
                    elapsed: started.elapsed(),
                };
                let told = on_iteration(&info).flow().is_break();
                // The next iteration costs more than all before it: do not start one that
                // would most likely be cut off by the hard limit and thrown away.
                let soft_out = budget.is_some_and(|b| !b.may_deepen(started.elapsed()));
                let finished = info.score.is_exact() || info.best.is_none();
                depth = info.depth + 1;
                last = Some(info);
                if halted || soft_out || finished || told {
                    break;
                }
            }
            done.store(true, Ordering::Relaxed);
            let mut info = last.expect("depth 1 always completes");
            info.nodes = nodes.load(Ordering::Relaxed) + worker.local_nodes;
            info.elapsed = started.elapsed();
            info
        })
    }

    /// Returns the transposition table, to save or restore it.
    pub fn table(&self) -> &Table {
        &self.table
    }

    fn worker<'a>(
        &'a self,
        rules: &'a Rules,
        stop: &'a AtomicBool,
        nodes: &'a AtomicU64,
        main: Option<Watch<'a>>,
    ) -> Worker<'a> {
        Worker {
            rules,
            table: &self.table,
            options: &self.options,
            stop,
            nodes,
            local_nodes: 0,
            history: History::default(),
            main,
            keys_by_stores: rules.majority_ends,
            root_best: None,
            visited: 0,
            busy: &self.busy,
            parallel: self.options.threads > 1,
            race: None,
            iteration: 0,
            superseded: false,
        }
    }

    /// Returns the line from `position`: `first`, then best moves through the table, at most `limit` sowings.
    pub fn principal_variation(
        &self,
        position: &Position,
        rules: &Rules,
        first: Option<Move>,
        limit: usize,
    ) -> Vec<Move> {
        let mut line = Vec::new();
        let Some(first) = first else { return line };
        line.push(first);
        let mut p = position.play_unchecked(rules, first);
        while line.len() < limit && !p.is_over(rules) {
            let key = if rules.majority_ends { p.key() } else { p.houses_key() };
            let Some(mv) = self.table.probe(key).and_then(|e| e.best) else { break };
            if !p.legal_moves().contains(mv) {
                break;
            }
            line.push(mv);
            p = p.play_unchecked(rules, mv);
        }
        line
    }
}

/// Returns the mover's store minus the opponent's, in hundredths of a seed.
#[inline]
fn store_difference(position: &Position, side: Side) -> i32 {
    position.store_difference() * side.sign() * SEED
}

/// A child in the move list.
#[derive(Clone, Copy)]
struct Child {
    mv: Move,
    position: Position,
    order: i32,
    key: u64,
}

impl Worker<'_> {
    fn stopped(&mut self) -> bool {
        if self.local_nodes % CHECK_EVERY == 0 {
            self.nodes.fetch_add(CHECK_EVERY, Ordering::Relaxed);
            self.table.worked(CHECK_EVERY);
            self.local_nodes = 0;
            if self.main.as_ref().is_some_and(|watch| watch.expired(self.nodes.load(Ordering::Relaxed))) {
                self.stop.store(true, Ordering::Relaxed);
            }
            if let Some(race) = self.race {
                self.superseded |= race.completed.load(Ordering::Relaxed) >= self.iteration;
            }
        }
        self.halted()
    }

    /// Tells whether this search must end now: stopped, or its iteration done by another thread.
    #[inline]
    fn halted(&self) -> bool {
        self.superseded || self.stop.load(Ordering::Relaxed)
    }

    /// Searches the root to `depth` and publishes the result unless another thread got there first.
    fn race_root(&mut self, position: &Position, depth: u32) {
        self.iteration = depth;
        self.superseded = false;
        let (score, proven, best) = self.root(position, depth as i32);
        let Some(race) = self.race else { return };
        if self.halted() {
            return;
        }
        let mut result = race.result.lock().unwrap_or_else(|e| e.into_inner());
        if result.is_none_or(|r| r.depth < depth) {
            *result = Some(RaceResult { depth, score, proven, best });
            race.completed.store(depth, Ordering::Relaxed);
        }
    }

    #[inline]
    fn key(&self, position: &Position) -> u64 {
        if self.keys_by_stores {
            position.key()
        } else {
            position.houses_key()
        }
    }

    /// Searches the root to `depth`: (relative score, proven, best move).
    fn root(&mut self, position: &Position, depth: i32) -> (i32, bool, Option<Move>) {
        self.root_best = None;
        let (score, proven) = self.search(position, self.key(position), depth, -INFINITE, INFINITE, 0);
        (score, proven, self.root_best)
    }

    /// Principal-variation search of `position`: its relative score and whether it is proven.
    fn search(
        &mut self,
        position: &Position,
        key: u64,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: u32,
    ) -> (i32, bool) {
        self.local_nodes += 1;
        self.visited += 1;
        let visited_before = self.visited;
        if self.stopped() {
            return (0, false);
        }
        let rules = self.rules;
        let me = position.mover();
        if position.is_over(rules) {
            let settled = position.final_difference(rules) * me.sign() * SEED - store_difference(position, me);
            return (settled, true);
        }
        // The mover can win at most the seeds in the houses, and lose at most as many.
        let left = i32::from(position.seeds_in_houses()) * SEED;
        if alpha >= left {
            return (left, true);
        }
        if beta <= -left {
            return (-left, true);
        }
        // Not at the root: there the search must still name a best move.
        if let Some(oracle) = self.options.oracle.as_ref().filter(|_| ply > 0) {
            if let Some(gain) = oracle.probe(position) {
                return (gain * SEED, true);
            }
        }
        // Leaves are most nodes: evaluate them without touching the table.
        if depth <= 0 {
            let weights = &self.options.weights;
            let value =
                evaluate(position, rules, me, weights) - weights.store * position.store_difference() * me.sign();
            return (value.clamp(-left, left), false);
        }
        let entry = self.table.probe(key);
        // At the root a cut-off would leave no best move: there the entry only orders moves.
        if let Some(e) = entry.filter(|_| ply > 0) {
            if e.proven || i32::from(e.depth) >= depth {
                let proven = e.proven;
                match e.bound {
                    Bound::Exact => return (e.score, proven),
                    Bound::Lower if e.score >= beta => return (e.score, proven),
                    Bound::Upper if e.score <= alpha => return (e.score, proven),
                    _ => {}
                }
            }
        }
        // Keep the window inside what is possible, so that bounds of the result are tight.
        alpha = alpha.max(-left - 1);
        beta = beta.min(left + 1);
        let alpha_start = alpha;

        let (children, n) = self.children(position, entry.and_then(|e| e.best), depth > 1);
        // Enhanced transposition cut-off: a child's stored bound may refute this node before any
        // child is searched (transpositions abound in Kalah, through extra moves).
        if depth > 2 {
            for child in &children[..n] {
                let Some(e) = self.table.probe(child.key) else { continue };
                if !(e.proven || i32::from(e.depth) >= depth - 1) {
                    continue;
                }
                let gain = store_difference(&child.position, me) - store_difference(position, me);
                let again = child.position.mover() == me;
                let floor = match (again, e.bound) {
                    (true, Bound::Lower | Bound::Exact) => Some(gain + e.score),
                    (false, Bound::Upper | Bound::Exact) => Some(gain - e.score),
                    _ => None,
                };
                if let Some(value) = floor.filter(|&v| v >= beta) {
                    if ply == 0 {
                        self.root_best = Some(child.mv);
                    }
                    return (value, e.proven);
                }
            }
        }
        let mut best = -INFINITE;
        let mut best_move = None;
        let mut all_proven = true;
        let mut cutoff_proven = false;
        // With several threads, a child another thread is searching right now is put off to the
        // end, so the threads spread over the tree instead of all searching the same nodes
        // (the idea of ABDADA); its result is then often in the table when its turn comes.
        let share = self.parallel && depth >= SHARE_DEPTH;
        let mut order = [0usize; 12];
        let mut m = 0;
        if share {
            for (i, child) in children[..n].iter().enumerate() {
                if i == 0 || !self.busy.contains(child.key) {
                    order[m] = i;
                    m += 1;
                }
            }
            for (i, child) in children[..n].iter().enumerate() {
                if i > 0 && self.busy.contains(child.key) {
                    order[m] = i;
                    m += 1;
                }
            }
            self.busy.enter(key);
        } else {
            for (i, slot) in order[..n].iter_mut().enumerate() {
                *slot = i;
            }
        }
        for (i, child) in order[..n].iter().map(|&k| &children[k]).enumerate() {
            let gain = store_difference(&child.position, me) - store_difference(position, me);
            let again = child.position.mover() == me;
            let value_of = |worker: &mut Self, lo: i32, hi: i32| -> (i32, bool) {
                if again {
                    let (v, p) = worker.search(&child.position, child.key, depth - 1, lo - gain, hi - gain, ply + 1);
                    (gain + v, p)
                } else {
                    let (v, p) = worker.search(&child.position, child.key, depth - 1, gain - hi, gain - lo, ply + 1);
                    (gain - v, p)
                }
            };
            let (mut value, mut proven) =
                if i == 0 { value_of(self, alpha, beta) } else { value_of(self, alpha, alpha + 1) };
            if i > 0 && value > alpha && value < beta {
                (value, proven) = value_of(self, alpha, beta);
            }
            if self.halted() {
                return (0, false);
            }
            if value > best {
                best = value;
                best_move = Some(child.mv);
                if ply == 0 {
                    self.root_best = best_move;
                }
            }
            if value > alpha {
                alpha = value;
            }
            if alpha >= beta {
                cutoff_proven = proven;
                self.history.reward(me, child.mv, depth);
                break;
            }
            all_proven &= proven;
        }
        if share {
            self.busy.leave(key);
        }
        let (bound, proven) = if best >= beta {
            (Bound::Lower, cutoff_proven)
        } else if best <= alpha_start {
            (Bound::Upper, all_proven)
        } else {
            (Bound::Exact, all_proven)
        };
        let work = (64 - (self.visited - visited_before).leading_zeros()) as u8;
        let depth = depth.clamp(0, i32::from(u8::MAX)) as u8;
        self.table.store(key, Entry { score: best, depth, bound, best: best_move, proven, work });
        (best, proven)
    }

    /// Returns the children in search order ([`order::heuristic`]): the table's move, extra
    /// moves, captures by size, then by history.
    ///
    /// Children that will be searched further get their table keys, and their buckets fetched.
    fn children(&self, position: &Position, table_move: Option<Move>, keyed: bool) -> ([Child; 12], usize) {
        let me = position.mover();
        let mut list = [Child { mv: Move::from_index(0), position: *position, order: 0, key: 0 }; 12];
        let mut n = 0;
        for mv in position.legal_moves() {
            let mut child = *position;
            let outcome = child.sow(self.rules, mv);
            let key = if keyed { self.key(&child) } else { 0 };
            if keyed {
                self.table.prefetch(key);
            }
            let order = if Some(mv) == table_move {
                order::TABLE_MOVE
            } else {
                order::heuristic(me, mv, &outcome, &self.history)
            };
            list[n] = Child { mv, position: child, order, key };
            n += 1;
        }
        order::sort(&mut list[..n], |child| child.order);
        (list, n)
    }
}

#[cfg(test)]
mod tests {
    use std::ops::ControlFlow;

    use super::*;

    #[test]
    fn proven_values_are_the_exact_solution() {
        for (m, n, value) in [(3, 3, 2), (4, 3, 6), (3, 2, 4), (4, 1, 2)] {
            let rules = Rules::standard(m, n).unwrap();
            let engine = Engine::new(Options::default());
            let info = engine.search(&Position::start(&rules), &rules, Limits::default(), None, |_| {});
            assert_eq!(info.score, Score::exact_seeds(value), "Kalah({m},{n})");
        }
    }

    #[test]
    fn two_threads_give_a_move_and_a_proven_value() {
        let rules = Rules::standard(4, 3).unwrap();
        let engine = Engine::new(Options { threads: 2, ..Options::default() });
        let info = engine.search(&Position::start(&rules), &rules, Limits::default(), None, |_| {});
        assert_eq!(info.score, Score::exact_seeds(6));
    }

    #[test]
    fn a_callback_ends_the_search_at_the_depth_it_heard() {
        let rules = Rules::standard(6, 6).unwrap();
        for threads in [1, 2] {
            let engine = Engine::new(Options { threads, ..Options::default() });
            let mut heard = Vec::new();
            let info = engine.search(&Position::start(&rules), &rules, Limits::default(), None, |info| {
                heard.push(info.clone());
                if info.depth >= 3 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
            let depths: Vec<u32> = heard.iter().map(|i| i.depth).collect();
            if threads == 1 {
                assert_eq!(depths, [1, 2, 3]);
            } else {
                // A helper may have finished depths first: the first heard at 3 or more stops.
                assert_eq!(depths.iter().filter(|&&d| d >= 3).count(), 1, "{depths:?}");
            }
            let last = heard.last().unwrap();
            assert_eq!((info.depth, info.score, info.best, &info.pv), (last.depth, last.score, last.best, &last.pv));
        }
    }

    #[test]
    fn a_node_budget_ends_the_search_soon_after_it_is_spent() {
        let rules = Rules::standard(6, 6).unwrap();
        for budget in [1, 10_000, 100_000] {
            let engine = Engine::new(Options::default());
            let limits = Limits { nodes: Some(budget), ..Limits::default() };
            let info = engine.search(&Position::start(&rules), &rules, limits, None, |_| {});
            // The budget is looked at every CHECK_EVERY nodes; then every ply ends at once.
            assert!(info.nodes < budget + CHECK_EVERY + u64::from(MAX_DEPTH), "{budget}: {} nodes", info.nodes);
            assert!(info.nodes >= budget.min(CHECK_EVERY), "{budget}: {} nodes", info.nodes);
            assert!(info.best.is_some() && !info.score.is_exact());
        }
    }

    #[test]
    fn a_search_in_slices_reaches_the_value_of_one_search() {
        for (m, n) in [(4, 3), (5, 3)] {
            let rules = Rules::standard(m, n).unwrap();
            let start = Position::start(&rules);
            let whole = Engine::new(Options::default()).search(&start, &rules, Limits::default(), None, |_| {});
            assert!(whole.score.is_exact());
            let engine = Engine::new(Options::default());
            let limits = Limits { nodes: Some(4_000), ..Limits::default() };
            let mut slices = 0;
            let sliced = loop {
                slices += 1;
                assert!(slices < 10_000, "Kalah({m},{n}): the slices make progress");
                let info = engine.search(&start, &rules, limits, None, |_| {});
                if info.score.is_exact() {
                    break info;
                }
            };
            assert!(slices > 1, "Kalah({m},{n}): the budget cut the search");
            assert_eq!(sliced.score, whole.score, "Kalah({m},{n})");
        }
    }

    #[test]
    fn a_stop_flag_ends_the_search_after_depth_one() {
        let rules = Rules::standard(6, 6).unwrap();
        let engine = Engine::new(Options::default());
        let stop = AtomicBool::new(true);
        let info = engine.search(&Position::start(&rules), &rules, Limits::default(), Some(&stop), |_| {});
        assert!(info.best.is_some());
    }
}
