//! Draining the queue: each event goes to the triggers that listen to it, then quests, then scripts.
//!
//! Order, for one event (documented in the guide):
//! 1. triggers borne by the event's source: the creature's own, then those of its items in inventory order;
//! 2. top-level triggers, in load order;
//! 3. the scene's triggers: those of the game's table entries in play (the roguelike's current
//!    room), in the order the game lists them;
//! 4. active quests that count this event, in ID order;
//! 5. script handlers (the [`ScriptHost`](super::ScriptHost)).
//!
//! Borne triggers see `self` = their bearer and `target` = the event's target. Top-level triggers, room
//! triggers and quests watch the whole world for the player: `self` is the player and `target` the other
//! side as the player sees it: the event's source, or its target when the source is the player himself.

use super::apply::ev;
use super::trace::{Subject, Trace, TraceStep};
use super::{CreatureRef, Ctx, Event, Game, Handled};
use crate::content::{TriggerRef, WorldSees};
use crate::diag::Code;
use crate::diag::Diagnostic;

/// The event queue and what a turn keeps about it: handled first in, first out, each linked to
/// the event that queued it, at most a turn's cap of them.
pub(super) struct EventQueue {
    pub(super) queue:
        std::collections::VecDeque<(Event, Option<std::sync::Arc<str>>, Option<usize>)>,
    /// How many events were ever handled, and how many before this turn: `parent` links are these
    /// absolute numbers, looked up in `log` (which keeps more than a turn's cap).
    pub(super) handled: usize,
    pub(super) turn_start: usize,
    /// The most events one turn handles (configuration, not state: not saved or hashed).
    pub(super) event_cap: usize,
    /// What a turn does with the events past its cap (configuration, as the cap is).
    pub(super) policy: EventCapPolicy,
    /// The most events the queue holds: the cap, or what a game carries
    /// ([`EventQueue::set_limits`]). Kept, as every event queued compares with it.
    pub(super) queue_most: usize,
    /// Events not queued because the queue held a turn's cap of events already (none of them
    /// could have been handled): counted, and said when the turn stops at its cap.
    pub(super) unqueued: usize,
    /// Recent events, newest last.
    pub(super) log: std::collections::VecDeque<Handled>,
    /// Payloads of events that left the log, by length, for `emit` to fill again.
    pub(super) spare: super::event::Spare,
    /// The number of the event being dispatched, so actions can link what they queue to it.
    pub(super) current: Option<usize>,
    /// Its kind and parent: it enters the log only once handled.
    pub(super) dispatching: Option<(
        crate::content::EventKey,
        Option<usize>,
        Option<std::sync::Arc<str>>,
    )>,
    /// Whether a turn opened by [`Game::turn`] is running: commands inside it join that turn.
    pub(super) in_turn: bool,
    /// The turn stopped at its cap: the error its verb or `turn` answers with, taken by it.
    pub(super) capped: Option<crate::Error>,
    /// Whether a turn begun with [`Game::begin_turn`] is under way (until
    /// [`Game::end_turn`]): a `perform` then joins it rather than being a turn of its own.
    pub(super) open: bool,
}

impl EventQueue {
    /// The most events the queue holds, after the cap or the policy changed: a turn's cap when
    /// the turn stops there (an event queued past it would never be handled), what a game
    /// carries when the rest waits for the next turn.
    fn set_limits(&mut self) {
        self.queue_most = match self.policy {
            EventCapPolicy::Stop => self.event_cap,
            _ => MOST_CARRIED.max(self.event_cap),
        };
    }
}

impl EventQueue {
    pub(super) fn new() -> EventQueue {
        EventQueue {
            queue: std::collections::VecDeque::new(),
            handled: 0,
            turn_start: 0,
            event_cap: super::EVENT_CAP,
            policy: EventCapPolicy::Stop,
            queue_most: super::EVENT_CAP,
            unqueued: 0,
            log: std::collections::VecDeque::new(),
            spare: super::event::Spare::default(),
            current: None,
            dispatching: None,
            in_turn: false,
            capped: None,
            open: false,
        }
    }
}

