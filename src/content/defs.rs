//! Resolved definitions: what the registries hold after every reference has been checked.

use super::action::ActionList;
use super::condition::Condition;
use super::event::{EventKey, Value};
use super::name::Name;
use crate::diag::Span;
use crate::id::Id;
use std::collections::BTreeMap;

/// A tag (`[[tags]]`): items and creatures carry tags, checks and random draws filter by them.
#[derive(Debug, Clone, PartialEq)]
pub struct Tag {
    /// Its ID.
    pub id: Id,
    /// Shown to players.
    pub name: Name,
    /// What it means.
    pub description: String,
    /// Where it is defined.
    pub span: Span,
}

/// A rarity level; levels are ordered by `rank`, lowest first.
#[derive(Debug, Clone, PartialEq)]
pub struct Rarity {
    /// Its name, without a namespace.
    pub id: String,
    /// Shown to players.
    pub name: Name,
    /// Its order: lowest first.
    pub(crate) rank: i64,
    /// The mod that declares it: its name is that mod's text `rarities.<id>.name`.
    pub(crate) ns: String,
    /// Where it is defined.
    pub span: Span,
}

/// Adds to an attribute while its condition holds (`self` is the bearer, `target` the opponent if any).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Modifier {
    /// The attribute it adds to.
    pub(crate) attribute: String,
    /// How much it adds (negative takes away).
    pub(crate) add: i64,
    /// When it applies; always when empty.
    pub(crate) condition: Vec<Condition>,
    /// Where it is written.
    pub(crate) span: Span,
}

/// An item (`[[items]]`).
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// Its ID.
    pub id: Id,
    /// Shown to players.
    pub name: Name,
    /// What it is.
    pub description: String,
    /// Its tags.
    pub(crate) tags: Vec<Id>,
    /// Maximum count per stack.
    pub stack: u32,
    /// Its rarity, if any.
    pub rarity: Option<String>,
    /// Initial per-instance properties (`endurance = 100`).
    pub(crate) properties: BTreeMap<String, i64>,
    /// The slot it is worn in (`weapon`, ...), if any: a slotted item is equipped when its slot is free.
    pub slot: Option<String>,
    /// Damage it deals as a weapon.
    pub damage: i64,
    /// The type of that damage.
    pub damage_type: String,
    /// What it adds to its bearer's attributes.
    pub(crate) modifiers: Vec<Modifier>,
    /// Triggers that listen while it is carried.
    pub(crate) triggers: Vec<TriggerRef>,
    /// What `use` does, if it can be used.
    pub on_use: Option<ActionList>,
    /// Whether one is used up by `use`.
    pub consumable: bool,
    /// Where it is defined.
    pub span: Span,
}

/// What a creature does on its turn: the first rule whose condition holds.
#[derive(Debug, Clone, PartialEq)]
pub enum AiAct {
    /// Attacks the player.
    Attack,
    /// Does nothing this turn.
    Wait,
    /// Applies these actions.
    Actions(ActionList),
}

/// One rule of a creature's AI: what it does when the condition holds.
#[derive(Debug, Clone, PartialEq)]
pub struct AiRule {
    /// When the rule applies; always when empty.
    pub condition: Vec<Condition>,
    /// What it does.
    pub act: AiAct,
}

