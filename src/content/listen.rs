//! Listeners laid out for dispatch: each top-level trigger and quest of an event kind beside a
//! copy of its test when the test has the commonest shape (at most one `when` filter and one
//! `has_item` of one item or one `has_tag`, no `chance`). Most evaluations fail, and a failing
//! one of that shape reads this record alone, not the definition and the lists behind it
//! (docs/performance.md, what an event's cost is made of).

use super::condition::{Check, Condition, Who};
use super::event::Value;
use crate::id::Id;

/// A trigger (by its [`TriggerRef`](super::TriggerRef)'s number) or a quest (by its ordinal) that
/// listens to an event, with its test's quick form when it has one: whether an evaluation fails
/// is answered from here, and one that passes is evaluated from the definition as any other.
#[derive(Debug, Clone)]
pub(crate) struct Listener {
    pub(crate) of: u32,
    /// The one `when` filter, if the test has a quick form.
    pub(crate) when: QuickWhen,
    /// The one condition, or [`QuickTest::Full`]: no quick form.
    pub(crate) test: QuickTest,
}

/// The `when` filter of a quick test: a payload field's index and the value it must equal.
/// `repr(u8)`, as the enums dispatch reads are: a plain tag byte, not one folded into the
/// value's spare tags that every read decodes.
#[derive(Debug, Clone)]
#[repr(u8)]
pub(crate) enum QuickWhen {
    /// No filter.
    Always,
    /// A whole number (the commonest filter, compared without matching the value's kind).
    Int(usize, i64),
    /// Any other value.
    Equal(usize, Value),
}

/// The one condition of a quick test.
#[derive(Debug, Clone)]
#[repr(u8)]
pub(crate) enum QuickTest {
    /// The test has no quick form: every evaluation is a full one.
    Full,
    /// No condition.
    Nothing,
    /// `has_item` of one item ID (no tag or rarity filter).
    HasItem {
        who: Who,
        item: Id,
        count: u32,
        negate: bool,
    },
    /// `has_tag`.
    HasTag { who: Who, tag: Id, negate: bool },
}

impl Listener {
    /// The listener of a definition whose test is `when`, `condition` and `chance`.
    pub(crate) fn new(
        of: u32,
        when: &[(usize, Value)],
        condition: &[Condition],
        chance: Option<f64>,
    ) -> Listener {
        let test = quick_test(when, condition, chance);
        let when = match when.first() {
            _ if matches!(test, QuickTest::Full) => QuickWhen::Always,
            None => QuickWhen::Always,
            Some((field, Value::Int(n))) => QuickWhen::Int(*field, *n),
            Some((field, value)) => QuickWhen::Equal(*field, value.clone()),
        };
        Listener { of, when, test }
    }
}

/// The quick form of a test's condition, or [`QuickTest::Full`] when the test has none.
fn quick_test(when: &[(usize, Value)], condition: &[Condition], chance: Option<f64>) -> QuickTest {
    if chance.is_some() || when.len() > 1 || condition.len() > 1 {
        return QuickTest::Full;
    }
    let Some(c) = condition.first() else {
        return QuickTest::Nothing;
    };
    match &c.check {
        Check::HasItem { who, filter, count }
            if filter.tag.is_none() && filter.rarity.is_none() =>
        {
            match &filter.item {
                Some(item) => QuickTest::HasItem {
                    who: *who,
                    item: item.clone(),
                    count: *count,
                    negate: c.negate,
                },
                None => QuickTest::Full,
            }
        }
        Check::HasTag { who, tag } => QuickTest::HasTag {
            who: *who,
            tag: tag.clone(),
            negate: c.negate,
        },
        _ => QuickTest::Full,
    }
}
