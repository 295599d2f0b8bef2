//! A turn's writes to `lantern.storage` are patched into the game's save of it, key by key
//! (`lua/mirror.rs`), instead of the storage being saved whole: the patched save must be what a
//! whole save gives, whatever the scripts do. A debug build (the tests') compares the two at the
//! end of every turn and panics when they differ; these tests make the scripts do everything a
//! patch has to follow.

mod common;

use common::world::{turn, TestMods};

/// What a game's save of the mod's storage reads as now.
fn stored(g: &lantern::game::Game) -> serde_json::Value {
    (*g.storage()["test"]).clone()
}

/// One turn: the handler runs `code` over `s`, the storage.
fn mods_running(code: &str) -> TestMods {
    let lua = format!(
        "local step, KEPT = 0, nil\n\
         lantern.on('turn_started', function()\n\
           step = step + 1\n\
           local s = lantern.storage\n\
           {code}\n\
         end)\n"
    );
    TestMods::new(&[("scripts/main.lua", &lua)])
}

#[test]
fn each_form_of_a_saved_table_is_patched_as_a_whole_save_writes_it() {
    // Step by step: a sequence grows, gets a hole (pairs), is filled (a sequence again), loses
    // its last value down to nothing (an empty object); text keys, a `$pairs` key, number and
    // boolean keys, a whole float key, a value that becomes a table and one taken out.
    let mods = mods_running(
        "if step == 1 then s.list = { 'a' } s.names = { x = 1 } s.nums = { [5] = 'five' } s.gone = { deep = { 1 } }\n\
         elseif step == 2 then s.list[2] = 'b' s.list[3] = 'c' s.names.y = 2 s.nums[7] = 'seven'\n\
         elseif step == 3 then s.list[2] = nil s.names['$pairs'] = 'mine' s.nums[true] = 'yes'\n\
         elseif step == 4 then s.list[2] = 'b again' s.names['$pairs'] = nil s.nums[5] = nil s.nums[7] = nil s.nums[true] = nil\n\
         elseif step == 5 then s.list[3] = nil s.list[2] = nil s.list[1] = nil s.names[1] = 'first' s.nums[2.0] = 'two'\n\
         elseif step == 6 then s.names[1] = nil s.nums[1] = 'one' s.gone.deep[1] = 'x' s.gone = nil\n\
         elseif step == 7 then s.nums[1] = { inner = { 2.5, -0.5 } } s.nums[1].inner[3] = 'three' s[0.5] = 'half'\n\
         end",
    );
    let (mut g, _world) = mods.game(1);
    let expected = [
        serde_json::json!({"list": ["a"], "names": {"x": 1}, "nums": {"$pairs": [[5, "five"]]}, "gone": {"deep": [1]}}),
        serde_json::json!({"list": ["a", "b", "c"], "names": {"x": 1, "y": 2}, "nums": {"$pairs": [[5, "five"], [7, "seven"]]}, "gone": {"deep": [1]}}),
        serde_json::json!({"list": {"$pairs": [[1, "a"], [3, "c"]]}, "names": {"$pairs": [["$pairs", "mine"], ["x", 1], ["y", 2]]}, "nums": {"$pairs": [[true, "yes"], [5, "five"], [7, "seven"]]}, "gone": {"deep": [1]}}),
        serde_json::json!({"list": ["a", "b again", "c"], "names": {"x": 1, "y": 2}, "nums": {}, "gone": {"deep": [1]}}),
        serde_json::json!({"list": {}, "names": {"$pairs": [[1, "first"], ["x", 1], ["y", 2]]}, "nums": {"$pairs": [[2, "two"]]}, "gone": {"deep": [1]}}),
        serde_json::json!({"list": {}, "names": {"x": 1, "y": 2}, "nums": ["one", "two"]}),
        // A number key at the root puts the whole root in `$pairs` form.
        serde_json::json!({"$pairs": [[0.5, "half"], ["list", {}], ["names", {"x": 1, "y": 2}], ["nums", [{"inner": [2.5, -0.5, "three"]}, "two"]]]}),
    ];
    for (step, expected) in expected.iter().enumerate() {
        turn(&mut g);
        assert_eq!(g.take_problems(), Vec::new(), "step {}", step + 1);
        assert_eq!(&stored(&g), expected, "step {}", step + 1);
    }
}

