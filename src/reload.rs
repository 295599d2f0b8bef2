//! Hot reload: watch the mods directory, debounce bursts of changes, rebuild beside the live game,
//! and swap on success between two commands.
//!
//! Only this module touches the file watcher (invariant 5). A watcher thread (notify) feeds a
//! debounce thread that calls back once a burst of changes has gone quiet for [`DEBOUNCE`]; editor
//! swap and backup files are ignored. The reload itself ([`Live::reload`]) runs between two commands
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
#[cfg(feature = "watch")]
use notify::{RecursiveMode, Watcher as _};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
#[cfg(feature = "watch")]
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long a burst of file events must stay quiet before one reload starts. Editors write a file
/// in a few events within milliseconds and `git checkout` of many files within tens of them; 50 ms
/// covers both while staying well under what a person notices.
pub const DEBOUNCE: Duration = Duration::from_millis(50);

/// Whether a changed path matters: data, scripts, manifests and folders do; editor swap and backup files do not.
pub fn relevant(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    if name.is_empty()
        || name.starts_with('.')
        || name.starts_with('#')
        || name.ends_with('~')
        || name == "4913"
    {
        return false;
    }
    if path.components().any(|c| c.as_os_str() == ".git") {
        return false;
    }
    match path.extension().and_then(|e| e.to_str()) {
        Some("toml" | "lua") => true,
        Some("swp" | "swx" | "swo" | "tmp" | "bak" | "orig") => false,
        // A folder (created, removed or renamed) has no extension; other files do not matter.
        None => true,
        Some(_) => false,
    }
}

/// A running watcher; dropping it stops watching. (Feature `watch`.)
#[cfg(feature = "watch")]
pub struct Watch {
    _watcher: notify::RecommendedWatcher,
}

/// Watches `dir` recursively and calls `on_change` once per quiet burst of relevant changes.
#[cfg(feature = "watch")]
pub fn watch(dir: &Path, on_change: impl Fn() + Send + 'static) -> notify::Result<Watch> {
    watch_all(&[dir.to_path_buf()], on_change)
}

/// Watches every mods directory; a burst of changes across them is one call.
#[cfg(feature = "watch")]
pub fn watch_all(dirs: &[PathBuf], on_change: impl Fn() + Send + 'static) -> notify::Result<Watch> {
    let (tx, rx) = mpsc::channel::<()>();
    let mut watcher = notify::recommended_watcher(move |res: notify::Result<notify::Event>| {
        if let Ok(event) = res {
            if !event.kind.is_access() && event.paths.iter().any(|p| relevant(p)) {
                let _ = tx.send(());
            }
        }
    })?;
    for dir in dirs {
        watcher.watch(dir, RecursiveMode::Recursive)?;
    }
    std::thread::spawn(move || {
        while rx.recv().is_ok() {
            // Wait until the burst has been quiet for DEBOUNCE.
            loop {
                match rx.recv_timeout(DEBOUNCE) {
                    Ok(()) => continue,
                    Err(mpsc::RecvTimeoutError::Timeout) => break,
                    Err(mpsc::RecvTimeoutError::Disconnected) => return,
                }
            }
            on_change();
        }
    });
    Ok(Watch { _watcher: watcher })
}

/// A reload asked for and not started yet. The watcher calls back once per quiet burst of
/// changes; when reloading takes longer than the bursts come (a big mod set, an editor saving
/// in a loop), each call queued a reload of its own (120 changes left 100 reloads queued, and the
/// commands typed meanwhile waited behind them). Asked through this, any number of bursts before
/// the reload starts make one reload.
#[derive(Clone, Default, Debug)]
pub struct Pending(Arc<std::sync::atomic::AtomicBool>);

impl Pending {
    /// Asks for a reload; `true` when none was pending yet, so the caller sends one signal.
    pub fn raise(&self) -> bool {
        !self.0.swap(true, Ordering::AcqRel)
    }

