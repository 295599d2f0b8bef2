//! The scripted test harness: Lua tests for every mod, run headlessly and deterministically.
//!
//! Test files are `mods/<id>/tests/**/*.lua` and `scripts/**/*.lua` beside the mods directory. Each
//! file runs in a Lua state of its own (the *test* state, separate from any game's mod scripts) with
//! a small busted-like API (`api`): `describe`, `it`, `before_each`, `expect`. A test makes games
//! with `lantern.test.game{...}` (`game`); each is fresh and isolated, built from content parsed
//! once per mod set and a new Lua state for the mods' scripts. Files run in parallel; results come
//! back in file order, so two runs give the same report. [`report`] renders pretty, TAP and JUnit.

pub(crate) mod api;
#[cfg(feature = "cli")]
pub(crate) mod defs;
pub(crate) mod game;
mod hazard_game;
mod matchers;
pub mod report;
mod shown;
mod stubs;
mod test_args;
mod test_creature;
mod test_game;
mod test_settings;

use crate::content::Content;
use crate::lua::Limits;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A test file and the mods it belongs to.
#[derive(Debug, Clone)]
pub struct TestFile {
    /// The file's path.
    pub(crate) path: PathBuf,
    /// The real path of the folder it may not leave (its mod's, or `scripts/`).
    pub(crate) root: crate::mods::ModRoot,
    /// `core/tests/quests.lua` or `scripts/run.lua`.
    pub(crate) display: String,
    /// The mod it belongs to: a bare ID in its calls is that mod's, as in the mod's data and
    /// scripts. `None` for `scripts/`, where a bare ID is the game's home mod's.
    pub(crate) mod_id: Option<String>,
}

/// How a test ended.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Status {
    /// Every expectation held.
    Passed,
    /// An expectation failed or the test raised an error.
    Failed {
        /// What failed.
        message: String,
        /// `file:line` of the failure, when known.
        location: Option<String>,
    },
    /// Skipped (`pending` or a filter).
    Skipped,
}

/// One test's outcome.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct TestResult {
    /// The test file's display path.
    pub file: String,
    /// `describe > it`
    pub name: String,
    /// How it ended.
    pub status: Status,
    /// How long it took.
    pub duration: Duration,
    /// Lines the test printed or its games logged.
    pub output: Vec<String>,
}

impl TestResult {
    /// `file > describe > it`.
    pub fn full_name(&self) -> String {
        format!("{} > {}", self.file, self.name)
    }
}

/// What one test game's scripts cost: by mod, by handler, and the events it handled.
pub(crate) type GameCosts = (
    Vec<crate::game::ModCost>,
    Vec<crate::game::HandlerCost>,
    u64,
);

/// Content and mod folders for one set of mods, parsed once and shared by every game of that set.
pub struct Prepared {
    /// The mod set: its content, each mod's `main.lua` as the load compiled it (every test game
    /// runs this bytecode, as it plays the content that load made, without reading the files
    /// again) and the files it was read from.
    pub set: crate::mod_set::ModSet,
    /// The content in each language a test asked for, made once per run.
    languages: Mutex<BTreeMap<String, Arc<Content>>>,
}

impl Prepared {
    /// The content with its texts in `lang`, shared by every test game in that language.
    pub(crate) fn content_in(&self, lang: &str) -> Arc<Content> {
        let content = self.set.content();
        let Ok(mut made) = self.languages.lock() else {
            return Arc::new(content.in_language(lang));
        };
        made.entry(lang.to_string())
            .or_insert_with(|| Arc::new(content.in_language(lang)))
            .clone()
    }

    /// A fresh game over this content with fresh scripts (what `lantern.test.game{}` makes
    /// before applying its options), or the scripts' problems rendered.
    pub fn game(&self, seed: u64, limits: Limits) -> Result<crate::game::Game, String> {
        let (scripts, _) = self.set.scripts(limits).map_err(|p| p.render())?;
        let code = self.set.rules().code().clone();
        let mut game = crate::game::Game::new(self.set.content().clone(), code, seed);
        game.set_scripts(Some(Box::new(scripts)));
        Ok(game)
    }
}

/// A mod set (sorted mod ids; empty for all) and how it loaded: prepared, or the rendered errors.
type PreparedSets = BTreeMap<(Vec<String>, Vec<(String, String)>), Result<Arc<Prepared>, String>>;

/// What every test file shares: the mods directory, the limits, and the prepared mod sets.
pub struct Harness {
    /// The mods directories, in the order their mods are found.
    pub roots: Vec<PathBuf>,
    /// The scripts' limits for every test game.
    pub(crate) limits: Limits,
    /// The hosting game's vocabulary the mods are loaded with (the roguelike's by default).
    pub(crate) rules: crate::host::Rules,
    /// The language of every test game that does not name its own (`lantern test --lang de`).
    pub(crate) lang: Option<String>,
    /// The settings every test game starts with (`lantern test --set rats:rat_health=20`), as
    /// typed, before a test's own (`lantern.test.game{ settings = {...} }`).
    pub(crate) settings: Vec<(String, String)>,
    prepared: Mutex<PreparedSets>,
    /// What each test game's scripts cost, when the run is profiled (`lantern test --profile`).
    pub(crate) costs: Option<Arc<Mutex<Vec<GameCosts>>>>,
    /// The rendered diagnostics of every mod set that failed to load, to be shown once per run.
    load_problems: Mutex<Vec<String>>,
}

