//! The first stage of resolution: every ID of every kind declared (duplicates and overrides
//! reported), the symbols later stages look names up in, the rarity levels, the mods' renames,
//! and the event table (the engine's events, the game's, the mods' own).

use super::symbols::{declare, Symbols, Visibility};
use super::Cx;
use crate::content::by_file::ByFile;
use crate::content::event::{EventDef, EventTable, WorldSees};
use crate::content::raw_defs::{RawDefs, Src};
use crate::content::vocab::{self, FieldType};
use crate::content::{Extensions, ModInfo, Override, Rarity};
use crate::diag::Code;
use crate::diag::{Diagnostic, Span};
use crate::id::Id;
use std::collections::BTreeMap;

/// The winning definition of every ID, by kind: the index of its raw entry.
#[derive(Default)]
pub(super) struct Declared {
    pub tags: BTreeMap<Id, usize>,
    pub items: Picks,
    pub creatures: Picks,
    pub quests: Picks,
    pub encounters: BTreeMap<Id, usize>,
    pub progress_types: BTreeMap<Id, usize>,
    pub hazards: BTreeMap<Id, usize>,
    pub cards: BTreeMap<Id, usize>,
    pub event_types: BTreeMap<Id, usize>,
    /// Each of the game's tables (by its index in the vocabulary) with its winners, by their
    /// index in `RawDefs::host`.
    pub host: Vec<(usize, BTreeMap<Id, usize>)>,
}

/// The winners of a kind resolved file by file, in the order of their entries: each entry's
/// index, and its ID with the ID's rank among the kind's (what the resolved definitions are put
/// back in ID order by, without comparing IDs again: `assemble::in_id_order`).
#[derive(Default)]
pub(super) struct Picks {
    pub picks: Vec<(usize, (usize, Id))>,
}

impl Picks {
    /// The winners, by ID, of a list of `len` entries. The map is let go as it is read.
    pub(super) fn of(winners: BTreeMap<Id, usize>, len: usize) -> Picks {
        let ranked = winners.into_iter().enumerate();
        if ranked.len().saturating_mul(8) < len {
            // A few winners of many entries (a patch's): sorted.
            let mut picks: Vec<_> = ranked.map(|(rank, (id, i))| (i, (rank, id))).collect();
            picks.sort_unstable_by_key(|&(i, _)| i);
            return Picks { picks };
        }
        // Each ID put at its entry's place, then read in that order: no sort.
        let mut at: Vec<Option<(usize, Id)>> = Vec::new();
        at.resize_with(len, || None);
        for (rank, (id, i)) in ranked {
            if let Some(slot) = at.get_mut(i) {
                *slot = Some((rank, id));
            }
        }
        let picks = at.into_iter().enumerate();
        Picks {
            picks: picks.filter_map(|(i, pick)| Some((i, pick?))).collect(),
        }
    }
}

/// Declares every ID of every kind ([`declare`]: duplicates and overrides are reported there),
/// and the symbols the rest of resolution looks names up in.
pub(super) fn declare_all(
    raw: &RawDefs,
    ext: &Extensions,
    visibility: &Visibility,
    overrides: &mut Vec<Override>,
    diags: &mut Vec<Diagnostic>,
    runs: (usize, usize),
) -> (Symbols, Declared) {
    let mut syms = Symbols {
        actions: ext.actions.clone(),
        checks: ext.checks.clone(),
        broken: raw
            .broken
            .iter()
            .filter_map(|(_, ns, id, why)| Id::parse(id, ns).map(|id| (id, *why)))
            .collect(),
        failed_scripts: ext.failed.clone(),
        scriptless: ext.scriptless.clone(),
        reachable: visibility.reachable.clone(),
        rules: ext.declared.clone(),
        ..Symbols::default()
    };
    let (tags, items, creatures, quests, encounters, progress_types, hazards, cards) =
        declare_kinds(raw, visibility, runs);
    macro_rules! declare_kind {
        ($pending:expr, $table:ident) => {{
            let (winners, table, mut said_overrides, said) = $pending;
            overrides.append(&mut said_overrides);
            diags.extend(said);
            syms.$table = std::sync::Arc::new(table);
            winners
        }};
    }
    let tags = declare_kind!(tags, tags);
    let items = declare_kind!(items, items);
    let creatures = declare_kind!(creatures, creatures);
    let quests = declare_kind!(quests, quests);
    let encounters = declare_kind!(encounters, encounters);
    let progress_types = declare_kind!(progress_types, progress_types);
    let hazards = declare_kind!(hazards, hazards);
    let cards = declare_kind!(cards, cards);
    let host = declare_tables(raw, ext, visibility, &mut syms, overrides, diags);
    let event_types = declare(
        "event type",
        &raw.event_types,
        |r| &r.id,
        visibility,
        overrides,
        diags,
    );
    let declared = Declared {
        tags,
        items,
        creatures,
        quests,
        encounters,
        progress_types,
        hazards,
        cards,
        event_types,
        host,
    };
    (syms, declared)
}

