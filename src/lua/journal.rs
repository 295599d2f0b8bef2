//! Storage inside the game's transactions: lantern's Lua journals writes to a mod's storage.
//!
//! A mod's `lantern.storage` and every table stored in it carry a flag (`lua_journalflag`), and so
//! does the mod's `lantern` table, so that a new table put in place of the storage is undone too;
//! while a journal is open (`lua_journalbegin`), every write to a flagged table first records the
//! table, the key and the value it replaces. When the transaction the journal was opened for fails,
//! `lua_journalend` puts the replaced values back, newest first; when it succeeds, the record is
//! kept for a journal still open around it, or dropped. What it costs follows the writes made
//! during the transaction, not the storage's size (a checkpoint that copied the storage cost a list
//! 35 times as much with 1,000 values stored: `cargo bench --bench lua`, row 4).

use super::storage::Key;
use mlua::{ffi, Lua, Table};

extern "C-unwind" {
    fn lua_journalflag(state: *mut ffi::lua_State, idx: std::ffi::c_int);
    fn lua_journalbegin(state: *mut ffi::lua_State) -> ffi::lua_Integer;
    fn lua_journalend(state: *mut ffi::lua_State, mark: ffi::lua_Integer, undo: std::ffi::c_int);
    fn lua_storagedirty(state: *mut ffi::lua_State, owner: std::ffi::c_int) -> std::ffi::c_int;
    fn lua_takewritten(state: *mut ffi::lua_State) -> std::ffi::c_int;
    fn lua_badstore(
        state: *mut ffi::lua_State,
        owner: std::ffi::c_int,
        kind: std::ffi::c_int,
        buf: *mut std::ffi::c_char,
        n: usize,
        value: *mut *const std::ffi::c_void,
    ) -> std::ffi::c_int;
}

/// Flags `table` and the tables it holds, so that their writes are journaled.
pub(crate) fn flag(lua: &Lua, table: &Table) {
    // SAFETY: `exec_raw` pushes the table at index 1 of a protected call; the C function only
    // sets flags on it and the tables it holds, and the closure pops what it was given.
    let _ = unsafe {
        lua.exec_raw::<()>(table, |state| {
            lua_journalflag(state, 1);
            ffi::lua_pop(state, 1);
        })
    };
}

/// `flag(t)`, a C function for lantern's own Lua: [`flag`], called from Lua.
///
/// # Safety
/// Called by Lua, with its arguments on the stack.
pub(crate) unsafe extern "C-unwind" fn flag_function(
    state: *mut ffi::lua_State,
) -> std::ffi::c_int {
    // SAFETY: this frame owns nothing, so the type error `luaL_checktype` may raise leaves nothing
    // undropped; the flag is set in place.
    unsafe {
        ffi::luaL_checktype(state, 1, ffi::LUA_TTABLE);
        lua_journalflag(state, 1);
    }
    0
}

/// The stores lantern's Lua remembers, one of each kind, for a save that refuses the value.
#[derive(Clone, Copy)]
pub(crate) enum Store {
    /// What storage cannot save: a function, userdata, a coroutine, an event view.
    Unsavable = 0,
    /// A table already in the storage stored into it again: the only way to make a cycle.
    Again = 1,
}

/// Where code of `owner` last made a store of `kind`, since last asked: its chunk's name
/// (`test/scripts/main.lua`), its line, and the value as `to_pointer` shows it. Asking forgets
/// it; `None` as the owner only forgets.
pub(crate) fn bad_store(
    lua: &Lua,
    owner: Option<std::ffi::c_int>,
    kind: Store,
) -> Option<(String, usize, usize)> {
    let mut buf = [0 as std::ffi::c_char; 128];
    let mut line = 0;
    let mut value: *const std::ffi::c_void = std::ptr::null();
    // SAFETY: the C function writes at most `buf.len()` bytes, NUL included, and the value's
    // pointer (which is only compared, never followed); it pushes and pops one value.
    let _ = unsafe {
        lua.exec_raw::<()>((), |state| {
            line = lua_badstore(
                state,
                owner.unwrap_or(-1),
                kind as std::ffi::c_int,
                buf.as_mut_ptr(),
                buf.len(),
                &mut value,
            );
        })
    };
    if line <= 0 {
        return None;
    }
    // SAFETY: the C function wrote a NUL-terminated string into `buf`.
    let source = unsafe { std::ffi::CStr::from_ptr(buf.as_ptr()) };
    let source = source.to_string_lossy().trim_start_matches('@').to_string();
    Some((source, usize::try_from(line).ok()?, value as usize))
}

