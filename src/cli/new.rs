//! `lantern new NAME`: a new mod with a manifest, a data file with a trigger and a quest, a script
//! and a passing test: the starting point of the modder guide's first chapter.

use std::path::PathBuf;
use std::process::ExitCode;

/// Writes the mod into the last of the mods directories (the player's, after the game's). For a
/// game with its own vocabulary the mod depends on nothing, its data file lists the game's
/// tables, events, actions and checks, and its script and test use the game's first event; for
/// the roguelike's (empty) rules, it is the mod of the guide's first chapter.
pub(super) fn run_for(
    roots: &[PathBuf],
    name: &str,
    rules: &crate::host::Rules,
    program: &str,
) -> ExitCode {
    let Some(mods_dir) = roots.last() else {
        return ExitCode::from(2);
    };
    if !crate::id::is_ident(name) {
        eprintln!("error: `{name}` is not a mod id: use lowercase letters, digits and `_`, such as `rats`");
        return ExitCode::from(2);
    }
    let dir = mods_dir.join(name);
    if dir.exists() {
        eprintln!("error: `{}` already exists", dir.display());
        return ExitCode::from(1);
    }
    let host = !plays_core(rules);
    let files = if host {
        host_files(name, rules, program)
    } else {
        [
            ("mod.toml", manifest(name)),
            (&format!("data/{name}.toml") as &str, data(name)),
            ("scripts/main.lua", script(name)),
            (&format!("tests/{name}_test.lua") as &str, test(name)),
        ]
        .map(|(p, t)| (p.to_string(), t))
    };
    for (path, text) in &files {
        let full = dir.join(path);
        let written = full
            .parent()
            .map(std::fs::create_dir_all)
            .transpose()
            .and_then(|_| std::fs::write(&full, text));
        if let Err(e) = written {
            eprintln!("error: cannot write `{}`: {e}", full.display());
            return ExitCode::from(1);
        }
    }
    if let Err(e) = editor_files(&dir, rules) {
        eprintln!(
            "error: cannot write the editor files into `{}`: {e}",
            dir.display()
        );
        return ExitCode::from(1);
    }
    println!("created mod `{name}` in {}", dir.display());
    for (path, _) in &files {
        println!("  {name}/{path}");
    }
    println!("  {name}/.luarc.json, {name}/.taplo.toml and {name}/.lantern/: your editor's setup (open the mod's folder in VS Code with lantern's extension, `lantern-mods.vsix`, and the Lua and Even Better TOML extensions)");
    if host {
        println!("next: `{program} check` and `{program} test {name}`");
        return ExitCode::SUCCESS;
    }
    // Its manifest depends on core and its test plays with core: say how to reach it.
    let mut sources = crate::diag::SourceMap::new();
    let found = crate::mods::discover(roots, &mut sources, &mut Vec::new());
    let flags: String = roots
        .iter()
        .map(|r| format!(" --mods {}", r.display()))
        .collect();
    if found.iter().any(|m| m.id() == "core") {
        let flags = if roots.len() == 1 && mods_dir.as_path() == std::path::Path::new("mods") {
            String::new()
        } else {
            flags
        };
        println!("next: `lantern check{flags}`, `lantern test{flags} {name}`, and `lantern play{flags}` to see it live");
    } else {
        println!(
            "note: `{name}` depends on `core`, which is not in {}: give the game's mods folder first, such as `lantern test --mods mods{flags} {name}`",
            super::shown(roots)
        );
    }
    ExitCode::SUCCESS
}

fn manifest(name: &str) -> String {
    format!("id = \"{name}\"\nname = \"{name}\"\nversion = \"0.1.0\"\ndepends = [\"core >=0.1\"]\n")
}

