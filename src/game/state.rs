//! Game state: creatures, inventories, the scene, quest progress, per-mod storage.
//!
//! Everything here refers to content by ID (invariant 2), is plain data, and serializes into a save file.

use crate::content::Content;
use crate::content::Name;
use crate::id::Id;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Who a creature is in the current game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum CreatureRef {
    /// The player.
    Player,
    /// An enemy of the current room, by position.
    Enemy(usize),
}

impl std::fmt::Display for CreatureRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CreatureRef::Player => write!(f, "player"),
            CreatureRef::Enemy(i) => write!(f, "enemy {}", i + 1),
        }
    }
}

/// Items of one definition: a stack, or (for items with per-instance properties) one instance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ItemStack {
    /// The item's definition.
    pub item: Id,
    /// How many.
    pub count: u32,
    /// Per-instance properties (a tower's endurance).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub properties: BTreeMap<String, i64>,
    /// Whether it is worn in its slot.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub equipped: bool,
}

/// A creature of the roguelike: the player or an enemy.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Creature {
    /// The creature definition it was made from.
    pub def: Id,
    /// Its name.
    pub name: Name,
    /// Its health now.
    pub health: i64,
    /// Its tags.
    pub(crate) tags: Vec<Id>,
    /// Its base attributes (items add to them).
    pub(crate) attributes: BTreeMap<String, i64>,
    /// What it carries.
    pub inventory: Vec<ItemStack>,
}

/// The most cards a personal deck holds: `unlock_card` past it fails.
pub(super) const MOST_CARDS: usize = 500;

/// The most stacks one inventory holds: items with their own properties (a tower's endurance) are
/// a stack each, and a `give_item` of a billion of them must not make a billion.
pub(super) const MOST_STACKS: usize = 10_000;

impl Creature {
    /// A fresh creature from its definition, with its starting items (slotted ones equipped).
    pub fn spawn(content: &Content, def: &Id) -> Option<Creature> {
        let d = content.creatures.get(def)?;
        let mut attributes: BTreeMap<String, i64> = d
            .attributes
            .iter()
            .map(|&(name, value)| (name.to_string(), value))
            .collect();
        attributes
            .entry("max_health".to_string())
            .or_insert(d.health);
        let mut c = Creature {
            def: def.clone(),
            name: d.name.clone(),
            health: d.health,
            tags: d.tags.clone(),
            attributes,
            inventory: Vec::new(),
        };
        for (item, count) in &d.items {
            c.give(content, item, *count);
        }
        Some(c)
    }

    /// Whether its health is above zero.
    pub fn alive(&self) -> bool {
        self.health > 0
    }

    /// How many of an item it carries.
    pub fn count(&self, item: &Id) -> u32 {
        self.inventory
            .iter()
            .filter(|s| s.item == *item)
            .fold(0u32, |n, s| n.saturating_add(s.count))
    }

    /// Adds items up to the definition's `stack` cap; returns how many were kept.
    pub(crate) fn give(&mut self, content: &Content, item: &Id, count: u32) -> u32 {
        let cap = content.items.get(item).map_or(0, |d| d.stack);
        self.add(content, item, count, cap)
    }

