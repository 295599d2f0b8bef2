//! Every harness test of Harvest's mods (`examples/harvest/mods`) as an individual `cargo test`
//! case, run with Harvest's vocabulary: its verbs, state and tables. Built without the roguelike
//! too, as a game that embeds lantern takes it.

#[path = "../examples/harvest/farm.rs"]
#[allow(dead_code)]
mod farm;

use lantern::harness::{self, Harness, Status};
use lantern::lua::Limits;
use libtest_mimic::{Arguments, Failed, Trial};
use std::path::PathBuf;
use std::sync::Arc;

fn main() {
    let args = Arguments::from_args();
    let mods = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/harvest/mods");
    let files = harness::discover(&mods);
    let h = Arc::new(Harness::new(&mods, Limits::default()).with_rules(farm::rules()));
    let results = harness::run(&h, &files, None);
    let trials = results
        .into_iter()
        .map(|r| {
            let name = format!("harvest/{}", r.full_name());
            let ignored = r.status == Status::Skipped;
            Trial::test(name, move || match r.status {
                Status::Passed | Status::Skipped => Ok(()),
                Status::Failed { message, location } => Err(Failed::from(format!(
                    "{}{message}",
                    location.map(|l| format!("{l}: ")).unwrap_or_default()
                ))),
            })
            .with_ignored_flag(ignored)
        })
        .collect();
    libtest_mimic::run(&args, trials).exit();
}
