//! A mod's settings as its manifest declares them (`[settings.rat_health]`): the type, the
//! values a player may choose, the default and when it may change; and a value checked against
//! them, wherever it comes from (a flag, the console, a test, a save, the game's menu).

use crate::diag::Code;
use crate::diag::{did_you_mean, visible, Diagnostic, FileId, Span};
use crate::id::is_ident;
use serde::{Deserialize, Serialize};
use toml::Spanned;

/// The most settings one mod declares: a menu, not a database.
pub(crate) const MOST_SETTINGS: usize = 200;

/// The most choices a `string` setting lists, and the longest text a setting holds.
const MOST_CHOICES: usize = 100;
const LONGEST_TEXT: usize = 1000;

/// One `[settings.<name>]` table as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawSetting {
    #[serde(rename = "type")]
    ty: Spanned<String>,
    default: Spanned<toml::Value>,
    min: Option<Spanned<toml::Value>>,
    max: Option<Spanned<toml::Value>>,
    choices: Option<Spanned<Vec<String>>>,
    scope: Option<Spanned<String>>,
    name: Option<String>,
    #[serde(default)]
    description: String,
}

/// A setting's value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum SettingValue {
    /// A `bool` setting's.
    Bool(bool),
    /// An `int` setting's.
    Int(i64),
    /// A `float` setting's.
    Float(f64),
    /// A `string` setting's.
    Text(String),
}

impl std::fmt::Display for SettingValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SettingValue::Bool(b) => write!(f, "{b}"),
            SettingValue::Int(n) => write!(f, "{n}"),
            SettingValue::Float(x) => write!(f, "{x:?}"),
            SettingValue::Text(t) => write!(f, "{}", visible(t)),
        }
    }
}

impl SettingValue {
    /// What it is, as a message names it.
    fn what(&self) -> &'static str {
        match self {
            SettingValue::Bool(_) => "a boolean",
            SettingValue::Int(_) => "an integer",
            SettingValue::Float(_) => "a number",
            SettingValue::Text(_) => "a text",
        }
    }
}

/// What a setting holds and which values a player may choose.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum SettingKind {
    /// `true` or `false`.
    Bool,
    /// A whole number, within `min` and `max` when they are given.
    Int {
        /// The least value.
        min: Option<i64>,
        /// The greatest value.
        max: Option<i64>,
    },
    /// A number, within `min` and `max` when they are given.
    Float {
        /// The least value.
        min: Option<f64>,
        /// The greatest value.
        max: Option<f64>,
    },
    /// A text: one of `choices`, or any single line when there are none.
    Text {
        /// The texts a player may choose from.
        choices: Vec<String>,
    },
}

