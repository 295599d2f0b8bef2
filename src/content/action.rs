//! Actions: one vocabulary for triggers, quests, encounters, item use, AI and Lua.

use super::condition::Who;
use super::event::{EventKey, Value};
use crate::diag::Span;
use crate::id::Id;
use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    Damage {
        amount: i64,
        damage_type: String,
        target: Who,
    },
    Heal {
        amount: i64,
        target: Who,
    },
    GiveItem {
        item: Id,
        count: u32,
        target: Who,
    },
    TakeItem {
        item: Id,
        count: u32,
        target: Who,
    },
    GiveRandomItems {
        tag: Id,
        count: u32,
        min_rarity: Option<String>,
        max_rarity: Option<String>,
        target: Who,
    },
    TakeRandomItems {
        tag: Id,
        rarity: Option<String>,
        count: u32,
        target: Who,
    },
    DamageRandomItems {
        tag: Id,
        property: String,
        amount: i64,
        count: u32,
        target: Who,
    },
    StartQuest {
        quest: Id,
    },
    /// Adds copies of a card to the player's personal deck (seed 002, FR-09); the next hazard
    /// shuffles them in.
    UnlockCard {
        card: Id,
        count: u32,
    },
    /// Changes one of the running hazard's dice (from 1): its face, its state, or both. Fails when
    /// no hazard is running or there is no such die.
    SetDie {
        die: u32,
        face: Option<Option<crate::content::hazard::Color>>,
        state: Option<crate::hazard::DieState>,
    },
    EmitEvent {
        event: EventKey,
        payload: Vec<(usize, Value)>,
        target: Option<Who>,
    },
    /// An action registered by a mod's Lua, with its other fields as arguments.
    Custom {
        id: Id,
        args: BTreeMap<String, Value>,
    },
}

/// One action with the place it was written.
#[derive(Debug, Clone, PartialEq)]
pub struct ActionEntry {
    pub action: Action,
    pub span: Span,
}

/// An action list: a transaction, applied whole or not at all.
#[derive(Debug, Clone, PartialEq)]
pub struct ActionList {
    pub actions: Vec<ActionEntry>,
    /// The list itself, so a failure names its file and line.
    pub span: Span,
}

impl ActionList {
    pub fn is_empty(&self) -> bool {
        self.actions.is_empty()
    }
}
