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
    /// The names data files write, in variant order.
    pub(crate) const NAMES: &'static [&'static str] = &["self", "target", "player", "source"];

    /// A `who` by its name.
    pub(crate) fn parse(s: &str) -> Option<Who> {
        match s {
            "self" => Some(Who::Bearer),
            "target" => Some(Who::Target),
            "player" => Some(Who::Player),
            "source" => Some(Who::Source),
            _ => None,
        }
    }

    /// The name data files write.
    pub(crate) fn as_str(self) -> &'static str {
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
    /// One item definition, if the filter names one.
    pub(crate) item: Option<Id>,
    /// Any item with this tag.
    pub(crate) tag: Option<Id>,
    /// With the tag, only items of this rarity.
    pub(crate) rarity: Option<String>,
}

/// Where a quest is, for the `quest` check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuestState {
    /// Not started.
    NotStarted,
    /// Started and counting.
    Active,
    /// Completed.
    Done,
}

impl QuestState {
    /// The names data files write, in variant order.
    pub(crate) const NAMES: &'static [&'static str] = &["not_started", "active", "done"];

    /// A state by its name.
    pub(crate) fn parse(s: &str) -> Option<QuestState> {
        match s {
            "not_started" => Some(QuestState::NotStarted),
            "active" => Some(QuestState::Active),
            "done" => Some(QuestState::Done),
            _ => None,
        }
    }

    /// The name data files write.
    pub(crate) fn as_str(self) -> &'static str {
        QuestState::NAMES[self as usize]
    }
}

/// `repr(u8)` gives it a plain tag byte, which dispatch reads for every condition it evaluates; with
/// the layout Rust picks, the tag is folded into a field's spare values and every read decodes it.
#[derive(Debug, Clone, PartialEq)]
#[repr(u8)]
#[non_exhaustive]
pub enum Check {
    /// `has_tag`: whether the creature has a tag.
    HasTag {
        /// Whom it asks about.
        who: Who,
        /// The tag.
        tag: Id,
    },
    /// `at_least` when `below` is false.
    Attribute {
        /// Whom it asks about.
        who: Who,
        /// The attribute (items' modifiers included).
        attribute: String,
        /// The value compared with.
        value: i64,
        /// `below` rather than `at_least`.
        below: bool,
    },
    /// `has_item`: whether the creature carries at least `count` items the filter matches.
    HasItem {
        /// Whom it asks about.
        who: Who,
        /// Which items count.
        filter: ItemFilter,
        /// How many are needed.
        count: u32,
    },
    /// `health_below`: whether health is below a fraction of `max_health`.
    HealthBelow {
        /// Whom it asks about.
        who: Who,
        /// The fraction, 0 to 1.
        fraction: f64,
    },
    /// `quest`: whether a quest is in a state.
    Quest {
        /// The quest.
        quest: Id,
        /// The state it must be in.
        state: QuestState,
    },
    /// Whether the creature is the player: `{ check = "is_player", who = "source" }` says the
    /// player is the attacker of an `attack_hit`.
    IsPlayer {
        /// Whom it asks about.
        who: Who,
    },
    /// `setting`: a mod's setting compared with a value (`at_least`, `below` or `is`).
    Setting {
        /// The setting (`rats:rat_health`).
        id: Id,
        /// What its value is compared with.
        test: SettingTest,
    },
    /// One of the hosting game's checks (`farm:money_at_least`), its arguments checked.
    Game {
        /// The check's ID (`<game>:<name>`).
        id: Id,
        /// Its position among the game's checks, where the engine finds its code.
        index: usize,
        /// Its arguments.
        args: BTreeMap<String, Value>,
    },
    /// A check registered by a mod's Lua, with its other fields as arguments. (One with the ID of
    /// a game's check asks that check, looked up when it is asked.)
    Custom {
        /// The check's ID (`<mod>:<name>` or `<game>:<name>`).
        id: Id,
        /// The table's other keys.
        args: BTreeMap<String, Value>,
    },
}

/// What a `setting` check compares a setting's value with.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum SettingTest {
    /// `at_least = 5`: a number setting at 5 or more.
    AtLeast(f64),
    /// `below = 5`: a number setting under 5.
    Below(f64),
    /// `is = "hard"`: the value itself; a `bool` setting with no comparison holds when it is on.
    Is(crate::content::SettingValue),
}

impl SettingTest {
    /// Whether `value` passes.
    pub(crate) fn passes(&self, value: &crate::content::SettingValue) -> bool {
        use crate::content::SettingValue as V;
        let number = match value {
            V::Int(n) => Some(*n as f64),
            V::Float(x) => Some(*x),
            _ => None,
        };
        match self {
            SettingTest::AtLeast(x) => number.is_some_and(|n| n >= *x),
            SettingTest::Below(x) => number.is_some_and(|n| n < *x),
            SettingTest::Is(V::Int(n)) => number == Some(*n as f64),
            SettingTest::Is(V::Float(x)) => number == Some(*x),
            SettingTest::Is(v) => v == value,
        }
    }
}

/// One entry of a condition list.
#[derive(Debug, Clone, PartialEq)]
pub struct Condition {
    /// The check.
    pub(crate) check: Check,
    /// `not = true`: the condition holds when the check does not.
    pub(crate) negate: bool,
    /// Shown when an encounter option is blocked by this condition.
    pub(crate) reason: Option<crate::content::Name>,
    /// Where it was written.
    pub span: Span,
}
