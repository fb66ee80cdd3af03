//! The exact solver: the game-theoretic value of a position, a best move and a perfect line.
//!
//! A solve is a series of null-window proofs (MTD(f)): "is the value at least β?", each answered
//! exactly by an alpha-beta search to the end of the game, that close in on the value from the
//! estimate of a short heuristic search. Nothing in a proof depends on a depth or an evaluation,
//! so every result it stores is final and serves every later proof, whatever its β:
//!
//! * the **proof table** ([`crate::proof`]) keeps, for each position (keyed by its houses: values
//!   are relative to the stores), a proven lower and upper bound on its value and the move that
//!   proved the last cut-off. Its buckets are one cache line of four entries; the entry that cost
//!   the fewest nodes makes room;
//! * **move order** (the crate's `order` module, shared with the heuristic search) at the root
//!   comes from the proof table, then from the heuristic engine's table (filled by the estimate,
//!   which also searches the first moves of the game deeply), then from the evaluation of the
//!   position each move leads to, less a cost for each reply it leaves the opponent (fastest
//!   first: a refutation with fewer replies to search is cheaper to prove);
//! * **the byte board**: under the rules [`crate::board`] plays, every node below the root is
//!   searched on bytes instead of `Position`s, its children looked up in the endgame database by
//!   their bytes, with a move order that costs almost nothing: the table's move, moves that give
//!   another turn (the house nearest the store first, which leaves the other such houses as they
//!   are), then the store gain less the same cost for each reply. Nearly every node there is
//!   small and cheap, so ordering by the evaluation had cost more time than the nodes it saved,
//!   with a database as without one (the measurements are in the docs);
//! * **cut-offs without a search**: a position is worth no more than the seeds in its houses and no
//!   less than their negative; finished games and endgame-database positions are read, not
//!   searched; and before a node with many seeds searches its children it looks them all up
//!   (enhanced transposition cut-off), which also fails the node low at once when every child is
//!   already known to fall short;
//! * **memory**: the tables are asked for huge pages and the buckets are aligned to cache lines;
//!   a proof probes memory at random, and page walks and split lines had cost most of its time.
//!
//! A solve ends early, with the bounds proven so far ([`Stopped`]), when its node budget or hard
//! time ([`Limits`]) is spent, when another thread sets its stop flag, or when its callback
//! answers `ControlFlow::Break(())` after a bound ([`crate::stop::Flow`]). Given those bounds
//! back, and with the same solver (whose tables keep what it proved), a solve goes on where it
//! stopped: a host can solve in slices.
//!
//! Several threads prove together by sharing the proof table. Each searches the same proof, but
//! a node whose child another thread is searching right now puts that child off to the end
//! (the idea of ABDADA), so the threads spread over different subtrees and each finds the
//! others' results in the table when it gets there. A thread also looks, every few thousand
//! nodes, whether another has decided one of the shared nodes it is in (the other proved the
//! cut-off there first): then the search below that node is wasted, and the thread goes back to
//! it and answers with the other's bound. Without that, the second thread of a lower-bound proof
//! finished sibling subtrees nobody needed any more.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};

use kalah_rules::{Move, Position, Rules};

use crate::board::{Board, Layout};
use crate::busy::Busy;
use crate::eval::{evaluate, Weights, SEED};
use crate::order;
use crate::proof::{Proof, ProofTable, PROOF_BYTES};
use crate::score::{Bounds, Score, Seeds};
use crate::search::{Engine, Info, Limits, Options, Oracle};
use crate::stop::{Flow, Watch};
use crate::tt::Table;

/// Depth of the heuristic search whose value is the first guess and whose table orders moves.
const ESTIMATE_DEPTH: u32 = 10;
/// From this many seeds in the houses the estimate searches [`DEEP_ESTIMATE_DEPTH`] instead:
/// Kalah(6,5) with the 32-seed database, 64.3 M nodes instead of 70.6 M, and 0.3 M of them the
/// estimate's (docs/measurements.md, 2026-11-29). Smaller games gain nothing: Kalah(6,4) with
/// no database 112.6 M nodes against 113.1 M.
const DEEP_ESTIMATE_SEEDS: i32 = 56;
/// The estimate's depth from [`DEEP_ESTIMATE_SEEDS`] on.
const DEEP_ESTIMATE_DEPTH: u32 = 14;
/// How many times deeper than its nominal depth the estimate's table may hold positions (its
/// search extends captures and extra moves).
const HINT_PLIES: u32 = 2;
/// Nodes between two looks at the stop flag.
const CHECK_EVERY: u64 = 4096;
/// The share of the memory budget for the heuristic engine's table (the rest holds proofs).
const HINT_SHARE: usize = 8;
/// Nodes with at least this many seeds in the houses look all their children up before searching
/// any (enhanced transposition cut-off); in smaller ones the lookups cost more time than they
/// save nodes (measured on Kalah(6,4) with the 24-seed database and Kalah(5,4) without one).
const ETC_SEEDS: i32 = 24;
/// Nodes with at least this many seeds in the houses tell the other threads they are being
/// searched (ABDADA), with no database; smaller subtrees are not worth the bookkeeping: a shared
/// node marks itself, asks about its children and cannot search its first move before sowing the
/// others. From 12 seeds on, two threads took 40% more CPU a node than one on Kalah(6,4); from 24
/// on, as much as one (measurements 2026-11-28). With a database, see [`SHARE_ABOVE_DATABASE`].
const SHARE_SEEDS: i32 = 24;
/// With a database of K seeds, nodes of at least K + this many seeds are shared: the nodes just
/// above the database are cheap (their children are mostly probes), and sharing them cost more
/// than it saved. Two threads, against sharing every node above the database: the 20-seed test
/// solve faster in 7 rounds of 8 (2.77 to 3.27 s against 2.85 to 4.99 s); on Kalah(6,5) with the
/// 32-seed database the runs overlap (measurements 2026-11-28).
const SHARE_ABOVE_DATABASE: i32 = 8;
/// On the byte board, nodes with at least this many seeds in the houses look their children up
/// before searching any (the byte board's children are fetched from the table anyway, so the
/// lookups cost less there than in the nodes of [`ETC_SEEDS`]).
const BOARD_ETC_SEEDS: i32 = 16;

/// How far a stopped solve got: stopped by its flag, its budget or its callback.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stopped {
    /// The bounds on the value proven so far, for the side to move.
    pub bounds: Bounds,
    /// Nodes searched before the stop.
    pub nodes: u64,
}

