//! `lantern.apply`, `lantern.register_action` and `lantern.register_check`.

use super::{registered_by, registered_id, while_loading, within, Api, ModCx, MOST_REGISTERED};
use crate::content::spanned::Spanned;
use crate::content::Action;
use crate::game::{CreatureRef, Ctx};
use crate::lua::bridge::with_game_mut;
use crate::lua::Registered;
use mlua::{Function, Table, Value as LuaValue};

pub(super) fn register(api: &mut Api, cx: &ModCx) -> mlua::Result<()> {
    let c = cx.clone();
    api.function(
        "apply",
        &[("action", "table")],
        None,
        "Applies one action through the same door and with the same vocabulary as TOML actions, validated the same way: `lantern.apply({ action = \"give_item\", item = \"gold\", count = 5, target = \"player\" })`. `self` is the player. Raises an error (with what was meant) when the action is malformed or fails.",
        move |lua, action: Table| {
            let map = to_toml_map(lua, &action)?;
            let entry = {
                let mut guard = c.shared.try_borrow_mut().map_err(|_| {
                    mlua::Error::runtime("lantern.apply cannot run here: the runtime is busy")
                })?;
                guard.make_symbols();
                let shared = &*guard;
                let (Some(symbols), Some(content)) = (shared.symbols.as_ref(), shared.content.as_ref()) else {
                    return Err(mlua::Error::runtime("lantern.apply works only while the game runs"));
                };
                match crate::content::resolve::runtime_action(symbols, &content.events, &c.mod_id, &map) {
                    Ok(entry) => entry,
                    Err(e) => {
                        // The resolver's "did you mean" compared the name with every one of its kind.
                        let names = symbols.len() + content.events.len();
                        drop(guard);
                        crate::lua::price::charge_suggestions(lua, names)?;
                        return Err(mlua::Error::runtime(format!("lantern.apply: {e}")));
                    }
                }
            };
            let script_action = match &entry.action {
                Action::Custom { id, .. } => c
                    .shared
                    .borrow()
                    .actions
                    .get(id)
                    .map(|r| (r.func.clone(), r.owner, r.mod_id.clone())),
                _ => None,
            };
            if let (Action::Custom { id, args }, Some((func, owner, by))) = (&entry.action, script_action) {
                // A script's action: call it directly, with the game still lent to this call.
                // (The game's own actions go through the door below.)
                let ctx = lua.create_table()?;
                ctx.raw_set("self", crate::lua::bridge::handle(lua, CreatureRef::Player)?)?;
                ctx.raw_set("cause", format!("lua:{}", c.mod_id))?;
                let args_table = lua.create_table()?;
                for (k, v) in args {
                    args_table.raw_set(k.as_str(), crate::lua::bridge::to_lua(lua, v)?)?;
                }
                if *by == *c.mod_id {
                    return func.call::<()>((ctx, args_table));
                }
                // Another mod's: its code runs charged to that mod, and a failure is named as its.
                return crate::lua::call::call_across(lua, &c.shared, &by, owner, &format!("action `{id}`"), || {
                    func.call::<()>((ctx, args_table))
                });
            }
            let cause = format!("lua:{}", c.mod_id);
            let stream = format!("lua:{}:apply", c.mod_id);
            let ctx = Ctx::player(&cause, &stream);
            with_game_mut(|g| g.apply(&entry, &ctx))?.map_err(|e| mlua::Error::runtime(format!("lantern.apply: {e}")))
        },
    )?;
    let c = cx.clone();
    api.function(
        "register_action",
        &[("name", "string"), ("action", "fun(ctx: lantern.Context, args: table)")],
        None,
        "Registers an action usable in TOML action lists as `<mod>:<name>`, with the entry's other keys as `args`. Raise an error to make the action fail (its list is then rolled back). Only while the mod loads.",
        move |_, (name, func): (String, Function)| {
            while_loading(&c, "lantern.register_action")?;
            within(&c, "lantern.register_action", "actions, checks and on_reload handlers", MOST_REGISTERED, registered_by)?;
            let id = registered_id(&c.mod_id, &name, "action")?;
            let mut shared = c.shared.borrow_mut();
            if shared.actions.contains_key(&id) {
                return Err(mlua::Error::runtime(format!("the action `{id}` is registered twice")));
            }
            shared.actions.insert(id, Registered::new(&c.mod_id, c.owner, func));
            Ok(())
        },
    )?;
    let c = cx.clone();
    api.function(
        "register_check",
        &[("name", "string"), ("check", "fun(ctx: lantern.Context, args: table): boolean")],
        None,
        "Registers a check usable in TOML conditions as `{ check = \"<mod>:<name>\" }`; it returns true when the condition holds. A check sees the game read-only. Only while the mod loads.",
        move |_, (name, func): (String, Function)| {
            while_loading(&c, "lantern.register_check")?;
            within(&c, "lantern.register_check", "actions, checks and on_reload handlers", MOST_REGISTERED, registered_by)?;
            let id = registered_id(&c.mod_id, &name, "check")?;
            let mut shared = c.shared.borrow_mut();
            if shared.checks.contains_key(&id) {
                return Err(mlua::Error::runtime(format!("the check `{id}` is registered twice")));
            }
            shared.checks.insert(id, Registered::new(&c.mod_id, c.owner, func));
            Ok(())
        },
    )?;
    Ok(())
}

