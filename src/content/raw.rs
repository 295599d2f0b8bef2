//! Raw serde types that mirror the TOML of data files one to one.
//!
//! Nothing here is validated beyond what serde checks (keys and value types); every field a later
//! error may point at is `Spanned`. Conditions and actions stay generic tables here ([`RawEntry`]):
//! their vocabulary is open (Lua registers more), so `resolve` reads them field by field.

use crate::content::spanned::Spanned;
use serde::{Deserialize, Deserializer};
use std::collections::BTreeMap;

/// A condition or action table, `{ check = "has_tag", who = "target", value = "core:undead" }`.
pub(crate) type RawEntry = Spanned<EntryMap>;
/// The keys and values of a condition, an action or a `when` filter.
pub(crate) type EntryMap = RawMap<Spanned<toml::Value>>;

/// A small table of a data file (an action's keys, a creature's attributes): its keys and values
/// sorted by key, read as a `BTreeMap` reads (a key written twice keeps its last value), held in
/// one allocation of its size. A map's node holds eleven entries: a pack's hundreds of thousands of
/// four-key tables took twice the memory and a third of the time to make and free.
#[derive(Clone, PartialEq)]
pub(crate) struct RawMap<V>(Vec<(String, V)>);

impl<V> RawMap<V> {
    /// The value of `key`.
    pub(crate) fn get(&self, key: &str) -> Option<&V> {
        let at = self.0.binary_search_by(|(k, _)| k.as_str().cmp(key)).ok()?;
        Some(&self.0[at].1)
    }

    /// Keys and values, by key.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&String, &V)> {
        self.0.iter().map(|(k, v)| (k, v))
    }

    /// The keys, sorted.
    pub(crate) fn keys(&self) -> impl Iterator<Item = &String> {
        self.0.iter().map(|(k, _)| k)
    }
}

impl<V> From<BTreeMap<String, V>> for RawMap<V> {
    fn from(map: BTreeMap<String, V>) -> Self {
        RawMap(map.into_iter().collect())
    }
}

impl<V> Default for RawMap<V> {
    fn default() -> Self {
        RawMap(Vec::new())
    }
}

impl<V> FromIterator<(String, V)> for RawMap<V> {
    fn from_iter<I: IntoIterator<Item = (String, V)>>(pairs: I) -> Self {
        let mut pairs: Vec<(String, V)> = pairs.into_iter().collect();
        // Stable, so a key written twice keeps its order; the later value takes the earlier's
        // place and the earlier goes, as a map's insert keeps the last.
        pairs.sort_by(|a, b| a.0.cmp(&b.0));
        pairs.dedup_by(|later, kept| {
            let same = later.0 == kept.0;
            if same {
                std::mem::swap(later, kept);
            }
            same
        });
        RawMap(pairs)
    }
}

impl<'a, V> IntoIterator for &'a RawMap<V> {
    type Item = (&'a String, &'a V);
    type IntoIter =
        std::iter::Map<std::slice::Iter<'a, (String, V)>, fn(&(String, V)) -> (&String, &V)>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter().map(|(k, v)| (k, v))
    }
}

impl<V: std::fmt::Debug> std::fmt::Debug for RawMap<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<'de, V: Deserialize<'de>> Deserialize<'de> for RawMap<V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<RawMap<V>, D::Error> {
        struct Visitor<V>(std::marker::PhantomData<V>);
        impl<'de, V: Deserialize<'de>> serde::de::Visitor<'de> for Visitor<V> {
            type Value = RawMap<V>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<RawMap<V>, A::Error> {
                let mut pairs = Vec::with_capacity(map.size_hint().unwrap_or(0).min(64));
                while let Some(pair) = map.next_entry()? {
                    pairs.push(pair);
                }
                Ok(pairs.into_iter().collect())
            }
        }
        d.deserialize_map(Visitor(std::marker::PhantomData))
    }
}
/// An action list, spanned so a failing transaction names the list's file and line.
pub(crate) type RawActions = Spanned<Vec<RawEntry>>;

/// A number written as an integer or a float (`chance = 1` and `chance = 0.5` both work).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Number(pub f64);

