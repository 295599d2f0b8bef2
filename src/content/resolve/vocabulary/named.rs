//! Actions and checks named by a mod: the game's own (`farm:pay`), with arguments checked
//! against their parameters, and those a script registers (`rats:is_night`).

use super::typed_value;
use crate::content::event::Value;
use crate::content::resolve::fields::Entry;
use crate::content::resolve::{Cx, Symbols};
use crate::content::spanned::Spanned;
use crate::content::vocab::FieldType;
use crate::diag::Code;
use crate::diag::{did_you_mean, Diagnostic};
use crate::id::Id;
use std::collections::BTreeMap;

/// The game's own action or check of this name (`farm:pay`), if it is one: its ID, parameters
/// and position among the game's code, and whether only the game's code performs it.
pub(super) fn host_declared(cx: &Cx, name: &Spanned<String>, kind: &str) -> Option<Declared> {
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
pub(super) fn internal_action<T>(cx: &mut Cx, id: &Id, name: &Spanned<String>) -> Option<T> {
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
pub(super) struct Declared {
    pub(super) id: Id,
    pub(super) params: Vec<crate::content::declare::Param>,
    pub(super) index: usize,
    pub(super) internal: bool,
}

/// The game's action's or check's arguments, each checked against its parameter: a missing one,
/// one of the wrong type and an unknown ID are reported at their key (and `finish` reports the
/// keys no parameter names).
pub(super) fn host_args(
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
pub(super) fn registered(
    cx: &mut Cx,
    name: &Spanned<String>,
    kind: &str,
    builtins: &[&str],
    table: impl Fn(&Symbols) -> &std::collections::BTreeSet<Id>,
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