/// Whether code of `owner` wrote into a flagged table (its storage) since last asked; asking
/// forgets it.
pub(crate) fn take_dirty(lua: &Lua, owner: std::ffi::c_int) -> bool {
    let mut dirty = 1;
    // SAFETY: the C function only reads and clears one byte of the state's global part.
    let _ = unsafe { lua.exec_raw::<()>((), |state| dirty = lua_storagedirty(state, owner)) };
    dirty != 0
}

/// One write to a flagged table, as lantern's Lua logged it.
pub(crate) struct Written {
    /// The table written, by its address (`to_pointer`): a storage table the mirror holds, so
    /// the address names it while the mirror does.
    pub(crate) table: usize,
    /// The key written and the value it holds now; `None` for a table written at too many keys
    /// to log, or at a key a save cannot hold (a table, a function: the whole save says so).
    pub(crate) at: Option<(Key, mlua::Value)>,
    /// The mod whose storage holds the table, once it is known (`settle.rs`).
    pub(crate) holder: usize,
}

/// A logged value as the closure reads it: a plain one whole, another (a string, a table) by its
/// place among the values handed over.
enum Now {
    Plain(mlua::Value),
    Handed(usize),
}

/// The writes to flagged tables since last asked, one a key in a row, in the order made, each
/// with the value its key holds now. And whether they can be followed key by key: not when a
/// flagged table was stored into one again (an alias or a move), nor when there were too many to
/// hand over at once. Asking forgets them.
///
/// Tables are named by address and keys read in place, so a write of a number at a name hands
/// nothing to mlua: only values that are strings or tables are handed over (a `Value` each).
pub(crate) fn take_written(lua: &Lua) -> (Vec<Written>, bool) {
    let mut aliased = 1;
    let mut too_many = false;
    let mut logged: Vec<(usize, Option<Key>, Now)> = Vec::new();
    // SAFETY: inside `exec_raw`'s protected call the stack holds only what the closure pushes:
    // the log (or nil) at 1, then, for each pair, its table, key and value for as long as they
    // are read, and the values handed over, after room is made for them; the log is removed at
    // the end, and `exec_raw` hands over the rest. A string key is copied while it is on the
    // stack.
    let handed = unsafe {
        lua.exec_raw::<mlua::Variadic<mlua::Value>>((), |state| {
            aliased = lua_takewritten(state);
            if ffi::lua_type(state, 1) != ffi::LUA_TTABLE {
                ffi::lua_settop(state, 0);
                return;
            }
            // A pair whose key could not be logged (its allocation failed) is left off: its
            // write was not made.
            let pairs = ffi::lua_rawlen(state, 1) / 2;
            let room = std::ffi::c_int::try_from(pairs + 4).unwrap_or(std::ffi::c_int::MAX);
            if pairs >= 100_000 || ffi::lua_checkstack(state, room) == 0 {
                too_many = true;
                ffi::lua_settop(state, 0);
                return;
            }
            logged.reserve(pairs);
            let mut handed = 0;
            for i in 0..pairs as ffi::lua_Integer {
                ffi::lua_rawgeti(state, 1, 2 * i + 1);
                let table = ffi::lua_topointer(state, -1) as usize;
                if ffi::lua_type(state, -1) != ffi::LUA_TTABLE {
                    ffi::lua_pop(state, 1);
                    continue;
                }
                ffi::lua_rawgeti(state, 1, 2 * i + 2);
                if ffi::lua_type(state, -1) == ffi::LUA_TLIGHTUSERDATA {
                    ffi::lua_pop(state, 2);
                    logged.push((table, None, Now::Plain(mlua::Value::Nil)));
                    continue;
                }
                let key = key_at(state, -1);
                ffi::lua_rawget(state, -2);
                let now = match ffi::lua_type(state, -1) {
                    ffi::LUA_TNIL => Now::Plain(mlua::Value::Nil),
                    ffi::LUA_TBOOLEAN => {
                        Now::Plain(mlua::Value::Boolean(ffi::lua_toboolean(state, -1) != 0))
                    }
                    ffi::LUA_TNUMBER if ffi::lua_isinteger(state, -1) != 0 => {
                        Now::Plain(mlua::Value::Integer(ffi::lua_tointeger(state, -1)))
                    }
                    ffi::LUA_TNUMBER => {
                        Now::Plain(mlua::Value::Number(ffi::lua_tonumber(state, -1)))
                    }
                    _ => {
                        // Kept on the stack, below the tables still to read: handed over.
                        ffi::lua_replace(state, -2);
                        handed += 1;
                        logged.push((table, key, Now::Handed(handed - 1)));
                        continue;
                    }
                };
                ffi::lua_pop(state, 2);
                logged.push((table, key, now));
            }
            ffi::lua_remove(state, 1);
        })
    };
    let mut writes = Vec::with_capacity(logged.len());
    if let Ok(handed) = handed {
        let mut handed: Vec<Option<mlua::Value>> = handed.into_iter().map(Some).collect();
        for (table, key, now) in logged {
            let value = match now {
                Now::Plain(v) => v,
                Now::Handed(at) => match handed.get_mut(at).and_then(Option::take) {
                    Some(v) => v,
                    None => continue,
                },
            };
            writes.push(Written {
                table,
                at: key.map(|k| (k, value)),
                holder: 0,
            });
        }
    }
    (writes, aliased == 0 && !too_many)
}

