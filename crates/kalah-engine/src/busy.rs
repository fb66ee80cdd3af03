//! The threads' table of nodes being searched right now (the idea of ABDADA).
//!
//! Several threads search the same tree and share one transposition table. A node that another
//! thread is searching at this moment is better put off: its result is often in the table by
//! the time it comes up again, and meanwhile the thread searches something no other thread does.
//! Both the heuristic search and the exact solver mark the nodes they are in here and ask about
//! the children they are about to search.
//!
//! The table is a small array of keys indexed by the key's low bits, read and written with
//! relaxed atomics and never locked. A slot shared by two nodes, a mark overwritten by another
//! thread or a mark left behind only changes which child a thread searches first, never a
//! result, so none of these races needs more care.

use std::sync::atomic::{AtomicU64, Ordering};

/// Slots of the table (a power of two): enough for the nodes two to sixty-four threads are in.
const SLOTS: usize = 1 << 16;

/// Keys of the nodes the threads are searching now.
pub struct Busy {
    slots: Vec<AtomicU64>,
}

impl Busy {
    /// Returns an empty table, or one with no slots when `shared` is false (a single thread has
    /// no one to keep out of the way of: then [`Busy::is_shared`] tells the search to skip it).
    pub fn new(shared: bool) -> Busy {
        Busy { slots: (0..if shared { SLOTS } else { 0 }).map(|_| AtomicU64::new(0)).collect() }
    }

    /// Tells whether the table has slots, i.e. more than one thread may search.
    #[inline]
    pub fn is_shared(&self) -> bool {
        !self.slots.is_empty()
    }

    #[inline]
    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[key as usize & (SLOTS - 1)]
    }

    /// Tells whether some thread is searching the node of `key` now (as far as the table knows).
    #[inline]
    pub fn contains(&self, key: u64) -> bool {
        self.is_shared() && self.slot(key).load(Ordering::Relaxed) == key
    }

    /// Marks the node of `key` as being searched.
    #[inline]
    pub fn enter(&self, key: u64) {
        self.slot(key).store(key, Ordering::Relaxed);
    }

    /// Clears the mark of `key`'s slot: its search is over.
    #[inline]
    pub fn leave(&self, key: u64) {
        self.slot(key).store(0, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_come_and_go_and_a_single_thread_table_holds_none() {
        let busy = Busy::new(true);
        assert!(busy.is_shared());
        assert!(!busy.contains(42));
        busy.enter(42);
        assert!(busy.contains(42));
        // Another key in the same slot is not taken for the one marked.
        assert!(!busy.contains(42 + SLOTS as u64));
        busy.leave(42);
        assert!(!busy.contains(42));
        let alone = Busy::new(false);
        assert!(!alone.is_shared());
        assert!(!alone.contains(42));
    }
}
