//! The proof table: proven bounds on the values of positions, shared by the solving threads and
//! saved in checkpoints.
//!
//! A proof's result does not depend on a depth or an evaluation, so every entry is final and
//! serves every later proof whatever its β. An entry keeps, for a position keyed by its houses
//! (values are relative to the stores), a proven lower and upper bound on its value in whole
//! seeds, the move that proved the last cut-off, and what the proof cost. The buckets are one
//! cache line of four entries; the entry that cost the fewest nodes makes room.

use std::sync::atomic::Ordering;

use kalah_rules::Move;

use crate::tt::{read_slot, write_slot, Slot, Slots};

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
    slots: Slots,
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
        ProofTable::for_threads(bytes, 1)
    }

    /// Returns a table as [`ProofTable::with_bytes`] for `threads` threads proving at once: with
    /// more than one, in huge pages from the start (`kalah_egdb::memory::Slots::zeroed` says why).
    pub fn for_threads(bytes: usize, threads: usize) -> ProofTable {
        // Any number of buckets, not a power of two: `--hash 6144` rounded down to a power of
        // two had left a quarter of the memory asked for unused.
        let buckets = ((bytes / PROOF_BYTES).max(1024) / WAYS).max(1);
        let slots = crate::tt::zeroed_slots((buckets + 1) * WAYS, threads);
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

    /// Hears that the proofs have searched `nodes` more nodes: enough work moves the table to
    /// huge pages ([`Slots::worked`]).
    #[inline]
    pub fn worked(&self, nodes: u64) {
        self.slots.worked(nodes);
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

    /// Returns the slots of `key`'s bucket: one slice, checked once, that the loops below go
    /// through without a check a slot.
    #[inline]
    fn slots_of(&self, key: u64) -> &[Slot; WAYS] {
        let first = self.bucket(key);
        self.slots[first..first + WAYS].try_into().expect("a bucket is WAYS slots")
    }

    /// Looks `key` up.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Proof> {
        // The first slot that holds the key, its data checked and unpacked once: every word in
        // the table is one `pack` wrote, so a second slot of the same key (two threads storing
        // it at once) would not have answered otherwise.
        let data = self.slots_of(key).iter().find_map(|slot| read_slot(slot, key))?;
        ProofTable::unpack(data)
    }

    /// Stores `proof` for `key`, in its own slot if it has one, else in place of the cheapest.
    #[inline(always)]
    pub fn store(&self, key: u64, proof: Proof) {
        let slots = self.slots_of(key);
        let mut victim = 0;
        let mut cheapest = u64::MAX;
        for (i, slot) in slots.iter().enumerate() {
            let data = slot[1].load(Ordering::Relaxed);
            if slot[0].load(Ordering::Relaxed) ^ data == key {
                victim = i;
                break;
            }
            // What the entry cost to prove, read without unpacking it: the tag above the work,
            // so an empty slot (0) is the cheapest and a filled one (64 + its work) is ranked by
            // its work. Every tagged word in the table is one `pack` wrote (imports are checked),
            // with nothing above the tag, so no check of `well_formed` is needed.
            let cost = data >> 36;
            if cost < cheapest {
                cheapest = cost;
                victim = i;
            }
        }
        write_slot(&slots[victim & (WAYS - 1)], key, ProofTable::pack(&proof));
    }

    /// Calls `f` with every filled slot as (key word, data word), to save the table.
    pub fn for_each(&self, mut f: impl FnMut(u64, u64)) {
        for slot in self.slots.iter() {
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

    /// Starts bringing `key`'s bucket into the cache, for a probe soon after.
    #[inline]
    pub(crate) fn prefetch(&self, key: u64) {
        crate::tt::prefetch(&self.slots[self.bucket(key)]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
