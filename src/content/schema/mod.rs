//! JSON Schemas for data files, manifests and locale files, for editors (Taplo, "Even Better
//! TOML"): completion, hover text and squiggles before `lantern check` runs.
//!
//! Names come from the engine's own vocabulary (events, checks, actions, attributes, damage types,
//! colors). Each built-in action's and check's table is closed over the keys the resolver itself
//! reads for it (`resolve::builtin_keys`, which reads each one as the loader does), a game's over
//! its declared parameters; a mod's own stays open. Each table's entries (`entries`) have the keys,
//! value types and required keys of the type the loader reads them into, with what serde cannot
//! tell written beside them; tests hold the schema to the loader: the keys against what it
//! accepts, and every valid and broken file of the project against a stock validator
//! (`tests/schema_validation.rs`).

mod entries;

use super::dice::Color;
use super::resolve::vocabulary_names;
use super::vocab::{attribute_names, DAMAGE_TYPES, ENGINE_EVENTS};
use serde_json::{json, Map, Value};

/// A list of names as a JSON array.
pub(super) fn names(list: impl IntoIterator<Item = String>) -> Value {
    Value::Array(list.into_iter().map(Value::String).collect())
}

/// A name from a fixed list, or a `mod:name` registered by a script.
fn open_enum(list: Vec<String>) -> Value {
    json!({ "anyOf": [ { "enum": names(list) }, { "type": "string", "pattern": "^[a-z0-9_]+:[a-z0-9_]+$" } ] })
}

/// For each built-in check or action (`head` names it), its own table: the keys the resolver
/// reads for it (`builtin_keys`), closed, the ones it needs required, each key's values where
/// they are the engine's words. A mod's own (`rats:summon`) stays open: its arguments are its own.
fn builtin_tables(head: &str, checks: bool) -> Vec<Value> {
    super::resolve::builtin_keys(checks)
        .into_iter()
        .map(|(name, read)| {
            let mut props = Map::new();
            for key in &read.known {
                props.insert(key.to_string(), argument_shape(key));
            }
            let mut then = json!({ "properties": props, "required": read.required });
            if !read.open {
                then["additionalProperties"] = Value::Bool(false);
            }
            json!({
                "if": { "properties": { head: { "const": name } }, "required": [head] },
                "then": then,
            })
        })
        .collect()
}

/// For each of the game's own checks or actions, its table: its declared parameters, closed,
/// each of its type.
fn game_tables<'a>(
    head: &'a str,
    declared: impl Iterator<Item = (&'a crate::id::Id, &'a crate::content::declare::Signature)> + 'a,
) -> impl Iterator<Item = Value> + 'a {
    use crate::content::vocab::FieldType;
    declared.map(move |(id, sig)| {
        let mut props = Map::new();
        props.insert(head.to_string(), json!({}));
        if head == "check" {
            // Every condition may be negated and say why it blocks, whichever check it names.
            props.insert("not".into(), json!({ "type": "boolean" }));
            props.insert("reason".into(), json!({ "type": "string" }));
        }
        let mut required = Vec::new();
        for p in &sig.params {
            let shape = match p.ty {
                FieldType::Int => {
                    json!({ "type": "integer", "minimum": p.range.0, "maximum": p.range.1 })
                }
                FieldType::Float => json!({ "type": "number" }),
                FieldType::String => json!({ "type": "string" }),
                FieldType::Bool => json!({ "type": "boolean" }),
                FieldType::DamageType => {
                    json!({ "enum": names(DAMAGE_TYPES.iter().map(|s| s.to_string())) })
                }
                _ => json!({ "type": "string", "pattern": ID_PATTERN }),
            };
            props.insert(p.name.to_string(), shape);
            if p.required {
                required.push(p.name);
            }
        }
        json!({
            "if": { "properties": { head: { "const": id.as_str() } }, "required": [head] },
            "then": { "properties": props, "required": required, "additionalProperties": false },
        })
    })
}

