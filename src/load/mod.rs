//! Loading a whole mod set: manifests, data, and scripts, in the order each stage needs.
//!
//! Scripts run after the data files are parsed and before they are resolved, because resolution must
//! know which `<mod>:<name>` actions and checks the scripts registered; then the scripts' handlers are
//! bound to the resolved events. Like every loading stage it never stops at the first problem.

use crate::content::parse::{ParseMemo, Texts};
use crate::content::{self, Content};
use crate::diag::Code;
use crate::diag::{Diagnostic, SourceMap};
use crate::host::Rules;
use crate::lua::{Limits, LuaRuntime};
use std::path::PathBuf;
use std::sync::Arc;

mod world;

pub use world::World;

/// Fresh scripts for an already loaded mod set: a new Lua state with every mod's `main.lua` run and
/// bound to `content`. The test harness uses it to give every test a fresh game without reading and
/// resolving the data again. `sources` is the map the content's spans point into; the scripts' files
/// are added to it, so every problem of the game renders at its file and line. `known` holds the
/// mods' `main.lua` as the load of `content` read them: those are run, not read again.
pub(crate) fn fresh_scripts(
    folders: &[crate::mods::ModFolder],
    rules: &Rules,
    content: Arc<Content>,
    mut sources: SourceMap,
    known: &crate::lua::KnownScripts,
    limits: Limits,
) -> Result<(LuaRuntime, SourceMap), (Vec<Diagnostic>, SourceMap)> {
    let mut diagnostics = Vec::new();
    let mut lua = match LuaRuntime::new(limits) {
        Ok(lua) => lua,
        Err(e) => {
            return Err((
                vec![Diagnostic::error(
                    Code::Lua,
                    format!("cannot start Lua: {e}"),
                )],
                sources,
            ))
        }
    };
    lua.set_rules(rules.clone());
    lua.known_scripts = Some(known.clone());
    for m in folders {
        lua.load_mod(m, &mut sources, &mut diagnostics);
    }
    lua.bind(content, &mut diagnostics);
    if diagnostics.iter().any(Diagnostic::is_error) {
        return Err((diagnostics, sources));
    }
    Ok((lua, sources))
}

/// The most threads every load of this process reads, parses and resolves on from now on (0: every
/// core, the default): a server that runs its sessions on a pool of its own gives its loads one
/// (`set_threads(1)`), so that a load never takes cores its sessions are using. What a load makes
/// is the same on any number of threads.
pub fn set_threads(n: usize) {
    crate::content::threads::set_most(n);
}

/// Loads the mods of the mods directories (the game's, then the player's, as one set) for a game
/// with its vocabulary: data, scripts, and the binding between them. The game's tables, events,
/// actions, checks and Lua functions are known to the resolver and the scripts, and the content
/// carries the rules to every game made from it. Every loader takes the game's rules: there is
/// no default game.
pub fn load_game(roots: &[PathBuf], rules: &Rules, limits: Limits) -> World {
    load_world_of(roots, None, limits, rules)
}

/// [`load_game`], and the scripts read for what their literal calls would fail with when they
/// run (`LuaRuntime::check_scripts`): what `lantern check` reports. Its source map holds the text
/// of each data file a diagnostic or an override points at (read again once the check is done),
/// not of every file: a check of a big pack holds no text while it resolves.
pub fn check_game(roots: &[PathBuf], rules: &Rules, limits: Limits) -> World {
    check_with(roots, rules, limits, None, None)
}

/// [`check_game`] parsing only the data files that changed since the load `memo` remembers,
/// and resolving only those when the check before it (`last`, which says again what it said)
/// can be patched (the language server's check after an edit).
pub(crate) fn check_with(
    roots: &[PathBuf],
    rules: &Rules,
    limits: Limits,
    memo: Option<&mut ParseMemo>,
    last: Option<Last>,
) -> World {
    // Without a memo nothing reads the texts again: a problem's file is read again to be shown.
    let texts = match memo {
        Some(_) => Texts::Kept,
        None => Texts::Released,
    };
    let mut world = load_texts(roots, None, limits, rules, memo, last, texts, &[]);
    if let Some(lua) = &world.lua {
        world.diagnostics.extend(lua.check_scripts());
        crate::diag::bound(&mut world.diagnostics, &world.sources);
    }
    world.read_shown_again();
    world
}