/// What a turn does with the events it raised past its cap ([`Game::set_event_cap`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum EventCapPolicy {
    /// The turn stops: the events still queued are not handled, its verb or `turn` answers
    /// [`Error::EventCap`](crate::Error::EventCap), and a problem names the chain that looped.
    Stop,
    /// The events still queued wait for the next turn, handled first then, in the order they
    /// were raised: in the state, so in saves and the state hash. A real-time game whose bursts
    /// pass a tick's cap loses none. Past [`MOST_CARRIED`] waiting, the rest are dropped with a
    /// problem that names the chain, as [`EventCapPolicy::Stop`] does.
    Carry,
}

/// The most events a game carries to its next turns ([`EventCapPolicy::Carry`]).
pub const MOST_CARRIED: usize = 100_000;

impl Game {
    /// What a turn does with the events past its cap: [`EventCapPolicy::Stop`] unless set.
    pub fn set_event_cap_policy(&mut self, policy: EventCapPolicy) {
        self.events.policy = policy;
        self.events.set_limits();
    }

    /// The most events one turn handles, 100 unless set: a game whose own events come in numbers
    /// (a harvest of 120 plots in one turn, a thousand colonists' ticks) raises it, from the next
    /// turn on, as often as it likes. At least 1. Past it the turn stops: the events still queued
    /// are not handled, the turn's verb or [`turn`](Game::turn) answers with
    /// [`Error::EventCap`](crate::Error::EventCap), and a problem says how many events the turn
    /// raised and which chain of triggers looped, or that none did.
    pub fn set_event_cap(&mut self, cap: usize) {
        self.events.event_cap = cap.max(1);
        self.events.set_limits();
    }

    /// The most events one turn handles.
    pub(crate) fn event_cap(&self) -> usize {
        self.events.event_cap
    }

    /// The work this game has done so far, in instructions' worth: what its scripts ran, and
    /// each event handled (its listeners, its log) at about what a few hundred instructions cost.
    /// A test charges its own script what driving its games cost, by this.
    pub(crate) fn work(&self) -> u64 {
        const EVENT: u64 = 200;
        let scripts = self
            .scripts
            .try_borrow()
            .map_or(0, |h| h.as_ref().map_or(0, |h| h.work()));
        (self.events.handled as u64)
            .saturating_mul(EVENT)
            .saturating_add(scripts)
    }

    /// What each mod's scripts have cost this game so far (instructions, memory held, handlers
    /// failing and switched off), in the order the mods loaded: empty without scripts.
    pub fn script_costs(&self) -> Vec<super::ModCost> {
        let mut costs = self.scripts.try_borrow().map_or_else(
            |_| Vec::new(),
            |h| h.as_ref().map_or_else(Vec::new, |h| h.costs()),
        );
        for c in &mut costs {
            c.problems = self
                .problems_by_mod
                .iter()
                .find(|(m, _)| **m == *c.id)
                .map_or(0, |(_, n)| *n);
        }
        costs
    }

    /// Counts each script handler's calls, instructions and time from now on (`true`: a modder's
    /// profile, `lantern play`'s `profile`), or stops counting; what was counted stays. A game
    /// not profiled pays nothing for it.
    pub fn profile_scripts(&mut self, on: bool) {
        self.with_scripts(|host, _| host.set_profiling(on));
    }

    /// What each script handler has cost while profiled ([`Game::profile_scripts`]), in the order
    /// they were registered: empty when never profiled.
    pub fn handler_costs(&self) -> Vec<super::HandlerCost> {
        self.scripts.try_borrow().map_or_else(
            |_| Vec::new(),
            |h| h.as_ref().map_or_else(Vec::new, |h| h.handler_costs()),
        )
    }

    /// Events this game has handled since it was made or loaded.
    pub fn events_handled(&self) -> u64 {
        self.events.handled as u64
    }

