//! One check of the mod set as the editor shows it (unsaved buffers in place of their files), and
//! what the server answers from it: every definition by ID with its place, which mod each file
//! belongs to, the names scripts registered, and the data schema for keys and values.

use crate::content::Content;
use crate::diag::{Diagnostic, FileId, SourceMap, Span};
use crate::host::Rules;
use crate::lua::Limits;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A definition: its kind (`item`, `event`, a game's `crop`) and where its `id` is written.
#[derive(Debug, Clone)]
pub(super) struct Def {
    pub kind: &'static str,
    pub span: Span,
}

/// The result of one check, with its indexes.
pub(super) struct Analysis {
    pub content: Arc<Content>,
    pub sources: SourceMap,
    pub diagnostics: Vec<Diagnostic>,
    /// Each file read from disk, by its real path.
    pub files: HashMap<PathBuf, FileId>,
    /// The real path of each file read from disk.
    pub paths: HashMap<FileId, PathBuf>,
    /// The mod each file belongs to (its namespace: what a bare name in it means).
    pub mod_of: HashMap<FileId, String>,
    /// Every definition, by its whole ID (`core:rat`; a rarity by its bare name).
    pub defs: BTreeMap<String, Vec<Def>>,
    /// Actions and checks the scripts registered.
    pub lua_actions: BTreeSet<String>,
    pub lua_checks: BTreeSet<String>,
    /// What the next check starts from: the scripts' registrations and compiled chunks, and
    /// what resolving the content left (an edit to a few definitions resolves only its file).
    registered: crate::load::Registered,
    scripts: crate::lua::KnownScripts,
    resolution: Option<crate::content::Resolution>,
}

/// Checks the mods under `roots` as `lantern check` does, reading `unsaved` in place of files;
/// only the data files that changed since the check `memo` remembers are parsed, and only they
/// are resolved again when the check before (`last`) can be patched.
pub(super) fn check(
    roots: &[PathBuf],
    rules: &Rules,
    limits: Limits,
    unsaved: Arc<crate::mods::Unsaved>,
    memo: &mut crate::content::parse::ParseMemo,
    last: Option<&Analysis>,
) -> Analysis {
    let last = last.map(|a| crate::load::Last {
        content: &a.content,
        sources: &a.sources,
        registered: &a.registered,
        scripts: &a.scripts,
        resolution: a.resolution.as_ref(),
        says_again: true,
    });
    let mut world = crate::mods::with_unsaved(unsaved, || {
        crate::load::check_with(roots, rules, limits, Some(memo), last)
    });
    let ext = world
        .lua
        .as_ref()
        .map(|l| l.extensions())
        .unwrap_or_default();
    let mut files = HashMap::new();
    let mut paths = HashMap::new();
    let mut mod_of = HashMap::new();
    let mod_dirs: Vec<(PathBuf, String)> = world
        .content
        .mods
        .iter()
        .map(|m| (super::position::real(&m.dir), m.id.clone()))
        .collect();
    for (id, file) in world.sources.files() {
        let Some(disk) = file.disk() else { continue };
        let real = super::position::real(disk);
        if let Some((_, m)) = mod_dirs.iter().find(|(dir, _)| real.starts_with(dir)) {
            mod_of.insert(id, m.clone());
        }
        files.insert(real.clone(), id);
        paths.insert(id, real);
    }
    let (registered, scripts) = (world.registered(), world.compiled_scripts());
    let resolution = world.resolution.take();
    Analysis {
        registered,
        scripts,
        resolution,
        defs: definitions(&world.content),
        content: world.content,
        sources: world.sources,
        diagnostics: world.diagnostics,
        files,
        paths,
        mod_of,
        lua_actions: ext.actions.iter().map(|i| i.to_string()).collect(),
        lua_checks: ext.checks.iter().map(|i| i.to_string()).collect(),
    }
}

/// Every definition of the content, by ID.
fn definitions(c: &Content) -> BTreeMap<String, Vec<Def>> {
    let mut defs: BTreeMap<String, Vec<Def>> = BTreeMap::new();
    let mut add = |id: &str, kind: &'static str, span: Span| {
        defs.entry(id.to_string())
            .or_default()
            .push(Def { kind, span });
    };
    c.tags
        .values()
        .for_each(|d| add(d.id.as_str(), "tag", d.span));
    c.rarities.iter().for_each(|d| add(&d.id, "rarity", d.span));
    c.items
        .values()
        .for_each(|d| add(d.id.as_str(), "item", d.span));
    c.creatures
        .values()
        .for_each(|d| add(d.id.as_str(), "creature", d.span));
    c.quests
        .values()
        .for_each(|d| add(d.id.as_str(), "quest", d.span));
    c.encounters
        .values()
        .for_each(|d| add(d.id.as_str(), "encounter", d.span));
    c.progress_types
        .values()
        .for_each(|d| add(d.id.as_str(), "progress type", d.span));
    c.hazards
        .values()
        .for_each(|d| add(d.id.as_str(), "hazard", d.span));
    c.cards
        .values()
        .for_each(|d| add(d.id.as_str(), "card", d.span));
    for (id, r) in &c.trigger_ids {
        add(id.as_str(), "trigger", c.trigger(*r).span);
    }
    for (_, e) in c.events.iter() {
        if let Some(span) = e.span {
            add(&e.name, "event", span);
        }
    }
    for table in &c.declared.tables {
        for id in c.tables.ids(table.kind) {
            if let Some(span) = c.entry_span(table.kind, id) {
                add(id.as_str(), table.kind, span);
            }
        }
    }
    defs
}

