//! Memory for large tables probed at random: huge pages, zeroed atomic slots, prefetching.
//!
//! A probe of a table of gigabytes (a database layer, the engine's transposition and proof
//! tables) is a random access: it nearly always misses the cache, and with 4 KiB pages the TLB
//! too. These helpers are written once here, the lowest crate that needs them, and the engine's
//! tables use them from here.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

/// A table's 4 KiB pages for each node its searches must report ([`Slots::worked`]) before the
/// table is moved to huge pages: a quarter of a node a page.
///
/// A search probes its table at random, so within a few thousand nodes it has touched every 2 MiB
/// page of it: asked for huge pages from the start, even a short solve in a large table paid the
/// kernel's zeroing of the whole table in huge pages. In 4 KiB pages it pays only for the pages it
/// writes to, but every probe then waits on a page walk, which doubles a long solve's time. By
/// one node for every four pages a search has written to only part of the pages; collapsing the
/// table into huge pages then copies few of them, and a search of fewer nodes never pays for it
/// (docs/measurements.md, "huge pages only where they pay": one node a page, or four nodes a page,
/// wrote more small pages first and took more system time to collapse).
pub const PROMOTE_PAGES_PER_NODE: u64 = 4;

/// Bytes of a table moved to huge pages at one report of work ([`Slots::worked`]): 32 huge pages,
/// so that the thread doing it stops its search for a fraction of a second, not the seconds the
/// kernel can take for a table of gigabytes, and a timed search does not overrun its time by
/// more. Smaller chunks spread the move over more reports, and the pages written in between
/// are touched in 4 KiB pages, then copied (docs/measurements.md).
const COLLAPSE_CHUNK: usize = 64 << 20;

/// The bytes of a huge page, the unit of the advice.
const HUGE_PAGE: usize = 2 << 20;

/// The bytes of a small page, the unit of the threshold.
const SMALL_PAGE: u64 = 4 << 10;

/// How far a table's move to huge pages has got ([`Slots::promotion`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Promotion {
    /// The searches have not yet done enough work: the table is in 4 KiB pages.
    Waiting,
    /// The table has been asked for huge pages and is being collapsed into them, a chunk at each
    /// report of work.
    Underway,
    /// Nothing more to do: the table has been moved to huge pages, or cannot be (too small for a
    /// whole huge page, or a system without the advice), or asked for them from the start
    /// (a kernel that cannot collapse pages later).
    Done,
}

/// A table's slots of two words, zeroed, in memory that the kernel backs only as it is first
/// touched; moved to huge pages once its searches have done enough work to pay for them.
///
/// The slots are the table's memory: [`Slots`] dereferences to them. A search reports its work
/// with [`Slots::worked`] every few thousand nodes.
pub struct Slots {
    slots: Vec<[AtomicU64; 2]>,
    /// Nodes reported so far, counted until the threshold is crossed.
    work: AtomicU64,
    /// Nodes after which the slots are moved to huge pages: one for every
    /// [`PROMOTE_PAGES_PER_NODE`] of their 4 KiB pages.
    threshold: u64,
    /// Set when nothing is left to do: the only field a report reads once it is.
    done: AtomicBool,
    /// The bytes of the slots' whole huge pages already collapsed; held by the one thread moving
    /// the next chunk, so that the advice comes before any collapse and no chunk is done twice.
    collapsed: Mutex<usize>,
}