    /// Adds items up to `cap` held in all; returns how many were kept.
    fn add(&mut self, content: &Content, item: &Id, count: u32, cap: u32) -> u32 {
        let Some(def) = content.items.get(item) else {
            return 0;
        };
        let held = self.count(item);
        let mut kept = count.min(cap.saturating_sub(held));
        if !def.properties.is_empty() {
            // Each one is a stack of its own: an inventory holds at most so many.
            let room = MOST_STACKS.saturating_sub(self.inventory.len());
            kept = kept.min(u32::try_from(room).unwrap_or(u32::MAX));
        }
        if kept == 0 {
            return 0;
        }
        let free_slot = |inv: &Vec<ItemStack>, slot: &str| {
            !inv.iter().any(|s| {
                s.equipped
                    && content.items.get(&s.item).and_then(|d| d.slot.as_deref()) == Some(slot)
            })
        };
        if def.properties.is_empty() {
            if let Some(stack) = self.inventory.iter_mut().find(|s| s.item == *item) {
                stack.count = stack.count.saturating_add(kept);
            } else {
                let equipped = def
                    .slot
                    .as_deref()
                    .is_some_and(|slot| free_slot(&self.inventory, slot));
                self.inventory.push(ItemStack {
                    item: item.clone(),
                    count: kept,
                    properties: BTreeMap::new(),
                    equipped,
                });
            }
        } else {
            for _ in 0..kept {
                let equipped = def
                    .slot
                    .as_deref()
                    .is_some_and(|slot| free_slot(&self.inventory, slot));
                self.inventory.push(ItemStack {
                    item: item.clone(),
                    count: 1,
                    properties: def.properties.clone(),
                    equipped,
                });
            }
        }
        kept
    }

    /// Adds items with no stack cap: inside an action list, where caps apply when the list is
    /// committed ([`Creature::cap`]), so that +100 then -100 at a full stack changes nothing.
    /// Returns how many were added (an inventory's own limit of stacks still holds).
    pub(crate) fn receive(&mut self, content: &Content, item: &Id, count: u32) -> u32 {
        self.add(content, item, count, u32::MAX)
    }

    /// Cuts every item down to its definition's `stack` cap, as an action list's commit does: the
    /// earliest stacks are kept whole, the last ones lose the excess. Returns how many of each
    /// item were left behind.
    pub(crate) fn cap(&mut self, content: &Content) -> Vec<(Id, u32)> {
        let mut seen: BTreeMap<Id, u32> = BTreeMap::new();
        let mut dropped: Vec<(Id, u32)> = Vec::new();
        for stack in self.inventory.iter_mut() {
            let Some(def) = content.items.get(&stack.item) else {
                continue;
            };
            let before = seen.get(&stack.item).copied().unwrap_or(0);
            let kept = stack.count.min(def.stack.saturating_sub(before));
            if kept < stack.count {
                let over = stack.count - kept;
                match dropped.iter_mut().find(|(id, _)| *id == stack.item) {
                    Some((_, n)) => *n = n.saturating_add(over),
                    None => dropped.push((stack.item.clone(), over)),
                }
            }
            stack.count = kept;
            seen.insert(stack.item.clone(), before.saturating_add(stack.count));
        }
        self.inventory.retain(|s| s.count > 0);
        dropped
    }

    /// Removes `count` of an item, first stacks first; the caller has checked there are enough.
    pub fn take(&mut self, item: &Id, mut count: u32) {
        for stack in self.inventory.iter_mut().filter(|s| s.item == *item) {
            let n = stack.count.min(count);
            stack.count -= n;
            count -= n;
            if count == 0 {
                break;
            }
        }
        self.inventory.retain(|s| s.count > 0);
    }
}

/// A started quest: `{quest, count, done}`. A done quest stays in the list.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct QuestProgress {
    /// Events counted so far.
    pub count: u32,
    /// Whether it is done.
    pub done: bool,
}

/// Progress whose content disappeared in a reload (a mod folder moved away, a data file saved
/// half-written): kept, listed, and given back when the content returns, so that a reload never
/// destroys what a later one could restore. Items set aside are in [`State::orphans`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SetAside {
    /// Quest progress, done quests included, by quest.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub quests: BTreeMap<Id, QuestProgress>,
    /// The open encounter, with the scene it was open in: it returns only to that scene.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encounter: Option<(Id, u64)>,
    /// The hazard being played, with its scene, likewise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hazard: Option<(crate::hazard::HazardRun, u64)>,
}

impl SetAside {
    /// Whether nothing is set aside.
    pub fn is_empty(&self) -> bool {
        self.quests.is_empty() && self.encounter.is_none() && self.hazard.is_none()
    }
}

