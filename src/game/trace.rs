//! "Why": the last evaluation of every trigger and quest, step by step, for `why ID` and tests.

use crate::content::TriggerRef;
use crate::id::Id;
use std::collections::BTreeMap;
use std::fmt;

/// What happened at one evaluation.
#[derive(Debug, Clone, PartialEq)]
pub enum TraceStep {
    /// A `when` field differed: (field, wanted, got).
    WhenDiffered {
        field: String,
        wanted: String,
        got: String,
    },
    /// A condition failed: its position (from 1), what it checks, and what it saw.
    ConditionFailed {
        index: usize,
        check: String,
        saw: String,
    },
    /// The chance roll: stream, value rolled, chance needed.
    Rolled {
        stream: String,
        roll: f64,
        chance: f64,
        success: bool,
    },
    /// The quest is not active (never started, or done).
    QuestNotActive { state: &'static str },
    /// The quest counted: new count of the goal.
    Counted { count: u32, goal: u32 },
    /// The actions ran.
    Fired,
    /// The actions failed and were rolled back.
    ActionsFailed { message: String },
}

#[derive(Debug, Clone, PartialEq)]
pub struct Trace {
    /// The event evaluated, and the turn it was handled in.
    pub event: crate::content::EventKey,
    pub turn: u64,
    pub steps: Vec<TraceStep>,
}

impl Trace {
    /// The trace in words, with event names from `events`.
    pub fn render(&self, events: &crate::content::EventTable) -> String {
        let mut out = String::new();
        let _ = self.write(&mut out, &events.get(self.event).name);
        out
    }

    fn write(&self, f: &mut impl fmt::Write, event: &str) -> fmt::Result {
        writeln!(f, "on `{event}` (turn {}):", self.turn)?;
        if self.steps.is_empty() {
            writeln!(f, "  every filter and condition held")?;
        }
        for step in &self.steps {
            match step {
                TraceStep::WhenDiffered { field, wanted, got } => {
                    writeln!(f, "  `when` {field}: wanted {wanted}, the event had {got}")?
                }
                TraceStep::ConditionFailed { index, check, saw } => {
                    writeln!(f, "  condition {index} failed: {check} (saw {saw})")?
                }
                TraceStep::Rolled {
                    stream,
                    roll,
                    chance,
                    success,
                } => writeln!(
                    f,
                    "  rolled {roll:.4} on stream `{stream}` against chance {chance}: {}",
                    if *success { "success" } else { "no luck" }
                )?,
                TraceStep::QuestNotActive { state } => {
                    writeln!(f, "  the quest is {state}, so it does not count")?
                }
                TraceStep::Counted { count, goal } => writeln!(f, "  counted: {count} of {goal}")?,
                TraceStep::Fired => writeln!(f, "  fired: the actions ran")?,
                TraceStep::ActionsFailed { message } => {
                    writeln!(f, "  the actions failed and were rolled back: {message}")?
                }
            }
        }
        Ok(())
    }
}

pub struct Traces {
    triggers: Vec<Option<Trace>>,
    quests: BTreeMap<Id, Trace>,
}

impl Traces {
    pub fn new(triggers: usize) -> Traces {
        Traces {
            triggers: vec![None; triggers],
            quests: BTreeMap::new(),
        }
    }

    pub fn trigger(&self, r: TriggerRef) -> Option<&Trace> {
        self.triggers.get(r.0 as usize).and_then(Option::as_ref)
    }

    pub fn quest(&self, id: &Id) -> Option<&Trace> {
        self.quests.get(id)
    }

    pub fn set_trigger(&mut self, r: TriggerRef, trace: Trace) {
        if let Some(slot) = self.triggers.get_mut(r.0 as usize) {
            *slot = Some(trace);
        }
    }

    pub fn set_quest(&mut self, id: &Id, trace: Trace) {
        match self.quests.get_mut(id) {
            Some(t) => *t = trace,
            None => {
                self.quests.insert(id.clone(), trace);
            }
        }
    }
}
