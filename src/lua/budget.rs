//! Limits on scripts: an instruction budget per call into Lua and per mod per turn, and memory.
//!
//! The budget is counted by a global count hook, which coroutines inherit and whose count they
//! carry on. lantern's Lua (`vendor/lantern-lua-src`) charges the count for all the work a script
//! causes, and only where that work can grow: entering a function costs its length (which bounds
//! its straight-line code), a backward jump costs the length of the loop it closes, and C functions
//! whose work grows with their arguments (`string.rep`, pattern matching, `table.concat`,
//! `table.sort`, `..` and the rest) charge for that work as they do it. Callbacks from C (a `gsub`
//! replacement, a `table.sort` comparator, a metamethod) are entered like any function, and an
//! `xpcall` message handler runs with the hook on. Once a call is over budget the hook fires at
//! every charge, so a loop that catches the error with `pcall` is stopped at its next step, and the
//! call counts as failed even if the script caught the error ([`Budget::stopped`]).
//!
//! A call's budget is the smaller of [`Limits::instructions`] and what its mod has left of
//! [`Limits::turn_instructions`] (the runtime keeps that count), so a mod with a thousand looping
//! handlers costs a turn at most its turn budget, not a thousand calls' worth.
//!
//! Memory is the other limit: per mod in the runtime's state (`super::memory`), for the whole
//! state in the harness's and the simulator's, which hold no mods.
//!
//! A server bounds a whole game too: [`Limits::game_turn_instructions`] for all mods' calls in a
//! turn together, [`Limits::game_memory`] for the whole state, [`Limits::turn_deadline`] by the
//! clock, and an interrupt another thread triggers (`Game::interrupter`). The hook asks for the
//! host's stops at each of its steps; a call they stop fails as a call past its budget does, and
//! the turn's remaining handlers are skipped and said once.

use super::limits::Limits;
use atomic_refcell::AtomicRefCell;
use mlua::{ffi, HookTriggers, Lua, VmState};
use std::ffi::c_int;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed as R};
use std::sync::Arc;

/// Instructions counted per hook call (charged as described above).
pub(crate) const STEP: u32 = 10_000;

/// Which limit a call's budget comes from, for its message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Bound {
    /// A call's own.
    Call = 0,
    /// What its mod has left of its turn.
    Turn = 1,
    /// What the game has left of its turn, all mods together.
    Game = 2,
    /// The turn's deadline passed.
    Deadline = 3,
    /// The host interrupted the turn.
    Interrupted = 4,
}

/// A budget's counters. They move between threads with their game, and only the thread running
/// the Lua state (inside mlua's lock) touches them, so relaxed atomics are as cheap as `Cell`s
/// (plain loads and stores) and nothing needs ordering between them.
struct Count {
    used: AtomicU64,
    limit: AtomicU64,
    bound: std::sync::atomic::AtomicU8,
    per_call: AtomicU64,
    per_turn: u64,
    /// What the game's calls may run in one turn together, and what they ran this turn.
    per_game_turn: u64,
    game_used: AtomicU64,
    /// Whether the game's turn has a budget or a deadline: without either (the default), a call
    /// asks nothing of them.
    whole_game: bool,
    /// The host's interrupt, which another thread sets: the hook (and a whole game's call) sees
    /// it and halts the turn.
    interrupt: crate::game::Interrupter,
    /// Set when the rest of the turn is not to run: the host interrupted it, the game's budget is
    /// spent, or the deadline passed; why, in `halt_why` (a `Bound`).
    halted: AtomicBool,
    halt_why: std::sync::atomic::AtomicU8,
    /// The turn's deadline, by the clock from the turn's first call.
    deadline: Option<std::time::Duration>,
    turn_started: AtomicRefCell<Option<std::time::Instant>>,
    tripped: AtomicBool,
    /// While lantern itself walks the state's tables (storage), its work is not a script's.
    paused: AtomicBool,
    /// The script and line the hook last saw running in this call (0: none yet): an
    /// out-of-memory error carries no position of its own, and this is where the runaway
    /// allocation was going on. The line is apart so that a call starts with a plain store.
    seen: AtomicRefCell<String>,
    seen_line: AtomicUsize,
    /// Where the script was when the call first passed its budget.
    stopped_at: AtomicRefCell<(String, usize)>,
    /// The state's main thread, to ask lantern's Lua to stop a script (`lua_stop`).
    state: StatePtr,
    /// Where the main thread keeps what is left of its count before the hook is next called
    /// (`lua_hookleftslot`): a call from the game starts its count afresh there, and its work
    /// since the hook last fired is read there when it ends.
    left: LeftPtr,
    /// The accounts of a state whose memory is limited whole (a test file's, a policy's), to
    /// tell a call that ran out of memory and caught the error.
    whole: Option<super::memory::Accounts>,
}