/// What a built-in check's or action's key holds, by its name.
fn argument_shape(key: &str) -> Value {
    let id = json!({ "type": "string", "pattern": ID_PATTERN });
    match key {
        "who" | "target" => json!({ "enum": crate::content::Who::NAMES }),
        "damage_type" => json!({ "enum": names(DAMAGE_TYPES.iter().map(|s| s.to_string())) }),
        "attribute" => json!({ "enum": names(attribute_names().map(str::to_string)) }),
        "not" => json!({ "type": "boolean" }),
        "reason" => json!({ "type": "string" }),
        "item" | "tag" | "quest" | "card" | "creature" | "encounter" | "hazard" | "value" => id,
        "amount" | "count" | "at_least" | "below" | "die" => json!({ "type": "integer" }),
        "fraction" | "probability" => json!({ "type": "number", "minimum": 0, "maximum": 1 }),
        "payload" => json!({ "type": "object" }),
        "rarity" | "min_rarity" | "max_rarity" => {
            json!({ "type": "string", "pattern": "^[a-z0-9_]+$" })
        }
        "event" | "face" | "state" | "property" => json!({ "type": "string" }),
        _ => json!({}),
    }
}

/// The schema of the entries of one of the game's own tables: their `id`, the keys its type
/// reads (when serde tells them) with what each holds where the game says, the IDs they name.
fn game_table_schema(table: &crate::content::declare::TableDecl) -> Value {
    let mut props = Map::new();
    props.insert("id".to_string(), json!({ "type": "string" }));
    // A dotted reference (`needs.crop`) is inside a key the schema knows nothing else of.
    for (field, ty) in table.refs.iter().filter(|(f, _)| !f.contains('.')) {
        let id = json!({ "type": "string", "pattern": ID_PATTERN });
        props.insert(
            field.to_string(),
            json!({
                "description": format!("the ID of a {}, or an array of them", ty.name()),
                "anyOf": [ id.clone(), { "type": "array", "items": id } ],
            }),
        );
    }
    // The keys the game's type reads, when serde says: their values are the type's to check.
    for key in table.keys.unwrap_or_default() {
        props.entry(key.to_string()).or_insert_with(|| json!({}));
    }
    // What the type reads at a key, unless the key names IDs (described above).
    for (key, shape) in &table.shapes {
        let p = props.entry(key.to_string()).or_insert_with(|| json!({}));
        if p.get("anyOf").is_some() {
            continue;
        }
        match shape {
            crate::content::declare::keys::Shape::Names(names) => p["enum"] = json!(names),
            crate::content::declare::keys::Shape::Type(ty) => p["type"] = json!(ty),
        }
    }
    if table.in_play.is_some() {
        props.insert(
            "triggers".to_string(),
            json!({
                "type": "array",
                "description": "triggers that listen while the game has the entry in play",
                "items": { "$ref": "#/definitions/trigger" },
            }),
        );
    }
    for (key, help) in &table.help {
        let p = props.entry(key.to_string()).or_insert_with(|| json!({}));
        p["description"] = Value::String(help.to_string());
    }
    json!({
        "type": "array",
        "description": format!("the game's `{}` entries; each is a {}", table.key, table.kind),
        "items": {
            "type": "object",
            "required": ["id"],
            "additionalProperties": table.keys.is_none(),
            "properties": props,
        }
    })
}

/// What an ID written in a data file looks like: bare or `mod:name`.
pub(super) const ID_PATTERN: &str = "^([a-z0-9_]+:)?[a-z0-9_]+$";

