//! The schema of an entry of each built-in table (`[[creatures]]`) and of the tables inside one
//! (`[[encounters.options]]`, a creature's `items`), made from the types the loader reads them
//! into (`raw`): their keys, what each reads and the keys they cannot go without are serde's
//! (`declare::keys`), so the schema cannot offer a key the loader refuses, miss one it reads, or
//! require one it does not. What serde cannot tell is written here: which keys hold IDs, actions,
//! conditions or the engine's words, ranges, and a line of help for each key.

use super::super::declare::keys::{self, Shape};
use super::super::dice::Color;
use super::super::hazard::CardClass;
use super::super::raw::*;
use super::super::vocab::{DAMAGE_TYPES, SLOTS};
use super::{names, ID_PATTERN};
use serde_json::{json, Map, Value};

/// A line of help for keys of each table, the tables inside one named by their path
/// (`encounters.options`). A test holds every key here to its table's type.
pub(super) const HELP: &[(&str, &[(&str, &str)])] = &[
    ("tags", &[("id", "the tag's ID"), ("name", "shown to players")]),
    ("rarities", &[("id", "a rarity name, no namespace"), ("rank", "order: lowest first")]),
    (
        "items",
        &[
            ("tags", "tag IDs"),
            ("stack", "the most a creature holds"),
            ("rarity", "a rarity level"),
            ("properties", "per-instance numbers, such as { endurance = 100 }"),
            ("slot", "weapon, armor or trinket"),
            ("damage", "a weapon's damage"),
            ("modifiers", "{ attribute, add, condition }"),
            ("triggers", "triggers its bearer carries"),
            ("use", "actions when used"),
            ("consumable", "used up on use"),
        ],
    ),
    ("items.modifiers", &[("attribute", "the attribute it adds to"), ("add", "how much (negative takes away)"), ("condition", "while these hold; always when empty")]),
    (
        "creatures",
        &[
            ("health", "maximum and starting health"),
            ("attributes", "base attribute values"),
            ("damage", "the natural attack"),
            ("items", "starting inventory: { item, count }"),
            ("ai", "rules: { condition, do = \"attack\" | \"wait\" } or { condition, actions }"),
            ("talk", "actions when the player talks to it"),
        ],
    ),
    ("creatures.items", &[("item", "the item's ID"), ("count", "how many (1 when not said)")]),
    ("creatures.ai", &[("condition", "when the rule applies"), ("do", "what it does when the condition holds"), ("actions", "actions it takes instead")]),
    ("triggers", &[("id", "optional; why, tests and overrides address it"), ("on", "the event"), ("when", "payload fields that must be equal"), ("condition", "conditions, all must hold"), ("chance", "0 to 1"), ("actions", "an action list, applied whole or not at all")]),
    ("quests", &[("on", "the event counted"), ("count", "how many to complete"), ("actions", "the reward")]),
    ("encounters", &[("weight", "relative chance of being drawn"), ("condition", "eligibility"), ("options", "[[encounters.options]]")]),
    ("encounters.options", &[("text", "what the player reads"), ("requirements", "conditions the option needs; each one's `reason` says why it is closed"), ("costs", "actions paid on choosing it"), ("probability", "the chance the rewards come"), ("rewards", "actions when it succeeds")]),
    ("event_types", &[("payload", "field = type: int, float, string, bool, item, creature, quest, encounter, damage_type, hazard, card, or a kind of the game's tables")]),
    (
        "hazards",
        &[
            ("text", "the scenario"),
            ("safe", "{ progress, thresholds = [per round] }"),
            ("risk", "two meters, both required"),
            ("choose_progress", "progress types the safe route may pick at reveal"),
            ("penalty", "actions for a failed round"),
            ("final_penalty", "more actions for a failed final round"),
            ("outcomes", "[[hazards.outcomes]] at_least, actions"),
        ],
    ),
    ("hazards.safe", &[("progress", "the progress type it counts"), ("thresholds", "the progress each round needs")]),
    ("hazards.outcomes", &[("at_least", "rounds passed"), ("actions", "applied when at least that many passed")]),
    (
        "cards",
        &[
            ("color", "red, blue, purple or gold"),
            ("class", "progress, focus, draw, dice, x_interaction or enchant"),
            ("starter", "copies in the starting deck"),
            ("top", "free effects"),
            ("bottom", "{ cost, effects }"),
            ("enchant", "the bottom action enchants"),
            ("ongoing", "effects every round while enchanted"),
        ],
    ),
    ("cards.bottom", &[("cost", "dice to spend: any showing a color, the card's own color first"), ("effects", "what it does")]),
];

