//! Assembling the [`Content`] from the mods' raw definitions, stage by stage: every name
//! declared first (`names.rs`: IDs, rarities, renames, the event table), then the game's table
//! entries, each built-in kind of definition, the triggers' names, and the indexes dispatch
//! reads. Each stage is a function of its own; [`resolve_all`] runs them in the order they need
//! each other.

use super::defs::{
    creature, empty_random_pools, encounter, home_triggers, item, modifier_cycles, quest,
    visibility,
};
use super::named::{Named, Naming};
use super::names::Declared;
use super::names::{declare_all, event_table, rarities, renames};
use super::symbols::Symbols;
use super::vocabulary::trigger;
use super::{Cx, RefKind};
use crate::content::by_file::ByFile;
use crate::content::event::EventTable;
use crate::content::raw_defs::{RawDefs, Src};
use crate::content::*;
use crate::content::{Content, Extensions, ModInfo};
use crate::diag::Code;
use crate::diag::{Diagnostic, FileId, Span};
use crate::id::Id;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Resolves every definition into [`Content`], reporting every problem; never stops at the first.
/// The symbols are given back too: a reload resolves the files that change after it against them;
/// and, with `keep`, which IDs each file names.
/// With `keep` false nothing keeps the raw definitions after it: the large kinds' are let go a
/// file at a time as they are resolved ([`Big`]), and `raw` is left without them.
pub(super) fn resolve_all(
    raw: &mut RawDefs,
    keep: bool,
    mods: Vec<ModInfo>,
    ext: &Extensions,
    diags: &mut Vec<Diagnostic>,
) -> (Content, Symbols, Named) {
    let cores = crate::content::threads::cores();
    resolve_on(raw, keep, mods, ext, diags, (cores, PARALLEL_FROM))
}

/// A list of raw definitions as resolution reads it: borrowed from what keeps it, or its own.
pub(super) enum List<'a, T> {
    Borrowed(&'a ByFile<T>),
    Owned(ByFile<T>),
}

/// One file's part of a [`List`]: a list of its own is freed once resolved.
enum Part<'a, T> {
    Borrowed(&'a [T]),
    Owned(Vec<T>),
}

impl<T> std::ops::Deref for Part<'_, T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        match self {
            Part::Borrowed(list) => list,
            Part::Owned(list) => list,
        }
    }
}

impl<T> List<'_, T> {
    /// How many entries it holds (none once its parts were given away).
    fn len(&self) -> usize {
        match self {
            List::Borrowed(list) => list.len(),
            List::Owned(list) => list.len(),
        }
    }

    /// Each file's part with the index of its first entry; a list of its own is given away (and
    /// left empty), so each part is freed as soon as it is resolved.
    fn parts(&mut self) -> Vec<(usize, Part<'_, T>)> {
        match self {
            List::Borrowed(list) => list
                .parts_at()
                .map(|(at, p)| (at, Part::Borrowed(p)))
                .collect(),
            List::Owned(list) => std::mem::take(list)
                .into_parts_at()
                .map(|(at, p)| (at, Part::Owned(p)))
                .collect(),
        }
    }
}

/// The largest kinds' raw definitions. Held beside all the content built from them they were
/// most of a check's peak memory: where nothing keeps them, each file's are let go as soon as
/// they are resolved, so the content is built in the memory they leave.
pub(super) struct Big<'a> {
    pub items: List<'a, Src<crate::content::raw::RawItem>>,
    pub creatures: List<'a, Src<crate::content::raw::RawCreature>>,
    pub quests: List<'a, Src<crate::content::raw::RawQuest>>,
    pub triggers: List<'a, Src<crate::content::raw::RawTrigger>>,
}

impl<'a> Big<'a> {
    /// Read where `raw` keeps them.
    pub(super) fn of(raw: &'a RawDefs) -> Big<'a> {
        Big {
            items: List::Borrowed(&raw.items),
            creatures: List::Borrowed(&raw.creatures),
            quests: List::Borrowed(&raw.quests),
            triggers: List::Borrowed(&raw.triggers),
        }
    }

    /// Taken out of `raw`, to be let go file by file.
    fn taken(raw: &mut RawDefs) -> Big<'static> {
        Big {
            items: List::Owned(std::mem::take(&mut raw.items)),
            creatures: List::Owned(std::mem::take(&mut raw.creatures)),
            quests: List::Owned(std::mem::take(&mut raw.quests)),
            triggers: List::Owned(std::mem::take(&mut raw.triggers)),
        }
    }
}

