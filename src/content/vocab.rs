//! Engine vocabulary: the names that have no namespace because the engine defines them.
//!
//! Attributes, damage types, equipment slots, and the engine events with their payloads.
//! The modder guide documents each entry; `lantern docs` and the validator read them from here.

/// The type of a payload field, of an event's `when` filter value, or of a custom event's declaration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum FieldType {
    /// A whole number.
    Int,
    /// A number.
    Float,
    /// Text.
    String,
    /// `true` or `false`.
    Bool,
    /// The ID of an item definition.
    Item,
    /// The ID of a creature definition.
    Creature,
    /// The ID of a quest.
    Quest,
    /// The ID of an encounter.
    Encounter,
    /// A damage type (`fire`).
    DamageType,
    /// The ID of a hazard.
    Hazard,
    /// The ID of a card.
    Card,
    /// The ID of an entry of one of the hosting game's data tables, by its kind (`crop`).
    Host(&'static str),
}

impl FieldType {
    /// Whether a value of this type is a definition's full ID (`core:gold`), as payloads give it.
    pub(crate) fn is_id(self) -> bool {
        !matches!(
            self,
            FieldType::Int
                | FieldType::Float
                | FieldType::String
                | FieldType::Bool
                | FieldType::DamageType
        )
    }

    /// The types a custom event's payload may declare, by name.
    pub(crate) const DECLARABLE: &'static [(&'static str, FieldType)] = &[
        ("int", FieldType::Int),
        ("float", FieldType::Float),
        ("string", FieldType::String),
        ("bool", FieldType::Bool),
        ("item", FieldType::Item),
        ("creature", FieldType::Creature),
        ("quest", FieldType::Quest),
        ("encounter", FieldType::Encounter),
        ("damage_type", FieldType::DamageType),
        ("hazard", FieldType::Hazard),
        ("card", FieldType::Card),
    ];

    /// The type's name as a data file writes it (a game's table kind for `Host`).
    pub fn name(self) -> &'static str {
        if let FieldType::Host(kind) = self {
            return kind;
        }
        FieldType::DECLARABLE
            .iter()
            .find(|(_, t)| *t == self)
            .map(|(n, _)| *n)
            .unwrap_or("?")
    }

    /// A number, text or flag rather than an ID.
    pub(crate) fn is_plain(self) -> bool {
        matches!(
            self,
            FieldType::Int | FieldType::Float | FieldType::String | FieldType::Bool
        )
    }

    /// A declarable type by its name.
    pub(crate) fn from_name(name: &str) -> Option<FieldType> {
        FieldType::DECLARABLE
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, t)| *t)
    }
}

/// An engine event: its name, payload fields, and who its `source` and `target` are.
pub struct EngineEvent {
    /// Its name, bare.
    pub name: &'static str,
    /// Which of them the world's triggers see (the guide's table of events says why).
    pub(crate) world: WorldSees,
    /// Its payload fields and their types.
    pub payload: &'static [(&'static str, FieldType)],
    /// Who its source is, in words.
    pub(crate) source: &'static str,
    /// Who its target is, in words.
    pub(crate) target: &'static str,
}

use FieldType as F;

