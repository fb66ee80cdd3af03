//! The exact solver: the game-theoretic value of a position, a best move and a perfect line.
//!
//! A solve is a series of null-window proofs (MTD(f)): "is the value at least β?", each answered
//! exactly by an alpha-beta search to the end of the game, that close in on the value from the
//! estimate of a short heuristic search. Nothing in a proof depends on a depth or an evaluation,
//! so every result it stores is final and serves every later proof, whatever its β:
//!
//! * the **proof table** keeps, for each position (keyed by its houses: values are relative to
//!   the stores), a proven lower and upper bound on its value and the move that proved the last
//!   cut-off. Its buckets are one cache line of four entries; the entry that cost the fewest nodes
//!   makes room;
//! * **move order** at the root comes from the proof table, then from the heuristic engine's
//!   table (filled by the estimate, which also searches the first moves of the game deeply), then
//!   from the evaluation of the position each move leads to, less a cost for each reply it leaves
//!   the opponent (fastest first: a refutation with fewer replies to search is cheaper to prove);
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
//! Several threads prove together by sharing the proof table. Each searches the same proof, but
//! a node whose child another thread is searching right now puts that child off to the end
//! (the idea of ABDADA), so the threads spread over different subtrees and each finds the
//! others' results in the table when it gets there.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::time::Instant;

use kalah_rules::{Move, Position, Rules};

use crate::board::{Board, Layout, Step};
use crate::busy::Busy;
use crate::eval::{evaluate, Weights, SEED};
use crate::score::Score;
use crate::search::{Engine, Info, Limits, Options, Oracle};
use crate::tt::{read_slot, write_slot, Slot, Table};

/// Depth of the heuristic search whose value is the first guess and whose table orders moves.
const ESTIMATE_DEPTH: u32 = 14;
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
/// searched (ABDADA); smaller subtrees are not worth the bookkeeping.
const SHARE_SEEDS: i32 = 12;
/// What each reply left to the opponent costs a child in the move order, in hundredths of a
/// seed (fastest first). One thread, Kalah(6,4) with the 25-seed database: 44.6 M nodes without
/// it, 24.4 M at 25, 22.4 M at 50, 25.2 M at 75, 42.9 M at 150; empty-capture 42.7 M without,
/// 19.7 M at 30, 17.1 M at 50, 18.3 M at 100.
const REPLY_COST: i32 = 50;
/// On the byte board, nodes with at least this many seeds in the houses look their children up
/// before searching any (the byte board's children are fetched from the table anyway, so the
/// lookups cost less there than in the nodes of [`ETC_SEEDS`]).
const BOARD_ETC_SEEDS: i32 = 16;
/// Order of a move that gives another turn on the byte board: before every other.
const AGAIN_ORDER: i32 = 100_000;

/// Bytes one proof-table entry takes.
pub const PROOF_BYTES: usize = 16;

/// A proven range for a position's value (relative to the stores, in whole seeds).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Proof {
    /// The value is at least this.
    pub lower: i16,
    /// The value is at most this.
    pub upper: i16,
    /// The move that last proved a lower bound, if any.
    pub best: Option<Move>,
    /// Log2 of the nodes it took (0-63): what it would cost to prove again.
    pub work: u8,
}

/// The proof table: proven bounds of positions, shared by the solving threads.
///
/// Entries are the heuristic table's lockless slots ([`crate::tt`]): two words, the key XOR the
/// data and the data, written with relaxed atomics, so that an entry torn by two threads writing
/// at once fails the check on reading and is only a miss. The buckets are the proof table's own:
/// four entries to a cache line, the cheapest to prove again making room (the heuristic table's
/// two-entry buckets cost the proofs more nodes, and its layout fixes the search's signature).
pub struct ProofTable {
    slots: Vec<Slot>,
    /// Buckets of [`WAYS`] slots.
    buckets: u64,
    /// Slots before the first bucket, so that every bucket starts a cache line (the allocator
    /// only aligns the slots to 8 bytes, and a bucket across two lines costs two misses).
    base: usize,
}