/// A creature (`[[creatures]]`): an enemy, an NPC, or the player's own definition.
#[derive(Debug, Clone, PartialEq)]
pub struct Creature {
    /// Its ID.
    pub id: Id,
    /// Shown to players.
    pub name: Name,
    /// What it is.
    pub description: String,
    /// Its tags.
    pub(crate) tags: Vec<Id>,
    /// Health it starts with.
    pub health: i64,
    /// Its base attributes (`max_health` is its health unless given), by name in order, each
    /// once: a list, not a map, as a creature has a few (a map's node weighed 384 bytes).
    pub(crate) attributes: Vec<(&'static str, i64)>,
    /// Damage it deals without a weapon.
    pub damage: i64,
    /// The type of that damage.
    pub damage_type: String,
    /// Items it starts with, and how many.
    pub(crate) items: Vec<(Id, u32)>,
    /// Triggers that listen while it is in the game.
    pub(crate) triggers: Vec<TriggerRef>,
    /// Its AI rules, in order.
    pub ai: Vec<AiRule>,
    /// What talking to it does, if it is an NPC.
    pub talk: Option<ActionList>,
    /// Where it is defined.
    pub span: Span,
}

/// Index of a trigger in [`Content::triggers`](super::Content).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TriggerRef(pub u32);

/// Where a trigger stands, which decides its bearer and the events it sees.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum TriggerHome {
    /// Top level: in a data file's `[[triggers]]`; its bearer is the player.
    TopLevel,
    /// On an item: its bearer carries the item.
    Item(Id),
    /// On a creature: its bearer is the creature.
    Creature(Id),
    /// In an entry of one of the game's tables (its kind, its ID): it listens while the game has
    /// the entry in play; its bearer is the player.
    Entry(&'static str, Id),
}

/// A trigger: on an event, when its payload matches and its conditions hold (and its chance draws), it applies its actions.
#[derive(Debug, Clone, PartialEq)]
pub struct Trigger {
    /// The trigger's own `id`, or `file:line` for one without.
    pub(crate) key: String,
    /// The random stream of its `chance` and of its drawing actions: `trigger:<key>`.
    pub(crate) stream: String,
    /// Its `id`, if it has one.
    pub id: Option<Id>,
    /// Where it stands.
    pub(crate) home: TriggerHome,
    /// The event it listens to.
    pub(crate) on: EventKey,
    /// Payload fields that must all be equal: (field index, value).
    pub(crate) when: Vec<(usize, Value)>,
    /// Conditions that must all hold.
    pub(crate) condition: Vec<Condition>,
    /// The chance it fires, 0 to 1, when its conditions hold.
    pub(crate) chance: Option<f64>,
    /// What it does: a transaction.
    pub(crate) actions: ActionList,
    /// Where it is defined.
    pub span: Span,
    /// The line its span starts at, counted when its file was read (0 when it was not).
    pub(crate) line: u32,
}

/// A quest (`[[quests]]`): counts an event, and completes with its reward at `count`.
#[derive(Debug, Clone, PartialEq)]
pub struct Quest {
    /// Its ID.
    pub id: Id,
    /// Shown to players.
    pub name: Name,
    /// What it asks.
    pub description: String,
    /// The event it counts.
    pub(crate) on: EventKey,
    /// Payload fields that must all be equal: (field index, value).
    pub(crate) when: Vec<(usize, Value)>,
    /// Conditions an event must meet to count.
    pub(crate) condition: Vec<Condition>,
    /// How many events complete it.
    pub count: u32,
    /// Its reward: a transaction.
    pub(crate) actions: ActionList,
    /// The random stream of its drawing actions: `quest:<id>`.
    pub(crate) stream: String,
    /// Its position among all quests in ID order (for dense per-quest tables).
    pub(crate) ordinal: u32,
    /// Where it is defined.
    pub span: Span,
}

/// One option of an encounter.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct EncounterOption {
    /// What the player reads.
    pub(crate) text: Name,
    /// Conditions it needs; blocked, with a reason, when one fails.
    pub(crate) requirements: Vec<Condition>,
    /// What it costs, applied first.
    pub(crate) costs: ActionList,
    /// The chance its rewards come, 0 to 1, drawn after the costs.
    pub(crate) probability: f64,
    /// What it gives.
    pub(crate) rewards: ActionList,
}

/// An encounter (`[[encounters]]`): a narrative choice (seed 000).
#[derive(Debug, Clone, PartialEq)]
pub struct Encounter {
    /// Its ID.
    pub id: Id,
    /// Its title.
    pub title: Name,
    /// What the player reads.
    pub description: String,
    /// Its relative chance of being drawn.
    pub(crate) weight: f64,
    /// When it can be drawn.
    pub(crate) condition: Vec<Condition>,
    /// Its options.
    pub(crate) options: Vec<EncounterOption>,
    /// Where it is defined.
    pub span: Span,
}

/// A definition that replaced another mod's definition of the same ID.
#[derive(Debug, Clone, PartialEq)]
pub struct Override {
    /// The ID defined twice.
    pub id: Id,
    /// Its kind (`item`, `room`, ...).
    pub kind: &'static str,
    /// The mod whose definition won.
    pub by_mod: String,
    /// Where the winning definition is.
    pub span: Span,
    /// Where the replaced one was.
    pub replaced: Span,
}
