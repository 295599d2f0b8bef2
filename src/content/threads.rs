//! How many threads a load reads, parses and resolves on: every core unless the host says fewer
//! (`load::set_threads`). A server running many sessions on a pool of its own gives its loads one
//! thread; `lantern check` of a large pack takes every core.

use std::sync::atomic::{AtomicUsize, Ordering};

/// The most threads a load uses; 0 for every core.
static MOST: AtomicUsize = AtomicUsize::new(0);

/// Sets the most threads every load of this process uses from now on (0: every core).
pub(crate) fn set_most(n: usize) {
    MOST.store(n, Ordering::Relaxed);
}

/// The threads a load may use now: the host's setting, or every core.
pub(crate) fn cores() -> usize {
    let every = std::thread::available_parallelism().map_or(1, |n| n.get());
    match MOST.load(Ordering::Relaxed) {
        0 => every,
        n => n.min(every),
    }
}
