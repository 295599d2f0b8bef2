//! Reading one condition or action table field by field, with typed getters that report at the field.

use super::Cx;
use crate::content::event::Value;
use crate::content::raw::EntryMap;
use crate::content::spanned::Spanned;
use crate::diag::Code;
use crate::diag::{did_you_mean, Diagnostic, Span};
use std::collections::BTreeMap;

/// What one entry read: the keys it knew, the ones it needed, and whether it takes any key.
#[derive(Debug, Default)]
#[cfg_attr(not(feature = "cli"), allow(dead_code))]
pub(crate) struct Probed {
    pub known: Vec<&'static str>,
    pub required: Vec<&'static str>,
    pub open: bool,
}

/// A condition or action table being read. Every getter marks its key as known; [`Entry::finish`]
/// reports the keys nobody asked for, with a suggestion among the known ones.
pub(crate) struct Entry<'a> {
    map: &'a EntryMap,
    pub span: Span,
    /// "check `has_tag`", for messages.
    pub what: String,
    known: Vec<&'static str>,
    /// Whether it took every key left as arguments (`rest_as_args`).
    open: bool,
    /// Required keys that are not there, reported by [`Entry::finish`] (unless a misspelt key
    /// stands in their place, which is reported instead: one mistake, one message).
    missing: Vec<&'static str>,
}

impl<'a> Entry<'a> {
    pub(crate) fn new(map: &'a EntryMap, span: Span, what: String) -> Entry<'a> {
        Entry {
            map,
            span,
            what,
            known: Vec::new(),
            open: false,
            missing: Vec::new(),
        }
    }

    pub(crate) fn raw(&self, key: &str) -> Option<&'a Spanned<toml::Value>> {
        self.map.get(key)
    }

