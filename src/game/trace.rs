//! "Why": the last evaluation of every trigger and quest, step by step, for `why ID` and tests.
//!
//! Recording happens on every evaluation, so a step holds only cheap data (indexes, numbers, shared
//! values); [`Trace::render`] puts it into words, with names from the content, when someone asks.

use super::check::Saw;
use crate::content::{Condition, Content, EventKey, Value};
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
    /// In a trace slot: the shared trace the slot reads as instead of this one, if any
    /// (`slots.rs`). Kept here, where the trace has room, so a slot is no larger than a trace.
    latest: u32,
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
            latest: slots::OWN,
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

mod slots;
pub(super) use slots::{Subject, Traces};