impl Count {
    /// The script and line the hook last saw running (see [`Count::seen`]).
    fn seen(&self) -> (String, usize) {
        (self.seen.borrow().clone(), self.seen_line.load(R))
    }
}

/// The main thread of the Lua state a budget belongs to.
struct StatePtr(*mut ffi::lua_State);

/// What is left of the main thread's count (see [`Count::left`]).
struct LeftPtr(*mut c_int);

// SAFETY: the pointer is only handed to `lua_stop` from the budget's hook, which runs on the
// thread that is running the state, inside mlua's lock on it; the state lives as long as the
// hook (the hook is the state's, and the state owns the closure that holds this).
unsafe impl Send for StatePtr {}
// SAFETY: as above: it is never used outside the state's own hook.
unsafe impl Sync for StatePtr {}
// SAFETY: the count is a field of the state's main thread, which lives as long as the state (and
// so as the budget, which the state's hook holds); it is read and written only by the thread that
// runs the state, while the interpreter does not run: between calls into it (`Budget::begin`,
// `Budget::ended`) and around lantern's own work (`Paused`), which runs between calls or inside
// one of lantern's functions that a script called and waits for.
unsafe impl Send for LeftPtr {}
// SAFETY: as above.
unsafe impl Sync for LeftPtr {}

/// The instruction budget of one Lua state.
#[derive(Clone)]
pub struct Budget(Arc<Count>);

impl Budget {
    /// Installs the budget's hook in `lua`, and the memory limit for the whole state (a state that
    /// holds mods accounts memory per mod instead, and calls [`Budget::hook`]).
    pub fn install(lua: &Lua, limits: Limits) -> mlua::Result<Budget> {
        lua.set_memory_limit(limits.memory)?;
        Budget::with(lua, limits, Some(super::memory::Accounts::of(lua)?))
    }

    /// Installs the budget's hook in `lua`, leaving memory to the caller.
    pub(crate) fn hook(lua: &Lua, limits: Limits) -> mlua::Result<Budget> {
        Budget::with(lua, limits, None)
    }

    fn with(
        lua: &Lua,
        limits: Limits,
        whole: Option<super::memory::Accounts>,
    ) -> mlua::Result<Budget> {
        let (mut state, mut left) = (std::ptr::null_mut(), std::ptr::null_mut());
        // SAFETY: `exec_raw` hands the closure a valid thread of `lua`, whose registry holds the
        // main thread; the stack is left as it was found. Only pointers into the main thread are
        // kept, which live as long as the state.
        unsafe {
            lua.exec_raw::<()>((), |s| {
                ffi::lua_rawgeti(s, ffi::LUA_REGISTRYINDEX, ffi::LUA_RIDX_MAINTHREAD);
                state = ffi::lua_tothread(s, -1);
                ffi::lua_pop(s, 1);
                left = lua_hookleftslot(state);
            })?;
        }
        let budget = Budget(Arc::new(Count {
            state: StatePtr(state),
            left: LeftPtr(left),
            whole,
            used: AtomicU64::new(0),
            limit: AtomicU64::new(limits.instructions),
            bound: std::sync::atomic::AtomicU8::new(Bound::Call as u8),
            per_call: AtomicU64::new(limits.instructions),
            per_turn: limits.turn_instructions,
            per_game_turn: limits.game_turn_instructions,
            game_used: AtomicU64::new(0),
            whole_game: limits.game_turn_instructions != u64::MAX || limits.turn_deadline.is_some(),
            interrupt: crate::game::Interrupter::default(),
            halted: AtomicBool::new(false),
            halt_why: std::sync::atomic::AtomicU8::new(Bound::Call as u8),
            deadline: limits.turn_deadline,
            turn_started: AtomicRefCell::new(None),
            tripped: AtomicBool::new(false),
            paused: AtomicBool::new(false),
            seen: AtomicRefCell::new(String::new()),
            seen_line: AtomicUsize::new(0),
            stopped_at: AtomicRefCell::new((String::new(), 0)),
        }));
        budget.set_hook(lua, STEP)?;
        // lantern's own functions find it here to charge the work they do for a script.
        lua.set_app_data(budget.clone());
        Ok(budget)
    }

