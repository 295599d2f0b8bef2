//! Resolving again only the data files a reload (or the language server's next check) changed.
//!
//! When every other file reads as the running version's load read it, the changed files'
//! definitions are resolved against the symbols the last resolution left ([`Resolution`]) and
//! put in place of theirs in a copy of the running content, which shares every other definition
//! with it (each sits behind an `Arc`). The files may declare new IDs of their own mod and drop
//! IDs no other file names (`redeclare.rs`, `named.rs`): that kind's symbols are copied with them
//! in or out.
//!
//! A patch is taken only where it gives what resolving everything gives (`tests/reload.rs` and
//! the language server's tests compare the two): all the running version's resolution said is
//! about the changed files, so no other definition has a problem an edit could repeat or move;
//! no entry anywhere could not be read; the changed files hold no rarity, event type or entry of
//! the game's tables, before or after (each changes what every other file resolves against); no
//! text of theirs names a translation key; no ID they declare is declared elsewhere too (a
//! duplicate, an override made or undone); and their definitions keep their triggers' number and
//! IDs (an added or removed definition bears none), so every trigger keeps its place. Anything
//! else is resolved whole, as a load does. A definition the edit left as it was stays the running
//! version's; one that fails now leaves the content, as it would. What looks across definitions
//! is done again: who listens to what, the quests' numbers when one came or went, and the
//! modifier cycles over the whole content; the events the data emits and the empty random pools
//! over the changed files where what they held before says that is enough, else over the whole
//! content.

use super::assemble::{blank, index_quests, listening, Big, List, Stage};
use super::defs::{emitted_by, empty_random_pools, empty_random_pools_of, modifier_cycles};
use super::named::{Named, Naming};
use super::names::Declared;
use super::Symbols;
use crate::content::listen::Listener;
use crate::content::raw_defs::RawDefs;
use crate::content::{Content, Extensions, Override, Registry, TriggerHome};
use crate::diag::{Diagnostic, FileId, SourceMap};
use crate::id::Id;
use std::collections::BTreeSet;
use std::sync::Arc;

/// Calls the generic function `$f` with the same registry of each content, for every registry
/// (`f(&mut a, &b)` is `f(&mut a.items, &b.items)`, `f(&mut a.creatures, &b.creatures)`, ...).
macro_rules! each_registry {
    ($f:ident(&mut $a:expr, &$b:expr)) => {
        each_registry!(@ $f, $a, $b, items creatures quests tags encounters progress_types hazards cards)
    };
    ($f:ident(&mut $a:expr, (&$b:expr, &$c:expr))) => {
        each_registry!(@@ $f, $a, $b, $c, items creatures quests tags encounters progress_types hazards cards)
    };
    (@ $f:ident, $a:expr, $b:expr, $($r:ident)*) => {
        $($f(&mut $a.$r, &$b.$r);)*
    };
    (@@ $f:ident, $a:expr, $b:expr, $c:expr, $($r:ident)*) => {
        $($f(&mut $a.$r, (&$b.$r, &$c.$r));)*
    };
}

mod redeclare;

use redeclare::{redeclared, Changes, Ids, Spans};

/// What a resolution leaves for the reloads after it: the symbols every definition was resolved
/// against, which IDs each file names, and what it said. A patched content keeps the symbols of
/// the resolution it was patched from, with the IDs it added and removed in and out (the places
/// within a changed file are the first resolution's; a patch reads only which file an ID is in).
#[derive(Clone)]
pub(crate) struct Resolution {
    syms: Arc<Symbols>,
    /// Which IDs each file names: a definition is removed by a patch only where no other file
    /// names it.
    named: Named,
    /// What it said: a patch is taken only when all of it is about the files the patch resolves
    /// again (what the other files say is then nothing, as before).
    said: Arc<[Diagnostic]>,
}

impl Resolution {
    pub(crate) fn new(syms: Symbols, named: Named, said: &[Diagnostic]) -> Resolution {
        Resolution {
            syms: Arc::new(syms),
            named,
            said: said.into(),
        }
    }

    /// What the resolution said (a check that keeps the content says it again).
    pub(crate) fn said(&self) -> &[Diagnostic] {
        &self.said
    }

    /// Whether everything the resolution said is about the files `of` holds, where it is and
    /// where its labels point.
    fn said_only_in(&self, of: &impl Fn(FileId) -> bool) -> bool {
        self.said
            .iter()
            .all(|d| d.span.is_some_and(|s| of(s.file)) && d.labels.iter().all(|l| of(l.span.file)))
    }
}