    /// The handle another thread stops this game's scripts with (a watchdog that found a turn
    /// too long, a server shutting down), when it has scripts.
    pub fn interrupter(&self) -> Option<super::Interrupter> {
        self.scripts
            .try_borrow()
            .ok()
            .and_then(|h| h.as_ref().and_then(|h| h.interrupter()))
    }

    /// Starts a turn: the event cap counts from here. Verbs call it; so do tools that inject events.
    pub fn begin_turn(&mut self) {
        if self.events.in_turn {
            // A command run by a game's verb is part of the verb's turn.
            return;
        }
        self.events.turn_start = self.events.handled;
        self.events.capped = None;
        self.events.open = true;
        self.state.turn += 1;
        self.with_scripts(|host, game| host.begin_turn(game));
    }

    /// Whether a turn is under way (a verb's, one [`turn`](Game::turn) opened, one begun with
    /// [`begin_turn`](Game::begin_turn) and not ended), or an event is being handled.
    pub(crate) fn turn_under_way(&self) -> bool {
        self.events.in_turn || self.events.open || self.events.current.is_some()
    }

    /// The error of a turn that stopped at its cap, if this one did (taken: asked once).
    pub(crate) fn take_capped(&mut self) -> Option<crate::Error> {
        self.events.capped.take()
    }

    /// Handles queued events, first in first out, until the queue is empty or the cap is reached.
    pub fn drain(&mut self) {
        // Content is replaced only between commands, so one handle serves the whole drain.
        let content = self.content.clone();
        if self.events.handled == self.events.turn_start && !self.state.carried.is_empty() {
            self.take_carried(&content);
        }
        while let Some((event, cause, parent)) = self.events.queue.pop_front() {
            if self.events.handled - self.events.turn_start >= self.events.event_cap {
                if self.events.policy == EventCapPolicy::Carry {
                    self.carry(&content, (event, cause));
                    break;
                }
                // This one, every event still queued and those never queued: none is lost
                // without a word.
                let dropped =
                    self.events.queue.len() + 1 + std::mem::take(&mut self.events.unqueued);
                self.events.queue.clear();
                self.report_loop(dropped);
                break;
            }
            // An event nothing listens to is logged and counted, and visits no listener list.
            let mut cause = cause;
            if content.heard[event.kind.0 as usize] || self.scripts_listen(event.kind) {
                // The event joins the log once handled, moved rather than copied; meanwhile
                // `current` and `dispatching` stand for it (the chain a script error names).
                self.events.current = Some(self.events.handled);
                // The cause is moved in and out, not counted twice: this is the hottest loop.
                self.events.dispatching = Some((event.kind, parent, cause));
                self.dispatch(&content, &event);
                self.events.current = None;
                cause = self
                    .events
                    .dispatching
                    .take()
                    .and_then(|(_, _, cause)| cause);
            }
            if self.events.log.len() == super::LOG_KEEP {
                if let Some(old) = self.events.log.pop_front() {
                    self.events.spare.give_back(old.event.payload);
                }
            }
            self.events.log.push_back(Handled {
                event,
                cause,
                parent,
            });
            self.events.handled += 1;
        }
        if self.events.unqueued > 0 {
            // The queue held a turn's cap, which the turn handled; what never fitted is dropped.
            let dropped = std::mem::take(&mut self.events.unqueued);
            self.report_loop(dropped);
        }
        self.with_scripts(|host, game| host.settle(game));
        debug_assert!(
            self.quests_indexed(),
            "quest progress and its dense copy differ"
        );
    }

    /// Whether the scripts have a handler for events of `kind` (yes, when they are busy).
    fn scripts_listen(&self, kind: crate::content::EventKey) -> bool {
        self.scripts
            .try_borrow()
            .map_or(true, |h| h.as_ref().is_some_and(|h| h.listens(kind)))
    }

