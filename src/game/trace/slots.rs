//! Where the traces live: a slot for each trigger and quest, and the traces that runs of
//! listeners share.
//!
//! Most evaluations fail at their first test, and listeners of the same form, side by side in a
//! listener list, fail the same way on the same event (`Listener::same_after`). Such a run writes
//! its trace once, in a shared trace, and each listener's slot only points at it: one store a
//! listener instead of a trace's worth. A slot reads as its own trace or the shared one it points
//! at, whichever was written last; shared traces no slot can reach any more are dropped in bulk,
//! when they are as many as the slots (or a few dozen): they never hold more than the slots do,
//! which matters to a server holding many games.

use super::Trace;
use crate::content::{EventKey, TriggerRef};

/// What a trace is of: a trigger, or a quest by its ordinal.
#[derive(Debug, Clone, Copy)]
pub(in crate::game) enum Subject {
    Trigger(TriggerRef),
    Quest(u32),
}

/// Every trigger's and quest's trace, in slots made as evaluations first reach them (a slot never
/// evaluated is marked by an event no content has, so writing a trace tests no `Option`). A test
/// game over a pack of 100,000 definitions evaluates a few of them: making every slot with the
/// game cost it a twentieth of its time.
pub(in crate::game) struct Traces {
    triggers: Kind,
    quests: Kind,
    /// The traces runs of quick failures share ([`Traces::share`]).
    shared: Vec<Trace>,
}

/// The slots of the triggers or of the quests.
struct Kind {
    /// Each one's own trace, whose `latest` says which shared trace, if any, is its last
    /// evaluation instead.
    slots: Vec<Trace>,
    /// How many slots there may be: the content's triggers or quests.
    size: usize,
    /// The shared trace a run of these last pointed at, or [`OWN`].
    last: u32,
}

/// A slot whose own trace is its last evaluation.
pub(super) const OWN: u32 = u32::MAX;

/// The event of a slot never evaluated.
const UNSEEN: EventKey = EventKey(u32::MAX);

/// The fewest shared traces kept before the unreachable ones are dropped.
const SHARED_FEWEST: usize = 64;

impl Traces {
    pub(in crate::game) fn new(triggers: usize, quests: usize) -> Traces {
        Traces {
            triggers: Kind::new(triggers),
            quests: Kind::new(quests),
            shared: Vec::new(),
        }
    }

    pub(in crate::game) fn trigger(&self, r: TriggerRef) -> Option<&Trace> {
        self.triggers.get(r.0 as usize, &self.shared)
    }

    /// A quest's trace, by its ordinal.
    pub(in crate::game) fn quest(&self, ordinal: u32) -> Option<&Trace> {
        self.quests.get(ordinal as usize, &self.shared)
    }

    /// The trace of a trigger or quest, as its last evaluation left it.
    #[cfg(debug_assertions)]
    pub(in crate::game) fn of(&self, of: Subject) -> Option<&Trace> {
        match of {
            Subject::Trigger(r) => self.trigger(r),
            Subject::Quest(ordinal) => self.quest(ordinal),
        }
    }

    /// The slot of a trigger or quest, emptied for a new evaluation of `event` in `turn`.
    /// Evaluation writes into it directly: building a trace aside and moving it in cost more than
    /// the evaluation itself.
    #[inline(always)]
    pub(in crate::game) fn begin(
        &mut self,
        of: Subject,
        event: EventKey,
        turn: u64,
    ) -> Option<&mut Trace> {
        let (kind, i) = match of {
            Subject::Trigger(r) => (&mut self.triggers, r.0 as usize),
            Subject::Quest(ordinal) => (&mut self.quests, ordinal as usize),
        };
        let trace = kind.own(i)?;
        trace.event = event;
        trace.turn = turn;
        trace.steps.clear();
        Some(trace)
    }

    /// A trace as its last evaluation left it, to add what happened next: its own from now on.
    #[inline(always)]
    pub(in crate::game) fn last_mut(&mut self, of: Subject) -> Option<&mut Trace> {
        let (kind, i) = match of {
            Subject::Trigger(r) => (&mut self.triggers, r.0 as usize),
            Subject::Quest(ordinal) => (&mut self.quests, ordinal as usize),
        };
        let slot = kind.slots.get_mut(i)?;
        if slot.latest != OWN {
            slot.settle(&self.shared);
        }
        Some(slot).filter(|t| t.event != UNSEEN)
    }

