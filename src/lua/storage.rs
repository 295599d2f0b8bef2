//! `lantern.storage` to and from its saved form: JSON that loads back equal.
//!
//! Storage holds plain data: booleans, numbers, text, and tables of them. A table is saved as a
//! JSON array when it is a sequence (`1..n`), as an object when every key is text, and otherwise
//! as `{"$pairs": [[key, value], ...]}`, so integer keys stay integers (`kills[42]`), `1` and
//! `"1"` stay two keys, and floats stay floats. Integers and floats are told apart by JSON's own
//! notation (`3` and `3.0`). What cannot be saved is an error that names its place in the
//! storage: a function or other value, text that is not UTF-8, a number that is not finite, a
//! table that holds itself, nesting deeper than [`DEEPEST`] tables, more than [`MOST_VALUES`]
//! values. A table reached twice is saved twice; it loads back as two equal tables.

use mlua::{Lua, Value as LuaValue};
use serde_json::{Map, Value as Json};

/// The deepest tables may nest in storage: a save keeps them within JSON's usual nesting limit.
pub(crate) const DEEPEST: usize = 32;

/// The most values one mod's storage may hold.
pub(crate) const MOST_VALUES: usize = 1_000_000;

/// The key under which a table that is neither a sequence nor text-keyed keeps its pairs.
pub(crate) const PAIRS: &str = "$pairs";

/// Each table a walk saved, with the tables it holds by key (as `to_pointer` shows them): what a
/// mirror (`mirror.rs`) is made of. A table reached twice is listed twice.
pub(crate) type Seen = Vec<(mlua::Table, Vec<(Key, usize)>)>;

/// `v` (`lantern.storage`, or a value a turn put at a key of a table `depth` tables below it) in
/// its saved form, JSON, and how many values that holds; each table saved is listed in `seen`.
/// Or what in it cannot be saved: a message, and the value that cannot be (a function, userdata,
/// a coroutine, as `to_pointer` shows it) when one is the trouble.
pub(crate) fn saved(
    v: &LuaValue,
    depth: usize,
    seen: Option<&mut Seen>,
) -> Result<(Json, usize), (String, Option<usize>)> {
    let mut walk = Walk {
        path: Vec::new(),
        values: 0,
        culprit: None,
        depth,
        seen,
    };
    match walk.value(v) {
        Ok(json) => Ok((json, walk.values)),
        Err(message) => Err((message, walk.culprit)),
    }
}

struct Walk<'s> {
    /// The tables from the root to here, with the key each was reached by.
    path: Vec<(usize, Key)>,
    values: usize,
    /// The value (or key) that could not be saved, when that is what failed.
    culprit: Option<usize>,
    /// How deep below the storage's root the walk started.
    depth: usize,
    /// Where each table saved is listed, when a mirror is being made.
    seen: Option<&'s mut Seen>,
}