impl Analysis {
    /// The file read from the real path `path`, if it was.
    pub(super) fn file(&self, path: &Path) -> Option<FileId> {
        self.files.get(path).copied()
    }

    /// The whole ID a name written in `file` means: itself when it has a namespace, else the
    /// file's mod's (a rarity, which has none, by its name).
    pub(super) fn qualify(&self, name: &str, file: FileId) -> String {
        if name.contains(':')
            || self
                .defs
                .get(name)
                .is_some_and(|d| d.iter().any(|d| d.kind == "rarity"))
        {
            return name.to_string();
        }
        match self.mod_of.get(&file) {
            Some(m) => format!("{m}:{name}"),
            None => name.to_string(),
        }
    }

    /// Where a span is, for the editor.
    pub(super) fn location(&self, span: Span) -> Option<lsp_types::Location> {
        self.locations(
            span.file,
            std::iter::once(span.start as usize..span.end as usize),
        )
        .pop()
    }

    /// Where byte ranges of one file are, for the editor: its lines are found once for all of
    /// them (a file that mentions a name 60,000 times found them 60,000 times).
    pub(super) fn locations(
        &self,
        file: FileId,
        ranges: impl Iterator<Item = std::ops::Range<usize>>,
    ) -> Vec<lsp_types::Location> {
        let Some(uri) = self
            .paths
            .get(&file)
            .and_then(|p| super::position::uri_of(p))
        else {
            return Vec::new();
        };
        let lines = super::position::Lines::new(self.sources.get(file).text());
        ranges
            .map(|r| lsp_types::Location::new(uri.clone(), lines.range(r)))
            .collect()
    }