    /// A trace for a run of triggers (`quests` false) or quests to share: the one the last run
    /// of that kind shared when it is the `same`, else one `made` (both are plain data, so the
    /// runs of a turn's events share one trace). The slots of the run are then pointed at it
    /// through the handle, each by its number.
    #[inline(always)]
    pub(in crate::game) fn share(
        &mut self,
        quests: bool,
        same: impl FnOnce(&Trace) -> bool,
        made: impl FnOnce() -> Trace,
    ) -> Shared<'_> {
        let last = match quests {
            false => self.triggers.last,
            true => self.quests.last,
        };
        let at = match self.shared.get(last as usize) {
            Some(trace) if same(trace) => last,
            _ => self.push_shared(made()),
        };
        let kind = match quests {
            false => &mut self.triggers,
            true => &mut self.quests,
        };
        kind.last = at;
        Shared { kind, at }
    }

    /// Adds a shared trace; its number.
    fn push_shared(&mut self, trace: Trace) -> u32 {
        if self.shared.len() >= self.shared_most() {
            self.drop_shared();
        }
        self.shared.push(trace);
        self.shared.len() as u32 - 1
    }

    /// As many shared traces as there are slots (or a few): past that, most are unreachable, and
    /// dropping them visits each slot once.
    fn shared_most(&self) -> usize {
        (self.triggers.slots.len() + self.quests.slots.len()).max(SHARED_FEWEST)
    }

    /// Each slot pointing at a shared trace gets a copy as its own; the shared ones go.
    #[cold]
    #[inline(never)]
    fn drop_shared(&mut self) {
        self.triggers.settle(&self.shared);
        self.quests.settle(&self.shared);
        self.shared.clear();
        (self.triggers.last, self.quests.last) = (OWN, OWN);
    }
}

/// A shared trace being pointed at by the slots of one kind ([`Traces::share`]).
pub(in crate::game) struct Shared<'t> {
    kind: &'t mut Kind,
    at: u32,
}

impl Shared<'_> {
    /// Points the slots numbered by `slots` at the shared trace: their last evaluation. How
    /// many there were.
    #[inline(always)]
    pub(in crate::game) fn point(&mut self, slots: impl Iterator<Item = u32>) -> usize {
        let mut n = 0;
        // The slots are read once, and again only when they grew.
        let mut made = &mut self.kind.slots[..];
        for i in slots {
            let i = i as usize;
            match made.get_mut(i) {
                Some(slot) => slot.latest = self.at,
                None => {
                    if let Some(slot) = self.kind.grown(i) {
                        slot.latest = self.at;
                    }
                    made = &mut self.kind.slots[..];
                }
            }
            n += 1;
        }
        n
    }
}

impl Kind {
    fn new(size: usize) -> Kind {
        Kind {
            slots: Vec::new(),
            size,
            last: OWN,
        }
    }

    /// The trace slot `i` reads as, if it was ever evaluated.
    fn get<'t>(&'t self, i: usize, shared: &'t [Trace]) -> Option<&'t Trace> {
        let slot = self.slots.get(i)?;
        match slot.latest {
            OWN => Some(slot).filter(|t| t.event != UNSEEN),
            at => shared.get(at as usize),
        }
    }

    /// Slot `i`'s own trace, its last evaluation from now on.
    #[inline(always)]
    fn own(&mut self, i: usize) -> Option<&mut Trace> {
        let slot = if i < self.slots.len() {
            &mut self.slots[i]
        } else {
            self.grown(i)?
        };
        slot.latest = OWN;
        Some(slot)
    }

    /// Slot `i`, made with the slots before it (and as many again as there are, up to `size`),
    /// all unseen; `None` past `size`.
    #[cold]
    #[inline(never)]
    fn grown(&mut self, i: usize) -> Option<&mut Trace> {
        let to = (i + 1).max(self.slots.len() * 2).min(self.size);
        if to > self.slots.len() {
            self.slots.resize(to, Trace::new(UNSEEN, 0));
        }
        self.slots.get_mut(i)
    }

    /// Every slot's own trace made what it reads as.
    fn settle(&mut self, shared: &[Trace]) {
        for slot in &mut self.slots {
            if slot.latest != OWN {
                slot.settle(shared);
            }
        }
    }
}

