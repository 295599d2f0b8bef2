//! Conditions, actions, `when` filters and triggers: the shared vocabulary, read from generic tables.

use super::fields::{plain_value, Entry};
use super::{Cx, RefKind};
use crate::content::event::{EventKey, Value};
use crate::content::raw::{RawActions, RawEntry, RawTrigger};
use crate::content::spanned::Spanned;
use crate::content::vocab::FieldType;
use crate::content::{Action, ActionEntry, ActionList};
use crate::content::{Check, Condition, ItemFilter, QuestState, Who};
use crate::content::{Trigger, TriggerHome};
use crate::diag::Code;
use crate::diag::{did_you_mean, Diagnostic};
use crate::id::Id;
use std::collections::BTreeMap;

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

pub(super) fn conditions(cx: &mut Cx, list: &[RawEntry]) -> Vec<Condition> {
    list.iter().filter_map(|c| condition(cx, c)).collect()
}

pub(super) fn condition(cx: &mut Cx, raw: &RawEntry) -> Option<Condition> {
    let span = cx.span(raw.span());
    let mut head = Entry::new(raw.get_ref(), span, "a condition".into());
    let name = head.str(cx, "check")?;
    if left_out(cx, &name, "check") {
        return None;
    }
    let mut e = Entry::new(raw.get_ref(), span, format!("check `{}`", name.get_ref()));
    e.allow(&["check"]);
    let negate = e.opt_bool(cx, "not").unwrap_or(false);
    let reason = e.opt_str(cx, "reason").map(|s| s.into_inner().into());
    let check = match name.get_ref().as_str() {
        "has_tag" => {
            let who = who(cx, &mut e, "who");
            let tag = e
                .str(cx, "value")
                .and_then(|t| cx.reference(RefKind::Tag, &t));
            tag.map(|tag| Check::HasTag { who, tag })
        }
        "attribute" => {
            let who = who(cx, &mut e, "who");
            let attribute = e.str(cx, "attribute").and_then(|a| cx.attribute(&a));
            let at_least = e.opt_int(cx, "at_least");
            let below = e.opt_int(cx, "below");
            let bound = match (at_least, below) {
                (Some(v), None) => Some((v, false)),
                (None, Some(v)) => Some((v, true)),
                _ => {
                    cx.diags.push(
                        Diagnostic::error(
                            Code::ContentRule,
                            "check `attribute` needs exactly one of `at_least` or `below`",
                        )
                        .at(span),
                    );
                    None
                }
            };
            attribute
                .zip(bound)
                .map(|(attribute, (value, below))| Check::Attribute {
                    who,
                    attribute: attribute.to_string(),
                    value,
                    below,
                })
        }
        "has_item" => {
            let who = who(cx, &mut e, "who");
            let item = e
                .opt_str(cx, "item")
                .and_then(|i| cx.reference(RefKind::Item, &i));
            let tag = e
                .opt_str(cx, "tag")
                .and_then(|t| cx.reference(RefKind::Tag, &t));
            let rarity = e.opt_str(cx, "rarity").and_then(|r| cx.rarity(&r));
            let count = e.count(cx, "count", 1);
            if e.raw("item").is_none() && e.raw("tag").is_none() {
                cx.diags.push(
                    Diagnostic::error(Code::ContentRule, "check `has_item` needs `item` or `tag`")
                        .at(span),
                );
                None
            } else if e.raw("item").is_some() && e.raw("tag").is_some() {
                cx.diags.push(
                    Diagnostic::error(
                        Code::ContentRule,
                        "check `has_item` takes `item` or `tag`, not both",
                    )
                    .at(span),
                );
                None
            } else if item.is_none() && tag.is_none() {
                None
            } else {
                Some(Check::HasItem {
                    who,
                    filter: ItemFilter { item, tag, rarity },
                    count,
                })
            }
        }
        "health_below" => {
            let who = who(cx, &mut e, "who");
            let fraction = e.float(cx, "fraction");
            if let Some(f) = &fraction {
                if !(0.0..=1.0).contains(f.get_ref()) {
                    cx.diags.push(
                        Diagnostic::error(
                            Code::OutOfRange,
                            format!("`fraction` must be between 0 and 1, found {}", f.get_ref()),
                        )
                        .at(cx.span(f.span()))
                        .with_help("0.3 means 30 % of the creature's maximum health"),
                    );
                }
            }
            fraction.map(|f| Check::HealthBelow {
                who,
                fraction: f.into_inner(),
            })
        }
        "is_player" => Some(Check::IsPlayer {
            who: who(cx, &mut e, "who"),
        }),
        "setting" => setting_check(cx, &mut e),
        "quest" => {
            let quest = e
                .str(cx, "quest")
                .and_then(|q| cx.reference(RefKind::Quest, &q));
            let state = e.str(cx, "state").and_then(|s| {
                cx.vocabulary("quest state", &s, QuestState::NAMES)
                    .and_then(|s| QuestState::parse(&s))
            });
            quest
                .zip(state)
                .map(|(quest, state)| Check::Quest { quest, state })
        }
        _ => {
            if let Some(d) = host_declared(cx, &name, "check") {
                let args = host_args(cx, &mut e, &d.params);
                e.finish(cx);
                let (id, index) = (d.id, d.index);
                return args.map(|args| Condition {
                    check: Check::Game { id, index, args },
                    negate,
                    reason,
                    span,
                });
            }
            let id = registered(cx, &name, "check", CHECKS, |s| &s.checks)?;
            // Every other key is an argument for the script, so none is unknown.
            let args = e.rest_as_args(cx);
            return Some(Condition {
                check: Check::Custom { id, args },
                negate,
                reason,
                span,
            });
        }
    };
    e.finish(cx);
    check.map(|check| Condition {
        check,
        negate,
        reason,
        span,
    })
}