fn data(name: &str) -> String {
    format!(
        r#"# Everything here is `{name}:...`; other mods' definitions are named with their namespace.

# A trigger: every rat you kill drops a coin.
[[triggers]]
id = "rat_coin"
on = "creature_died"
condition = [ {{ check = "has_tag", who = "target", value = "core:rat" }} ]
actions = [ {{ action = "give_item", item = "core:gold", count = 1, target = "player" }} ]

# A quest: kill three rats after it starts.
[[quests]]
id = "first_hunt"
name = "First Hunt"
on = "creature_died"
count = 3
condition = [ {{ check = "has_tag", who = "target", value = "core:rat" }} ]
actions = [ {{ action = "give_item", item = "core:potion", count = 1, target = "self" }} ]

# Start the quest as soon as the run begins.
[[triggers]]
id = "start_hunt"
on = "floor_entered"
when = {{ depth = 1 }}
actions = [ {{ action = "start_quest", quest = "first_hunt" }} ]
"#
    )
}

fn script(name: &str) -> String {
    format!(
        r#"-- Runs once when the mod loads: subscribe to events, register actions and checks.
lantern.on("quest_completed", function(ev)
  if ev.quest == "{name}:first_hunt" then
    lantern.log("the first hunt is done")
  end
end)
"#
    )
}

fn test(name: &str) -> String {
    format!(
        r#"-- Run with `lantern test {name}`.
describe("{name}", function()
  it("pays a coin per rat", function()
    local g = lantern.test.game{{ seed = 1, mods = {{ "core", "{name}" }} }}
    local before = g.player:count("core:gold")
    g:emit("creature_died", {{ target = g:spawn("core:rat") }})
    expect(g.player:count("core:gold")).to_be(before + 1)
  end)

  it("completes the first hunt after three rats", function()
    local g = lantern.test.game{{ seed = 1, mods = {{ "core", "{name}" }} }}
    g:next()
    expect(g:quest("{name}:first_hunt").count).to_be(0)
    for _ = 1, 3 do
      g:emit("creature_died", {{ target = g:spawn("core:rat") }})
    end
    expect(g:quest("{name}:first_hunt").done).to_be(true)
  end)
end)
"#
    )
}

/// A new mod for a game with its own vocabulary.
fn host_files(name: &str, rules: &crate::host::Rules, program: &str) -> [(String, String); 4] {
    let defs = rules.defs();
    let mut data = format!(
        "# Everything here is `{name}:...`; other mods' definitions are named with their namespace.\n#\n# What the game `{}` lets a mod write:\n",
        rules.namespace()
    );
    let tables: Vec<String> = defs
        .tables
        .iter()
        .map(|t| {
            let mut about = format!("IDs of kind `{}`", t.kind);
            if let Some(keys) = t.keys {
                about.push_str(&format!("; keys {}", keys.join(", ")));
            }
            for (key, ty) in &t.refs {
                about.push_str(&format!("; `{key}` names {}s", ty.name()));
            }
            if t.in_play.is_some() {
                about.push_str(&format!(
                    "; [[{}.triggers]] listen while it is in play",
                    t.key
                ));
            }
            format!("[[{}]] ({about})", t.key)
        })
        .collect();
    let events: Vec<&str> = defs.events.iter().map(|e| e.name.as_str()).collect();
    let actions: Vec<String> = rules.actions().map(|(id, _, _)| id.to_string()).collect();
    let checks: Vec<String> = rules.checks().map(|(id, _, _)| id.to_string()).collect();
    for (what, list) in [
        ("tables", tables),
        ("events", events.iter().map(|e| e.to_string()).collect()),
        ("actions", actions),
        ("checks", checks),
    ] {
        if !list.is_empty() {
            data.push_str(&format!("#   {what}: {}\n", list.join(", ")));
        }
    }
    data.push_str(
        "# and lantern's own: [[triggers]], [[quests]], [[encounters]], [[event_types]], ...\n",
    );
    let event = events.first().copied().unwrap_or("turn_started");
    // A trigger on the game's first event, its action left for the modder to choose (written out
    // with the first action's parameters, commented so the new mod loads clean).
    let example = rules.actions().next().map(|(id, params, _)| {
        let args: String = params
            .iter()
            .map(|p| format!(", {} = {}", p.name(), p.example()))
            .collect();
        format!("  # {{ action = \"{id}\"{args} }},\n")
    });
    data.push_str(&format!(
        "\n# When `{event}` happens, do something: each action is one of the game's.\n[[triggers]]\nid = \"on_{event}\"\non = \"{event}\"\nactions = [\n{}]\n",
        example.unwrap_or_default()
    ));
    let script = format!(
        "-- Runs once when the mod loads: subscribe to events, register actions and checks.\nlantern.on(\"{event}\", function(ev)\n  lantern.storage.seen = (lantern.storage.seen or 0) + 1\nend)\n"
    );
    let test = format!(
        "-- Run with `{program} test {name}`.\ndescribe(\"{name}\", function()\n  it(\"counts every {event}\", function()\n    local g = lantern.test.game{{ seed = 1 }}\n    g:emit(\"{event}\", {{}})\n    expect(g:storage(\"{name}\").seen).to_be(1)\n  end)\nend)\n"
    );
    [
        (
            "mod.toml".to_string(),
            format!("id = \"{name}\"\nname = \"{name}\"\nversion = \"0.1.0\"\n"),
        ),
        (format!("data/{name}.toml"), data),
        ("scripts/main.lua".to_string(), script),
        (format!("tests/{name}_test.lua"), test),
    ]
}

