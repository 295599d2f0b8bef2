//! Resolving each kind of definition, and assembling the [`Content`] with its indexes.

use super::fields::{within, MOST};
use super::symbols::{declare, Symbols, Visibility};
use super::vocabulary::{actions, conditions, no_actions, trigger};
use super::{Cx, RefKind};
use crate::content::event::{EventDef, EventTable, WorldSees};
use crate::content::parse::{RawDefs, Src};
use crate::content::raw::*;
use crate::content::vocab::{self, FieldType};
use crate::content::*;
use crate::content::{Content, Extensions, ModInfo};
use crate::diag::Code;
use crate::diag::{Diagnostic, Span};
use crate::id::Id;
use std::collections::{BTreeMap, BTreeSet};
use toml::Spanned;

/// [`declare`] over borrowed entries of a game's table.
fn declare_refs(
    kind: &'static str,
    entries: &[&Src<crate::content::parse::HostEntry>],
    visibility: &Visibility,
    overrides: &mut Vec<Override>,
    diags: &mut Vec<Diagnostic>,
) -> BTreeMap<Id, usize> {
    let list: Vec<Src<&crate::content::parse::HostEntry>> = entries
        .iter()
        .map(|e| Src {
            ns: e.ns.clone(),
            file: e.file,
            span: e.span,
            raw: &e.raw,
        })
        .collect();
    declare(kind, &list, |r| &r.id, visibility, overrides, diags)
}

/// The game's Rust handlers by event key; a handler of an event that does not exist is an error
/// in the game's vocabulary.
fn host_handlers(
    ext: &Extensions,
    events: &EventTable,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Vec<usize>> {
    let handlers = &ext.host.defs().handlers;
    if handlers.is_empty() {
        return Vec::new();
    }
    let mut by_event = vec![Vec::new(); events.len()];
    for (i, (name, _)) in handlers.iter().enumerate() {
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

/// The game's events as event definitions, after checking each against the engine's names (the
/// kinds of their payload fields are checked with the rest of the vocabulary, by `rules()`).
fn host_events(ext: &Extensions, diags: &mut Vec<Diagnostic>) -> Vec<EventDef> {
    let defs = ext.host.defs();
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
            custom: None,
            payload: e.payload.clone(),
            description: e.doc.to_string(),
            span: None,
        });
    }
    out
}