/// [`resolve_all`], each kind of definition of at least `runs.1` entries cut into runs resolved
/// on at most `runs.0` threads.
fn resolve_on(
    raw: &mut RawDefs,
    keep: bool,
    mods: Vec<ModInfo>,
    ext: &Extensions,
    diags: &mut Vec<Diagnostic>,
    runs: (usize, usize),
) -> (Content, Symbols, Named) {
    let visibility = visibility(&mods);
    let mut overrides = Vec::new();
    let (mut syms, declared) = declare_all(raw, ext, &visibility, &mut overrides, diags, runs);
    syms.manifest_ids = mods.iter().map(|m| (m.id.clone(), m.id_span)).collect();
    renames(&mods, &syms, diags);
    let settings = || mods.iter().flat_map(|m| m.settings.iter());
    syms.settings = settings().map(|s| (s.id.clone(), s.span)).collect();
    syms.setting_kinds = settings().map(|s| (s.id.clone(), s.kind.clone())).collect();
    let taken = (!keep).then(|| Big::taken(raw));
    let raw: &RawDefs = raw;
    let mut big = taken.unwrap_or_else(|| Big::of(raw));
    let rarities = rarities(raw, &mut syms, diags);
    let events = event_table(raw, &declared.event_types, &syms, ext, diags);
    let mut content = blank(mods, events.clone(), ext);
    content.rarities = rarities;
    content.overrides = overrides;
    content.files = raw.files;
    content.host_handlers = host_handlers(ext, &events, diags);
    let mut stage = Stage::new(raw, &syms, &events, ext, runs);
    stage.naming = keep.then(Naming::default);
    stage.game_tables(&mut content, &declared.host, diags);
    stage.loose_references(&raw.loose_refs, diags);
    let mut triggers = stage.entry_triggers(&mut content, &declared.host, diags);
    stage.definitions(&mut content, declared, &mut big, &mut triggers, diags);
    let all: Vec<(usize, ())> = (0..big.triggers.len()).map(|i| (i, ())).collect();
    stage.top_level_triggers(&mut big.triggers, &all, &mut triggers, diags);
    content.emitted = stage.emitted.take();
    name_triggers(&mut content, &triggers, diags);
    index(&mut content, triggers);
    // A patch finds them over the whole content; both ways must agree.
    debug_assert_eq!(content.emitted, super::defs::emitted_by(&content));
    modifier_cycles(&content, diags);
    empty_random_pools(&content, diags);
    let named = stage.naming.take().map(|n| Named::of(n.into_inner()));
    (content, syms, named.unwrap_or_default())
}

/// A content of `mods` over `events` that defines nothing yet.
pub(super) fn blank(mods: Vec<ModInfo>, events: EventTable, ext: &Extensions) -> Content {
    Content {
        mods,
        tags: Registry::new(),
        rarities: Vec::new(),
        items: Registry::new(),
        creatures: Registry::new(),
        quests: Registry::new(),
        encounters: Registry::new(),
        progress_types: Registry::new(),
        hazards: Registry::new(),
        cards: Registry::new(),
        triggers: Vec::new(),
        top_level: Vec::new(),
        quests_by_event: Vec::new(),
        borne_listen: Vec::new(),
        heard: Vec::new(),
        quest_defs: Vec::new(),
        trigger_ids: BTreeMap::new(),
        overrides: Vec::new(),
        events,
        files: 0,
        emitted: Default::default(),
        declared: ext.declared.clone(),
        tables: Default::default(),
        entry_triggers: BTreeMap::new(),
        host_handlers: Vec::new(),
        locales: Default::default(),
        language: None,
        untranslated: None,
        start_settings: BTreeMap::new(),
        read_by_data: Default::default(),
    }
}

/// What was resolved of a kind's picks (in their order, each with its ID's rank), as a map by
/// ID: sorted by rank, they are in ID order, and the map is built without comparing IDs but to
/// see they are sorted (half the time of sorting them by ID at a million).
fn in_id_order<T>(mut resolved: Vec<(usize, Id, Arc<T>)>) -> Registry<T> {
    resolved.sort_unstable_by_key(|&(rank, _, _)| rank);
    // Both steps reuse the list's memory.
    let sorted: Vec<(Id, Arc<T>)> = resolved.into_iter().map(|(_, id, v)| (id, v)).collect();
    sorted.into_iter().collect()
}