/// Entries a bucket holds: four entries of 16 bytes fill a 64-byte cache line.
const WAYS: usize = 4;

impl ProofTable {
    /// Returns an empty table of `bytes` bytes (rounded down to whole buckets; at least 1024 entries).
    pub fn with_bytes(bytes: usize) -> ProofTable {
        // Any number of buckets, not a power of two: `--hash 6144` rounded down to a power of
        // two had left a quarter of the memory asked for unused.
        let buckets = ((bytes / PROOF_BYTES).max(1024) / WAYS).max(1);
        let slots = crate::tt::zeroed_slots((buckets + 1) * WAYS);
        let base = (64 - slots.as_ptr() as usize % 64) % 64 / PROOF_BYTES;
        ProofTable { slots, buckets: buckets as u64, base }
    }

    /// Returns the first slot of `key`'s bucket: the key's high bits scaled to the buckets (the
    /// keys are mixed over all their bits).
    #[inline]
    fn bucket(&self, key: u64) -> usize {
        self.base + ((u128::from(key) * u128::from(self.buckets)) >> 64) as usize * WAYS
    }

    /// Returns the table's size in bytes.
    pub fn bytes(&self) -> usize {
        (self.slots.len() - WAYS) * PROOF_BYTES
    }

    fn pack(proof: &Proof) -> u64 {
        u64::from(proof.lower as u16)
            | u64::from(proof.upper as u16) << 16
            | proof.best.map_or(0, |m| m.index() as u64 + 1) << 32
            | u64::from(proof.work.min(63)) << 36
            | 1 << 42
    }

    /// Returns whether `data` is a word [`ProofTable::pack`] could have written: the tag, a move
    /// number in range and bounds in order.
    #[inline]
    fn well_formed(data: u64) -> bool {
        data >> 42 == 1 && (data >> 32) & 15 <= 12 && data as u16 as i16 <= (data >> 16) as u16 as i16
    }

    #[inline]
    fn unpack(data: u64) -> Option<Proof> {
        if !ProofTable::well_formed(data) {
            return None;
        }
        let best = match (data >> 32) & 15 {
            0 => None,
            n => Some(Move::from_index(n as usize - 1)),
        };
        let (lower, upper) = (data as u16 as i16, (data >> 16) as u16 as i16);
        Some(Proof { lower, upper, best, work: ((data >> 36) & 63) as u8 })
    }

    /// Looks `key` up.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Proof> {
        let bucket = self.bucket(key);
        self.slots[bucket..bucket + WAYS].iter().find_map(|slot| read_slot(slot, key).and_then(ProofTable::unpack))
    }

    /// Stores `proof` for `key`, in its own slot if it has one, else in place of the cheapest.
    #[inline]
    pub fn store(&self, key: u64, proof: Proof) {
        let bucket = self.bucket(key);
        let mut victim = bucket;
        let mut cheapest = u16::MAX;
        for i in bucket..bucket + WAYS {
            if read_slot(&self.slots[i], key).is_some() {
                victim = i;
                break;
            }
            // What the entry cost to prove, read without unpacking it (an empty or torn slot: 0).
            let data = self.slots[i][1].load(Ordering::Relaxed);
            let cost = if ProofTable::well_formed(data) { ((data >> 36) & 63) as u16 + 1 } else { 0 };
            if cost < cheapest {
                cheapest = cost;
                victim = i;
            }
        }
        write_slot(&self.slots[victim], key, ProofTable::pack(&proof));
    }

    /// Calls `f` with every filled slot as (key word, data word), to save the table.
    pub fn for_each(&self, mut f: impl FnMut(u64, u64)) {
        for slot in &self.slots {
            let data = slot[1].load(Ordering::Relaxed);
            if ProofTable::unpack(data).is_some() {
                f(slot[0].load(Ordering::Relaxed), data);
            }
        }
    }

    /// Returns the number of filled slots.
    pub fn filled(&self) -> u64 {
        let mut count = 0;
        self.for_each(|_, _| count += 1);
        count
    }

    /// Stores slots saved by [`ProofTable::for_each`] (from a table of any size); malformed ones are skipped.
    pub fn import(&self, slots: &[(u64, u64)]) {
        for &(key_word, data) in slots {
            if let Some(proof) = ProofTable::unpack(data) {
                self.store(key_word ^ data, proof);
            }
        }
    }

    #[inline]
    fn prefetch(&self, key: u64) {
        crate::tt::prefetch(&self.slots[self.bucket(key)]);
    }
}