/// Loads only the listed mods of the mods directories (a test's `mods = {"core", "rats"}`); a
/// listed mod whose dependency is not listed is an error that says so.
pub fn load_world_of(
    roots: &[PathBuf],
    only: Option<&[String]>,
    limits: Limits,
    rules: &Rules,
) -> World {
    load_with(roots, only, limits, rules, None, None, &[])
}

/// [`load_game`] with settings a player chose (`("rats:rat_health", "20")`, as typed, a name
/// only one mod's setting has standing for its ID): what the data reads of them
/// (`{ setting = "..." }`) is read with these values, and a game started from the world starts
/// with them. One that is unknown or out of range is an error among the world's diagnostics.
pub fn load_game_with(
    roots: &[PathBuf],
    rules: &Rules,
    limits: Limits,
    settings: &[(String, String)],
) -> World {
    load_with(roots, None, limits, rules, None, None, settings)
}

/// The version a reload replaces, for [`load_with`]: when the load reads every manifest, data
/// file and locale file as that version read them, and its scripts register what that version's
/// registered, the data would resolve to the same content, so that content is taken as it is.
pub(crate) struct Last<'a> {
    pub content: &'a Arc<Content>,
    pub sources: &'a SourceMap,
    pub registered: &'a Registered,
    /// Its mods' `main.lua`, compiled: one whose text has not changed is not compiled again.
    pub scripts: &'a crate::lua::KnownScripts,
    /// What resolving its content left: when only data files changed, and only in what their
    /// definitions hold, those are resolved again and the rest taken as they are.
    pub resolution: Option<&'a content::Resolution>,
    /// Whether what its data said is said again when its content is kept (a check's is: the
    /// language server shows every problem after every check; a reload's was shown once).
    pub says_again: bool,
}

/// [`load_world_of`], parsing only the data files that changed since the load `memo` remembers,
/// and leaving this load's in it for the next (hot reload, the language server). With the
/// version a reload replaces (`last`), its content is kept when only scripts changed
/// ([`World::kept`]); what the data said when it was loaded (its warnings) is not said again.
#[allow(clippy::too_many_arguments)]
pub(crate) fn load_with(
    roots: &[PathBuf],
    only: Option<&[String]>,
    limits: Limits,
    rules: &Rules,
    memo: Option<&mut ParseMemo>,
    last: Option<Last>,
    settings: &[(String, String)],
) -> World {
    load_texts(
        roots,
        only,
        limits,
        rules,
        memo,
        last,
        Texts::Kept,
        settings,
    )
}