/// The exact solver: a heuristic engine for estimates and move order, and a proof table.
///
/// ```
/// use kalah_engine::score::Seeds;
/// use kalah_engine::search::{Limits, Options};
/// use kalah_engine::solver::Solver;
/// use kalah_rules::{Position, Rules};
/// let rules = Rules::standard(4, 4).unwrap();
/// let solver = Solver::new(Options { table_bytes: 8 << 20, ..Options::default() });
/// let start = Position::start(&rules);
/// let solved = solver.solve(&start, &rules, None, Limits::default(), None, |_, _| {}).unwrap();
/// assert_eq!(solved.score, Seeds(2).exact()); // Kalah(4,4) is +2 for South (tests/data/values.txt)
/// assert!(solved.score.is_exact());
/// ```
pub struct Solver {
    engine: Engine,
    proofs: ProofTable,
    threads: usize,
    /// Nodes being searched now, for the threads to keep out of each other's way.
    busy: Busy,
    /// The estimate's depth when given (tests lower it, so that small games reach the proofs);
    /// `None`, by the seeds in the houses ([`ESTIMATE_DEPTH`], [`DEEP_ESTIMATE_DEPTH`]).
    estimate_depth: Option<u32>,
    /// Nodes the solve under way has searched so far (updated every few thousand nodes).
    searched: AtomicU64,
    /// The β of the proof under way, in seeds for the side to move (`i32::MIN`: none).
    testing: AtomicI32,
}

/// What a solve under way is doing, for a progress display: see [`Solver::progress`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Nodes searched so far, the estimate's included.
    pub nodes: u64,
    /// The proof under way asks "is the value at least this?" (for the side to move), or `None`
    /// while the solve estimates or builds its line.
    pub testing: Option<Seeds>,
}

impl Solver {
    /// Returns a solver whose tables take `options.table_bytes` in all: an eighth for the
    /// heuristic engine, the rest for proofs.
    pub fn new(options: Options) -> Solver {
        let total = options.table_bytes.max(64 * PROOF_BYTES * 1024);
        let threads = options.threads.clamp(1, crate::search::MAX_THREADS);
        let engine = Engine::new(Options { table_bytes: total / HINT_SHARE, threads: 1, ..options });
        let busy = Busy::new(threads > 1);
        Solver {
            engine,
            proofs: ProofTable::for_threads(total - total / HINT_SHARE, threads),
            threads,
            busy,
            estimate_depth: None,
            searched: AtomicU64::new(0),
            testing: AtomicI32::new(i32::MIN),
        }
    }

    /// Returns how far the solve under way has got; another thread may ask while it runs.
    pub fn progress(&self) -> Progress {
        let testing = self.testing.load(Ordering::Relaxed);
        let testing = (testing != i32::MIN).then_some(Seeds(testing));
        Progress { nodes: self.searched.load(Ordering::Relaxed), testing }
    }

    /// Returns the solver with another depth for its first estimate (1 or more; by default 10,
    /// and 14 from 56 seeds in the houses on): a shallower estimate leaves more to the proofs.
    pub fn with_estimate_depth(mut self, depth: u32) -> Solver {
        self.estimate_depth = Some(depth.max(1));
        self
    }

    /// Returns the proof table, to save or restore it.
    pub fn proofs(&self) -> &ProofTable {
        &self.proofs
    }

    /// Solves `position`: its exact value, a best move and a perfect line.
    ///
    /// `known` gives bounds already proven (from a checkpoint, or a solve that stopped), and
    /// `on_bound` hears the bounds each time they close in, with the nodes so far; it may answer
    /// `ControlFlow::Break(())` to stop there ([`Flow`]; `()` goes on). Bounds and the result's
    /// score are for the side to move. `limits` gives a node budget and a hard time, looked at
    /// every few thousand nodes (a solve has no depth: `limits.depth` is not used).
    ///
    /// # Errors
    /// When `stop` is set, the budget is spent or `on_bound` asks to stop, returns the bounds
    /// proven so far and the nodes searched. Given back as `known` to this solver, whose tables
    /// keep what it proved, they let the solve go on where it stopped.
    pub fn solve<F: Flow>(
        &self,
        position: &Position,
        rules: &Rules,
        known: Option<Bounds>,
        limits: Limits,
        stop: Option<&AtomicBool>,
        on_bound: impl FnMut(Bounds, u64) -> F,
    ) -> Result<Info, Stopped> {
        let request = Request { known, question: None, limits, stop };
        self.close_in(position, rules, request, on_bound).map(|(info, _)| info)
    }

    /// Answers whether `position` is worth at least `at_least` to the side to move: returns the
    /// proven bounds, one of which decides the question (the lower at or above it, or the upper
    /// below it: [`Bounds::decides`]), and the solve's information (its score is the bound that
    /// decided, proven only when the bounds meet). One proof where [`Solver::solve`] needs
    /// several: a cluster's tasks ask this (the `kalah-cluster` crate). `known` and `limits` are
    /// as for [`Solver::solve`].
    ///
    /// # Errors
    /// As [`Solver::solve`]: the bounds proven so far and the nodes searched.
    pub fn bound(
        &self,
        position: &Position,
        rules: &Rules,
        known: Option<Bounds>,
        at_least: Seeds,
        limits: Limits,
        stop: Option<&AtomicBool>,
    ) -> Result<(Info, Bounds), Stopped> {
        let request = Request { known, question: Some(at_least), limits, stop };
        self.close_in(position, rules, request, |_, _| {})
    }

    /// Closes in on the value of `position` until the bounds meet, or until they decide the
    /// request's question; returns the information and the bounds.
    fn close_in<F: Flow>(
        &self,
        position: &Position,
        rules: &Rules,
        request: Request,
        mut on_bound: impl FnMut(Bounds, u64) -> F,
    ) -> Result<(Info, Bounds), Stopped> {
        let started = crate::time::now();
        let watch = Watch::new(started, &request.limits, request.stop);
        // The proofs' values are relative to the stores, the caller's are the final difference.
        let frame = Frame::of(position);
        let left = i32::from(position.seeds_in_houses());
        let (mut lower, mut upper) =
            request.known.map_or((-left, left), |known| (frame.relative(known.lower), frame.relative(known.upper)));
        lower = lower.max(-left);
        upper = upper.min(left);
        let stopped = |lower: i32, upper: i32, nodes: u64| Stopped { bounds: frame.bounds(lower, upper), nodes };
        self.searched.store(0, Ordering::Relaxed);
        let question = request.question.map(|q| frame.relative(q));
        let answered = |lower: i32, upper: i32| question.is_some_and(|q| lower >= q || upper < q);
        // A question answered: the bound that answers it, with the solve's information.
        let answer = |lower: i32, upper: i32, best: Option<Move>, nodes: u64| {
            let value = if question.is_some_and(|q| upper < q) { upper } else { lower };
            let info = Info {
                depth: 0,
                score: frame.score(value, lower == upper),
                best: if value == lower { best } else { None },
                pv: Vec::new(),
                nodes,
                elapsed: started.elapsed(),
            };
            (info, frame.bounds(lower, upper))
        };
        // A question the known bounds already answer needs no search.
        if answered(lower, upper) {
            return Ok(answer(lower, upper, None, 0));
        }
        let mut estimate_limits = request.limits;
        let depth = self.estimate_depth.unwrap_or(if left >= DEEP_ESTIMATE_SEEDS {
            DEEP_ESTIMATE_DEPTH
        } else {
            ESTIMATE_DEPTH
        });
        estimate_limits.depth = Some(depth);
        let estimate = self.engine.search(position, rules, estimate_limits, request.stop, |_| {});
        if estimate.score.is_exact() || estimate.best.is_none() {
            let value = estimate.score.whole_seeds();
            return Ok((estimate, Bounds::exact(value)));
        }
        let nodes = &self.searched;
        nodes.store(estimate.nodes, Ordering::Relaxed);
        if watch.expired(estimate.nodes) {
            return Err(stopped(lower, upper, estimate.nodes));
        }
        let halt = AtomicBool::new(false);
        let mut prover = self.prover(rules, &halt, &watch, nodes);
        prover.layout = Layout::of(rules, position);
        prover.hint_plies = HINT_PLIES * depth;
        let key = prover.key(position);
        // Exact values are whole seeds: the estimate's, its fraction dropped, is the first guess.
        let mut guess = frame.relative(estimate.score.whole_seeds());
        let mut best = estimate.best;
        while lower < upper && !answered(lower, upper) {
            guess = question.unwrap_or(guess).clamp(lower, upper);
            let beta = if guess == lower { guess + 1 } else { guess };
            self.testing.store(frame.seeds(beta).0, Ordering::Relaxed);
            let (value, root_best) = self.prove(&mut prover, position, key, beta);
            self.testing.store(i32::MIN, Ordering::Relaxed);
            if halt.load(Ordering::Relaxed) {
                return Err(stopped(lower, upper, nodes.load(Ordering::Relaxed)));
            }
            if value >= beta {
                lower = value;
                best = root_best.or(best);
            } else {
                upper = value;
            }
            guess = value;
            if on_bound(frame.bounds(lower, upper), nodes.load(Ordering::Relaxed)).flow().is_break() {
                return Err(stopped(lower, upper, nodes.load(Ordering::Relaxed)));
            }
        }
        if lower < upper {
            return Ok(answer(lower, upper, best, nodes.load(Ordering::Relaxed)));
        }
        let pv = prover.perfect_line(position, lower, 400);
        if halt.load(Ordering::Relaxed) {
            return Err(stopped(lower, upper, nodes.load(Ordering::Relaxed)));
        }
        let info = Info {
            depth: pv.len() as u32,
            score: frame.score(lower, true),
            best: pv.first().copied().or(best),
            pv,
            nodes: nodes.load(Ordering::Relaxed),
            elapsed: started.elapsed(),
        };
        Ok((info, frame.bounds(lower, upper)))
    }