    /// Takes the request as the reload starts: changes from now on ask for another.
    pub fn take(&self) -> bool {
        self.0.swap(false, Ordering::AcqRel)
    }
}

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
        let kept = world.kept;
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
        let mut changes = if kept {
            // The content the game has, in its language, as it is.
            world.content = current.clone();
            "no changes".to_string()
        } else {
            // Compared in the game's language, so a text that did not change is not counted.
            if let Some(lang) = self.game.language() {
                world.content = Arc::new(world.content.in_language(lang));
            }
            let same = Unchanged::between(&self.sources, &world.sources);
            describe(self.game.content(), &world.content, &same)
        };
        let texts = changed_locales(&self.sources, &world.sources);
        if !texts.is_empty() {
            let said = format!("texts changed: {}", texts.join(", "));
            changes = if changes == "no changes" {
                said
            } else {
                format!("{changes}; {said}")
            };
        }
        let scripts = changed_scripts(&self.sources, &world.sources);
        if !scripts.is_empty() {
            let said = format!(
                "scripts changed: {}{}",
                scripts.join(", "),
                registered_again(&world, &scripts)
            );
            changes = if changes == "no changes" {
                said
            } else {
                format!("{changes}; {said}")
            };
        }
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
        self.resolution = world.resolution.take();
        // The whole reload, as the player waits for it: loading, comparing, swapping content and
        // scripts in and their `on_reload` handlers (the old version is dropped on the way).
        let elapsed = start.elapsed();
        let content = self.game.content();
        let generation = self.generation.fetch_add(1, Ordering::SeqCst) + 1;
        // Which mods: by name while the list is short, by count past that.
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
        let summary = format!(
            "reloaded {mods} ({} files) in {} ms: {changes}",
            content.files,
            elapsed.as_millis()
        );
        let old_sources = std::mem::replace(&mut self.sources, sources);
        self.set = set;
        for problem in earlier {
            let carried = carry_over(problem, &old_sources, &self.sources);
            self.game.report(carried);
        }
        // The old version is freed aside: at 100,000 definitions that is a tenth of a reload.
        crate::content::drop_aside((current, base, old_sources, old_scripts));
        ReloadReport {
            ok: true,
            problems: Problems::new(notes, self.sources.clone()),
            summary,
            generation,
        }
    }
}

/// The Lua files that are new, gone or different between two loads, by display path.
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

/// `+1 quest, ~2 triggers, -1 item`, or `no changes`.
pub fn describe_changes(old: &Content, new: &Content) -> String {
    describe(old, new, &Unchanged::default())
}

/// The files two loads read with the same text at the same path, each under one number for both
/// loads: a definition read from one of them is the same in both, whatever it holds, and a
/// reload does not format it to compare (at 100,000 definitions, formatting every one of both
/// versions was 0.4 of the reload).
#[derive(Default)]
struct Unchanged {
    /// Each file's number, by its ID in the old load and in the new (IDs are dense: the lookup
    /// is made twice for every definition of the pack).
    old: Vec<Option<usize>>,
    new: Vec<Option<usize>>,
}

impl Unchanged {
    fn between(old: &SourceMap, new: &SourceMap) -> Unchanged {
        let by_path: HashMap<&str, (crate::diag::FileId, &str)> = old
            .files()
            .map(|(id, f)| (f.path(), (id, f.text())))
            .collect();
        let mut same = Unchanged::default();
        let mut n = 0;
        for (id, f) in new.files() {
            if let Some(&(old_id, text)) = by_path.get(f.path()) {
                // A file taken by its stamp is the old one's text itself: not compared.
                if std::ptr::eq(text, f.text()) || text == f.text() {
                    Unchanged::put(&mut same.old, old_id, n);
                    Unchanged::put(&mut same.new, id, n);
                    n += 1;
                }
            }
        }
        same
    }

    fn put(side: &mut Vec<Option<usize>>, file: crate::diag::FileId, n: usize) {
        let at = file.0 as usize;
        if side.len() <= at {
            side.resize(at + 1, None);
        }
        side[at] = Some(n);
    }

    /// The number of a file that did not change, in the new load's side or the old's.
    fn number(&self, file: crate::diag::FileId, new: bool) -> Option<usize> {
        let side = if new { &self.new } else { &self.old };
        side.get(file.0 as usize).copied().flatten()
    }

    /// Where a definition at `span` stands when its file did not change: the file's number and
    /// the offset, the same in both loads.
    fn at(&self, span: crate::diag::Span, new: bool) -> Option<(usize, u32)> {
        self.number(span.file, new).map(|n| (n, span.start))
    }

    /// What a definition at `span` is compared by when its file did not change: its place.
    fn place(&self, span: crate::diag::Span, new: bool) -> Option<String> {
        self.at(span, new)
            .map(|(n, start)| format!("\u{0}same file {n} at {start}"))
    }
}

/// A definition's place, for [`Unchanged::place`].
trait Placed {
    fn span(&self) -> crate::diag::Span;
}

macro_rules! placed {
    ($($t:ty),*) => {$(
        impl Placed for $t {
            fn span(&self) -> crate::diag::Span {
                self.span
            }
        }
    )*};
}
placed!(
    crate::content::Tag,
    crate::content::Item,
    crate::content::Creature,
    crate::content::Quest,
    crate::content::Encounter,
    crate::content::Hazard,
    crate::content::Card,
    crate::content::ProgressType
);

