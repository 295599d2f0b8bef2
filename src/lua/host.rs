//! The runtime as the game's host: handlers, registered actions and checks, each call into a
//! mod's code made through [`call_mod`](super::call::call_mod). A mod whose turn's budget is used
//! up is not called again until the next turn: its handlers are skipped (and counted, and
//! reported once when the turn settles), and its actions and checks fail.

use super::call::{call_handler, call_mod};
use super::memory::Owner;
use super::{LuaRuntime, Registered, Shared, QUARANTINE_AFTER};
use crate::content::Value;
use crate::diag::Code;
use crate::diag::Diagnostic;
use crate::game::{Ctx, Event, Game, ScriptHost};
use crate::id::Id;
use mlua::{Function, Table};
use std::collections::BTreeMap;

impl LuaRuntime {
    fn ctx_table(&self, ctx: &Ctx) -> mlua::Result<Table> {
        let t = self.lua.create_table()?;
        t.raw_set("self", super::bridge::handle(&self.lua, ctx.bearer)?)?;
        if let Some(target) = ctx.target {
            t.raw_set("target", super::bridge::handle(&self.lua, target)?)?;
        }
        t.raw_set("cause", ctx.cause)?;
        Ok(t)
    }

    fn args_table(&self, args: &BTreeMap<String, Value>) -> mlua::Result<Table> {
        let t = self.lua.create_table()?;
        for (k, v) in args {
            t.raw_set(k.as_str(), super::bridge::to_lua(&self.lua, v)?)?;
        }
        Ok(t)
    }

    /// The function a script registered as the action or check `id`, and its mod's index, unless
    /// it is switched off.
    fn registered(
        &self,
        kind: &str,
        table: impl Fn(&Shared) -> &BTreeMap<Id, Registered>,
        id: &Id,
    ) -> Result<(Function, usize), String> {
        let shared = self.shared.borrow();
        let r = table(&shared).get(id).ok_or_else(|| {
            let names = table(&shared).keys().map(Id::as_str);
            let help = crate::diag::did_you_mean_suffix(id.as_str(), names);
            format!("no script registers the {kind} `{id}`{help}")
        })?;
        if r.stopped & super::SWITCHED_OFF != 0 {
            return Err(format!(
                "the {kind} `{id}` did not run: the host switched the scripts of mod `{}` off",
                r.mod_id
            ));
        }
        if r.quarantined() {
            return Err(format!(
                "the {kind} `{id}` {} {QUARANTINE_AFTER} failures in a row; reload to retry",
                crate::game::SWITCHED_OFF
            ));
        }
        let index = self
            .mods
            .iter()
            .position(|m| m.id == r.mod_id)
            .ok_or_else(|| format!("the {kind} `{id}` has no mod"))?;
        Ok((r.func.clone(), index))
    }

    /// Counts a failure or a success of a registered function; the fifth failure in a row
    /// switches it off, with a warning when `game` is there to take one.
    fn count_failure(
        &self,
        find: impl Fn(&mut Shared) -> Option<&mut Registered>,
        failed: bool,
        game: Option<&mut Game>,
        what: &str,
    ) {
        let mut shared = self.shared.borrow_mut();
        let Some(r) = find(&mut shared) else { return };
        if !failed {
            r.failures = 0;
            return;
        }
        r.failures += 1;
        if r.failures >= QUARANTINE_AFTER && !r.quarantined() {
            r.stop(super::QUARANTINED, true);
            let mod_id = r.mod_id.clone();
            drop(shared);
            if let Some(game) = game {
                game.report(Diagnostic::warning(Code::Script, format!(
                    "[{mod_id}] the {what} failed {QUARANTINE_AFTER} times in a row and is switched off until the next reload"
                )).of_mod(&mod_id));
            }
        }
    }

    /// The `ctx` and `args` tables a registered action or check is called with, made on lantern's
    /// own memory account.
    fn call_tables(
        &self,
        ctx: &Ctx,
        args: &BTreeMap<String, Value>,
    ) -> Result<(mlua::Table, mlua::Table), String> {
        let _host = self.accounts.charge_to(Owner::HOST);
        Ok((
            self.ctx_table(ctx).map_err(|e| e.to_string())?,
            self.args_table(args).map_err(|e| e.to_string())?,
        ))
    }

