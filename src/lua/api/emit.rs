//! `lantern.emit_event`: an mlua function that does the whole job, and a C fast path in front of
//! it for the common call, a name and a payload of plain values while the game runs (see
//! [`capi`](crate::lua::capi)). Both check the payload against the declaration the same way and
//! queue the same event; every error, and any call with `opts`, is the mlua function's.

use super::{Api, ModCx};
use crate::game::CreatureRef;
use crate::lua::bridge::{from_lua, lent_game_mut, with_game_mut, Creature};
use crate::lua::capi;
use mlua::{ffi, AnyUserData, Table, Value as LuaValue};
use std::ffi::c_int;
use std::sync::Arc;

pub(super) fn register(api: &mut Api, cx: &ModCx) -> mlua::Result<()> {
    let c = cx.clone();
    // What the event log and the loop report name as the cause of events this mod emits.
    let cause: std::sync::Arc<str> = format!("lua:{}", cx.mod_id).into();
    api.function(
        "emit_event",
        &[("event", "string"), ("payload", "table?"), ("opts", "{source: lantern.Creature?, target: lantern.Creature?}?")],
        None,
        "Queues an event on the same first-in-first-out queue as engine events (it counts against the same cap of events per turn, 100 unless the game sets another). The payload is checked against the event's `[[event_types]]` declaration. The source is the player unless `opts.source` says otherwise.",
        move |lua, (event, payload, opts): (mlua::String, Option<Table>, Option<Table>)| {
            // Names are read in place from the Lua strings, not copied.
            let event = event.to_str()?;
            let event: &str = &event;
            let (kind, values) = {
                let shared = c.shared.borrow();
                let content = shared.content.as_ref().ok_or_else(|| mlua::Error::runtime("lantern.emit_event works only while the game runs"))?;
                let Some(kind) = content.events.lookup_for(c.mod_id.as_bytes(), event.as_bytes()) else {
                    crate::lua::price::charge_suggestions(lua, content.events.len())?;
                    let help = crate::diag::did_you_mean(event, content.events.names()).unwrap_or_else(|| "declare it with [[event_types]]".into());
                    return Err(mlua::Error::runtime(format!("lantern.emit_event: unknown event `{}`; {help}", crate::diag::shown(event))));
                };
                let def = content.events.get(kind);
                let mut values = Vec::new();
                if let Some(payload) = payload {
                    // `for_each` walks the table with the key left on the stack; `pairs` made a
                    // reference to each key as well, a fifth of the call.
                    payload.for_each(|key: mlua::String, value: LuaValue| {
                        // Compared as bytes: checking the key is UTF-8 first cost more than the
                        // comparison; a key that matches no field is named in the error.
                        let key = key.as_bytes();
                        let key_text = || crate::diag::shown_bytes(&key);
                        let (index, ty) = def.field_bytes(&key).ok_or_else(|| {
                            let names: Vec<&str> = def.payload.iter().map(|(n, _)| n.as_str()).collect();
                            let help = crate::diag::did_you_mean_suffix(&key_text(), names.iter().copied());
                            let help = if help.is_empty() { format!(" (it has: {})", names.join(", ")) } else { help };
                            mlua::Error::runtime(format!("lantern.emit_event: event `{}` has no payload field `{}`{help}", def.name, key_text()))
                        })?;
                        let v = from_lua(lua, &value)
                            .map_err(|e| mlua::Error::runtime(format!("lantern.emit_event: `{}` of `{}`: {}", key_text(), def.name, crate::lua::describe(&e).0)))?
                            .filter(|v| v.fits(ty))
                            .ok_or_else(|| {
                                let not = match &value {
                                    LuaValue::String(s) if s.to_str().is_err() => "text that is not UTF-8".to_string(),
                                    other => format!("`{}`", other.type_name()),
                                };
                                mlua::Error::runtime(format!("lantern.emit_event: `{}` of `{}` must be of type `{}`, not {not}", key_text(), def.name, ty.name()))
                            })?;
                        values.push((index, v));
                        Ok(())
                    })?;
                }
                (kind, values)
            };
            let handle = |name: &str| -> mlua::Result<Option<crate::game::CreatureRef>> {
                match opts.as_ref().map(|o| o.raw_get::<LuaValue>(name)).transpose()? {
                    Some(LuaValue::UserData(ud)) => Ok(Some(handle_of(&ud)?)),
                    None | Some(LuaValue::Nil) => Ok(None),
                    Some(_) => Err(mlua::Error::runtime(format!("opts.{name} must be a creature handle such as ev.source"))),
                }
            };
            let source = handle("source")?.unwrap_or(crate::game::CreatureRef::Player);
            let target = handle("target")?;
            with_game_mut(|g| {
                if g.queue_full() {
                    return Err(mlua::Error::runtime(format!(
                        "lantern.emit_event: {} events are queued already, a whole turn's cap, so `{event}` would never be handled (does a handler emit in a loop?)",
                        g.event_cap()
                    )));
                }
                g.emit(kind, source, target, &values, Some(cause.clone())).map_err(mlua::Error::runtime)
            })?
        },
    )?;
    // The fast path finds the mod's id and cause in its upvalues 2 and 3.
    let mod_id = cx.mod_id.clone();
    api.speed_up("emit_event", emit_event, move |lua| {
        Ok((
            lua.create_string(mod_id.as_bytes())?,
            lua.create_string(format!("lua:{mod_id}"))?,
        ))
    })?;
    Ok(())
}

