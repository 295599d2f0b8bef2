//! The keys a game's table type reads, learnt from its `Deserialize` without an entry: serde hands
//! a struct's field names to the deserializer it reads from, and a probe that records them and
//! stops is enough. The editor schema and the scaffold list them. Likewise what a key's value is:
//! the probe offers the struct that one key, and its type asks for what it reads (an integer, text,
//! an array...), or, an enum of names (a room's `kind`), hands over its variants.

use serde::de::{self, Deserializer, MapAccess, Visitor};

/// The keys `T` reads, when it is a struct (or a newtype of one); `None` for other shapes (a map,
/// a flattened or untagged type), whose keys only the type itself knows.
pub(crate) fn of<T: de::DeserializeOwned>() -> Option<&'static [&'static str]> {
    match T::deserialize(Probe::Keys) {
        Err(Found::Keys(keys)) => Some(keys),
        _ => None,
    }
}

/// What a key's value is, as its type reads it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Shape {
    /// One of these names (an enum of unit variants).
    Names(&'static [&'static str]),
    /// A JSON Schema type: `integer`, `number`, `string`, `boolean`, `array`, `object`.
    Type(&'static str),
}

/// For each key `T` reads whose value's type says what it reads (looking through `Option`), its
/// shape. A key whose type reads anything (`deserialize_any`) is left out.
pub(crate) fn shapes_of<T: de::DeserializeOwned>(
    keys: &[&'static str],
) -> Vec<(&'static str, Shape)> {
    let mut out = Vec::new();
    for &key in keys {
        match T::deserialize(Probe::Value(key)) {
            Err(Found::Variants(names)) => out.push((key, Shape::Names(names))),
            Err(Found::Type(ty)) => out.push((key, Shape::Type(ty))),
            _ => {}
        }
    }
    out
}

/// Asks a type for its keys, or for what one key's value is.
#[derive(Clone, Copy)]
enum Probe {
    Keys,
    Value(&'static str),
}

#[derive(Debug)]
pub(super) enum Found {
    Keys(&'static [&'static str]),
    Variants(&'static [&'static str]),
    Type(&'static str),
    /// A key the type needs that it was not given (`required::required_of`).
    #[cfg_attr(not(feature = "cli"), allow(dead_code))]
    Missing(&'static str),
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

    fn missing_field(field: &'static str) -> Found {
        Found::Missing(field)
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
        visitor: V,
    ) -> Result<V::Value, Found> {
        match self {
            Probe::Keys => Err(Found::Keys(fields)),
            Probe::Value(key) => visitor.visit_map(OneKey(Some(key))),
        }
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

/// A struct's map of one key, whose value says what it is asked as.
struct OneKey(Option<&'static str>);

impl<'de> MapAccess<'de> for OneKey {
    type Error = Found;

    fn next_key_seed<K: de::DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Found> {
        match self.0.take() {
            Some(key) => seed
                .deserialize(de::value::BorrowedStrDeserializer::new(key))
                .map(Some),
            None => Err(Found::Other),
        }
    }

    fn next_value_seed<V: de::DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Found> {
        seed.deserialize(ValueProbe)
    }
}

/// A key's value: an enum hands over its variants, an `Option` is looked through, and what else
/// the type asks for is its JSON Schema type.
struct ValueProbe;

macro_rules! asks_for {
    ($ty:literal: $($method:ident)*) => {
        $(fn $method<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Found> {
            Err(Found::Type($ty))
        })*
    };
}

impl<'de> Deserializer<'de> for ValueProbe {
    type Error = Found;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Found> {
        Err(Found::Other)
    }

    asks_for!("integer": deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
        deserialize_u128);
    asks_for!("number": deserialize_f32 deserialize_f64);
    asks_for!("boolean": deserialize_bool);
    asks_for!("string": deserialize_str deserialize_string deserialize_char);
    asks_for!("array": deserialize_seq);
    asks_for!("object": deserialize_map);

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Found> {
        // `toml::Spanned<T>` reads a struct of its start, end and value: what it is is `T`.
        if name == SPANNED && fields.len() == 3 {
            return visitor.visit_map(SpannedProbe(fields, 0));
        }
        Err(Found::Type("object"))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        variants: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Found> {
        Err(Found::Variants(variants))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Found> {
        visitor.visit_some(self)
    }

    serde::forward_to_deserialize_any! {
        bytes byte_buf unit unit_struct newtype_struct tuple tuple_struct identifier ignored_any
    }
}

/// The struct name `toml::Spanned` reads itself as (serde_spanned's, held by a test).
const SPANNED: &str = "$__serde_spanned_private_Spanned";

/// A `Spanned`'s map: its start and end (nothing), then its value, probed.
struct SpannedProbe(&'static [&'static str], usize);

impl<'de> MapAccess<'de> for SpannedProbe {
    type Error = Found;

    fn next_key_seed<K: de::DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Found> {
        let Some(key) = self.0.get(self.1) else {
            return Ok(None);
        };
        seed.deserialize(de::value::BorrowedStrDeserializer::new(key))
            .map(Some)
    }

    fn next_value_seed<V: de::DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Found> {
        self.1 += 1;
        match self.1 {
            1 | 2 => seed.deserialize(de::value::U64Deserializer::new(0)),
            _ => seed.deserialize(ValueProbe),
        }
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

    #[derive(serde::Deserialize)]
    #[serde(rename_all = "lowercase")]
    #[allow(dead_code)]
    enum Season {
        Spring,
        Autumn,
    }

    #[derive(serde::Deserialize)]
    #[allow(dead_code)]
    struct Seed {
        name: String,
        sown: Season,
        #[serde(default)]
        harvested: Option<Season>,
        #[serde(rename = "type")]
        kind: Option<String>,
    }

    #[test]
    fn a_keys_value_is_what_its_type_reads() {
        let keys = of::<Seed>().unwrap();
        let spring_autumn: &[&str] = &["spring", "autumn"];
        assert_eq!(
            shapes_of::<Seed>(keys),
            [
                ("name", Shape::Type("string")),
                ("sown", Shape::Names(spring_autumn)),
                ("harvested", Shape::Names(spring_autumn)),
                ("type", Shape::Type("string")),
            ]
        );
        assert_eq!(
            shapes_of::<Crop>(of::<Crop>().unwrap()),
            [
                ("name", Shape::Type("string")),
                ("days", Shape::Type("integer")),
                ("sellPrice", Shape::Type("integer")),
            ]
        );
    }

    #[derive(serde::Deserialize)]
    #[allow(dead_code)]
    struct Written {
        health: toml::Spanned<i64>,
        name: Option<toml::Spanned<String>>,
        sown: toml::Spanned<Season>,
    }

    #[test]
    fn a_spanned_value_is_what_it_holds() {
        let spring_autumn: &[&str] = &["spring", "autumn"];
        assert_eq!(
            shapes_of::<Written>(of::<Written>().unwrap()),
            [
                ("health", Shape::Type("integer")),
                ("name", Shape::Type("string")),
                ("sown", Shape::Names(spring_autumn)),
            ]
        );
    }

    #[test]
    fn a_map_has_no_keys_of_its_own() {
        assert_eq!(of::<std::collections::BTreeMap<String, i64>>(), None);
        assert_eq!(of::<()>(), None);
    }
}
