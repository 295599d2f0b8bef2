//! "Why": the last evaluation of every trigger and quest, step by step, for `why ID` and tests.
//!
//! Recording happens on every evaluation, so a step holds only cheap data (indexes, numbers, shared
//! values); [`Trace::render`] puts it into words, with names from the content, when someone asks.

use super::check::Saw;
use crate::content::{Condition, Content, EventKey, TriggerRef, Value};
use std::fmt::Write;

/// What happened at one evaluation. Plain data, so clearing a trace for the next evaluation is two
/// stores; what a step needs beyond numbers lives beside the steps in [`Trace`].
#[derive(Debug, Clone, Copy, PartialEq)]
#[doc(hidden)]
#[non_exhaustive]
pub enum TraceStep {
    /// The `when` filter at this position differed; what the event had is the trace's `got`.
    WhenDiffered { index: usize },
    /// A condition failed: its position (from 1). What it saw is the trace's `saw`.
    ConditionFailed { index: usize },
    /// The chance roll: value rolled, chance needed.
    Rolled {
        roll: f64,
        chance: f64,
        success: bool,
    },
    /// The quest is not active (never started, or done).
    QuestNotActive { done: bool },
    /// The quest counted: its new count.
    Counted { count: u32 },
    /// The actions ran.
    Fired,
    /// The actions failed and were rolled back; why is the trace's `failure`.
    ActionsFailed,
}

#[derive(Debug, Clone, PartialEq)]
#[doc(hidden)]
pub struct Trace {
    /// The event evaluated, and the turn it was handled in.
    pub event: EventKey,
    pub turn: u64,
    pub(crate) steps: Steps,
    /// What the failed condition saw, when a step is `ConditionFailed`. Kept beside the steps
    /// rather than inside one so the evaluation writes it once, in the trace's own slot.
    pub saw: Saw,
    /// What the event had in the field, when a step is `WhenDiffered`.
    pub(crate) got: Option<Value>,
    /// Why the actions failed, when a step is `ActionsFailed`.
    pub(crate) failure: String,
}

impl Trace {
    pub(super) fn new(event: EventKey, turn: u64) -> Trace {
        Trace {
            event,
            turn,
            steps: Steps::default(),
            saw: Saw::No,
            got: None,
            failure: String::new(),
        }
    }
}

/// The steps of one evaluation, stored inline so recording a trace never allocates: at most one
/// of a `when` difference, a failed condition or a roll (or a quest's count), then the outcome.
/// Counted rather than `Option`s, so starting an evaluation's trace clears one byte, not the
/// whole array (`git log` of this file has what it saved).
#[derive(Clone, Copy)]
pub(crate) struct Steps {
    len: u8,
    steps: [TraceStep; 2],
}

impl Default for Steps {
    fn default() -> Steps {
        Steps {
            len: 0,
            steps: [TraceStep::Fired; 2],
        }
    }
}

impl Steps {
    /// Adds a step; a third is dropped (an evaluation records at most two).
    pub(crate) fn push(&mut self, step: TraceStep) {
        if let Some(slot) = self.steps.get_mut(self.len as usize) {
            *slot = step;
            self.len += 1;
        }
    }