/// What declaring a kind said: its winners as resolution reads them, its symbols, the
/// overrides and the diagnostics.
type Said<W> = (W, BTreeMap<Id, Span>, Vec<Override>, Vec<Diagnostic>);

/// Every kind of built-in definition declared; a kind of many entries (at least `runs.1`) on a
/// thread of its own while this one goes on (with `runs.0` above one). What each kind says is
/// taken in the kinds' order, so it reads as one thread's.
#[allow(clippy::type_complexity)]
fn declare_kinds(
    raw: &RawDefs,
    visibility: &Visibility,
    runs: (usize, usize),
) -> (
    Said<BTreeMap<Id, usize>>,
    Said<Picks>,
    Said<Picks>,
    Said<Picks>,
    Said<BTreeMap<Id, usize>>,
    Said<BTreeMap<Id, usize>>,
    Said<BTreeMap<Id, usize>>,
    Said<BTreeMap<Id, usize>>,
) {
    let (threads, from) = runs;
    std::thread::scope(|scope| {
        // Each kind's job makes its table of symbols too, and `then` makes of its winners
        // what resolution reads.
        macro_rules! start {
            ($kind:expr, $list:ident) => {
                start!($kind, $list, |winners, _| winners)
            };
            ($kind:expr, $list:ident, $then:expr) => {{
                let list = &raw.$list;
                let job = move || {
                    let (mut overrides, mut diags) = (Vec::new(), Vec::new());
                    let winners = declare(
                        $kind,
                        list,
                        |r| &r.id,
                        visibility,
                        &mut overrides,
                        &mut diags,
                    );
                    let table: BTreeMap<Id, Span> = winners
                        .iter()
                        .map(|(id, &i)| {
                            let src = &list[i];
                            (id.clone(), Span::new(src.file, src.raw.id.span()))
                        })
                        .collect();
                    (($then)(winners, list.len()), table, overrides, diags)
                };
                if threads > 1 && list.len() >= from {
                    Pending::Started(scope.spawn(job))
                } else {
                    Pending::Done(job())
                }
            }};
        }
        let started = (
            start!("tag", tags),
            start!("item", items, Picks::of),
            start!("creature", creatures, Picks::of),
            start!("quest", quests, Picks::of),
            start!("encounter", encounters),
            start!("progress type", progress_types),
            start!("hazard", hazards),
            start!("card", cards),
        );
        (
            started.0.finish(),
            started.1.finish(),
            started.2.finish(),
            started.3.finish(),
            started.4.finish(),
            started.5.finish(),
            started.6.finish(),
            started.7.finish(),
        )
    })
}

