//! The keys a type cannot be read without, learnt from its `Deserialize` as `keys` learns the
//! keys it reads: serde reads every key given, then asks for the first one it needs that was not.
//! For the editor schema's `required` lists (`content::schema`).

use super::keys::{of, Found};
use serde::de::{self, Deserializer, MapAccess, Visitor};

/// The keys `T` cannot be read without, in the order it declares them; `None` when its shape
/// hides them (not a struct, or a value of a key it needs that the probe cannot make up).
///
/// Serde reads every key given, then asks for the first one it needs that was not: the probe
/// gives it an entry of the keys found so far (each holding whatever it asks for), until it asks
/// for nothing more.
pub(crate) fn required_of<T: de::DeserializeOwned>() -> Option<Vec<&'static str>> {
    let mut given: Vec<&'static str> = Vec::new();
    for _ in 0..=of::<T>()?.len() {
        match T::deserialize(Entry(&given)) {
            Ok(_) => return Some(given),
            Err(Found::Missing(key)) if !given.contains(&key) => given.push(key),
            Err(_) => return None,
        }
    }
    None
}

/// An entry holding these keys, each holding whatever its type asks for.
struct Entry<'a>(&'a [&'static str]);

impl<'de> Deserializer<'de> for Entry<'_> {
    type Error = Found;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Found> {
        Err(Found::Other)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Found> {
        visitor.visit_map(Holding(self.0, 0))
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

/// A map of the keys given, each holding [`Anything`].
struct Holding<'a>(&'a [&'static str], usize);

impl<'de> MapAccess<'de> for Holding<'_> {
    type Error = Found;

    fn next_key_seed<K: de::DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Found> {
        let Some(key) = self.0.get(self.1) else {
            return Ok(None);
        };
        self.1 += 1;
        seed.deserialize(de::value::BorrowedStrDeserializer::new(key))
            .map(Some)
    }

    fn next_value_seed<V: de::DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Found> {
        seed.deserialize(Anything)
    }
}

/// A value that is whatever its type asks for: zero, `false`, `"x"`, an empty list, a struct of
/// every field, an enum's first variant.
struct Anything;

impl<'de> Deserializer<'de> for Anything {
    type Error = Found;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Found> {
        v.visit_str("x")
    }
    fn deserialize_bool<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Found> {
        v.visit_bool(false)
    }
    fn deserialize_i64<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Found> {
        v.visit_i64(0)
    }
    fn deserialize_u64<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Found> {
        v.visit_u64(0)
    }
    fn deserialize_f64<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Found> {
        v.visit_f64(0.0)
    }
    fn deserialize_seq<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Found> {
        v.visit_seq(de::value::SeqDeserializer::new(std::iter::empty::<u8>()))
    }
    fn deserialize_map<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Found> {
        v.visit_map(de::value::MapDeserializer::new(
            std::iter::empty::<(u8, u8)>(),
        ))
    }
    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Found> {
        v.visit_some(self)
    }
    fn deserialize_unit<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Found> {
        v.visit_unit()
    }
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        v: V,
    ) -> Result<V::Value, Found> {
        v.visit_newtype_struct(self)
    }
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Found> {
        v.visit_map(Holding(fields, 0))
    }
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        variants: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Found> {
        let first = variants.first().ok_or(Found::Other)?;
        v.visit_enum(de::value::BorrowedStrDeserializer::new(first))
    }

    serde::forward_to_deserialize_any! {
        i8 i16 i32 i128 u8 u16 u32 u128 f32 char str string bytes byte_buf unit_struct tuple
        tuple_struct identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize)]
    #[allow(dead_code)]
    struct Crop {
        id: toml::Spanned<String>,
        #[serde(default)]
        days: i64,
        name: Option<String>,
        price: toml::Spanned<i64>,
        season: Season,
    }

    #[derive(serde::Deserialize)]
    #[allow(dead_code)]
    enum Season {
        Spring,
    }

    #[test]
    fn the_keys_a_type_needs_are_those_without_a_default() {
        assert_eq!(required_of::<Crop>(), Some(vec!["id", "price", "season"]));
        assert_eq!(
            required_of::<std::collections::BTreeMap<String, i64>>(),
            None
        );
    }
}