    /// The IDs of one kind (every kind when `None`), in ID order.
    pub(super) fn ids_of<'a>(
        &'a self,
        kind: Option<&'a str>,
    ) -> impl Iterator<Item = (&'a str, &'static str)> + 'a {
        self.defs.iter().flat_map(move |(id, defs)| {
            defs.iter()
                .filter(move |d| kind.is_none_or(|k| d.kind == k))
                .map(move |d| (id.as_str(), d.kind))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = r#"[[tags]]
id = "shiny"

[[items]]
id = "lamp"
name = "Lamp"
tags = ["shiny", "base:metal"]

[[creatures]]
id = "rat"
health = 3
items = [ { item = "lamp", count = 1 } ]

[[quests]]
id = "hunt"
on = "creature_died"
count = 2
actions = [ { action = "give_item", item = "lamp", count = 1, target = "self" } ]

[[triggers]]
on = "turn_started"
actions = [ { action = "give_item", item = "base:sword", count = 1 } ]
"#;

    /// What a check said, each problem with its place, and the content it made.
    fn seen(a: &Analysis) -> (Vec<String>, String) {
        let said = a.diagnostics.iter();
        let said =
            said.map(|d| format!("{:?} {:?} {} {:?}", d.severity, d.span, d.message, d.labels));
        (said.collect(), format!("{:?}", a.content))
    }

    #[test]
    fn a_check_after_an_edit_says_and_makes_what_a_whole_check_does() {
        // Keystroke by keystroke, a check from the one before (resolving the edited file again
        // when it can) and a check from nothing must say the same and make the same content.
        let dir = tempfile::tempdir().unwrap();
        let write = |path: &str, text: &str| {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        };
        write("base/mod.toml", "id = \"base\"\nversion = \"1.0.0\"\n");
        write(
            "base/data/items.toml",
            "[[tags]]\nid = \"metal\"\n\n[[items]]\nid = \"sword\"\n",
        );
        write(
            "a/mod.toml",
            "id = \"a\"\nversion = \"1.0.0\"\ndepends = [\"base\"]\n",
        );
        write("a/data/a.toml", A);
        let edited = dir.path().join("a/data/a.toml");
        let (roots, rules) = (vec![dir.path().to_path_buf()], crate::test_rules());
        let check_with = |text: &str, memo: &mut _, last: Option<&Analysis>| {
            let unsaved = [(edited.clone(), Arc::from(text))].into_iter().collect();
            check(
                &roots,
                &rules,
                Limits::default(),
                Arc::new(unsaved),
                memo,
                last,
            )
        };
        let quest = "\n[[quests]]\nid = \"chase\"\non = \"turn_started\"\nactions = []\n";
        // Each text the buffer holds in turn, and whether only it is resolved again.
        let edits: Vec<(String, bool)> = vec![
            (A.replace("\"Lamp\"", "\"Oil lamp\""), true),
            (
                A.replace(
                    "item = \"lamp\", count = 1, target",
                    "item = \"la\", count = 1, target",
                ),
                true,
            ),
            // Checked again unchanged (saved, say): the content kept, its problems said again.
            (
                A.replace(
                    "item = \"lamp\", count = 1, target",
                    "item = \"la\", count = 1, target",
                ),
                true,
            ),
            (
                A.replace(
                    "item = \"lamp\", count = 1 } ]\n\n[[q",
                    "item = \"lam\", count = 1 } ]\n\n[[q",
                ),
                true,
            ),
            (
                A.replace("on = \"creature_died\"", "on = \"creature_di\""),
                true,
            ),
            (format!("{A}{quest}"), true),
            (
                format!("{A}{}", quest.replace("turn_started", "nothing")),
                true,
            ),
            (A.to_string(), true),
            (A.replace("[[creatures]]", "[[creatures]\n"), false),
            (A.replace("\"Lamp\"", "\"Lamp"), false),
            (A.to_string(), false),
            (A.replace("tags = [\"shiny\", ", "tags = ["), true),
        ];
        let mut memo = Default::default();
        let mut last = check_with(A, &mut memo, None);
        let mut mistakes = 0;
        for (text, alone) in edits {
            let now = check_with(&text, &mut memo, Some(&last));
            let whole = check_with(&text, &mut Default::default(), None);
            assert_eq!(seen(&now), seen(&whole), "{text}");
            mistakes += now.diagnostics.len();
            let sword = |a: &Analysis| a.content.items.get("base:sword").cloned();
            let shared = match (sword(&last), sword(&now)) {
                (Some(was), Some(is)) => Arc::ptr_eq(&was, &is),
                _ => false,
            };
            assert_eq!(shared, alone, "whether only the edit was resolved: {text}");
            last = now;
        }
        // Each edit but the fixes said something (each typed mistake once; the file that does
        // not parse, and the quest naming no event, may say more).
        assert!(mistakes >= 6, "{mistakes} problems said over the edits");
    }
}
