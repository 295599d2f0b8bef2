//! Tree to serde types, read as `toml`'s own deserializer reads its tree: a string, integer,
//! float or boolean visited as such, an array as a sequence, a table as a map, anything an
//! `Option` asks for as present, a `toml::Spanned` given the value's span. What the type does not
//! take is [`GaveUp`], never a message.

use super::{GaveUp, Item, Value};
use serde::de::{self, DeserializeOwned, IntoDeserializer, Visitor};
use std::borrow::Cow;

/// Reads `T` from one value (a table of a data file).
pub(crate) fn from_item<T: DeserializeOwned>(item: Item<'_>) -> Result<T, GaveUp> {
    T::deserialize(item)
}

impl de::Error for GaveUp {
    fn custom<T: std::fmt::Display>(_: T) -> GaveUp {
        GaveUp
    }
}

impl<'de> de::Deserializer<'de> for Item<'de> {
    type Error = GaveUp;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, GaveUp> {
        match self.value {
            Value::Str(Cow::Borrowed(s)) => visitor.visit_borrowed_str(s),
            Value::Str(Cow::Owned(s)) => visitor.visit_string(s),
            Value::Int(i) => visitor.visit_i64(i),
            Value::Float(f) => visitor.visit_f64(f),
            Value::Bool(b) => visitor.visit_bool(b),
            Value::Array { items, .. } => {
                let mut seq = Seq(items.into_iter());
                let value = visitor.visit_seq(&mut seq)?;
                match seq.0.len() {
                    0 => Ok(value),
                    _ => Err(GaveUp),
                }
            }
            Value::Table { entries, .. } => visitor.visit_map(Map {
                entries: entries.into_iter(),
                value: None,
            }),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, GaveUp> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, GaveUp> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, GaveUp> {
        if serde_spanned::de::is_spanned(name) {
            let span = self.start as usize..self.end as usize;
            return visitor.visit_map(serde_spanned::de::SpannedDeserializer::new(self, span));
        }
        self.deserialize_any(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, GaveUp> {
        match self.value {
            Value::Str(s) => visitor.visit_enum(s.into_deserializer()),
            _ => Err(GaveUp),
        }
    }

    serde::forward_to_deserialize_any! {
        bool u8 u16 u32 u64 i8 i16 i32 i64 i128 u128 f32 f64 char str string seq
        bytes byte_buf map unit ignored_any unit_struct tuple_struct tuple identifier
    }
}

impl<'de> IntoDeserializer<'de, GaveUp> for Item<'de> {
    type Deserializer = Item<'de>;

    fn into_deserializer(self) -> Item<'de> {
        self
    }
}

/// An array's values, one at a time.
struct Seq<'de>(std::vec::IntoIter<Item<'de>>);

impl<'de> de::SeqAccess<'de> for Seq<'de> {
    type Error = GaveUp;

    fn next_element_seed<T: de::DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, GaveUp> {
        self.0.next().map(|item| seed.deserialize(item)).transpose()
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.0.len())
    }
}

/// A table's keys and values, in the order written.
struct Map<'de> {
    entries: std::vec::IntoIter<(Cow<'de, str>, Item<'de>)>,
    value: Option<Item<'de>>,
}

impl<'de> de::MapAccess<'de> for Map<'de> {
    type Error = GaveUp;

    fn next_key_seed<K: de::DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, GaveUp> {
        let Some((key, value)) = self.entries.next() else {
            return Ok(None);
        };
        self.value = Some(value);
        seed.deserialize(key.into_deserializer()).map(Some)
    }

    fn next_value_seed<V: de::DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, GaveUp> {
        seed.deserialize(self.value.take().ok_or(GaveUp)?)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}
