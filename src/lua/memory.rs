//! Memory accounted per mod: every allocation in a Lua state is charged to an owner.
//!
//! lantern's Lua (`vendor/lantern-lua-src`) puts a small header on every block naming its owner,
//! and charges new and growing blocks to the state's current owner; an owner past its limit gets
//! an out-of-memory error, and freeing a block credits the owner that holds it. The runtime makes
//! each mod an owner and makes it the current one for exactly the length of each call into its
//! code, so the mod that hoards is the one stopped and named, and another mod's innocent handler
//! never fails for it. Owner 0 is lantern itself (the host), with no limit: its bookkeeping in the
//! state never fails because a script filled it.
//!
//! This module knows Lua states and owners only; which mod is which owner is the runtime's.

use mlua::{ffi, Lua};
use std::ffi::c_int;

extern "C-unwind" {
    fn lua_ownerslot(state: *mut ffi::lua_State) -> *mut c_int;
    fn lua_setownerlimit(state: *mut ffi::lua_State, owner: c_int, limit: usize);
    fn lua_ownerused(state: *mut ffi::lua_State, owner: c_int) -> usize;
    fn lua_memfailedslots(state: *mut ffi::lua_State) -> *mut u8;
    fn lua_hoststack(state: *mut ffi::lua_State, idx: c_int);
}

/// The last account of a state (`LUA_MAXOWNERS - 1` in lantern's Lua), which mods past it share.
const LAST: c_int = 1023;

/// Who an allocation is charged to: lantern (the host) or a mod's account.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Owner(c_int);

impl Owner {
    /// The owner's number in lantern's Lua.
    pub(crate) fn number(self) -> c_int {
        self.0
    }

    /// The owner of this number (as [`Owner::number`] gave it), within the state's accounts.
    pub(crate) fn numbered(n: c_int) -> Owner {
        Owner(n.clamp(0, LAST))
    }

    /// lantern itself: no limit.
    pub(crate) const HOST: Owner = Owner(0);

    /// The account of the `index`-th mod (from 0). Owners past the Lua build's `LUA_MAXOWNERS`
    /// share its last account.
    pub(crate) fn of_mod(index: usize) -> Owner {
        Owner(c_int::try_from(index + 1).map_or(LAST, |i| i.min(LAST)))
    }

    /// The index of the one mod this owner is (from 0): `None` for lantern, and for the last
    /// account, which the mods past it share.
    pub(crate) fn mod_index(self) -> Option<usize> {
        (self.0 > 0 && self.0 < LAST).then(|| (self.0 - 1) as usize)
    }
}

/// The accounts of one Lua state.
#[derive(Clone, Copy)]
pub(crate) struct Accounts {
    /// The state's main thread: owners are kept in the state's global part, which every thread of
    /// it shares, and the main thread lives as long as the state.
    state: *mut ffi::lua_State,
    /// Where the state keeps the owner charged now: written directly, as the owner changes around
    /// every call into a mod (a call through the C API cost a handler call 2 %).
    slot: *mut c_int,
    /// Where the state flags each owner whose allocation failed, a byte each: read and cleared
    /// around every call into a mod, as directly.
    failed: *mut u8,
}

// SAFETY: the pointers point into the state's global part, which lives as long as the state. They
// are used by the runtime that owns the state, which is `Send` but not `Sync` (one thread at a
// time), and by the state's own hook, which runs on the thread running the state, inside mlua's
// lock on it. So they move with their state and are never used by two threads at once.
unsafe impl Send for Accounts {}
// SAFETY: as above: every holder of a copy is owned by the one runtime, used by one thread at a
// time.
unsafe impl Sync for Accounts {}

impl Accounts {
    /// The accounts of `lua`.
    pub(crate) fn of(lua: &Lua) -> mlua::Result<Accounts> {
        let mut state = std::ptr::null_mut();
        // SAFETY: `exec_raw` hands the closure a valid thread of `lua`; it only reads the pointer.
        unsafe {
            lua.exec_raw::<()>((), |s| state = s)?;
        }
        // SAFETY: `state` is a valid thread; the slots live in its global part, as long as it.
        let (slot, failed) = unsafe { (lua_ownerslot(state), lua_memfailedslots(state)) };
        Ok(Accounts {
            state,
            slot,
            failed,
        })
    }

