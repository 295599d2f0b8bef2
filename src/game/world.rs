//! The game's own world (an engine's ECS world, or any type it keeps outside lantern), lent to a
//! game for a while ([`Game::with_world`]).
//!
//! While it is lent, the game's actions, checks, Lua functions and handlers read it, and its
//! actions defer changes to it ([`Effects::defer`](crate::host::Effects::defer)): a change is
//! kept with the action list that made it, dropped when the list (or the verb around it) fails,
//! and applied to the world when the turn ends, in the order the changes were made (as an
//! engine's command buffer is). With hooks declared ([`Vocabulary::world`]), the state hash and a
//! save cover the world, a loaded save puts it back the first time it is lent, and a reload
//! reconciles it with the new content.
//!
//! The loan is a pointer kept on the lending thread for exactly the length of `with_world`, and
//! only for the game it was lent to: nothing that outlives the call can reach it.
//!
//! [`Vocabulary::world`]: crate::host::Vocabulary::world

use super::Game;
use crate::diag::{Code, Diagnostic};
use std::any::Any;
use std::cell::Cell;
use std::ptr::NonNull;

/// The most work one mod may defer into the game's world in one turn, in units (a change is one,
/// or what the game says it weighs: `Effects::defer_units`). A handler that calls a game's action
/// in a loop would otherwise make lantern hold changes without end, and the world grow with them
/// when the turn ends (a colony recruiting 2,000 times a day reached 3.77 GB). Past it the action
/// fails, naming the mod, and its list with it.
pub const MOST_DEFERRED: u64 = 10_000;

/// The most work all mods together may defer into the game's world in one turn, in units: ten
/// mods at their [`MOST_DEFERRED`]. A mod set of many mods each under its own bound would
/// otherwise make lantern hold changes in proportion to the number of mods. Past it the action
/// fails, naming the mod that crossed it and the mod that deferred most.
pub const MOST_DEFERRED_IN_TURN: u64 = 10 * MOST_DEFERRED;

/// A change to the lent world, deferred until the turn ends.
type Deferred = Box<dyn FnOnce(&mut dyn Any) + Send>;

/// What a game keeps about the world lent to it: the changes its actions deferred, and what a
/// loaded save or a reload left to do to the world the next time it is lent.
#[derive(Default)]
pub(super) struct Loan {
    deferred: Vec<Deferred>,
    /// What each mod (or the game's own commands) deferred since the turn began, in units
    /// ([`MOST_DEFERRED`]).
    units: std::collections::BTreeMap<String, u64>,
    /// What all of them deferred since the turn began ([`MOST_DEFERRED_IN_TURN`]).
    total: u64,
    /// The world a loaded save held, put back into the world when it is next lent.
    pub(super) saved: Option<serde_json::Value>,
    /// The content changed (a reload) while no world was lent: reconcile it when it is.
    reconcile: bool,
}

/// The mod a cause belongs to: `rats` for `lua:rats` and for a trigger or quest of `rats`
/// (`rats:thorns`); a player's command is its own (`give`).
fn owner_of(cause: &str) -> &str {
    let cause = cause.strip_prefix("lua:").unwrap_or(cause);
    cause.split_once(':').map_or(cause, |(owner, _)| owner)
}

/// A world lent on this thread: to which game (its address), and where the world is.
#[derive(Clone, Copy)]
struct Lent {
    game: *const Game,
    world: NonNull<dyn Any>,
}

thread_local! {
    /// The loan running on this thread, if any; set and put back by `with_world` around its
    /// closure, so it never outlives the borrow of the world it points to.
    static LENT: Cell<Option<Lent>> = const { Cell::new(None) };
}

/// Puts back the loan a `with_world` interrupted, even if its closure unwinds.
struct EndLoan(Option<Lent>);

impl Drop for EndLoan {
    fn drop(&mut self) {
        LENT.with(|l| l.set(self.0));
    }
}

/// Lends `world` to the game at `game`'s address, on this thread, until the guard drops. The
/// caller holds `world`'s `&mut` for at least as long as the guard.
pub(crate) fn lend<W: Any>(game: &Game, world: &mut W) -> impl Drop {
    lend_dyn(game, world)
}

/// [`lend`] for a world whose type is erased (a test game's).
pub(crate) fn lend_dyn(game: &Game, world: &mut dyn Any) -> impl Drop {
    let lent = Lent {
        game: std::ptr::from_ref(game),
        world: NonNull::from(world),
    };
    EndLoan(LENT.with(|l| l.replace(Some(lent))))
}

