//! Conditions, actions, `when` filters and triggers: the shared vocabulary, read from generic tables.

mod action;
mod check;
mod named;

pub(super) use action::{action, actions, no_actions};
/// One condition read alone: the editor schema's probe of what keys a check knows.
#[cfg(feature = "cli")]
pub(super) use check::condition;
pub(super) use check::conditions;

use super::fields::{plain_value, Entry};
use super::{Cx, RefKind};
use crate::content::event::{EventKey, Value};
use crate::content::raw::RawTrigger;
use crate::content::spanned::Spanned;
use crate::content::vocab::FieldType;
use crate::content::{Trigger, TriggerHome, Who};
use crate::diag::Code;
use crate::diag::{did_you_mean, Diagnostic};
use crate::id::Id;

pub(super) const CHECKS: &[&str] = &[
    "has_tag",
    "attribute",
    "has_item",
    "health_below",
    "quest",
    "is_player",
    "setting",
];
pub(super) const ACTIONS: &[&str] = &[
    "damage",
    "heal",
    "give_item",
    "take_item",
    "give_random_items",
    "take_random_items",
    "damage_random_items",
    "start_quest",
    "emit_event",
    "unlock_card",
    "set_die",
];

/// The built-in checks and actions that are the roguelike's creature-and-inventory vocabulary,
/// which a game may leave out ([`crate::host::Vocabulary::without_creatures`]).
pub(super) const CREATURE_CHECKS: &[&str] = &[
    "has_tag",
    "attribute",
    "has_item",
    "health_below",
    "is_player",
];
/// The first seven of [`ACTIONS`].
pub(super) const CREATURE_ACTIONS: &[&str] = ACTIONS.split_at(7).0;

/// Reports a creature check or action in a game that left them out; `true` when it did.
fn left_out(cx: &mut Cx, name: &Spanned<String>, kind: &str) -> bool {
    let rules = cx.syms.rules.clone();
    let builtin = if kind == "check" {
        CREATURE_CHECKS
    } else {
        CREATURE_ACTIONS
    };
    if !rules.without_creatures || !builtin.contains(&name.get_ref().as_str()) {
        return false;
    }
    let own: Vec<String> = if kind == "check" {
        rules.checks.keys().map(Id::to_string).collect()
    } else {
        rules
            .public_actions()
            .map(|(id, _)| id.to_string())
            .collect()
    };
    cx.diags.push(
        Diagnostic::error(Code::UnknownReference, format!(
            "{kind} `{}` is lantern's creature-and-inventory vocabulary, which the game `{}` does not use",
            name.get_ref(),
            rules.namespace
        ))
        .at(cx.span(name.span()))
        .with_help(format!("the game's {kind}s: {}", own.join(", "))),
    );
    true
}

fn who(cx: &mut Cx, e: &mut Entry, key: &'static str) -> Who {
    let Some(text) = e.opt_str(cx, key) else {
        return Who::Bearer;
    };
    match Who::parse(text.get_ref()) {
        Some(w) => w,
        None => {
            cx.vocabulary(&format!("`{key}` value"), &text, Who::NAMES);
            Who::Bearer
        }
    }
}
/// Converts a TOML scalar to a payload value of the declared type, resolving IDs.
fn typed_value(
    cx: &mut Cx,
    ty: FieldType,
    value: &toml::Value,
    at: std::ops::Range<usize>,
) -> Option<Value> {
    let Some(plain) = plain_value(value) else {
        cx.diags.push(
            Diagnostic::error(
                Code::WrongType,
                format!("expected a {}, found {}", ty.name(), value.type_str()),
            )
            .at(cx.span(at)),
        );
        return None;
    };
    if !plain.fits(ty) {
        cx.diags.push(
            Diagnostic::error(
                Code::WrongType,
                format!(
                    "expected a {}, found {} {plain}",
                    ty.name(),
                    plain.type_name()
                ),
            )
            .at(cx.span(at)),
        );
        return None;
    }
    let text = || Spanned::new(at.clone(), value.as_str().unwrap_or_default().to_string());
    let id = |cx: &mut Cx, kind| cx.reference(kind, &text()).map(|id| Value::id(&id));
    if let Some(kind) = RefKind::of(ty) {
        return id(cx, kind);
    }
    match ty {
        FieldType::DamageType => cx.damage_type(&text()).map(|t| Value::str(&t)),
        FieldType::Float => Some(match plain {
            Value::Int(i) => Value::Float(i as f64),
            other => other,
        }),
        _ => Some(plain),
    }
}