/// [`load_with`], keeping of the data files' texts what `texts` says.
#[allow(clippy::too_many_arguments)]
fn load_texts(
    roots: &[PathBuf],
    only: Option<&[String]>,
    limits: Limits,
    rules: &Rules,
    mut memo: Option<&mut ParseMemo>,
    last: Option<Last>,
    texts: Texts,
    settings: &[(String, String)],
) -> World {
    let mut sources = SourceMap::new();
    let mut diagnostics: Vec<Diagnostic> = rules.diagnostics().collect();
    let folders = ordered_folders(roots, only, rules, &mut sources, &mut diagnostics);
    let chosen = chosen_settings(&folders, settings, &mut diagnostics);
    let data_settings = content::DataSettings::of(&folders, &chosen);
    let data_from = diagnostics.len();
    // The scripts run on this thread while the data files are read on the others.
    let compiled_before = last.as_ref().map(|last| last.scripts.clone());
    let (mut raw, (mut lua, scripts_said)) = content::parse::read_mods_while(
        &folders,
        (rules.defs(), &data_settings),
        &mut sources,
        &mut diagnostics,
        memo.as_deref_mut(),
        texts,
        |sources| run_scripts(&folders, rules, limits, compiled_before, sources),
    );
    let data_said = data_from..diagnostics.len();
    diagnostics.extend(scripts_said);
    let mut ext = lua.as_ref().map(LuaRuntime::extensions).unwrap_or_default();
    ext.declared = rules.defs().clone();
    let mods: Vec<_> = folders.iter().map(content::mod_info).collect();
    // The last version's content is kept or patched only when its scripts register the same
    // and nothing so far is an error.
    let last = last.filter(|last| {
        *last.registered == Registered::of(&ext) && !diagnostics.iter().any(Diagnostic::is_error)
    });
    // The data files that read otherwise than `last` read them, when the mods are the same.
    let changed = last
        .as_ref()
        .filter(|last| same_mods(last, &mods))
        .and_then(|last| changed_data(last, &sources));
    let kept = last.as_ref().filter(|_| changed.as_deref() == Some(&[]));
    let is_kept = kept.is_some();
    let (content, resolution) = match kept {
        Some(last) => {
            if last.says_again {
                let said = last.resolution.iter().flat_map(|r| r.said());
                diagnostics.extend(said.cloned());
            } else {
                diagnostics.drain(data_said);
            }
            (last.content.clone(), last.resolution.cloned())
        }
        None => {
            let whole = memo.is_some();
            let last = last.as_ref().zip(changed);
            let built = patched_or_built(
                last,
                &mut raw,
                whole,
                mods,
                &ext,
                &sources,
                &mut diagnostics,
            );
            let (mut content, resolution) = built;
            content.start_settings = chosen;
            content.read_by_data = raw.settings_read.iter().map(|(_, id)| id.clone()).collect();
            (Arc::new(content), Some(resolution))
        }
    };
    match memo {
        Some(memo) => memo.keep(raw),
        None => raw.drop_aside(),
    }
    if let Some(lua) = lua.as_mut() {
        lua.bind(content.clone(), &mut diagnostics);
        diagnostics.extend(lua.take_load_messages());
    }
    crate::diag::bound(&mut diagnostics, &sources);
    attribute(&mut diagnostics, &folders, &sources);
    World {
        content,
        folders,
        lua,
        sources,
        diagnostics,
        scripts_taken: false,
        kept: is_kept,
        resolution,
        rules: rules.clone(),
    }
}

