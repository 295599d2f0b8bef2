//! The event as Lua handlers see it: `ev.name`, `ev.source`, `ev.target` and the payload fields,
//! read-only, readable while the event's handlers run.
//!
//! A view costs no allocation: `ev` is a light userdata holding a number that names one delivery
//! of one event, and the metatable every light userdata shares reads the fields of the event
//! being delivered now. The event itself sits on the stack of [`Views::deliver`], found through a
//! thread-local pointer for as long as its handlers run; a view kept past that reads as an error
//! that says so, never as a later event's fields. Fields are read by a C function that finds the
//! key by address and pushes the value without entering mlua (a payload field read went from about
//! 1,600 instructions to about 160): payload values, the name, and creature handles made before;
//! everything else (a handle not made yet, a misspelt field, a view kept too long) goes on to a
//! plain mlua function.
//!
//! This module knows nothing of handlers, budgets or the game.

use super::bridge::{handle_key, to_lua};
use super::capi;
use crate::content::{EventTable, Value};
use crate::game::{CreatureRef, Event};
use mlua::{ffi, AnyUserData, LightUserData, Lua, Table, Value as LuaValue};
use std::cell::Cell;
use std::ffi::c_int;

/// Per event kind: its name and its payload field names, in payload order.
struct Names {
    /// The event's name, as a Lua string made once per content.
    name: mlua::String,
    /// Where its bytes are, and how many, for the fast path.
    name_bytes: (*const u8, usize),
    /// The payload field names as bytes, compared with the key a handler reads.
    fields: Box<[Box<[u8]>]>,
    /// Where the bytes of each field name's Lua string are, for the fast path: Lua keeps one copy
    /// of each short string, so a key read as `ev.power` is the very string made here, and is found
    /// by comparing addresses. (A key that is not, such as a long one, is compared by bytes on
    /// the slow path.) Null for a field the event's own `name`, `source` and `target` hide.
    interned: Box<[*const u8]>,
    /// Keeps those strings, and so their addresses.
    _strings: Vec<mlua::String>,
}

/// Makes the views of one Lua state's events.
pub(crate) struct Views {
    /// By event kind.
    names: Vec<Names>,
    /// Creature handles made so far, by [`handle_key`]: a Lua table, upvalue 2 of the fast path,
    /// which pushes a handle from it without entering mlua.
    handles: Table,
    /// The addresses of the interned strings `name`, `source` and `target`, which the fast path
    /// tells apart by address like payload fields.
    builtin: [*const u8; 3],
    /// Keeps those strings, and so their addresses.
    _builtin: [mlua::String; 3],
}

// SAFETY: the raw pointers in `Views` (and its `Names`) are addresses of the bytes of Lua strings
// that the same value keeps alive (`_builtin`, `Names`' strings), inside the Lua state that owns
// the runtime holding this. They move with that state, are compared or read only while it runs
// (on the one thread running it, inside mlua's lock), and are never written through.
unsafe impl Send for Views {}

/// The event being delivered, and which delivery it is. It lives on the stack of
/// [`Views::deliver`], which alone points `DELIVERING` at it, for exactly as long as it runs.
struct Delivery<'a> {
    /// The number the views of this delivery hold; deliveries are numbered from 1 per thread, so no
    /// two deliveries, in one Lua state or in two, share one.
    number: usize,
    views: &'a Views,
    names: &'a Names,
    payload: &'a [Option<Value>],
    source: CreatureRef,
    target: Option<CreatureRef>,
}

thread_local! {
    /// The delivery running on this thread, or null. A plain pointer, not a `RefCell<Option<_>>`:
    /// reading a thread-local that needs no destructor is one load, and a delivery is never
    /// changed while it runs, so there is nothing to borrow-check.
    static DELIVERING: Cell<*const Delivery<'static>> = const { Cell::new(std::ptr::null()) };
    static DELIVERED: Cell<usize> = const { Cell::new(0) };
}