impl Slots {
    /// Returns `entries` empty slots in zeroed memory that the kernel backs only as it is first
    /// touched, in 4 KiB pages until [`Slots::worked`] has heard enough work.
    ///
    /// Nothing is written here: the allocation is a zeroed one (`calloc`, fresh pages from the
    /// kernel, already zero), so setting a table up costs nothing, and each page is zeroed once,
    /// by the kernel, when a search first touches it. Writing the zeros here had cost more system
    /// time than a small solve in a large table.
    ///
    /// Slots that `threads` threads will write to at once (more than one) are asked for huge
    /// pages from the start instead. In 4 KiB pages every first write to a page a probe has read
    /// before (the kernel's shared page of zeros) must flush the page from the other threads'
    /// address caches: an interrupt to each other core, a trap to the hypervisor in a virtual
    /// machine, for each 4 KiB written; and the collapse into huge pages stops the other threads'
    /// page faults while it runs. With two threads in a 2 GiB table that cost Kalah(6,5) 3.6 to
    /// 8.0 s of system time instead of 0.9 to 1.1 s (docs/measurements.md, 2026-11-29).
    pub fn zeroed(entries: usize, threads: usize) -> Slots {
        let slots = zeroed_vec(entries);
        let bytes = slots.capacity() * std::mem::size_of::<[AtomicU64; 2]>();
        let threshold = (bytes as u64 / SMALL_PAGE / PROMOTE_PAGES_PER_NODE).max(1);
        let (start, end) = whole_huge_pages(slots.as_ptr() as usize, bytes);
        // Small pages until the work says otherwise, whatever the system's default; where pages
        // cannot be collapsed later, or several threads write, huge pages from the start, as long
        // searches need them; where there are no huge pages to ask for, nothing to do at all.
        let done = if threads > 1 {
            advise_huge_pages(start, end - start);
            true
        } else {
            match later_collapse(start, end) {
                Later::Possible => false,
                Later::Impossible => {
                    advise_huge_pages(start, end - start);
                    true
                }
                Later::Pointless => true,
            }
        };
        Slots { slots, work: AtomicU64::new(0), threshold, done: AtomicBool::new(done), collapsed: Mutex::new(0) }
    }

    /// Hears that a search has searched `nodes` more nodes with these slots; once the work heard
    /// exceeds the threshold, each call moves the next chunk of the slots to huge pages, until all
    /// are.
    ///
    /// A search calls it where it already adds up its nodes every few thousand: once the slots
    /// are done it costs one relaxed load. The thread that crosses the threshold asks for huge
    /// pages (`MADV_HUGEPAGE`: new pages are huge from then on), and from that report on each
    /// collapses the next 64 MiB (`MADV_COLLAPSE`, Linux 6.1 and later: the 4 KiB pages
    /// already touched copied into huge pages), one thread at a time. Where the collapse fails
    /// the advice alone still makes the first touch of an untouched 2 MiB page a huge one.
    #[inline]
    pub fn worked(&self, nodes: u64) {
        if !self.done.load(Ordering::Relaxed) {
            self.promote(nodes);
        }
    }

    /// The rest of [`Slots::worked`], taken only until the slots are done: out of line, so the
    /// report stays a load and a branch in the search's loop.
    #[cold]
    #[inline(never)]
    fn promote(&self, nodes: u64) {
        if self.work.fetch_add(nodes, Ordering::Relaxed).saturating_add(nodes) < self.threshold {
            return;
        }
        // Another thread holding the lock is collapsing a chunk: this one goes on searching.
        let Ok(mut collapsed) = self.collapsed.try_lock() else { return };
        let (start, end) = whole_huge_pages(self.slots.as_ptr() as usize, self.bytes());
        if *collapsed == 0 {
            advise_huge_pages(start, end - start);
        }
        let from = start + *collapsed;
        let to = (from + COLLAPSE_CHUNK).min(end);
        collapse(from, to - from);
        *collapsed = to - start;
        if to == end {
            self.done.store(true, Ordering::Relaxed);
        }
    }

    /// Returns how far the move to huge pages has got.
    pub fn promotion(&self) -> Promotion {
        if self.done.load(Ordering::Relaxed) {
            Promotion::Done
        } else if self.work.load(Ordering::Relaxed) >= self.threshold {
            Promotion::Underway
        } else {
            Promotion::Waiting
        }
    }

    /// Returns the bytes of the slots.
    fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<[AtomicU64; 2]>()
    }
}

impl std::ops::Deref for Slots {
    type Target = [[AtomicU64; 2]];

    fn deref(&self) -> &[[AtomicU64; 2]] {
        &self.slots
    }
}

/// Returns `entries` empty slots for `threads` threads to write to ([`Slots::zeroed`]).
pub fn zeroed_slots(entries: usize, threads: usize) -> Slots {
    Slots::zeroed(entries, threads)
}

/// Returns `entries` zeroed slots as a vector, without touching their memory.
#[allow(unsafe_code)]
fn zeroed_vec(entries: usize) -> Vec<[AtomicU64; 2]> {
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
    unsafe {
        let start = std::alloc::alloc_zeroed(layout).cast::<[AtomicU64; 2]>();
        if start.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        Vec::from_raw_parts(start, entries, entries)
    }
}

