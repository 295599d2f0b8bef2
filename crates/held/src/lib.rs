//! The system allocator, counting the bytes the process holds: lantern's memory benches and tests
//! (sessions over one mod set, the colony's flat memory, the arena server) install it and read
//! [`held`] around what they measure. Lua allocates through Rust, so its bytes are counted too.
//!
//! ```
//! #[global_allocator]
//! static COUNTING: held::Counting = held::Counting;
//!
//! let before = held::held();
//! let kept = vec![0u8; 4096];
//! assert!(held::held() >= before + 4096);
//! # drop(kept);
//! ```

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

static HELD: AtomicUsize = AtomicUsize::new(0);

/// The bytes held now through [`Counting`] (0 when it is not the global allocator).
pub fn held() -> usize {
    HELD.load(Ordering::Relaxed)
}

/// The system allocator, counting the bytes held: install it with `#[global_allocator]`.
pub struct Counting;

// SAFETY: every call is passed to the system allocator as made; only counts are added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            HELD.fetch_add(layout.size(), Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(ptr, layout) };
        HELD.fetch_sub(layout.size(), Ordering::Relaxed);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            HELD.fetch_add(new_size, Ordering::Relaxed);
            HELD.fetch_sub(layout.size(), Ordering::Relaxed);
        }
        p
    }
}
