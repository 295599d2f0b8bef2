//! Hostile test files, each a fixture under `tests/fixtures/hostile_tests/` named after what it
//! broke: `lantern test` over it ends with every test failed at its line with a short message,
//! never a crash, a hang or a forged line. The whole output is compared with the fixture's
//! `expected.txt` (`LANTERN_BLESS=1` rewrites them for review).

mod common;

use common::{expect_file, lantern, root};

fn test_fixture(name: &str) {
    let dir = root().join("tests/fixtures/hostile_tests").join(name);
    let out = lantern(&["test", "--mods", "mods"], &dir);
    let transcript = format!(
        "exit: {}\n--- stdout\n{}--- stderr\n{}",
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    expect_file(&dir.join("expected.txt"), &transcript);
}

macro_rules! fixtures {
    ($($name:ident),* $(,)?) => {
        $( #[test] fn $name() { test_fixture(stringify!($name)); } )*

        #[test]
        fn every_hostile_test_fixture_has_a_test() {
            let listed = [$(stringify!($name)),*];
            for entry in std::fs::read_dir(root().join("tests/fixtures/hostile_tests")).unwrap() {
                let name = entry.unwrap().file_name().to_string_lossy().into_owned();
                assert!(listed.contains(&name.as_str()), "fixture `{name}` has no test in hostile_tests.rs");
            }
        }
    };
}

fixtures!(
    matchers_over_what_a_test_builds,
    locale_template_filled_with_long_text,
    copies_charged_by_their_size,
);
