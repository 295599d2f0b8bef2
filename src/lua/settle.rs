//! The end of a turn for the scripts: each mod's storage written into the game.
//!
//! A mod whose storage the game has a mirror of (`mirror.rs`) and whose storage table is still in
//! place gets the keys its tables were written at patched into the game's save of it; the others
//! whose code ran and wrote are saved whole (which makes the mirror). Storage that cannot be
//! saved is reported at the line that stored it, and the game keeps its last save.

use super::journal::{self, Written};
use super::memory::Owner;
use super::{mirror, storage, Called, LuaRuntime, ModScript};
use crate::diag::{Code, Diagnostic};
use crate::game::Game;
use atomic_refcell::AtomicRefCell;
use rustc_hash::FxHashMap;
use std::sync::Arc;

impl LuaRuntime {
    /// Writes the storage of every mod whose code ran, or whose tables were written, into the
    /// game.
    pub(super) fn write_storage(&mut self, game: &mut Game) {
        self.settle_crossed();
        let _host = self.accounts.charge_to(Owner::HOST);
        let _paused = self.budget.pause();
        let (writes, followable) = journal::take_written(&self.lua);
        let (held, per_mod) = self.writes_by_mod(writes);
        let runs = runs(&per_mod);
        let patched = if followable {
            self.patch_followed(game, &held, &per_mod, &runs)
        } else {
            Vec::new()
        };
        for (i, m) in self.mods.iter_mut().enumerate() {
            let ran = std::mem::take(&mut m.ran);
            let tried = patched.get(i).copied().flatten();
            if tried == Some(true) {
                continue;
            }
            let (count, replaced) = per_mod.get(i).copied().unwrap_or_default();
            let start = runs.get(i).copied().unwrap_or(0);
            let patches = &held[start..start + count];
            let tables_written = !patches.is_empty();
            if !ran && !tables_written && !replaced {
                continue;
            }
            let saved = game.storage_mut().get_mut(&m.id);
            if let (true, false, None, Some(mirror), Some(saved)) =
                (followable, replaced, tried, m.mirror.as_mut(), saved)
            {
                // Its storage table is in place (a new one is a write to its `lantern` table):
                // what its tables were written at is all that changed, and code that only read
                // its storage leaves the game's save as it was.
                if !tables_written {
                    continue;
                }
                if mirror.patch(Arc::make_mut(saved), patches) {
                    #[cfg(debug_assertions)]
                    same_as_whole(&m.id, mirror.storage(), saved);
                    continue;
                }
            }
            let value: mlua::Value = m.lantern.raw_get("storage").unwrap_or(mlua::Value::Nil);
            if let mlua::Value::Table(t) = &value {
                journal::flag(&self.lua, t);
            }
            // Code that only read its storage leaves it as the game has it.
            let table = value.to_pointer() as usize;
            let wrote = journal::take_dirty(&self.lua, m.owner.number());
            let known = m.mirror.as_ref().is_some_and(|mirror| mirror.is_of(table));
            if !wrote && !tables_written && known && game.storage().contains_key(&m.id) {
                continue;
            }
            save_whole(&self.lua, &self.files, &self.shared, m, &value, game);
        }
        // What was stored and replaced before the turn ended is no mistake.
        for kind in [journal::Store::Unsavable, journal::Store::Again] {
            let _ = journal::bad_store(&self.lua, None, kind);
        }
    }

    /// Patches the saves of the mods whose writes their mirrors follow (each storage table in
    /// place), walking the game's storage and the mods in the order of their IDs together, so
    /// that no mod's save is looked up by name; for each mod, whether it patched its save
    /// (`None` when it did not try). The others, and any problem, are the caller's, in the mods'
    /// order: a save a patch could not follow is saved whole.
    fn patch_followed(
        &mut self,
        game: &mut Game,
        held: &[Written],
        per_mod: &[(usize, bool)],
        runs: &[usize],
    ) -> Vec<Option<bool>> {
        let mut patched = vec![None; per_mod.len()];
        let mut saves = game.storage_mut().iter_mut().peekable();
        for &i in &self.by_id {
            let Some(&(count, false)) = per_mod.get(i) else {
                continue;
            };
            let m = &mut self.mods[i];
            let (Some(mirror), true) = (m.mirror.as_mut(), count > 0) else {
                continue;
            };
            while saves
                .next_if(|(id, _)| id.as_str() < m.id.as_str())
                .is_some()
            {}
            let Some((_, saved)) = saves.next_if(|(id, _)| id.as_str() == m.id.as_str()) else {
                continue;
            };
            let start = runs[i];
            let done = mirror.patch(Arc::make_mut(saved), &held[start..start + count]);
            #[cfg(debug_assertions)]
            if done {
                same_as_whole(&m.id, mirror.storage(), saved);
            }
            patched[i] = Some(done);
        }
        patched
    }