/// The game's own tables: each kind declared on its own, as the built-in kinds are; each table
/// (by its index in the vocabulary) with its winners, by their index in `RawDefs::host`.
fn declare_tables(
    raw: &RawDefs,
    ext: &Extensions,
    visibility: &Visibility,
    syms: &mut Symbols,
    overrides: &mut Vec<Override>,
    diags: &mut Vec<Diagnostic>,
) -> Vec<(usize, BTreeMap<Id, usize>)> {
    let mut host = Vec::new();
    for (t, decl) in ext.declared.tables.iter().enumerate() {
        let positions: Vec<usize> = (0..raw.host.len())
            .filter(|&i| raw.host[i].0 == t)
            .collect();
        let entries: Vec<&Src<crate::content::raw_defs::HostEntry>> =
            positions.iter().map(|&i| &raw.host[i].1).collect();
        let winners = declare_refs(decl.kind, &entries, visibility, overrides, diags);
        let ids = syms.host.entry(decl.kind).or_default();
        let mut kept = BTreeMap::new();
        for (id, j) in winners {
            let src = entries[j];
            ids.insert(id.clone(), Span::new(src.file, src.raw.id.span()));
            kept.insert(id, positions[j]);
        }
        host.push((t, kept));
    }
    host
}

/// Rarity levels: engine-like vocabulary, bare names declared once, ordered by rank.
pub(super) fn rarities(
    raw: &RawDefs,
    syms: &mut Symbols,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Rarity> {
    let mut rarities: Vec<Rarity> = Vec::new();
    for src in &raw.rarities {
        let id = src.raw.id.get_ref();
        let span = Span::new(src.file, src.raw.id.span());
        if !crate::id::is_ident(id) {
            diags.push(
                Diagnostic::error(
                    Code::InvalidId,
                    format!("`{id}` is not a valid rarity name"),
                )
                .at(span)
                .with_help("rarity names have no namespace: `white`, `blue`"),
            );
            continue;
        }
        if let Some(prev) = rarities.iter().find(|r| r.id == *id) {
            diags.push(
                Diagnostic::error(Code::Duplicate, format!("rarity `{id}` is declared twice"))
                    .at(span)
                    .with_label(prev.span, "first declared here"),
            );
            continue;
        }
        syms.rarities.insert(id.clone(), src.raw.rank);
        rarities.push(Rarity {
            id: id.clone(),
            name: src.raw.name.clone().unwrap_or_else(|| id.clone()).into(),
            rank: src.raw.rank,
            ns: src.ns.to_string(),
            span,
        });
    }
    rarities.sort_by(|a, b| a.rank.cmp(&b.rank).then_with(|| a.id.cmp(&b.id)));
    rarities
}

/// The event table: the engine's events, the game's, then the mods' custom ones (they come
/// first among definitions: everything else names events).
pub(super) fn event_table(
    raw: &RawDefs,
    event_types: &BTreeMap<Id, usize>,
    syms: &Symbols,
    ext: &Extensions,
    diags: &mut Vec<Diagnostic>,
) -> EventTable {
    let mut custom_events = Vec::new();
    // The events are what this makes: a payload's types name none.
    let no_events = EventTable::new(Vec::new());
    for (id, &i) in event_types {
        let src = &raw.event_types[i];
        let mut cx = Cx::new(syms, &no_events, diags, &src.ns, src.file, None);
        if vocab::ENGINE_EVENTS.iter().any(|e| e.name == id.name()) {
            cx.diags.push(
                Diagnostic::warning(
                    Code::ContentRule,
                    format!(
                        "custom event `{id}` shares its name with the engine event `{}`",
                        id.name()
                    ),
                )
                .at(Span::new(src.file, src.raw.id.span()))
                .with_help(format!(
                    "a bare `{}` in `on` means the engine event; write `{id}` for this one",
                    id.name()
                )),
            );
        }
        let mut payload = Vec::new();
        for (field, ty) in src.raw.payload.get_ref() {
            // A type is a built-in one or a kind of the game's tables (the roguelike's `room`).
            let host_kind = ext.declared.tables.iter().find(|t| t.kind == ty.get_ref());
            match FieldType::from_name(ty.get_ref()).or(host_kind.map(|t| FieldType::Host(t.kind)))
            {
                Some(t) => payload.push((field.clone(), t)),
                None => {
                    let kinds = ext.declared.tables.iter().map(|t| t.kind);
                    let names: Vec<&str> = FieldType::DECLARABLE
                        .iter()
                        .map(|(n, _)| *n)
                        .chain(kinds)
                        .collect();
                    cx.vocabulary("payload type", ty, &names);
                }
            }
        }
        custom_events.push(EventDef {
            name: id.to_string(),
            world: WorldSees::Every,
            payload,
            description: src.raw.description.clone(),
            span: Some(Span::new(src.file, src.raw.id.span())),
        });
    }
    EventTable::with_game(host_events(ext, diags), custom_events)
}

/// A kind's declaration, done or under way on a thread of its own.
enum Pending<'scope, T> {
    Started(std::thread::ScopedJoinHandle<'scope, T>),
    Done(T),
}

impl<T> Pending<'_, T> {
    fn finish(self) -> T {
        match self {
            Pending::Started(h) => h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)),
            Pending::Done(t) => t,
        }
    }
}

