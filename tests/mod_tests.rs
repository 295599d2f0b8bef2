//! Every harness test of the bundled mods and of `scripts/` as an individual `cargo test` case, so
//! the project's own CI runs them. The files are run once through the harness; each result becomes
//! a trial (libtest-mimic) that passes or fails with the harness's message.

use lantern::harness::{self, Harness, Status};
use lantern::lua::Limits;
use libtest_mimic::{Arguments, Failed, Trial};
use std::path::PathBuf;
use std::sync::Arc;

fn main() {
    let args = Arguments::from_args();
    let mods = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("mods");
    let files = harness::discover(&mods);
    let h = Arc::new(Harness::new(&mods, Limits::default()));
    let results = harness::run(&h, &files, None);
    let trials = results
        .into_iter()
        .map(|r| {
            let name = r.full_name();
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
