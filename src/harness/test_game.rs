//! A test game's core: the game it drives with what its problems point into, and the helpers its
//! methods are made with: each charged to the test's budget, a driving one with what the game's
//! work cost, its errors placed at the test's line. The method tables (`game`, `hazard_game`)
//! are built on these.

use crate::diag::SourceMap;
use crate::game::{Game, Outcome};
use crate::id::Id;
use crate::lua::price::{charge, charged};
use atomic_refcell::AtomicRefCell;
use mlua::{FromLuaMulti, Lua, MultiValue};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::Arc;

/// A game under test, with the source map its problems point into.
pub(crate) struct TestGame {
    pub(super) game: Game,
    /// What `g:apply` validates against: the content and the actions and checks its scripts
    /// registered, made the first time a test applies one (every ID of a large pack is a table
    /// a test that never calls `g:apply` should not pay for).
    pub(super) symbols: std::sync::OnceLock<crate::content::resolve::Symbols>,
    /// The actions and checks its scripts registered, for `symbols`.
    pub(super) registered: crate::content::Extensions,
    pub(super) sources: SourceMap,
    pub(super) output: Arc<AtomicRefCell<Vec<String>>>,
    /// How many games of this test file are alive, this one included.
    pub(super) live: Arc<AtomicUsize>,
    /// What this game said, for `g:messages()` (the test's report has every game's lines).
    pub(super) said: Vec<String>,
    /// The game's own world, made fresh for this test game when the game says how
    /// (`WorldHooks::fresh`), and lent to it around every call that drives it.
    pub(super) world: Option<Box<dyn std::any::Any + Send>>,
    /// The namespace a bare ID in the test's calls belongs to: the test file's mod's, as in
    /// that mod's data and scripts (the game's home mod's for a file under `scripts/`).
    pub(super) home: String,
    /// Which game of the process this is: what its unread problems are kept by.
    pub(super) serial: u64,
    /// Where its costs go when it ends, when the run is profiled.
    pub(super) costs: Option<Arc<std::sync::Mutex<Vec<super::GameCosts>>>>,
}

/// The next test game's serial.
pub(super) static SERIAL: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

impl Drop for TestGame {
    fn drop(&mut self) {
        self.live.fetch_sub(1, Relaxed);
        if let Some(costs) = &self.costs {
            let g = &self.game;
            let spent = (g.script_costs(), g.handler_costs(), g.events_handled());
            if let Ok(mut costs) = costs.lock() {
                costs.push(spent);
            }
        }
    }
}

/// What the running test's games have cost it so far: how many it made, and the units making
/// and driving them were charged (the rest of its budget is its own code's). Read when the test
/// runs out of budget, so its message says what was spent.
#[derive(Default, Clone, Copy)]
pub(super) struct Spent {
    pub(super) games: u64,
    pub(super) units: u64,
}

/// What the running test's games reported and the test never read (`g:problems()`): per game (by
/// its serial), the test line whose call made the first of them and that
/// problem. A test that leaves any has failed there: a handler that fails during a test must not
/// pass with it.
#[derive(Default)]
pub(super) struct Unheard(BTreeMap<u64, (Option<(String, usize)>, String)>);

impl Unheard {
    /// The first problem left, as the test's failure.
    pub(super) fn failure(&self) -> Option<mlua::Error> {
        let (at, message) = self.0.values().next()?;
        let at = at
            .as_ref()
            .map(|(f, l)| format!("{f}:{l}: "))
            .unwrap_or_default();
        Some(mlua::Error::runtime(format!(
            "{at}the game reported a problem during this call, and the test never read it \
             (read it with `g:problems()` when the test expects it): {message}"
        )))
    }
}

/// After a call drove `this`: its problems not yet read are noted with the test line of the call
/// that made the first of them; none left (the test read them) forgets the game's.
pub(super) fn note_problems(lua: &Lua, this: &TestGame, before: usize) {
    let Some(mut unheard) = lua.app_data_mut::<Unheard>() else {
        return;
    };
    let key = this.serial;
    let pending = this.game.pending_problems();
    if pending.is_empty() {
        unheard.0.remove(&key);
    } else if pending.len() > before && !unheard.0.contains_key(&key) {
        let first = &pending[before.min(pending.len() - 1)];
        let message = crate::diag::visible(&first.message).into_owned();
        unheard
            .0
            .insert(key, (crate::lua::report::call_site(lua), message));
    }
}