    fn prover<'a>(
        &'a self,
        rules: &'a Rules,
        stop: &'a AtomicBool,
        watch: &'a Watch<'a>,
        nodes: &'a AtomicU64,
    ) -> Prover<'a> {
        Prover {
            rules,
            proofs: &self.proofs,
            hints: self.engine.table(),
            hint_plies: HINT_PLIES * self.estimate_depth.unwrap_or(ESTIMATE_DEPTH),
            oracle: self.engine.options().oracle.as_deref(),
            stop,
            watch,
            quit: None,
            stopping: false,
            nodes,
            local: 0,
            busy: &self.busy,
            path: Vec::new(),
            unwind: None,
            shared: self.busy.is_shared(),
            // The database answers every board of its seeds or fewer: the nodes searched start
            // above it.
            share_seeds: match self.engine.options().oracle.as_ref().map_or(0, |o| o.board_seeds()) {
                0 => SHARE_SEEDS,
                seeds => seeds as i32 + SHARE_ABOVE_DATABASE,
            },
            root_best: None,
            layout: None,
            oracle_seeds: self.engine.options().oracle.as_ref().map_or(0, |o| o.board_seeds()),
            kids: vec![Kids::BLANK; 64],
            board_hint: usize::MAX,
        }
    }

    /// Proves whether `position`'s value is at least `beta`, with all threads: (fail-soft bound, best move).
    fn prove(&self, main: &mut Prover, position: &Position, key: u64, beta: i32) -> (i32, Option<Move>) {
        if self.threads == 1 {
            main.root_best = None;
            let value = main.test(position, key, beta, 0);
            main.flush();
            return (value, main.root_best);
        }
        // The helpers quit once the main thread has its answer; their results are in the table.
        let quit = AtomicBool::new(false);
        std::thread::scope(|scope| {
            for _ in 1..self.threads {
                let quit = &quit;
                let (rules, stop, watch, nodes) = (main.rules, main.stop, main.watch, main.nodes);
                let (layout, hint_plies) = (main.layout, main.hint_plies);
                scope.spawn(move || {
                    let mut helper = self.prover(rules, stop, watch, nodes);
                    helper.quit = Some(quit);
                    helper.layout = layout;
                    helper.hint_plies = hint_plies;
                    helper.test(position, key, beta, 0);
                    helper.flush();
                });
            }
            main.root_best = None;
            let value = main.test(position, key, beta, 0);
            main.flush();
            quit.store(true, Ordering::Relaxed);
            (value, main.root_best)
        })
    }
}

/// What a solve is asked: the bounds known already, the question if it answers one, its limits
/// and the caller's stop flag.
struct Request<'a> {
    known: Option<Bounds>,
    question: Option<Seeds>,
    limits: Limits,
    stop: Option<&'a AtomicBool>,
}

/// The conversion between the proofs' values, relative to the stores (what the mover gains from
/// the position on, the unit of the proof table), and the caller's: the final store difference
/// for the side to move.
#[derive(Clone, Copy)]
struct Frame {
    /// The mover's store minus the opponent's at the root, in seeds.
    stores: i32,
}

impl Frame {
    fn of(position: &Position) -> Frame {
        Frame { stores: position.store_difference() * position.mover().sign() }
    }

    /// Returns the caller's value of the relative value `relative`.
    fn seeds(self, relative: i32) -> Seeds {
        Seeds(self.stores + relative)
    }

    /// Returns the relative value of the caller's `value`.
    fn relative(self, value: Seeds) -> i32 {
        value.0 - self.stores
    }

    /// Returns the caller's bounds of the relative bounds `lower` and `upper`.
    fn bounds(self, lower: i32, upper: i32) -> Bounds {
        Bounds::new(self.seeds(lower), self.seeds(upper))
    }

    /// Returns the caller's score of the relative value `relative`, proven when `exact`.
    fn score(self, relative: i32, exact: bool) -> Score {
        Score::new(self.seeds(relative).hundredths(), exact)
    }
}

