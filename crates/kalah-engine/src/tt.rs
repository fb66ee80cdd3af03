//! The transposition table: a fixed-size hash table of search results shared by all search threads.
//!
//! Each entry is two 64-bit words, the key XOR the data and the data, stored with relaxed atomics.
//! Threads may race on an entry: one may write the key word while another writes the data word.
//! A torn entry fails the `key ^ data == key` check on reading and is simply a miss, so racy
//! writes cost a little information, never a wrong answer (the "lockless hashing" of Hyatt and Mann).
//!
//! Values are stored relative to the stores (what the mover gains from here on), so positions
//! that differ only in their stores share an entry.

use std::sync::atomic::{AtomicU64, Ordering};

use kalah_rules::Move;

/// The memory helpers the tables share with the endgame databases, written once in the database crate.
pub(crate) use kalah_egdb::memory::{prefetch, zeroed_slots, Slots};

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The value is exactly the score.
    Exact,
    /// The value is at least the score (the search failed high).
    Lower,
    /// The value is at most the score (the search failed low).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The score, relative to the stores, in hundredths of a seed.
    pub score: i32,
    /// The remaining depth the score was searched to.
    pub depth: u8,
    /// How the score bounds the value.
    pub bound: Bound,
    /// The best move found, if any.
    pub best: Option<Move>,
    /// The score rests on finished games and database values only: it holds at any depth.
    pub proven: bool,
    /// Log2 of the nodes searched for it (0-63): what it would cost to find again.
    pub work: u8,
}

impl Entry {
    /// How much the entry is worth keeping: proven results first, then the costlier or deeper.
    fn priority(&self) -> u16 {
        if self.proven {
            256 + u16::from(self.work)
        } else {
            u16::from(self.depth)
        }
    }
}

/// Bytes one entry takes.
pub const ENTRY_BYTES: usize = 16;

/// One lockless slot of a table: the key XOR the data, then the data. The heuristic table and
/// the solver's proof table both keep their entries in these (with their own packing of the
/// data and their own buckets).
pub(crate) type Slot = [AtomicU64; 2];

/// Returns the data word of `slot` if the slot holds `key`; a torn, empty or foreign slot is a miss.
#[inline]
pub(crate) fn read_slot(slot: &Slot, key: u64) -> Option<u64> {
    let data = slot[1].load(Ordering::Relaxed);
    (slot[0].load(Ordering::Relaxed) ^ data == key).then_some(data)
}

/// Writes `data` for `key` into `slot`.
#[inline]
pub(crate) fn write_slot(slot: &Slot, key: u64, data: u64) {
    slot[0].store(key ^ data, Ordering::Relaxed);
    slot[1].store(data, Ordering::Relaxed);
}

/// A transposition table of a power-of-two number of entries, in buckets of two: the first keeps
/// the deeper result, the second always takes the newest.
pub struct Table {
    slots: Slots,
    mask: u64,
}

impl Table {
    /// Returns a table of at most `bytes` bytes (at least 1024 entries), or no table at all for 0
    /// bytes (every probe misses: searches then match plain minimax, which tests rely on).
    pub fn with_bytes(bytes: usize) -> Table {
        Table::for_threads(bytes, 1)
    }

    /// Returns a table as [`Table::with_bytes`] for `threads` threads searching at once: with
    /// more than one, in huge pages from the start ([`Slots::zeroed`] says why).
    pub fn for_threads(bytes: usize, threads: usize) -> Table {
        if bytes == 0 {
            return Table { slots: zeroed_slots(0, 1), mask: 0 };
        }
        let wanted = (bytes / ENTRY_BYTES).max(1024);
        let entries = if wanted.is_power_of_two() { wanted } else { wanted.next_power_of_two() / 2 };
        Table { slots: zeroed_slots(entries, threads), mask: (entries as u64 - 1) & !1 }
    }

    /// Returns the table's size in bytes.
    pub fn bytes(&self) -> usize {
        self.slots.len() * ENTRY_BYTES
    }

    /// Hears that a search has searched `nodes` more nodes in the table: enough work moves the
    /// table to huge pages ([`Slots::worked`]).
    #[inline]
    pub fn worked(&self, nodes: u64) {
        self.slots.worked(nodes);
    }

    /// Empties the table.
    pub fn clear(&self) {
        for slot in self.slots.iter() {
            slot[0].store(0, Ordering::Relaxed);
            slot[1].store(0, Ordering::Relaxed);
        }
    }

