//! The settings a mod set declares, as content holds them: each with its ID (`rats:rat_health`),
//! what it takes, its default, its scope, and the name a player reads in their language.

pub use crate::mods::{Scope, SettingKind, SettingValue};

use super::Name;
use crate::diag::Span;
use crate::id::Id;

/// One setting a mod declares in its `mod.toml` (`[settings.rat_health]`).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Setting {
    /// `rats:rat_health`.
    pub id: Id,
    /// Its type and the values it takes.
    pub kind: SettingKind,
    /// The value a game starts with when nobody chose another.
    pub default: SettingValue,
    /// When it may change.
    pub scope: Scope,
    /// What a player reads (the manifest's `name`, or its locale's `settings.<name>.name`).
    pub name: Name,
    /// A line on what it does (its locale's `settings.<name>.description`), maybe empty.
    pub description: String,
    /// Where its manifest declares it.
    pub(crate) span: Span,
}

impl Setting {
    /// A declaration of mod `mod_id`, as content keeps it.
    pub(crate) fn of(mod_id: &str, decl: &crate::mods::SettingDecl) -> Setting {
        Setting {
            id: Id::new(mod_id, &decl.name),
            kind: decl.kind.clone(),
            default: decl.default.clone(),
            scope: decl.scope,
            name: decl.label.clone().into(),
            description: decl.description.clone(),
            span: decl.span,
        }
    }
}