    /// Runs a Lua-registered action (from a TOML action list). Its failure is reported here, at
    /// the script's line, and returned as already reported.
    fn call_action(
        &mut self,
        game: &mut Game,
        id: &Id,
        args: &BTreeMap<String, Value>,
        ctx: &Ctx,
    ) -> Result<(), crate::Error> {
        let (func, index) = self.registered("action", |s| &s.actions, id)?;
        let (ctx_t, args_t) = self.call_tables(ctx, args)?;
        let (lua, lender) = (&self.lua, &self.lender);
        self.mods[index].last = Some(super::Called::Function(func.clone()));
        let result = call_mod(
            lua,
            &self.budget,
            self.accounts,
            &mut self.mods[index],
            || lender.lend(game, || func.call::<()>((ctx_t, args_t))),
        );
        self.count_failure(
            |s| s.actions.get_mut(id),
            result.is_err(),
            Some(game),
            &format!("action `{id}`"),
        );
        result.map_err(|e| {
            let mod_id = self.mods[index].id.clone();
            let d = self.error_in(
                &mod_id,
                &format!("the action `{id}` failed"),
                &e,
                Some(&game.current_chain()),
                Some(&func),
            );
            let message = d.message.clone();
            game.report(d);
            crate::Error::Reported(message)
        })
    }
}

impl ScriptHost for LuaRuntime {
    fn listens(&self, kind: crate::content::EventKey) -> bool {
        // Busy (a handler running registers no others): say yes, as the trait allows.
        self.shared.try_borrow().map_or(true, |shared| {
            shared
                .by_event
                .get(kind.0 as usize)
                .is_some_and(|list| !list.is_empty())
        })
    }

    fn on_event(&mut self, game: &mut Game, event: &Event) {
        let calls = {
            let shared = self.shared.borrow();
            match shared.by_event.get(event.kind.0 as usize) {
                Some(list) if !list.is_empty() => list.clone(),
                _ => return,
            }
        };
        // Handlers that failed now or had failed before, with the error if they failed now: the
        // common case (every handler ran and none ever failed) allocates nothing.
        let mut outcomes: Vec<(usize, Option<mlua::Error>)> = Vec::new();
        let (lua, budget, shared, mods, accounts, profile) = (
            &self.lua,
            &self.budget,
            &self.shared,
            &mut self.mods,
            self.accounts,
            &mut self.profile,
        );
        // One view per event, shared by its handlers; the game is lent once for all of them.
        let lent = self.views.deliver(event, |view| {
            self.lender.lend(game, || {
                // Handlers come grouped by mod: its account stays charged across its group, so
                // the calls themselves change nothing.
                let mut group: Option<(Owner, super::memory::Charging)> = None;
                for call in calls.iter() {
                    let failures = {
                        let shared = shared.borrow();
                        let r = &shared.handlers[call.handler].registered;
                        // Quarantined, its mod switched off by the host, or profiled.
                        if r.stopped != 0 {
                            let (failures, profiled) = (r.failures, r.stopped == super::PROFILED);
                            drop(shared);
                            if profiled {
                                let group = &mut group;
                                let mut run = super::profile::Run {
                                    lua,
                                    budget,
                                    accounts,
                                    mods: &mut *mods,
                                    group,
                                    outcomes: &mut outcomes,
                                    view: &view,
                                };
                                run.profiled(call, failures, profile);
                            }
                            continue;
                        }
                        r.failures
                    };
                    call_handler!(
                        lua, budget, accounts, mods, &mut group, outcomes, &view, call, failures
                    );
                }
                Ok(())
            })
        });
        if let Err(e) = lent.and_then(|lent| lent) {
            let name = &game.content().events.get(event.kind).name;
            let d = Diagnostic::error(
                Code::Script,
                format!("cannot run the handlers of `{name}`: {e}"),
            );
            game.report(d);
        }
        for (i, error) in outcomes {
            let (mod_id, func) = {
                let shared = self.shared.borrow();
                let r = &shared.handlers[i].registered;
                (r.mod_id.clone(), r.func.clone())
            };
            let name = game.content().events.get(event.kind).name.clone();
            if let Some(e) = &error {
                let d = self.error_in(
                    &mod_id,
                    &format!("a handler of `{name}` failed"),
                    e,
                    Some(&game.current_chain()),
                    Some(&func),
                );
                game.report(d);
            }
            // It failed now or had failed before: count it, or reset its count.
            self.count_failure(
                |s| s.handlers.get_mut(i).map(|h| &mut h.registered),
                error.is_some(),
                Some(game),
                &format!("handler of `{name}`"),
            );
        }
    }

    fn settle(&mut self, game: &mut Game) {
        // A mod's own budget is its own news; the game's budget, deadline or interrupt is one
        // cause for every mod it stopped, said once.
        let mut stopped_all: Vec<String> = Vec::new();
        let mut skipped_all = 0;
        let mut why = super::budget::Bound::Game;
        for m in self.mods.iter().filter(|m| m.skipped > 0) {
            let bound = self.budget.stopped_by(m.turn_used);
            if bound == super::budget::Bound::Turn {
                game.report(
                    Diagnostic::warning(
                        Code::Script,
                        format!(
                            "[{}] {} of its handlers did not run this turn: {}",
                            m.id,
                            m.skipped,
                            self.budget.spent_message(m.turn_used)
                        ),
                    )
                    .of_mod(&m.id),
                );
            } else {
                stopped_all.push(m.id.to_string());
                skipped_all += m.skipped;
                why = bound;
            }
        }
        if !stopped_all.is_empty() {
            game.report(Diagnostic::warning(
                Code::Script,
                format!(
                    "{skipped_all} handlers of {} did not run this turn: {}",
                    stopped_all.join(", "),
                    self.budget.spent_by(why)
                ),
            ));
        }
        self.new_turn();
        self.write_storage(game);
        self.take_switches(game);
    }