impl SettingKind {
    /// The type as `mod.toml` writes it.
    pub fn type_name(&self) -> &'static str {
        match self {
            SettingKind::Bool => "bool",
            SettingKind::Int { .. } => "int",
            SettingKind::Float { .. } => "float",
            SettingKind::Text { .. } => "string",
        }
    }

    /// The type with its article, as a sentence names it: `an int`, `a string`.
    pub(crate) fn a_type(&self) -> &'static str {
        match self {
            SettingKind::Bool => "a `bool`",
            SettingKind::Int { .. } => "an `int`",
            SettingKind::Float { .. } => "a `float`",
            SettingKind::Text { .. } => "a `string`",
        }
    }

    /// The values it takes, in words: `1 to 100`, `true or false`, `easy, hard`.
    pub fn range(&self) -> String {
        fn bounds<T: std::fmt::Debug>(min: &Option<T>, max: &Option<T>, kind: &str) -> String {
            match (min, max) {
                (Some(a), Some(b)) => format!("{a:?} to {b:?}"),
                (Some(a), None) => format!("at least {a:?}"),
                (None, Some(b)) => format!("at most {b:?}"),
                (None, None) => format!("any {kind}"),
            }
        }
        match self {
            SettingKind::Bool => "true or false".into(),
            SettingKind::Int { min, max } => bounds(min, max, "integer"),
            SettingKind::Float { min, max } => bounds(min, max, "number"),
            SettingKind::Text { choices } if choices.is_empty() => "any text".into(),
            SettingKind::Text { choices } => choices
                .iter()
                .map(|c| visible(c).into_owned())
                .collect::<Vec<_>>()
                .join(", "),
        }
    }

    /// `value` as a setting of this kind holds it (an integer for a `float` setting is taken
    /// as a number), or what is wrong with it.
    pub fn admit(&self, value: SettingValue) -> Result<SettingValue, String> {
        let wrong = |v: &SettingValue| {
            let expected = match self {
                SettingKind::Bool => "true or false",
                SettingKind::Int { .. } => "an integer",
                SettingKind::Float { .. } => "a number",
                SettingKind::Text { .. } => "a text",
            };
            Err(format!("must be {expected}, found {}", v.what()))
        };
        let within = |below: bool, above: bool| -> Result<(), String> {
            if below || above {
                Err(format!("must be {}", self.range()))
            } else {
                Ok(())
            }
        };
        match (self, value) {
            (SettingKind::Bool, v @ SettingValue::Bool(_)) => Ok(v),
            (SettingKind::Int { min, max }, SettingValue::Int(n)) => {
                within(min.is_some_and(|m| n < m), max.is_some_and(|m| n > m))?;
                Ok(SettingValue::Int(n))
            }
            (SettingKind::Float { .. }, SettingValue::Int(n)) => {
                self.admit(SettingValue::Float(n as f64))
            }
            (SettingKind::Float { min, max }, SettingValue::Float(x)) => {
                if !x.is_finite() {
                    return Err(format!("must be a finite number, found {x}"));
                }
                within(min.is_some_and(|m| x < m), max.is_some_and(|m| x > m))?;
                Ok(SettingValue::Float(x))
            }
            (SettingKind::Text { choices }, SettingValue::Text(t)) => {
                if t.len() > LONGEST_TEXT || t.contains('\n') {
                    return Err(format!("must be one line of at most {LONGEST_TEXT} bytes"));
                }
                if !choices.is_empty() && !choices.contains(&t) {
                    let near = did_you_mean(&t, choices.iter().map(String::as_str))
                        .map(|n| format!(" ({n})"))
                        .unwrap_or_default();
                    return Err(format!(
                        "must be one of {}, found `{}`{near}",
                        self.range(),
                        visible(&t)
                    ));
                }
                Ok(SettingValue::Text(t))
            }
            (_, v) => wrong(&v),
        }
    }

    /// A value typed by a player (`--set rats:rat_health=20`, the console's `set`), checked.
    pub fn parse(&self, text: &str) -> Result<SettingValue, String> {
        let text = text.trim();
        let value = match self {
            SettingKind::Bool => match text {
                "true" | "on" | "yes" => SettingValue::Bool(true),
                "false" | "off" | "no" => SettingValue::Bool(false),
                _ => return Err(format!("must be true or false, found `{}`", visible(text))),
            },
            SettingKind::Int { .. } => match text.parse::<i64>() {
                Ok(n) => SettingValue::Int(n),
                Err(_) => return Err(format!("must be an integer, found `{}`", visible(text))),
            },
            SettingKind::Float { .. } => match text.parse::<f64>() {
                Ok(x) => SettingValue::Float(x),
                Err(_) => return Err(format!("must be a number, found `{}`", visible(text))),
            },
            SettingKind::Text { .. } => SettingValue::Text(text.to_string()),
        };
        self.admit(value)
    }
}

/// When a setting may change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Scope {
    /// Chosen when a run starts, fixed for the run.
    Startup,
    /// Changeable during play, the same for every player.
    Run,
    /// Changeable during play, each player's own.
    Player,
}

impl Scope {
    const NAMES: [&'static str; 3] = ["startup", "run", "player"];

    /// The name `mod.toml` writes.
    pub fn name(self) -> &'static str {
        Scope::NAMES[self as usize]
    }

    /// Whether a player may change it during a run.
    pub fn changes_in_play(self) -> bool {
        self != Scope::Startup
    }
}

/// A setting as its manifest declares it.
#[derive(Debug, Clone)]
pub(crate) struct SettingDecl {
    pub name: String,
    pub kind: SettingKind,
    pub default: SettingValue,
    pub scope: Scope,
    /// What a player reads (`name = "Rat health"`); the setting's own name when not said.
    pub label: String,
    pub description: String,
    /// Where its `type` is written.
    pub span: Span,
}

