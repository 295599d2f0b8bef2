//! The `lantern` binary: parse the command line, call the library, map the outcome to an exit code.

/// The binary's allocator: a pack's load is millions of small allocations on every core at once,
/// which glibc's malloc served at a quarter of a check's instructions.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    lantern::cli::main()
}