/// One thread's proof search.
struct Prover<'a> {
    rules: &'a Rules,
    proofs: &'a ProofTable,
    hints: &'a Table,
    /// The deepest ply at which the estimate's table may hold a position.
    hint_plies: u32,
    oracle: Option<&'a dyn Oracle>,
    /// Set when the solve must end (by the watch of any thread): every thread's proof ends.
    stop: &'a AtomicBool,
    /// The solve's budget and the caller's flag, looked at whenever a thread adds up its nodes.
    watch: &'a Watch<'a>,
    /// A helper's signal that the main thread is done with this proof.
    quit: Option<&'a AtomicBool>,
    /// The stop and quit flags as the last flush read them: every node asks, and a field of
    /// its own spares it two atomic loads; another thread's stop or quit is seen within
    /// [`CHECK_EVERY`] nodes, as the solve's budget is.
    stopping: bool,
    nodes: &'a AtomicU64,
    local: u64,
    /// The solver's table of nodes being searched (empty with one thread).
    busy: &'a Busy,
    /// The shared nodes on this thread's path, root first: (key, β). Another thread may decide
    /// one of them; then the search below it is wasted and this thread goes back to it.
    path: Vec<(u64, i32)>,
    /// The index in `path` of a node another thread decided, which this thread unwinds to.
    unwind: Option<usize>,
    /// [`Busy::is_shared`], read once: every node asks.
    shared: bool,
    /// Nodes of at least this many seeds are shared with the other threads ([`SHARE_SEEDS`]).
    share_seeds: i32,
    root_best: Option<Move>,
    /// The byte board's rules, when small nodes are searched on it.
    layout: Option<Layout>,
    /// The most seeds of a position the oracle may hold (0 without one): larger byte boards are
    /// not offered to it.
    oracle_seeds: u32,
    /// The children of the byte board's nodes under search, one list a depth: a node fills its
    /// own instead of zeroing a new list on the stack each time.
    kids: Vec<Kids>,
    /// The estimate's move in the position [`Prover::test_any`] hands to the byte board, as a
    /// house (`usize::MAX` for none): the first board node is the only one whose key in the
    /// estimate's table is known (the table keys the whole position, which the board does not
    /// keep). Kalah(6,5) with the 32-seed database: "at least +10" after 2.9 M nodes instead of
    /// 28.7 M (docs/measurements.md, 2026-11-29).
    board_hint: usize,
}

/// What the enhanced transposition cut-off found ([`Prover::board_etc`]).
enum Etc {
    /// A child proves the cut-off: (its value, the house of its move).
    Cut(i32, usize),
    /// No child reaches β: the most any of them can be worth.
    Short(i32),
    /// The children must be searched.
    Search,
}

/// A child on the byte board, as its node's move generation leaves it for the search.
#[derive(Clone, Copy)]
struct Kid {
    board: Board,
    /// The child's table key, or for a child the database holds its ticket.
    key: u64,
    /// What the move puts in the mover's store (relative to the opponent's).
    gain: i32,
    /// Seeds in the child's houses.
    seeds: u32,
    /// The mover's house sown (0-based).
    house: u8,
    /// The same player moves again.
    again: bool,
}

/// The children of one node on the byte board.
#[derive(Clone, Copy)]
struct Kids {
    /// The children sown, in the order they were sown.
    list: [Kid; 12],
    /// The children to search, in search order: (order, index in `list`).
    order: [(i32, u8); 12],
    /// The children the database holds, by index in `list`.
    held: [u8; 12],
}

impl Kids {
    const BLANK: Kids = Kids {
        list: [Kid { board: Board::EMPTY, key: 0, gain: 0, seeds: 0, house: 0, again: false }; 12],
        order: [(0, 0); 12],
        held: [0; 12],
    };
}

/// A child in the move list.
#[derive(Clone, Copy)]
struct Child {
    mv: Move,
    position: Position,
    key: u64,
    /// What the move puts in the mover's store (in whole seeds, relative to the opponent's).
    gain: i32,
    /// The same player moves again.
    again: bool,
    order: i32,
    /// Bounds on the child's own value known before searching it.
    known: Option<(i32, i32)>,
    /// The oracle's (the endgame database's) ticket for the child's value, if it holds it.
    stored: Option<u64>,
}

