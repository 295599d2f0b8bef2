//! The typed parameters a game's actions and checks declare, and the arguments they are called
//! with. Arguments are validated when the mods load, as the built-in actions' are, so a game's
//! code reads them without checking again.

use crate::content::vocab::FieldType;
use crate::content::Value;
use crate::id::Id;
use std::collections::BTreeMap;

/// One parameter of a game's action or check: its key in the TOML table, its type, and whether
/// it may be left out.
#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    pub(crate) name: &'static str,
    pub(crate) ty: FieldType,
    pub(crate) required: bool,
    /// The smallest and largest value a number may have: what content may hold unless the game
    /// declares less ([`Param::within`]).
    pub(crate) range: (i64, i64),
}

/// The largest number a game's parameter takes unless it declares another range: what every
/// number in content is bounded by, so the game's arithmetic on it cannot overflow.
pub(super) const MOST: i64 = crate::content::resolve::fields::MOST;

impl Param {
    /// A whole number (`amount = 3`).
    pub fn int(name: &'static str) -> Param {
        Param::field(name, FieldType::Int)
    }

    /// A number, whole or not (`multiplier = 1.5`).
    pub fn number(name: &'static str) -> Param {
        Param::field(name, FieldType::Float)
    }

    /// Text (`message = "..."`).
    pub fn text(name: &'static str) -> Param {
        Param::field(name, FieldType::String)
    }

    /// `true` or `false`.
    pub fn flag(name: &'static str) -> Param {
        Param::field(name, FieldType::Bool)
    }

    /// The ID of a definition of `kind`: one of the game's tables (`Param::id("crop", "crop")`)
    /// or a built-in kind (`item`, `quest`, ...). A bare name means the writing mod's own; the
    /// action receives the whole ID, and an unknown one is reported with "did you mean".
    pub fn id(name: &'static str, kind: &'static str) -> Param {
        let ty = match FieldType::from_name(kind) {
            Some(t) if !t.is_plain() => t,
            _ => FieldType::Host(kind),
        };
        Param::field(name, ty)
    }

    /// The same parameter, which may be left out.
    pub fn optional(mut self) -> Param {
        self.required = false;
        self
    }

    /// The same number parameter, whose value must lie within `lo..=hi` (by default
    /// `-MOST..=MOST`, a billion either way). It holds on every path into the game's code:
    /// written in TOML (an error at the mod's line), from a script's `lantern.apply` or a test's
    /// `g:apply` (the script's error), or `Game::perform`. `Param::int("amount").within(1, 100)`.
    pub fn within(mut self, lo: i64, hi: i64) -> Param {
        self.range = (lo.max(-MOST), hi.min(MOST));
        self
    }

    /// `must be between lo and hi, found v` when `v` is a number outside the parameter's range
    /// (or a float that is not finite).
    pub(crate) fn out_of_range(&self, v: &Value) -> Option<String> {
        let (lo, hi) = self.range;
        let fits = match v {
            Value::Int(i) => (lo..=hi).contains(i),
            Value::Float(f) => f.is_finite() && *f >= lo as f64 && *f <= hi as f64,
            _ => true,
        };
        (!fits).then(|| format!("must be between {lo} and {hi}, found {v}"))
    }

    fn field(name: &'static str, ty: FieldType) -> Param {
        Param {
            name,
            ty,
            required: true,
            range: (-MOST, MOST),
        }
    }

    /// The parameter's key.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// A value of its type as a TOML example shows it (`1`, `true`, `"some_crop"`), for the
    /// scaffold of `new`.
    #[cfg(feature = "cli")]
    pub(crate) fn example(&self) -> String {
        match self.ty {
            FieldType::Int => "1".into(),
            FieldType::Float => "1.0".into(),
            FieldType::Bool => "true".into(),
            FieldType::String => "\"...\"".into(),
            ty => format!("\"some_{}\"", ty.name()),
        }
    }

    /// Its type as LuaLS writes it (an ID is a string), `?` when it may be left out.
    pub(crate) fn lua_type(&self) -> &'static str {
        match (self.ty, self.required) {
            (FieldType::Int, true) => "integer",
            (FieldType::Int, false) => "integer?",
            (FieldType::Float, true) => "number",
            (FieldType::Float, false) => "number?",
            (FieldType::Bool, true) => "boolean",
            (FieldType::Bool, false) => "boolean?",
            (_, true) => "string",
            (_, false) => "string?",
        }
    }
}

/// The arguments an action or check of the game was written with, already checked against its
/// parameters: a required one is there and of its type, so its getter cannot miss. An optional one
/// left out reads as `None` from the `opt_` getters (and as zero, empty or false from the others).
#[derive(Debug, Clone, Copy)]
pub struct Args<'a>(pub(crate) &'a BTreeMap<String, Value>);

impl<'a> Args<'a> {
    /// The value of `name` as written, if it was.
    pub fn get(&self, name: &str) -> Option<&'a Value> {
        self.0.get(name)
    }

    /// A whole-number argument, if written.
    pub fn opt_int(&self, name: &str) -> Option<i64> {
        match self.0.get(name) {
            Some(Value::Int(i)) => Some(*i),
            _ => None,
        }
    }

    /// A whole-number argument (0 when left out).
    pub fn int(&self, name: &str) -> i64 {
        self.opt_int(name).unwrap_or(0)
    }

    /// A number argument, if written.
    pub fn opt_number(&self, name: &str) -> Option<f64> {
        match self.0.get(name) {
            Some(Value::Int(i)) => Some(*i as f64),
            Some(Value::Float(f)) => Some(*f),
            _ => None,
        }
    }

    /// A number argument (0 when left out).
    pub fn number(&self, name: &str) -> f64 {
        self.opt_number(name).unwrap_or(0.0)
    }

    /// A text argument, if written.
    pub fn opt_text(&self, name: &str) -> Option<&'a str> {
        match self.0.get(name) {
            Some(Value::Str(s)) => Some(s),
            _ => None,
        }
    }

    /// A text argument (empty when left out).
    pub fn text(&self, name: &str) -> &'a str {
        self.opt_text(name).unwrap_or("")
    }

    /// A flag argument (false when left out).
    pub fn flag(&self, name: &str) -> bool {
        matches!(self.0.get(name), Some(Value::Bool(true)))
    }

    /// An ID argument, whole (`harvest:wheat`).
    pub fn id(&self, name: &str) -> Option<Id> {
        self.opt_text(name).and_then(Id::qualified)
    }
}