/// The content `last` with the definitions of the data files `changed` (sorted) resolved again
/// from `raw`, and the resolution that describes it; `None` when only resolving everything
/// gives what it should (see the module's words). What the changed files' definitions say goes
/// to `diags`.
pub(crate) fn patch(
    last: &Content,
    resolution: &Resolution,
    raw: &RawDefs,
    changed: &[FileId],
    ext: &Extensions,
    sources: &SourceMap,
    diags: &mut Vec<Diagnostic>,
) -> Option<(Content, Resolution)> {
    let of = |file: FileId| changed.binary_search(&file).is_ok();
    // An entry that could not be read names an ID every file's reference to it follows from.
    let unread = !resolution.syms.broken.is_empty();
    if changed.is_empty()
        || unread
        || !resolution.said_only_in(&of)
        || holds_what_all_read(last, raw, &of)
    {
        return None;
    }
    let (declared, mut changes, spans) = redeclared(last, &resolution.syms, raw, changed)?;
    let removed = changes.removed();
    if !removed.is_empty() && resolution.named.named_elsewhere(&removed, changed) {
        return None;
    }
    let syms = match changes.any() {
        true => Arc::new(changes.declared_in(&resolution.syms)),
        false => resolution.syms.clone(),
    };
    let (mut mini, triggers, tops, mut said, noted) =
        resolve_files(raw, &syms, last, ext, changed, declared);
    fn failed<T>(ids: &mut Ids, part: &Registry<T>) {
        ids.failed_in(part);
    }
    each_registry!(failed(&mut changes, &mini));
    if !crate::content::locale::patch_texts(&mut mini, &last.locales) {
        return None;
    }
    let places = trigger_places(last, &mini, &triggers, &tops, changed)?;
    let part = placed(mini, triggers, &places, last, sources);
    let mut content = last.clone();
    put_definitions(&mut content, last, &part, &places, &changes);
    for o in &mut content.overrides {
        move_override(o, &spans);
    }
    listening(&mut content);
    let was = was(last, &part, &places, &changes, ext);
    content.emitted = emitted_after(last, &was, &part, &content);
    modifier_cycles(&content, &mut said);
    // A pool changes only with an item's tags or rarity, or an item removed: when none did, only
    // the changed files' own pools are looked at again (the others were not empty before, and an
    // added item empties none).
    let same_items = changes.items.removed.is_empty()
        && part.items.iter().all(|(id, item)| {
            was.items
                .get(id)
                .is_none_or(|old| old.tags == item.tags && old.rarity == item.rarity)
        });
    if same_items {
        empty_random_pools_of(&part, &content, &mut said);
    } else {
        empty_random_pools(&content, &mut said);
    }
    let resolution = Resolution {
        syms,
        named: resolution.named.with_files(changed, noted),
        said: said.as_slice().into(),
    };
    diags.append(&mut said);
    Some((content, resolution))
}

/// Whether the changed files hold, now or in `last`, what every other file resolves against:
/// a rarity, an event type, an entry of the game's tables, an entry that could not be read.
fn holds_what_all_read(last: &Content, raw: &RawDefs, of: &impl Fn(FileId) -> bool) -> bool {
    raw.rarities.iter().any(|s| of(s.file))
        || raw.event_types.iter().any(|s| of(s.file))
        || raw.host.iter().any(|(_, s)| of(s.file))
        || raw.broken.iter().any(|b| of(b.0))
        || last.rarities.iter().any(|r| of(r.span.file))
        || last
            .events
            .iter()
            .any(|(_, e)| e.span.is_some_and(|s| of(s.file)))
        || last.tables.any_from(of)
}

/// The changed files' definitions resolved alone, in the order a whole resolution reads them
/// (what they say in that order too): a content holding only them, their triggers (numbered
/// from zero: the definitions' first, then each file's top-level ones), how many top-level
/// triggers each file has, and the references they make.
#[allow(clippy::type_complexity)]
fn resolve_files(
    raw: &RawDefs,
    syms: &Symbols,
    last: &Content,
    ext: &Extensions,
    changed: &[FileId],
    declared: Declared,
) -> (
    Content,
    Vec<crate::content::Trigger>,
    Vec<usize>,
    Vec<Diagnostic>,
    Vec<(FileId, Id)>,
) {
    let mut stage = Stage::new(raw, syms, &last.events, ext, (1, usize::MAX));
    stage.naming = Some(Naming::default());
    let mut mini = blank(Vec::new(), last.events.clone(), ext);
    let (mut triggers, mut said) = (Vec::new(), Vec::new());
    for &f in changed {
        stage.loose_references(raw.loose_refs.of_file(f), &mut said);
    }
    stage.definitions(
        &mut mini,
        declared,
        &mut Big::of(raw),
        &mut triggers,
        &mut said,
    );
    let mut tops = Vec::new();
    for &f in changed {
        let before = triggers.len();
        let picks: Vec<(usize, ())> = raw
            .triggers
            .enumerate_file(f)
            .map(|(i, _)| (i, ()))
            .collect();
        stage.top_level_triggers(
            &mut List::Borrowed(&raw.triggers),
            &picks,
            &mut triggers,
            &mut said,
        );
        tops.push(triggers.len() - before);
    }
    let noted = stage.naming.take().unwrap_or_default().into_inner();
    (mini, triggers, tops, said, noted)
}

