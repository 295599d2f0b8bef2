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
    a_failing_handler_fails_its_test,
    a_check_that_is_no_boolean_fails_its_test,
);

/// A statistical test made a game per seed and failed at the 65th ("at most 64 games alive"),
/// though each was unreachable after its pass (a creature handle kept its game for one more
/// collection), and a test's budget was a handler's. A test that runs out of its own budget now
/// says what it spent, its games or its own code, and the flag that raises it.
#[test]
fn a_test_that_runs_out_says_whether_its_games_or_its_code_spent_it() {
    let dir = tempfile::tempdir().unwrap();
    common::world::copy_dir(&root().join("mods/core"), &dir.path().join("core"));
    std::fs::create_dir_all(dir.path().join("core/tests")).unwrap();
    std::fs::write(
        dir.path().join("core/tests/spend.lua"),
        "it('makes a game per seed, each collected', function()\n\
           for seed = 1, 200 do local g = lantern.test.game{ seed = seed, mods = { 'core' } } local hp = g.player.health end\n\
         end)\n\
         it('makes games without end', function()\n\
           for seed = 1, 1e9 do local g = lantern.test.game{ seed = seed, mods = { 'core' } } end\n\
         end)\n\
         it('loops', function() while true do end end)\n",
    )
    .unwrap();
    let out = lantern(
        &["test", "--mods", ".", "--test-instructions", "20000000"],
        dir.path(),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("ok   makes a game per seed, each collected"),
        "{text}"
    );
    assert!(
        text.contains("this test ran past its instruction budget of 20.0 M: 400 test games cost 20.0 M of it, its own code the rest; raise it with `lantern test --test-instructions N`"),
        "{text}"
    );
    assert!(
        text.contains("this test ran past its instruction budget of 20.0 M: its own code spent it all (an endless loop?); raise it with `lantern test --test-instructions N`"),
        "{text}"
    );
}
