//! The keys a game's table type reads, learnt from its `Deserialize` without an entry: serde hands
//! a struct's field names to the deserializer it reads from, and a probe that records them and
//! stops is enough. The editor schema and the scaffold list them.

use serde::de::{self, Deserializer, Visitor};

/// The keys `T` reads, when it is a struct (or a newtype of one); `None` for other shapes (a map,
/// a flattened or untagged type), whose keys only the type itself knows.
pub(crate) fn of<T: de::DeserializeOwned>() -> Option<&'static [&'static str]> {
    match T::deserialize(Probe) {
        Err(Found::Keys(keys)) => Some(keys),
        _ => None,
    }
}

struct Probe;

#[derive(Debug)]
enum Found {
    Keys(&'static [&'static str]),
    Other,
}

impl std::fmt::Display for Found {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a probe for a table type's keys")
    }
}

impl std::error::Error for Found {}

impl de::Error for Found {
    fn custom<M: std::fmt::Display>(_: M) -> Found {
        Found::Other
    }
}

impl<'de> Deserializer<'de> for Probe {
    type Error = Found;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Found> {
        Err(Found::Other)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Found> {
        Err(Found::Keys(fields))
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value, Found> {
        visitor.visit_newtype_struct(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct seq tuple tuple_struct map enum identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize)]
    #[allow(dead_code)]
    struct Crop {
        name: String,
        #[serde(default)]
        days: i64,
        #[serde(rename = "sellPrice")]
        sell: i64,
    }

    #[test]
    fn a_structs_keys_are_its_fields_as_written_in_data() {
        assert_eq!(of::<Crop>(), Some(&["name", "days", "sellPrice"][..]));
    }

    #[test]
    fn a_map_has_no_keys_of_its_own() {
        assert_eq!(of::<std::collections::BTreeMap<String, i64>>(), None);
        assert_eq!(of::<()>(), None);
    }
}
