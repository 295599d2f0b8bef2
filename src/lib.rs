//! lantern: a Lua-scriptable modding runtime.
//!
//! A mod is a folder of TOML data plus optional Lua. The modules, in reading order:
//!
//! - [`diag`]: diagnostics with spans, rendering with carets, "did you mean".
//! - [`id`]: namespaced IDs (`core:rat`).
//! - [`Error`]: what a game gets when lantern cannot do what it asked (mods' problems are diagnostics).
//! - [`mods`]: mod folders, manifests, the load order.
//! - [`content`]: data files to raw serde types to resolved, immutable registries.
//! - [`rng`]: named, seeded random streams.
//! - [`host`]: a game's own world declared in Rust: its state, events, tables, actions, checks,
//!   Lua functions and verbs.
//! - [`game`]: state behind one door, the event queue, triggers, quests, the reference game's verbs, saves.
//! - [`hazard`]: the card-and-dice hazard game and its simulator.
//! - [`lua`]: the sandboxed Lua layer, plugged into the game as its `Host`.
//! - [`load`]: loading a whole mod set, data and scripts, in the order the stages need.
//! - [`reload`]: the file watcher and transactional hot reload.
//! - [`harness`]: the scripted, deterministic test runner behind `lantern test`.
//! - `cli`: the `lantern` command line; the only module that prints (feature `cli`).
//!
//! Features: `cli` (the command line, with clap and rustyline) and `watch` (the file watcher, with
//! notify), both on by default; a game embedding the library may turn them off.
//!
//! `ARCHITECTURE.md` at the repository root gives the bird's-eye view and the invariants.

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
pub mod load;
pub mod lua;
pub mod mods;
pub mod reload;
pub mod rng;
pub mod toml_file;

pub use error::Error;

/// `docs/embedding.md`, the game developer's chapter: every Rust block in it is compiled and run as
/// a doctest, so the chapter cannot drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../docs/embedding.md")]
pub struct EmbeddingGuide;
