//! Saves: versioned, human-readable JSON holding the run seed, the mod set and the whole state,
//! written to any writer or as bytes (a server's database, an object store), and to plain files
//! atomically. Reading refuses what is not a save (with a message, never a panic), keeps
//! everything it can and lists what it dropped; a file is a thin layer over the bytes.

use super::{Game, State};
use crate::content::Content;
use crate::diag::Code;
use crate::diag::Diagnostic;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

/// What a save file says it is.
pub const FORMAT: &str = "lantern-save";
/// 2: storage tables that are neither sequences nor text-keyed are saved as `$pairs`.
/// 3: the run's position is the game's state (the roguelike's `Run`), and the scene's number,
/// which the encounter and hazard streams are named after, is lantern's `scene`.
pub const VERSION: u32 = 3;

#[derive(Serialize, Deserialize)]
struct SaveFile {
    format: String,
    version: u32,
    /// Mod ids and versions the game was saved with.
    mods: BTreeMap<String, String>,
    state: State,
    /// The game's own world, as its hooks save it (`Vocabulary::world`), when it declared one.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::json_tree::optional_tree"
    )]
    world: Option<serde_json::Value>,
}

/// What a save says of itself, read without building the rest.
#[derive(Deserialize)]
struct Header {
    #[serde(default)]
    version: u32,
}

impl Game {
    /// Writes the game to `path` through a temporary file and a rename, so a crash never leaves half a save.
    pub fn save(&self, path: &Path) -> Result<(), crate::Error> {
        let text = self.save_text().map_err(crate::Error::Save)?;
        crate::write::replacing(path, text.as_bytes(), "saves").map_err(crate::Error::Save)
    }

    /// The game's save as bytes, for a store that is not a file (a database, an object store, a
    /// message to another machine): what [`Game::save`] writes, restored by `World::restore`,
    /// `Live::restore` or `ModSet::restore` to a game whose hash is this one's.
    pub fn save_bytes(&self) -> Result<Vec<u8>, crate::Error> {
        self.save_text()
            .map(String::into_bytes)
            .map_err(crate::Error::Save)
    }

    /// Writes the game's save to `out` (what [`Game::save_bytes`] holds).
    pub fn save_to(&self, out: &mut dyn std::io::Write) -> Result<(), crate::Error> {
        let text = self.save_text().map_err(crate::Error::Save)?;
        out.write_all(text.as_bytes())
            .and_then(|()| out.flush())
            .map_err(|e| crate::Error::Save(format!("cannot write the save: {e}")))
    }