/// Whether the game is the bundled roguelike, whose new mods play with `core`; any other game's
/// get a mod written in its own vocabulary.
fn plays_core(rules: &crate::host::Rules) -> bool {
    #[cfg(feature = "roguelike")]
    return rules.namespace() == crate::roguelike::world::NAMESPACE;
    #[cfg(not(feature = "roguelike"))]
    {
        let _ = rules;
        false
    }
}

/// The editor setup a new mod gets, for VS Code with LuaLS (the "Lua" extension) and Taplo ("Even
/// Better TOML") opened on the mod's folder: the game's Lua definitions and JSON Schemas in
/// `.lantern/` (what `docs --lua-defs` and `docs --schema` write), a `.luarc.json` that reads them
/// and leaves out what the sandbox has not, and a `.taplo.toml` that validates the mod's data
/// files (nested folders included) and manifest. `docs` writes them again after a game update.
fn editor_files(dir: &std::path::Path, rules: &crate::host::Rules) -> std::io::Result<()> {
    let tools = dir.join(".lantern");
    std::fs::create_dir_all(&tools)?;
    let defs = crate::lua::defs::generate_for(rules).map_err(std::io::Error::other)?;
    std::fs::write(tools.join("lantern.d.lua"), defs)?;
    std::fs::write(
        tools.join("lantern-test.d.lua"),
        crate::harness::defs::lua_defs(rules),
    )?;
    for (name, schema) in crate::content::schema::editor_schemas(rules.defs()) {
        let text = serde_json::to_string_pretty(&schema).unwrap_or_default();
        std::fs::write(tools.join(name), text)?;
    }
    std::fs::write(dir.join(".luarc.json"), LUARC)?;
    std::fs::write(dir.join(".taplo.toml"), TAPLO)
}

/// LuaLS's settings for a mod: Lua 5.4, lantern's definitions, the sandbox's libraries only, and
/// the test files' globals.
const LUARC: &str = r#"{
  "$schema": "https://raw.githubusercontent.com/LuaLS/vscode-lua/master/setting/schema.json",
  "runtime.version": "Lua 5.4",
  "runtime.builtin": {
    "io": "disable",
    "os": "disable",
    "debug": "disable",
    "package": "disable",
    "ffi": "disable",
    "jit": "disable",
    "bit": "disable",
    "bit32": "disable"
  },
  "workspace.library": [".lantern"],
  "workspace.ignoreDir": [".lantern"],
  "diagnostics.globals": ["describe", "it", "expect", "before_each", "pending"]
}
"#;

/// Taplo's settings for a mod: every data file, at any depth under `data/`, and the manifest,
/// against lantern's schemas for this game.
const TAPLO: &str = r#"# Even Better TOML (Taplo) checks this mod's files against lantern's schemas as you type;
# `lantern check` remains the final word (it knows every ID of the mod set).
[[rule]]
include = ["data/**/*.toml"]
[rule.schema]
path = "./.lantern/lantern-data.schema.json"

[[rule]]
include = ["mod.toml"]
[rule.schema]
path = "./.lantern/lantern-mod.schema.json"

[[rule]]
include = ["locale/**/*.toml"]
[rule.schema]
path = "./.lantern/lantern-locale.schema.json"
"#;
