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
    /// How many listeners right after it in its event's list have its quick form ([`mark_same`]):
    /// when it fails its quick test, they fail it the same way, without testing again.
    pub(crate) same_after: u32,
    /// The one `when` filter, if the test has a quick form.
    pub(crate) when: QuickWhen,
    /// The one condition, or [`QuickTest::Full`]: no quick form.
    pub(crate) test: QuickTest,
}

/// The `when` filter of a quick test: a payload field's index and the value it must equal.
/// `repr(u8)`, as the enums dispatch reads are: a plain tag byte, not one folded into the
/// value's spare tags that every read decodes.
#[derive(Debug, Clone, PartialEq)]
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
#[derive(Debug, Clone, PartialEq)]
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
        Listener {
            of,
            same_after: 0,
            when,
            test,
        }
    }
}

/// Counts for each listener of an event's list the listeners right after it with its quick form
/// ([`Listener::same_after`]): a mod's many triggers of one shape on one event (ten `has_item`
/// tests of the same item) are then tested once for each event, and only their traces written.
pub(crate) fn mark_same(list: &mut [Listener]) {
    let mut after = 0;
    for i in (0..list.len()).rev() {
        list[i].same_after = after;
        let quick = !matches!(list[i].test, QuickTest::Full);
        let same = |p: &Listener| p.when == list[i].when && p.test == list[i].test;
        after = match i.checked_sub(1).map(|p| &list[p]) {
            Some(p) if quick && same(p) => after + 1,
            _ => 0,
        };
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

#[cfg(test)]
mod tests {
    use super::*;

    fn listener(test: QuickTest) -> Listener {
        Listener {
            of: 0,
            same_after: u32::MAX,
            when: QuickWhen::Int(0, 1),
            test,
        }
    }

    #[test]
    fn each_listener_counts_those_right_after_it_of_its_quick_form() {
        let gold = || QuickTest::HasItem {
            who: Who::Player,
            item: Id::new("m", "gold"),
            count: 5,
            negate: false,
        };
        let tag = QuickTest::HasTag {
            who: Who::Bearer,
            tag: Id::new("m", "undead"),
            negate: false,
        };
        let mut list = vec![
            listener(gold()),
            listener(gold()),
            listener(gold()),
            listener(tag),
            listener(gold()),
            listener(gold()),
            listener(QuickTest::Full),
            listener(QuickTest::Full),
        ];
        // Another `when` is another form.
        list.push(Listener {
            when: QuickWhen::Int(0, 2),
            ..listener(gold())
        });
        mark_same(&mut list);
        let counts: Vec<u32> = list.iter().map(|l| l.same_after).collect();
        assert_eq!(counts, [2, 1, 0, 0, 1, 0, 0, 0, 0]);
    }
}
