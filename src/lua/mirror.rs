//! Where each table of a mod's storage sits in its saved form, so that a turn's writes are patched
//! into the save instead of the storage being saved whole again.
//!
//! The game keeps each mod's storage saved (JSON, `storage.rs`). Saving it whole at the end of a
//! turn costs what the storage holds, however little the turn wrote (a 1,000-value storage:
//! about 170 µs). lantern's Lua logs every write to a storage table: the table and the key
//! (`journal::take_written`). A [`Mirror`], made by a whole save, knows every table of the
//! storage: which table holds it at which key, and which tables it holds. At the end of a turn the
//! saved form is patched at the keys written, deepest tables first (so a table a turn both wrote
//! into and took out of the storage is patched before its place is replaced), and the mirror
//! follows: a table taken out is forgotten with what it held, a table put in is saved whole and
//! learned. The mirror keeps each table it knows alive, so that its address keeps naming it.
//!
//! What a patch could not follow exactly saves the storage whole instead, which also says what is
//! wrong: a table stored into the storage again (an alias or a move; lantern's Lua says so), the
//! storage table replaced, a table written at too many keys to log, a value that cannot be saved,
//! a storage near its limits. In a debug build every patched save is compared with a whole one.
//!
//! A table is in one mod's storage at most: no table passes from one mod's environment to
//! another's (events, actions and checks carry data, and the tables lantern hands a call, its
//! `ctx` and arguments, are made for that call), so each write belongs to one mirror; a debug
//! build checks that too.

use super::journal::Written;
use super::storage::{self, Key, Seen, DEEPEST, MOST_VALUES};
use mlua::{Table, Value as LuaValue};
use rustc_hash::FxHashMap;
use serde_json::Value as Json;
use std::collections::BTreeMap;

/// The most places one table may be reached from for a patch to write it at each (a table
/// reached twice is saved twice); past it the storage is saved whole.
const MOST_PATHS: usize = 16;

/// Every table of one mod's storage, by address, as its last save found them.
pub(crate) struct Mirror {
    /// The storage table itself.
    root: usize,
    tables: FxHashMap<usize, Place>,
    /// The values the save holds, counted as a save counts them.
    values: usize,
}

/// One table of the storage.
struct Place {
    /// Held, so that no other table takes its address while the mirror names it.
    #[cfg_attr(not(debug_assertions), allow(dead_code))]
    held: Table,
    /// The tables that hold it, with the key each holds it at (none for the root).
    held_by: Vec<(usize, Key)>,
    /// The tables it holds, by key.
    holds: BTreeMap<Key, usize>,
}

/// One write a patch makes: the key, the value it reads now, the places it writes it at.
struct Patch {
    table: usize,
    key: Key,
    value: Option<Json>,
    paths: Vec<Vec<Key>>,
    /// The table the value is, with the tables it holds, when it is one.
    fresh: Option<(usize, Seen)>,
}

impl Mirror {
    /// The mirror of a storage a whole save just walked: `root` and what the walk saw.
    pub(crate) fn new(root: &Table, seen: Seen, values: usize) -> Mirror {
        let mut mirror = Mirror {
            root: root.to_pointer() as usize,
            tables: FxHashMap::with_capacity_and_hasher(seen.len(), Default::default()),
            values,
        };
        mirror.learn(seen);
        mirror
    }

    /// Whether `table` is the storage table this mirror was made of.
    pub(crate) fn is_of(&self, table: usize) -> bool {
        self.root == table
    }

    /// The storage table's address.
    pub(crate) fn root(&self) -> usize {
        self.root
    }

    /// The storage table itself.
    #[cfg(debug_assertions)]
    pub(crate) fn storage(&self) -> &Table {
        &self.tables[&self.root].held
    }

    /// Whether `table` is one of this storage's tables.
    pub(crate) fn knows(&self, table: usize) -> bool {
        self.tables.contains_key(&table)
    }

    /// Patches `saved`, the save this mirror describes, with `writes` (each a table of this
    /// storage and the key written, as Lua has it); whether it could follow them exactly. When it
    /// could not, the caller saves the storage whole (which makes a new mirror): every value is
    /// read and checked before anything is patched, so a storage a save refuses leaves `saved` as
    /// it was.
    pub(crate) fn patch(&mut self, saved: &mut Json, writes: &[Written]) -> bool {
        if let [only] = writes {
            if let Some(done) = self.patch_in_place(saved, only) {
                return done;
            }
        }
        let mut patches = Vec::with_capacity(writes.len());
        let mut bound = self.values;
        for written in writes {
            let Some(patch) = self.read(written) else {
                return false;
            };
            bound += patch.value.as_ref().map_or(0, storage::count) * patch.paths.len();
            if bound > MOST_VALUES {
                return false;
            }
            patches.push(patch);
        }
        // Deepest first: a table both written and taken out is patched before its place goes.
        if patches.len() > 1 {
            patches.sort_by_key(|p| std::cmp::Reverse(p.paths.iter().map(Vec::len).max()));
        }
        patches
            .into_iter()
            .all(|patch| self.apply(saved, patch).is_some())
    }