    fn get(&mut self, key: &'static str, required: bool) -> Option<&'a Spanned<toml::Value>> {
        self.known.push(key);
        let value = self.map.get(key);
        if value.is_none() && required {
            self.missing(key);
        }
        value
    }

    /// A required key that is not there: [`Entry::finish`] reports it.
    pub(crate) fn missing(&mut self, key: &'static str) {
        self.missing.push(key);
    }

    fn wrong_type(&self, cx: &mut Cx, key: &str, v: &Spanned<toml::Value>, expected: &str) {
        cx.diags.push(
            Diagnostic::error(
                Code::WrongType,
                format!(
                    "`{key}` in {} must be {expected}, found {}",
                    self.what,
                    v.get_ref().type_str()
                ),
            )
            .at(cx.span(v.span())),
        );
    }

    pub(crate) fn str(&mut self, cx: &mut Cx, key: &'static str) -> Option<Spanned<String>> {
        self.str_inner(cx, key, true)
    }

    pub(crate) fn opt_str(&mut self, cx: &mut Cx, key: &'static str) -> Option<Spanned<String>> {
        self.str_inner(cx, key, false)
    }

    fn str_inner(
        &mut self,
        cx: &mut Cx,
        key: &'static str,
        required: bool,
    ) -> Option<Spanned<String>> {
        let v = self.get(key, required)?;
        match v.get_ref() {
            toml::Value::String(s) => Some(Spanned::new(v.span(), s.clone())),
            _ => {
                self.wrong_type(cx, key, v, "a string");
                None
            }
        }
    }

    pub(crate) fn int(&mut self, cx: &mut Cx, key: &'static str) -> Option<i64> {
        let v = self.get(key, true)?;
        self.as_int(cx, key, v)
    }

    pub(crate) fn opt_int(&mut self, cx: &mut Cx, key: &'static str) -> Option<i64> {
        let v = self.get(key, false)?;
        self.as_int(cx, key, v)
    }

    fn as_int(&self, cx: &mut Cx, key: &str, v: &Spanned<toml::Value>) -> Option<i64> {
        match v.get_ref() {
            toml::Value::Integer(i) if (-MOST..=MOST).contains(i) => Some(*i),
            toml::Value::Integer(i) => {
                cx.diags
                    .push(out_of_range(key, &self.what, -MOST, MOST, *i).at(cx.span(v.span())));
                None
            }
            _ => {
                self.wrong_type(cx, key, v, "an integer");
                None
            }
        }
    }

    /// A count: a positive integer, `default` when absent.
    pub(crate) fn count(&mut self, cx: &mut Cx, key: &'static str, default: u32) -> u32 {
        let Some(v) = self.get(key, false) else {
            return default;
        };
        match v.get_ref() {
            toml::Value::Integer(i) if (1..=MOST).contains(i) => *i as u32,
            toml::Value::Integer(i) => {
                cx.diags
                    .push(out_of_range(key, &self.what, 1, MOST, *i).at(cx.span(v.span())));
                default
            }
            _ => {
                self.wrong_type(cx, key, v, "an integer");
                default
            }
        }
    }

    pub(crate) fn float(&mut self, cx: &mut Cx, key: &'static str) -> Option<Spanned<f64>> {
        let v = self.get(key, true)?;
        match v.get_ref() {
            toml::Value::Float(f) => Some(Spanned::new(v.span(), *f)),
            toml::Value::Integer(i) => Some(Spanned::new(v.span(), *i as f64)),
            _ => {
                self.wrong_type(cx, key, v, "a number");
                None
            }
        }
    }

    pub(crate) fn opt_bool(&mut self, cx: &mut Cx, key: &'static str) -> Option<bool> {
        let v = self.get(key, false)?;
        match v.get_ref() {
            toml::Value::Boolean(b) => Some(*b),
            _ => {
                self.wrong_type(cx, key, v, "true or false");
                None
            }
        }
    }

    /// Marks keys as known without reading them.
    pub(crate) fn allow(&mut self, keys: &[&'static str]) {
        self.known.extend_from_slice(keys);
    }

    /// The fields nobody asked for, as plain values: the arguments of a Lua-registered check or action.
    pub(crate) fn rest_as_args(&mut self, cx: &mut Cx) -> BTreeMap<String, Value> {
        self.open = true;
        let mut args = BTreeMap::new();
        for (key, v) in self.map {
            if self.known.contains(&key.as_str()) {
                continue;
            }
            match plain_value(v.get_ref()) {
                Some(value) => {
                    args.insert(key.clone(), value);
                }
                None => cx.diags.push(
                    Diagnostic::error(
                        Code::WrongType,
                        format!(
                            "`{key}` in {} must be a string, number or boolean",
                            self.what
                        ),
                    )
                    .at(cx.span(v.span())),
                ),
            }
        }
        args
    }

    /// Reports every key that no getter asked for, and every required key that is not there,
    /// except one whose place a misspelt key takes (`amout = 1` for `amount`: the unknown key's
    /// "did you mean `amount`?" says it all) or, when it is the only one missing, the only
    /// unknown key takes (`tag = ...` for `value`).
    pub(crate) fn finish(self, cx: &mut Cx) {
        if let Some(probe) = cx.probe {
            probe.borrow_mut().push(Probed {
                known: self.known.clone(),
                required: self.missing.clone(),
                open: self.open,
            });
        }
        let unknown = || {
            self.map
                .keys()
                .filter(|k| !self.known.contains(&k.as_str()))
        };
        // One required key missing and one unknown key written: one mistake, a key under
        // another name (`tag = ...` where `has_tag` takes `value`), said at the key written.
        let renamed = match (self.missing.as_slice(), unknown().count()) {
            ([wanted], 1) => Some(*wanted),
            _ => None,
        };
        for key in &self.missing {
            let misspelt = unknown().any(|k| {
                let best = did_you_mean(k, self.known.iter().copied());
                best.is_some() && best == did_you_mean(k, [*key])
            });
            if !misspelt && renamed.is_none() {
                cx.diags.push(
                    Diagnostic::error(
                        Code::MissingKey,
                        format!("{} needs the key `{key}`", self.what),
                    )
                    .at(self.span),
                );
            }
        }
        for (key, v) in self.map {
            if !self.known.contains(&key.as_str()) {
                cx.diags.push(
                    Diagnostic::error(
                        Code::UnknownKey,
                        format!("unknown key `{key}` in {}", self.what),
                    )
                    .at(cx.span(v.span()))
                    .with_help_opt(
                        did_you_mean(key, self.known.iter().copied()).or_else(|| {
                            let mut keys = self.known.clone();
                            keys.sort();
                            keys.dedup();
                            let known = format!("known keys: {}", keys.join(", "));
                            Some(match renamed {
                                Some(wanted) => format!(
                                    "{} needs the key `{wanted}`: is `{key}` meant to be it? \
                                     {known}",
                                    self.what
                                ),
                                None => known,
                            })
                        }),
                    ),
                );
            }
        }
    }
}

/// The largest number content may hold (health, damage, amounts, counts, thresholds, attributes):
/// far above any game's numbers, and far enough below `i64::MAX` that the rules' sums of them
/// cannot overflow.
pub(crate) const MOST: i64 = 1_000_000_000;

/// "`key` in what must be between lo and hi, found n".
pub(crate) fn out_of_range(key: &str, what: &str, lo: i64, hi: i64, found: i64) -> Diagnostic {
    let within = if what.is_empty() {
        String::new()
    } else {
        format!(" in {what}")
    };
    Diagnostic::error(
        Code::OutOfRange,
        format!("`{key}`{within} must be between {lo} and {hi}, found {found}"),
    )
}

/// `value` when it is within `lo..=hi`; otherwise the nearest bound, and a diagnostic at `span`.
pub(crate) fn within(
    cx: &mut Cx,
    key: &str,
    what: &str,
    value: &Spanned<i64>,
    lo: i64,
    hi: i64,
) -> i64 {
    let v = *value.get_ref();
    if (lo..=hi).contains(&v) {
        return v;
    }
    cx.diags
        .push(out_of_range(key, what, lo, hi, v).at(cx.span(value.span())));
    v.clamp(lo, hi)
}

/// A TOML scalar as a payload [`Value`]; tables, arrays and dates have none.
pub(crate) fn plain_value(v: &toml::Value) -> Option<Value> {
    match v {
        toml::Value::String(s) => Some(Value::str(s)),
        toml::Value::Integer(i) => Some(Value::Int(*i)),
        toml::Value::Float(f) => Some(Value::Float(*f)),
        toml::Value::Boolean(b) => Some(Value::Bool(*b)),
        _ => None,
    }
}