impl Game {
    /// Lends the game's own world (its engine's `World`, or any type it keeps) to lantern while
    /// `f` runs: the game's actions, checks, Lua functions and handlers read it
    /// ([`Effects::world`](crate::host::Effects::world)), and its actions defer changes to it,
    /// applied when each turn ends (and, for what is left, when `f` returns). With the world's
    /// hooks declared ([`Vocabulary::world`](crate::host::Vocabulary::world)), the hash and a save
    /// made inside cover it, a save loaded before is put back into it first, and a reload made
    /// since is reconciled with it first (what either dropped becomes a warning among the game's
    /// problems).
    ///
    /// ```
    /// # let rules = lantern::host::Rules::empty();
    /// let mut game = lantern::load::load_game(&[], &rules, Default::default()).start(1);
    /// let mut colony: Vec<u32> = vec![1, 2, 3];
    /// let seen = game.with_world(&mut colony, |g| g.world::<Vec<u32>>().map(|c| c.len()));
    /// assert_eq!(seen, Some(3));
    /// assert!(game.world::<Vec<u32>>().is_none(), "lent only while the closure runs");
    /// ```
    pub fn with_world<W: Any, R>(&mut self, world: &mut W, f: impl FnOnce(&mut Game) -> R) -> R {
        let _end = lend(self, world);
        self.settle_world();
        let result = f(self);
        self.flush_world();
        result
    }

    /// The world lent to this game now, if it is a `W`.
    pub fn world<W: Any>(&self) -> Option<&W> {
        // SAFETY: a loan for this game is on this thread only while `with_world` runs, which
        // holds the world's `&mut` for that long and lends it to nothing else; the reference
        // returned borrows the game, which `with_world`'s closure holds, so it ends before the
        // loan does. Changes to the world are made only by `flush_world`, which takes `&mut self`
        // and so cannot run while this reference lives.
        self.lent().map(|w| unsafe { w.as_ref() })?.downcast_ref()
    }

    /// The world lent to this game now, to change directly: for the game's own code around
    /// lantern's turns (a verb that runs the engine's systems on it). Unlike an action's
    /// deferred change, what is changed through it is not undone when the verb fails.
    pub fn world_mut<W: Any>(&mut self) -> Option<&mut W> {
        // SAFETY: as in `world`; `&mut self` means no reference made from the loan lives, and
        // the one made here borrows the game mutably, so none is made while it lives.
        self.lent()
            .map(|mut w| unsafe { w.as_mut() })?
            .downcast_mut()
    }

    /// The type-erased world lent to this game on this thread.
    fn lent(&self) -> Option<NonNull<dyn Any>> {
        LENT.with(Cell::get)
            .filter(|l| std::ptr::eq(l.game, self))
            .map(|l| l.world)
    }

    /// Keeps a change to the lent world until the turn ends; `Err` when no world of this type is
    /// lent (the game's action then fails, and its list with it).
    /// `units` is what the change weighs, counted against its cause's mod (`lua:rats` and
    /// `rats:...` are `rats`'s; a player's command is the game's) for the turn.
    pub(crate) fn defer_world<W: Any>(
        &mut self,
        cause: &str,
        units: u32,
        change: impl FnOnce(&mut W) + Send + 'static,
    ) -> Result<(), String> {
        if self.world::<W>().is_none() {
            return Err(self.not_lent(std::any::type_name::<W>()));
        }
        let owner = owner_of(cause);
        let used = self.loan.units.get(owner).copied().unwrap_or(0);
        let units = u64::from(units.max(1));
        if used + units > MOST_DEFERRED {
            return Err(format!(
                "`{owner}` deferred {used} units of changes to the game's world this turn, and this \
                 one of {units} would pass the {MOST_DEFERRED} a mod may defer in a turn (does a \
                 handler call the game's action in a loop?)"
            ));
        }
        if self.loan.total + units > MOST_DEFERRED_IN_TURN {
            let (most, most_units) = self
                .loan
                .units
                .iter()
                .max_by_key(|(_, u)| **u)
                .map_or(("", 0), |(m, u)| (m.as_str(), *u));
            return Err(format!(
                "`{owner}`'s change of {units} unit{} would pass the {MOST_DEFERRED_IN_TURN} all mods \
                 together may defer to the game's world in a turn ({} deferred so far; most by \
                 `{most}`, {most_units})",
                if units == 1 { "" } else { "s" },
                self.loan.total
            ));
        }
        self.loan.total += units;
        match self.loan.units.get_mut(owner) {
            Some(u) => *u += units,
            None => {
                self.loan.units.insert(owner.to_string(), units);
            }
        }
        self.loan.deferred.push(Box::new(move |w: &mut dyn Any| {
            if let Some(w) = w.downcast_mut::<W>() {
                change(w);
            }
        }));
        Ok(())
    }

    /// Why a world of `type_name` cannot be reached now.
    pub(crate) fn not_lent(&self, type_name: &str) -> String {
        match self.lent() {
            None => format!(
                "the game's world (`{type_name}`) is not lent to this game now: run the game \
                 inside `Game::with_world`"
            ),
            Some(_) => format!("the world lent to this game is not a `{type_name}`"),
        }
    }