    fn set_hook(&self, lua: &Lua, every: u32) -> mlua::Result<()> {
        let b = self.0.clone();
        lua.set_global_hook(
            HookTriggers::new().every_nth_instruction(every),
            move |lua, _debug| {
                if b.paused.load(R) {
                    return Ok(VmState::Continue);
                }
                b.used.store(b.used.load(R).saturating_add(every as u64), R);
                // The host's stops are asked every step of the hook, not at each instruction.
                b.check_host();
                if b.halted.load(R) {
                    b.limit.store(0, R);
                    b.bound.store(b.halted_by() as u8, R);
                }
                // The innermost frame with a line: a C function charging for its work has none.
                // Written in place: the hook runs every few thousand steps of a script that calls
                // lantern's functions, and a new string each time showed in `emit_event`'s cost.
                if let Some(line) = note_frame(lua, &mut b.seen.borrow_mut()) {
                    b.seen_line.store(line, R);
                }
                if b.used.load(R) > b.limit.load(R) {
                    if !b.tripped.load(R) {
                        Budget(b.clone()).trip(lua, b.seen());
                    }
                    // Raised by lantern's Lua once the hook has returned, where the script is, as
                    // any runtime error (with its `file:line:`); an error returned from here would
                    // be raised inside the hook, where `__close` handlers it runs are not counted.
                    let text = b.message();
                    let text = std::ffi::CString::new(text).unwrap_or_default();
                    // SAFETY: `state` is the main thread of the state running this hook; `lua_stop`
                    // copies the message into the state.
                    unsafe { lua_stop(b.state.0, text.as_ptr()) };
                }
                Ok(VmState::Continue)
            },
        )
    }

    /// Starts a new call from the game that may run `left` instructions more in its turn
    /// (`u64::MAX` where there are no turns), `bound` saying whose turn's budget that is: its
    /// budget is the smaller of that and a call's, and it is counted from its own first
    /// instruction, whatever ran before it (another mod's call, lantern's own setup), so where a
    /// runaway stops and what a call is charged depend on that call alone.
    #[inline]
    pub(crate) fn begin(&self, lua: &Lua, left: u64) {
        self.begin_as(lua, left, Bound::Turn);
    }

    /// [`Budget::begin`] for a call whose turn's budget is `bound`'s.
    #[inline]
    pub(crate) fn begin_as(&self, lua: &Lua, left: u64, bound: Bound) {
        self.start(lua, left, bound);
        // SAFETY: see `LeftPtr`: no script runs, and the hook is set with a count of `STEP`
        // (`start` set it again if the last call had tripped it).
        unsafe { *self.0.left.0 = STEP as c_int };
    }

    /// Starts a call's count, leaving the hook's phase as it is (a nested call's work goes on
    /// counting where its caller's is; [`Budget::nest`]).
    #[inline]
    fn start(&self, lua: &Lua, left: u64, turn: Bound) {
        let b = &self.0;
        b.used.store(0, R);
        let (limit, bound) = if left < b.per_call.load(R) {
            (left, turn)
        } else {
            (b.per_call.load(R), Bound::Call)
        };
        b.limit.store(limit, R);
        b.bound.store(bound as u8, R);
        b.seen_line.store(0, R);
        if b.tripped.swap(false, R) {
            self.untrip(lua);
        }
    }