/// Returns the start and end of the whole 2 MiB pages within `bytes` bytes at `start` (equal when
/// there are none): only those can be huge, and only those belong to the allocation alone.
fn whole_huge_pages(start: usize, bytes: usize) -> (usize, usize) {
    let first = start.next_multiple_of(HUGE_PAGE);
    let end = (start + bytes) / HUGE_PAGE * HUGE_PAGE;
    (first, end.max(first))
}

/// Whether a range of memory can be moved to huge pages once it is in use.
// Without the advice (not Linux, or without `mmap`) every range is `Pointless`.
#[cfg_attr(not(all(target_os = "linux", feature = "mmap")), allow(dead_code))]
enum Later {
    /// It can: it has been asked to stay in 4 KiB pages until then.
    Possible,
    /// The kernel cannot collapse pages (before Linux 6.1, or without transparent huge pages).
    Impossible,
    /// No huge pages to ask for: no whole huge page in the range, or not Linux with `mmap`.
    Pointless,
}

/// `MADV_COLLAPSE` (Linux 6.1): the `libc` crate names it only for glibc targets; its number is
/// the same on every architecture.
#[cfg(all(target_os = "linux", feature = "mmap"))]
const MADV_COLLAPSE: libc::c_int = 25;

/// Tells whether the whole huge pages from `start` to `end` can be collapsed later, and if so
/// asks the kernel to keep them in 4 KiB pages until then (`MADV_NOHUGEPAGE`, which the later
/// `MADV_HUGEPAGE` undoes), so that a short search pays only for the small pages it touches even
/// where the system gives every allocation huge pages.
#[cfg(all(target_os = "linux", feature = "mmap"))]
#[allow(unsafe_code)]
fn later_collapse(start: usize, end: usize) -> Later {
    if end == start {
        return Later::Pointless;
    }
    // SAFETY: the advice changes how the kernel backs the pages, never their contents. An empty
    // range does nothing: the kernel only checks that it knows the advice (it answers EINVAL
    // otherwise), which is the question. The second range is whole pages of an allocation.
    unsafe {
        if libc::madvise(start as *mut libc::c_void, 0, MADV_COLLAPSE) != 0 {
            return Later::Impossible;
        }
        libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_NOHUGEPAGE);
    }
    Later::Possible
}

#[cfg(not(all(target_os = "linux", feature = "mmap")))]
fn later_collapse(_start: usize, _end: usize) -> Later {
    Later::Pointless
}

/// Asks the kernel to put the pages from `start`, `bytes` long, into huge pages now
/// (`MADV_COLLAPSE`), copying the 4 KiB pages already touched. Only a hint: where it fails (a
/// huge page of which nothing was touched, a kernel without it) the pages stay as they are, and
/// the huge-page advice still makes the first touch of an untouched 2 MiB page a huge one.
#[cfg(all(target_os = "linux", feature = "mmap"))]
#[allow(unsafe_code)]
fn collapse(start: usize, bytes: usize) {
    if bytes > 0 {
        // SAFETY: MADV_COLLAPSE changes how the kernel backs the pages, never their contents
        // (it copies the pages it replaces); the range is whole huge pages of an allocation, and
        // an error changes nothing.
        unsafe {
            libc::madvise(start as *mut libc::c_void, bytes, MADV_COLLAPSE);
        }
    }
}

#[cfg(not(all(target_os = "linux", feature = "mmap")))]
fn collapse(_start: usize, _bytes: usize) {}

