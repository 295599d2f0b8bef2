//! Hot reload: watch the mods directory, debounce bursts of changes, rebuild beside the live game,
//! and swap on success between two commands.
//!
//! Only this module touches the file watcher (invariant 5). In `watch`, a watcher thread (notify)
//! feeds a debounce thread that calls back once a burst of changes has gone quiet for
//! [`DEBOUNCE`]; editor swap and backup files are ignored. `changes` says in one line what a
//! reload changed. The reload itself ([`Live::reload`]) runs between two commands
//! on whichever thread holds the game: it loads the whole mod set fresh (so a folder created and
//! filled at once is seen whole), and only when that succeeds swaps content and scripts.
//! On failure the old version keeps running and every diagnostic is returned. Each successful swap
//! advances a generation counter that tests and tools wait on.

use crate::content::Content;
use crate::diag::{Diagnostic, Problems, SourceMap};
use crate::game::Game;
use crate::host::Rules;
use crate::load::load_with;
use crate::lua::Limits;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

mod changes;
mod watch;

pub use changes::describe_changes;
use changes::{describe, Unchanged};
pub use watch::{relevant, Pending, DEBOUNCE};
#[cfg(feature = "watch")]
pub use watch::{watch, watch_all, Watch};

/// What one reload did.
#[derive(Debug)]
#[non_exhaustive]
pub struct ReloadReport {
    /// Whether the new version was swapped in.
    pub ok: bool,
    /// The diagnostics of the new version (all of them when it failed), and what the swap
    /// dropped, with the files they point into (the new version's, whether or not it was
    /// swapped in).
    pub problems: Problems,
    /// `reloaded core, rats (12 files) in 23 ms: +1 quest, ~2 triggers, -1 item`
    pub summary: String,
    /// The reload generation after it.
    pub generation: u64,
}

/// A game over a mods directory that can be reloaded while it runs.
pub struct Live {
    roots: Vec<PathBuf>,
    limits: Limits,
    /// The hosting game's vocabulary: every reload loads the mods with it again.
    rules: Rules,
    game: Game,
    sources: Arc<SourceMap>,
    generation: Arc<AtomicU64>,
    /// What the scripts of the version running registered: a reload whose data did not change
    /// and whose scripts register the same keeps the content as it is.
    registered: crate::load::Registered,
    /// The data files as the last load parsed them: a reload parses only those that changed.
    memo: crate::content::parse::ParseMemo,
    /// The mods' `main.lua` as the last load compiled them: a reload compiles only those that
    /// changed.
    scripts: crate::lua::KnownScripts,
    /// What resolving the running version's content left: a reload that changed only what some
    /// data files' definitions hold resolves those files alone.
    resolution: Option<crate::content::Resolution>,
    /// The settings the player chose when the run started (as typed): every reload reads the
    /// data with them.
    settings: Vec<(String, String)>,
    /// The version running, as a mod set other games start from or move to.
    set: crate::mod_set::ModSet,
}

impl Live {
    /// Loads the mods of the mods directories (the game's, then the player's, as one set) with
    /// the game's rules, which every reload and restart keeps, and starts a game; the warnings
    /// the mods gave, or [`Error::Mods`] with every problem when they do not load.
    ///
    /// [`Error::Mods`]: crate::Error::Mods
    pub fn start_game(
        roots: &[PathBuf],
        rules: &Rules,
        seed: u64,
        limits: Limits,
    ) -> Result<(Live, Problems), crate::Error> {
        Live::start_with(roots, rules, seed, limits, &[])
    }

    /// [`Live::start_game`] with settings a player chose (`("rats:rat_health", "20")`, as
    /// typed): the data reads them (`{ setting = "..." }`) in this load and every reload, and
    /// the game starts with them; one that is unknown or out of range is among the errors.
    pub fn start_with(
        roots: &[PathBuf],
        rules: &Rules,
        seed: u64,
        limits: Limits,
        settings: &[(String, String)],
    ) -> Result<(Live, Problems), crate::Error> {
        let mut memo = crate::content::parse::ParseMemo::default();
        let mut world = load_with(roots, None, limits, rules, Some(&mut memo), None, settings);
        let sources = Arc::new(std::mem::take(&mut world.sources));
        let problems = Problems::new(std::mem::take(&mut world.diagnostics), sources.clone());
        if problems.has_errors() {
            return Err(crate::Error::mods(problems));
        }
        let registered = world.registered();
        let scripts = world.compiled_scripts();
        let resolution = world.resolution.take();
        let set = crate::mod_set::ModSet::of_world(&world, sources.clone(), limits);
        // The scripts this load ran serve the first game: one way into a game of a set.
        let game = set.start_with(seed, world.take_lua())?;
        let live = Live {
            roots: roots.to_vec(),
            limits,
            rules: rules.clone(),
            game,
            sources,
            generation: Arc::new(AtomicU64::new(0)),
            registered,
            memo,
            scripts,
            resolution,
            settings: settings.to_vec(),
            set,
        };
        Ok((live, problems))
    }