    #[cold]
    fn untrip(&self, lua: &Lua) {
        let _ = self.set_hook(lua, STEP);
    }

    /// Marks the call as past its budget, stopped at `at`: from now on every charge checks, so
    /// `pcall` cannot keep a loop alive. (A hook that could not be set leaves the count as it is;
    /// the call has failed all the same.)
    #[cold]
    fn trip(&self, lua: &Lua, at: (String, usize)) {
        self.0.tripped.store(true, R);
        *self.0.stopped_at.borrow_mut() = at;
        let _ = self.set_hook(lua, 1);
    }

    /// Charges the running call `units` of work lantern did for it outside the interpreter. Past
    /// the budget the call has failed: the error to return instead of doing more work, and the
    /// interpreter stops the script at its next step even if it catches that error.
    pub(crate) fn add(&self, lua: &Lua, units: usize) -> mlua::Result<()> {
        let b = &self.0;
        if b.paused.load(R) {
            return Ok(());
        }
        b.used.store(b.used.load(R).saturating_add(units as u64), R);
        if b.used.load(R) <= b.limit.load(R) {
            return Ok(());
        }
        if !b.tripped.load(R) {
            let at = script_frame(lua).unwrap_or_else(|| b.seen());
            self.trip(lua, at);
        }
        Err(self
            .stopped()
            .unwrap_or_else(|| mlua::Error::runtime("instruction budget exceeded")))
    }

    /// Starts a new call with a whole call's budget (states without turns: tests, policies).
    pub fn reset(&self, lua: &Lua) {
        self.begin(lua, u64::MAX);
        if let Some(accounts) = self.0.whole {
            accounts.ran_out(super::memory::Owner::HOST);
        }
    }

    /// What a call into a state of [`Budget::install`] (a test, a policy) started with
    /// [`Budget::reset`] ended with: its own result, unless it passed its budget or ran out of
    /// memory, which fail it whatever the script did with the error. A test that `pcall`s an
    /// endless loop has not passed.
    pub(crate) fn settle<R>(&self, result: mlua::Result<R>) -> mlua::Result<R> {
        let ran_out = self
            .0
            .whole
            .is_some_and(|a| a.ran_out(super::memory::Owner::HOST));
        if ran_out && result.is_ok() {
            return Err(super::memory::out_of_memory());
        }
        match self.stopped() {
            Some(stopped) if !matches!(&result, Err(e) if super::describe(e).0 == super::describe(&stopped).0) => {
                Err(stopped)
            }
            _ => result,
        }
    }

    /// Whether the call passed its budget.
    #[inline]
    pub(crate) fn tripped(&self) -> bool {
        self.0.tripped.load(R)
    }

    /// What the call begun by [`Budget::begin`] ran, once it is over, and whether it passed its
    /// budget. What it ran is what the hook counted, with what lantern charged for it, and the
    /// work since the hook last fired, so that many short calls cost their mod what they ran. (A
    /// call that passed its budget is charged what the hook counted: it has failed, and its turn
    /// is spent in any case.)
    #[inline]
    pub(crate) fn ended(&self) -> (u64, bool) {
        let b = &self.0;
        if b.tripped.load(R) {
            return (b.used.load(R), true);
        }
        // SAFETY: see `LeftPtr`: the call is over.
        let left = unsafe { *b.left.0 };
        // The hook is set with a count of `STEP`, so what is left is from 1 to `STEP`.
        let since = (STEP as c_int - left).max(0) as u64;
        (b.used.load(R).saturating_add(since), false)
    }

    /// If the call ran past its budget, the error that stopped it, even when the script caught it:
    /// a call over budget has failed, whatever it did with the error.
    pub(crate) fn stopped(&self) -> Option<mlua::Error> {
        let b = &self.0;
        if !b.tripped.load(R) {
            return None;
        }
        let at = match &*b.stopped_at.borrow() {
            (source, line) if *line > 0 => format!("{source}:{line}: "),
            _ => String::new(),
        };
        Some(mlua::Error::runtime(format!("{at}{}", b.message())))
    }