    fn save_text(&self) -> Result<String, String> {
        if let Some(world) = self.world_missing() {
            return Err(format!(
                "the game's world (`{world}`) is part of its saves, and it is not lent now: \
                 save inside `Game::with_world`"
            ));
        }
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
            world: self.world_json(),
        };
        serde_json::to_string_pretty(&file).map_err(|e| e.to_string())
    }

    /// Reads a save into a game over `content` with no scripts plugged in: the caller plugs them
    /// in (`World::load_save`, `Live::load_save`).
    pub(crate) fn read_save(
        content: Arc<Content>,
        code: Arc<super::code::Code>,
        path: &Path,
    ) -> Result<(Game, Vec<Diagnostic>), crate::Error> {
        let shown = format!("`{}`", path.display());
        read_save(path)
            .and_then(|text| Game::from_save_text(content, code, text, &shown))
            .map_err(crate::Error::Save)
    }

    /// [`Game::read_save`] from a reader of the save's bytes.
    pub(crate) fn read_save_from(
        content: Arc<Content>,
        code: Arc<super::code::Code>,
        save: impl std::io::Read,
    ) -> Result<(Game, Vec<Diagnostic>), crate::Error> {
        read_bounded(save, "the save")
            .and_then(|text| Game::from_save_text(content, code, text, "the save"))
            .map_err(crate::Error::Save)
    }

    /// A game read from the text of a save (`shown`: its name in messages, "`saves/a.json`" or
    /// "the save"), with no scripts
    /// plugged in: what [`Game::read_save`] reads, and a test game's `save = "..."`.
    pub(crate) fn from_save_text(
        content: Arc<Content>,
        code: Arc<super::code::Code>,
        text: String,
        shown: &str,
    ) -> Result<(Game, Vec<Diagnostic>), String> {
        let not_a_save = |e: serde_json::Error| format!("{shown} is not a lantern save file: {e}");
        // A save of this version is read straight into the state; building the whole JSON tree
        // first cost 17 to 33 times the file's size in memory. An older one needs the tree to be
        // brought up to date.
        // Its free-form parts (storage, the world, an older save's whole tree) are read within a
        // bound on their values (`json_tree`), so a crafted save cannot build gigabytes.
        let header: Header = serde_json::from_str(&text).map_err(not_a_save)?;
        let file: SaveFile = if header.version == VERSION {
            crate::json_tree::reading(|| serde_json::from_str(&text)).map_err(not_a_save)?
        } else {
            let mut json = crate::json_tree::reading(|| {
                let mut d = serde_json::Deserializer::from_str(&text);
                let json = crate::json_tree::tree(&mut d)?;
                d.end().map(|()| json)
            })
            .map_err(not_a_save)?;
            upgrade(&mut json, &content);
            // Counted afresh: the tree it is read from was counted whole already.
            crate::json_tree::reading(|| serde_json::from_value(json)).map_err(not_a_save)?
        };
        drop(text);
        if file.format != FORMAT {
            return Err(format!(
                "{} is not a lantern save file (format `{}`)",
                shown, file.format
            ));
        }
        if file.version > VERSION {
            return Err(format!(
                "{} was written by a newer lantern (save version {})",
                shown, file.version
            ));
        }
        if let Some(why) = super::update::newer_than_installed(&file.mods, &content) {
            return Err(format!("{} cannot be loaded: {why}", shown));
        }
        let mut notes = Vec::new();
        for (id, version) in &file.mods {
            match content.mods.iter().find(|m| m.id == *id) {
                None => notes.push(Diagnostic::warning(
                    Code::Reconciled,
                    format!(
                        "the save used mod `{id}` {version}, which is not loaded{}",
                        super::update::left_behind(&file.state, id)
                    ),
                )),
                Some(m) if m.version.to_string() != *version => notes.push(Diagnostic::warning(
                    Code::Reconciled,
                    format!(
                        "the save used mod `{id}` {version}; {} is loaded",
                        m.version
                    ),
                )),
                _ => {}
            }
        }
        let mut state = file.state;
        state.host = match state.host.take_saved() {
            Some(json) => content
                .declared
                .read_state(json)
                .map_err(|e| format!("{} cannot be loaded: {e}", shown))?,
            // A save of a game that kept no state yet: the game starts its own afresh.
            None => content.declared.fresh_state(),
        };
        notes.extend(within_bounds(&mut state));
        notes.extend(super::update::rename(&mut state, &file.mods, &content));
        let mut game = Game::from_state(content, code, state);
        game.saved_versions = Some(file.mods);
        // The save's names are in the language it was played in.
        game.rename_creatures();
        notes.extend(game.reconcile());
        notes.extend(game.reconcile_settings());
        // The game's own world comes back the first time it is lent (`Game::with_world`).
        if game.code.world().is_some() {
            game.loan.saved = file.world;
        }
        Ok((game, notes))
    }
}

/// The most a number in a saved state may be, either way: what content may say
/// (`content::resolve` bounds every number there), and what the rules keep to while a game runs.
const MOST: i64 = 1_000_000_000;

