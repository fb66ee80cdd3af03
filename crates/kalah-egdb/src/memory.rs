//! Memory for large tables probed at random: huge pages, zeroed atomic slots, prefetching.
//!
//! A probe of a table of gigabytes (a database layer, the engine's transposition and proof
//! tables) is a random access: it nearly always misses the cache, and with 4 KiB pages the TLB
//! too. These helpers are written once here, the lowest crate that needs them, and the engine's
//! tables use them from here.

use std::sync::atomic::AtomicU64;

/// Returns `entries` empty slots of two words, in zeroed memory that the kernel backs only as it
/// is first touched, asked for huge pages.
///
/// A probe of a large table is a random access: with 4 KiB pages nearly every one misses the TLB
/// and waits on a page walk, which cost the solver most of its time; 2 MiB pages make the
/// walks rare. Nothing is written here: the allocation is a zeroed one (`calloc`, fresh pages
/// from the kernel, already zero), so setting a table up costs nothing, and each page is zeroed
/// once, by the kernel, when a search first touches it. Writing the zeros here, as before, had
/// cost more system time than a small solve in a large table.
#[allow(unsafe_code)]
pub fn zeroed_slots(entries: usize) -> Vec<[AtomicU64; 2]> {
    if entries == 0 {
        return Vec::new();
    }
    // A zeroed allocation, which the kernel backs lazily: built from safe parts (a `vec![[0u64;
    // 2]; n]` mapped to atomics in place), the map touched every page unless the optimiser
    // removed it, which it did not in every build (`zeroing_touches_no_page`).
    let layout = std::alloc::Layout::array::<[AtomicU64; 2]>(entries).expect("a table that fits the address space");
    // SAFETY: the layout is not empty (entries > 0); all-zero bytes are a valid `[AtomicU64; 2]`
    // (an `AtomicU64` has the representation of a `u64`); the pointer is checked for null, comes
    // from the global allocator with the array layout of `entries` slots, which is the layout a
    // `Vec<[AtomicU64; 2]>` of capacity `entries` frees with, and all `entries` slots are
    // initialised (zero).
    let slots = unsafe {
        let start = std::alloc::alloc_zeroed(layout).cast::<[AtomicU64; 2]>();
        if start.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        Vec::from_raw_parts(start, entries, entries)
    };
    advise_huge_pages(slots.as_ptr() as usize, slots.capacity() * std::mem::size_of::<[AtomicU64; 2]>());
    slots
}

/// Asks the kernel to back the whole 2 MiB pages of an allocation at `start` of `bytes` bytes with
/// huge pages, from their first touch on.
///
/// `start` and `bytes` are meant to be an allocation's address and capacity; the advice is only a
/// hint, so any other range changes nothing either.
#[cfg(all(target_os = "linux", feature = "mmap"))]
#[allow(unsafe_code)]
pub fn advise_huge_pages(start: usize, bytes: usize) {
    const HUGE: usize = 2 << 20;
    // Only whole 2 MiB pages inside the allocation can be huge.
    let first = start.next_multiple_of(HUGE);
    let end = (start + bytes) / HUGE * HUGE;
    if end > first {
        // SAFETY: MADV_HUGEPAGE only changes how the kernel backs the pages, never their
        // contents, whatever the range; a range that is not mapped, or a kernel that refuses,
        // gives an error, which changes nothing.
        unsafe {
            libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
        }
    }
}

/// Asks for huge pages: on Linux with the `mmap` feature only; elsewhere this does nothing.
#[cfg(not(all(target_os = "linux", feature = "mmap")))]
pub fn advise_huge_pages(_start: usize, _bytes: usize) {}

/// Asks the processor to bring the cache line of `item` closer (a hint only).
#[inline]
pub fn prefetch<T>(item: &T) {
    prefetch_line(item as *const T as *const i8);
}

#[cfg(target_arch = "x86_64")]
#[inline]
#[allow(unsafe_code)]
fn prefetch_line(address: *const i8) {
    // SAFETY: a prefetch is only a hint: it never faults, whatever the address, and changes no
    // memory; SSE, which it needs, is part of every x86-64 processor.
    unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(address) }
}

#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn prefetch_line(_address: *const i8) {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering;

    #[test]
    fn slots_start_empty_and_take_the_size_asked() {
        // Large enough to span several huge pages, so the advice has whole pages to act on.
        let slots = zeroed_slots(1 << 18);
        assert_eq!(slots.len(), 1 << 18);
        assert!(slots.iter().all(|s| s[0].load(Ordering::Relaxed) == 0 && s[1].load(Ordering::Relaxed) == 0));
        prefetch(&slots[12345]);
        assert!(zeroed_slots(0).is_empty());
    }

    /// Returns the minor page faults of the calling thread so far.
    #[cfg(target_os = "linux")]
    fn minor_faults() -> u64 {
        let stat = std::fs::read_to_string("/proc/thread-self/stat").unwrap();
        // The fields after the command's name, which ends with the last ')': the tenth field, minflt, is the eighth.
        stat[stat.rfind(')').unwrap() + 1..].split_whitespace().nth(7).unwrap().parse().unwrap()
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn zeroing_touches_no_page() {
        // 256 MiB: written here, that was 65,536 faults of 4 KiB pages, or 128 of huge pages.
        let before = minor_faults();
        let slots = zeroed_slots(16 << 20);
        let faults = minor_faults() - before;
        assert_eq!(slots.len(), 16 << 20);
        assert!(faults < 16, "{faults} page faults to set up 256 MiB of slots");
    }
}
