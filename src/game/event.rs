//! Events on the bus: an engine or custom event kind, its source and target, and its payload.

use super::state::CreatureRef;
use crate::content::{EventKey, Value};

#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub kind: EventKey,
    /// The creature the event fires at (see the event table in the guide).
    pub source: CreatureRef,
    /// The other side of the event, if any.
    pub target: Option<CreatureRef>,
    /// Payload values by field index; absent fields are `None`. Shared, so logging an event is cheap;
    /// by `Rc`, since a game stays on the thread that owns its Lua state and an atomic count on
    /// every event was measurable.
    pub payload: std::rc::Rc<[Option<Value>]>,
}

impl Event {
    pub fn field(&self, index: usize) -> Option<&Value> {
        self.payload.get(index).and_then(Option::as_ref)
    }
}

/// An event as it was handled: for `log`, `g:events()` and the loop diagnostic.
#[derive(Debug, Clone, PartialEq)]
pub struct Handled {
    pub event: Event,
    /// The trigger or quest whose actions queued this event, if any.
    pub cause: Option<String>,
    /// The number of the handled event whose handling queued this one.
    pub parent: Option<usize>,
}