impl Prover<'_> {
    /// Returns the table key: the houses alone, unless the stores can end the game; seen from
    /// the mover when the byte board is in use, so that its keys and these agree.
    #[inline]
    fn key(&self, position: &Position) -> u64 {
        if let Some(layout) = &self.layout {
            layout.key(&layout.board(position))
        } else if self.rules.majority_ends {
            position.key()
        } else {
            position.houses_key()
        }
    }

    /// Adds this thread's nodes to the solve's, and stops the solve if its watch says so.
    fn flush(&mut self) {
        let nodes = self.nodes.fetch_add(self.local, Ordering::Relaxed) + self.local;
        self.proofs.worked(self.local);
        self.local = 0;
        if self.watch.expired(nodes) {
            self.stop.store(true, Ordering::Relaxed);
        }
        self.stopping = self.flags();
        if !self.stopping && self.unwind.is_none() {
            self.unwind = self.path.iter().position(|&(key, beta)| self.decided(key, beta).is_some());
            self.stopping = self.unwind.is_some();
        }
    }

    /// The bound the table holds for the node of `key` if it decides whether the node is worth
    /// at least `beta`, with the node's best move.
    fn decided(&self, key: u64, beta: i32) -> Option<(i32, Option<Move>)> {
        let e = self.proofs.probe(key)?;
        let (lower, upper) = (i32::from(e.lower), i32::from(e.upper));
        if lower >= beta {
            Some((lower, e.best))
        } else if upper < beta {
            Some((upper, None))
        } else {
            None
        }
    }

    /// The stop and quit flags as they are now.
    fn flags(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.quit.is_some_and(|q| q.load(Ordering::Relaxed))
    }

    /// Marks a shared node as being searched by this thread: returns its index in the path.
    #[inline]
    fn enter(&mut self, key: u64, beta: i32) -> usize {
        self.busy.enter(key);
        self.path.push((key, beta));
        self.path.len() - 1
    }

    /// Ends this thread's search of a shared node.
    #[inline]
    fn leave(&mut self, key: u64) {
        self.busy.leave(key);
        self.path.pop();
    }

    /// After a halt seen in the shared node at `index` of the path: tells whether the halt was
    /// this thread's unwinding to that node (which another thread decided), and then clears it.
    #[inline]
    fn unwound_to(&mut self, index: usize) -> bool {
        if self.unwind != Some(index) {
            return false;
        }
        self.unwind = None;
        self.stopping = self.flags();
        !self.stopping
    }

    /// Tells whether the proof must end: the flags as the last [`Prover::flush`] read them.
    #[inline]
    fn halted(&self) -> bool {
        self.stopping
    }

    /// The null-window proof: returns a value `v` with `v >= beta` meaning "the value is at least
    /// `v`" and `v < beta` meaning "the value is at most `v`" (fail-soft), relative to the stores.
    fn test(&mut self, position: &Position, key: u64, beta: i32, ply: u32) -> i32 {
        self.local += 1;
        if self.local >= CHECK_EVERY {
            self.flush();
        }
        if self.halted() {
            return 0;
        }
        let rules = self.rules;
        let me = position.mover();
        let here = position.store_difference() * me.sign();
        if position.is_over(rules) {
            return position.final_difference(rules) * me.sign() - here;
        }
        let left = i32::from(position.seeds_in_houses());
        if beta > left {
            return left;
        }
        if beta <= -left {
            return -left;
        }
        if ply > 0 {
            if let Some(gain) = self.oracle.and_then(|o| o.probe(position)) {
                return gain;
            }
        }
        let entry = self.proofs.probe(key);
        let (mut lower, mut upper) = (-left, left);
        if let Some(e) = entry {
            lower = lower.max(i32::from(e.lower));
            upper = upper.min(i32::from(e.upper));
            if ply > 0 && lower >= beta {
                return lower;
            }
            if ply > 0 && upper < beta {
                return upper;
            }
        }
        // The estimate's table holds positions near the root only: below them a look would be a
        // cache miss for nothing.
        let hint = if entry.and_then(|e| e.best).is_none() && ply <= self.hint_plies {
            let hint_key = if self.layout.is_some() { position.houses_key() } else { key };
            self.hints.probe(hint_key).and_then(|e| e.best)
        } else {
            None
        };
        let (children, n) = self.children(position, entry.and_then(|e| e.best).or(hint), left >= ETC_SEEDS);
        // What is known of the children before searching any (finished games and database
        // positions always, the proof table's bounds in large nodes): one may already prove the
        // cut-off, or all together may already show the node falls short.
        let mut bound_from_children = i32::MIN;
        for child in &children[..n] {
            let (floor, reach) = match child.known {
                Some((lo, hi)) if child.again => (child.gain + lo, child.gain + hi),
                Some((lo, hi)) => (child.gain - hi, child.gain - lo),
                None => (i32::MIN, left),
            };
            bound_from_children = bound_from_children.max(reach);
            if floor >= beta && ply > 0 {
                return floor;
            }
        }
        if bound_from_children < beta && ply > 0 {
            return bound_from_children;
        }
        let share = self.shared && left >= self.share_seeds;
        let index = if share { self.enter(key, beta) } else { usize::MAX };
        let started = self.local + self.nodes.load(Ordering::Relaxed);
        let mut best = i32::MIN;
        // A child another thread is searching right now is put off to a second pass (all but the
        // first, which every thread searches): by then its result is often in the table.
        let mut deferred = [false; 12];
        for pass in 0..2 {
            for (i, child) in children[..n].iter().enumerate() {
                if pass == 1 && !deferred[i] {
                    continue;
                }
                let exact = matches!(child.known, Some((lo, hi)) if lo == hi);
                if pass == 0 && share && i > 0 && !exact && self.busy.contains(child.key) {
                    deferred[i] = true;
                    continue;
                }
                let value = match child.known {
                    // An exact value (a finished game or the database) needs no search.
                    Some((lo, hi)) if lo == hi => {
                        if child.again {
                            child.gain + lo
                        } else {
                            child.gain - lo
                        }
                    }
                    _ if child.again => {
                        child.gain + self.test_any(&child.position, child.key, beta - child.gain, ply + 1)
                    }
                    _ => child.gain - self.test_any(&child.position, child.key, child.gain - beta + 1, ply + 1),
                };
                if self.halted() {
                    if share {
                        self.leave(key);
                        if self.unwound_to(index) {
                            // Another thread decided this node: its bound is in the table.
                            if let Some((value, best)) = self.decided(key, beta) {
                                if ply == 0 && value >= beta {
                                    self.root_best = best;
                                }
                                return value;
                            }
                            return self.test(position, key, beta, ply);
                        }
                    }
                    return 0;
                }
                if value > best {
                    best = value;
                }
                if value >= beta {
                    if ply == 0 {
                        self.root_best = Some(child.mv);
                    }
                    lower = lower.max(value);
                    self.store(key, lower, upper, Some(child.mv), started);
                    if share {
                        self.leave(key);
                    }
                    return value;
                }
            }
            if !deferred.contains(&true) {
                break;
            }
        }
        self.close(key, lower, upper.min(best), entry.and_then(|e| e.best), started, share);
        best
    }

    /// [`Prover::test`] of a position below the root: on the byte board when there is one.
    #[inline]
    fn test_any(&mut self, position: &Position, key: u64, beta: i32, ply: u32) -> i32 {
        match self.layout {
            Some(layout) => {
                self.board_hint = if ply <= self.hint_plies {
                    self.hints.probe(position.houses_key()).and_then(|e| e.best).map_or(usize::MAX, Move::index)
                } else {
                    usize::MAX
                };
                let (board, layout) = (layout.board(position), &layout);
                let (left, start) = (board.seeds(), &board);
                match layout.compiled() {
                    1 => self.test_board::<1>(layout, start, left, key, beta, 0),
                    2 => self.test_board::<2>(layout, start, left, key, beta, 0),
                    3 => self.test_board::<3>(layout, start, left, key, beta, 0),
                    4 => self.test_board::<4>(layout, start, left, key, beta, 0),
                    5 => self.test_board::<5>(layout, start, left, key, beta, 0),
                    6 => self.test_board::<6>(layout, start, left, key, beta, 0),
                    7 => self.test_board::<7>(layout, start, left, key, beta, 0),
                    _ => self.test_board::<0>(layout, start, left, key, beta, 0),
                }
            }
            None => self.test(position, key, beta, ply),
        }
    }

    /// [`Prover::test`] on the byte board, for every node below the root under the rules the
    /// board plays: no evaluation, and no heuristic hint but the estimate's move at the first
    /// board node ([`Prover::board_hint`], where the table has none); finished games and database positions
    /// first (read, not searched), then moves that give another turn, then the others by what
    /// they put in the store less half a seed for each reply they leave. Keys agree with
    /// [`Prover::key`]; `left` is the seeds in the board's houses (the sowing counts them), and
    /// `depth` the node's distance from the first board node, which picks its list of children.
    /// `M` is the layout's houses a side when it is narrow and 0 when not ([`Layout::compiled`]):
    /// the search is compiled for each.
    fn test_board<const M: usize>(
        &mut self,
        layout: &Layout,
        board: &Board,
        left: i32,
        key: u64,
        beta: i32,
        depth: usize,
    ) -> i32 {
        self.local += 1;
        if self.local >= CHECK_EVERY {
            self.flush();
        }
        if self.halted() {
            return 0;
        }
        if beta > left {
            return left;
        }
        if beta <= -left {
            return -left;
        }
        let entry = self.proofs.probe(key);
        let (mut lower, mut upper) = (-left, left);
        let mut first = usize::MAX;
        if let Some(e) = entry {
            lower = lower.max(i32::from(e.lower));
            upper = upper.min(i32::from(e.upper));
            if lower >= beta {
                return lower;
            }
            if upper < beta {
                return upper;
            }
            first = e.best.map_or(usize::MAX, Move::index);
        }
        let started = self.local + self.nodes.load(Ordering::Relaxed);
        let mut best = i32::MIN;
        let share = self.shared && left >= self.share_seeds;
        let mut moves = layout.moves_in::<M>(board);
        // The first board node, below the root, has the estimate's move when the table has none:
        // the move the proofs of lower bounds most need right (the root's moves are ordered by
        // the estimate too).
        if depth == 0 && first == usize::MAX && self.board_hint < layout.houses() && moves >> self.board_hint & 1 != 0 {
            first = self.board_hint;
        }
        // The move tried first, the table's or else the one nearest the store that gives another
        // turn, is known without sowing: where no other thread takes part, it is sown and
        // searched before the others are sown (and before the enhanced transposition cut-off
        // looks at them), which a cut-off then spares. Kalah(6,3): 2.22e9 instructions before;
        // 1.93e9 in nodes of fewer than 16 seeds alone, 1.81e9 in all; staging the other moves
        // that give another turn too cost more than it saved.
        if !share {
            let house = if first < layout.houses() { first } else { layout.first_again_in::<M>(board) };
            if house < layout.houses() {
                moves ^= 1 << house;
                let step = layout.sow_in::<M>(board, house, left as u32);
                let held = if step.over || step.seeds > self.oracle_seeds {
                    None
                } else {
                    self.oracle
                        .and_then(|o| o.prefetch_board(&layout.cells(&step.board), step.seeds).map(|t| o.read(t)))
                };
                let value = match held {
                    _ if step.over => step.gain,
                    Some(value) if step.again => step.gain + value,
                    Some(value) => step.gain - value,
                    None => {
                        let child_key = layout.key_in::<M>(&step.board);
                        let seeds = step.seeds as i32;
                        if step.again {
                            step.gain
                                + self.test_board::<M>(
                                    layout,
                                    &step.board,
                                    seeds,
                                    child_key,
                                    beta - step.gain,
                                    depth + 1,
                                )
                        } else {
                            step.gain
                                - self.test_board::<M>(
                                    layout,
                                    &step.board,
                                    seeds,
                                    child_key,
                                    step.gain - beta + 1,
                                    depth + 1,
                                )
                        }
                    }
                };
                if self.halted() {
                    return 0;
                }
                if value >= beta {
                    lower = lower.max(value);
                    self.store(key, lower, upper, Some(Move::from_index(house)), started);
                    return value;
                }
                best = value;
            }
        }
        if depth >= self.kids.len() {
            self.kids.resize(depth + 1, Kids::BLANK);
        }
        // Children to search, sorted by insertion as they come (`kids.order[..n]`), and the
        // database's children among them (`kids.held[..held]`).
        let (mut n, mut held) = (0, 0);
        let kids = &mut self.kids[depth];
        // Houses nearest the store first: of two moves that give another turn, the nearer one
        // leaves the other's count as it is.
        while moves != 0 {
            let house = (31 - moves.leading_zeros()) as usize;
            moves ^= 1 << house;
            let step = layout.sow_in::<M>(board, house, left as u32);
            if step.over {
                // A finished game is worth what the move gained: no search.
                if step.gain >= beta {
                    lower = lower.max(step.gain);
                    self.store(key, lower, upper, Some(Move::from_index(house)), started);
                    return step.gain;
                }
                best = best.max(step.gain);
                continue;
            }
            let i = n + held;
            if step.seeds <= self.oracle_seeds {
                if let Some(ticket) = self.oracle.and_then(|o| o.prefetch_board(&layout.cells(&step.board), step.seeds))
                {
                    kids.list[i] = Kid {
                        board: step.board,
                        key: ticket,
                        gain: step.gain,
                        seeds: step.seeds,
                        house: house as u8,
                        again: step.again,
                    };
                    kids.held[held] = i as u8;
                    held += 1;
                    continue;
                }
            }
            // Asked for now, the children's entries arrive while the others are sown.
            let child_key = layout.key_in::<M>(&step.board);
            self.proofs.prefetch(child_key);
            let order = if house == first {
                order::TABLE_MOVE
            } else if step.again {
                order::again(step.gain)
            } else {
                order::fastest(step.gain * SEED, layout.count_moves_in::<M>(&step.board))
            };
            kids.list[i] = Kid {
                board: step.board,
                key: child_key,
                gain: step.gain,
                seeds: step.seeds,
                house: house as u8,
                again: step.again,
            };
            let mut j = n;
            while j > 0 && kids.order[j - 1].0 < order {
                kids.order[j] = kids.order[j - 1];
                j -= 1;
            }
            kids.order[j] = (order, i as u8);
            n += 1;
        }
        // A database position is worth what the database says: no search, as a finished game.
        if let Some(oracle) = self.oracle {
            for k in 0..held {
                let kid = self.kids[depth].list[usize::from(self.kids[depth].held[k])];
                let value = oracle.read(kid.key);
                let value = if kid.again { kid.gain + value } else { kid.gain - value };
                if value >= beta {
                    lower = lower.max(value);
                    self.store(key, lower, upper, Some(Move::from_index(usize::from(kid.house))), started);
                    return value;
                }
                best = best.max(value);
            }
        }
        // Enhanced transposition cut-off, as in `test`.
        if left >= BOARD_ETC_SEEDS {
            match self.board_etc(&self.kids[depth], n, beta, best) {
                Etc::Cut(floor, house) => {
                    lower = lower.max(floor);
                    self.store(key, lower, upper, Some(Move::from_index(house)), started);
                    return floor;
                }
                Etc::Short(reach_all) => {
                    upper = upper.min(reach_all);
                    self.store(key, lower, upper, entry.and_then(|e| e.best), started);
                    return reach_all;
                }
                Etc::Search => {}
            }
        }
        let index = if share { self.enter(key, beta) } else { usize::MAX };
        // As in `test`: a child another thread is searching now waits for a second pass.
        // Bit i: the i-th child in search order waits for the second pass.
        let mut deferred = 0u16;
        for pass in 0..2 {
            for i in 0..n {
                if pass == 1 && deferred >> i & 1 == 0 {
                    continue;
                }
                // A copy: the search below reuses the lists of the depths under this one.
                let kid = self.kids[depth].list[usize::from(self.kids[depth].order[i].1)];
                if pass == 0 && share && i > 0 && self.busy.contains(kid.key) {
                    deferred |= 1 << i;
                    continue;
                }
                let value = if kid.again {
                    kid.gain
                        + self.test_board::<M>(
                            layout,
                            &kid.board,
                            kid.seeds as i32,
                            kid.key,
                            beta - kid.gain,
                            depth + 1,
                        )
                } else {
                    kid.gain
                        - self.test_board::<M>(
                            layout,
                            &kid.board,
                            kid.seeds as i32,
                            kid.key,
                            kid.gain - beta + 1,
                            depth + 1,
                        )
                };
                if self.halted() {
                    if share {
                        self.leave(key);
                        if self.unwound_to(index) {
                            // Another thread decided this node: searched again, it is read from
                            // the table.
                            return self.test_board::<M>(layout, board, left, key, beta, depth);
                        }
                    }
                    return 0;
                }
                best = best.max(value);
                if value >= beta {
                    lower = lower.max(value);
                    self.store(key, lower, upper, Some(Move::from_index(usize::from(kid.house))), started);
                    if share {
                        self.leave(key);
                    }
                    return value;
                }
            }
            if !share || deferred == 0 {
                break;
            }
        }
        self.close(key, lower, upper.min(best), entry.and_then(|e| e.best), started, share);
        best
    }

    /// The enhanced transposition cut-off of a byte board's node whose children to search are
    /// `kids.order[..n]` and whose best value so far is `best`: what the table knows of them
    /// may prove the cut-off or show the node falls short. A function of its own: few nodes
    /// are large enough for it, and inlined it had cost the small ones registers.
    #[inline(never)]
    fn board_etc(&self, kids: &Kids, n: usize, beta: i32, best: i32) -> Etc {
        let mut reach_all = best;
        for &(_, i) in &kids.order[..n] {
            let kid = &kids.list[usize::from(i)];
            let (floor, reach) = match self.proofs.probe(kid.key) {
                Some(e) if kid.again => (kid.gain + i32::from(e.lower), kid.gain + i32::from(e.upper)),
                Some(e) => (kid.gain - i32::from(e.upper), kid.gain - i32::from(e.lower)),
                None => (i32::MIN, kid.gain + kid.seeds as i32),
            };
            if floor >= beta {
                return Etc::Cut(floor, usize::from(kid.house));
            }
            reach_all = reach_all.max(reach);
        }
        if reach_all < beta {
            Etc::Short(reach_all)
        } else {
            Etc::Search
        }
    }

    /// Ends a node whose children are all searched: stores its bounds and, when the threads share
    /// work, says that no thread is searching it any more.
    #[inline]
    fn close(&mut self, key: u64, lower: i32, upper: i32, best: Option<Move>, started: u64, share: bool) {
        self.store(key, lower, upper, best, started);
        if share {
            self.leave(key);
        }
    }

    #[inline(always)]
    fn store(&mut self, key: u64, lower: i32, upper: i32, best: Option<Move>, started: u64) {
        let spent = (self.local + self.nodes.load(Ordering::Relaxed)).saturating_sub(started).max(1);
        let work = (64 - spent.leading_zeros()) as u8;
        self.proofs.store(key, Proof { lower: lower as i16, upper: upper as i16, best, work });
    }

    /// Returns the children in search order, with what is known of their values before any
    /// search: exact for finished games and database positions, and the proof table's bounds
    /// when `look_up`. Exact children come first (they cost nothing to search), then the
    /// table's move, then the others by the evaluation after the move.
    fn children(&self, position: &Position, first: Option<Move>, look_up: bool) -> ([Child; 12], usize) {
        let me = position.mover();
        let here = position.store_difference() * me.sign();
        let blank = Child {
            mv: Move::from_index(0),
            position: *position,
            key: 0,
            gain: 0,
            again: false,
            order: 0,
            known: None,
            stored: None,
        };
        let mut list = [blank; 12];
        let mut n = 0;
        // Sow every move and ask for the memory each child's value lies in before reading any:
        // these are random accesses to large tables, and asked for together they overlap.
        for mv in position.legal_moves() {
            let mut child = *position;
            child.sow(self.rules, mv);
            let key = self.key(&child);
            let known = if child.is_over(self.rules) {
                let settled = (child.final_difference(self.rules) - child.store_difference()) * child.mover().sign();
                Some((settled, settled))
            } else {
                None
            };
            let stored = if known.is_none() { self.oracle.and_then(|o| o.prefetch(&child)) } else { None };
            let gain = child.store_difference() * me.sign() - here;
            let again = child.mover() == me;
            // Evaluate while the memory asked for is on its way: the evaluation orders the
            // children left to search (a third fewer nodes than extra moves, captures and history
            // on Kalah(5,4)), and computing it here, before the lookups below wait for memory,
            // took 10% off a one-thread solve of Kalah(6,4) with the 25-seed database.
            let order = if known.is_none() && stored.is_none() {
                self.proofs.prefetch(key);
                let replies = if again { 0 } else { child.legal_moves().len() as u32 };
                order::fastest(evaluate(&child, self.rules, me, &Weights::TUNED), replies)
            } else {
                0
            };
            list[n] = Child { mv, position: child, key, gain, again, order, known, stored };
            n += 1;
        }
        for child in &mut list[..n] {
            if let Some(ticket) = child.stored {
                let value = self.oracle.map(|o| o.read(ticket));
                child.known = value.map(|v| (v, v));
            } else if child.known.is_none() && look_up {
                child.known = self.proofs.probe(child.key).map(|e| (i32::from(e.lower), i32::from(e.upper)));
            }
            child.order = match child.known {
                Some((lo, hi)) if lo == hi => order::KNOWN,
                _ if Some(child.mv) == first => order::TABLE_MOVE,
                _ => child.order,
            };
        }
        order::sort(&mut list[..n], |child| child.order);
        (list, n)
    }

    /// Returns a line of perfect play from `position`, whose exact relative value is `value`: at
    /// each step the first move (in search order) that two null-window proofs show keeps the value.
    fn perfect_line(&mut self, position: &Position, value: i32, limit: usize) -> Vec<Move> {
        let mut line = Vec::new();
        let (mut p, mut v) = (*position, value);
        while line.len() < limit && !p.is_over(self.rules) {
            let first = self.proofs.probe(self.key(&p)).and_then(|e| e.best);
            let (children, n) = self.children(&p, first, false);
            let mut next = None;
            for child in &children[..n] {
                // The child's own value must be v - gain (same mover) or gain - v (the opponent's).
                let target = if child.again { v - child.gain } else { child.gain - v };
                let keeps = if child.again {
                    self.test_any(&child.position, child.key, target, 1) >= target
                } else {
                    self.test_any(&child.position, child.key, target + 1, 1) <= target
                };
                if self.halted() {
                    self.flush();
                    return line;
                }
                if keeps {
                    next = Some((child.mv, child.position, target));
                    break;
                }
            }
            let Some((mv, child, target)) = next else { break };
            line.push(mv);
            p = child;
            v = target;
        }
        self.flush();
        line
    }
}

