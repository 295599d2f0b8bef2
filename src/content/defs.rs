//! Resolved definitions: what the registries hold after every reference has been checked.

use super::action::ActionList;
use super::condition::Condition;
use super::event::{EventKey, Value};
use crate::diag::Span;
use crate::id::Id;
use std::collections::BTreeMap;

#[derive(Debug, Clone)]
pub struct Tag {
    pub id: Id,
    pub name: String,
    pub description: String,
    pub span: Span,
}

/// A rarity level; levels are ordered by `rank`, lowest first.
#[derive(Debug, Clone)]
pub struct Rarity {
    pub id: String,
    pub name: String,
    pub rank: i64,
    pub span: Span,
}

/// Adds to an attribute while its condition holds (`self` is the bearer, `target` the opponent if any).
#[derive(Debug, Clone)]
pub struct Modifier {
    pub attribute: String,
    pub add: i64,
    pub condition: Vec<Condition>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct Item {
    pub id: Id,
    pub name: String,
    pub description: String,
    pub tags: Vec<Id>,
    /// Maximum count per stack.
    pub stack: u32,
    pub rarity: Option<String>,
    /// Initial per-instance properties (`endurance = 100`).
    pub properties: BTreeMap<String, i64>,
    pub slot: Option<String>,
    pub damage: i64,
    pub damage_type: String,
    pub modifiers: Vec<Modifier>,
    pub triggers: Vec<TriggerRef>,
    pub on_use: Option<ActionList>,
    pub consumable: bool,
    pub span: Span,
}

/// What a creature does on its turn: the first rule whose condition holds.
#[derive(Debug, Clone)]
pub enum AiAct {
    Attack,
    Wait,
    Actions(ActionList),
}

#[derive(Debug, Clone)]
pub struct AiRule {
    pub condition: Vec<Condition>,
    pub act: AiAct,
}

#[derive(Debug, Clone)]
pub struct Creature {
    pub id: Id,
    pub name: String,
    pub description: String,
    pub tags: Vec<Id>,
    pub health: i64,
    pub attributes: BTreeMap<String, i64>,
    pub damage: i64,
    pub damage_type: String,
    pub items: Vec<(Id, u32)>,
    pub triggers: Vec<TriggerRef>,
    pub ai: Vec<AiRule>,
    pub talk: Option<ActionList>,
    pub span: Span,
}

/// Index of a trigger in [`Content::triggers`](super::Content).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TriggerRef(pub u32);

/// Where a trigger stands, which decides its bearer and the events it sees.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TriggerHome {
    TopLevel,
    Item(Id),
    Creature(Id),
    Room(Id),
}

#[derive(Debug, Clone)]
pub struct Trigger {
    /// The trigger's own `id`, or `file:line` for one without.
    pub key: String,
    /// The random stream of its `chance` and of its drawing actions: `trigger:<key>`.
    pub stream: String,
    pub id: Option<Id>,
    pub home: TriggerHome,
    pub on: EventKey,
    /// Payload fields that must all be equal: (field index, value).
    pub when: Vec<(usize, Value)>,
    pub condition: Vec<Condition>,
    pub chance: Option<f64>,
    pub actions: ActionList,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct Quest {
    pub id: Id,
    pub name: String,
    pub description: String,
    pub on: EventKey,
    pub when: Vec<(usize, Value)>,
    pub condition: Vec<Condition>,
    pub count: u32,
    pub actions: ActionList,
    /// The random stream of its drawing actions: `quest:<id>`.
    pub stream: String,
    /// Its position among all quests in ID order (for dense per-quest tables).
    pub ordinal: u32,
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoomKind {
    Combat,
    Encounter,
    Hazard,
    Empty,
}

impl RoomKind {
    pub const NAMES: &'static [&'static str] = &["combat", "encounter", "hazard", "empty"];

    pub fn parse(s: &str) -> Option<RoomKind> {
        match s {
            "combat" => Some(RoomKind::Combat),
            "encounter" => Some(RoomKind::Encounter),
            "hazard" => Some(RoomKind::Hazard),
            "empty" => Some(RoomKind::Empty),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        RoomKind::NAMES[self as usize]
    }
}

#[derive(Debug, Clone)]
pub struct Room {
    pub id: Id,
    pub name: String,
    pub description: String,
    pub kind: RoomKind,
    pub enemies: Vec<Id>,
    pub npc: Option<Id>,
    pub loot: Vec<(Id, u32)>,
    /// A fixed encounter; without it an encounter room draws one by weight.
    pub encounter: Option<Id>,
    /// A fixed hazard; without it a hazard room draws one.
    pub hazard: Option<Id>,
    pub triggers: Vec<TriggerRef>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct Floor {
    pub id: Id,
    pub name: String,
    pub depth: i64,
    pub rooms: Vec<Id>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct EncounterOption {
    pub text: String,
    pub requirements: Vec<Condition>,
    pub costs: ActionList,
    pub probability: f64,
    pub rewards: ActionList,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct Encounter {
    pub id: Id,
    pub title: String,
    pub description: String,
    pub weight: f64,
    pub condition: Vec<Condition>,
    pub options: Vec<EncounterOption>,
    pub span: Span,
}

/// A definition that replaced another mod's definition of the same ID.
#[derive(Debug, Clone)]
pub struct Override {
    pub id: Id,
    pub kind: &'static str,
    pub by_mod: String,
    pub span: Span,
    pub replaced: Span,
}
