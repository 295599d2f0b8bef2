//! The few places lantern calls the Lua C API itself: fast paths in front of mlua functions.
//!
//! mlua makes every Rust function called from Lua safe at a price: a protected call, a reference
//! per argument, a protected allocation per value made under a memory limit. For the two calls a
//! mod makes most (reading a field of `ev`, `lantern.emit_event`) that price was most of the cost,
//! so each is a C closure whose upvalue 1 is the plain mlua function that does the whole job. The
//! C function handles the common case alone and hands everything else, including every error, to
//! that function ([`call_slow`]), so messages and behaviour are the mlua function's.
//!
//! The rules a fast path keeps, because a Lua error leaves a C function by `longjmp`, which skips
//! Rust destructors, and a Rust panic must not unwind into Lua's C frames:
//! - while it owns anything with a destructor, it calls only API functions that cannot raise (they
//!   do not allocate and run no Lua code: reading the stack, `lua_next`, pushing nil, numbers and
//!   booleans);
//! - it calls what may raise (pushing text, calling the slow path) only from a frame that owns
//!   nothing;
//! - its Rust work runs inside [`guarded`], and a panic there hands the call to the slow path; or,
//!   where that work cannot fail and the path is too hot for `guarded`'s frame (reading `ev`, where
//!   it was 48 of a handler call's 1,323 instructions), inside [`abort_on_panic`].

use mlua::{ffi, Function, IntoLuaMulti, Lua};
use std::ffi::c_int;

/// A C closure over `f` with `upvalues` (upvalue 1 being, by convention, the slow path).
pub(super) fn c_closure(
    lua: &Lua,
    f: ffi::lua_CFunction,
    upvalues: impl IntoLuaMulti,
) -> mlua::Result<Function> {
    // SAFETY: `exec_raw` runs the closure in protected mode with exactly the upvalues on its
    // stack, which `lua_pushcclosure` pops and replaces with the closure it returns.
    unsafe {
        lua.exec_raw(upvalues, |state| {
            let n = ffi::lua_gettop(state);
            ffi::lua_pushcclosure(state, f, n);
        })
    }
}

extern "C-unwind" {
    fn lua_chargework(state: *mut ffi::lua_State, n: usize);
}

/// Charges a fast path's work to the calling script's budget, as lantern's Lua charges its own
/// C functions (the mlua function behind it is charged by `price::function`). It may raise the
/// budget's error, so it is called only from a frame that owns nothing.
///
/// # Safety
/// `state` is the running Lua thread, and the caller's frame owns nothing with a destructor.
pub(super) unsafe fn charge(state: *mut ffi::lua_State, units: usize) {
    // SAFETY: as the caller promises.
    unsafe { lua_chargework(state, units) }
}

/// Runs a fast path's Rust work; `None` if it panicked (the panic hook has printed it).
pub(super) fn guarded<R>(f: impl FnOnce() -> R) -> Option<R> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).ok()
}

/// Runs a fast path's Rust work that cannot fail (no indexing, no allocation, no call into the
/// game), for a path too hot for [`guarded`]'s frame: a panic aborts the process, as it would
/// leaving any `extern "C"` function, instead of unwinding into Lua's C frames.
#[inline]
pub(super) fn abort_on_panic<R>(f: impl FnOnce() -> R) -> R {
    struct Abort;
    impl Drop for Abort {
        fn drop(&mut self) {
            std::process::abort();
        }
    }
    let abort = Abort;
    let r = f();
    std::mem::forget(abort);
    r
}

/// The bytes of the string at `idx`, if it is a string (a number is not converted: that would
/// allocate).
///
/// # Safety
/// `state` is a running Lua thread and `idx` a valid index; the bytes live as long as the string
/// stays where it is (on the stack or in an upvalue).
#[inline]
pub(super) unsafe fn bytes_at<'a>(state: *mut ffi::lua_State, idx: c_int) -> Option<&'a [u8]> {
    // SAFETY: as the caller promises.
    unsafe {
        if ffi::lua_type(state, idx) != ffi::LUA_TSTRING {
            return None;
        }
        let mut len = 0usize;
        let text = ffi::lua_tolstring(state, idx, &mut len);
        Some(std::slice::from_raw_parts(text.cast::<u8>(), len))
    }
}

/// Hands the running call, with all its arguments, to upvalue 1 and returns what it returns.
///
/// # Safety
/// Called from a C closure made by [`c_closure`] whose upvalue 1 is a function, from a frame that
/// owns nothing with a destructor: the slow path may raise.
pub(super) unsafe fn call_slow(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: as the caller promises; a C function always has room for one more value.
    unsafe {
        let n = ffi::lua_gettop(state);
        ffi::lua_pushvalue(state, ffi::lua_upvalueindex(1));
        ffi::lua_insert(state, 1);
        ffi::lua_call(state, n, ffi::LUA_MULTRET);
        ffi::lua_gettop(state)
    }
}