/// `{ check = "setting", setting = "rats:rat_health", at_least = 5 }`: the setting must be
/// declared, and the comparison one its type takes (`at_least` or `below` for a number, `is`
/// for any, none for a `bool`).
fn setting_check(cx: &mut Cx, e: &mut Entry) -> Option<Check> {
    use crate::content::{SettingKind, SettingTest, SettingValue};
    let id = e
        .str(cx, "setting")
        .and_then(|s| cx.reference(super::RefKind::Setting, &s));
    let kind = id
        .as_ref()
        .and_then(|id| cx.syms.setting_kinds.get(id))
        .cloned();
    let given: Vec<&'static str> = ["at_least", "below", "is"]
        .into_iter()
        .filter(|k| e.raw(k).is_some())
        .collect();
    e.allow(&["at_least", "below", "is"]);
    let numeric = matches!(
        kind,
        Some(SettingKind::Int { .. } | SettingKind::Float { .. })
    );
    let refuse = |cx: &mut Cx, e: &Entry, message: String| {
        let at = (given.first().and_then(|k| e.raw(k))).map_or(e.span, |v| cx.span(v.span()));
        cx.diags
            .push(Diagnostic::error(Code::ContentRule, message).at(at));
        None
    };
    let (id, kind) = (id?, kind?);
    let test = match given.as_slice() {
        [] if kind == SettingKind::Bool => SettingTest::Is(SettingValue::Bool(true)),
        ["at_least" | "below"] if numeric => {
            let key = given[0];
            let raw = e.raw(key)?;
            let value = match raw.get_ref() {
                toml::Value::Integer(n) => *n as f64,
                toml::Value::Float(x) => *x,
                other => {
                    return refuse(
                        cx,
                        e,
                        format!(
                            "`{key}` in check `setting` must be a number, found {}",
                            other.type_str()
                        ),
                    )
                }
            };
            if key == "at_least" {
                SettingTest::AtLeast(value)
            } else {
                SettingTest::Below(value)
            }
        }
        ["at_least" | "below"] => {
            return refuse(
                cx,
                e,
                format!(
                    "`{}` compares numbers; setting `{id}` is {}: write `is = ...`",
                    given[0],
                    kind.a_type()
                ),
            )
        }
        ["is"] => {
            let raw = e.raw("is")?;
            let value = match raw.get_ref() {
                toml::Value::Boolean(b) => SettingValue::Bool(*b),
                toml::Value::Integer(n) => SettingValue::Int(*n),
                toml::Value::Float(x) => SettingValue::Float(*x),
                toml::Value::String(t) => SettingValue::Text(t.clone()),
                other => {
                    return refuse(
                        cx,
                        e,
                        format!(
                            "`is` in check `setting` must be a value, found {}",
                            other.type_str()
                        ),
                    )
                }
            };
            match kind.admit(value) {
                Ok(v) => SettingTest::Is(v),
                Err(why) => {
                    cx.diags.push(
                        Diagnostic::error(
                            Code::ContentRule,
                            format!("`is` compares setting `{id}` with a value it never takes: it {why}"),
                        )
                        .at(cx.span(raw.span())),
                    );
                    return None;
                }
            }
        }
        [] => {
            let how = if numeric {
                "`at_least`, `below` or `is`"
            } else {
                "`is`"
            };
            return refuse(
                cx,
                e,
                format!("check `setting` on `{id}` ({}) needs {how}", kind.a_type()),
            );
        }
        _ => {
            return refuse(
                cx,
                e,
                "check `setting` takes one of `at_least`, `below` and `is`".into(),
            )
        }
    };
    Some(Check::Setting { id, test })
}