pub fn resolve_all(
    raw: RawDefs,
    mods: Vec<ModInfo>,
    ext: &Extensions,
    diags: &mut Vec<Diagnostic>,
) -> Content {
    let visibility = visibility(&mods);
    let mut overrides = Vec::new();
    let mut syms = Symbols {
        actions: ext.actions.clone(),
        checks: ext.checks.clone(),
        broken: raw
            .broken
            .iter()
            .filter_map(|(ns, id, why)| Id::parse(id, ns).map(|id| (id, *why)))
            .collect(),
        failed_scripts: ext.failed.clone(),
        rules: ext.host.clone(),
        ..Symbols::default()
    };

    macro_rules! declare_kind {
        ($kind:expr, $list:ident, $table:ident) => {{
            let winners = declare(
                $kind,
                &raw.$list,
                |r| &r.id,
                &visibility,
                &mut overrides,
                diags,
            );
            for (id, &i) in &winners {
                let src = &raw.$list[i];
                syms.$table
                    .insert(id.clone(), Span::new(src.file, src.raw.id.span()));
            }
            winners
        }};
    }
    let tags = declare_kind!("tag", tags, tags);
    let items = declare_kind!("item", items, items);
    let creatures = declare_kind!("creature", creatures, creatures);
    let quests = declare_kind!("quest", quests, quests);
    let encounters = declare_kind!("encounter", encounters, encounters);
    let progress_types = declare_kind!("progress type", progress_types, progress_types);
    let hazards = declare_kind!("hazard", hazards, hazards);
    let cards = declare_kind!("card", cards, cards);
    // The game's own tables: each kind declared on its own, as the built-in kinds are.
    let mut host_winners = Vec::new();
    for (t, decl) in ext.host.defs().tables.iter().enumerate() {
        let positions: Vec<usize> = (0..raw.host.len())
            .filter(|&i| raw.host[i].0 == t)
            .collect();
        let entries: Vec<&Src<crate::content::parse::HostEntry>> =
            positions.iter().map(|&i| &raw.host[i].1).collect();
        let winners = declare_refs(decl.kind, &entries, &visibility, &mut overrides, diags);
        let ids = syms.host.entry(decl.kind).or_default();
        let mut kept = BTreeMap::new();
        for (id, j) in winners {
            let src = entries[j];
            ids.insert(id.clone(), Span::new(src.file, src.raw.id.span()));
            kept.insert(id, positions[j]);
        }
        host_winners.push((t, kept));
    }
    let event_types = declare(
        "event type",
        &raw.event_types,
        |r| &r.id,
        &visibility,
        &mut overrides,
        diags,
    );

    // Rarity levels are engine-like vocabulary: bare names, declared once.
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
            name: src.raw.name.clone().unwrap_or_else(|| id.clone()),
            rank: src.raw.rank,
            span,
        });
    }
    rarities.sort_by(|a, b| a.rank.cmp(&b.rank).then_with(|| a.id.cmp(&b.id)));

    // Event types come first: everything else names events.
    let mut custom_events = Vec::new();
    for (id, &i) in &event_types {
        let src = &raw.event_types[i];
        let mut cx = Cx {
            syms: &syms,
            events: &EventTable::new(Vec::new()),
            diags,
            ns: src.ns.clone(),
            file: src.file,
        };
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
            let host_kind = ext
                .host
                .defs()
                .tables
                .iter()
                .find(|t| t.kind == ty.get_ref());
            match FieldType::from_name(ty.get_ref()).or(host_kind.map(|t| FieldType::Host(t.kind)))
            {
                Some(t) => payload.push((field.clone(), t)),
                None => {
                    let kinds = ext.host.defs().tables.iter().map(|t| t.kind);
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
            custom: Some(id.clone()),
            payload,
            description: src.raw.description.clone(),
            span: Some(Span::new(src.file, src.raw.id.span())),
        });
    }
    let events = EventTable::with_host(host_events(ext, diags), custom_events);

    let mut content = Content {
        mods,
        tags: BTreeMap::new(),
        rarities,
        items: BTreeMap::new(),
        creatures: BTreeMap::new(),
        quests: BTreeMap::new(),
        encounters: BTreeMap::new(),
        progress_types: BTreeMap::new(),
        hazards: BTreeMap::new(),
        cards: BTreeMap::new(),
        triggers: Vec::new(),
        top_level: Vec::new(),
        quests_by_event: Vec::new(),
        borne_listen: Vec::new(),
        quest_defs: Vec::new(),
        trigger_ids: BTreeMap::new(),
        overrides,
        events: events.clone(),
        files: raw.files,
        host: ext.host.clone(),
        tables: Default::default(),
        entry_triggers: BTreeMap::new(),
        host_handlers: host_handlers(ext, &events, diags),
    };
    for (t, winners) in &host_winners {
        let kind = ext.host.defs().tables[*t].kind;
        for (id, &i) in winners {
            let src = &raw.host[i].1;
            let mut cx = Cx::new(&syms, &events, diags, &src.ns, src.file);
            for (ty, text) in &src.raw.refs {
                if let Some(kind) = RefKind::of(*ty) {
                    cx.reference(kind, text);
                }
            }
            for rule in &ext.host.defs().tables[*t].validate {
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
                Span::new(src.file, src.raw.id.span()),
            );
        }
    }
    for src in &raw.loose_refs {
        let mut cx = Cx::new(&syms, &events, diags, &src.ns, src.file);
        for (ty, text) in &src.raw {
            if let Some(kind) = RefKind::of(*ty) {
                cx.reference(kind, text);
            }
        }
    }
    let mut triggers: Vec<Trigger> = Vec::new();
    // The triggers the game's entries carry, each resolved as a room's.
    for (t, winners) in &host_winners {
        let kind = ext.host.defs().tables[*t].kind;
        for (id, &i) in winners {
            let src = &raw.host[i].1;
            if src.raw.triggers.is_empty() {
                continue;
            }
            let mut cx = Cx::new(&syms, &events, diags, &src.ns, src.file);
            let home = TriggerHome::Entry(kind, id.clone());
            let refs = home_triggers(&mut cx, &src.raw.triggers, home, &mut triggers);
            content.entry_triggers.insert((kind, id.clone()), refs);
        }
    }

    for (id, &i) in &tags {
        let src = &raw.tags[i];
        content.tags.insert(
            id.clone(),
            Tag {
                id: id.clone(),
                name: src
                    .raw
                    .name
                    .clone()
                    .unwrap_or_else(|| id.name().to_string()),
                description: src.raw.description.clone(),
                span: Span::new(src.file, src.raw.id.span()),
            },
        );
    }
    for (id, &i) in &items {
        let src = &raw.items[i];
        let mut cx = Cx::new(&syms, &events, diags, &src.ns, src.file);
        let item = item(&mut cx, id, src, &mut triggers);
        content.items.insert(id.clone(), item);
    }
    for (id, &i) in &creatures {
        let src = &raw.creatures[i];
        let mut cx = Cx::new(&syms, &events, diags, &src.ns, src.file);
        let creature = creature(&mut cx, id, src, &mut triggers);
        content.creatures.insert(id.clone(), creature);
    }
    for (id, &i) in &quests {
        let src = &raw.quests[i];
        let mut cx = Cx::new(&syms, &events, diags, &src.ns, src.file);
        if let Some(quest) = quest(&mut cx, id, src) {
            content.quests.insert(id.clone(), quest);
        }
    }
    for (id, &i) in &encounters {
        let src = &raw.encounters[i];
        let mut cx = Cx::new(&syms, &events, diags, &src.ns, src.file);
        content
            .encounters
            .insert(id.clone(), encounter(&mut cx, id, src));
    }
    for (id, &i) in &progress_types {
        let src = &raw.progress_types[i];
        let name = src
            .raw
            .name
            .clone()
            .unwrap_or_else(|| id.name().to_string());
        content.progress_types.insert(
            id.clone(),
            crate::content::ProgressType {
                id: id.clone(),
                name,
                span: Span::new(src.file, src.raw.id.span()),
            },
        );
    }
    for (id, &i) in &hazards {
        let src = &raw.hazards[i];
        let mut cx = Cx::new(&syms, &events, diags, &src.ns, src.file);
        if let Some(h) = super::hazard::hazard(&mut cx, id, src) {
            content.hazards.insert(id.clone(), h);
        }
    }
    for (id, &i) in &cards {
        let src = &raw.cards[i];
        let mut cx = Cx::new(&syms, &events, diags, &src.ns, src.file);
        if let Some(c) = super::hazard::card(&mut cx, id, src) {
            content.cards.insert(id.clone(), c);
        }
    }
    for src in &raw.triggers {
        let mut cx = Cx::new(&syms, &events, diags, &src.ns, src.file);
        if let Some(t) = trigger(&mut cx, &src.raw, src.span, TriggerHome::TopLevel) {
            triggers.push(t);
        }
    }

    // Named triggers must be unique: `why`, tests and overrides address them.
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

    // Index: top-level triggers and quests by the event they listen to.
    content.top_level = vec![Vec::new(); events.len()];
    content.borne_listen = vec![false; events.len()];
    for (i, t) in triggers.iter().enumerate() {
        match t.home {
            TriggerHome::TopLevel => content.top_level[t.on.0 as usize].push(TriggerRef(i as u32)),
            TriggerHome::Item(_) | TriggerHome::Creature(_) => {
                content.borne_listen[t.on.0 as usize] = true
            }
            TriggerHome::Entry(..) => {}
        }
    }
    content.quests_by_event = vec![Vec::new(); events.len()];
    for (ordinal, q) in content.quests.values_mut().enumerate() {
        q.ordinal = ordinal as u32;
        content.quests_by_event[q.on.0 as usize].push(ordinal as u32);
    }
    content.quest_defs = content.quests.values().cloned().collect();
    content.triggers = triggers;

    modifier_cycles(&content, diags);
    empty_random_pools(&content, diags);
    content
}

