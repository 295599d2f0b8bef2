//! The `lantern` binary: parse the command line, call the library, map the outcome to an exit code.

#[cfg(feature = "allocator")]
mod allocator;

fn main() -> std::process::ExitCode {
    #[cfg(feature = "allocator")]
    allocator::keep_freed_memory();
    lantern::cli::main()
}
