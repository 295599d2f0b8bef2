//! Actions: the built-in ones, the game's own and those a script registers, with an
//! `emit_event` payload checked against its event.

use super::named::{host_args, host_declared, internal_action, registered};
use super::{left_out, typed_value, who, ACTIONS};
use crate::content::event::{EventKey, Value};
use crate::content::raw::{RawActions, RawEntry};
use crate::content::resolve::fields::Entry;
use crate::content::resolve::{Cx, RefKind};
use crate::content::spanned::Spanned;
use crate::content::{Action, ActionEntry, ActionList};
use crate::diag::Code;
use crate::diag::{did_you_mean, Diagnostic};

pub(in crate::content::resolve) fn actions(cx: &mut Cx, raw: &RawActions) -> ActionList {
    let span = cx.span(raw.span());
    let actions = raw.get_ref().iter().filter_map(|a| action(cx, a)).collect();
    ActionList { actions, span }
}

/// An empty action list located at `span`, for optional lists that were not written.
pub(in crate::content::resolve) fn no_actions(span: crate::diag::Span) -> ActionList {
    ActionList {
        actions: Vec::new(),
        span,
    }
}

pub(in crate::content::resolve) fn action(cx: &mut Cx, raw: &RawEntry) -> Option<ActionEntry> {
    let span = cx.span(raw.span());
    let mut head = Entry::new(raw.get_ref(), span, "an action".into());
    let name = head.str(cx, "action")?;
    if left_out(cx, &name, "action") {
        return None;
    }
    let mut e = Entry::new(raw.get_ref(), span, format!("action `{}`", name.get_ref()));
    e.allow(&["action"]);
    let action = match name.get_ref().as_str() {
        "damage" => {
            let amount = e.int(cx, "amount");
            let damage_type = e
                .opt_str(cx, "damage_type")
                .map_or(Some("physical".to_string()), |t| cx.damage_type(&t));
            let target = who(cx, &mut e, "target");
            amount
                .zip(damage_type)
                .map(|(amount, damage_type)| Action::Damage {
                    amount,
                    damage_type,
                    target,
                })
        }
        "heal" => {
            let amount = e.int(cx, "amount");
            let target = who(cx, &mut e, "target");
            amount.map(|amount| Action::Heal { amount, target })
        }
        "give_item" | "take_item" => item(cx, &mut e, name.get_ref() == "give_item"),
        "give_random_items" => give_random_items(cx, &mut e),
        "take_random_items" => {
            let tag = e
                .str(cx, "tag")
                .and_then(|t| cx.reference(RefKind::Tag, &t));
            let rarity = e.opt_str(cx, "rarity").and_then(|r| cx.rarity(&r));
            let count = e.count(cx, "count", 1);
            let target = who(cx, &mut e, "target");
            tag.map(|tag| Action::TakeRandomItems {
                tag,
                rarity,
                count,
                target,
            })
        }
        "damage_random_items" => damage_random_items(cx, &mut e),
        "start_quest" => e
            .str(cx, "quest")
            .and_then(|q| cx.reference(RefKind::Quest, &q))
            .map(|quest| Action::StartQuest { quest }),
        "unlock_card" => {
            let card = e
                .str(cx, "card")
                .and_then(|c| cx.reference(RefKind::Card, &c));
            let count = e.count(cx, "count", 1);
            card.map(|card| Action::UnlockCard { card, count })
        }
        "set_die" => set_die(cx, &mut e),
        "emit_event" => emit_event(cx, &mut e),
        _ => return named(cx, e, &name),
    };
    e.finish(cx);
    action.map(|action| ActionEntry { action, span })
}

/// `give_item` or `take_item`: an item, a count and who gives or takes.
fn item(cx: &mut Cx, e: &mut Entry, give: bool) -> Option<Action> {
    let item = e
        .str(cx, "item")
        .and_then(|i| cx.reference(RefKind::Item, &i));
    let count = e.count(cx, "count", 1);
    let target = who(cx, e, "target");
    item.map(|item| {
        if give {
            Action::GiveItem {
                item,
                count,
                target,
            }
        } else {
            Action::TakeItem {
                item,
                count,
                target,
            }
        }
    })
}

/// `give_random_items`: items of a tag, their rarity bounded below and above (in that order).
fn give_random_items(cx: &mut Cx, e: &mut Entry) -> Option<Action> {
    let tag = e
        .str(cx, "tag")
        .and_then(|t| cx.reference(RefKind::Tag, &t));
    let count = e.count(cx, "count", 1);
    let min_rarity = e.opt_str(cx, "min_rarity").and_then(|r| cx.rarity(&r));
    let max_rarity = e.opt_str(cx, "max_rarity").and_then(|r| cx.rarity(&r));
    let target = who(cx, e, "target");
    if let (Some(lo), Some(hi)) = (&min_rarity, &max_rarity) {
        if cx.syms.rarities[lo] > cx.syms.rarities[hi] {
            cx.diags.push(
                Diagnostic::error(
                    Code::ContentRule,
                    format!("`min_rarity` {lo} is above `max_rarity` {hi}"),
                )
                .at(e.span),
            );
        }
    }
    tag.map(|tag| Action::GiveRandomItems {
        tag,
        count,
        min_rarity,
        max_rarity,
        target,
    })
}