/// A modifier's condition sees attributes as everything else does, modifiers included, so a
/// modifier whose condition reads the attribute it changes (itself, or through other modifiers)
/// would have no value: each such cycle is an error at the first modifier on it, naming the cycle.
fn modifier_cycles(content: &Content, diags: &mut Vec<Diagnostic>) {
    // attribute -> (the attribute a condition of one of its modifiers reads, that modifier)
    let mut reads: BTreeMap<&str, Vec<(&str, &Modifier)>> = BTreeMap::new();
    for item in content.items.values() {
        for m in &item.modifiers {
            for cond in &m.condition {
                let read = match &cond.check {
                    crate::content::Check::Attribute { attribute, .. } => attribute.as_str(),
                    crate::content::Check::HealthBelow { .. } => "max_health",
                    _ => continue,
                };
                reads
                    .entry(m.attribute.as_str())
                    .or_default()
                    .push((read, m));
            }
        }
    }
    let mut reported: BTreeSet<Vec<&str>> = BTreeSet::new();
    for start in reads.keys().copied() {
        // Depth first from `start`, looking for a way back to it: `path` holds the edges taken.
        let mut path: Vec<(&str, &Modifier)> = Vec::new();
        let mut stack: Vec<(&str, usize)> = vec![(start, 0)];
        let mut on_path = BTreeSet::from([start]);
        while let Some((at, next)) = stack.pop() {
            let edges = reads.get(at).map(Vec::as_slice).unwrap_or(&[]);
            let Some(&(to, m)) = edges.get(next) else {
                on_path.remove(at);
                path.pop();
                continue;
            };
            stack.push((at, next + 1));
            if to == start {
                let mut cycle: Vec<(&str, &Modifier)> = path.clone();
                cycle.push((at, m));
                let members: BTreeSet<&str> = cycle.iter().map(|(a, _)| *a).collect();
                if !reported.insert(members.into_iter().collect()) {
                    continue;
                }
                let first = cycle[0].1;
                let names = cycle
                    .iter()
                    .map(|(a, _)| *a)
                    .chain([start])
                    .collect::<Vec<_>>()
                    .join(" -> ");
                diags.push(
                    Diagnostic::error(Code::ContentRule, format!(
                        "this modifier of `{}` depends on what it changes: {names}",
                        first.attribute
                    ))
                    .at(first.span)
                    .with_help("a modifier's condition sees attributes with every modifier applied, so it cannot ask about the attribute it changes"),
                );
            } else if on_path.insert(to) {
                path.push((at, m));
                stack.push((to, 0));
            }
        }
    }
}