/// The game's own action or check of this name (`farm:pay`), if it is one: its ID, parameters
/// and position among the game's code, and whether only the game's code performs it.
fn host_declared(cx: &Cx, name: &Spanned<String>, kind: &str) -> Option<Declared> {
    let id = Id::qualified(name.get_ref())?;
    let (id, sig) = cx.syms.rules.declared(&id, kind == "action")?;
    Some(Declared {
        id,
        params: sig.params.clone(),
        index: sig.index,
        internal: sig.internal,
    })
}

/// Refuses the game's internal action `id` written in content: only the game performs it.
fn internal_action<T>(cx: &mut Cx, id: &Id, name: &Spanned<String>) -> Option<T> {
    let offered: Vec<String> = (cx.syms.rules.public_actions())
        .map(|(id, _)| id.to_string())
        .collect();
    cx.diags.push(
        Diagnostic::error(
            Code::UnknownReference,
            format!("`{id}` is the game's own action, which only the game performs"),
        )
        .at(cx.span(name.span()))
        .with_help(format!(
            "the game's actions for mods: {}",
            offered.join(", ")
        )),
    );
    None
}

/// One of the game's actions or checks, as [`host_declared`] finds it.
struct Declared {
    id: Id,
    params: Vec<crate::content::declare::Param>,
    index: usize,
    internal: bool,
}

/// The game's action's or check's arguments, each checked against its parameter: a missing one,
/// one of the wrong type and an unknown ID are reported at their key (and `finish` reports the
/// keys no parameter names).
fn host_args(
    cx: &mut Cx,
    e: &mut Entry,
    params: &[crate::content::declare::Param],
) -> Option<BTreeMap<String, Value>> {
    let mut args = BTreeMap::new();
    let mut ok = true;
    for p in params {
        e.allow(&[p.name()]);
        let Some(raw) = e.raw(p.name()) else {
            if p.required {
                e.missing(p.name());
                ok = false;
            }
            continue;
        };
        if let Some(expected) = wrong_type(p.ty, raw.get_ref()) {
            let numeric = raw
                .get_ref()
                .as_str()
                .is_some_and(|t| t.parse::<f64>().is_ok());
            let help = (numeric && matches!(p.ty, FieldType::Int | FieldType::Float)).then(|| {
                format!(
                    "write the number without quotes: `{} = {}`",
                    p.name(),
                    raw.get_ref().as_str().unwrap_or_default()
                )
            });
            cx.diags.push(
                Diagnostic::error(
                    Code::WrongType,
                    format!(
                        "`{}` in {} must be {expected}, found {}",
                        p.name(),
                        e.what,
                        raw.get_ref().type_str()
                    ),
                )
                .at(cx.span(raw.span()))
                .with_help_opt(help),
            );
            ok = false;
            continue;
        }
        match typed_value(cx, p.ty, raw.get_ref(), raw.span()) {
            Some(v) if in_range(cx, e, p, &v, raw.span()) => {
                args.insert(p.name().to_string(), v);
            }
            _ => ok = false,
        }
    }
    ok.then_some(args)
}