/// How far a stopped solve got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stopped {
    /// The proven (lower, upper) bounds on the value, in hundredths of a seed for the side to move.
    pub bounds: (i32, i32),
    /// Nodes searched before the stop.
    pub nodes: u64,
}

/// The exact solver: a heuristic engine for estimates and move order, and a proof table.
///
/// ```
/// use kalah_engine::solver::Solver;
/// use kalah_engine::search::Options;
/// use kalah_rules::{Position, Rules};
/// let rules = Rules::standard(4, 4).unwrap();
/// let solver = Solver::new(Options { table_bytes: 8 << 20, ..Options::default() });
/// let solved = solver.solve(&Position::start(&rules), &rules, None, None, |_, _, _| {}).unwrap();
/// assert_eq!(solved.score.hundredths(), 2 * 100); // Kalah(4,4) is +2 for South (tests/data/values.txt)
/// assert!(solved.score.is_exact());
/// ```
pub struct Solver {
    engine: Engine,
    proofs: ProofTable,
    threads: usize,
    /// Nodes being searched now, for the threads to keep out of each other's way.
    busy: Busy,
    /// The estimate's depth (tests lower it, so that small games reach the proofs).
    estimate_depth: u32,
    /// Nodes the solve under way has searched so far (updated every few thousand nodes).
    searched: AtomicU64,
    /// The β of the proof under way, in hundredths of a seed for the side to move (`i32::MIN`: none).
    testing: AtomicI32,
}

/// What a solve under way is doing, for a progress display: see [`Solver::progress`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Nodes searched so far, the estimate's included.
    pub nodes: u64,
    /// The proof under way asks "is the value at least this?" (hundredths of a seed for the side
    /// to move), or `None` while the solve estimates or builds its line.
    pub testing: Option<i32>,
}

impl Solver {
    /// Returns a solver whose tables take `options.table_bytes` in all: an eighth for the
    /// heuristic engine, the rest for proofs.
    pub fn new(options: Options) -> Solver {
        let total = options.table_bytes.max(64 * PROOF_BYTES * 1024);
        let threads = options.threads.max(1);
        let engine = Engine::new(Options { table_bytes: total / HINT_SHARE, threads: 1, ..options });
        let busy = Busy::new(threads > 1);
        Solver {
            engine,
            proofs: ProofTable::with_bytes(total - total / HINT_SHARE),
            threads,
            busy,
            estimate_depth: ESTIMATE_DEPTH,
            searched: AtomicU64::new(0),
            testing: AtomicI32::new(i32::MIN),
        }
    }

    /// Returns how far the solve under way has got; another thread may ask while it runs.
    pub fn progress(&self) -> Progress {
        let testing = self.testing.load(Ordering::Relaxed);
        Progress { nodes: self.searched.load(Ordering::Relaxed), testing: (testing != i32::MIN).then_some(testing) }
    }

    /// Returns the solver with another depth for its first estimate (1 or more; 14 by default):
    /// a shallower estimate leaves more to the proofs.
    pub fn with_estimate_depth(mut self, depth: u32) -> Solver {
        self.estimate_depth = depth.max(1);
        self
    }

    /// Returns the proof table, to save or restore it.
    pub fn proofs(&self) -> &ProofTable {
        &self.proofs
    }