/// EC5: a `give_random_items` whose pool is empty (no item has the tag within the rarity range)
/// could never give anything; the loader can see it, so it says so, at the action.
fn empty_random_pools(content: &Content, diags: &mut Vec<Diagnostic>) {
    content.each_action(|entry| {
        let crate::content::Action::GiveRandomItems {
            tag,
            min_rarity,
            max_rarity,
            ..
        } = &entry.action
        else {
            return;
        };
        let rank = |r: &Option<String>| r.as_ref().and_then(|r| content.rarity_rank(r));
        let (lo, hi) = (rank(min_rarity), rank(max_rarity));
        let tagged: Vec<&Item> = content.items.values().filter(|i| i.tags.contains(tag)).collect();
        let in_range = tagged.iter().any(|i| {
            let r = i.rarity.as_ref().and_then(|r| content.rarity_rank(r));
            lo.is_none_or(|lo| r.is_some_and(|r| r >= lo))
                && hi.is_none_or(|hi| r.is_some_and(|r| r <= hi))
        });
        if in_range {
            return;
        }
        let range = match (min_rarity, max_rarity) {
            (Some(lo), Some(hi)) => format!(" from {lo} to {hi}"),
            (Some(lo), None) => format!(" of {lo} or rarer"),
            (None, Some(hi)) => format!(" of {hi} or commoner"),
            (None, None) => String::new(),
        };
        let message = if tagged.is_empty() {
            format!("`give_random_items` could never give anything: no item is tagged `{tag}`")
        } else {
            format!(
                "`give_random_items` could never give anything: no item tagged `{tag}` has a rarity{range}"
            )
        };
        diags.push(Diagnostic::error(Code::ContentRule, message).at(entry.span));
    });
}

/// Which mods each mod may override: the transitive closure of `depends` and `optional`.
fn visibility(mods: &[ModInfo]) -> Visibility {
    let direct: BTreeMap<&str, Vec<&str>> = mods
        .iter()
        .map(|m| (m.id.as_str(), m.deps.iter().map(String::as_str).collect()))
        .collect();
    let mut reachable = BTreeMap::new();
    for m in mods {
        let mut seen: BTreeSet<String> = BTreeSet::new();
        let mut stack: Vec<&str> = direct.get(m.id.as_str()).cloned().unwrap_or_default();
        while let Some(next) = stack.pop() {
            if seen.insert(next.to_string()) {
                stack.extend(direct.get(next).cloned().unwrap_or_default());
            }
        }
        reachable.insert(m.id.clone(), seen);
    }
    Visibility { reachable }
}

fn name_or(name: &Option<String>, id: &Id) -> String {
    name.clone().unwrap_or_else(|| id.name().to_string())
}

fn tags(cx: &mut Cx, list: &[Spanned<String>]) -> Vec<Id> {
    list.iter()
        .filter_map(|t| cx.reference(RefKind::Tag, t))
        .collect()
}