impl Walk<'_> {
    fn place(&self) -> String {
        let mut s = String::from("lantern.storage");
        for (_, key) in &self.path {
            s.push_str(&key.shown());
        }
        s
    }

    fn value(&mut self, v: &LuaValue) -> Result<Json, String> {
        self.values += 1;
        if self.values > MOST_VALUES {
            return Err(format!(
                "lantern.storage holds more than {MOST_VALUES} values (a table reached many times is saved as many times)"
            ));
        }
        Ok(match v {
            LuaValue::Nil => Json::Null,
            LuaValue::Boolean(b) => Json::Bool(*b),
            LuaValue::Integer(i) => Json::from(*i),
            LuaValue::Number(n) => serde_json::Number::from_f64(*n)
                .map(Json::Number)
                .ok_or_else(|| format!("{} is {n}, which cannot be saved", self.place()))?,
            LuaValue::String(s) => Json::String(
                s.to_str()
                    .map(|s| s.to_string())
                    .map_err(|_| format!("{} is text that is not UTF-8", self.place()))?,
            ),
            LuaValue::Table(t) => self.table(t)?,
            LuaValue::LightUserData(_) => {
                self.culprit = Some(v.to_pointer() as usize);
                return Err(format!("{} holds an event (`ev`), which is readable only inside its handler; lantern.storage holds only plain data (strings, numbers, booleans, tables): keep the fields you need", self.place()));
            }
            other => {
                self.culprit = Some(other.to_pointer() as usize);
                return Err(format!("{} holds a {}; lantern.storage holds only plain data (strings, numbers, booleans, tables)", self.place(), other.type_name()));
            }
        })
    }

    fn table(&mut self, t: &mlua::Table) -> Result<Json, String> {
        let id = t.to_pointer() as usize;
        if self.path.iter().any(|(seen, _)| *seen == id) {
            // The table stored again: lantern's Lua remembers where.
            self.culprit = Some(id);
            return Err(format!(
                "{} holds a table that holds it (a cycle), which cannot be saved",
                self.place()
            ));
        }
        if self.depth + self.path.len() >= DEEPEST {
            return Err(format!(
                "{} nests tables more than {DEEPEST} deep, which cannot be saved",
                self.place()
            ));
        }
        let mut pairs: Vec<(Key, LuaValue)> = Vec::new();
        for pair in t.pairs::<LuaValue, LuaValue>() {
            let (k, v) = pair.map_err(|e| format!("{}: {e}", self.place()))?;
            let key = Key::of(&k).ok_or_else(|| {
                self.culprit = Some(k.to_pointer() as usize);
                format!(
                    "{} has a {} key; storage keys are text, numbers or booleans",
                    self.place(),
                    k.type_name()
                )
            })?;
            pairs.push((key, v));
        }
        pairs.sort_by(|a, b| a.0.cmp(&b.0));
        let mut saved = Vec::with_capacity(pairs.len());
        let mut holds = Vec::new();
        for (key, v) in pairs {
            self.path.push((id, key));
            let json = self.value(&v);
            let Some((_, key)) = self.path.pop() else {
                break;
            };
            if let (Some(_), LuaValue::Table(child)) = (&self.seen, &v) {
                holds.push((key.clone(), child.to_pointer() as usize));
            }
            saved.push((key, json?));
        }
        if let Some(seen) = self.seen.as_deref_mut() {
            seen.push((t.clone(), holds));
        }
        Ok(form(saved))
    }
}

/// A table's pairs, sorted by key, in the form a save keeps them: a sequence (`1..n`) as an
/// array, text keys as an object, any other as `{"$pairs": [[key, value], ...]}`.
fn form(pairs: Vec<(Key, Json)>) -> Json {
    let sequence = !pairs.is_empty()
        && pairs
            .iter()
            .enumerate()
            .all(|(i, (k, _))| *k == Key::Int(i as i64 + 1));
    let text_keyed = pairs
        .iter()
        .all(|(k, _)| matches!(k, Key::Text(s) if s != PAIRS));
    if sequence {
        Json::Array(pairs.into_iter().map(|(_, v)| v).collect())
    } else if text_keyed {
        let mut object = Map::new();
        for (k, v) in pairs {
            if let Key::Text(s) = k {
                object.insert(s, v);
            }
        }
        Json::Object(object)
    } else {
        let list = pairs
            .into_iter()
            .map(|(k, v)| Json::Array(vec![k.json(), v]))
            .collect();
        Json::Object(Map::from_iter([(PAIRS.to_string(), Json::Array(list))]))
    }
}

/// The pairs of a saved table, when it is in `$pairs` form.
fn pairs_form(table: &mut Json) -> Option<&mut Vec<Json>> {
    match table {
        Json::Object(map) if map.len() == 1 => match map.get_mut(PAIRS) {
            Some(Json::Array(list)) => Some(list),
            _ => None,
        },
        _ => None,
    }
}

/// Where `key` sits in a `$pairs` list, or where it would go.
fn find_pair(list: &[Json], key: &Key) -> Result<usize, usize> {
    list.binary_search_by(|pair| {
        let k = pair.get(0).and_then(Key::of_json);
        k.map_or(std::cmp::Ordering::Less, |k| k.cmp(key))
    })
}