/// What every later stage reads: the raw definitions, the declared symbols, the event table
/// and the game's vocabulary.
pub(super) struct Stage<'a> {
    raw: &'a RawDefs,
    syms: &'a Symbols,
    events: &'a EventTable,
    ext: &'a Extensions,
    /// The events the data's `emit_event` actions name, as they are read.
    emitted: std::cell::RefCell<std::collections::BTreeSet<crate::content::EventKey>>,
    /// How many threads may resolve the runs of one kind, and how many entries a kind has at
    /// least to be cut into runs.
    runs: (usize, usize),
    /// Where the references resolved are noted with their files, when a reload may patch what
    /// this stage makes.
    pub(super) naming: Option<Naming>,
}

/// Below this many entries of a kind, they are resolved on the calling thread.
const PARALLEL_FROM: usize = 4096;

/// What one run of entries resolved to: the definitions, the triggers they carry (numbered from
/// zero), what was said, the events their `emit_event` actions name, and the references noted.
type Run<T> = (
    Vec<T>,
    Vec<Trigger>,
    Vec<Diagnostic>,
    std::collections::BTreeSet<crate::content::EventKey>,
    Vec<(FileId, Id)>,
);

impl<'a> Stage<'a> {
    pub(super) fn new(
        raw: &'a RawDefs,
        syms: &'a Symbols,
        events: &'a EventTable,
        ext: &'a Extensions,
        runs: (usize, usize),
    ) -> Stage<'a> {
        Stage {
            raw,
            syms,
            events,
            ext,
            emitted: Default::default(),
            runs,
            naming: None,
        }
    }

    fn cx<'d>(
        &'d self,
        diags: &'d mut Vec<Diagnostic>,
        ns: &str,
        file: crate::diag::FileId,
    ) -> Cx<'d> {
        let mut cx = Cx::new(self.syms, self.events, diags, ns, file, Some(&self.emitted));
        cx.naming = self.naming.as_ref();
        cx
    }

    /// The entries of the game's tables: the IDs they name checked, the game's own rules run
    /// over each (`validate`), each kept in the content for the game to read.
    fn game_tables(
        &self,
        content: &mut Content,
        host: &[(usize, BTreeMap<Id, usize>)],
        diags: &mut Vec<Diagnostic>,
    ) {
        for (t, winners) in host {
            let kind = self.ext.declared.tables[*t].kind;
            for (id, &i) in winners {
                let src = &self.raw.host[i].1;
                let mut cx = self.cx(diags, &src.ns, src.file);
                for (ty, text) in &src.raw.refs {
                    if let Some(kind) = RefKind::of(*ty) {
                        cx.reference(kind, text);
                    }
                }
                for rule in &self.ext.declared.tables[*t].validate {
                    for problem in rule(&*src.raw.value).unwrap_or_default() {
                        let at = problem
                            .key
                            .as_ref()
                            .and_then(|k| src.raw.keys.iter().find(|(key, _)| key == k))
                            .map_or(src.raw.id.span(), |(_, span)| span.clone());
                        let message = format!("{kind} `{id}`: {}", problem.message);
                        let d = if problem.warning {
                            Diagnostic::warning(Code::ContentRule, message)
                        } else {
                            Diagnostic::error(Code::ContentRule, message)
                        };
                        cx.diags
                            .push(d.at(cx.span(at)).with_help_opt(problem.help.clone()));
                    }
                }
                content.tables.insert(
                    kind,
                    id.clone(),
                    src.raw.value.clone(),
                    src.raw.text.clone(),
                    src.raw.texts.clone(),
                    Span::new(src.file, src.raw.id.span()),
                );
            }
        }
    }

    /// The IDs named by entries that are not definitions themselves (a `refers` key outside a
    /// table the game reads whole), each checked.
    pub(super) fn loose_references<'r>(
        &self,
        list: impl IntoIterator<Item = &'r Src<crate::content::raw_defs::Refs>>,
        diags: &mut Vec<Diagnostic>,
    ) {
        for src in list {
            let mut cx = self.cx(diags, &src.ns, src.file);
            for (ty, text) in &src.raw {
                if let Some(kind) = RefKind::of(*ty) {
                    cx.reference(kind, text);
                }
            }
        }
    }

    /// The triggers the game's entries carry, each resolved as a room's; the list every later
    /// trigger joins.
    fn entry_triggers(
        &self,
        content: &mut Content,
        host: &[(usize, BTreeMap<Id, usize>)],
        diags: &mut Vec<Diagnostic>,
    ) -> Vec<Trigger> {
        let mut triggers: Vec<Trigger> = Vec::new();
        for (t, winners) in host {
            let kind = self.ext.declared.tables[*t].kind;
            for (id, &i) in winners {
                let src = &self.raw.host[i].1;
                if src.raw.triggers.is_empty() {
                    continue;
                }
                let mut cx = self.cx(diags, &src.ns, src.file);
                let home = TriggerHome::Entry(kind, id.clone());
                let refs = home_triggers(&mut cx, &src.raw.triggers, home, &mut triggers);
                content.entry_triggers.insert((kind, id.clone()), refs);
            }
        }
        triggers
    }

    /// Resolves the entries of `list` that `picks` names (each by its index, ascending, with
    /// what `one` reads beside it) in order with `one`, which reads one entry in its context
    /// (its problems, the events its actions emit, the list its triggers join). The list is read
    /// file by file, each file's part freed once read when the list is its own. A long list is
    /// cut into runs of files, one a thread, joined in order: each run's triggers are numbered
    /// on from the runs before it (`renumber` moves a definition's references to them), so the
    /// result is what one thread gives.
    fn in_files<R: Send + Sync, P: Sync, T: Send>(
        &self,
        list: &mut List<'_, R>,
        picks: &[(usize, P)],
        triggers: &mut Vec<Trigger>,
        diags: &mut Vec<Diagnostic>,
        one: impl Fn(&mut Cx, &P, &R, &mut Vec<Trigger>) -> Option<T> + Sync,
        renumber: impl Fn(&mut T, u32),
    ) -> Vec<T> {
        let (syms, events, noting) = (self.syms, self.events, self.naming.is_some());
        let run = |parts: Vec<(usize, Part<'_, R>)>, mut picks: &[(usize, P)]| -> Run<T> {
            let emitted = std::cell::RefCell::new(std::collections::BTreeSet::new());
            let naming = Naming::default();
            let mut defs = Vec::with_capacity(picks.len());
            let (mut triggers, mut diags) = (Vec::new(), Vec::new());
            for (at, part) in parts {
                let end = at + part.len();
                let here = picks.partition_point(|(i, _)| *i < end);
                for (i, pick) in &picks[..here] {
                    let mut cx = Cx::new(syms, events, &mut diags, "", FileId(0), Some(&emitted));
                    cx.naming = noting.then_some(&naming);
                    defs.extend(one(&mut cx, pick, &part[i - at], &mut triggers));
                }
                picks = &picks[here..];
            }
            (
                defs,
                triggers,
                diags,
                emitted.into_inner(),
                naming.into_inner(),
            )
        };
        let (threads, from) = self.runs;
        let threads = if picks.len() < from {
            1
        } else {
            threads.max(1)
        };
        let parts = list.parts();
        let runs: Vec<Run<T>> = if threads == 1 {
            vec![run(parts, picks)]
        } else {
            // Runs of whole files, each with about as many picks as the others.
            let mut cut = Vec::new();
            let (mut group, mut first, mut done) = (Vec::new(), 0, 0);
            for (at, part) in parts {
                let end = at + part.len();
                done += picks[done..].partition_point(|(i, _)| *i < end);
                group.push((at, part));
                if done * threads >= picks.len() * (cut.len() + 1) {
                    cut.push((std::mem::take(&mut group), &picks[first..done]));
                    first = done;
                }
            }
            if !group.is_empty() {
                cut.push((group, &picks[first..done]));
            }
            std::thread::scope(|scope| {
                let handles: Vec<_> = cut
                    .into_iter()
                    .map(|(parts, picks)| scope.spawn(|| run(parts, picks)))
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                    .collect()
            })
        };
        let mut all: Vec<T> = Vec::new();
        for (mut defs, mut run_triggers, run_diags, emitted, mut noted) in runs {
            if let Some(naming) = &self.naming {
                naming.borrow_mut().append(&mut noted);
            }
            let from = triggers.len() as u32;
            if from > 0 {
                defs.iter_mut().for_each(|d| renumber(d, from));
            }
            triggers.append(&mut run_triggers);
            diags.extend(run_diags);
            self.emitted.borrow_mut().extend(emitted);
            if all.is_empty() {
                all = defs;
            } else {
                all.append(&mut defs);
            }
        }
        all
    }

    /// Every built-in kind of definition, in the order each may name the ones before it; the
    /// triggers items and creatures carry join `triggers`.
    pub(super) fn definitions(
        &self,
        content: &mut Content,
        declared: Declared,
        big: &mut Big,
        triggers: &mut Vec<Trigger>,
        diags: &mut Vec<Diagnostic>,
    ) {
        let raw = self.raw;
        self.names_only(content, &declared);
        self.big_kinds(content, &declared, big, triggers, diags);
        for (id, &i) in &declared.encounters {
            let src = &raw.encounters[i];
            let encounter = encounter(&mut self.cx(diags, &src.ns, src.file), id, src);
            content.encounters.insert(id.clone(), Arc::new(encounter));
        }
        for (id, &i) in &declared.hazards {
            let src = &raw.hazards[i];
            if let Some(h) = super::hazard::hazard(&mut self.cx(diags, &src.ns, src.file), id, src)
            {
                content.hazards.insert(id.clone(), Arc::new(h));
            }
        }
        for (id, &i) in &declared.cards {
            let src = &raw.cards[i];
            if let Some(c) = super::hazard::card(&mut self.cx(diags, &src.ns, src.file), id, src) {
                content.cards.insert(id.clone(), Arc::new(c));
            }
        }
    }

    /// The kinds that are a name and a description, nothing to resolve: tags and progress types.
    fn names_only(&self, content: &mut Content, declared: &Declared) {
        let raw = self.raw;
        for (id, &i) in &declared.tags {
            let src = &raw.tags[i];
            content.tags.insert(
                id.clone(),
                Arc::new(Tag {
                    id: id.clone(),
                    name: src
                        .raw
                        .name
                        .clone()
                        .unwrap_or_else(|| id.name().to_string())
                        .into(),
                    description: src.raw.description.clone(),
                    span: Span::new(src.file, src.raw.id.span()),
                }),
            );
        }
        for (id, &i) in &declared.progress_types {
            let src = &raw.progress_types[i];
            let name = src
                .raw
                .name
                .clone()
                .unwrap_or_else(|| id.name().to_string());
            content.progress_types.insert(
                id.clone(),
                Arc::new(crate::content::ProgressType {
                    id: id.clone(),
                    name: name.into(),
                    span: Span::new(src.file, src.raw.id.span()),
                }),
            );
        }
    }

    /// The kinds of many entries, resolved file by file (on several threads when there are many):
    /// items and creatures, with the triggers they carry, and quests.
    fn big_kinds(
        &self,
        content: &mut Content,
        declared: &Declared,
        big: &mut Big,
        triggers: &mut Vec<Trigger>,
        diags: &mut Vec<Diagnostic>,
    ) {
        let at = |cx: &mut Cx, ns: &str, file| {
            cx.ns.clear();
            cx.ns.push_str(ns);
            cx.file = file;
        };
        let picks = &declared.items.picks;
        let items = self.in_files(
            &mut big.items,
            picks,
            triggers,
            diags,
            |cx, (rank, id), src, triggers| {
                at(cx, &src.ns, src.file);
                Some((*rank, id.clone(), Arc::new(item(cx, id, src, triggers))))
            },
            |(_, _, item), from| {
                Arc::make_mut(item)
                    .triggers
                    .iter_mut()
                    .for_each(|t| t.0 += from)
            },
        );
        content.items = in_id_order(items);
        let picks = &declared.creatures.picks;
        let creatures = self.in_files(
            &mut big.creatures,
            picks,
            triggers,
            diags,
            |cx, (rank, id), src, triggers| {
                at(cx, &src.ns, src.file);
                Some((*rank, id.clone(), Arc::new(creature(cx, id, src, triggers))))
            },
            |(_, _, c), from| {
                Arc::make_mut(c)
                    .triggers
                    .iter_mut()
                    .for_each(|t| t.0 += from)
            },
        );
        content.creatures = in_id_order(creatures);
        let picks = &declared.quests.picks;
        let quests = self.in_files(
            &mut big.quests,
            picks,
            triggers,
            diags,
            |cx, (rank, id), src, _| {
                at(cx, &src.ns, src.file);
                quest(cx, id, src).map(|q| (*rank, id.clone(), Arc::new(q)))
            },
            |_, _| {},
        );
        content.quests = in_id_order(quests);
    }

    /// The triggers at the top level of data files: those of `list` that `picks` names (all of
    /// them, or one file's).
    pub(super) fn top_level_triggers(
        &self,
        list: &mut List<'_, Src<crate::content::raw::RawTrigger>>,
        picks: &[(usize, ())],
        triggers: &mut Vec<Trigger>,
        diags: &mut Vec<Diagnostic>,
    ) {
        let mut top = self.in_files(
            list,
            picks,
            triggers,
            diags,
            |cx, (), src, _| {
                cx.ns.clear();
                cx.ns.push_str(&src.ns);
                cx.file = src.file;
                trigger(cx, &src.raw, src.span, TriggerHome::TopLevel)
            },
            |_, _| {},
        );
        triggers.append(&mut top);
    }
}