fn stacks(cx: &mut Cx, list: &[Spanned<RawStack>]) -> Vec<(Id, u32)> {
    list.iter()
        .filter_map(|s| {
            let s = s.get_ref();
            let count = *s.count.get_ref();
            if !(1..=MOST).contains(&count) {
                within(cx, "count", "", &s.count, 1, MOST);
                return None;
            }
            cx.reference(RefKind::Item, &s.item)
                .map(|id| (id, count as u32))
        })
        .collect()
}

fn home_triggers(
    cx: &mut Cx,
    list: &[Spanned<RawTrigger>],
    home: TriggerHome,
    all: &mut Vec<Trigger>,
) -> Vec<TriggerRef> {
    let mut refs = Vec::new();
    for raw in list {
        let span = cx.span(raw.span());
        if let Some(t) = trigger(cx, raw.get_ref(), span, home.clone()) {
            refs.push(TriggerRef(all.len() as u32));
            all.push(t);
        }
    }
    refs
}

fn item(cx: &mut Cx, id: &Id, src: &Src<RawItem>, all: &mut Vec<Trigger>) -> Item {
    let r = &src.raw;
    let stack = match &r.stack {
        None => 1,
        Some(s) => within(cx, "stack", "", s, 1, MOST) as u32,
    };
    let at_id = |v: i64| Spanned::new(r.id.span(), v);
    let mut properties = r.properties.clone();
    for (name, v) in properties.iter_mut() {
        *v = within(
            cx,
            name,
            &format!("the properties of `{id}`"),
            &at_id(*v),
            -MOST,
            MOST,
        );
    }
    let damage = within(cx, "damage", "", &at_id(r.damage.unwrap_or(0)), 0, MOST);
    let slot = r
        .slot
        .as_ref()
        .and_then(|s| cx.vocabulary("slot", s, vocab::SLOTS));
    let modifiers = r
        .modifiers
        .iter()
        .filter_map(|m| {
            let add = within(
                cx,
                "add",
                "a modifier",
                &Spanned::new(m.span(), m.get_ref().add),
                -MOST,
                MOST,
            );
            let span = cx.span(m.span());
            let m = m.get_ref();
            let attribute = cx.attribute(&m.attribute);
            let condition = conditions(cx, &m.condition);
            attribute.map(|attribute| Modifier {
                attribute,
                add,
                condition,
                span,
            })
        })
        .collect();
    Item {
        id: id.clone(),
        name: name_or(&r.name, id),
        description: r.description.clone(),
        tags: tags(cx, &r.tags),
        stack,
        rarity: r.rarity.as_ref().and_then(|x| cx.rarity(x)),
        properties,
        slot,
        damage,
        damage_type: r
            .damage_type
            .as_ref()
            .and_then(|t| cx.damage_type(t))
            .unwrap_or_else(|| "physical".into()),
        modifiers,
        triggers: home_triggers(cx, &r.triggers, TriggerHome::Item(id.clone()), all),
        on_use: r.on_use.as_ref().map(|a| actions(cx, a)),
        consumable: r.consumable,
        span: Span::new(src.file, r.id.span()),
    }
}

