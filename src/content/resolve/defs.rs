//! Resolving each kind of definition (items, creatures, quests, encounters, and the checks over
//! the whole: modifier cycles, empty random pools); `assemble` puts them together into the
//! [`Content`].

use super::fields::{within, MOST};
use super::symbols::Visibility;
use super::vocabulary::{actions, conditions, no_actions, trigger};
use super::{Cx, RefKind};
use crate::content::raw::*;
use crate::content::raw_defs::Src;
use crate::content::spanned::Spanned;
use crate::content::vocab;
use crate::content::*;
use crate::content::{Content, ModInfo};
use crate::diag::Code;
use crate::diag::{Diagnostic, Span};
use crate::id::Id;
use std::collections::{BTreeMap, BTreeSet};

/// A modifier's condition sees attributes as everything else does, modifiers included, so a
/// modifier whose condition reads the attribute it changes (itself, or through other modifiers)
/// would have no value: each such cycle is an error at the first modifier on it, naming the cycle.
pub(super) fn modifier_cycles(content: &Content, diags: &mut Vec<Diagnostic>) {
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
pub(super) fn empty_random_pools(content: &Content, diags: &mut Vec<Diagnostic>) {
    empty_random_pools_of(content, content, diags);
}

/// [`empty_random_pools`] of the actions `actions` holds, over the items and rarities of
/// `content` (a reload's check of the definitions it resolved again, when no item's tags or
/// rarity changed).
pub(super) fn empty_random_pools_of(
    actions: &Content,
    content: &Content,
    diags: &mut Vec<Diagnostic>,
) {
    actions.each_action(|entry| {
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
        let tagged: Vec<&Item> = content
            .items
            .values()
            .map(|i| &**i)
            .filter(|i| i.tags.contains(tag))
            .collect();
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
pub(super) fn visibility(mods: &[ModInfo]) -> Visibility {
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

fn name_or(name: &Option<String>, id: &Id) -> crate::content::Name {
    name.clone().unwrap_or_else(|| id.name().to_string()).into()
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

pub(super) fn home_triggers(
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

pub(super) fn item(cx: &mut Cx, id: &Id, src: &Src<RawItem>, all: &mut Vec<Trigger>) -> Item {
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
                attribute: attribute.to_string(),
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

pub(super) fn creature(
    cx: &mut Cx,
    id: &Id,
    src: &Src<RawCreature>,
    all: &mut Vec<Trigger>,
) -> Creature {
    let r = &src.raw;
    // The raw table's keys are in order and each once, so the list is too. A name is shown at
    // its value, as a condition's unknown key is.
    let mut known = Vec::new();
    for (name, value) in r.attributes.get_ref() {
        let spanned = Spanned::new(value.span(), name.clone());
        if let Some(a) = cx.attribute(&spanned) {
            known.push((a, value));
        }
    }
    debug_assert!(known.is_sorted_by(|a, b| a.0 < b.0));
    within(cx, "health", "", &r.health, 1, MOST);
    let attributes = known
        .into_iter()
        .map(|(name, value)| (name, within(cx, name, "the attributes", value, -MOST, MOST)))
        .collect();
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

pub(super) fn quest(cx: &mut Cx, id: &Id, src: &Src<RawQuest>) -> Option<Quest> {
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

pub(super) fn encounter(cx: &mut Cx, id: &Id, src: &Src<RawEncounter>) -> Encounter {
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
                text: o.text.clone().into(),
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
            }
        })
        .collect();
    Encounter {
        id: id.clone(),
        title: r.title.clone().into(),
        description: r.description.clone(),
        weight,
        condition: conditions(cx, &r.condition),
        options,
        span,
    }
}

/// The events some `emit_event` action of the content names.
pub(super) fn emitted_by(
    content: &Content,
) -> std::collections::BTreeSet<crate::content::EventKey> {
    let mut emitted = std::collections::BTreeSet::new();
    content.each_action(|entry| {
        if let crate::content::Action::EmitEvent { event, .. } = &entry.action {
            emitted.insert(*event);
        }
    });
    emitted
}
