//! Every harness test of Harvest's mods (`examples/harvest/mods`) as an individual `cargo test`
//! case, run with Harvest's vocabulary: its verbs, state and tables. Built without the roguelike
//! too, as a game that embeds lantern takes it.

mod common;
#[path = "../examples/harvest/farm.rs"]
#[allow(dead_code)]
mod farm;
#[path = "common/trials.rs"]
mod trials;

use lantern::harness::{self, Harness};
use lantern::lua::Limits;
use libtest_mimic::Arguments;
use std::sync::Arc;

fn main() {
    let args = Arguments::from_args();
    let mods = common::harvest_mods();
    let files = harness::discover(&mods);
    let h = Arc::new(Harness::new(&mods, farm::rules(), Limits::default()));
    let results = harness::run(&h, &files, None);
    let trials = trials::trials(results, "harvest/");
    libtest_mimic::run(&args, trials).exit();
}
