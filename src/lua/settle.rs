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
use std::sync::Arc;

impl LuaRuntime {
    /// Writes the storage of every mod whose code ran, or whose tables were written, into the
    /// game.
    pub(super) fn write_storage(&mut self, game: &mut Game) {
        self.settle_crossed();
        let _host = self.accounts.charge_to(Owner::HOST);
        let _paused = self.budget.pause();
        let (writes, followable) = journal::take_written(&self.lua);
        let (mut by_mod, replaced) = self.writes_by_mod(writes);
        for (i, m) in self.mods.iter_mut().enumerate() {
            let ran = std::mem::take(&mut m.ran);
            let patches = by_mod.get_mut(i).map(std::mem::take).unwrap_or_default();
            let replaced = replaced.get(i).copied().unwrap_or(false);
            if !ran && patches.is_empty() && !replaced {
                continue;
            }
            let saved = game.storage_mut().get_mut(&m.id);
            if let (true, false, Some(mirror), Some(saved)) =
                (followable, replaced, m.mirror.as_mut(), saved)
            {
                // Its storage table is in place (a new one is a write to its `lantern` table):
                // what its tables were written at is all that changed, and code that only read
                // its storage leaves the game's save as it was.
                if patches.is_empty() {
                    continue;
                }
                if mirror.patch(Arc::make_mut(saved), &patches) {
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
            if !wrote && patches.is_empty() && known && game.storage().contains_key(&m.id) {
                continue;
            }
            save_whole(&self.lua, &self.files, &self.shared, m, &value, game);
        }
        // What was stored and replaced before the turn ended is no mistake.
        for kind in [journal::Store::Unsavable, journal::Store::Again] {
            let _ = journal::bad_store(&self.lua, None, kind);
        }
    }

    /// The turn's writes by the mod whose storage holds the table written (a table in no storage
    /// needs no saving), and which mods' `lantern` tables were written (a storage put in place).
    fn writes_by_mod(&self, writes: Vec<Written>) -> (Vec<Vec<Written>>, Vec<bool>) {
        let mut by_mod: Vec<Vec<Written>> = Vec::new();
        let mut replaced = Vec::new();
        let mut last = 0;
        for w in writes {
            let at = w.table.to_pointer() as usize;
            if let Some(i) = self.mods.iter().position(|m| m.lantern_at == at) {
                replaced.resize(replaced.len().max(i + 1), false);
                replaced[i] = true;
                continue;
            }
            // Writes come in runs of one mod's: the last holder is asked first.
            let holder = std::iter::once(last).chain(0..self.mods.len()).find(|&i| {
                let mirror = self.mods.get(i).and_then(|m| m.mirror.as_ref());
                mirror.is_some_and(|mirror| mirror.knows(at))
            });
            if let Some(i) = holder {
                debug_assert!(
                    self.mods.iter().enumerate().all(|(j, m)| j == i
                        || !m.mirror.as_ref().is_some_and(|mirror| mirror.knows(at))),
                    "a table in two mods' storage"
                );
                by_mod.resize_with(by_mod.len().max(i + 1), Vec::new);
                by_mod[i].push(w);
                last = i;
            }
        }
        (by_mod, replaced)
    }
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
    );
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
