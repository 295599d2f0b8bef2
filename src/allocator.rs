//! The `lantern` binary's allocator, mimalloc, called directly: its plain entry point where
//! its blocks are aligned enough, and its option to keep freed memory. The library never chooses a
//! game's allocator; this is the binary's choice alone.

use libmimalloc_sys as mi;
use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

/// The binary's allocator, mimalloc: a pack's load is millions of small allocations on every core
/// at once, which glibc's malloc served at a quarter of a check's instructions. An allocation
/// that needs no more alignment than mimalloc gives every block (16 bytes, or the size below
/// it, as the system allocator's rule has it) takes its plain path, half the instructions of its
/// aligned one.
struct Mimalloc;

/// The alignment every mimalloc block of at least this size has.
const PLAIN_ALIGN: usize = 16;

/// Whether a block of `size` bytes from the plain entry point is aligned to `align`.
fn plain(align: usize, size: usize) -> bool {
    align <= PLAIN_ALIGN && align <= size
}

// SAFETY: each call passes mimalloc what `GlobalAlloc` was given, a layout of non-zero size or a
// block mimalloc allocated, and mimalloc's blocks meet the layout's alignment (the plain path only
// where `plain` says its blocks do). The same holds for every block below.
unsafe impl GlobalAlloc for Mimalloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: see above.
        unsafe {
            if plain(layout.align(), layout.size()) {
                mi::mi_malloc(layout.size()) as *mut u8
            } else {
                mi::mi_malloc_aligned(layout.size(), layout.align()) as *mut u8
            }
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: see above.
        unsafe {
            if plain(layout.align(), layout.size()) {
                mi::mi_zalloc(layout.size()) as *mut u8
            } else {
                mi::mi_zalloc_aligned(layout.size(), layout.align()) as *mut u8
            }
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        // SAFETY: see above.
        unsafe { mi::mi_free(ptr as *mut c_void) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: see above; the new size keeps the layout's alignment rule.
        unsafe {
            if plain(layout.align(), new_size) {
                mi::mi_realloc(ptr as *mut c_void, new_size) as *mut u8
            } else {
                mi::mi_realloc_aligned(ptr as *mut c_void, new_size, layout.align()) as *mut u8
            }
        }
    }
}

#[global_allocator]
static ALLOCATOR: Mimalloc = Mimalloc;

/// mimalloc's `mi_option_purge_delay` (the place of `purge_delay` in `mi_option_e`, its header's
/// list of options, which the Rust bindings do not name).
const PURGE_DELAY: mi::mi_option_t = 15;

/// Memory freed is kept for the next allocation rather than handed back to the system and asked
/// for again: on these machines a page the system hands out is cleared first, and in a check of a
/// million definitions that clearing was half of all the time spent.
pub(crate) fn keep_freed_memory() {
    // SAFETY: sets a number mimalloc reads when it frees; it is called before any thread starts.
    unsafe { mi::mi_option_set(PURGE_DELAY, -1) };
}
