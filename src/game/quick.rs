//! Listeners' quick tests (the [`QuickTest`] and [`QuickWhen`] of a [`Listener`]): whether an
//! evaluation fails, answered from the listener's own record, with the trace the full evaluation
//! would write. An evaluation that passes, or one the quick form does not answer (nobody to ask
//! about, a quest not under way), is left to the full evaluation; a debug build checks every
//! quick answer against it, so the whole test suite checks the quick form.

use super::check::Saw;
use super::trace::{Subject, Trace, TraceStep, Traces};
use super::{Creature, Ctx, Event, Game};
use crate::content::{Content, Listener, QuickTest, QuickWhen};
use crate::content::{EventKey, Value};

impl Game {
    /// How many listeners at the start of `list` fail their quick test for `event` (each one's
    /// trace written as a full evaluation's would be), up to the first that does not (no quick
    /// form, a test that holds, or one `answers` leaves to the full evaluation). None without
    /// traces to write. A listener's followers of the same quick form
    /// ([`Listener::same_after`]) are not tested again: they fail as it did.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn quick_run(
        &mut self,
        content: &Content,
        list: &[Listener],
        event: &Event,
        ctx: &Ctx,
        traces: &mut Option<Box<Traces>>,
        subject: fn(u32) -> Subject,
        answers: impl Fn(&Game, u32) -> bool,
    ) -> usize {
        let Some(traces) = traces.as_deref_mut() else {
            return 0;
        };
        let (kind, turn) = (event.kind, self.state.turn);
        // A list's subjects are all triggers or all quests: their traces are in one kind of slot.
        let quests = matches!(subject(0), Subject::Quest(_));
        let mut at = 0;
        while let Some(l) = list.get(at) {
            if !answers(self, l.of) {
                break;
            }
            let Some(failed) = quick_failure(self, l, event, ctx) else {
                break;
            };
            // The listeners after it of the same quick form fail the same way: the run shares
            // one trace, which each slot points at. (`same_after` is counted over this very list
            // whenever it is built or patched, so the run ends inside it.)
            let run = &list[at..=at + l.same_after as usize];
            let mut shared = traces.share(
                quests,
                |t| t.event == kind && t.turn == turn && failed.wrote(t),
                || failed.trace(kind, turn),
            );
            // The first was tested above.
            let tested = |l: &&Listener| answers(self, l.of);
            let rest = run[1..].iter().take_while(tested);
            let n = shared.point(std::iter::once(l.of).chain(rest.map(|l| l.of)));
            at += n;
        }
        let failed = at;
        #[cfg(debug_assertions)]
        for l in &list[..failed] {
            self.check_quick(content, event, ctx, traces, subject(l.of));
        }
        #[cfg(not(debug_assertions))]
        let _ = content;
        failed
    }

    /// In a debug build: the full evaluation of what `of` tests fails too, and writes the trace
    /// the quick test wrote.
    #[cfg(debug_assertions)]
    fn check_quick(
        &mut self,
        content: &Content,
        event: &Event,
        ctx: &Ctx,
        traces: &Traces,
        of: Subject,
    ) {
        let (when, condition) = match of {
            Subject::Trigger(r) => {
                let t = content.trigger(r);
                (&t.when, &t.condition)
            }
            Subject::Quest(ordinal) => {
                let q = &content.quest_defs[ordinal as usize];
                (&q.when, &q.condition)
            }
        };
        let mut full = super::trace::Trace::new(event.kind, self.state.turn);
        let fired = self.evaluate(when, condition, None, event, ctx, &mut full);
        assert!(
            !fired,
            "a quick test failed where the full evaluation holds"
        );
        let quick = traces.of(of).expect("a quick test wrote no trace");
        assert_eq!(
            quick.steps, full.steps,
            "a quick test's steps differ from the full evaluation's"
        );
        // What a trace saw or got is read only for the step that says so; otherwise it is what
        // an earlier evaluation left, in both paths.
        match quick.steps.iter().next() {
            Some(TraceStep::ConditionFailed { .. }) => assert_eq!(quick.saw, full.saw),
            Some(TraceStep::WhenDiffered { .. }) => assert_eq!(quick.got, full.got),
            _ => {}
        }
    }
}

/// How a listener failed its quick test: what its trace says it saw.
#[derive(Clone, Copy)]
enum Failed<'a> {
    /// The `when` filter's field was another value (or none).
    When(Option<&'a Option<Value>>),
    /// `has_item` counted this many.
    Held(u32),
    /// `has_tag` did not find the tag on this creature (or found it, negated).
    Tags(&'a Creature),
}

impl Failed<'_> {
    /// The trace a full evaluation of `event` in `turn` failing this way writes.
    fn trace(self, event: EventKey, turn: u64) -> Trace {
        let mut trace = Trace::new(event, turn);
        match self {
            Failed::When(got) => {
                trace.steps.first(TraceStep::WhenDiffered { index: 0 });
                trace.got = got.cloned().flatten();
            }
            Failed::Held(held) => {
                trace.steps.first(TraceStep::ConditionFailed { index: 1 });
                trace.saw = Saw::Number(held as i64);
            }
            Failed::Tags(c) => {
                trace.steps.first(TraceStep::ConditionFailed { index: 1 });
                trace.saw = Saw::Tags(c.def.clone());
            }
        }
        trace
    }

    /// Whether `trace` says what [`Failed::trace`] would (its event and turn aside).
    #[inline(always)]
    fn wrote(self, trace: &Trace) -> bool {
        match (self, trace.steps.as_slice()) {
            (Failed::When(got), [TraceStep::WhenDiffered { index: 0 }]) => {
                trace.got.as_ref() == got.and_then(Option::as_ref)
            }
            (Failed::Held(held), [TraceStep::ConditionFailed { index: 1 }]) => {
                matches!(trace.saw, Saw::Number(n) if n == held as i64)
            }
            (Failed::Tags(c), [TraceStep::ConditionFailed { index: 1 }]) => {
                matches!(&trace.saw, Saw::Tags(def) if *def == c.def)
            }
            _ => false,
        }
    }
}

/// How the quick test of `l` fails for `event`; `None` when it holds, when `l` has no quick
/// form, or when it is not for the quick form to say (nobody to ask about).
#[inline(always)]
fn quick_failure<'a>(
    game: &'a Game,
    l: &'a Listener,
    event: &'a Event,
    ctx: &Ctx,
) -> Option<Failed<'a>> {
    if matches!(l.test, QuickTest::Full) {
        return None;
    }
    let differs = match &l.when {
        QuickWhen::Always => None,
        QuickWhen::Int(field, n) => match event.payload.get(*field) {
            Some(Some(Value::Int(got))) if got == n => None,
            got => Some(got),
        },
        QuickWhen::Equal(field, wanted) => match event.payload.get(*field) {
            Some(Some(got)) if got == wanted => None,
            got => Some(got),
        },
    };
    if let Some(got) = differs {
        return Some(Failed::When(got));
    }
    match &l.test {
        QuickTest::Full | QuickTest::Nothing => None,
        QuickTest::HasItem {
            who,
            item,
            count,
            negate,
        } => {
            let c = game.creature(game.resolve_who(*who, ctx)?)?;
            let held: u32 = c
                .inventory
                .iter()
                .filter(|s| s.item == *item)
                .map(|s| s.count)
                .sum();
            ((held >= *count) == *negate).then_some(Failed::Held(held))
        }
        QuickTest::HasTag { who, tag, negate } => {
            let c = game.creature(game.resolve_who(*who, ctx)?)?;
            (c.tags.contains(tag) == *negate).then_some(Failed::Tags(c))
        }
    }
}