/// [`describe_changes`], definitions from files that did not change taken as they were.
fn describe(old: &Content, new: &Content, same: &Unchanged) -> String {
    let mut parts = Vec::new();
    let mut counted = |name: &str, (added, changed, removed): (usize, usize, usize)| {
        let plural = |n: usize| {
            if n == 1 {
                name.to_string()
            } else {
                format!("{name}s")
            }
        };
        if added > 0 {
            parts.push(format!("+{added} {}", plural(added)));
        }
        if changed > 0 {
            parts.push(format!("~{changed} {}", plural(changed)));
        }
        if removed > 0 {
            parts.push(format!("-{removed} {}", plural(removed)));
        }
    };
    // Two versions of one kind, each by a name and what it holds.
    let by_text = |old: &BTreeMap<String, String>, new: &BTreeMap<String, String>| {
        let added = new.keys().filter(|k| !old.contains_key(*k)).count();
        let removed = old.keys().filter(|k| !new.contains_key(*k)).count();
        let changed = new
            .iter()
            .filter(|(k, v)| old.get(*k).is_some_and(|o| o != *v))
            .count();
        (added, changed, removed)
    };
    // The game's own tables, each kind by the text of its entries.
    let old_tables: BTreeMap<&str, BTreeMap<String, String>> = old.tables.texts().collect();
    for (table, texts) in new.tables.texts() {
        let before = old_tables.get(table).cloned().unwrap_or_default();
        counted(table, by_text(&before, &texts));
    }
    for (table, texts) in &old_tables {
        if new.tables.texts().all(|(t, _)| t != *table) {
            counted(table, by_text(texts, &BTreeMap::new()));
        }
    }
    // Each kind of definition by its ID and what it holds.
    macro_rules! compare {
        ($($name:literal $field:ident),*) => {$(
            counted($name, compared(&old.$field, &new.$field, same));
        )*};
    }
    compare!(
        "tag" tags,
        "item" items,
        "creature" creatures,
        "quest" quests,
        "encounter" encounters,
        "hazard" hazards,
        "card" cards,
        "progress type" progress_types
    );
    let events = |c: &Content| -> BTreeMap<String, String> {
        c.events
            .iter()
            .map(|(_, def)| (def.name.clone(), format!("{:?}", def.payload)))
            .collect()
    };
    counted("event type", by_text(&events(old), &events(new)));
    let (old_triggers, new_triggers) = triggers_compared(old, new, same);
    counted("trigger", by_text(&old_triggers, &new_triggers));
    if parts.is_empty() {
        "no changes".into()
    } else {
        parts.join(", ")
    }
}

/// How many definitions of one kind only `new` has, both have but differ, only `old` has: the
/// two registries walked side by side in ID order, but for the chunks they share (a reload that
/// resolved only the files that changed shares all others). A definition from a file that did not change
/// is the same when it stands at the same place; only the others are formatted to compare.
fn compared<T: std::fmt::Debug + Placed>(
    old: &crate::content::Registry<T>,
    new: &crate::content::Registry<T>,
    same: &Unchanged,
) -> (usize, usize, usize) {
    let differ = |a: &Arc<T>, b: &Arc<T>| {
        if Arc::ptr_eq(a, b) {
            // Shared by a reload that resolved only the files that changed.
            return false;
        }
        let (at, bt) = (a.span(), b.span());
        match (same.number(at.file, false), same.number(bt.file, true)) {
            (Some(x), Some(y)) if x == y && at.start == bt.start => false,
            _ => without_spans(&format!("{a:?}")) != without_spans(&format!("{b:?}")),
        }
    };
    let (mut added, mut changed, mut removed) = (0, 0, 0);
    // The chunks the two share hold the same definitions in both: only the rest is walked.
    let (mut o, mut n) = (
        old.apart_from(new).peekable(),
        new.apart_from(old).peekable(),
    );
    loop {
        match (o.peek(), n.peek()) {
            (Some((a, _)), Some((b, _))) if a == b => {
                let ((_, x), (_, y)) = (o.next().unwrap(), n.next().unwrap());
                changed += usize::from(differ(x, y));
            }
            (Some((a, _)), Some((b, _))) if a < b => {
                o.next();
                removed += 1;
            }
            (Some(_), Some(_)) | (None, Some(_)) => {
                n.next();
                added += 1;
            }
            (Some(_), None) => {
                o.next();
                removed += 1;
            }
            (None, None) => break,
        }
    }
    (added, changed, removed)
}

