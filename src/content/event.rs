//! Event kinds as content sees them: dense keys for engine and custom events, their payload schemas,
//! and the payload [`Value`] type shared with the rules engine.

pub use super::vocab::WorldSees;
use super::vocab::{FieldType, ENGINE_EVENTS};
use crate::diag::Span;
use crate::id::Id;
use std::fmt;
use std::sync::Arc;

/// A dense number for an event kind: engine events first, then custom events in ID order.
/// Triggers are indexed by it, so dispatch is an array lookup.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EventKey(pub u32);

/// One event kind: its name and payload schema.
#[derive(Debug, Clone)]
pub struct EventDef {
    /// `creature_died` for engine events, `rats:ritual_done` for custom ones.
    pub name: String,
    /// Which of these events the world's triggers (top level, the scene's, quests) see.
    pub(crate) world: WorldSees,
    /// The payload fields, in order, with their types.
    pub payload: Vec<(String, FieldType)>,
    /// What the event means, for documentation and editors.
    pub description: String,
    /// Where a custom event is declared.
    pub span: Option<Span>,
}

impl EventDef {
    /// A payload field's position and type, by name.
    pub fn field(&self, name: &str) -> Option<(usize, FieldType)> {
        self.field_bytes(name.as_bytes())
    }

    /// As [`field`](Self::field), for a name that may not be UTF-8 (it then names no field).
    pub(crate) fn field_bytes(&self, name: &[u8]) -> Option<(usize, FieldType)> {
        self.payload
            .iter()
            .position(|(n, _)| n.as_bytes() == name)
            .map(|i| (i, self.payload[i].1))
    }
}

/// All event kinds of a content set.
#[derive(Debug, Clone)]
pub struct EventTable {
    defs: Vec<EventDef>,
    /// Every name, for [`EventTable::lookup`]: `emit_event` looks a name up on every call. Keyed by
    /// bytes, so a name read from Lua need not be checked for UTF-8 first, and hashed with FNV-1a,
    /// much cheaper than the standard hasher on names this short (names come from mod files, not
    /// from an adversary; `git log` of this file has the figures).
    by_name: std::collections::HashMap<Box<[u8]>, EventKey, BuildFnv>,
}

/// FNV-1a as a `HashMap` hasher.
#[derive(Default, Clone, Copy, Debug)]
struct BuildFnv;

struct Fnv(u64);

impl std::hash::BuildHasher for BuildFnv {
    type Hasher = Fnv;

    fn build_hasher(&self) -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl std::hash::Hasher for Fnv {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

impl EventTable {
    /// The engine's events, then `custom` in ID order.
    pub(crate) fn new(custom: Vec<EventDef>) -> EventTable {
        EventTable::with_game(Vec::new(), custom)
    }

    /// The engine's events, then the hosting game's (in the order it declared them), then the
    /// mods' custom events in ID order.
    pub(crate) fn with_game(host: Vec<EventDef>, mut custom: Vec<EventDef>) -> EventTable {
        let mut defs: Vec<EventDef> = ENGINE_EVENTS
            .iter()
            .map(|e| EventDef {
                name: e.name.to_string(),
                world: e.world,
                payload: e.payload.iter().map(|(n, t)| (n.to_string(), *t)).collect(),
                description: format!("source: {}; target: {}", e.source, e.target),
                span: None,
            })
            .collect();
        defs.extend(host);
        custom.sort_by(|a, b| a.name.cmp(&b.name));
        defs.extend(custom);
        let by_name = defs
            .iter()
            .enumerate()
            .map(|(i, d)| (d.name.as_bytes().into(), EventKey(i as u32)))
            .collect();
        EventTable { defs, by_name }
    }

    /// The key of an event by its whole name.
    pub fn lookup(&self, name: &str) -> Option<EventKey> {
        self.lookup_bytes(name.as_bytes())
    }

    /// As [`lookup`](Self::lookup), for a name that may not be UTF-8 (it then names no event).
    pub(crate) fn lookup_bytes(&self, name: &[u8]) -> Option<EventKey> {
        self.by_name.get(name).copied()
    }

    /// An event as a mod names it (in `lantern.on`, `emit_event`): a qualified name, an engine
    /// event, or a bare name that means the mod's own (`ritual_done` in mod `rats` is
    /// `rats:ritual_done`). Allocates nothing for names of ordinary length: `emit_event` looks one
    /// up on every call.
    #[inline]
    pub(crate) fn lookup_for(&self, mod_id: &[u8], name: &[u8]) -> Option<EventKey> {
        if let Some(key) = self.lookup_bytes(name) {
            return Some(key);
        }
        if name.contains(&b':') {
            return None;
        }
        let len = mod_id.len() + 1 + name.len();
        let mut buf = [0u8; 128];
        let mut long = Vec::new();
        let qualified = match buf.get_mut(..len) {
            Some(b) => b,
            None => {
                long.resize(len, 0);
                &mut long[..]
            }
        };
        qualified[..mod_id.len()].copy_from_slice(mod_id);
        qualified[mod_id.len()] = b':';
        qualified[mod_id.len() + 1..].copy_from_slice(name);
        self.lookup_bytes(qualified)
    }

    /// An event's definition by its key.
    pub fn get(&self, key: EventKey) -> &EventDef {
        &self.defs[key.0 as usize]
    }

    /// How many event kinds there are.
    pub(crate) fn len(&self) -> usize {
        self.defs.len()
    }

    /// Every event's name, in key order.
    pub(crate) fn names(&self) -> impl Iterator<Item = &str> {
        self.defs.iter().map(|d| d.name.as_str())
    }

    /// Every event with its key, in key order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (EventKey, &EventDef)> {
        self.defs
            .iter()
            .enumerate()
            .map(|(i, d)| (EventKey(i as u32), d))
    }
}

/// The longest text a script may hand lantern as a value to pass on (a payload field, a host
/// function's or verb's argument): payloads are queued, logged and saved, and a script's
/// megabytes copied into each would be held a hundred times over.
pub(crate) const MOST_TEXT: usize = 64 * 1024;

/// A payload value: what events carry, what `when` compares, what `emit_event` sends.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
#[serde(untagged)]
#[non_exhaustive]
pub enum Value {
    /// `true` or `false`.
    Bool(bool),
    /// A whole number.
    Int(i64),
    /// A number with a fraction.
    Float(f64),
    /// Text, or an ID as text.
    Str(Arc<str>),
}

// Compared for every `when` filter of every listening trigger: numbers first, and text by pointer
// before content (a filter's value and an event's often share it). Same answers as a derived
// `PartialEq`.
impl PartialEq for Value {
    #[inline]
    fn eq(&self, other: &Value) -> bool {
        if let (Value::Int(a), Value::Int(b)) = (self, other) {
            return a == b;
        }
        if let (Value::Str(a), Value::Str(b)) = (self, other) {
            if Arc::ptr_eq(a, b) {
                return true;
            }
        }
        self.eq_rest(other)
    }
}

impl Value {
    #[inline(never)]
    fn eq_rest(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Float(a), Value::Float(b)) => a == b,
            (Value::Str(a), Value::Str(b)) => a == b,
            _ => false,
        }
    }
}