/// Named triggers must be unique: `why`, tests and overrides address them.
fn name_triggers(content: &mut Content, triggers: &[Trigger], diags: &mut Vec<Diagnostic>) {
    for (i, t) in triggers.iter().enumerate() {
        let Some(id) = &t.id else { continue };
        if let Some(prev) = content.trigger_ids.get(id) {
            let prev = &triggers[prev.0 as usize];
            diags.push(
                Diagnostic::error(Code::Duplicate, format!("trigger `{id}` is defined twice"))
                    .at(t.span)
                    .with_label(prev.span, "first defined here"),
            );
            continue;
        }
        content.trigger_ids.insert(id.clone(), TriggerRef(i as u32));
    }
}

/// The indexes dispatch reads: top-level triggers and quests by the event they listen to,
/// whether any item or creature trigger listens to an event, and the quests in order.
fn index(content: &mut Content, triggers: Vec<Trigger>) {
    let events = content.events.len();
    content.top_level = vec![Vec::new(); events];
    for (i, t) in triggers.iter().enumerate() {
        if matches!(t.home, TriggerHome::TopLevel) {
            content.top_level[t.on.0 as usize].push(Listener::new(
                i as u32,
                &t.when,
                &t.condition,
                t.chance,
            ));
        }
    }
    for list in &mut content.top_level {
        crate::content::listen::mark_same(list);
    }
    index_quests(content);
    content.triggers = triggers.into_iter().map(Arc::new).collect();
    listening(content);
}

