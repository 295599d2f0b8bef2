//! The `lantern` binary: parse the command line, call the library, map the outcome to an exit code.

/// The binary's allocator: a pack's load is millions of small allocations on every core at once,
/// which glibc's malloc served at a quarter of a check's instructions.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's `mi_option_purge_delay` (the place of `purge_delay` in `mi_option_e`, its header's
/// list of options, which the Rust bindings do not name).
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

fn main() -> std::process::ExitCode {
    // Memory freed is kept for the next allocation rather than handed back to the system and
    // asked for again: on these machines a page the system hands out is cleared first, and in a
    // check of a million definitions that clearing was half of all the time spent.
    // SAFETY: sets a number mimalloc reads when it frees; no allocation is in flight yet.
    unsafe { libmimalloc_sys::mi_option_set(PURGE_DELAY, -1) };
    lantern::cli::main()
}