fn creature(cx: &mut Cx, id: &Id, src: &Src<RawCreature>, all: &mut Vec<Trigger>) -> Creature {
    let r = &src.raw;
    let mut attributes = BTreeMap::new();
    for (name, value) in r.attributes.get_ref() {
        let spanned = Spanned::new(r.attributes.span(), name.clone());
        if let Some(a) = cx.attribute(&spanned) {
            attributes.insert(a, *value);
        }
    }
    within(cx, "health", "", &r.health, 1, MOST);
    for (name, value) in attributes.iter_mut() {
        let spanned = Spanned::new(r.attributes.span(), *value);
        *value = within(cx, name, "the attributes", &spanned, -MOST, MOST);
    }
    let damage = within(
        cx,
        "damage",
        "",
        &Spanned::new(r.id.span(), r.damage),
        0,
        MOST,
    );
    let ai =
        r.ai.iter()
            .filter_map(|rule| {
                let span = cx.span(rule.span());
                let rule = rule.get_ref();
                let condition = conditions(cx, &rule.condition);
                let act = match (&rule.act, &rule.actions) {
                    (Some(act), None) => match act.get_ref().as_str() {
                        "attack" => Some(AiAct::Attack),
                        "wait" => Some(AiAct::Wait),
                        _ => {
                            cx.vocabulary("AI act", act, &["attack", "wait"]);
                            None
                        }
                    },
                    (None, Some(list)) => Some(AiAct::Actions(actions(cx, list))),
                    _ => {
                        cx.diags.push(
                            Diagnostic::error(
                                Code::ContentRule,
                                "an AI rule needs exactly one of `do` or `actions`",
                            )
                            .at(span),
                        );
                        None
                    }
                };
                act.map(|act| AiRule { condition, act })
            })
            .collect();
    Creature {
        id: id.clone(),
        name: name_or(&r.name, id),
        description: r.description.clone(),
        tags: tags(cx, &r.tags),
        health: (*r.health.get_ref()).max(1),
        attributes,
        damage,
        damage_type: r
            .damage_type
            .as_ref()
            .and_then(|t| cx.damage_type(t))
            .unwrap_or_else(|| "physical".into()),
        items: stacks(cx, &r.items),
        triggers: home_triggers(cx, &r.triggers, TriggerHome::Creature(id.clone()), all),
        ai,
        talk: r.talk.as_ref().map(|a| actions(cx, a)),
        span: Span::new(src.file, r.id.span()),
    }
}

fn quest(cx: &mut Cx, id: &Id, src: &Src<RawQuest>) -> Option<Quest> {
    let r = &src.raw;
    let on = cx.event(&r.on);
    let when = on
        .map(|on| super::vocabulary::when(cx, on, r.when.as_ref()))
        .unwrap_or_default();
    let condition = conditions(cx, &r.condition);
    let count = match &r.count {
        None => 1,
        Some(c) => within(cx, "count", "", c, 1, MOST) as u32,
    };
    let span = Span::new(src.file, r.id.span());
    let actions = r
        .actions
        .as_ref()
        .map(|a| actions(cx, a))
        .unwrap_or_else(|| no_actions(src.span));
    on.map(|on| Quest {
        id: id.clone(),
        name: name_or(&r.name, id),
        description: r.description.clone(),
        on,
        when,
        condition,
        count,
        actions,
        stream: format!("quest:{id}"),
        ordinal: 0,
        span,
    })
}

fn encounter(cx: &mut Cx, id: &Id, src: &Src<RawEncounter>) -> Encounter {
    let r = &src.raw;
    let span = Span::new(src.file, r.id.span());
    let weight = match &r.weight {
        None => 1.0,
        Some(w) if w.get_ref().0 >= 0.0 && w.get_ref().0.is_finite() => w.get_ref().0,
        Some(w) => {
            cx.diags.push(
                Diagnostic::error(
                    Code::OutOfRange,
                    format!("`weight` must be zero or more, found {}", w.get_ref().0),
                )
                .at(cx.span(w.span())),
            );
            1.0
        }
    };
    if r.options.is_empty() {
        cx.diags.push(
            Diagnostic::error(
                Code::ContentRule,
                format!("encounter `{id}` has no options"),
            )
            .at(span)
            .with_help("add at least one `[[encounters.options]]` with a `text`"),
        );
    }
    let options = r
        .options
        .iter()
        .map(|o| {
            let ospan = cx.span(o.span());
            let o = o.get_ref();
            let probability = match &o.probability {
                None => 1.0,
                Some(p) if (0.0..=1.0).contains(&p.get_ref().0) => p.get_ref().0,
                Some(p) => {
                    cx.diags.push(
                        Diagnostic::error(
                            Code::OutOfRange,
                            format!(
                                "`probability` must be between 0 and 1, found {}",
                                p.get_ref().0
                            ),
                        )
                        .at(cx.span(p.span()))
                        .with_help("0.7 means the rewards come 70 % of the time"),
                    );
                    1.0
                }
            };
            EncounterOption {
                text: o.text.clone(),
                requirements: conditions(cx, &o.requirements),
                costs: o
                    .costs
                    .as_ref()
                    .map(|a| actions(cx, a))
                    .unwrap_or_else(|| no_actions(ospan)),
                probability,
                rewards: o
                    .rewards
                    .as_ref()
                    .map(|a| actions(cx, a))
                    .unwrap_or_else(|| no_actions(ospan)),
                span: ospan,
            }
        })
        .collect();
    Encounter {
        id: id.clone(),
        title: r.title.clone(),
        description: r.description.clone(),
        weight,
        condition: conditions(cx, &r.condition),
        options,
        span,
    }
}