impl Trace {
    /// A slot's own trace made what the slot reads as.
    #[cold]
    #[inline(never)]
    fn settle(&mut self, shared: &[Trace]) {
        if let Some(trace) = shared.get(self.latest as usize) {
            self.clone_from(trace);
        }
        self.latest = OWN;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::check::Saw;
    use crate::game::trace::Steps;
    use crate::game::TraceStep;

    fn failed(turn: u64, held: i64) -> Trace {
        let mut t = Trace::new(EventKey(3), turn);
        t.steps.first(TraceStep::ConditionFailed { index: 1 });
        t.saw = Saw::Number(held);
        t
    }

    /// Points the `triggers` at a trace like `failed(turn, held)`.
    fn share(traces: &mut Traces, triggers: &[u32], turn: u64, held: i64) -> usize {
        let trace = failed(turn, held);
        traces
            .share(false, |t| *t == trace, || trace.clone())
            .point(triggers.iter().copied())
    }

    fn read(traces: &Traces, r: u32) -> Option<Trace> {
        traces.trigger(TriggerRef(r)).cloned()
    }

    /// What a trace says: what it saw counts only where a step says so (a new evaluation leaves
    /// the last one's, as the full evaluation does).
    fn says(t: &Trace) -> (EventKey, u64, Steps, Option<&Saw>) {
        let saw = matches!(t.steps.as_slice(), [TraceStep::ConditionFailed { .. }, ..]);
        (t.event, t.turn, t.steps, saw.then_some(&t.saw))
    }

    #[test]
    fn a_slot_reads_whichever_of_its_own_and_a_shared_trace_came_last() {
        let mut traces = Traces::new(10, 2);
        assert_eq!(read(&traces, 1), None);
        assert_eq!(share(&mut traces, &[1, 4, 9], 1, 5), 3);
        for r in [1, 4, 9] {
            assert_eq!(read(&traces, r), Some(failed(1, 5)));
        }
        assert_eq!(read(&traces, 2), None, "a slot not pointed at is unseen");
        assert!(
            traces.quest(0).is_none(),
            "a run of triggers is not a quest's"
        );
        // A full evaluation of one writes its own trace; the others still read the shared one.
        let own = traces.begin(Subject::Trigger(TriggerRef(4)), EventKey(7), 2);
        own.expect("a slot within the content")
            .steps
            .first(TraceStep::Fired);
        let mut fired = Trace::new(EventKey(7), 2);
        fired.steps.first(TraceStep::Fired);
        assert_eq!(read(&traces, 4), Some(fired));
        assert_eq!(read(&traces, 9), Some(failed(1, 5)));
        // Pointed at again, it reads the shared trace.
        share(&mut traces, &[4], 3, 6);
        assert_eq!(read(&traces, 4), Some(failed(3, 6)));
        assert_eq!(read(&traces, 1), Some(failed(1, 5)));
        // Past the content's triggers there is no slot to write.
        assert_eq!(share(&mut traces, &[10], 3, 6), 1);
        assert_eq!(read(&traces, 10), None);
        assert!(traces
            .begin(Subject::Trigger(TriggerRef(10)), EventKey(7), 2)
            .is_none());
    }

    #[test]
    fn runs_failing_alike_share_one_trace_and_a_step_added_to_one_stays_its_own() {
        let mut traces = Traces::new(10, 2);
        share(&mut traces, &[1, 2], 1, 5);
        share(&mut traces, &[3], 1, 5);
        assert_eq!(traces.shared.len(), 1, "the same trace is shared again");
        share(&mut traces, &[5], 1, 6);
        assert_eq!(traces.shared.len(), 2);
        let trace = traces.last_mut(Subject::Trigger(TriggerRef(2))).unwrap();
        trace.steps.push(TraceStep::Fired);
        let mut with_step = failed(1, 5);
        with_step.steps.push(TraceStep::Fired);
        assert_eq!(read(&traces, 2), Some(with_step));
        assert_eq!(read(&traces, 1), Some(failed(1, 5)));
        assert_eq!(read(&traces, 3), Some(failed(1, 5)));
        assert!(traces.last_mut(Subject::Trigger(TriggerRef(7))).is_none());
    }

    #[test]
    fn shared_traces_dropped_in_bulk_leave_each_slot_reading_what_it_did() {
        let mut traces = Traces::new(100, 0);
        let mut last = vec![None; 100];
        // Every slot pointed at, a few given their own, then enough different failures for the
        // first ten to drop the shared traces several times over.
        for n in 0..(SHARED_FEWEST * 5) as u32 {
            let r = if n < 100 { n * 7 % 100 } else { n % 10 };
            share(&mut traces, &[r], 1, i64::from(n));
            last[r as usize] = Some(failed(1, i64::from(n)));
            if n < 100 && n % 13 == 0 {
                let t = traces.begin(Subject::Trigger(TriggerRef(n % 100)), EventKey(9), 4);
                t.unwrap().steps.first(TraceStep::Fired);
                let mut fired = Trace::new(EventKey(9), 4);
                fired.steps.first(TraceStep::Fired);
                last[(n % 100) as usize] = Some(fired);
            }
        }
        assert!(traces.shared.len() <= traces.shared_most());
        for (r, want) in last.iter().enumerate() {
            let got = read(&traces, r as u32);
            assert_eq!(
                got.as_ref().map(says),
                want.as_ref().map(says),
                "trigger {r}"
            );
        }
    }
}
