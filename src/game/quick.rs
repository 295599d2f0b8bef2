//! Listeners' quick tests (the [`QuickTest`] and [`QuickWhen`] of a [`Listener`]): whether an
//! evaluation fails, answered from the listener's own record, with the trace the full evaluation
//! would write. An evaluation that passes, or one the quick form does not answer (nobody to ask
//! about, a quest not under way), is left to the full evaluation; a debug build checks every
//! quick answer against it, so the whole test suite checks the quick form.

use super::check::Saw;
use super::trace::{Slots, Subject, Trace, TraceStep, Traces};
use super::{Creature, Ctx, Event, Game};
use crate::content::{Content, Listener, QuickTest, QuickWhen, Who};
use crate::content::{EventKey, Value};

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
        let subjects: Subjects = [
            self.creature(ctx.bearer),
            ctx.target.and_then(|t| self.creature(t)),
            Some(&self.state.player),
            ctx.source.and_then(|s| self.creature(s)),
        ];
        let (kind, turn) = (event.kind, self.state.turn);
        // A list's subjects are all triggers or all quests: their traces are in one kind of slot.
        let quests = matches!(subject(0), Subject::Quest(_));
        let mut at = 0;
        while let Some(l) = list.get(at) {
            if !answers(self, l.of) {
                break;
            }
            let Some(failed) = quick_failure(l, event, &subjects) else {
                break;
            };
            // The listeners after it of the same quick form fail the same way: only their
            // traces are written, by a loop made for this way of failing.
            // (`same_after` is counted over this very list whenever it is built or patched, so
            // the run ends inside it.)
            let run = &list[at..=at + l.same_after as usize];
            let tested = |l: &Listener| answers(self, l.of);
            let mut slots = traces.slots(quests);
            let written = (kind, turn);
            at += match failed {
                Failed::When(got) => {
                    let got = got.cloned().flatten();
                    let step = TraceStep::WhenDiffered { index: 0 };
                    write_run(&mut slots, run, tested, (written, step), |t| {
                        t.got = got.clone()
                    })
                }
                Failed::Held(held) => {
                    let step = TraceStep::ConditionFailed { index: 1 };
                    write_run(&mut slots, run, tested, (written, step), |t| {
                        match &mut t.saw {
                            // A number written over a number (the usual case) drops nothing.
                            Saw::Number(n) => *n = held as i64,
                            saw => *saw = Saw::Number(held as i64),
                        }
                    })
                }
                Failed::Tags(c) => {
                    let step = TraceStep::ConditionFailed { index: 1 };
                    write_run(&mut slots, run, tested, (written, step), |t| {
                        t.saw = Saw::Tags(c.def.clone())
                    })
                }
            };
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

/// How the quick test of `l` fails for `event`; `None` when it holds, when `l` has no quick
/// form, or when it is not for the quick form to say (nobody to ask about).
#[inline(always)]
fn quick_failure<'a>(
    l: &'a Listener,
    event: &'a Event,
    subjects: &Subjects<'a>,
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
            let c = subjects[*who as usize]?;
            let held: u32 = c
                .inventory
                .iter()
                .filter(|s| s.item == *item)
                .map(|s| s.count)
                .sum();
            ((held >= *count) == *negate).then_some(Failed::Held(held))
        }
        QuickTest::HasTag { who, tag, negate } => {
            let c = subjects[*who as usize]?;
            (c.tags.contains(tag) == *negate).then_some(Failed::Tags(c))
        }
    }
}

/// Writes the trace of the first listener of `run` and of each after it (they have its quick
/// form) while `tested` says it is tested, failed at `step` on an event of `kind` in `turn` as the full evaluation would
/// be: the step, and what it saw (`saw`). How many it wrote.
#[inline(always)]
fn write_run(
    slots: &mut Slots,
    run: &[Listener],
    tested: impl Fn(&Listener) -> bool,
    ((kind, turn), step): ((EventKey, u64), TraceStep),
    saw: impl Fn(&mut Trace),
) -> usize {
    let Some((first, rest)) = run.split_first() else {
        return 0;
    };
    if let Some(trace) = slots.begin_with(first.of, kind, turn, step) {
        saw(trace);
    }
    let mut n = 1;
    for l in rest {
        if !tested(l) {
            break;
        }
        if let Some(trace) = slots.begin_with(l.of, kind, turn, step) {
            saw(trace);
        }
        n += 1;
    }
    n
}
