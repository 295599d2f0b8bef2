//! The sandbox: one Lua state, one environment per mod, nothing that reaches the OS or another mod.
//!
//! A mod's environment holds copies of the safe standard libraries (so changing `string` or `math`
//! changes it for that mod only), `load` for text chunks only (its environment defaults to the mod's),
//! a `require` that finds modules inside the mod's own `scripts/` folder, `collectgarbage("count")`
//! and nothing else of it, and `print` routed to `lantern.log`. There is no `io`, `os`, `debug`,
//! `package`, `dofile`, `loadfile` or `string.dump`; the shared string metatable is locked, so
//! `getmetatable("")` cannot reach the string library another mod sees.

use mlua::{ChunkMode, Function, Lua, LuaOptions, StdLib, Table, Value};
use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;

/// Globals copied into every mod's environment as they are.
const PLAIN: &[&str] = &[
    "assert",
    "error",
    "ipairs",
    "next",
    "pairs",
    "pcall",
    "rawequal",
    "rawget",
    "rawlen",
    "rawset",
    "select",
    "setmetatable",
    "getmetatable",
    "tonumber",
    "tostring",
    "type",
    "xpcall",
    "_VERSION",
];

/// Libraries copied table by table into every mod's environment.
const LIBRARIES: &[&str] = &["string", "table", "math", "utf8", "coroutine"];

/// A new Lua state with only the safe libraries loaded and the string metatable locked.
pub fn new_state() -> mlua::Result<Lua> {
    let lua = Lua::new_with(
        StdLib::COROUTINE | StdLib::TABLE | StdLib::STRING | StdLib::UTF8 | StdLib::MATH,
        LuaOptions::default(),
    )?;
    lua.load(
        r#"
        local mt = getmetatable("")
        local lib = string
        mt.__index = setmetatable({}, { __index = lib, __newindex = function() error("the string library is read-only", 2) end, __metatable = false })
        mt.__metatable = false
        "#,
    )
    .set_name("=lantern")
    .exec()?;
    Ok(lua)
}

/// Files a mod's `require` read, for the source map (so errors in them render with carets).
pub type ReadFiles = Rc<RefCell<Vec<(String, String)>>>;

/// Builds a mod's environment. `lantern` is the mod's API table; `print` goes to `log`.
pub fn environment(
    lua: &Lua,
    mod_id: &str,
    scripts_dir: PathBuf,
    lantern: Table,
    log: Function,
    read: ReadFiles,
) -> mlua::Result<Table> {
    let globals = lua.globals();
    let env = lua.create_table()?;
    for name in PLAIN {
        env.raw_set(*name, globals.raw_get::<Value>(*name)?)?;
    }
    for lib in LIBRARIES {
        let original: Table = globals.raw_get(*lib)?;
        let copy = lua.create_table()?;
        for pair in original.pairs::<Value, Value>() {
            let (k, v) = pair?;
            copy.raw_set(k, v)?;
        }
        env.raw_set(*lib, copy)?;
    }
    let string: Table = env.raw_get("string")?;
    string.raw_set("dump", Value::Nil)?;
    let math: Table = env.raw_get("math")?;
    math.raw_set(
        "randomseed",
        lua.create_function(|_, ()| -> mlua::Result<()> {
            Err(mlua::Error::runtime(
                "math.randomseed is not available: math.random draws from the run's seeded stream",
            ))
        })?,
    )?;

    env.raw_set(
        "collectgarbage",
        lua.create_function(|lua, opt: Option<String>| match opt.as_deref() {
            None | Some("count") => Ok(lua.used_memory() as f64 / 1024.0),
            Some(other) => Err(mlua::Error::runtime(format!(
                "collectgarbage(\"{other}\") is not available to mods; only \"count\" is"
            ))),
        })?,
    )?;
    env.raw_set("print", log)?;
    env.raw_set("lantern", lantern)?;
    env.raw_set("_G", env.clone())?;

    let load_env = env.clone();
    env.raw_set(
        "load",
        lua.create_function(
            move |lua,
                  (chunk, name, mode, chunk_env): (
                Value,
                Option<String>,
                Option<String>,
                Option<Table>,
            )| {
                if mode.as_deref().is_some_and(|m| m.contains('b')) {
                    return Ok((
                        Value::Nil,
                        Value::String(lua.create_string("binary chunks are not allowed")?),
                    ));
                }
                let Value::String(text) = chunk else {
                    return Ok((
                        Value::Nil,
                        Value::String(lua.create_string("load takes the chunk as a string")?),
                    ));
                };
                let bytes = text.as_bytes().to_vec();
                if bytes.first() == Some(&0x1b) {
                    return Ok((
                        Value::Nil,
                        Value::String(lua.create_string("binary chunks are not allowed")?),
                    ));
                }
                let result = lua
                    .load(bytes)
                    .set_mode(ChunkMode::Text)
                    .set_name(name.unwrap_or_else(|| "=(load)".into()))
                    .set_environment(chunk_env.unwrap_or_else(|| load_env.clone()))
                    .into_function();
                match result {
                    Ok(f) => Ok((Value::Function(f), Value::Nil)),
                    Err(e) => Ok((Value::Nil, Value::String(lua.create_string(e.to_string())?))),
                }
            },
        )?,
    )?;

    let loaded = lua.create_table()?;
    let require_env = env.clone();
    let prefix = mod_id.to_string();
    env.raw_set(
        "require",
        lua.create_function(move |lua, name: String| {
            if let Some(v) = loaded.raw_get::<Option<Value>>(name.as_str())? {
                return Ok(v);
            }
            if name.is_empty()
                || !name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
            {
                return Err(mlua::Error::runtime(format!(
                    "require(\"{name}\"): module names use letters, digits, `_` and `.` only"
                )));
            }
            let rel = format!("{}.lua", name.replace('.', "/"));
            let path = scripts_dir.join(&rel);
            let text = std::fs::read_to_string(&path).map_err(|_| {
                let modules = modules_in(&scripts_dir);
                let hint =
                    crate::diag::did_you_mean_suffix(&name, modules.iter().map(String::as_str));
                mlua::Error::runtime(format!(
                    "require(\"{name}\"): no file scripts/{rel} in mod `{prefix}`{hint}"
                ))
            })?;
            let display = format!("{prefix}/scripts/{rel}");
            read.borrow_mut().push((display.clone(), text.clone()));
            let value: Value = lua
                .load(text)
                .set_mode(ChunkMode::Text)
                .set_name(format!("@{display}"))
                .set_environment(require_env.clone())
                .call(name.as_str())?;
            let value = if value.is_nil() {
                Value::Boolean(true)
            } else {
                value
            };
            loaded.raw_set(name.as_str(), value.clone())?;
            Ok(value)
        })?,
    )?;
    Ok(env)
}

/// The module names `require` can find under a mod's `scripts/` (`util`, `lib.cards`), for "did you mean".
fn modules_in(scripts: &std::path::Path) -> Vec<String> {
    fn walk(dir: &std::path::Path, prefix: &str, out: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
                continue;
            };
            if path.is_dir() {
                walk(&path, &format!("{prefix}{name}."), out);
            } else if let Some(stem) = name.strip_suffix(".lua") {
                if stem != "main" || !prefix.is_empty() {
                    out.push(format!("{prefix}{stem}"));
                }
            }
        }
    }
    let mut out = Vec::new();
    walk(scripts, "", &mut out);
    out.sort();
    out
}
