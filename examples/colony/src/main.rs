//! Runs the colony headless for a number of ticks (`colony [TICKS] [SEED] [MODS]`, the bundled
//! mods by default) and prints what its mods said and the game's state hash.

use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let ticks: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(300);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let mods = args
        .next()
        .map_or_else(colony::mods_dir, std::path::PathBuf::from);
    let mut app = match colony::app(&[mods], seed, 1000) {
        Ok(app) => app,
        Err(e) => {
            eprintln!("{}", lantern::diag::visible(&e.to_string()));
            if let Some(p) = e.problems() {
                eprintln!("{p}");
            }
            return ExitCode::FAILURE;
        }
    };
    for _ in 0..ticks {
        app.update();
        let out = colony::take_output(&mut app);
        for line in &out.messages {
            println!("{}", lantern::diag::visible(line));
        }
        for p in &out.problems {
            eprintln!("{p}");
        }
        for e in &out.errors {
            eprintln!("error: {}", lantern::diag::visible(&e.to_string()));
        }
    }
    let population = colony::population(app.world());
    println!("after {ticks} ticks: {population} colonists");
    println!("state hash: {}", colony::state_hash(&mut app));
    ExitCode::SUCCESS
}