    fn costs(&self) -> Vec<crate::game::ModCost> {
        let shared = self.shared.borrow();
        self.mods
            .iter()
            .map(|m| {
                let mine = || {
                    shared
                        .handlers
                        .iter()
                        .map(|h| &h.registered)
                        .filter(|r| r.mod_id == m.id.as_str())
                };
                crate::game::ModCost {
                    id: m.id.to_string(),
                    instructions: m.spent.saturating_add(m.turn_used),
                    memory: self.accounts.used(m.owner),
                    handlers: mine().count(),
                    failing: mine()
                        .filter(|r| r.failures > 0 && !r.quarantined())
                        .count(),
                    quarantined: mine().filter(|r| r.quarantined()).count(),
                    switched_off: m.off,
                    problems: 0,
                }
            })
            .collect()
    }

    fn interrupter(&self) -> Option<crate::game::Interrupter> {
        Some(self.budget.interrupter())
    }

    fn work(&self) -> u64 {
        // What turns before this one ran, and what this one has run so far.
        self.mods
            .iter()
            .fold(self.work, |sum, m| sum.saturating_add(m.turn_used))
    }

    fn begin_turn(&mut self, game: &mut Game) {
        self.take_switches(game);
    }

    fn set_profiling(&mut self, on: bool) {
        LuaRuntime::set_profiling(self, on);
    }

    fn handler_costs(&self) -> Vec<crate::game::HandlerCost> {
        LuaRuntime::handler_costs(self)
    }

    fn attach(&mut self, game: &mut Game) {
        self.take_switches(game);
        self.attach_storage(game);
        self.run_on_update(game);
    }

    fn checkpoint(&mut self, _game: &mut Game) {
        self.open_journal();
    }

    fn commit(&mut self, game: &mut Game) {
        self.close_journal(game, false);
    }

    fn roll_back(&mut self, game: &mut Game) {
        self.close_journal(game, true);
    }

    fn action(
        &mut self,
        game: &mut Game,
        id: &Id,
        args: &BTreeMap<String, Value>,
        ctx: &Ctx,
    ) -> Result<(), crate::Error> {
        self.call_action(game, id, args, ctx)
    }

    fn check(
        &mut self,
        game: &Game,
        id: &Id,
        args: &BTreeMap<String, Value>,
        ctx: &Ctx,
    ) -> Result<bool, crate::Error> {
        let (func, index) = self.registered("check", |s| &s.checks, id)?;
        let (ctx_t, args_t) = self.call_tables(ctx, args)?;
        let (lua, lender) = (&self.lua, &self.lender);
        let result = call_mod(
            lua,
            &self.budget,
            self.accounts,
            &mut self.mods[index],
            || lender.lend_ref(game, || func.call::<mlua::Value>((ctx_t, args_t))),
        )
        .and_then(check_answer);
        self.count_failure(
            |s| s.checks.get_mut(id),
            result.is_err(),
            None,
            &format!("check `{id}`"),
        );
        result.map_err(|e| {
            let mod_id = &self.mods[index].id;
            let (message, _) = super::describe(&e);
            crate::Error::Refused(format!("[{mod_id}] the check `{id}` failed: {message}"))
        })
    }
}

/// A check's answer: `true` or `false`, and nothing else. Lua would take any value but `nil` and
/// `false` as true, so a check that returns a count (`return n`, true at 0) or forgets to return
/// (`nil`, false always) would pass in silence.
fn check_answer(answer: mlua::Value) -> mlua::Result<bool> {
    let shown = match &answer {
        mlua::Value::Boolean(b) => return Ok(*b),
        mlua::Value::Nil => "nothing".to_string(),
        mlua::Value::Integer(n) => format!("the number {n}"),
        mlua::Value::Number(n) => format!("the number {n}"),
        mlua::Value::String(s) => {
            // Only its first bytes are read: a script's answer may be megabytes long.
            let bytes = s.as_bytes();
            let head = String::from_utf8_lossy(&bytes[..bytes.len().min(160)]);
            let cut: String = head.chars().take(40).collect();
            let more = if cut.len() < bytes.len() { "..." } else { "" };
            format!("the string \"{}{more}\"", crate::diag::visible(&cut))
        }
        other => format!("a {}", other.type_name()),
    };
    Err(mlua::Error::runtime(format!(
        "it returned {shown}, not true or false: a check answers with a boolean (`return count > 0`, \
         `return ev.item ~= nil`)"
    )))
}