fn handle_of(ud: &AnyUserData) -> mlua::Result<crate::game::CreatureRef> {
    ud.borrow::<Creature>()
        .map(|h| h.0)
        .map_err(|_| mlua::Error::runtime("expected a creature handle"))
}

/// What the fast path charges a call: what it takes, about 25 instructions' worth of time.
const FAST: usize = 25;

/// The longest text the fast path copies into a payload within [`FAST`].
const FAST_TEXT: usize = 64;

/// The fast path of `lantern.emit_event`: queues the event when the call is the common one and
/// everything checks; otherwise hands the call to the mlua function, which reports what is wrong.
unsafe extern "C-unwind" fn emit_event(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: `state` is the running Lua thread, in a C closure made by `Api::speed_up`; this
    // frame owns nothing yet. The fast path costs what it takes (under 100 ns: 25 units); the
    // slow path is charged as any of lantern's functions.
    unsafe { capi::charge(state, FAST) };
    // SAFETY: as this function's safety section says.
    let top = unsafe { ffi::lua_gettop(state) };
    // SAFETY: as this function's safety section says.
    let emitted = capi::guarded(|| unsafe { emit_from_stack(state, top) });
    // Pops what walking the payload left, even after a panic, so the slow path gets the call's
    // own arguments. (Shrinking the stack cannot raise: there are no to-be-closed variables.)
    // SAFETY: as this function's safety section says.
    unsafe { ffi::lua_settop(state, top) };
    if emitted == Some(true) {
        return 0;
    }
    // SAFETY: this frame owns nothing; the slow path reports every error.
    unsafe { capi::call_slow(state) }
}