    fn dispatch(&mut self, content: &crate::content::Content, event: &Event) {
        let kind = event.kind;
        let borne_listen = content.borne_listen[kind.0 as usize];
        if let Some(c) = borne_listen.then(|| self.creature(event.source)).flatten() {
            let mut listening: Vec<TriggerRef> = Vec::new();
            if let Some(def) = content.creatures.get(&c.def) {
                listening.extend(
                    def.triggers
                        .iter()
                        .copied()
                        .filter(|r| content.trigger(*r).on == kind),
                );
            }
            for stack in &c.inventory {
                let Some(def) = content.items.get(&stack.item) else {
                    continue;
                };
                if def.slot.is_some() && !stack.equipped {
                    continue;
                }
                listening.extend(
                    def.triggers
                        .iter()
                        .copied()
                        .filter(|r| content.trigger(*r).on == kind),
                );
            }
            self.run_triggers(content, &listening, event, (event.source, event.target));
        }
        let at_player = event.source == CreatureRef::Player;
        if at_player || content.events.get(kind).world == WorldSees::Every {
            self.run_world(content, event);
        }
        if let Some(handlers) = content.host_handlers.get(kind.0 as usize) {
            self.run_host_handlers(content, handlers, event);
        }
        self.with_scripts(|host, game| host.on_event(game, event));
    }

    /// The world's triggers and quests for one event: the top level's, the room's, then the
    /// quests'. Their bearer is the player, and `target` the other side as the player sees it.
    ///
    /// A listener whose quick test fails (the usual case) is answered from its own record
    /// ([`Game::quick_run`]); the rest are evaluated in full, out of line.
    fn run_world(&mut self, content: &crate::content::Content, event: &Event) {
        let kind = event.kind;
        let world_target = if event.source == CreatureRef::Player {
            event.target
        } else {
            Some(event.source)
        };
        let world = (CreatureRef::Player, world_target);
        let mut traces = self.traces.take();
        let mut ctx = Ctx {
            bearer: world.0,
            target: world.1,
            source: Some(event.source),
            cause: "",
            stream: "",
        };
        let list = &content.top_level[kind.0 as usize];
        let mut at = 0;
        while at < list.len() {
            let trigger = |r| Subject::Trigger(TriggerRef(r));
            at += self.quick_run(
                content,
                &list[at..],
                event,
                &ctx,
                &mut traces,
                trigger,
                |_, _| true,
            );
            if at < list.len() {
                at = self.run_triggers_out(content, list, at, event, &mut ctx, &mut traces);
            }
        }
        if self.scene_stale || !self.scene_triggers.is_empty() {
            self.traces = traces;
            self.run_scene(content, event, world);
            traces = self.traces.take();
        }
        // Only a quest under way evaluates its test; the full path says why the others do not.
        let under_way = |game: &Game, ordinal: u32| {
            let slot = game.state.quest_slots.0.get(ordinal as usize);
            matches!(slot, Some(Some(p)) if !p.done)
        };
        let list = &content.quests_by_event[kind.0 as usize];
        let mut at = 0;
        while at < list.len() {
            at += self.quick_run(
                content,
                &list[at..],
                event,
                &ctx,
                &mut traces,
                Subject::Quest,
                under_way,
            );
            if at < list.len() {
                at = self.count_quests_out(content, list, at, event, &mut ctx, &mut traces);
            }
        }
        self.traces = traces;
    }

    /// The triggers of the scene (the game's table entries in play) that listen to the event.
    fn run_scene(
        &mut self,
        content: &crate::content::Content,
        event: &Event,
        world: (CreatureRef, Option<CreatureRef>),
    ) {
        if self.scene_stale {
            self.refresh_scene();
        }
        if !self.scene_triggers.is_empty() {
            let listening: Vec<TriggerRef> = self
                .scene_triggers
                .iter()
                .copied()
                .filter(|r| content.trigger(*r).on == event.kind)
                .collect();
            self.run_triggers(content, &listening, event, world);
        }
    }

