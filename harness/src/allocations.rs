//! Counting allocations: a global allocator that counts only inside a
//! region, so a variant's allocations per element are an exact figure.
//!
//! A time says how fast; how often a kernel goes to the allocator is
//! often why. [`CountingAlloc`] wraps an allocator (the system's, or a
//! program's own) and, while a region is open, counts every allocation
//! and reallocation, the bytes asked for, and the most bytes live above
//! the region's start. Outside a region it costs one relaxed load a call.
//!
//! The counters are process-wide, not per thread: a variant that runs on
//! a thread pool (meteor's `parallel` on rayon) allocates on its workers.
//! So nothing else may run while a region is open: `bench` opens one on
//! the measuring thread, for one untimed pass over a verified batch, its
//! output buffer allocated before (`engine/bench/verified.rs`).
//!
//! The `bitbench` binary and [`main!`](crate::main) install it; a program
//! with an allocator of its own wraps that one in it instead. Where none
//! is installed, [`installed`] says so and no counts are recorded.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering::Relaxed};

/// Whether a region is open.
static COUNTING: AtomicBool = AtomicBool::new(false);

/// The region's counts.
static COUNTERS: Counters = Counters::new();

/// What a region has counted so far.
struct Counters {
    /// Allocations and reallocations.
    calls: AtomicU64,
    /// Bytes asked for (a reallocation's new size).
    bytes: AtomicU64,
    /// Bytes allocated less bytes freed; below zero when the region frees
    /// what was allocated before it.
    live: AtomicI64,
    /// The most `live` has been.
    peak: AtomicI64,
}

impl Counters {
    const fn new() -> Self {
        Counters {
            calls: AtomicU64::new(0),
            bytes: AtomicU64::new(0),
            live: AtomicI64::new(0),
            peak: AtomicI64::new(0),
        }
    }

    fn reset(&self) {
        self.calls.store(0, Relaxed);
        self.bytes.store(0, Relaxed);
        self.live.store(0, Relaxed);
        self.peak.store(0, Relaxed);
    }

    /// Notes `calls` more calls asking for `bytes`, and `grown` bytes
    /// more live (negative: freed).
    #[inline]
    fn note(&self, calls: u64, bytes: usize, grown: isize) {
        self.calls.fetch_add(calls, Relaxed);
        self.bytes.fetch_add(bytes as u64, Relaxed);
        let live = self.live.fetch_add(grown as i64, Relaxed) + grown as i64;
        self.peak.fetch_max(live, Relaxed);
    }

    fn read(&self) -> Counted {
        Counted {
            allocations: self.calls.load(Relaxed),
            bytes: self.bytes.load(Relaxed),
            peak: self.peak.load(Relaxed).max(0) as u64,
        }
    }
}

/// A global allocator that counts the allocations made inside a region
/// and passes every call on to `A`.
///
/// Install it with the system allocator:
///
/// ```
/// #[global_allocator]
/// static ALLOC: bitbench::CountingAlloc = bitbench::CountingAlloc::system();
/// ```
///
/// or around an allocator of your own, with
/// `bitbench::main!(own_allocator; …)`, which then installs none:
///
/// ```
/// # use std::alloc::System as MyAllocator;
/// #[global_allocator]
/// static ALLOC: bitbench::CountingAlloc<MyAllocator> = bitbench::CountingAlloc::new(MyAllocator);
/// ```
#[derive(Debug, Default)]
pub struct CountingAlloc<A = System> {
    inner: A,
}

impl CountingAlloc {
    /// Counting around the system allocator.
    pub const fn system() -> Self {
        CountingAlloc { inner: System }
    }
}

impl<A> CountingAlloc<A> {
    /// Counting around `inner`.
    pub const fn new(inner: A) -> Self {
        CountingAlloc { inner }
    }
}

// SAFETY: every call is passed unchanged to `inner`, which upholds
// `GlobalAlloc`'s contract; the counting around it touches only atomics
// and never allocates.
unsafe impl<A: GlobalAlloc> GlobalAlloc for CountingAlloc<A> {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.load(Relaxed) {
            COUNTERS.note(1, layout.size(), layout.size() as isize);
        }
        // SAFETY: the caller's `layout` is passed on as given.
        unsafe { self.inner.alloc(layout) }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if COUNTING.load(Relaxed) {
            COUNTERS.note(1, layout.size(), layout.size() as isize);
        }
        // SAFETY: as for `alloc`.
        unsafe { self.inner.alloc_zeroed(layout) }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if COUNTING.load(Relaxed) {
            COUNTERS.note(0, 0, -(layout.size() as isize));
        }
        // SAFETY: `ptr` was allocated by `inner` (every allocation goes
        // through it) with this `layout`, as the caller guarantees.
        unsafe { self.inner.dealloc(ptr, layout) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if COUNTING.load(Relaxed) {
            COUNTERS.note(1, new_size, new_size as isize - layout.size() as isize);
        }
        // SAFETY: as for `dealloc`, and `new_size` as the caller gives it.
        unsafe { self.inner.realloc(ptr, layout, new_size) }
    }
}

/// What a region allocated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Counted {
    /// Allocations and reallocations.
    pub allocations: u64,
    /// Bytes asked for (a reallocation's new size).
    pub bytes: u64,
    /// The most bytes live above the region's start.
    pub peak: u64,
}

/// Runs `f` with the counters on; what it (and every other thread
/// meanwhile) allocated. Regions do not nest.
pub fn count<R>(f: impl FnOnce() -> R) -> (R, Counted) {
    COUNTERS.reset();
    COUNTING.store(true, Relaxed);
    let r = std::hint::black_box(f());
    COUNTING.store(false, Relaxed);
    (r, COUNTERS.read())
}

/// Whether the process's global allocator counts: one allocation made in
/// a region is seen.
pub fn installed() -> bool {
    let (_, counted) = count(|| drop(std::hint::black_box(Box::new(0u64))));
    counted.allocations > 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_the_allocator_installed_nothing_is_counted() {
        // The library's test binary keeps the system allocator.
        assert!(!installed());
        let (v, counted) = count(|| vec![1u8; 100]);
        assert_eq!(v.len(), 100);
        assert_eq!(counted, Counted::default());
    }

    #[test]
    fn the_peak_is_what_was_live_above_the_start() {
        // Driven by hand: the counters' arithmetic, not an allocator.
        let c = Counters::new();
        c.note(0, 0, -32); // freed what was allocated before the region
        c.note(1, 64, 64);
        c.note(1, 256, 192); // grown from 64 to 256
        c.note(0, 0, -256);
        let counted = c.read();
        assert_eq!((counted.allocations, counted.bytes), (2, 320));
        assert_eq!(counted.peak, 224);
        let freed = Counters::new();
        freed.note(0, 0, -32);
        assert_eq!(freed.read().peak, 0);
    }
}