/// The schema of a data file for a game's vocabulary (the roguelike's is the empty one): its
/// tables are arrays of entries with an `id`, the keys the game's type reads (when serde tells
/// them: a struct) and which of them name IDs (the values' other types are the game's to check);
/// its actions and checks are among the names offered; the creature tables are gone when the game
/// leaves them out.
pub(crate) fn data_schema_for(rules: &crate::content::declare::Declarations) -> Value {
    let (checks, actions) = vocabulary_names();
    let checks: Vec<String> = checks
        .iter()
        .map(|s| s.to_string())
        .chain(rules.checks.keys().map(crate::id::Id::to_string))
        .collect();
    let actions: Vec<String> = actions
        .iter()
        .map(|s| s.to_string())
        .chain(rules.public_actions().map(|(id, _)| id.to_string()))
        .collect();
    let events: Vec<String> = ENGINE_EVENTS
        .iter()
        .map(|e| e.name.to_string())
        .chain(rules.events.iter().map(|e| e.name.to_string()))
        .collect();
    let condition = json!({
        "type": "object",
        "required": ["check"],
        "properties": {
            "check": open_enum(checks),
            "not": { "type": "boolean" },
            "reason": { "type": "string", "description": "shown when it blocks an encounter option" },
        },
        "allOf": builtin_tables("check", true)
            .into_iter()
            .chain(game_tables("check", rules.checks.iter()))
            .collect::<Vec<_>>(),
    });
    let action = json!({
        "type": "object",
        "required": ["action"],
        "properties": { "action": open_enum(actions.clone()) },
        "allOf": builtin_tables("action", false)
            .into_iter()
            .chain(game_tables("action", rules.public_actions()))
            .collect::<Vec<_>>(),
    });
    // A card effect is one of the hazard effects or any action, built-in or a mod's.
    let effect = json!({
        "type": "object",
        "required": ["effect"],
        "properties": {
            "effect": open_enum(
                super::resolve::card_effect_names()
                    .iter()
                    .map(|s| s.to_string())
                    .chain(actions.iter().cloned())
                    .collect()
            ),
            "color": { "enum": names(Color::NAMES.iter().map(|s| s.to_string())) },
        }
    });
    let properties = tables(rules, &events);
    // Stable for a game: `urn:lantern:schema:<game>:data`, the roguelike's `...:roguelike:data`.
    let game = if rules.namespace.is_empty() {
        "lantern"
    } else {
        rules.namespace.as_str()
    };
    let mut schema = json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$id": format!("urn:lantern:schema:{game}:data"),
        "title": "lantern data file",
        "description": "A data file of a lantern mod. Generated by `lantern docs --schema`.",
        "type": "object",
        "additionalProperties": false,
        "properties": properties,
        "definitions": {
            "condition": condition,
            "action": action,
            "card_effect": effect,
            "trigger": entries::entry("triggers", &events),
        }
    });
    setting_refs(&mut schema, 0);
    if let Some(defs) = schema["definitions"].as_object_mut() {
        defs.insert(
            "setting_ref".into(),
            json!({
                "type": "object",
                "description": "a `startup` number setting's value: `{ setting = \"rats:rat_health\" }`",
                "required": ["setting"],
                "additionalProperties": false,
                "properties": { "setting": { "type": "string" } },
            }),
        );
    }
    schema
}

/// Each table a data file of `rules`'s game may hold, with the schema of its entries: lantern's
/// (less the creature-and-inventory ones a game leaves out) and the game's own.
fn tables(rules: &crate::content::declare::Declarations, events: &[String]) -> Map<String, Value> {
    let mut properties = Map::new();
    for table in crate::content::raw_defs::TABLES {
        properties.insert(
            table.to_string(),
            json!({ "type": "array", "items": entries::entry(table, events) }),
        );
    }
    if rules.without_creatures {
        for table in crate::content::raw_defs::CREATURE_TABLES {
            properties.remove(*table);
        }
    }
    for table in &rules.tables {
        properties.insert(table.key.to_string(), game_table_schema(table));
    }
    properties
}

/// Lets every number of a data file's schema be written as a setting reference too
/// (`{ setting = "rats:rat_health" }`), as the loader reads it.
fn setting_refs(schema: &mut Value, depth: usize) {
    // Far deeper than the schema nests.
    if depth > 64 {
        return;
    }
    let number = |v: &Value| {
        matches!(
            v.get("type").and_then(Value::as_str),
            Some("integer" | "number")
        )
    };
    if number(schema) {
        let mut plain = schema.take();
        // Its help stays where an editor looks for a key's.
        let help = plain.as_object_mut().and_then(|m| m.remove("description"));
        *schema = json!({ "anyOf": [plain, { "$ref": "#/definitions/setting_ref" }] });
        if let Some(help) = help {
            schema["description"] = help;
        }
        return;
    }
    match schema {
        Value::Object(map) => map.values_mut().for_each(|v| setting_refs(v, depth + 1)),
        Value::Array(list) => list.iter_mut().for_each(|v| setting_refs(v, depth + 1)),
        _ => {}
    }
}

