//! The free-form parts of a save (mods' storage, a game's own world, an older save brought up to
//! date) read as JSON trees within a bound, counted while they are read.
//!
//! A save is a file anyone can hand a player, and some are crafted. A JSON value in memory is 32
//! bytes or more where its text may be two (`0,`): an 80 MB save of zeros built a 6 GB tree
//! before anything looked at it. Every tree read from one save shares one count of values, at
//! most [`MOST_VALUES`], and nests at most [`DEEPEST`] deep; past either the save is refused with a
//! message that says so, before the tree has grown further. The bound is four times what one
//! mod's storage may hold (`lua::storage::MOST_VALUES`), so any save lantern wrote loads.
//! It knows nothing of saves' shape or of games: `game::save` and the host's state read through it.

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value as Json};
use std::cell::Cell;
use std::fmt;

/// The most values the free-form parts of one save may hold together.
pub(crate) const MOST_VALUES: usize = 4_000_000;

/// The deepest those parts may nest.
pub(crate) const DEEPEST: usize = 64;

thread_local! {
    /// What the save being read on this thread may still hold; `None` outside a read, where each
    /// tree gets a count of its own.
    static LEFT: Cell<Option<usize>> = const { Cell::new(None) };
}

/// Reads a whole save with one count of values for all its trees.
pub(crate) fn reading<R>(f: impl FnOnce() -> R) -> R {
    struct End(Option<usize>);
    impl Drop for End {
        fn drop(&mut self) {
            LEFT.with(|l| l.set(self.0));
        }
    }
    let _end = End(LEFT.with(|l| l.replace(Some(MOST_VALUES))));
    f()
}

/// A JSON tree read within the save's bound.
pub(crate) fn tree<'de, D: de::Deserializer<'de>>(d: D) -> Result<Json, D::Error> {
    let own = LEFT.with(Cell::get).is_none();
    if own {
        LEFT.with(|l| l.set(Some(MOST_VALUES)));
    }
    let read = Bounded { depth: 0 }.deserialize(d);
    if own {
        LEFT.with(|l| l.set(None));
    }
    read
}

/// `serde(deserialize_with)` for a tree that may be absent.
pub(crate) fn optional_tree<'de, D: de::Deserializer<'de>>(d: D) -> Result<Option<Json>, D::Error> {
    struct Optional;
    impl<'de> Visitor<'de> for Optional {
        type Value = Option<Json>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a JSON value or null")
        }
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_some<D: de::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            tree(d).map(Some)
        }
    }
    d.deserialize_option(Optional)
}

/// `serde(deserialize_with)` for the mods' storage: a tree for each mod.
pub(crate) fn storage<'de, D: de::Deserializer<'de>>(
    d: D,
) -> Result<std::collections::BTreeMap<String, std::sync::Arc<Json>>, D::Error> {
    struct Storage;
    impl<'de> Visitor<'de> for Storage {
        type Value = std::collections::BTreeMap<String, std::sync::Arc<Json>>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("each mod's storage by its id")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut out = std::collections::BTreeMap::new();
            while let Some(id) = map.next_key::<String>()? {
                let value = map.next_value_seed(Bounded { depth: 0 })?;
                out.insert(id, std::sync::Arc::new(value));
            }
            Ok(out)
        }
    }
    let own = LEFT.with(Cell::get).is_none();
    if own {
        LEFT.with(|l| l.set(Some(MOST_VALUES)));
    }
    let read = d.deserialize_map(Storage);
    if own {
        LEFT.with(|l| l.set(None));
    }
    read
}

/// One value of a tree, `depth` tables down.
#[derive(Clone, Copy)]
struct Bounded {
    depth: usize,
}

impl Bounded {
    /// Counts one value against the save's bound.
    fn count<E: de::Error>(self) -> Result<(), E> {
        let left = LEFT.with(Cell::get).unwrap_or(MOST_VALUES);
        if left == 0 {
            return Err(E::custom(format_args!(
                "it holds more than {MOST_VALUES} values in its storage and world, more than any \
                 game lantern saves"
            )));
        }
        LEFT.with(|l| l.set(Some(left - 1)));
        Ok(())
    }

    fn inner<E: de::Error>(self) -> Result<Bounded, E> {
        if self.depth >= DEEPEST {
            return Err(E::custom(format_args!(
                "its storage or world nests more than {DEEPEST} deep, deeper than lantern saves"
            )));
        }
        Ok(Bounded {
            depth: self.depth + 1,
        })
    }
}

impl<'de> DeserializeSeed<'de> for Bounded {
    type Value = Json;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Json, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Bounded {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Json, E> {
        self.count()?;
        Ok(Json::Bool(b))
    }

    fn visit_i64<E: de::Error>(self, n: i64) -> Result<Json, E> {
        self.count()?;
        Ok(n.into())
    }

    fn visit_u64<E: de::Error>(self, n: u64) -> Result<Json, E> {
        self.count()?;
        Ok(n.into())
    }

    fn visit_f64<E: de::Error>(self, n: f64) -> Result<Json, E> {
        self.count()?;
        Ok(serde_json::Number::from_f64(n).map_or(Json::Null, Json::Number))
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<Json, E> {
        self.count()?;
        Ok(Json::String(s.to_string()))
    }

    fn visit_string<E: de::Error>(self, s: String) -> Result<Json, E> {
        self.count()?;
        Ok(Json::String(s))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Json, E> {
        self.count()?;
        Ok(Json::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Json, E> {
        self.visit_unit()
    }

    fn visit_some<D: de::Deserializer<'de>>(self, d: D) -> Result<Json, D::Error> {
        self.deserialize(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        self.count()?;
        let inner = self.inner()?;
        // Grown as it is read, never sized by what the file claims.
        let mut items = Vec::new();
        while let Some(v) = seq.next_element_seed(inner)? {
            items.push(v);
        }
        items.shrink_to_fit();
        Ok(Json::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        self.count()?;
        let inner = self.inner()?;
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let value = map.next_value_seed(inner)?;
            out.insert(key, value);
        }
        Ok(Json::Object(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Json, String> {
        reading(|| {
            let mut d = serde_json::Deserializer::from_str(text);
            tree(&mut d).map_err(|e| e.to_string())
        })
    }

    #[test]
    fn trees_read_as_serde_json_reads_them() {
        let text = r#"{"a": [1, -2, 3.5, "x", true, null, {"b": {}}], "c": []}"#;
        assert_eq!(read(text), Ok(serde_json::from_str::<Json>(text).unwrap()));
    }

    #[test]
    fn too_many_values_or_too_deep_is_refused_while_reading() {
        let many = format!("[{}0]", "0,".repeat(MOST_VALUES));
        assert!(read(&many)
            .unwrap_err()
            .contains("more than 4000000 values"));
        let deep = format!("{}{}", "[".repeat(DEEPEST + 1), "]".repeat(DEEPEST + 1));
        assert!(read(&deep).unwrap_err().contains("nests more than 64 deep"));
        let fits = format!("{}{}", "[".repeat(DEEPEST), "]".repeat(DEEPEST));
        assert!(read(&fits).is_ok());
    }
}
