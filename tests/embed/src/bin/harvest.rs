//! Harvest, played from outside lantern's workspace and without lantern's default features: the
//! example's own `farm.rs` and `session.rs`, compiled against the library as a game takes it.
//! `scripts/embed-check` compares what it prints with `cargo run --example harvest`.

#[path = "../../../../examples/harvest/farm.rs"]
#[allow(dead_code)]
mod farm;
#[path = "../../../../examples/harvest/session.rs"]
mod session;

fn main() -> std::process::ExitCode {
    let mods = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/harvest/mods");
    match session::play(&mods) {
        Ok(text) => {
            print!("{text}");
            std::process::ExitCode::SUCCESS
        }
        Err(problems) => {
            eprint!("{problems}");
            std::process::ExitCode::from(1)
        }
    }
}