    /// The turn's writes to storage tables, in runs of one mod's (in the mods' order, each run
    /// in the order written; a table in no storage needs no saving), and for each mod how many
    /// its run holds and whether its `lantern` table was written (a storage put in place).
    ///
    /// Most writes are at a storage's own table: those are found by one lookup among every mod's
    /// `lantern` and storage tables, so the cost follows the writes and not the number of mods;
    /// a table deeper in a storage is asked of the last mod that had one, then of each.
    fn writes_by_mod(&self, writes: Vec<Written>) -> (Vec<Written>, Vec<(usize, bool)>) {
        let mut per_mod = Vec::new();
        if writes.is_empty() {
            return (writes, per_mod);
        }
        per_mod.resize(self.mods.len(), (0, false));
        // Each mod's `lantern` table (true) and storage table (false), by address.
        let mut tops: FxHashMap<usize, (usize, bool)> = FxHashMap::default();
        tops.reserve(self.mods.len() * 2);
        for (i, m) in self.mods.iter().enumerate() {
            tops.insert(m.lantern_at, (i, true));
            if let Some(mirror) = &m.mirror {
                tops.insert(mirror.root(), (i, false));
            }
        }
        let mut held = Vec::with_capacity(writes.len());
        let mut last = 0;
        for mut w in writes {
            let holder = match tops.get(&w.table) {
                Some(&(i, true)) => {
                    per_mod[i].1 = true;
                    continue;
                }
                Some(&(i, false)) => Some(i),
                None => std::iter::once(last).chain(0..self.mods.len()).find(|&i| {
                    let mirror = self.mods.get(i).and_then(|m| m.mirror.as_ref());
                    mirror.is_some_and(|mirror| mirror.knows(w.table))
                }),
            };
            if let Some(i) = holder {
                debug_assert!(
                    self.mods.iter().enumerate().all(|(j, m)| j == i
                        || !m
                            .mirror
                            .as_ref()
                            .is_some_and(|mirror| mirror.knows(w.table))),
                    "a table in two mods' storage"
                );
                per_mod[i].0 += 1;
                w.holder = i;
                held.push(w);
                last = i;
            }
        }
        // Stable: each mod's writes stay in the order they were made.
        held.sort_by_key(|w| w.holder);
        (held, per_mod)
    }
}

/// Where each mod's run of writes starts, from how many each holds.
fn runs(per_mod: &[(usize, bool)]) -> Vec<usize> {
    let mut start = 0;
    per_mod
        .iter()
        .map(|&(count, _)| {
            let at = start;
            start += count;
            at
        })
        .collect()
}

/// Saves `m`'s storage `value` whole into the game and makes its mirror; or, when it cannot be
/// saved, says where it went wrong and leaves the game's last save.
fn save_whole(
    lua: &mlua::Lua,
    files: &super::report::ScriptFiles,
    shared: &AtomicRefCell<super::Shared>,
    m: &mut ModScript,
    value: &mlua::Value,
    game: &mut Game,
) {
    let mut seen = storage::Seen::new();
    let (e, culprit) = match storage::saved(value, 0, Some(&mut seen)) {
        Ok((json, values)) => {
            game.storage_mut().insert(m.id.clone(), Arc::new(json));
            m.mirror = match value {
                mlua::Value::Table(t) => Some(mirror::Mirror::new(t, seen, values)),
                _ => None,
            };
            return;
        }
        Err(refused) => refused,
    };
    // The save no longer follows the storage, which the turn's writes left.
    m.mirror = None;
    let mut d = Diagnostic::error(
        Code::Script,
        format!("[{}] {e}; the storage keeps its last saved state", m.id),
    )
    .of_mod(&m.id);
    let last = {
        let shared = shared.borrow();
        match &m.last {
            Some(Called::Handler(i)) => shared.handlers.get(*i).map(|h| h.registered.func.clone()),
            Some(Called::Function(f)) => Some(f.clone()),
            None => None,
        }
    };
    // Where it stored what a save cannot hold, or the table that closes a cycle, when that is
    // the trouble; else the code of the mod that ran last.
    let owner = Some(m.owner.number());
    // Both are asked (asking forgets), then the one of the refused value kept.
    let stores = [journal::Store::Unsavable, journal::Store::Again]
        .map(|kind| journal::bad_store(lua, owner, kind));
    let stored = stores
        .into_iter()
        .flatten()
        .filter(|(_, _, value)| culprit == Some(*value))
        .find_map(|(source, line, _)| files.line_span(&source, line));
    let at = last.and_then(|f| {
        let info = f.info();
        let source = info.source?.trim_start_matches('@').to_string();
        files.line_span(&source, info.line_defined?)
    });
    if let Some(span) = stored {
        d = d
            .at(span)
            .with_help("stored here; storage is saved when the turn ends");
    } else if let Some(span) = at {
        d = d
            .at(span)
            .with_help("storage is saved when the turn ends; this is the mod's code that ran last");
    }
    game.report(d);
}

/// Panics when a patched save differs from a whole save of the same storage: a debug build's
/// check, which every test that stores runs.
#[cfg(debug_assertions)]
fn same_as_whole(id: &str, storage: &mlua::Table, patched: &serde_json::Value) {
    let whole = storage::saved(&mlua::Value::Table(storage.clone()), 0, None);
    assert!(
        whole.as_ref().is_ok_and(|(whole, _)| whole == patched),
        "[{id}] the patched save of the storage differs from a whole one: {patched} against {whole:?}"
    );
}