    /// Charges allocations to `owner` until the guard is dropped, when the owner before it is
    /// charged again.
    #[inline]
    pub(crate) fn charge_to(&self, owner: Owner) -> Charging {
        // SAFETY: `slot` points into the global part of a live state (the accounts never outlive
        // their runtime's state), which only this thread uses; owners are within the state's
        // accounts (`Owner::of_mod` clamps them).
        let before = unsafe { std::ptr::replace(self.slot, owner.0) };
        Charging {
            slot: self.slot,
            before,
        }
    }

    /// The owner charged now: inside a call into a mod, that mod's.
    #[inline]
    pub(crate) fn current(&self) -> Owner {
        // SAFETY: as in `charge_to`.
        Owner(unsafe { *self.slot })
    }

    /// Sets the most `owner` may hold, in bytes; 0 is no limit.
    pub(crate) fn set_limit(&self, owner: Owner, bytes: usize) {
        // SAFETY: as in `charge_to`.
        unsafe { lua_setownerlimit(self.state, owner.0, bytes) }
    }

    /// Whether an allocation charged to `owner` failed with a memory error since this was last
    /// asked (it forgets): a call whose script caught its memory error has still run out.
    #[inline]
    pub(crate) fn ran_out(&self, owner: Owner) -> bool {
        // The common case reads a byte and writes nothing: this runs after every handler call.
        self.failed(owner) && self.forget(owner)
    }

    /// Whether an allocation charged to `owner` failed since [`Accounts::ran_out`] last asked
    /// (which forgets); this only reads.
    #[inline]
    pub(crate) fn failed(&self, owner: Owner) -> bool {
        // SAFETY: as in `charge_to`: `failed` has `LUA_MAXOWNERS` bytes, and owners are within
        // them (`Owner::of_mod` clamps).
        unsafe { *self.failed.add(owner.0 as usize) != 0 }
    }

    #[cold]
    fn forget(&self, owner: Owner) -> bool {
        // SAFETY: as in `failed`.
        unsafe { *self.failed.add(owner.0 as usize) = 0 };
        true
    }

    /// The bytes `owner` holds now.
    pub(crate) fn used(&self, owner: Owner) -> usize {
        // SAFETY: as in `charge_to`; this only reads.
        unsafe { lua_ownerused(self.state, owner.0) }
    }
}

/// Charges the stack mlua keeps its references on (its "ref thread") to the host, whoever runs
/// when it grows. lantern's references to what a mod registers (a handler, an action) are made
/// inside that mod's call; charged to the mod, the stack could not grow when the mod is at its
/// limit, and mlua panics when it cannot make a reference. (lantern used to make room before each
/// mod loaded by making and dropping references: a fifth of a test game over 200 mods.)
///
/// mlua keeps that thread in the registry, the only thread there besides the main one; a state
/// with none or several is refused, so a change in mlua is caught at the first state made.
pub(crate) fn host_references(lua: &Lua) -> mlua::Result<()> {
    // SAFETY: `exec_raw` runs the closure in protected mode on a valid thread with nothing of its
    // own on the stack; the closure walks the registry with `lua_next` (which allocates nothing),
    // marks threads, and leaves the stack as it found it.
    let found = unsafe {
        lua.exec_raw::<c_int>((), |state| {
            let mut found = 0;
            ffi::lua_rawgeti(state, ffi::LUA_REGISTRYINDEX, ffi::LUA_RIDX_MAINTHREAD);
            let main = ffi::lua_tothread(state, -1);
            ffi::lua_pop(state, 1);
            ffi::lua_pushnil(state);
            while ffi::lua_next(state, ffi::LUA_REGISTRYINDEX) != 0 {
                if ffi::lua_type(state, -1) == ffi::LUA_TTHREAD
                    && ffi::lua_tothread(state, -1) != main
                {
                    lua_hoststack(state, -1);
                    found += 1;
                }
                ffi::lua_pop(state, 1);
            }
            ffi::lua_pushinteger(state, found.into());
        })?
    };
    if found != 1 {
        return Err(mlua::Error::runtime(format!(
            "lantern expects mlua to keep one thread of references in the registry, and it keeps {found}"
        )));
    }
    Ok(())
}