/// The schema of `mod.toml`.
pub(crate) fn manifest_schema() -> Value {
    let dep = json!({ "type": "string", "pattern": "^[a-z0-9_]+(\\s*[<>=^~*0-9].*)?$", "description": "a mod id, optionally with a version requirement: `core >=0.1`, `core 0.1`" });
    json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$id": "urn:lantern:schema:manifest",
        "title": "lantern mod manifest",
        "type": "object",
        "required": ["id", "version"],
        "additionalProperties": false,
        "properties": {
            "id": { "type": "string", "pattern": "^[a-z0-9_]+$", "description": "also the namespace of everything the mod defines" },
            "name": { "type": "string" },
            "version": { "type": "string", "pattern": "^[0-9]+\\.[0-9]+\\.[0-9]+(-[0-9A-Za-z.-]+)?(\\+[0-9A-Za-z.-]+)?$", "description": "semver: three numbers" },
            "description": { "type": "string" },
            "authors": { "type": "array", "items": { "type": "string" } },
            "depends": { "type": "array", "items": dep, "description": "loaded first; required" },
            "optional": { "type": "array", "items": dep, "description": "loaded first when present" },
            "conflicts": { "type": "array", "items": dep, "description": "refuse to load both" },
            "language": { "type": "string", "pattern": "^[A-Za-z]{2,8}([-_][A-Za-z0-9]{1,8})*$", "description": "the language the mod's data is written in (`en` when not said): a language tag such as `de` or `zh-Hans`" },
            "untranslated": { "type": "array", "items": { "type": "string" }, "description": "text keys that read the same in every language (`brand`, or `names.*`): no translation is asked for them" },
            "game": { "type": "string", "description": "the versions of the hosting game the mod works with, a version requirement such as `>=0.3, <0.5`" },
            "renames": {
                "type": "object",
                "description": "old names of this mod's definitions and their new ones (`old_sword = \"blade\"`): a save made with an older version reads the old as the new",
                "propertyNames": { "pattern": "^[a-z0-9_]+$" },
                "additionalProperties": { "type": "string", "pattern": "^[a-z0-9_]+$" },
            },
            "ids_in_storage": { "type": "array", "items": { "type": "string" }, "description": "keys of the mod's storage whose values hold IDs of its definitions: `[renames]` applies to them in a save of an older version" },
            "settings": {
                "type": "object",
                "description": "the settings a player chooses, one table each (`[settings.rat_health]`), read as `lantern.settings.rat_health` and by the check `setting`",
                "propertyNames": { "pattern": "^[a-z0-9_]+$" },
                "additionalProperties": setting_schema(),
            },
        }
    })
}

/// The schema of one `[settings.<name>]` table.
fn setting_schema() -> Value {
    let number = json!({ "type": "number" });
    json!({
        "type": "object",
        "required": ["type", "default"],
        "additionalProperties": false,
        "properties": {
            "type": { "enum": ["bool", "int", "float", "string"], "description": "what the setting holds" },
            "default": { "type": ["boolean", "number", "string"], "description": "the value a game starts with; one the setting takes" },
            "min": number.clone(),
            "max": number,
            "choices": { "type": "array", "items": { "type": "string" }, "minItems": 1, "description": "for `string`: the texts a player chooses from" },
            "scope": { "enum": ["startup", "run", "player"], "description": "`startup`: fixed for a run (the default); `run`: changeable during play; `player`: each player's own" },
            "name": { "type": "string", "description": "what a settings menu shows (translated under `settings.<name>.name`)" },
            "description": { "type": "string", "description": "a line on what it does (translated under `settings.<name>.description`)" },
        }
    })
}

/// The schema of a locale file (`locale/de.toml`): texts by key, nested tables as dotted keys, a
/// table of plural forms with `other` as one text.
pub(crate) fn locale_schema() -> Value {
    let text = json!({ "type": "string", "description": "a text; `{name}` is an argument, `{{` and `}}` are braces" });
    let forms: serde_json::Map<String, Value> = crate::content::locale::PLURAL_FORMS
        .iter()
        .map(|f| (f.to_string(), text.clone()))
        .collect();
    json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$id": "urn:lantern:schema:locale",
        "title": "lantern locale file",
        "description": "a mod's texts in one language, by key: `locale/<language>.toml` for the mod's own, `locale/<mod>/<language>.toml` for another mod's",
        "$ref": "#/definitions/table",
        "definitions": {
            "text": text,
            "plural": {
                "type": "object",
                "description": "plural forms, chosen by the `count` argument and the language's rules",
                "required": ["other"],
                "additionalProperties": false,
                "properties": forms,
            },
            "table": {
                "type": "object",
                "additionalProperties": { "anyOf": [
                    { "$ref": "#/definitions/text" },
                    { "$ref": "#/definitions/plural" },
                    { "$ref": "#/definitions/table" },
                ] },
            },
        },
    })
}

/// Every schema an editor validates a mod's files with, by file name: data files, manifests and
/// locale files.
pub(crate) fn editor_schemas(
    rules: &crate::content::declare::Declarations,
) -> [(&'static str, Value); 3] {
    [
        ("lantern-data.schema.json", data_schema_for(rules)),
        ("lantern-mod.schema.json", manifest_schema()),
        ("lantern-locale.schema.json", locale_schema()),
    ]
}
