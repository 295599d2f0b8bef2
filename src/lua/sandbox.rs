//! The sandbox: one Lua state, one environment per mod, nothing that reaches the OS or another mod.
//!
//! A mod's environment holds copies of the safe standard libraries (so changing `string` or `math`
//! changes it for that mod only), `load` for text chunks only (its environment defaults to the mod's,
//! its chunk names cannot pass for a mod's file), a `require` that finds modules inside the mod's
//! own `scripts/` folder and reads nothing outside the mod ([`crate::mods::read_mod_file`]),
//! `collectgarbage("count")` (the mod's own memory) and nothing else of it, a `setmetatable` that
//! refuses `__gc` finalizers, and `print` routed to `lantern.log`. There is no `io`, `os`,
//! `debug`, `package`, `dofile`, `loadfile` or `string.dump`; the shared string metatable is
//! locked, so `getmetatable("")` cannot reach the string library another mod sees.
//!
//! Finalizers are refused because they would run whenever the collector decides: inside whichever
//! call happens to allocate (another mod's, with the game lent to it), outside any budget that
//! could be theirs.

use super::memory::{Accounts, Owner};
use atomic_refcell::AtomicRefCell;
use mlua::{ChunkMode, Function, Lua, LuaOptions, StdLib, Table, Value};
use std::path::PathBuf;
use std::sync::Arc;

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
pub(crate) fn new_state() -> mlua::Result<Lua> {
    let lua = Lua::new_with(
        StdLib::COROUTINE | StdLib::TABLE | StdLib::STRING | StdLib::UTF8 | StdLib::MATH,
        LuaOptions::default(),
    )?;
    super::memory::host_references(&lua)?;
    let setmetatable: Function = super::compiled::own_chunk(
        &lua,
        r#"
        local mt = getmetatable("")
        local lib = string
        mt.__index = setmetatable({}, { __index = lib, __newindex = function() error("the string library is read-only", 2) end, __metatable = false })
        mt.__metatable = false
        local raw_setmetatable, getmetatable, rawget, type, error = setmetatable, getmetatable, rawget, type, error
        return function(t, mt)
          if type(mt) == "table" and rawget(mt, "__gc") ~= nil then
            error("setmetatable: `__gc` finalizers are not available to mods (they would run whenever the collector decides, inside another mod's call)", 2)
          end
          if type(t) == "table" then
            local protected = getmetatable(t)
            if protected ~= nil and type(protected) ~= "table" then
              error("setmetatable: the metatable of this table is protected" .. (type(protected) == "string" and " (it is " .. protected .. "'s)" or "") .. "; keep your own values in a table of your own", 2)
            end
          end
          return raw_setmetatable(t, mt)
        end
        "#,
        "=lantern",
    )?
    .call(())?;
    let refuse_seed = super::price::function(&lua, |_, ()| -> mlua::Result<()> {
        Err(mlua::Error::runtime(
            "math.randomseed is not available: math.random draws from the run's seeded stream",
        ))
    })?;
    let maker = environment_maker(&lua, setmetatable, refuse_seed)?;
    lua.set_named_registry_value(MAKE_ENVIRONMENT, maker)?;
    Ok(lua)
}

/// The registry key of the function that fills a new environment.
const MAKE_ENVIRONMENT: &str = "lantern.make_environment";