/// Numbers the quests in ID order (a quest is copied only when its number changes), and lists
/// them in that order and by the event each listens to.
pub(super) fn index_quests(content: &mut Content) {
    content.quests_by_event = vec![Vec::new(); content.events.len()];
    for (ordinal, q) in content.quests.values_mut().enumerate() {
        if q.ordinal != ordinal as u32 {
            Arc::make_mut(q).ordinal = ordinal as u32;
        }
        content.quests_by_event[q.on.0 as usize].push(Listener::new(
            ordinal as u32,
            &q.when,
            &q.condition,
            None,
        ));
    }
    for list in &mut content.quests_by_event {
        crate::content::listen::mark_same(list);
    }
    content.quest_defs = content.quests.values().cloned().collect();
}

/// Which events anything of the data or the game's Rust listens to (`heard`; scripts are asked
/// apart), and which an item's or creature's trigger does (`borne_listen`).
pub(super) fn listening(content: &mut Content) {
    let events = content.events.len();
    content.borne_listen = vec![false; events];
    content.heard = (0..events)
        .map(|k| {
            !content.quests_by_event[k].is_empty()
                || content.host_handlers.get(k).is_some_and(|h| !h.is_empty())
        })
        .collect();
    for t in &content.triggers {
        content.heard[t.on.0 as usize] = true;
        if matches!(t.home, TriggerHome::Item(_) | TriggerHome::Creature(_)) {
            content.borne_listen[t.on.0 as usize] = true;
        }
    }
}

