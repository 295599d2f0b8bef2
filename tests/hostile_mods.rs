//! Hostile mods, each a fixture under `tests/fixtures/hostile/` named after what it broke: every
//! one ends with a located message naming the mod, never a hang, a crash or a read outside the
//! mod. `lantern check` runs each, and its whole output is compared with the fixture's
//! `expected.txt` (`LANTERN_BLESS=1` rewrites them for review). Attacks that need the file system
//! to hold what git cannot (symlinks out, loops, FIFOs) build their mod in a temporary folder; the
//! ones that must show "the game goes on" play a scripted session and check a later command's
//! answer.

mod common;

use common::{expect_file, lantern, lantern_with_input, root};
use std::path::Path;

fn transcript(out: &std::process::Output) -> String {
    format!(
        "exit: {}\n--- stdout\n{}--- stderr\n{}",
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn check_fixture(name: &str) {
    let dir = root().join("tests/fixtures/hostile").join(name);
    let out = lantern(&["check", "--mods", "mods"], &dir);
    expect_file(&dir.join("expected.txt"), &transcript(&out));
}

macro_rules! fixtures {
    ($($name:ident),* $(,)?) => {
        $( #[test] fn $name() { check_fixture(stringify!($name)); } )*

        #[test]
        fn every_hostile_fixture_has_a_test() {
            let listed = [$(stringify!($name)),*];
            for entry in std::fs::read_dir(root().join("tests/fixtures/hostile")).unwrap() {
                let name = entry.unwrap().file_name().to_string_lossy().into_owned();
                assert!(listed.contains(&name.as_str()), "fixture `{name}` has no test in hostile_mods.rs");
            }
        }
    };
}

fixtures!(
    failing_host_calls_in_a_pcall_loop,
    require_of_a_huge_name_in_a_loop,
    gotos_and_labels_by_the_thousand,
    load_of_a_large_chunk_in_a_loop,
    sort_with_an_adversarial_comparator,
    string_format_of_huge_floats,
    string_unpack_z_that_fails,
    tonumber_of_a_huge_string,
    absurd_numbers,
    byte_order_mark_in_lua,
    callbacks_from_c,
    caught_budget_error_still_fails,
    close_handler_loops_after_the_budget,
    coroutines_split_the_work,
    error_names_another_mods_file,
    gc_finalizer_refused,
    load_chunk_named_like_a_mod_file,
    pattern_backtracking,
    require_climbing_out,
    require_out_of_the_mod,
    sort_callbacks_nested,
    straight_line_code_in_a_loop,
    string_format_widths,
    string_pack_over_a_huge_format,
    string_rep_of_nothing,
    table_concat_in_a_loop,
    too_many_handlers,
    utf8_over_a_huge_string,
    xpcall_message_handler_loops,
);

/// A mods folder with one mod `evil` in a temporary folder, for attacks git cannot hold.
fn evil_mod() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("mods/evil");
    std::fs::create_dir_all(m.join("data")).unwrap();
    std::fs::write(
        m.join("mod.toml"),
        "id = \"evil\"\nname = \"Evil\"\nversion = \"0.1.0\"\n",
    )
    .unwrap();
    std::fs::write(m.join("data/tags.toml"), "[[tags]]\nid = \"real\"\n").unwrap();
    dir
}

fn check(dir: &Path) -> String {
    transcript(&lantern(&["check", "--mods", "mods"], dir))
}

#[cfg(unix)]
#[test]
fn a_data_file_linked_to_the_process_environment_is_refused_unread() {
    let dir = evil_mod();
    let data = dir.path().join("mods/evil/data");
    std::os::unix::fs::symlink("/proc/self/environ", data.join("env.toml")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", data.join("zero.toml")).unwrap();
    let out = check(dir.path());
    assert_eq!(
        out,
        "exit: 1\n--- stdout\n2 errors, 0 warnings in 1 mod\n--- stderr\n\
         error: `evil/data/env.toml` leads outside its mod's folder and is not read\n  \
         = help: a mod reads only files inside its own folder; copy the file in instead of linking to it\n\n\
         error: `evil/data/zero.toml` leads outside its mod's folder and is not read\n  \
         = help: a mod reads only files inside its own folder; copy the file in instead of linking to it\n\n"
    );
    // Not a byte of the environment reaches the JSON report either.
    let json = lantern(&["check", "--mods", "mods", "--format", "json"], dir.path());
    let json = String::from_utf8_lossy(&json.stdout);
    assert!(!json.contains("PATH="), "{json}");
}

#[cfg(unix)]
#[test]
fn folders_linked_back_to_themselves_are_walked_once() {
    let dir = evil_mod();
    let data = dir.path().join("mods/evil/data");
    // Walked naively, `a/b/a/b/...`: 2^40 paths.
    std::os::unix::fs::symlink(".", data.join("a")).unwrap();
    std::os::unix::fs::symlink(".", data.join("b")).unwrap();
    std::os::unix::fs::symlink("loop.toml", data.join("loop.toml")).unwrap();
    let out = check(dir.path());
    assert_eq!(
        out,
        "exit: 1\n--- stdout\n1 error, 0 warnings in 1 mod\n--- stderr\n\
         error: `evil/data/loop.toml` is a symlink that leads back to itself and is not read\n\n"
    );
}

#[cfg(unix)]
#[test]
fn a_named_pipe_is_refused_without_waiting_for_a_writer() {
    let dir = evil_mod();
    let fifo = dir.path().join("mods/evil/data/pipe.toml");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        return; // no mkfifo on this system
    }
    let out = check(dir.path());
    assert_eq!(
        out,
        "exit: 1\n--- stdout\n1 error, 0 warnings in 1 mod\n--- stderr\n\
         error: `evil/data/pipe.toml` is a named pipe (FIFO), not a file, and is not read\n\n"
    );
}

#[test]
fn a_data_file_larger_than_the_limit_is_refused() {
    let dir = evil_mod();
    let big = dir.path().join("mods/evil/data/big.toml");
    let file = std::fs::File::create(&big).unwrap();
    // One byte over the 16 MiB a mod's file may hold (docs/security.md).
    file.set_len(16 * 1024 * 1024 + 1).unwrap();
    let out = check(dir.path());
    assert_eq!(
        out,
        "exit: 1\n--- stdout\n1 error, 0 warnings in 1 mod\n--- stderr\n\
         error: `evil/data/big.toml` is larger than 16 MiB and is not read\n  = help: split it into smaller files\n\n"
    );
}

#[test]
fn a_missing_mods_folder_fails_the_test_run() {
    let out = lantern(&["test", "--mods", "no/such/folder"], &root());
    assert_eq!(
        transcript(&out),
        "exit: 2\n--- stdout\n--- stderr\nerror: the mods folder `no/such/folder` does not exist\n  = help: pass the folder that holds your mods with `--mods DIR`\n"
    );
}

/// A mods folder with these mods (`id`, `main.lua`), each depending on nothing.
fn mods_with(scripts: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (id, lua) in scripts {
        let m = dir.path().join("mods").join(id);
        std::fs::create_dir_all(m.join("scripts")).unwrap();
        std::fs::write(
            m.join("mod.toml"),
            format!("id = \"{id}\"\nname = \"{id}\"\nversion = \"0.1.0\"\n"),
        )
        .unwrap();
        std::fs::write(m.join("scripts/main.lua"), lua).unwrap();
    }
    dir
}

/// Plays `commands` over the mods in `dir` and returns everything printed, stdout then stderr.
fn play(dir: &Path, commands: &str) -> String {
    let out = lantern_with_input(&["play", "--no-watch", "--mods", "mods"], dir, commands);
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

#[test]
fn a_thousand_looping_handlers_cost_a_turn_one_budget_and_the_game_goes_on() {
    let dir = mods_with(&[(
        "evil",
        "for i = 1, 1000 do\n  lantern.on('turn_started', function() while true do end end)\nend\n",
    )]);
    let out = play(dir.path(), "emit turn_started\nemit turn_started\nseed\n");
    // Five calls of 10,000,000 use the turn's 50,000,000; the other 995 wait.
    assert_eq!(
        out.matches("instruction budget of 10000000 exceeded")
            .count(),
        8,
        "{out}"
    );
    assert_eq!(out.matches("this mod's instruction budget for the turn (50000000, across all its calls) is used up").count(), 4, "{out}");
    assert!(
        out.contains("[evil] 995 of its handlers did not run this turn"),
        "{out}"
    );
    assert!(
        out.contains("> seed\n1\n"),
        "the next command is answered: {out}"
    );
}

#[test]
fn one_mods_hoard_fails_that_mod_and_not_another() {
    let dir = mods_with(&[
        (
            "hoarder",
            "HOARD = {}\nlocal line = ('x'):rep(1000)\nlantern.on('turn_started', function()\n  for i = 1, 1e9 do HOARD[#HOARD + 1] = line .. i end\nend)\n",
        ),
        (
            "innocent",
            "lantern.on('turn_started', function()\n  local t = {}\n  for i = 1, 1000 do t[i] = { i } end\n  lantern.log('innocent ran with ' .. #t)\nend)\n",
        ),
    ]);
    let out = play(dir.path(), "emit turn_started\nemit turn_started\nseed\n");
    assert_eq!(
        out.matches("[innocent] innocent ran with 1000").count(),
        2,
        "{out}"
    );
    assert!(
        out.contains("error: [hoarder] a handler of `turn_started` failed: out of memory: its scripts passed their memory limit of 64 MiB"),
        "{out}"
    );
    assert!(!out.contains("[innocent] a handler"), "{out}");
    assert!(out.contains("> seed\n1\n"), "{out}");
}

#[test]
fn storage_that_holds_itself_is_an_error_and_the_game_goes_on() {
    let dir = mods_with(&[(
        "evil",
        "lantern.on('turn_started', function()\n  lantern.storage.n = (lantern.storage.n or 0) + 1\n  if lantern.storage.n == 2 then lantern.storage.me = lantern.storage end\nend)\n",
    )]);
    let saves = tempfile::tempdir().unwrap();
    let save = saves.path().join("run.json");
    let out = play(
        dir.path(),
        &format!(
            "emit turn_started\nemit turn_started\nsave {}\nseed\n",
            save.display()
        ),
    );
    assert!(
        out.contains("error: [evil] lantern.storage.me holds a table that holds it (a cycle), which cannot be saved; the storage keeps its last saved state\n --> mods/evil/scripts/main.lua:3:"),
        "at the line that closed the cycle: {out}"
    );
    assert!(
        out.contains("= help: stored here; storage is saved when the turn ends"),
        "{out}"
    );
    assert!(out.contains("> seed\n1\n"), "{out}");
    // The save has the last good storage.
    let saved = std::fs::read_to_string(&save).unwrap();
    assert!(saved.contains("\"n\": 1"), "{saved}");
}

#[test]
fn sparse_integer_keys_and_their_text_twins_load_back_as_they_were() {
    let lua = "lantern.on('turn_started', function()\n  local s = lantern.storage\n  if not s.kills then\n    s.kills = { [42] = 3, [7] = 1 }\n    s.both = { [1] = 'a', ['1'] = 'b' }\n    s.half = 0.5\n    s.whole = 2.0\n  end\n  lantern.log(math.type(next(s.kills)), s.kills[42], s.both[1], s.both['1'], math.type(s.whole))\nend)\n";
    let dir = mods_with(&[("keeper", lua)]);
    let saves = tempfile::tempdir().unwrap();
    let save = saves.path().join("run.json");
    play(
        dir.path(),
        &format!("emit turn_started\nsave {}\n", save.display()),
    );
    let out = lantern_with_input(
        &[
            "play",
            "--no-watch",
            "--mods",
            "mods",
            "--load",
            &save.to_string_lossy(),
        ],
        dir.path(),
        "emit turn_started\n",
    );
    let out = String::from_utf8_lossy(&out.stdout);
    assert!(out.contains("[keeper] integer\t3\ta\tb\tfloat"), "{out}");
}

/// A test file (a mod portal runs contributed mods' tests) that compares tables holding
/// themselves, or compares a huge table in a loop, fails or passes with a message: it used to
/// recurse until the stack overflowed and took the whole run down.
#[test]
fn a_test_comparing_tables_that_hold_themselves_neither_crashes_nor_hangs() {
    let dir = mods_with(&[("evil", "")]);
    let tests = dir.path().join("mods/evil/tests");
    std::fs::create_dir_all(&tests).unwrap();
    std::fs::write(
        tests.join("cycle_test.lua"),
        "describe('cycles', function()\n\
           it('compares tables that hold themselves', function()\n\
             local a, b = {}, {}\n    a.me, b.me = a, b\n    expect(a).to_equal(b)\n\
           end)\n\
           it('compares a huge table forever', function()\n\
             local t = {}\n    for i = 1, 100000 do t[i] = { i } end\n\
             while true do expect(t).to_equal(t) end\n\
           end)\n\
         end)\n",
    )
    .unwrap();
    let out = lantern(&["test", "--mods", "mods"], dir.path());
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("1 passed, 1 failed"), "{text}");
    assert!(
        text.contains("this test ran past its instruction budget of 250.0 M: its own code spent it all (an endless loop?)"),
        "{text}"
    );
}

/// A "did you mean" over a megabyte-long name took seconds and was charged as one call: in a
/// `pcall` loop it never ended. Names that long are not compared, failing calls cost what their
/// error does, and the loop ends at the budget with the game going on.
#[test]
fn a_megabyte_name_in_a_pcall_loop_ends_at_the_budget_and_the_game_goes_on() {
    let dir = mods_with(&[(
        "evil",
        "local name = string.rep('g', 1024 * 1024)\n\
         lantern.on('turn_started', function()\n\
           while true do\n\
             pcall(function() return lantern.game.player:count(name) end)\n\
             pcall(lantern.emit_event, name)\n\
           end\n\
         end)\n",
    )]);
    let out = play(dir.path(), "emit turn_started\nseed\n");
    assert!(
        out.contains("error: [evil] a handler of `turn_started` failed: evil/scripts/main.lua:")
            && out.contains("instruction budget of 10000000 exceeded"),
        "{out}"
    );
    assert!(
        out.len() < 4096,
        "no message holds the name: {} bytes",
        out.len()
    );
    assert!(out.contains("> seed\n1\n"), "{out}");
}

/// `print` in a loop kept every line until it was shown: a `check` grew to gigabytes. A mod may
/// write 64 KiB a turn, `print` and `lantern.log` together; one line says the rest is left out,
/// and the next turn may write again.
#[test]
fn printing_in_a_loop_is_cut_at_its_cap_once_a_turn() {
    let dir = mods_with(&[(
        "evil",
        "local line = string.rep('x', 1000)\n\
         lantern.on('turn_started', function()\n\
           for i = 1, 1e9 do print(i, line); lantern.log(i, line) end\n\
         end)\n",
    )]);
    let out = play(dir.path(), "emit turn_started\nemit turn_started\nseed\n");
    let cut =
        "[evil] (this mod wrote more than 64 KiB this turn; the rest of its output is left out)";
    assert_eq!(
        out.matches(cut).count(),
        2,
        "{}",
        &out[out.len().saturating_sub(2000)..]
    );
    assert!(
        out.len() < 2 * 70 * 1024 + 4096,
        "{} bytes printed",
        out.len()
    );
    assert!(out.contains("> seed\n1\n"));
}

/// A test that `pcall`s an endless loop or a memory bomb was reported as passed: a test whose
/// budget or memory ran out has failed, with the limit's message, whatever it caught.
#[test]
fn a_test_that_catches_its_limits_fails() {
    let dir = mods_with(&[("evil", "")]);
    let tests = dir.path().join("mods/evil/tests");
    std::fs::create_dir_all(&tests).unwrap();
    std::fs::write(
        tests.join("caught.lua"),
        "describe('limits', function()\n\
           it('loops', function()\n\
             pcall(function() while true do end end)\n\
           end)\n\
           it('hoards', function()\n\
             pcall(function() local s, t = string.rep('x', 1024 * 1024), {} for i = 1, 1e9 do t[i] = s .. i end end)\n\
           end)\n\
           it('passes', function() end)\n\
         end)\n",
    )
    .unwrap();
    let out = lantern(&["test", "--mods", "mods"], dir.path());
    let text = transcript(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("1 passed, 2 failed"), "{text}");
    assert!(
        text.contains("this test ran past its instruction budget of 250.0 M: its own code spent it all (an endless loop?)"),
        "{text}"
    );
    assert!(
        text.contains("out of memory: the scripts passed the memory limit"),
        "{text}"
    );
}

/// `sim --lua-policy` with a policy that catches its endless loop ran on for ever; it stops with
/// the budget's message.
#[test]
fn a_policy_that_catches_its_budget_stops_the_simulation() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("looping.lua");
    std::fs::write(
        &file,
        "return function(run)\n  pcall(function() while true do end end)\n  return nil\nend\n",
    )
    .unwrap();
    let out = lantern(
        &[
            "sim",
            "hazard",
            "h:gate",
            "--mods",
            "mods",
            "--runs",
            "50",
            "--lua-policy",
            &file.to_string_lossy(),
        ],
        &root().join("tests/fixtures/hazard"),
    );
    let text = transcript(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("instruction budget of 10000000 exceeded"),
        "{text}"
    );
}

/// Events emitted past what a turn can handle were queued all the same (950 MB for a handler
/// emitting in a loop). The queue holds at most a turn's cap: past it `emit_event` fails at the
/// script's line (a `pcall` loop of it ends at the budget), the turn stops at its cap saying how
/// many events were dropped, and the game goes on.
#[test]
fn emitting_in_a_loop_fills_no_more_than_a_turn_and_the_game_goes_on() {
    let dir = mods_with(&[(
        "evil",
        "lantern.on('turn_started', function()\n\
           while true do lantern.emit_event('evil:ping', { n = 1 }) end\n\
         end)\n\
         lantern.on('turn_started', function()\n\
           while true do pcall(lantern.emit_event, 'evil:ping', { n = 2 }) end\n\
         end)\n",
    )]);
    std::fs::create_dir_all(dir.path().join("mods/evil/data")).unwrap();
    std::fs::write(
        dir.path().join("mods/evil/data/events.toml"),
        "[[event_types]]\nid = \"ping\"\npayload = { n = \"int\" }\n",
    )
    .unwrap();
    let out = play(dir.path(), "emit turn_started\nseed\n");
    assert!(
        out.contains("a handler of `turn_started` failed: lantern.emit_event: 100 events are queued already, a whole turn's cap, so `evil:ping` would never be handled (does a handler emit in a loop?)\n --> mods/evil/scripts/main.lua:2:1"),
        "{out}"
    );
    assert!(
        out.contains("evil/scripts/main.lua:5: instruction budget of 10000000 exceeded"),
        "{out}"
    );
    assert!(
        out.contains("more than its cap of 100: the turn was stopped and"),
        "{out}"
    );
    assert!(out.contains("> seed\n1\n"), "{out}");
}

/// A test's games are lantern's work for the test: driving one in a loop (each `g:emit` a whole
/// turn of the mods' scripts) was charged as one call and ran for minutes, and games kept in a
/// table were whole Lua states outside the test's memory limit. Both end, with a message.
#[test]
fn a_test_that_drives_or_hoards_games_is_stopped() {
    let dir = mods_with(&[(
        "evil",
        "lantern.on('turn_started', function() local n = 0 for i = 1, 1000 do n = n + i end end)\n",
    )]);
    let tests = dir.path().join("mods/evil/tests");
    std::fs::create_dir_all(&tests).unwrap();
    std::fs::write(
        tests.join("games.lua"),
        "describe('games', function()\n\
           it('drives one for ever', function()\n\
             local g = lantern.test.game{}\n\
             while true do g:emit('turn_started') end\n\
           end)\n\
           it('hoards them', function()\n\
             local kept = {}\n\
             for i = 1, 1000 do kept[i] = lantern.test.game{} end\n\
           end)\n\
         end)\n",
    )
    .unwrap();
    let out = lantern(&["test", "--mods", "mods"], dir.path());
    let text = transcript(&out);
    assert!(text.contains("0 passed, 2 failed"), "{text}");
    assert!(
        text.contains("this test ran past its instruction budget of 250.0 M: 1 test game cost"),
        "{text}"
    );
    assert!(
        text.contains("lantern.test.game: a test file may keep at most 64 games alive at once"),
        "{text}"
    );
}

/// Nothing a mod writes controls the terminal: escape sequences, carriage returns and line breaks
/// in a file name, an ID, a Lua error and printed output reached it raw, and a line break in an
/// error forged lantern's summary line. They are shown escaped, in `check` and in `play`.
#[test]
fn escape_sequences_and_line_breaks_from_a_mod_are_shown_not_obeyed() {
    let dir = mods_with(&[(
        "evil",
        "print('\\27]0;owned\\7\\27[2J')\n\
         lantern.on('turn_started', function() print('\\r\\8\\8gone') error('x\\n1 error, 0 warnings in 1 mod') end)\n\
         error('boom\\n0 errors, 0 warnings in 1 mod')\n",
    )]);
    let data = dir.path().join("mods/evil/data");
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(
        data.join("\u{1b}]0;title\u{7}.toml"),
        "[[items]]\nid = \"gold\\u001b[31m\"\nname = \"x\"\n",
    )
    .unwrap();
    let inert = |text: &str| {
        let bad: Vec<char> = text
            .chars()
            .filter(|c| *c != '\n' && lantern::diag::needs_escape(*c))
            .collect();
        assert!(bad.is_empty(), "{bad:?} in\n{text}");
    };
    let out = check(dir.path());
    inert(&out);
    let summary = |l: &&str| {
        let words: Vec<&str> = l.split(' ').collect();
        words.len() == 7 && words[0].parse::<u32>().is_ok() && words[5] == "1" && words[6] == "mod"
    };
    assert_eq!(out.lines().filter(summary).count(), 1, "{out}");
    assert!(
        out.contains("boom\\n0 errors, 0 warnings in 1 mod"),
        "{out}"
    );
    assert!(out.contains("evil/data/\\x1b]0;title\\x07.toml"), "{out}");
    let dir = mods_with(&[(
        "evil",
        "lantern.on('turn_started', function() print('\\r\\8\\8gone\\27[2J') error('x\\n> seed') end)\n",
    )]);
    let out = play(dir.path(), "emit turn_started\nseed\n");
    inert(&out);
    assert!(out.contains("[evil] \\r\\x08\\x08gone\\x1b[2J"), "{out}");
    assert_eq!(
        out.lines().filter(|l| l.starts_with("> seed")).count(),
        1,
        "the forged prompt is shown escaped: {out}"
    );
    assert!(out.contains("x\\n> seed"), "{out}");
}

/// A mod portal runs `check` on anything: a 30 KB file of mistakes printed 175 MB (each error
/// reprinted its line), a file with carriage returns alone for line breaks was quadratic, and a
/// data folder 600 levels deep took seconds. A report shows the first 50 problems of a file and
/// counts the rest, a long line is shown as a window, and folders deeper than 16 are refused.
#[test]
fn a_flood_of_mistakes_is_reported_in_bounded_output() {
    let dir = evil_mod();
    let data = dir.path().join("mods/evil/data");
    // 600 entries, two mistakes each, on one 60 KB line after the first.
    let mut text = String::from("[[items]]\nid = \"first\"\nname = \"x\"\n");
    let entries: Vec<String> = (0..600)
        .map(|i| format!("{{ id = \"i{i}\", nmae = \"x\", tgas = [] }}"))
        .collect();
    text.push_str(&format!(
        "[[creatures]]\nid = \"c\"\nhealth = 1\nitems = [{}]\n",
        entries.join(", ")
    ));
    for i in 0..600 {
        text.push_str(&format!(
            "[[items]]\nid = \"n{i}\"\nnmae = \"x\"\ntgas = [\"y\"]\n"
        ));
    }
    std::fs::write(data.join("flood.toml"), &text).unwrap();
    // Carriage returns alone: one long line to a reader that knows only `\n`.
    let cr: Vec<String> = (0..20_000)
        .map(|i| format!("[[tags]]\rid = \"t{i}\""))
        .collect();
    std::fs::write(data.join("mac.toml"), cr.join("\r")).unwrap();
    let mut deep = data.join("d");
    for _ in 0..600 {
        deep = deep.join("d");
    }
    std::fs::create_dir_all(&deep).unwrap();
    std::fs::write(deep.join("x.toml"), "[[tags]]\nid = \"deep\"\n").unwrap();
    let out = check(dir.path());
    assert!(out.len() < 100_000, "{} bytes of report", out.len());
    assert!(
        out.contains("more problems (")
            && out.contains(
                " in `evil/data/flood.toml` are not shown: a report shows the first 50 of a file"
            ),
        "{}",
        &out[out.len() - 2000..]
    );
    assert!(
        out.contains("error: `evil/data/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d` is a folder more than 16 deep, and nothing in it is read\n"),
        "{out}"
    );
    assert!(
        out.contains("/evil/data/mac.toml:2:"),
        "a lone carriage return ends a line: {out}"
    );
    assert!(
        out.lines().all(|l| l.chars().count() < 400),
        "no line is shown whole"
    );
    let summary = out.lines().find(|l| l.ends_with(" in 1 mod")).unwrap();
    assert!(
        summary.starts_with("12") || summary.starts_with("13"),
        "every problem is counted: {summary}"
    );
}

/// `lantern docs` overwrote whatever a symlink at its target pointed at (a mod could ship one
/// beside the editor files a modder regenerates). It refuses a link, as saves do, writes through a
/// temporary file, and makes a missing folder.
#[cfg(unix)]
#[test]
fn docs_writes_only_where_it_means_to() {
    let dir = tempfile::tempdir().unwrap();
    let precious = dir.path().join("precious.txt");
    std::fs::write(&precious, "keep me").unwrap();
    std::os::unix::fs::symlink(&precious, dir.path().join("defs.lua")).unwrap();
    std::fs::create_dir_all(dir.path().join("schema")).unwrap();
    std::os::unix::fs::symlink(
        &precious,
        dir.path().join("schema/lantern-data.schema.json"),
    )
    .unwrap();
    let out = lantern(&["docs", "--lua-defs", "defs.lua"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: `defs.lua` is a symlink; lantern writes editor files only to plain files\n"
    );
    let out = lantern(&["docs", "--schema", "schema"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(std::fs::read_to_string(&precious).unwrap(), "keep me");
    let out = lantern(&["docs", "--lua-defs", "new/folder/defs.lua"], dir.path());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(dir.path().join("new/folder/defs.lua").is_file());
}

/// A handler that fails on a custom event names the mod that emitted it, as well as its own: the
/// one to tell may be the other mod.
#[test]
fn a_handler_failing_on_a_custom_event_names_the_mod_that_emitted_it() {
    let dir = mods_with(&[
        (
            "emitter",
            "lantern.on('turn_started', function() lantern.emit_event('emitter:ping', { n = 'x' }) end)\n",
        ),
        (
            "listener",
            "lantern.on('emitter:ping', function(ev) return ev.n + 1 end)\n",
        ),
    ]);
    std::fs::create_dir_all(dir.path().join("mods/emitter/data")).unwrap();
    std::fs::write(
        dir.path().join("mods/emitter/data/events.toml"),
        "[[event_types]]\nid = \"ping\"\npayload = { n = \"string\" }\n",
    )
    .unwrap();
    let out = play(dir.path(), "emit turn_started\nseed\n");
    assert!(
        out.contains("error: [listener] a handler of `emitter:ping` failed: ")
            && out.contains(
                "= help: while handling emitter:ping (emitted by mod `emitter`) <- turn_started"
            ),
        "{out}"
    );
}

/// A mod applying another mod's registered action ran that action's code as its own: charged to
/// the caller's budget and memory, and named as the caller when it ran away, while what the
/// action stored was written to no one's storage. It runs as the mod that registered it now.
#[test]
fn another_mods_action_runs_as_that_mod() {
    let dir = mods_with(&[
        (
            "lender",
            "lantern.register_action('count', function(ctx, args)\n\
               lantern.storage.counted = (lantern.storage.counted or 0) + 1\n\
             end)\n\
             lantern.register_action('spin', function(ctx, args)\n\
               while true do end\n\
             end)\n\
             lantern.register_action('hoard', function(ctx, args)\n\
               local s, t = string.rep(string.rep('x', 1024), 1024), {}\n\
               for i = 1, 1e9 do t[i] = s .. i end\n\
             end)\n",
        ),
        (
            "caller",
            "lantern.on('turn_started', function()\n\
               lantern.apply({ action = 'lender:count' })\n\
               local ok, err = pcall(lantern.apply, { action = 'lender:spin' })\n\
               lantern.log('spin: ' .. tostring(err))\n\
               ok, err = pcall(lantern.apply, { action = 'lender:hoard' })\n\
               lantern.log('hoard: ' .. tostring(err))\n\
               lantern.log('the caller goes on')\n\
             end)\n",
        ),
    ]);
    let out = play(dir.path(), "emit turn_started\nsave run.json\nseed\n");
    assert!(
        out.contains("[lender] action `lender:spin` failed: lender/scripts/main.lua:5: instruction budget of"),
        "{out}"
    );
    assert!(
        out.contains("[lender] action `lender:hoard` failed: out of memory"),
        "{out}"
    );
    assert!(out.contains("[caller] the caller goes on"), "{out}");
    assert!(
        !out.contains("error: [caller]"),
        "the caller is not blamed: {out}"
    );
    let save = std::fs::read_to_string(dir.path().join("run.json")).unwrap();
    let save: serde_json::Value = serde_json::from_str(&save).unwrap();
    assert_eq!(save["state"]["storage"]["lender"]["counted"], 1, "{save}");
}

/// `lantern new rats | head -1` panicked once `head` had gone (exit 101, a backtrace on the
/// terminal): a reader that goes away ends any command quietly.
#[cfg(unix)]
#[test]
fn a_closed_stdout_ends_a_command_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let runs: [&[&str]; 3] = [
        &["new", "rats"],
        &["check", "--mods", "mods"],
        &["test", "--mods", "mods"],
    ];
    for args in runs {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_lantern"))
            .args(args)
            .current_dir(dir.path())
            .stdout(writer)
            .stderr(std::process::Stdio::piped())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.code() == Some(0) && !stderr.contains("panicked"),
            "lantern {args:?}: {:?} {stderr}",
            out.status
        );
    }
}

/// Names with a line break forged lines (a fake prompt and state hash) in `play`'s `inventory`,
/// `look` and `status`, and in `sim`'s table header. A name of every kind the console shows
/// (item, creature, quest, room, floor, card, hazard, tag, progress type, encounter title,
/// option and reason, the mod's own), each followed by a forged `> hash` line,
/// goes through every command and tool that shows it: none starts a line of its own. The
/// console reaches a name only through `content::Name`, which prints escaped; the tidy test
/// `the_console_shows_names_only_escaped` keeps it so.
#[test]
fn names_that_forge_lines_are_shown_on_their_own_line() {
    let dir = common::core_only();
    common::world::copy_dir(
        &root().join("tests/fixtures/hostile_play/names_that_forge_lines/evil"),
        &dir.path().join("evil"),
    );
    let text = |out: std::process::Output| {
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
    };
    let played = text(lantern_with_input(
        &["play", "--no-watch", "--mods", "."],
        dir.path(),
        "next\nlook\nmap\ndeck\ngive evil:thing\nspawn evil:beast\nstart evil:q\nstatus\n\
         inventory\nlook\nquests\nlog\nwhy evil:q\nflee\nnext\nencounter\nnext\nhazard\n\
         route risk\nplay 1\nend\nstatus\n",
    ));
    let simulated = text(lantern(
        &[
            "sim",
            "hazard",
            "evil:bridge",
            "--mods",
            ".",
            "--runs",
            "10",
        ],
        dir.path(),
    ));
    let checked = text(lantern(&["check", "--mods", "."], dir.path()));
    for out in [&played, &simulated, &checked] {
        assert!(!out.lines().any(|l| l.starts_with("FORGED")), "{out}");
    }
    for shown in [
        "Thing\\nFORGED> hash 0 x1",
        "Beast\\nFORGED> hash 1 5 hp",
        "Quest\\nFORGED> hash 2 0/3",
        "You enter Steps\\nFORGED> hash 6.",
        "Cellar\\nFORGED> hash 7 (depth 1)",
        "Spark\\nFORGED> hash 8 x1",
        "[Title\\nFORGED> hash 3]",
        "Tagged\\nFORGED> hash 11 (blocked: needs to be Mark\\nFORGED> hash 10)",
        "Option\\nFORGED> hash 4 (blocked: Reason\\nFORGED> hash 5)",
        "[Bridge\\nFORGED> hash 9]",
        "1. Spark\\nFORGED> hash 8 [red] top: +1 Grit\\nFORGED> hash 12",
        "You play Spark\\nFORGED> hash 8 (top)",
    ] {
        assert!(played.contains(shown), "`{shown}` in {played}");
    }
    assert!(
        simulated.starts_with("hazard evil:bridge (Bridge\\nFORGED> hash 9), policy greedy"),
        "{simulated}"
    );
}