/// The value at `key` of a saved table, for a change to go further in.
pub(crate) fn entry_mut<'a>(table: &'a mut Json, key: &Key) -> Option<&'a mut Json> {
    if pairs_form(table).is_some() {
        let list = pairs_form(table)?;
        let at = find_pair(list, key).ok()?;
        return list[at].get_mut(1);
    }
    match (table, key) {
        (Json::Array(items), Key::Int(i)) => {
            usize::try_from(*i - 1).ok().and_then(|i| items.get_mut(i))
        }
        (Json::Object(map), Key::Text(s)) => map.get_mut(s.as_str()),
        _ => None,
    }
}

/// Sets `key` of a saved table to `value` (`None` removes it), leaving the table in the form a
/// whole save would give it; answers the value it replaced. A change that keeps the form costs a
/// search; one that changes it (a sequence with a hole, a first number key) rebuilds the table.
pub(crate) fn set(table: &mut Json, key: &Key, value: Option<Json>) -> Option<Json> {
    let value = match set_in_form(table, key, value) {
        Ok(old) => return old,
        Err(value) => value,
    };
    let mut pairs = entries(std::mem::take(table));
    let old = match (pairs.binary_search_by(|(k, _)| k.cmp(key)), value) {
        (Ok(at), Some(v)) => Some(std::mem::replace(&mut pairs[at].1, v)),
        (Ok(at), None) => Some(pairs.remove(at).1),
        (Err(at), Some(v)) => {
            pairs.insert(at, (key.clone(), v));
            None
        }
        (Err(_), None) => None,
    };
    *table = form(pairs);
    old
}

/// [`set`] where the table keeps its form, or the value back when it would not.
fn set_in_form(
    table: &mut Json,
    key: &Key,
    value: Option<Json>,
) -> Result<Option<Json>, Option<Json>> {
    if let Some(list) = pairs_form(table) {
        let old = match (find_pair(list, key), value) {
            (Ok(at), Some(v)) => list[at].get_mut(1).map(|slot| std::mem::replace(slot, v)),
            (Ok(at), None) => list.remove(at).get_mut(1).map(std::mem::take),
            (Err(at), Some(v)) => {
                list.insert(at, Json::Array(vec![key.json(), v]));
                None
            }
            (Err(_), None) => return Ok(None),
        };
        // Still neither a sequence nor text-keyed? (Keys sort numbers before text.)
        let first = list.first().and_then(|p| p.get(0)).and_then(Key::of_json);
        let last = list.last().and_then(|p| p.get(0)).and_then(Key::of_json);
        let n = list.len() as i64;
        let reformed = match (first, last) {
            (None, _) => true,
            (Some(Key::Text(_)), _) => find_pair(list, &Key::Text(PAIRS.to_string())).is_err(),
            (Some(Key::Int(1)), Some(Key::Int(l))) if l == n => list
                .iter()
                .all(|p| p.get(0).and_then(Json::as_i64).is_some() && !p[0].is_f64()),
            _ => false,
        };
        if reformed {
            let pairs = entries(std::mem::take(table));
            *table = form(pairs);
        }
        return Ok(old);
    }
    match (&mut *table, key, value) {
        (Json::Array(items), Key::Int(i), value) => {
            let n = items.len() as i64;
            match value {
                Some(v) if (1..=n).contains(i) => {
                    Ok(Some(std::mem::replace(&mut items[(*i - 1) as usize], v)))
                }
                Some(v) if *i == n + 1 => {
                    items.push(v);
                    Ok(None)
                }
                None if *i == n => {
                    let old = items.pop();
                    if items.is_empty() {
                        *table = Json::Object(Map::new());
                    }
                    Ok(old)
                }
                None if !(1..=n).contains(i) => Ok(None),
                value => Err(value),
            }
        }
        (Json::Array(_), _, None) => Ok(None),
        (Json::Object(map), Key::Text(s), value) if s != PAIRS => {
            // A key in place takes its new value where it is: no key is copied (the most common
            // write, a counter or a flag changed).
            if value.is_some() {
                if let Some(slot) = map.get_mut(s.as_str()) {
                    return Ok(value.map(|v| std::mem::replace(slot, v)));
                }
            }
            // Where maps keep keys as inserted, only a key in place or last keeps them sorted.
            let in_order = maps_sorted()
                || map.contains_key(s.as_str()) && value.is_some()
                || !map.contains_key(s.as_str()) && value.is_none()
                || map.keys().next_back().is_none_or(|last| last < s) && value.is_some();
            match value {
                Some(v) if in_order => Ok(map.insert(s.clone(), v)),
                None if in_order => Ok(map.remove(s.as_str())),
                value => Err(value),
            }
        }
        (Json::Object(map), key, None) if !matches!(key, Key::Text(_)) || map.is_empty() => {
            Ok(None)
        }
        (_, _, value) => Err(value),
    }
}

