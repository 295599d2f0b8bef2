//! Loading a whole mod set: manifests, data, and scripts, in the order each stage needs.
//!
//! Scripts run after the data files are parsed and before they are resolved, because resolution must
//! know which `<mod>:<name>` actions and checks the scripts registered; then the scripts' handlers are
//! bound to the resolved events. Like every loading stage it never stops at the first problem.

use crate::content::{self, Content};
use crate::diag::{Diagnostic, SourceMap};
use crate::lua::{Limits, LuaRuntime};
use std::path::Path;
use std::sync::Arc;

/// Everything loaded from a mods directory.
pub struct World {
    pub content: Arc<Content>,
    pub lua: Option<LuaRuntime>,
    pub sources: SourceMap,
    pub diagnostics: Vec<Diagnostic>,
}

impl World {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// The mods' scripts, ready to be a game's host.
    pub fn take_lua(&mut self) -> Option<LuaRuntime> {
        self.lua.take()
    }
}

/// Loads the mods in `mods_dir`: data, scripts, and the binding between them.
pub fn load_world(mods_dir: &Path, limits: Limits) -> World {
    let mut sources = SourceMap::new();
    let mut diagnostics = Vec::new();
    let folders = crate::mods::load_mod_list(mods_dir, &mut sources, &mut diagnostics);
    let raw = content::parse::read_mods(&folders, mods_dir, &mut sources, &mut diagnostics);
    let mut lua = match LuaRuntime::new(limits) {
        Ok(lua) => Some(lua),
        Err(e) => {
            diagnostics.push(Diagnostic::error(format!("cannot start Lua: {e}")));
            None
        }
    };
    if let Some(lua) = lua.as_mut() {
        for m in &folders {
            lua.load_mod(m, &mut sources, &mut diagnostics);
        }
    }
    let ext = lua.as_ref().map(LuaRuntime::extensions).unwrap_or_default();
    let mods = folders.iter().map(content::mod_info).collect();
    let content = Arc::new(content::build(raw, mods, &ext, &sources, &mut diagnostics));
    if let Some(lua) = lua.as_mut() {
        lua.bind(content.clone(), &mut diagnostics);
        diagnostics.extend(lua.take_load_messages());
    }
    diagnostics.sort_by_key(|d| d.span.map(|s| (s.file, s.start)));
    World {
        content,
        lua,
        sources,
        diagnostics,
    }
}