/// What the loader reads an entry into: its keys in the order its type declares them, each with
/// what it reads where serde says, and the keys it cannot go without.
pub(super) struct Read {
    pub keys: Vec<(&'static str, Option<Shape>)>,
    pub required: Vec<&'static str>,
}

fn read_of<T: serde::de::DeserializeOwned>() -> Read {
    let found = keys::of::<T>().unwrap_or_default();
    let shapes = keys::shapes_of::<T>(found);
    Read {
        keys: found
            .iter()
            .map(|k| {
                (
                    *k,
                    shapes.iter().find(|(s, _)| s == k).map(|(_, shape)| *shape),
                )
            })
            .collect(),
        required: super::super::declare::required::required_of::<T>().unwrap_or_default(),
    }
}

/// What the loader reads an entry of a table, or of a table inside one, into.
pub(super) fn read_for(table: &str) -> Option<Read> {
    Some(match table {
        "tags" => read_of::<RawTag>(),
        "rarities" => read_of::<RawRarity>(),
        "items" => read_of::<RawItem>(),
        "items.modifiers" => read_of::<RawModifier>(),
        "creatures" => read_of::<RawCreature>(),
        "creatures.items" => read_of::<RawStack>(),
        "creatures.ai" => read_of::<RawAi>(),
        "triggers" => read_of::<RawTrigger>(),
        "quests" => read_of::<RawQuest>(),
        "encounters" => read_of::<RawEncounter>(),
        "encounters.options" => read_of::<RawOption>(),
        "event_types" => read_of::<RawEventType>(),
        "progress_types" => read_of::<RawProgressType>(),
        "hazards" => read_of::<RawHazard>(),
        "hazards.safe" => read_of::<RawMeter>(),
        "hazards.outcomes" => read_of::<RawOutcome>(),
        "cards" => read_of::<RawCard>(),
        "cards.bottom" => read_of::<RawBottom>(),
        _ => return None,
    })
}

/// The schema of one entry of `table`: closed, its keys, the ones it needs.
pub(super) fn entry(table: &str, events: &[String]) -> Value {
    let Some(read) = read_for(table) else {
        return json!({ "type": "object" });
    };
    let mut props = Map::new();
    for (key, shape) in &read.keys {
        let mut p = property(table, key, *shape, events);
        if let Some(help) = help_of(table, key) {
            p["description"] = Value::String(help.to_string());
        }
        props.insert(key.to_string(), p);
    }
    json!({
        "type": "object",
        "required": read.required,
        "additionalProperties": false,
        "properties": props,
    })
}

/// A key's line of help, if it has one.
fn help_of(table: &str, key: &str) -> Option<&'static str> {
    HELP.iter()
        .find(|(t, _)| *t == table)
        .and_then(|(_, keys)| keys.iter().find(|(k, _)| *k == key))
        .map(|(_, help)| *help)
}

