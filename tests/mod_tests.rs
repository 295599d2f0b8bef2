//! Every harness test of the bundled mods and of `scripts/` as an individual `cargo test` case, so
//! the project's own CI runs them. The files are run once through the harness; each result becomes
//! a trial (libtest-mimic) that passes or fails with the harness's message.

mod common;
#[path = "common/trials.rs"]
mod trials;
use lantern::harness::{self, Harness};
use lantern::lua::Limits;
use libtest_mimic::Arguments;
use std::sync::Arc;

fn main() {
    let args = Arguments::from_args();
    // The shipped mods only: a modder's own beside them in `mods/` is theirs to test.
    let shipped = common::shipped_mods();
    let mods = shipped.path().join("mods");
    let files = harness::discover(&mods);
    let h = Arc::new(Harness::new(
        &mods,
        lantern::roguelike::rules(),
        Limits::default(),
    ));
    let results = harness::run(&h, &files, None);
    let trials = trials::trials(results, "");
    libtest_mimic::run(&args, trials).exit();
}