    fn pack(entry: &Entry) -> u64 {
        let score = (entry.score as i16) as u16 as u64;
        let bound = match entry.bound {
            Bound::Exact => 1u64,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        let best = entry.best.map_or(0, |m| m.index() as u64 + 1);
        score
            | (u64::from(entry.depth) << 16)
            | (bound << 24)
            | (best << 26)
            | (u64::from(entry.proven) << 30)
            | (u64::from(entry.work.min(63)) << 31)
    }

    fn unpack(data: u64) -> Option<Entry> {
        let bound = match (data >> 24) & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        let best = match (data >> 26) & 15 {
            0 => None,
            n => Some(Move::from_index(n as usize - 1)),
        };
        Some(Entry {
            score: i32::from(data as u16 as i16),
            depth: (data >> 16) as u8,
            bound,
            best,
            proven: (data >> 30) & 1 == 1,
            work: ((data >> 31) & 63) as u8,
        })
    }

    /// Returns every filled slot as (key word, data word), to save the table.
    pub fn export(&self) -> Vec<(u64, u64)> {
        self.slots
            .iter()
            .flatten()
            .collect::<Vec<_>>()
            .chunks(2)
            .map(|pair| (pair[0].load(Ordering::Relaxed), pair[1].load(Ordering::Relaxed)))
            .filter(|&(_, data)| Table::unpack(data).is_some())
            .collect()
    }

    /// Stores slots saved by [`Table::export`] (of a table of any size); malformed ones are skipped.
    pub fn import(&self, slots: &[(u64, u64)]) {
        for &(key_word, data) in slots {
            if let Some(entry) = Table::unpack(data) {
                self.store(key_word ^ data, entry);
            }
        }
    }

    /// Asks the processor to bring `key`'s bucket into the cache, so that a probe soon after does
    /// not wait on memory (a probe is otherwise the slowest step of a search node).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        if let Some(slot) = self.slots.get((key & self.mask) as usize) {
            prefetch(slot);
        }
    }

    /// Looks `key` up.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        if self.slots.is_empty() {
            return None;
        }
        let bucket = (key & self.mask) as usize;
        for i in 0..2 {
            if let Some(data) = read_slot(&self.slots[bucket + i], key) {
                return Table::unpack(data);
            }
        }
        None
    }

    /// Stores a result for `key`.
    #[inline]
    pub fn store(&self, key: u64, entry: Entry) {
        debug_assert!(entry.score.unsigned_abs() < i16::MAX as u32);
        if self.slots.is_empty() {
            return;
        }
        let bucket = (key & self.mask) as usize;
        let data = Table::pack(&entry);
        let first = &self.slots[bucket];
        let first_same = read_slot(first, key).is_some();
        let first_priority = Table::unpack(first[1].load(Ordering::Relaxed)).map_or(0, |e| e.priority());
        let slot = if first_same || entry.priority() >= first_priority { first } else { &self.slots[bucket + 1] };
        write_slot(slot, key, data);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_and_keep_the_deeper() {
        let table = Table::with_bytes(1 << 16);
        let entry =
            Entry { score: -2300, depth: 7, bound: Bound::Lower, best: Move::from_number(12), proven: true, work: 40 };
        table.store(42, entry);
        assert_eq!(table.probe(42), Some(entry));
        assert_eq!(table.probe(43), None);
        // A shallower result for another key in the same bucket goes to the second slot.
        let other = Entry { score: 5, depth: 1, bound: Bound::Exact, best: None, proven: false, work: 3 };
        let same_bucket = 42 + (table.mask + 2);
        table.store(same_bucket, other);
        assert_eq!(table.probe(42), Some(entry));
        assert_eq!(table.probe(same_bucket), Some(other));
        let saved = table.export();
        assert_eq!(saved.len(), 2);
        let copy = Table::with_bytes(1 << 20);
        copy.import(&saved);
        assert_eq!(copy.probe(42), Some(entry));
        table.clear();
        assert_eq!(table.probe(42), None);
    }

    #[test]
    fn the_size_is_a_power_of_two_within_the_budget() {
        for bytes in [1000, 1 << 20, 3 << 20] {
            let table = Table::with_bytes(bytes);
            assert!(table.slots.len().is_power_of_two());
            assert!(table.bytes() <= bytes.max(1024 * ENTRY_BYTES));
        }
    }
}