/// Reads every `[settings.<name>]` of a manifest; each mistake is an error at its value.
pub(super) fn declarations(
    raw: Vec<(Spanned<String>, Spanned<RawSetting>)>,
    file: FileId,
    errors: &mut Vec<Diagnostic>,
) -> Vec<SettingDecl> {
    if raw.len() > MOST_SETTINGS {
        let at = Span::new(file, raw[MOST_SETTINGS].0.span());
        errors.push(
            Diagnostic::error(
                Code::Manifest,
                format!("a mod declares at most {MOST_SETTINGS} settings"),
            )
            .at(at),
        );
        return Vec::new();
    }
    raw.into_iter()
        .filter_map(|(name, s)| declaration(name, s.into_inner(), file, errors))
        .collect()
}

fn declaration(
    name: Spanned<String>,
    raw: RawSetting,
    file: FileId,
    errors: &mut Vec<Diagnostic>,
) -> Option<SettingDecl> {
    let before = errors.len();
    let mut said = Said { file, errors };
    let setting = name.get_ref();
    if !is_ident(setting) {
        said.error(
            name.span(),
            format!("`{}` is not a valid setting name", visible(setting)),
            Some("a setting's name uses only lowercase letters, digits and `_`, such as `rat_health`".into()),
        );
    }
    let kind = kind(&raw, setting, &mut said)?;
    let scope = scope(raw.scope.as_ref(), &mut said);
    let default = match toml_value(raw.default.get_ref()) {
        Some(v) => kind.admit(v).map_err(|why| {
            let message = format!("the default of setting `{setting}` {why}");
            said.error(raw.default.span(), message, None)
        }),
        None => {
            let message = format!(
                "the default of setting `{setting}` must be {}, found {}",
                kind.type_name(),
                raw.default.get_ref().type_str()
            );
            said.error(raw.default.span(), message, None);
            Err(())
        }
    };
    let default = default.ok()?;
    if errors.len() > before {
        return None;
    }
    Some(SettingDecl {
        label: raw.name.unwrap_or_else(|| setting.clone()),
        name: name.into_inner(),
        kind,
        default,
        scope,
        description: raw.description,
        span: Span::new(file, raw.ty.span()),
    })
}

/// Where a manifest's mistakes go, each an error at its span.
struct Said<'a> {
    file: FileId,
    errors: &'a mut Vec<Diagnostic>,
}

impl Said<'_> {
    fn error(&mut self, span: std::ops::Range<usize>, message: String, help: Option<String>) {
        self.errors.push(
            Diagnostic::error(Code::Manifest, message)
                .at(Span::new(self.file, span))
                .with_help_opt(help),
        );
    }
}

/// The setting's type with its bounds or choices; `None` for a type lantern does not know.
fn kind(raw: &RawSetting, setting: &str, said: &mut Said) -> Option<SettingKind> {
    let kind = match raw.ty.get_ref().as_str() {
        known @ ("bool" | "int" | "float" | "string") => known,
        other => {
            let help = did_you_mean(other, ["bool", "int", "float", "string"])
                .map(|d| format!("{d} a setting is `bool`, `int`, `float` or `string`"))
                .unwrap_or_else(|| "a setting is `bool`, `int`, `float` or `string`".into());
            let message = format!("`{}` is not a setting type", visible(other));
            said.error(raw.ty.span(), message, Some(help));
            return None;
        }
    };
    let numeric = matches!(kind, "int" | "float");
    for (key, v) in [("min", &raw.min), ("max", &raw.max)] {
        if let (Some(v), false) = (v, numeric) {
            let message = format!(
                "`{key}` is for `int` and `float` settings; `{setting}` is {}",
                article(kind)
            );
            said.error(v.span(), message, None);
        }
    }
    if let (Some(c), false) = (&raw.choices, kind == "string") {
        let message = format!(
            "`choices` is for `string` settings; `{setting}` is {}",
            article(kind)
        );
        said.error(c.span(), message, None);
    }
    let (min, max) = if numeric {
        bounds(raw, setting, kind == "int", said)
    } else {
        (None, None)
    };
    Some(match kind {
        "bool" => SettingKind::Bool,
        "int" => SettingKind::Int {
            min: min.map(|m| m as i64),
            max: max.map(|m| m as i64),
        },
        "float" => SettingKind::Float { min, max },
        _ => SettingKind::Text {
            choices: choices(raw.choices.as_ref(), setting, said),
        },
    })
}