/// A Lua action table as the generic table the TOML reader takes.
/// A Lua table as the keys of an action entry, the one conversion `lantern.apply` and the test
/// harness's `g:apply` share; `runtime_action` then validates it exactly as a TOML entry.
/// Each value converted is charged to the calling script ([`CONVERTED`] units, and its text by
/// its bytes), before it is.
pub(crate) fn to_toml_map(
    lua: &mlua::Lua,
    t: &Table,
) -> mlua::Result<crate::content::raw::EntryMap> {
    let mut pairs = Vec::new();
    for pair in t.pairs::<String, LuaValue>() {
        let (k, v) = pair?;
        crate::lua::price::charge_bytes(lua, k.len())?;
        let value = Spanned::new(0..0, to_toml(lua, &v, &k)?);
        pairs.push((k, value));
    }
    Ok(pairs.into_iter().collect())
}

/// What converting one value of an action's table costs the script (a key, its value, an entry
/// of the resolver's map): about what the interpreter does in the same time.
const CONVERTED: usize = 40;

/// How deep an action's tables may nest: an action's arguments are a table or two deep, and a
/// table that holds itself must not send the conversion round forever.
const DEEPEST: usize = 16;

/// Whether `t` is a sequence (`{ "a", "b" }`) and nothing else: its walk is charged, and stops
/// once it has seen more entries than the sequence holds.
fn is_sequence(lua: &mlua::Lua, t: &Table) -> mlua::Result<bool> {
    let len = t.raw_len();
    if len == 0 {
        return Ok(false);
    }
    let mut seen = 0usize;
    for pair in t.pairs::<LuaValue, LuaValue>() {
        pair?;
        seen += 1;
        if seen > len {
            return Ok(false);
        }
        if seen.is_multiple_of(64) {
            crate::lua::price::charge(lua, 64 * 4)?;
        }
    }
    Ok(seen == len)
}

fn to_toml(lua: &mlua::Lua, v: &LuaValue, key: &str) -> mlua::Result<toml::Value> {
    to_toml_at(lua, v, key, 0)
}

fn to_toml_at(lua: &mlua::Lua, v: &LuaValue, key: &str, depth: usize) -> mlua::Result<toml::Value> {
    crate::lua::price::charge(lua, CONVERTED)?;
    if depth > DEEPEST {
        return Err(mlua::Error::runtime(format!(
            "`{key}` nests tables more than {DEEPEST} deep (does a table hold itself?)"
        )));
    }
    Ok(match v {
        LuaValue::Boolean(b) => toml::Value::Boolean(*b),
        LuaValue::Integer(i) => toml::Value::Integer(*i),
        LuaValue::Number(n) => toml::Value::Float(*n),
        LuaValue::String(s) => {
            crate::lua::price::charge_bytes(lua, s.as_bytes().len())?;
            toml::Value::String(s.to_str()?.to_string())
        }
        // A sequence (`{ "a", "b" }`) is an array, as in TOML; anything else is a table.
        LuaValue::Table(t) if is_sequence(lua, t)? => {
            let mut array = Vec::with_capacity(t.raw_len());
            for v in t.sequence_values::<LuaValue>() {
                array.push(to_toml_at(lua, &v?, key, depth + 1)?);
            }
            toml::Value::Array(array)
        }
        LuaValue::Table(t) => {
            let mut table = toml::Table::new();
            for pair in t.pairs::<String, LuaValue>() {
                let (k, v) = pair?;
                table.insert(k.clone(), to_toml_at(lua, &v, &k, depth + 1)?);
            }
            toml::Value::Table(table)
        }
        other => {
            return Err(mlua::Error::runtime(format!(
                "`{key}` cannot be a {}",
                other.type_name()
            )))
        }
    })
}
