//! What a test writes as arguments, read into the game's terms: a stubbed random draw, an event's
//! payload and target, a creature handle.

use super::test_creature::Creature;
use super::test_game::{id, located, TestGame};
use crate::content::{EventKey, Value as PValue};
use crate::game::CreatureRef;
use crate::rng::Stub;
use mlua::{Lua, MultiValue, Table, Value};

/// What `g:stub_rng` was given, as rolls: a number, or a list of numbers, each a roll.
pub(super) fn stub_of(lua: &Lua, value: Value) -> mlua::Result<Stub> {
    Ok(match value {
        Value::Number(n) => Stub::Fixed(roll(lua, n)?),
        Value::Integer(i) => Stub::Fixed(roll(lua, i as f64)?),
        Value::Table(t) => Stub::Sequence {
            values: t
                .sequence_values::<f64>()
                .map(|v| v.and_then(|v| roll(lua, v)))
                .collect::<mlua::Result<_>>()?,
            next: 0,
        },
        other => {
            return Err(located(
                lua,
                format!(
                    "stub_rng takes a number or a list of numbers, not a {}",
                    other.type_name()
                ),
            ))
        }
    })
}

/// A stubbed roll: what a random stream gives, at least 0 and below 1.
pub(super) fn roll(lua: &Lua, value: f64) -> mlua::Result<f64> {
    if (0.0..1.0).contains(&value) {
        Ok(value)
    } else {
        Err(located(
            lua,
            format!(
                "stub_rng: {value} is not a roll: a roll is at least 0 and below 1 (0 passes \
                 every chance, 0.999 all but certain ones)"
            ),
        ))
    }
}

pub(super) fn creature_of(v: &Value) -> Option<CreatureRef> {
    match v {
        Value::UserData(ud) => ud.borrow::<Creature>().ok().map(|c| c.r),
        Value::Integer(i) if *i >= 1 => Some(CreatureRef::Enemy(*i as usize - 1)),
        Value::String(s) => crate::lua::bridge::parse_ref(&s.to_string_lossy()),
        _ => None,
    }
}

pub(super) fn payload_of(
    lua: &Lua,
    this: &TestGame,
    kind: EventKey,
    p: &Table,
) -> mlua::Result<Payload> {
    use crate::content::vocab::FieldType;
    let def = this.game.content().events.get(kind);
    let mut target = None;
    let mut values = Vec::new();
    for pair in p.pairs::<Value, Value>() {
        let (k, v) = pair?;
        crate::lua::price::charge_arguments(lua, &MultiValue::from_iter([k.clone()]))?;
        let k = match k {
            Value::String(k) => k.to_string_lossy(),
            other => {
                return Err(located(
                    lua,
                    format!(
                        "a payload's fields are named by text, not by a key of type `{}`",
                        other.type_name()
                    ),
                ))
            }
        };
        if k == "target" {
            target = Some(creature_of(&v).ok_or_else(|| {
                mlua::Error::runtime(
                    "`target` must be a creature from g:spawn, an enemy number or \"player\"",
                )
            })?);
            continue;
        }
        let (index, ty) = def.field(&k).ok_or_else(|| {
            let help =
                crate::diag::did_you_mean_suffix(&k, def.payload.iter().map(|(n, _)| n.as_str()));
            located(
                lua,
                format!("event `{}` has no payload field `{k}`{help}", def.name),
            )
        })?;
        let value = crate::lua::bridge::from_lua(lua, &v)
            .map_err(|e| located(lua, format!("`{k}`: {}", crate::lua::describe(&e).0)))?
            .filter(|v| v.fits(ty))
            .ok_or_else(|| {
                mlua::Error::runtime(format!("`{k}` must be of type `{}`", ty.name()))
            })?;
        let value = match (ty, value) {
            (
                FieldType::Item
                | FieldType::Quest
                | FieldType::Creature
                | FieldType::Encounter
                | FieldType::Host(_),
                PValue::Str(s),
            ) => PValue::id(&id(&s, &this.home)?),
            (_, v) => v,
        };
        values.push((index, value));
    }
    Ok((target, values))
}

/// What `g:emit` was given as a payload: its target, and its fields checked against the event's
/// declaration. Each key and value is charged by its length before it is copied.
pub(super) type Payload = (Option<CreatureRef>, Vec<(usize, PValue)>);