    /// [`Game::run_trigger`] over the run of listeners from `at` to evaluate in full (see
    /// [`full_run`]), out of line so the loop of quick tests around it stays small; where the
    /// run ends.
    #[inline(never)]
    fn run_triggers_out<'c>(
        &mut self,
        content: &'c crate::content::Content,
        list: &[crate::content::Listener],
        at: usize,
        event: &Event,
        ctx: &mut Ctx<'c>,
        traces: &mut Option<Box<super::trace::Traces>>,
    ) -> usize {
        let turn = self.state.turn;
        let end = full_run(list, at);
        for l in &list[at..end] {
            self.run_trigger(content, TriggerRef(l.of), event, ctx, traces, turn);
        }
        end
    }

    /// [`Game::count_quest`] over the run of listeners from `at` to evaluate in full, out of
    /// line; where the run ends.
    #[inline(never)]
    fn count_quests_out<'c>(
        &mut self,
        content: &'c crate::content::Content,
        list: &[crate::content::Listener],
        at: usize,
        event: &Event,
        ctx: &mut Ctx<'c>,
        traces: &mut Option<Box<super::trace::Traces>>,
    ) -> usize {
        let end = full_run(list, at);
        for l in &list[at..end] {
            self.count_quest(content, traces, l.of, event, ctx);
        }
        end
    }

    /// Evaluates each listening trigger in turn and runs the actions of those that fire.
    ///
    /// Each trace is written in its own slot: the traces are lent out of the game while the
    /// triggers are evaluated (a script check that runs meanwhile sees none), once for the whole
    /// list, and put back while a trigger's actions run.
    fn run_triggers(
        &mut self,
        content: &crate::content::Content,
        list: &[TriggerRef],
        event: &Event,
        (bearer, target): (CreatureRef, Option<CreatureRef>),
    ) {
        let turn = self.state.turn;
        let mut traces = self.traces.take();
        // One context for the list, its names set per trigger (rebuilding all of it cost stores).
        let mut ctx = Ctx {
            bearer,
            target,
            source: Some(event.source),
            cause: "",
            stream: "",
        };
        for &r in list {
            self.run_trigger(content, r, event, &mut ctx, &mut traces, turn);
        }
        self.traces = traces;
    }

    /// Evaluates one trigger, with the traces lent out of the game by the caller, and runs its
    /// actions when it fires.
    #[inline(always)]
    fn run_trigger<'c>(
        &mut self,
        content: &'c crate::content::Content,
        r: TriggerRef,
        event: &Event,
        ctx: &mut Ctx<'c>,
        traces: &mut Option<Box<super::trace::Traces>>,
        turn: u64,
    ) {
        let t = content.trigger(r);
        ctx.cause = &t.key;
        ctx.stream = &t.stream;
        let slot = traces
            .as_mut()
            .and_then(|t| t.begin(Subject::Trigger(r), event.kind, turn));
        let fired = match slot {
            Some(trace) => self.evaluate(&t.when, &t.condition, t.chance, event, ctx, trace),
            None => self.evaluate_untraced(&t.when, &t.condition, t.chance, event, ctx),
        };
        if fired {
            self.traces = traces.take();
            let outcome = self.run_actions(&t.actions, ctx);
            self.trace_step(Subject::Trigger(r), outcome);
            *traces = self.traces.take();
        }
    }

    /// Adds a step (a quest's count, the actions' outcome) to a trigger's or a quest's trace.
    #[inline(always)]
    fn trace_step(&mut self, of: Subject, step: Result<TraceStep, String>) {
        let Some(trace) = self.traces.as_mut().and_then(|t| t.last_mut(of)) else {
            return;
        };
        match step {
            Ok(step) => trace.steps.push(step),
            Err(failure) => {
                trace.steps.push(TraceStep::ActionsFailed);
                trace.failure = failure;
            }
        }
    }

    /// Runs a trigger's or quest's actions: `Fired`, or why they failed (rolled back and reported
    /// as a problem, never fatal).
    fn run_actions(
        &mut self,
        actions: &crate::content::ActionList,
        ctx: &Ctx,
    ) -> Result<TraceStep, String> {
        let said = self.messages.len();
        match self.apply_list(actions, ctx) {
            Ok(()) => {
                // What a rule did is said with its name, so the player sees why it happened.
                if self.messages.len() > said {
                    for line in &mut self.messages[said..] {
                        *line = format!("[{}] {line}", ctx.cause);
                    }
                }
                Ok(TraceStep::Fired)
            }
            Err(d) => {
                let message = d.message.clone();
                self.problems.push(d);
                Err(message)
            }
        }
    }

    /// Reports a script check that failed while a trigger or quest asked it: the rule does not
    /// fire, and the mod hears why at the condition. A check switched off after its failures
    /// is not reported again (its fifth failure said so).
    #[cold]
    #[inline(never)]
    fn report_check_failure(&mut self, cond: &crate::content::Condition, message: &str, ctx: &Ctx) {
        if message.contains(super::check::SWITCHED_OFF) {
            return;
        }
        self.problems.push(
            Diagnostic::error(
                Code::ActionFailed,
                format!(
                    "{message} (from {}); so the condition does not hold",
                    ctx.cause
                ),
            )
            .at(cond.span),
        );
    }

    /// [`Game::evaluate`] with a throwaway trace, for a listener that has no trace slot (its content
    /// was replaced in the middle of a drain, which the engine itself never does). Kept out of
    /// line, so the common path does not carry a scratch trace to drop.
    #[inline(never)]
    fn evaluate_untraced(
        &mut self,
        when: &[(usize, crate::content::Value)],
        condition: &[crate::content::Condition],
        chance: Option<f64>,
        event: &Event,
        ctx: &Ctx,
    ) -> bool {
        let mut scratch = Trace::new(event.kind, 0);
        self.evaluate(when, condition, chance, event, ctx, &mut scratch)
    }

    /// `when`, conditions and chance, recorded into `trace` (just begun, so what decides the
    /// evaluation is its first step); true when the actions should run.
    #[inline(always)]
    pub(super) fn evaluate(
        &mut self,
        when: &[(usize, crate::content::Value)],
        condition: &[crate::content::Condition],
        chance: Option<f64>,
        event: &Event,
        ctx: &Ctx,
        trace: &mut Trace,
    ) -> bool {
        if let Some(index) = when
            .iter()
            .position(|(i, wanted)| event.field(*i) != Some(wanted))
        {
            trace.steps.first(TraceStep::WhenDiffered { index });
            trace.got = event.field(when[index].0).cloned();
            return false;
        }
        if let Some(index) = self.first_failing(condition, ctx, &mut trace.saw) {
            trace.steps.first(TraceStep::ConditionFailed { index });
            if let super::check::Saw::Error(message) = &trace.saw {
                self.report_check_failure(&condition[index - 1], message, ctx);
            }
            return false;
        }
        if let Some(chance) = chance {
            let roll = self.rng.roll(ctx.stream);
            let success = roll < chance;
            trace.steps.first(TraceStep::Rolled {
                roll,
                chance,
                success,
            });
            return success;
        }
        true
    }

    /// Evaluates one quest that counts the event, with the traces lent out of the game by the
    /// caller (as for triggers, see `run_triggers`), and counts it, completing it at its goal.
    #[inline(always)]
    fn count_quest<'c>(
        &mut self,
        content: &'c crate::content::Content,
        traces: &mut Option<Box<super::trace::Traces>>,
        ordinal: u32,
        event: &Event,
        ctx: &mut Ctx<'c>,
    ) {
        let Some(q) = content.quest_defs.get(ordinal as usize) else {
            return;
        };
        let id = &q.id;
        let turn = self.state.turn;
        let progress = self
            .state
            .quest_slots
            .0
            .get(ordinal as usize)
            .copied()
            .flatten();
        let Some(progress) = progress.filter(|p| !p.done) else {
            if let Some(trace) = traces
                .as_mut()
                .and_then(|t| t.begin(Subject::Quest(ordinal), event.kind, turn))
            {
                trace.steps.push(TraceStep::QuestNotActive {
                    done: progress.is_some(),
                });
            }
            return;
        };
        ctx.cause = id.as_str();
        ctx.stream = &q.stream;
        let slot = traces
            .as_mut()
            .and_then(|t| t.begin(Subject::Quest(ordinal), event.kind, turn));
        let counts = match slot {
            Some(trace) => self.evaluate(&q.when, &q.condition, None, event, ctx, trace),
            None => self.evaluate_untraced(&q.when, &q.condition, None, event, ctx),
        };
        if !counts {
            return;
        }
        // The count, the actions and their trace steps see the traces in the game.
        self.traces = traces.take();
        self.count_up(q, ordinal, progress, ctx);
        *traces = self.traces.take();
    }

    /// A quest counted the event: its new count, and at its goal its actions and completion.
    fn count_up(
        &mut self,
        q: &crate::content::Quest,
        ordinal: u32,
        progress: super::QuestProgress,
        ctx: &Ctx,
    ) {
        let id = &q.id;
        let count = progress.count + 1;
        self.trace_step(Subject::Quest(ordinal), Ok(TraceStep::Counted { count }));
        if count < q.count {
            self.set_quest(id, super::QuestProgress { count, done: false });
            let line = self.text(
                "quest_progress",
                &[
                    ("quest", (&q.name).into()),
                    ("count", count.into()),
                    ("need", q.count.into()),
                ],
            );
            self.say(line);
            return;
        }
        let outcome = self.run_actions(&q.actions, ctx);
        if outcome.is_ok() {
            self.set_quest(id, super::QuestProgress { count, done: true });
            let line = self.text("quest_completed", &[("quest", (&q.name).into())]);
            self.say(line);
            self.push(
                Event::new(
                    ev::QUEST_COMPLETED,
                    CreatureRef::Player,
                    None,
                    vec![Some(crate::content::Value::id(id))],
                ),
                Some(id.as_str().into()),
            );
        }
        self.trace_step(Subject::Quest(ordinal), outcome);
    }

    /// Keeps `first` and every event still queued for the next turn, by name, up to
    /// [`MOST_CARRIED`] waiting; the rest are dropped with a problem.
    #[cold]
    fn carry(
        &mut self,
        content: &crate::content::Content,
        first: (Event, Option<std::sync::Arc<str>>),
    ) {
        let rest = self.events.queue.drain(..).map(|(e, cause, _)| (e, cause));
        let queued: Vec<_> = std::iter::once(first).chain(rest).collect();
        for (event, cause) in queued {
            if self.state.carried.len() >= MOST_CARRIED {
                self.events.unqueued += 1;
                continue;
            }
            let def = content.events.get(event.kind);
            let payload = (def.payload.iter().zip(event.payload.iter()))
                .filter_map(|((name, _), v)| Some((name.clone(), v.clone()?)))
                .collect();
            self.state.carried.push(crate::game::CarriedEvent {
                event: def.name.clone(),
                source: event.source,
                target: event.target,
                payload,
                cause: cause.map(|c| c.to_string()),
            });
        }
    }

    /// Puts the events carried from the last turn at the front of the queue, in order; one the
    /// content no longer has (a reload since) is dropped with a note.
    #[cold]
    fn take_carried(&mut self, content: &crate::content::Content) {
        let carried = std::mem::take(&mut self.state.carried);
        let mut gone: std::collections::BTreeMap<String, usize> = Default::default();
        let mut back = Vec::with_capacity(carried.len());
        for c in carried {
            let Some(kind) = content.events.lookup(&c.event) else {
                *gone.entry(c.event).or_default() += 1;
                continue;
            };
            let def = content.events.get(kind);
            let payload: Vec<Option<crate::content::Value>> = (def.payload.iter())
                .map(|(name, _)| c.payload.get(name).cloned())
                .collect();
            let event = Event {
                kind,
                source: c.source,
                target: c.target,
                payload: payload.into(),
            };
            back.push((event, c.cause.map(std::sync::Arc::from), None));
        }
        for (name, n) in gone {
            self.problems.push(Diagnostic::warning(
                Code::Reconciled,
                format!("{n} carried `{name}` event(s) dropped: the mods no longer declare it"),
            ));
        }
        for entry in back.into_iter().rev() {
            self.events.queue.push_front(entry);
        }
    }

    /// The cap was reached: name the chain of triggers that led to the last event, or say that
    /// none looped and the turn raised more than its cap allows.
    fn report_loop(&mut self, dropped: usize) {
        // The causes of the last event's ancestors, nearest first; a cause met twice is a loop.
        let mut causes: Vec<std::sync::Arc<str>> = Vec::new();
        let mut at = self.events.handled.checked_sub(1);
        let mut steps = 0;
        while let Some(h) = at.and_then(|n| self.handled_at(n)) {
            if let Some(cause) = &h.cause {
                causes.push(cause.clone());
            }
            at = h.parent;
            steps += 1;
            if steps > self.events.event_cap {
                break;
            }
        }
        // The loop itself, oldest first, its first trigger named again at its end
        // (`a -> b -> a`); or, when nothing looped, the chain that led to the last event.
        let repeat = (1..causes.len()).find_map(|j| {
            causes[..j]
                .iter()
                .position(|c| *c == causes[j])
                .map(|i| (i, j))
        });
        let looped = repeat.is_some();
        let shown = match repeat {
            Some((i, j)) => &causes[i..=j],
            None => &causes[..causes.len().min(12)],
        };
        let chain: Vec<std::sync::Arc<str>> = shown.iter().rev().cloned().collect();
        let cap = self.events.event_cap;
        let handled = self.events.handled - self.events.turn_start;
        let raised = handled + dropped;
        let stopped = match self.events.policy {
            EventCapPolicy::Carry => format!(
                "events waited past their turns' cap of {cap} beyond the {MOST_CARRIED} a game \
                 carries: {dropped} were dropped"
            ),
            _ => format!(
                "one turn raised {raised} events, more than its cap of {cap}: the turn was \
                 stopped and {dropped} were not handled"
            ),
        };
        let mut d = if looped {
            Diagnostic::error(
                Code::EventCap,
                format!("{stopped}. The chain that looped: {}", chain.join(" -> ")),
            )
            .with_help(
                "a trigger's actions raise an event that sets it (or another) off again; add a \
                 `when`, a condition or a `chance`",
            )
        } else {
            Diagnostic::error(
                Code::EventCap,
                format!("{stopped}. No chain looped: the turn's events outnumber the cap"),
            )
            .with_help(
                "a game whose turns raise this many events raises the cap with \
                 `Game::set_event_cap`",
            )
        };
        if let Some(span) = chain
            .last()
            .filter(|_| looped)
            .and_then(|k| self.content.find_trigger(k))
            .map(|r| self.content.trigger(r).span)
        {
            d = d.at(span);
        }
        self.events.capped = Some(crate::Error::EventCap {
            message: d.message.clone(),
            raised,
            cap,
        });
        let line = self.text("turn_stopped", &[]);
        self.say(line);
        self.problems.push(d);
    }
}

/// Where the run of listeners to evaluate in full that starts at `at` ends: the one there (its
/// quick test did not answer) and those after it that have no quick form.
fn full_run(list: &[crate::content::Listener], at: usize) -> usize {
    let rest = list.get(at + 1..).unwrap_or_default();
    let full = rest
        .iter()
        .take_while(|l| matches!(l.test, crate::content::QuickTest::Full))
        .count();
    (at + 1 + full).min(list.len())
}
