//! Actions: one vocabulary for triggers, quests, encounters, item use, AI and Lua.

use super::condition::Who;
use super::event::{EventKey, Value};
use crate::diag::Span;
use crate::id::Id;
use std::collections::BTreeMap;

/// A built-in action, or a script's or the game's (`Custom`), resolved: what an action table in a data file, `lantern.apply` or `Game::perform` becomes.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Action {
    /// `damage`: hurts a creature (armour and resistances first), raising `damage_taken` and, at zero health, `creature_died`.
    Damage {
        /// Damage before armour and resistance.
        amount: i64,
        /// Its type (`physical`, `fire`, ...).
        damage_type: String,
        /// Who is hurt.
        target: Who,
    },
    /// `heal`: gives health back, up to the creature's `max_health`.
    Heal {
        /// Health given back.
        amount: i64,
        /// Who is healed.
        target: Who,
    },
    /// `give_item`: gives items (a creature keeps at most the item's `stack` of them).
    GiveItem {
        /// The item given.
        item: Id,
        /// How many.
        count: u32,
        /// Who receives them.
        target: Who,
    },
    /// `take_item`: takes items; fails when the creature holds fewer.
    TakeItem {
        /// The item taken.
        item: Id,
        /// How many.
        count: u32,
        /// Who gives them up.
        target: Who,
    },
    /// `give_random_items`: gives items with a tag, drawn from the trigger's stream, within a range of rarities.
    GiveRandomItems {
        /// The tag the items have.
        tag: Id,
        /// How many are drawn.
        count: u32,
        /// The lowest rarity drawn, if any.
        min_rarity: Option<String>,
        /// The highest rarity drawn, if any.
        max_rarity: Option<String>,
        /// Who receives them.
        target: Who,
    },
    /// `take_random_items`: takes items with a tag (and a rarity), drawn from the trigger's stream.
    TakeRandomItems {
        /// The tag the items have.
        tag: Id,
        /// The rarity they have, if any.
        rarity: Option<String>,
        /// How many are taken.
        count: u32,
        /// Who gives them up.
        target: Who,
    },
    /// `damage_random_items`: lowers a property (a tower's endurance) of items with a tag, drawn from the trigger's stream.
    DamageRandomItems {
        /// The tag the items have.
        tag: Id,
        /// The property lowered.
        property: String,
        /// By how much.
        amount: i64,
        /// How many items.
        count: u32,
        /// Whose items.
        target: Who,
    },
    /// `start_quest`: starts a quest (counting from zero).
    StartQuest {
        /// The quest started.
        quest: Id,
    },
    /// Adds copies of a card to the player's personal deck (seed 002, FR-09); the next hazard
    /// shuffles them in.
    UnlockCard {
        /// The card.
        card: Id,
        /// How many copies.
        count: u32,
    },
    /// Changes one of the running hazard's dice (from 1): its face, its state, or both. Fails when
    /// no hazard is running or there is no such die.
    SetDie {
        /// The die, from 1.
        die: u32,
        /// Its new face: a color, or `None` for X; unchanged when absent.
        face: Option<Option<super::dice::Color>>,
        /// Its new state; unchanged when absent.
        state: Option<super::dice::DieState>,
    },
    /// `emit_event`: queues an event (the engine's, the game's or a mod's custom one) with its payload.
    EmitEvent {
        /// The event.
        event: EventKey,
        /// Its payload: (field index, value).
        payload: Vec<(usize, Value)>,
        /// Its target, if the action names one.
        target: Option<Who>,
    },
    /// One of the hosting game's actions (`farm:pay`), its arguments checked against its
    /// parameters.
    Game {
        /// The action's ID (`<game>:<name>`).
        id: Id,
        /// Its position among the game's actions, where the engine finds its code.
        index: usize,
        /// Its arguments.
        args: BTreeMap<String, Value>,
    },
    /// An action registered by a mod's Lua, with its other fields as arguments. (One with the
    /// ID of a game's action runs that action, looked up when it runs.)
    Custom {
        /// The action's ID (`<mod>:<name>` or `<game>:<name>`).
        id: Id,
        /// The table's other keys.
        args: BTreeMap<String, Value>,
    },
}

/// One action with the place it was written.
#[derive(Debug, Clone, PartialEq)]
pub struct ActionEntry {
    /// The action.
    pub action: Action,
    /// Where it was written.
    pub span: Span,
}

/// An action list: a transaction, applied whole or not at all.
#[derive(Debug, Clone, PartialEq)]
pub struct ActionList {
    /// Its actions, in order.
    pub actions: Vec<ActionEntry>,
    /// The list itself, so a failure names its file and line.
    pub span: Span,
}
