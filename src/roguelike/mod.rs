//! The reference roguelike: the first game that hosts lantern's mods, and the one the `lantern`
//! binary plays. Its player's verbs (enter the next room, attack, flee, use an item, talk) live
//! here, above the runtime, behind the default `roguelike` feature.
//!
//! They are written on `Game`'s public API only (the same calls any game embedding lantern has:
//! actions through [`Game::apply_list`], events by name with [`Game::raise_from`], the scene's
//! calls in `game/scene.rs`), so what the roguelike needs, another game can use too. This module
//! cannot reach lantern's state: `Game`'s fields are private to the `game` module.
//!
//! Still inside the runtime, until the roguelike declares them itself: the run's position, its
//! rooms and floors (content kinds lantern resolves), the creature-and-inventory vocabulary, and
//! the `combat` flag in `State`.
//!
//! [`Game::apply_list`]: crate::game::Game::apply_list
//! [`Game::raise_from`]: crate::game::Game::raise_from

mod combat;
mod items;
mod rooms;

use crate::game::Outcome;

type VerbResult = Result<Outcome, crate::Error>;