/// `damage_random_items`: a property of items of a tag lowered; nothing to damage is a warning.
fn damage_random_items(cx: &mut Cx, e: &mut Entry) -> Option<Action> {
    let tag = e
        .str(cx, "tag")
        .and_then(|t| cx.reference(RefKind::Tag, &t));
    let property = e.str(cx, "property");
    let amount = e.int(cx, "amount");
    // EC6: damaging no towers (a count or an amount of zero or less) does nothing, by the
    // seed's design; it loads, with a warning in case it was not meant.
    let count = e.opt_int(cx, "count").unwrap_or(1);
    for (key, value) in [("count", count), ("amount", amount.unwrap_or(1))] {
        if value <= 0 {
            cx.diags.push(
                Diagnostic::warning(
                    Code::ContentRule,
                    format!("`damage_random_items` with `{key} = {value}` does nothing"),
                )
                .at(e.span),
            );
        }
    }
    let count = u32::try_from(count.max(0)).unwrap_or(0);
    let target = who(cx, e, "target");
    match (tag, property, amount) {
        (Some(tag), Some(property), Some(amount)) => Some(Action::DamageRandomItems {
            tag,
            property: property.into_inner(),
            amount,
            count,
            target,
        }),
        _ => None,
    }
}

/// `set_die`: a hazard die's face (`x` for a blank), its state, or both.
fn set_die(cx: &mut Cx, e: &mut Entry) -> Option<Action> {
    let die = e.count(cx, "die", 1);
    let face = e.opt_str(cx, "face").and_then(|f| {
        if f.get_ref() == "x" {
            return Some(None);
        }
        let names: Vec<&str> = crate::content::Color::NAMES
            .iter()
            .copied()
            .chain(["x"])
            .collect();
        cx.vocabulary("die face", &f, &names)
            .and_then(|c| crate::content::Color::parse(&c))
            .map(Some)
    });
    let state = e.opt_str(cx, "state").and_then(|s| {
        cx.vocabulary("die state", &s, crate::content::DieState::NAMES)
            .and_then(|s| crate::content::DieState::parse(&s))
    });
    if e.raw("face").is_none() && e.raw("state").is_none() {
        cx.diags.push(
            Diagnostic::error(
                Code::ContentRule,
                "action `set_die` needs `face`, `state` or both",
            )
            .at(e.span),
        );
        return None;
    }
    Some(Action::SetDie { die, face, state })
}

/// `emit_event`: a declared event, its payload checked against the declaration, and an
/// optional target.
fn emit_event(cx: &mut Cx, e: &mut Entry) -> Option<Action> {
    let event = e.str(cx, "event").and_then(|ev| cx.emitted(&ev));
    let target = e.raw("target").is_some().then(|| who(cx, e, "target"));
    e.allow(&["target", "payload"]);
    let payload = match (event, e.raw("payload")) {
        (Some(event), Some(p)) => payload(cx, event, p),
        _ => Some(Vec::new()),
    };
    event
        .zip(payload)
        .map(|(event, payload)| Action::EmitEvent {
            event,
            payload,
            target,
        })
}

/// An action named by a mod: the game's own (its arguments checked against its parameters) or
/// one a script registers (every other key an argument for the script).
fn named(cx: &mut Cx, mut e: Entry, name: &Spanned<String>) -> Option<ActionEntry> {
    let span = e.span;
    if let Some(d) = host_declared(cx, name, "action") {
        let (id, index) = (d.id, d.index);
        if d.internal {
            return internal_action(cx, &id, name);
        }
        let args = host_args(cx, &mut e, &d.params);
        e.finish(cx);
        return args.map(|args| ActionEntry {
            action: Action::Game { id, index, args },
            span,
        });
    }
    let id = registered(cx, name, "action", ACTIONS, |s| &s.actions)?;
    let args = e.rest_as_args(cx);
    Some(ActionEntry {
        action: Action::Custom { id, args },
        span,
    })
}

/// Checks an `emit_event` payload against the event's declaration.
fn payload(
    cx: &mut Cx,
    event: EventKey,
    raw: &Spanned<toml::Value>,
) -> Option<Vec<(usize, Value)>> {
    let toml::Value::Table(table) = raw.get_ref() else {
        cx.diags.push(
            Diagnostic::error(
                Code::WrongType,
                "`payload` must be a table, such as `{ power = 3 }`",
            )
            .at(cx.span(raw.span())),
        );
        return None;
    };
    let events = cx.events;
    let def = events.get(event);
    let mut out = Vec::new();
    let mut ok = true;
    for (key, value) in table {
        let Some((index, ty)) = def.field(key) else {
            let names: Vec<&str> = def.payload.iter().map(|(n, _)| n.as_str()).collect();
            cx.diags.push(
                Diagnostic::error(
                    Code::UnknownReference,
                    format!("event `{}` has no payload field `{key}`", def.name),
                )
                .at(cx.span(raw.span()))
                .with_help_opt(
                    did_you_mean(key, names.iter().copied())
                        .or(Some(format!("its fields: {}", names.join(", ")))),
                ),
            );
            ok = false;
            continue;
        };
        match typed_value(cx, ty, value, raw.span()) {
            Some(v) => out.push((index, v)),
            None => ok = false,
        }
    }
    out.sort_by_key(|(i, _)| *i);
    ok.then_some(out)
}
