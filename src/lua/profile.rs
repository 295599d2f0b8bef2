//! Profiling the scripts by handler: while a game's scripts are profiled
//! ([`Game::profile_scripts`]), each handler's calls, instructions and time are counted, for
//! `lantern play`'s `profile` and `lantern test --profile`.
//!
//! A profiled handler carries [`PROFILED`](super::PROFILED) in the byte the event loop already
//! tests to skip a quarantined one, so the loop pays nothing while no game is profiled: a
//! profiled handler is called from that rarely taken branch, with its counting around it.

use super::budget::Budget;
use super::memory::{Accounts, Charging, Owner};
use super::{Listener, LuaRuntime, ModScript, PROFILED};
use crate::game::HandlerCost;
use std::time::{Duration, Instant};

/// What one handler has cost since profiling began.
#[derive(Default, Clone, Copy)]
pub(crate) struct Tally {
    calls: u64,
    instructions: u64,
    time: Duration,
}

/// What the event loop runs a handler with ([`call_handler`](super::call::call_handler)).
pub(super) struct Run<'a> {
    pub(super) lua: &'a mlua::Lua,
    pub(super) budget: &'a Budget,
    pub(super) accounts: Accounts,
    pub(super) mods: &'a mut Vec<ModScript>,
    pub(super) group: &'a mut Option<(Owner, Charging)>,
    pub(super) outcomes: &'a mut Vec<(usize, Option<mlua::Error>)>,
    pub(super) view: &'a mlua::Value,
}

impl Run<'_> {
    /// A handler's call as the event loop makes it, counted into `profile` by its index.
    #[cold]
    #[inline(never)]
    pub(super) fn profiled(&mut self, call: &Listener, failures: u32, profile: &mut Vec<Tally>) {
        let before = self.used(call);
        let start = Instant::now();
        let ran = super::call::call_handler!(
            self.lua,
            self.budget,
            self.accounts,
            self.mods,
            self.group,
            self.outcomes,
            self.view,
            call,
            failures
        );
        let time = start.elapsed();
        if !ran {
            return;
        }
        if profile.len() <= call.handler {
            profile.resize(call.handler + 1, Tally::default());
        }
        let t = &mut profile[call.handler];
        t.calls += 1;
        t.instructions += self.used(call).saturating_sub(before);
        t.time += time;
    }

    /// What the mod of the handler `call` has run this turn.
    fn used(&self, call: &Listener) -> u64 {
        call.script
            .and_then(|i| self.mods.get(i))
            .map_or(0, |m| m.turn_used)
    }
}

impl LuaRuntime {
    /// Profiles every handler from now on (`true`), or none; what was counted stays.
    pub(crate) fn set_profiling(&mut self, on: bool) {
        let mut shared = self.shared.borrow_mut();
        for h in &mut shared.handlers {
            h.registered.stop(PROFILED, on);
        }
    }

    /// What each handler profiled so far has cost, in the order they were registered.
    pub(crate) fn handler_costs(&self) -> Vec<HandlerCost> {
        let shared = self.shared.borrow();
        (self.profile.iter().enumerate())
            .filter(|(_, t)| t.calls > 0)
            .filter_map(|(i, t)| {
                let h = shared.handlers.get(i)?;
                Some(HandlerCost {
                    mod_id: h.registered.mod_id.clone(),
                    event: h.event.clone(),
                    at: h.site.clone(),
                    calls: t.calls,
                    instructions: t.instructions,
                    time: t.time,
                })
            })
            .collect()
    }
}