    /// The running game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The version of the mods running, as a mod set: a server that reloads one game as its
    /// files change starts its other sessions from it, or moves them to it after a reload
    /// (`live.mod_set().upgrade(&mut session)`).
    pub fn mod_set(&self) -> crate::mod_set::ModSet {
        self.set.clone()
    }

    /// Forgets the data files as the last load parsed them, the scripts as it compiled them and
    /// what its resolution left: the next reload parses, compiles and resolves every file (for
    /// lantern's tests and benches, which compare the two).
    #[doc(hidden)]
    pub fn forget_parsed(&mut self) {
        self.memo = Default::default();
        self.scripts = Default::default();
        self.resolution = None;
    }

    /// The running game, to play.
    pub fn game_mut(&mut self) -> &mut Game {
        &mut self.game
    }

    /// Starts a new run over the mods as they are now, with fresh scripts and the settings the
    /// running game has (where the mods still take them); the reload generation goes on counting. [`Error::Mods`](crate::Error::Mods) when the mods do not load (the old
    /// run goes on).
    pub fn restart(&mut self, seed: u64) -> Result<Problems, crate::Error> {
        let (mut fresh, notes) =
            Live::start_with(&self.roots, &self.rules, seed, self.limits, &self.settings)?;
        if let Some(lang) = self.game.language() {
            fresh.game.set_language(lang);
        }
        // The player's settings go on into the new run, where the mods still take them.
        for (id, value) in &self.game.state().settings {
            let _ = fresh.game.set_setting(id.as_str(), value.clone());
        }
        self.game = fresh.game;
        self.sources = fresh.sources;
        self.registered = fresh.registered;
        self.memo = fresh.memo;
        self.scripts = fresh.scripts;
        self.resolution = fresh.resolution;
        self.set = fresh.set;
        Ok(notes)
    }

    /// Lends the game's own world to the running game while `f` runs, as
    /// [`Game::with_world`] does, for what `Live` does too: a reload inside reconciles the world
    /// with the new content at once (its lines among the report's problems), and a save loaded
    /// inside puts the save's world back at once.
    pub fn with_world<W: std::any::Any, R>(
        &mut self,
        world: &mut W,
        f: impl FnOnce(&mut Live) -> R,
    ) -> R {
        // The game stays at this address while `f` runs: a reload swaps its content and a load
        // replaces it in place.
        let _end = crate::game::lend(&self.game, world);
        self.game.settle_world();
        let result = f(self);
        self.game.flush_world();
        result
    }

    /// Replaces the running game by the one a save holds, keeping the scripts: its handlers go
    /// on from the storage the save holds. The notes say what the save held that the content no
    /// longer has. A save that cannot be read is refused and the running game goes on.
    pub fn load_save(&mut self, path: &Path) -> Result<Problems, crate::Error> {
        let code = self.game.code().clone();
        let read = Game::read_save(self.game.content().clone(), code, path)?;
        Ok(self.restored(read))
    }

    /// [`Live::load_save`] from a save's bytes (`game.save_bytes()`; a `&[u8]` is a reader).
    pub fn restore(&mut self, save: impl std::io::Read) -> Result<Problems, crate::Error> {
        let code = self.game.code().clone();
        let read = Game::read_save_from(self.game.content().clone(), code, save)?;
        Ok(self.restored(read))
    }

    /// The game a save held in place of the running one, keeping the scripts.
    fn restored(&mut self, (game, mut notes): (Game, Vec<Diagnostic>)) -> Problems {
        self.replace_game(game);
        // What the scripts' update hooks said, and a world lent now taking the save's back at
        // once: the game read from the save had said nothing before.
        let before = 0;
        self.game.settle_world();
        notes.extend(self.game.problems_since(before));
        Problems::new(notes, self.sources.clone())
    }

    /// Replaces the game (a loaded save), keeping the scripts.
    pub(crate) fn replace_game(&mut self, mut game: Game) {
        if let Some(mut host) = self.game.set_scripts(None) {
            host.attach(&mut game);
            game.set_scripts(Some(host));
        }
        self.game = game;
    }