/// The mods of the directories in load order: those that cannot load left out, only the listed
/// ones when `only` lists some, each problem with their manifests reported.
fn ordered_folders(
    roots: &[PathBuf],
    only: Option<&[String]>,
    rules: &Rules,
    sources: &mut SourceMap,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<crate::mods::ModFolder> {
    let found = crate::mods::discover(roots, sources, diagnostics);
    let discovered: Vec<String> = found.iter().map(|m| m.id().to_string()).collect();
    let mut folders = crate::mods::load_order(found, diagnostics);
    if let Some(only) = only {
        keep_only(&mut folders, only, &discovered, roots, diagnostics);
    }
    diagnostics.extend(folders.iter().filter_map(|m| game_version(m, rules)));
    if !rules.namespace().is_empty() {
        if let Some(m) = folders.iter().find(|m| m.id() == rules.namespace()) {
            diagnostics.push(
                Diagnostic::error(Code::Vocabulary, format!(
                    "mod `{}` has the game's own namespace; its actions and checks would be taken for the game's",
                    m.id()
                ))
                .at(m.manifest.id_span)
                .with_help("give the mod another `id`"),
            );
        }
    }
    folders
}

/// Keeps the listed mods (a test's `mods = {"core", "rats"}`): one listed and not there, and a
/// dependency of a kept mod not listed, are errors.
fn keep_only(
    folders: &mut Vec<crate::mods::ModFolder>,
    only: &[String],
    discovered: &[String],
    roots: &[PathBuf],
    diagnostics: &mut Vec<Diagnostic>,
) {
    for wanted in only {
        // A mod that is there but left out (a missing dependency) has said why already.
        if !discovered.contains(wanted) {
            let help = crate::diag::did_you_mean_suffix(wanted, folders.iter().map(|m| m.id()));
            let dirs: Vec<String> = roots.iter().map(|r| format!("`{}`", r.display())).collect();
            diagnostics.push(Diagnostic::error(
                Code::Dependency,
                format!("there is no mod `{wanted}` in {}{help}", dirs.join(" or ")),
            ));
        }
    }
    folders.retain(|m| only.iter().any(|o| o == m.id()));
    for m in folders.iter() {
        for dep in &m.manifest.depends {
            if !only.contains(&dep.id) {
                diagnostics.push(
                    Diagnostic::error(
                        Code::Dependency,
                        format!("mod `{}` needs `{}`; list it too", m.id(), dep.id),
                    )
                    .at(dep.span),
                );
            }
        }
    }
}

/// The content of a load that does not keep the last: the last version's patched with the data
/// files that changed (`last` with them) when only data files changed and it can be, else
/// resolved anew (`whole`: keeping what the next load's patch needs).
fn patched_or_built(
    last: Option<(&Last, Vec<crate::diag::FileId>)>,
    raw: &mut content::raw_defs::RawDefs,
    whole: bool,
    mods: Vec<content::ModInfo>,
    ext: &content::Extensions,
    sources: &SourceMap,
    diagnostics: &mut Vec<Diagnostic>,
) -> (Content, content::Resolution) {
    let patched = last.and_then(|(last, changed)| {
        let data = changed
            .iter()
            .all(|f| raw.data_files.binary_search(f).is_ok());
        let resolution = last.resolution.filter(|_| data)?;
        content::patch(
            last.content.as_ref(),
            resolution,
            raw,
            &changed,
            ext,
            sources,
            diagnostics,
        )
    });
    patched.unwrap_or_else(|| content::build(raw, whole, mods, ext, sources, diagnostics))
}

/// Says which mod each problem is about that points into a mod's folder (and says nothing of
/// its mod yet): a problem's file is the mod's whose folder holds it.
fn attribute(
    diagnostics: &mut [Diagnostic],
    folders: &[crate::mods::ModFolder],
    sources: &SourceMap,
) {
    for d in diagnostics.iter_mut().filter(|d| d.mod_id().is_none()) {
        let Some(disk) = d.span.and_then(|span| sources.get(span.file).disk()) else {
            continue;
        };
        if let Some(m) = folders.iter().find(|m| disk.starts_with(&m.dir)) {
            d.extra_mut().mod_id = Some(m.id().into());
        }
    }
}

/// The settings a player chose (`("rats:rat_health", "20")`, as typed), checked against what
/// the mods' manifests declare; each one that is unknown or refused is an error.
fn chosen_settings(
    folders: &[crate::mods::ModFolder],
    settings: &[(String, String)],
    diagnostics: &mut Vec<Diagnostic>,
) -> std::collections::BTreeMap<crate::id::Id, content::SettingValue> {
    let mut chosen = std::collections::BTreeMap::new();
    if settings.is_empty() {
        return chosen;
    }
    let declared: Vec<content::Setting> = folders
        .iter()
        .flat_map(|m| {
            m.manifest
                .settings
                .iter()
                .map(|s| content::Setting::of(m.id(), s))
        })
        .collect();
    for (id, text) in settings {
        let found = crate::game::find_setting_in(&declared, id).and_then(|s| {
            let value = s
                .kind
                .parse(text)
                .map_err(|why| format!("`{}` {why}", s.id))?;
            Ok((s.id.clone(), value))
        });
        match found {
            Ok((id, value)) => {
                chosen.insert(id, value);
            }
            Err(why) => diagnostics.push(Diagnostic::error(
                Code::Setting,
                format!(
                    "--set {}={}: {why}",
                    crate::diag::visible(id),
                    crate::diag::visible(text)
                ),
            )),
        }
    }
    chosen
}

/// What is wrong with the game's version for a mod that says which it works with (`game =
/// ">=0.3, <0.5"`): an error at that line when it does not match, a warning when the game
/// declares no version to check.
fn game_version(m: &crate::mods::ModFolder, rules: &Rules) -> Option<Diagnostic> {
    let (req, span) = m.manifest.game.as_ref()?;
    let game = match rules.namespace() {
        "" => "the game".to_string(),
        ns => format!("the game `{ns}`"),
    };
    match rules.version() {
        Some(v) if req.matches(v) => None,
        Some(v) => Some(
            Diagnostic::error(
                Code::Dependency,
                format!("mod `{}` works with {game} at `{req}`; this is {v}", m.id()),
            )
            .at(*span)
            .with_help("install the mod's version made for this version of the game"),
        ),
        None => Some(
            Diagnostic::warning(
                Code::Dependency,
                format!("{game} declares no version, so `game = \"{req}\"` is not checked"),
            )
            .at(*span),
        ),
    }
}

/// A Lua state with every mod's `main.lua` run in it (`compiled_before`: the last version's
/// scripts, not compiled again when unchanged), and what running them said.
fn run_scripts(
    folders: &[crate::mods::ModFolder],
    rules: &Rules,
    limits: Limits,
    compiled_before: Option<crate::lua::KnownScripts>,
    sources: &mut SourceMap,
) -> (Option<LuaRuntime>, Vec<Diagnostic>) {
    let mut said = Vec::new();
    let mut lua = match LuaRuntime::new(limits) {
        Ok(lua) => lua,
        Err(e) => {
            let e = Diagnostic::error(Code::Lua, format!("cannot start Lua: {e}"));
            return (None, vec![e]);
        }
    };
    lua.set_rules(rules.clone());
    lua.compiled_before = compiled_before;
    for m in folders {
        lua.load_mod(m, sources, &mut said);
    }
    (Some(lua), said)
}

/// Whether a load finds the mods the `last` version found, each with a script or without as it
/// was.
fn same_mods(last: &Last, mods: &[content::ModInfo]) -> bool {
    last.content.mods.len() == mods.len()
        && last
            .content
            .mods
            .iter()
            .zip(mods)
            .all(|(a, b)| a.id == b.id && a.scripted == b.scripted)
}

/// The files of a load's manifests, data and locale files (every file before the first script)
/// that read otherwise than the `last` version read them, in order; `None` when the files are
/// not the same files at the same places. With the same mods and none changed, the data
/// resolves to `last`'s content.
fn changed_data(last: &Last, sources: &SourceMap) -> Option<Vec<crate::diag::FileId>> {
    fn data(s: &SourceMap) -> Vec<(crate::diag::FileId, &crate::diag::SourceFile)> {
        s.files()
            .take_while(|(_, f)| !f.path().ends_with(".lua"))
            .collect()
    }
    let (old, new) = (data(last.sources), data(sources));
    if old.len() != new.len() {
        return None;
    }
    let mut changed = Vec::new();
    for ((a, was), (b, now)) in old.iter().zip(&new) {
        if a != b || was.path() != now.path() {
            return None;
        }
        if !was.same_text(now) {
            changed.push(*b);
        }
    }
    Some(changed)
}

/// What the scripts of a load registered: a load whose scripts register the same resolves its
/// data the same.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Registered {
    actions: std::collections::BTreeSet<crate::id::Id>,
    checks: std::collections::BTreeSet<crate::id::Id>,
    failed: std::collections::BTreeSet<String>,
}

