//! The `lantern` binary: parse the command line, call the library, map the outcome to an exit code.

fn main() -> std::process::ExitCode {
    lantern::cli::main()
}