/// The key at `idx` as a save keeps it; `None` for one it cannot (a table, a function, a string
/// that is not UTF-8).
///
/// # Safety
/// `idx` is a valid index of `state`'s stack.
unsafe fn key_at(state: *mut ffi::lua_State, idx: std::ffi::c_int) -> Option<Key> {
    // SAFETY: only the value at `idx` is read; a string's bytes are copied before anything can
    // collect it.
    unsafe {
        match ffi::lua_type(state, idx) {
            ffi::LUA_TBOOLEAN => Some(Key::Bool(ffi::lua_toboolean(state, idx) != 0)),
            ffi::LUA_TNUMBER if ffi::lua_isinteger(state, idx) != 0 => {
                Some(Key::Int(ffi::lua_tointeger(state, idx)))
            }
            ffi::LUA_TNUMBER => Key::of(&mlua::Value::Number(ffi::lua_tonumber(state, idx))),
            ffi::LUA_TSTRING => {
                let mut len = 0;
                let ptr = ffi::lua_tolstring(state, idx, &mut len);
                let bytes = std::slice::from_raw_parts(ptr as *const u8, len);
                std::str::from_utf8(bytes)
                    .ok()
                    .map(|s| Key::Text(s.to_owned()))
            }
            _ => None,
        }
    }
}

/// Opens a journal; its mark closes it.
pub(crate) fn begin(lua: &Lua) -> Option<i64> {
    // SAFETY: the C function only counts the journal open and returns its length.
    unsafe {
        lua.exec_raw::<i64>((), |state| {
            let mark = lua_journalbegin(state);
            ffi::lua_pushinteger(state, mark);
        })
    }
    .ok()
}

