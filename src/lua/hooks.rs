//! The hooks a mod registers for its life beside a game rather than for an event: after a hot
//! reload replaced its scripts (`lantern.on_reload`), and when a save made with another version
//! of it is loaded (`lantern.on_update`). Each runs as any call into the mod does, under its
//! budget with the game lent, and its failure is the mod's problem.

use super::{Diagnostic, Function, Game, LuaRuntime};
use crate::diag::Code;

impl LuaRuntime {
    /// Runs every `lantern.on_reload` handler with the storage kept from before (after a hot reload).
    pub(crate) fn run_on_reload(&mut self, game: &mut Game) {
        let hooks = self.shared.borrow().on_reload.clone();
        for (mod_id, func) in hooks {
            self.call_hook(game, &mut |lua, lantern| {
                let storage: mlua::Value = lantern.raw_get("storage").unwrap_or(mlua::Value::Nil);
                // Stored from inside the call, so that no reference to what the handler
                // returns is made after it, when its memory account is no longer charged.
                let store: Function = lua
                    .load("local f, lantern, storage = ... local new = f(storage) if type(new) == 'table' then lantern.storage = new end")
                    .set_name("=lantern")
                    .into_function()?;
                store.call::<()>((func.clone(), lantern.clone(), storage))
            }, &mod_id, "its on_reload handler failed");
        }
        self.new_turn();
        self.write_storage(game);
    }

    /// Runs each mod's `lantern.on_update` hook whose version differs from the one the save the
    /// game was read from was made with (`from` is nil for a mod new to the save), before any
    /// handler; each says in one line what it changed of its storage.
    pub(crate) fn run_on_update(&mut self, game: &mut Game) {
        let Some(saved) = game.take_saved_versions() else {
            return;
        };
        let hooks = self.shared.borrow().on_update.clone();
        for (mod_id, func) in hooks {
            let Some(to) = (game.content().mods.iter())
                .find(|m| m.id == mod_id)
                .map(|m| m.version.to_string())
            else {
                continue;
            };
            let from = saved.get(&mod_id).cloned();
            if from.as_deref() == Some(to.as_str()) {
                continue;
            }
            let before = game.storage().get(&mod_id).cloned();
            let ran = self.call_hook(
                game,
                &mut |_, _| func.call::<()>((from.clone(), to.clone())),
                &mod_id,
                "its on_update hook failed",
            );
            if !ran {
                continue;
            }
            self.new_turn();
            self.write_storage(game);
            let after = game.storage().get(&mod_id).cloned();
            let from = from.unwrap_or_else(|| "none (new to the save)".into());
            game.report(Diagnostic::warning(
                Code::Reconciled,
                format!(
                    "mod `{mod_id}` updated from {from} to {to}: its on_update {}",
                    storage_change(before.as_deref(), after.as_deref())
                ),
            ));
        }
    }

    /// Calls a hook of mod `mod_id` (given the state and the mod's `lantern` table) as the mod's
    /// code, the game lent to it; whether it succeeded (its failure, `what`, is the game's
    /// problem at its line).
    fn call_hook(
        &mut self,
        game: &mut Game,
        call: &mut dyn FnMut(&mlua::Lua, &mlua::Table) -> mlua::Result<()>,
        mod_id: &str,
        what: &str,
    ) -> bool {
        let Some(index) = self.mods.iter().position(|m| m.id == mod_id) else {
            return false;
        };
        if self.mods[index].off {
            return false;
        }
        let lantern = self.mods[index].lantern.clone();
        let (lua, lender) = (&self.lua, &self.lender);
        let m = &mut self.mods[index];
        let result = super::call::call_mod(lua, &self.budget, self.accounts, m, || {
            lender.lend(game, || call(lua, &lantern))
        });
        match result {
            Ok(()) => true,
            Err(e) => {
                let d = self.error_at(mod_id, what, &e, None);
                game.report(d);
                false
            }
        }
    }
}

/// What an update hook changed of its mod's storage, in words: the top-level keys it added,
/// changed and removed.
fn storage_change(before: Option<&serde_json::Value>, after: Option<&serde_json::Value>) -> String {
    let empty = serde_json::Map::new();
    let before = before.and_then(|v| v.as_object()).unwrap_or(&empty);
    let after = after.and_then(|v| v.as_object()).unwrap_or(&empty);
    let list = |names: Vec<&String>| {
        let shown: Vec<String> = names
            .iter()
            .take(5)
            .map(|k| format!("`{}`", crate::diag::shown(k)))
            .collect();
        match names.len().saturating_sub(5) {
            0 => shown.join(", "),
            more => format!("{} and {more} more", shown.join(", ")),
        }
    };
    let added: Vec<&String> = after.keys().filter(|k| !before.contains_key(*k)).collect();
    let changed: Vec<&String> = (after.iter())
        .filter(|(k, v)| before.get(*k).is_some_and(|b| b != *v))
        .map(|(k, _)| k)
        .collect();
    let removed: Vec<&String> = before.keys().filter(|k| !after.contains_key(*k)).collect();
    let mut parts = Vec::new();
    for (what, names) in [("added", added), ("changed", changed), ("removed", removed)] {
        if !names.is_empty() {
            parts.push(format!("{what} {}", list(names)));
        }
    }
    if parts.is_empty() {
        "changed nothing of its storage".into()
    } else {
        format!("{} in its storage", parts.join("; "))
    }
}