    /// The game's code, the rules' that loaded its content: what a save read for it, or a
    /// reload, keeps.
    pub(crate) fn code(&self) -> &std::sync::Arc<super::code::Code> {
        &self.code
    }

    /// Runs `code` from now on: a game moved to a set runs the set's rules' code.
    pub(crate) fn set_code(&mut self, code: std::sync::Arc<super::code::Code>) {
        self.code = code;
    }

    /// How many changes are deferred: a transaction's undo point.
    pub(super) fn deferred_len(&self) -> usize {
        self.loan.deferred.len()
    }

    /// Drops the changes deferred since an undo point (its transaction failed).
    pub(super) fn drop_deferred(&mut self, since: usize) {
        self.loan.deferred.truncate(since);
    }

    /// Applies the deferred changes to the lent world, in order (the turn ended).
    pub(crate) fn flush_world(&mut self) {
        self.loan.units.clear();
        self.loan.total = 0;
        if self.loan.deferred.is_empty() {
            return;
        }
        let Some(mut world) = self.lent() else {
            return;
        };
        for change in std::mem::take(&mut self.loan.deferred) {
            // SAFETY: as in `world`: the loan is this game's and alive; `&mut self` here means no
            // reference made by `world` lives, and none is made while the changes run (they get
            // the world, not the game).
            change(unsafe { world.as_mut() });
        }
    }

    /// Puts a loaded save's world back and reconciles it (after a load or a reload), the first
    /// time a world is lent since.
    pub(crate) fn settle_world(&mut self) {
        let Some(hooks) = self.code.world() else {
            return;
        };
        let Some(mut world) = self.lent() else {
            return;
        };
        let content = self.content.clone();
        let mut notes: Vec<Diagnostic> = Vec::new();
        if let Some(saved) = self.loan.saved.take() {
            // SAFETY: as in `flush_world`.
            match (hooks.load)(unsafe { world.as_mut() }, saved, &content) {
                None => notes.push(Diagnostic::error(
                    Code::Reconciled,
                    self.not_lent(hooks.type_name),
                )),
                Some(Err(why)) => notes.push(Diagnostic::error(
                    Code::Reconciled,
                    format!("the save's world could not be read back, so the world was left as it was: {why}"),
                )),
                Some(Ok(lines)) => notes.extend(
                    lines
                        .into_iter()
                        .map(|l| Diagnostic::warning(Code::Reconciled, l)),
                ),
            }
            // A save may come from other content (a mod updated since): reconciled as a reload is.
            self.loan.reconcile = true;
        }
        if std::mem::take(&mut self.loan.reconcile) {
            if let Some(reconcile) = &hooks.reconcile {
                // SAFETY: as in `flush_world`.
                if let Some(lines) = reconcile(unsafe { world.as_mut() }, &content) {
                    notes.extend(
                        lines
                            .into_iter()
                            .map(|l| Diagnostic::warning(Code::Reconciled, l)),
                    );
                }
            }
        }
        self.problems.extend(notes);
    }

    /// The content changed (a reload): the world is reconciled now if it is lent, else when it
    /// next is. The lines of a reconcile done now are returned, for the reload's report.
    pub(super) fn world_content_changed(&mut self) -> Vec<Diagnostic> {
        if self.code.world().is_none_or(|w| w.reconcile.is_none()) {
            return Vec::new();
        }
        self.loan.reconcile = true;
        if self.lent().is_none() {
            return Vec::new();
        }
        let before = self.problems_len();
        self.settle_world();
        self.problems_since(before)
    }

    /// How many problems the game holds, to take those added after.
    pub(crate) fn problems_len(&self) -> usize {
        self.problems.len()
    }

    /// The problems added since `problems_len` said `before`, taken.
    pub(crate) fn problems_since(&mut self, before: usize) -> Vec<Diagnostic> {
        self.problems.split_off(before.min(self.problems.len()))
    }

    /// The world as its hooks save it, when the game declared one and it is lent (or a loaded
    /// save's world waits to be put back): what a save writes and the hash covers.
    pub(crate) fn world_json(&self) -> Option<serde_json::Value> {
        let hooks = self.code.world()?;
        match self.lent() {
            // SAFETY: as in `world`.
            Some(w) => (hooks.save)(unsafe { w.as_ref() }),
            None => self.loan.saved.clone(),
        }
    }

    /// Whether the game declared a world that a save must hold, and none is lent or waiting.
    pub(super) fn world_missing(&self) -> Option<&'static str> {
        let hooks = self.code.world()?;
        (self.lent().is_none() && self.loan.saved.is_none()).then_some(hooks.type_name)
    }
}