/// A Lua function that fills a new environment: the plain functions ([`PLAIN`]), a copy of each
/// library ([`LIBRARIES`], without `string.dump`, with lantern's `math.randomseed` and the mod's
/// `math.random`), and the functions made for the mod. Made once per state, in Lua; each library
/// is copied whole by lantern's Lua (`lua_clonetable`): copied key by key, with each field set
/// through the Rust API, the environments were a fifth of a test game over 200 mods.
fn environment_maker(
    lua: &Lua,
    setmetatable: Function,
    refuse_seed: Function,
) -> mlua::Result<Function> {
    // SAFETY: `capi::copy_table` follows the rules of a C function called by Lua.
    let clone = unsafe { lua.create_c_function(super::capi::copy_table)? };
    // The plain functions and the libraries are read from the globals once, into locals the
    // function keeps (the state's globals are lantern's: no script reaches them).
    let locals: Vec<String> = PLAIN
        .iter()
        .chain(LIBRARIES)
        .map(|n| format!("local global_{n} = rawget(_G, {n:?})"))
        .collect();
    let plain: Vec<String> = PLAIN
        .iter()
        .map(|n| format!("env.{n} = global_{n}"))
        .collect();
    let libraries: Vec<String> = LIBRARIES
        .iter()
        .map(|n| format!("env.{n} = clone(global_{n})"))
        .collect();
    // SAFETY: `capi::bind` follows the rules of a C function called by Lua.
    let bind = unsafe { lua.create_c_function(super::capi::bind)? };
    let source = format!(
        "local rawget, clone, setmetatable, randomseed, bind, collect, load_in, random_in = rawget, ...\n\
         {locals}\n\
         return function(env, lantern, print, owner, require, stream)\n\
         {plain}\n{libraries}\n\
         env.string.dump = nil\n\
         env.math.randomseed = randomseed\n\
         if stream then env.math.random = bind(random_in, stream) end\n\
         env.setmetatable, env.collectgarbage, env.print = setmetatable, bind(collect, owner), print\n\
         env.lantern, env._G, env.load, env.require = lantern, env, bind(load_in, env), require\n\
         end",
        locals = locals.join("\n"),
        plain = plain.join("\n"),
        libraries = libraries.join("\n"),
    );
    super::compiled::own_chunk(lua, &source, "=lantern")?.call((
        clone,
        setmetatable,
        refuse_seed,
        bind,
        collect_function(lua)?,
        load_function(lua)?,
        super::price::bound_function(
            lua,
            |_, stream: mlua::String, (a, b): (Option<i64>, Option<i64>)| {
                super::api::random(&stream.to_str()?, a, b)
            },
        )?,
    ))
}

/// `collectgarbage(owner, opt)`, bound to each environment's account: the mod's memory (its
/// owner's number), or the whole state's (`nil`: the harness's and the simulator's).
fn collect_function(lua: &Lua) -> mlua::Result<Function> {
    super::price::bound_function(
        lua,
        |lua, owner: Option<std::ffi::c_int>, opt: Option<String>| match opt.as_deref() {
            None | Some("count") => {
                let used = match owner.zip(lua.app_data_ref::<Accounts>()) {
                    Some((owner, accounts)) => accounts.used(Owner::numbered(owner)),
                    None => lua.used_memory(),
                };
                Ok(used as f64 / 1024.0)
            }
            Some(other) => Err(mlua::Error::runtime(format!(
                "collectgarbage(\"{other}\") is not available to mods; only \"count\" is"
            ))),
        },
    )
}

/// How many fields an environment gets: the plain functions, the libraries, and the rest.
const ENVIRONMENT_FIELDS: usize = PLAIN.len() + LIBRARIES.len() + 7;

/// The longest module name `require` takes, in bytes.
const LONGEST_MODULE: usize = 255;

/// Files a mod's `require` read, for the source map (so errors in them render with carets too).
pub(crate) type ReadFiles = Arc<AtomicRefCell<Vec<(String, String)>>>;

/// Where a mod's `require` looks: a folder of the mod, and the mod it belongs to.
pub(crate) struct ModFiles {
    /// The mod id, or `test` and `policy` for the harness's and the simulator's scripts.
    id: String,
    /// The mod folder: nothing outside it is read. `None` where there is none: `require` fails.
    root: Option<PathBuf>,
    /// The folder of `root` modules are found in (`scripts`), or empty for `root` itself.
    modules: &'static str,
    /// How paths are shown: `rats/scripts`.
    shown: String,
}

impl ModFiles {
    /// A mod's scripts: modules in `<root>/scripts`.
    pub(crate) fn new(id: &str, root: &std::path::Path) -> ModFiles {
        ModFiles {
            id: id.to_string(),
            root: Some(root.to_path_buf()),
            modules: "scripts",
            shown: format!("{id}/scripts"),
        }
    }

    /// Scripts that find modules beside them in `folder`, which they may not leave (a test file's
    /// folder); `shown` is how that folder is named in messages.
    pub(crate) fn beside(id: &str, folder: &std::path::Path, shown: &str) -> ModFiles {
        ModFiles {
            id: id.to_string(),
            root: Some(folder.to_path_buf()),
            modules: "",
            shown: shown.to_string(),
        }
    }