/// Whether `serde_json`'s maps keep their keys sorted. They keep them as inserted when a crate in
/// the build turns on its `preserve_order` feature; a whole save inserts them sorted either way.
fn maps_sorted() -> bool {
    static SORTED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *SORTED.get_or_init(|| {
        let mut map = Map::new();
        map.insert("b".into(), Json::Null);
        map.insert("a".into(), Json::Null);
        map.keys().next().map(String::as_str) == Some("a")
    })
}

/// A saved table's pairs, sorted by key.
fn entries(table: Json) -> Vec<(Key, Json)> {
    let mut table = table;
    if let Some(list) = pairs_form(&mut table) {
        return std::mem::take(list)
            .into_iter()
            .filter_map(|pair| match pair {
                Json::Array(kv) => {
                    let mut kv = kv.into_iter();
                    let key = kv.next().as_ref().and_then(Key::of_json)?;
                    Some((key, kv.next()?))
                }
                _ => None,
            })
            .collect();
    }
    match table {
        Json::Array(items) => items
            .into_iter()
            .enumerate()
            .filter(|(_, v)| !v.is_null())
            .map(|(i, v)| (Key::Int(i as i64 + 1), v))
            .collect(),
        Json::Object(map) => map.into_iter().map(|(k, v)| (Key::Text(k), v)).collect(),
        _ => Vec::new(),
    }
}

/// How many values a saved value holds, counted as a save counts them (a table is one, and so is
/// each value in it).
pub(crate) fn count(v: &Json) -> usize {
    1 + match v {
        Json::Array(items) => items.iter().map(count).sum(),
        Json::Object(map) => match (map.len(), map.get(PAIRS)) {
            (1, Some(Json::Array(list))) => list.iter().filter_map(|p| p.get(1)).map(count).sum(),
            _ => map.values().map(count).sum(),
        },
        _ => 0,
    }
}

/// A storage key, ordered so that a saved table's pairs come out the same in every process:
/// booleans, then numbers, then text.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Key {
    Bool(bool),
    Int(i64),
    Float(f64),
    Text(String),
}

impl Eq for Key {}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Key {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        use std::cmp::Ordering;
        let rank = |k: &Key| match k {
            Key::Bool(_) => 0,
            Key::Int(_) | Key::Float(_) => 1,
            Key::Text(_) => 2,
        };
        match (self, other) {
            (Key::Bool(a), Key::Bool(b)) => a.cmp(b),
            (Key::Int(a), Key::Int(b)) => a.cmp(b),
            (Key::Float(a), Key::Float(b)) => a.partial_cmp(b).unwrap_or(Ordering::Equal),
            (Key::Text(a), Key::Text(b)) => a.cmp(b),
            // A float key is never whole (Lua makes those integers): only past 2^63 could the
            // two compare equal, and then the integer goes first.
            (Key::Int(a), Key::Float(b)) => (*a as f64)
                .partial_cmp(b)
                .unwrap_or(Ordering::Equal)
                .then(Ordering::Less),
            (Key::Float(a), Key::Int(b)) => a
                .partial_cmp(&(*b as f64))
                .unwrap_or(Ordering::Equal)
                .then(Ordering::Greater),
            _ => rank(self).cmp(&rank(other)),
        }
    }
}

impl Key {
    /// A Lua value as a key: a whole float is the integer Lua keeps it as.
    pub(crate) fn of(v: &LuaValue) -> Option<Key> {
        Some(match v {
            LuaValue::Boolean(b) => Key::Bool(*b),
            LuaValue::Integer(i) => Key::Int(*i),
            LuaValue::Number(n) if n.fract() == 0.0 && n.abs() < 9.2e18 => Key::Int(*n as i64),
            LuaValue::Number(n) => Key::Float(*n),
            LuaValue::String(s) => Key::Text(s.to_str().ok()?.to_string()),
            _ => return None,
        })
    }