/// Whether a number for `p` lies within the range it declares (a finite number, for a float);
/// reported at `at` when it does not. The same check holds for TOML and for a script's
/// `lantern.apply`, which this resolver reads too, so a game's code never sees a number it did
/// not declare (Harvest's `farm:pay` took `math.mininteger` from a script and panicked).
fn in_range(
    cx: &mut Cx,
    e: &Entry,
    p: &crate::content::declare::Param,
    v: &Value,
    at: std::ops::Range<usize>,
) -> bool {
    let Some(why) = p.out_of_range(v) else {
        return true;
    };
    cx.diags.push(
        Diagnostic::error(
            Code::OutOfRange,
            format!("`{}` in {} {why}", p.name(), e.what),
        )
        .at(cx.span(at)),
    );
    false
}

/// What a parameter of type `ty` must be, in words, when `value` is not it.
fn wrong_type(ty: FieldType, value: &toml::Value) -> Option<String> {
    let fits = match value {
        toml::Value::Integer(_) => matches!(ty, FieldType::Int | FieldType::Float),
        toml::Value::Float(_) => ty == FieldType::Float,
        toml::Value::Boolean(_) => ty == FieldType::Bool,
        toml::Value::String(_) => {
            !matches!(ty, FieldType::Int | FieldType::Float | FieldType::Bool)
        }
        _ => false,
    };
    (!fits).then(|| match ty {
        FieldType::Int => "an integer".to_string(),
        FieldType::Float => "a number".to_string(),
        FieldType::Bool => "true or false".to_string(),
        FieldType::String => "a string".to_string(),
        other => format!("the ID of a {} (a string)", other.name()),
    })
}

/// Resolves a namespaced name registered by Lua (`rats:is_night`), or reports it unknown.
fn registered(
    cx: &mut Cx,
    name: &Spanned<String>,
    kind: &str,
    builtins: &[&str],
    table: impl Fn(&super::Symbols) -> &std::collections::BTreeSet<Id>,
) -> Option<Id> {
    let span = cx.span(name.span());
    let text = name.get_ref();
    let registered = table(cx.syms);
    let rules = cx.syms.rules.clone();
    let host: Vec<String> = if kind == "action" {
        rules
            .public_actions()
            .map(|(id, _)| id.to_string())
            .collect()
    } else {
        rules.checks.keys().map(Id::to_string).collect()
    };
    if let Some(id) = Id::qualified(text) {
        if registered.contains(&id) {
            return Some(id);
        }
        if id.namespace() == rules.namespace {
            let help = did_you_mean(text, host.iter().map(String::as_str))
                .unwrap_or_else(|| format!("the game's {kind}s: {}", host.join(", ")));
            cx.diags.push(
                Diagnostic::error(
                    Code::UnknownReference,
                    format!("the game has no {kind} `{text}`"),
                )
                .at(span)
                .with_help(help),
            );
            return None;
        }
        if cx.syms.failed_scripts.contains(id.namespace()) {
            let message = format!(
                "`{id}` cannot be known: {}/scripts/main.lua, which would register it, failed (see above)",
                id.namespace()
            );
            cx.follow_on(span, message);
            return None;
        }
        let own = Id::parse(id.name(), &cx.ns).is_some_and(|own| registered.contains(&own));
        if cx.written_under_another_id(&id, span, own) {
            return None;
        }
        if cx.syms.scriptless.contains(id.namespace()) {
            // One message for the mod: every reference to what its script would register has
            // the same cause.
            let cause = format!("`{}` has no scripts/main.lua", id.namespace());
            if cx.first_of(&cause) {
                cx.diags.push(
                    Diagnostic::error(
                        Code::UnknownReference,
                        format!("{cause}, which would register the {kind} `{id}`"),
                    )
                    .at(span)
                    .once_per(cause.clone())
                    .with_help(format!(
                        "was it deleted or moved? every action and check of `{}` its data names \
                         is registered by that file",
                        id.namespace()
                    )),
                );
            }
            return None;
        }
        let help = did_you_mean(text, registered.iter().map(Id::as_str)).unwrap_or_else(|| {
            let article = if kind.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
            format!("{article} {kind} of a mod is registered by its Lua with `lantern.register_{kind}(\"{}\", fn)`", id.name())
        });
        cx.diags.push(
            Diagnostic::error(
                Code::UnknownReference,
                format!("unknown {kind} `{text}`: no script registers it"),
            )
            .at(span)
            .with_help(help),
        );
        return None;
    }
    let candidates = builtins
        .iter()
        .copied()
        .chain(host.iter().map(String::as_str))
        .chain(registered.iter().map(Id::as_str));
    let help = did_you_mean(text, candidates)
        .unwrap_or_else(|| format!("built-in {kind}s: {}", builtins.join(", ")));
    cx.diags.push(
        Diagnostic::error(Code::UnknownReference, format!("unknown {kind} `{text}`"))
            .at(span)
            .with_help(help),
    );
    None
}