    /// Records the first step of an evaluation, the steps before it dropped: what decided it.
    pub(crate) fn first(&mut self, step: TraceStep) {
        self.steps[0] = step;
        self.len = 1;
    }

    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }

    pub(crate) fn as_slice(&self) -> &[TraceStep] {
        &self.steps[..self.len as usize]
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = &TraceStep> {
        self.as_slice().iter()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl PartialEq for Steps {
    fn eq(&self, other: &Steps) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl std::fmt::Debug for Steps {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// What a trace needs from the definition it traces.
pub(crate) struct Traced<'a> {
    pub(crate) when: &'a [(usize, Value)],
    pub(crate) condition: &'a [Condition],
    pub(crate) stream: &'a str,
    pub(crate) goal: Option<u32>,
}

impl Trace {
    /// The trace in words.
    pub(crate) fn render(&self, content: &Content, traced: &Traced) -> String {
        let def = content.events.get(self.event);
        let mut f = format!("on `{}` (turn {}):\n", def.name, self.turn);
        if self.steps.is_empty() {
            f.push_str("  every filter and condition held\n");
        }
        for step in self.steps.iter() {
            let _ = match step {
                TraceStep::WhenDiffered { index } => {
                    let (field, wanted) = traced
                        .when
                        .get(*index)
                        .map(|(i, v)| (def.payload[*i].0.as_str(), v.to_string()))
                        .unwrap_or(("?", "?".into()));
                    let got = self
                        .got
                        .as_ref()
                        .map(Value::to_string)
                        .unwrap_or_else(|| "nothing".into());
                    writeln!(f, "  `when` {field}: wanted {wanted}, the event had {got}")
                }
                TraceStep::ConditionFailed { index } => {
                    let check = traced
                        .condition
                        .get(index - 1)
                        .map(super::check::describe)
                        .unwrap_or_default();
                    writeln!(
                        f,
                        "  condition {index} failed: {check} (saw {})",
                        self.saw.render(content)
                    )
                }
                TraceStep::Rolled {
                    roll,
                    chance,
                    success,
                } => writeln!(
                    f,
                    "  rolled {roll:.4} on stream `{}` against chance {chance}: {}",
                    traced.stream,
                    if *success { "success" } else { "no luck" }
                ),
                TraceStep::QuestNotActive { done } => {
                    writeln!(
                        f,
                        "  the quest is {}, so it does not count",
                        if *done { "done" } else { "not started" }
                    )
                }
                TraceStep::Counted { count } => {
                    writeln!(f, "  counted: {count} of {}", traced.goal.unwrap_or(0))
                }
                TraceStep::Fired => writeln!(f, "  fired: the actions ran"),
                TraceStep::ActionsFailed => {
                    writeln!(
                        f,
                        "  the actions failed and were rolled back: {}",
                        self.failure
                    )
                }
            };
        }
        f
    }
}

/// What a trace is of: a trigger, or a quest by its ordinal.
#[derive(Debug, Clone, Copy)]
pub(super) enum Subject {
    Trigger(TriggerRef),
    Quest(u32),
}

/// Every trigger's and quest's trace, in slots made as evaluations first reach them (a slot never
/// evaluated is marked by an event no content has, so writing a trace tests no `Option`). A test
/// game over a pack of 100,000 definitions evaluates a few of them: making every slot with the
/// game cost it a twentieth of its time.
pub(super) struct Traces {
    triggers: Vec<Trace>,
    quests: Vec<Trace>,
    /// How many slots each may grow to: the content's triggers and quests.
    sizes: [usize; 2],
}

/// The event of a slot never evaluated.
const UNSEEN: EventKey = EventKey(u32::MAX);

impl Traces {
    pub(super) fn new(triggers: usize, quests: usize) -> Traces {
        Traces {
            triggers: Vec::new(),
            quests: Vec::new(),
            sizes: [triggers, quests],
        }
    }

    pub(super) fn trigger(&self, r: TriggerRef) -> Option<&Trace> {
        seen(self.triggers.get(r.0 as usize))
    }

    /// A quest's trace, by its ordinal.
    pub(super) fn quest(&self, ordinal: u32) -> Option<&Trace> {
        seen(self.quests.get(ordinal as usize))
    }

    /// The slot of a trigger or quest, emptied for a new evaluation of `event` in `turn`.
    /// Evaluation writes into it directly: building a trace aside and moving it in cost more than
    /// the evaluation itself.
    #[inline(always)]
    pub(super) fn begin(&mut self, of: Subject, event: EventKey, turn: u64) -> Option<&mut Trace> {
        let (slots, i, kind) = match of {
            Subject::Trigger(r) => (&mut self.triggers, r.0 as usize, 0),
            Subject::Quest(ordinal) => (&mut self.quests, ordinal as usize, 1),
        };
        let trace = if i < slots.len() {
            &mut slots[i]
        } else {
            grown(slots, i, self.sizes[kind])?
        };
        trace.event = event;
        trace.turn = turn;
        trace.steps.clear();
        Some(trace)
    }

    /// The slots of the triggers (`quests` false) or of the quests, for a run of evaluations of
    /// one kind: each written by its number, without asking again which kind it is.
    #[inline(always)]
    pub(super) fn slots(&mut self, quests: bool) -> Slots<'_> {
        let (slots, size) = match quests {
            false => (&mut self.triggers, self.sizes[0]),
            true => (&mut self.quests, self.sizes[1]),
        };
        Slots { slots, size }
    }

    /// The trace of a trigger or quest, as its last evaluation left it.
    #[cfg(debug_assertions)]
    pub(super) fn of(&self, of: Subject) -> Option<&Trace> {
        match of {
            Subject::Trigger(r) => self.trigger(r),
            Subject::Quest(ordinal) => self.quest(ordinal),
        }
    }

    /// A trace as its last evaluation left it, to add what happened next.
    pub(super) fn last_mut(&mut self, of: Subject) -> Option<&mut Trace> {
        self.slot(of).filter(|t| t.event != UNSEEN)
    }

    #[inline(always)]
    fn slot(&mut self, of: Subject) -> Option<&mut Trace> {
        match of {
            Subject::Trigger(r) => self.triggers.get_mut(r.0 as usize),
            Subject::Quest(ordinal) => self.quests.get_mut(ordinal as usize),
        }
    }
}

/// The trace slots of one kind of subject ([`Traces::slots`]).
pub(super) struct Slots<'t> {
    slots: &'t mut Vec<Trace>,
    size: usize,
}

impl Slots<'_> {
    /// [`Traces::begin`] of the subject numbered `i`, for an evaluation decided at its first
    /// step: the slot holds that step alone (a quick test's failure).
    #[inline(always)]
    pub(super) fn begin_with(
        &mut self,
        i: u32,
        event: EventKey,
        turn: u64,
        step: TraceStep,
    ) -> Option<&mut Trace> {
        let i = i as usize;
        let trace = if i < self.slots.len() {
            &mut self.slots[i]
        } else {
            grown(self.slots, i, self.size)?
        };
        trace.event = event;
        trace.turn = turn;
        trace.steps.first(step);
        Some(trace)
    }
}

/// The slot `i`, made with the slots before it (and as many again as there are, up to `size`),
/// all unseen; `None` past `size`.
#[cold]
#[inline(never)]
fn grown(slots: &mut Vec<Trace>, i: usize, size: usize) -> Option<&mut Trace> {
    let to = (i + 1).max(slots.len() * 2).min(size);
    if to > slots.len() {
        slots.resize(to, Trace::new(UNSEEN, 0));
    }
    slots.get_mut(i)
}

/// A slot's trace, if it was ever evaluated.
fn seen(slot: Option<&Trace>) -> Option<&Trace> {
    slot.filter(|t| t.event != UNSEEN)
}