    /// A key as a save writes it in `$pairs`.
    fn of_json(v: &Json) -> Option<Key> {
        Some(match v {
            Json::Bool(b) => Key::Bool(*b),
            Json::Number(n) if !n.is_f64() => Key::Int(n.as_i64()?),
            Json::Number(n) => Key::Float(n.as_f64()?),
            Json::String(s) => Key::Text(s.clone()),
            _ => return None,
        })
    }

    fn json(&self) -> Json {
        match self {
            Key::Bool(b) => Json::Bool(*b),
            Key::Int(i) => Json::from(*i),
            Key::Float(f) => serde_json::Number::from_f64(*f).map_or(Json::Null, Json::Number),
            Key::Text(s) => Json::String(s.clone()),
        }
    }

    /// How the key reads in a path: `.name`, `["a b"]`, `[42]`.
    fn shown(&self) -> String {
        match self {
            Key::Text(s) if is_name(s) => format!(".{s}"),
            Key::Text(s) => format!("[{s:?}]"),
            Key::Bool(b) => format!("[{b}]"),
            Key::Int(i) => format!("[{i}]"),
            Key::Float(f) => format!("[{f}]"),
        }
    }
}

/// Whether `s` can follow a `.` in Lua (`kills`, `_n2`).
fn is_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Saved storage brought within what storage holds while a game runs, and what was dropped to
/// get there: a crafted save may nest deeper than [`DEEPEST`], hold more than [`MOST_VALUES`]
/// values, or keys that are tables (in `$pairs`). Loaded as it was, such storage made the mod fail
/// at the end of every turn, and nothing it stored was saved again.
/// `None` when it is within them already (the common case: nothing is copied).
pub(crate) fn within_bounds(v: &Json) -> Option<(Json, Vec<String>)> {
    let mut values = 0;
    if fits(v, 0, &mut values) {
        return None;
    }
    let mut walk = Bounds {
        values: 0,
        dropped: Vec::new(),
    };
    let kept = walk
        .value(v, 0, "lantern.storage".to_string())
        .unwrap_or_else(|| Json::Object(Map::new()));
    Some((kept, walk.dropped))
}

/// Whether `v`, within `depth` tables, is what storage holds, counting its values.
fn fits(v: &Json, depth: usize, values: &mut usize) -> bool {
    *values += 1;
    if *values > MOST_VALUES {
        return false;
    }
    match v {
        Json::Array(items) => depth < DEEPEST && items.iter().all(|i| fits(i, depth + 1, values)),
        Json::Object(map) => {
            depth < DEEPEST
                && match (map.len(), map.get(PAIRS)) {
                    (1, Some(Json::Array(pairs))) => pairs.iter().all(|pair| {
                        matches!(pair.as_array().map(Vec::as_slice), Some([k, v])
                            if matches!(k, Json::Bool(_) | Json::Number(_) | Json::String(_))
                                && fits(v, depth + 1, values))
                    }),
                    _ => map.values().all(|i| fits(i, depth + 1, values)),
                }
        }
        _ => true,
    }
}

struct Bounds {
    values: usize,
    dropped: Vec<String>,
}

