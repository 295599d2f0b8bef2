//! lantern: a Lua-scriptable modding runtime.
//!
//! A mod is a folder of TOML data plus optional Lua. A game hosts mods by declaring its world
//! ([`host::Vocabulary`]), loading the mods against it ([`load::load_game`]) and playing a
//! [`game::Game`]; `docs/embedding.md` is the chapter for game developers.
//!
//! # The API
//!
//! What a game uses, every item documented (`missing_docs` is denied):
//!
//! - [`host`]: a game's own world declared in Rust: its state, events, tables, actions, checks,
//!   Lua functions, verbs and handlers.
//! - [`load`]: loading a mod set, data and scripts, for a game's vocabulary.
//! - [`mod_set`]: a mod set loaded once and shared by many games (a server's sessions).
//! - [`game`]: the game: state behind one door, the event queue, triggers, quests, encounters,
//!   hazards, the scene's creatures and fights, saves (and, with the `roguelike` feature, the
//!   reference roguelike's verbs, which are written on the same public calls).
//! - [`reload`]: hot reload that keeps the game, and the file watcher (feature `watch`).
//! - [`harness`]: the scripted, deterministic test runner behind `lantern test`.
//! - [`diag`]: diagnostics with spans, rendering with carets, "did you mean".
//! - [`content`]: the immutable content a mod set defines (the game's tables in
//!   [`content::Content::table`]), and payload [`content::Value`]s.
//! - [`id`]: namespaced IDs (`valley:wheat`); [`Error`]: what a game gets when lantern cannot do
//!   what it asked (mods' problems are diagnostics instead).
//! - [`lua`]: the sandboxed Lua layer and its [`lua::Limits`].
//! - [`hazard`]: the card-and-dice hazard game (seed 002) and its simulator.
//! - `cli`: lantern's tools, for the `lantern` binary and for a game's own (feature `cli`).
//! - [`prelude`]: the types a game names most, to `use lantern::prelude::*`.
//! - `roguelike`: the reference game's vocabulary, `roguelike::rules()` (feature `roguelike`).
//!
//! Items marked hidden in these docs (a few of the Lua layer's and the game's, for lantern's own
//! tests and benchmarks) are not part of the API and may change without notice.
//!
//! Features, all on by default; a game embedding the library may turn them off: `cli` (lantern's
//! tools, with clap and rustyline), `watch` (the file watcher, with notify) and `roguelike` (the
//! reference roguelike: its world, declared as any game's is, with its rooms, floors, run and
//! verbs, `roguelike::rules()`, which the `lantern` binary passes to the loaders as any game
//! passes its own; and `lantern play`).
//!
//! `ARCHITECTURE.md` at the repository root gives the bird's-eye view and the invariants.

#![deny(missing_docs)]

#[cfg(feature = "cli")]
pub mod cli;
pub mod content;
pub mod diag;
mod error;
pub mod game;
pub mod harness;
pub mod hazard;
pub mod host;
pub mod id;
pub(crate) mod json_tree;
pub mod load;
pub mod lua;
pub mod mod_set;
pub(crate) mod mods;
pub(crate) mod quick_toml;
pub mod reload;
pub mod rng;
#[cfg(feature = "roguelike")]
pub mod roguelike;
pub(crate) mod toml_file;
pub(crate) mod write;

pub use error::Error;

/// The types a game embedding lantern names most: `use lantern::prelude::*;`.
pub mod prelude {
    pub use crate::content::{Content, Value};
    pub use crate::diag::{render_all, Diagnostic};
    pub use crate::game::{CreatureRef, Ctx, Game};
    pub use crate::host::{Args, Effects, GameState, Param, Problem, Query, Rules, Vocabulary};
    pub use crate::id::Id;
    pub use crate::load::{load_game, World};
    pub use crate::lua::Limits;
    pub use crate::mod_set::ModSet;
    pub use crate::reload::Live;
    pub use crate::Error;
}

/// `docs/embedding.md`, the game developer's chapter: every Rust block in it is compiled and run as
/// a doctest, so the chapter cannot drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../docs/embedding.md")]
pub struct EmbeddingGuide;

// A game and a live game move between threads (a server's pool, an engine's resource).
const _: fn() = || {
    fn sendable<T: Send>() {}
    sendable::<game::Game>();
    sendable::<load::World>();
    sendable::<reload::Live>();
};

/// The rules the unit tests load the bundled mods with: the reference roguelike's with its
/// feature, the empty ones without. Test code only: every loader takes its game's rules.
#[cfg(test)]
pub(crate) fn test_rules() -> host::Rules {
    #[cfg(feature = "roguelike")]
    return roguelike::rules();
    #[cfg(not(feature = "roguelike"))]
    host::Rules::empty()
}
