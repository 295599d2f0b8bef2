//! Limits on scripts: an instruction budget per call into Lua and a memory limit for the whole state.
//!
//! The budget is counted by a global count hook every [`STEP`] instructions, inherited by
//! coroutines. lantern's Lua (`vendor/lantern-lua-src`) charges the count where code repeats: a backward
//! jump costs the length of the loop it closes, a call from Lua costs 1; straight-line code is
//! free, and no instruction pays for the hook unless it closes a loop or calls. Once a call is over
//! budget, the hook fires at every charge, so a loop that catches the error with `pcall` is stopped
//! at its next pass.

use mlua::{HookTriggers, Lua, VmState};
use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// Instructions counted per hook call (charged as described above).
pub const STEP: u32 = 10_000;

/// The defaults: generous for real handlers, small enough that a runaway loop ends in well under a second.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Lua VM instructions per call into a script.
    pub instructions: u64,
    /// Bytes the whole Lua state may allocate.
    pub memory: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            instructions: 10_000_000,
            memory: 64 * 1024 * 1024,
        }
    }
}

#[derive(Clone)]
pub struct Budget {
    used: Rc<Cell<u64>>,
    limit: Rc<Cell<u64>>,
    tripped: Rc<Cell<bool>>,
    /// The script and line the hook last saw running in this call: an out-of-memory error carries
    /// no position of its own, and this is where the runaway allocation was going on.
    seen: Rc<RefCell<(String, usize)>>,
}

impl Budget {
    pub fn install(lua: &Lua, limits: Limits) -> mlua::Result<Budget> {
        let budget = Budget {
            used: Rc::new(Cell::new(0)),
            limit: Rc::new(Cell::new(limits.instructions)),
            tripped: Rc::new(Cell::new(false)),
            seen: Rc::new(RefCell::new((String::new(), 0))),
        };
        lua.set_memory_limit(limits.memory)?;
        budget.hook(lua, STEP)?;
        Ok(budget)
    }

    fn hook(&self, lua: &Lua, every: u32) -> mlua::Result<()> {
        let b = self.clone();
        lua.set_global_hook(
            HookTriggers::new().every_nth_instruction(every),
            move |lua, debug| {
                b.used.set(b.used.get() + every as u64);
                if let (Some(source), Some(line)) = (debug.source().source, debug.current_line()) {
                    let mut seen = b.seen.borrow_mut();
                    seen.0.clear();
                    seen.0.push_str(source.trim_start_matches('@'));
                    seen.1 = line;
                }
                if b.used.get() > b.limit.get() {
                    if !b.tripped.get() {
                        b.tripped.set(true);
                        // From now on every instruction checks, so `pcall` cannot keep a loop alive.
                        b.hook(lua, 1)?;
                    }
                    // Name the line the script was running, as Lua's own errors do.
                    let source = debug
                        .source()
                        .source
                        .map(|s| s.trim_start_matches('@').to_string());
                    let at = match (source, debug.current_line()) {
                        (Some(s), Some(l)) => format!("{s}:{l}: "),
                        _ => String::new(),
                    };
                    return Err(mlua::Error::runtime(format!(
                        "{at}instruction budget of {} exceeded (an endless loop?)",
                        b.limit.get()
                    )));
                }
                Ok(VmState::Continue)
            },
        )
    }

    /// Starts a new call: the budget is full again.
    pub fn reset(&self, lua: &Lua) {
        self.used.set(0);
        self.seen.borrow_mut().1 = 0;
        if self.tripped.replace(false) {
            let _ = self.hook(lua, STEP);
        }
    }

    /// The script and line the current call was last seen running, if it ran long enough to be seen.
    pub fn last_seen(&self) -> Option<(String, usize)> {
        let seen = self.seen.borrow();
        (seen.1 > 0).then(|| seen.clone())
    }

    pub fn set_limit(&self, instructions: u64) {
        self.limit.set(instructions);
    }
}

/// Lifts the memory limit until dropped, for lantern's own bookkeeping in the state (the references
/// and names it makes when binding handlers to events): the limit is for scripts, and a script
/// that filled the state with what it keeps must not make that bookkeeping fail after it (it did:
/// "cannot prepare the Lua event views", beside the script's own error). No script runs meanwhile.
pub struct Unlimited<'a> {
    lua: &'a Lua,
    limit: Option<usize>,
}

impl<'a> Unlimited<'a> {
    pub fn new(lua: &'a Lua) -> Unlimited<'a> {
        Unlimited {
            lua,
            limit: lua.set_memory_limit(0).ok(),
        }
    }
}

impl Drop for Unlimited<'_> {
    fn drop(&mut self) {
        if let Some(limit) = self.limit {
            let _ = self.lua.set_memory_limit(limit);
        }
    }
}

/// Whether this process runs lantern's Lua (`vendor/lantern-lua-src`), whose count hook is charged
/// only where work repeats and whose hashing is the same in every process. lantern's build script
/// links it and mlua-sys links none, so a game that depends on lantern gets it with nothing in its
/// own manifest; this tells it from stock Lua, for tests and for embedders who want to be sure.
/// Told apart by running straight-line code under a count hook: stock Lua counts each
/// instruction, lantern's charges none. Checked once per process.
pub fn patched_lua() -> bool {
    static PATCHED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *PATCHED.get_or_init(|| {
        let lua = Lua::new();
        let fired = Rc::new(Cell::new(0u32));
        let counter = fired.clone();
        let hooked = lua.set_hook(HookTriggers::new().every_nth_instruction(1), move |_, _| {
            counter.set(counter.get() + 1);
            Ok(VmState::Continue)
        });
        let ran = lua
            .load("local a, b = 1, 2 local c = a + b local d = c * 2 return d")
            .exec();
        lua.remove_hook();
        hooked.is_ok() && ran.is_ok() && fired.get() == 0
    })
}
