//! The engine's port for scripts: [`ScriptHost`], what the Lua layer plugs into a game (handlers,
//! registered actions and checks, transactions of script state), and what a host reports of its
//! scripts' cost ([`ModCost`], [`HandlerCost`]) and how another thread stops them
//! ([`Interrupter`]). The engine runs without a host (simulations, benchmarks).

use super::{Ctx, Event, Game};
use crate::content::Value;
use crate::id::Id;
use std::collections::BTreeMap;

/// A handle another thread (a server's watchdog) stops a game's scripts with: the call running
/// now fails at its next step as a call past its budget does (its changes dropped, the mod that
/// was running named), and the rest of the turn's handlers are skipped with one warning; the
/// game's next turn runs as usual. Cheap to clone; see [`Game::interrupter`].
#[derive(Clone, Debug, Default)]
pub struct Interrupter(pub(crate) std::sync::Arc<std::sync::atomic::AtomicBool>);

impl Interrupter {
    /// Stops the turn running now, or the next one if none is.
    pub fn interrupt(&self) {
        self.0.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

/// What one mod's scripts have cost a game so far ([`Game::script_costs`]): what a server's
/// metrics, a modder's profile or a policy that switches a costly mod off read.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ModCost {
    /// The mod.
    pub id: String,
    /// Instructions its calls ran, counted as the budget counts them, since the game started
    /// (this turn's included).
    pub instructions: u64,
    /// Bytes its scripts hold in the game's Lua state now.
    pub memory: usize,
    /// Its handlers.
    pub handlers: usize,
    /// Its handlers that failed at least once in a row and have not succeeded since.
    pub failing: usize,
    /// Its handlers switched off for failing too often in a row.
    pub quarantined: usize,
    /// Whether the host switched its scripts off in this game's set
    /// ([`ModSet::switch_off`](crate::mod_set::ModSet::switch_off)), as this turn runs.
    pub switched_off: bool,
    /// Problems the game reported about it since the game started or was loaded (failed
    /// handlers, budgets spent, quarantines; [`Diagnostic::mod_id`](crate::diag::Diagnostic::mod_id)).
    pub problems: u64,
}

/// What one handler cost a game while its scripts were profiled ([`Game::profile_scripts`]): where
/// a modder looks first when a mod is slow.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct HandlerCost {
    /// The mod that registered it.
    pub mod_id: String,
    /// The event it handles, as the script named it.
    pub event: String,
    /// Where it was registered (the script's display path and line), when known.
    pub at: Option<(String, usize)>,
    /// How many times it ran.
    pub calls: u64,
    /// Instructions its calls ran, counted as the budget counts them.
    pub instructions: u64,
    /// Time its calls took by the clock (not deterministic: for a profile, never for a rule).
    pub time: std::time::Duration,
}

/// What scripts plug into the engine: event handlers, and the actions and checks they register.
/// The Lua layer implements it; the engine runs without one (simulations, benchmarks). (The
/// *hosting game*, whose world mods are written for, is `host::Rules` and `State::host`: this is
/// the other side, the scripts the game hosts.)
pub trait ScriptHost: Send {
    /// Called for every handled event, after the native triggers and quests.
    fn on_event(&mut self, game: &mut Game, event: &Event);
    /// Whether a handler listens to events of `kind`: when no script and nothing else does, the
    /// event is not dispatched at all. Answering `true` is always safe.
    fn listens(&self, _kind: crate::content::EventKey) -> bool {
        true
    }
    /// Called when the queue is empty again: a place to write script state (storage) into the game.
    fn settle(&mut self, game: &mut Game);
    /// Called when the host starts serving a game (a new one, or one just loaded).
    fn attach(&mut self, game: &mut Game);
    /// Called when a turn begins ([`Game::begin_turn`]), before its first event.
    fn begin_turn(&mut self, _game: &mut Game) {}
    /// Counts each handler's calls from now on (`true`), or stops counting.
    fn set_profiling(&mut self, _on: bool) {}
    /// What each handler has cost while profiled.
    fn handler_costs(&self) -> Vec<HandlerCost> {
        Vec::new()
    }

    /// The work its scripts have done so far, in instructions, counted as their budget counts
    /// it: what driving this game cost, for a caller that is charged for it (a test's game).
    fn work(&self) -> u64 {
        0
    }
    /// What each mod's scripts have cost so far, in the order the mods loaded.
    fn costs(&self) -> Vec<ModCost> {
        Vec::new()
    }
    /// What another thread stops the scripts' turn with ([`Game::interrupter`]), when the host
    /// can be stopped.
    fn interrupter(&self) -> Option<Interrupter> {
        None
    }
    /// Called when a transaction that may run script code starts (an action list with a script's
    /// action, an encounter's option, a game's verb): from now on the host records what it must
    /// be able to put back. Each is closed by [`commit`](ScriptHost::commit) or
    /// [`roll_back`](ScriptHost::roll_back), innermost first.
    fn checkpoint(&mut self, _game: &mut Game) {}
    /// The innermost transaction since a [`checkpoint`](ScriptHost::checkpoint) succeeded.
    fn commit(&mut self, _game: &mut Game) {}
    /// The innermost transaction since a [`checkpoint`](ScriptHost::checkpoint) failed and the game went
    /// back to the state it had then: script state is to go back too.
    fn roll_back(&mut self, _game: &mut Game) {}
    /// Runs an action the scripts registered. A failure the host reported itself (with
    /// [`Game::report`], at the script's line) is [`Error::Reported`](crate::Error::Reported), so
    /// the action list it stopped says only which list that was.
    fn action(
        &mut self,
        game: &mut Game,
        id: &Id,
        args: &BTreeMap<String, Value>,
        ctx: &Ctx,
    ) -> Result<(), crate::Error>;
    /// Answers a check the scripts registered; the game is read-only.
    fn check(
        &mut self,
        game: &Game,
        id: &Id,
        args: &BTreeMap<String, Value>,
        ctx: &Ctx,
    ) -> Result<bool, crate::Error>;
}