    /// Scripts with no folder (a simulator policy): `require` finds nothing.
    #[cfg(feature = "cli")]
    pub(crate) fn nowhere(id: &str) -> ModFiles {
        ModFiles {
            id: id.to_string(),
            root: None,
            modules: "",
            shown: id.to_string(),
        }
    }
}

/// Whose memory `collectgarbage("count")` reports: a mod's account, or the whole state.
#[derive(Clone, Copy)]
pub(crate) struct Account(Option<Owner>);

impl Account {
    /// A mod's own account in a shared state (whose accounts are the state's app data).
    pub(crate) fn new(owner: Owner) -> Account {
        Account(Some(owner))
    }

    /// The whole state (the harness's and the simulator's, which hold no mods).
    pub(crate) fn whole() -> Account {
        Account(None)
    }
}

/// Builds a mod's environment. `lantern` is the mod's API table; `print` goes to `log`;
/// `math.random` draws from `stream` when given (a mod's seeded stream), else is Lua's own (a test
/// file's). Its `load`, `collectgarbage` and `math.random` are functions of the state bound to it
/// (`capi::bind`); `require` is its own, as it keeps what it loaded.
pub(crate) fn environment(
    lua: &Lua,
    files: &ModFiles,
    lantern: Table,
    log: Function,
    read: ReadFiles,
    account: Account,
    stream: Option<&str>,
) -> mlua::Result<Table> {
    let env = lua.create_table_with_capacity(0, ENVIRONMENT_FIELDS)?;
    lua.named_registry_value::<Function>(MAKE_ENVIRONMENT)?
        .call::<()>((
            &env,
            lantern,
            log,
            account.0.map(Owner::number),
            require_function(lua, files, env.clone(), read)?,
            stream,
        ))?;
    Ok(env)
}

/// What `load` answers a binary chunk.
const BINARY: &str = "load: binary chunks are not available to mods (a crafted one can break the \
                      interpreter); load takes Lua source text";

/// `load(env, chunk, name, mode, chunk_env)` for text chunks, bound to each environment. A
/// chunk's name is always shown as `[load] <name>`, so that nothing it raises can pass for a line
/// of a mod's file; its parse is charged to the budget by its length.
fn load_function(lua: &Lua) -> mlua::Result<Function> {
    super::price::bound_function(
        lua,
        move |lua,
              load_env: Table,
              (chunk, name, mode, chunk_env): (
            Value,
            Option<String>,
            Option<String>,
            Option<Table>,
        )| {
            if mode.as_deref().is_some_and(|m| m.contains('b')) {
                return Ok((Value::Nil, Value::String(lua.create_string(BINARY)?)));
            }
            let Value::String(text) = chunk else {
                return Ok((
                    Value::Nil,
                    Value::String(lua.create_string(
                        "load takes the chunk as text: a reader function is not available to \
                         mods; pass the whole text",
                    )?),
                ));
            };
            let bytes = text.as_bytes().to_vec();
            if bytes.first() == Some(&0x1b) {
                return Ok((Value::Nil, Value::String(lua.create_string(BINARY)?)));
            }
            super::price::charge_bytes(lua, bytes.len())?;
            let shown = name
                .map(|n| n.trim_start_matches(['=', '@']).to_string())
                .unwrap_or_else(|| "chunk".into());
            let result = lua
                .load(bytes)
                .set_mode(ChunkMode::Text)
                .set_name(format!("=[load] {shown}"))
                .set_environment(chunk_env.unwrap_or(load_env))
                .into_function();
            match result {
                Ok(f) => Ok((Value::Function(f), Value::Nil)),
                Err(e) => Ok((Value::Nil, Value::String(lua.create_string(e.to_string())?))),
            }
        },
    )
}