    /// Where the call was when it passed its budget, if it did: the cause of its error, wherever
    /// the script went on to (a loop that caught the error is stopped at its next step).
    pub(crate) fn stopped_place(&self) -> Option<(String, usize)> {
        if !self.0.tripped.load(R) {
            return None;
        }
        let at = self.0.stopped_at.borrow();
        (at.1 > 0).then(|| at.clone())
    }

    /// The script and line the current call was last seen running, if it ran long enough to be seen.
    pub(crate) fn last_seen(&self) -> Option<(String, usize)> {
        (self.0.seen_line.load(R) > 0).then(|| self.0.seen())
    }

    /// A mod's budget for one turn.
    #[inline]
    pub(crate) fn per_turn(&self) -> u64 {
        self.0.per_turn
    }

    /// Whether the rest of the turn is not to run: the host interrupted it, the game's budget for
    /// it is spent, or its deadline passed (as the hook or a whole game's call last saw them).
    #[inline]
    pub(crate) fn halted(&self) -> bool {
        self.0.halted.load(R)
    }

    /// What a mod with `left` of its own turn's budget may run in the game's turn, and whose
    /// budget that is: the game's when it leaves less. Asks nothing of a game with neither a
    /// turn's budget nor a deadline. The turn's clock starts at its first call.
    #[inline]
    pub(crate) fn in_game(&self, left: u64) -> (u64, Bound) {
        let b = &self.0;
        if !b.whole_game {
            return (left, Bound::Turn);
        }
        self.in_whole_game(left)
    }

    #[cold]
    fn in_whole_game(&self, left: u64) -> (u64, Bound) {
        let b = &self.0;
        if b.deadline.is_some() {
            b.turn_started
                .borrow_mut()
                .get_or_insert_with(std::time::Instant::now);
        }
        b.check_host();
        if b.halted.load(R) {
            return (0, b.halted_by());
        }
        let game = b.per_game_turn.saturating_sub(b.game_used.load(R));
        if game < left {
            (game, Bound::Game)
        } else {
            (left, Bound::Turn)
        }
    }

    /// Counts what a call from the game ran against the game's turn; the turn halts when the
    /// game's budget for it is spent.
    #[inline]
    pub(crate) fn count_for_game(&self, used: u64) {
        let b = &self.0;
        if !b.whole_game {
            return;
        }
        let total = b.game_used.load(R).saturating_add(used);
        b.game_used.store(total, R);
        if total >= b.per_game_turn {
            b.halt_for(Bound::Game);
        }
    }

    /// A new turn for the game's budget, its clock and the host's interrupt.
    pub(crate) fn new_turn(&self) {
        let b = &self.0;
        b.game_used.store(0, R);
        *b.turn_started.borrow_mut() = None;
        b.halt_why.store(Bound::Call as u8, R);
        b.halted.store(false, R);
        b.interrupt.0.store(false, R);
    }

    /// The handle the host stops the turn with.
    pub(crate) fn interrupter(&self) -> crate::game::Interrupter {
        self.0.interrupt.clone()
    }

    /// Why a mod that ran `mod_used` this turn runs no more of it.
    pub(crate) fn spent_message(&self, mod_used: u64) -> String {
        spent(self.stopped_by(mod_used), &self.0)
    }

    /// Whose budget stopped a mod that ran `mod_used` this turn: its own, or the game's turn's.
    pub(crate) fn stopped_by(&self, mod_used: u64) -> Bound {
        if self.halted() {
            self.0.halted_by()
        } else if mod_used >= self.0.per_turn {
            Bound::Turn
        } else {
            Bound::Game
        }
    }

    /// Why no more of the turn's calls run, when `bound` stopped them.
    pub(crate) fn spent_by(&self, bound: Bound) -> String {
        spent(bound, &self.0)
    }