/// `bind(f, ...)`, a C function for lantern's own Lua: a C closure that calls `f` with the values
/// given here before its own arguments. One function of a state serves every mod this way, each
/// with its own values (its environment, its account, its stream), where a Rust closure made for
/// each mod cost a test game over 200 mods a twentieth of its time.
///
/// # Safety
/// Called by Lua, with its arguments on the stack.
pub(super) unsafe extern "C-unwind" fn bind(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: this frame owns nothing, so the type error `luaL_checktype` may raise leaves nothing
    // undropped; `lua_pushcclosure` takes the arguments as the closure's upvalues.
    unsafe {
        ffi::luaL_checktype(state, 1, ffi::LUA_TFUNCTION);
        let n = ffi::lua_gettop(state);
        ffi::lua_pushcclosure(state, bound, n);
    }
    1
}

/// `copy(t)`, a C function for lantern's own Lua: a copy of the table `t`, its metatable shared
/// (lantern's Lua copies the table whole, `lua_clonetable`).
///
/// # Safety
/// Called by Lua, with its arguments on the stack.
pub(super) unsafe extern "C-unwind" fn copy_table(state: *mut ffi::lua_State) -> c_int {
    extern "C-unwind" {
        fn lua_clonetable(state: *mut ffi::lua_State, idx: c_int);
    }
    // SAFETY: this frame owns nothing, so an error raised by the type check or the copy (memory)
    // leaves nothing undropped; `lua_setmetatable` pops the metatable `lua_getmetatable` pushed.
    unsafe {
        ffi::luaL_checktype(state, 1, ffi::LUA_TTABLE);
        lua_clonetable(state, 1);
        if ffi::lua_getmetatable(state, 1) != 0 {
            ffi::lua_setmetatable(state, -2);
        }
    }
    1
}

/// A closure made by [`bind`]: calls upvalue 1 with the other upvalues, then the arguments.
pub(super) unsafe extern "C-unwind" fn bound(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: called by Lua with the closure `bind` made; this frame owns nothing, so an error the
    // call raises (or growing the stack) leaves nothing undropped. An upvalue index past the
    // closure's reads as none.
    unsafe {
        let n = ffi::lua_gettop(state);
        let mut ups = 0;
        while ffi::lua_type(state, ffi::lua_upvalueindex(ups + 1)) != ffi::LUA_TNONE {
            ups += 1;
        }
        ffi::luaL_checkstack(state, ups, std::ptr::null());
        for i in 1..=ups {
            ffi::lua_pushvalue(state, ffi::lua_upvalueindex(i));
        }
        ffi::lua_rotate(state, 1, ups);
        ffi::lua_call(state, n + ups - 1, ffi::LUA_MULTRET);
        ffi::lua_gettop(state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guarded_hands_a_panic_back_as_none() {
        assert_eq!(guarded(|| 3), Some(3));
        assert_eq!(guarded(|| -> i32 { panic!("a bug in a fast path") }), None);
        assert_eq!(abort_on_panic(|| 4), 4);
    }

    #[test]
    fn a_bound_function_gets_its_values_before_its_arguments() {
        let lua = Lua::new();
        // SAFETY: `bind` follows the rules of a C function called by Lua.
        let bind = unsafe { lua.create_c_function(bind).unwrap() };
        lua.globals().set("bind", bind).unwrap();
        let said: String = lua
            .load(
                "local f = bind(function(...) return table.concat({...}, ',') end, 'a', 'b')\n\
                 local g = bind(select, '#', nil)\n\
                 return f(1, 2) .. ';' .. f() .. ';' .. g(nil, nil) .. ';' .. tostring(pcall(bind, 3))",
            )
            .eval()
            .unwrap();
        assert_eq!(said, "a,b,1,2;a,b;3;false");
    }

    #[test]
    fn a_fast_path_falls_back_to_its_upvalue_and_reads_strings_in_place() {
        // A C function that answers `#s` for a string argument by itself and hands anything else
        // to its slow path, which says what it got.
        unsafe extern "C-unwind" fn length(state: *mut ffi::lua_State) -> c_int {
            // SAFETY: called by Lua with its arguments on the stack, from a closure made by
            // `c_closure` with the slow path as upvalue 1.
            unsafe {
                match bytes_at(state, 1) {
                    Some(text) => {
                        ffi::lua_pushinteger(state, text.len() as ffi::lua_Integer);
                        1
                    }
                    None => call_slow(state),
                }
            }
        }
        let lua = Lua::new();
        let slow = lua
            .create_function(|_, v: mlua::Value| Ok(format!("slow: {}", v.type_name())))
            .unwrap();
        let fast = c_closure(&lua, length, slow).unwrap();
        assert_eq!(fast.call::<i64>("abc").unwrap(), 3);
        assert_eq!(fast.call::<String>(12).unwrap(), "slow: integer");
        assert_eq!(fast.call::<String>(true).unwrap(), "slow: boolean");
    }
}