/// Closes the journal opened at `mark`; with `undo`, first puts back every value written since.
pub(crate) fn end(lua: &Lua, mark: i64, undo: bool) -> mlua::Result<()> {
    // SAFETY: a protected call: putting values back may allocate, and a failed allocation comes
    // back as `Err`; the closure owns nothing a `longjmp` could skip.
    unsafe { lua.exec_raw::<()>((), |state| lua_journalend(state, mark, i32::from(undo))) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `code` over a flagged table `s`, with `begin()`/`undo()`/`keep()` as Lua functions.
    fn run(code: &str) -> String {
        let lua = Lua::new();
        let s = lua.create_table().unwrap();
        flag(&lua, &s);
        lua.globals().set("s", &s).unwrap();
        let marks = std::sync::Arc::new(atomic_refcell::AtomicRefCell::new(Vec::new()));
        let m = marks.clone();
        let b = lua
            .create_function(move |lua, ()| {
                m.borrow_mut().push(begin(lua).unwrap());
                Ok(())
            })
            .unwrap();
        let m = marks.clone();
        let u = lua
            .create_function(move |lua, undo: bool| {
                let mark = m.borrow_mut().pop().unwrap();
                end(lua, mark, undo)
            })
            .unwrap();
        lua.globals().set("begin", b).unwrap();
        lua.globals().set("finish", u).unwrap();
        lua.load(code).eval::<String>().unwrap()
    }

    fn check(code: &str, expected: &str) {
        assert_eq!(run(code), expected, "{code}");
    }

    #[test]
    fn a_rollback_puts_back_what_was_written_since_its_mark() {
        check(
            "s.list = {} s.n = 1 begin() s.failed = true s.list[1] = 'x' s.n = 2 s.fresh = { 1 } finish(true) \
             return tostring(s.failed) .. ' ' .. #s.list .. ' ' .. s.n .. ' ' .. tostring(s.fresh)",
            "nil 0 1 nil",
        );
    }

    #[test]
    fn a_commit_keeps_the_writes_and_an_outer_rollback_still_undoes_them() {
        check(
            "s.n = 1 begin() begin() s.n = 2 finish(false) local kept = s.n finish(true) \
             return kept .. ' ' .. s.n",
            "2 1",
        );
    }

    #[test]
    fn tables_stored_in_a_flagged_one_are_journaled_through_a_local() {
        check(
            "local t = {} s.t = t begin() t.x = 1 t[1] = 'a' finish(true) return tostring(t.x) .. ' ' .. #t",
            "nil 0",
        );
    }

    #[test]
    fn the_table_library_and_raw_writes_are_put_back_too() {
        check(
            "s.l = { 3, 1, 2 } s.k = {} \
             begin() \
             table.insert(s.l, 9) table.insert(s.l, 1, 0) table.remove(s.l, 2) table.sort(s.l) \
             rawset(s.k, 'a', 1) rawset(s, 'r', true) s.l[#s.l + 1] = 'tail' \
             finish(true) \
             return table.concat(s.l, ',') .. ' ' .. tostring(s.k.a) .. ' ' .. tostring(s.r)",
            "3,1,2 nil nil",
        );
    }

    #[test]
    fn a_table_grown_and_shrunk_inside_a_journal_comes_back_whole() {
        // Many keys force the table to be resized (its entries move, which is not journaled) in
        // both directions before the rollback.
        check(
            "for i = 1, 10 do s[i] = i end s.name = 'x' \
             begin() \
             for i = 11, 5000 do s[i] = i end for i = 1, 5000 do s[i] = nil end s.name = 'y' \
             for k = 1, 300 do s['k' .. k] = k end \
             finish(true) \
             local n = 0 for _ in pairs(s) do n = n + 1 end \
             return n .. ' ' .. s[10] .. ' ' .. s.name .. ' ' .. tostring(s.k1)",
            "11 10 x nil",
        );
    }

    #[test]
    fn writes_outside_a_journal_are_not_recorded() {
        check("s.a = 1 begin() finish(true) return tostring(s.a)", "1");
    }
}