    /// Solves `position`: its exact value, a best move and a perfect line.
    ///
    /// `known` gives bounds already proven (from a checkpoint), and `on_bound` hears each proven
    /// (lower, upper) pair of bounds as they close in, with the nodes so far; bounds and the
    /// result's score are in hundredths of a seed for the side to move, as the engine's are.
    ///
    /// # Errors
    /// When `stop` is set, returns the bounds proven so far and the nodes searched.
    pub fn solve(
        &self,
        position: &Position,
        rules: &Rules,
        known: Option<(i32, i32)>,
        stop: Option<&AtomicBool>,
        on_bound: impl FnMut(i32, i32, u64),
    ) -> Result<Info, Stopped> {
        self.close_in(position, rules, known, stop, on_bound, None).map(|(info, _)| info)
    }

    /// Answers whether `position` is worth at least `at_least` (hundredths of a seed, a whole
    /// seed) to the side to move: returns the proven (lower, upper) bounds, one of which decides
    /// the question (lower at or above it, or upper below it), and the solve's information (its
    /// score is the bound that decided, proven only when the bounds meet). One proof where
    /// [`Solver::solve`] needs several: a cluster's tasks ask this ([`crate::cluster`]).
    ///
    /// # Errors
    /// When `stop` is set, returns the bounds proven so far and the nodes searched.
    pub fn bound(
        &self,
        position: &Position,
        rules: &Rules,
        known: Option<(i32, i32)>,
        at_least: i32,
        stop: Option<&AtomicBool>,
    ) -> Result<(Info, (i32, i32)), Stopped> {
        self.close_in(position, rules, known, stop, |_, _, _| {}, Some(at_least / SEED))
    }