/// Ends a delivery, even if a handler unwinds, and puts back the delivery it interrupted, if any.
struct EndDelivery(*const Delivery<'static>);

impl Drop for EndDelivery {
    fn drop(&mut self) {
        DELIVERING.with(|d| d.set(self.0));
    }
}

/// Runs `f` on the delivery running now, if any.
#[inline]
fn delivering<R>(f: impl FnOnce(&Delivery<'_>) -> R) -> Option<R> {
    let d = DELIVERING.with(Cell::get);
    // SAFETY: not null only while `Views::deliver` runs, pointing at its `delivery`, which it
    // neither moves nor changes meanwhile, and which outlives the pointer (`EndDelivery` resets it
    // before `delivery` is dropped). `f` cannot keep what it borrows: it gets `Delivery<'_>`.
    (!d.is_null()).then(|| f(unsafe { &*d }))
}

impl Views {
    /// Installs the metatable of every light userdata in `lua`, which reads events' fields; a
    /// script reaches light userdata only as event views.
    pub(crate) fn new(lua: &Lua) -> mlua::Result<Views> {
        let slow = super::price::function(lua, |lua, (view, key): (LuaValue, LuaValue)| {
            field(lua, &view, &key)
        })?;
        let handles = super::bridge::handles(lua)?;
        let index = capi::c_closure(lua, index, (slow, handles.clone()))?;
        let meta = lua.create_table()?;
        meta.raw_set("__index", index)?;
        meta.raw_set(
            "__newindex",
            super::price::function(
                lua,
                |_, (_view, key): (LuaValue, LuaValue)| -> mlua::Result<()> {
                    Err(mlua::Error::runtime(format!(
                        "an event is read-only (tried to set `{}`); to tell other handlers something, emit an event of your own",
                        key.to_string().unwrap_or_default()
                    )))
                },
            )?,
        )?;
        meta.raw_set(
            "__tostring",
            super::price::function(lua, |_, view: LuaValue| {
                Ok(match current(&view, |d| d.names.name.to_string_lossy()) {
                    Some(name) => format!("event {name}"),
                    None => "event (its handlers have returned)".to_string(),
                })
            })?,
        )?;
        // `getmetatable(ev)` answers `false`: the table is shared by every view and stays lantern's.
        meta.raw_set("__metatable", false)?;
        lua.set_type_metatable::<LightUserData>(Some(meta));
        let builtin = [
            lua.create_string("name")?,
            lua.create_string("source")?,
            lua.create_string("target")?,
        ];
        Ok(Views {
            names: Vec::new(),
            handles,
            builtin: [0, 1, 2].map(|i| builtin[i].as_bytes().as_ptr()),
            _builtin: builtin,
        })
    }

    /// Interns the names of every event kind of a content set.
    pub(crate) fn bind(&mut self, lua: &Lua, events: &EventTable) -> mlua::Result<()> {
        self.names = events
            .iter()
            .map(|(_, def)| {
                let strings = def
                    .payload
                    .iter()
                    .map(|(n, _)| lua.create_string(n.as_str()))
                    .collect::<mlua::Result<Vec<_>>>()?;
                let interned = def
                    .payload
                    .iter()
                    .zip(&strings)
                    .map(|((n, _), s)| match n.as_str() {
                        "name" | "source" | "target" => std::ptr::null(),
                        _ => s.as_bytes().as_ptr(),
                    })
                    .collect();
                let name = lua.create_string(def.name.as_str())?;
                let name_bytes = {
                    let bytes = name.as_bytes();
                    (bytes.as_ptr(), bytes.len())
                };
                Ok(Names {
                    name,
                    name_bytes,
                    fields: def
                        .payload
                        .iter()
                        .map(|(n, _)| n.as_bytes().into())
                        .collect(),
                    interned,
                    _strings: strings,
                })
            })
            .collect::<mlua::Result<_>>()?;
        Ok(())
    }

    /// Delivers `event`: runs `f` with its view, which reads the event's fields until `f` returns.
    pub(crate) fn deliver<R>(
        &self,
        event: &Event,
        f: impl FnOnce(LuaValue) -> R,
    ) -> mlua::Result<R> {
        let names = self
            .names
            .get(event.kind.0 as usize)
            .ok_or_else(|| mlua::Error::runtime("an event of unknown kind"))?;
        let number = DELIVERED.with(|n| {
            n.set(n.get() + 1);
            n.get()
        });
        let delivery = Delivery {
            number,
            views: self,
            names,
            payload: &event.payload,
            source: event.source,
            target: event.target,
        };
        let outer = DELIVERING.with(|d| d.replace(std::ptr::from_ref(&delivery).cast()));
        let _end = EndDelivery(outer);
        let view = LightUserData(std::ptr::without_provenance_mut(number));
        Ok(f(LuaValue::LightUserData(view)))
    }
}

impl Views {
    /// The handle of a creature, made the first time it is asked for and kept.
    fn handle(&self, lua: &Lua, r: CreatureRef) -> mlua::Result<AnyUserData> {
        super::bridge::handle_in(lua, &self.handles, r)
    }
}

/// Runs `f` on the delivery `view` belongs to, if it is being delivered now.
fn current<R>(view: &LuaValue, f: impl FnOnce(&Delivery<'_>) -> R) -> Option<R> {
    let LuaValue::LightUserData(view) = view else {
        return None;
    };
    delivering(|d| (d.number == view.0.addr()).then(|| f(d))).flatten()
}

/// A payload field as the C fast path pushes it: scalars and text borrowed from the delivery.
/// `Copy`, so it has nothing to drop when Lua raises an error past it.
#[derive(Clone, Copy)]
enum Fast {
    Nil,
    Bool(bool),
    Int(i64),
    Float(f64),
    /// Bytes of a text value in the delivery's payload, or of the event's name, which outlive the
    /// push.
    Text(*const u8, usize),
    /// A creature handle, if it was made before: the key of `Views::handles` it is under.
    Handle(i64),
    /// Anything else: `name`, `source`, `target`, an unknown key, a view not being delivered.
    Slow,
}

impl Delivery<'_> {
    fn fields(&self) -> &[Box<[u8]>] {
        &self.names.fields
    }

    #[inline]
    fn fast(&self, view: usize, key: *const u8) -> Fast {
        if view != self.number {
            return Fast::Slow;
        }
        let [name, source, target] = self.views.builtin;
        if key == name {
            let (bytes, len) = self.names.name_bytes;
            return Fast::Text(bytes, len);
        }
        if key == source {
            return Fast::Handle(handle_key(self.source));
        }
        if key == target {
            return self
                .target
                .map_or(Fast::Nil, |t| Fast::Handle(handle_key(t)));
        }
        match self.names.interned.iter().position(|f| *f == key) {
            Some(i) => match self.payload.get(i).and_then(Option::as_ref) {
                None => Fast::Nil,
                Some(Value::Bool(b)) => Fast::Bool(*b),
                Some(Value::Int(n)) => Fast::Int(*n),
                Some(Value::Float(x)) => Fast::Float(*x),
                Some(Value::Str(s)) => Fast::Text(s.as_ptr(), s.len()),
            },
            None => Fast::Slow,
        }
    }
}

/// `__index` of every view: reads a field of the event being delivered and pushes it;
/// hands anything else to its upvalue, the mlua function [`field`]. Keeps the rules in
/// [`capi`](super::capi): the delivery's borrow has ended before anything that may raise is
/// called (pushing text, under the memory limit; the slow path). A finalizer that Lua runs while
/// pushing may read views, but cannot end the delivery, so the text pushed is still the payload's.
unsafe extern "C-unwind" fn index(state: *mut ffi::lua_State) -> c_int {
    // SAFETY (every block below): `state` is the running Lua thread, which called this function as
    // a metamethod with the view and the key at 1 and 2, and room for the result.
    let found = capi::abort_on_panic(|| {
        // SAFETY: as this function's safety section says.
        if unsafe { ffi::lua_type(state, 1) } != ffi::LUA_TLIGHTUSERDATA {
            return Fast::Slow;
        }
        // SAFETY: as this function's safety section says.
        let view = unsafe { ffi::lua_touserdata(state, 1) }.addr();
        // SAFETY: as this function's safety section says.
        match unsafe { capi::bytes_at(state, 2) } {
            Some(key) => delivering(|d| d.fast(view, key.as_ptr())).unwrap_or(Fast::Slow),
            None => Fast::Slow,
        }
    });
    match found {
        // SAFETY: as this function's safety section says.
        Fast::Nil => unsafe { ffi::lua_pushnil(state) },
        // SAFETY: as this function's safety section says.
        Fast::Bool(b) => unsafe { ffi::lua_pushboolean(state, c_int::from(b)) },
        // SAFETY: as this function's safety section says.
        Fast::Int(n) => unsafe { ffi::lua_pushinteger(state, n) },
        // SAFETY: as this function's safety section says.
        Fast::Float(x) => unsafe { ffi::lua_pushnumber(state, x) },
        // SAFETY: the bytes belong to the payload the delivery holds until its handlers return;
        // the copy is charged by its length first, as lantern's Lua charges its own (a unit per
        // 32 bytes), and this frame owns nothing the charge's error would skip.
        Fast::Text(bytes, len) => unsafe {
            if len >= 32 {
                capi::charge(state, len >> 5);
            }
            ffi::lua_pushlstring(state, bytes.cast(), len);
        },
        // A handle not made yet is made by the slow path, which keeps it in the table.
        // SAFETY: as this function's safety section says.
        Fast::Handle(key) => unsafe {
            if ffi::lua_rawgeti(state, ffi::lua_upvalueindex(2), key) == ffi::LUA_TNIL {
                ffi::lua_settop(state, -2);
                return capi::call_slow(state);
            }
        },
        // SAFETY: as this function's safety section says.
        Fast::Slow => return unsafe { capi::call_slow(state) },
    }
    1
}

const GONE: &str = "this event's handlers have returned: `ev` is readable only inside its \
                    handler; keep the fields you need (`local power = ev.power`), not `ev`";

/// Reads a field the C fast path did not: the event's name, its creatures, or an error that names
/// what went wrong.
fn field(lua: &Lua, view: &LuaValue, key: &LuaValue) -> mlua::Result<LuaValue> {
    let key = match key {
        LuaValue::String(s) => s.as_bytes().to_vec(),
        other => {
            return Err(mlua::Error::runtime(format!(
                "an event's fields are read by name (`ev.power`), not by a key of type `{}`",
                other.type_name()
            )))
        }
    };
    let read = current(view, |d| -> mlua::Result<LuaValue> {
        Ok(match &*key {
            b"name" => LuaValue::String(d.names.name.clone()),
            b"source" => LuaValue::UserData(d.views.handle(lua, d.source)?),
            b"target" => match d.target {
                Some(t) => LuaValue::UserData(d.views.handle(lua, t)?),
                None => LuaValue::Nil,
            },
            other => match d.fields().iter().position(|f| **f == *other) {
                Some(i) => match d.payload.get(i).and_then(Option::as_ref) {
                    Some(v) => to_lua(lua, v)?,
                    None => LuaValue::Nil,
                },
                // A misspelt field would read as nil and fail later, somewhere less clear.
                None => return Err(no_field(d, other)),
            },
        })
    });
    read.unwrap_or_else(|| Err(mlua::Error::runtime(GONE)))
}

fn no_field(d: &Delivery<'_>, key: &[u8]) -> mlua::Error {
    let key = String::from_utf8_lossy(key);
    let names: Vec<String> = ["name", "source", "target"]
        .into_iter()
        .map(str::to_string)
        .chain(
            d.fields()
                .iter()
                .map(|f| String::from_utf8_lossy(f).into_owned()),
        )
        .collect();
    let mut help = crate::diag::did_you_mean_suffix(&key, names.iter().map(String::as_str));
    if help.is_empty() {
        help = format!(" (it has: {})", names.join(", "));
    }
    mlua::Error::runtime(format!(
        "event `{}` has no field `{key}`{help}",
        d.names.name.to_string_lossy()
    ))
}
