//! The one place where every call into a mod's code runs. [`call_mod`] runs a call under the
//! mod's budget (the smaller of a call's and what is left of the mod's turn) with the mod's
//! memory account charged, and fails the call if it ran past its budget even when the script
//! caught that error; `call_handler!` is the event loop's call of a handler through it, and
//! [`call_across`] a call of another mod's code from a running script.

use super::budget::Budget;
use super::memory::{Accounts, Owner};
use super::{ModScript, Shared};
use mlua::Lua;

/// Runs `f`, a call into the code of the mod `m`, under its budget and memory account. Inlined:
/// a handler's call runs it once per handler per event, and as a call of its own it moved the
/// call's result twice.
#[inline(always)]
pub(super) fn call_mod<R>(
    lua: &Lua,
    budget: &Budget,
    accounts: Accounts,
    m: &mut ModScript,
    f: impl FnOnce() -> mlua::Result<R>,
) -> mlua::Result<R> {
    let (left, bound) = budget.in_game(budget.per_turn().saturating_sub(m.turn_used));
    if left == 0 {
        return Err(mlua::Error::runtime(budget.spent_message(m.turn_used)));
    }
    budget.begin_as(lua, left, bound);
    m.ran = true;
    // The mod's memory flag is clear: every call into it reads and clears it after (below), and
    // only its own calls are charged to its account.
    let result = {
        let _charged = accounts.charge_to(m.owner);
        f()
    };
    let (used, tripped) = budget.ended();
    m.turn_used = m.turn_used.saturating_add(used);
    budget.count_for_game(used);
    // One test for both limits in the common case, where neither tripped.
    if !(tripped | accounts.failed(m.owner)) {
        return result;
    }
    past_a_limit(budget, accounts, m.owner, result)
}

/// Calls the handler `$call`, which had failed `$failures` times in a row, under its mod's budget
/// and account, in the group of calls charged to one mod's account; whether it ran (its mod's
/// turn's budget may be spent). A macro: the event loop's hot path and the profiled one
/// ([`super::profile`]) run the same code, and as a function it cost a handler's call 11
/// instructions more.
macro_rules! call_handler {
    ($lua:expr, $budget:expr, $accounts:expr, $mods:expr, $group:expr, $outcomes:expr, $view:expr, $call:expr, $failures:expr) => {{
        let call: &$crate::lua::Listener = $call;
        match call.script.and_then(|i| $mods.get_mut(i)) {
            None => false,
            Some(m) if m.turn_used >= $budget.per_turn() || $budget.halted() => {
                m.skipped += 1;
                false
            }
            Some(m) => {
                if $group.as_ref().is_none_or(|(owner, _)| *owner != m.owner) {
                    // The last group's guard goes first, so guards end in the order they began.
                    drop($group.take());
                    *$group = Some((m.owner, $accounts.charge_to(m.owner)));
                }
                m.last = Some($crate::lua::Called::Handler(call.handler));
                match $crate::lua::call::call_mod($lua, $budget, $accounts, m, || {
                    call.func.call::<()>($view)
                }) {
                    Err(e) => $outcomes.push((call.handler, Some(e))),
                    Ok(()) if $failures > 0 => $outcomes.push((call.handler, None)),
                    Ok(()) => {}
                }
                true
            }
        }
    }};
}
pub(super) use call_handler;

/// A call that ran out of memory has failed even if it caught the error; then the budget's rule.
#[cold]
fn past_a_limit<R>(
    budget: &Budget,
    accounts: Accounts,
    owner: Owner,
    result: mlua::Result<R>,
) -> mlua::Result<R> {
    if accounts.ran_out(owner) && result.is_ok() {
        // It caught its memory error, but ran out all the same.
        return Err(super::memory::out_of_memory());
    }
    if !budget.tripped() {
        return result;
    }
    over_budget(budget, result)
}

/// Runs `f`, code of the mod `callee` (its account `owner`) that another mod's running script
/// calls (`what`: its registered action, through `lantern.apply`), as that mod's code: under a
/// budget of its own (half of what the caller has left, at most a call's) and its own memory
/// account, its work counted in its turn and its storage written at the turn's end
/// (`Shared::crossed`); a failure is said as the callee's. The caller is charged what it ran too,
/// as it waited for it, so calling another mod's action in a loop is bounded by the caller's budget.
pub(crate) fn call_across<R>(
    lua: &Lua,
    shared: &std::sync::Arc<atomic_refcell::AtomicRefCell<Shared>>,
    callee: &str,
    owner: Owner,
    what: &str,
    f: impl FnOnce() -> mlua::Result<R>,
) -> mlua::Result<R> {
    let budget = lua.app_data_ref::<Budget>().map(|b| (*b).clone());
    let accounts = lua.app_data_ref::<Accounts>().map(|a| *a);
    let (Some(budget), Some(accounts)) = (budget, accounts) else {
        return f();
    };
    if let Some(stopped) = budget.stopped() {
        return Err(stopped);
    }
    let outer = budget.nest(lua);
    let result = {
        let _charged = accounts.charge_to(owner);
        f()
    };
    let result = match result {
        Ok(_) if accounts.ran_out(owner) => Err(super::memory::out_of_memory()),
        other => other,
    };
    let (result, used) = budget.unnest(lua, outer, result);
    *shared
        .borrow_mut()
        .crossed
        .entry(callee.to_string())
        .or_default() += used;
    budget.add(lua, usize::try_from(used).unwrap_or(usize::MAX))?;
    result.map_err(|e| {
        mlua::Error::runtime(format!(
            "[{callee}] {what} failed: {}",
            super::describe(&e).0
        ))
    })
}

/// A call that passed its budget has failed, at the place it first passed it, whatever the script
/// did with that error; the error it raised is kept when it is that one (it has a traceback).
#[cold]
fn over_budget<R>(budget: &Budget, result: mlua::Result<R>) -> mlua::Result<R> {
    let Some(stopped) = budget.stopped() else {
        return result;
    };
    match result {
        Err(e) if super::describe(&e).0 == super::describe(&stopped).0 => Err(e),
        _ => Err(stopped),
    }
}