pub(super) fn actions(cx: &mut Cx, raw: &RawActions) -> ActionList {
    let span = cx.span(raw.span());
    let actions = raw.get_ref().iter().filter_map(|a| action(cx, a)).collect();
    ActionList { actions, span }
}

/// An empty action list located at `span`, for optional lists that were not written.
pub(super) fn no_actions(span: crate::diag::Span) -> ActionList {
    ActionList {
        actions: Vec::new(),
        span,
    }
}

pub(super) fn action(cx: &mut Cx, raw: &RawEntry) -> Option<ActionEntry> {
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
        "give_item" | "take_item" => {
            let item = e
                .str(cx, "item")
                .and_then(|i| cx.reference(RefKind::Item, &i));
            let count = e.count(cx, "count", 1);
            let target = who(cx, &mut e, "target");
            item.map(|item| {
                if name.get_ref() == "give_item" {
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
        "give_random_items" => {
            let tag = e
                .str(cx, "tag")
                .and_then(|t| cx.reference(RefKind::Tag, &t));
            let count = e.count(cx, "count", 1);
            let min_rarity = e.opt_str(cx, "min_rarity").and_then(|r| cx.rarity(&r));
            let max_rarity = e.opt_str(cx, "max_rarity").and_then(|r| cx.rarity(&r));
            let target = who(cx, &mut e, "target");
            if let (Some(lo), Some(hi)) = (&min_rarity, &max_rarity) {
                if cx.syms.rarities[lo] > cx.syms.rarities[hi] {
                    cx.diags.push(
                        Diagnostic::error(
                            Code::ContentRule,
                            format!("`min_rarity` {lo} is above `max_rarity` {hi}"),
                        )
                        .at(span),
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
        "damage_random_items" => {
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
                        .at(span),
                    );
                }
            }
            let count = u32::try_from(count.max(0)).unwrap_or(0);
            let target = who(cx, &mut e, "target");
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
        "set_die" => {
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
                    .at(span),
                );
                None
            } else {
                Some(Action::SetDie { die, face, state })
            }
        }
        "emit_event" => {
            let event = e.str(cx, "event").and_then(|ev| cx.emitted(&ev));
            let target = e.raw("target").is_some().then(|| who(cx, &mut e, "target"));
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
        _ => {
            if let Some(d) = host_declared(cx, &name, "action") {
                let (id, index) = (d.id, d.index);
                if d.internal {
                    return internal_action(cx, &id, &name);
                }
                let args = host_args(cx, &mut e, &d.params);
                e.finish(cx);
                return args.map(|args| ActionEntry {
                    action: Action::Game { id, index, args },
                    span,
                });
            }
            let id = registered(cx, &name, "action", ACTIONS, |s| &s.actions)?;
            let args = e.rest_as_args(cx);
            return Some(ActionEntry {
                action: Action::Custom { id, args },
                span,
            });
        }
    };
    e.finish(cx);
    action.map(|action| ActionEntry { action, span })
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