/// Where each of the changed files' triggers stands in the running content: a definition's at
/// its own's places, a file's top-level ones at that file's. `None` when a definition or file
/// has a different number of triggers (an added one any), or a trigger another `id`: then the
/// triggers after it move, and the whole content is resolved again.
fn trigger_places(
    last: &Content,
    mini: &Content,
    triggers: &[crate::content::Trigger],
    tops: &[usize],
    changed: &[FileId],
) -> Option<Vec<u32>> {
    let mut places = vec![u32::MAX; triggers.len()];
    let mut borne = |new: &[crate::content::TriggerRef], old: &[crate::content::TriggerRef]| {
        if new.len() != old.len() {
            return None;
        }
        for (n, o) in new.iter().zip(old) {
            places[n.0 as usize] = o.0;
        }
        Some(())
    };
    // An added definition bears none (every trigger after its would move).
    let none: &[crate::content::TriggerRef] = &[];
    for (id, item) in &mini.items {
        borne(
            &item.triggers,
            last.items.get(id).map_or(none, |i| &i.triggers),
        )?;
    }
    for (id, creature) in &mini.creatures {
        borne(
            &creature.triggers,
            last.creatures.get(id).map_or(none, |c| &c.triggers),
        )?;
    }
    // The top-level triggers come last, in the files' order.
    let first = last
        .triggers
        .partition_point(|t| !matches!(t.home, TriggerHome::TopLevel));
    let top = &last.triggers[first..];
    let mut next = triggers.len() - tops.iter().sum::<usize>();
    for (&f, &count) in changed.iter().zip(tops) {
        let start = top.partition_point(|t| t.span.file < f);
        let end = start + top[start..].partition_point(|t| t.span.file == f);
        if end - start != count {
            return None;
        }
        for (k, old) in (start..end).enumerate() {
            places[next + k] = (first + old) as u32;
        }
        next += count;
    }
    let same = places
        .iter()
        .zip(triggers)
        .all(|(&p, t)| p != u32::MAX && last.triggers[p as usize].id == t.id);
    same.then_some(places)
}

/// The changed files' definitions as they stand in the new content: their references to their
/// triggers moved to the triggers' places, each quest at its ordinal; the triggers (named by
/// file and line when they have no `id`, as a load names them) in the order `places` gives
/// theirs.
fn placed(
    mut part: Content,
    triggers: Vec<crate::content::Trigger>,
    places: &[u32],
    last: &Content,
    sources: &SourceMap,
) -> Content {
    let moved = |refs: &mut Vec<crate::content::TriggerRef>| {
        refs.iter_mut().for_each(|t| t.0 = places[t.0 as usize]);
    };
    for item in part.items.values_mut() {
        moved(&mut Arc::make_mut(item).triggers);
    }
    for creature in part.creatures.values_mut() {
        moved(&mut Arc::make_mut(creature).triggers);
    }
    // An added quest's ordinal is given when every quest is numbered again (`put_definitions`).
    for (id, quest) in &mut part.quests {
        if let Some(old) = last.quests.get(id) {
            Arc::make_mut(quest).ordinal = old.ordinal;
        }
    }
    part.triggers = triggers
        .into_iter()
        .zip(places)
        .map(|(mut t, &place)| {
            crate::content::name_by_place(&mut t, sources);
            kept_if_same(Arc::new(t), &last.triggers[place as usize])
        })
        .collect();
    // A definition the edit left as it was (the same text at the same place) is the running
    // version's: shared, not replaced, and not compared again by the reload's summary.
    fn same_as_before<T: PartialEq>(part: &mut Registry<T>, last: &Registry<T>) {
        for (id, def) in part.iter_mut() {
            if let Some(old) = last.get(id) {
                *def = kept_if_same(def.clone(), old);
            }
        }
    }
    each_registry!(same_as_before(&mut part, &last));
    part
}

/// `old` when `new` equals it, else `new`.
fn kept_if_same<T: PartialEq>(new: Arc<T>, old: &Arc<T>) -> Arc<T> {
    if *new == **old {
        old.clone()
    } else {
        new
    }
}