#[cfg(test)]
mod tests {
    use std::ops::ControlFlow;

    use super::*;

    /// A solver whose estimate is a single ply, so that even small games are solved by the proofs.
    fn solver() -> Solver {
        Solver::new(Options { table_bytes: 4 << 20, ..Options::default() }).with_estimate_depth(1)
    }

    #[test]
    fn the_perfect_line_reaches_the_value() {
        let rules = Rules::standard(4, 3).unwrap();
        let start = Position::start(&rules);
        let solved = solver().solve(&start, &rules, None, Limits::default(), None, |_, _| {}).unwrap();
        let mut p = start;
        for &mv in &solved.pv {
            p = p.play(&rules, mv).unwrap().0;
        }
        assert!(p.is_over(&rules));
        assert_eq!(p.final_difference(&rules) * 100, solved.score.hundredths());
    }

    #[test]
    fn a_solve_gives_the_value_and_a_perfect_line_that_reaches_it() {
        for (preset, m, n, value) in
            [("standard", 4, 3, 6), ("empty-capture", 4, 4, 2), ("standard", 3, 4, 2), ("standard", 5, 2, 2)]
        {
            let rules = Rules::preset(preset, m, n).unwrap();
            let solver = Solver::new(Options { table_bytes: 1 << 22, ..Options::default() });
            let start = Position::start(&rules);
            let info = solver.solve(&start, &rules, None, Limits::default(), None, |_, _| {}).unwrap();
            assert_eq!(info.score.hundredths(), value * 100, "{rules}");
            let end = info.pv.iter().fold(start, |p, &mv| p.play(&rules, mv).unwrap().0);
            assert!(end.is_over(&rules), "{rules}: the line reaches the end");
            assert_eq!(end.final_difference(&rules), value, "{rules}");
        }
    }

