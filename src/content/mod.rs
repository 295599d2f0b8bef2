//! Content: the immutable, typed snapshot of everything a mod set defines.
//!
//! Loading goes in stages, as cargo reads manifests: text, then a spanned TOML document, then raw
//! serde types that mirror the file (`raw`, `parse`), then resolved registries (`resolve`).
//! The result is `(Content, Vec<Diagnostic>)`: what could be built plus every problem (invariant 6).
//! Content knows nothing of game state or Lua; game state refers to it by ID only (invariant 2),
//! and a reload replaces it whole.

mod action;
mod by_file;
mod condition;
mod data_file;
pub(crate) mod declare;
mod defs;
mod dice;
pub mod event;
#[doc(hidden)]
pub mod generate;
mod hazard;
mod headers;
mod host_entry;
mod listen;
pub(crate) mod locale;
mod memo;
mod name;
pub(crate) use listen::{Listener, QuickTest, QuickWhen};
pub(crate) use memo::drop_aside;
pub(crate) use resolve::Resolution;
pub(crate) mod parse;
mod quick_read;
pub(crate) mod raw;
pub(crate) mod raw_defs;
mod read_data;
mod registry;
mod reread;
pub(crate) mod resolve;
#[cfg(feature = "cli")]
pub(crate) mod schema;
mod setting_refs;
mod settings;
pub(crate) mod spanned;
pub(crate) mod threads;
pub mod vocab;

pub use action::{Action, ActionEntry, ActionList};
pub use condition::{Check, Condition, ItemFilter, QuestState, SettingTest, Who};
pub use defs::{
    AiAct, AiRule, Creature, Encounter, Item, Override, Quest, Rarity, Tag, Trigger, TriggerRef,
};
pub(crate) use defs::{EncounterOption, Modifier, TriggerHome};
pub use dice::{Color, DieState};
pub(crate) use event::MOST_TEXT;
pub use event::{EventDef, EventKey, EventTable, Value, WorldSees};
pub(crate) use hazard::{Bottom, CardEffect, Meter};
pub use hazard::{Card, CardClass, Hazard, ProgressType};
pub use locale::{Coverage, TextArg};
pub use name::Name;
pub use registry::{Iter as RegistryIter, Registry};
pub(crate) use setting_refs::DataSettings;
pub use settings::{Scope, Setting, SettingKind, SettingValue};

use crate::diag::{Diagnostic, SourceMap, Span};
use crate::id::Id;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A loaded mod, as content remembers it.
#[derive(Debug, Clone)]
pub struct ModInfo {
    /// Its `id` (and namespace).
    pub id: String,
    /// Its display name.
    pub name: Name,
    /// Its version.
    pub version: semver::Version,
    /// Its folder.
    pub dir: PathBuf,
    /// Required and optional dependencies that are present.
    pub deps: Vec<String>,
    /// Whether it has scripts (`scripts/main.lua`): a game over it needs them plugged in
    /// ([`World::start`](crate::load::World::start), [`World::load_save`](crate::load::World::load_save)).
    pub(crate) scripted: bool,
    /// The language its data is written in (its manifest's `language`, `en` when not said).
    pub(crate) language: String,
    /// Text keys that need no translation (its manifest's `untranslated`).
    pub(crate) untranslated: Vec<String>,
    /// Where its manifest writes its `id`.
    pub(crate) id_span: crate::diag::Span,
    /// The settings it declares, in the order its manifest writes them.
    pub settings: Vec<Setting>,
    /// Its definitions' old IDs and new ones (its manifest's `[renames]`), with where each is
    /// written: a save made with an older version of the mod is read with the new ones.
    pub(crate) renames: Vec<(Id, Id, crate::diag::Span)>,
    /// The keys of its storage that hold IDs of its definitions, which its renames apply to.
    pub(crate) ids_in_storage: Vec<String>,
}