/// Charges `units` of a test game's work to the test, and counts it as its games' spending.
pub(super) fn charge_game(lua: &Lua, units: usize) -> mlua::Result<()> {
    if let Some(mut spent) = lua.app_data_mut::<Spent>() {
        spent.units = spent.units.saturating_add(units as u64);
    }
    charge(lua, units)
}

impl TestGame {
    /// Runs `f` with the test game's own world lent to its game, if it has one.
    pub(super) fn with_world<R>(&mut self, f: impl FnOnce(&mut TestGame) -> R) -> R {
        let Some(mut world) = self.world.take() else {
            return f(self);
        };
        let result = {
            let _lent = crate::game::lend_dyn(&self.game, world.as_mut());
            self.game.settle_world();
            let result = f(self);
            self.game.flush_world();
            result
        };
        self.world = Some(world);
        result
    }

    /// Messages and problems go to the test's output, so a failing test shows what happened.
    /// Takes the game's lines: into the test's report, and into this game's own `g:messages()`.
    pub(super) fn flush(&mut self) {
        let mut out = self.output.borrow_mut();
        for m in self.game.take_messages() {
            out.push(m.clone());
            self.said.push(m);
        }
    }
}

/// A method of a test game that may drive it (a command, a turn): charged to the test's budget
/// like any of lantern's functions, and with what driving the game cost (its scripts'
/// instructions and the events it handled), so a test looping over `g:emit` is stopped by its
/// budget as a loop of anything else is.
pub(super) fn driving<A: FromLuaMulti, R>(
    f: impl Fn(&Lua, &mut TestGame, A) -> mlua::Result<R>,
) -> impl Fn(&Lua, &mut TestGame, MultiValue) -> mlua::Result<R> {
    move |lua, this, args| {
        let before = this.game.work();
        let problems = this.game.pending_problems().len();
        let result = charged(lua, || {
            let args = arguments(lua, args)?;
            this.with_world(|this| f(lua, this, args))
        });
        note_problems(lua, this, problems);
        let work = this.game.work().saturating_sub(before);
        charge_game(lua, usize::try_from(work).unwrap_or(usize::MAX))?;
        result
    }
}

/// A method that only reads, charged like any of lantern's functions.
pub(super) fn reading<T, A: FromLuaMulti, R>(
    f: impl Fn(&Lua, &T, A) -> mlua::Result<R>,
) -> impl Fn(&Lua, &T, MultiValue) -> mlua::Result<R> {
    move |lua, this, args| charged(lua, || f(lua, this, arguments(lua, args)?))
}

/// A method's arguments, read after their text is charged by its length (reading text as Rust's
/// copies it), numbered as the test wrote them (the game is #1).
pub(super) fn arguments<A: FromLuaMulti>(lua: &Lua, args: MultiValue) -> mlua::Result<A> {
    crate::lua::price::charge_arguments(lua, &args)?;
    A::from_lua_args(args, 2, None, lua)
}

/// A field, charged like any of lantern's functions.
pub(super) fn reading_field<T, R>(
    f: impl Fn(&Lua, &T) -> mlua::Result<R>,
) -> impl Fn(&Lua, &T) -> mlua::Result<R> {
    move |lua, this| charged(lua, || f(lua, this))
}

pub(super) fn check(lua: &Lua, r: Result<Outcome, crate::Error>) -> mlua::Result<()> {
    r.map(|_| ()).map_err(|e| located(lua, e.into()))
}

/// An error placed at the test line that made the call.
pub(super) fn located(lua: &Lua, message: String) -> mlua::Error {
    let at = crate::lua::report::call_site(lua)
        .map(|(f, l)| format!("{f}:{l}: "))
        .unwrap_or_default();
    mlua::Error::runtime(format!("{at}{message}"))
}

pub(super) fn id(text: &str, home: &str) -> mlua::Result<Id> {
    Id::parse(text, home).ok_or_else(|| mlua::Error::runtime(format!("`{text}` is not an ID")))
}

/// An ID that must name something in `registry`, so a typo in a test fails with "did you mean"
/// instead of quietly counting zero of an item that does not exist.
pub(super) fn known<V>(
    lua: &Lua,
    game: &TestGame,
    registry: impl Fn(&crate::content::Content) -> &crate::content::Registry<V>,
    text: &str,
    kind: &str,
) -> mlua::Result<Id> {
    crate::content::find_id(registry(game.game.content()), text, &game.home, kind)
        .map_err(|e| located(lua, e.into()))
}