impl Harness {
    /// A harness over one mods directory for a game with its vocabulary: its tests' games know
    /// the game's tables, events, actions, checks, functions and verbs (`g:verb`).
    pub fn new(mods_dir: &Path, rules: crate::host::Rules, limits: Limits) -> Harness {
        Harness::over(&[mods_dir.to_path_buf()], rules, limits)
    }

    /// A harness over several mods directories (the game's, then the player's).
    pub(crate) fn over(roots: &[PathBuf], rules: crate::host::Rules, limits: Limits) -> Harness {
        Harness {
            roots: roots.to_vec(),
            limits,
            rules,
            lang: None,
            settings: Vec::new(),
            prepared: Mutex::new(BTreeMap::new()),
            costs: None,
            load_problems: Mutex::new(Vec::new()),
        }
    }

    /// The same harness with every test game in `lang` (`de`), unless a test names its own
    /// (`lantern.test.game{ lang = "en" }`): a mod's tests run once per language this way.
    pub fn in_language(mut self, lang: &str) -> Harness {
        self.lang = Some(lang.to_string());
        self
    }

    /// The same harness with every test game's scripts profiled: what they cost, by mod and by
    /// handler, is kept for [`Harness::take_costs`] as each game ends.
    #[cfg_attr(not(feature = "cli"), allow(dead_code))]
    pub(crate) fn profiled(mut self) -> Harness {
        self.costs = Some(Arc::default());
        self
    }

    /// What the test games that ended cost, when profiled, taken.
    #[cfg_attr(not(feature = "cli"), allow(dead_code))]
    pub(crate) fn take_costs(&self) -> Vec<GameCosts> {
        self.costs
            .as_ref()
            .and_then(|c| c.lock().ok().map(|mut c| std::mem::take(&mut *c)))
            .unwrap_or_default()
    }

    /// The same harness with every test game starting from these settings (`("rats:rat_health",
    /// "20")`, as a player types them), before what a test sets itself. A setting of a mod a
    /// test game leaves out is not set in it.
    pub fn with_settings(mut self, settings: Vec<(String, String)>) -> Harness {
        self.settings = settings;
        self
    }

    /// What is wrong with the settings given ([`Harness::with_settings`]), each against the whole
    /// mod set; nothing when the mods do not load (their own problems say why).
    pub fn settings_problems(&self) -> Vec<String> {
        if self.settings.is_empty() {
            return Vec::new();
        }
        // Against the manifests alone: the load itself would fail on a wrong one.
        let (mut sources, mut diags) = (crate::diag::SourceMap::new(), Vec::new());
        let declared: Vec<crate::content::Setting> =
            crate::mods::discover(&self.roots, &mut sources, &mut diags)
                .iter()
                .flat_map(|m| {
                    let id = m.id().to_string();
                    (m.manifest.settings.iter()).map(move |s| crate::content::Setting::of(&id, s))
                })
                .collect();
        (self.settings.iter())
            .filter_map(|(id, value)| {
                let s = crate::game::find_setting_in(&declared, id).ok()?;
                s.kind
                    .parse(value)
                    .err()
                    .map(|why| format!("`{}` {why}", s.id))
            })
            .chain(
                self.settings
                    .iter()
                    .filter_map(|(id, _)| crate::game::find_setting_in(&declared, id).err()),
            )
            .collect()
    }

    /// The diagnostics of the mod sets that did not load during the run, each once.
    pub fn load_problems(&self) -> Vec<String> {
        self.load_problems
            .lock()
            .map(|p| p.clone())
            .unwrap_or_default()
    }

    /// The prepared content for a set of mods (all of them when `mods` is empty), loaded on first use.
    pub fn prepare(&self, mods: &[String]) -> Result<Arc<Prepared>, crate::Error> {
        self.prepare_with(mods, &[]).map_err(crate::Error::Refused)
    }