impl<'de> Deserialize<'de> for Number {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Number, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Number;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a number")
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Number, E> {
                Ok(Number(v as f64))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Number, E> {
                Ok(Number(v as f64))
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Number, E> {
                Ok(Number(v))
            }
        }
        d.deserialize_any(Visitor)
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawTag {
    pub id: Spanned<String>,
    pub name: Option<String>,
    #[serde(default)]
    pub description: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawRarity {
    pub id: Spanned<String>,
    pub name: Option<String>,
    pub rank: i64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawStack {
    pub item: Spanned<String>,
    #[serde(default = "one")]
    pub count: Spanned<i64>,
}

fn empty_spanned<T: Default>() -> Spanned<T> {
    Spanned::new(0..0, T::default())
}

fn one() -> Spanned<i64> {
    Spanned::new(0..0, 1)
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawModifier {
    pub attribute: Spanned<String>,
    pub add: i64,
    #[serde(default)]
    pub condition: Vec<RawEntry>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawTrigger {
    pub id: Option<Spanned<String>>,
    pub on: Spanned<String>,
    pub when: Option<Spanned<EntryMap>>,
    #[serde(default)]
    pub condition: Vec<RawEntry>,
    pub chance: Option<Spanned<Number>>,
    pub actions: RawActions,
    /// The line it starts at, counted when its file is read (`data_file::number_triggers`): an
    /// unnamed trigger is named by its place, and a check lets the file's text go.
    #[serde(skip)]
    pub line: u32,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawItem {
    pub id: Spanned<String>,
    pub name: Option<String>,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub tags: Vec<Spanned<String>>,
    pub stack: Option<Spanned<i64>>,
    pub rarity: Option<Spanned<String>>,
    #[serde(default)]
    pub properties: BTreeMap<String, i64>,
    pub slot: Option<Spanned<String>>,
    pub damage: Option<i64>,
    pub damage_type: Option<Spanned<String>>,
    #[serde(default)]
    pub modifiers: Vec<Spanned<RawModifier>>,
    #[serde(default)]
    pub triggers: Vec<Spanned<RawTrigger>>,
    #[serde(rename = "use")]
    pub on_use: Option<RawActions>,
    #[serde(default)]
    pub consumable: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawAi {
    #[serde(default)]
    pub condition: Vec<RawEntry>,
    #[serde(rename = "do")]
    pub act: Option<Spanned<String>>,
    pub actions: Option<RawActions>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawCreature {
    pub id: Spanned<String>,
    pub name: Option<String>,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub tags: Vec<Spanned<String>>,
    pub health: Spanned<i64>,
    /// Each value with its place, so a mistake in one points at it.
    #[serde(default = "empty_spanned")]
    pub attributes: Spanned<RawMap<Spanned<i64>>>,
    #[serde(default)]
    pub damage: i64,
    pub damage_type: Option<Spanned<String>>,
    #[serde(default)]
    pub items: Vec<Spanned<RawStack>>,
    #[serde(default)]
    pub triggers: Vec<Spanned<RawTrigger>>,
    #[serde(default)]
    pub ai: Vec<Spanned<RawAi>>,
    pub talk: Option<RawActions>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawQuest {
    pub id: Spanned<String>,
    pub name: Option<String>,
    #[serde(default)]
    pub description: String,
    pub on: Spanned<String>,
    pub when: Option<Spanned<EntryMap>>,
    #[serde(default)]
    pub condition: Vec<RawEntry>,
    pub count: Option<Spanned<i64>>,
    pub actions: Option<RawActions>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawEventType {
    pub id: Spanned<String>,
    #[serde(default)]
    pub description: String,
    #[serde(default = "empty_spanned")]
    pub payload: Spanned<BTreeMap<String, Spanned<String>>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawOption {
    pub text: String,
    #[serde(default)]
    pub requirements: Vec<RawEntry>,
    pub costs: Option<RawActions>,
    pub probability: Option<Spanned<Number>>,
    pub rewards: Option<RawActions>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawEncounter {
    pub id: Spanned<String>,
    pub title: String,
    #[serde(default)]
    pub description: String,
    pub weight: Option<Spanned<Number>>,
    #[serde(default)]
    pub condition: Vec<RawEntry>,
    #[serde(default)]
    pub options: Vec<Spanned<RawOption>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawProgressType {
    pub id: Spanned<String>,
    pub name: Option<String>,
}

/// One meter of a route: a progress type and its threshold in each round.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawMeter {
    pub progress: Spanned<String>,
    pub thresholds: Spanned<Vec<i64>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawOutcome {
    pub at_least: i64,
    #[serde(default = "empty_spanned")]
    pub actions: RawActions,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawHazard {
    pub id: Spanned<String>,
    pub name: Option<String>,
    #[serde(default)]
    pub text: String,
    pub rounds: Spanned<i64>,
    pub safe: Spanned<RawMeter>,
    pub risk: Spanned<Vec<Spanned<RawMeter>>>,
    /// Progress types the player may pick for the safe route at reveal (the seed's H07).
    #[serde(default)]
    pub choose_progress: Vec<Spanned<String>>,
    pub penalty: Option<RawActions>,
    pub final_penalty: Option<RawActions>,
    #[serde(default)]
    pub outcomes: Vec<Spanned<RawOutcome>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawBottom {
    #[serde(default = "one")]
    pub cost: Spanned<i64>,
    pub effects: Vec<RawEntry>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawCard {
    pub id: Spanned<String>,
    pub name: Option<String>,
    #[serde(default)]
    pub text: String,
    pub color: Spanned<String>,
    pub rarity: Option<Spanned<String>>,
    pub class: Spanned<String>,
    /// Copies in the starting deck.
    #[serde(default)]
    pub starter: i64,
    #[serde(default)]
    pub top: Vec<RawEntry>,
    pub bottom: Option<Spanned<RawBottom>>,
    /// An ENCHANT card: its bottom action puts it in the enchantment zone, where `ongoing` applies every round.
    #[serde(default)]
    pub enchant: bool,
    #[serde(default)]
    pub ongoing: Vec<RawEntry>,
}

#[cfg(test)]
mod tests {
    use super::RawMap;

    #[test]
    fn a_raw_map_reads_as_a_btree_map_reads() {
        let pairs = [("b", 1), ("a", 2), ("c", 3), ("a", 4), ("b", 5), ("a", 6)];
        let raw: RawMap<i32> = pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect();
        let map: std::collections::BTreeMap<String, i32> =
            pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect();
        assert_eq!(format!("{raw:?}"), format!("{map:?}"));
        assert_eq!(
            (raw.get("a"), raw.get("b"), raw.get("z")),
            (Some(&6), Some(&5), None)
        );
        assert_eq!(
            raw.keys().collect::<Vec<_>>(),
            map.keys().collect::<Vec<_>>()
        );
        assert!(RawMap::from(map) == raw);
    }
}
