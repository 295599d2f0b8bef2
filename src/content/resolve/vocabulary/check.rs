//! Conditions: the built-in checks, the game's own and those a script registers, and the
//! check of a mod setting.

use super::named::{host_args, host_declared, registered};
use super::{left_out, who, CHECKS};
use crate::content::raw::RawEntry;
use crate::content::resolve::fields::Entry;
use crate::content::resolve::{Cx, RefKind};
use crate::content::spanned::Spanned;
use crate::content::{Check, Condition, ItemFilter, Name, QuestState};
use crate::diag::Code;
use crate::diag::Diagnostic;
use crate::id::Id;

pub(in crate::content::resolve) fn conditions(cx: &mut Cx, list: &[RawEntry]) -> Vec<Condition> {
    list.iter().filter_map(|c| condition(cx, c)).collect()
}

pub(in crate::content::resolve) fn condition(cx: &mut Cx, raw: &RawEntry) -> Option<Condition> {
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
        "attribute" => attribute(cx, &mut e),
        "has_item" => has_item(cx, &mut e),
        "health_below" => health_below(cx, &mut e),
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
        _ => return named(cx, e, &name, negate, reason),
    };
    e.finish(cx);
    check.map(|check| Condition {
        check,
        negate,
        reason,
        span,
    })
}

/// `attribute`: a creature's attribute compared with exactly one of `at_least` and `below`.
fn attribute(cx: &mut Cx, e: &mut Entry) -> Option<Check> {
    let who = who(cx, e, "who");
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
                .at(e.span),
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

/// `has_item`: a count of one item or of items of a tag (not both), of a rarity if given.
fn has_item(cx: &mut Cx, e: &mut Entry) -> Option<Check> {
    let who = who(cx, e, "who");
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
                .at(e.span),
        );
        None
    } else if e.raw("item").is_some() && e.raw("tag").is_some() {
        cx.diags.push(
            Diagnostic::error(
                Code::ContentRule,
                "check `has_item` takes `item` or `tag`, not both",
            )
            .at(e.span),
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

/// `health_below`: a creature's health under a fraction (0 to 1) of its maximum.
fn health_below(cx: &mut Cx, e: &mut Entry) -> Option<Check> {
    let who = who(cx, e, "who");
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

/// A check named by a mod: the game's own (its arguments checked against its parameters) or one
/// a script registers (every other key an argument for the script).
fn named(
    cx: &mut Cx,
    mut e: Entry,
    name: &Spanned<String>,
    negate: bool,
    reason: Option<Name>,
) -> Option<Condition> {
    let span = e.span;
    if let Some(d) = host_declared(cx, name, "check") {
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
    let id = registered(cx, name, "check", CHECKS, |s| &s.checks)?;
    // Every other key is an argument for the script, so none is unknown.
    let args = e.rest_as_args(cx);
    Some(Condition {
        check: Check::Custom { id, args },
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
        .and_then(|s| cx.reference(RefKind::Setting, &s));
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
        ["is"] => setting_is(cx, e, &id, &kind)?,
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

/// `is = value` in a check of the setting `id`: a value of a kind the setting takes.
fn setting_is(
    cx: &mut Cx,
    e: &Entry,
    id: &Id,
    kind: &crate::content::SettingKind,
) -> Option<crate::content::SettingTest> {
    use crate::content::{SettingTest, SettingValue};
    let raw = e.raw("is")?;
    let at = cx.span(raw.span());
    let value = match raw.get_ref() {
        toml::Value::Boolean(b) => SettingValue::Bool(*b),
        toml::Value::Integer(n) => SettingValue::Int(*n),
        toml::Value::Float(x) => SettingValue::Float(*x),
        toml::Value::String(t) => SettingValue::Text(t.clone()),
        other => {
            let message = format!(
                "`is` in check `setting` must be a value, found {}",
                other.type_str()
            );
            cx.diags
                .push(Diagnostic::error(Code::ContentRule, message).at(at));
            return None;
        }
    };
    match kind.admit(value) {
        Ok(v) => Some(SettingTest::Is(v)),
        Err(why) => {
            let message =
                format!("`is` compares setting `{id}` with a value it never takes: it {why}");
            cx.diags
                .push(Diagnostic::error(Code::ContentRule, message).at(at));
            None
        }
    }
}