/// Asks the kernel to back the whole 2 MiB pages of an allocation at `start` of `bytes` bytes with
/// huge pages, from their first touch on.
///
/// `start` and `bytes` are meant to be an allocation's address and capacity; the advice is only a
/// hint, so any other range changes nothing either.
#[cfg(all(target_os = "linux", feature = "mmap"))]
#[allow(unsafe_code)]
pub fn advise_huge_pages(start: usize, bytes: usize) {
    // Only whole 2 MiB pages inside the allocation can be huge.
    let (first, end) = whole_huge_pages(start, bytes);
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
        let slots = zeroed_slots(1 << 18, 1);
        assert_eq!(slots.len(), 1 << 18);
        assert!(slots.iter().all(|s| s[0].load(Ordering::Relaxed) == 0 && s[1].load(Ordering::Relaxed) == 0));
        prefetch(&slots[12345]);
        assert!(zeroed_slots(0, 1).is_empty());
    }

    /// Returns the kernel's flags of the mapping that holds `address` (`hg`: asked for huge
    /// pages, `nh`: asked for none), from `/proc/self/smaps`.
    #[cfg(all(target_os = "linux", feature = "mmap"))]
    fn vm_flags(address: usize) -> String {
        let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
        let mut inside = false;
        for line in smaps.lines() {
            let range = line.split_whitespace().next().and_then(|r| r.split_once('-'));
            if let Some((Ok(from), Ok(to))) =
                range.map(|(a, b)| (usize::from_str_radix(a, 16), usize::from_str_radix(b, 16)))
            {
                inside = from <= address && address < to;
            } else if inside && line.starts_with("VmFlags:") {
                return line.to_string();
            }
        }
        panic!("no mapping holds {address:#x}")
    }

    #[test]
    fn light_work_leaves_the_slots_in_small_pages_and_enough_moves_them_once() {
        // 256 MiB: 65,536 pages of 4 KiB, 128 huge pages or 127 (the allocation's alignment).
        let slots = zeroed_slots(16 << 20, 1);
        let (start, end) = whole_huge_pages(slots.as_ptr() as usize, slots.bytes());
        if slots.promotion() == Promotion::Done {
            // A system that cannot move pages later: nothing waits for the work.
            return;
        }
        let threshold = 65_536 / PROMOTE_PAGES_PER_NODE;
        slots.worked(threshold - 1);
        assert_eq!(slots.promotion(), Promotion::Waiting);
        #[cfg(all(target_os = "linux", feature = "mmap"))]
        {
            let flags = vm_flags(start);
            assert!(flags.contains(" nh") && !flags.contains(" hg"), "{flags}");
        }
        // The report that crosses the threshold asks for huge pages and moves the first chunk;
        // each later one the next chunk, once.
        slots.worked(1);
        #[cfg(all(target_os = "linux", feature = "mmap"))]
        {
            let flags = vm_flags(start);
            assert!(flags.contains(" hg") && !flags.contains(" nh"), "{flags}");
        }
        let mut reports = 1;
        while slots.promotion() != Promotion::Done {
            assert_eq!(slots.promotion(), Promotion::Underway);
            slots.worked(0);
            reports += 1;
        }
        assert_eq!(reports, (end - start).div_ceil(COLLAPSE_CHUNK));
        assert_eq!(*slots.collapsed.lock().unwrap(), end - start);
        // Nothing more to do, however much more work is heard.
        slots.worked(u64::MAX);
        assert_eq!(*slots.collapsed.lock().unwrap(), end - start);
    }

    #[test]
    fn slots_several_threads_write_ask_for_huge_pages_from_the_start() {
        let slots = zeroed_slots(16 << 20, 2);
        assert_eq!(slots.promotion(), Promotion::Done);
        #[cfg(all(target_os = "linux", feature = "mmap"))]
        {
            let (start, _) = whole_huge_pages(slots.as_ptr() as usize, slots.bytes());
            let flags = vm_flags(start);
            assert!(flags.contains(" hg") && !flags.contains(" nh"), "{flags}");
        }
        // Still nothing touched: the pages are zeroed as the searches first write to them.
        assert!(slots.iter().take(1 << 10).all(|s| s[0].load(Ordering::Relaxed) == 0));
    }

    #[test]
    fn threads_reporting_at_once_move_each_chunk_once() {
        let slots = zeroed_slots(8 << 20, 1);
        let (start, end) = whole_huge_pages(slots.as_ptr() as usize, slots.bytes());
        std::thread::scope(|scope| {
            for _ in 0..4 {
                scope.spawn(|| {
                    while slots.promotion() != Promotion::Done {
                        slots.worked(4096);
                    }
                });
            }
        });
        let collapsed = *slots.collapsed.lock().unwrap();
        assert!(collapsed == end - start || collapsed == 0, "{collapsed} of {}", end - start);
    }

    #[test]
    fn a_table_without_a_whole_huge_page_has_nothing_to_move() {
        let slots = zeroed_slots(1024, 1);
        assert_eq!(slots.promotion(), Promotion::Done);
        slots.worked(u64::MAX);
        assert_eq!(*slots.collapsed.lock().unwrap(), 0);
        assert_eq!(zeroed_slots(0, 1).promotion(), Promotion::Done);
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
        let slots = zeroed_slots(16 << 20, 1);
        let faults = minor_faults() - before;
        assert_eq!(slots.len(), 16 << 20);
        assert!(faults < 16, "{faults} page faults to set up 256 MiB of slots");
    }
}
