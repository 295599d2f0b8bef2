//! Harness results as libtest-mimic trials: each mod test becomes its own `cargo test` case that
//! passes or fails with the harness's message. Shared by `mod_tests.rs` and `harvest_mods.rs`.

use lantern::harness::{Status, TestResult};
use libtest_mimic::{Failed, Trial};

/// One trial per result, named `prefix` + the result's full name; skipped tests are ignored.
pub(crate) fn trials(results: Vec<TestResult>, prefix: &str) -> Vec<Trial> {
    results
        .into_iter()
        .map(|r| {
            let name = format!("{prefix}{}", r.full_name());
            let ignored = r.status == Status::Skipped;
            Trial::test(name, move || match r.status {
                Status::Passed | Status::Skipped => Ok(()),
                Status::Failed { message, location } => Err(Failed::from(format!(
                    "{}{message}",
                    location.map(|l| format!("{l}: ")).unwrap_or_default()
                ))),
                // A status a later lantern adds is not a pass until this says so.
                other => Err(Failed::from(format!("{other:?}"))),
            })
            .with_ignored_flag(ignored)
        })
        .collect()
}