    /// [`Harness::prepare`] with the mods' data read with these settings (a test game's own
    /// choice of a setting the data reads), over the run's ([`Harness::with_settings`]).
    pub(crate) fn prepare_with(
        &self,
        mods: &[String],
        data: &[(String, String)],
    ) -> Result<Arc<Prepared>, String> {
        let mut key = mods.to_vec();
        key.sort();
        let mut chosen = self.settings_for(&key)?;
        chosen.extend(data.iter().cloned());
        let cache = (key.clone(), chosen.clone());
        if let Some(p) = self.prepared.lock().map_err(|_| "poisoned")?.get(&cache) {
            return p.clone();
        }
        let only = (!key.is_empty()).then_some(key.as_slice());
        let world = crate::load::load_with(
            &self.roots,
            only,
            self.limits,
            &self.rules,
            None,
            None,
            &chosen,
        );
        let result = if world.has_errors() {
            let full = crate::diag::render_all(&world.diagnostics, &world.sources);
            self.load_problems
                .lock()
                .map_err(|_| "poisoned")?
                .push(full.clone());
            let errors = world.diagnostics.iter().filter(|d| d.is_error()).count();
            let first = world
                .diagnostics
                .iter()
                .find(|d| d.is_error())
                .map(|d| d.message.clone())
                .unwrap_or_default();
            let more = match errors {
                1 => String::new(),
                n => format!(" and {} more", n - 1),
            };
            Err(format!(
                "the mods do not load: {first}{more} (the whole report is printed once, before the results)"
            ))
        } else {
            let sources = Arc::new(world.sources.clone());
            Ok(Arc::new(Prepared {
                set: crate::mod_set::ModSet::of_world(&world, sources, self.limits),
                languages: Default::default(),
            }))
        };
        self.prepared
            .lock()
            .map_err(|_| "poisoned")?
            .insert(cache, result.clone());
        result
    }

    /// The run's settings for the mod set `key` (every mod when empty): for a set of some mods,
    /// those of its mods, each by its whole ID.
    fn settings_for(&self, key: &[String]) -> Result<Vec<(String, String)>, String> {
        if key.is_empty() || self.settings.is_empty() {
            return Ok(self.settings.clone());
        }
        let all = self.prepare_with(&[], &[])?;
        Ok((self.settings.iter())
            .filter_map(|(id, value)| {
                let s = crate::game::find_setting(all.set.content(), id).ok()?;
                let ours = key.iter().any(|m| m == s.id.namespace());
                ours.then(|| (s.id.to_string(), value.clone()))
            })
            .collect())
    }
}

/// Every test file under the mods directory, and under `scripts/` beside it, in path order.
pub fn discover(mods_dir: &Path) -> Vec<TestFile> {
    discover_all(&[mods_dir.to_path_buf()])
}

/// Every test file of the mods in the mods directories, and under a `scripts/` beside each.
pub fn discover_all(roots: &[PathBuf]) -> Vec<TestFile> {
    let mut files = Vec::new();
    let mut sources = crate::diag::SourceMap::new();
    let mut diags = Vec::new();
    for m in crate::mods::discover(roots, &mut sources, &mut diags) {
        collect(
            &m.dir,
            &m.dir.join("tests"),
            &m.root,
            Some(m.id()),
            &mut files,
        );
    }
    for root in roots {
        let scripts = root.parent().map(|p| p.join("scripts"));
        if let Some(scripts) = scripts.filter(|s| s.is_dir()) {
            let base = scripts.parent().unwrap_or(Path::new("."));
            collect(&scripts, &scripts, base, None, &mut files);
        }
    }
    files.sort_by(|a, b| a.display.cmp(&b.display));
    files.dedup_by(|a, b| a.path == b.path);
    files
}

/// The Lua files under `dir`, inside the folder `root`. A file that may not be read (a link out
/// of the folder) is listed too: running it reports why.
fn collect(root: &Path, dir: &Path, base: &Path, mod_id: Option<&str>, out: &mut Vec<TestFile>) {
    let real = crate::mods::ModRoot::of(root);
    for found in crate::mods::walk(&real, dir) {
        let path = match found {
            crate::mods::Found::File(path) | crate::mods::Found::Refused(path, _) => path,
            crate::mods::Found::TooMany => continue,
        };
        if path.extension().is_some_and(|e| e == "lua") {
            let display = crate::mods::files::display_path(&path, base);
            out.push(TestFile {
                path,
                root: real.clone(),
                display,
                mod_id: mod_id.map(str::to_string),
            });
        }
    }
}

/// Runs the files (in parallel, on every core) and returns the results in file order.
/// `filter` keeps the tests whose `file > describe > it` name contains it.
pub fn run(harness: &Arc<Harness>, files: &[TestFile], filter: Option<&str>) -> Vec<TestResult> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, Vec<TestResult>)>> = Mutex::new(Vec::new());
    let workers = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .min(files.len().max(1));
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let Some(file) = files.get(i) else { break };
                let r = api::run_file(harness, file, filter);
                if let Ok(mut all) = results.lock() {
                    all.push((i, r));
                }
            });
        }
    });
    let mut all = results.into_inner().unwrap_or_default();
    all.sort_by_key(|(i, _)| *i);
    all.into_iter().flat_map(|(_, r)| r).collect()
}

/// `N passed, M failed` and `, K skipped` when any.
pub fn summary(results: &[TestResult]) -> String {
    let passed = results
        .iter()
        .filter(|r| r.status == Status::Passed)
        .count();
    let skipped = results
        .iter()
        .filter(|r| r.status == Status::Skipped)
        .count();
    let failed = results.len() - passed - skipped;
    if skipped > 0 {
        format!("{passed} passed, {failed} failed, {skipped} skipped")
    } else {
        format!("{passed} passed, {failed} failed")
    }
}

/// A timer for one test.
pub fn timed<R>(f: impl FnOnce() -> R) -> (R, Duration) {
    let start = Instant::now();
    let r = f();
    (r, start.elapsed())
}
