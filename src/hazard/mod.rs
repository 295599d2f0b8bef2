//! The hazard minigame of seed 002: a card-and-dice crisis, authored as data.
//!
//! [`engine`] is the game itself as a plain state machine over content (reveal, draw, the binding
//! route, four persistent mana dice, rounds of card plays, resolution, score), with no knowledge of
//! `Game`, events or Lua, so the [`sim`]ulator can play hundreds of thousands of runs a second. The
//! game wraps it (`game/hazard.rs`): every change goes through `Game`'s methods, events are raised
//! there, and the actions of cards, penalties and outcomes go through the one door.

pub mod engine;
pub mod sim;

pub use crate::content::DieState;
pub use engine::{Die, Face, HazardRun, Phase, Route, Side};
