//! `lantern.expose` and `lantern.call`: a mod lends functions to the mods that depend on it, and
//! they call them and get their results. What crosses between two mods is plain data (nil,
//! booleans, numbers, texts and tables of them), copied and charged by its size before it is
//! made, so no mod holds another's tables; the callee's code runs under its own budget and
//! memory account (`call::call_across`), and its error is the caller's failed call, named as the
//! callee's, at the caller's line.

use super::{registered_by, registered_id, while_loading, within, Api, ModCx, MOST_REGISTERED};
use crate::lua::price::charge;
use crate::lua::Registered;
use mlua::{Function, Lua, MultiValue, Value};

/// The deepest a table passed between mods nests (a table holding itself reaches it too).
const DEEPEST: usize = 32;

pub(super) fn register(api: &mut Api, cx: &ModCx) -> mlua::Result<()> {
    let c = cx.clone();
    api.function(
        "expose",
        &[("name", "string"), ("fn", "fun(...: any): any")],
        None,
        "Lends a function to the mods that depend on this one: they call it as `lantern.call(\"<mod>:<name>\", ...)` and get its results. Arguments and results are plain data (nil, booleans, numbers, texts and tables of them), copied. Only while the mod loads.",
        move |_, (name, func): (String, Function)| {
            while_loading(&c, "lantern.expose")?;
            within(&c, "lantern.expose", "actions, checks, exposed functions and on_reload handlers", MOST_REGISTERED, registered_by)?;
            let id = registered_id(&c.mod_id, &name, "function")?;
            let mut shared = c.shared.borrow_mut();
            if shared.exposed.contains_key(&id) {
                return Err(mlua::Error::runtime(format!("the function `{id}` is exposed twice")));
            }
            shared.exposed.insert(id, Registered::new(&c.mod_id, c.owner, func));
            Ok(())
        },
    )?;
    let c = cx.clone();
    api.function(
        "call",
        &[("name", "string"), ("...", "any")],
        Some("any"),
        "Calls a function another mod exposes (`lantern.call(\"weather:forecast\", 3)`) and returns its results. That mod must be in this one's `depends` or `optional`. Arguments and results are plain data, copied; the callee's work is charged to it, and its error fails this call.",
        move |lua, (name, args): (String, MultiValue)| {
            let (id, func, owner, callee) = target(&c, &name)?;
            let mut copied = MultiValue::new();
            for (i, a) in args.iter().enumerate() {
                copied.push_back(copy(lua, a, 0).map_err(|why| refused(&id, format!("argument {} {why}", i + 1)))?);
            }
            if *callee == *c.mod_id {
                return func.call::<MultiValue>(copied);
            }
            let what = format!("function `{id}`");
            let results = crate::lua::call::call_across(lua, &c.shared, &callee, owner, &what, || {
                func.call::<MultiValue>(copied)
            })?;
            let mut back = MultiValue::new();
            for (i, r) in results.iter().enumerate() {
                back.push_back(copy(lua, r, 0).map_err(|why| refused(&id, format!("result {} {why}", i + 1)))?);
            }
            Ok(back)
        },
    )
}

fn refused(id: &str, why: String) -> mlua::Error {
    mlua::Error::runtime(format!("lantern.call(\"{id}\"): {why}"))
}