/// Names registered from outside the data files (by the Lua layer): `rats:summon`, `rats:is_night`.
#[derive(Debug, Clone, Default)]
pub struct Extensions {
    /// Actions registered by the mods' scripts, by ID.
    pub actions: BTreeSet<Id>,
    /// Checks registered by the mods' scripts, by ID.
    pub checks: BTreeSet<Id>,
    /// Mods whose scripts failed to load, so what they register is unknown.
    pub(crate) failed: BTreeSet<String>,
    /// Mods with no `scripts/main.lua`: nothing of theirs is registered.
    pub(crate) scriptless: BTreeSet<String>,
    /// The hosting game's declarations: its tables, events, actions and checks.
    pub(crate) declared: Arc<declare::Declarations>,
}

/// Everything a mod set defines, resolved and indexed. Immutable once built.
#[derive(Debug, Clone)]
pub struct Content {
    /// Loaded mods in load order.
    pub mods: Vec<ModInfo>,
    /// Tags (the roguelike's), by ID. Every registry holds each definition behind an `Arc`, in
    /// chunks a copy shares ([`Registry`]): a reload that changed one file shares the others'
    /// with the version it replaces.
    pub tags: Registry<Tag>,
    /// Rarity levels, lowest rank first.
    pub rarities: Vec<Rarity>,
    /// Item definitions (the roguelike's), by ID.
    pub items: Registry<Item>,
    /// Creature definitions (the roguelike's), by ID.
    pub creatures: Registry<Creature>,
    /// Quests, by ID.
    pub quests: Registry<Quest>,
    /// Encounters (seed 000), by ID.
    pub encounters: Registry<Encounter>,
    /// Hazard progress types (seed 002), by ID.
    pub progress_types: Registry<hazard::ProgressType>,
    /// Hazards (seed 002), by ID.
    pub hazards: Registry<hazard::Hazard>,
    /// Hazard action cards (seed 002), by ID.
    pub cards: Registry<hazard::Card>,
    /// Every event kind: the engine's, the game's, the mods' custom ones.
    pub events: EventTable,
    /// Every trigger, wherever it stands; [`TriggerRef`] indexes it.
    pub triggers: Vec<Arc<Trigger>>,
    /// Top-level triggers by the event they listen to (indexed by [`EventKey`]), each with its
    /// test's quick form.
    pub(crate) top_level: Vec<Vec<Listener>>,
    /// Whether any item or creature trigger listens to an event (indexed by [`EventKey`]): when none
    /// does, dispatch skips the source's inventory without looking at it.
    pub(crate) borne_listen: Vec<bool>,
    /// Whether any trigger (of any home), quest or handler of the game's listens to an event
    /// (indexed by [`EventKey`]): when none does and no script does, dispatch skips it.
    pub(crate) heard: Vec<bool>,
    /// Quests by the event they count (indexed by [`EventKey`]): ordinals into
    /// [`Content::quest_defs`], each with its test's quick form.
    pub(crate) quests_by_event: Vec<Vec<Listener>>,
    /// Every quest in ID order (the definitions of `quests`, shared) for dispatch; a quest's
    /// `ordinal` is its position here.
    pub(crate) quest_defs: Vec<Arc<Quest>>,
    /// Triggers that carry an `id`.
    pub(crate) trigger_ids: BTreeMap<Id, TriggerRef>,
    /// Definitions a mod replaced in another's namespace, for a mod manager's list of conflicts
    /// and `lantern check`.
    pub overrides: Vec<Override>,
    /// How many data files were read.
    pub(crate) files: usize,
    /// The events some `emit_event` action of the data names, for `lantern check`'s warning
    /// about a trigger or quest waiting on an event nothing emits.
    pub(crate) emitted: std::collections::BTreeSet<EventKey>,
    /// The hosting game's declarations this content was resolved against, its code with them: a
    /// game made from it, a reload of it and a test game over it all use these rules.
    pub(crate) declared: Arc<declare::Declarations>,
    /// The entries of the game's own tables, by kind of ID (`crop`).
    pub(crate) tables: HostTables,
    /// The triggers of the game's table entries, by the entry's kind and ID.
    pub(crate) entry_triggers: BTreeMap<(&'static str, Id), Vec<TriggerRef>>,
    /// The game's Rust handlers by the event they listen to (indexed by [`EventKey`]; empty when
    /// the game declares none): positions in its rules' list of handlers.
    pub(crate) host_handlers: Vec<Vec<usize>>,
    /// Every text in every language the mods have ([`locale`]).
    pub(crate) locales: Arc<locale::Locales>,
    /// The language the definitions' texts are in (`None`: each mod's default).
    pub(crate) language: Option<String>,
    /// The content as the mods wrote it, when this one is in another language: what every
    /// translation starts from.
    pub(crate) untranslated: Option<Arc<Content>>,
    /// The settings chosen when the mods were loaded (a player's `--set`): a game over this
    /// content starts with them.
    pub(crate) start_settings: BTreeMap<Id, SettingValue>,
    /// The settings the data read (`{ setting = "..." }`), fixed with the content.
    pub(crate) read_by_data: BTreeSet<Id>,
}

/// The entries of a game's own tables, each in the game's type.
#[derive(Clone, Default)]
pub struct HostTables(BTreeMap<&'static str, BTreeMap<Id, HostValue>>);

/// One entry of a game's table: the game's value, the entry's text (what a reload compares) and
/// where its `id` is written.
#[derive(Clone)]
struct HostValue {
    value: Arc<dyn std::any::Any + Send + Sync>,
    text: Arc<str>,
    /// The keys players read, with their texts as written.
    texts: Arc<[(&'static str, String)]>,
    span: Span,
}

impl std::fmt::Debug for HostTables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map()
            .entries(
                self.0
                    .iter()
                    .map(|(k, v)| (k, v.keys().collect::<Vec<_>>())),
            )
            .finish()
    }
}

impl HostTables {
    /// Whether an entry is written in a file `of` says yes to.
    pub(crate) fn any_from(&self, of: impl Fn(crate::diag::FileId) -> bool) -> bool {
        self.0
            .values()
            .flat_map(BTreeMap::values)
            .any(|v| of(v.span.file))
    }

    pub(crate) fn insert(
        &mut self,
        kind: &'static str,
        id: Id,
        value: Arc<dyn std::any::Any + Send + Sync>,
        text: Arc<str>,
        texts: Arc<[(&'static str, String)]>,
        span: Span,
    ) {
        let value = HostValue {
            value,
            text,
            texts,
            span,
        };
        self.0.entry(kind).or_default().insert(id, value);
    }

    /// Each text players read of each entry of the tables `decls` declare texts in: the entry's
    /// ID, the table's key (`rooms`), the key, where the entry is and the text as written.
    pub(crate) fn each_text<'a>(
        &'a self,
        decls: &'a [crate::content::declare::TableDecl],
        mut f: impl FnMut(&'a Id, &'static str, &'static str, Span, &'a str),
    ) {
        for decl in decls.iter().filter(|d| !d.texts.is_empty()) {
            for (id, v) in self.0.get(decl.kind).into_iter().flatten() {
                for (key, text) in v.texts.iter() {
                    f(id, decl.key, key, v.span, text);
                }
            }
        }
    }

    /// Every kind with its entries' IDs and texts, for comparing two versions of the content.
    pub(crate) fn texts(
        &self,
    ) -> impl Iterator<Item = (&'static str, BTreeMap<String, String>)> + '_ {
        self.0.iter().map(|(kind, t)| {
            let texts = t
                .iter()
                .map(|(id, v)| (id.to_string(), v.text.to_string()))
                .collect();
            (*kind, texts)
        })
    }

    /// The IDs of kind `kind`, in ID order.
    pub(crate) fn ids(&self, kind: &str) -> impl Iterator<Item = &Id> {
        self.0.get(kind).into_iter().flat_map(|t| t.keys())
    }
}

impl Content {
    /// The entries of the game's table named by its kind of ID (`"crop"`) or its key (`"crops"`).
    fn host_table(&self, table: &str) -> Option<&BTreeMap<Id, HostValue>> {
        let kind = self.declared.kind_of_table(table).unwrap_or(table);
        self.tables.0.get(kind)
    }

    /// Every entry of the game's table that is a `T`, in ID order; the table named by its kind
    /// of ID (`"crop"`) or by the key mods write (`"crops"`).
    pub fn table<T: 'static>(&self, table: &str) -> impl Iterator<Item = (&Id, &T)> {
        self.host_table(table)
            .into_iter()
            .flat_map(|t| t.iter())
            .filter_map(|(id, v)| v.value.downcast_ref::<T>().map(|t| (id, t)))
    }

    /// One entry of the game's table (named by its kind of ID or its key), if it exists and is a
    /// `T`; by its [`Id`] or by the ID's text (`"valley:wheat"`, [`IdKey`](crate::id::IdKey)),
    /// so a component holding an `Arc<str>` looks it up without building an `Id`.
    pub fn entry<T: 'static>(
        &self,
        table: &str,
        id: &(impl crate::id::IdKey + ?Sized),
    ) -> Option<&T> {
        id.find_in(self.host_table(table)?)?.value.downcast_ref()
    }

    /// Where an entry of the game's table (named by its kind of ID or its key) is defined (its
    /// `id`): the place an action list the game makes from the entry names when it fails.
    pub fn entry_span(&self, table: &str, id: &(impl crate::id::IdKey + ?Sized)) -> Option<Span> {
        Some(id.find_in(self.host_table(table)?)?.span)
    }
}

impl Content {
    /// A trigger by its reference.
    pub(crate) fn trigger(&self, r: TriggerRef) -> &Trigger {
        &self.triggers[r.0 as usize]
    }

    /// Every action content holds, wherever it stands: triggers, quests, items' `on_use`,
    /// creatures' AI and talk, encounters' costs and rewards, hazards' penalties and outcomes, and
    /// cards' effects. For the checks a loader makes across the whole content.
    pub(crate) fn each_action(&self, mut f: impl FnMut(&ActionEntry)) {
        let mut list = |l: &ActionList| l.actions.iter().for_each(&mut f);
        self.triggers.iter().for_each(|t| list(&t.actions));
        self.quests.values().for_each(|q| list(&q.actions));
        self.items
            .values()
            .filter_map(|i| i.on_use.as_ref())
            .for_each(&mut list);
        for c in self.creatures.values() {
            c.talk.iter().for_each(&mut list);
            for rule in &c.ai {
                if let AiAct::Actions(l) = &rule.act {
                    list(l);
                }
            }
        }
        for e in self.encounters.values() {
            for o in &e.options {
                list(&o.costs);
                list(&o.rewards);
            }
        }
        for h in self.hazards.values() {
            list(&h.penalty);
            list(&h.final_penalty);
            h.outcomes.iter().for_each(|(_, l)| list(l));
        }
        for c in self.cards.values() {
            let bottom = c.bottom.iter().flat_map(|b| &b.effects);
            for effect in c.top.iter().chain(bottom).chain(&c.ongoing) {
                if let hazard::CardEffect::Action(entry) = effect {
                    f(entry);
                }
            }
        }
    }

    /// The mods that have scripts, by ID.
    pub(crate) fn scripted_mods(&self) -> impl Iterator<Item = &str> {
        self.mods
            .iter()
            .filter(|m| m.scripted)
            .map(|m| m.id.as_str())
    }

    /// Every setting the mods declare, mod by mod in load order, each mod's in its manifest's
    /// order: what a game's settings menu lists.
    pub fn settings(&self) -> impl Iterator<Item = &Setting> + Clone {
        self.mods.iter().flat_map(|m| m.settings.iter())
    }

    /// The setting `rats:rat_health`, when a mod declares it.
    pub fn setting(&self, id: &str) -> Option<&Setting> {
        let (ns, _) = id.split_once(':')?;
        let m = self.mods.iter().find(|m| m.id == ns)?;
        m.settings.iter().find(|s| s.id.as_str() == id)
    }

    /// The rank of a rarity level, if it exists.
    pub(crate) fn rarity_rank(&self, rarity: &str) -> Option<i64> {
        self.rarities
            .iter()
            .find(|r| r.id == rarity)
            .map(|r| r.rank)
    }

    /// Looks up a trigger by its `id` or by its `file:line` key.
    pub(crate) fn find_trigger(&self, key: &str) -> Option<TriggerRef> {
        if let Some(id) = Id::qualified(key) {
            if let Some(&r) = self.trigger_ids.get(&id) {
                return Some(r);
            }
        }
        self.triggers
            .iter()
            .position(|t| t.key == key)
            .map(|i| TriggerRef(i as u32))
    }
}

/// The longest text looked up as an ID: far past any real one (`namespace:name`).
const LONGEST_ID: usize = 4096;

/// An ID typed at run time (a play command, a harness call, a script) looked up in one registry: a
/// bare name is `default_ns`'s, and a miss names the closest ID there is
/// (`there is no item `core:glod`; did you mean `core:gold`?`).
pub(crate) fn find_id<V>(
    registry: &Registry<V>,
    text: &str,
    default_ns: &str,
    kind: &str,
) -> Result<Id, crate::Error> {
    let shown = crate::diag::shown;
    // Text far longer than any ID is refused before it is hashed or parsed: a script passing
    // megabytes in a loop would otherwise pay far more than the copy it is charged for.
    if text.len() > LONGEST_ID {
        return Err(format!("`{}` is longer than any ID", shown(text)).into());
    }
    // An ID that is there is found by its text, whole or made whole with `default_ns`, and the
    // registry's own `Id` is handed back: nothing made for it (scripts ask this per call), and
    // it compares with the content's by pointer.
    let found = if default_ns.is_empty() || text.contains(':') {
        registry.get_key_value(text)
    } else {
        // Made whole on the stack when it is short, as IDs are.
        let mut buf = [0u8; 96];
        let (ns, name) = (default_ns.as_bytes(), text.as_bytes());
        let len = ns.len() + 1 + name.len();
        if len <= buf.len() {
            buf[..ns.len()].copy_from_slice(ns);
            buf[ns.len()] = b':';
            buf[ns.len() + 1..len].copy_from_slice(name);
            std::str::from_utf8(&buf[..len])
                .ok()
                .and_then(|full| registry.get_key_value(full))
        } else {
            registry.get_key_value([default_ns, ":", text].concat().as_str())
        }
    };
    if let Some((id, _)) = found {
        return Ok(id.clone());
    }
    let id =
        Id::parse(text, default_ns).ok_or_else(|| format!("`{}` is not an ID", shown(text)))?;
    if registry.contains_key(&id) {
        return Ok(id);
    }
    let help = crate::diag::did_you_mean_suffix(id.as_str(), registry.keys().map(Id::as_str));
    Err(format!("there is no {kind} `{}`{help}", shown(id.as_str())).into())
}

/// The result of loading a mods directory.
pub struct Loaded {
    /// The content built.
    pub content: Arc<Content>,
    /// The files read: diagnostics' spans point here.
    pub sources: SourceMap,
    /// Every problem found.
    pub diagnostics: Vec<Diagnostic>,
}

impl Loaded {
    /// Whether any problem is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Loads and resolves every mod in `mods_dir`. Never stops at the first error.
pub fn load(mods_dir: &Path, ext: &Extensions) -> Loaded {
    let mut sources = SourceMap::new();
    let mut diagnostics = Vec::new();
    let folders =
        crate::mods::load_mod_list(&[mods_dir.to_path_buf()], &mut sources, &mut diagnostics);
    let mut raw = parse::read_mods(
        &folders,
        &ext.declared,
        &mut sources,
        &mut diagnostics,
        None,
        parse::Texts::Kept,
    );
    let mods = folders.iter().map(mod_info).collect();
    let (content, _) = build(&mut raw, false, mods, ext, &sources, &mut diagnostics);
    raw.drop_aside();
    // Read top to bottom, file by file; problems without a place come first.
    crate::diag::bound(&mut diagnostics, &sources);
    Loaded {
        content: Arc::new(content),
        sources,
        diagnostics,
    }
}

/// Resolves raw definitions into content and names the triggers that have no `id` by `file:line`.
/// The locale files are taken from `raw`; the definitions are left there when `keep` says a memo
/// of the next load keeps them ([`parse::ParseMemo`]), and let go as they are resolved otherwise.
/// The resolution is what a reload patches the content from ([`patch`]).
pub(crate) fn build(
    raw: &mut raw_defs::RawDefs,
    keep: bool,
    mods: Vec<ModInfo>,
    ext: &Extensions,
    sources: &SourceMap,
    diags: &mut Vec<Diagnostic>,
) -> (Content, resolve::Resolution) {
    let locale_files = std::mem::take(&mut raw.locales);
    let before = diags.len();
    let (mut content, syms, named) = resolve::resolve(raw, keep, mods, ext, diags);
    locale::assemble(&mut content, locale_files, diags);
    for t in content.triggers.iter_mut().filter(|t| t.key.is_empty()) {
        name_by_place(Arc::make_mut(t), sources);
    }
    let resolution = resolve::Resolution::new(syms, named, &diags[before..]);
    (content, resolution)
}

/// `last` with the definitions of the data files `changed` (in order) resolved again from
/// `raw`, when that gives what [`build`] gives (`resolve::patch` says when): a reload after an
/// edit to what a few definitions hold.
pub(crate) fn patch(
    last: &Content,
    resolution: &resolve::Resolution,
    raw: &raw_defs::RawDefs,
    changed: &[crate::diag::FileId],
    ext: &Extensions,
    sources: &SourceMap,
    diags: &mut Vec<Diagnostic>,
) -> Option<(Content, resolve::Resolution)> {
    resolve::patch(last, resolution, raw, changed, ext, sources, diags)
}

/// A trigger without an `id` is named by its file and line; its random stream by that name. The
/// line is the one counted when its file was read (`RawTrigger::line`), so naming reads no text
/// (a check has let its texts go) and builds no index of lines.
pub(crate) fn name_by_place(t: &mut Trigger, sources: &SourceMap) {
    if t.key.is_empty() {
        t.key = match t.line {
            0 => sources.file_line(t.span),
            line => format!("{}:{line}", sources.get(t.span.file).path()),
        };
        t.stream = format!("trigger:{}", t.key);
    }
}

/// What content remembers of a loaded mod folder.
pub(crate) fn mod_info(m: &crate::mods::ModFolder) -> ModInfo {
    ModInfo {
        id_span: m.manifest.id_span,
        id: m.manifest.id.clone(),
        name: m.manifest.name.clone().into(),
        version: m.manifest.version.clone(),
        dir: m.dir.clone(),
        deps: m
            .manifest
            .depends
            .iter()
            .chain(m.manifest.optional.iter())
            .map(|d| d.id.clone())
            .collect(),
        scripted: m.dir.join("scripts").join("main.lua").is_file(),
        language: m.manifest.language.clone(),
        untranslated: m.manifest.untranslated.clone(),
        settings: (m.manifest.settings.iter())
            .map(|s| Setting::of(&m.manifest.id, s))
            .collect(),
        renames: (m.manifest.renames.iter())
            .map(|(old, new, at)| {
                let id = &m.manifest.id;
                (Id::new(id, old), Id::new(id, new), *at)
            })
            .collect(),
        ids_in_storage: m.manifest.ids_in_storage.clone(),
    }
}
