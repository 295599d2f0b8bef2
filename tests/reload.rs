//! Hot reload with real files in temporary folders and the real watcher. Every wait is for the
//! watcher's signal or the generation counter, with a generous timeout; nothing sleeps a fixed time
//! to let a reload happen.

mod common;

use common::world::TestMods;
use common::{expect_file, root};
use lantern::diag::render_all;
use lantern::game::ev;
use lantern::id::Id;
use lantern::lua::Limits;
use lantern::reload::{watch, Live, ReloadReport, Watch};
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Duration;

const TIMEOUT: Duration = Duration::from_secs(20);

struct Session {
    live: Live,
    changes: mpsc::Receiver<()>,
    _watch: Watch,
    mods: TestMods,
}

impl Session {
    fn new(files: &[(&str, &str)]) -> Session {
        let mods = TestMods::new(files);
        let (live, notes) = match Live::start_game(
            &[mods.path().to_path_buf()],
            &lantern::roguelike::rules(),
            1,
            Limits::default(),
        ) {
            Ok(started) => started,
            Err(e) => panic!(
                "{e}\n{}",
                e.problems().map(|p| p.render()).unwrap_or_default()
            ),
        };
        assert!(notes.is_empty(), "{notes:?}");
        let (tx, changes) = mpsc::channel();
        let w = watch(&mods.path(), move || {
            let _ = tx.send(());
        })
        .unwrap();
        Session {
            live,
            changes,
            _watch: w,
            mods,
        }
    }

    fn file(&self, rel: &str) -> PathBuf {
        self.mods.path().join(rel)
    }