    #[test]
    fn a_stopped_solve_reports_the_bounds_so_far() {
        let rules = Rules::standard(6, 4).unwrap();
        let stop = AtomicBool::new(true);
        let start = Position::start(&rules);
        let stopped = solver().solve(&start, &rules, None, Limits::default(), Some(&stop), |_, _| {}).unwrap_err();
        assert_eq!(stopped.bounds, Bounds::new(Seeds(-48), Seeds(48)));
    }

    #[test]
    fn a_node_budget_stops_a_solve_soon_after_it_is_spent() {
        let rules = Rules::standard(6, 4).unwrap();
        let start = Position::start(&rules);
        for budget in [1, 50_000, 300_000] {
            let limits = Limits { nodes: Some(budget), ..Limits::default() };
            let stopped = solver().solve(&start, &rules, None, limits, None, |_, _| {}).unwrap_err();
            // Each thread adds up its nodes every CHECK_EVERY; then every ply ends at once.
            assert!(stopped.nodes >= budget && stopped.nodes < budget + CHECK_EVERY + 100, "{budget}: {stopped:?}");
            assert!(stopped.bounds.lower >= Seeds(-48) && stopped.bounds.upper <= Seeds(48));
        }
        // A question as well.
        let limits = Limits { nodes: Some(20_000), ..Limits::default() };
        let stopped = solver().bound(&start, &rules, None, Seeds(10), limits, None).unwrap_err();
        assert!(stopped.nodes < 20_000 + CHECK_EVERY + 100, "{stopped:?}");
    }