    /// Stops counting until the guard is dropped: lantern's own work in the state (walking a
    /// mod's storage to save it) is charged to no script.
    pub(crate) fn pause(&self) -> Paused {
        Paused {
            count: self.0.clone(),
            before: self.0.paused.swap(true, R),
            // SAFETY: see `LeftPtr`: lantern's own work is about to run, no script's.
            left: unsafe { *self.0.left.0 },
        }
    }
}

/// A call's budget set aside while another mod's code runs inside it; see [`Budget::nest`].
pub(crate) struct Outer {
    used: u64,
    limit: u64,
    bound: Bound,
    tripped: bool,
    seen: (String, usize),
    stopped_at: (String, usize),
}

impl Budget {
    /// Sets the running call's budget aside and starts one for another mod's code that the
    /// running script calls (its registered action, through `lantern.apply`): that code runs
    /// charged to its own mod, and may take half of what the caller has left (at most a call's
    /// budget), so a runaway in it stops there, named as its own, and leaves the caller room to
    /// go on. The caller is then charged what it ran ([`Budget::unnest`]): it waited for it.
    pub(crate) fn nest(&self, lua: &Lua) -> Outer {
        let b = &self.0;
        let outer = Outer {
            used: b.used.load(R),
            limit: b.limit.load(R),
            bound: b.bound(),
            tripped: b.tripped.load(R),
            seen: b.seen(),
            stopped_at: b.stopped_at.borrow().clone(),
        };
        let left = outer.limit.saturating_sub(outer.used) / 2;
        self.start(lua, u64::MAX, Bound::Turn);
        if left < b.limit.load(R) {
            b.limit.store(left, R);
        }
        outer
    }

    /// Ends what [`Budget::nest`] began, settling its result by the budget's rule (a call past its
    /// budget has failed), and puts the caller's budget back. Returns the result and what the
    /// nested code ran.
    pub(crate) fn unnest<R>(
        &self,
        lua: &Lua,
        outer: Outer,
        result: mlua::Result<R>,
    ) -> (mlua::Result<R>, u64) {
        let b = &self.0;
        let used = b.used.load(R);
        let result = match self.stopped() {
            Some(stopped) if result.is_ok() => Err(stopped),
            _ => result,
        };
        let inner_tripped = b.tripped.load(R);
        b.used.store(outer.used, R);
        b.limit.store(outer.limit, R);
        b.bound.store(outer.bound as u8, R);
        b.tripped.store(outer.tripped, R);
        *b.seen.borrow_mut() = outer.seen.0;
        b.seen_line.store(outer.seen.1, R);
        *b.stopped_at.borrow_mut() = outer.stopped_at;
        if inner_tripped && !outer.tripped {
            self.untrip(lua);
        }
        (result, used)
    }
}

/// The budget counts nothing while this lives; see [`Budget::pause`]. What was left of the main
/// thread's count is put back when it ends, so lantern's own work does not move where the hook
/// next fires in a call it ran inside.
pub(crate) struct Paused {
    count: Arc<Count>,
    before: bool,
    left: c_int,
}

impl Drop for Paused {
    fn drop(&mut self) {
        self.count.paused.store(self.before, R);
        // SAFETY: see `LeftPtr`: lantern's own work is over; the hook's count is what it was
        // when that work began (set again only by `begin` and a trip, neither of which runs
        // while lantern's own work does).
        unsafe { *self.count.left.0 = self.left };
    }
}

extern "C-unwind" {
    fn lua_stop(state: *mut ffi::lua_State, msg: *const std::ffi::c_char);
    fn lua_hookleftslot(state: *mut ffi::lua_State) -> *mut c_int;
}

impl Count {
    /// What stopped the call that passed its budget.
    fn message(&self) -> String {
        let limit = self.limit.load(R);
        match self.bound() {
            Bound::Call => format!("instruction budget of {limit} exceeded (an endless loop?)"),
            Bound::Turn => format!(
                "this mod's instruction budget for the turn ({}, across all its calls) is used up",
                self.per_turn
            ),
            other => spent(other, self),
        }
    }

    fn bound(&self) -> Bound {
        match self.bound.load(R) {
            1 => Bound::Turn,
            2 => Bound::Game,
            3 => Bound::Deadline,
            4 => Bound::Interrupted,
            _ => Bound::Call,
        }
    }

