//! The game's own state inside lantern's: one boxed value of the game's type, cloned with every
//! transaction's snapshot, written into saves and the state hash as JSON, and read back into the
//! game's type when a save is loaded.

use serde::{de::DeserializeOwned, Deserialize, Deserializer, Serialize, Serializer};
use std::any::Any;

/// What a game's state type must be: plain data that clones, saves and loads. Implemented for every
/// such type; use `BTreeMap` rather than `HashMap` in it, so its JSON (and the state hash) is the
/// same in every process.
pub trait GameState: Any + Clone + Send + Sync + Serialize + DeserializeOwned {}
impl<T: Any + Clone + Send + Sync + Serialize + DeserializeOwned> GameState for T {}

/// The state, its type erased.
trait Boxed: Send + Sync {
    fn clone_box(&self) -> Box<dyn Boxed>;
    /// Clones itself into `other` when it is of the same type (reusing what `other` owns);
    /// `false` when it is not.
    fn clone_onto(&self, other: &mut dyn Boxed) -> bool;
    fn to_json(&self) -> serde_json::Value;
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl<S: GameState> Boxed for S {
    fn clone_box(&self) -> Box<dyn Boxed> {
        Box::new(self.clone())
    }

    fn clone_onto(&self, other: &mut dyn Boxed) -> bool {
        match other.as_any_mut().downcast_mut::<S>() {
            Some(o) => {
                o.clone_from(self);
                true
            }
            None => false,
        }
    }

    fn to_json(&self) -> serde_json::Value {
        // A state whose `Serialize` fails (a map with non-text keys) saves as null: loading it
        // then reports that it cannot be read, rather than lantern stopping.
        serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// The game's state as lantern's [`State`](crate::game::State) holds it: none (a game that keeps
/// none, such as the reference roguelike), a live value, or JSON read from a save and not yet
/// turned back into the game's type.
#[derive(Default)]
pub struct HostState(Slot);

#[derive(Default)]
enum Slot {
    #[default]
    Empty,
    Live(Box<dyn Boxed>),
    Saved(serde_json::Value),
}

impl HostState {
    pub(crate) fn live<S: GameState>(state: S) -> HostState {
        HostState(Slot::Live(Box::new(state)))
    }

    /// Whether there is no state (it is then not saved at all, so saves of games without one are
    /// unchanged).
    pub fn is_empty(&self) -> bool {
        matches!(self.0, Slot::Empty)
    }

    /// The state as the game's type `S`, if it is one.
    pub fn get<S: GameState>(&self) -> Option<&S> {
        match &self.0 {
            Slot::Live(b) => b.as_any().downcast_ref(),
            _ => None,
        }
    }

    pub(crate) fn get_mut<S: GameState>(&mut self) -> Option<&mut S> {
        match &mut self.0 {
            Slot::Live(b) => b.as_any_mut().downcast_mut(),
            _ => None,
        }
    }

    /// The JSON of a state read from a save, to be turned into the game's type.
    pub(crate) fn take_saved(&mut self) -> Option<serde_json::Value> {
        match std::mem::take(&mut self.0) {
            Slot::Saved(v) => Some(v),
            other => {
                self.0 = other;
                None
            }
        }
    }

    pub(crate) fn to_json(&self) -> Option<serde_json::Value> {
        match &self.0 {
            Slot::Empty => None,
            Slot::Live(b) => Some(b.to_json()),
            Slot::Saved(v) => Some(v.clone()),
        }
    }
}

impl Clone for HostState {
    fn clone(&self) -> HostState {
        HostState(match &self.0 {
            Slot::Empty => Slot::Empty,
            Slot::Live(b) => Slot::Live(b.clone_box()),
            Slot::Saved(v) => Slot::Saved(v.clone()),
        })
    }

    fn clone_from(&mut self, source: &HostState) {
        if let (Slot::Live(to), Slot::Live(from)) = (&mut self.0, &source.0) {
            if from.clone_onto(to.as_mut()) {
                return;
            }
        }
        *self = source.clone();
    }
}

impl std::fmt::Debug for HostState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.to_json() {
            None => write!(f, "HostState(none)"),
            Some(v) => write!(f, "HostState({v})"),
        }
    }
}

impl PartialEq for HostState {
    fn eq(&self, other: &HostState) -> bool {
        self.to_json() == other.to_json()
    }
}

impl Serialize for HostState {
    fn serialize<Se: Serializer>(&self, s: Se) -> Result<Se::Ok, Se::Error> {
        self.to_json().serialize(s)
    }
}

impl<'de> Deserialize<'de> for HostState {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<HostState, D::Error> {
        // Read within the save's bound on values (`json_tree`): a save may be crafted.
        Ok(match crate::json_tree::optional_tree(d)? {
            None => HostState(Slot::Empty),
            Some(v) => HostState(Slot::Saved(v)),
        })
    }
}

/// How to make and read back the game's state type.
pub(crate) struct StateType {
    pub name: &'static str,
    pub fresh: Box<dyn Fn() -> HostState + Send + Sync>,
    pub read: fn(serde_json::Value) -> Result<HostState, String>,
}

impl StateType {
    pub(crate) fn of<S: GameState>(initial: S) -> StateType {
        StateType {
            name: std::any::type_name::<S>(),
            fresh: Box::new(move || HostState::live(initial.clone())),
            read: |json| {
                // The place inside the state where it does not read, since a save's JSON has
                // no lines to point at once it is a value.
                serde_path_to_error::deserialize::<_, S>(json)
                    .map(HostState::live)
                    .map_err(|e| match e.path().to_string() {
                        path if path == "." => e.inner().to_string(),
                        path => format!("at `{path}`: {}", e.inner()),
                    })
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Serialize, Deserialize, PartialEq, Debug)]
    struct Farm {
        money: i64,
    }

    #[test]
    fn a_state_goes_through_json_and_back_to_its_type() {
        let ty = StateType::of(Farm { money: 5 });
        let mut state = (ty.fresh)();
        state.get_mut::<Farm>().unwrap().money = 7;
        let copy = state.clone();
        state.get_mut::<Farm>().unwrap().money = 9;
        assert_eq!(copy.get::<Farm>(), Some(&Farm { money: 7 }));
        let text = serde_json::to_string(&copy).unwrap();
        assert_eq!(text, r#"{"money":7}"#);
        let mut read: HostState = serde_json::from_str(&text).unwrap();
        assert_eq!(read.get::<Farm>(), None, "not yet in the game's type");
        let back = (ty.read)(read.take_saved().unwrap()).unwrap();
        assert_eq!(back.get::<Farm>(), Some(&Farm { money: 7 }));
        assert!(back.get::<String>().is_none());
    }

    #[test]
    fn no_state_saves_as_nothing() {
        let none: HostState = serde_json::from_str("null").unwrap();
        assert!(none.is_empty());
        assert_eq!(serde_json::to_string(&none).unwrap(), "null");
    }
}