    /// The files the running version was read from.
    pub fn sources(&self) -> &SourceMap {
        &self.sources
    }

    /// The mods directories, in the order their mods are found.
    pub fn roots(&self) -> &[PathBuf] {
        &self.roots
    }

    /// How many reloads have been swapped in.
    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::SeqCst)
    }

    /// Loads the whole mod set beside the live game; swaps content and scripts when it loads cleanly.
    /// Problems the game raised before and had not taken yet stay the game's
    /// ([`Game::take_problems`](crate::game::Game::take_problems)), placed in the new
    /// [`sources`](Self::sources) when their file did not change and in words when it did.
    ///
    /// When only scripts changed (every manifest, data file and locale file reads as it did, and
    /// the scripts register the same actions and checks), the data is not resolved again: the
    /// scripts run over the content the game has. Otherwise only the data files whose text
    /// changed are parsed again.
    pub fn reload(&mut self) -> ReloadReport {
        let start = Instant::now();
        let current = self.game.content().clone();
        let base = current
            .untranslated
            .clone()
            .unwrap_or_else(|| current.clone());
        let last = crate::load::Last {
            content: &base,
            sources: &self.sources,
            registered: &self.registered,
            scripts: &self.scripts,
            resolution: self.resolution.as_ref(),
            says_again: false,
        };
        let mut world = load_with(
            &self.roots,
            None,
            self.limits,
            &self.rules,
            Some(&mut self.memo),
            Some(last),
            &self.settings,
        );
        if world.has_errors() {
            let problems = Problems::new(world.diagnostics, Arc::new(world.sources));
            return ReloadReport {
                ok: false,
                summary: format!(
                    "reload failed ({}); still running the previous version",
                    match problems.errors() {
                        1 => "1 error".to_string(),
                        n => format!("{n} errors"),
                    }
                ),
                problems,
                generation: self.generation(),
            };
        }
        let changes = self.changes(&mut world, &current);
        // Problems the game had not taken yet are the old version's, about the old files: they
        // stay the game's, not this report's, carried over to the new files below.
        let earlier = self.game.take_problems();
        let compiled = world.compiled_scripts();
        // The new version as a set, which the game moves to as any session of a set does: the
        // content swapped, the scripts this load ran attached, their `on_reload` run.
        let sources = Arc::new(std::mem::take(&mut world.sources));
        let set = crate::mod_set::ModSet::of_parts(
            world.content.clone(),
            world.rules.clone(),
            world.folders.clone(),
            sources.clone(),
            compiled.clone(),
            self.limits,
        );
        let mut notes = std::mem::take(&mut world.diagnostics);
        let old_scripts = match set.upgrade_with(&mut self.game, world.take_lua()) {
            Ok((said, old)) => {
                notes.extend(said);
                old
            }
            Err(e) => {
                for problem in earlier {
                    self.game.report(problem);
                }
                return ReloadReport {
                    ok: false,
                    summary: format!("reload failed ({e}); still running the previous version"),
                    problems: Problems::new(notes, sources),
                    generation: self.generation(),
                };
            }
        };
        self.registered = world.registered();
        self.scripts = compiled;
        let old_resolution = std::mem::replace(&mut self.resolution, world.resolution.take());
        // The whole reload, as the player waits for it: loading, comparing, swapping content and
        // scripts in and their `on_reload` handlers (the old version is dropped on the way).
        let elapsed = start.elapsed();
        let content = self.game.content();
        let generation = self.generation.fetch_add(1, Ordering::SeqCst) + 1;
        let summary = summary(content, elapsed, &changes);
        let old_sources = std::mem::replace(&mut self.sources, sources);
        self.set = set;
        for problem in earlier {
            let carried = carry_over(problem, &old_sources, &self.sources);
            self.game.report(carried);
        }
        // The old version is freed aside: at 100,000 definitions that is a tenth of a reload.
        let old = (current, base, old_sources, old_scripts, old_resolution);
        crate::content::drop_aside(old);
        ReloadReport {
            ok: true,
            problems: Problems::new(notes, self.sources.clone()),
            summary,
            generation,
        }
    }

    /// What the new version changes for the game, said in a line: its content compared with the
    /// game's (in the game's language, so a text that did not change is not counted; `world`'s
    /// content becomes the one the game will have), then its texts and scripts that changed.
    fn changes(&self, world: &mut crate::load::World, current: &Arc<Content>) -> String {
        let mut changes = if world.kept {
            // The content the game has, in its language, as it is.
            world.content = current.clone();
            "no changes".to_string()
        } else {
            if let Some(lang) = self.game.language() {
                world.content = Arc::new(world.content.in_language(lang));
            }
            let same = Unchanged::between(&self.sources, &world.sources);
            describe(self.game.content(), &world.content, &same)
        };
        let mut add = |said: String| {
            changes = if changes == "no changes" {
                said
            } else {
                format!("{changes}; {said}")
            };
        };
        let texts = changed_locales(&self.sources, &world.sources);
        if !texts.is_empty() {
            add(format!("texts changed: {}", texts.join(", ")));
        }
        let scripts = changed_scripts(&self.sources, &world.sources);
        if !scripts.is_empty() {
            add(format!(
                "scripts changed: {}{}",
                scripts.join(", "),
                registered_again(world, &scripts)
            ));
        }
        changes
    }
}