/// What a key of `table` holds: the rules below where serde cannot say (IDs, lists of actions or
/// conditions, the engine's words, ranges, the tables inside an entry), else what its type reads.
fn property(table: &str, key: &str, read: Option<Shape>, events: &[String]) -> Value {
    let id = || json!({ "type": "string", "pattern": ID_PATTERN });
    let list =
        |of: &str| json!({ "type": "array", "items": { "$ref": format!("#/definitions/{of}") } });
    let inner = |path: &str| entry(&format!("{table}.{path}"), events);
    match (table, key) {
        (_, "condition" | "requirements") => list("condition"),
        (_, "actions" | "use" | "talk" | "penalty" | "final_penalty" | "costs" | "rewards") => {
            list("action")
        }
        (_, "triggers") => list("trigger"),
        (_, "top" | "ongoing" | "effects") => list("card_effect"),
        // Engine events for completion; a bare name is also one of the mod's own custom events.
        (_, "on") => {
            json!({ "anyOf": [ { "enum": events }, { "type": "string", "pattern": ID_PATTERN } ] })
        }
        (_, "damage_type") => json!({ "enum": names(DAMAGE_TYPES.iter().map(|s| s.to_string())) }),
        (_, "slot") => json!({ "enum": names(SLOTS.iter().map(|s| s.to_string())) }),
        (_, "color") => json!({ "enum": names(Color::NAMES.iter().map(|s| s.to_string())) }),
        (_, "class") => json!({ "enum": names(CardClass::NAMES.iter().map(|s| s.to_string())) }),
        (_, "chance" | "probability") => json!({ "type": "number", "minimum": 0, "maximum": 1 }),
        (_, "weight") => json!({ "type": "number", "minimum": 0 }),
        (_, "cost") => json!({ "type": "integer", "minimum": 0 }),
        // A rarity's name has no namespace.
        ("rarities", "id") | (_, "rarity") => {
            json!({ "type": "string", "pattern": "^[a-z0-9_]+$" })
        }
        (_, "id" | "item" | "progress") => id(),
        (_, "tags" | "choose_progress") => json!({ "type": "array", "items": id() }),
        (_, "properties" | "attributes") => {
            json!({ "type": "object", "additionalProperties": { "type": "integer" } })
        }
        (_, "payload") => json!({ "type": "object", "additionalProperties": { "type": "string" } }),
        (_, "when") => json!({ "type": "object" }),
        (_, "thresholds") => json!({ "type": "array", "items": { "type": "integer" } }),
        ("creatures.ai", "do") => json!({ "enum": ["attack", "wait"] }),
        ("creatures", "items")
        | ("items", "modifiers")
        | ("creatures", "ai")
        | ("encounters", "options")
        | ("hazards", "outcomes") => {
            json!({ "type": "array", "items": inner(key) })
        }
        ("hazards", "safe") | ("cards", "bottom") => inner(key),
        ("hazards", "risk") => json!({ "type": "array", "items": inner("safe") }),
        _ => match read {
            Some(Shape::Type(ty)) => json!({ "type": ty }),
            Some(Shape::Names(names)) => json!({ "enum": names }),
            None => json!({}),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_of_help_names_a_key_its_table_reads() {
        for (table, keys) in HELP {
            let read =
                read_for(table).unwrap_or_else(|| panic!("`{table}` is a table the loader reads"));
            for (key, _) in *keys {
                assert!(
                    read.keys.iter().any(|(k, _)| k == key),
                    "`{table}` reads no `{key}`"
                );
            }
        }
    }

    #[test]
    fn every_table_the_loader_reads_has_its_keys_and_needs_from_its_type() {
        for table in crate::content::raw_defs::TABLES {
            let read = read_for(table).unwrap_or_else(|| panic!("`{table}` has a type"));
            assert!(!read.keys.is_empty(), "`{table}` has keys");
        }
        let needs = |t: &str| read_for(t).unwrap().required;
        assert_eq!(needs("creatures"), ["id", "health"]);
        assert_eq!(needs("hazards"), ["id", "rounds", "safe", "risk"]);
        assert_eq!(needs("triggers"), ["on", "actions"]);
        assert_eq!(needs("encounters.options"), ["text"]);
        // An outcome's actions default to none: the loader does not need them.
        assert_eq!(needs("hazards.outcomes"), ["at_least"]);
    }
}