/// Quest progress by quest ordinal (see [`State::quest_slots`]). Derived from `quests`, so two
/// states compare equal whatever their copies hold.
#[derive(Debug, Clone, Default)]
pub(crate) struct QuestSlots(pub(crate) Vec<Option<QuestProgress>>);

impl PartialEq for QuestSlots {
    fn eq(&self, _: &QuestSlots) -> bool {
        true
    }
}

/// An event carried past a turn's cap to the next turn, by name (what the content calls it
/// then), as a save keeps it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CarriedEvent {
    /// `creature_died`, `rats:ritual_done`.
    pub event: String,
    /// The creature it fires at.
    pub source: CreatureRef,
    /// The other side, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<CreatureRef>,
    /// Its payload, by field.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub payload: BTreeMap<String, crate::content::Value>,
    /// The trigger or quest whose actions raised it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cause: Option<String>,
}

/// The whole mutable state of a game: what a save file holds and the state hash covers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The run's seed.
    pub seed: u64,
    /// The player.
    pub player: Creature,
    /// The enemies of the current room.
    pub enemies: Vec<Creature>,
    /// Scenes begun ([`Game::begin_scene`](crate::game::Game::begin_scene)): the encounters and
    /// hazards opened in one draw from streams named after its number (the roguelike begins one
    /// with every room).
    #[serde(default)]
    pub scene: u64,
    /// Quest progress by quest.
    pub quests: BTreeMap<Id, QuestProgress>,
    /// `quests` again, by quest ordinal: what dispatch reads for every event. Derived, never saved;
    /// a clone of the state (a transaction's snapshot) carries it along. Change quest progress
    /// through `Game::set_quest` so the two agree.
    #[serde(skip)]
    pub(crate) quest_slots: QuestSlots,
    /// Events a turn raised past its cap, carried to the next turn in order
    /// ([`EventCapPolicy::Carry`](crate::game::EventCapPolicy::Carry)).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub carried: Vec<CarriedEvent>,
    /// Per-mod plain data (`lantern.storage`), kept across reloads and saved with the game.
    /// Shared, so that copying the state (every transaction that may run script code does) does
    /// not copy what the mods stored. Read from a save within a bound (`json_tree`).
    #[serde(deserialize_with = "crate::json_tree::storage")]
    pub storage: BTreeMap<String, std::sync::Arc<serde_json::Value>>,
    /// Every declared setting's value in this run, by setting (`rats:rat_health`): the defaults
    /// and what a player chose ([`Game::set_setting`](crate::game::Game::set_setting)).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub settings: BTreeMap<Id, crate::content::SettingValue>,
    /// Items whose definition disappeared in a reload: kept aside, listed, restored if it returns.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub orphans: Vec<ItemStack>,
    /// Quest progress, the encounter and the hazard whose definition disappeared in a reload.
    #[serde(default, skip_serializing_if = "SetAside::is_empty")]
    pub set_aside: SetAside,
    /// Random stream positions.
    pub rng: BTreeMap<String, u128>,
    /// Turns taken.
    pub turn: u64,
    /// A fight is on in the current room.
    #[serde(default)]
    pub combat: bool,
    /// The encounter waiting for the player's choice, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encounter: Option<Id>,
    /// The hazard being played, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hazard: Option<crate::hazard::HazardRun>,
    /// The player's personal deck of action cards for hazards.
    #[serde(default)]
    pub deck: Vec<Id>,
    /// Whether the run has ended (the player died).
    pub over: bool,
    /// The state of the game hosting the mods (its own type, declared in its
    /// [`Vocabulary`](crate::host::Vocabulary)); empty, and not saved, for a game that keeps none.
    #[serde(
        default,
        skip_serializing_if = "crate::content::declare::HostState::is_empty"
    )]
    pub host: crate::content::declare::HostState,
}
