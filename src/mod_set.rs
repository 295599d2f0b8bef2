//! A loaded mod set as a value many games share: a server's sessions, a test run's games.
//!
//! [`ModSet::load`] reads, parses and resolves the mods of some roots once, with the game's rules,
//! and compiles their scripts once. Each game it starts ([`ModSet::start`]) or restores from a
//! save's bytes ([`ModSet::restore`]) shares that content and runs that bytecode in a Lua state of
//! its own: nothing is read, parsed, resolved or compiled again, and no game sees another's
//! handlers, storage or draws. A `ModSet` is `Send + Sync` and a clone is a pointer's, so a
//! server keeps one and hands it to every worker; the test harness's prepared mod sets are
//! `ModSet`s. When the mods change, the new version is loaded once and each running game moves to
//! it ([`ModSet::upgrade`]) at the cost of a swap, not a load.

use crate::content::Content;
use crate::diag::{Diagnostic, Problems, SourceMap};
use crate::game::{Game, ScriptHost};
use crate::host::Rules;
use crate::lua::switches::Switches;
use crate::lua::{KnownScripts, Limits, LuaRuntime};
use crate::mods::ModFolder;
use std::path::PathBuf;
use std::sync::Arc;

/// What moving a game to a set said, and the scripts that served the game before.
pub(crate) type Moved = (Vec<Diagnostic>, Option<Box<dyn ScriptHost>>);

/// A loaded mod set: its content, its scripts compiled, the files they were read from.
#[derive(Clone)]
pub struct ModSet(Arc<Loaded>);

struct Loaded {
    content: Arc<Content>,
    /// The rules the mods were loaded with: the code every game of the set runs.
    rules: Rules,
    /// The mods loaded, in load order: each game's Lua state loads them in this order.
    folders: Vec<ModFolder>,
    /// The files read: the spans of the content's and the scripts' problems point here.
    sources: Arc<SourceMap>,
    /// Each mod's `main.lua` as this load compiled it, which every game runs.
    scripts: KnownScripts,
    /// Each game's scripts' limits.
    limits: Limits,
    /// The host's switch over each mod's scripts, which every game of the set follows.
    switches: Arc<Switches>,
}

impl ModSet {
    /// Loads the mods of `roots` (the game's, then the player's, as one set) with the game's
    /// rules; each game's scripts run within `limits`. The warnings the mods gave, or
    /// [`Error::Mods`](crate::Error::Mods) with every problem when they do not load.
    pub fn load(
        roots: &[PathBuf],
        rules: &Rules,
        limits: Limits,
    ) -> Result<(ModSet, Problems), crate::Error> {
        ModSet::load_with(roots, rules, limits, &[])
    }

    /// [`ModSet::load`] with the settings a player or server chose (`("rats:rat_health",
    /// "20")`, as typed): the data reads them (`{ setting = "..." }`) in this load, and every
    /// game starts with them.
    pub fn load_with(
        roots: &[PathBuf],
        rules: &Rules,
        limits: Limits,
        settings: &[(String, String)],
    ) -> Result<(ModSet, Problems), crate::Error> {
        let mut world = crate::load::load_with(roots, None, limits, rules, None, None, settings);
        let sources = Arc::new(std::mem::take(&mut world.sources));
        let problems = Problems::new(std::mem::take(&mut world.diagnostics), sources.clone());
        if problems.has_errors() {
            return Err(crate::Error::mods(problems));
        }
        let set = ModSet::of_world(&world, sources, limits);
        Ok((set, problems))
    }

    /// The set a load made (which had no errors), its files in `sources`.
    pub(crate) fn of_world(
        world: &crate::load::World,
        sources: Arc<SourceMap>,
        limits: Limits,
    ) -> ModSet {
        ModSet::of_parts(
            world.content.clone(),
            world.rules.clone(),
            world.folders.clone(),
            sources,
            world.compiled_scripts(),
            limits,
        )
    }

    /// A set of these parts: content and the rules it was loaded with, the mods in load order,
    /// the files, the compiled scripts.
    pub(crate) fn of_parts(
        content: Arc<Content>,
        rules: Rules,
        folders: Vec<ModFolder>,
        sources: Arc<SourceMap>,
        scripts: KnownScripts,
        limits: Limits,
    ) -> ModSet {
        let switches = Arc::new(Switches::new(folders.iter().map(|m| m.id())));
        ModSet(Arc::new(Loaded {
            content,
            rules,
            folders,
            sources,
            scripts,
            limits,
            switches,
        }))
    }

    /// The rules the mods were loaded with.
    pub(crate) fn rules(&self) -> &Rules {
        &self.0.rules
    }

    /// The content the mods define, shared by every game of the set.
    pub fn content(&self) -> &Arc<Content> {
        &self.0.content
    }

    /// The files the set was read from: what its problems and its games' problems point into.
    pub fn sources(&self) -> &SourceMap {
        &self.0.sources
    }

    /// Turns the scripts of mod `mod_id` off in every game of the set (a server's policy for a
    /// mod that failed or overran in too many sessions): each game stops running its handlers,
    /// actions, checks and hooks from its next turn, and says so once. Its data stays, and so
    /// does its storage; [`switch_on`](Self::switch_on) undoes it. Whether the set has that mod.
    /// A set loaded again (a new version) starts with every mod on.
    pub fn switch_off(&self, mod_id: &str) -> bool {
        self.0.switches.set(mod_id, true)
    }

