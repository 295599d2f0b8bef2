//! A save read under other versions of its mods: one made with a newer version than the one
//! installed is refused, the old IDs a mod renamed since (`[renames]`) are read as the new ones,
//! and the versions the save was made with are kept for the mods' `lantern.on_update` hooks.

use super::State;
use crate::content::Content;
use crate::diag::{Code, Diagnostic};
use crate::id::Id;
use std::collections::BTreeMap;

/// Why a save whose mods' versions are `saved` cannot be read under `content`: a mod installed
/// at an older version than the save was made with.
pub(super) fn newer_than_installed(
    saved: &BTreeMap<String, String>,
    content: &Content,
) -> Option<String> {
    saved.iter().find_map(|(id, version)| {
        let m = content.mods.iter().find(|m| m.id == *id)?;
        let was = semver::Version::parse(version).ok()?;
        (was > m.version).then(|| {
            format!(
                "it was saved with mod `{id}` {was}, newer than the installed {}: install `{id}` {was} or later to load it",
                m.version
            )
        })
    })
}

/// Reads the IDs each mod renamed since the version the save was made with as their new ones,
/// wherever the state holds them; one line for each rename that changed something.
pub(super) fn rename(
    state: &mut State,
    saved: &BTreeMap<String, String>,
    content: &Content,
) -> Vec<Diagnostic> {
    let mut notes = Vec::new();
    for m in &content.mods {
        let older = saved
            .get(&m.id)
            .and_then(|v| semver::Version::parse(v).ok())
            .is_some_and(|was| was < m.version);
        if !older {
            continue;
        }
        for (old, new, _) in &m.renames {
            let mut n = rename_in(state, old, new);
            let stored = state.storage.get_mut(&m.id);
            if let Some(stored) = stored.filter(|_| !m.ids_in_storage.is_empty()) {
                n += rename_stored(
                    std::sync::Arc::make_mut(stored),
                    &m.ids_in_storage,
                    old,
                    new,
                );
            }
            if n > 0 {
                notes.push(Diagnostic::warning(
                    Code::Reconciled,
                    format!(
                        "`{old}` is `{new}` since mod `{}` {}: {n} in the save renamed",
                        m.id, m.version
                    ),
                ));
            }
        }
    }
    notes
}

/// Puts `new` for `old` in the values of the storage keys `keys` (the texts that are `old`'s whole
/// ID, in tables and lists too); how many it changed.
fn rename_stored(storage: &mut serde_json::Value, keys: &[String], old: &Id, new: &Id) -> usize {
    fn walk(v: &mut serde_json::Value, old: &str, new: &str, depth: usize) -> usize {
        // Storage nests at most 32 tables deep (`lua::storage`): a bound on a crafted save.
        if depth > 64 {
            return 0;
        }
        match v {
            serde_json::Value::String(s) if s == old => {
                *s = new.to_string();
                1
            }
            serde_json::Value::Array(items) => {
                items.iter_mut().map(|i| walk(i, old, new, depth + 1)).sum()
            }
            serde_json::Value::Object(map) => {
                map.values_mut().map(|i| walk(i, old, new, depth + 1)).sum()
            }
            _ => 0,
        }
    }
    let Some(map) = storage.as_object_mut() else {
        return 0;
    };
    let mut n = 0;
    for key in keys {
        if let Some(v) = map.get_mut(key) {
            n += walk(v, old.as_str(), new.as_str(), 0);
        }
    }
    n
}

/// Puts `new` for `old` everywhere the state names a definition; how many it changed.
fn rename_in(state: &mut State, old: &Id, new: &Id) -> usize {
    let mut n = 0;
    let mut swap = |id: &mut Id| {
        if id == old {
            *id = new.clone();
            n += 1;
        }
    };
    for c in std::iter::once(&mut state.player).chain(state.enemies.iter_mut()) {
        swap(&mut c.def);
        c.tags.iter_mut().for_each(&mut swap);
        c.inventory.iter_mut().for_each(|s| swap(&mut s.item));
    }
    state.orphans.iter_mut().for_each(|s| swap(&mut s.item));
    state.deck.iter_mut().for_each(&mut swap);
    if let Some(e) = state.encounter.as_mut() {
        swap(e);
    }
    if let Some((e, _)) = state.set_aside.encounter.as_mut() {
        swap(e);
    }
    if let Some(h) = state.hazard.as_mut() {
        swap(&mut h.hazard);
        let piles = [&mut h.deck, &mut h.hand, &mut h.discard, &mut h.enchanted];
        piles.into_iter().flatten().for_each(&mut swap);
    }
    for quests in [&mut state.quests, &mut state.set_aside.quests] {
        if let Some(progress) = quests.remove(old) {
            quests.insert(new.clone(), progress);
            n += 1;
        }
    }
    n
}

/// What a save holds of a mod that is not loaded, in words (`: its 3 items and 1 quest are set
/// aside until it returns, and its storage is kept`), or nothing.
pub(super) fn left_behind(state: &State, mod_id: &str) -> String {
    let ours = |id: &Id| id.namespace() == mod_id;
    let items: u64 = std::iter::once(&state.player)
        .chain(&state.enemies)
        .flat_map(|c| &c.inventory)
        .chain(&state.orphans)
        .filter(|s| ours(&s.item))
        .map(|s| u64::from(s.count))
        .sum();
    let quests = state.quests.keys().filter(|q| ours(q)).count();
    let mut held = Vec::new();
    if items > 0 {
        held.push(format!("{items} item{}", if items == 1 { "" } else { "s" }));
    }
    if quests > 0 {
        held.push(format!(
            "{quests} quest{}",
            if quests == 1 { "" } else { "s" }
        ));
    }
    let stored = state.storage.contains_key(mod_id);
    match (held.is_empty(), stored) {
        (true, false) => String::new(),
        (true, true) => ": its storage is kept until it returns".into(),
        (false, stored) => format!(
            ": its {} {} set aside until it returns{}",
            held.join(" and "),
            if items + quests as u64 == 1 {
                "is"
            } else {
                "are"
            },
            if stored {
                ", and its storage is kept"
            } else {
                ""
            }
        ),
    }
}