/// Every engine event. The order is the events' [`EventKey`](super::EventKey) numbering.
pub const ENGINE_EVENTS: &[EngineEvent] = &[
    EngineEvent {
        name: "turn_started",
        world: WorldSees::PlayersOwn,
        payload: &[],
        source: "the creature whose turn starts",
        target: "none",
    },
    EngineEvent {
        name: "attack_hit",
        world: WorldSees::PlayersOwn,
        payload: &[("weapon", F::Item), ("damage_type", F::DamageType)],
        source: "the attacker",
        target: "the creature hit",
    },
    EngineEvent {
        name: "damage_taken",
        world: WorldSees::PlayersOwn,
        payload: &[("amount", F::Int), ("damage_type", F::DamageType)],
        source: "the creature that took the damage",
        target: "the creature that dealt it, if any",
    },
    EngineEvent {
        name: "creature_died",
        world: WorldSees::Every,
        payload: &[],
        source: "the creature that died",
        target: "none",
    },
    EngineEvent {
        name: "item_picked_up",
        world: WorldSees::PlayersOwn,
        payload: &[("item", F::Item)],
        source: "the creature that picked it up",
        target: "none",
    },
    EngineEvent {
        name: "item_used",
        world: WorldSees::PlayersOwn,
        payload: &[("item", F::Item)],
        source: "the creature that used it",
        target: "none",
    },
    EngineEvent {
        name: "npc_talked",
        world: WorldSees::Every,
        payload: &[("npc", F::Creature)],
        source: "the player",
        target: "the NPC",
    },
    EngineEvent {
        name: "quest_started",
        world: WorldSees::Every,
        payload: &[("quest", F::Quest)],
        source: "the player",
        target: "none",
    },
    EngineEvent {
        name: "quest_completed",
        world: WorldSees::Every,
        payload: &[("quest", F::Quest)],
        source: "the player",
        target: "none",
    },
    EngineEvent {
        name: "combat_started",
        world: WorldSees::Every,
        payload: &[],
        source: "the player",
        target: "none",
    },
    EngineEvent {
        name: "combat_ended",
        world: WorldSees::Every,
        payload: &[("outcome", F::String)],
        source: "the player",
        target: "none",
    },
    EngineEvent {
        name: "encounter_started",
        world: WorldSees::Every,
        payload: &[("encounter", F::Encounter)],
        source: "the player",
        target: "none",
    },
    EngineEvent {
        name: "encounter_resolved",
        world: WorldSees::Every,
        payload: &[
            ("encounter", F::Encounter),
            ("option", F::Int),
            ("success", F::Bool),
        ],
        source: "the player",
        target: "none",
    },
    EngineEvent {
        name: "hazard_started",
        world: WorldSees::Every,
        payload: &[("hazard", F::Hazard)],
        source: "the player",
        target: "none",
    },
    EngineEvent {
        name: "card_played",
        world: WorldSees::Every,
        payload: &[("card", F::Card), ("action", F::String)],
        source: "the player",
        target: "none",
    },
    EngineEvent {
        name: "hazard_round_ended",
        world: WorldSees::Every,
        payload: &[("round", F::Int), ("result", F::String)],
        source: "the player",
        target: "none",
    },
    EngineEvent {
        name: "hazard_ended",
        world: WorldSees::Every,
        payload: &[
            ("hazard", F::Hazard),
            ("route", F::String),
            ("score", F::Int),
        ],
        source: "the player",
        target: "none",
    },
];

/// Attributes every creature has; health is state, not an attribute (`max_health` is its cap).
pub const ATTRIBUTES: &[(&str, &str)] = &[
    ("max_health", "the most health the creature can have"),
    ("attack", "added to the weapon's damage on every hit"),
    ("armor", "subtracted from physical damage taken"),
    ("level", "experience level; conditions ask about it"),
    ("resist_fire", "percent of fire damage ignored"),
    ("resist_cold", "percent of cold damage ignored"),
    ("resist_poison", "percent of poison damage ignored"),
    ("resist_holy", "percent of holy damage ignored"),
];

/// The damage types, bare names.
pub const DAMAGE_TYPES: &[&str] = &["physical", "fire", "cold", "poison", "holy"];

/// Equipment slots; an item with a slot counts for modifiers and triggers only while equipped.
pub const SLOTS: &[&str] = &["weapon", "armor", "trinket"];

/// Every attribute's name.
pub fn attribute_names() -> impl Iterator<Item = &'static str> {
    ATTRIBUTES.iter().map(|(n, _)| *n)
}

/// An attribute name given at run time (a script, a test), refused with the closest name when it is not one.
pub(crate) fn known_attribute(name: &str) -> Result<(), String> {
    if attribute_names().any(|a| a == name) {
        return Ok(());
    }
    let help = crate::diag::did_you_mean_suffix(name, attribute_names());
    Err(format!("there is no attribute `{name}`{help}"))
}

/// Whether `name` is an attribute.
pub fn is_attribute(name: &str) -> bool {
    ATTRIBUTES.iter().any(|(n, _)| *n == name)
}

/// Which events the world's triggers see: those at the top level, in a room and in a quest, whose
/// bearer is the player. A creature's and an item's triggers see the events whose source is their
/// bearer, whatever this says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WorldSees {
    /// Only those whose source is the player: an event that happens *to* its source (`attack_hit`
    /// at the attacker, `damage_taken` at the one hit), which a trigger of the player's must not
    /// answer when it happens to someone else. `target` is the event's target.
    PlayersOwn,
    /// Every one: an event about the world the player watches (`creature_died`, custom events).
    /// `target` is the creature it is about: its source, or its target when the source is the
    /// player.
    Every,
}