/// Both versions' triggers, each by its `id` and what it does: their keys may be `file:line` and
/// move with edits, so unnamed ones are paired by what they do (as many of each as both have),
/// and the rest named apart so they count as added and removed.
fn triggers_compared(
    old: &Content,
    new: &Content,
    same: &Unchanged,
) -> (BTreeMap<String, String>, BTreeMap<String, String>) {
    // A trigger both versions share (a reload that resolved only the files that changed) is
    // the same trigger; so are those of files that did not change, which stand at the same
    // places in both versions: all are left out rather than formatted and sorted.
    let shared = |i: usize| {
        let both = old.triggers.get(i).zip(new.triggers.get(i));
        both.is_some_and(|(a, b)| Arc::ptr_eq(a, b))
    };
    let places = |c: &Content, new: bool| -> rustc_hash::FxHashSet<(usize, u32)> {
        c.triggers
            .iter()
            .enumerate()
            .filter(|&(i, _)| !shared(i))
            .filter_map(|(_, t)| same.at(t.span, new))
            .collect()
    };
    let (old_at, new_at) = (places(old, false), places(new, true));
    let kept: rustc_hash::FxHashSet<(usize, u32)> = old_at.intersection(&new_at).copied().collect();
    // Named ones by ID; unnamed ones' shapes, sorted.
    let split = |c: &Content, new: bool| {
        let (mut named, mut unnamed) = (BTreeMap::new(), Vec::new());
        for (i, t) in c.triggers.iter().enumerate() {
            if shared(i) || same.at(t.span, new).is_some_and(|at| kept.contains(&at)) {
                continue;
            }
            let shape = same.place(t.span, new).unwrap_or_else(|| {
                without_spans(&format!(
                    "{:?} {:?} {:?} {:?} {:?} {:?}",
                    t.home, t.on, t.when, t.condition, t.chance, t.actions
                ))
            });
            match &t.id {
                Some(id) => {
                    named.insert(id.to_string(), shape);
                }
                None => unnamed.push(shape),
            }
        }
        unnamed.sort();
        (named, unnamed)
    };
    let (mut old_named, old_unnamed) = split(old, false);
    let (mut new_named, new_unnamed) = split(new, true);
    // What only one side has, by a walk of both sorted lists (a search of one per shape of the
    // other cost the square of the triggers).
    let (mut gone, mut came) = (Vec::new(), Vec::new());
    let (mut o, mut n) = (
        old_unnamed.into_iter().peekable(),
        new_unnamed.into_iter().peekable(),
    );
    loop {
        match (o.peek(), n.peek()) {
            (Some(a), Some(b)) if a == b => {
                o.next();
                n.next();
            }
            (Some(a), Some(b)) if a < b => gone.extend(o.next()),
            (Some(_), Some(_)) | (None, Some(_)) => came.extend(n.next()),
            (Some(_), None) => gone.extend(o.next()),
            (None, None) => break,
        }
    }
    // Paired in order, one changed for each; the rest added or removed.
    let pairs = gone.len().min(came.len());
    for (i, s) in gone.into_iter().enumerate() {
        let key = if i < pairs {
            format!("#u{i}")
        } else {
            format!("#o{i}")
        };
        old_named.insert(key, s);
    }
    for (i, s) in came.into_iter().enumerate() {
        let key = if i < pairs {
            format!("#u{i}")
        } else {
            format!("#n{i}")
        };
        new_named.insert(key, s);
    }
    (old_named, new_named)
}

/// A definition's debug text without its source positions, so moving a line is not a change.
fn without_spans(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("Span {") {
        out.push_str(&rest[..at]);
        match rest[at..].find('}') {
            Some(end) => rest = &rest[at + end + 1..],
            None => {
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bursts_before_a_reload_starts_make_one_reload() {
        let pending = Pending::default();
        let (tx, rx) = std::sync::mpsc::channel();
        // The watcher's thread, calling back 120 times while a reload is under way.
        let watcher = pending.clone();
        std::thread::spawn(move || {
            for _ in 0..120 {
                if watcher.raise() {
                    tx.send(()).unwrap();
                }
            }
        })
        .join()
        .unwrap();
        assert_eq!(rx.try_iter().count(), 1, "one signal for 120 bursts");
        assert!(pending.take(), "the reload takes the request");
        assert!(!pending.take());
        assert!(
            pending.raise(),
            "a change after the reload started asks again"
        );
    }

    #[test]
    fn editor_files_are_not_relevant() {
        for path in [
            "a/.main.lua.swp",
            "a/main.lua~",
            "a/#items.toml#",
            "a/.#items.toml",
            "a/4913",
            "a/items.toml.tmp",
            "a/notes.txt",
            "a/.git/HEAD",
        ] {
            assert!(!relevant(Path::new(path)), "{path}");
        }
        for path in [
            "a/items.toml",
            "a/scripts/main.lua",
            "a/newmod",
            "rats/mod.toml",
        ] {
            assert!(relevant(Path::new(path)), "{path}");
        }
    }

    #[test]
    fn spans_do_not_count_as_changes() {
        assert_eq!(
            without_spans("A { span: Span { file: FileId(1), start: 3, end: 9 }, x: 1 }"),
            "A { span: , x: 1 }"
        );
    }
}