/// Reads `emit_event(name, payload)` from the stack and queues it; `false` for anything the fast
/// path leaves to the mlua function. Calls only API functions that cannot raise.
///
/// # Safety
/// `state` is the running thread of a call to the closure `emit_event`, with `top` arguments.
unsafe fn emit_from_stack(state: *mut ffi::lua_State, top: c_int) -> bool {
    // SAFETY (every block): as the caller promises; the strings read stay on the stack or in
    // upvalues for the whole call.
    let payload = match top {
        1 => false,
        // SAFETY: as this function's safety section says.
        2 => match unsafe { ffi::lua_type(state, 2) } {
            ffi::LUA_TNIL => false,
            ffi::LUA_TTABLE => true,
            _ => return false,
        },
        _ => return false,
    };
    let (Some(name), Some(mod_id), Some(cause)) = (
        // SAFETY: as this function's safety section says.
        unsafe { capi::bytes_at(state, 1) },
        // SAFETY: as this function's safety section says.
        unsafe { capi::bytes_at(state, ffi::lua_upvalueindex(2)) },
        // SAFETY: as this function's safety section says.
        unsafe { capi::bytes_at(state, ffi::lua_upvalueindex(3)) },
    ) else {
        return false;
    };
    let mut values = SCRATCH.with(|s| s.take());
    values.clear();
    let emitted = lent_game_mut(|g| {
        let kind = {
            let events = &g.content().events;
            let kind = events.lookup_for(mod_id, name)?;
            let def = events.get(kind);
            if payload {
                // SAFETY: as this function's safety section says.
                unsafe { ffi::lua_pushnil(state) };
                // SAFETY: as this function's safety section says.
                while unsafe { ffi::lua_next(state, 2) } != 0 {
                    // SAFETY: as this function's safety section says.
                    let key = unsafe { capi::bytes_at(state, -2) }?;
                    let (index, ty) = def.field_bytes(key)?;
                    // SAFETY: as this function's safety section says.
                    let value = unsafe { value_at(state, -1) }?;
                    if !value.fits(ty) {
                        return None;
                    }
                    values.push((index, value));
                    // SAFETY: as this function's safety section says.
                    unsafe { ffi::lua_settop(state, -2) };
                }
            }
            kind
        };
        let cause = cause_of(cause)?;
        if g.queue_full() {
            return None;
        }
        g.emit(kind, CreatureRef::Player, None, &values, Some(cause))
            .ok()
    })
    .flatten()
    .is_some();
    values.clear();
    SCRATCH.with(|s| s.set(values));
    emitted
}

thread_local! {
    /// The payload being read, kept between calls so reading one allocates nothing.
    static SCRATCH: std::cell::Cell<Vec<(usize, crate::content::Value)>> = const { std::cell::Cell::new(Vec::new()) };
    /// The cause last named (`lua:<mod>`), so a mod that emits again shares it.
    static CAUSE: std::cell::RefCell<Option<Arc<str>>> = const { std::cell::RefCell::new(None) };
}

/// The event log's cause for events a mod emits, from its text.
fn cause_of(text: &[u8]) -> Option<Arc<str>> {
    CAUSE.with(|c| {
        let mut c = c.try_borrow_mut().ok()?;
        match c.as_ref() {
            Some(cause) if cause.as_bytes() == text => Some(cause.clone()),
            _ => {
                let cause: Arc<str> = std::str::from_utf8(text).ok()?.into();
                *c = Some(cause.clone());
                Some(cause)
            }
        }
    })
}

/// The payload value at `idx`, as [`from_lua`] reads it; `None` for a type no payload holds.
///
/// # Safety
/// As [`capi::bytes_at`].
unsafe fn value_at(state: *mut ffi::lua_State, idx: c_int) -> Option<crate::content::Value> {
    use crate::content::Value;
    // SAFETY: as the caller promises; none of these converts or allocates.
    unsafe {
        Some(match ffi::lua_type(state, idx) {
            ffi::LUA_TBOOLEAN => Value::Bool(ffi::lua_toboolean(state, idx) != 0),
            ffi::LUA_TNUMBER if ffi::lua_isinteger(state, idx) != 0 => {
                Value::Int(ffi::lua_tointegerx(state, idx, std::ptr::null_mut()))
            }
            ffi::LUA_TNUMBER => Value::Float(ffi::lua_tonumberx(state, idx, std::ptr::null_mut())),
            // Longer text is the slow path's, which charges its copy by its length.
            ffi::LUA_TSTRING => {
                let bytes = capi::bytes_at(state, idx)?;
                if bytes.len() > FAST_TEXT {
                    return None;
                }
                Value::str(std::str::from_utf8(bytes).ok()?)
            }
            _ => return None,
        })
    }
}