impl Value {
    /// An ID as a payload value (its whole text).
    pub fn id(id: &Id) -> Value {
        Value::Str(Arc::from(id.as_str()))
    }

    /// Text as a payload value.
    pub fn str(s: &str) -> Value {
        Value::Str(Arc::from(s))
    }

    /// The type's name, for messages: `bool`, `int`, `float`, `string`.
    pub(crate) fn type_name(&self) -> &'static str {
        match self {
            Value::Bool(_) => "bool",
            Value::Int(_) => "int",
            Value::Float(_) => "float",
            Value::Str(_) => "string",
        }
    }

    /// Whether a value fits a declared field type (IDs travel as strings).
    pub(crate) fn fits(&self, ty: FieldType) -> bool {
        matches!(
            (self, ty),
            (Value::Bool(_), FieldType::Bool)
                | (Value::Int(_), FieldType::Int)
                | (Value::Int(_) | Value::Float(_), FieldType::Float)
                | (
                    Value::Str(_),
                    FieldType::String | FieldType::Item | FieldType::Creature | FieldType::Quest
                )
                | (
                    Value::Str(_),
                    FieldType::Encounter
                        | FieldType::DamageType
                        | FieldType::Hazard
                        | FieldType::Card
                        | FieldType::Host(_)
                )
        )
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) => write!(f, "{i}"),
            Value::Float(x) => write!(f, "{x}"),
            Value::Str(s) => write!(f, "{s:?}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_event_is_found_by_its_name_and_nothing_else_is() {
        let custom = ["rats:ritual_done", "alpha:ping", "zeta:pong"]
            .iter()
            .map(|n| EventDef {
                name: n.to_string(),
                world: WorldSees::Every,
                payload: Vec::new(),
                description: String::new(),
                span: None,
            })
            .collect();
        let table = EventTable::new(custom);
        for (key, def) in table.iter() {
            assert_eq!(table.lookup(&def.name), Some(key), "{}", def.name);
        }
        assert_eq!(
            table.get(table.lookup("alpha:ping").unwrap()).name,
            "alpha:ping"
        );
        assert_eq!(table.lookup("ping"), None);
        assert_eq!(table.lookup("rats:ritual"), None);
    }

    #[test]
    fn a_mod_names_its_own_events_bare_and_others_qualified() {
        let long = format!("{}:{}", "m".repeat(100), "e".repeat(100));
        let custom = ["rats:ritual_done", "alpha:ping", long.as_str()]
            .iter()
            .map(|n| EventDef {
                name: n.to_string(),
                world: WorldSees::Every,
                payload: Vec::new(),
                description: String::new(),
                span: None,
            })
            .collect();
        let table = EventTable::new(custom);
        let find = |mod_id: &str, name: &str| {
            table
                .lookup_for(mod_id.as_bytes(), name.as_bytes())
                .map(|k| table.get(k).name.clone())
        };
        assert_eq!(
            find("rats", "ritual_done").as_deref(),
            Some("rats:ritual_done")
        );
        assert_eq!(
            find("alpha", "rats:ritual_done").as_deref(),
            Some("rats:ritual_done")
        );
        assert_eq!(find("alpha", "ritual_done"), None);
        assert_eq!(
            find("rats", "turn_started").as_deref(),
            Some("turn_started")
        );
        assert_eq!(find("rats", "alpha:pin"), None);
        // Longer than the buffer on the stack.
        assert_eq!(find(&"m".repeat(100), &"e".repeat(100)), Some(long.clone()));
    }
}
