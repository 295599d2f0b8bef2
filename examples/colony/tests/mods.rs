//! The settlement mod's own tests (`mods/settlement/tests/`), run by lantern's harness with the
//! colony's vocabulary: each test game gets a small colony world of its own, and its verbs run
//! the colony's real systems on it.

use lantern::harness::{self, Harness, Status};
use std::sync::Arc;

#[test]
fn the_settlements_tests_pass_on_the_colonys_own_systems() {
    let mods = colony::mods_dir();
    let files = harness::discover(&mods);
    assert!(!files.is_empty());
    let h = Arc::new(Harness::new(&mods, colony::rules(), Default::default()));
    let results = harness::run(&h, &files, None);
    assert_eq!(results.len(), 6, "{results:#?}");
    for r in &results {
        assert!(
            matches!(r.status, Status::Passed),
            "{}: {:?}\n{}",
            r.full_name(),
            r.status,
            r.output.join("\n")
        );
    }
}