impl Bounds {
    /// `v` at `place` within `depth` tables, or `None` when it is dropped.
    fn value(&mut self, v: &Json, depth: usize, place: String) -> Option<Json> {
        self.values += 1;
        if self.values > MOST_VALUES {
            if self.values == MOST_VALUES + 1 {
                self.dropped.push(format!(
                    "{place} and what follows it (more than {MOST_VALUES} values)"
                ));
            }
            return None;
        }
        let table = matches!(v, Json::Array(_) | Json::Object(_));
        if table && depth >= DEEPEST {
            self.dropped
                .push(format!("{place} (tables nested more than {DEEPEST} deep)"));
            return None;
        }
        Some(match v {
            Json::Array(items) => Json::Array(
                items
                    .iter()
                    .enumerate()
                    .map(|(i, item)| {
                        // A sequence keeps its places: what is dropped becomes nil.
                        self.value(item, depth + 1, format!("{place}[{}]", i + 1))
                            .unwrap_or(Json::Null)
                    })
                    .collect(),
            ),
            Json::Object(map) => match (map.len(), map.get(PAIRS)) {
                (1, Some(Json::Array(pairs))) => {
                    let mut kept = Vec::with_capacity(pairs.len());
                    for pair in pairs {
                        let key = match pair.as_array().map(Vec::as_slice) {
                            Some([k, v])
                                if matches!(
                                    k,
                                    Json::Bool(_) | Json::Number(_) | Json::String(_)
                                ) =>
                            {
                                Some((k, v))
                            }
                            _ => None,
                        };
                        let Some((k, v)) = key else {
                            self.dropped.push(format!(
                                "an entry of {place} (a key storage cannot hold: keys are text, numbers or booleans)"
                            ));
                            continue;
                        };
                        if let Some(v) = self.value(v, depth + 1, format!("{place}[{k}]")) {
                            kept.push(Json::Array(vec![k.clone(), v]));
                        }
                    }
                    Json::Object(Map::from_iter([(PAIRS.to_string(), Json::Array(kept))]))
                }
                _ => Json::Object(
                    map.iter()
                        .filter_map(|(k, item)| {
                            let shown = Key::Text(k.clone()).shown();
                            Some((
                                k.clone(),
                                self.value(item, depth + 1, format!("{place}{shown}"))?,
                            ))
                        })
                        .collect(),
                ),
            },
            other => other.clone(),
        })
    }
}

/// Saved storage back as a Lua value: the inverse of [`saved`].
pub(crate) fn from_json(lua: &Lua, v: &Json) -> mlua::Result<LuaValue> {
    from_json_at(lua, v, 0)
}

/// What copying `v` into Lua costs a script, in units: a unit per value and per 32 bytes of text,
/// counted without recursion.
pub(crate) fn copy_cost(v: &Json) -> usize {
    let mut cost = 0usize;
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        cost += 1;
        match v {
            Json::String(s) => cost += s.len() >> 5,
            Json::Array(items) => stack.extend(items),
            Json::Object(map) => {
                for (k, item) in map {
                    cost += 1 + (k.len() >> 5);
                    stack.push(item);
                }
            }
            _ => {}
        }
    }
    cost
}

/// The deepest a JSON value is copied into Lua: storage keeps to [`DEEPEST`], and a game's state
/// or world read as JSON to what its types nest.
const DEEPEST_COPIED: usize = 128;