    /// Why the turn halted (an interrupt sets only the flag).
    fn halted_by(&self) -> Bound {
        match self.halt_why.load(R) {
            2 => Bound::Game,
            3 => Bound::Deadline,
            _ => Bound::Interrupted,
        }
    }

    /// Halts the turn if the host interrupted it or its deadline passed.
    fn check_host(&self) {
        if self.interrupt.0.load(R) && !self.halted.load(R) {
            self.halt_for(Bound::Interrupted);
        }
        if self.deadline.is_some() {
            self.check_deadline();
        }
    }

    /// Halts the rest of the turn for `why`.
    fn halt_for(&self, why: Bound) {
        self.halt_why.store(why as u8, R);
        self.halted.store(true, R);
    }

    /// Halts the turn if its deadline passed.
    fn check_deadline(&self) {
        let (Some(deadline), Some(started)) = (self.deadline, *self.turn_started.borrow()) else {
            return;
        };
        if started.elapsed() > deadline {
            self.halt_for(Bound::Deadline);
        }
    }
}

/// Why no more of a turn's calls run, by whose budget ran out.
fn spent(bound: Bound, count: &Count) -> String {
    match bound {
        Bound::Game => format!(
            "the game's instruction budget for the turn ({}, all mods together) is used up; the mods run again next turn",
            count.per_game_turn
        ),
        Bound::Deadline => format!(
            "the turn passed the host's deadline of {} ms; the mods run again next turn",
            count.deadline.map_or(0, |d| d.as_millis())
        ),
        Bound::Interrupted => {
            "the host interrupted the turn; the mods run again next turn".to_string()
        }
        Bound::Call | Bound::Turn => format!(
            "this mod's instruction budget for the turn ({}, across all its calls) is used up; it runs again next turn",
            count.per_turn
        ),
    }
}

/// Writes the source of the innermost running function that has a current line into `seen` (its
/// text copied only when it changed) and returns that line; `seen` is left as it was when no
/// function has a line.
fn note_frame(lua: &Lua, seen: &mut String) -> Option<usize> {
    (0..16).find_map(|level| {
        lua.inspect_stack(level, |d| {
            let line = d.current_line().filter(|l| *l > 0)?;
            let source = d.source().source?;
            let source = source.trim_start_matches('@');
            if seen != source {
                seen.clear();
                seen.push_str(source);
            }
            Some(line)
        })
        .flatten()
    })
}

/// The innermost running function that has a current line, as `file:line` (without the `@`).
fn script_frame(lua: &Lua) -> Option<(String, usize)> {
    (0..16).find_map(|level| {
        lua.inspect_stack(level, |d| {
            let line = d.current_line().filter(|l| *l > 0)?;
            let source = d.source().source?.trim_start_matches('@').to_string();
            Some((source, line))
        })
        .flatten()
    })
}

/// Whether this process runs lantern's Lua (`vendor/lantern-lua-src`), which charges the count
/// hook for work C functions do and hashes objects the same in every process. lantern's build
/// script links it and mlua-sys links none, so a game that depends on lantern gets it with nothing
/// in its own manifest; this tells it from stock Lua, for tests and for embedders who want to be
/// sure. Told apart by `string.rep` of an empty string 80,000 times under a count hook: stock
/// Lua counts that call as one instruction, lantern's as the copies it makes. Checked once
/// per process.
pub fn patched_lua() -> bool {
    static PATCHED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *PATCHED.get_or_init(|| {
        let lua = Lua::new();
        let fired = Arc::new(std::sync::atomic::AtomicU32::new(0));
        let counter = fired.clone();
        let hooked = lua.set_hook(
            HookTriggers::new().every_nth_instruction(10),
            move |_, _| {
                counter.fetch_add(1, R);
                Ok(VmState::Continue)
            },
        );
        let ran = lua.load("local s = string.rep('', 80000)").exec();
        lua.remove_hook();
        hooked.is_ok() && ran.is_ok() && fired.load(R) >= 500
    })
}
