//! Mods as folders: discovery in a mods directory, manifests, and the load order.
//!
//! This module reads `mod.toml` files and decides which mods load and in which order, and it is
//! where every file of a mod is read ([`read_mod_file`], [`walk`]): inside the mod's folder only.
//! It knows nothing of what a mod defines (that is `content`) or of Lua; every problem it finds
//! is a diagnostic, and a mod with a broken manifest or a missing dependency is left out while the
//! rest still loads (invariant 6).

mod discover;
pub(crate) mod files;
mod language;
mod manifest;
mod order;
mod settings;

pub(crate) use discover::{decode_utf8, discover, ModFolder};
pub(crate) use files::{
    read_inside, read_mod_file, stamp_inside, walk, Found, ModRoot, Stamp, MOST_FILES,
};
#[cfg(feature = "cli")]
pub(crate) use files::{with_unsaved, Unsaved};
pub(crate) use language::language_tag;
pub(crate) use manifest::Manifest;
pub(crate) use order::load_order;
pub(crate) use settings::SettingDecl;
pub use settings::{Scope, SettingKind, SettingValue};

use crate::diag::{Diagnostic, SourceMap};
use std::path::PathBuf;

/// Discovers the mods in the mods directories and orders them; what could not load is in the
/// diagnostics.
pub(crate) fn load_mod_list(
    roots: &[PathBuf],
    sources: &mut SourceMap,
    diags: &mut Vec<Diagnostic>,
) -> Vec<ModFolder> {
    let found = discover(roots, sources, diags);
    load_order(found, diags)
}