/// [`declare`] over borrowed entries of a game's table.
fn declare_refs(
    kind: &'static str,
    entries: &[&Src<crate::content::raw_defs::HostEntry>],
    visibility: &Visibility,
    overrides: &mut Vec<Override>,
    diags: &mut Vec<Diagnostic>,
) -> BTreeMap<Id, usize> {
    let mut list: ByFile<Src<&crate::content::raw_defs::HostEntry>> = ByFile::default();
    list.extend(entries.iter().map(|e| Src {
        ns: e.ns.clone(),
        file: e.file,
        span: e.span,
        raw: &e.raw,
    }));
    declare(kind, &list, |r| &r.id, visibility, overrides, diags)
}

/// The game's events as event definitions, after checking each against the engine's names (the
/// kinds of their payload fields are checked with the rest of the vocabulary, by `rules()`).
fn host_events(ext: &Extensions, diags: &mut Vec<Diagnostic>) -> Vec<EventDef> {
    let defs = &ext.declared;
    let mut out = Vec::new();
    for e in &defs.events {
        if vocab::ENGINE_EVENTS
            .iter()
            .any(|engine| engine.name == e.name)
        {
            diags.push(Diagnostic::error(
                Code::Vocabulary,
                format!(
                    "in the game's vocabulary: the event `{}` is one of lantern's own",
                    e.name
                ),
            ));
            continue;
        }
        out.push(EventDef {
            name: e.name.clone(),
            world: WorldSees::Every,
            payload: e.payload.clone(),
            description: e.doc.to_string(),
            span: None,
        });
    }
    out
}

/// A mod's `[renames]`: each new name is one of its definitions and each old one is not any
/// more (a warning at the line otherwise: a save read with it would lose or confuse the thing).
pub(super) fn renames(mods: &[ModInfo], syms: &Symbols, diags: &mut Vec<Diagnostic>) {
    let defined = |id: &Id| {
        [
            &syms.items,
            &syms.creatures,
            &syms.quests,
            &syms.encounters,
            &syms.cards,
            &syms.tags,
            &syms.hazards,
            &syms.progress_types,
        ]
        .iter()
        .any(|kind| kind.contains_key(id))
            || syms.host.values().any(|kind| kind.contains_key(id))
    };
    for m in mods {
        for (old, new, at) in &m.renames {
            let said = if !defined(new) {
                format!("`[renames]` renames `{old}` to `{new}`, which the mod does not define")
            } else if defined(old) {
                format!("`[renames]` renames `{old}` to `{new}`, but the mod still defines `{old}`")
            } else {
                continue;
            };
            diags.push(
                Diagnostic::warning(crate::diag::Code::Manifest, said)
                    .at(*at)
                    .with_help(
                        "a save made with an older version reads the old name as the new one",
                    ),
            );
        }
    }
}