    /// Closes in on the value of `position` until the bounds meet, or until they decide whether
    /// it is at least `question` (whole seeds); returns the information and the bounds (hundredths).
    fn close_in(
        &self,
        position: &Position,
        rules: &Rules,
        known: Option<(i32, i32)>,
        stop: Option<&AtomicBool>,
        mut on_bound: impl FnMut(i32, i32, u64),
        question: Option<i32>,
    ) -> Result<(Info, (i32, i32)), Stopped> {
        let started = Instant::now();
        let base = position.store_difference() * position.mover().sign();
        let left = i32::from(position.seeds_in_houses());
        let (mut lower, mut upper) = known.map_or((-left, left), |(l, u)| (l / SEED - base, u / SEED - base));
        lower = lower.max(-left);
        upper = upper.min(left);
        let stopped = |lower: i32, upper: i32, nodes: u64| Stopped {
            bounds: ((base + lower) * SEED, (base + upper) * SEED),
            nodes,
        };
        self.searched.store(0, Ordering::Relaxed);
        // A question the known bounds already answer needs no search.
        let question = question.map(|q| q - base);
        let answered = |lower: i32, upper: i32| question.is_some_and(|q| lower >= q || upper < q);
        if answered(lower, upper) {
            let info = Info {
                depth: 0,
                score: Score::new(
                    (base + if upper < question.unwrap_or(0) { upper } else { lower }) * SEED,
                    lower == upper,
                ),
                best: None,
                pv: Vec::new(),
                nodes: 0,
                elapsed: started.elapsed(),
            };
            return Ok((info, ((base + lower) * SEED, (base + upper) * SEED)));
        }
        let estimate = self.engine.search(position, rules, Limits::depth(self.estimate_depth), stop, |_| {});
        if estimate.score.is_exact() || estimate.best.is_none() {
            let value = estimate.score.hundredths();
            return Ok((estimate, (value, value)));
        }
        let nodes = &self.searched;
        nodes.store(estimate.nodes, Ordering::Relaxed);
        if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            return Err(stopped(lower, upper, estimate.nodes));
        }
        let never = AtomicBool::new(false);
        let stop = stop.unwrap_or(&never);
        let mut prover = self.prover(rules, stop, nodes);
        prover.layout = Layout::of(rules, position);
        let key = prover.key(position);
        // Exact values are whole seeds: round the estimate to one.
        let mut guess = ((estimate.score.hundredths() / SEED) as f64 - f64::from(base)).round() as i32;
        let mut best = estimate.best;
        while lower < upper && !answered(lower, upper) {
            guess = question.unwrap_or(guess).clamp(lower, upper);
            let beta = if guess == lower { guess + 1 } else { guess };
            self.testing.store((base + beta) * SEED, Ordering::Relaxed);
            let (value, root_best) = self.prove(&mut prover, position, key, beta);
            self.testing.store(i32::MIN, Ordering::Relaxed);
            if stop.load(Ordering::Relaxed) {
                return Err(stopped(lower, upper, nodes.load(Ordering::Relaxed)));
            }
            if value >= beta {
                lower = value;
                best = root_best.or(best);
            } else {
                upper = value;
            }
            guess = value;
            on_bound((base + lower) * SEED, (base + upper) * SEED, nodes.load(Ordering::Relaxed));
        }
        let bounds = ((base + lower) * SEED, (base + upper) * SEED);
        if lower < upper {
            // A question answered: the bound that answers it.
            let value = if question.is_some_and(|q| upper < q) { upper } else { lower };
            let info = Info {
                depth: 0,
                score: Score::new((base + value) * SEED, false),
                best: if value == lower { best } else { None },
                pv: Vec::new(),
                nodes: nodes.load(Ordering::Relaxed),
                elapsed: started.elapsed(),
            };
            return Ok((info, bounds));
        }
        let pv = prover.perfect_line(position, lower, 400);
        if stop.load(Ordering::Relaxed) {
            return Err(stopped(lower, upper, nodes.load(Ordering::Relaxed)));
        }
        let info = Info {
            depth: pv.len() as u32,
            score: Score::exact((base + lower) * SEED),
            best: pv.first().copied().or(best),
            pv,
            nodes: nodes.load(Ordering::Relaxed),
            elapsed: started.elapsed(),
        };
        Ok((info, bounds))
    }

    fn prover<'a>(&'a self, rules: &'a Rules, stop: &'a AtomicBool, nodes: &'a AtomicU64) -> Prover<'a> {
        Prover {
            rules,
            proofs: &self.proofs,
            hints: self.engine.table(),
            hint_plies: HINT_PLIES * self.estimate_depth,
            oracle: self.engine.options().oracle.as_deref(),
            stop,
            quit: None,
            nodes,
            local: 0,
            busy: &self.busy,
            root_best: None,
            layout: None,
            oracle_seeds: self.engine.options().oracle.as_ref().map_or(0, |o| o.board_seeds()),
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
                let (rules, stop, nodes, layout) = (main.rules, main.stop, main.nodes, main.layout);
                scope.spawn(move || {
                    let mut helper = self.prover(rules, stop, nodes);
                    helper.quit = Some(quit);
                    helper.layout = layout;
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

/// One thread's proof search.
struct Prover<'a> {
    rules: &'a Rules,
    proofs: &'a ProofTable,
    hints: &'a Table,
    /// The deepest ply at which the estimate's table may hold a position.
    hint_plies: u32,
    oracle: Option<&'a dyn Oracle>,
    stop: &'a AtomicBool,
    /// A helper's signal that the main thread is done with this proof.
    quit: Option<&'a AtomicBool>,
    nodes: &'a AtomicU64,
    local: u64,
    /// The solver's table of nodes being searched (empty with one thread).
    busy: &'a Busy,
    root_best: Option<Move>,
    /// The byte board's rules, when small nodes are searched on it.
    layout: Option<Layout>,
    /// The most seeds of a position the oracle may hold (0 without one): larger byte boards are
    /// not offered to it.
    oracle_seeds: u32,
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
            layout.board(position).key()
        } else if self.rules.majority_ends {
            position.key()
        } else {
            position.houses_key()
        }
    }

    fn flush(&mut self) {
        self.nodes.fetch_add(self.local, Ordering::Relaxed);
        self.local = 0;
    }

    #[inline]
    fn halted(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.quit.is_some_and(|q| q.load(Ordering::Relaxed))
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
        let share = self.busy.is_shared() && left >= SHARE_SEEDS;
        if share {
            self.busy.enter(key);
        }
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
                        self.busy.leave(key);
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
                        self.busy.leave(key);
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
                let board = layout.board(position);
                self.test_board(&layout, &board, board.seeds(), key, beta)
            }
            None => self.test(position, key, beta, ply),
        }
    }

    /// [`Prover::test`] on the byte board, for every node below the root under the rules the
    /// board plays: no heuristic hints, no evaluation; finished games and database positions
    /// first (read, not searched), then moves that give another turn, then the others by what
    /// they put in the store less half a seed for each reply they leave. Keys agree with
    /// [`Prover::key`]; `left` is the seeds in the board's houses (the sowing counts them).
    fn test_board(&mut self, layout: &Layout, board: &Board, left: i32, key: u64, beta: i32) -> i32 {
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
        let mut first = None;
        if let Some(e) = entry {
            lower = lower.max(i32::from(e.lower));
            upper = upper.min(i32::from(e.upper));
            if lower >= beta {
                return lower;
            }
            if upper < beta {
                return upper;
            }
            first = e.best.map(Move::index);
        }
        let started = self.local + self.nodes.load(Ordering::Relaxed);
        let mut best = i32::MIN;
        // Children in search order: (order, house, key, step), sorted by insertion as they come.
        let mut list = [(0, 0, 0, Step::BLANK); 12];
        let mut n = 0;
        // Children the database holds: (house, gain, again, ticket), read once all are asked for.
        let mut stored = [(0, 0, false, 0); 12];
        let mut held = 0;
        // Houses nearest the store first: of two moves that give another turn, the nearer one
        // leaves the other's count as it is.
        for house in (0..layout.houses()).rev() {
            if board.house(house) == 0 {
                continue;
            }
            let step = layout.play(board, house);
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
            if step.seeds <= self.oracle_seeds {
                if let Some(ticket) = self.oracle.and_then(|o| o.prefetch_board(step.board.cells(), step.seeds)) {
                    stored[held] = (house, step.gain, step.again, ticket);
                    held += 1;
                    continue;
                }
            }
            // Asked for now, the children's entries arrive while the others are sown.
            let child_key = step.board.key();
            self.proofs.prefetch(child_key);
            let order = if Some(house) == first {
                i32::MAX
            } else if step.again {
                AGAIN_ORDER + step.gain * SEED
            } else {
                // Fastest first, as in `children`.
                step.gain * SEED - REPLY_COST * layout.count_moves(&step.board) as i32
            };
            let mut j = n;
            while j > 0 && list[j - 1].0 < order {
                list[j] = list[j - 1];
                j -= 1;
            }
            list[j] = (order, house, child_key, step);
            n += 1;
        }
        // A database position is worth what the database says: no search, as a finished game.
        if let Some(oracle) = self.oracle {
            for &(house, gain, again, ticket) in &stored[..held] {
                let value = oracle.read(ticket);
                let value = if again { gain + value } else { gain - value };
                if value >= beta {
                    lower = lower.max(value);
                    self.store(key, lower, upper, Some(Move::from_index(house)), started);
                    return value;
                }
                best = best.max(value);
            }
        }
        // Enhanced transposition cut-off, as in `test`.
        if left >= BOARD_ETC_SEEDS {
            let mut reach_all = best;
            for &(_, house, child_key, step) in &list[..n] {
                let (floor, reach) = match self.proofs.probe(child_key) {
                    Some(e) if step.again => (step.gain + i32::from(e.lower), step.gain + i32::from(e.upper)),
                    Some(e) => (step.gain - i32::from(e.upper), step.gain - i32::from(e.lower)),
                    None => (i32::MIN, step.gain + step.seeds as i32),
                };
                if floor >= beta {
                    lower = lower.max(floor);
                    self.store(key, lower, upper, Some(Move::from_index(house)), started);
                    return floor;
                }
                reach_all = reach_all.max(reach);
            }
            if reach_all < beta {
                upper = upper.min(reach_all);
                self.store(key, lower, upper, entry.and_then(|e| e.best), started);
                return reach_all;
            }
        }
        let share = self.busy.is_shared() && left >= SHARE_SEEDS;
        if share {
            self.busy.enter(key);
        }
        // As in `test`: a child another thread is searching now waits for a second pass.
        let mut deferred = [false; 12];
        for pass in 0..2 {
            for (i, &(_, house, child_key, step)) in list[..n].iter().enumerate() {
                if pass == 1 && !deferred[i] {
                    continue;
                }
                if pass == 0 && share && i > 0 && self.busy.contains(child_key) {
                    deferred[i] = true;
                    continue;
                }
                let value = if step.again {
                    step.gain + self.test_board(layout, &step.board, step.seeds as i32, child_key, beta - step.gain)
                } else {
                    step.gain - self.test_board(layout, &step.board, step.seeds as i32, child_key, step.gain - beta + 1)
                };
                if self.halted() {
                    if share {
                        self.busy.leave(key);
                    }
                    return 0;
                }
                best = best.max(value);
                if value >= beta {
                    lower = lower.max(value);
                    self.store(key, lower, upper, Some(Move::from_index(house)), started);
                    if share {
                        self.busy.leave(key);
                    }
                    return value;
                }
            }
            if !share || !deferred.contains(&true) {
                break;
            }
        }
        self.close(key, lower, upper.min(best), entry.and_then(|e| e.best), started, share);
        best
    }

    /// Ends a node whose children are all searched: stores its bounds and, when the threads share
    /// work, says that no thread is searching it any more.
    #[inline]
    fn close(&mut self, key: u64, lower: i32, upper: i32, best: Option<Move>, started: u64, share: bool) {
        self.store(key, lower, upper, best, started);
        if share {
            self.busy.leave(key);
        }
    }

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
                // Fastest first: a proof needs one refutation, and a child where the opponent
                // has fewer replies is cheaper to prove, since each of them must be searched.
                let replies = if again { 0 } else { child.legal_moves().len() as i32 };
                evaluate(&child, self.rules, me, &Weights::TUNED) - REPLY_COST * replies
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
                Some((lo, hi)) if lo == hi => i32::MAX,
                _ if Some(child.mv) == first => i32::MAX - 1,
                _ => child.order,
            };
        }
        // Higher first; stable, so equal orders keep the order of the moves.
        list[..n].sort_by_key(|child| std::cmp::Reverse(child.order));
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
    use super::*;

    /// A solver whose estimate is a single ply, so that even small games are solved by the proofs.
    fn solver() -> Solver {
        Solver::new(Options { table_bytes: 4 << 20, ..Options::default() }).with_estimate_depth(1)
    }

    #[test]
    fn proofs_round_trip_and_torn_or_foreign_words_are_misses() {
        let table = ProofTable::with_bytes(1 << 16);
        let proof = Proof { lower: -7, upper: 12, best: Move::from_number(11), work: 33 };
        table.store(99, proof);
        assert_eq!(table.probe(99), Some(proof));
        assert_eq!(table.probe(100), None);
        let copy = ProofTable::with_bytes(1 << 20);
        table.for_each(|key_word, data| copy.import(&[(key_word, data)]));
        assert_eq!(copy.probe(99), Some(proof));
        // A heuristic table's data word is not a proof.
        copy.import(&[(5 ^ 0x1234, 0x1234)]);
        assert_eq!(copy.probe(5), None);
        // Tagged words that `pack` cannot write: a move number past 12, bounds out of order.
        for (key, data) in [(6, 1 << 42 | 13 << 32), (7, 1 << 42 | 5 | 3 << 16)] {
            copy.import(&[(key ^ data, data)]);
            assert_eq!(copy.probe(key), None, "{data:#x}");
            assert!(!ProofTable::well_formed(data));
        }
        assert!(ProofTable::well_formed(ProofTable::pack(&proof)));
    }

    #[test]
    fn the_perfect_line_reaches_the_value() {
        let rules = Rules::standard(4, 3).unwrap();
        let start = Position::start(&rules);
        let solved = solver().solve(&start, &rules, None, None, |_, _, _| {}).unwrap();
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
            let info = solver.solve(&start, &rules, None, None, |_, _, _| {}).unwrap();
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
        let stopped = solver().solve(&Position::start(&rules), &rules, None, Some(&stop), |_, _, _| {}).unwrap_err();
        assert_eq!(stopped.bounds, (-4800, 4800));
    }
}
