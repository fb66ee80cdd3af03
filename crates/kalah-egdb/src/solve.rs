//! Computing one layer from the layers below it, on several threads (with the `threads` feature).
//!
//! A move either puts seeds into a store (its child is in a lower layer, already computed), ends
//! the game (its value is known at once), or keeps every seed in the houses. Under
//! counter-clockwise sowing the last kind sows only the mover's own houses, towards its store
//! (a seed reaching the opponent's side has passed the store), so it raises the sum over all
//! seeds of their distance from their side's house 1. That sum cannot rise for ever, so the
//! same-layer children form no cycle and a memoised recursion over them terminates; its depth is
//! at most k(m − 1) + 1.
//!
//! The threads share the layer as atomic bytes holding [`UNKNOWN`] until solved. Two threads may
//! solve the same position at the same time; both store the same value, so relaxed ordering is
//! enough and no lock is needed.

use std::sync::atomic::{AtomicI8, Ordering};
#[cfg(feature = "threads")]
use std::sync::atomic::{AtomicU64, AtomicUsize};
#[cfg(feature = "threads")]
use std::thread;
#[cfg(feature = "threads")]
use std::time::Duration;

use crate::board::{Board, Step, Variant, CELLS};
use crate::file::Layer;
use crate::index::{self, Ranker};
use crate::EgdbError;

/// Marks a position not solved yet: no value reaches −128 because |value| ≤ k ≤ 127.
const UNKNOWN: i8 = i8::MIN;
/// Positions a thread takes at a time: small enough to share the work out evenly, large enough to
/// make the shared counter cheap.
const CHUNK: u64 = 1 << 15;
/// How often the calling thread reports progress.
#[cfg(feature = "threads")]
const TICK: Duration = Duration::from_millis(100);
/// Stack for the workers: the recursion is at most 127 × 11 frames deep.
#[cfg(feature = "threads")]
const STACK: usize = 16 << 20;

/// Everything needed to solve positions of one layer.
struct Solver<'a> {
    variant: Variant,
    ranker: &'a Ranker,
    /// The layers below.
    lower: &'a [Layer],
    current: &'a [AtomicI8],
    seeds: u32,
}

impl Solver<'_> {
    /// Returns the mover's gain from `board` (a position of this layer) to the end.
    fn value(&self, board: &Board) -> i8 {
        if let Some(end) = self.variant.settled(board) {
            return end as i8;
        }
        let m = self.variant.houses as usize;
        let mut best = i32::MIN;
        for house in 0..m {
            if board[house] == 0 {
                continue;
            }
            let mut child = *board;
            let value = match self.variant.play(&mut child, house) {
                Step::Over(end) => end,
                Step::Next { gain, again, seeds } => {
                    let rank = self.ranker.rank(&child[..m], &child[m + 1..2 * m + 1]) as usize;
                    let next = if seeds == self.seeds {
                        self.known_or_solve(rank, &child)
                    } else {
                        self.lower[seeds as usize].value(rank as u64)
                    };
                    gain + if again { i32::from(next) } else { -i32::from(next) }
                }
            };
            best = best.max(value);
        }
        debug_assert!(best.unsigned_abs() <= self.seeds);
        best as i8
    }

    /// Returns the value of the same-layer position `board` with rank `rank`, solving it if needed.
    fn known_or_solve(&self, rank: usize, board: &Board) -> i8 {
        let known = self.current[rank].load(Ordering::Relaxed);
        if known != UNKNOWN {
            return known;
        }
        let value = self.value(board);
        self.current[rank].store(value, Ordering::Relaxed);
        value
    }

    /// Solves the positions with ranks `start..end` that are not solved yet.
    fn solve_range(&self, start: u64, end: u64) {
        let m = self.variant.houses as usize;
        let mut cells = [0u8; CELLS];
        let cells = &mut cells[..2 * m];
        self.ranker.unrank(self.seeds, start, cells);
        let mut board: Board = [0; CELLS];
        for rank in start..end {
            let slot = &self.current[rank as usize];
            if slot.load(Ordering::Relaxed) == UNKNOWN {
                let (mover, rest) = board.split_at_mut(m);
                index::split(cells, mover, &mut rest[1..m + 1]);
                debug_assert_eq!(self.ranker.rank(&board[..m], &board[m + 1..2 * m + 1]), rank);
                slot.store(self.value(&board), Ordering::Relaxed);
            }
            index::step(cells);
        }
    }
}

/// Computes layer `seeds` (every distribution of that many seeds, by rank) from the layers below,
/// on `threads` threads (without the `threads` feature, on this one); calls `progress` now and
/// then on this thread with the positions done.
pub(crate) fn solve_layer(
    variant: Variant,
    ranker: &Ranker,
    lower: &[Layer],
    seeds: u32,
    entries: u64,
    threads: usize,
    progress: &mut dyn FnMut(u64),
) -> Result<Vec<u8>, EgdbError> {
    debug_assert_eq!(lower.len(), seeds as usize);
    let mut current: Vec<AtomicI8> = Vec::new();
    current.try_reserve_exact(entries as usize).map_err(|_| EgdbError::OutOfMemory { seeds, bytes: entries })?;
    current.extend((0..entries).map(|_| AtomicI8::new(UNKNOWN)));
    let solver = Solver { variant, ranker, lower, current: &current, seeds };
    #[cfg(feature = "threads")]
    solve_on_threads(&solver, entries, threads, progress);
    #[cfg(not(feature = "threads"))]
    {
        let _ = threads;
        for start in (0..entries).step_by(CHUNK as usize) {
            let end = (start + CHUNK).min(entries);
            solver.solve_range(start, end);
            progress(end);
        }
    }
    progress(entries);
    // AtomicI8 and u8 have the same layout, so this collect reuses the allocation.
    Ok(current.into_iter().map(|v| v.into_inner() as u8).collect())
}

/// Solves the whole layer of `solver` on `threads` threads sharing it out in chunks, calling
/// `progress` on this thread every [`TICK`] with the positions done.
#[cfg(feature = "threads")]
fn solve_on_threads(solver: &Solver, entries: u64, threads: usize, progress: &mut dyn FnMut(u64)) {
    let next_chunk = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let chunks = entries.div_ceil(CHUNK);
    let workers = threads.clamp(1, chunks.clamp(1, 1 << 10) as usize);
    let finished = AtomicUsize::new(0);
    let caller = thread::current();
    thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                thread::Builder::new()
                    .stack_size(STACK)
                    .spawn_scoped(scope, || {
                        loop {
                            let start = next_chunk.fetch_add(1, Ordering::Relaxed) * CHUNK;
                            if start >= entries {
                                break;
                            }
                            let end = (start + CHUNK).min(entries);
                            solver.solve_range(start, end);
                            done.fetch_add(end - start, Ordering::Relaxed);
                        }
                        // Wake the caller so a small layer does not wait out a whole tick.
                        finished.fetch_add(1, Ordering::Release);
                        caller.unpark();
                    })
                    .expect("cannot start a builder thread")
            })
            .collect();
        // A worker that panicked never counts itself, but it does finish.
        while finished.load(Ordering::Acquire) < workers && !handles.iter().all(|h| h.is_finished()) {
            progress(done.load(Ordering::Relaxed));
            thread::park_timeout(TICK);
        }
        // A worker that panicked passes its panic on here.
        for handle in handles {
            if let Err(panic) = handle.join() {
                std::panic::resume_unwind(panic);
            }
        }
    });
}