/// Puts the changed files' definitions (`part`) in place of theirs, those they add among them
/// and those they removed (or that fail now) out; their triggers at their places; a quest in its
/// ordinal's place and among its event's listeners (every quest numbered again when one came or
/// went), a top-level trigger among its event's.
fn put_definitions(
    content: &mut Content,
    last: &Content,
    part: &Content,
    places: &[u32],
    changes: &Changes,
) {
    // The lists a listener left or joined, marked again once all are in place.
    let (mut quest_lists, mut trigger_lists) = (BTreeSet::new(), BTreeSet::new());
    let quests = &changes.quests;
    let quests_came_or_went = !quests.added.is_empty()
        || !quests.removed.is_empty()
        || !quests.failed.is_empty()
        || part.quests.keys().any(|id| !last.quests.contains_key(id));
    for (id, quest) in part.quests.iter().filter(|_| !quests_came_or_went) {
        let old = &last.quests[id];
        let listener = Listener::new(quest.ordinal, &quest.when, &quest.condition, None);
        relisten(&mut content.quests_by_event, old.on.0, quest.on.0, listener);
        quest_lists.extend([old.on.0, quest.on.0]);
        content.quest_defs[quest.ordinal as usize] = quest.clone();
    }
    for (t, &place) in part.triggers.iter().zip(places) {
        let old = &content.triggers[place as usize];
        if matches!(t.home, TriggerHome::TopLevel) {
            let listener = Listener::new(place, &t.when, &t.condition, t.chance);
            relisten(&mut content.top_level, old.on.0, t.on.0, listener);
            trigger_lists.extend([old.on.0, t.on.0]);
        }
        content.triggers[place as usize] = t.clone();
    }
    for k in quest_lists {
        crate::content::listen::mark_same(&mut content.quests_by_event[k as usize]);
    }
    for k in trigger_lists {
        crate::content::listen::mark_same(&mut content.top_level[k as usize]);
    }
    fn put<T>(to: &mut Registry<T>, from: &Registry<T>) {
        to.extend(from.iter().map(|(id, d)| (id.clone(), d.clone())));
    }
    each_registry!(put(&mut content, &part));
    fn take_out<T>(from: &mut Registry<T>, ids: &Ids) {
        for id in ids.removed.iter().chain(&ids.failed) {
            from.remove(id);
        }
    }
    each_registry!(take_out(&mut content, &changes));
    if quests_came_or_went {
        index_quests(content);
    }
}

/// The running version's definitions of the changed files, as `part` holds the new ones, and
/// those they removed or that fail now: what they did, to compare.
fn was(
    last: &Content,
    part: &Content,
    places: &[u32],
    changes: &Changes,
    ext: &Extensions,
) -> Content {
    let mut was = blank(Vec::new(), last.events.clone(), ext);
    fn same<T>(was: &mut Registry<T>, (keys, from): (&Registry<T>, &Registry<T>)) {
        let old = keys
            .keys()
            .filter_map(|id| Some((id.clone(), from.get(id)?.clone())));
        was.extend(old);
    }
    let both = (part, last);
    each_registry!(same(&mut was, (&both.0, &both.1)));
    fn gone<T>(was: &mut Registry<T>, (ids, from): (&Ids, &Registry<T>)) {
        let old = (ids.removed.iter().chain(&ids.failed))
            .filter_map(|id| Some((id.clone(), from.get(id)?.clone())));
        was.extend(old);
    }
    let both = (changes, last);
    each_registry!(gone(&mut was, (&both.0, &both.1)));
    was.triggers = places
        .iter()
        .map(|&p| last.triggers[p as usize].clone())
        .collect();
    was
}

/// The events the new content emits: those `last` emitted and the changed files' now, when the
/// changed files emit every event they emitted (`was`); else found over the whole content.
fn emitted_after(
    last: &Content,
    was: &Content,
    part: &Content,
    content: &Content,
) -> BTreeSet<crate::content::EventKey> {
    let now = emitted_by(part);
    if emitted_by(was).is_subset(&now) {
        let mut all = last.emitted.clone();
        all.extend(now);
        all
    } else {
        emitted_by(content)
    }
}

/// Moves the listener of the same definition (`listener.of`) from event `from` to `to`, in
/// place when the event is the same; each event's listeners stay in their definitions' order.
fn relisten(by_event: &mut [Vec<Listener>], from: u32, to: u32, listener: Listener) {
    let of = listener.of;
    let at = |list: &Vec<Listener>| list.binary_search_by_key(&of, |l| l.of);
    if from == to {
        if let Ok(i) = at(&by_event[from as usize]) {
            by_event[from as usize][i] = listener;
            return;
        }
    }
    if let Ok(i) = at(&by_event[from as usize]) {
        by_event[from as usize].remove(i);
    }
    let list = &mut by_event[to as usize];
    let i = at(list).unwrap_or_else(|i| i);
    list.insert(i, listener);
}

/// An override whose definitions are in a changed file, placed where their IDs are written now.
fn move_override(o: &mut Override, spans: &Spans) {
    for side in [&mut o.span, &mut o.replaced] {
        if let Some(&now) = spans.get(&(o.kind, o.id.clone(), side.file)) {
            *side = now;
        }
    }
}