/// A script that does, every turn, many random writes of every kind to its storage (from a
/// handler and from an action list that fails one turn in three, which puts its writes back):
/// scalars and fresh tables at random places, keys taken out, lists grown and shrunk through the
/// table library, tables stored at a second place (saved twice), writes into a table after it
/// was taken out, and now and then a new storage table. Every turn's patched save is compared
/// with a whole one (the debug build's check); a save loaded and played on agrees too.
#[test]
fn random_writes_of_every_kind_are_patched_as_a_whole_save_would_write_them() {
    let lua = r#"
local seed = 12345
local function rand(n) seed = (seed * 1103515245 + 12345) % 2147483648 return seed % n + 1 end
local keys = { "a", "b", "c", "$pairs", "x y", 1, 2, 3, 4, 5, 0, -1, 2.5, true, false }
local function value(depth)
  local r = rand(9)
  if r == 1 then return rand(100) elseif r == 2 then return rand(100) / 4
  elseif r == 3 then return "t" .. rand(10) elseif r == 4 then return rand(2) == 1
  elseif r <= 6 and depth < 3 then
    local t = {}
    for _ = 1, rand(4) - 1 do t[keys[rand(#keys)]] = value(depth + 1) end
    return t
  elseif r == 7 and depth < 3 then
    local t = {}
    for i = 1, rand(5) do t[i] = value(depth + 1) end
    return t
  end
  return nil
end
-- A table of the storage, found by a random walk from its root.
local function pick(s)
  local t = s
  for _ = 1, 4 do
    if rand(3) == 1 then break end
    local subs = {}
    for _, v in pairs(t) do if type(v) == "table" then subs[#subs + 1] = v end end
    if #subs == 0 then break end
    t = subs[rand(#subs)]
  end
  return t
end
local taken = {}
local function mess(s, n)
  for _ = 1, n do
    local t, r = pick(s), rand(10)
    if r <= 4 then t[keys[rand(#keys)]] = value(1)
    elseif r == 5 then t[keys[rand(#keys)]] = nil
    elseif r == 6 then
      if rand(2) == 1 then table.insert(t, value(2)) elseif #t > 0 then table.remove(t, rand(#t)) end
    elseif r == 7 then
      local k = keys[rand(#keys)]
      if type(t[k]) == "table" then taken[#taken + 1] = t[k] t[k] = nil end
    elseif r == 8 and #taken > 0 then taken[rand(#taken)][keys[rand(#keys)]] = value(2)
    elseif r == 9 and rand(8) == 1 then
      local x = pick(s)
      if x ~= s then s["twice" .. rand(3)] = x end
    elseif r == 10 and rand(20) == 1 then
      lantern.storage = { fresh = rand(100) }
    end
  end
end
lantern.register_action("mess", function() mess(lantern.storage, 8) end)
lantern.register_action("maybe", function() if rand(3) == 1 then error("undone") end end)
lantern.on("turn_started", function() mess(lantern.storage, 12) end)
"#;
    let data = "[[triggers]]\non = \"turn_started\"\nactions = [ { action = \"test:mess\" }, { action = \"test:maybe\" } ]\n";
    let mods = TestMods::new(&[("data/t.toml", data), ("scripts/main.lua", lua)]);
    let (mut g, mut world) = mods.game(1);
    let saves = tempfile::tempdir().unwrap();
    let path = saves.path().join("run.json");
    for n in 0..150 {
        turn(&mut g);
        // The only problems are the failing action's (a table stored twice can make a cycle,
        // which is reported and keeps the last save: allowed too).
        for p in g.take_problems() {
            assert!(
                p.message.contains("undone")
                    || p.message.contains("stopped by the failure above")
                    || p.message.contains("a cycle"),
                "turn {n}: {}",
                p.message
            );
        }
        if n == 100 {
            g.save(&path).unwrap();
            let (loaded, _) = world.load_save(&path).unwrap();
            assert_eq!(loaded.state_hash(), g.state_hash());
        }
    }
    assert!(
        stored(&g).to_string().len() > 100,
        "the storage holds something: {}",
        stored(&g)
    );
}

/// A table taken out of the storage and then written through a local that kept it changes
/// nothing in the save; one put back in another place is saved there.
#[test]
fn a_table_taken_out_and_written_through_a_local_changes_nothing_saved() {
    let mods = mods_running(
        "if step == 1 then s.box = { coins = 1 } KEPT = s.box\n\
         elseif step == 2 then s.box = nil KEPT.coins = 99\n\
         elseif step == 3 then KEPT.coins = 5 s.shelf = { KEPT }\n\
         elseif step == 4 then KEPT.coins = 6 end",
    );
    let (mut g, _world) = mods.game(1);
    turn(&mut g);
    assert_eq!(stored(&g), serde_json::json!({"box": {"coins": 1}}));
    turn(&mut g);
    assert_eq!(stored(&g), serde_json::json!({}));
    turn(&mut g);
    assert_eq!(stored(&g), serde_json::json!({"shelf": [{"coins": 5}]}));
    turn(&mut g);
    assert_eq!(stored(&g), serde_json::json!({"shelf": [{"coins": 6}]}));
    assert_eq!(g.take_problems(), Vec::new());
}

/// A table stored at two places is saved at both (it loads back as two equal tables), and a
/// later write into it is patched in at both.
#[test]
fn a_table_held_at_two_places_is_patched_at_both() {
    let mods = mods_running(
        "if step == 1 then s.a = { n = 1, inner = { 1 } } s.b = s.a\n\
         elseif step == 2 then s.a.n = 2 s.b.inner[2] = 'two'\n\
         elseif step == 3 then s.a = nil s.b.inner[1] = 'one' end",
    );
    let (mut g, _world) = mods.game(1);
    turn(&mut g);
    let both = serde_json::json!({"n": 1, "inner": [1]});
    assert_eq!(stored(&g), serde_json::json!({"a": both, "b": both}));
    turn(&mut g);
    let both = serde_json::json!({"n": 2, "inner": [1, "two"]});
    assert_eq!(stored(&g), serde_json::json!({"a": both, "b": both}));
    turn(&mut g);
    assert_eq!(
        stored(&g),
        serde_json::json!({"b": {"n": 2, "inner": ["one", "two"]}})
    );
    assert_eq!(g.take_problems(), Vec::new());
}

/// A turn that stores what a save cannot hold, after turns whose writes were patched in: the
/// patch gives way to a whole save, which reports it at the line that stored it, and the game
/// keeps the last save; when the script takes it out again, saving goes on.
#[test]
fn what_cannot_be_saved_after_patched_turns_is_reported_at_its_line() {
    let mods = mods_running(
        "s.n = step\n\
         if step == 3 then s.box = { f = print } end\n\
         if step == 4 then s.box = nil end",
    );
    let (mut g, world) = mods.game(1);
    turn(&mut g);
    turn(&mut g);
    assert_eq!(stored(&g), serde_json::json!({"n": 2}));
    turn(&mut g);
    let p = common::world::problems(&mut g, &world);
    assert_eq!(p.len(), 1, "one mistake, one message: {p:?}");
    assert!(
        p[0].contains("[test] lantern.storage.box.f holds a function")
            && p[0].contains("the storage keeps its last saved state")
            && p[0].contains("/test/scripts/main.lua:6:")
            && p[0].contains("stored here"),
        "{}",
        p[0]
    );
    assert_eq!(
        stored(&g),
        serde_json::json!({"n": 2}),
        "the last save stays"
    );
    turn(&mut g);
    assert_eq!(g.take_problems(), Vec::new());
    assert_eq!(stored(&g), serde_json::json!({"n": 4}));
    turn(&mut g);
    assert_eq!(stored(&g), serde_json::json!({"n": 5}));
}

/// Storage that `main.lua` wrote while the mod loaded was dropped when the game started: a
/// counter set to 10 at the top of the script read 1 after the first room. It is a new game's
/// starting storage now: a new game and a restart start from it, a loaded save keeps its own,
/// and what storage cannot hold is an error when the mod loads.
#[test]
fn what_main_lua_stores_while_loading_is_a_new_games_starting_storage() {
    let dir = common::core_only();
    let keep = dir.path().join("keep");
    std::fs::create_dir_all(keep.join("scripts")).unwrap();
    std::fs::write(
        keep.join("mod.toml"),
        "id = \"keep\"\nversion = \"0.1.0\"\ndepends = [\"core\"]\n",
    )
    .unwrap();
    std::fs::write(
        keep.join("scripts/main.lua"),
        "lantern.storage.visits = 10\n\
         lantern.on('room_entered', function()\n\
           lantern.storage.visits = lantern.storage.visits + 1\n\
           print('visits ' .. lantern.storage.visits)\n\
         end)\n",
    )
    .unwrap();
    let visits = |out: std::process::Output| -> Vec<String> {
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| l.strip_prefix("[keep] visits ").map(str::to_string))
            .collect()
    };
    let args = ["play", "--no-watch", "--mods", "."];
    let first = common::lantern_with_input(
        &args,
        dir.path(),
        "next\nnext\nsave game.json\nrestart\nnext\n",
    );
    assert_eq!(visits(first), ["11", "12", "11"]);
    let loaded = common::lantern_with_input(&args, dir.path(), "load game.json\nnext\n");
    assert_eq!(visits(loaded), ["13"]);

    std::fs::write(
        keep.join("scripts/main.lua"),
        "lantern.storage.greet = function() end\n",
    )
    .unwrap();
    let out = common::lantern(&["check", "--mods", "."], dir.path());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains(
            "error: [keep] its scripts/main.lua stored what storage cannot hold: \
             lantern.storage.greet holds a function"
        ),
        "{said}"
    );
}
