//! Conditions: one grammar for triggers, modifiers, quests, AI rules and encounter requirements.
//!
//! A list is an implicit AND; any entry may be negated with `not = true`; there is no OR and no nesting.

use super::event::Value;
use crate::diag::Span;
use crate::id::Id;
use std::collections::BTreeMap;

/// Which creature a check asks about or an action acts on, seen from the trigger's bearer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Who {
    /// The bearer of the trigger (the player for top-level triggers, quests and encounters).
    #[serde(rename = "self")]
    Bearer,
    /// The other side of the event.
    Target,
    /// The player, wherever the trigger stands.
    Player,
    /// The event's source (the attacker of `attack_hit`, the one hit of `damage_taken`), whichever
    /// side the bearer is on; nobody outside an event.
    Source,
}

impl Who {
    pub const NAMES: &'static [&'static str] = &["self", "target", "player", "source"];

    pub fn parse(s: &str) -> Option<Who> {
        match s {
            "self" => Some(Who::Bearer),
            "target" => Some(Who::Target),
            "player" => Some(Who::Player),
            "source" => Some(Who::Source),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Who::Bearer => "self",
            Who::Target => "target",
            Who::Player => "player",
            Who::Source => "source",
        }
    }
}

/// Which items a `has_item` check counts: one definition, or any with a tag and optionally a rarity.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemFilter {
    pub item: Option<Id>,
    pub tag: Option<Id>,
    pub rarity: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuestState {
    NotStarted,
    Active,
    Done,
}

impl QuestState {
    pub const NAMES: &'static [&'static str] = &["not_started", "active", "done"];

    pub fn parse(s: &str) -> Option<QuestState> {
        match s {
            "not_started" => Some(QuestState::NotStarted),
            "active" => Some(QuestState::Active),
            "done" => Some(QuestState::Done),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        QuestState::NAMES[self as usize]
    }
}

/// `repr(u8)` gives it a plain tag byte, which dispatch reads for every condition it evaluates; with
/// the layout Rust picks, the tag is folded into a field's spare values and every read decodes it.
#[derive(Debug, Clone, PartialEq)]
#[repr(u8)]
pub enum Check {
    HasTag {
        who: Who,
        tag: Id,
    },
    /// `at_least` when `below` is false.
    Attribute {
        who: Who,
        attribute: String,
        value: i64,
        below: bool,
    },
    HasItem {
        who: Who,
        filter: ItemFilter,
        count: u32,
    },
    HealthBelow {
        who: Who,
        fraction: f64,
    },
    Quest {
        quest: Id,
        state: QuestState,
    },
    /// Whether the creature is the player: `{ check = "is_player", who = "source" }` says the
    /// player is the attacker of an `attack_hit`.
    IsPlayer {
        who: Who,
    },
    /// A check registered by a mod's Lua, with its other fields as arguments.
    Custom {
        id: Id,
        args: BTreeMap<String, Value>,
    },
}

/// One entry of a condition list.
#[derive(Debug, Clone, PartialEq)]
pub struct Condition {
    pub check: Check,
    pub negate: bool,
    /// Shown when an encounter option is blocked by this condition.
    pub reason: Option<String>,
    pub span: Span,
}