/// A number setting's `min` and `max`, each a number (an integer for an `int` setting) and in
/// order.
fn bounds(
    raw: &RawSetting,
    setting: &str,
    whole: bool,
    said: &mut Said,
) -> (Option<f64>, Option<f64>) {
    let mut number = |v: &Spanned<toml::Value>, key: &str| -> Option<f64> {
        match v.get_ref() {
            toml::Value::Integer(n) => Some(*n as f64),
            toml::Value::Float(_) if whole => {
                let message = format!("setting `{setting}` is an `int`: its bounds are integers");
                let help = Some("make it a `float` setting for fractions".into());
                said.error(v.span(), message, help);
                None
            }
            toml::Value::Float(x) if x.is_finite() => Some(*x),
            other => {
                let message = format!(
                    "`{key}` of setting `{setting}` must be a number, found {}",
                    other.type_str()
                );
                said.error(v.span(), message, None);
                None
            }
        }
    };
    let min = raw.min.as_ref().and_then(|v| number(v, "min"));
    let max = raw.max.as_ref().and_then(|v| number(v, "max"));
    if let (Some(lo), Some(hi), Some(v)) = (min, max, &raw.max) {
        if lo > hi {
            let message = format!("`max` of setting `{setting}` is below its `min`");
            said.error(v.span(), message, None);
        }
    }
    (min, max)
}

/// A `string` setting's choices: 1 to [`MOST_CHOICES`] when given.
fn choices(raw: Option<&Spanned<Vec<String>>>, setting: &str, said: &mut Said) -> Vec<String> {
    let Some(c) = raw else {
        return Vec::new();
    };
    if c.get_ref().is_empty() || c.get_ref().len() > MOST_CHOICES {
        let message = format!("`choices` of setting `{setting}` lists 1 to {MOST_CHOICES} texts");
        let help = Some("leave `choices` out for a setting that takes any text".into());
        said.error(c.span(), message, help);
    }
    c.get_ref().clone()
}

/// The scope written, `startup` when none is.
fn scope(raw: Option<&Spanned<String>>, said: &mut Said) -> Scope {
    let Some(s) = raw else {
        return Scope::Startup;
    };
    match Scope::NAMES.iter().position(|n| n == s.get_ref()) {
        Some(0) => Scope::Startup,
        Some(1) => Scope::Run,
        Some(_) => Scope::Player,
        None => {
            let near = did_you_mean(s.get_ref(), Scope::NAMES)
                .map(|d| format!("{d} "))
                .unwrap_or_default();
            let message = format!("`{}` is not a setting scope", visible(s.get_ref()));
            let help = format!(
                "{near}`startup` (fixed for a run), `run` (changeable during play) or `player` (each player's own)"
            );
            said.error(s.span(), message, Some(help));
            Scope::Startup
        }
    }
}

/// `an `int``, `a `bool``: a type name with its article.
fn article(kind: &str) -> String {
    match kind {
        "int" => "an `int`".into(),
        other => format!("a `{other}`"),
    }
}

/// A TOML value as a setting's value, when it is one of the four kinds.
fn toml_value(v: &toml::Value) -> Option<SettingValue> {
    Some(match v {
        toml::Value::Boolean(b) => SettingValue::Bool(*b),
        toml::Value::Integer(n) => SettingValue::Int(*n),
        toml::Value::Float(x) => SettingValue::Float(*x),
        toml::Value::String(s) => SettingValue::Text(s.clone()),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_checked_against_their_kind() {
        let health = SettingKind::Int {
            min: Some(1),
            max: Some(100),
        };
        assert_eq!(health.parse("20"), Ok(SettingValue::Int(20)));
        assert_eq!(health.parse("0").unwrap_err(), "must be 1 to 100");
        assert_eq!(
            health.parse("lots").unwrap_err(),
            "must be an integer, found `lots`"
        );
        let speed = SettingKind::Float {
            min: Some(0.5),
            max: None,
        };
        assert_eq!(
            speed.admit(SettingValue::Int(2)),
            Ok(SettingValue::Float(2.0))
        );
        assert_eq!(speed.parse("0.1").unwrap_err(), "must be at least 0.5");
        let level = SettingKind::Text {
            choices: vec!["easy".into(), "hard".into()],
        };
        assert_eq!(
            level.parse("hrad").unwrap_err(),
            "must be one of easy, hard, found `hrad` (did you mean `hard`?)"
        );
        assert_eq!(
            SettingKind::Bool.admit(SettingValue::Int(1)).unwrap_err(),
            "must be true or false, found an integer"
        );
    }
}