/// Brings the numbers and lists of a loaded state within what a running game keeps to: a crafted
/// save with a health of `i64::MAX` or a million stacks loaded without a word. Says what it
/// clamped or dropped (the first few, then how many more), as one warning.
fn within_bounds(state: &mut State) -> Vec<Diagnostic> {
    let mut changed: Vec<String> = Vec::new();
    let clamp = |changed: &mut Vec<String>, what: &dyn Fn() -> String, n: &mut i64| {
        let kept = (*n).clamp(-MOST, MOST);
        if kept != *n {
            changed.push(format!("{} was {n}, now {kept}", what()));
            *n = kept;
        }
    };
    let mut creatures: Vec<&mut super::Creature> = vec![&mut state.player];
    creatures.extend(state.enemies.iter_mut());
    let mut dropped: Vec<String> = Vec::new();
    for c in creatures {
        let who = c.name.clone();
        clamp(&mut changed, &|| format!("{who}'s health"), &mut c.health);
        for (name, value) in c.attributes.iter_mut() {
            clamp(&mut changed, &|| format!("{who}'s {name}"), value);
        }
        for s in c.inventory.iter_mut() {
            let item = s.item.clone();
            for (name, value) in s.properties.iter_mut() {
                clamp(
                    &mut changed,
                    &|| format!("the {name} of {who}'s `{item}`"),
                    value,
                );
            }
            if i64::from(s.count) > MOST {
                changed.push(format!(
                    "{who}'s count of `{item}` was {}, now {MOST}",
                    s.count
                ));
                s.count = MOST as u32;
            }
        }
        let empty = c.inventory.iter().filter(|s| s.count == 0).count();
        if empty > 0 {
            c.inventory.retain(|s| s.count > 0);
            dropped.push(format!("{empty} empty stacks of {who}'s"));
        }
        if c.inventory.len() > super::state::MOST_STACKS {
            dropped.push(format!(
                "{} of {who}'s stacks past the most an inventory holds ({})",
                c.inventory.len() - super::state::MOST_STACKS,
                super::state::MOST_STACKS
            ));
            c.inventory.truncate(super::state::MOST_STACKS);
        }
    }
    if state.deck.len() > super::state::MOST_CARDS {
        dropped.push(format!(
            "{} cards of the deck past the most it holds ({})",
            state.deck.len() - super::state::MOST_CARDS,
            super::state::MOST_CARDS
        ));
        state.deck.truncate(super::state::MOST_CARDS);
    }
    let mut notes = Vec::new();
    if !changed.is_empty() {
        let shown: Vec<&str> = changed.iter().take(5).map(String::as_str).collect();
        let more = match changed.len().saturating_sub(5) {
            0 => String::new(),
            n => format!(", and {n} more"),
        };
        notes.push(Diagnostic::warning(
            Code::Reconciled,
            format!(
                "the save held numbers past what a game keeps to (±{MOST}), which were clamped: {}{more}",
                shown.join("; ")
            ),
        ));
    }
    for what in dropped {
        notes.push(Diagnostic::warning(
            Code::Reconciled,
            format!("the save held {what}; they were dropped"),
        ));
    }
    notes
}

/// Brings a save of an older version to this one, in its JSON. Version 2 kept the run's position
/// (`{floor, room, sequence}`) in lantern's state: its `sequence` is the scene's number now, and
/// the rest is handed to a game that keeps a state and saved none (the roguelike, whose `Run`
/// reads it).
fn upgrade(json: &mut serde_json::Value, content: &Content) {
    let version = json.get("version").and_then(serde_json::Value::as_u64);
    let Some(state) = json.get_mut("state").and_then(|s| s.as_object_mut()) else {
        return;
    };
    if version.is_some_and(|v| v <= 2) {
        if let Some(position) = state.remove("position") {
            let scene = position.get("sequence").cloned().unwrap_or(0.into());
            state.insert("scene".into(), scene);
            if !state.contains_key("host") && !content.declared.fresh_state().is_empty() {
                state.insert("host".into(), position);
            }
        }
    }
}

/// The largest save lantern reads: far above any real run's, below what would exhaust memory.
const MOST_BYTES: u64 = 256 * 1024 * 1024;

/// Reads a save file: a regular file of at most [`MOST_BYTES`].
fn read_save(path: &Path) -> Result<String, String> {
    let shown = path.display();
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read `{shown}`: {e}"))?;
    if !meta.is_file() {
        return Err(format!("`{shown}` is not a file"));
    }
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read `{shown}`: {e}"))?;
    read_bounded(file, &format!("`{shown}`"))
}

/// Reads a save's bytes from `from` (`shown`: how messages name it), at most [`MOST_BYTES`]: a
/// reader that never ends is read no further.
fn read_bounded(from: impl std::io::Read, shown: &str) -> Result<String, String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    from.take(MOST_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {shown}: {e}"))?;
    if bytes.len() as u64 > MOST_BYTES {
        return Err(format!(
            "{shown} is larger than any save lantern writes ({} MiB)",
            MOST_BYTES / (1024 * 1024)
        ));
    }
    String::from_utf8(bytes)
        .map_err(|_| format!("{shown} is not a lantern save file: it is not text"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn a_device_is_not_read_as_a_save() {
        assert!(read_save(Path::new("/dev/null"))
            .unwrap_err()
            .contains("not a file"));
    }
}
