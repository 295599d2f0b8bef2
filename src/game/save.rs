//! Save files: versioned, human-readable JSON holding the run seed, the mod set and the whole state,
//! written atomically. Loading keeps everything it can and lists what it dropped.

use super::{Game, State};
use crate::content::Content;
use crate::diag::Diagnostic;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

pub const FORMAT: &str = "lantern-save";
pub const VERSION: u32 = 1;

#[derive(Serialize, Deserialize)]
struct SaveFile {
    format: String,
    version: u32,
    /// Mod ids and versions the game was saved with.
    mods: BTreeMap<String, String>,
    state: State,
}

impl Game {
    /// Writes the game to `path` through a temporary file and a rename, so a crash never leaves half a save.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let file = SaveFile {
            format: FORMAT.into(),
            version: VERSION,
            mods: self
                .content
                .mods
                .iter()
                .map(|m| (m.id.clone(), m.version.to_string()))
                .collect(),
            state: self.snapshot(),
        };
        let text = serde_json::to_string_pretty(&file).map_err(|e| e.to_string())?;
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, text).map_err(|e| format!("cannot write `{}`: {e}", tmp.display()))?;
        std::fs::rename(&tmp, path).map_err(|e| format!("cannot write `{}`: {e}", path.display()))
    }

    /// Reads a save; a corrupt or truncated file is refused with a clear message.
    /// Returns the game and warnings for what was dropped or differs.
    pub fn load(content: Arc<Content>, path: &Path) -> Result<(Game, Vec<Diagnostic>), String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
        let file: SaveFile = serde_json::from_str(&text)
            .map_err(|e| format!("`{}` is not a lantern save file: {e}", path.display()))?;
        if file.format != FORMAT {
            return Err(format!(
                "`{}` is not a lantern save file (format `{}`)",
                path.display(),
                file.format
            ));
        }
        if file.version > VERSION {
            return Err(format!(
                "`{}` was written by a newer lantern (save version {})",
                path.display(),
                file.version
            ));
        }
        let mut notes = Vec::new();
        for (id, version) in &file.mods {
            match content.mods.iter().find(|m| m.id == *id) {
                None => notes.push(Diagnostic::warning(format!(
                    "the save used mod `{id}` {version}, which is not loaded"
                ))),
                Some(m) if m.version.to_string() != *version => {
                    notes.push(Diagnostic::warning(format!(
                        "the save used mod `{id}` {version}; {} is loaded",
                        m.version
                    )))
                }
                _ => {}
            }
        }
        let mut game = Game::from_state(content, file.state);
        notes.extend(game.reconcile());
        Ok((game, notes))
    }
}
