//! The host's switches over a mod set's scripts: one per mod, shared by every game of the set,
//! read by each game when it starts, when a turn begins and when its events are handled.
//!
//! A server's policy (a mod that failed or overran in too many sessions) turns a mod's scripts off
//! in every game at once, from any thread; each game takes the change at its next turn's
//! boundary, so what a turn does never depends on when another thread flipped a switch, and says
//! so once. A game looks at one counter of flips, and at the switches only when it moved.

use super::LuaRuntime;
use crate::diag::{Code, Diagnostic};
use crate::game::Game;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

/// One switch per mod of a set, by mod ID; on (`false`) until the host turns it off.
#[derive(Default)]
pub(crate) struct Switches {
    off: Vec<(Box<str>, AtomicBool)>,
    /// How many times a switch was flipped: a game whose count is this one's has nothing to do.
    flips: AtomicU64,
}

impl Switches {
    /// A switch, on, for each of `mods`.
    pub(crate) fn new<'a>(mods: impl Iterator<Item = &'a str>) -> Switches {
        Switches {
            off: mods.map(|id| (id.into(), AtomicBool::new(false))).collect(),
            flips: AtomicU64::new(0),
        }
    }

    /// Turns the scripts of `mod_id` off (`off`) or on again; whether the set has that mod.
    pub(crate) fn set(&self, mod_id: &str, off: bool) -> bool {
        let Some(switch) = self.find(mod_id) else {
            return false;
        };
        switch.store(off, Ordering::SeqCst);
        self.flips.fetch_add(1, Ordering::SeqCst);
        true
    }

    /// The mods switched off, in load order.
    pub(crate) fn off(&self) -> impl Iterator<Item = &str> {
        self.off
            .iter()
            .filter(|(_, s)| s.load(Ordering::SeqCst))
            .map(|(id, _)| &**id)
    }

    fn find(&self, mod_id: &str) -> Option<&AtomicBool> {
        self.off
            .iter()
            .find(|(id, _)| &**id == mod_id)
            .map(|(_, s)| s)
    }
}

impl LuaRuntime {
    /// Follows `switches` from now on: each mod's scripts run while its switch is on.
    pub(crate) fn follow(&mut self, switches: Arc<Switches>) {
        // Never looked: the first look reads every switch.
        self.switches = Some((switches, u64::MAX));
    }

    /// Takes each switch's position for the turn under way, saying so for each mod whose
    /// switch moved since the game last looked.
    pub(crate) fn take_switches(&mut self, game: &mut Game) {
        let Some((switches, seen)) = &mut self.switches else {
            return;
        };
        let flips = switches.flips.load(Ordering::SeqCst);
        if flips == *seen {
            return;
        }
        *seen = flips;
        for m in &mut self.mods {
            let off = switches
                .find(&m.id)
                .is_some_and(|s| s.load(Ordering::SeqCst));
            if off == m.off {
                continue;
            }
            m.off = off;
            {
                let mut shared = self.shared.borrow_mut();
                let shared = &mut *shared;
                let handlers = shared.handlers.iter_mut().map(|h| &mut h.registered);
                let registered = handlers
                    .chain(shared.actions.values_mut())
                    .chain(shared.checks.values_mut());
                for r in registered.filter(|r| r.mod_id == m.id) {
                    r.stop(super::SWITCHED_OFF, off);
                }
            }
            let said = if off {
                "the host switched its scripts off: its handlers, actions, checks and hooks do not run in this game until it switches them on"
            } else {
                "the host switched its scripts on again"
            };
            game.report(
                Diagnostic::warning(Code::Script, format!("[{}] {said}", m.id)).of_mod(&m.id),
            );
        }
    }
}