impl Registered {
    fn of(ext: &content::Extensions) -> Registered {
        Registered {
            actions: ext.actions.clone(),
            checks: ext.checks.clone(),
            failed: ext.failed.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    /// A check lets its data files' texts go once they are parsed and reads again only those a
    /// problem is shown in; a load for a game keeps them all.
    #[test]
    fn a_check_keeps_only_the_texts_it_shows() {
        let dir = tempfile::tempdir().unwrap();
        for (m, stack) in [("a", "99"), ("b", "\"many\"")] {
            let folder = dir.path().join(m);
            std::fs::create_dir_all(folder.join("data")).unwrap();
            std::fs::write(
                folder.join("mod.toml"),
                format!("id = \"{m}\"\nname = \"{m}\"\nversion = \"1.0.0\"\n"),
            )
            .unwrap();
            std::fs::write(
                folder.join("data/items.toml"),
                format!("[[items]]\nid = \"lamp\"\nname = \"Lamp\"\nstack = {stack}\n"),
            )
            .unwrap();
        }
        let roots = [dir.path().to_path_buf()];
        let data = |world: &super::World, m: &str| {
            let (_, file) = world
                .sources
                .files()
                .find(|(_, f)| f.path() == format!("{m}/data/items.toml"))
                .unwrap();
            (file.is_released(), file.text().to_string())
        };
        let checked =
            super::check_game(&roots, &crate::test_rules(), crate::lua::Limits::default());
        assert!(checked.has_errors());
        assert_eq!(data(&checked, "a"), (true, String::new()));
        let (released, text) = data(&checked, "b");
        assert!(!released && text.contains("\"many\""));
        let rendered = crate::diag::render_all(&checked.diagnostics, &checked.sources);
        assert!(rendered.contains("stack = \"many\""), "{rendered}");
        let loaded = super::load_game(&roots, &crate::test_rules(), crate::lua::Limits::default());
        assert!(!data(&loaded, "a").0 && !data(&loaded, "b").0);
    }

    /// A data file changed between a check's reading it and showing its problems is not shown
    /// as it is now: a warning before its problems says so, at the file.
    #[test]
    fn a_file_changed_before_its_problems_are_shown_is_said() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("a");
        std::fs::create_dir_all(folder.join("data")).unwrap();
        std::fs::write(folder.join("mod.toml"), "id = \"a\"\nversion = \"1.0.0\"\n").unwrap();
        let items = folder.join("data/items.toml");
        std::fs::write(&items, "[[items]]\nid = \"lamp\"\nstack = \"many\"\n").unwrap();
        let roots = [dir.path().to_path_buf()];
        let rules = crate::test_rules();
        let limits = crate::lua::Limits::default();
        let mut world = super::load_texts(
            &roots,
            None,
            limits,
            &rules,
            None,
            None,
            super::Texts::Released,
            &[],
        );
        std::fs::write(
            &items,
            "# moved\n[[items]]\nid = \"lamp\"\nstack = \"lots\"\n",
        )
        .unwrap();
        world.read_shown_again();
        let out = crate::diag::render_all(&world.diagnostics, &world.sources);
        let warning = out.find("warning: `").expect(&out);
        let error = out.find("error: wrong type for `stack`").expect(&out);
        assert!(warning < error, "{out}");
        assert!(
            out.contains("a/data/items.toml` changed while it was checked"),
            "{out}"
        );
        assert!(
            out.contains("--> ") && !out.contains("items.toml:"),
            "no line or column: {out}"
        );
        assert!(
            out.contains("= help: its problems are shown without their lines; check again"),
            "{out}"
        );
        assert!(!out.contains("stack = "), "no line of either text: {out}");
        let json = crate::diag::render_json(&world.diagnostics, &world.sources).to_string();
        assert!(
            json.contains("\"location\":{\"file\":\"a/data/items.toml\"}"),
            "{json}"
        );
    }

    /// A trigger without an `id` is named by its file and line, counted when the file is read:
    /// the same names whether the texts are kept or let go, and the lines the texts give.
    #[test]
    fn triggers_are_named_by_the_lines_counted_when_read() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("a");
        std::fs::create_dir_all(folder.join("data")).unwrap();
        std::fs::write(
            folder.join("mod.toml"),
            "id = \"a\"\nname = \"a\"\nversion = \"1.0.0\"\n",
        )
        .unwrap();
        let heal = "actions = [ { action = \"heal\", amount = 1, target = \"self\" } ]";
        std::fs::write(
            folder.join("data/defs.toml"),
            format!(
                "# triggers\r\n\r\n[[triggers]]\non = \"turn_started\"\n{heal}\n\r\n[[items]]\nid = \"lamp\"\n\
                 [[items.triggers]]\non = \"turn_started\"\n{heal}\n\n[[creatures]]\nid = \"rat\"\nhealth = 2\n\
                 [[creatures.triggers]]\non = \"turn_started\"\n{heal}\n[[triggers]]\nid = \"named\"\non = \"turn_started\"\n{heal}\n"
            ),
        )
        .unwrap();
        let roots = [dir.path().to_path_buf()];
        let names = |world: &super::World| -> Vec<String> {
            let mut names: Vec<String> = world
                .content
                .triggers
                .iter()
                .map(|t| t.key.clone())
                .collect();
            names.sort();
            names
        };
        let loaded = super::load_game(&roots, &crate::test_rules(), crate::lua::Limits::default());
        assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
        for t in &loaded.content.triggers {
            if t.id.is_none() {
                assert_eq!(t.key, loaded.sources.file_line(t.span));
            }
        }
        assert_eq!(
            names(&loaded),
            [
                "a/data/defs.toml:16",
                "a/data/defs.toml:3",
                "a/data/defs.toml:9",
                "a:named"
            ]
        );
        let checked =
            super::check_game(&roots, &crate::test_rules(), crate::lua::Limits::default());
        assert_eq!(names(&checked), names(&loaded));
    }
}