    /// The most common turn of a small mod, one plain value written at a name its storage
    /// already has (a counter, a flag), patched where it is: `None` for any other write, which
    /// [`patch`](Self::patch) follows the general way.
    fn patch_in_place(&mut self, saved: &mut Json, written: &Written) -> Option<bool> {
        let (Key::Text(name), value) = written.at.as_ref()? else {
            return None;
        };
        if written.table != self.root || matches!(value, LuaValue::Table(_) | LuaValue::Nil) {
            return None;
        }
        let root = self.tables.get(&self.root)?;
        if !root.holds.is_empty() && root.holds.contains_key(&Key::Text(name.clone())) {
            return None;
        }
        let Json::Object(map) = saved else {
            return None;
        };
        if map.len() == 1 && map.contains_key(storage::PAIRS) {
            return None;
        }
        let slot = map.get_mut(name.as_str())?;
        let (json, _) = storage::saved(value, 1, None).ok()?;
        let values = (self.values + storage::count(&json)).saturating_sub(storage::count(slot));
        if values > MOST_VALUES {
            return Some(false);
        }
        *slot = json;
        self.values = values;
        Some(true)
    }

    /// What a write puts in the save; `None` when it cannot be followed (a table written at too
    /// many keys to log, a key or value a save cannot hold).
    fn read(&self, written: &Written) -> Option<Patch> {
        let at = written.table;
        let (key, value) = written.at.as_ref()?;
        let key = key.clone();
        self.tables.get(&at)?;
        let paths = self.paths(at)?;
        let deepest = paths.iter().map(Vec::len).max()?;
        let mut seen = Seen::new();
        let (value, fresh) = match value {
            LuaValue::Nil => (None, None),
            LuaValue::Table(t) => {
                let id = t.to_pointer() as usize;
                if self.tables.contains_key(&id) {
                    return None;
                }
                let (json, _) = storage::saved(value, deepest + 1, Some(&mut seen)).ok()?;
                // A table of the storage inside it is an alias, which lantern's Lua reports.
                if seen
                    .iter()
                    .any(|(t, _)| self.knows(t.to_pointer() as usize))
                {
                    return None;
                }
                (Some(json), Some((id, seen)))
            }
            other => (Some(storage::saved(other, deepest + 1, None).ok()?.0), None),
        };
        Some(Patch {
            table: at,
            key,
            value,
            paths,
            fresh,
        })
    }

    /// Every way from the root to `table`, as keys; `None` past [`MOST_PATHS`] or when a way is
    /// broken (which a whole save mends).
    fn paths(&self, table: usize) -> Option<Vec<Vec<Key>>> {
        if table == self.root {
            return Some(vec![Vec::new()]);
        }
        let mut done = Vec::new();
        let mut open = vec![(table, Vec::new())];
        while let Some((at, mut keys)) = open.pop() {
            if at == self.root {
                keys.reverse();
                done.push(keys);
                continue;
            }
            let place = self.tables.get(&at)?;
            if place.held_by.is_empty() || keys.len() >= DEEPEST {
                return None;
            }
            for (parent, key) in &place.held_by {
                let mut longer = keys.clone();
                longer.push(key.clone());
                open.push((*parent, longer));
            }
            if done.len() + open.len() > MOST_PATHS {
                return None;
            }
        }
        Some(done)
    }

    /// Writes one patch at each of its places and updates what the mirror knows.
    /// `None` when a place is not where the mirror has it, which a whole save mends.
    fn apply(&mut self, saved: &mut Json, patch: Patch) -> Option<()> {
        let Patch {
            table,
            key,
            value,
            paths,
            fresh,
        } = patch;
        let added = value.as_ref().map_or(0, storage::count);
        let last = paths.len().saturating_sub(1);
        let mut value = Some(value);
        for (i, path) in paths.iter().enumerate() {
            let mut node = &mut *saved;
            for k in path {
                node = storage::entry_mut(node, k)?;
            }
            // The last place takes the value itself; the others (a table reached twice) a copy.
            let written = if i == last {
                value.take().flatten()
            } else {
                value.clone().flatten()
            };
            let old = storage::set(node, &key, written);
            let removed = old.as_ref().map_or(0, storage::count);
            self.values = (self.values + added).saturating_sub(removed);
        }
        let place = self.tables.get_mut(&table)?;
        let gone = if place.holds.is_empty() {
            None
        } else {
            place.holds.remove(&key)
        };
        if let Some(child) = gone {
            self.unhold(child, table, &key);
        }
        if let Some((id, seen)) = fresh {
            self.learn(seen);
            if let Some(place) = self.tables.get_mut(&table) {
                place.holds.insert(key.clone(), id);
            }
            if let Some(child) = self.tables.get_mut(&id) {
                child.held_by.push((table, key));
            }
        }
        Some(())
    }

    /// Learns the tables a walk saved, and which holds which. (A walk lists a table after the
    /// tables it holds, and a table reached twice twice.)
    fn learn(&mut self, seen: Seen) {
        for (table, holds) in seen {
            let id = table.to_pointer() as usize;
            for (key, child) in &holds {
                if let Some(place) = self.tables.get_mut(child) {
                    if !place.held_by.iter().any(|(p, k)| *p == id && k == key) {
                        place.held_by.push((id, key.clone()));
                    }
                }
            }
            self.tables.entry(id).or_insert_with(|| Place {
                held: table,
                held_by: Vec::new(),
                holds: holds.into_iter().collect(),
            });
        }
    }

    /// `child` is no longer held by `parent` at `key`; held by nothing, it is forgotten, and so is
    /// what only it held.
    fn unhold(&mut self, child: usize, parent: usize, key: &Key) {
        let mut gone = vec![(child, parent, key.clone())];
        while let Some((child, parent, key)) = gone.pop() {
            let Some(place) = self.tables.get_mut(&child) else {
                continue;
            };
            place.held_by.retain(|(p, k)| !(*p == parent && *k == key));
            if place.held_by.is_empty() && child != self.root {
                if let Some(place) = self.tables.remove(&child) {
                    gone.extend(place.holds.into_iter().map(|(k, c)| (c, child, k)));
                }
            }
        }
    }
}