    fn write(&self, rel: &str, text: &str) {
        let p = self.file(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    /// Waits for the watcher to report a change, then reloads as the play loop does.
    fn reload_after_change(&mut self) -> ReloadReport {
        self.changes
            .recv_timeout(TIMEOUT)
            .expect("the watcher saw the change");
        // A burst may have been split in two signals; take what is already there too.
        while self.changes.try_recv().is_ok() {}
        self.live.reload()
    }

    /// Reloads and requires success, checking the generation advanced.
    fn reload_ok(&mut self) -> ReloadReport {
        let before = self.live.generation();
        let report = self.reload_after_change();
        let rendered = report.problems.to_string();
        assert!(report.ok, "{}\n{rendered}", report.summary);
        assert_eq!(self.live.generation(), before + 1);
        report
    }

    fn turn(&mut self) {
        self.live
            .game_mut()
            .emit_command(ev::TURN_STARTED, None, &[])
            .unwrap();
    }

    fn messages(&mut self) -> Vec<String> {
        self.live.game_mut().take_messages()
    }
}

fn id(s: &str) -> Id {
    Id::qualified(s).unwrap()
}

const QUEST: &str =
    "[[event_types]]\nid = \"tick\"\n\n[[quests]]\nid = \"ticks\"\non = \"tick\"\ncount = COUNT\n";

#[test]
fn editing_a_quests_count_keeps_its_progress_and_applies_the_new_count() {
    let mut s = Session::new(&[("data/q.toml", &QUEST.replace("COUNT", "5"))]);
    let g = s.live.game_mut();
    g.command_action(
        lantern::content::ActionEntry {
            action: lantern::content::Action::StartQuest {
                quest: id("test:ticks"),
            },
            span: lantern::diag::Span::file_start(lantern::diag::FileId(0)),
        },
        "start",
    )
    .unwrap();
    let tick = g.content().events.lookup("test:tick").unwrap();
    for _ in 0..3 {
        s.live.game_mut().emit_command(tick, None, &[]).unwrap();
    }
    s.write("test/data/q.toml", &QUEST.replace("COUNT", "4"));
    let report = s.reload_ok();
    assert!(report.summary.contains("~1 quest"), "{}", report.summary);
    assert_eq!(s.live.game().state().quests[&id("test:ticks")].count, 3);
    let tick = s.live.game().content().events.lookup("test:tick").unwrap();
    s.live.game_mut().emit_command(tick, None, &[]).unwrap();
    assert!(
        s.live.game().state().quests[&id("test:ticks")].done,
        "the new count of 4 applies"
    );
}

#[test]
fn an_added_trigger_fires_on_the_next_event() {
    let mut s = Session::new(&[("data/t.toml", "")]);
    s.write("test/data/t.toml", "[[triggers]]\non = \"turn_started\"\nactions = [ { action = \"give_item\", item = \"core:key\" } ]\n");
    let report = s.reload_ok();
    assert!(report.summary.contains("+1 trigger"), "{}", report.summary);
    s.turn();
    assert_eq!(s.live.game().state().player.count(&id("core:key")), 1);
}

/// A floor of two rooms before core's; `TRIGGER` is replaced by the bell's trigger, or nothing.
const TOWER: &str = "[[rooms]]\nid = \"bell\"\nkind = \"empty\"\nTRIGGER\n\n[[rooms]]\nid = \"hall\"\nkind = \"empty\"\n\n[[floors]]\nid = \"tower\"\ndepth = -10\nrooms = ROOMS\n";
const RING: &str = "[[rooms.triggers]]\non = \"turn_started\"\nactions = [ { action = \"give_item\", item = \"core:key\" } ]";

fn tower(trigger: &str, rooms: &str) -> String {
    TOWER.replace("TRIGGER", trigger).replace("ROOMS", rooms)
}

#[test]
fn a_rooms_trigger_added_by_an_edit_listens_while_the_run_is_in_it() {
    let mut s = Session::new(&[("data/t.toml", &tower("", r#"["bell", "hall"]"#))]);
    s.live.game_mut().verb("next", &[]).unwrap();
    assert_eq!(
        lantern::roguelike::current_room(s.live.game()),
        Some(id("test:bell"))
    );
    s.write("test/data/t.toml", &tower(RING, r#"["bell", "hall"]"#));
    s.reload_ok();
    s.turn();
    let keys = |s: &Session| s.live.game().state().player.count(&id("core:key"));
    assert_eq!(
        keys(&s),
        1,
        "the bell's new trigger listens: the run is in the bell"
    );
    // The floor's rooms swapped: the run, at the same place, is in the hall now, whose triggers
    // are none.
    s.write("test/data/t.toml", &tower(RING, r#"["hall", "bell"]"#));
    s.reload_ok();
    assert_eq!(
        lantern::roguelike::current_room(s.live.game()),
        Some(id("test:hall"))
    );
    s.turn();
    assert_eq!(keys(&s), 1);
}

#[test]
fn a_broken_toml_file_keeps_the_old_version_and_names_the_line_then_the_fix_loads() {
    let good = "[[items]]\nid = \"cheese\"\n";
    let mut s = Session::new(&[("data/items.toml", good)]);
    s.write(
        "test/data/items.toml",
        "[[items]]\nid = \"cheese\"\nstack = \"lots\"\n",
    );
    let report = s.reload_after_change();
    assert!(!report.ok);
    assert_eq!(s.live.generation(), 0);
    // The report renders against the files it read: line 3 is there, which the running
    // version's two-line file does not have.
    let text = report.problems.render();
    assert!(text.contains("/test/data/items.toml:3:9"), "{text}");
    assert!(text.contains("3 | stack = \"lots\""), "{text}");
    assert!(
        report
            .summary
            .starts_with("reload failed (1 error); still running the previous version"),
        "{}",
        report.summary
    );
    assert!(
        s.live
            .game()
            .content()
            .items
            .contains_key(&id("test:cheese")),
        "the old version keeps running"
    );
    s.write(
        "test/data/items.toml",
        "[[items]]\nid = \"cheese\"\nstack = 3\n",
    );
    s.reload_ok();
    assert_eq!(s.live.game().content().items[&id("test:cheese")].stack, 3);
}

#[test]
fn a_lua_syntax_error_and_an_error_at_load_keep_the_old_scripts() {
    let mut s = Session::new(&[(
        "scripts/main.lua",
        "lantern.on('turn_started', function() lantern.log('v1') end)",
    )]);
    s.write(
        "test/scripts/main.lua",
        "lantern.on('turn_started', function() lantern.log('v2') end\n",
    );
    let report = s.reload_after_change();
    assert!(!report.ok);
    let text = report.problems.render();
    assert!(text.contains("test/scripts/main.lua:"), "{text}");
    s.turn();
    assert_eq!(s.messages(), ["[test] v1"]);
    s.write("test/scripts/main.lua", "local x = nil\nx.boom = 1\n");
    let report = s.reload_after_change();
    assert!(!report.ok);
    let text = report.problems.render();
    assert!(text.contains("/test/scripts/main.lua:2:"), "{text}");
    s.turn();
    assert_eq!(s.messages(), ["[test] v1"]);
    s.write(
        "test/scripts/main.lua",
        "lantern.on('turn_started', function() lantern.log('v3') end)",
    );
    s.reload_ok();
    s.turn();
    assert_eq!(s.messages(), ["[test] v3"]);
}

#[test]
fn problems_the_game_had_not_taken_stay_the_games_and_point_at_their_files_after_a_reload() {
    let mut s = Session::new(&[
        (
            "scripts/main.lua",
            "lantern.on('turn_started', function()\n  error('boom')\nend)\n",
        ),
        ("data/extra.toml", "[[event_types]]\nid = \"tick\"\n"),
    ]);
    s.turn();
    // An edit elsewhere: the script's file is the same, so its problem still points at its line.
    s.write("test/data/extra.toml", "[[event_types]]\nid = \"tock\"\n");
    let report = s.reload_ok();
    assert!(
        report
            .problems
            .diagnostics()
            .iter()
            .all(|d| !d.message.contains("boom")),
        "the old turn's problem is not the reload's: {:?}",
        report.problems.diagnostics()
    );
    let problems = s.live.game_mut().take_problems();
    assert_eq!(problems.len(), 1, "{problems:?}");
    let text = render_all(&problems, s.live.sources());
    assert!(text.contains("/test/scripts/main.lua:2:"), "{text}");
    assert!(
        text.contains("error('boom')"),
        "rendered from the new files: {text}"
    );
    // The script itself edited: its old line may be gone, so the place is kept in words.
    s.turn();
    s.write(
        "test/scripts/main.lua",
        "-- fixed\nlantern.on('turn_started', function() end)\n",
    );
    s.reload_ok();
    let problems = s.live.game_mut().take_problems();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].span, None);
    assert!(
        problems[0]
            .message
            .ends_with("(at test/scripts/main.lua:2:1, in the version before the reload)"),
        "{}",
        problems[0].message
    );
}

#[test]
fn a_handler_edited_ten_times_is_registered_once_and_storage_survives() {
    let script = |n: usize| {
        format!("lantern.on('turn_started', function() lantern.storage.n = (lantern.storage.n or 0) + 1 lantern.log('v{n} ' .. lantern.storage.n) end)")
    };
    let mut s = Session::new(&[("scripts/main.lua", &script(0))]);
    s.turn();
    for n in 1..=10 {
        s.write("test/scripts/main.lua", &script(n));
        let report = s.reload_ok();
        // A script-only change is named, not "no changes".
        assert!(
            report
                .summary
                .contains("scripts changed: test/scripts/main.lua;"),
            "{}",
            report.summary
        );
    }
    s.messages();
    s.turn();
    assert_eq!(
        s.messages(),
        ["[test] v10 2"],
        "one handler, and the storage counted on across reloads"
    );
}

#[test]
fn on_reload_migrates_the_storage() {
    let mut s = Session::new(&[(
        "scripts/main.lua",
        "lantern.on('turn_started', function() lantern.storage.gold = 5 end)",
    )]);
    s.turn();
    s.write(
        "test/scripts/main.lua",
        "lantern.on_reload(function(old) return { coins = (old.gold or 0) * 100 } end)\nlantern.on('turn_started', function() lantern.log(lantern.storage.coins) end)",
    );
    s.reload_ok();
    s.turn();
    assert_eq!(s.messages(), ["[test] 500"]);
    assert_eq!(s.live.game().storage()["test"]["coins"], 500);
}

#[test]
fn deleting_adding_and_renaming_mod_folders() {
    let mut s = Session::new(&[("data/items.toml", "[[items]]\nid = \"cheese\"\n")]);
    s.live
        .game_mut()
        .command_action(
            lantern::content::ActionEntry {
                action: lantern::content::Action::GiveItem {
                    item: id("test:cheese"),
                    count: 1,
                    target: lantern::content::Who::Player,
                },
                span: lantern::diag::Span::file_start(lantern::diag::FileId(0)),
            },
            "give",
        )
        .unwrap();
    // Add a mod.
    let extra = s.file("extra");
    std::fs::create_dir_all(extra.join("data")).unwrap();
    std::fs::write(extra.join("data/x.toml"), "[[tags]]\nid = \"shiny\"\n").unwrap();
    std::fs::write(
        extra.join("mod.toml"),
        "id = \"extra\"\nversion = \"1.0.0\"\n",
    )
    .unwrap();
    s.reload_ok();
    assert!(s
        .live
        .game()
        .content()
        .tags
        .contains_key(&id("extra:shiny")));
    // Rename it: the folder name does not matter, the manifest's id does.
    std::fs::rename(&extra, s.file("extra_renamed")).unwrap();
    s.reload_ok();
    assert!(s
        .live
        .game()
        .content()
        .tags
        .contains_key(&id("extra:shiny")));
    // Delete the test mod: its item is set aside, not lost.
    std::fs::remove_dir_all(s.file("test")).unwrap();
    let report = s.reload_ok();
    assert!(report.summary.contains("-1 item"), "{}", report.summary);
    assert!(
        report
            .problems
            .diagnostics()
            .iter()
            .any(|d| d.message.starts_with("item `test:cheese` no longer exists")),
        "{:?}",
        report.problems.diagnostics()
    );
    assert_eq!(s.live.game().state().orphans.len(), 1);
}

#[test]
fn an_atomic_save_by_rename_is_seen() {
    let mut s = Session::new(&[("data/items.toml", "[[items]]\nid = \"cheese\"\n")]);
    let tmp = s.file("test/data/.items.toml.tmp");
    std::fs::write(&tmp, "[[items]]\nid = \"cheese\"\nstack = 7\n").unwrap();
    std::fs::rename(&tmp, s.file("test/data/items.toml")).unwrap();
    s.reload_ok();
    assert_eq!(s.live.game().content().items[&id("test:cheese")].stack, 7);
}

#[test]
fn an_edited_locale_file_is_picked_up_and_the_game_keeps_its_language() {
    let mut s = Session::new(&[
        (
            "data/items.toml",
            "[[items]]\nid = \"cheese\"\nname = \"Cheese\"\n",
        ),
        ("locale/de.toml", "[items.cheese]\nname = \"Käse\"\n"),
    ]);
    s.live.game_mut().set_language("de");
    let cheese = |s: &Session| {
        s.live.game().content().items[&id("test:cheese")]
            .name
            .clone()
    };
    assert_eq!(cheese(&s), "Käse");
    s.write(
        "test/locale/de.toml",
        "[items.cheese]\nname = \"Bergkäse\"\n",
    );
    let report = s.reload_ok();
    assert_eq!(cheese(&s), "Bergkäse", "{}", report.summary);
    assert!(
        report
            .summary
            // The item's definition is as it was: its text is what changed, and says so once.
            .ends_with(": texts changed: test/locale/de.toml"),
        "{}",
        report.summary
    );
    assert_eq!(s.live.game().language(), Some("de"));
    // A new language added by a file of its own.
    s.write(
        "test/locale/fr.toml",
        "[items.cheese]\nname = \"Fromage\"\n",
    );
    s.reload_ok();
    s.live.game_mut().set_language("fr");
    assert_eq!(cheese(&s), "Fromage");
    // A broken locale file keeps the texts that were loaded.
    s.write("test/locale/fr.toml", "[items.cheese\nname = \"Brie\"\n");
    let report = s.reload_after_change();
    assert!(!report.ok, "{}", report.summary);
    assert_eq!(cheese(&s), "Fromage");
}

#[test]
fn a_burst_of_100_writes_gives_a_few_reloads_and_the_last_content_wins() {
    let mut s = Session::new(&[("data/items.toml", "[[items]]\nid = \"cheese\"\n")]);
    for n in 1..=100 {
        s.write(
            "test/data/items.toml",
            &format!("[[items]]\nid = \"cheese\"\nstack = {n}\n"),
        );
    }
    s.reload_ok();
    let mut signals = 1;
    // Further signals from the same burst, if any, arrive within a few debounce periods.
    while s.changes.recv_timeout(Duration::from_millis(500)).is_ok() {
        signals += 1;
        s.live.reload();
    }
    assert!(signals <= 3, "{signals} reloads for one burst");
    assert_eq!(s.live.game().content().items[&id("test:cheese")].stack, 100);
}

#[test]
fn a_folder_created_and_filled_at_once_is_seen() {
    let mut s = Session::new(&[]);
    let deep = s.file("test/data/a/b/c");
    std::fs::create_dir_all(&deep).unwrap();
    std::fs::write(deep.join("deep.toml"), "[[tags]]\nid = \"deep\"\n").unwrap();
    s.reload_ok();
    assert!(s.live.game().content().tags.contains_key(&id("test:deep")));
}

#[test]
fn editor_swap_files_do_not_trigger_a_reload() {
    let s = Session::new(&[("data/items.toml", "[[items]]\nid = \"cheese\"\n")]);
    std::fs::write(s.file("test/data/.items.toml.swp"), "junk").unwrap();
    std::fs::write(s.file("test/data/items.toml~"), "junk").unwrap();
    // A relevant change afterwards is the first signal to arrive.
    std::fs::write(s.file("test/data/notes.txt"), "not a mod file").unwrap();
    assert!(
        s.changes.recv_timeout(Duration::from_millis(800)).is_err(),
        "swap, backup and other files were ignored"
    );
}

/// Plays a scripted session (`tests/fixtures/play/<session>.txt`) with a seed and compares the
/// whole output with `<expected>.txt`.
fn play_transcript(session: &str, expected: &str, seed: &str) {
    let script =
        std::fs::read_to_string(root().join(format!("tests/fixtures/play/{session}.txt"))).unwrap();
    let shipped = common::shipped_mods();
    let out = common::lantern_with_input(
        &["play", "--no-watch", "--seed", seed],
        shipped.path(),
        &script,
    );
    assert!(out.status.success());
    let transcript = format!(
        "{}--- stderr\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    // How long a reload took is the one thing that differs between runs.
    let transcript: String = transcript
        .lines()
        .map(|l| match (l.find(" files) in "), l.find(" ms: ")) {
            (Some(a), Some(b)) if a < b => format!("{} files) in <t>{}\n", &l[..a], &l[b..]),
            _ => format!("{l}\n"),
        })
        .collect();
    expect_file(
        &root().join(format!("tests/fixtures/play/{expected}.txt")),
        &transcript,
    );
}

#[test]
fn the_scripted_play_session_transcript() {
    play_transcript("session", "transcript", "21");
}

/// A hazard played from the screen alone (each card's effects and costs, what each play did), the
/// end of the run as an ending, and a restart.
#[test]
fn a_hazard_the_end_of_a_run_and_a_restart_from_the_screen() {
    play_transcript("hazard_session", "hazard_transcript", "5");
}

#[test]
fn a_game_saved_in_one_session_continues_in_another_with_the_same_hash() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("run.json");
    let save_arg = save.to_string_lossy().into_owned();
    let shipped = common::shipped_mods();
    let mods = shipped.path().join("mods").to_string_lossy().into_owned();
    let first = common::lantern_with_input(
        &["play", "--no-watch", "--seed", "6", "--mods", &mods],
        dir.path(),
        &format!("next\nnext\nnext\nattack\nattack\nsave {save_arg}\nnext\nhash\n"),
    );
    let expected = String::from_utf8_lossy(&first.stdout)
        .lines()
        .last()
        .unwrap()
        .to_string();
    let second = common::lantern_with_input(
        &["play", "--no-watch", "--load", &save_arg, "--mods", &mods],
        dir.path(),
        "next\nhash\n",
    );
    let got = String::from_utf8_lossy(&second.stdout)
        .lines()
        .last()
        .unwrap()
        .to_string();
    assert_eq!(got, expected, "{}", String::from_utf8_lossy(&second.stdout));
}

#[test]
fn a_hazard_in_progress_survives_save_and_load() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("hazard.json");
    let save_arg = save.to_string_lossy().into_owned();
    let shipped = common::shipped_mods();
    let mods = shipped.path().join("mods").to_string_lossy().into_owned();
    let script = |tail: &str| {
        format!("give gold 500\nnext\nnext\nnext\nattack\nattack\nnext\nattack\nattack\nattack\nattack\nattack\nattack\nnext\nattack\nattack\nnext\nchoose 3\nnext\nroute safe\nplay 1 top\n{tail}")
    };
    let whole = common::lantern_with_input(
        &["play", "--no-watch", "--seed", "2", "--mods", &mods],
        dir.path(),
        &script("end\nhash\n"),
    );
    let split = common::lantern_with_input(
        &["play", "--no-watch", "--seed", "2", "--mods", &mods],
        dir.path(),
        &script(&format!("save {save_arg}\n")),
    );
    assert!(
        String::from_utf8_lossy(&split.stdout).contains("saved to"),
        "{}",
        String::from_utf8_lossy(&split.stdout)
    );
    let resumed = common::lantern_with_input(
        &["play", "--no-watch", "--load", &save_arg, "--mods", &mods],
        dir.path(),
        "hazard\nend\nhash\n",
    );
    let last = |o: &std::process::Output| {
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .last()
            .unwrap()
            .to_string()
    };
    assert_eq!(
        last(&resumed),
        last(&whole),
        "{}",
        String::from_utf8_lossy(&resumed.stdout)
    );
    // The `hazard` command shows the resumed hazard.
    assert!(String::from_utf8_lossy(&resumed.stdout).contains("a failed round costs"));
}

/// A running `lantern` process whose output lines arrive on a channel, and which is killed when dropped.
struct Running {
    child: std::process::Child,
    lines: mpsc::Receiver<String>,
}

impl Running {
    fn start(args: &[&str], dir: &std::path::Path) -> Running {
        use std::io::BufRead;
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_lantern"))
            .args(args)
            .current_dir(dir)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let out = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(out).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Running { child, lines }
    }

    /// Waits for a line containing `text`; every line seen is returned on failure.
    fn wait_for(&self, text: &str) -> String {
        let mut seen = Vec::new();
        loop {
            match self.lines.recv_timeout(TIMEOUT) {
                Ok(line) if line.contains(text) => return line,
                Ok(line) => seen.push(line),
                Err(_) => panic!("no line with {text:?}; saw:\n{}", seen.join("\n")),
            }
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn lantern_play_reloads_a_saved_edit_between_commands() {
    let mods = TestMods::new(&[("data/items.toml", "[[items]]\nid = \"cheese\"\n")]);
    let dir = mods.path();
    let play = Running::start(&["play", "--mods", &dir.to_string_lossy()], &dir);
    play.wait_for(" loaded, seed");
    std::fs::write(
        dir.join("test/data/items.toml"),
        "[[items]]\nid = \"cheese\"\n\n[[items]]\nid = \"bread\"\n",
    )
    .unwrap();
    let line = play.wait_for("reloaded");
    assert!(
        line.contains("+1 item") && line.contains("(generation 1)"),
        "{line}"
    );
}

#[test]
fn lantern_test_watch_reruns_after_a_change() {
    let mods = TestMods::new(&[(
        "tests/a_test.lua",
        "it('passes', function() expect(1).to_be(1) end)\n",
    )]);
    let dir = mods.path();
    let run = Running::start(
        &["test", "test", "--watch", "--mods", &dir.to_string_lossy()],
        &dir,
    );
    run.wait_for("1 passed, 0 failed");
    run.wait_for("watching");
    std::fs::write(
        dir.join("test/tests/a_test.lua"),
        "it('fails now', function() expect(1).to_be(2) end)\n",
    )
    .unwrap();
    run.wait_for("0 passed, 1 failed");
}

/// Renaming a hazard while it is being played closes it with a note, and the reload says a hazard
/// changed: it used to soft-lock the run ("the hazard is not over") while the summary said "no
/// changes".
#[test]
fn renaming_a_hazard_in_play_closes_it_and_the_run_goes_on() {
    let mut s = Session::new(&[]);
    s.live
        .game_mut()
        .start_hazard(&id("core:collapsing_bridge"))
        .unwrap();
    let hazards = s.file("core/data/hazards.toml");
    let text = std::fs::read_to_string(&hazards).unwrap();
    std::fs::write(
        &hazards,
        text.replace("id = \"collapsing_bridge\"", "id = \"fallen_bridge\""),
    )
    .unwrap();
    let report = s.reload_ok();
    assert!(
        report.summary.ends_with(": +1 hazard, -1 hazard"),
        "{}",
        report.summary
    );
    let notes: Vec<&str> = report
        .problems
        .diagnostics()
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert!(
        notes.contains(
            &"hazard `core:collapsing_bridge` no longer exists; the hazard is set aside until it returns, and the run goes on"
        ),
        "{notes:?}"
    );
    assert!(s.live.game().hazard().is_none());
    // Renamed back in the same room: the run goes on where it was.
    std::fs::write(&hazards, &text).unwrap();
    let report = s.reload_ok();
    let notes = report.problems.to_string();
    assert!(
        notes.contains("hazard `core:collapsing_bridge` exists again; it goes on"),
        "{notes}"
    );
    assert!(s.live.game().hazard().is_some());
    // Renamed again and the player moves on: the run stays behind with its room.
    std::fs::write(
        &hazards,
        text.replace("id = \"collapsing_bridge\"", "id = \"fallen_bridge\""),
    )
    .unwrap();
    s.reload_ok();
    s.live.game_mut().verb("next", &[]).unwrap();
    let left: Vec<String> = s
        .live
        .game_mut()
        .take_problems()
        .iter()
        .map(|d| d.message.clone())
        .collect();
    assert_eq!(
        left,
        ["hazard `core:collapsing_bridge`, set aside when its definition disappeared, stays behind with its scene"]
    );
    std::fs::write(&hazards, &text).unwrap();
    s.reload_ok();
    assert!(s.live.game().hazard().is_none(), "not in the next room");
}

/// A mod folder moved away and back (a branch switch) takes its quests, done and active, and the
/// open encounter aside, and gives them back: one message each way, nothing lost.
#[test]
fn a_mod_moved_away_and_back_keeps_its_quests_and_open_encounter() {
    let data = format!(
        "{}\n[[quests]]\nid = \"first\"\non = \"tick\"\ncount = 1\n\n\
         [[encounters]]\nid = \"shrine\"\ntitle = \"A shrine\"\ndescription = \"Moss.\"\n\n\
         [[encounters.options]]\ntext = \"Pray\"\n",
        QUEST.replace("COUNT", "5")
    );
    let mut s = Session::new(&[("data/all.toml", &data)]);
    let g = s.live.game_mut();
    for quest in ["test:ticks", "test:first"] {
        g.command_action(
            lantern::content::ActionEntry {
                action: lantern::content::Action::StartQuest { quest: id(quest) },
                span: lantern::diag::Span::file_start(lantern::diag::FileId(0)),
            },
            "start",
        )
        .unwrap();
    }
    let tick = g.content().events.lookup("test:tick").unwrap();
    for _ in 0..2 {
        g.emit_command(tick, None, &[]).unwrap();
    }
    g.start_encounter(&id("test:shrine")).unwrap();
    let before = g.state().quests.clone();
    assert!(before[&id("test:first")].done);
    assert_eq!(before[&id("test:ticks")].count, 2);

    let away = tempfile::tempdir().unwrap();
    std::fs::rename(s.file("test"), away.path().join("test")).unwrap();
    let report = s.reload_ok();
    let notes = report.problems.to_string();
    for line in [
        "quest `test:first` no longer exists; its progress is set aside until it returns",
        "quest `test:ticks` no longer exists; its progress is set aside until it returns",
        "encounter `test:shrine` no longer exists; it is set aside until it returns",
    ] {
        assert!(notes.contains(line), "{line}\n{notes}");
    }
    assert!(s.live.game().state().quests.is_empty());
    assert!(s.live.game().encounter().is_none());

    std::fs::rename(away.path().join("test"), s.file("test")).unwrap();
    let report = s.reload_ok();
    let notes = report.problems.to_string();
    for line in [
        "quest `test:first` exists again; its progress returned",
        "quest `test:ticks` exists again; its progress returned",
        "encounter `test:shrine` exists again; it is open again",
    ] {
        assert!(notes.contains(line), "{line}\n{notes}");
    }
    let g = s.live.game();
    assert_eq!(g.state().quests, before);
    assert!(g.state().set_aside.is_empty());
    assert_eq!(g.encounter().unwrap().id, id("test:shrine"));
}

/// The summary of a script edit says what that mod registered again, not every mod's count.
#[test]
fn a_script_edit_is_summed_up_by_its_own_mods_registrations() {
    let one = "lantern.on(\"turn_started\", function() end)\n";
    let mut s = Session::new(&[("scripts/main.lua", one)]);
    // A second scripted mod whose registrations are not this edit's news.
    s.write("other/mod.toml", "id = \"other\"\nversion = \"1.0.0\"\n");
    s.write(
        "other/scripts/main.lua",
        "for _ = 1, 5 do lantern.on(\"turn_started\", function() end) end\n",
    );
    s.reload_ok();
    s.write(
        "test/scripts/main.lua",
        &format!("{one}{one}lantern.register_check(\"ready\", function() return true end)\n"),
    );
    let report = s.reload_ok();
    assert!(
        report.summary.ends_with(
            "scripts changed: test/scripts/main.lua; test registered 2 handlers, 1 check again"
        ),
        "{}",
        report.summary
    );
}

/// A mod whose data uses an action its script registers, for the scripts-only reloads below.
const ZAP_DATA: &str = "[[items]]\nid = \"coin\"\n\n[[triggers]]\non = \"turn_started\"\nactions = [ { action = \"test:zap\" }, { action = \"give_item\", item = \"coin\" } ]\n";

fn zap_script(says: &str) -> String {
    format!(
        "lantern.register_action('zap', function(args, ctx) lantern.storage.zaps = (lantern.storage.zaps or 0) + 1 end)\nlantern.on('turn_started', function() lantern.log('{says} ' .. (lantern.storage.zaps or 0)) end)\n"
    )
}

#[test]
fn a_script_edit_keeps_the_content_and_plays_as_a_full_reload_would() {
    // One session takes the scripts-only reload; the other is made to read its data again by a
    // comment added to the data file at the same time. Both play on to the same state.
    let play = |touch_data: bool| {
        let mut s = Session::new(&[
            ("data/zap.toml", ZAP_DATA),
            ("scripts/main.lua", &zap_script("v1")),
        ]);
        s.turn();
        s.turn();
        let before = s.live.game().content().clone();
        s.write("test/scripts/main.lua", &zap_script("v2"));
        if touch_data {
            s.write("test/data/zap.toml", &format!("{ZAP_DATA}# touched\n"));
        }
        let report = s.reload_ok();
        let kept = std::sync::Arc::ptr_eq(&before, s.live.game().content());
        assert_eq!(
            kept, !touch_data,
            "the content is kept exactly when no data changed"
        );
        assert!(
            report
                .summary
                .contains("scripts changed: test/scripts/main.lua"),
            "{}",
            report.summary
        );
        s.messages();
        s.turn();
        let said = s.messages();
        let content = s.live.game().content().clone();
        (s.live.game().state_hash(), said, content)
    };
    let (kept_hash, kept_said, kept_content) = play(false);
    let (full_hash, full_said, full_content) = play(true);
    assert_eq!(
        kept_said.last().map(String::as_str),
        Some("[test] v2 3"),
        "{kept_said:?}"
    );
    assert_eq!(kept_said, full_said);
    assert_eq!(kept_hash, full_hash);
    assert_eq!(
        lantern::reload::describe_changes(&kept_content, &full_content),
        "no changes"
    );
}

/// Plays a turn in the session's game and in `full`, which must say the same and reach the
/// same state.
fn play_alike(s: &mut Session, full: &mut Live) {
    s.turn();
    full.game_mut()
        .emit_command(ev::TURN_STARTED, None, &[])
        .unwrap();
    assert_eq!(s.messages(), full.game_mut().take_messages());
    assert_eq!(s.live.game().state_hash(), full.game().state_hash());
}

#[test]
fn a_reload_runs_the_scripts_it_compiled_before_and_plays_as_a_full_reload_would() {
    // One game reloads with the scripts its last load compiled (a `main.lua` whose text did not
    // change is not compiled again), the other forgets them and compiles every one: after a data
    // edit, which leaves the script as it was, then after a script edit, both say the same and
    // play on to the same state.
    let mut s = Session::new(&[
        ("data/zap.toml", ZAP_DATA),
        ("scripts/main.lua", &zap_script("v1")),
    ]);
    let (mut full, _) = Live::start_game(
        &[s.mods.path().to_path_buf()],
        &lantern::roguelike::rules(),
        1,
        Limits::default(),
    )
    .unwrap();
    let edits = [
        ("test/data/zap.toml", format!("{ZAP_DATA}# touched\n")),
        ("test/scripts/main.lua", zap_script("v2")),
    ];
    for (file, text) in &edits {
        s.turn();
        full.game_mut()
            .emit_command(ev::TURN_STARTED, None, &[])
            .unwrap();
        s.write(file, text);
        s.reload_ok();
        full.forget_parsed();
        let full_report = full.reload();
        assert!(full_report.ok, "{}", full_report.problems.render());
        play_alike(&mut s, &mut full);
    }
    s.turn();
    let said = s.messages();
    assert_eq!(
        said.last().map(String::as_str),
        Some("[test] v2 5"),
        "{said:?}"
    );
}

#[test]
fn a_script_that_stops_registering_an_action_the_data_uses_is_caught_as_in_a_full_reload() {
    let mut s = Session::new(&[
        ("data/zap.toml", ZAP_DATA),
        ("scripts/main.lua", &zap_script("v1")),
    ]);
    s.write(
        "test/scripts/main.lua",
        "lantern.on('turn_started', function() lantern.log('no zap') end)\n",
    );
    let report = s.reload_after_change();
    assert!(!report.ok, "{}", report.summary);
    let text = report.problems.render();
    assert!(text.contains("test:zap"), "{text}");
    // And a script that registers it again loads over the same data.
    s.write("test/scripts/main.lua", &zap_script("v3"));
    let report = s.reload_ok();
    assert!(
        report.summary.contains("scripts changed"),
        "{}",
        report.summary
    );
}

#[test]
fn a_data_file_added_beside_a_script_edit_is_read() {
    let mut s = Session::new(&[
        ("data/zap.toml", ZAP_DATA),
        ("scripts/main.lua", &zap_script("v1")),
    ]);
    let before = s.live.game().content().clone();
    s.write("test/data/more.toml", "[[items]]\nid = \"gem\"\n");
    s.write("test/scripts/main.lua", &zap_script("v2"));
    let report = s.reload_ok();
    assert!(!std::sync::Arc::ptr_eq(&before, s.live.game().content()));
    assert!(report.summary.contains("+1 item"), "{}", report.summary);
    assert!(s.live.game().content().items.contains_key(&id("test:gem")));
}

#[test]
fn a_script_added_to_a_mod_without_one_is_known_to_the_content() {
    let mut s = Session::new(&[("data/zap.toml", "[[items]]\nid = \"coin\"\n")]);
    s.turn();
    assert!(s.messages().is_empty());
    s.write(
        "test/scripts/main.lua",
        "lantern.on('turn_started', function() lantern.log('hi') end)\n",
    );
    s.reload_ok();
    s.turn();
    assert_eq!(s.messages(), ["[test] hi"]);
}

#[test]
fn a_data_edit_parses_one_file_and_plays_as_a_full_reload_would() {
    // Two games over the same folder play the same turns; after an edit to the data of `test`
    // (which depends on core and overrides one of its items), one reloads from what it parsed
    // before, the other parses every file again. Both must hold the same content and play on to
    // the same state.
    let data = |gold: &str| {
        format!(
            "{ZAP_DATA}\n[[items]]\nid = \"core:gold\"\nname = \"{gold}\"\n\n[[triggers]]\non = \"turn_started\"\nactions = [ {{ action = \"give_item\", item = \"core:gold\", count = 2 }} ]\n"
        )
    };
    let mut s = Session::new(&[
        ("data/zap.toml", &data("Gold")),
        ("scripts/main.lua", &zap_script("v1")),
    ]);
    let (mut full, _) = Live::start_game(
        &[s.mods.path().to_path_buf()],
        &lantern::roguelike::rules(),
        1,
        Limits::default(),
    )
    .unwrap();
    for _ in 0..2 {
        s.turn();
        full.game_mut()
            .emit_command(ev::TURN_STARTED, None, &[])
            .unwrap();
    }
    s.write(
        "test/data/zap.toml",
        &format!("# moved a line down\n{}", data("Old gold")),
    );
    let report = s.reload_ok();
    assert!(report.summary.contains("~1 item"), "{}", report.summary);
    full.forget_parsed();
    let full_report = full.reload();
    assert!(full_report.ok, "{}", full_report.problems.render());
    assert_eq!(
        format!("{:?}", s.live.game().content()),
        format!("{:?}", full.game().content()),
        "the content differs"
    );
    play_alike(&mut s, &mut full);
    assert_eq!(
        s.live.game().content().items[&id("core:gold")].name,
        "Old gold"
    );
}

/// A mod set for the patch test: `base` (its items, tags and rarities, and an event, each kind in
/// a file of its own), `a` (items with a trigger, a creature, a quest, top-level triggers, an
/// override of `base:gold`) and `b` (a trigger on `base`'s event, a random pool of `a`'s tag).
fn patch_set(dir: &std::path::Path) {
    let files = [
        ("base/mod.toml", "id = \"base\"\nversion = \"1.0.0\"\n"),
        (
            "base/data/rarities.toml",
            "[[rarities]]\nid = \"white\"\nrank = 1\n\n[[rarities]]\nid = \"blue\"\nrank = 2\n",
        ),
        (
            "base/data/events.toml",
            "[[event_types]]\nid = \"ping\"\npayload = { n = \"int\" }\n",
        ),
        (
            "base/data/items.toml",
            "[[tags]]\nid = \"metal\"\n\n[[items]]\nid = \"gold\"\nname = \"Gold\"\ntags = [\"metal\"]\n\n\
             [[items]]\nid = \"sword\"\nname = \"Sword\"\n",
        ),
        (
            "a/mod.toml",
            "id = \"a\"\nversion = \"1.0.0\"\ndepends = [\"base >=1.0\"]\n",
        ),
        ("a/data/a.toml", PATCH_A),
        (
            "b/mod.toml",
            "id = \"b\"\nversion = \"1.0.0\"\ndepends = [\"base >=1.0\", \"a >=1.0\"]\n",
        ),
        ("b/data/b.toml", PATCH_B),
    ];
    for (path, text) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

const PATCH_A: &str = r#"[[tags]]
id = "shiny"

[[items]]
id = "base:gold"
name = "Gold of a"
tags = ["base:metal"]

[[items]]
id = "lamp"
name = "Lamp"
tags = ["shiny"]
rarity = "white"
[[items.triggers]]
id = "lamp_lit"
on = "turn_started"
actions = [ { action = "heal", amount = 1, target = "self" } ]

[[creatures]]
id = "rat"
health = 3
items = [ { item = "lamp", count = 1 } ]

[[quests]]
id = "hunt"
name = "Hunt"
on = "creature_died"
count = 2
actions = [ { action = "give_item", item = "lamp", count = 1, target = "self" } ]

[[triggers]]
on = "turn_started"
actions = [ { action = "give_item", item = "base:gold", count = 1 }, { action = "emit_event", event = "base:ping", payload = { n = 1 } } ]

[[triggers]]
on = "turn_started"
chance = 0.5
actions = [ { action = "give_item", item = "base:sword", count = 1 } ]
"#;

/// An item and a quest that gives it, added by an edit to `a`.
const SPOON: &str = r#"[[items]]
id = "spoon"
tags = ["dull", "base:metal"]

[[quests]]
id = "chase"
on = "turn_started"
count = 1
actions = [ { action = "give_item", item = "spoon", count = 1, target = "self" } ]
"#;

const PATCH_B: &str = r#"[[triggers]]
on = "base:ping"
actions = [ { action = "give_random_items", tag = "a:shiny", count = 1 } ]
"#;

/// What an edit is, the files it writes (path, text), whether only they are resolved again.
type Edit<'a> = (&'a str, Vec<(&'a str, String)>, bool);

/// Plays a turn in both games: they must say the same and reach the same state.
fn turn_alike(patched: &mut Live, full: &mut Live) {
    for live in [&mut *patched, &mut *full] {
        live.game_mut()
            .emit_command(ev::TURN_STARTED, None, &[])
            .unwrap();
    }
    assert_eq!(
        patched.game_mut().take_messages(),
        full.game_mut().take_messages()
    );
    assert_eq!(patched.game().state_hash(), full.game().state_hash());
}

#[test]
fn a_reload_that_resolves_only_the_changed_files_gives_what_resolving_everything_gives() {
    // Two games over one folder: one reloads as a player's does (resolving only the files that
    // changed when it can), the other forgets what it parsed and resolved and resolves every
    // file. After each edit both must say the same, hold the same content (spans, overrides and
    // trigger numbers included) and play on to the same state. Whether the first resolved only
    // the changed files is seen from a definition of a file no edit touches: a patched content
    // shares it with the version before.
    let dir = tempfile::tempdir().unwrap();
    patch_set(dir.path());
    let (mut patched, _) = Live::start_game(
        &[dir.path().to_path_buf()],
        &lantern::roguelike::rules(),
        3,
        Limits::default(),
    )
    .unwrap();
    let (mut full, _) = Live::start_game(
        &[dir.path().to_path_buf()],
        &lantern::roguelike::rules(),
        3,
        Limits::default(),
    )
    .unwrap();
    turn_alike(&mut patched, &mut full);
    let a = |edit: &dyn Fn(&str) -> String| ("a/data/a.toml", edit(PATCH_A));
    let b = |edit: &dyn Fn(&str) -> String| ("b/data/b.toml", edit(PATCH_B));
    let base_items = std::fs::read_to_string(dir.path().join("base/data/items.toml")).unwrap();
    // Mistakes: the patched reload says what the whole one says, at the same places, and keeps
    // the running version; the next edit is resolved alone again.
    let mistakes = [
        a(&|t| t.replace("item = \"lamp\"", "item = \"lmap\"")),
        // `b`'s pool of `a:shiny` items is left empty by an edit to `a`, then by its own.
        a(&|t| t.replace("tags = [\"shiny\"]", "tags = []")),
        b(&|t| t.replace("count = 1", "count = 1, min_rarity = \"blue\"")),
        // An item removed that another file's trigger still names.
        (
            "base/data/items.toml",
            base_items.replace("[[items]]\nid = \"sword\"\nname = \"Sword\"\n", ""),
        ),
    ];
    for (path, text) in &mistakes {
        let before = patched.game().content().clone();
        std::fs::write(dir.path().join(path), text).unwrap();
        let report = patched.reload();
        full.forget_parsed();
        let full_report = full.reload();
        assert!(!report.ok && !full_report.ok);
        assert_eq!(report.problems.render(), full_report.problems.render());
        assert!(std::sync::Arc::ptr_eq(&before, patched.game().content()));
    }
    let base = ("base/data/items.toml", base_items.clone());
    for (path, text) in [a(&|t| t.to_string()), b(&|t| t.to_string()), base] {
        std::fs::write(dir.path().join(path), text).unwrap();
    }
    let edits: Vec<Edit> = vec![
        (
            "a value",
            vec![a(&|t| t.replace("\"Lamp\"", "\"Lit lamp\""))],
            true,
        ),
        (
            "lines moved, an override's winner among them",
            vec![a(&|t| format!("# a comment\n\n{t}"))],
            true,
        ),
        (
            "the overridden side moved",
            vec![("base/data/items.toml", format!("# first\n{base_items}"))],
            true,
        ),
        (
            "a trigger listens to another event, a quest counts another",
            vec![a(&|t| {
                t.replace("chance = 0.5\n", "")
                    .replacen("on = \"turn_started\"\nactions = [ { action = \"give_item\", item = \"base:sword\"", "on = \"item_used\"\nactions = [ { action = \"give_item\", item = \"base:sword\"", 1)
                    .replace("on = \"creature_died\"", "on = \"turn_started\"")
            })],
            true,
        ),
        (
            "nothing emits the event any more",
            vec![a(&|t| {
                t.replace(
                    ", { action = \"emit_event\", event = \"base:ping\", payload = { n = 1 } }",
                    "",
                )
            })],
            true,
        ),
        (
            "two files at once, `@@` written as `@`",
            vec![
                a(&|t| t.replace("\"Lamp\"", "\"@@lamp\"")),
                b(&|t| t.replace("count = 1", "count = 2")),
            ],
            true,
        ),
        (
            "an item added",
            vec![a(&|t| format!("{t}\n[[items]]\nid = \"cup\"\n"))],
            true,
        ),
        (
            "that item removed; a tag, an item of it and a quest giving it added",
            vec![a(&|t| format!("[[tags]]\nid = \"dull\"\n\n{t}\n{SPOON}"))],
            true,
        ),
        (
            "a quest and a creature removed, a value changed",
            vec![a(&|t| {
                let rat = t.find("[[creatures]]").unwrap();
                let end = t.find("[[triggers]]").unwrap();
                format!(
                    "[[tags]]\nid = \"dull\"\n\n{}{}\n{SPOON}",
                    &t[..rat],
                    &t[end..]
                )
                .replace("\"Lamp\"", "\"Old lamp\"")
            })],
            true,
        ),
        (
            "an override added",
            vec![a(&|t| {
                format!("{t}\n[[items]]\nid = \"base:sword\"\nname = \"Blade\"\n")
            })],
            false,
        ),
        (
            "an item added that bears a trigger",
            vec![a(&|t| {
                format!("{t}\n[[items]]\nid = \"torch\"\n[[items.triggers]]\non = \"item_used\"\nactions = []\n")
            })],
            false,
        ),
        (
            "a trigger added to an item",
            vec![a(&|t| {
                t.replace(
                    "[[creatures]]",
                    "[[items.triggers]]\non = \"item_used\"\nactions = []\n\n[[creatures]]",
                )
            })],
            false,
        ),
        (
            "a value, after a full one",
            vec![a(&|t| {
                t.replace(
                    "[[creatures]]",
                    "[[items.triggers]]\non = \"item_used\"\nactions = []\n\n[[creatures]]",
                )
                .replace("health = 3", "health = 4")
            })],
            true,
        ),
        (
            "a text that names a key",
            vec![a(&|t| t.replace("\"Lamp\"", "\"@lamp\""))],
            false,
        ),
        (
            "a rarity's file",
            vec![(
                "base/data/rarities.toml",
                "[[rarities]]\nid = \"white\"\nrank = 1\n\n[[rarities]]\nid = \"blue\"\nrank = 3\n"
                    .into(),
            )],
            false,
        ),
    ];
    for (what, writes, only_changed) in edits {
        let before = patched.game().content().clone();
        for (path, text) in &writes {
            std::fs::write(dir.path().join(path), text).unwrap();
        }
        let report = patched.reload();
        full.forget_parsed();
        let full_report = full.reload();
        assert!(report.ok, "{what}: {}", report.problems.render());
        assert!(full_report.ok, "{what}: {}", full_report.problems.render());
        assert_eq!(
            report.problems.render(),
            full_report.problems.render(),
            "{what}"
        );
        let after = patched.game().content();
        assert_eq!(
            format!("{after:?}"),
            format!("{:?}", full.game().content()),
            "{what}: the content differs"
        );
        // An item of a file the edit did not write.
        let touches_base = writes.iter().any(|(path, _)| path.starts_with("base/"));
        let probe = id(if touches_base { "a:lamp" } else { "base:sword" });
        assert_eq!(
            std::sync::Arc::ptr_eq(&before.items[&probe], &after.items[&probe]),
            only_changed,
            "{what}: whether only the changed files were resolved"
        );
        turn_alike(&mut patched, &mut full);
    }
    // The running version's `a` names a key (`@lamp`): the first edit resolves everything, the
    // next only `a`.
    for (count, only_changed) in [(3, false), (4, true)] {
        let before = patched.game().content().clone();
        let (path, text) = a(&|t| t.replace("count = 2", &format!("count = {count}")));
        std::fs::write(dir.path().join(path), text).unwrap();
        std::fs::write(dir.path().join("b/data/b.toml"), PATCH_B).unwrap();
        assert!(patched.reload().ok);
        full.forget_parsed();
        assert!(full.reload().ok);
        let after = patched.game().content();
        assert_eq!(format!("{after:?}"), format!("{:?}", full.game().content()));
        let probe = id("base:sword");
        let shared = std::sync::Arc::ptr_eq(&before.items[&probe], &after.items[&probe]);
        assert_eq!(shared, only_changed, "count = {count}");
        turn_alike(&mut patched, &mut full);
    }
}

#[test]
fn a_translated_game_resolving_only_the_changed_file_reads_as_one_resolving_everything() {
    // A game played in German: a data edit resolves only its file (the running version's
    // untranslated content is patched: its locale files name no key), then the game reads it in
    // German again, as a game that resolved everything does. A text the edit changed shows the
    // translation of its key, and so does a definition the edit added.
    let dir = tempfile::tempdir().unwrap();
    patch_set(dir.path());
    std::fs::create_dir_all(dir.path().join("a/locale")).unwrap();
    std::fs::write(
        dir.path().join("a/locale/de.toml"),
        "[items.lamp]\nname = \"Lampe\"\n\n[creatures.rat]\nname = \"Ratte\"\n\n\
         [items.cup]\nname = \"Tasse\"\n",
    )
    .unwrap();
    let (mut patched, _) = Live::start_game(
        &[dir.path().to_path_buf()],
        &lantern::roguelike::rules(),
        3,
        Limits::default(),
    )
    .unwrap();
    let (mut full, _) = Live::start_game(
        &[dir.path().to_path_buf()],
        &lantern::roguelike::rules(),
        3,
        Limits::default(),
    )
    .unwrap();
    for live in [&mut patched, &mut full] {
        live.game_mut().set_language("de");
    }
    let before = patched.game().content().clone();
    let edited = PATCH_A
        .replace("\"Lamp\"", "\"Oil lamp\"")
        .replace("health = 3", "health = 5")
        + "\n[[items]]\nid = \"cup\"\nname = \"Cup\"\n";
    std::fs::write(dir.path().join("a/data/a.toml"), edited).unwrap();
    let report = patched.reload();
    full.forget_parsed();
    let full_report = full.reload();
    assert!(report.ok && full_report.ok, "{}", report.problems.render());
    assert_eq!(report.problems.render(), full_report.problems.render());
    let after = patched.game().content();
    assert_eq!(format!("{after:?}"), format!("{:?}", full.game().content()));
    assert_eq!(after.language(), Some("de"));
    assert_eq!(after.items[&id("a:lamp")].name, "Lampe");
    assert_eq!(after.creatures[&id("a:rat")].health, 5);
    // The item the edit added reads in German too.
    assert_eq!(after.items[&id("a:cup")].name, "Tasse");
    assert!(!std::sync::Arc::ptr_eq(&before, after));
    turn_alike(&mut patched, &mut full);
}