    #[test]
    fn a_callback_stops_a_solve_at_a_bound_it_heard() {
        let rules = Rules::standard(5, 4).unwrap();
        let start = Position::start(&rules);
        let mut heard = Vec::new();
        let stopped = solver()
            .solve(&start, &rules, None, Limits::default(), None, |bounds, nodes| {
                heard.push((bounds, nodes));
                ControlFlow::Break(())
            })
            .unwrap_err();
        assert_eq!(heard.len(), 1);
        assert_eq!((stopped.bounds, stopped.nodes), heard[0]);
        assert!(!stopped.bounds.is_exact());
    }

    #[test]
    fn a_solve_in_slices_reaches_the_value_of_one_solve() {
        let rules = Rules::standard(5, 3).unwrap();
        let start = Position::start(&rules);
        let whole = solver().solve(&start, &rules, None, Limits::default(), None, |_, _| {}).unwrap();
        for solver in [solver(), Solver::new(Options { table_bytes: 4 << 20, ..Options::default() })] {
            let limits = Limits { nodes: Some(5_000), ..Limits::default() };
            let mut known = None;
            let mut slices = 0;
            let sliced = loop {
                slices += 1;
                assert!(slices < 10_000, "the slices make progress");
                match solver.solve(&start, &rules, known, limits, None, |_, _| {}) {
                    Ok(info) => break info,
                    Err(stopped) => known = Some(stopped.bounds),
                }
            };
            assert!(slices > 1, "the budget cut the solve");
            assert_eq!(sliced.score, whole.score);
            let end = sliced.pv.iter().fold(start, |p, &mv| p.play(&rules, mv).unwrap().0);
            assert_eq!(Seeds(end.final_difference(&rules)).exact(), whole.score, "a perfect line");
        }
    }

    #[test]
    fn a_question_is_answered_by_one_bound() {
        let rules = Rules::standard(4, 3).unwrap();
        let start = Position::start(&rules);
        let ask = |at_least| solver().bound(&start, &rules, None, Seeds(at_least), Limits::default(), None).unwrap();
        // Kalah(4,3) is +6 for South.
        let (info, bounds) = ask(6);
        assert!(bounds.lower >= Seeds(6) && bounds.decides(Seeds(6)), "{bounds:?}");
        assert_eq!(info.score.whole_seeds(), bounds.lower);
        let (info, bounds) = ask(7);
        assert!(bounds.upper < Seeds(7), "{bounds:?}");
        assert_eq!(info.score.whole_seeds(), bounds.upper);
        // Known bounds that answer it: no search.
        let known = Bounds::new(Seeds(2), Seeds(6));
        let (info, bounds) = solver().bound(&start, &rules, Some(known), Seeds(1), Limits::default(), None).unwrap();
        assert_eq!((info.nodes, bounds, info.score), (0, known, Score::estimate(200)));
    }

    #[test]
    #[cfg(feature = "threads")]
    fn a_thread_goes_back_to_a_node_another_thread_has_decided() {
        // With two threads, nodes of 24 seeds or more are shared: the root of Kalah(6,4) among
        // them, whose proof takes millions of nodes. Another thread's bound for the root, put
        // in the table (here by hand, and beyond what the root is worth, so that only the table
        // can have given it), is seen at this thread's next look, after CHECK_EVERY nodes: the
        // search goes back to the root and answers with it.
        let rules = Rules::standard(6, 4).unwrap();
        let solver = Solver::new(Options { table_bytes: 4 << 20, threads: 2, ..Options::default() });
        let start = Position::start(&rules);
        let (halt, nodes) = (AtomicBool::new(false), AtomicU64::new(0));
        let watch = Watch::new(crate::time::now(), &Limits::default(), None);
        let mut prover = solver.prover(&rules, &halt, &watch, &nodes);
        prover.layout = Layout::of(&rules, &start);
        let key = prover.key(&start);
        let best = Some(Move::from_index(2));
        solver.proofs.store(key, Proof { lower: 40, upper: 48, best, work: 1 });
        let value = prover.test(&start, key, 10, 0);
        prover.flush();
        assert_eq!((value, prover.root_best), (40, best));
        let searched = nodes.load(Ordering::Relaxed);
        assert!((CHECK_EVERY..2 * CHECK_EVERY).contains(&searched), "{searched} nodes");
        assert!(prover.path.is_empty() && prover.unwind.is_none() && !prover.halted());
        // One thread has no other to decide a node for it: it goes on proving the root, here
        // until a budget of three looks stops it.
        let solver = Solver::new(Options { table_bytes: 4 << 20, threads: 1, ..Options::default() });
        let (halt, nodes) = (AtomicBool::new(false), AtomicU64::new(0));
        let limits = Limits { nodes: Some(3 * CHECK_EVERY), ..Limits::default() };
        let watch = Watch::new(crate::time::now(), &limits, None);
        let mut prover = solver.prover(&rules, &halt, &watch, &nodes);
        prover.layout = Layout::of(&rules, &start);
        solver.proofs.store(key, Proof { lower: 40, upper: 48, best, work: 1 });
        assert_ne!(prover.test(&start, key, 10, 0), 40);
        assert!(halt.load(Ordering::Relaxed) && nodes.load(Ordering::Relaxed) >= 3 * CHECK_EVERY);
    }

    #[test]
    fn two_threads_solve_to_the_published_values() {
        for (m, n, value) in [(6, 3, 2), (5, 4, 10)] {
            let rules = Rules::standard(m, n).unwrap();
            let solver = Solver::new(Options { table_bytes: 64 << 20, threads: 2, ..Options::default() });
            let start = Position::start(&rules);
            let info = solver.solve(&start, &rules, None, Limits::default(), None, |_, _| {}).unwrap();
            assert_eq!(info.score.hundredths(), value * 100, "{rules}");
            let end = info.pv.iter().fold(start, |p, &mv| p.play(&rules, mv).unwrap().0);
            assert_eq!(end.final_difference(&rules), value, "{rules}");
        }
    }
}