/// Allocations go to one owner while this lives; see [`Accounts::charge_to`].
pub(crate) struct Charging {
    slot: *mut c_int,
    before: c_int,
}

impl Drop for Charging {
    #[inline]
    fn drop(&mut self) {
        // SAFETY: as in `Accounts::charge_to`.
        unsafe { *self.slot = self.before };
    }
}

/// The error of a call that ran out of memory and caught it.
#[cold]
pub(crate) fn out_of_memory() -> mlua::Error {
    mlua::Error::MemoryError(
        "not enough memory (the script caught the error, but it ran out)".into(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mod_past_its_limit_fails_and_the_host_and_other_mods_do_not() {
        let lua = Lua::new();
        let accounts = Accounts::of(&lua).unwrap();
        let (a, b) = (Owner::of_mod(0), Owner::of_mod(1));
        accounts.set_limit(a, 256 * 1024);
        accounts.set_limit(b, 256 * 1024);
        let hoard = {
            let _a = accounts.charge_to(a);
            lua.load("local t = {} for i = 1, 1e6 do t[i] = {} end return t")
                .eval::<mlua::Value>()
        };
        assert!(
            matches!(&hoard, Err(e) if e.to_string().contains("memory")),
            "{hoard:?}"
        );
        assert!(accounts.used(a) <= 256 * 1024);
        // b has its own account, and the host has none.
        let kept = {
            let _b = accounts.charge_to(b);
            lua.load("KEPT = {} for i = 1, 1000 do KEPT[i] = i end return #KEPT")
                .eval::<i64>()
        };
        assert_eq!(kept.unwrap(), 1000);
        assert!(accounts.used(b) > 1000 * 8, "{}", accounts.used(b));
        let _host = accounts.charge_to(Owner::HOST);
        lua.load("local t = {} for i = 1, 1e5 do t[i] = {} end")
            .exec()
            .unwrap();
    }

    #[test]
    fn references_made_for_a_mod_at_its_limit_are_the_hosts() {
        let lua = Lua::new();
        host_references(&lua).unwrap();
        let accounts = Accounts::of(&lua).unwrap();
        let a = Owner::of_mod(0);
        accounts.set_limit(a, 64 * 1024);
        let _a = accounts.charge_to(a);
        // The mod fills its account; then lantern makes references while the mod is charged:
        // their stack grows past the mod's whole limit (5,000 slots of 16 bytes), and not into it.
        lua.load("HOARD = {} for i = 1, 1e6 do HOARD[i] = i end")
            .exec()
            .unwrap_err();
        let before = accounts.used(a);
        let refs: Vec<mlua::Table> = (0..5000).map(|_| lua.globals()).collect();
        assert_eq!(refs.len(), 5000);
        assert!(
            accounts.used(a) <= before,
            "{} > {before}",
            accounts.used(a)
        );
    }

    #[test]
    fn freeing_credits_the_owner_that_made_the_block() {
        let lua = Lua::new();
        let accounts = Accounts::of(&lua).unwrap();
        let a = Owner::of_mod(0);
        {
            let _a = accounts.charge_to(a);
            lua.load("BIG = string.rep('x', 100000)").exec().unwrap();
        }
        assert!(accounts.used(a) >= 100_000);
        // The host drops it and collects: the mod's account is credited.
        lua.load("BIG = nil").exec().unwrap();
        lua.gc_collect().unwrap();
        lua.gc_collect().unwrap();
        assert!(accounts.used(a) < 100_000, "{}", accounts.used(a));
    }
}