/// `reloaded core, rats (9 files) in 5 ms: ...`: the mods by name while the list is short, by
/// count past that.
fn summary(content: &Content, elapsed: std::time::Duration, changes: &str) -> String {
    let mods = if content.mods.len() <= 6 {
        content
            .mods
            .iter()
            .map(|m| m.id.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    } else {
        format!("{} mods", content.mods.len())
    };
    format!(
        "reloaded {mods} ({} files) in {} ms: {changes}",
        content.files,
        elapsed.as_millis()
    )
}

/// `; rats registered 3 handlers, 1 action again`: what each mod whose scripts changed registered
/// when they ran again, by mod (the other mods' registrations are not news).
fn registered_again(world: &crate::load::World, scripts: &[String]) -> String {
    let Some(lua) = world.lua.as_ref() else {
        return String::new();
    };
    let mut parts = Vec::new();
    for m in &world.folders {
        let prefix = format!("{}/", crate::mods::files::display_path(&m.dir, &m.root));
        if !scripts.iter().any(|s| s.starts_with(&prefix)) {
            continue;
        }
        let counts = lua.registrations(m.id());
        let named: Vec<String> = counts
            .iter()
            .zip(["handler", "action", "check"])
            .filter(|(n, _)| **n > 0)
            .map(|(n, what)| format!("{n} {what}{}", if *n == 1 { "" } else { "s" }))
            .collect();
        let what = if named.is_empty() {
            "nothing".to_string()
        } else {
            named.join(", ")
        };
        parts.push(format!(
            "{} registered {what} again",
            crate::diag::shown(m.id())
        ));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!("; {}", parts.join("; "))
    }
}

/// The Lua files that are new, gone or different between two loads, by display path.
fn changed_scripts(old: &SourceMap, new: &SourceMap) -> Vec<String> {
    changed_files(old, new, |path| path.ends_with(".lua"))
}

/// The locale files (`rats/locale/de.toml`) that changed, were added or were removed.
fn changed_locales(old: &SourceMap, new: &SourceMap) -> Vec<String> {
    changed_files(old, new, |path| path.contains("/locale/"))
}

fn changed_files(old: &SourceMap, new: &SourceMap, wanted: impl Fn(&str) -> bool) -> Vec<String> {
    let lua = |m: &SourceMap| -> BTreeMap<String, String> {
        m.files()
            .filter(|(_, f)| wanted(f.path()))
            .map(|(_, f)| (f.path().to_string(), f.text().to_string()))
            .collect()
    };
    let (old, new) = (lua(old), lua(new));
    let mut changed: Vec<String> = new
        .iter()
        .filter(|(k, v)| old.get(*k) != Some(v))
        .map(|(k, _)| k.clone())
        .collect();
    changed.extend(
        old.keys()
            .filter(|k| !new.contains_key(*k))
            .map(|k| format!("{k} (removed)")),
    );
    changed
}

/// A problem of the version before a reload, placed in the new version's files: where its file
/// changed (or went), it keeps its place in words, since the line it named may not be there now.
fn carry_over(mut d: Diagnostic, from: &SourceMap, to: &SourceMap) -> Diagnostic {
    if let Some(span) = d.span {
        match from.carry(span, to) {
            Some(carried) => d.span = Some(carried),
            None => {
                d.message = format!(
                    "{} (at {}, in the version before the reload)",
                    d.message,
                    from.location(span)
                );
                d.span = None;
            }
        }
    }
    d.labels = std::mem::take(&mut d.labels)
        .into_iter()
        .filter_map(|mut l| {
            l.span = from.carry(l.span, to)?;
            Some(l)
        })
        .collect();
    d
}
