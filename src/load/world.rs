//! [`World`]: a mod set as one load left it, the content, the mods, their scripts (which one game
//! takes) and every problem; games start from it, or from a save read over it.

use super::Registered;
use crate::content::{self, Content};
use crate::diag::{Code, Diagnostic, SourceMap};
use crate::game::Game;
use crate::host::Rules;
use crate::lua::LuaRuntime;
use std::path::Path;
use std::sync::Arc;

/// Everything loaded from a mods directory.
pub struct World {
    /// The content built from the mods' data.
    pub content: Arc<Content>,
    /// The mods loaded, in load order.
    pub(crate) folders: Vec<crate::mods::ModFolder>,
    /// The mods' scripts, if Lua started.
    pub(crate) lua: Option<LuaRuntime>,
    /// Every file read: diagnostics' spans point here.
    pub sources: SourceMap,
    /// Every problem, causes first.
    pub diagnostics: Vec<Diagnostic>,
    /// Whether the scripts were taken (by a game or by [`World::take_lua`]).
    pub(super) scripts_taken: bool,
    /// Whether the content is the last version's, kept because only scripts changed.
    pub(crate) kept: bool,
    /// The rules the mods were loaded with: the code every game of the world runs.
    pub(crate) rules: Rules,
    /// What resolving the content left, for a reload to patch it from.
    pub(crate) resolution: Option<content::Resolution>,
}

impl World {
    /// Whether any problem is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// The mods' scripts, ready to be a game's host (plug them in with [`Game::set_scripts`]
    /// after [`ScriptHost::attach`]); a world's scripts serve one game.
    ///
    /// [`Game::set_scripts`]: crate::game::Game::set_scripts
    /// [`ScriptHost::attach`]: crate::game::ScriptHost::attach
    pub fn take_lua(&mut self) -> Option<LuaRuntime> {
        self.scripts_taken = true;
        self.lua.take()
    }

    /// A new game over the content with the mods' scripts plugged in (they are taken: a world
    /// starts one game; load the mods again for another, as the test harness does). A second game
    /// from the same world runs without the scripts, and its first problem says so.
    pub fn start(&mut self, seed: u64) -> Game {
        let game = Game::new(self.content.clone(), self.rules.code().clone(), seed);
        self.plug_scripts_into(game)
    }

    /// A game read from a save, over this world's content and with the mods' scripts plugged in
    /// (taken, as [`World::start`] takes them): its handlers run on as they did in the game that
    /// was saved, from the storage the save holds. The notes say what the save held that the
    /// content no longer has, what was dropped or renamed, and what each mod's update hook did.
    pub fn load_save(&mut self, path: &Path) -> Result<(Game, Vec<Diagnostic>), crate::Error> {
        let read = Game::read_save(self.content.clone(), self.rules.code().clone(), path)?;
        Ok(self.restored(read))
    }

    /// [`World::load_save`] from a save's bytes (`game.save_bytes()`; a `&[u8]` is a reader):
    /// what a server that keeps its sessions in a database restores them from.
    pub fn restore(
        &mut self,
        save: impl std::io::Read,
    ) -> Result<(Game, Vec<Diagnostic>), crate::Error> {
        let read = Game::read_save_from(self.content.clone(), self.rules.code().clone(), save)?;
        Ok(self.restored(read))
    }

    /// A game read from a save, with the mods' scripts plugged in and what their update hooks
    /// said among the notes.
    fn restored(&mut self, (game, mut notes): (Game, Vec<Diagnostic>)) -> (Game, Vec<Diagnostic>) {
        let mut game = self.plug_scripts_into(game);
        // What the mods' update hooks said (`lantern.on_update`) belongs with the notes.
        notes.extend(game.take_problems());
        (game, notes)
    }

    fn plug_scripts_into(&mut self, mut game: Game) -> Game {
        use crate::game::ScriptHost;
        let taken = self.scripts_taken;
        match self.take_lua() {
            Some(mut lua) => {
                lua.attach(&mut game);
                game.set_scripts(Some(Box::new(lua)));
            }
            None if taken => {
                let scripted: Vec<String> = self
                    .content
                    .scripted_mods()
                    .map(|m| format!("`{m}`"))
                    .collect();
                if !scripted.is_empty() {
                    game.report(Diagnostic::error(
                        Code::Lua,
                        format!(
                            "this game runs without the scripts of {}: they already serve \
                             another game of the same loaded mods (load the mods again for a \
                             second game)",
                            scripted.join(", ")
                        ),
                    ));
                }
            }
            None => {}
        }
        game
    }
}

impl World {
    /// Reads again every data file whose text the load let go ([`Texts::Released`]) that a
    /// problem or an override points at, so each is shown at its line as it was read. A file
    /// that changed since (or can no longer be read) is not shown, and a warning says why.
    pub(super) fn read_shown_again(&mut self) {
        let mut shown: Vec<crate::diag::FileId> = Vec::new();
        for d in &self.diagnostics {
            shown.extend(
                d.span
                    .iter()
                    .chain(d.labels.iter().map(|l| &l.span))
                    .map(|s| s.file),
            );
        }
        for o in &self.content.overrides {
            shown.extend([o.span.file, o.replaced.file]);
        }
        shown.sort_unstable();
        shown.dedup();
        for file in shown {
            let source = self.sources.get(file);
            let Some(disk) = source.disk().filter(|_| source.is_released()) else {
                continue;
            };
            let folder = self.folders.iter().find(|m| disk.starts_with(&m.dir));
            let text = folder
                .and_then(|m| crate::mods::read_inside(&m.real, disk).ok())
                .map(|bytes| crate::mods::decode_utf8(bytes).0);
            if !text.is_some_and(|text| self.sources.restore(file, text)) {
                // Said before the file's problems, which it explains.
                let path = self.sources.get(file).shown().into_owned();
                let first = self
                    .diagnostics
                    .iter()
                    .position(|d| d.span.is_some_and(|s| s.file == file));
                self.diagnostics.insert(
                    first.unwrap_or(self.diagnostics.len()),
                    Diagnostic::warning(
                        Code::FileRefused,
                        format!("`{path}` changed while it was checked"),
                    )
                    .at(crate::diag::Span::file_start(file))
                    .with_help("its problems are shown without their lines; check again"),
                );
            }
        }
    }

    /// The mods' `main.lua` as this load compiled them, for the next reload's.
    pub(crate) fn compiled_scripts(&self) -> crate::lua::KnownScripts {
        self.lua
            .as_ref()
            .map(LuaRuntime::ran_scripts)
            .unwrap_or_default()
    }

    /// What this load's scripts registered (nothing when Lua did not start).
    pub(crate) fn registered(&self) -> Registered {
        let ext = self
            .lua
            .as_ref()
            .map(LuaRuntime::extensions)
            .unwrap_or_default();
        Registered::of(&ext)
    }
}