/// The function `name` names, with its ID, its mod's account and its mod; or why this mod may
/// not call it.
fn target(
    c: &ModCx,
    name: &str,
) -> mlua::Result<(String, Function, crate::lua::memory::Owner, String)> {
    let shown = crate::diag::shown(name);
    let (callee, fname) = name.split_once(':').unwrap_or((&c.mod_id, name));
    let id = format!("{callee}:{fname}");
    let shared = c.shared.borrow();
    let named = (shared.deps.get(&*c.mod_id)).is_some_and(|d| d.iter().any(|d| d == callee));
    if callee != &*c.mod_id && !named {
        let own = &c.mod_id;
        return Err(mlua::Error::runtime(format!(
            "lantern.call(\"{shown}\"): `{own}` calls a function of `{}` but does not depend on it; add `{}` to `depends` (or `optional`) in its mod.toml",
            crate::diag::shown(callee),
            crate::diag::shown(callee)
        )));
    }
    let Some(r) = shared
        .exposed
        .iter()
        .find(|(k, _)| k.as_str() == id)
        .map(|(_, r)| r)
    else {
        let names = shared.exposed.keys().map(|k| k.as_str());
        let help = crate::diag::did_you_mean_suffix(&id, names);
        let whose = if shared.exposed.keys().any(|k| k.namespace() == callee) {
            String::new()
        } else {
            format!(" (`{}` exposes none)", crate::diag::shown(callee))
        };
        return Err(mlua::Error::runtime(format!(
            "lantern.call(\"{shown}\"): no mod exposes `{}`{whose}{help}",
            crate::diag::shown(&id)
        )));
    };
    Ok((id, r.func.clone(), r.owner, r.mod_id.clone()))
}

/// Why a value cannot pass between mods: what it is (`a function`), where in it (`f.g`, empty for
/// the value itself), and why not.
struct NotPlain {
    at: Vec<String>,
    what: String,
}

impl NotPlain {
    fn new(what: impl Into<String>) -> NotPlain {
        NotPlain {
            at: Vec::new(),
            what: what.into(),
        }
    }

    /// `is a function: ...` or `holds a function at `f.g`: ...`.
    fn said(self) -> String {
        if self.at.is_empty() {
            return self.what;
        }
        let mut at = self.at;
        at.reverse();
        let what = self.what.strip_prefix("is ").unwrap_or(&self.what);
        let (thing, why) = what.split_once(": ").unwrap_or((what, ONLY_PLAIN));
        format!("holds {thing} at `{}`: {why}", at.join("."))
    }
}

/// `v` as the other mod gets it: plain data, tables copied (each value charged before it is
/// made); what is not plain data (a function, a table with a metatable, userdata) is said.
fn copy(lua: &Lua, v: &Value, depth: usize) -> Result<Value, String> {
    copy_at(lua, v, depth).map_err(NotPlain::said)
}

const ONLY_PLAIN: &str =
    "only plain data (nil, booleans, numbers, texts and tables of them) passes between mods";

fn copy_at(lua: &Lua, v: &Value, depth: usize) -> Result<Value, NotPlain> {
    let failed = |e: mlua::Error| NotPlain::new(crate::lua::describe(&e).0);
    match v {
        Value::Nil | Value::Boolean(_) | Value::Integer(_) | Value::Number(_) => Ok(v.clone()),
        // Texts cannot change: the other mod shares it.
        Value::String(_) => Ok(v.clone()),
        Value::Table(t) => {
            if depth >= DEEPEST {
                return Err(NotPlain::new(format!(
                    "nests tables more than {DEEPEST} deep (or holds itself): {ONLY_PLAIN}"
                )));
            }
            if t.metatable().is_some() {
                return Err(NotPlain::new(format!(
                    "is a table with a metatable: {ONLY_PLAIN}"
                )));
            }
            charge(lua, 1).map_err(failed)?;
            let out = lua.create_table().map_err(failed)?;
            for pair in t.pairs::<Value, Value>() {
                let (k, item) = pair.map_err(failed)?;
                charge(lua, 1).map_err(failed)?;
                let key = match &k {
                    Value::String(s) => s.to_string_lossy(),
                    Value::Integer(n) => n.to_string(),
                    Value::Number(x) => x.to_string(),
                    Value::Boolean(b) => b.to_string(),
                    other => {
                        return Err(NotPlain::new(format!(
                            "has a {} as a key: {ONLY_PLAIN}",
                            other.type_name()
                        )))
                    }
                };
                let item = copy_at(lua, &item, depth + 1).map_err(|mut e| {
                    e.at.push(crate::diag::shown(&key).into_owned());
                    e
                })?;
                out.raw_set(k, item).map_err(failed)?;
            }
            Ok(Value::Table(out))
        }
        other => Err(NotPlain::new(format!(
            "is a {}: {ONLY_PLAIN}",
            other.type_name()
        ))),
    }
}
