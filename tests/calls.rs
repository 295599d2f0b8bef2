//! Calls between mods: a library mod exposes functions (`lantern.expose`), the mods that depend
//! on it call them (`lantern.call`) and get plain data back, copied; the callee's work and its
//! failures are its own, said at the caller's line.

mod common;

use common::world::{problems, turn, TestMods};

const LIBRARY: &str = r#"
lantern.storage.calendar = { "spring", "summer" }
lantern.expose("forecast", function(days, opts)
  local out = {}
  for i = 1, days do
    out[i] = { day = i, rain = i % 2 == 0, note = opts and opts.note }
  end
  return out, days
end)
lantern.expose("calendar", function() return lantern.storage.calendar end)
lantern.expose("fails", function() error("the sky fell") end)
lantern.expose("spins", function() while true do end end)
lantern.expose("hands_out_code", function() return print end)
"#;

/// Core, the mod `test` with `script`, and the library mod `weather` that `test` depends on
/// when `depends` says so.
fn mods(script: &str, depends: bool) -> TestMods {
    let deps = if depends {
        "[\"core\", \"weather\"]"
    } else {
        "[\"core\"]"
    };
    let m = TestMods::new(&[
        (
            "mod.toml",
            &format!("id = \"test\"\nversion = \"1.0.0\"\ndepends = {deps}\n"),
        ),
        ("scripts/main.lua", script),
    ]);
    let weather = m.path().join("weather");
    std::fs::create_dir_all(weather.join("scripts")).unwrap();
    std::fs::write(
        weather.join("mod.toml"),
        "id = \"weather\"\nversion = \"1.0.0\"\n",
    )
    .unwrap();
    std::fs::write(weather.join("scripts/main.lua"), LIBRARY).unwrap();
    m
}

#[test]
fn a_library_mods_function_returns_values_to_its_callers() {
    let m = mods(
        r#"lantern.on("turn_started", function()
  local list, days = lantern.call("weather:forecast", 3, { note = "cloudy" })
  lantern.storage.days = days
  lantern.storage.second = list[2]
  -- What comes back is a copy: changing it changes nothing of the library's.
  local calendar = lantern.call("weather:calendar")
  calendar[1] = "winter"
  lantern.storage.first_season = lantern.call("weather:calendar")[1]
end)
"#,
        true,
    );
    let (mut g, world) = m.game(1);
    turn(&mut g);
    assert_eq!(problems(&mut g, &world), Vec::<String>::new());
    let stored = &g.storage()["test"];
    assert_eq!(stored["days"], 3);
    assert_eq!(
        stored["second"],
        serde_json::json!({ "day": 2, "rain": true, "note": "cloudy" })
    );
    assert_eq!(stored["first_season"], "spring");
}

/// The one problem a turn of `script` raised, rendered.
fn one_problem(script: &str, depends: bool) -> String {
    let m = mods(script, depends);
    let (mut g, world) = m.game(1);
    turn(&mut g);
    let said = problems(&mut g, &world);
    assert_eq!(said.len(), 1, "{said:#?}");
    said[0].clone()
}

#[test]
fn what_is_not_plain_data_is_refused_at_the_callers_line() {
    let said = one_problem(
        "lantern.on(\"turn_started\", function()\n  lantern.call(\"weather:forecast\", 1, { f = print })\nend)\n",
        true,
    );
    assert!(
        said.starts_with("error: [test] a handler of `turn_started` failed: lantern.call(\"weather:forecast\"): argument 2 holds a function at `f`: only plain data (nil, booleans, numbers, texts and tables of them) passes between mods\n")
            && said.contains("test/scripts/main.lua:2:1"),
        "{said}"
    );
    let said = one_problem(
        "lantern.on(\"turn_started\", function()\n  lantern.call(\"weather:hands_out_code\")\nend)\n",
        true,
    );
    assert!(
        said.contains(
            "lantern.call(\"weather:hands_out_code\"): result 1 is a function: only plain data"
        ),
        "{said}"
    );
}

#[test]
fn the_callees_failure_and_runaway_loop_are_its_own_at_the_callers_line() {
    let said = one_problem(
        "lantern.on(\"turn_started\", function()\n  lantern.call(\"weather:fails\")\nend)\n",
        true,
    );
    assert!(
        said.starts_with("error: [test] a handler of `turn_started` failed: [weather] function `weather:fails` failed: weather/scripts/main.lua:11: the sky fell\n")
            && said.contains("test/scripts/main.lua:2:1"),
        "{said}"
    );
    let said = one_problem(
        "lantern.on(\"turn_started\", function()\n  lantern.call(\"weather:spins\")\nend)\n",
        true,
    );
    assert!(
        said.contains("[weather] function `weather:spins` failed: ")
            && said.contains("instruction")
            && said.contains("test/scripts/main.lua:2:"),
        "{said}"
    );
}

#[test]
fn a_call_names_an_exposed_function_of_a_mod_this_one_depends_on() {
    let said = one_problem(
        "lantern.on(\"turn_started\", function()\n  lantern.call(\"weather:forecast\", 1)\nend)\n",
        false,
    );
    assert!(
        said.contains("lantern.call(\"weather:forecast\"): `test` calls a function of `weather` but does not depend on it; add `weather` to `depends` (or `optional`) in its mod.toml"),
        "{said}"
    );
    let said = one_problem(
        "lantern.on(\"turn_started\", function()\n  local name = \"weather:forcast\"\n  lantern.call(name, 1)\nend)\n",
        true,
    );
    assert!(
        said.contains("lantern.call(\"weather:forcast\"): no mod exposes `weather:forcast`; did you mean `weather:forecast`?")
            && said.contains("test/scripts/main.lua:3:"),
        "{said}"
    );
}

#[test]
fn a_function_is_exposed_once_and_only_while_the_mod_loads() {
    let m = mods(
        "lantern.expose(\"x\", function() end)\nlantern.expose(\"x\", function() end)\n",
        true,
    );
    let world = m.world(Default::default());
    let rendered = lantern::diag::render_all(&world.diagnostics, &world.sources);
    assert!(
        rendered.contains("the function `test:x` is exposed twice")
            && rendered.contains("test/scripts/main.lua:2"),
        "{rendered}"
    );
    let said = one_problem(
        "lantern.on(\"turn_started\", function()\n  lantern.expose(\"late\", function() end)\nend)\n",
        true,
    );
    assert!(
        said.contains("lantern.expose can only be called while the mod loads"),
        "{said}"
    );
}
