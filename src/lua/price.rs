//! What lantern's own work for a script costs it, charged to the script's budget before the
//! work is done: a call of one of lantern's functions, its failure, its text arguments, a file
//! read, a "did you mean", and the bytes lantern reads or copies for it. A unit is about an
//! instruction's worth, so a loop of cheap calls is counted as what it costs.

use super::budget::Budget;
use mlua::Lua;

/// What a call of one of lantern's functions costs a script before any work of its own: about
/// what the interpreter runs in the same time (a unit is an instruction's worth, a few
/// nanoseconds), so a loop of cheap calls is counted as what it costs.
pub(crate) const CALL: usize = 100;

/// What one of lantern's functions that fails costs on top: raising its error through mlua
/// (which writes a traceback) takes microseconds, and a `pcall` loop of failing calls must be
/// stopped by the budget as a loop of anything else is.
pub(crate) const FAILED: usize = 2_000;

/// What reading a file for a script costs before its bytes (`require`): resolving its path
/// folder by folder, opening and reading it take tens of microseconds.
pub(crate) const FILE: usize = 10_000;

/// What comparing a misspelt name with one candidate costs in a "did you mean" (names are
/// compared only up to 100 bytes): a failing call that
/// suggests pays this for each name it was compared with.
pub(crate) const SUGGESTION: usize = 32;

/// Charges a "did you mean" over `candidates` names.
pub(crate) fn charge_suggestions(lua: &Lua, candidates: usize) -> mlua::Result<()> {
    charge(lua, candidates.saturating_mul(SUGGESTION))
}

/// Charges the running call `units` of work done for it outside Lua (an instruction's worth
/// each), as lantern's Lua charges the work of its own C functions: the budget's error if that
/// takes the call past its budget, before the work is done. A state with no budget (one lantern
/// runs only its own code in) charges nothing.
pub(crate) fn charge(lua: &Lua, units: usize) -> mlua::Result<()> {
    if units == 0 {
        return Ok(());
    }
    match lua.app_data_ref::<Budget>() {
        Some(budget) => budget.add(lua, units),
        None => Ok(()),
    }
}

/// Runs one of lantern's functions for a script, charged: [`CALL`] first, the work it charges
/// itself as it goes, and [`FAILED`] when it fails (the budget's error instead when that is
/// what the failure costs).
#[inline]
pub(crate) fn charged<R>(lua: &Lua, f: impl FnOnce() -> mlua::Result<R>) -> mlua::Result<R> {
    charge(lua, CALL)?;
    let result = f();
    if result.is_err() {
        charge(lua, FAILED)?;
    }
    result
}

/// A function of lantern's for scripts, [`charged`] as every one is: its arguments are read
/// inside the charge, so a call with arguments of the wrong type pays for its error too, and
/// text arguments cost by their length (a unit per 8 bytes: reading one as Rust text copies and
/// checks it).
pub(crate) fn function<F, A, R>(lua: &Lua, f: F) -> mlua::Result<mlua::Function>
where
    F: Fn(&Lua, A) -> mlua::Result<R> + Send + 'static,
    A: mlua::FromLuaMulti,
    R: mlua::IntoLuaMulti,
{
    lua.create_function(move |lua, args: mlua::MultiValue| {
        charged(lua, || {
            charge_arguments(lua, &args)?;
            f(lua, A::from_lua_args(args, 1, None, lua)?)
        })
    })
}

/// [`function`] for a function of the state bound to a value of each mod (`capi::bind`): `f`
/// gets that value before the script's arguments, which are charged and numbered (in a message
/// about a bad one) as the script wrote them.
pub(crate) fn bound_function<B, F, A, R>(lua: &Lua, f: F) -> mlua::Result<mlua::Function>
where
    B: mlua::FromLua,
    F: Fn(&Lua, B, A) -> mlua::Result<R> + Send + 'static,
    A: mlua::FromLuaMulti,
    R: mlua::IntoLuaMulti,
{
    lua.create_function(move |lua, mut args: mlua::MultiValue| {
        charged(lua, || {
            let bound = B::from_lua(args.pop_front().unwrap_or(mlua::Value::Nil), lua)?;
            charge_arguments(lua, &args)?;
            f(lua, bound, A::from_lua_args(args, 1, None, lua)?)
        })
    })
}

/// Charges what reading a call's text arguments costs: a unit per 8 bytes of them.
pub(crate) fn charge_arguments(lua: &Lua, args: &mlua::MultiValue) -> mlua::Result<()> {
    let text: usize = args
        .iter()
        .map(|v| match v {
            mlua::Value::String(s) => s.as_bytes().len(),
            _ => 0,
        })
        .sum();
    charge(lua, text >> 3)
}

/// Charges the work of reading or copying `n` bytes, as lantern's Lua charges its own: a unit
/// per 32 bytes.
pub(crate) fn charge_bytes(lua: &Lua, n: usize) -> mlua::Result<()> {
    charge(lua, n >> 5)
}