/// `require(name)`: `a.b` is `<modules>/a/b.lua` of the mod, read through
/// [`crate::mods::read_mod_file`], run once with the mod's environment, its value kept.
fn require_function(
    lua: &Lua,
    files: &ModFiles,
    require_env: Table,
    read: ReadFiles,
) -> mlua::Result<Function> {
    let loaded = lua.create_table()?;
    // The modules a failing `require` suggests from, walked once: a `pcall(require, ...)` loop
    // walked the folder again on each call.
    let known: std::cell::OnceCell<Vec<String>> = std::cell::OnceCell::new();
    let (id, root, shown) = (files.id.clone(), files.root.clone(), files.shown.clone());
    let modules = files.modules;
    let rel_of = move |file: &str| {
        if modules.is_empty() {
            file.to_string()
        } else {
            format!("{modules}/{file}")
        }
    };
    super::price::function(lua, move |lua, name: mlua::String| {
        if let Some(v) = loaded.raw_get::<Option<Value>>(&name)? {
            return Ok(v);
        }
        let (name, said) = module_name(&name)?;
        let file = format!("{}.lua", name.replace('.', "/"));
        let display = format!("{shown}/{file}");
        let Some(root) = root.as_deref() else {
            return Err(mlua::Error::runtime(format!(
                "require(\"{said}\"): `{id}` has no folder to find modules in"
            )));
        };
        // Reading a file costs its system calls (resolving the path through every folder, opening,
        // reading: tens of microseconds), and its bytes.
        super::price::charge(lua, super::price::FILE)?;
        let bytes =
            match crate::mods::read_mod_file(&crate::mods::ModRoot::of(root), &rel_of(&file)) {
                Ok(Some(bytes)) => bytes,
                Ok(None) => {
                    let modules = known.get_or_init(|| modules_in(root, &rel_of("")));
                    super::price::charge_suggestions(lua, modules.len())?;
                    let hint =
                        crate::diag::did_you_mean_suffix(&name, modules.iter().map(String::as_str));
                    let missing = if rel_of("").is_empty() {
                        display.clone()
                    } else {
                        rel_of(&file)
                    };
                    return Err(mlua::Error::runtime(format!(
                        "require(\"{said}\"): no file {} in mod `{id}`{hint}",
                        crate::diag::shown(&missing)
                    )));
                }
                Err(refused) => {
                    return Err(mlua::Error::runtime(format!(
                        "require(\"{said}\"): {}",
                        refused.diagnostic(&crate::diag::shown(&display)).message
                    )))
                }
            };
        let (text, bad) = crate::mods::decode_utf8(bytes);
        if let Some((offset, _)) = bad {
            return Err(mlua::Error::runtime(format!(
                "require(\"{said}\"): {} is not valid UTF-8 (the first invalid byte is at offset {offset})", crate::diag::shown(&display)
            )));
        }
        super::price::charge_bytes(lua, text.len())?;
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
    })
}

/// A module name `require` was given, and the line of it messages show; or why it is none. Every
/// part of the name is a plain name: `.tmp.x` or `a..b` would make a path that starts at the
/// root of the disk, or climbs out.
fn module_name(name: &mlua::String) -> mlua::Result<(String, String)> {
    if name.as_bytes().len() > LONGEST_MODULE {
        return Err(mlua::Error::runtime(format!(
            "require: a module name is at most {LONGEST_MODULE} bytes, and this one has {}",
            name.as_bytes().len()
        )));
    }
    let name = name.to_str()?.to_string();
    // A name given by a script may be a megabyte long: messages show a line of it.
    let said = crate::diag::shown(&name).into_owned();
    let plain = |part: &str| {
        !part.is_empty()
            && part
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    };
    if !name.split('.').all(plain) {
        return Err(mlua::Error::runtime(format!(
            "require(\"{said}\"): a module name is plain names joined by `.` (`util`, `lib.cards`): letters, digits, `_` and `-`"
        )));
    }
    Ok((name, said))
}

/// The module names `require` can find under a mod's module folder (`util`, `lib.cards`), for
/// "did you mean".
fn modules_in(root: &std::path::Path, modules: &str) -> Vec<String> {
    let real = crate::mods::ModRoot::of(root);
    let dir = root.join(modules.trim_end_matches('/'));
    let mut out: Vec<String> = crate::mods::walk(&real, &dir)
        .into_iter()
        .filter_map(|found| match found {
            crate::mods::Found::File(path) => {
                let rel = path.strip_prefix(&dir).ok()?;
                let rel = rel
                    .to_string_lossy()
                    .replace(std::path::MAIN_SEPARATOR, "/");
                let module = rel.strip_suffix(".lua")?.replace('/', ".");
                (module != "main").then_some(module)
            }
            _ => None,
        })
        .collect();
    out.sort();
    out
}
