//! The reference roguelike: the first game that hosts lantern's mods, and the one the `lantern`
//! binary plays. Its player's verbs (enter the next room, attack, flee, use an item, talk) live
//! here, above the runtime, behind the default `roguelike` feature.
//!
//! They are written on `Game`'s public API only (the same calls any game embedding lantern has:
//! actions through [`Game::apply_list`], events by name with [`Game::raise_from`], the scene's
//! calls in `game/scene.rs`), so what the roguelike needs, another game can use too. This module
//! cannot reach lantern's state: `Game`'s fields are private to the `game` module.
//!
//! Its world is its own vocabulary (`world.rs`: the rooms and floors are its tables, where the run
//! is its state, entering a room its internal action), declared with [`Vocabulary`] as Harvest's
//! is. What it takes from lantern is the creature-and-inventory vocabulary (the player, enemies,
//! items, the scene's fights), which any game may take or leave.
//!
//! [`Vocabulary`]: crate::host::Vocabulary
//!
//! [`Game::apply_list`]: crate::game::Game::apply_list
//! [`Game::raise_from`]: crate::game::Game::raise_from

mod combat;
mod items;
mod rooms;
pub(crate) mod world;

pub(crate) use combat::{attack, flee};
pub(crate) use items::{talk, use_item};
pub(crate) use rooms::enter_next_room;
#[cfg(feature = "cli")]
pub(crate) use rooms::position;

/// The room the run is in, if any (`None` before the first `next`).
pub fn current_room(game: &crate::game::Game) -> Option<crate::id::Id> {
    rooms::current_room(game)
}

/// The reference roguelike's vocabulary: its rooms and floors as tables, the run as its state,
/// its events and `lantern.game.position`. What lantern's own loaders and tools use when a caller
/// names no rules (with the `roguelike` feature on).
pub fn rules() -> crate::host::Rules {
    // Made once: every loader of the bundled mods asks for it.
    static ROGUELIKE: std::sync::OnceLock<crate::host::Rules> = std::sync::OnceLock::new();
    ROGUELIKE.get_or_init(world::rules).clone()
}

use crate::game::Outcome;

type VerbResult = Result<Outcome, crate::Error>;
