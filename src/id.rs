//! Namespaced IDs: `namespace:name`.
//!
//! Every definition a mod makes has one. In a mod's own files a bare `rat` means `<that mod>:rat`;
//! engine vocabulary (event names, attributes, damage types, rarity levels) has no namespace.
//! An [`Id`] is cheap to clone and compares as its text, so registries keyed by it iterate in a
//! stable order in every process.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::sync::Arc;

/// A namespaced ID, `namespace:name`: cheap to clone, ordered by its text.
#[derive(Clone, Eq)]
pub struct Id(Arc<str>);

impl std::hash::Hash for Id {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

// IDs in the state are clones of the content's, so comparing the pointers first skips most string
// comparisons on the hot path (quest and item look-ups during dispatch).
impl PartialEq for Id {
    fn eq(&self, other: &Id) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.0 == other.0
    }
}

impl Ord for Id {
    fn cmp(&self, other: &Id) -> std::cmp::Ordering {
        if Arc::ptr_eq(&self.0, &other.0) {
            return std::cmp::Ordering::Equal;
        }
        self.0.cmp(&other.0)
    }
}

impl PartialOrd for Id {
    fn partial_cmp(&self, other: &Id) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Id {
    /// Parses `ns:name`, or qualifies a bare `name` with `default_ns`.
    /// Returns `None` when the text is not a well-formed ID.
    pub fn parse(text: &str, default_ns: &str) -> Option<Id> {
        match text.split_once(':') {
            Some((ns, name)) if is_ident(ns) && is_ident(name) => Some(Id(Arc::from(text))),
            None if is_ident(text) && is_ident(default_ns) => {
                Some(Id(Arc::from([default_ns, ":", text].concat())))
            }
            _ => None,
        }
    }

    /// Parses a fully qualified `ns:name`.
    pub fn qualified(text: &str) -> Option<Id> {
        let (ns, name) = text.split_once(':')?;
        (is_ident(ns) && is_ident(name)).then(|| Id(Arc::from(text)))
    }

    /// Builds an ID from its parts; for code that knows both are valid identifiers.
    pub fn new(ns: &str, name: &str) -> Id {
        debug_assert!(is_ident(ns) && is_ident(name), "bad id {ns}:{name}");
        Id(Arc::from([ns, ":", name].concat()))
    }

    /// Where the `:` is: found byte by byte, as an ID is short and ASCII (a `char` search costs
    /// a load's walk of every text a tenth of a data edit's reload at 100,000 definitions).
    fn colon(&self) -> Option<usize> {
        self.0.bytes().position(|b| b == b':')
    }

    /// The part before `:`.
    pub(crate) fn namespace(&self) -> &str {
        self.colon().map_or("", |at| &self.0[..at])
    }

    /// The part after `:`.
    pub(crate) fn name(&self) -> &str {
        self.colon().map_or(&self.0, |at| &self.0[at + 1..])
    }

    /// The whole ID.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// What is wrong with `text` as an ID of `kind` ("item"), in the words of a load error: an empty
/// one is said to be empty rather than shown as two backticks.
pub(crate) fn invalid_id(text: &str, kind: &str) -> String {
    if text.is_empty() {
        format!("the {kind} ID is empty")
    } else {
        format!("`{text}` is not a valid {kind} ID")
    }
}

/// `[a-z0-9_]+`: the alphabet of mod ids and of both halves of an ID.
pub fn is_ident(text: &str) -> bool {
    !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", &*self.0)
    }
}

/// What an entry of a game's table is looked up by ([`Content::entry`](crate::content::Content::entry)):
/// an [`Id`] (compared by pointer first, as the content's own are), or its text, `"valley:wheat"`,
/// as a `str`, `String` or `Arc<str>` a component holds, with no `Id` built for the look-up.
pub trait IdKey {
    /// The value at this key of `map`.
    fn find_in<'m, V>(&self, map: &'m std::collections::BTreeMap<Id, V>) -> Option<&'m V>;
}

impl IdKey for Id {
    fn find_in<'m, V>(&self, map: &'m std::collections::BTreeMap<Id, V>) -> Option<&'m V> {
        map.get(self)
    }
}

impl IdKey for str {
    fn find_in<'m, V>(&self, map: &'m std::collections::BTreeMap<Id, V>) -> Option<&'m V> {
        map.get(self)
    }
}

impl IdKey for String {
    fn find_in<'m, V>(&self, map: &'m std::collections::BTreeMap<Id, V>) -> Option<&'m V> {
        map.get(self.as_str())
    }
}

impl IdKey for Arc<str> {
    fn find_in<'m, V>(&self, map: &'m std::collections::BTreeMap<Id, V>) -> Option<&'m V> {
        map.get(&**self)
    }
}

impl std::borrow::Borrow<str> for Id {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl Serialize for Id {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Id {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Id, D::Error> {
        let text = String::deserialize(d)?;
        Id::qualified(&text).ok_or_else(|| {
            serde::de::Error::custom(format!("`{text}` is not an ID of the form `mod:name`"))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_names_take_the_mods_namespace() {
        assert_eq!(Id::parse("rat", "rats").unwrap().as_str(), "rats:rat");
        assert_eq!(Id::parse("core:rat", "rats").unwrap().as_str(), "core:rat");
        let id = Id::parse("core:gold", "x").unwrap();
        assert_eq!((id.namespace(), id.name()), ("core", "gold"));
    }

    #[test]
    fn malformed_ids_are_refused() {
        for bad in ["", "Rat", "a:b:c", ":x", "x:", "a b", "ra-t"] {
            assert!(
                Id::parse(bad, "rats").is_none(),
                "{bad:?} should be refused"
            );
        }
    }
}