fn from_json_at(lua: &Lua, v: &Json, depth: usize) -> mlua::Result<LuaValue> {
    if depth > DEEPEST_COPIED {
        return Err(mlua::Error::runtime(format!(
            "a value nested more than {DEEPEST_COPIED} deep cannot be copied into Lua"
        )));
    }
    let from_json = |lua: &Lua, v: &Json| from_json_at(lua, v, depth + 1);
    Ok(match v {
        Json::Null => LuaValue::Nil,
        Json::Bool(b) => LuaValue::Boolean(*b),
        Json::Number(n) => match n.as_i64() {
            Some(i) if !n.is_f64() => LuaValue::Integer(i),
            _ => LuaValue::Number(n.as_f64().unwrap_or(0.0)),
        },
        Json::String(s) => LuaValue::String(lua.create_string(s)?),
        Json::Array(items) => {
            let t = lua.create_table_with_capacity(items.len(), 0)?;
            for (i, item) in items.iter().enumerate() {
                t.raw_set(i + 1, from_json(lua, item)?)?;
            }
            LuaValue::Table(t)
        }
        Json::Object(map) => {
            let t = lua.create_table()?;
            match (map.len(), map.get(PAIRS)) {
                (1, Some(Json::Array(pairs))) => {
                    for pair in pairs {
                        if let Json::Array(kv) = pair {
                            if let [k, v] = kv.as_slice() {
                                let key = from_json(lua, k)?;
                                if !key.is_nil() {
                                    t.raw_set(key, from_json(lua, v)?)?;
                                }
                            }
                        }
                    }
                }
                _ => {
                    for (k, item) in map {
                        t.raw_set(k.as_str(), from_json(lua, item)?)?;
                    }
                }
            }
            LuaValue::Table(t)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Stores `code`'s value, saves it, loads it back and compares with `expected` as Lua sees it.
    fn round_trip(code: &str) -> (Json, String) {
        let lua = Lua::new();
        let value: LuaValue = lua.load(code).eval().unwrap();
        let json = saved(&value, 0, None).unwrap().0;
        let text = serde_json::to_string(&json).unwrap();
        let back = from_json(&lua, &serde_json::from_str(&text).unwrap()).unwrap();
        lua.globals().set("a", value).unwrap();
        lua.globals().set("b", back).unwrap();
        let same: bool = lua
            .load(
                r#"
            local function eq(x, y)
              if type(x) ~= type(y) then return false end
              if type(x) ~= "table" then return x == y and math.type(x) == math.type(y) end
              for k, v in pairs(x) do if not eq(v, y[k]) then return false end end
              for k in pairs(y) do if x[k] == nil then return false end end
              return true
            end
            return eq(a, b)"#,
            )
            .eval()
            .unwrap();
        (json, if same { "equal".into() } else { text })
    }

    #[test]
    fn copies_into_lua_are_bounded_in_depth_and_costed_by_size() {
        let lua = Lua::new();
        let mut deep = serde_json::json!(1);
        for _ in 0..200 {
            deep = serde_json::json!([deep]);
        }
        let refused = from_json(&lua, &deep).unwrap_err().to_string();
        assert!(refused.contains("nested more than 128 deep"), "{refused}");
        let v = serde_json::json!({ "name": "x".repeat(64), "list": [1, 2, 3] });
        // The object, two keys, a text of two units, the list and its three values.
        assert_eq!(copy_cost(&v), 1 + 1 + 1 + 2 + 1 + 1 + 3);
    }

    #[test]
    fn what_is_saved_loads_back_equal() {
        for code in [
            "return { kills = { [42] = 3, [7] = 1 } }",
            "return { [1] = 'a', ['1'] = 'b' }",
            "return { 1, 2, 3, n = 3 }",
            "return { x = 1.0, y = 1, z = 0.5, w = -0.0 }",
            "return { [true] = 'yes', [2.5] = 'half', ['$pairs'] = 'mine' }",
            "return { {}, { {} }, 'x' }",
            "return { [-1] = 'neg', [0] = 'zero', [1] = 'one' }",
        ] {
            assert_eq!(round_trip(code).1, "equal", "{code}");
        }
    }

    #[test]
    fn integer_keys_stay_integers() {
        let (json, _) = round_trip("return { [42] = 'x' }");
        assert_eq!(json.to_string(), r#"{"$pairs":[[42,"x"]]}"#);
    }

    fn refused(code: &str) -> String {
        let lua = Lua::new();
        let value: LuaValue = lua.load(code).eval().unwrap();
        saved(&value, 0, None).unwrap_err().0
    }

    #[test]
    fn what_cannot_be_saved_says_where_it_is() {
        assert_eq!(
            refused("local t = {} t.me = t return t"),
            "lantern.storage.me holds a table that holds it (a cycle), which cannot be saved"
        );
        assert_eq!(
            refused("local t = {} local c = t for i = 1, 40 do c.x = {} c = c.x end return t"),
            format!(
                "lantern.storage{} nests tables more than 32 deep, which cannot be saved",
                ".x".repeat(32)
            )
        );
        assert_eq!(
            refused("return { f = print }"),
            "lantern.storage.f holds a function; lantern.storage holds only plain data (strings, numbers, booleans, tables)"
        );
        assert_eq!(
            refused("return { [{}] = 1 }"),
            "lantern.storage has a table key; storage keys are text, numbers or booleans"
        );
        assert_eq!(
            refused("return { ['a b'] = { 0/0 } }"),
            "lantern.storage[\"a b\"][1] is NaN, which cannot be saved"
        );
        assert!(
            refused("local t = {} for i = 1, 21 do t = { t, t } end return t")
                .starts_with("lantern.storage holds more than 1000000 values")
        );
    }
}