    /// Turns the scripts of mod `mod_id` on again in every game of the set, from each game's next
    /// turn; whether the set has that mod.
    pub fn switch_on(&self, mod_id: &str) -> bool {
        self.0.switches.set(mod_id, false)
    }

    /// The mods whose scripts the host switched off, in load order.
    pub fn switched_off(&self) -> Vec<String> {
        self.0.switches.off().map(str::to_string).collect()
    }

    /// The mods loaded, in load order.
    pub(crate) fn folders(&self) -> &[ModFolder] {
        &self.0.folders
    }

    /// A new game of the set for `seed`, its scripts loaded from the set's bytecode in a Lua state
    /// of its own. An error only when Lua cannot start or the scripts fail as they run (a script
    /// that reads the clock, say): each game runs them afresh.
    pub fn start(&self, seed: u64) -> Result<Game, crate::Error> {
        self.start_with(seed, None)
    }

    /// [`ModSet::start`] with `scripts`, when the load that made the set ran them already (a
    /// `Live`'s first game): the one way a game of a set starts.
    pub(crate) fn start_with(
        &self,
        seed: u64,
        scripts: Option<LuaRuntime>,
    ) -> Result<Game, crate::Error> {
        let game = Game::new(self.0.content.clone(), self.0.rules.code().clone(), seed);
        self.plugged(game, scripts)
    }

    /// A game of the set read from a save file, as [`ModSet::restore`] reads a save's bytes.
    pub fn load_save(&self, path: &std::path::Path) -> Result<(Game, Problems), crate::Error> {
        let code = self.0.rules.code().clone();
        let (game, mut notes) = Game::read_save(self.0.content.clone(), code, path)?;
        let mut game = self.plugged(game, None)?;
        notes.extend(game.take_problems());
        Ok((game, Problems::new(notes, self.0.sources.clone())))
    }

    /// A game of the set read from a save's bytes (`game.save_bytes()`; a `&[u8]` is a reader),
    /// its scripts going on from the storage the save holds; the notes say what the save held that
    /// the set no longer has, and what each mod's update hook did.
    pub fn restore(&self, save: impl std::io::Read) -> Result<(Game, Problems), crate::Error> {
        let code = self.0.rules.code().clone();
        let (game, mut notes) = Game::read_save_from(self.0.content.clone(), code, save)?;
        let mut game = self.plugged(game, None)?;
        notes.extend(game.take_problems());
        Ok((game, Problems::new(notes, self.0.sources.clone())))
    }

    /// Moves `game` to this set (a changed version of the mods it plays, loaded once for every
    /// session), as a hot reload moves a game: the content swapped (progress kept by ID, what is
    /// gone set aside with a note), the set's scripts in a Lua state of their own attached to the
    /// game's storage, each mod's `lantern.on_reload` run. What it said about the move; the
    /// problems the game had before stay the game's. A set whose scripts fail to start leaves the
    /// game as it was, on its old set.
    pub fn upgrade(&self, game: &mut Game) -> Result<Problems, crate::Error> {
        let (notes, _old) = self.upgrade_with(game, None)?;
        Ok(Problems::new(notes, self.0.sources.clone()))
    }

    /// [`ModSet::upgrade`] with `scripts`, when the load that made the set ran them already (a
    /// `Live`'s reload): the one way a game moves to a set. What the move said, and the scripts
    /// that served the game before (a reload frees them aside).
    pub(crate) fn upgrade_with(
        &self,
        game: &mut Game,
        scripts: Option<LuaRuntime>,
    ) -> Result<Moved, crate::Error> {
        let mut scripts = self.ready(scripts)?;
        let before = game.problems_len();
        let mut notes = game.swap_content(self.0.content.clone());
        game.set_code(self.0.rules.code().clone());
        scripts.attach(game);
        scripts.run_on_reload(game);
        let old = game.set_scripts(Some(Box::new(scripts)));
        notes.extend(game.problems_since(before));
        Ok((notes, old))
    }

    /// `game` with the set's scripts (`scripts`, or a fresh run of them) attached to it and
    /// plugged in.
    fn plugged(&self, mut game: Game, scripts: Option<LuaRuntime>) -> Result<Game, crate::Error> {
        let mut scripts = self.ready(scripts)?;
        scripts.attach(&mut game);
        game.set_scripts(Some(Box::new(scripts)));
        Ok(game)
    }

    /// `scripts` following the set's switches, or the set's scripts run afresh.
    fn ready(&self, scripts: Option<LuaRuntime>) -> Result<LuaRuntime, crate::Error> {
        match scripts {
            Some(mut lua) => {
                lua.follow(self.0.switches.clone());
                Ok(lua)
            }
            None => Ok(self.scripts(self.0.limits).map_err(crate::Error::mods)?.0),
        }
    }

    /// The set's scripts in a Lua state of their own, within `limits` (a test game's), with the
    /// files their problems point into; or what stopped them.
    pub(crate) fn scripts(&self, limits: Limits) -> Result<(LuaRuntime, SourceMap), Problems> {
        crate::load::fresh_scripts(
            &self.0.folders,
            &self.0.rules,
            self.0.content.clone(),
            (*self.0.sources).clone(),
            &self.0.scripts,
            limits,
        )
        .map(|(mut lua, sources)| {
            lua.follow(self.0.switches.clone());
            (lua, sources)
        })
        .map_err(|(diagnostics, sources): (Vec<Diagnostic>, SourceMap)| {
            Problems::new(diagnostics, Arc::new(sources))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_is_shared_between_threads() {
        fn shared<T: Send + Sync + Clone>() {}
        shared::<ModSet>();
    }
}