/// A `when` filter: each field must be one the event carries, with a value of its type.
pub(super) fn when(
    cx: &mut Cx,
    event: EventKey,
    raw: Option<&Spanned<crate::content::raw::EntryMap>>,
) -> Vec<(usize, Value)> {
    let Some(raw) = raw else { return Vec::new() };
    let events = cx.events;
    let def = events.get(event);
    let mut out = Vec::new();
    for (key, value) in raw.get_ref() {
        let Some((index, ty)) = def.field(key) else {
            let names: Vec<&str> = def.payload.iter().map(|(n, _)| n.as_str()).collect();
            let help = did_you_mean(key, names.iter().copied()).or_else(|| {
                Some(if names.is_empty() {
                    format!(
                        "`{}` carries no payload, so `when` cannot filter it",
                        def.name
                    )
                } else {
                    format!("`{}` carries: {}", def.name, names.join(", "))
                })
            });
            cx.diags.push(
                Diagnostic::error(
                    Code::UnknownReference,
                    format!(
                        "`when` field `{key}` is not carried by event `{}`",
                        def.name
                    ),
                )
                .at(cx.span(value.span()))
                .with_help_opt(help),
            );
            continue;
        };
        if let Some(v) = typed_value(cx, ty, value.get_ref(), value.span()) {
            out.push((index, v));
        }
    }
    out
}

/// Resolves a trigger standing at `home`.
pub(super) fn trigger(
    cx: &mut Cx,
    t: &RawTrigger,
    span: crate::diag::Span,
    home: TriggerHome,
) -> Option<Trigger> {
    let on = cx.event(&t.on);
    let id = t.id.as_ref().and_then(|id| {
        Id::parse(id.get_ref(), &cx.ns).or_else(|| {
            cx.diags.push(
                Diagnostic::error(
                    Code::InvalidId,
                    format!("`{}` is not a valid trigger ID", id.get_ref()),
                )
                .at(cx.span(id.span())),
            );
            None
        })
    });
    let when = on
        .map(|on| when(cx, on, t.when.as_ref()))
        .unwrap_or_default();
    let condition = conditions(cx, &t.condition);
    let chance = t.chance.as_ref().and_then(|c| {
        let value = c.get_ref().0;
        if (0.0..=1.0).contains(&value) {
            Some(value)
        } else {
            cx.diags.push(
                Diagnostic::error(
                    Code::OutOfRange,
                    format!("`chance` must be between 0 and 1, found {value}"),
                )
                .at(cx.span(c.span()))
                .with_help("0.2 means a 20 % chance"),
            );
            None
        }
    });
    let actions = actions(cx, &t.actions);
    let key = match &id {
        Some(id) => id.to_string(),
        None => String::new(), // filled in by the caller, who knows the file's display path
    };
    on.map(|on| Trigger {
        stream: format!("trigger:{key}"),
        key,
        id,
        home,
        on,
        when,
        condition,
        chance,
        actions,
        span,
        line: t.line,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_creature_vocabulary_is_the_head_of_the_built_in_lists() {
        assert_eq!(
            CREATURE_CHECKS,
            [
                "has_tag",
                "attribute",
                "has_item",
                "health_below",
                "is_player"
            ]
        );
        // The split falls after the last item action, before `start_quest`.
        assert_eq!(CREATURE_ACTIONS.first(), Some(&"damage"));
        assert_eq!(CREATURE_ACTIONS.last(), Some(&"damage_random_items"));
        assert_eq!(ACTIONS[CREATURE_ACTIONS.len()], "start_quest");
    }
}