/// The game's Rust handlers by event key; a handler of an event that does not exist is an error
/// in the game's vocabulary.
fn host_handlers(
    ext: &Extensions,
    events: &EventTable,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Vec<usize>> {
    let handlers = &ext.declared.handlers;
    if handlers.is_empty() {
        return Vec::new();
    }
    let mut by_event = vec![Vec::new(); events.len()];
    for (i, name) in handlers.iter().enumerate() {
        match events.lookup(name) {
            Some(key) => by_event[key.0 as usize].push(i),
            None => diags.push(Diagnostic::error(
                Code::Vocabulary,
                format!(
                    "in the game's vocabulary: a handler listens to `{name}`, which is no event{}",
                    crate::diag::did_you_mean_suffix(name, events.names())
                ),
            )),
        }
    }
    by_event
}

#[cfg(test)]
mod tests {
    use crate::content::{load, Content, Extensions};

    #[test]
    fn resolving_on_many_threads_gives_what_one_thread_gives() {
        let dir = tempfile::tempdir().unwrap();
        crate::content::generate::write_mod_set(dir.path(), 4, 200).unwrap();
        // Mistakes and `emit_event` actions in some runs: what is said, and what the data
        // emits, keep their order too.
        std::fs::write(
            dir.path().join("m2/data/more.toml"),
            "[[items]]\nid = \"odd\"\ntags = [\"nope\"]\n[[items.triggers]]\non = \"turn_started\"\nactions = [ { action = \"emit_event\", event = \"m2:ping\" } ]\n\n\
             [[event_types]]\nid = \"ping\"\n\n[[triggers]]\non = \"m2:pnig\"\nactions = []\n\n\
             [[creatures]]\nid = \"odd\"\nhealth = 1\n[[creatures.triggers]]\non = \"damage_taken\"\nactions = [ { action = \"heal\", amount = 1, target = \"self\" } ]\n\n\
             [[items]]\nid = \"odd\"\n\n[[items]]\nid = \"m0:item1\"\n\n[[items]]\nid = \"m1:item1\"\n",
        )
        .unwrap();
        let rules = crate::test_rules();
        let ext = rules.extensions();
        let mut sources = crate::diag::SourceMap::new();
        let mut diags = Vec::new();
        let folders =
            crate::mods::load_mod_list(&[dir.path().to_path_buf()], &mut sources, &mut diags);
        let read = |sources: &mut crate::diag::SourceMap,
                    diags: &mut Vec<crate::diag::Diagnostic>| {
            crate::content::parse::read_mods(
                &folders,
                &ext.declared,
                sources,
                diags,
                None,
                crate::content::parse::Texts::Kept,
            )
        };
        let mut raw = read(&mut sources, &mut diags);
        let mods: Vec<_> = folders.iter().map(crate::content::mod_info).collect();
        let run = |raw: &mut crate::content::raw_defs::RawDefs, threads, keep| {
            let mut diags = Vec::new();
            let runs = (threads, 1);
            let content = super::resolve_on(raw, keep, mods.clone(), &ext, &mut diags, runs).0;
            let counts = (content.triggers.len(), content.emitted.len());
            (format!("{content:?}"), format!("{diags:?}"), counts)
        };
        let one = run(&mut raw, 1, true);
        for said in ["nope", "pnig", "defined twice", "another mod's namespace"] {
            assert!(one.1.contains(said), "{said}: {}", one.1);
        }
        assert!(one.0.contains("by_mod: \"m2\""), "m2 overrides `m0:item1`");
        assert!(one.2 .0 > 50, "{:?} triggers", one.2);
        assert_eq!(one.2 .1, 1, "the data emits `m2:ping`");
        for threads in [2, 3, 16] {
            assert!(run(&mut raw, threads, true) == one, "{threads} threads");
        }
        // Letting each file's raw definitions go once resolved gives the same.
        let fresh = || read(&mut crate::diag::SourceMap::new(), &mut Vec::new());
        let kept = run(&mut fresh(), 1, true);
        for threads in [1, 2] {
            let mut raw = fresh();
            assert!(
                run(&mut raw, threads, false) == kept,
                "let go, {threads} threads"
            );
            assert!(raw.items.is_empty() && raw.triggers.is_empty());
        }
    }

    /// Loads one mod `m` whose one data file is `toml`: the content and every problem's message.
    fn check(toml: &str) -> (std::sync::Arc<Content>, Vec<String>) {
        let dir = tempfile::tempdir().unwrap();
        let m = dir.path().join("m");
        std::fs::create_dir_all(m.join("data")).unwrap();
        std::fs::write(m.join("mod.toml"), "id = \"m\"\nversion = \"1.0.0\"\n").unwrap();
        std::fs::write(m.join("data/all.toml"), toml).unwrap();
        let loaded = load(dir.path(), &Extensions::default());
        let messages = loaded
            .diagnostics
            .iter()
            .map(|d| d.message.clone())
            .collect();
        (loaded.content, messages)
    }

    #[test]
    fn design_examples_resolve_to_what_they_describe() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut ext = crate::test_rules().extensions();
        ext.checks
            .insert(crate::id::Id::qualified("rats:is_night").unwrap());
        ext.actions
            .insert(crate::id::Id::qualified("rats:summon").unwrap());
        let loaded = load(&root.join("tests/fixtures/design_examples/mods"), &ext);
        assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
        let c = &loaded.content;
        let quest = &c.quests[&crate::id::Id::qualified("core:rattenplage").unwrap()];
        assert_eq!(c.events.get(quest.on).name, "creature_died");
        assert_eq!(c.triggers[1].condition.len(), 7);
        assert_eq!(c.triggers[1].actions.actions.len(), 10);
        let race = &c.encounters[&crate::id::Id::qualified("rats:horse_race").unwrap()];
        assert_eq!(race.options[0].probability, 0.7);
    }

    #[test]
    fn rarities_are_ordered_by_rank_and_declared_once() {
        let (c, problems) = check(
            "[[rarities]]\nid = \"blue\"\nrank = 2\n\n[[rarities]]\nid = \"white\"\nrank = 1\n\n\
             [[rarities]]\nid = \"blue\"\nrank = 3\n\n[[rarities]]\nid = \"m:gold\"\nrank = 4\n",
        );
        let ids: Vec<&str> = c.rarities.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(ids, ["white", "blue"]);
        assert_eq!(
            problems,
            [
                "rarity `blue` is declared twice",
                "`m:gold` is not a valid rarity name"
            ]
        );
    }

    #[test]
    fn a_custom_event_follows_the_engines_and_may_not_hide_one() {
        let (c, problems) = check("[[event_types]]\nid = \"turn_started\"\n\n[[event_types]]\nid = \"ping\"\npayload = { n = \"int\" }\n");
        let ping = c.events.lookup("m:ping").expect("declared");
        assert!(ping.0 as usize >= crate::content::vocab::ENGINE_EVENTS.len());
        assert_eq!(
            problems,
            ["custom event `m:turn_started` shares its name with the engine event `turn_started`"]
        );
    }

    #[test]
    fn a_named_trigger_is_named_once() {
        let (c, problems) = check(
            "[[triggers]]\nid = \"a\"\non = \"turn_started\"\nactions = []\n\n\
             [[triggers]]\nid = \"a\"\non = \"turn_started\"\nactions = []\n",
        );
        assert_eq!(problems, ["trigger `m:a` is defined twice"]);
        assert_eq!(c.trigger_ids.len(), 1);
    }

    #[test]
    fn the_indexes_list_each_listener_under_its_event() {
        let (c, problems) = check(
            "[[items]]\nid = \"lamp\"\n[[items.triggers]]\non = \"item_used\"\nactions = []\n\n\
             [[triggers]]\non = \"turn_started\"\nactions = []\n\n\
             [[quests]]\nid = \"q\"\nname = \"Q\"\non = \"creature_died\"\ncount = 1\nactions = []\n",
        );
        assert_eq!(problems, Vec::<String>::new());
        let key = |name: &str| c.events.lookup(name).unwrap().0 as usize;
        assert_eq!(c.top_level[key("turn_started")].len(), 1);
        assert!(
            c.top_level[key("item_used")].is_empty(),
            "an item's trigger is not top-level"
        );
        assert!(c.borne_listen[key("item_used")]);
        assert!(!c.borne_listen[key("turn_started")]);
        let counting: Vec<u32> = c.quests_by_event[key("creature_died")]
            .iter()
            .map(|l| l.of)
            .collect();
        assert_eq!(counting, [0]);
        assert_eq!(c.quest_defs.len(), 1);
        assert_eq!(c.triggers.len(), 2);
    }
}
