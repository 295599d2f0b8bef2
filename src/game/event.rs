//! Events on the bus: an engine or custom event kind, its source and target, and its payload.

use super::state::CreatureRef;
use crate::content::{EventKey, Value};
use std::sync::Arc;

/// An event being handled or in the log.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    /// Its kind.
    pub kind: EventKey,
    /// The creature the event fires at (see the event table in the guide).
    pub source: CreatureRef,
    /// The other side of the event, if any.
    pub(crate) target: Option<CreatureRef>,
    /// Payload values by field index; absent fields are `None`. Shared, so logging an event is cheap;
    /// by `Rc`, since a game stays on the thread that owns its Lua state and an atomic count on
    /// every event was measurable.
    pub(crate) payload: Arc<[Option<Value>]>,
}

impl Event {
    /// A payload field's value by its position, if the event carries it.
    pub fn field(&self, index: usize) -> Option<&Value> {
        self.payload.get(index).and_then(Option::as_ref)
    }
}

/// An event as it was handled: for `log`, `g:events()` and the loop diagnostic.
#[derive(Debug, Clone, PartialEq)]
pub struct Handled {
    /// The event.
    pub event: Event,
    /// The trigger or quest whose actions queued this event, if any.
    pub cause: Option<Arc<str>>,
    /// The number of the handled event whose handling queued this one.
    pub(crate) parent: Option<usize>,
}

/// Payload allocations kept for reuse: an event that leaves the log gives its payload back when
/// nothing else holds it (a script may keep an event view), and `emit` fills one of the same length
/// instead of allocating, so handling an event allocates nothing in the common case.
#[derive(Default)]
pub(super) struct Spare {
    by_len: Vec<Vec<Arc<[Option<Value>]>>>,
}

/// Payloads longer than this are not kept, nor more than `SPARE_KEEP` of one length.
const SPARE_MAX_LEN: usize = 8;
const SPARE_KEEP: usize = 64;

impl Spare {
    #[inline(always)]
    pub(super) fn give_back(&mut self, payload: Arc<[Option<Value>]>) {
        let len = payload.len();
        // Nothing else holds it: no other `Arc` (a script's event view), and no `Weak` is ever
        // made of a payload. A count is one load, where `Arc::get_mut` is three atomic steps.
        if len == 0 || len > SPARE_MAX_LEN || Arc::strong_count(&payload) != 1 {
            return;
        }
        if self.by_len.len() <= len {
            self.by_len.resize_with(len + 1, Vec::new);
        }
        if self.by_len[len].len() < SPARE_KEEP {
            self.by_len[len].push(payload);
        }
    }

    /// A payload of `len` fields, each made by `field(index)`: a kept allocation if there is one.
    #[inline]
    pub(super) fn fill(
        &mut self,
        len: usize,
        mut field: impl FnMut(usize) -> Option<Value>,
    ) -> Arc<[Option<Value>]> {
        if let Some(payload) = self.by_len.get_mut(len).and_then(Vec::pop) {
            // SAFETY: `give_back` kept only payloads nothing else held (one `Arc`, and no `Weak`
            // is ever made of a payload), and a kept one is neither cloned nor lent until it is
            // taken here, so this handle is the only one and writing through it is exclusive.
            let slots = unsafe { &mut *Arc::as_ptr(&payload).cast_mut() };
            for (i, slot) in slots.iter_mut().enumerate() {
                *slot = field(i);
            }
            return payload;
        }
        (0..len).map(field).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_payload_given_back_is_filled_again_with_new_values() {
        let mut spare = Spare::default();
        let first: Arc<[Option<Value>]> = vec![Some(Value::Int(1)), None].into();
        let address = Arc::as_ptr(&first) as *const u8;
        spare.give_back(first);
        let again = spare.fill(2, |i| Some(Value::Int(10 + i as i64)));
        assert_eq!(Arc::as_ptr(&again) as *const u8, address);
        assert_eq!(&*again, &[Some(Value::Int(10)), Some(Value::Int(11))]);
        // Nothing of that length is left: the next one is a new allocation.
        let fresh = spare.fill(2, |_| None);
        assert_ne!(Arc::as_ptr(&fresh) as *const u8, address);
    }

    #[test]
    fn a_payload_something_still_holds_is_not_reused() {
        let mut spare = Spare::default();
        let kept: Arc<[Option<Value>]> = vec![Some(Value::Int(7))].into();
        // A script's event view, say, still holds it.
        let view = kept.clone();
        spare.give_back(kept);
        let next = spare.fill(1, |_| Some(Value::Int(8)));
        assert!(!Arc::ptr_eq(&next, &view));
        assert_eq!(&*view, &[Some(Value::Int(7))]);
    }
}
