//! Listeners' quick tests (the [`QuickTest`] and [`QuickWhen`] of a [`Listener`]): whether an
//! evaluation fails, answered from the listener's own record, with the trace the full evaluation
//! would write. An evaluation that passes, or one the quick form does not answer (nobody to ask
//! about, a quest not under way), is left to the full evaluation; a debug build checks every
//! quick answer against it, so the whole test suite checks the quick form.

use super::check::Saw;
use super::trace::{Subject, TraceStep, Traces};
use super::{Creature, Ctx, Event, Game};
use crate::content::Value;
use crate::content::{Content, Listener, QuickTest, QuickWhen, Who};

/// The creatures a check can ask about in one context, by [`Who`] (bearer, target, player,
/// source): found once for a run of listeners rather than once a listener.
type Subjects<'g> = [Option<&'g Creature>; 4];

// `Subjects` is indexed by `Who`'s discriminant.
const _: () = assert!(
    Who::Bearer as usize == 0
        && Who::Target as usize == 1
        && Who::Player as usize == 2
        && Who::Source as usize == 3
);

impl Game {
    /// How many listeners at the start of `list` fail their quick test for `event` (each one's
    /// trace written as a full evaluation's would be), up to the first that does not (no quick
    /// form, a test that holds, or one `answers` leaves to the full evaluation). None without
    /// traces to write.
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
        let subjects: Subjects = [
            self.creature(ctx.bearer),
            ctx.target.and_then(|t| self.creature(t)),
            Some(&self.state.player),
            ctx.source.and_then(|s| self.creature(s)),
        ];
        let turn = self.state.turn;
        let failed = list
            .iter()
            .position(|l| {
                !(answers(self, l.of)
                    && quick_fails(l, event, &subjects, traces, subject(l.of), turn))
            })
            .unwrap_or(list.len());
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

/// Whether the quick test of `l` fails for `event`: if it does, the trace of `of` says why. False
/// when it holds, when `l` has no quick form, or when it is not for the quick form to say (nobody
/// to ask about).
#[inline(always)]
fn quick_fails(
    l: &Listener,
    event: &Event,
    subjects: &Subjects,
    traces: &mut Traces,
    of: Subject,
    turn: u64,
) -> bool {
    if matches!(l.test, QuickTest::Full) {
        return false;
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
        if let Some(trace) = traces.begin(of, event.kind, turn) {
            trace.steps.first(TraceStep::WhenDiffered { index: 0 });
            trace.got = got.cloned().flatten();
        }
        return true;
    }
    match &l.test {
        QuickTest::Full | QuickTest::Nothing => false,
        QuickTest::HasItem {
            who,
            item,
            count,
            negate,
        } => {
            let Some(c) = subjects[*who as usize] else {
                return false;
            };
            let held: u32 = c
                .inventory
                .iter()
                .filter(|s| s.item == *item)
                .map(|s| s.count)
                .sum();
            if (held >= *count) != *negate {
                return false;
            }
            if let Some(trace) = traces.begin(of, event.kind, turn) {
                trace.steps.first(TraceStep::ConditionFailed { index: 1 });
                // A number written over a number (the usual case) drops nothing.
                match &mut trace.saw {
                    Saw::Number(n) => *n = held as i64,
                    saw => *saw = Saw::Number(held as i64),
                }
            }
            true
        }
        QuickTest::HasTag { who, tag, negate } => {
            let Some(c) = subjects[*who as usize] else {
                return false;
            };
            if c.tags.contains(tag) != *negate {
                return false;
            }
            if let Some(trace) = traces.begin(of, event.kind, turn) {
                trace.steps.first(TraceStep::ConditionFailed { index: 1 });
                trace.saw = Saw::Tags(c.def.clone());
            }
            true
        }
    }
}
